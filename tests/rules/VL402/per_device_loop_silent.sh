#!/bin/bash
#SBATCH --gres=gpu:4
# one server per GPU: each launch picks its device, nothing is idle (silent)
for i in 0 1 2 3; do
  CUDA_VISIBLE_DEVICES=$i vllm serve meta-llama/Llama-3.1-8B-Instruct --port 800$i &
done
wait
