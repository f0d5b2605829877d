from vllm import LLM
# test-expect: VL403 3 error
llm = LLM("Qwen/Qwen3-8B", max_model_len=131072)
