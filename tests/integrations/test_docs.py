"""docs/rules.md is generated from the rules' docstrings and must be current; a finding's URL is
its rule's page of the built website."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from vllm_lint.cli.app import main
from vllm_lint.docs import render_rules
from vllm_lint.rules.base import registry

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
REGENERATE = "vllm-lint rule --all --format markdown > docs/rules.md"


def test_rules_page_is_current():
    want = render_rules(list(registry().values()), "markdown")
    assert DOC.read_text(encoding="utf-8") == want, f"docs/rules.md is stale: run `{REGENERATE}`"


def test_cli_generates_the_page():
    r = CliRunner().invoke(main, ["rule", "--all", "--format", "markdown"])
    assert r.exit_code == 0
    assert r.output == render_rules(list(registry().values()), "markdown")


def test_rule_urls_are_the_site_s_rule_pages_under_the_base_given():
    """A rule's link is its page in the built website where ``--docs-url`` says it is published,
    and no link without one (tests/site/test_rule_links.py checks the pages exist)."""
    for rule in registry().values():
        assert rule.url(None) is None
        assert rule.url("https://x.test/docs/") == f"https://x.test/docs/rules/{rule.code}/index.html"


def test_rule_command_prints_docs():
    r = CliRunner().invoke(main, ["rule", "VL102"])
    assert r.exit_code == 0 and r.output.startswith("VL102 renamed-option:") and "What it does" in r.output
    r = CliRunner().invoke(main, ["rule", "unused-suppression"])
    assert r.exit_code == 0 and "VL003" in r.output
