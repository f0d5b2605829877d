# --enable-auto-tool-choice needs a tool-call parser: without one, or with an empty one, vLLM refuses to start
# test-target: 0.27.1
# test-expect: VL112 4 error
vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice
vllm serve Qwen/Qwen3-8B --tool-call-parser '' --enable-auto-tool
vllm serve Qwen/Qwen3-8B --tool-call-parser hermes --enable-auto-tool-choice
vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --no-enable-auto-tool-choice
vllm serve Qwen/Qwen3-8B --enable-auto-tool-choice --tool-call-parser "$PARSER"
