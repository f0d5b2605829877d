import os

# test-expect: VL501 4 warning
os.environ["HF_TOKEN"] = "hf_RealLookingToken1234"
os.environ["HUGGING_FACE_HUB_TOKEN"] = os.environ.get("TOKEN", "")
from vllm import LLM

llm = LLM("meta-llama/Llama-3.1-8B-Instruct")
