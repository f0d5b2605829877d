# test-target: 0.10.0
# Ray Serve LLM: runtime_env env_vars are the environment of the replica that runs vLLM
from ray.serve.llm import LLMConfig

llm_config = LLMConfig(
    model_loading_config={"model_id": "m"},
    engine_kwargs={"max_model_len": 4096},
    runtime_env={"env_vars": {"VLLM_ATENTION": "FLASHINFER"}},
)
# test-expect: VL202 8 info
