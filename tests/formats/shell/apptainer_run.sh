#!/bin/bash
# test-target: none
# `singularity run IMAGE ARGS` runs the image's runscript (for an image built from vLLM's, its
# entrypoint) with the arguments, as `docker run IMAGE ARGS` does; `instance run IMAGE NAME ARGS`
# names the instance first. The SIF's name, as Apptainer's pull writes it, names the release.
SIF=/scratch/images/vllm-openai_v0.10.0.sif
singularity run --nv --bind /models:/models "$SIF" --model /models/m --tokenizer-pool-size 2
apptainer instance run --nv /scratch/images/vllm-openai_v0.27.1.sif srv --model /models/m --swap-space 4
