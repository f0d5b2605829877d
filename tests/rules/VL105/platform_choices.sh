# --mm-processor-device takes auto, cpu and the platform's device type (0.33+): a value outside
# the first two is not known to be refused (silent, noted in --verbose)
vllm serve m --mm-processor-device cuda
vllm serve m --mm-processor-device cpu
vllm serve m --mm-processor-device tpu
