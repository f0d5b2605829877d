"""Start the model server the evaluation talks to."""
import subprocess

IMAGE = "vllm/vllm-openai:v0.8.5"


def serve(model: str) -> subprocess.Popen:
    return subprocess.Popen([
        "vllm", "serve", model,
        "--swap-space", "16",
        "--num-scheduler-steps", "8",
        "--tensor-parallel-size", "2",
    ])
