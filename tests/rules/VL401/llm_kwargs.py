from vllm import LLM
# test-expect: VL401 4 error
llm = LLM(model="Qwen/Qwen2.5-7B-Instruct",
          tensor_parallel_size=8)
