#!/bin/sh
# fixcheck: origin=0.8.5
vllm serve BAAI/bge-m3 --task embed --override-pooler-config '{"pooling_type": "CLS"}'
