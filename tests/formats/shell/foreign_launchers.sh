#!/bin/bash
# Other tools' launchers of vLLM: their keys are checked as the engine options they set, at the
# tool's spelling; their own keys (--port, data_parallel_size, batch_size, --input-len) stay silent.
MODEL=Qwen/Qwen2.5-7B-Instruct

# TRL's generation server for GRPO training (server mode)
srun --nodes=1 --ntasks=1 trl vllm-serve --model "$MODEL" \
  --tensor_parallel_size 2 --gpu_memory_utilization 1.2 --dtype bfloat17 \
  --port 8000 --data_parallel_size 1 &

# lighteval: the model arguments in one key=value string
MODEL_ARGS="model_name=$MODEL,dtype=bfloat16,max_model_length=32768,gpu_memory_utilization=0.8,generation_parameters={max_new_tokens:32768,temperature:0.6},tensor_parallel_size=2"
lighteval vllm $MODEL_ARGS "lighteval|aime24|0|0" --use-chat-template --output-dir evals/

# lm-evaluation-harness hands the keys it does not know to LLM(...)
lm_eval --model vllm \
  --model_args "pretrained=$MODEL,tensor_parallel_size=2,swap_space=4,num_scheduler_steps=8,batch_size=auto" \
  --tasks gsm8k --batch_size auto

# vLLM's own offline benchmark: vLLM's engine options beside its own
vllm bench latency --model "$MODEL" --tensor-parallel-size 2 --input-len 32 --output-len 128 --swap-space 4
