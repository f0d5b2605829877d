# Offline inference, the release pinned beside it.
from vllm import LLM

llm = LLM(model="org/chat-model", swap_space=8, num_scheduler_steps=4, tensor_parallel_size=2)
