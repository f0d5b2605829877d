# the OpenAI api_server module runs the same check; Dynamo's worker parses its own command line
# test-expect: VL112 3 error
python -m vllm.entrypoints.openai.api_server --model m --enable-auto-tool-choice
python -m dynamo.vllm --model m --enable-auto-tool-choice
