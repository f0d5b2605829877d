# --show-hidden-metrics-for-version: the parser takes any word; ObservabilityConfig parses it as a PEP 440 version
vllm serve m --show-hidden-metrics-for-version latest
vllm serve m --show-hidden-metrics-for-version 0.26
vllm serve m --show-hidden-metrics-for-version None
