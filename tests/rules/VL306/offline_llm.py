from vllm import LLM
llm = LLM("meta-llama/Llama-3.1-8B-Instruct", enforce_eager=True)
