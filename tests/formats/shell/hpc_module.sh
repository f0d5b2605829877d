#!/bin/bash
# test-target: none
#SBATCH --job-name=serve
#SBATCH --gpus=1
#SBATCH --time=01:00:00
# The site's build of a release, as EasyBuild names it: the job runs that vLLM (0.10.0), which
# still accepts --swap-space and says --tokenizer-pool-size does nothing.
module purge
module load NRIS/GPU vLLM/0.10.0-foss-2024a-CUDA-12.6.0
vllm serve facebook/opt-125m --swap-space 4 --tokenizer-pool-size 2
