# VL105 is not selected: its suppression is left alone
vllm serve m --dtype fp16  # vllm-lint: ignore[VL105]
