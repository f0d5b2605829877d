"""Markdown front-end: fenced blocks linted by their language's front-end, spans in the file."""

from __future__ import annotations

from pathlib import Path

import yaml as pyyaml

from vllm_lint.frontends import markdown as M
from span_invariants import apply, check_spans

FIX = Path(__file__).parent / "fixtures"


def _readme():
    data = (FIX / "README.md").read_bytes()
    ex = M.extract(data, "README.md")
    check_spans(data, ex)
    return data, ex


def texts(la):
    return [t.text for t in la.tokens]


def test_blocks_found_including_unclosed():
    data = (FIX / "README.md").read_bytes()
    langs = [b[0] for b in M.fenced_blocks(data)]
    assert langs == ["bash", "console", "yaml", "python", "yaml", "sh"]
    assert M.fenced_blocks(data)[-1][2] == len(data)  # unclosed: to the end of the file


def test_readme_launches():
    data, ex = _readme()
    entries = [la.entry for la in ex.launches]
    assert entries == ["vllm serve", "docker:vllm/vllm-openai:v0.8.5", "LLM", "vllm serve"]
    assert any(v.version == "0.8.5" and v.source == "pip-install" for v in ex.version_hints)
    console = ex.launches[0]
    assert texts(console) == ["meta-llama/Llama-3.1-8B-Instruct", "--swap-space", "16",
                              "--num-scheduler-steps", "8"]
    assert any(e.name == "VLLM_USE_V1" for e in console.env + ex.env)
    # a broken block is a note, not an error
    # (placed on the block that opens at line 45; the message names no line of its own)
    assert len(ex.notes) == 1 and data.count(b"\n", 0, ex.notes[0].span.start) + 1 in (45, 46)
    assert "line" not in ex.notes[0].message.split(":")[0]


def test_console_fix_maps_through_prompts():
    data, ex = _readme()
    la = ex.launches[0]
    i = texts(la).index("--num-scheduler-steps")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    assert b"--num-scheduler-steps" not in new
    assert b"$ vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n    --swap-space 16\n" in new
    assert b"INFO:     Uvicorn running" in new


def test_yaml_block_fix_is_shifted():
    data, ex = _readme()
    la = ex.launches[1]
    i = texts(la).index("--swap-space")
    new = apply(data, la.delete_tokens(la.tokens[i : i + 2]))
    start, end = M.fenced_blocks(new)[2][1:3]
    pod = pyyaml.safe_load(new[start:end])
    assert pod["spec"]["containers"][0]["args"] == ["--model", "meta-llama/Llama-3.1-8B-Instruct"]


def test_indented_python_block():
    data, ex = _readme()
    la = ex.launches[2]
    keys = {k.key: k for k in la.keyed}
    assert keys["swap_space"].value == 16
    assert data[keys["swap_space"].key_span.start : keys["swap_space"].key_span.end] == b"swap_space"


def test_unlabelled_block_with_vllm_serve_and_prompt_only_bash():
    data = (b"Run:\n\n```\n$ vllm serve m --swap-space 4\n```\n\n"
            b"```bash\n$ python -m vllm.entrypoints.openai.api_server --model m \\\n"
            b">   --num-scheduler-steps 8\nlog line\n```\n")
    ex = M.extract(data, "x.md")
    check_spans(data, ex)
    assert [texts(la) for la in ex.launches] == [
        ["m", "--swap-space", "4"], ["--model", "m", "--num-scheduler-steps", "8"]]


def test_myst_and_tilde_fences():
    data = b"```{code-block} bash\nvllm serve m --tp 2\n```\n~~~~yaml\nx: 1\n~~~~\n"
    assert [b[0] for b in M.fenced_blocks(data)] == ["bash", "yaml"]
    ex = M.extract(data, "x.md")
    check_spans(data, ex)
    assert texts(ex.launches[0]) == ["m", "--tp", "2"]


def test_prefilter_and_empty():
    assert not M.might_contain_launch(b"# hello\n")
    assert M.extract(b"", "e.md").launches == []
    assert M.extract(b"```\n", "e.md").launches == []


def _prose_hints(md: str) -> list[list[tuple[str, str]]]:
    data = md.encode()
    ex = M.extract(data, "doc.md")
    out = []
    for la in ex.launches:
        for v in la.version_hints:
            if v.source == "markdown-prose":
                assert data[v.span.start:v.span.end].decode() == v.version
        out.append([(v.version, v.source) for v in la.version_hints])
    return out


def test_prose_release_before_a_block_is_its_version():
    md = (
        "# Deploy\n\nWe pin vLLM 0.8.5 for this model:\n\n```bash\nvllm serve m --swap-space 4\n```\n\n"
        "Then, for the newest vLLM:\n\n```bash\nvllm serve m\n```\n"
    )
    # the second block's own paragraph names no release; the first paragraph introduces block 1
    assert _prose_hints(md) == [[("0.8.5", "markdown-prose")], []]


def test_prose_release_forms_heading_and_setext():
    md = (
        "## Running vllm/vllm-openai:v0.9.1\n\n```bash\nvllm serve m\n```\n\n"
        "Install\n-------\n\nText with `vllm==0.10.0` pinned.\n\n```bash\nvllm serve m\n```\n\n"
        "## vLLM v0.11.0 (setext above is a heading)\n\nStart it:\n\n```bash\nvllm serve m\n```\n"
    )
    assert _prose_hints(md) == [
        [("v0.9.1", "markdown-prose")], [("0.10.0", "markdown-prose")], [("v0.11.0", "markdown-prose")],
    ]


def test_prose_stops_at_the_section_heading():
    md = "Our cluster runs vLLM 0.8.5.\n\n## Quick start\n\nRun:\n\n```bash\nvllm serve m\n```\n"
    assert _prose_hints(md) == [[]]


def test_prose_ranges_and_two_releases_give_no_hint():
    for sentence in (
        "Requires vLLM 0.8.5 or later.",
        "Works with vllm>=0.8.5.",
        "Needs at least vLLM 0.8.5.",
        "Upgrade from vLLM 0.8.5 to vLLM 0.9.0:",
        "Tested on vLLM 0.8.5 - 0.9.0.",
        "vLLM 0.8.x is fine.",
        "vLLM 0.9 works.",
        "Pin vllm==0.8.* here.",
        "vLLM 0.8.5+ only.",
    ):
        md = f"## Serve vLLM 0.7.3\n\n{sentence}\n\n```bash\nvllm serve m\n```\n"
        assert _prose_hints(md) == [[]], sentence
    # another product's release is no statement about vLLM: the heading's release applies
    md = "## Serve vLLM 0.7.3\n\nUse vllm-ascend 0.9.0 here.\n\n```bash\nvllm serve m\n```\n"
    assert _prose_hints(md) == [[("0.7.3", "markdown-prose")]]


def test_prose_never_overrides_a_blocks_own_version():
    md = (
        "We use vLLM 0.8.5.\n\n```bash\ndocker run vllm/vllm-openai:v0.9.0 --model m\n```\n\n"
        "```bash\npip install vllm==0.10.0\nvllm serve m\n```\n"
    )
    assert _prose_hints(md) == [[("v0.9.0", "image-tag")], []]


def test_yaml_block_with_shell_lines_keeps_its_manifests():
    """A ```yaml block with shell lines among its manifests (a heredoc opened in a pipe on the
    first line, `kubectl` lines after the manifest): each manifest read once, at its own bytes."""
    data = (Path(__file__).parent / "yaml_with_shell_lines.md").read_bytes()
    ex = M.extract(data, "README.md")
    check_spans(data, ex)
    assert [texts(la)[-1] for la in ex.launches] == ["4", "bf16"]
    for la in ex.launches:
        assert data[la.tokens[-1].span.start:la.tokens[-1].span.end].strip(b'"') == texts(la)[-1].encode()


def test_a_yaml_block_that_is_no_yaml_stays_an_error():
    """Shell lines split off, the rest still no YAML: the block's own parse error is the note."""
    ex = M.extract(b"```yaml\nkubectl get pods\nimage: [vllm/vllm-openai\n```\n", "README.md")
    assert ex.launches == []
    (note,) = ex.notes
    assert "could not be parsed" in note.message and "invalid YAML" in note.message
