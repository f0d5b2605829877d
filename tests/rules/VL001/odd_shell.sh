#!/bin/sh
# a shell script is linted even when a line is odd
vllm serve m --port 8000 )
