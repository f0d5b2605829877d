# test-expect: VL202 9 info
# The repository's own variables, exported and handed on: VLLM_REF to a script the file runs
# (own_vars/build_image.sh checks it out), VLLM_BENCH_TAG to the ARG of the Dockerfile it builds,
# VLLM_BASE through a bare --build-arg (docker takes it from the environment): silent.
# VLLM_NOT_A_SETTING goes nowhere but the vLLM launch: reported.
export VLLM_REF=v0.11.0
export VLLM_BENCH_TAG=nightly
export VLLM_BASE=ubuntu
export VLLM_NOT_A_SETTING=1
./own_vars/build_image.sh
docker build -f own_vars/Dockerfile.bench --build-arg VLLM_BASE -t bench .
vllm serve org/model
