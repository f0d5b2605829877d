#!/usr/bin/env bash
# Launches behind constructions issue 27 asks to read through: a repository's own wrapper script,
# the interpreter in a variable, `bash -c -i "..."` in a container, `docker create`, an image
# given as `${VAR:-default}`, docker options from an array appended in both branches of an if.
# --swap-space is refused by 0.27.1: each launch is checked where it is written.
./launch-cluster.sh --apply-mod ./mods/fix exec vllm serve org/model-a \
  --swap-space 4 --port 8000
$VENV_PYTHON -m vllm.entrypoints.openai.api_server --model org/model-b --swap-space 4
docker run --gpus all -it --rm vllm-node \
  bash -c -i "vllm serve org/model-c --swap-space 4"
docker create --gpus all vllm/vllm-openai:v0.10.0 --model org/model-d --swap-space 4
docker run --gpus all "${IMAGE_TAG:-vllm/vllm-openai:v0.27.1}" --model org/model-e --swap-space 4
run_flags=(--gpus all --ipc=host)
if [[ "${DETACH:-0}" == 1 ]]; then
  run_flags+=(-d --name vllm --restart unless-stopped)
else
  run_flags+=(--rm -it)
fi
docker run "${run_flags[@]}" vllm/vllm-openai:v0.27.1 --model org/model-f --swap-space 4
