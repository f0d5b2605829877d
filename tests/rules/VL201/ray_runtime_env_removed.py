# Ray Serve LLM runtime_env as dict(env_vars=...): VLLM_USE_V1 is no longer read at 0.27.1
from ray.serve.llm import LLMConfig

config = LLMConfig(
    model_loading_config=dict(model_id="m"),
    engine_kwargs=dict(max_model_len=4096),
    runtime_env=dict(env_vars={"VLLM_USE_V1": "1", "HF_TOKEN_PATH": "/t"}),
)
# test-expect: VL201 7 warning
