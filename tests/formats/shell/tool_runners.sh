#!/bin/sh
# test-target: none
# tool runners install vLLM at the release they name (uvx's `vllm@X`, `uv tool run vllm==X`,
# `--from` / `--with` / `--spec vllm==X`): each launch is checked at that release
uvx vllm@0.8.5 serve facebook/opt-125m --swap-space 4 --max-model-len 2048
uv tool run vllm==0.27.1 serve facebook/opt-125m --swap-space 4
uv run --with vllm==0.10.0 vllm serve facebook/opt-125m --no-such-flag
pipx run --spec vllm==0.8.5 vllm serve facebook/opt-125m --swap-space 4
