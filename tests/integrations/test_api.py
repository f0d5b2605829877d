"""The Python API (``vllm_lint.lint``, ``vllm_lint.fix``): the command line's analysis in memory,
imported lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest

import vllm_lint

SCRIPT = "#!/bin/bash\nvllm serve m \\\n  --swap-space 4 \\\n  --cuda-graph-sizes 1 2\n"


def test_lint_gives_the_command_lines_findings(synth_db_path, run_cli, tmp_path, monkeypatch):
    got = vllm_lint.lint(SCRIPT, "serve.sh", target="0.27.1", db=str(synth_db_path))
    assert [(d.code, d.row, d.column, d.severity) for d in got] == [("VL101", 3, 3, "error"), ("VL102", 4, 3, "error")]
    assert isinstance(got[0], vllm_lint.Diagnostic)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "serve.sh").write_text(SCRIPT)
    r = run_cli("-t", "0.27.1", "--output-format", "concise", "serve.sh")
    assert [line.split()[1] for line in r.stdout.splitlines() if ": VL" in line] == [d.code for d in got]
    assert vllm_lint.lint(SCRIPT.encode(), "serve.sh", target="0.27.1", db=str(synth_db_path))[0].code == "VL101"


def test_settings_as_a_table_and_suppressions(synth_db_path):
    got = vllm_lint.lint(SCRIPT, "serve.sh", target="0.27.1", db=str(synth_db_path), settings={"ignore": ["VL102"]})
    assert [d.code for d in got] == ["VL101"]
    quiet = SCRIPT.replace("#!/bin/bash\n", "#!/bin/bash\n# vllm-lint: ignore-file[VL1]\n")
    assert vllm_lint.lint(quiet, "serve.sh", target="0.27.1", db=str(synth_db_path)) == []
    from vllm_lint.settings import ConfigError

    with pytest.raises(ConfigError):
        vllm_lint.lint(SCRIPT, "serve.sh", db=str(synth_db_path), settings={"gpus": 0})


def test_fix_returns_the_text_as_given(synth_db_path):
    res = vllm_lint.fix(SCRIPT, "serve.sh", target="0.27.1", db=str(synth_db_path))
    assert res.output == "#!/bin/bash\nvllm serve m \\\n  --cudagraph-capture-sizes 1 2\n" and res.fixed_count == 2
    assert res.diagnostics == []
    assert isinstance(vllm_lint.fix(SCRIPT.encode(), "serve.sh", target="0.27.1", db=str(synth_db_path)).output, bytes)
    with pytest.raises(vllm_lint.UnknownFormat):
        vllm_lint.lint("hello\n", "notes.txt", db=str(synth_db_path))


def test_the_packages_fix_is_the_api_function():
    from vllm_lint import api

    assert vllm_lint.fix is api.fix and vllm_lint.lint is api.lint


def test_importing_vllm_lint_loads_no_engine():
    code = "import sys, vllm_lint; print(any(m.startswith('vllm_lint.') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
