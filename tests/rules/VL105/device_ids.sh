# --device-ids at 0.27.1: start-up hands string ids to the platform, which takes a number or a GPU UUID;
# a word, a device named twice and numbers mixed with UUIDs are refused, numbers and UUIDs pass
vllm serve m --device-ids cuda
vllm serve m --device-ids 0,0
vllm serve m --device-ids 0,GPU-5d1c
vllm serve m --device-ids ""
vllm serve m --device-ids 0,1
vllm serve m --device-ids GPU-5d1c,GPU-77ab
vllm serve m --device-ids=2
