# A key the script assigns is written in the file however the launch names it: reported at the
# launch, naming the line that writes it. A key from the caller's environment is fine.
API_KEY=sk-live-4f9a8b7c6d5e4f3a2b1c
# test-expect: VL501 5 warning
vllm serve facebook/opt-125m --api-key "$API_KEY"
vllm serve facebook/opt-125m --api-key "$SERVING_KEY"
