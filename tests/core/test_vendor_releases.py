"""Issues 28 and 33: launches on vendor images, dated builds and forks (README "Which release is
checked"; knowledge/image_tags.py, knowledge/forks.py, pipeline/unknown_release.py), linted end to
end against the shipped database. Every file here is written for the test."""

from __future__ import annotations

from pathlib import Path

import pytest

from vllm_lint.pipeline.engine import Linter
from vllm_lint.rules.base import select_rules
from vllm_lint.settings import Settings
from vllm_lint.surface.db import Database, default_db_path


@pytest.fixture(scope="module")
def db():
    return Database(default_db_path())


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    return tmp_path


def lint(db, root: Path, rel: str, text: str):
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text)
    linter = Linter(db, Settings(), select_rules([], []))
    analysis = linter.analyse(p, p.read_bytes())
    return analysis, [(d.code, d.option or "") for d in analysis.diagnostics], linter.verbose


def k8s(image: str, command: str, args: list[str], env: dict[str, str] | None = None) -> str:
    env_yaml = "".join(f"        - name: {k}\n          value: \"{v}\"\n" for k, v in (env or {}).items())
    return ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llm\nspec:\n  template:\n    spec:\n"
            "      containers:\n      - name: server\n        image: " + image + "\n"
            "        command: [" + ", ".join(f'"{w}"' for w in command.split()) + "]\n"
            "        args:\n" + "".join(f"        - \"{a}\"\n" for a in args)
            + ("        env:\n" + env_yaml if env_yaml else ""))


API = "python3 -m vllm.entrypoints.openai.api_server"


# ----------------------------------------------------------------------------- vendor images


def test_a_triton_vllm_container_runs_the_release_of_nvidias_matrix(db, repo):
    a, codes, _ = lint(db, repo, "deploy/triton.yaml", k8s("nvcr.io/nvidia/tritonserver:24.05-vllm-python-py3", API,
                                                             ["--model", "m", "--swap-space", "4"]))
    assert a.launches[0].target == "0.4.0.post1"
    assert "NVIDIA Triton Inference Server vLLM container" in a.launches[0].choice.why
    assert ("VL113", "") not in codes and ("VL101", "--swap-space") not in codes


def test_a_neuron_dlc_runs_the_release_in_its_tag(db, repo):
    a, _codes, _ = lint(db, repo, "neuron.yaml", k8s(
        "public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:0.9.1-neuronx-py311-sdk2.26.1-ubuntu22.04",
        "vllm serve", ["m", "--max-model-len", "4096"]))
    assert a.launches[0].target == "0.9.1"


def test_a_triton_month_before_the_matrix_is_checked_at_its_bound_and_the_oldest(db, repo):
    a, codes, verbose = lint(db, repo, "old.yaml", k8s("nvcr.io/nvidia/tritonserver:24.02-vllm-python-py3", API,
                                                       ["--model", "m", "--swap-space", "4"]))
    c = a.launches[0].choice
    assert (c.kind, c.release, c.low) == ("between", "0.4.0.post1", None)
    assert ("VL113", "") not in codes


def test_an_unknown_vendor_release_raises_only_what_holds_at_both_ends(db, repo):
    """Red Hat OpenShift AI's runtime image names no vLLM release: the deprecated entrypoint (from
    0.29.0) and a variable no longer read (after 0.14.1) may or may not be so in it, a misspelt
    option is refused by every release."""
    a, codes, verbose = lint(db, repo, "runtime.yaml", k8s(
        "quay.io/modh/vllm:rhoai-2.20-cuda", API, ["--model=/mnt/models", "--max-modle-len=4096"],
        {"VLLM_ATTENTION_BACKEND": "FLASHINFER"}))
    c = a.launches[0].choice
    assert c.kind == "between" and "Red Hat OpenShift AI vLLM runtime" in c.why
    assert ("VL113", "") not in codes and ("VL201", "VLLM_ATTENTION_BACKEND") not in codes
    assert any(code == "VL103" for code, _ in codes)  # (the misspelt option, at every release)
    said = next(v for v in verbose if v.startswith("release between"))
    assert "not raised, as they hold at one of them only" in said and "VL113" in said
    kept = next(d for d in a.diagnostics if d.code == "VL103")
    assert "this holds at both" in kept.message


def test_a_comment_stating_the_release_decides_for_an_unknown_image(db, repo):
    text = "# tested with vLLM 0.8.5\n" + k8s("quay.io/modh/vllm:rhoai-2.20-cuda", API, ["--model=/mnt/models"])
    a, _codes, _ = lint(db, repo, "runtime.yaml", text)
    assert (a.launches[0].target, a.launches[0].choice.kind) == ("0.8.5", "named")


def test_an_unpinned_launch_is_still_checked_at_the_newest(db, repo):
    _a, codes, _ = lint(db, repo, "serve.sh", f"{API} --model m\n")
    assert ("VL113", "") in codes


# ----------------------------------------------------------------------------- dated builds


def test_a_dated_rocm_build_is_between_the_release_of_its_day_and_the_next(db, repo):
    text = ("services:\n  llm:\n    image: rocm/vllm-dev:open-mi300-08052025\n"
            "    environment:\n      - VLLM_USE_AITER_UNIFIED_ATTENTION=1\n"
            "    command: vllm serve m --max-model-len 4096\n")
    a, codes, verbose = lint(db, repo, "compose.yaml", text)
    c = a.launches[0].choice
    assert (c.release, c.low, c.high) == ("0.10.0", "0.10.0", "0.10.1")
    assert "about 0.10.x (dated tag: built 2025-08-05" in c.why
    # read from 0.10.1, ignored by 0.10.0, and newer than every 0.34.0 removal: none holds at both
    assert not [code for code, opt in codes if opt == "VLLM_USE_AITER_UNIFIED_ATTENTION"]


# ----------------------------------------------------------------------------- forks


GAUDI = """FROM vault.habana.ai/gaudi-docker/1.20.0/ubuntu22.04/habanalabs/pytorch-installer-2.6.0:latest
RUN git clone https://github.com/HabanaAI/vllm-fork.git && \\
    cd vllm-fork && \\
    git checkout {ref} && \\
    pip install -r requirements-hpu.txt && python setup.py install
CMD ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m"]
"""


def test_a_fork_built_at_a_release_tag_runs_that_upstream_release(db, repo):
    a, codes, _ = lint(db, repo, "hpu/Containerfile", GAUDI.format(ref="v0.6.6.post1+Gaudi-1.20.0"))
    assert a.launches[0].target == "0.6.6.post1"
    assert "a build of the fork HabanaAI/vllm-fork at v0.6.6.post1+Gaudi-1.20.0" in a.launches[0].choice.why
    assert ("VL113", "") not in codes


def test_a_fork_tag_through_a_build_argument(db, repo):
    text = ("ARG FORK_REF=v0.9.1+rocm\nFROM rocm/dev-ubuntu-22.04\n"
            "RUN git clone -b ${FORK_REF} https://github.com/ROCm/vllm.git /vllm\n"
            "CMD [\"vllm\", \"serve\", \"m\"]\n")
    a, _codes, _ = lint(db, repo, "Dockerfile", text)
    assert a.launches[0].target == "0.9.1"


def test_a_fork_built_at_a_branch_has_an_unknown_release(db, repo):
    a, codes, _ = lint(db, repo, "Dockerfile", GAUDI.format(ref="habana_main"))
    c = a.launches[0].choice
    assert c.kind == "between" and "the vLLM release it is built from is unknown" in c.why
    assert ("VL113", "") not in codes


def test_vllms_own_repository_is_no_fork(db, repo):
    text = ("FROM python:3.12\nRUN git clone https://github.com/vllm-project/vllm.git && cd vllm && git checkout main\n"
            "CMD [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\", \"--model\", \"m\"]\n")
    a, _codes, _ = lint(db, repo, "Dockerfile", text)
    assert a.launches[0].choice.kind != "between"


def test_the_launchs_own_vendor_image_comes_before_the_files_around_it(db, repo):
    (repo / "requirements.txt").write_text("vllm==0.8.5\n")  # (the client's pin, beside the manifest)
    a, _codes, _ = lint(db, repo, "runtime.yaml", k8s("quay.io/modh/vllm:rhoai-2.20-cuda", API, ["--model=/mnt/models"]))
    assert a.launches[0].choice.kind == "between"
    a, _codes, _ = lint(db, repo, "serve.sh", f"{API} --model m\n")
    assert a.launches[0].target == "0.8.5"  # (a launch on no image: the pin)


def test_a_vendor_tag_missing_from_its_table_is_an_unknown_release(db, repo):
    a, codes, _ = lint(db, repo, "ngc.yaml", k8s("nvcr.io/nvidia/vllm:24.01-py3", "vllm serve",
                                                 ["m", "--swap-space", "4"]))
    c = a.launches[0].choice
    assert c.kind == "between" and "not in vllm-lint's table" in c.why
    assert ("VL101", "--swap-space") not in codes  # (removed in 0.18.0: a 2024 container may take it)


def test_a_files_fork_builds_are_read_once_not_per_launch(db, repo, monkeypatch):
    from vllm_lint.knowledge import forks  # (targeting imports it where a file names github.com)

    calls = []
    real = forks.fork_builds
    monkeypatch.setattr(forks, "fork_builds", lambda text: calls.append(1) or real(text))
    text = ("git clone https://github.com/HabanaAI/vllm-fork.git && cd vllm-fork && git checkout v0.7.2+Gaudi-1.21.0\n"
            + "".join(f"vllm serve m{i} --port {8000 + i} &\n" for i in range(60)))
    a, _codes, _ = lint(db, repo, "serve.sh", text)
    assert len(a.launches) == 60 and {la.target for la in a.launches} == {"0.7.2"}
    assert len(calls) == 1
