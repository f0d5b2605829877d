"""YAML front-end on bad input: a ParseError, never a crash; bounds are structural (memory
measured with tracemalloc), never wall-clock thresholds."""

from __future__ import annotations

import tracemalloc

import pytest

from vllm_lint.frontends import yaml as Y
from vllm_lint.launch import ParseError


def _fails(data: bytes) -> ParseError:
    with pytest.raises(ParseError) as ei:
        Y.extract(data, "bad.yaml")
    return ei.value


def test_invalid_yaml_reports_line():
    err = _fails(b"kind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai\n   args: [\n")
    assert err.line is not None and err.line >= 4


def test_merge_conflict_markers():
    data = (b"args:\n<<<<<<< HEAD\n  - --swap-space\n=======\n  - --kv-cache-dtype\n"
            b">>>>>>> feature\n")
    err = _fails(data)
    assert "conflict" in err.message and err.line == 2


def test_non_utf8():
    data = b"image: vllm/vllm-openai\nargs: ['--model', 'caf\xe9']\n"
    err = _fails(data)
    assert err.offset == data.index(b"\xe9") and err.line == 2


@pytest.mark.parametrize("depth", [1100, 10000])
def test_deep_nesting(depth):
    _fails(b"[" * depth + b"]" * depth)
    _fails(b"".join(b"  " * i + b"a:\n" for i in range(depth)) + b"  " * depth + b"vllm\n")


def test_alias_bomb_is_cheap():
    lines = [b'a: &a ["vllm serve m --swap-space 4"]']
    for i in range(1, 10):
        prev = chr(ord("a") + i - 1).encode()
        cur = chr(ord("a") + i).encode()
        lines.append(cur + b": &" + cur + b" [" + b",".join([b"*" + prev] * 9) + b"]")
    lines.append(b"command: *j")
    data = b"\n".join(lines) + b"\n"
    tracemalloc.start()
    try:
        ex = Y.extract(data, "bomb.yaml")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20, f"{peak} bytes: the 9**9 aliases were expanded"
    assert len(ex.launches) <= 2


def test_huge_file_refused():
    data = b"a: " + b"x" * (Y.MAX_BYTES + 1) + b"\n"
    _fails(data)


def test_empty_and_odd_documents():
    for data in [b"", b"---\n", b"--- 3\n", b"- vllm\n", b"? [a, b]\n: vllm serve m\n", b"!!binary aGk=\n",
                 b"key: !custom vllm serve m --tp 2\n", b"a: 1\n"]:
        Y.extract(data, "odd.yaml")  # read, not refused
    assert "undefined alias" in _fails(b"a: *undefined\n").message


def test_random_garbage_never_crashes():
    import random

    rnd = random.Random(7)
    alphabet = b" \n-:[]{}'\"|>#&*!%@`,?vllm serve--tp$(){}\t\\"
    for _ in range(400):
        data = bytes(rnd.choice(alphabet) for _ in range(rnd.randint(0, 200)))
        try:
            ex = Y.extract(data, "g.yaml")
        except ParseError:
            continue
        for la in ex.launches:
            for t in la.tokens:
                if t.text_span is not None:
                    assert data[t.text_span.start : t.text_span.end].decode() == t.text


@pytest.mark.parametrize("text", ["--model m --seed 1 \\", "\\", "a \\\\\\", "'x' \\"])
def test_a_string_ending_with_a_backslash_is_split(text):
    """A trailing backslash is a literal backslash (as in ``sh -c 'echo a\\'``); it once made the
    word splitter loop forever."""
    import subprocess
    import sys

    code = f"from vllm_lint.frontends import yaml as Y\nprint(Y.split_words({text!r})[-1][0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.rstrip("\n").endswith("\\"), out.stderr


def test_a_compose_command_ending_with_a_backslash_is_linted():
    ex = Y.extract(b"services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n"
                   b"    command: --model m --swap-space 4 \\\n", "compose.yaml")
    (launch,) = ex.launches
    assert any(t.text == "--swap-space" for t in launch.tokens)
