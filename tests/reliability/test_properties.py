"""Property tests: generated launches in every format, linted and fixed in-process.

For every generated file (see strategies.py), at a target release drawn from the synthetic
database:

1. linting never raises and reports no VL001 (the generated files are valid);
2. every Token/KeyedArg/EnvAssign span lies in the file, ``text_span`` bytes spell ``text``,
   key and name spans spell the key and name;
3. each VL101/VL102/VL103/VL106/VL107/VL108 finding points at the word of the option it names (the
   span's bytes are the word as written and the message quotes the option as spelled);
4. fixing converges within the engine's pass bound (nothing fixable is left and no fix was
   refused), fixing the fixed file changes nothing (fix twice == fix once);
5. the fixed file still parses in its format, and lints without VL001;
6. every byte the generator marked protected (anything but the options a fix may rewrite and
   their separators) is in the fixed file, in order.
"""

from __future__ import annotations

import ast
import json
import os
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import event, given, note
from hypothesis import strategies as st

from strategies import STRATEGIES, Doc
from vllm_lint.pipeline.engine import MAX_FIX_PASSES, FileAnalysis, Linter, frontend
from vllm_lint.pipeline.fix import select_edits
from vllm_lint.frontends.base import get as format_unit
from vllm_lint.frontends.shell import parse_errors as _shell_errors
from vllm_lint.rules.base import select_rules
from vllm_lint.settings import Settings
from vllm_lint.surface.db import Database

TARGETS = ["0.8.5", "0.10.0", "0.27.1"]  # 0.27.1 drawn twice as often: most fixes apply there
SPAN_RULES = {"VL101", "VL102", "VL103", "VL106", "VL107", "VL108"}
NAMES_AS_WRITTEN = {"VL101", "VL102", "VL103", "VL106", "VL107"}  # VL108 names the canonical option

_LINTERS: dict[tuple[str, str], Linter] = {}


@pytest.fixture(scope="module")
def linters(synth_db_path):
    db = Database(synth_db_path)
    out = {t: Linter(db, Settings(target_version=t), select_rules([], [])) for t in TARGETS}
    return out


def lint(linter: Linter, doc: Doc, data: bytes):
    linter.verbose = []
    analysis = linter.analyse(Path(doc.name), data, mode=doc.mode, fmt=doc.fmt)
    return analysis.diagnostics, analysis.extraction


def fix(linter: Linter, doc: Doc, data: bytes, diags):
    out = linter.fix_loop(Path(doc.name), data, FileAnalysis(doc.name, doc.fmt, doc.mode, diagnostics=diags))
    return out.data, out.diagnostics, out.note, out.count


def extraction_invariants(data: bytes, ex) -> None:
    n = len(data)

    def inside(span, what):
        if span is not None:
            assert 0 <= span.start <= span.end <= n, f"{what} span {span} outside the file ({n} bytes)"

    for la in ex.launches:
        inside(la.span, "launch")
        for t in list(la.tokens) + list(la.dropped):
            inside(t.span, f"token {t.text!r}")
            inside(t.text_span, f"token {t.text!r} text")
            if t.text_span is not None and not t.opaque:
                assert t.span is not None and t.span.start <= t.text_span.start <= t.text_span.end <= t.span.end, t
                assert data[t.text_span.start:t.text_span.end] == t.text.encode("utf-8"), (
                    f"text_span of {t.text!r} holds {data[t.text_span.start:t.text_span.end]!r}")
        for k in la.keyed:
            for s in (k.key_span, k.value_span, k.value_text_span, k.delete_span):
                inside(s, f"key {k.key!r}")
            if k.key_span is not None:
                raw = data[k.key_span.start:k.key_span.end].decode("utf-8")
                assert raw.strip("'\"") == k.key, (raw, k.key)
        if la.delete_tokens is not None and la.tokens:
            pass  # exercised by the fixes
    for e in list(ex.env) + [e for la in ex.launches for e in la.env]:
        inside(e.name_span, f"env {e.name}")
        inside(e.value_span, f"env {e.name} value")
        inside(e.delete_span, f"env {e.name} delete")
        if e.name_span is not None:
            assert data[e.name_span.start:e.name_span.end].decode("utf-8", "replace").endswith(e.name), e
        if e.value_text_span is not None and e.value is not None and not e.value_opaque:
            assert data[e.value_text_span.start:e.value_text_span.end] == e.value.encode("utf-8"), e
    for h in ex.version_hints + [h for la in ex.launches for h in la.version_hints]:
        inside(h.span, f"hint {h.version}")
    for no in ex.notes:
        inside(no.span, "note")


_QUOTED = re.compile(r"`([^`]+)`")


def finding_spans(doc: Doc, data: bytes, diags) -> None:
    for d in diags:
        if d.code not in SPAN_RULES:
            continue
        assert d.span is not None, d
        key = (d.span.start, d.span.end)
        hits = [(k, w) for k, w in doc.words.items() if k[0] <= key[0] <= key[1] <= k[1]]
        assert hits, (f"{d.code} span {key} = {data[key[0]:key[1]]!r} is not an option word; "
                      f"words: {[(k, w.rendered) for k, w in doc.words.items()]}")
        (_, info), = hits
        # the word as written (quotes included), or exactly the option's own text inside it
        assert data[key[0]:key[1]] in (info.rendered, info.written.encode("utf-8")), (data[key[0]:key[1]], info)
        if d.code in NAMES_AS_WRITTEN:
            named = _QUOTED.search(d.message)
            assert named and named.group(1) == info.written, (d.message, info.written)


def parses(doc: Doc, data: bytes) -> None:
    if doc.fmt == "python":
        ast.parse(data)
    elif doc.fmt == "yaml":
        list(yaml.safe_load_all(data))
    frontend(doc.fmt).extract(data, doc.name) if doc.mode != "config" else None


def protected_kept(doc: Doc, new: bytes) -> None:
    pos = 0
    chunks = doc.protected_chunks()
    for i, (orig_at, chunk) in enumerate(chunks):
        at = new.find(chunk, pos)
        assert at >= 0, f"protected bytes {chunk!r} (at {orig_at} in the original) lost or moved by the fix"
        if i == 0 and orig_at == 0:
            assert at == 0, "the file's head changed"
        pos = at + len(chunk)
    if chunks and chunks[-1][0] + len(chunks[-1][1]) == doc.size:
        assert new.endswith(chunks[-1][1]), "the file's tail changed"


def check(doc: Doc, target: str, linters) -> None:
    data = doc.data
    note(f"{doc.fmt} {doc.name} target {target}:\n{data.decode('utf-8')}")
    linter = linters[target]
    diags, ex = lint(linter, doc, data)
    assert not [d for d in diags if d.code == "VL001"], [d.message for d in diags if d.code == "VL001"]
    if ex is not None:
        extraction_invariants(data, ex)
    finding_spans(doc, data, diags)

    new, left, refused, count = fix(linter, doc, data, diags)
    event("fixed" if count else "nothing to fix")
    event("launch found" if ex is not None and ex.launches else "no launch found")
    for code in sorted({d.code for d in diags}):
        event(f"finding {code}")
    note(f"fixed ({count} fixes):\n{new.decode('utf-8')}")
    assert refused is None, refused
    again, ex2 = lint(linter, doc, new)
    edits, _ = select_edits(again, False)
    assert edits == [], f"not converged within {MAX_FIX_PASSES} passes: {[d.message for d in again if d.fix]}"
    assert not [d for d in again if d.code == "VL001"], [d.message for d in again if d.code == "VL001"]
    new2, _, refused2, count2 = fix(linter, doc, new, again)
    assert new2 == new and count2 == 0 and refused2 is None
    assert format_unit(doc.fmt).parse_check(data, new) is None
    parses(doc, new)
    if doc.fmt == "shell":
        assert _shell_errors(new) <= _shell_errors(data)
    if ex2 is not None:
        extraction_invariants(new, ex2)
    protected_kept(doc, new)
    if os.environ.get("RELIABILITY_STATS"):  # figures for tests/README.md
        with open(os.environ["RELIABILITY_STATS"], "a") as f:
            f.write(json.dumps({"fmt": doc.name, "findings": len(diags), "fixes": count,
                                "changed": new != data}) + "\n")


TARGET = st.sampled_from(["0.27.1", "0.27.1", "0.10.0", "0.8.5"])


@given(STRATEGIES["shell"], TARGET)
def test_shell(linters, doc, target):
    check(doc, target, linters)


@given(STRATEGIES["k8s"], TARGET)
def test_kubernetes(linters, doc, target):
    check(doc, target, linters)


@given(STRATEGIES["compose"], TARGET)
def test_compose(linters, doc, target):
    check(doc, target, linters)


@given(STRATEGIES["config"], TARGET)
def test_vllm_config_yaml(linters, doc, target):
    check(doc, target, linters)


@given(STRATEGIES["python"], TARGET)
def test_python(linters, doc, target):
    check(doc, target, linters)


@given(STRATEGIES["dockerfile"], TARGET)
def test_dockerfile(linters, doc, target):
    check(doc, target, linters)


@given(STRATEGIES["markdown"], TARGET)
def test_markdown(linters, doc, target):
    check(doc, target, linters)
