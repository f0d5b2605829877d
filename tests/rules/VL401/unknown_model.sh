# an unknown model: silent, never guessed
vllm serve acme/secret-model-7b -tp 7
