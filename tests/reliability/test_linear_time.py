"""Linear time and bounded memory on small files that once took minutes (issue 34, item 3).

One test per probe of the issue. Each is bounded by counted work, not by a clock: the probe is
linted at size N and 8N in-process (``work_meter``: function calls, and the bytes the file's own
``bytes`` object is asked to scan), and each count may grow about as much as the input, where a
rescan from every match grows 64 times. The template probes, whose quadratic step was a regular
expression (work no counter sees), run in a subprocess at 8 times the issue's size, where the old
rescans would take hours and the subprocess's generous timeout ends them. Past the per-file budgets
(launches, launch words, words of shell, template expressions) the file is reported as too large
to read, a VL001 finding naming it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from reliability_support import cli_env
from work_meter import assert_linear

from vllm_lint.launch import (MAX_LAUNCH_WORDS, MAX_LAUNCHES, MAX_SCRIPT_NODES, MAX_SCRIPT_WORDS,
                              MAX_TEMPLATE_REGIONS)

# a template line of `{{` and no `}}`: the old `{{.*?}}` (DOTALL) scanned to the end from each one
TEMPLATE_LINES = {
    "pod.yaml": lambda n: (b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n  - name: x\n"
                           b"    image: vllm/vllm-openai:v0.8.5\n    command: [\"sh\", \"-c\", \"vllm serve m --swap-space 4 "
                           + b"{{" * n + b"\"]\n"),
    "docker-compose.yml": lambda n: (b"services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n"
                                     b"    command: --model m --swap-space 4 " + b"{{" * n + b"\n"),
    "Dockerfile": lambda n: b"FROM ubuntu:22.04\nCMD vllm serve m --swap-space 4 " + b"{{" * n + b"\n",
    # no launch read (the image's entrypoint): the engine looks for a launch a template may hide
    "vllm-image/Dockerfile": lambda n: b"FROM vllm/vllm-openai:v0.8.5\nCMD vllm serve m " + b"{{" * n + b"\n",
}


def _cli(db: Path, tmp_path: Path, name: str, data: bytes) -> list[dict]:
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    # (timeout: a bound for a hang, far above the seconds a linear reading takes)
    r = subprocess.run([sys.executable, "-m", "vllm_lint", "--isolated", "--output-format", "json",
                        "-t", "0.27.1", str(path)], env=cli_env(db), capture_output=True, timeout=900)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


@pytest.mark.parametrize("name", sorted(TEMPLATE_LINES))
def test_a_launch_line_of_200_kb_of_template_openers(synth_db_path, tmp_path, name):
    """The issue's probe: 200 KB of `{{` on a launch line took over 60 s (YAML, compose,
    Dockerfile). It is read as any file is: the launch is checked (VL101 for --swap-space)."""
    found = _cli(synth_db_path, tmp_path, name, TEMPLATE_LINES[name](100_000))
    assert not any("too large" in d["message"] for d in found)
    if not name.startswith("vllm-image/"):
        assert "VL101" in [d["code"] for d in found], found


def test_template_scans_at_16_mb_of_openers():
    """The scans themselves, at 16 MB of openers with no closer: the old lazy patterns' rescans
    would take days here (they took a minute at 200 KB), one pass takes milliseconds."""
    code = """if True:
        from vllm_lint.frontends.powershell import as_shell
        from vllm_lint.frontends.yaml.chart_values import render
        from vllm_lint.frontends.yaml.templates import fill_templates
        from vllm_lint.launch import Extraction
        from vllm_lint.pipeline.engine import _template_hid_launch
        data = b"command: vllm serve m " + b"{{" * 8_000_000 + b"\\n"
        assert fill_templates(data) == (data, [])
        assert not _template_hid_launch(data, Extraction())
        assert render(data.decode(), {}) == data.decode()
        ps = b"vllm serve m " + b"<#" * 8_000_000
        assert as_shell(ps) == ps
        print("ok")
    """
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0 and r.stdout == "ok\n", r.stderr


@pytest.mark.parametrize("name", sorted(TEMPLATE_LINES))
def test_template_openers_counted_work_is_linear(synth_db_path, name):
    assert_linear(synth_db_path, name.rsplit("/", 1)[-1], TEMPLATE_LINES[name], 2_000)


def _fences(n: int) -> bytes:
    """``n`` fenced blocks, one in 100 holding a launch."""
    return b"".join(b"```bash\nvllm serve m --swap-space 4\n```\n" if i % 100 == 0 else b"```\nx\n```\n"
                    for i in range(n))


def test_markdown_with_many_fences_is_linear(synth_db_path):
    """100,000 fences took over 60 s (each fence's line counted from the start of the file)."""
    small, big = assert_linear(synth_db_path, "README.md", _fences, 1_000)
    assert big.codes.count("VL101") == 80


def test_markdown_fences_without_a_heading_are_linear(synth_db_path):
    """Each block's release is looked up in the prose before it, back to its section's heading; with
    no heading that walk once ran to the start of the file for every block (quadratic calls)."""
    def make(n: int) -> bytes:
        return b"".join(b"Run it:\n\n```bash\nvllm serve m --swap-space 4\n```\n\n" for _ in range(n))

    _small, big = assert_linear(synth_db_path, "README.md", make, 100)
    assert big.codes.count("VL101") == 800


def test_one_unclosed_fence_of_many_launches_is_linear(synth_db_path):
    """An unclosed fence holding 100,000 launches took over 60 s (VL402 scanned the whole file for
    each launch); below the budget of launches the work grows with them."""
    def make(n: int) -> bytes:
        return b"# Serve\n```bash\n" + b"vllm serve m --swap-space 4 --tensor-parallel-size 2\n" * n

    _small, big = assert_linear(synth_db_path, "README.md", make, 100)
    assert big.codes.count("VL101") == 800


def test_script_of_many_launch_lines_is_linear(synth_db_path):
    """40,000 launch lines took 53 s (each launch's line counted from the start of the file)."""
    _small, big = assert_linear(synth_db_path, "serve.sh", lambda n: b"vllm serve m --swap-space 4\n" * n, 100)
    assert big.codes.count("VL101") == 800


def test_many_double_dash_tokens_are_linear(synth_db_path):
    """2.1 MB of `-- ` took over 60 s and 936 MB: every finding's column was decoded from the start
    of its line."""
    _small, big = assert_linear(synth_db_path, "serve.sh", lambda n: b"vllm serve m " + b"-- " * n + b"\n", 1_000)
    assert len(big.codes) > 7_000


# ------------------------------------------------------------------------------ per-file budgets


def _assert_too_large(db: Path, name: str, data: bytes, budget: str) -> None:
    from vllm_lint import api

    linter = api._linter("0.27.1", None, str(db), False)
    tracemalloc.start()
    try:
        diags, _fixed, _n = api.analyse_bytes(linter, data, name)
        _cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [(d.code, d.row) for d in diags] == [("VL001", 1)], [(d.code, d.message) for d in diags]
    assert diags[0].message.startswith("file is too large to read: ") and budget in diags[0].message
    assert peak < 300 * 1024 * 1024 // 2, peak  # (Python's own allocations; the bar is 300 MB)


def test_40000_launch_lines_are_over_the_budget_of_launches(synth_db_path):
    _assert_too_large(synth_db_path, "serve.sh", b"vllm serve m --swap-space 4\n" * 40_000,
                      f"more than {MAX_LAUNCHES:,} launches")


def test_an_unclosed_fence_of_100000_launches_is_over_the_budget(synth_db_path):
    data = b"# Serve\n```bash\n" + b"vllm serve m --tensor-parallel-size 2\n" * 100_000
    _assert_too_large(synth_db_path, "README.md", data, f"more than {MAX_SCRIPT_WORDS:,} words of shell")


def test_2_mb_of_double_dash_tokens_are_over_the_budget(synth_db_path):
    _assert_too_large(synth_db_path, "serve.sh", b"vllm serve m " + b"-- " * 700_000 + b"\n",
                      f"more than {MAX_SCRIPT_WORDS:,} words of shell")


def test_a_word_of_more_syntax_nodes_than_the_budget(synth_db_path):
    """One word of 600,000 braces is 600,000 nodes of the shell grammar, each decoded in Python."""
    _assert_too_large(synth_db_path, "serve.sh", b"vllm serve m " + b"{{" * (MAX_SCRIPT_NODES // 2 + 1) + b"\n",
                      f"more than {MAX_SCRIPT_NODES:,} parts of shell syntax")


def test_one_command_over_the_budget_of_launch_words(synth_db_path):
    _assert_too_large(synth_db_path, "serve.sh", b"vllm serve m " + b"-- " * (MAX_LAUNCH_WORDS + 10) + b"\n",
                      f"more than {MAX_LAUNCH_WORDS:,} words")


def test_launch_words_over_the_budget_in_many_launches(synth_db_path):
    line = b"vllm serve m " + b"--seed 1 " * 15 + b"\n"  # 31 words after `vllm serve`
    _assert_too_large(synth_db_path, "serve.sh", line * (MAX_LAUNCH_WORDS // 30 + 1),
                      f"more than {MAX_LAUNCH_WORDS:,} words in its launches")


def test_template_expressions_over_the_budget(synth_db_path):
    data = (b"apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: x\n    image: vllm/vllm-openai:v0.8.5\n"
            b"    args: [\"vllm serve m " + b"{{ .Values.x }} " * (MAX_TEMPLATE_REGIONS + 1) + b"\"]\n")
    _assert_too_large(synth_db_path, "pod.yaml", data, f"more than {MAX_TEMPLATE_REGIONS:,} template expressions")


def test_the_cli_names_the_file_too_large_to_read(synth_db_path, tmp_path):
    found = _cli(synth_db_path, tmp_path, "serve.sh", b"vllm serve m --swap-space 4\n" * (MAX_LAUNCHES + 1))
    assert [(d["code"], Path(d["filename"]).name) for d in found] == [("VL001", "serve.sh")]
    assert "too large to read" in found[0]["message"]


def test_vl001_documents_the_budgets():
    from vllm_lint.rules import vl001_parse_error

    doc = vl001_parse_error.__doc__
    for budget in (MAX_LAUNCHES, MAX_LAUNCH_WORDS, MAX_SCRIPT_WORDS, MAX_SCRIPT_NODES, MAX_TEMPLATE_REGIONS):
        assert f"{budget:,}" in doc, budget
