#!/bin/bash
# The image Apptainer runs vLLM in names the release: `docker://REF`, or a SIF file named by
# `apptainer pull` (NAME_TAG.sif).
# test-target: none
#SBATCH --gres=gpu:1
apptainer exec --nv docker://vllm/vllm-openai:v0.8.5 vllm serve facebook/opt-125m --num-scheduler-steps 8 --async-scheduling
singularity exec --nv ./vllm-openai_v0.10.0.sif vllm serve facebook/opt-125m --num-scheduler-steps 8
