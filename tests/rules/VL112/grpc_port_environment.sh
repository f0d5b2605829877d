# --grpc-port is refused unless VLLM_USE_RUST_FRONTEND is on (0.32+): decided only where the launch's
# environment says so; a shell's caller may have exported it (silent, noted in --verbose)
# test-target: 0.34.0
# test-expect: VL112 7 error
# test-expect: VL112 12 error
vllm serve m --grpc-port 50051
VLLM_USE_RUST_FRONTEND=0 vllm serve m --grpc-port 50051
VLLM_USE_RUST_FRONTEND=1 vllm serve m --grpc-port 50051
VLLM_USE_RUST_FRONTEND="$RUST" vllm serve m --grpc-port 50051
export VLLM_USE_RUST_FRONTEND=1
vllm serve m --grpc-port 50051
docker run --gpus all -e VLLM_USE_RUST_FRONTEND=0 vllm/vllm-openai:v0.34.0 m --grpc-port 50051
docker run --gpus all -e VLLM_USE_RUST_FRONTEND=1 vllm/vllm-openai:v0.34.0 m --grpc-port 50051
