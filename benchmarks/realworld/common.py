"""Shared by the real-world measurements: lint a folder through the CLI (JSON output, no cache)
and write findings as JSON lines with paths relative to the folder linted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional


def run_cli(folder: Path, args: list[str]) -> tuple[list[dict], str]:
    """One ``vllm-lint --output-format json --no-cache --exit-zero ARGS`` run in ``folder``, as a user
    runs it there (no configuration of this repository): (its JSON findings, its standard error)."""
    cmd = [sys.executable, "-m", "vllm_lint", "--output-format", "json", "--no-cache", "--exit-zero", *args]
    env = dict(os.environ, VLLM_LINT_NO_CONFIG="1")
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=folder, env=env)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"vllm-lint failed on {folder}: {proc.stderr.strip()[-500:]}")
    return json.loads(proc.stdout or "[]"), proc.stderr


def relative(folder: Path, filename: str) -> str:
    """A finding's file, relative to the folder linted (as written when it lies outside)."""
    fn = Path(filename)
    try:
        return (fn if fn.is_absolute() else folder / fn).resolve().relative_to(folder.resolve()).as_posix()
    except ValueError:
        return str(fn)


def lint_folder(folder: Path, target: Optional[str] = None, files: Optional[list[Path]] = None) -> list[dict]:
    """Every finding of ``vllm-lint`` on ``folder`` (or on ``files`` inside it), as dicts with
    ``path`` (relative to ``folder``), ``line``, ``code``, ``option``, ``severity``, ``message``."""
    found, _ = run_cli(folder, ["-q", *(["-t", target] if target else []), *[str(p) for p in (files or [folder])]])
    out = [{"path": relative(folder, d["filename"]), "line": d["location"]["row"], "code": d["code"],
            "option": d.get("option") or "", "severity": d.get("severity", ""), "message": d["message"]}
           for d in found]
    out.sort(key=lambda f: (f["path"], f["line"], f["code"], f["option"]))
    return out


def write_findings(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        for r in rows:
            fh.write(json.dumps(r, sort_keys=True) + "\n")
