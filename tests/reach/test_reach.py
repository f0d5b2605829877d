"""What reaches vLLM (vllm_lint/reach.py, issue 15): one test per class of false finding that the
measurement on vLLM's docs and on deployment files found, each on a fixture written here, checked
against the shipped database at a named release. Each of these failed before the change."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from vllm_lint.cli.app import main
from vllm_lint.surface.db import default_db_path


@pytest.fixture
def lint(tmp_path, monkeypatch):
    monkeypatch.setenv("VLLM_LINT_DB", str(default_db_path()))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")

    def run(name: str, text: str, target: str | None = None) -> list[dict]:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        args = ["--output-format", "json", "--exit-zero", "-q", str(p)] + (["-t", target] if target else [])
        res = CliRunner().invoke(main, args, catch_exceptions=False)
        return json.loads(res.output or "[]")

    return run


def codes(found: list[dict]) -> list[tuple[str, str]]:
    return sorted((f["code"], f.get("option") or "") for f in found)


# ---- environment: where a variable is set, exported and read

def test_dockerfile_build_stage_env_and_run_exports_do_not_reach_the_image(lint):
    found = lint("Dockerfile", """\
FROM ubuntu:22.04 AS build
ARG VLLM_FAKE_BUILD_KNOB=1
ENV VLLM_FAKE_BUILD_KNOB=${VLLM_FAKE_BUILD_KNOB}
RUN export VLLM_OTHER_FAKE=1 && make
FROM vllm/vllm-openai:v0.10.2
ENV VLLM_USAGE_SOURCE=production-docker-image
""")
    assert codes(found) == []


def test_final_stage_env_still_reaches_the_image(lint):
    found = lint("Dockerfile", "FROM vllm/vllm-openai:v0.10.2\nENV VLLM_WORKER_MULTIPROC_METHD=spawn\n")
    assert codes(found) == [("VL202", "VLLM_WORKER_MULTIPROC_METHD")]


def test_a_variable_the_file_expands_itself_is_the_files_own(lint):
    found = lint("install.sh", """\
export VLLM_VERSION=0.10.2
export VLLM_COMMIT=abc123
pip install https://wheels.example/${VLLM_COMMIT}/vllm-${VLLM_VERSION}-cp38-abi3-linux_x86_64.whl
vllm serve m
""", target="0.10.2")
    assert codes(found) == []


def test_heredoc_expansion_makes_the_variable_the_files_own(lint):
    found = lint("deploy.sh", """\
VLLM_IMAGE=vllm/vllm-openai:v0.10.2
cat <<END | kubectl apply -f -
image: $VLLM_IMAGE
END
""", target="0.10.2")
    assert codes(found) == []


def test_a_name_vllm_reads_still_counts_when_the_file_expands_it(lint):
    found = lint("run.sh", """\
export VLLM_TORCH_COMPILE_LEVEL=0
echo "level ${VLLM_TORCH_COMPILE_LEVEL}"
vllm serve m
""", target="0.18.0")
    assert codes(found) == [("VL201", "VLLM_TORCH_COMPILE_LEVEL")]


def test_build_time_variables_are_known_per_release(lint):
    # read by setup.py / CMake at these releases: a build setting, never "not read by any release"
    found = lint("k8s.yaml", """\
apiVersion: v1
kind: Pod
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.13.0
    args: ["m"]
    env:
    - {name: VLLM_PRECOMPILED_WHEEL_LOCATION, value: /wheels/x.whl}
    - {name: VLLM_CPU_AVX512BF16, value: "1"}
""")
    assert codes(found) == []


def test_variables_read_outside_envs_py_are_runtime_surface(lint):
    # VLLM_BATCH_INVARIANT was read with os.getenv before it moved into envs.py (0.19.0)
    found = lint("run.sh", "VLLM_BATCH_INVARIANT=1 vllm serve m\n", target="0.13.0")
    assert codes(found) == []


def test_unknown_reaching_name_is_info_unless_it_is_a_likely_typo(lint):
    found = lint("run.sh", "VLLM_MY_OWN_KNOB=1 VLLM_WORKER_MULTIPROC_METHD=spawn vllm serve m\n", target="0.10.2")
    sev = {f["option"]: f["severity"] for f in found if f["code"] == "VL202"}
    assert sev == {"VLLM_MY_OWN_KNOB": "info", "VLLM_WORKER_MULTIPROC_METHD": "warning"}


# ---- commands and arguments the way vLLM reads them

def test_help_with_a_keyword_is_a_help_request_not_a_launch(lint):
    found = lint("help.sh", "vllm serve --help=max-num-seqs\nvllm serve --help=listgroup\n", target="0.10.2")
    assert codes(found) == []


def test_python_keyword_values_meet_what_the_config_validates(lint):
    found = lint("offline.py", """\
from vllm import LLM
llm = LLM(model="m", quantization="AWQ", block_size=2048)
bad = LLM(model="m", quantization="not-a-method")
""", target="0.8.5")
    assert codes(found) == [("VL105", "--quantization")]


# ---- the GPU layout the process really has

def test_external_data_parallel_rank_owns_one_rank(lint):
    found = lint("dp.sh", """\
CUDA_VISIBLE_DEVICES=0 vllm serve m --data-parallel-size 2 --data-parallel-rank 0 --port 8000
CUDA_VISIBLE_DEVICES=1 vllm serve m --data-parallel-size 2 --data-parallel-rank 1 --port 8001
""", target="0.10.2")
    assert codes(found) == []


def test_a_file_that_starts_a_multi_node_instance_is_not_one_node(lint):
    found = lint("lws.yaml", """\
apiVersion: v1
kind: Pod
spec:
  containers:
  - name: leader
    image: vllm/vllm-openai:v0.10.2
    command: ["sh", "-c", "bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray_cluster_size=2; vllm serve m --tensor-parallel-size 8 --pipeline-parallel-size 2"]
    resources: {limits: {nvidia.com/gpu: "8"}}
""")
    assert [c for c in codes(found) if c[0] == "VL402"] == []


def test_kubeai_cpu_profile_is_no_gpu(lint):
    found = lint("models.yaml", """\
apiVersion: kubeai.org/v1
kind: Model
metadata: {name: small-cpu}
spec:
  url: hf://Qwen/Qwen2.5-0.5B-Instruct
  engine: VLLM
  resourceProfile: cpu:6
  args: ["--max-model-len=2048"]
""", target="0.10.2")
    assert [c for c in codes(found) if c[0] == "VL402"] == []


def test_production_stack_values_render_chart_keys_and_one_layout(lint):
    found = lint("values.yaml", """\
servingEngineSpec:
  modelSpec:
  - name: llama
    repository: vllm/vllm-openai
    tag: v0.10.2
    modelURL: meta-llama/Llama-3.1-8B-Instruct
    requestGPU: 2
    enableLoRA: true
    vllmConfig:
      tensorParallelSize: 2
      extraArgs: ["--disable-log-requests"]
""")
    assert [c for c in codes(found) if c[0] in ("VL103", "VL402")] == []


# ---- messages that are true

def test_trust_remote_code_claims_only_what_the_model_table_knows(lint):
    """A model the table does not know: nothing is claimed about its code; one whose repository
    ships code: it runs."""
    unknown = lint("run.sh", "vllm serve org/model --trust-remote-code\n", target="0.10.2")
    assert [f for f in unknown if f["code"] == "VL502"] == []
    found = lint("run.sh", "vllm serve deepseek-ai/DeepSeek-V3 --trust-remote-code\n", target="0.10.2")
    msgs = [f["message"] for f in found if f["code"] == "VL502"]
    assert msgs and all("runs deepseek-ai/DeepSeek-V3's repository code" in m for m in msgs)


def test_dropped_options_are_all_counted(lint):
    found = lint("run.sh", """\
vllm serve m \\
    --tensor-parallel-size 1 \\   # a comment after the backslash ends the command
    --data-parallel-size 8 \\
    --enable-expert-parallel \\
    --max-model-len 1024 \\
    --max-num-seqs 8 \\
    --enforce-eager
""", target="0.10.2")
    msg = next(f["message"] for f in found if f["code"] == "VL109")
    # every option cut off is named (issue 30), none summarised as "and N more"
    for opt in ("--data-parallel-size", "--enable-expert-parallel", "--max-model-len", "--max-num-seqs",
                "--enforce-eager"):
        assert f"`{opt}`" in msg, msg
    assert "more" not in msg and "..." not in msg


def test_an_image_running_its_own_program_is_not_vllms_server(lint):
    found = lint("router.sh", """\
docker run --network host vllm/vllm-router:nightly vllm-router \\
  --vllm-pd-disaggregation --kv-connector moriio
""", target="0.25.0")
    assert codes(found) == []


def test_an_image_tag_with_a_local_suffix_names_its_release(lint):
    found = lint("run.sh", "docker run --gpus 1 vllm/vllm-openai:v0.7.3.self.post1 --model m --swap-space 4\n")
    assert {f["target_version"] for f in found} <= {"0.7.3"}
    found = lint("run2.sh", "docker run --gpus 1 vllm/vllm-openai:v0.7.3.self.post1 --model m --bogus-flag 1\n")
    assert [(f["code"], f["target_version"]) for f in found] == [("VL103", "0.7.3")]


def test_a_range_is_not_a_pin_it_gives_the_newest_release_it_allows(tmp_path, monkeypatch):
    """(Issue 28: a range names the newest release of the database it allows, and says so.)"""
    monkeypatch.setenv("VLLM_LINT_DB", str(default_db_path()))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    (tmp_path / "requirements.txt").write_text("vllm>=0.10\n")
    (tmp_path / "run.sh").write_text("vllm serve m --max-num-seqs 8\n")
    res = CliRunner().invoke(main, ["-v", "--exit-zero", str(tmp_path / "run.sh")], catch_exceptions=False)
    assert "pins vllm>=" not in res.output
    from vllm_lint.surface.db import Database

    newest = Database().newest  # the shipped database's: it grows
    assert f"(requirements.txt allows vllm>=0.10: the newest release it allows, {newest})" in res.output


def test_env_deprecated_outside_envs_py_names_its_successor(lint):
    found = lint("run.sh", "VLLM_ATTENTION_BACKEND=FLASH_ATTN vllm serve m\n", target="0.13.0")
    assert [(f["code"], f["message"]) for f in found] == [
        ("VL204", "`VLLM_ATTENTION_BACKEND` is deprecated at vLLM 0.13.0; use `--attention-config.backend`")]


# ---- classes found on re-measuring (vLLM's docs at 0.6.6.post1-0.33.0)

def test_a_single_brace_placeholder_of_several_words_is_one_opaque_word(lint):
    # p2p_nccl_connector.md: `vllm serve {your model directory}` (shell splits it into three words)
    found = lint("a.md", "```shell\nvllm serve {your model directory} \\\n    --port 20001 --swap-space 4\n```\n",
                 target="0.33.0")
    assert codes(found) == [("VL101", "--swap-space")]


def test_an_angle_placeholder_with_alternatives_is_a_value(lint):
    # openai_pooling_client.py: `vllm serve <model> --task <embed|classify|reward|score>`
    found = lint("client.py", '"""Run `vllm serve <model> --task <embed|classify|reward|score>` first."""\n',
                 target="0.8.5")
    assert codes(found) == []


def test_shell_syntax_in_braces_is_no_placeholder():
    from vllm_lint.frontends import doc_commands

    script = b"vllm serve m --served-model-name ${NAME} {a,b} '{\"k\": 1}' {model}\n"
    assert doc_commands.fill(script) == (script, [])


def test_a_cmd_given_to_a_rocm_image_is_its_own_command_not_vllms_arguments(lint):
    # docker/Dockerfile.rocm up to 0.11: FROM rocm/vllm-dev:base ... CMD ["/bin/bash"]
    found = lint("Dockerfile.rocm", 'ARG BASE_IMAGE=rocm/vllm-dev:base\nFROM ${BASE_IMAGE} AS base\n'
                 'FROM base AS final\nCMD ["/bin/bash"]\n', target="0.10.2")
    assert codes(found) == []
    found = lint("Dockerfile", 'FROM rocm/vllm:rocm6.4.1_vllm_0.10.0_20250812\nCMD ["vllm", "serve", "m", "--swap-spac", "4"]\n')
    assert [f["option"] for f in found] == ["--swap-space"]  # its own vllm serve is still read


def test_a_skipped_block_in_a_docstring_names_no_docstring_relative_line(lint):
    # torchrun_example.py: a ```python block in a trailing docstring; the message said "line 7"
    # (of the docstring) for a block at line 9 of the file
    found = lint("example.py", 'x = 1\n"""\nTips:\n\n```python\nfrom vllm import LLM\nllm = LLM(model="m")\n'
                 'if llm:\n    # nothing\n```\n"""\n', target="0.33.0")
    (note,) = [f for f in found if f["code"] == "VL002"]
    assert note["location"]["row"] == 6 and "line" not in note["message"].split(":")[0]
