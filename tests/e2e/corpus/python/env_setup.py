"""Benchmark harness: configures the engine through the environment first."""
import os

os.environ["VLLM_USE_V1"] = "1"
os.environ["VLLM_ATTENTION_BACKEND"] = "FLASHINFER"
os.environ.setdefault("VLLM_WORKER_MULTIPROC_METHOD", "spawn")

from vllm import LLM  # noqa: E402

# the bench machines install from requirements.txt (vllm==0.18.1)
llm = LLM(model="meta-llama/Llama-3.2-1B-Instruct", max_num_seqs=32, guided_decoding_backend="xgrammar")
