"""A link check, offline, over every absolute URL vllm-lint prints outside the rule links of the
machine formats (tests/site/test_rule_links.py checks those): the website's pages and scripts,
the rules' documentation, ``--help``, ``flags show``, and the audit's and upgrade's Markdown.
Each URL must be one whose existence has a source in the repository: a release's own page on
docs.vllm.ai as ``site.model.DOC_ERAS`` places it, a vLLM release tag of a release in the
database, or one of a few fixed addresses; no address is made up (a repository that does not
exist, a release that does not)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

URL = re.compile(r"https?://[^\s\"'<>()`\]\\]+")
# fixed addresses printed as they are; each is cited where it is printed
FIXED = {
    "https://wheels.vllm.ai/rocm/",  # VL409: vLLM's ROCm wheel index
    "https://json-schema.org/draft/2020-12/schema",  # the audit schema's $schema
}


def _database_values(db) -> set[str]:
    """URLs that are vLLM's own values in the database (a default such as the usage-stats
    server's), quoted by the pages that show them."""
    import json

    found: set[str] = set()
    for v in db.versions:
        s = db.surface(v)
        text = json.dumps([dict(s.env.items()), [(o.default, o.choices) for o in s.options]], default=str)
        found.update(u.rstrip(".,;:") for u in URL.findall(text))
    return found


def _known(url: str, versions: set[str], values: frozenset = frozenset()) -> bool:
    from vllm_lint.site.model import doc_url

    url = url.rstrip(".,;:")
    if url in FIXED or url in values:
        return True
    m = re.fullmatch(r"https://docs\.vllm\.ai/en/v([^/]+)/(.+)", url)
    if m:
        return m.group(1) in versions and url.split("#")[0] in (doc_url(m.group(1), 0), doc_url(m.group(1), 1))
    m = re.fullmatch(r"https://github\.com/vllm-project/vllm/releases/tag/v([^/#]+)", url)
    return bool(m) and m.group(1) in versions


@pytest.fixture
def cli(monkeypatch):
    """The CLI in-process against the shipped database, without the result cache."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.delenv("VLLM_LINT_DB", raising=False)
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    return lambda *args: CliRunner().invoke(main, list(args), catch_exceptions=False).output


def test_every_url_of_the_website_exists(site_dir, shipped_db):
    import html

    versions, values = set(shipped_db.versions), frozenset(_database_values(shipped_db))
    urls: dict[str, str] = {}
    for p in sorted(site_dir.rglob("*")):
        if p.is_file() and p.suffix in (".html", ".js", ".json", ".css", ".txt"):
            for u in URL.findall(html.unescape(p.read_text(encoding="utf-8"))):
                if u != "http://www.w3.org/2000/svg":  # an XML namespace, not a link
                    urls.setdefault(u, p.relative_to(site_dir).as_posix())
    unknown = {u: where for u, where in urls.items() if not _known(u, versions, values)}
    assert unknown == {}
    assert len(urls) > 100  # every release's docs pages


def test_every_url_the_commands_print_exists(cli, shipped_db, tmp_path):
    versions = set(shipped_db.versions)
    repo = Path(__file__).parents[2]
    deploy = tmp_path / "deploy"
    shutil.copytree(repo / "examples" / "deploy", deploy)
    outputs = {
        "rule --all": cli("rule", "--all", "--format", "markdown"),
        "--help": cli("--help"),
        "flags show": cli("flags", "show", "swap-space") + cli("flags", "show", "VLLM_USE_V1"),
        "audit": cli("audit", "--from", "0.8.5", "--to", shipped_db.newest, "--format", "markdown", str(deploy)),
        "upgrade": cli("upgrade", "--to", shipped_db.newest, "--dry-run", "--format", "markdown", str(deploy)),
    }
    assert all(outputs.values())
    found = {(what, u) for what, out in outputs.items() for u in URL.findall(out)}
    assert [f for f in found if not _known(f[1], versions)] == []
    assert any(what == "audit" for what, _ in found)  # the audit links each release's tag
