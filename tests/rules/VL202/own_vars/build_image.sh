#!/bin/bash
# (read by own_var_handed_on.sh: the script it runs checks out the ref it exports)
git clone https://github.com/vllm-project/vllm.git && cd vllm && git checkout "${VLLM_REF}"
