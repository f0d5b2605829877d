#!/bin/bash
#PBS -l select=1:ncpus=32:ngpus=4
#PBS -l walltime=02:00:00
vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4
