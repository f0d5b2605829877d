#!/bin/bash
# A README's command that its reader fills with str.format: the {placeholders} in model_args are
# unknown values (silent); a value written out is still checked.
lm_eval --model vllm --model_args pretrained=facebook/opt-125m,tensor_parallel_size={GPUs_per_model},data_parallel_size={model_replicas},max_num_seqs=many --tasks lambada_openai
