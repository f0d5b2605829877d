# test-target: none
# Modal: pip_install("vllm==0.10.0") pins the release, which still accepts --swap-space
import subprocess

import modal

image = modal.Image.debian_slim().pip_install("vllm==0.10.0")
app = modal.App("vllm-server")


@app.function(image=image)
@modal.web_server(port=8000)
def serve():
    subprocess.Popen(["vllm", "serve", "m", "--swap-space", "4"])
