# Llama-3.1-8B at bf16 (~15 GiB) fits one RTX A6000 (48 GB) and one RTX 3090 (24 GB); a bare
# RTX 6000 stays unknown (the Quadro, the Ada and the PRO parts have 24, 48 and 96 GB): silent.
# test-args: --gpu "NVIDIA RTX A6000" --gpus 1
vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192
