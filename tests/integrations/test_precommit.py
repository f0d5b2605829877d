"""The pre-commit hook for real: ``pre-commit try-repo`` installs this repository's hook (from
.pre-commit-hooks.yaml, into its own virtualenv, with pip and the machine's package index) and
runs it on a deploy script in a temporary git repository. The hook repository is a snapshot of
this checkout's working tree (tracked and untracked-but-not-ignored files, committed into a
temporary git repository), so the test sees what a clean clone would, plus work in progress. The database is the
synthetic one (VLLM_LINT_DB), so the result is deterministic. About 40 s, mostly the hook's
environment install."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from integration_data import REPO, copy_tree

pytestmark = pytest.mark.slow


def _pre_commit() -> list[str]:
    exe = Path(sys.executable).parent / "pre-commit"
    if exe.exists():
        return [str(exe)]
    if shutil.which("pre-commit"):
        return ["pre-commit"]
    pytest.skip("pre-commit is not installed (pip install -e '.[test]')")


def test_try_repo(tmp_path, synth_db_path):
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    hooks = tmp_path / "vllm-lint-hooks"
    copy_tree(hooks)
    work = tmp_path / "consumer"
    work.mkdir()
    (work / "deploy.sh").write_text("#!/bin/bash\nvllm serve m \\\n  --swap-space 4 \\\n  --port 8000\n")
    (work / "ok.sh").write_text("#!/bin/bash\nvllm serve m --port 8000\n")
    (work / "notes.txt").write_text("vllm serve m --swap-space 4\n")  # not a type the hook runs on
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home"), "VLLM_LINT_DB": str(synth_db_path),
           "VLLM_LINT_NO_CACHE": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid", "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    for repo in (hooks, work):
        subprocess.run(["git", "init", "-q", "."], cwd=repo, check=True, env=env)
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "snapshot"], cwd=hooks, check=True, env=env)
    r = subprocess.run([*_pre_commit(), "try-repo", str(hooks), "vllm-lint", "--verbose",
                        "--files", "deploy.sh", "ok.sh", "notes.txt"],
                       cwd=work, env=env, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "vllm-lint" in out and "Failed" in out
    assert "deploy.sh:3:3: VL101" in out
    assert "ok.sh" not in out.split("- exit code: 1", 1)[-1]
    assert "notes.txt" not in out.split("- exit code: 1", 1)[-1]


def test_hook_with_fix_leaves_excluded_files_untouched(tmp_path, synth_db_path):
    """Issue 18 defect 3: pre-commit names every staged file, and with ``args: [--fix]`` the hook
    rewrote a file the configuration excludes. The hook's entry passes --force-exclude. (try-repo
    cannot pass ``args``, so the consumer's config names the snapshot repository, as a user's would.)"""
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    hooks = tmp_path / "vllm-lint-hooks"
    copy_tree(hooks)
    work = tmp_path / "consumer"
    (work / "vendor").mkdir(parents=True)
    script = "#!/bin/bash\nvllm serve m \\\n  --swap-space 4 \\\n  --port 8000\n"
    (work / "deploy.sh").write_text(script)
    (work / "vendor" / "upstream.sh").write_text(script)
    (work / ".vllm-lint.toml").write_text('target-version = "0.27.1"\nextend-exclude = ["vendor/"]\n')
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home"), "VLLM_LINT_DB": str(synth_db_path),
           "VLLM_LINT_NO_CACHE": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid", "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    for repo in (hooks, work):
        subprocess.run(["git", "init", "-q", "."], cwd=repo, check=True, env=env)
        subprocess.run(["git", "add", "-A"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "commit", "-q", "-m", "snapshot"], cwd=hooks, check=True, env=env)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, check=True, env=env, capture_output=True,
                         text=True).stdout.strip()
    (work / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {hooks}\n    rev: {rev}\n    hooks:\n      - id: vllm-lint\n        args: [--fix]\n")
    r = subprocess.run([*_pre_commit(), "run", "--verbose", "--files", "deploy.sh", "vendor/upstream.sh"],
                       cwd=work, env=env, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    assert "--swap-space" not in (work / "deploy.sh").read_text(), out  # fixed
    assert (work / "vendor" / "upstream.sh").read_text() == script, out  # excluded: untouched
    assert "vendor/upstream.sh" not in out.split("vllm-lint", 1)[-1], out
