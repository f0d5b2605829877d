# quoted entrypoint words: reported, no fix (a rewrite would have to reproduce the quoting)
# test-target: 0.34.0
# test-expect: VL113 4 warning
"python3" -m 'vllm.entrypoints.openai.api_server' --model org/m
# the entrypoint named without arguments (a mention, a default's description): not reported
python3 -m vllm.entrypoints.openai.api_server
