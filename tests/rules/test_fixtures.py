"""Runs every fixture under ``tests/rules/<CODE>/`` through the CLI and compares that rule's
findings with the fixture's expectations.

Directives (comment lines anywhere in the fixture):

    # test-target: 0.27.1          target release (default 0.27.1)
    # test-args: --gpus 8          extra CLI arguments
    # test-expect: VL303 4 warning  one expected finding of the folder's rule: code, row, severity

A fixture without ``test-expect`` lines expects the rule to stay silent.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
_DIRECTIVE = re.compile(r"#\s*test-(target|args|expect):\s*(.*?)\s*$")


def fixtures():
    out = []
    for d in sorted(HERE.glob("VL[0-9][0-9][0-9]")):
        for f in sorted(d.iterdir()):
            if f.is_file() and f.suffix != ".toml":  # .toml: settings used by fixtures
                out.append(pytest.param(d.name, f, id=f"{d.name}/{f.name}"))
    return out


def directives(path: Path):
    target, args, expect = "0.27.1", [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = _DIRECTIVE.search(line)
        if not m:
            continue
        kind, val = m.groups()
        if kind == "target":
            target = val
        elif kind == "args":
            args += shlex.split(val.replace("{here}", str(path.parent)))
        else:
            code, row, sev = val.split()
            expect.append((code, int(row), sev))
    return target, args, sorted(expect)


@pytest.mark.parametrize("code,path", fixtures())
def test_fixture(lint, code, path):
    target, args, expect = directives(path)
    assert all(c == code for c, *_ in expect), "a fixture tests its own folder's rule"
    r = lint("--output-format", "json", "-t", target, "--select", code, *args, str(path))
    assert r.exit_code in (0, 1), r.output
    got = sorted((d["code"], d["location"]["row"], d["severity"]) for d in json.loads(r.output) if d["code"] == code)
    assert got == expect, "\n".join(d["message"] for d in json.loads(r.output))


def test_every_rule_has_fixtures():
    from vllm_lint.rules.base import registry

    mine = [c for c in registry() if c[2] in "345"]
    assert mine
    for code in mine:
        files = [f for f in (HERE / code).glob("*") if f.suffix != ".toml"]
        assert files, f"no fixtures for {code}"
        fired = [f for f in files if directives(f)[2]]
        silent = [f for f in files if not directives(f)[2]]
        assert fired and silent, f"{code} needs fixtures where it fires and where it stays silent"
