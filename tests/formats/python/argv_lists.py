"""Argv lists that start vLLM away from any process call: each is a launch where it is written."""
import os
import subprocess

SERVER_IMAGE = os.environ.get("SERVER_IMAGE", "vllm/vllm-openai:v0.10.0")

# a model platform's upload call takes the container's command and arguments as two lists
serving_container_command = ["python3", "-m", "vllm.entrypoints.api_server"]
serving_container_args = [
    "--model=facebook/opt-125m",
    "--swap-space=4",
]
upload_model(
    serving_container_image_uri="registry.example/serve:1",
    serving_container_command=serving_container_command,
    serving_container_args=serving_container_args,
)

# a pod spec in a test fixture: the image's release, the command, its arguments and environment
POD = {
    "containers": [
        {
            "name": "main",
            "image": SERVER_IMAGE,
            "command": ["vllm", "serve", "/mnt/models"],
            "args": ["--port", "8000", "--swap-space", "4"],
            "env": [{"name": "VLLM_ATENTION_BACKEND", "value": "FLASH_ATTN"}],
        }
    ]
}


class Service:
    def __command__(self):
        return ["vllm", "serve", "facebook/opt-125m", "--swap-space", "2"]


def launch(fast, model, runner, image, extra):
    if fast:
        cmd = ["vllm", "serve", model, "--swap-space", "8"]
    else:
        cmd = ["python", "-m", "vllm.entrypoints.openai.api_server", "--model", model, "--swap-space", "8"]
    subprocess.Popen(cmd)
    on_cluster = [runner, "exec", image, "vllm", "serve", model, "--swap-space", "16"] + extra
    os.system("python3 -m vllm.entrypoints.api_server --model='%s' --swap-space %d %s" % (model, 4, extra))
    os.system("vllm serve {} --swap-space {}  --port 8000".format(model, 4))
    return on_cluster


def not_launches(argv):
    # a comparison, a join the shell would split otherwise, a command of another program
    if argv[:2] == ["vllm", "serve"]:
        return None
    os.system(" ".join(["vllm", "serve", "m", "--served-model-name", "a b"]))
    return ["echo", "vllm", "serve", "m", "--swap-space", "4"]
