# 0.22.0-0.29.0: --quantization-config beside a --quantization that is no online shorthand is
# refused by EngineArgs.__post_init__ (resolve_quantization_config); 0.30.0+ composes them
# test-expect: VL112 4 error
vllm serve m --quantization inc --quantization-config '{"linear": "fp8_per_tensor"}'
vllm serve m --quantization inc --quantization-config.linear fp8_per_tensor
vllm serve m --quantization fp8_per_tensor --quantization-config '{"linear": "mxfp8"}'
vllm serve m --quantization-config '{"linear": "mxfp8"}'
vllm serve m --quantization inc
