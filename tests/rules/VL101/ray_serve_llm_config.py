# Ray Serve LLM: engine_kwargs are vLLM's engine arguments (removed after 0.10.0: the fix deletes it)
from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(model_id="qwen", model_source="Qwen/Qwen2.5-0.5B-Instruct"),
    engine_kwargs=dict(
        tensor_parallel_size=1,
        swap_space=4,
    ),
)
serve.run(build_openai_app({"llm_configs": [llm_config]}))
# test-expect: VL101 9 error
