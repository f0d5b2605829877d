# test-target: 0.27.1
# The file builds ROCm's fork from its repository: the fork reads VLLM_USE_V1, so the launch after
# the build gets no "no longer read"
git clone https://github.com/ROCm/vllm.git && pip install -e ./vllm
VLLM_USE_V1=0 vllm serve org/model
