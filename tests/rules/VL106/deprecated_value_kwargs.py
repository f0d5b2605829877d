# a deprecated value in LLM(...)'s keyword arguments: the same warning, the string's content replaced
# test-target: 0.10.0
from vllm import LLM

llm = LLM("m", all2all_backend="mori_high_throughput")
other = LLM("m", all2all_backend="mori")
