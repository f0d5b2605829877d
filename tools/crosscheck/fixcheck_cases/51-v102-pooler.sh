#!/bin/sh
# fixcheck: origin=0.10.2
vllm serve BAAI/bge-reranker-v2-m3 --runner pooling --override-pooler-config '{"pooling_type": "MEAN", "normalize": true}'
