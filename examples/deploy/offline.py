from vllm import LLM, SamplingParams

llm = LLM(
    model="Qwen/Qwen2.5-7B-Instruct",
    tensor_parallel_size=2,
    swap_space=8,
    num_scheduler_steps=4,
    max_model_len=16384,
)
print(llm.generate(["Hello"], SamplingParams(max_tokens=16)))
