"""The format registry (``vllm_lint.frontends.base``): every entry against its module, the
claims by name and by content, and the file types other files list (pre-commit's hook)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from vllm_lint.frontends import base
from vllm_lint.frontends.base import Mode, format_by_content, format_by_filename

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("fmt", base.FORMATS, ids=lambda f: f.name)
def test_every_entry_has_a_module_with_the_protocol(fmt):
    mod = fmt.module
    assert callable(mod.might_contain_launch) and callable(mod.extract)
    if fmt.mode_matters():
        assert callable(mod.extract_in_mode)
    assert set(fmt.embeds) <= set(base.names())
    for hook in ("parse_check", "same_meaning", "suppression_rows", "comment_placements", "embedded_at", "warm_up"):
        assert callable(getattr(mod, hook, lambda: None))
    assert fmt.extract(b"", f"empty.{fmt.name}", Mode.AUTO).launches == []


def test_names_are_unique_and_every_claim_leads_back():
    assert len(set(base.names())) == len(base.FORMATS)
    for f in base.FORMATS:
        for suffix in f.suffixes:
            assert format_by_filename("a" + suffix.upper()) == f.name
        for prefix in f.prefixes:
            assert format_by_filename(prefix.capitalize()) == f.name
        for ending in f.endings:
            assert format_by_filename("x" + ending) == f.name


@pytest.mark.parametrize("name, fmt", [
    ("Dockerfile.yaml", "yaml"),  # a suffix wins over a name prefix
    ("Dockerfile", "dockerfile"), ("serve.Containerfile", "dockerfile"), ("run.SH", "shell"),
    ("notes.markdown", "markdown"), ("app.pyw", "python"), (".sh", None), ("README", None), ("x.txt", None),
])
def test_claims_by_name(name, fmt):
    assert format_by_filename(name) == fmt


@pytest.mark.parametrize("head, fmt", [
    (b"#!/bin/bash\nvllm serve m\n", "shell"), (b"#!/usr/bin/env python3\n", "python"),
    (b"#!/usr/bin/env node\nkind: x\n", None),  # a shebang settles it alone
    (b"\xef\xbb\xbf# syntax=docker/dockerfile:1\nARG V=1\nfrom vllm/vllm-openai:v0.9.0\n", "dockerfile"),
    (b"FROM x\nrun: y\n", "dockerfile"),  # the entries' order: Dockerfile before YAML
    (b"# a comment\napiVersion: v1\n", "yaml"), (b"hello\n", None),
    (b"#cloud-config\nruncmd:\n  - [vllm, serve, m]\n", "yaml"),  # cloud-init user data (issue 27)
    (b"web: vllm serve m\n", "plaintext"),  # the last resort: a command line no other format claims
])
def test_claims_by_content(head, fmt):
    assert format_by_content(head) == fmt


@pytest.mark.parametrize("name, fmt", [
    # a template of a manifest is the manifest (its reader fills template expressions)
    ("deploy.yaml.tpl", "yaml"), ("Job.YML.tmpl", "yaml"), ("svc.yaml.template", "yaml"),
    ("_helpers.tpl", None), ("start.sh.tpl", None),  # (no reader of a shell template's syntax but the last resort's)
    ("values.yaml.j2", "yaml"), ("deploy.yml.jinja2", "yaml"),  # (Jinja statements blanked: yaml/file_templates)
])
def test_claims_of_templates_by_name(name, fmt):
    assert format_by_filename(name) == fmt


@pytest.mark.parametrize("name, fmt", [
    ("start.sh.j2", "plaintext"), ("start.sh.jinja2", "plaintext"),  # a template's #! is the rendered file's
    ("start.sh", "shell"), ("start", "shell"),
])
def test_a_templates_shebang_does_not_settle_its_format(name, fmt):
    data = b"#!/bin/bash\nvllm serve {{ model }} --port {{ port }}\n"
    assert format_by_content(data, name) == fmt


def test_pre_commit_hook_lists_the_registered_types():
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = [h for h in hooks if h["id"] == "vllm-lint"]
    assert sorted(hook["types_or"]) == sorted({t for f in base.FORMATS for t in f.types})


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="unknown lint mode 'explict'"):
        base.get("shell").extract(b"vllm serve m\n", "a.sh", "explict")
    assert Mode.ALL == ("auto", "explicit", "config")


@pytest.mark.parametrize("language_id, fmt", [("shellscript", "shell"), ("dockercompose", "yaml"),
                                              ("github-actions-workflow", "yaml"), ("markdown", "markdown"),
                                              ("jupyter", None), (None, None)])
def test_editor_language_ids(language_id, fmt):
    assert base.format_by_language_id(language_id) == fmt


def test_the_editor_guide_names_registered_language_ids():
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    sentence = text[text.index("The language identifiers editors use"):]
    sentence = sentence[:sentence.index(". ")]
    named = set(re.findall(r"`([^`]+)`", sentence))
    assert named and named <= {i for f in base.FORMATS for i in f.language_ids}
