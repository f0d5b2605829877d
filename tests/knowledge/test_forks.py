"""The table of forks' variables (vllm_lint/data/forks.tsv): every row sourced at a commit, and no
row for a name the newest vLLM release reads (that name is never unknown nor removed, the row would
be dead); and which forks a launch runs (FORKS: images, source builds)."""

from __future__ import annotations

import re

from vllm_lint.knowledge import forks
from vllm_lint.surface.db import Database, shipped_db_path

_SOURCE = re.compile(r"^https://github\.com/[\w.-]+/[\w.-]+/blob/[0-9a-f]{40}/\S+\.py\b")


def _rows() -> list[list[str]]:
    lines = [ln for ln in forks._table_path().read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines[0].split("\t") == ["variable", "fork", "source"]
    return [ln.split("\t") for ln in lines[1:]]


def test_every_row_is_a_vllm_variable_of_a_named_fork_with_a_source_at_a_commit():
    rows = _rows()
    assert rows
    for name, fork, source in rows:
        assert name.startswith("VLLM_"), name
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", fork), fork
        assert _SOURCE.match(source), source
        # the fork's own repository, or a companion it installs (Habana's vllm-hpu-extension)
        assert f"github.com/{fork}/" in source or fork == "HabanaAI/vllm-fork" and \
            "github.com/HabanaAI/vllm-hpu-extension/" in source, source


def test_no_row_names_a_variable_the_newest_release_reads():
    db = Database(shipped_db_path())
    newest = set(db.surface(db.newest).env)
    assert [name for name, _fork, _src in _rows() if name in newest] == []


def test_every_fork_of_the_table_is_one_a_launch_can_show():
    assert {fork for _name, fork, _src in _rows()} - {"local-inference-lab/vllm"} <= {f.repo for f in forks.FORKS}


def test_readers_of_a_fork_variable_and_of_an_unknown_name():
    assert forks.fork_readers("VLLM_USE_B12X_MOE") == ("local-inference-lab/vllm",)
    assert forks.fork_readers("VLLM_NOT_READ_ANYWHERE") == ()


def test_rocm_and_gaudi_fork_variables():
    assert "ROCm/vllm" in forks.fork_readers("VLLM_FP8_PADDING")
    assert "HabanaAI/vllm-fork" in forks.fork_readers("VLLM_SKIP_WARMUP")  # vLLM read it up to 0.9.2 only
    assert "HabanaAI/vllm-fork" in forks.fork_readers("VLLM_PROMPT_BS_BUCKET_MIN")  # the extension's Env()


def test_the_forks_a_launch_runs_by_its_image():
    runs = forks.forks_of_launch
    assert runs("rocm/vllm:rocm6.3.1_vllm_0.8.5_20250521", "") == {"ROCm/vllm"}
    assert runs("docker.io/rocm/vllm-dev:rocm6.4.1_vllm_0.10.0_20250812", "") == {"ROCm/vllm"}
    assert runs("opea/vllm-gaudi:1.22.0", "") == {"HabanaAI/vllm-fork"}
    assert runs("quay.io/modh/vllm:rhoai-2.20-gaudi", "") == {"HabanaAI/vllm-fork"}
    assert runs("vault.habana.ai/gaudi-docker/1.22.0/ubuntu24.04/habanalabs/vllm-installer-2.7.1:latest", "") \
        == {"HabanaAI/vllm-fork"}
    # vLLM's own ROCm image, AMD's PyTorch image and a Gaudi image of another server are not
    for image in ("vllm/vllm-openai-rocm:v0.20.0", "rocm/pytorch:latest", "opea/whisper-gaudi:latest",
                  "vllm/vllm-openai:v0.9.2"):
        assert runs(image, "") == set(), image


def test_the_forks_a_launch_runs_by_a_source_build():
    runs = forks.forks_of_launch
    assert runs(None, "RUN git clone https://github.com/ROCm/vllm.git && cd vllm") == {"ROCm/vllm"}
    assert runs(None, "pip install git+https://github.com/HabanaAI/vllm-fork.git@v0.9.0.1") == {"HabanaAI/vllm-fork"}
    assert runs(None, "git clone -b v0.9.1+rocm --depth 1 git@github.com:ROCm/vllm.git") == {"ROCm/vllm"}
    assert runs(None, "git clone https://github.com/ROCm/vllm-other") == set()
    # a link to the fork's issues or an unrelated clone on the line is no build of it
    assert runs(None, "# See: https://github.com/ROCm/vllm/issues/375") == set()
    assert runs(None, "git clone https://github.com/acme/tools && open https://github.com/ROCm/vllm/issues/1") == set()
    assert runs(None, "pip install vllm") == set()


def test_a_rocm_image_of_a_later_release_is_vllms_own_and_one_naming_none_may_be_either():
    assert forks.forks_of_image("rocm/vllm:rocm7.0.0_vllm_0.11.1_20251103") == set()
    assert forks.forks_maybe_of_image("rocm/vllm:rocm7.0.0_vllm_0.11.1_20251103") == set()
    for image in ("rocm/vllm:latest", "rocm/vllm-dev:nightly", "rocm/vllm-dev:open-mi300-08052025"):
        assert forks.forks_of_image(image) == set(), image
        assert forks.forks_maybe_of_image(image) == {"ROCm/vllm"}, image
