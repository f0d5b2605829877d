# silent where the launch may hold the missing option: words we cannot see, a variable in option
# position, a --config file
vllm serve m --enable-auto-tool-choice "$@"
vllm serve m --enable-auto-tool-choice $EXTRA_ARGS
vllm serve m --enable-auto-tool-choice "$TOOL_ARGS"
vllm serve m --enable-auto-tool-choice --config serve.yaml
