#!/usr/bin/env bash
# Sourced before the servers start (pip install vllm==0.8.5): variables of no launch.
export VLLM_USE_V1=0
export VLLM_OLD_KNOB=1
