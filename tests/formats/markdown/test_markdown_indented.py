"""Indented (unfenced) code blocks, read as CommonMark reads them: four columns past the margin or
the open list item's content, after a blank line, a heading or a fence (an indented line after a
paragraph continues it), blank lines inside kept; exact positions and fixes through the block's
dedent map."""

from __future__ import annotations

import json

from span_invariants import check_spans

from vllm_lint.frontends import markdown as M


def blocks(text: str) -> list[str]:
    data = text.encode()
    return [data[s:e].decode() for _lang, s, e, _line in M.indented_blocks(data, M.fenced_blocks(data))]


def test_four_spaces_after_a_blank_line_or_a_heading_are_code():
    assert blocks("Para\n\n    vllm serve a\n") == ["    vllm serve a"]
    assert blocks("# Title\n    vllm serve a\n") == ["    vllm serve a"]
    assert blocks("\tvllm serve a\n") == ["\tvllm serve a"]  # (the start of the text: no paragraph)
    assert blocks("Para\n\n\tvllm serve a\nend\n") == ["\tvllm serve a"]  # a tab reaches column 4


def test_an_indented_line_after_a_paragraph_continues_it():
    assert blocks("Para\n    vllm serve a\n") == []
    assert blocks("Para\n   vllm serve a\n\n   x\n") == []  # three spaces: never code


def test_blank_lines_inside_a_block_join_it_and_trailing_ones_do_not():
    assert blocks("P\n\n    a \\\n\n    b\n\n\nQ\n") == ["    a \\\n\n    b"]


def test_list_items_move_the_margin_to_their_content():
    assert blocks("- item\n\n    para of the item\n") == []
    assert blocks("- item\n\n      code in the item\n") == ["      code in the item"]
    assert blocks("10. item\n\n        code\n") == ["        code"]
    assert blocks("- item\n\nback at the margin\n\n    code\n") == ["    code"]


def test_fenced_blocks_are_not_indented_code_and_code_may_follow_a_fence():
    text = "```\n    inside\n```\n    after\n"
    assert blocks(text) == ["    after"]


def test_a_docstrings_indentation_is_its_margin():
    doc = "Serve it.\n\n    Run vllm serve with the model below.\n\n    ```bash\n    vllm serve m\n    ```\n"
    assert blocks(doc) == []
    assert blocks("Serve it.\n\n    Text.\n\n        vllm serve m\n\n    ```\n    x\n    ```\n") \
        == ["        vllm serve m"]
    # (a docstring reaches the Markdown reader only with a fence; without one the margin is 0)
    assert blocks("Run:\n\n    vllm serve m\n") == ["    vllm serve m"]


def test_a_launch_in_an_indented_block_has_exact_spans_and_a_hint_from_the_prose():
    data = b"# Serve\n\nWith vLLM 0.8.5:\n\n    vllm serve m \\\n      --swap-space 4\n"
    ex = M.extract(data, "README.md")
    (la,) = ex.launches
    check_spans(data, ex)
    word = next(t for t in la.tokens if t.text == "--swap-space")
    assert data[word.span.start:word.span.end] == b"--swap-space"
    assert [h.version for h in la.version_hints] == ["0.8.5"]


def test_an_indented_block_is_linted_fixed_and_takes_suppression_comments(run_cli, tmp_path):
    p = tmp_path / "a.md"
    p.write_text("Run:\n\n    vllm serve m \\\n      --swap-space 4 \\\n      --port 8000\n")
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(p))
    assert [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)] \
        == [("VL101", 4, 7)]
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_text() == "Run:\n\n    vllm serve m \\\n      --port 8000\n"
    p.write_text("Run:\n\n    # vllm-lint: ignore[VL101]\n    vllm serve m --swap-space 4\n")
    r = run_cli("--output-format", "json", "-t", "0.27.1", str(p))
    assert json.loads(r.stdout) == []
    assert M.embedded_at(p.read_bytes(), 3) == ("shell", 2, 4)
