"""discover(): which files a run lints, and the path each is shown with."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def tree(tmp_path, monkeypatch):
    (tmp_path / "d" / "e").mkdir(parents=True)
    for rel in ("a.sh", "d/b.yaml", "d/e/c.py", "d/e/Dockerfile", "d/notes.txt", "d/logo.png"):
        (tmp_path / rel).write_text("echo\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("arg", [".", "./", "d", "d/", "d//", "./d", "d/./e", "d/e/..", "./d/e/"])
def test_walked_paths_are_shown_as_path_objects_would_show_them(tree, arg):
    """Paths are strings on the lint path; they read as ``str(Path(...))`` of the walked path did."""
    from vllm_lint.pipeline.discovery import discover
    from vllm_lint.settings import Settings

    targets, problems = discover([arg], Settings())
    assert problems == []
    shown = [t.path for t in targets]
    assert all(isinstance(p, str) for p in shown)
    expected = []
    for d, dirs, names in os.walk(str(Path(arg))):
        dirs.sort()
        expected += [str(Path(d) / n) for n in sorted(names) if not n.endswith(".png")]  # a binary suffix: never read
    assert sorted(shown) == sorted(expected) and shown


@pytest.mark.parametrize("arg", ["a.sh", "./a.sh", "d//b.yaml", "d/./e/c.py", "<absolute>"])
def test_a_named_file_is_shown_as_named_normalised(tree, arg):
    from vllm_lint.pipeline.discovery import discover
    from vllm_lint.settings import Settings

    if arg == "<absolute>":
        arg = str(tree / "d" / "e" / "Dockerfile")
    targets, _ = discover([arg], Settings())
    assert [(t.path, t.explicit) for t in targets] == [(str(Path(arg)), True)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
def test_a_walk_skips_fifos_and_sockets(tree):
    """Opening a FIFO blocks until a writer comes: a walk lists regular files only, and follows no
    link (``d/link.sh`` leads out of ``d``). A FIFO named on the command line (``vllm-lint <(...)``)
    is read as given (opened without waiting for a writer: fsutil.open_regular)."""
    import socket

    from vllm_lint.pipeline.discovery import discover
    from vllm_lint.settings import Settings

    os.mkfifo(tree / "d" / "pipe.sh")
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tree / "d" / "sock.yaml"))
    except OSError:  # a path too long for a socket address: the FIFO alone
        pass
    (tree / "d" / "link.sh").symlink_to(tree / "a.sh")
    try:
        shown = {t.path for t in discover(["d"], Settings())[0]}
    finally:
        sock.close()
    assert "d/link.sh" not in shown and "d/b.yaml" in shown
    assert not shown & {"d/pipe.sh", "d/sock.yaml"}
    assert [t.path for t in discover(["d/pipe.sh"], Settings())[0]] == ["d/pipe.sh"]


def _git_exclude_tree(root: Path) -> None:
    """A repository whose ``.git/info/exclude`` hides a folder, a pattern and an anchored file."""
    for rel in ("a.sh", "gen/x.sh", "sub/b.sh", "sub/gen/y.sh", "sub/tmp.yaml", "keep.yaml", "top.sh", "sub/top.sh"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("vllm serve m\n")
    (root / ".git" / "info").mkdir(parents=True)
    (root / ".git" / "info" / "exclude").write_text("# git ls-files --exclude-standard\ngen/\n*tmp.yaml\n/top.sh\n")


def _walked(arg: str) -> list[str]:
    from vllm_lint.pipeline.discovery import discover
    from vllm_lint.settings import Settings

    targets, problems = discover([arg], Settings())
    assert problems == []
    return sorted(Path(t.path).as_posix() for t in targets)


@pytest.mark.parametrize("arg", [".", "sub"])
def test_a_walk_honours_git_info_exclude(tmp_path, monkeypatch, arg):
    """Patterns in ``.git/info/exclude`` hide files as git and ruff hide them, relative to the
    repository even when the walk starts below it (``/top.sh`` is the repository's, not sub's)."""
    _git_exclude_tree(tmp_path)
    monkeypatch.chdir(tmp_path / arg)
    expected = {".": ["a.sh", "keep.yaml", "sub/b.sh", "sub/top.sh"], "sub": ["b.sh", "top.sh"]}[arg]
    assert _walked(".") == expected
    monkeypatch.chdir(tmp_path)
    assert _walked(arg) == sorted(os.path.normpath(os.path.join(arg, p)) for p in expected)


def test_a_worktree_and_a_nested_repository_use_their_exclude_files(tmp_path, monkeypatch):
    """A ``.git`` file (``gitdir: ...``) points to the repository; a worktree's exclude file is its
    common directory's. A repository nested in the walked one brings its own."""
    main = tmp_path / "main"
    main.mkdir()
    _git_exclude_tree(main)
    wt_git = main / ".git" / "worktrees" / "wt"
    wt_git.mkdir(parents=True)
    (wt_git / "commondir").write_text("../..\n")
    wt = tmp_path / "wt"
    wt.mkdir()
    (wt / ".git").write_text(f"gitdir: {wt_git}\n")
    for rel in ("a.sh", "gen/x.sh", "nested/c.sh", "nested/skip.sh"):
        (wt / rel).parent.mkdir(parents=True, exist_ok=True)
        (wt / rel).write_text("vllm serve m\n")
    (wt / "nested" / ".git" / "info").mkdir(parents=True)
    (wt / "nested" / ".git" / "info" / "exclude").write_text("skip.sh\n")
    monkeypatch.chdir(wt)
    assert _walked(".") == ["a.sh", "nested/c.sh"]


def test_git_agrees_on_the_exclude_file(tmp_path, monkeypatch):
    """The same tree as git itself lists it (``git ls-files --others --exclude-standard``)."""
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    _git_exclude_tree(tmp_path)
    shutil.rmtree(tmp_path / ".git")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".git" / "info").mkdir(exist_ok=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("gen/\n*tmp.yaml\n/top.sh\n")
    monkeypatch.chdir(tmp_path)
    listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], capture_output=True,
                            text=True, check=True).stdout.split()
    assert _walked(".") == sorted(listed)


def test_the_repositorys_own_hidden_folders_are_read_caches_and_tools_state_are_not(tmp_path, monkeypatch):
    """A launch in `.agents/plans/` or `.devcontainer/` is never silent; version control, caches,
    editors' and tools' state, and virtual environments of any name are not walked."""
    from vllm_lint.pipeline.discovery import discover
    from vllm_lint.settings import Settings

    for rel in (".agents/plans/serve.md", ".devcontainer/start.sh", ".github/workflows/ci.yml",
                ".cache/huggingface/x.sh", ".vscode/tasks.json", ".terraform/modules/m.tf", ".git/hooks/h.sh",
                ".myenv/pyvenv.cfg", ".myenv/lib/serve.sh"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("vllm serve m\n")
    monkeypatch.chdir(tmp_path)
    targets, _ = discover(["."], Settings())
    assert sorted(t.path for t in targets) == [".agents/plans/serve.md", ".devcontainer/start.sh",
                                               ".github/workflows/ci.yml"]


def test_a_virtual_environment_is_known_from_its_own_listing(tmp_path, monkeypatch):
    """A folder holding ``pyvenv.cfg`` is skipped, decided from the folder's own listing (no probe
    of each folder for the name before it is walked: a system call per folder); a ``pyvenv.cfg``
    that is a link to nothing makes no virtual environment, as ``os.path.exists`` says."""
    from vllm_lint.pipeline import discovery
    from vllm_lint.settings import Settings

    for rel in ("env/pyvenv.cfg", "env/bin/serve.sh", "a/b/c/serve.sh", "a/serve.sh", "z/serve.sh"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("vllm serve m\n")
    (tmp_path / "z" / "pyvenv.cfg").symlink_to(tmp_path / "missing")
    monkeypatch.chdir(tmp_path)
    probes: list[str] = []
    real_exists = os.path.exists

    def exists(p):
        probes.append(os.fspath(p))
        return real_exists(p)

    monkeypatch.setattr(discovery.os.path, "exists", exists)
    targets, _ = discovery.discover(["."], Settings())
    monkeypatch.setattr(discovery.os.path, "exists", real_exists)
    assert sorted(t.path for t in targets) == ["a/b/c/serve.sh", "a/serve.sh", "z/serve.sh"]  # (a link: not walked)
    assert not [p for p in probes if p.endswith("pyvenv.cfg") and "/a" in p]  # (only where the listing holds one)


def test_one_named_folder_makes_no_real_path_per_file_and_two_still_meet_once(tmp_path, monkeypatch):
    """The real paths that make a file linted once are made only where two named paths may meet (or
    an exclude pattern compares them): one folder's walk follows no link below it, so it meets each
    file once without them. Two overlapping paths still give each file once, in the same order."""
    from vllm_lint.pipeline import discovery
    from vllm_lint.settings import Settings

    for rel in ("a/x.sh", "a/b/y.yaml", "a/b/c/z.md", "top.sh"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("vllm serve m\n")
    (tmp_path / "a" / "link").symlink_to(tmp_path / "a" / "b")  # (not followed: no second way to y.yaml)
    monkeypatch.chdir(tmp_path)
    made: list[str] = []
    real = discovery.real_dir
    monkeypatch.setattr(discovery, "real_dir", lambda d, memo: made.append(d) or real(d, memo))
    one = [t.path for t in discovery.discover(["."], Settings())[0]]
    assert one == ["top.sh", "a/x.sh", "a/b/y.yaml", "a/b/c/z.md"] and made == []
    two = [t.path for t in discovery.discover([".", "a"], Settings())[0]]
    assert two == one and made  # (a/... met again through "a": linted once)


def test_a_path_is_matched_against_the_ignore_files_above_it_only(tmp_path, monkeypatch):
    """Each ``.gitignore`` applies below its folder: a walked path is tested against its own
    folder's and its ancestors' files, not against every ignore file found so far (with one per
    folder, that was O(files x folders): every path's prefix compared with every file's folder);
    what is left out is unchanged."""
    import cProfile
    import pstats

    from vllm_lint.pipeline import discovery
    from vllm_lint.settings import Settings

    for i in range(30):
        d = tmp_path / f"f{i}" / "inner"
        d.mkdir(parents=True)
        (tmp_path / f"f{i}" / ".gitignore").write_text(f"skip{i}.sh\n")
        for name in ("a.sh", f"skip{i}.sh", "skip0.sh"):
            (d / name).write_text("echo\n")
    (tmp_path / ".gitignore").write_text("*.tmp\n")
    (tmp_path / "top.tmp").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    discovery._spec(["x"])  # (pathspec imported before counting)
    prof = cProfile.Profile()
    targets, _ = prof.runcall(discovery.discover, ["."], Settings())
    shown = sorted(t.path for t in targets)
    expected = {os.path.join(f"f{i}", "inner", n) for i in range(30) for n in ("a.sh", "skip0.sh")} - {
        os.path.join("f0", "inner", "skip0.sh")}
    assert {p for p in shown if p.endswith(".sh")} == expected and "top.tmp" not in shown
    # a path below f<i> meets the root's file and f<i>'s: two prefix tests per walked entry; every
    # ignore file found so far would be ~16 each
    tests = sum(n[1] for k, v in pstats.Stats(prof).stats.items() if k[2] == "<method 'startswith' of 'str' objects>"
                for caller, n in v[4].items() if caller[0].endswith("discovery.py"))
    entries = sum(1 for _ in tmp_path.rglob("*"))
    assert tests <= 2 * entries


def test_excludes_match_the_real_path_from_the_configurations_folder(tmp_path, monkeypatch):
    """``exclude`` patterns are matched against the path relative to the configuration's folder
    (the walk builds it from its folder's real path), from any folder the run starts in."""
    from vllm_lint import settings as S
    from vllm_lint.pipeline.discovery import discover

    for rel in ("a/b/keep.sh", "a/b/old.bak", "a/vendor/x.sh", "c/d.sh", "c/e/f.sh"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("echo\n")
    (tmp_path / ".vllm-lint.toml").write_text('extend-exclude = ["*.bak", "vendor/", "/c/e", "a/b/keep.sh"]\n')
    os.symlink(tmp_path / "a", tmp_path / "link")  # (a linked folder is not walked)
    monkeypatch.chdir(tmp_path)
    got = sorted(t.path for t in discover(["."], S.for_run(None, ["."]))[0])
    assert got == [".vllm-lint.toml", os.path.join("c", "d.sh")]
    monkeypatch.chdir(tmp_path / "c")
    assert sorted(t.path for t in discover(["."], S.for_run(None, ["."]))[0]) == ["d.sh"]
    assert sorted(t.path for t in discover([str(tmp_path / "a")], S.for_run(None, [str(tmp_path / "a")]))[0]) == []
