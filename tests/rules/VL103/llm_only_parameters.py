# the synthetic release lists llm_params ["model", "tokenizer"]: only LLM(...) takes "tokenizer"
from vllm import LLM, EngineArgs
LLM(model='m', tokenizer='t')
EngineArgs(model='m', tokenizer='t')
