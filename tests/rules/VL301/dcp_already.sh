# decode context parallelism already set: silent
vllm serve deepseek-ai/DeepSeek-R1 -tp 8 -dcp 8
