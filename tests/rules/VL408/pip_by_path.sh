#!/bin/bash
# pip, python and uv called by path are the same commands
# test-expect: VL408 4 warning
/opt/venv/bin/pip install vllm>=0.10.0
# test-expect: VL408 6 warning
/usr/bin/python3.11 -m pip install vllm>=0.10.0
