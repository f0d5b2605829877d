"""Start the model server the evaluation talks to."""
import subprocess

IMAGE = "vllm/vllm-openai:v0.27.1"


def serve(model: str) -> subprocess.Popen:
    return subprocess.Popen([
        "vllm", "serve", model,
        "--tensor-parallel-size", "2",
    ])
