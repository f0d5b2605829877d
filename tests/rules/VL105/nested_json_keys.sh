# a nested config class forbids every key it lacks, as a dotted key or inside the object
vllm serve m -cc.dynamic_shapes_config.evaluate_gaurds true
vllm serve m --compilation-config '{"dynamic_shapes_config": {"type": "backed", "x": 1}}'
vllm serve m -cc.dynamic_shapes_config.type backed
# a validator of the class sees pass_config first: not judged here
vllm serve m -cc.pass_config.foo 1
