# test-expect: VL502 3 info
# DeepSeek-V3's repository ships its own code (auto_map): it runs
vllm serve deepseek-ai/DeepSeek-V3 --trust-remote-code -tp 8
# Llama and Qwen3 repositories ship none: the option changes nothing, nothing to say
vllm serve meta-llama/Llama-3.1-8B-Instruct --trust-remote-code
vllm serve Qwen/Qwen3-8B --trust-remote-code
# a re-upload is not the repository the table read: whether it ships code is not known, nothing is said
vllm serve someone/Llama-3.1-8B-Instruct-abliterated --trust-remote-code
