"""Byte screens that skip work a file cannot need (issue 31), each exact: what the screened work
would find holds bytes the screen looks for, so the findings are the same (the rule snapshots and
the benchmark outputs prove it on fixtures; these tests pin the reasoning)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vllm_lint.pipeline.engine import Linter
from vllm_lint.rules.base import select_rules
from vllm_lint.settings import Settings

FIXTURES = Path(__file__).resolve().parents[1] / "rules" / "VL408"


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.iterdir() if p.is_file()))
def test_vl408_reads_a_file_shell_text_only_when_its_bytes_hold_a_bound(synth_db, monkeypatch, name):
    """VL408 makes a file's shell text (for Python, a parse of the module) only when the file's
    bytes hold ``vllm`` followed by ``<`` or ``>``: every format's shell text is the file's own
    bytes at their places, the rest blanked. Its findings on each fixture are those of a run
    without the screen."""
    from vllm_lint.rules import vl408_unquoted_version_specifier as vl408

    data = (FIXTURES / name).read_bytes()
    linter = Linter(synth_db, Settings(target_version="0.27.1"), select_rules(["VL408"], []))
    path = str(FIXTURES / name)
    screened = [(d.code, d.row, d.column, d.message) for d in linter.analyse(path, data).diagnostics]
    monkeypatch.setattr(vl408, "_BOUND", type("Always", (), {"search": staticmethod(lambda b: True)})())
    unscreened = [(d.code, d.row, d.column, d.message) for d in linter.analyse(path, data).diagnostics]
    assert screened == unscreened


def test_vl408_skips_the_shell_text_of_a_file_with_no_bound(synth_db, monkeypatch, tmp_path):
    from vllm_lint.frontends import python as python_front

    calls = []
    real = python_front.shell_text
    monkeypatch.setattr(python_front, "shell_text", lambda data: calls.append(1) or real(data))
    p = tmp_path / "serve.py"
    p.write_text("import os\nif 2 > 1:\n    os.system(\"pip install vllm==0.8.5\")\nos.system(\"vllm serve m\")\n")
    linter = Linter(synth_db, Settings(target_version="0.27.1"), select_rules(["VL408"], []))
    assert not linter.analyse(str(p), p.read_bytes()).diagnostics and not calls
    p.write_text("import os\nos.system(\"pip install vllm>=0.8.5\")\nos.system(\"vllm serve m\")\n")
    assert [d.code for d in linter.analyse(str(p), p.read_bytes()).diagnostics] == ["VL408"] and calls
