from vllm.engine.arg_utils import AsyncEngineArgs
from vllm.engine.async_llm_engine import AsyncLLMEngine

engine_args = AsyncEngineArgs(
    model="mistralai/Mistral-7B-Instruct-v0.3",
    disable_log_requests=True,
    max_num_partial_prefills=2,
    num_scheduler_steps=4,
    enable_prefix_caching=True,
)
engine = AsyncLLMEngine.from_engine_args(engine_args)
