# --mm-processor-device takes auto, cpu and the platform's device type (0.28+): a value outside
# the first two is not known to be refused (silent, noted in --verbose); no platform adds the empty word
# test-expect: VL105 7 error
vllm serve m --mm-processor-device cuda
vllm serve m --mm-processor-device cpu
vllm serve m --mm-processor-device tpu
vllm serve m --mm-processor-device ''
