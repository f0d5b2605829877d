"""Jupyter notebooks (issue 17): every kind of cell read, and fixed in the notebook's JSON."""

from __future__ import annotations

import json

from read_and_fix import lint


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
