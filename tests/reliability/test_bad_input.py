"""The bad-input matrix: one test per case, through the CLI (in-process, synthetic database).

Each case ends in a VL001 finding for the bad file (or, where the input is not actually broken,
in a correct lint), or in a one-line ``vllm-lint: error: ...`` with exit code 2 for a broken
database or configuration; never a traceback. A good file linted in the same run is still
reported. Bounds are structural (nothing is expanded or read that should not be), and memory is
measured with tracemalloc against a generous limit; no wall-clock thresholds.
"""

from __future__ import annotations

import builtins
import json
import os
import shutil
import sys
import tracemalloc
from pathlib import Path

import pytest

GOOD = b"vllm serve m --swap-space 4 --port 8000\n"  # VL101 at 0.27.1


def lint(run_cli, tmp_path: Path, name: str, data, *extra: str, good: bool = True):
    """Lint the bad file (``data`` bytes, or a callable that creates it) and a good file in one run.
    Returns (findings of the bad file, result)."""
    bad = tmp_path / name
    if callable(data):
        data(bad)
    else:
        bad.write_bytes(data)
    args = ["--output-format", "json", "-t", "0.27.1", *extra, str(bad)]
    if good:
        (tmp_path / "good.sh").write_bytes(GOOD)
        args.append(str(tmp_path / "good.sh"))
    r = run_cli(*args)
    assert r.exit_code in (0, 1), r.output
    assert "Traceback" not in r.output
    out = json.loads(r.stdout)
    if good:
        assert any(d["code"] == "VL101" and d["filename"].endswith("good.sh") for d in out), \
            "the good file was not linted"
    for d in out:  # every finding has a real position, file-level ones at 1:1
        assert d["location"]["row"] >= 1 and d["location"]["column"] >= 1, d
    mine = [d for d in out if os.path.basename(d["filename"]) == name or d["filename"].endswith(os.sep + name)]
    return mine, r


def codes(findings) -> list[str]:
    return [d["code"] for d in findings]


def one_line_error(r) -> str:
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("vllm-lint: error: "), r.stderr
    return lines[0]


# ----------------------------------------------------------------------------- file contents


def test_empty_file(run_cli, tmp_path):
    found, _ = lint(run_cli, tmp_path, "empty.sh", b"")
    assert found == []  # nothing to report is the right answer


def test_empty_yaml_and_python(run_cli, tmp_path):
    assert lint(run_cli, tmp_path, "empty.yaml", b"")[0] == []
    assert lint(run_cli, tmp_path, "empty.py", b"")[0] == []


def test_binary_file(run_cli, tmp_path):
    found, _ = lint(run_cli, tmp_path, "model.sh", b"vllm\x00\x01\x02" + os.urandom(4096))
    assert codes(found) == ["VL001"] and "binary" in found[0]["message"]


def test_binary_file_found_by_walk_is_skipped_quietly(run_cli, tmp_path):
    d = tmp_path / "repo"
    d.mkdir()
    (d / "weights").write_bytes(b"#!/bin/sh\x00vllm" + bytes(range(256)))
    (d / "good.sh").write_bytes(GOOD)
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(d))
    assert r.exit_code == 1
    assert codes(json.loads(r.stdout)) == ["VL101"]


def test_invalid_utf8_in_a_python_comment(run_cli, tmp_path):
    # CPython refuses the file when run, but ast.parse(bytes) accepts a bad byte in a comment; the
    # launch is linted (or the file reported); never a crash
    found, _ = lint(run_cli, tmp_path, "c.py", b"from vllm import LLM\n# caf\xe9\nLLM(model='m', swap_space=4)\n")
    assert codes(found) in (["VL001"], ["VL101"])


@pytest.mark.parametrize("name, expect", [("bad.yaml", "VL001"), ("bad.py", "VL001"), ("bad.sh", "VL101")])
def test_invalid_utf8(run_cli, tmp_path, name, expect):
    data = {"bad.yaml": b"services:\n  vllm:\n    image: vllm/vllm-openai\n    command: [\"--swap-space\", \"\xff\xfe\"]\n",
            "bad.py": b"from vllm import LLM\nLLM(model='caf\xe9', swap_space=4)\n",
            "bad.sh": b"# caf\xe9 \xff\nvllm serve m --swap-space 4\n"}[name]
    found, _ = lint(run_cli, tmp_path, name, data)
    assert expect in codes(found)
    if expect == "VL001":
        assert "UTF-8" in found[0]["message"] or "utf-8" in found[0]["message"].lower() or "decode" in found[0]["message"]


@pytest.mark.parametrize("name, data", [
    ("bom.sh", b"\xef\xbb\xbfvllm serve m --swap-space 4\n"),
    ("bom.py", b"\xef\xbb\xbffrom vllm import LLM\nLLM(model='m', swap_space=4)\n"),
    ("bom.yaml", b"\xef\xbb\xbfservices:\n  vllm:\n    image: vllm/vllm-openai:v0.27.1\n    command: [\"--swap-space\", \"4\"]\n"),
])
def test_utf8_bom_is_linted_and_kept_by_fixes(run_cli, tmp_path, name, data):
    found, _ = lint(run_cli, tmp_path, name, data)
    assert codes(found) == ["VL101"]
    p = tmp_path / name
    r = run_cli("-t", "0.27.1", "--fix", str(p))
    assert r.exit_code == 0, r.output
    fixed = p.read_bytes()
    assert fixed.startswith(b"\xef\xbb\xbf") and b"swap" not in fixed


@pytest.mark.parametrize("name, data", [
    ("crlf.sh", b"vllm serve m \\\r\n  --cuda-graph-sizes 8 --port 1\r\n"),
    ("crlf.yaml", b"services:\r\n  vllm:\r\n    image: vllm/vllm-openai\r\n    command:\r\n      - --swap-space\r\n"
                  b"      - \"4\"\r\n      - --cuda-graph-sizes=8\r\n"),
    ("crlf.py", b"from vllm import LLM\r\nLLM(model='m',\r\n    swap_space=4,\r\n    cuda_graph_sizes=[8])\r\n"),
])
def test_crlf_kept_by_fixes(run_cli, tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    run_cli("-t", "0.27.1", "--fix", str(p))
    fixed = p.read_bytes()
    assert fixed != data and b"cudagraph" in fixed or b"swap" not in fixed
    assert fixed.count(b"\n") == fixed.count(b"\r\n"), fixed  # no bare LF introduced


def test_20mb_file_is_refused_without_reading_it(run_cli, tmp_path, monkeypatch):
    def make(p: Path) -> None:
        with open(p, "wb") as f:
            f.write(b"vllm serve m --swap-space 4\n")
            f.truncate(20 * 1024 * 1024)  # sparse: 20 MB on paper

    from vllm_lint import fsutil
    from vllm_lint.pipeline import engine

    reads: list[int] = []
    real_read = engine.read_if_regular

    def spy(path, limit, known=None):  # the engine's one read of a linted file's bytes (the good file's too)
        got = real_read(path, limit, known)
        if got is not None and got[0] is not None:
            reads.append(len(got[0]))
        return got

    chunks: list[int] = []
    real_os_read = fsutil.os.read  # (every read of a file's descriptor: fsutil reads with os.read)
    monkeypatch.setattr(fsutil.os, "read", lambda fd, n: chunks.append(len(b := real_os_read(fd, n))) or b)
    monkeypatch.setattr(engine, "read_if_regular", spy)
    found, _ = lint(run_cli, tmp_path, "huge.sh", make)
    assert codes(found) == ["VL001"] and "too large" in found[0]["message"]
    assert reads == [len(GOOD)]
    assert max(chunks) < 1024 * 1024  # (nothing read of the 20 MB)


def test_yaml_alias_bomb_is_not_expanded(run_cli, tmp_path):
    lines = [b"a0: &a0 [\"--swap-space\", \"4\"]"]
    for i in range(1, 30):  # 2**29 leaves if expanded
        prev = f"*a{i - 1}".encode()
        lines.append(f"a{i}: &a{i} [".encode() + b", ".join([prev] * 2) + b"]")
    data = b"# vllm\n" + b"\n".join(lines) + b"\nservices:\n  vllm:\n    image: vllm/vllm-openai:v0.27.1\n    command: *a29\n"
    tracemalloc.start()
    try:
        found, _ = lint(run_cli, tmp_path, "bomb.yaml", data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024, f"peak {peak} bytes: the aliases were expanded"
    # reported (a command built from aliases that would expand to 2**29 words), or read without
    # expansion; never a crash
    assert set(codes(found)) <= {"VL001", "VL002", "VL101", "VL103", "VL108"}


def test_yaml_alias_bomb_of_containers_is_linted_once(run_cli, tmp_path):
    """Billion laughs whose leaves are vLLM containers: 2**25 containers if expanded; the walk
    visits each distinct node once, so the one container is reported once."""
    lines = [b"c0: &c0 {name: vllm, image: vllm/vllm-openai:v0.27.1, args: [--swap-space, \"4\"]}"]
    for i in range(1, 26):
        lines.append(f"c{i}: &c{i} [*c{i - 1}, *c{i - 1}]".encode())
    data = b"\n".join(lines) + b"\nspec:\n  containers: *c25\n"
    tracemalloc.start()
    try:
        found, _ = lint(run_cli, tmp_path, "bomb2.yaml", data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 * 1024
    assert codes(found) == ["VL101"]


def test_deep_yaml_nesting(run_cli, tmp_path):
    data = b"# vllm\nx: " + b"[" * 10_000 + b"]" * 10_000 + b"\n"
    found, _ = lint(run_cli, tmp_path, "deep.yaml", data)
    assert codes(found) == ["VL001"]


def test_deep_yaml_block_nesting(run_cli, tmp_path):
    # 10,000 levels of block indentation take ~100 MB: refused by size before any parsing
    data = b"# vllm\n" + b"".join(b"  " * i + f"k{i}:\n".encode() for i in range(10_000))
    found, _ = lint(run_cli, tmp_path, "deep2.yaml", data)
    assert codes(found) == ["VL001"] and "too large" in found[0]["message"]


def test_deep_yaml_block_nesting_under_the_size_limit(run_cli, tmp_path):
    data = b"# vllm\n" + b"".join(b" " * i + f"k{i}:\n".encode() for i in range(3_000))
    found, _ = lint(run_cli, tmp_path, "deep3.yaml", data)
    assert codes(found) == ["VL001"]


def test_deep_json_in_shell(run_cli, tmp_path):
    data = b"vllm serve m --compilation-config '" + b"[" * 10_000 + b"]" * 10_000 + b"' --swap-space 4\n"
    tracemalloc.start()
    try:
        found, _ = lint(run_cli, tmp_path, "deepjson.sh", data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "VL101" in codes(found)  # the rest of the launch is still checked
    assert peak < 128 * 1024 * 1024


def test_deep_python_nesting(run_cli, tmp_path):
    data = b"from vllm import LLM\nLLM(model='m', x=" + b"[" * 10_000 + b"]" * 10_000 + b", swap_space=4)\n"
    found, _ = lint(run_cli, tmp_path, "deep.py", data)
    assert codes(found) == ["VL001"]


def test_deep_python_expression_nesting(run_cli, tmp_path):
    data = b"from vllm import LLM\nLLM(model='m', x=" + b"-" * 10_000 + b"1, swap_space=4)\n"
    found, _ = lint(run_cli, tmp_path, "deepexpr.py", data)
    assert codes(found) == ["VL001"] and "nested too deeply" in found[0]["message"]


def test_helm_template_is_read_with_a_note(run_cli, tmp_path):
    data = (b"apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
            b"        - name: vllm\n          image: \"vllm/vllm-openai:{{ .Values.tag }}\"\n"
            b"          args:\n            {{- range .Values.extraArgs }}\n            - {{ . | quote }}\n"
            b"            {{- end }}\n            - --swap-space\n            - \"{{ .Values.swap }}\"\n")
    found, _ = lint(run_cli, tmp_path, "deployment.yaml", data)
    assert "VL002" in codes(found) and "VL101" in codes(found)


def test_helm_template_that_is_not_yaml_is_skipped_with_a_note(run_cli, tmp_path):
    data = (b"{{- if .Values.enabled }}\nspec:\n  containers:\n    - image: vllm/vllm-openai\n"
            b"      args: {{ toYaml .Values.args | nindent 8 }}\n        - bad: [\n{{- end }}\n")
    found, _ = lint(run_cli, tmp_path, "t.yaml", data)
    assert codes(found) in (["VL002"], ["VL001"])


@pytest.mark.parametrize("name", ["conflict.yaml", "conflict.py", "conflict.sh", "Dockerfile"])
def test_merge_conflict_markers(run_cli, tmp_path, name):
    body = {"conflict.yaml": (b"services:\n  vllm:\n    image: vllm/vllm-openai\n", b"    command: [--swap-space, '4']\n",
                              b"    command: [--port, '1']\n"),
            "conflict.py": (b"from vllm import LLM\n", b"LLM(model='m', swap_space=4)\n", b"LLM(model='m')\n"),
            "conflict.sh": (b"#!/bin/sh\n", b"vllm serve m --swap-space 4\n", b"vllm serve m\n"),
            "Dockerfile": (b"FROM vllm/vllm-openai:v0.27.1\n", b"CMD [\"--swap-space\", \"4\"]\n", b"CMD [\"--port\", \"1\"]\n")}[name]
    data = body[0] + b"<<<<<<< HEAD\n" + body[1] + b"=======\n" + body[2] + b">>>>>>> branch\n"
    found, _ = lint(run_cli, tmp_path, name, data)
    # a structured format cannot be parsed (VL001); line-based ones still lint each side
    if name.endswith((".yaml", ".py")):
        assert codes(found) == ["VL001"]
    else:
        assert set(codes(found)) <= {"VL001", "VL101", "VL108", "VL109"}
    p = tmp_path / name
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_bytes().count(b"<<<<<<< HEAD") == 1  # never "fixed" into something else


# ----------------------------------------------------------------------------- the file system


def test_symlink_loop_named_explicitly(run_cli, tmp_path):
    def make(p: Path) -> None:
        os.symlink(tmp_path / "loop_b.sh", p)
        os.symlink(p, tmp_path / "loop_b.sh")

    found, _ = lint(run_cli, tmp_path, "loop_a.sh", make)
    assert codes(found) == ["VL001"]


def test_symlink_loop_in_a_walked_directory(run_cli, tmp_path):
    d = tmp_path / "repo"
    (d / "sub").mkdir(parents=True)
    os.symlink(d, d / "sub" / "up")  # directory loop
    os.symlink(d / "x.sh", d / "y.sh")
    os.symlink(d / "y.sh", d / "x.sh")  # file loop
    (d / "sub" / "good.sh").write_bytes(GOOD)
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(d))
    assert r.exit_code == 1 and "Traceback" not in r.output
    out = json.loads(r.stdout)
    assert sum(1 for f in out if f["code"] == "VL101") == 1  # the loop did not lint it twice
    assert all(f["code"] in ("VL101", "VL001") for f in out)


def test_unreadable_file_chmod(run_cli, tmp_path):
    if os.geteuid() == 0:
        pytest.skip("running as root: chmod 000 does not prevent reading (see the simulated test)")
    found, _ = lint(run_cli, tmp_path, "secret.sh", lambda p: (p.write_bytes(GOOD), os.chmod(p, 0)))
    assert codes(found) == ["VL001"] and "cannot read" in found[0]["message"]


def test_unreadable_file_simulated(run_cli, tmp_path, monkeypatch):
    real_open = os.open

    def guarded(file, flags, *a, **k):
        if str(file).endswith("secret.sh"):
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, flags, *a, **k)

    monkeypatch.setattr(os, "open", guarded)
    found, _ = lint(run_cli, tmp_path, "secret.sh", GOOD)
    assert codes(found) == ["VL001"] and "Permission denied" in found[0]["message"]


def test_directory_named_like_a_file(run_cli, tmp_path):
    # named on the command line, a directory is walked whatever its name: nothing in it, nothing
    # reported, and the other files are linted
    found, _ = lint(run_cli, tmp_path, "x.yaml", lambda p: p.mkdir())
    assert found == []
    (tmp_path / "x.yaml" / "inner.sh").write_bytes(GOOD)
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(tmp_path / "x.yaml"))
    assert codes(json.loads(r.stdout)) == ["VL101"]


def test_directory_target_reported_by_the_engine(synth_db_path, tmp_path):
    from vllm_lint.pipeline.discovery import Target
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    (tmp_path / "x.yaml").mkdir()
    linter = Linter(Database(synth_db_path), Settings(), select_rules([], []))
    res = linter.lint_file(Target(tmp_path / "x.yaml", True))
    assert [d.code for d in res.diagnostics] == ["VL001"] and "directory" in res.diagnostics[0].message


def test_file_deleted_while_the_run_is_under_way(run_cli, tmp_path, monkeypatch):
    from vllm_lint.pipeline.engine import Linter

    real = Linter.lint_file

    def deleting(self, target, *a, **k):
        if os.path.basename(target.path) == "gone.sh":
            os.unlink(target.path)
        return real(self, target, *a, **k)

    monkeypatch.setattr(Linter, "lint_file", deleting)
    found, _ = lint(run_cli, tmp_path, "gone.sh", GOOD)
    assert codes(found) == ["VL001"] and "disappeared" in found[0]["message"]


def test_file_deleted_before_the_fix_is_written(run_cli, tmp_path, monkeypatch):
    """--fix: the file vanishes between linting and writing: one-line error, exit 2, and no
    new file is created from the stale content."""
    import vllm_lint.pipeline.fix as fixmod

    p = tmp_path / "gone.sh"
    p.write_bytes(GOOD)
    real = fixmod.write_atomic

    def deleting(path, data, **kw):
        os.unlink(path)
        return real(path, data, **kw)

    monkeypatch.setattr(fixmod, "write_atomic", deleting)
    r = run_cli("-t", "0.27.1", "--fix", str(p))
    assert "gone.sh" in one_line_error(r)
    assert not p.exists()


def test_missing_path(run_cli, tmp_path):
    (tmp_path / "good.sh").write_bytes(GOOD)
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(tmp_path / "nope.sh"), str(tmp_path / "good.sh"))
    out = json.loads(r.stdout)
    assert r.exit_code == 1 and {d["code"] for d in out} == {"VL001", "VL101"}


# ----------------------------------------------------------------------------- database


@pytest.fixture
def db_copy(synth_db_path, tmp_path, monkeypatch):
    d = tmp_path / "db"
    shutil.copytree(synth_db_path, d)
    monkeypatch.setenv("VLLM_LINT_DB", str(d))
    (tmp_path / "a.sh").write_bytes(GOOD)
    return d


@pytest.mark.parametrize("content", [b"", b"{not json", b"[]", b'{"schema": 1}', b"\xff\xfe", b"null"])
def test_corrupted_index(run_cli, db_copy, tmp_path, content):
    (db_copy / "index.json").write_bytes(content)
    line = one_line_error(run_cli("-t", "0.27.1", str(tmp_path / "a.sh")))
    assert "index.json" in line


def test_missing_index(run_cli, db_copy, tmp_path):
    (db_copy / "index.json").unlink()
    assert "index" in one_line_error(run_cli(str(tmp_path / "a.sh")))


@pytest.mark.parametrize("content", [
    b"", b"{trunc", b"\x00\x01", b"[]",
    b'{"version": "0.8.5"}',  # a release file copied over another
    b'{"version": "0.27.1", "options": "oops"}',  # hand-edited: wrong types
    b'{"version": "0.27.1", "options": [{"aliases": []}]}',  # an option without a name
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "env": ["VLLM_X"]}',
    b'{"version": "0.27.1", "options": [{"name": "--x", "aliases": 5}]}',
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "serve_checks": []}',
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "serve_checks": {"entries": [], "checks": [1]}}',
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "serve_checks": {"entries": ["vllm serve"], '
    b'"checks": [{"kind": "requires", "dests": ["a"], "options": ["--a", "--b"]}]}}',
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "serve_checks": {"entries": ["vllm serve"], '
    b'"checks": [{"kind": "excludes", "dests": ["a", "b"], "options": ["--a", "--b"]}]}}',
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "serve_checks": {"entries": ["vllm serve"], '
    b'"checks": [{"kind": "when", "when": [{"dest": "port", "test": "<", "option": "--port"}]}]}}',
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "serve_checks": {"entries": ["vllm serve"], '
    b'"checks": [{"kind": "when", "when": [{"dest": "port", "test": "about", "option": "--port"}]}]}}',
    b'{"version": "0.27.1", "options": [{"name": "--port"}], "config_checks": [{"kind": "requires"}]}',
])
def test_corrupted_release_file(run_cli, db_copy, tmp_path, content):
    (db_copy / "releases" / "0.27.1.json").write_bytes(content)
    line = one_line_error(run_cli("-t", "0.27.1", str(tmp_path / "a.sh")))
    assert "0.27.1.json" in line


def test_missing_release_file(run_cli, db_copy, tmp_path):
    (db_copy / "releases" / "0.27.1.json").unlink()
    assert "0.27.1.json" in one_line_error(run_cli("-t", "0.27.1", str(tmp_path / "a.sh")))


def test_corrupted_overlay(run_cli, db_copy, tmp_path):
    (db_copy / "overlays" / "renames.json").write_bytes(b"{oops")
    assert "renames.json" in one_line_error(run_cli("-t", "0.27.1", str(tmp_path / "a.sh")))


def test_db_path_is_a_file(run_cli, tmp_path, monkeypatch):
    (tmp_path / "notadir").write_text("x")
    monkeypatch.setenv("VLLM_LINT_DB", str(tmp_path / "notadir"))
    (tmp_path / "a.sh").write_bytes(GOOD)
    r = run_cli(str(tmp_path / "a.sh"))
    assert r.exit_code == 2 and "Traceback" not in r.output


# ----------------------------------------------------------------------------- configuration


@pytest.mark.parametrize("name, text, expect", [
    (".vllm-lint.toml", 'target-versoin = "0.10"\n', "unknown setting"),
    (".vllm-lint.toml", 'select = "VL1"\n', "must be a list"),
    (".vllm-lint.toml", "gpus = true\n", "must be an integer, got a boolean"),
    (".vllm-lint.toml", "gpus = 1.5\n", "must be an integer, got a number"),
    (".vllm-lint.toml", "per-file-ignores = { \"*.sh\" = \"VL1\" }\n", "per-file-ignores"),
    (".vllm-lint.toml", "select = [1, 2]\n", "list of strings"),
    (".vllm-lint.toml", "[oops\n", "invalid TOML"),
    (".vllm-lint.toml", b"\xff\xfe = 1\n", "invalid TOML"),
    ("pyproject.toml", "[tool.vllm-lint]\nbogus = 1\n", "unknown setting"),
    ("pyproject.toml", "[tool]\nvllm-lint = 3\n", "must be a table"),
    (".vllm-lint.toml", 'target-version = "banana"\n', "banana"),
    (".vllm-lint.toml", 'target-version = "99.0"\n', "99.0"),
    (".vllm-lint.toml", 'ignore = ["XX9"]\n', "XX9"),
])
def test_bad_configuration(run_cli, tmp_path, name, text, expect):
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    (tmp_path / "a.sh").write_bytes(GOOD)
    line = one_line_error(run_cli(str(tmp_path / "a.sh")))
    assert expect in line


def test_configuration_that_is_a_directory(run_cli, tmp_path):
    (tmp_path / ".vllm-lint.toml").mkdir()
    (tmp_path / "a.sh").write_bytes(GOOD)
    r = run_cli("-t", "0.27.1", str(tmp_path / "a.sh"))
    assert r.exit_code in (1, 2) and "Traceback" not in r.output


def test_configuration_named_on_the_command_line_is_missing(run_cli, tmp_path):
    (tmp_path / "a.sh").write_bytes(GOOD)
    r = run_cli("--config", str(tmp_path / "nope.toml"), str(tmp_path / "a.sh"))
    assert r.exit_code == 2 and "Traceback" not in r.output
