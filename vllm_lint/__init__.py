"""vllm-lint: lint and fix vLLM launch configurations against the release you deploy."""

__version__ = "0.1.0"
