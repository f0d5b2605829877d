"""``vllm-lint upgrade --to B`` (issue 32): each case folder holds a small repository as people
write it (``before/``) and as the upgrade must leave it (``after/``), byte for byte: the release
bumped in every file that names it (tag scheme kept), every launch fixed for B, requirement pins
moved. Checked against the shipped database at fixed releases (their facts do not change when the
database grows)."""

from __future__ import annotations

import importlib.resources
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from vllm_lint.cli.app import main

CASES = Path(__file__).parent / "cases"
TO = "0.27.1"


@pytest.fixture(autouse=True)
def _shipped_db(monkeypatch):
    monkeypatch.setenv("VLLM_LINT_DB", str(importlib.resources.files("vllm_lint.flag_db")))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")


def upgrade(root: Path, *args: str):
    return CliRunner().invoke(main, ["upgrade", "--to", TO, *args, str(root)], catch_exceptions=False)


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", sorted(p.name for p in CASES.iterdir() if p.is_dir()))
def test_case(case, tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(CASES / case / "before", work)
    r = upgrade(work)
    assert r.exit_code in (0, 1), r.output
    assert tree(work) == tree(CASES / case / "after"), r.output
    # a second run has nothing left to change
    again = tree(work)
    upgrade(work)
    assert tree(work) == again


def test_dry_run_writes_nothing_and_shows_the_diff(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(CASES / "shell_and_pin" / "before", work)
    before = tree(work)
    r = upgrade(work, "--dry-run")
    assert tree(work) == before
    assert "-docker run --gpus 2 -p 8000:8000 vllm/vllm-openai:v0.8.5 \\" in r.output
    assert "+docker run --gpus 2 -p 8000:8000 vllm/vllm-openai:v0.27.1 \\" in r.output
    # the account says what would change: nothing was written
    assert "Would upgrade 2 files to vLLM 0.27.1" in r.output and "Upgraded" not in r.output


def test_diff_is_dry_run_as_in_the_lint_command(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(CASES / "shell_and_pin" / "before", work)
    before = tree(work)
    r = upgrade(work, "--diff")
    assert tree(work) == before
    assert "+docker run --gpus 2 -p 8000:8000 vllm/vllm-openai:v0.27.1 \\" in r.output


def test_forced_removals_are_left_for_a_person(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(CASES / "shell_and_pin" / "before", work)
    r = upgrade(work)
    assert r.exit_code == 1
    # --num-scheduler-steps changed behaviour: deleted (0.27.1 refuses it) and named
    assert "removed: `--num-scheduler-steps`" in r.output and "check what it set" in r.output
    # --swap-space was a no-op when removed: deleted without a word for a person
    assert "removed: `--swap-space`" not in r.output


def test_markdown_is_a_pull_request_description(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(CASES / "k8s" / "before", work)
    r = upgrade(work, "--dry-run", "--format", "markdown")
    assert r.output.startswith("## Upgrade vLLM to 0.27.1")
    assert "ran vLLM 0.10.2" in r.output
    assert "`v0.10.2` → `v0.27.1`" in r.output
    assert "### Left for a person" in r.output and "--preemption-mode" in r.output


def test_what_cannot_be_rewritten_is_named(tmp_path):
    work = tmp_path / "repo"
    work.mkdir()
    (work / "serve.sh").write_text("docker run nvcr.io/nvidia/vllm:25.09-py3 vllm serve m --port 1\n")
    (work / "constraints.txt").write_text("vllm>=0.8,<0.9\n")
    (work / "uv.lock").write_text('[[package]]\nname = "vllm"\nversion = "0.8.5"\n')
    before = tree(work)
    r = upgrade(work)
    assert tree(work) == before  # nothing it can rewrite
    assert r.exit_code == 1
    assert "`vllm>=0.8,<0.9` excludes vllm 0.27.1" in r.output
    assert "uv.lock" in r.output and "regenerate it" in r.output


def test_minor_and_latest(tmp_path):
    from vllm_lint.pipeline.upgrade import bump_version_text
    from vllm_lint.surface.db import Database

    db = Database(Path(str(importlib.resources.files("vllm_lint.flag_db"))))
    assert bump_version_text("vllm/vllm-openai:v0.9.2-cu128", "0.27.1", db) == "vllm/vllm-openai:v0.27.1-cu128"
    assert bump_version_text("vllm~=0.9", "0.27.1", db) == "vllm~=0.27"
    assert bump_version_text("vllm/vllm-openai:v0.27.1", "0.27.1", db) is None  # already there
    assert bump_version_text("nvcr.io/nvidia/vllm:25.09-py3", "0.27.1", db) is None
    assert bump_version_text("vllm/vllm-openai:latest", "0.27.1", db) is None
    work = tmp_path / "repo"
    shutil.copytree(CASES / "markdown" / "before", work)
    r = CliRunner().invoke(main, ["upgrade", "--to", "0.27", "--dry-run", str(work)], catch_exceptions=False)
    assert "vllm==0.27.1" in r.output  # 0.27 is the newest 0.27.x


def test_the_release_named_elsewhere_in_the_file_moves_too(tmp_path):
    """A later stage's ``ARG``, a ``git checkout`` of vLLM's source: the same release, on a line
    naming vLLM, moves with the image; another package's equal version does not."""
    work = tmp_path / "repo"
    work.mkdir()
    (work / "Dockerfile").write_text(
        "ARG VLLM_VERSION=v0.10.2\nFROM vllm/vllm-openai:v0.10.2\nARG VLLM_VERSION=v0.10.2\n"
        "RUN git clone https://github.com/vllm-project/vllm.git && cd vllm && git checkout v0.10.2\n"
        "RUN pip install otherpkg==0.10.2\nCMD [\"m\"]\n")
    upgrade(work)
    assert (work / "Dockerfile").read_text() == (
        "ARG VLLM_VERSION=v0.27.1\nFROM vllm/vllm-openai:v0.27.1\nARG VLLM_VERSION=v0.27.1\n"
        "RUN git clone https://github.com/vllm-project/vllm.git && cd vllm && git checkout v0.27.1\n"
        "RUN pip install otherpkg==0.10.2\nCMD [\"m\"]\n")


def test_a_file_over_the_input_limit_is_left_whole(tmp_path):
    """A pin file larger than the input limit is not read in part and written back cut off."""
    from vllm_lint.pipeline.engine import MAX_FILE_BYTES

    work = tmp_path / "repo"
    work.mkdir()
    big = b"vllm==0.8.5\n" + b"# padding\n" * (MAX_FILE_BYTES // 10 + 1)
    (work / "requirements.txt").write_bytes(big)
    upgrade(work)
    assert (work / "requirements.txt").read_bytes() == big


def test_ignored_pin_files_are_left_alone(tmp_path):
    """Pin files come from the same walk as the launches: .gitignore and excludes apply."""
    work = tmp_path / "repo"
    (work / "vendor").mkdir(parents=True)
    (work / ".gitignore").write_text("vendor/\n")
    (work / "vendor" / "requirements.txt").write_text("vllm==0.8.5\n")
    (work / "requirements.txt").write_text("vllm==0.8.5\n")
    upgrade(work)
    assert (work / "requirements.txt").read_text() == "vllm==0.27.1\n"
    assert (work / "vendor" / "requirements.txt").read_text() == "vllm==0.8.5\n"


def test_the_deprecated_module_entrypoint_migrates_to_vllm_serve(tmp_path):
    """Upgrading to a release that deprecates ``python -m vllm.entrypoints.openai.api_server``
    (0.29.0 on) rewrites it to ``vllm serve`` with the model positional; below 0.29 it is kept."""
    work = tmp_path / "repo"
    work.mkdir()
    before = "#!/bin/sh\nexec python3 -m vllm.entrypoints.openai.api_server --model org/m --port 8000\n"
    (work / "serve.sh").write_text(before)
    (work / "requirements.txt").write_text("vllm==0.10.2\n")
    CliRunner().invoke(main, ["upgrade", "--to", "0.28.0", str(work)], catch_exceptions=False)
    assert (work / "serve.sh").read_text() == before
    assert (work / "requirements.txt").read_text() == "vllm==0.28.0\n"
    r = CliRunner().invoke(main, ["upgrade", "--to", "0.34.0", str(work)], catch_exceptions=False)
    assert (work / "serve.sh").read_text() == "#!/bin/sh\nexec vllm serve org/m --port 8000\n", r.output
    assert (work / "requirements.txt").read_text() == "vllm==0.34.0\n"


def test_releases_named_around_the_launches_are_bumped_or_named(tmp_path):
    """The families the replay found (benchmarks/upgrades): a whole image reference in an ``ARG``
    that ``FROM`` uses, a comment above the install naming a release gone stale, a release at the
    end of a sentence are bumped; a platform plugin's pin and another publisher's image whose tag
    names the release are listed for a person; an option B does not have yet is removed and listed."""
    work = tmp_path / "repo"
    shutil.copytree(CASES / "release_places" / "before", work)
    r = upgrade(work)
    assert r.exit_code == 1
    out = r.output
    assert "left 5: plugin warning: `vllm-ascend==0.10.2rc1` pins a platform plugin" in out
    assert "left 7: tag warning: `example/agent-stack:cu128-vllm0.10.2` is another image built with vLLM 0.10.2" in out
    assert "left 8: VL104 warning: removed: `--grpc-port`" in out
    assert out.index("left 7:") < out.index("left 8:")  # by line


def test_a_release_inside_a_longer_version_is_not_bumped(tmp_path):
    """``vllm==0.10.2.post1`` or ``vllm-0.10.2rc1`` name another release than 0.10.2: not moved."""
    work = tmp_path / "repo"
    work.mkdir()
    (work / "Dockerfile").write_text(
        "FROM vllm/vllm-openai:v0.10.2\n# built like vllm-0.10.2rc1 and vllm==0.10.2.post1, see vLLM 0.10.2.\n"
        "CMD [\"m\"]\n")
    upgrade(work)
    assert (work / "Dockerfile").read_text() == (
        "FROM vllm/vllm-openai:v0.27.1\n# built like vllm-0.10.2rc1 and vllm==0.10.2.post1, see vLLM 0.27.1.\n"
        "CMD [\"m\"]\n")


def test_a_pyproject_pin_is_kept_when_the_rewrite_would_not_parse(tmp_path, monkeypatch):
    """``--fix`` safety: a pin file whose rewritten bytes would not re-parse is not written."""
    from vllm_lint.pipeline import upgrade as up

    work = tmp_path / "repo"
    work.mkdir()
    before = '[project]\nname = "x"\ndependencies = ["vllm==0.10.2"]\n'
    (work / "pyproject.toml").write_text(before)
    monkeypatch.setattr(up, "bump_version_text", lambda text, to, db: '0.27.1"broken')
    r = upgrade(work)
    assert (work / "pyproject.toml").read_text() == before
    assert "`vllm==0.10.2` was not bumped to 0.27.1: the rewritten file would not parse" in r.output
    assert r.exit_code == 1


def test_an_image_pinned_by_digest_is_named_not_half_rewritten(tmp_path):
    """``vllm/vllm-openai:v0.9.1@sha256:...``: Docker pulls the digest whatever the tag says, so a
    new tag beside the old digest would upgrade nothing; the reference is listed for a person,
    with the command that gives the new digest, and no other place rewrites its tag either."""
    work = tmp_path / "repo"
    work.mkdir()
    ref = "vllm/vllm-openai:v0.9.1@sha256:" + "0b51ec38" * 8
    before = f"FROM {ref}\nCMD [\"m\"]\n"
    (work / "Dockerfile").write_text(before)
    r = upgrade(work)
    assert (work / "Dockerfile").read_text() == before
    assert r.exit_code == 1
    assert f"left 1: digest warning: `{ref}` pins the image by its digest" in r.output
    assert "docker buildx imagetools inspect vllm/vllm-openai:<tag>" in r.output
