vllm serve m --swap-space 4  # vllm-lint: ignore[VL101]
