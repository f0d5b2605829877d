# --max-loras 0 is refused only where start-up builds LoRAConfig, which it does only with --enable-lora
vllm serve m --max-loras 0
vllm serve m --enable-lora --max-loras 0
