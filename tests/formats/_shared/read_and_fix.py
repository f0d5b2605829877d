"""Read and fix one file of a format through the CLI: its findings at exact line and column, the
bytes ``--fix`` writes, and a directory walk that finds it (the per-format tests of issue 17's
formats use it)."""

from __future__ import annotations

import json


def lint(run_cli, path) -> list[tuple[str, int, int]]:
    """(code, row, column) of every finding at 0.27.1."""
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]


def check_read_and_fixed(run_cli, tmp_path, name: str, text: str, expected, fixed: str) -> None:
    """``name`` holding ``text`` gives ``expected``; ``--fix`` writes ``fixed`` and removes
    ``--swap-space 4`` (outside a PowerShell block comment); a walk of the folder finds only it."""
    p = tmp_path / name
    p.write_text(text)
    assert lint(run_cli, p) == expected
    run_cli("-t", "0.27.1", "--fix", str(p))
    new = p.read_text()
    assert fixed in new and "--swap-space 4\n" not in new.split("<#")[0]
    # and found by a directory walk too
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(tmp_path))
    assert {d["filename"] for d in json.loads(r.stdout)} <= {str(p)}
