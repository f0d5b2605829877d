"""Argv lists whose program is given by name: a parameter whose default names vLLM's program, or a
name that says vLLM before "serve" (a caller passes the path): both are launches, checked."""
import subprocess


def local_args(model: str, *, vllm_bin: str = "vllm", port: int = 8000) -> list[str]:
    return [vllm_bin, "serve", model, "--port", str(port), "--swap-space", "4"]


def cluster_args(model: str, vllm_exe: str) -> list[str]:
    args = [
        vllm_exe,
        "serve",
        model,
        "--port",
        "8001",
        "--swap-space",
        "4",
    ]
    return args


def run(model: str) -> None:
    subprocess.run(local_args(model), check=True)
