"""The sixth pass's fresh-batch families (benchmarks/realworld/bench-misses.md, "Fresh batch"), each
through the command line on a small synthetic repository: a SkyPilot task's container image, a
compose service that builds the image it names, SageMaker's vLLM container configured by
``SM_VLLM_*`` variables, and a command with placeholder words in a Python docstring. The synthetic
database has 0.8.5, 0.10.0 and 0.27.1 (the newest)."""

from __future__ import annotations

import json

import pytest

from repo_tree import put, repo  # noqa: F401  (the fixture and the helper)


def lint(run_cli, *paths, select=None):
    """The findings (JSON) of a run over ``paths``, and its ``--verbose`` lines."""
    args = ["--output-format", "json", "--verbose"] + (["--select", select] if select else [])
    r = run_cli(*args, *map(str, paths))
    return json.loads(r.stdout), r.stderr


# ----------------------------------------------------------------------------- SkyPilot's image_id

SKY_TASK = """\
name: serve
resources:
  image_id: docker:vllm/vllm-openai:v0.10.0
  accelerators: L4:1
envs:
  VLLM_ATTENTION_BACKEND: FLASHINFER
run: |
  vllm serve acme/chat-7b --tensor-parallel-size 2 --swap-space 8
"""


def test_a_skypilot_task_runs_in_the_image_its_resources_name(run_cli, repo):
    p = put(repo, "sky/serve.yaml", SKY_TASK)
    found, _ = lint(run_cli, p)
    assert {d["target_version"] for d in found} == {"0.10.0"}
    codes = {d["code"] for d in found}
    assert "VL201" not in codes and "VL101" not in codes  # (0.10.0 reads the variable and takes --swap-space)
    assert "VL402" in codes  # tp 2 on the one L4 the task asks for


def test_a_skypilot_task_whose_resources_name_different_images_leaves_the_release_open(run_cli, repo):
    p = put(repo, "sky/serve.yaml", SKY_TASK.replace(
        "  image_id: docker:vllm/vllm-openai:v0.10.0\n",
        "  any_of:\n    - image_id: docker:vllm/vllm-openai:v0.10.0\n    - image_id: docker:vllm/vllm-openai:v0.8.5\n"))
    found, _ = lint(run_cli, p)
    assert {d["target_version"] for d in found} == {"0.27.1"}


def test_a_skypilot_vm_image_is_no_container(run_cli, repo):
    p = put(repo, "sky/serve.yaml", SKY_TASK.replace("docker:vllm/vllm-openai:v0.10.0", "ami-0123456789abcdef0"))
    found, _ = lint(run_cli, p)
    assert {d["target_version"] for d in found} == {"0.27.1"}


# ----------------------------------------------------------------------------- a compose build's image name

COMPOSE = """\
services:
  llm:
    build:
      context: ./server
    image: homelab/vllm-openai:dev
    command: ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "acme/chat-7b",
              "--swap-space", "8"]
"""
BUILT = """\
FROM nvidia/cuda:12.8.0-runtime-ubuntu22.04
RUN python3 -m pip install vllm==0.10.0
"""


def test_a_compose_build_decides_the_release_not_the_name_it_tags(run_cli, repo):
    put(repo, "server/Dockerfile", BUILT)
    p = put(repo, "docker-compose.yml", COMPOSE)
    found, verbose = lint(run_cli, p)
    assert "checked against vLLM 0.10.0 (pip-install 0.10.0)" in verbose
    assert not [d for d in found if d["code"] == "VL101"]  # (0.10.0 takes --swap-space)


def test_the_repository_survey_does_not_count_a_build_tag_as_a_release(run_cli, repo):
    put(repo, "server/Dockerfile", BUILT)
    put(repo, "docker-compose.yml", COMPOSE)
    put(repo, "skaffold.yaml", "build:\n  artifacts:\n    - image: homelab/vllm-openai\n      context: server\n")
    p = put(repo, "scripts/serve.sh", "#!/bin/sh\nvllm serve acme/chat-7b --swap-space 8\n")
    found, verbose = lint(run_cli, p)
    assert "checked against vLLM 0.10.0" in verbose and "several" not in verbose
    assert not [d for d in found if d["code"] == "VL101"]


def test_a_build_whose_dockerfile_is_missing_names_no_release_by_its_tag(run_cli, repo):
    p = put(repo, "docker-compose.yml", COMPOSE.replace("homelab/vllm-openai:dev", "vllm/vllm-openai:v0.8.5"))
    _found, verbose = lint(run_cli, p)
    assert "checked against vLLM 0.27.1 (newest" in verbose


# ----------------------------------------------------------------------------- SageMaker's SM_VLLM_* variables

SM_CALL = """\
client.create_model(
    ModelName="chat",
    PrimaryContainer={
        "Image": f"{account}.dkr.ecr.{region}.amazonaws.com/vllm:0.10.0-sagemaker-v1.0",
        "Environment": {
            "SM_VLLM_MODEL": "acme/chat-7b",
            "SM_VLLM_SWAP_SPACE": "8",
            "SM_VLLM_NUM_SCHEDULER_STEPS": "4",
            "SM_VLLM_ENFORCE_EAGER": "false",
        },
    },
)
"""


def test_sagemaker_variables_are_the_launch_of_the_containers_image(run_cli, repo):
    p = put(repo, "deploy.py", "import boto3\nclient = boto3.client('sagemaker')\n" + SM_CALL)
    found, verbose = lint(run_cli, p)
    assert "checked against vLLM 0.10.0 (image-tag 0.10.0)" in verbose
    assert "the container of a sagemaker configuration" in verbose
    assert [(d["code"], d["location"]["row"]) for d in found if d["code"].startswith("VL1")] == [("VL101", 10)]


def test_sagemaker_variables_in_a_guides_python_fence(run_cli, repo):
    p = put(repo, "docs/deploy.md", "# Deploy\n\n```python\n" + SM_CALL + "```\n")
    found, _ = lint(run_cli, p)
    assert [(d["code"], d["target_version"]) for d in found if d["code"].startswith("VL1")] == [("VL101", "0.10.0")]


def test_sagemaker_variables_removed_are_named_and_cut_as_variables(run_cli, repo):
    p = put(repo, "deploy.py", SM_CALL.replace("0.10.0-sagemaker", "0.27.1-sagemaker"))
    found, _ = lint(run_cli, p)
    messages = [d["message"] for d in found if d["code"] == "VL101"]
    assert any(m.startswith("`SM_VLLM_SWAP_SPACE` was removed") for m in messages)
    r = run_cli("--fix", str(p))
    assert r.exit_code in (0, 1)
    assert '"SM_VLLM_SWAP_SPACE"' not in p.read_text() and '"SM_VLLM_MODEL"' in p.read_text()


# ----------------------------------------------------------------------------- placeholders in documentation

DOC = '''\
"""Serve over several GPUs.

    vllm serve acme/chat-7b --tensor-parallel-size X --pipeline-parallel-size Y
"""
import subprocess

subprocess.run(["vllm", "serve", "acme/chat-7b", "--tensor-parallel-size", "X"])
'''


def test_a_capital_letter_in_a_docstrings_command_is_a_placeholder_not_a_refusal(run_cli, repo):
    p = put(repo, "multi.py", DOC)
    found, _ = lint(run_cli, p, select="VL105")
    assert [d["location"]["row"] for d in found] == [7]  # (the real launch's `X` is refused)


def test_a_sagemaker_variable_deprecated_for_another_names_its_successor_as_a_variable(run_cli, repo):
    # (0.10.0 deprecates --cuda-graph-sizes for --cudagraph-capture-sizes: the variable to set is named)
    p = put(repo, "deploy.py", SM_CALL.replace('"SM_VLLM_SWAP_SPACE": "8"', '"SM_VLLM_CUDA_GRAPH_SIZES": "8"'))
    found, _ = lint(run_cli, p)
    (d,) = [d for d in found if d["code"] == "VL106"]
    assert "`SM_VLLM_CUDAGRAPH_CAPTURE_SIZES`" in d["message"]


def test_a_dockerfiles_pins_in_run_lines():
    from vllm_lint.frontends.dockerfile_base import pinned_vllm

    assert pinned_vllm("FROM ubuntu\nRUN pip install \\\n    vllm==0.10.0 torch\n", {}) == "0.10.0"
    assert pinned_vllm('ARG V=0.8.5\nFROM ubuntu\nRUN uv pip install "vllm[audio]==${V}"\n', {}) == "0.8.5"
    assert pinned_vllm('ARG V=0.8.5\nFROM ubuntu\nRUN pip install vllm==${V}\n', {"V": "0.10.0"}) == "0.10.0"
    assert pinned_vllm("FROM ubuntu\nRUN pip install vllm==0.8.5\nRUN pip install vllm==0.10.0\n", {}) is None
    assert pinned_vllm("FROM ubuntu\n# RUN pip install vllm==0.8.5\nRUN pip install vllm\n", {}) is None


def test_what_a_build_tags_is_told_from_what_runs():
    from vllm_lint.pipeline.surroundings import build_result

    def at(text):
        return build_result(text, text.index("local/"))

    assert at("services:\n  llm:\n    build:\n      context: .\n    image: local/vllm:dev\n")
    assert at("services:\n  llm:\n    image: local/vllm:dev\n    restart: always\n    build: .\n")
    assert at("build:\n  artifacts:\n  - context: .\n    image: local/vllm-openai\n")
    assert not at("services:\n  llm:\n    image: local/vllm:dev\n  web:\n    build: .\n")
    assert not at("spec:\n  containers:\n    - name: x\n      image: local/vllm:1\n")


DOCKER_RUN = ("docker run --gpus all -p 8080:8080 \\\n  -e HF_HOME=/data/hf \\\n  -e SM_VLLM_MODEL=acme/chat-7b \\\n"
              "  -e SM_VLLM_NUM_SCHEDULER_STEPS=4 \\\n"
              "  1.dkr.ecr.us-east-1.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker-v1.0\n")


@pytest.mark.parametrize("name, text", [
    ("stack.yaml", "Resources:\n  M:\n    Type: AWS::SageMaker::Model\n    Properties:\n      PrimaryContainer:\n"
                   "        Image: 1.dkr.ecr.us-east-1.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker-v1.0\n"
                   "        Environment:\n          SM_VLLM_MODEL: acme/chat-7b\n"
                   "          SM_VLLM_NUM_SCHEDULER_STEPS: \"4\"\n"),
    ("main.tf", 'resource "aws_sagemaker_model" "m" {\n  primary_container {\n'
                '    image = "1.dkr.ecr.us-east-1.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker-v1.0"\n'
                '    environment = {\n      SM_VLLM_MODEL = "acme/chat-7b"\n'
                '      SM_VLLM_NUM_SCHEDULER_STEPS = "4"\n    }\n  }\n}\n'),
    ("serve.sh", DOCKER_RUN),
    ("guide_local_chat", "\n" + DOCKER_RUN + "\nThen ask it with curl.\n"),  # a note: no suffix, no #! line
])
def test_sagemaker_variables_in_cloudformation_terraform_and_a_docker_run(run_cli, repo, name, text):
    p = put(repo, name, text)
    found, verbose = lint(run_cli, p)
    assert "checked against vLLM 0.10.0 (image-tag 0.10.0)" in verbose
    assert [(d["code"], d["option"]) for d in found if d["code"].startswith("VL1")] == [
        ("VL101", "--num-scheduler-steps")]


def test_a_docker_run_in_a_skypilot_script_runs_its_own_image(run_cli, repo):
    p = put(repo, "sky/serve.yaml", SKY_TASK.replace(
        "  vllm serve acme/chat-7b --tensor-parallel-size 2 --swap-space 8\n",
        "  docker run --gpus all vllm/vllm-openai:v0.8.5 --model acme/chat-7b --swap-space 8\n"))
    _found, verbose = lint(run_cli, p)
    assert "checked against vLLM 0.8.5" in verbose and "0.10.0" not in verbose


def test_a_notebooks_image_bound_in_an_earlier_cell(run_cli, repo):
    import json as _json

    cells = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["image = f'{account}.dkr.ecr.{region}.amazonaws.com/vllm:0.10.0-sagemaker-v1.0'\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": SM_CALL.replace(
            'f"{account}.dkr.ecr.{region}.amazonaws.com/vllm:0.10.0-sagemaker-v1.0"', "image").splitlines(True)},
    ]
    p = put(repo, "deploy.ipynb", _json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    _found, verbose = lint(run_cli, p)
    assert "checked against vLLM 0.10.0 (image-tag 0.10.0)" in verbose


def test_a_docker_run_of_sagemaker_variables_takes_the_repositorys_release_when_its_image_names_none(run_cli, repo):
    put(repo, "requirements.txt", "vllm==0.27.1\n")
    p = put(repo, "run.sh", "docker run -e SM_VLLM_MODEL=acme/chat-7b -e SM_VLLM_SWAP_SPACE=8 my-sagemaker-image\n")
    found, _ = lint(run_cli, p)
    assert [(d["code"], d["target_version"], d["location"]["column"]) for d in found if d["code"] == "VL101"] == [
        ("VL101", "0.27.1", 45)]


def test_a_note_that_names_a_sagemaker_variable_in_prose_is_no_launch(run_cli, repo):
    from vllm_lint.frontends.base import format_by_content

    text = ("Qwen3 on SageMaker\n\nSet SM_VLLM_MAX_MODEL_LEN=32768 in the endpoint's environment; the entrypoint\n"
            "turns each SM_VLLM_ variable into a vLLM option (see the notebook).\n")
    p = put(repo, "guide_notes", text)
    assert format_by_content(text.encode(), "guide_notes") is None
    found, verbose = lint(run_cli, p)
    assert found == [] and "launch at" not in verbose
