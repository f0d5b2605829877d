"""The embedding type every format that holds another shares (``frontends/embedding.py``): real
shapes of embedded text (a YAML block scalar, a double-quoted scalar with escapes, a dedented
Markdown block, a heredoc in a shell block), each checked against the host bytes."""

from __future__ import annotations

import pytest

from vllm_lint.frontends import shell
from vllm_lint.frontends.embedding import Embedding, rebase
from vllm_lint.frontends.yaml.loader import compose
from vllm_lint.frontends.yaml.scalar import map_scalar
from vllm_lint.launch import Extraction, Span


def _scalar(data: bytes) -> Embedding:
    """The embedding of the value of the first key of a one-key YAML mapping."""
    docs, pos = compose(data)
    node = docs[0].value[0][1]
    return map_scalar(data, pos(node.start_mark.index), pos(node.end_mark.index), node.style, node.value)


def _verbatim(emb: Embedding, host: bytes) -> None:
    """Every run spells its text bytes verbatim in the host."""
    for v, h, n in emb.segments:
        assert host[h:h + n] == emb.text[v:v + n]


def test_identity_maps_every_byte_and_the_end():
    emb = Embedding.identity(b"vllm serve m", base=10)
    assert [emb.host(i) for i in (0, 5, 12)] == [10, 15, 22]
    assert emb.host(13) is None and emb.host(-1) is None
    assert emb.span(5, 10) == Span(15, 20) and emb.span(12, 12) == Span(22, 22)
    assert emb.complete


def test_double_quoted_escapes_are_unmapped_and_break_a_span():
    data = b'cmd: "vllm serve \\"m\\" --tp 2"\n'
    emb = _scalar(data)
    assert emb.text == b'vllm serve "m" --tp 2'
    _verbatim(emb, data)
    quote = emb.text.index(b'"')
    assert emb.span(quote, quote + 1) is None  # the escape's decoded quote has no counterpart
    tp = emb.text.index(b"--tp")
    assert data[emb.span(tp, tp + 4).start:emb.span(tp, tp + 4).end] == b"--tp"
    # the word `"m"`: no verbatim run, but a report still points at its bytes
    hull = emb.hull(quote, quote + 3)
    assert hull is not None and b"m" in data[hull.start:hull.end]
    assert emb.span(quote, quote + 3) is None
    assert not emb.complete


def test_literal_block_end_of_value_maps_after_the_last_byte():
    data = b"run: |\n  vllm serve m\n  --tp 2\nnext: 1\n"
    emb = _scalar(data)
    assert emb.text == b"vllm serve m\n--tp 2\n"
    _verbatim(emb, data)
    end = len(emb.text)
    assert emb.host(end) == data.index(b"next")  # just after the final line feed
    assert emb.span(end, end) == Span(data.index(b"next"), data.index(b"next"))
    # a span across the indentation the block strips is no verbatim run ...
    assert emb.span(0, end) is None
    # ... but it covers the launch's extent across the lines
    assert emb.cover(0, end) == Span(data.index(b"vllm"), data.index(b"next"))


def test_folded_block_folds_are_unmapped():
    data = b"run: >\n  vllm serve m\n  --tp 2\n"
    emb = _scalar(data)
    assert emb.text == b"vllm serve m --tp 2\n"
    _verbatim(emb, data)
    fold = emb.text.index(b" --tp")
    assert emb.span(fold, fold + 1) is None  # the fold's space: no byte of the file
    assert emb.host(fold) == data.index(b"m\n") + 1  # the end of the run before it
    # a word after the fold: from the end of the run before it to its last byte
    assert emb.hull(fold, fold + 5) == Span(data.index(b"m\n") + 1, data.index(b"--tp") + 4)


def test_from_positions_merges_runs_and_keeps_holes():
    emb = Embedding.from_positions(b"abcdef", [10, 11, None, 13, 20, 21])
    assert emb.segments == [(0, 10, 2), (3, 13, 1), (4, 20, 2)]
    assert emb.host(2) == 12  # the end of the first run
    assert emb.span(2, 3) is None and emb.span(4, 6) == Span(20, 22)
    assert emb.hull(2, 6) == Span(12, 22)


def test_dedent_maps_line_by_line_and_deletes_whole_lines_with_their_indent():
    block = b"    vllm serve m \\\n      --tp 2\n"
    emb = Embedding.dedent(block, base=100, cut=4)
    assert emb.text == b"vllm serve m \\\n  --tp 2\n"
    _verbatim(emb, b" " * 100 + block)
    second = emb.text.index(b"  --tp")
    # deleting the text's second line removes the file's whole line, its indentation included
    assert emb.deletion(Span(second, len(emb.text))) == Span(100 + block.index(b"      --tp"), 100 + len(block))
    # a deletion inside a line is mapped as it is
    tp = emb.text.index(b"--tp")
    assert emb.deletion(Span(tp, tp + 4)) == Span(100 + block.index(b"--tp"), 100 + block.index(b"--tp") + 4)


def test_dedent_without_a_cut_is_one_run():
    emb = Embedding.dedent(b"a\nb\n", base=7, cut=0)
    assert emb.segments == [(0, 7, 4)] and emb.complete


def test_compose_nests_a_heredoc_in_a_dedented_block():
    # a Markdown list item holding a shell block whose heredoc runs vllm
    md = b"- step:\n\n  ```bash\n  bash <<EOF\n  vllm serve m --tp 2\n  EOF\n  ```\n"
    start = md.index(b"  bash")
    end = md.index(b"  ```\n", start)
    block = Embedding.dedent(md[start:end], start, 2)
    script = block.text
    body_start = script.index(b"vllm")
    body_end = script.index(b"EOF\n", body_start)
    body = Embedding.identity(script[body_start:body_end], body_start).compose(block)
    _verbatim(body, md)
    tp = body.text.index(b"--tp")
    sp = body.span(tp, tp + 4)
    assert md[sp.start:sp.end] == b"--tp"
    # the shell front-end does the same through its heredocs
    ex = shell.extract_script(script, "x.md", block)
    tok = next(t for t in ex.launches[0].tokens if t.text == "--tp")
    assert tok.text_span == sp


def test_compose_cuts_runs_where_the_outer_map_breaks():
    outer = Embedding(b"abcdef", [(0, 10, 3), (4, 30, 2)])  # `d` unmapped
    inner = Embedding(b"cde", [(0, 2, 3)])  # inner byte i is outer byte 2 + i
    assert inner.compose(outer).segments == [(0, 12, 1), (2, 30, 1)]


def test_window_and_prefix():
    emb = Embedding.identity(b"xx vllm serve m", base=50)
    win = emb.window(3, len(emb.text))
    assert win.text == b"vllm serve m" and win.host(0) == 53 and win.host(12) == 65
    pre = win.prefixed(b"if True:\n")
    assert pre.host(0) is None and pre.host(9) == 53 and pre.text.endswith(b"vllm serve m")


def test_unmapped_maps_nothing():
    emb = Embedding.unmapped(b"vllm serve m")
    assert emb.host(0) is None and emb.span(0, 4) is None and emb.hull(0, 12) is None


@pytest.mark.parametrize("cut", [0, 2])
def test_rebase_maps_a_whole_extraction_and_its_deleter(cut):
    block = b" " * cut + b"vllm serve m --swap-space 4\n"
    base = 40
    host = b"x" * base + block
    emb = Embedding.dedent(block, base, cut)
    out = Extraction()
    rebase(shell.extract_script(emb.text, "x.md"), emb, out)
    la = out.launches[0]
    tok = next(t for t in la.tokens if t.text == "--swap-space")
    assert host[tok.text_span.start:tok.text_span.end] == b"--swap-space"
    edits = la.delete_tokens([tok, next(t for t in la.tokens if t.text == "4")])
    assert edits and all(host[e.span.start:e.span.end].strip() in (b"--swap-space 4", b"") for e in edits)


def _fix(data: bytes, path: str, option: str) -> bytes:
    """``data`` with ``option`` and its value deleted through the launch's own deleter."""
    from vllm_lint.frontends import markdown
    from vllm_lint.pipeline.fix import apply_edits

    la = next(la for la in markdown.extract(data, path).launches if any(t.text == option for t in la.tokens))
    k = next(i for i, t in enumerate(la.tokens) if t.text == option)
    edits = la.delete_tokens(la.tokens[k:k + 2])
    assert edits
    return apply_edits(data, edits)


def test_three_levels_markdown_yaml_sh_c():
    # a list item's YAML block (dedented) whose container runs `sh -c` (a scalar of the block)
    md = (b"1. Deploy:\n\n   ```yaml\n   containers:\n     - name: vllm\n       command: [\"sh\", \"-c\"]\n"
          b"       args:\n         - \"vllm serve m --swap-space 4 --port 8000\"\n   ```\n")
    assert _fix(md, "d.md", "--swap-space") == md.replace(b" --swap-space 4", b"")


def test_three_levels_markdown_list_item_heredoc():
    # a list item's shell block (dedented) whose heredoc body runs vllm
    md = b"- Run:\n\n  ```bash\n  bash <<EOF\n  vllm serve m --swap-space 4 --port 8000\n  EOF\n  ```\n"
    assert _fix(md, "d.md", "--swap-space") == md.replace(b" --swap-space 4", b"")
