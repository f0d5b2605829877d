"""A sweep that fills an InferenceService manifest in an f-string and applies it: the manifest is
read as YAML where the string spells it; the formatted fields are unknown values, and the
variables it sets (VLLM_USE_V1 is no longer read by 0.27.1) are checked where they are written."""

import subprocess


def deploy(name: str, tp: int) -> None:
    manifest = f"""
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: {name}
spec:
  predictor:
    containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.27.1
      args:
      - --model=/mnt/models
      - --tensor-parallel-size={tp}
      - --swap-space=4
      env:
      - name: VLLM_USE_V1
        value: "0"
"""
    subprocess.run(["kubectl", "apply", "-f", "-"], input=manifest.encode(), check=True)


NOT_A_MANIFEST = "apiVersion is a Kubernetes word; vllm is a server"
