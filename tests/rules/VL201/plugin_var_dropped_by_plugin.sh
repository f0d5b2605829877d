# test-target: 0.27.1
# test-expect: VL201 6 warning
# The file installs the Gaudi plugin (no release named: its newest, 0.26.0, is checked), which no
# longer reads VLLM_LINEAR_BUCKETING (read up to its 0.24.0); VLLM_PROMPT_BS_BUCKET_MIN it reads
pip install vllm-gaudi
VLLM_LINEAR_BUCKETING=1 VLLM_PROMPT_BS_BUCKET_MIN=2 vllm serve org/model
