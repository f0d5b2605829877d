# test-expect: VL408 3 warning
# test-expect: VL408 4 warning
uv pip install vllm>=0.10.0 --torch-backend=auto
python3 -m pip install -U vllm[audio]<0.11
VLLM_LOGGING_LEVEL=INFO vllm serve Qwen/Qwen3-8B
