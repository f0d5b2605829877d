"""The Python front-end's start-up shortcuts give what the long way gives: the encoding without
``tokenize``, the non-ASCII lines without a regular expression, the word pattern built at first use."""

from __future__ import annotations

import bisect
import io
import random
import re
import subprocess
import sys
import tokenize

import pytest

from vllm_lint.frontends.python import callees, literals, scope, source, walk
from vllm_lint.launch import ParseError


def test_attr_words_match_exactly_the_interesting_names() -> None:
    words = sorted(callees.INTERESTING_LAST | {"environ"})
    for w in words:
        assert walk.ATTR_NAME_RE.match(w.encode()).end() == len(w), w
        assert walk.ATTR_RE.match(b". \\\n  " + w.encode() + b"(") is not None, w
    for near in ("ru", "runs", "exe", "execx", "LL", "Popenx", "environs", "updat"):
        assert walk.ATTR_NAME_RE.match(near.encode()) is None, near


def test_import_needs_neither_dataclasses_nor_tokenize() -> None:
    code = ("import sys, vllm_lint.frontends.python; "
            "print(sorted({'dataclasses', 'tokenize'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _reference_encoding(data: bytes) -> object:
    """What the front-end did before the shortcut: ``tokenize.detect_encoding``, then checks."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        return ("error", f"bad encoding declaration: {exc}", getattr(exc, "lineno", None) or 1)
    encoding = encoding.lower()
    if encoding not in ("utf-8", "utf-8-sig"):
        try:
            "".encode(encoding)
        except LookupError:
            return ("error", f"unknown encoding {encoding!r}", 1)
    return encoding


def _encoding(data: bytes) -> object:
    try:
        return source.source_encoding(data)
    except ParseError as exc:
        return ("error", exc.message, exc.line)


HEADS = [
    b"", b"x = 1\n", b"x = 1", b"\n\n", b"\r\n", b"\r", b"#!/usr/bin/env python\n",
    b"\xef\xbb\xbfx = 1\n", b"\xef\xbb\xbf# -*- coding: utf-8 -*-\n", b"\xef\xbb\xbf# coding: latin-1\n",
    b"# -*- coding: latin-1 -*-\n", b"# vim: set fileencoding=cp1252 :\n", b"#coding=utf8\n",
    b"\n# coding: latin-1\n", b"#!python\n# coding: koi8-r\n", b"x = 1\n# coding: latin-1\n",
    b"# coding: no-such-codec\n", b"\n# coding: no-such-codec\n", b"s = 'coding: latin-1'\n",
    b"# coding\n", b"# encoding: ascii\n", b"\xe9 = 1\n", b"# \xe9\n", b"\n# \xe9\n", b"x\n\xe9\n",
    b"# caf\xc3\xa9\n", b"\t\x0c# coding: latin-1\n", b"  # coding: latin-1\r\n",
    b"# coding: latin-1\r# second\r", b"\r# coding: latin-1\n", b"\n\n# coding: latin-1\n",
]


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("tail", [b"", b"y = 2\n", b"z = '\xc3\xa9'\n", b"# coding: latin-1\n"])
def test_source_encoding_matches_detect_encoding(head: bytes, tail: bytes) -> None:
    data = head + tail
    assert _encoding(data) == _reference_encoding(data)


def test_source_encoding_random() -> None:
    rng = random.Random(7)
    pieces = [b"#", b" ", b"coding", b":", b"=", b"latin-1", b"utf-8", b"x", b"\n", b"\r", b"\r\n",
              b"\xc3\xa9", b"\xe9", b"\xef\xbb\xbf", b"-*-", b"ascii", b"bogus"]
    for _ in range(3000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randrange(12)))
        assert _encoding(data) == _reference_encoding(data), data


def _lines(src: source.Source, offsets: list[int]) -> list[int]:
    return sorted({bisect.bisect_right(src.line_starts, p) for p in offsets})


def test_non_ascii_lines_match_a_regex_scan() -> None:
    rng = random.Random(11)
    pieces = [b"a", b"bc ", b"\n", b"\r", b"\r\n", b"\xc3\xa9", b"\xe2\x82\xac", b"\xff", b"\x80\x80"]
    for _ in range(3000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randrange(20)))
        src = source.Source(data, "utf-8")
        found = src.non_ascii
        assert all(data[p] >= 0x80 for p in found)
        expected = _lines(src, [m.start() for m in re.finditer(rb"[\x80-\xff]", data)])
        assert _lines(src, found) == expected, data
        assert len(found) == len(expected)  # one offset per line


def test_records_repr_and_compare_like_dataclasses() -> None:
    m = scope.Mutation((1, 2), None, "append", None)
    assert repr(m) == "Mutation(pos=(1, 2), stmt=None, kind='append', node=None, key=None)"
    assert m == scope.Mutation((1, 2), None, "append", None, None)
    assert literals.StrInfo("a", [(0, 1)], [], None).opaque is False
    assert literals.StrInfo("${X}", [None] * 4, [(0, 4, 0, 3)], None).opaque is True
    assert repr(source.Item(1, 2, None)) == "Item(start=1, end=2, comma=None)"
    assert repr(scope.Binding((1, 0), None, None)) == "Binding(pos=(1, 0), value=None, stmt=None)"
