"""Crash-safe and concurrent fixing.

* ``write_atomic`` with injected failures (replace, fsync, interrupt): the original stays intact
  and no temporary file is left.
* Killing ``vllm-lint --fix`` (SIGKILL, a subprocess) at random moments, and again while its
  temporary file is half written (the write held there): the file is always exactly the old or
  exactly the new content.
* Two ``--fix`` runs on the same files at once (pre-commit runs hooks in parallel), several
  times, with and without a shared result cache: the files equal a single run's result.
  No lock is needed: a fix is a pure function of the file's bytes and is idempotent, and each
  write is a rename, so two racing runs either write identical bytes or the later one finds
  nothing to fix.
* Symlinks (documented rule: the link is followed, the target is replaced, the link stays a
  link), hard links (broken, like an editor's save), and permissions (kept).
"""

from __future__ import annotations

import errno
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reliability_support import cli_env
from vllm_lint.pipeline import fix as fixmod
from vllm_lint.pipeline.fix import WriteRefused, write_atomic

OLD = b"vllm serve m --swap-space 4 --cuda-graph-sizes 8 --port 1\n"
NEW = b"vllm serve m --cudagraph-capture-sizes 8 --port 1\n"


def leftovers(d: Path) -> list[str]:
    return sorted(p.name for p in d.iterdir() if p.name.endswith(".vllm-lint.tmp"))


# ----------------------------------------------------------------------------- write_atomic


def test_write_atomic_replaces_content_and_keeps_mode(tmp_path):
    p = tmp_path / "a.sh"
    p.write_bytes(OLD)
    os.chmod(p, 0o751)
    assert write_atomic(p, NEW) == p
    assert p.read_bytes() == NEW and stat.S_IMODE(p.stat().st_mode) == 0o751
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("where", ["write", "fsync", "chmod", "replace"])
@pytest.mark.parametrize("exc", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_write_atomic_failure_leaves_the_original(tmp_path, monkeypatch, where, exc):
    p = tmp_path / "a.sh"
    p.write_bytes(OLD)

    def boom(*a, **k):
        raise exc

    if where == "write":
        real_fdopen = os.fdopen

        class Half:
            def __init__(self, f):
                self.f = f

            def __enter__(self):
                return self

            def __exit__(self, *a):
                self.f.close()

            def write(self, data):
                self.f.write(data[: len(data) // 2])  # a torn write, then the failure
                raise exc

            def __getattr__(self, name):
                return getattr(self.f, name)

        monkeypatch.setattr(fixmod.os, "fdopen", lambda fd, mode: Half(real_fdopen(fd, mode)))
    elif where == "fsync":
        monkeypatch.setattr(fixmod.os, "fsync", boom)
    elif where == "chmod":
        monkeypatch.setattr(fixmod.os, "chmod", boom)
    else:
        monkeypatch.setattr(fixmod.os, "replace", boom)
    with pytest.raises(type(exc)):
        write_atomic(p, NEW)
    monkeypatch.undo()
    assert p.read_bytes() == OLD
    assert leftovers(tmp_path) == []


def test_cli_reports_a_failed_write_on_one_line(run_cli, tmp_path, monkeypatch):
    p = tmp_path / "a.sh"
    p.write_bytes(OLD)

    def full(*a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fixmod.os, "fsync", full)
    r = run_cli("-t", "0.27.1", "--fix", str(p))
    assert r.exit_code == 2 and "Traceback" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "No space left on device" in lines[0] and "a.sh" in lines[0]
    assert p.read_bytes() == OLD and leftovers(tmp_path) == []


def test_write_atomic_refuses_a_symlink_and_leaves_both_ends_alone(tmp_path):
    """A link's target may be anywhere (outside the tree the user named): it is never written
    through, and the link is not replaced either."""
    real_dir = tmp_path / "real"
    real_dir.mkdir()
    target = real_dir / "deploy.sh"
    target.write_bytes(OLD)
    link = tmp_path / "link.sh"
    os.symlink(os.path.relpath(target, tmp_path), link)
    chain = tmp_path / "chain.sh"
    os.symlink("link.sh", chain)
    for p in (chain, link):
        with pytest.raises(WriteRefused, match="symbolic link"):
            write_atomic(p, NEW)
    assert chain.is_symlink() and link.is_symlink() and os.readlink(link) == os.path.relpath(target, tmp_path)
    assert target.read_bytes() == OLD
    assert leftovers(real_dir) == [] and leftovers(tmp_path) == []


def test_write_atomic_refuses_a_read_only_file(tmp_path):
    p = tmp_path / "a.sh"
    p.write_bytes(OLD)
    os.chmod(p, 0o444)
    with pytest.raises(WriteRefused, match="read-only"):
        write_atomic(p, NEW)
    assert p.read_bytes() == OLD and stat.S_IMODE(p.stat().st_mode) == 0o444 and leftovers(tmp_path) == []


def test_write_atomic_refuses_a_file_changed_since_it_was_read(tmp_path):
    p = tmp_path / "a.sh"
    p.write_bytes(OLD)
    assert write_atomic(p, NEW, expected=OLD) == p and p.read_bytes() == NEW
    edited = NEW + b"# the user's edit\n"
    p.write_bytes(edited)
    with pytest.raises(WriteRefused, match="changed during the run"):
        write_atomic(p, NEW, expected=NEW)
    assert p.read_bytes() == edited and leftovers(tmp_path) == []


def test_hard_link_is_broken_like_an_editor_save(tmp_path):
    p = tmp_path / "a.sh"
    p.write_bytes(OLD)
    other = tmp_path / "b.sh"
    os.link(p, other)
    write_atomic(p, NEW)
    assert p.read_bytes() == NEW and other.read_bytes() == OLD  # documented: a rename never tears


def test_cli_does_not_fix_through_a_symlink_and_says_so(run_cli, tmp_path):
    target = tmp_path / "real.sh"
    target.write_bytes(OLD)
    link = tmp_path / "link.sh"
    os.symlink("real.sh", link)
    r = run_cli("-t", "0.27.1", "--fix", str(link))
    assert r.exit_code == 1 and "Traceback" not in r.output
    (line,) = [ln for ln in r.stderr.splitlines() if "link.sh" in ln]
    assert "symbolic link; not fixed" in line
    assert link.is_symlink() and target.read_bytes() == OLD
    assert "VL101" in r.stdout  # reported as it is: nothing was fixed


def test_cli_walk_with_link_and_target_fixes_once(run_cli, tmp_path):
    d = tmp_path / "repo"
    d.mkdir()
    (d / "real.sh").write_bytes(OLD)
    os.symlink("real.sh", d / "link.sh")
    r = run_cli("-t", "0.27.1", "--fix", "--output-format", "json", str(d))
    assert r.exit_code == 0, r.output
    assert (d / "real.sh").read_bytes() == NEW and (d / "link.sh").is_symlink()


def test_cli_keeps_permissions_of_each_file(run_cli, tmp_path):
    modes = {"a.sh": 0o755, "b.sh": 0o600, "c.sh": 0o640}
    for name, mode in modes.items():
        (tmp_path / name).write_bytes(OLD)
        os.chmod(tmp_path / name, mode)
    r = run_cli("-t", "0.27.1", "--fix", *(str(tmp_path / n) for n in modes))
    assert r.exit_code == 0, r.output
    for name, mode in modes.items():
        assert (tmp_path / name).read_bytes() == NEW
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == mode


# ----------------------------------------------------------------------------- SIGKILL


def _big_script() -> bytes:
    # ~50 KB, 800 launches, 1600 fixes: a fix run lasts long enough to be killed at any stage
    return b"".join(b"vllm serve m%d --swap-space 4 --cuda-graph-sizes 8 --port %d\n" % (i, i) for i in range(800))


def _fix_cmd(path: Path) -> list[str]:
    return [sys.executable, "-m", "vllm_lint", "-t", "0.27.1", "--fix", "-q", str(path)]


@pytest.fixture(scope="module")
def big(synth_db_path, tmp_path_factory):
    d = tmp_path_factory.mktemp("big")
    old = _big_script()
    p = d / "deploy.sh"
    p.write_bytes(old)
    t0 = time.monotonic()
    subprocess.run(_fix_cmd(p), env=cli_env(synth_db_path), check=False, capture_output=True)
    duration = time.monotonic() - t0  # only to spread the kill moments, never asserted
    new = p.read_bytes()
    assert new != old and b"--swap-space" not in new
    return old, new, duration


@pytest.mark.slow  # subprocess fix runs killed one after another (tests/README.md, "Timing")
def test_sigkill_at_random_moments_leaves_old_or_new(big, synth_db_path, tmp_path):
    old, new, duration = big
    rng = random.Random(8)
    p = tmp_path / "deploy.sh"
    outcomes = {"old": 0, "new": 0}
    for i in range(8):
        p.write_bytes(old)
        proc = subprocess.Popen(_fix_cmd(p), env=cli_env(synth_db_path), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, duration * 1.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        got = p.read_bytes()
        assert got in (old, new), f"kill {i}: the file is neither the old nor the new content"
        outcomes["old" if got == old else "new"] += 1
    print("sigkill outcomes:", outcomes)


# The fix run with its write held half-way: the temporary file gets the first half of the fixed
# bytes, then the writer waits, so that the SIGKILL is sure to land mid-write.
_HELD_WRITE = r"""
import os, runpy, sys, time
real_fdopen = os.fdopen


class HalfThenWait:
    def __init__(self, f):
        self.f = f

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.f.__exit__(*exc)

    def write(self, data):
        self.f.write(data[: len(data) // 2])
        self.f.flush()
        time.sleep(600)

    def __getattr__(self, name):
        return getattr(self.f, name)


def fdopen(fd, mode="r", *args, **kwargs):
    f = real_fdopen(fd, mode, *args, **kwargs)
    return HalfThenWait(f) if "w" in mode else f


os.fdopen = fdopen
sys.argv = ["vllm-lint", *sys.argv[1:]]
runpy.run_module("vllm_lint", run_name="__main__")
"""


@pytest.mark.slow  # subprocess fix runs killed one after another (tests/README.md, "Timing")
def test_sigkill_while_the_temporary_file_is_written(big, synth_db_path, tmp_path):
    """Kill the moment the temporary file holds part of the new content: the kill lands mid-write,
    the original is intact and the partial temporary file is left beside it (never read)."""
    # 40 of the big script's launches: the held write needs no long run (each line is fixed alone)
    old, new = (b"".join(text.splitlines(keepends=True)[:40]) for text in big[:2])
    p = tmp_path / "deploy.sh"
    for i in range(3):
        p.write_bytes(old)
        for stale in tmp_path.glob("*.vllm-lint.tmp"):
            stale.unlink()
        proc = subprocess.Popen([sys.executable, "-c", _HELD_WRITE, *_fix_cmd(p)[3:]], env=cli_env(synth_db_path),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            partial = []
            while not partial and proc.poll() is None:
                partial = [t for t in tmp_path.glob("*.vllm-lint.tmp") if t.stat().st_size == len(new) // 2]
                time.sleep(0.01)
            assert partial, f"kill {i}: the run ended (exit {proc.returncode}) before writing its temporary file"
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.kill()
            proc.wait()
        assert proc.returncode == -signal.SIGKILL
        assert p.read_bytes() == old, f"kill {i}: the file is not the old content"
        (left,) = tmp_path.glob("*.vllm-lint.tmp")
        assert left.read_bytes() == new[: len(new) // 2]


# ----------------------------------------------------------------------------- concurrency


def _files() -> dict[str, bytes]:
    out = {}
    for i in range(12):
        out[f"s{i}.sh"] = b"#!/bin/sh\n" + b"".join(
            b"vllm serve m --swap-space %d \\\n  --cuda-graph-sizes %d --max-model %d\n" % (j, j, j) for j in range(20))
    out["k.yaml"] = (b"services:\n  vllm:\n    image: vllm/vllm-openai\n    command: [--swap-space, '4', "
                     b"--cuda-graph-sizes, '8', --max-model, '9']\n")
    out["p.py"] = b"from vllm import LLM\nLLM(model='m', swap_space=4, cuda_graph_sizes=[8])\n"
    return out


@pytest.fixture(scope="module")
def single_run(synth_db_path, tmp_path_factory):
    d = tmp_path_factory.mktemp("single")
    for name, data in _files().items():
        (d / name).write_bytes(data)
    subprocess.run([sys.executable, "-m", "vllm_lint", "-t", "0.27.1", "--fix", "-q", str(d)],
                   env=cli_env(synth_db_path), capture_output=True, check=False)
    out = {name: (d / name).read_bytes() for name in _files()}
    assert all(out[n] != data for n, data in _files().items())
    return out


@pytest.mark.slow  # three rounds of two concurrent subprocess fix runs (tests/README.md, "Timing")
@pytest.mark.parametrize("cache", [False, True], ids=["no-cache", "shared-cache"])
def test_two_concurrent_fix_runs_equal_one_run(single_run, synth_db_path, tmp_path, cache):
    extra = {}
    if cache:
        extra = {"VLLM_LINT_NO_CACHE": "", "VLLM_LINT_CACHE_DIR": str(tmp_path / "cache")}
    env = cli_env(synth_db_path, **extra)
    if cache:
        env.pop("VLLM_LINT_NO_CACHE")
    d = tmp_path / "repo"
    d.mkdir()
    for round_ in range(3):
        for name, data in _files().items():
            (d / name).write_bytes(data)
        names = sorted(_files())
        # the two runs name the files in opposite orders, so they meet in the middle
        cmds = [[sys.executable, "-m", "vllm_lint", "-t", "0.27.1", "--fix", "-q", *(str(d / n) for n in order)]
                for order in (names, names[::-1])]
        procs = [subprocess.Popen(c, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for c in cmds]
        for pr in procs:
            _, err = pr.communicate()
            assert pr.returncode in (0, 1), err.decode()
            assert b"Traceback" not in err
        for name in names:
            assert (d / name).read_bytes() == single_run[name], f"round {round_}: {name} differs from a single run"
        assert leftovers(d) == []
