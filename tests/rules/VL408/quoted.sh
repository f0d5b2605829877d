pip install 'vllm>=0.10.0'
uv pip install "vllm[audio]<0.11"
pip install vllm==0.27.1
VLLM_LOGGING_LEVEL=INFO vllm serve Qwen/Qwen3-8B
