#!/bin/bash
#SBATCH --gpus-per-node=2
# test-expect: VL402 4 error
srun vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4
