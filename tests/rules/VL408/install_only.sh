#!/usr/bin/env bash
# test-expect: VL408 5 warning
# an install script: it starts no vLLM
set -euo pipefail
pip install vllm>=0.10.0 huggingface_hub
