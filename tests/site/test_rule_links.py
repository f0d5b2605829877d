"""Every link to documentation that vllm-lint prints leads somewhere real: with ``--docs-url``
(the language server's ``documentationBaseUrl``) to a page the website build writes, without it
to nothing (``vllm-lint rule CODE`` prints the rule's documentation; no repository address is
made up)."""

from __future__ import annotations

import json
import re

import pytest

from vllm_lint.rules.base import registry

BASE = "https://docs.example.test/vllm-lint/"
SHELL = "#!/bin/sh\nvllm serve m --swap-space 8 --cuda-graph-sizes 8 -tp 2 --dtype nope\nVLLM_USE_V1=1 vllm serve m\n"


def _urls(text: str) -> list[str]:  # (in a hover's Markdown)
    return re.findall(r"https?://[^\s\"'<>)]+", text)


def _page(site_dir, url: str):
    assert url.startswith(BASE.rstrip("/") + "/"), url
    return site_dir / url[len(BASE.rstrip("/")) + 1:]


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "serve.sh"
    path.write_text(SHELL)
    return path


def _links(fmt: str, out: str) -> list:
    """The values of the fields each format defines as links to documentation."""
    if fmt == "json":
        return [f["url"] for f in json.loads(out)]
    if fmt == "json-lines":
        return [json.loads(line)["url"] for line in out.splitlines()]
    if fmt == "rdjson":
        doc = json.loads(out)
        return [doc["source"].get("url")] + [d["code"]["url"] for d in doc["diagnostics"]]
    driver = json.loads(out)["runs"][0]["tool"]["driver"]  # sarif
    assert len(driver["rules"]) == len(registry())  # every rule, not only those with findings
    return [driver.get("informationUri")] + [r.get("helpUri") for r in driver["rules"]]


@pytest.mark.parametrize("fmt", ["json", "json-lines", "sarif", "rdjson"])
def test_rule_links_of_every_format_are_pages_of_the_built_site(run_cli, site_dir, script, fmt):
    out = run_cli("-t", "0.27.1", "--output-format", fmt, "--docs-url", BASE, str(script)).stdout
    links = [u for u in _links(fmt, out) if u is not None]
    assert len(links) >= 4 and all(_page(site_dir, u).is_file() for u in links)


@pytest.mark.parametrize("fmt", ["json", "json-lines", "sarif", "rdjson"])
def test_without_a_docs_url_no_link_is_made_up(run_cli, script, fmt, monkeypatch):
    monkeypatch.delenv("VLLM_LINT_DOCS_URL", raising=False)
    out = run_cli("-t", "0.27.1", "--output-format", fmt, str(script)).stdout
    assert _links(fmt, out) and set(_links(fmt, out)) == {None}


@pytest.mark.parametrize("fmt", ["json", "sarif", "rdjson", "text", "github", "gitlab", "junit", "checkstyle"])
def test_no_format_names_a_repository_that_does_not_exist(run_cli, script, fmt):
    out = run_cli("-t", "0.27.1", "--output-format", fmt, str(script)).stdout
    assert "github.com/vllm-lint" not in out


def test_the_docs_url_may_come_from_the_environment(run_cli, script, monkeypatch):
    monkeypatch.setenv("VLLM_LINT_DOCS_URL", BASE)
    found = json.loads(run_cli("-t", "0.27.1", "--output-format", "json", str(script)).stdout)
    assert {f["url"] for f in found} >= {f"{BASE}rules/VL101/index.html"}


def test_the_language_server_links_pages_of_the_built_site(site_dir, tmp_path):
    from vllm_lint.server import core

    s = core.Session()
    s.client = core.ClientSettings.from_json({"documentationBaseUrl": BASE})
    a = s.analyse(str(tmp_path / "serve.sh"), SHELL)
    pos = a.positions("utf-16")
    links = [core.diagnostic_json(s, pos, d)["codeDescription"]["href"] for d in a.diagnostics]
    for word in ("--swap-space", "-tp", "--dtype", "VLLM_USE_V1"):
        links += _urls(core.hover_markdown(s, a, SHELL.index(word) + 1)[2])
    assert len(links) >= len(a.diagnostics) + 4 and all(_page(site_dir, u).is_file() for u in links)
    s.client = core.ClientSettings()
    assert all("codeDescription" not in core.diagnostic_json(s, pos, d) for d in a.diagnostics)
