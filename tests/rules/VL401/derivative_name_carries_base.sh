# A fine-tune the table does not list, named after its base: the base's heads apply (64 do not
# divide by 3), and the message says the facts are the architecture's, read from the name
vllm serve acme/Qwen3-235B-A22B-medical-sft -tp 3
