import os
import subprocess
import time

MODEL = os.environ.get("MODEL", "meta-llama/Llama-3.1-8B-Instruct")
TP = int(os.environ.get("TP", "1"))


def start_server() -> subprocess.Popen:
    env = {**os.environ, "VLLM_USE_V1": "1", "VLLM_ATTENTION_BACKEND": "FLASHINFER"}
    cmd = [
        "vllm", "serve", MODEL,
        "--tensor-parallel-size", str(TP),
        "--swap-space", "4",
        "--preemption-mode", "recompute",
        "--port", "8000",
    ]
    return subprocess.Popen(cmd, env=env)


if __name__ == "__main__":
    proc = start_server()
    time.sleep(60)
    proc.terminate()
