# test-expect: VL502 2 info
vllm serve deepseek-ai/DeepSeek-V3 --trust-remote-code
vllm serve deepseek-ai/DeepSeek-V3 --trust-remote-code --revision 5f3c2a1b9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b
vllm serve /models/local --trust-remote-code
# a model the table does not know: whether its repository ships code is not known, nothing is said
vllm serve some-org/custom-model --trust-remote-code
