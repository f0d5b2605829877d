"""The folders a repository's .gitignore names are not read for its release (pipeline/ignored_folders.py):
generated output, caches and downloads are not what a clone holds. The synthetic database has 0.8.5,
0.10.0 and 0.27.1 (the newest)."""

from __future__ import annotations

import os

from hypothesis import given, settings, strategies as st

from vllm_lint.fsutil import relative_path
from vllm_lint.pipeline.ignored_folders import plain_rules
from vllm_lint.pipeline.targeting import Targeting
from vllm_lint.settings import Settings

from repo_tree import put, repo  # noqa: F401  (the fixture and the helper)

SCRIPT = "#!/bin/sh\nvllm serve m --max-model-len 4096\n"
VALUES = "image:\n  repository: vllm/vllm-openai\n  tag: v0.8.5\n"


def choose(db, path):
    return Targeting(db, Settings()).choose(path, [])


def test_plain_rules():
    assert plain_rules("# c\nbuild/\n/out\ndocs/_site\n*.log\nfoo[0-9]\n\n") == (
        frozenset({"build"}), frozenset({"out", "docs/_site"}))
    assert plain_rules("build/\n!build/keep\n") is None  # (a negation may bring back what a line leaves out)
    assert plain_rules("*.pyc\n") is None
    assert plain_rules("../up\n/\n") is None


def test_an_ignored_folder_names_no_release_of_the_repository(synth_db, repo):
    put(repo, "charts/values.yaml", VALUES)
    put(repo, "generated/corpus/values.yaml", VALUES.replace("v0.8.5", "v0.10.0"))
    run = put(repo, "scripts/run.sh", SCRIPT)
    assert choose(synth_db, run).release == "0.27.1"  # (two releases named: none chosen)
    for ignore in ("generated/\n", "/generated/corpus\n", "corpus\n"):
        put(repo, ".gitignore", ignore)
        c = choose(synth_db, run)
        assert (c.release, c.weak) == ("0.8.5", True), ignore


def test_a_nested_gitignore_and_info_exclude(synth_db, repo):
    put(repo, "charts/values.yaml", VALUES)
    put(repo, "tools/cache/values.yaml", VALUES.replace("v0.8.5", "v0.10.0"))
    run = put(repo, "scripts/run.sh", SCRIPT)
    put(repo, "tools/.gitignore", "cache/\n")
    assert choose(synth_db, run).release == "0.8.5"
    put(repo, "tools/.gitignore", "")
    (repo / ".git" / "info").mkdir()
    put(repo, ".git/info/exclude", "/tools/cache/\n")
    assert choose(synth_db, run).release == "0.8.5"


def test_a_negation_reads_every_folder(synth_db, repo):
    put(repo, "charts/values.yaml", VALUES)
    put(repo, "generated/values.yaml", VALUES.replace("v0.8.5", "v0.10.0"))
    put(repo, ".gitignore", "generated/\n!generated/keep\n")
    assert choose(synth_db, put(repo, "scripts/run.sh", SCRIPT)).release == "0.27.1"


def test_a_caller_in_an_ignored_folder_is_not_read(synth_db, repo):
    serve = put(repo, "model_scripts/serve.sh", SCRIPT)
    put(repo, "out/runner.sh", "pip install vllm==0.10.0\nbash model_scripts/serve.sh\n")
    assert choose(synth_db, serve).release == "0.10.0"
    put(repo, ".gitignore", "out/\n")
    assert choose(synth_db, serve).release == "0.27.1"


def test_a_worktrees_exclude_file_is_its_common_directorys(synth_db, tmp_path):
    common = tmp_path / "main.git"
    (common / "info").mkdir(parents=True)
    (common / "info" / "exclude").write_text("/generated/\n")
    gitdir = common / "worktrees" / "wt"
    gitdir.mkdir(parents=True)
    (gitdir / "commondir").write_text("../..\n")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {gitdir}\n")
    put(wt, "charts/values.yaml", VALUES)
    put(wt, "generated/values.yaml", VALUES.replace("v0.8.5", "v0.10.0"))
    assert choose(synth_db, put(wt, "scripts/run.sh", SCRIPT)).release == "0.8.5"


_PART = st.sampled_from(["a", "b", ".", "..", "", "x.y", ".git"])


@settings(max_examples=400, deadline=None)
@given(st.booleans(), st.lists(_PART, max_size=4), st.lists(_PART, max_size=4), st.booleans())
def test_the_relative_path_of_a_walked_folder_is_relpaths(absolute, head, tail, slash):
    """The walks' relative path (a slice of the string when both paths are normal and one is below
    the other) is ``os.path.relpath``'s, for any spelling: relative, ``.`` and ``..`` parts, doubled
    or trailing separators, one path not below the other."""
    folder = ("/" if absolute else "") + "/".join(head)
    path = folder + "/" + "/".join(tail) + ("/" if slash else "")
    for p, f in ((path, folder), (folder, path), (path, "/"), ("/r/a", "/r"), ("/ra/b", "/r")):
        try:
            want = os.path.relpath(p, f)
        except ValueError:  # (an empty path: relpath refuses it, and so does the slice's fallback)
            continue
        assert relative_path(p, f) == want, (p, f)
