# A token variable written in the file is reported where it is written; a launch that passes it
# as the API key uses the same secret: not reported a second time.
# test-expect: VL501 4 warning
export HF_TOKEN=hf_Q7wErTyUiOpAsDfGhJkLzXcVbNm0123456
vllm serve facebook/opt-125m --api-key "$HF_TOKEN"
# A key in a variable of another name is reported at the launch, naming its line.
KEY=sk-live-9a8b7c6d5e4f3a2b1c0d
# test-expect: VL501 9 warning
vllm serve facebook/opt-125m --api-key "$KEY"
