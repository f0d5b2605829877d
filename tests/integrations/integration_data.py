"""Files of the small project the integration tests lint (findings at vLLM 0.27.1)."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """#!/bin/bash
export VLLM_USE_V1=1
vllm serve meta-llama/Llama-3.1-8B-Instruct \\
  --swap-space 16 \\
  --num-scheduler-steps 8 \\
  --cuda-graph-sizes 1 2 4 \\
  --dtype fp16 \\
  --port 8000
vllm serve m --swap-space 4  # start the server
"""

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
        - name: shell-form
          image: vllm/vllm-openai:latest
          command: ["/bin/sh", "-c"]
          args:
            - |
              vllm serve m \\
                --swap-space 4 \\
                --dtype fp16
        - name: list-form
          image: vllm/vllm-openai:latest
          args:
            - m
            - --swap-space
            - "4"
          env:
            - name: VLLM_USE_V1
              value: "1"
"""

DOCKERFILE = """FROM vllm/vllm-openai:latest
ENV VLLM_USE_V1=1
CMD ["m", \\
     "--swap-space", "4"]
"""

OFFLINE_PY = """from vllm import LLM

llm = LLM(
    "m",
    swap_space=4,
)
"""

README = """# Deploy

Start the server:

```bash
vllm serve m \\
  --swap-space 4
```

```python
from vllm import LLM
llm = LLM("m", swap_space=4)
```
"""

CLEAN = "vllm serve m --port 8000\n"

PROJECT = {"deploy.sh": SCRIPT, "k8s/deployment.yaml": DEPLOYMENT, "Dockerfile": DOCKERFILE,
           "offline.py": OFFLINE_PY, "README.md": README, "clean.sh": CLEAN}


def copy_tree(dst: Path) -> None:
    """The checkout's files as git sees them (tracked and untracked-but-not-ignored), so the
    working tree is tested, without build/ or egg-info left in the repository."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO, check=True,
                         capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, out):
        src = REPO / rel
        if src.is_file():
            target = dst / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(src.read_bytes())
