vllm serve m --port 8000  # vllm-lint: ignore[VL999]
