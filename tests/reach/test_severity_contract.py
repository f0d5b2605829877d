"""The severity contract (README "Severity", ``rules.base.SEVERITY_CONTRACT``): every rule declares
one of its three levels, the docs state it, and the rules obey it where a fixture can show it."""

from __future__ import annotations

from pathlib import Path

from vllm_lint.docs import render_rules
from vllm_lint.rules.base import registry
from vllm_lint.rules.base import SEVERITY_CONTRACT

ROOT = Path(__file__).resolve().parents[2]


def test_every_rule_declares_a_contract_level():
    for r in list(registry().values()):
        assert r.severity in SEVERITY_CONTRACT, r.code


def test_readme_and_rule_docs_state_the_contract():
    readme = (ROOT / "README.md").read_text()
    assert "### Severity" in readme
    md = render_rules(list(registry().values()), "markdown")
    for level, meaning in SEVERITY_CONTRACT.items():
        assert meaning in md
    for r in list(registry().values()):
        assert f"Severity {r.severity}: {SEVERITY_CONTRACT[r.severity]}." in md, r.code


def test_only_refusals_are_errors_by_default():
    # vLLM never refuses a launch over an environment variable it does not know, a deprecated or
    # abbreviated option, options a broken continuation cut off, or a risky setting: those rules
    # are warnings or information; the parser rules and static config failures are errors
    by_code = {r.code: r.severity for r in list(registry().values())}
    for code in ("VL101", "VL102", "VL103", "VL104", "VL105"):
        assert by_code[code] == "error", code
    for code, sev in by_code.items():
        if code[:3] in ("VL2", "VL3", "VL5") or code in ("VL106", "VL107", "VL108", "VL109"):
            assert sev != "error", code
