# a nested config's field looks a string up in the release's tables: other names are refused
vllm serve m --quantization-config.moe foo
vllm serve m --quantization-config.linear int8_weight_only
vllm serve m --quantization-config.moe.weight fp8_per_tensor
vllm serve m --quantization-config '{"linear": {"activation": "bar"}}'
# names the field takes
vllm serve m --quantization-config.moe int8_weight_only
vllm serve m --quantization-config.linear.weight mxfp8 --quantization-config.moe fp8_per_tensor
vllm serve m --quantization-config '{"linear": "fp8_per_token", "moe": {"activation": "mxfp8"}}'
# not a string: left to the other checks
vllm serve m --quantization-config.moe null
