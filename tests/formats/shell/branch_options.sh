#!/usr/bin/env bash
# A launcher script whose docker options and image are chosen in a `case` over its own arguments:
# GPUOPTION holds a run's option with the script's argument in its value (`--gpus device=$2`),
# IMAGE its default image unless `--cpu` picks another. The run is read with the default image;
# --swap-space is refused by 0.27.1.
GPUOPTION="--gpus all"
IMAGE=vllm/vllm-openai:v0.27.1
OPTIONS=""
while [[ $# -gt 0 ]]; do
  case $1 in
    -g|--gpuid)
      GPUOPTION="--gpus device=$2"
      shift 2
      ;;
    -c|--cpu)
      IMAGE="my-cpu-build"
      GPUOPTION=" "
      shift
      ;;
    *)
      OPTIONS+=" $1"
      shift
      ;;
  esac
done
docker run -it --rm \
  ${GPUOPTION} \
  --ipc=host \
  ${IMAGE} \
  --model org/model-a --swap-space 4 ${OPTIONS}
