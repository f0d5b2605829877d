"""The text report's snippet on a long line (a minified or generated file): it shows a window of
``MAX_WIDTH`` columns around the span, marked ``…`` where it is cut, and the carets stay under the
span, as ruff's snippets cut a line wider than the screen."""

from __future__ import annotations

import os
import subprocess
import sys

from vllm_lint.report.text import CUT, MAX_WIDTH


def text_report(path) -> list[str]:
    env = {**os.environ, "VLLM_LINT_NO_CACHE": "1"}
    env.pop("VLLM_LINT_DB", None)
    out = subprocess.run([sys.executable, "-m", "vllm_lint", str(path)], capture_output=True, text=True, env=env)
    assert out.returncode == 1, out.stderr
    return out.stdout.splitlines()


def shown(lines: list[str], row: int) -> tuple[str, str]:
    """The snippet's line ``row`` (its text after the bar) and the caret line under it."""
    i = next(i for i, s in enumerate(lines) if s.startswith(f"{row} | "))
    return lines[i].split(" | ", 1)[1], lines[i + 1].split(" | ", 1)[1]


def test_a_long_line_is_cut_around_the_span(tmp_path):
    p = tmp_path / "serve.sh"  # ~900 columns before the finding and after it
    p.write_text(f"#!/bin/sh\nNOTE={'x' * 900} vllm serve m --swap-space 4  # {'y' * 900}\necho done\n")
    lines = text_report(p)
    text, carets = shown(lines, 2)
    assert text.startswith(CUT) and text.endswith(CUT) and len(text) == MAX_WIDTH + 2 * len(CUT)
    col = carets.index("^")
    assert text[col:col + len("--swap-space")] == "--swap-space"
    # the short lines around it share the window: nothing of them falls inside it
    assert shown(lines, 1)[0] == CUT


def test_a_line_within_the_width_is_shown_whole(tmp_path):
    p = tmp_path / "serve.sh"
    line = "vllm serve m --swap-space 4"
    p.write_text(line + "\n")
    text, carets = shown(text_report(p), 1)
    assert text == line and CUT not in text
    assert carets.index("^") == line.index("--swap-space")
