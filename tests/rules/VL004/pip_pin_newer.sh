# fires: the script installs 0.30.0, which the database does not have yet
# test-expect: VL004 3 warning
pip install vllm==0.30.0
vllm serve Qwen/Qwen3-8B --max-model-len 8192
