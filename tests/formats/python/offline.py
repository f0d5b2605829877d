"""Offline inference: options are keyword arguments of LLM(...)."""
from vllm import LLM, SamplingParams

llm = LLM(
    model="facebook/opt-125m",
    swap_space=4,  # removed in later releases
    dtype="bf16",
    max_model_len=2048,
)
params = SamplingParams(temperature=0.8, top_p=0.95)
print(llm.generate(["Hello, my name is"], params))
