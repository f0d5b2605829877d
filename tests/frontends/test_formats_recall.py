"""Formats people keep launches in (issue 17), each its own module: JSON manifests, systemd units,
Makefiles, PowerShell. Findings at exact line and column, fixed bytes, and what --add-noqa does
where a comment cannot go."""

from __future__ import annotations

import importlib
import json

import pytest

from vllm_lint.frontends import base as registry

POD_JSON = """{
  "apiVersion": "v1",
  "kind": "Pod",
  "spec": {
    "containers": [
      {
        "name": "vllm",
        "image": "vllm/vllm-openai:v0.27.1",
        "args": ["--model", "m", "--swap-space", "4"]
      }
    ]
  }
}
"""
UNIT = """[Unit]
Description=vLLM

[Service]
Environment=VLLM_USE_V1=1
ExecStart=/opt/venv/bin/vllm serve m \\
    --swap-space 4
"""
MAKEFILE = "MODEL ?= m\n\nserve:\n\t@vllm serve $(MODEL) \\\n\t  --swap-space 4\n\nclean:\n\trm -rf x\n"
PS1 = ("docker run --gpus all `\n  vllm/vllm-openai:v0.27.1 `\n  --model m `\n  --swap-space 4\n"
       "<# vllm serve m --swap-space 4 #>\nvllm serve m ` \n  --port 1\n")

CASES = [
    ("pod.json", POD_JSON, [("VL101", 9, 34)], '        "args": ["--model", "m"]\n'),
    ("vllm.service", UNIT, [("VL201", 5, 13), ("VL101", 7, 5)], "ExecStart=/opt/venv/bin/vllm serve m\n"),
    ("Makefile", MAKEFILE, [("VL101", 5, 4)], "serve:\n\t@vllm serve $(MODEL)\n\nclean:"),
    ("run.ps1", PS1, [("VL101", 4, 3), ("VL109", 7, 3)], "  --model m\n<#"),
]


def lint(run_cli, path):
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]


@pytest.mark.parametrize("name,text,expected,fixed", CASES, ids=[c[0] for c in CASES])
def test_each_format_is_read_and_fixed(run_cli, tmp_path, name, text, expected, fixed):
    p = tmp_path / name
    p.write_text(text)
    assert lint(run_cli, p) == expected
    run_cli("-t", "0.27.1", "--fix", str(p))
    new = p.read_text()
    assert fixed in new and "--swap-space 4\n" not in new.split("<#")[0]
    # and found by a directory walk too
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(tmp_path))
    assert {d["filename"] for d in json.loads(r.stdout)} <= {str(p)}


def test_the_engine_names_each_format_as_its_module_does():
    for fmt in ("json", "systemd", "makefile", "powershell", "notebook"):
        fe = importlib.import_module(f"vllm_lint.frontends.{fmt}")
        assert fe.FORMAT == fmt and fmt in registry.names()
        for suffix in fe.SUFFIXES:
            assert registry.format_by_filename("x" + suffix) == fmt
        for name in getattr(fe, "NAMES", ()):
            assert registry.format_by_filename(name) == fmt and registry.format_by_filename(name.upper()) == fmt


def test_a_json_file_that_is_not_json_is_one_parse_error(run_cli, tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('{"image": "vllm/vllm-openai", args: [}\n')
    r = run_cli("-t", "0.27.1", str(p))
    assert r.exit_code == 1
    assert "VL001 error: cannot parse json: Expecting property name" in r.stdout


def test_add_noqa_skips_json_and_says_so(run_cli, tmp_path):
    p = tmp_path / "pod.json"
    p.write_text(POD_JSON)
    r = run_cli("-t", "0.27.1", "--add-noqa", str(p))
    assert r.exit_code == 1
    assert f"{p}:1: no suppression comment added for VL101" in r.stderr and "json files have no comments" in r.stderr
    assert p.read_text() == POD_JSON


def test_add_noqa_puts_unit_comments_on_their_own_line(run_cli, tmp_path):
    """In a unit file a `#` after a value is part of the value (it would reach vLLM)."""
    p = tmp_path / "vllm.service"
    p.write_text(UNIT)
    run_cli("-t", "0.27.1", "--add-noqa", str(p))
    assert p.read_text() == ("[Unit]\nDescription=vLLM\n\n[Service]\n# vllm-lint: ignore[VL201]\n"
                             "Environment=VLLM_USE_V1=1\n# vllm-lint: ignore[VL101]\n"
                             "ExecStart=/opt/venv/bin/vllm serve m \\\n    --swap-space 4\n")
    assert lint(run_cli, p) == []


def test_a_notebook_is_read_in_every_kind_of_cell_and_fixed_in_its_json(run_cli, tmp_path):
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Serve\n", "```bash\n", "vllm serve m --swap-space 4\n",
                                                             "```\n"]},
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": ["!vllm serve m --swap-space 4 --port 8000\n", "from vllm import LLM\n",
                    "llm = LLM(model=\"m\", swap_space=4)\n"]},
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": "%%bash\nvllm serve m --swap-space 4\n"}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    p = tmp_path / "demo.ipynb"
    p.write_text(json.dumps(nb, indent=1))
    assert lint(run_cli, p) == [("VL101", 9, 19), ("VL101", 19, 20), ("VL101", 21, 29), ("VL101", 29, 36)]
    run_cli("-t", "0.27.1", "--fix", str(p))
    cells = json.loads(p.read_text())["cells"]
    assert cells[0]["source"][2] == "vllm serve m\n"
    assert cells[1]["source"] == ["!vllm serve m --port 8000\n", "from vllm import LLM\n", "llm = LLM(model=\"m\")\n"]
    assert cells[2]["source"] == "%%bash\nvllm serve m\n"
    r = run_cli("-t", "0.27.1", "--add-noqa", str(tmp_path / "demo.ipynb"))
    assert r.exit_code == 0  # nothing left
