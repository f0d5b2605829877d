#!/usr/bin/env bash
# A --config YAML written by a heredoc in the same script, then passed to the launch: read as a
# vLLM config file at the launch's release (the image's tag, test-target none), a key that
# release refuses found and fixed in the heredoc's body.
# test-target: none
mkdir -p ./config
cat > ./config/serve.yaml <<'YAML'
model: facebook/opt-125m
swap-space: 8
max-model-len: 2048
YAML
docker run --gpus all -v "$PWD/config:/config" vllm/vllm-openai:v0.27.1 --config config/serve.yaml
