"""What a launch's environment is known to hold (``knowledge/launch_env.py``): set by the file,
absent where a container the file states whole runs vLLM's own image, else unknown."""

from __future__ import annotations

import pytest

from vllm_lint import api
from vllm_lint.knowledge import launch_env

K8S = """apiVersion: apps/v1
kind: {kind}
metadata: {{name: x}}
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: {image}
        command: ["vllm", "serve"]
        args: ["m", "--grpc-port", "50051"]
{extra}"""

COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.34.0
    command: ["m", "--grpc-port", "50051"]
{extra}"""


def _launch(text: str, name: str):
    checked = api.check_bytes(api._linter("0.34.0", None, None, False), text.encode(), name)
    launches = [la.launch for la in checked.analysis.launches]
    assert len(launches) == 1
    return launches[0]


@pytest.mark.parametrize("kind, image, extra, want", [
    ("Deployment", "vllm/vllm-openai:v0.34.0", "", (False, "absent")),
    ("StatefulSet", "docker.io/vllm/vllm-openai:latest", "        env:\n        - {name: A, value: b}\n",
     (False, "absent")),
    ("Deployment", "vllm/vllm-openai:v0.34.0",
     "        env:\n        - {name: VLLM_USE_RUST_FRONTEND, value: '1'}\n", (True, "set")),
    ("Deployment", "vllm/vllm-openai:v0.34.0",
     "        env:\n        - name: VLLM_USE_RUST_FRONTEND\n          valueFrom: {configMapKeyRef: {name: c, key: k}}\n",
     (None, "set")),
    ("Deployment", "vllm/vllm-openai:v0.34.0", "        envFrom:\n        - configMapRef: {name: c}\n",
     (None, "unknown")),
    ("Deployment", "ghcr.io/me/vllm-openai-fork:v1", "", (None, "unknown")),  # another's image may set it
    ("Deployment", "nvcr.io/nvidia/vllm:25.10-py3", "", (None, "unknown")),
])
def test_kubernetes(kind, image, extra, want):
    la = _launch(K8S.format(kind=kind, image=image, extra=extra), "deploy.yaml")
    truth, _why = launch_env.truth(la, "VLLM_USE_RUST_FRONTEND", False)
    assert (truth, launch_env.lookup(la, "VLLM_USE_RUST_FRONTEND")[0]) == want


@pytest.mark.parametrize("extra, want", [
    ("", False), ("    environment:\n      VLLM_USE_RUST_FRONTEND: '1'\n", True),
    ("    env_file: [vllm.env]\n", None),
])
def test_compose(extra, want):
    la = _launch(COMPOSE.format(extra=extra), "compose.yaml")
    assert launch_env.truth(la, "VLLM_USE_RUST_FRONTEND", False)[0] is want


@pytest.mark.parametrize("script, want", [
    ("vllm serve m --grpc-port 1\n", None),  # the caller's environment may hold it
    ("VLLM_USE_RUST_FRONTEND=0 vllm serve m --grpc-port 1\n", False),
    ("export VLLM_USE_RUST_FRONTEND=1\nvllm serve m --grpc-port 1\n", True),
    ("VLLM_USE_RUST_FRONTEND=yes vllm serve m --grpc-port 1\n", None),  # not every release reads it alike
])
def test_shell(script, want):
    assert launch_env.truth(_launch(script, "serve.sh"), "VLLM_USE_RUST_FRONTEND", False)[0] is want
