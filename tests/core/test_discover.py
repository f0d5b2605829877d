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
