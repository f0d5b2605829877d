"""Span invariants shared by the front-end tests of every format (YAML, Markdown, Python, shell)."""

from __future__ import annotations

from vllm_lint.launch import Edit, Extraction


def check_spans(data: bytes, ex: Extraction) -> None:
    """Every span points at the bytes it claims to spell."""
    n = len(data)
    for la in ex.launches:
        assert 0 <= la.span.start <= la.span.end <= n
        for t in la.tokens + la.dropped:
            if t.span is not None:
                assert 0 <= t.span.start <= t.span.end <= n
            if t.text_span is not None:
                got = data[t.text_span.start : t.text_span.end].decode()
                assert got == t.text, (got, t.text)
                assert t.span is not None
                assert t.span.start <= t.text_span.start <= t.text_span.end <= t.span.end
        for k in la.keyed:
            if k.key_span is not None:
                assert data[k.key_span.start : k.key_span.end].decode() == k.key
            if k.value_text_span is not None and isinstance(k.value, str):
                assert data[k.value_text_span.start : k.value_text_span.end].decode() == k.value
            if k.delete_span is not None and k.key_span is not None:
                assert k.delete_span.start <= k.key_span.start < k.delete_span.end
        for e in la.env:
            if e.name_span is not None:
                assert data[e.name_span.start : e.name_span.end].decode() == e.name
            if e.value_text_span is not None and e.value is not None:
                assert data[e.value_text_span.start : e.value_text_span.end].decode() == e.value
        for v in la.version_hints:
            if v.span is not None:
                assert 0 <= v.span.start <= v.span.end <= n
                written = data[v.span.start : v.span.end].decode()
                if v.source == "helm-default":  # the tag as written: {{ ... | default "X" }}
                    assert "{{" in written and "default" in written, written
                elif v.source == "helm-values":  # the tag as written: {{ .Values.x }}
                    assert "{{" in written and ".Values" in written, written
                elif v.source == "dockerfile-from" and v.version not in written:
                    assert v.image and written, written  # the image built FROM it, named here; its tag is the Dockerfile's
                else:
                    assert v.version in written


def apply(data: bytes, edits: list[Edit]) -> bytes:
    out = bytearray(data)
    spans = sorted(edits, key=lambda e: e.span.start)
    for a, b in zip(spans, spans[1:]):
        assert a.span.end <= b.span.start, "overlapping edits"
    for e in reversed(spans):
        out[e.span.start : e.span.end] = e.content.encode()
    return bytes(out)
