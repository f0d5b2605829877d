# test-target: 0.27.1
# The file pins the plugin release that still reads VLLM_LINEAR_BUCKETING: no finding; a pin the
# database does not hold is not checked either
pip install vllm-gaudi==0.24.0
VLLM_LINEAR_BUCKETING=1 vllm serve org/model
