# the rewrite is unsafe: data parallelism (several API servers under `vllm serve`), an interpreter
# option it would drop, an interpreter by path (a venv's vllm need not be first on PATH)
# test-target: 0.34.0
# test-expect: VL113 5 warning
python3 -m vllm.entrypoints.openai.api_server --model org/m --data-parallel-size 2
# test-expect: VL113 8 warning
# test-expect: VL113 9 warning
python3 -u -m vllm.entrypoints.openai.api_server --model org/m
/opt/venv/bin/python3 -m vllm.entrypoints.openai.api_server --model org/m
