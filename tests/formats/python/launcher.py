"""A launcher that starts the server in a subprocess: the argv list is the launch."""
import subprocess
import sys

MODEL = "facebook/opt-125m"


def main() -> int:
    cmd = ["vllm", "serve", MODEL, "--swap-space", "4", "--port", "8001"]
    return subprocess.run(cmd, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
