#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve meta-llama/Llama-3.1-8B-Instruct --guided-decoding-backend xgrammar --guided-decoding-disable-fallback --guided_decoding_disable_additional_properties
