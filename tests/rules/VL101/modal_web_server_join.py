# test-target: none
# Modal: a range is not a pin (the newest release is checked); the launch is a list joined for the shell
import subprocess

import modal

image = modal.Image.debian_slim(python_version="3.12").uv_pip_install("vllm>=0.8", "huggingface_hub")
app = modal.App("vllm-server")


@app.function(image=image, gpu="H100")
@modal.web_server(port=8000)
def serve():
    cmd = ["vllm", "serve", "Qwen/Qwen3-8B", "--port", "8000"]
    cmd += ["--swap-space", "4"]
    subprocess.Popen(" ".join(cmd), shell=True)
# test-expect: VL101 15 error
