"""Python launches read where they live (issue 17): command lines shown in docstrings and string
statements, read as shell with exact positions; mappings that reach an engine call through the
module (``DEFAULTS | overrides``, ``{**BASE, ...}``, a comprehension over a literal dict), and a
key given twice in a literal dict of engine arguments."""

from __future__ import annotations

import json

from vllm_lint.frontends import python as P
from span_invariants import check_spans


def lint(run_cli, path, *extra):
    r = run_cli("--output-format", "json", "-t", "0.27.1", *extra, str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]


DOC_CLIENT = '''"""
Example client.

Start the server with:

    vllm serve org/m \\\\
        --swap-space 4 \\\\
        --port 8000

or `vllm serve <model> --num-scheduler-steps 8` on an older release; see `vllm serve`.
"""
import requests


def main():
    """Also:

    $ vllm serve org/m --swap-space 2
    """
    requests.get("http://localhost:8000/v1/models")
'''


def test_command_lines_in_docstrings_are_read_with_exact_positions(run_cli, tmp_path):
    p = tmp_path / "client.py"
    p.write_text(DOC_CLIENT)
    data = p.read_bytes()
    ex = P.extract(data, str(p))
    check_spans(data, ex)
    assert [[t.text for t in la.tokens] for la in ex.launches] == [
        ["org/m", "--swap-space", "4", "--port", "8000"],
        ["_model_", "--num-scheduler-steps", "8"],
        ["org/m", "--swap-space", "2"],
    ]
    assert ex.launches[1].tokens[0].opaque  # `<model>` is a placeholder
    assert lint(run_cli, p) == [("VL101", 7, 9), ("VL101", 10, 24), ("VL101", 18, 24)]


def test_a_fix_in_a_docstring_edits_the_docstring(run_cli, tmp_path):
    p = tmp_path / "client.py"
    p.write_text("r" + DOC_CLIENT.replace("\\\\", "\\"))  # a raw docstring spells its value 1:1
    r = run_cli("-t", "0.27.1", "--fix", str(p))
    assert r.exit_code == 1  # --num-scheduler-steps has no safe fix
    new = p.read_text()
    assert "    vllm serve org/m \\\n        --port 8000\n" in new
    assert "    $ vllm serve org/m\n" in new
    # an escaped backslash (``\\\\`` for ``\\``) has no 1:1 bytes: the finding stays, unfixed
    q = tmp_path / "escaped.py"
    q.write_text(DOC_CLIENT)
    run_cli("-t", "0.27.1", "--fix", str(q))
    assert "--swap-space 4" in q.read_text()


def test_prose_that_only_names_the_command_is_no_launch():
    data = b'"""Start a server with `vllm serve`, then run this script. The vllm serve docs..."""\n'
    assert P.extract(data, "a.py").launches == []


def test_strings_passed_to_calls_are_not_read_as_documentation():
    data = b'import argparse\np = argparse.ArgumentParser(description="vllm serve m --swap-space 4")\n'
    assert P.extract(data, "a.py").launches == []


FLOW = '''from vllm import AsyncEngineArgs, EngineArgs

DEFAULT_ARGS = {"model": "m", "swap_space": 4, "max_model_len": 1024, "max_model_len": 2048}
BASE = dict(tensor_parallel_size=2)


def build(overrides):
    args = DEFAULT_ARGS | overrides
    return AsyncEngineArgs(**args)


def build2():
    return EngineArgs(**{k: v for k, v in DEFAULT_ARGS.items() if v is not None})


def build3():
    merged = {**BASE, "swap_space": 8}
    return EngineArgs(**merged)
'''


def test_mappings_passed_on_through_the_module_are_read():
    ex = P.extract(FLOW.encode(), "flow.py")
    keys = [[k.key for k in la.keyed] for la in ex.launches]
    assert keys == [["model", "swap_space", "max_model_len", "max_model_len"],
                    ["model", "swap_space", "max_model_len", "max_model_len"],
                    ["tensor_parallel_size", "swap_space"]]
    # what the launch may hold beyond what is seen: overrides, the comprehension's condition
    assert [la.opaque for la in ex.launches] == [True, True, False]


def test_dead_and_duplicate_keys_are_found_and_fixed_in_the_literal(run_cli, tmp_path):
    p = tmp_path / "flow.py"
    p.write_text(FLOW)
    assert lint(run_cli, p) == [("VL101", 3, 32), ("VL108", 3, 72), ("VL101", 17, 24)]
    run_cli("-t", "0.27.1", "--fix", str(p))
    new = p.read_text()
    assert 'DEFAULT_ARGS = {"model": "m", "max_model_len": 1024, "max_model_len": 2048}\n' in new
    assert "    merged = {**BASE}\n" in new


def test_commands_in_comments_and_code_in_docstrings_are_read(run_cli, tmp_path):
    p = tmp_path / "offline.py"
    p.write_text('"""Load it again with\n'
                 '\n'
                 '    llm = LLM(\n'
                 '        model="/path/to/save",\n'
                 '        swap_space=4,\n'
                 '    )\n'
                 '"""\n'
                 '# Server:\n'
                 '# vllm serve org/m \\\n'
                 '#   --swap-space 4\n'
                 'import vllm\n'
                 'x = "# vllm serve not/a-comment --swap-space 4"\n')
    data = p.read_bytes()
    ex = P.extract(data, str(p))
    check_spans(data, ex)
    assert [(la.entry, la.span.start < data.index(b'"""\n#')) for la in ex.launches] == [
        ("LLM", True), ("vllm serve", False)]
    assert lint(run_cli, p) == [("VL101", 5, 9), ("VL101", 10, 5)]


def test_markdown_fences_in_a_docstring_are_read():
    data = b'"""Use it:\n\n```python\nfrom vllm import LLM\nllm = LLM("m", swap_space=4)\n```\n"""\n'
    ex = P.extract(data, "a.py")
    check_spans(data, ex)
    (la,) = ex.launches
    assert la.entry == "LLM" and data[la.keyed[1].key_span.start:la.keyed[1].key_span.end] == b"swap_space"


# ---- issue 27: environment defaults, str.split(), the engine's parser

def _keyed(code: str):
    from vllm_lint.frontends import python as P

    data = code.encode()
    (la,) = P.extract(data, "e.py").launches
    return data, la


def test_an_engine_argument_with_an_environment_default_is_its_default_and_says_so():
    data, la = _keyed('import os\nfrom vllm import LLM\n'
                      'LLM(model="m", block_size=int(os.environ.get("BLOCK_SIZE", "4096")),\n'
                      '    max_model_len=os.getenv("LEN", default="2048"), dtype=os.environ.get("D", 1),\n'
                      '    max_num_seqs=int(os.environ.get("S", "many")), seed=int(os.environ["SEED"]))\n')
    got = {k.key: (k.value, k.value_opaque, k.assumed) for k in la.keyed}
    assert got["block_size"] == (4096, False, "`4096` is the default of `BLOCK_SIZE`, used unless the environment sets it")
    assert got["max_model_len"][:2] == ("2048", False)
    for opaque in ("dtype", "max_num_seqs", "seed"):  # a default of another type, one int() refuses, no default
        assert got[opaque][1] and got[opaque][2] is None, opaque
    bs = next(k for k in la.keyed if k.key == "block_size")
    assert data[bs.value_span.start:bs.value_span.end] == b'"4096"'
    assert data[bs.value_text_span.start:bs.value_text_span.end] == b"4096"


def test_the_note_goes_to_findings_about_the_value_only():
    from vllm_lint.launch import KeyedArg, Launch, Span, Token
    from vllm_lint.rules.base import _assumed

    la = Launch(path="a", entry="vllm serve", style="argv", span=Span(0, 40))
    la.tokens = [Token("--dtype", Span(0, 7)), Token("fp16", Span(10, 14), assumed="(default)")]
    la.keyed = [KeyedArg("max_model_len", Span(20, 33), 4096, value_span=Span(35, 39), assumed="note")]
    assert _assumed(la, Span(10, 14), "invalid value `fp16`") == " ((default))"
    assert _assumed(la, Span(0, 7), "invalid value `fp16` for `--dtype`") == " ((default))"  # quotes it
    assert _assumed(la, Span(0, 7), "`--dtype` was removed") == ""
    assert _assumed(la, Span(20, 33), "length 4096 is above 2048") == " (note)"
    assert _assumed(la, Span(20, 33), "length 40960 is above 2048") == ""
    assert _assumed(la, Span(20, 33), "`max_model_len` was renamed") == ""
