"""docs/rules.md is generated from the rules' docstrings and must be current; every finding's
URL points at its rule's section (GitHub's heading anchor)."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from vllm_lint.cli.app import main
from vllm_lint.docs import render_rules
from vllm_lint.rules.base import registry

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
REGENERATE = "vllm-lint rule --all --format markdown > docs/rules.md"


def github_anchor(heading: str) -> str:
    """GitHub's anchor for a Markdown heading: lower case, punctuation other than ``-`` and
    ``_`` dropped, spaces to ``-``."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def test_rules_page_is_current():
    want = render_rules(list(registry().values()), "markdown")
    assert DOC.read_text(encoding="utf-8") == want, f"docs/rules.md is stale: run `{REGENERATE}`"


def test_cli_generates_the_page():
    r = CliRunner().invoke(main, ["rule", "--all", "--format", "markdown"])
    assert r.exit_code == 0
    assert r.output == render_rules(list(registry().values()), "markdown")


def test_rule_urls_point_at_their_sections():
    text = DOC.read_text(encoding="utf-8")
    anchors = {github_anchor(m.group(1)) for m in re.finditer(r"^## (.+)$", text, re.M)}
    for rule in registry().values():
        base, _, fragment = rule.url.partition("#")
        assert base.endswith("/docs/rules.md")
        assert fragment == github_anchor(f"{rule.code} {rule.name}") and fragment in anchors, rule.code
    assert github_anchor("VL101 removed-option") == "vl101-removed-option"


def test_rule_command_prints_docs():
    r = CliRunner().invoke(main, ["rule", "VL102"])
    assert r.exit_code == 0 and r.output.startswith("VL102 renamed-option:") and "What it does" in r.output
    r = CliRunner().invoke(main, ["rule", "unused-suppression"])
    assert r.exit_code == 0 and "VL003" in r.output
