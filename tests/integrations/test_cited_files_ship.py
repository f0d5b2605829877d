"""Shipped text and the CLI's output name only files that ship: no citation of notes kept outside
the repository (``research/...``, ``../shared/...``, ``seeds/...``), and every repository path a
doc, a rule's documentation, an overlay's evidence or a help text names exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# names of places outside the repository that earlier notes cited
OUTSIDE = ("research", "seeds", "shared")
# where commands write their output (not committed): benchmarks/run.py's results
GENERATED = ("benchmarks/results/",)
_VLLM = re.compile(r"\bvllm\b(?![-_.])", re.I)
_PATH = re.compile(r"(?<![\w/.:-])((?:\.\./)+[\w.-][\w./-]*|(?:research|seeds|shared)/[\w.-][\w./-]*|(?:[\w.-]+/)+[\w.-]+\.(?:md|json|py|toml|yaml|yml|txt|sh))")


def _tracked() -> set[str]:
    r = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("not a git checkout")
    return set(r.stdout.splitlines())


def _shipped_text() -> dict[str, str]:
    names = ["README.md", "pyproject.toml", "action.yml", ".pre-commit-hooks.yaml", "flag_db/README.md",
             "benchmarks/README.md", "tests/README.md"]
    paths = [ROOT / n for n in names]
    paths += sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "flag_db" / "overlays").glob("*.json"))
    paths += sorted((ROOT / "vllm_lint").rglob("*.py")) + sorted((ROOT / "tools").rglob("README.md"))
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in paths if p.is_file()}


def _dangling(text: str, here: str, tracked: set[str]) -> list[str]:
    top = {t.split("/", 1)[0] for t in tracked if "/" in t}
    dirs = {t.rsplit("/", 1)[0] for t in tracked if "/" in t}
    out = []
    for m in _PATH.finditer(text):
        path = m.group(1).rstrip(".")
        first = path.split("/", 1)[0]
        if _VLLM.search(text[max(0, m.start() - 40):m.start()]) or path.startswith(GENERATED):
            continue  # a file of vLLM's (`vLLM's docs/usage/security.md`), or one a command writes
        if path.endswith(".toml") and "extend" in text[max(0, m.start() - 12):m.start()]:
            continue  # `extend = "../base.toml"`: an example of a user's own shared configuration
        if first == "docs" and path.count("/") > 1:
            continue  # docs/serving/...: vLLM's documentation tree (ours is one flat folder)
        if first in OUTSIDE or path.startswith("../"):
            out.append(path)
        elif first in top:
            base = path.split("#")[0]
            if base not in tracked and base.rstrip("/") not in dirs:
                # a path relative to the citing file's folder (docs/x.md naming y.md)
                rel = (Path(here).parent / base).as_posix()
                if rel not in tracked:
                    out.append(path)
    return out


def test_shipped_text_names_no_missing_file():
    tracked = _tracked()
    bad = {name: d for name, text in _shipped_text().items() if (d := _dangling(text, name, tracked))}
    assert bad == {}


def test_cli_output_names_no_missing_file(run_cli):
    tracked = _tracked()
    texts = {"rule --all": run_cli("rule", "--all", "--format", "markdown").output, "--help": run_cli("--help").output}
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    # the shipped overlay's evidence as `flags diff` prints it (every entry is scanned in the file
    # itself by the test above)
    r = CliRunner().invoke(main, ["flags", "diff", "--db", str(ROOT / "flag_db"), "0.12.0", "0.13.0", "--format", "json"],
                           catch_exceptions=False)
    assert "docs/cli-history.md" in r.output
    texts["flags diff"] = r.output
    bad = {name: d for name, text in texts.items() if (d := _dangling(text, "", tracked))}
    assert bad == {}


def test_the_check_finds_a_missing_file():
    tracked = {"docs/rules.md", "README.md"}
    assert _dangling("see research/vllm-cli-eras.md 8a and ../shared/DESIGN.md", "README.md", tracked) == \
        ["research/vllm-cli-eras.md", "../shared/DESIGN.md"]
    assert _dangling("see docs/rules.md and docs/gone.md", "README.md", tracked) == ["docs/gone.md"]
    assert _dangling("the forum thread in seeds/000", "x.json", tracked) == ["seeds/000"]
