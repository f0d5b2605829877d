# a before validator rewrites the word (lower case, - to _) before the field's Literal judges it
vllm serve m --kernel-config.moe_backend bogus
vllm serve m --kernel-config.moe_backend Deep-Gemm
vllm serve m --kernel-config '{"moe_backend": "Triton"}'
# a nested config's keys, past a validator of each of its fields
vllm serve m --kernel-config.ir_op_priority.gelu '["x"]'
vllm serve m --kernel-config.ir_op_priority.rms_norm vllm_c
# a key the class requires (no default), missing from the object start-up builds it from
vllm serve m --watermark-config '{"enforce": true}'
vllm serve m --watermark-config.enforce true
vllm serve m --watermark-config '{"enforce": true}' --watermark-config.key 7
vllm serve m --watermark-config '{"key": 7}'
# an object keyed by an enum's values, its string items looked up as member names
vllm serve m -ac.backend_per_kind '{"sliding_window": "FLASH_ATTN"}'
vllm serve m -ac.backend_per_kind.mla_attention bogus
vllm serve m -ac '{"backend_per_kind": {"full_attention": 3}}'
vllm serve m -ac.backend_per_kind '{"mla_attention": "triton_mla", "full_attention": "Flash_Attn"}'
# a check over each item of a list: all, none, +op or -op
vllm serve m -cc.custom_ops '["all", "rms_norm"]'
vllm serve m -cc.custom_ops+ +
vllm serve m -cc.custom_ops '["none", "+rms_norm", "-silu"]'
# a list of the fields set off their defaults, refused unless the profiler is proton
vllm serve m --profiler-config.proton_output_format chrome_trace
vllm serve m --profiler-config '{"profiler": "proton", "proton_output_format": "chrome_trace"}'
vllm serve m --profiler-config '{"profiler": "torch", "proton_data": "tree"}'
# each item of an object field: a name of the release's table, or an object of the nested class
vllm serve m --quantization-config.targets '{"re:.*proj": "fp8"}'
vllm serve m --quantization-config.targets.lm_head mxfp8
vllm serve m --quantization-config '{"targets": {"a": {"wieght": "mxfp8"}}}'
vllm serve m --quantization-config.targets '{"a": 1}'
vllm serve m --quantization-config.targets '[1]'
vllm serve m --quantization-config.targets '{"a": "mxfp4", "b": {"weight": "mxfp8"}}'
# a number given to a field a validator looks up in an enum whose values are all strings
vllm serve m --attention-config '{"mla_prefill_backend": -1}'
vllm serve m --attention-config '{"mla_prefill_backend": null}'
