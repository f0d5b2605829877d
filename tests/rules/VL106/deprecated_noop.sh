# deprecated at 0.10.0 and already without effect there (the overlay's noop_since): removed safely
# test-target: 0.10.0
# test-expect: VL106 4 warning
vllm serve m --tokenizer-pool-size 4 --port 8000
