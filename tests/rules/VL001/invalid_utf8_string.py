# invalid UTF-8 inside a string literal
from vllm import LLM
LLM(model="café")
