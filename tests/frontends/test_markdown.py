"""Markdown front-end: fenced blocks linted by their language's front-end, spans in the file."""

from __future__ import annotations

from pathlib import Path

import yaml as pyyaml

from vllm_lint.frontends import markdown as M
from yaml_invariants import apply, check_spans

FIX = Path(__file__).parent / "fixtures" / "markdown"


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
    assert len(ex.notes) == 1 and "line 45" in ex.notes[0].message


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
