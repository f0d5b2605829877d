"""vLLM's argv semantics, per era, against the synthetic database."""

from __future__ import annotations

import pytest

from vllm_lint.argv import ArgvParser, spell_like
from vllm_lint.launch import Launch, Span, Token


def toks(*words):
    out, pos = [], 0
    for w in words:
        b = len(w.encode())
        out.append(Token(w, Span(pos, pos + b), Span(pos, pos + b)))
        pos += b + 1
    return out


def parse(db, version, *words, entry="vllm serve"):
    launch = Launch("x.sh", entry, "argv", Span(0, 1), tokens=toks(*words))
    return ArgvParser(db.surface(version), db).parse(launch)


def test_positional_model_and_values(synth_db):
    args = parse(synth_db, "0.27.1", "m", "--tensor-parallel-size", "2", "--enforce-eager", "--port=9000")
    assert args[0].positional and args[0].value == "m"
    assert [(a.canonical, a.value) for a in args[1:]] == [
        ("--tensor-parallel-size", "2"), ("--enforce-eager", None), ("--port", "9000")]
    assert args[3].inline_value


def test_underscores_and_short_alias(synth_db):
    args = parse(synth_db, "0.27.1", "--max_num_seqs", "8", "-tp", "4")
    assert args[0].option.name == "--max-num-seqs" and args[0].how == "underscore"
    assert args[1].option.name == "--tensor-parallel-size" and args[1].value == "4"


def test_negation(synth_db):
    (a,) = parse(synth_db, "0.27.1", "--no-enforce-eager")
    assert a.how == "negation" and a.value is None


def test_nargs_plus_stops_at_next_option(synth_db):
    a, b = parse(synth_db, "0.27.1", "--cudagraph-capture-sizes", "1", "2", "4", "--port", "1")
    assert a.value == "1 2 4" and len(a.value_tokens) == 3 and b.value == "1"


def test_abbreviation_unique_and_ambiguous(synth_db):
    (a,) = parse(synth_db, "0.27.1", "--max-model", "8k")
    assert a.how == "abbrev" and a.resolved_string == "--max-model-len"
    (b,) = parse(synth_db, "0.27.1", "--max-num", "8")
    assert b.how == "ambiguous" and "--max-num-seqs" in b.ambiguous


def test_dotted_json(synth_db):
    (a,) = parse(synth_db, "0.27.1", "--compilation-config.mode", "3")
    assert a.how == "dotted" and a.json_path == "mode" and a.value == "3"


def test_O_is_alias_before_0_12_and_rewrite_after(synth_db):
    (old,) = parse(synth_db, "0.8.5", "-O3")
    assert old.option.name == "--compilation-config" and old.value == "3"
    (new,) = parse(synth_db, "0.27.1", "-O3")
    assert new.how == "o-rewrite" and new.option.name == "--optimization-level" and new.value == "3"
    # 0.12+ reads `-O.mode 3` as `--optimization-level .mode` (then a stray "3"), not as a
    # --compilation-config key: the word is no option of the target (real parsers of 0.13.0,
    # 0.27.1 and 0.33.0, tools/crosscheck/fixcheck.py)
    dotted, left = parse(synth_db, "0.27.1", "m", "-O.mode", "3")[1:]
    assert dotted.option is None and dotted.how == "unknown" and dotted.json_path == "mode"
    assert dotted.value == ".mode" and left.how == "stray" and left.value == "3"
    # a bare -O is the optimization level only before 0-3; `-O '{"mode": 3}'` is rejected
    (level, _) = parse(synth_db, "0.27.1", "-O", "2", "--enforce-eager")
    assert level.how == "o-rewrite" and level.option.name == "--optimization-level" and level.value == "2"
    (js,) = parse(synth_db, "0.27.1", "-O", '{"mode": 3}')
    assert js.option is None and js.how == "unknown" and js.value == '{"mode": 3}'
    (old_js,) = parse(synth_db, "0.8.5", "-O", '{"level": 3}')
    assert old_js.option.name == "--compilation-config" and old_js.value == '{"level": 3}'


def test_removed_option_value_consumed_by_historic_shape(synth_db):
    # --swap-space is unknown at 0.27.1 but the index remembers it takes a value
    args = parse(synth_db, "0.27.1", "m", "--swap-space", "16", "--enforce-eager")
    assert [a.canonical for a in args] == ["<model>", "--swap-space", "--enforce-eager"]
    assert args[1].value == "16" and args[1].option is None


def test_api_server_has_no_positional(synth_db):
    args = parse(synth_db, "0.8.5", "--model", "m", entry="openai.api_server")
    launch = Launch("x", "openai.api_server", "argv", Span(0, 1), tokens=toks("--model", "m", "stray"))
    parsed = ArgvParser(synth_db.surface("0.8.5"), synth_db, positional_model=False).parse(launch)
    # no model positional there: `stray` is a word no option takes
    assert [(a.how, a.value) for a in parsed if a.positional] == [("stray", "stray")]
    assert args[0].value == "m"


def test_splat_and_opaque_words_are_skipped(synth_db):
    launch = Launch("x", "vllm serve", "argv", Span(0, 1), tokens=[
        Token("m", None), Token("$EXTRA", None, splat=True), Token("--tensor-parallel-size", None),
        Token("$TP", None, opaque=True)])
    args = ArgvParser(synth_db.surface("0.27.1"), synth_db).parse(launch)
    assert args[1].canonical == "--tensor-parallel-size" and args[1].value_opaque


@pytest.mark.parametrize("written,new,style,key_style,expected", [
    ("--old_name", "--new-name", "argv", "cli", "--new_name"),
    ("--old-name", "--new-name", "argv", "cli", "--new-name"),
    ("oldName", "--new-name", "config", "camel", "newName"),
    ("old-name", "--new-name", "config", "dash", "new-name"),
    ("old_name", "--new-name", "config", "snake", "new_name"),
])
def test_spell_like(written, new, style, key_style, expected):
    from vllm_lint.argv import ParsedArg

    assert spell_like(new, ParsedArg(written=written, canonical=written, style=style, key_style=key_style)) == expected


def test_model_option_missing_from_the_serve_parser_is_the_positional_model(tmp_path):
    """vLLM 0.9.0's serve parser has no --model (only --model-impl, --model-loader-extra-config):
    `--model X` names the launch's model (parse_args refuses the word `--model` before argparse
    sees it: VL110), while `--model=X` passes that check and argparse refuses it as an ambiguous
    abbreviation (0.9.0 sdist, vllm/utils.py FlexibleArgumentParser.parse_args)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from synthetic_db import _record, opt

    from vllm_lint.surface.db import Database, compile_index, write_json

    options = [opt("--model-impl"), opt("--model-loader-extra-config", kind="json", type="json"),
               opt("--tensor-parallel-size", ["-tp"], type="int")]
    (tmp_path / "releases").mkdir()
    write_json(tmp_path / "releases" / "0.9.0.json", _record("0.9.0", options, {}))
    compile_index(tmp_path)
    db = Database(tmp_path)
    args = parse(db, "0.9.0", "--model", "m", "-tp", "2")
    assert args[0].positional and args[0].value == "m" and not args[0].ambiguous
    assert args[1].canonical == "-tp" and args[1].value == "2"
    args = parse(db, "0.9.0", "--model=m", "-tp", "2")
    assert not args[0].positional and args[0].option is None
    assert args[0].ambiguous == ["--model-impl", "--model-loader-extra-config"]
    assert args[1].canonical == "-tp" and args[1].value == "2"


def test_kserve_server_options_are_consumed_not_judged(synth_db):
    """KServe's huggingfaceserver shares its argv with vLLM: its own options (and their values)
    are not vLLM options (wrapper_options.WRAPPERS, the same table as Dynamo's)."""
    launch = Launch("isvc.yaml", "kserve:huggingfaceserver", "argv", Span(0, 1),
                    tokens=toks("--model_name=chat", "--model_id", "org/m", "--backend", "vllm", "-tp", "2"))
    surface = synth_db.surface("0.27.1")
    args = ArgvParser(surface, synth_db,
                      positional_model=surface.entry_has_positional_model("kserve:huggingfaceserver")).parse(launch)
    assert [(a.canonical, a.value) for a in args] == [("-tp", "2")]
    # the server reads its argv with parse_known_args: a word no option takes is left over (VL110
    # says it is dropped, a warning, rather than refused)
    launch.tokens = toks("org/m", "--disable_log_requests", "-tp", "2")
    args = ArgvParser(surface, synth_db, positional_model=False).parse(launch)
    assert [(a.canonical, a.structure, a.value) for a in args] == [("<stray>", "stray", "org/m"), ("-tp", None, "2")]
    # and without vLLM's argv rewriting: `_` is not `-`, no dotted keys; its own `--max_model_len`
    # is vLLM's field
    launch.tokens = toks("--max_num_seqs", "8", "--compilation-config.mode=3", "--max_model_len=4096")
    args = ArgvParser(surface, synth_db, positional_model=False).parse(launch)
    assert [(a.canonical, a.option is not None, a.value) for a in args] == [
        ("--max_num_seqs", False, "8"), ("--compilation-config.mode", False, "3"), ("--max-model-len", True, "4096")]


def test_wrapper_own_options_are_skipped_with_their_values(synth_db):
    # Dynamo's worker parses its own options (exact names) and hands the rest to vLLM's parser
    launch = Launch("x.sh", "dynamo.vllm", "argv", Span(0, 1), tokens=toks(
        "--model", "m", "--connector", "kvbm", "nixl", "--is-prefill-worker", "--endpoint", "dyn://a.b.c",
        "--no-use-vllm-tokenizer", "--migration-limit=3", "--enforce-eager", "--connect", "x"))
    surface = synth_db.surface("0.27.1")
    args = ArgvParser(surface, synth_db, positional_model=surface.entry_has_positional_model("dynamo.vllm")).parse(launch)
    assert [(a.written, a.value, a.positional) for a in args] == [
        ("--model", "m", False), ("--enforce-eager", None, False), ("--connect", "x", False)]
    # an abbreviation of Dynamo's option is vLLM's to judge (Dynamo's parser has allow_abbrev=False)
    assert args[2].option is None


@pytest.mark.parametrize("words, model, left", [
    # argparse (Python 3.10-3.13): after `--` every word is a positional; the `--` goes with the
    # positional model it ends, otherwise it is left over itself
    (["m", "--", "-q", "auto"], "m", ["-q", "auto"]),
    (["m", "--port", "1", "--"], "m", ["--"]),
    (["--", "m"], "m", []),
    (["--port", "1", "--", "m"], "m", []),
    (["m", "--enforce-eager", "--", "x"], "m", ["--", "x"]),
    (["m", "--"], "m", []),
    (["--"], None, []),
    (["--", "m", "x"], "m", ["x"]),
])
def test_words_after_end_of_options(synth_db, words, model, left):
    args = parse(synth_db, "0.27.1", *words)
    models = [a.value for a in args if a.canonical == "<model>"]
    assert models == ([model] if model else [])
    assert [a.value for a in args if a.how == "stray"] == left


@pytest.mark.parametrize("words, left", [
    # 0.11.1+ moves `--model m` to the front (`serve m ...`), so a `--` right after it ends the
    # positional model (real parsers of 0.27.0 and 0.34.0: `--model /m --` and `--model=/m --`
    # accepted, the others "unrecognized arguments: ...")
    (["--model", "m", "--"], []),
    (["--model=m", "--"], []),
    (["--model", "m", "--", "x"], ["x"]),
    (["--model", "m", "--", "--"], ["--"]),
    (["--model", "m", "--enforce-eager", "--"], ["--"]),
    (["--port", "1", "--model", "m", "--"], ["--"]),
])
def test_end_of_options_after_moved_model(synth_db, words, left):
    args = parse(synth_db, "0.27.1", *words)
    assert [a.value for a in args if a.how == "stray"] == left


@pytest.mark.parametrize("line, target, left", [
    ("vllm serve --model /m --", "0.27.0", False),
    ("vllm serve --model=/m --", "0.34.0", False),
    ("vllm serve --port 1 --model /m --", "0.27.0", True),
])
def test_end_of_options_after_moved_model_shipped_db(line, target, left):
    import vllm_lint

    vl110 = [d for d in vllm_lint.lint(line + "\n", "serve.sh", target=target) if d.code == "VL110"]
    assert bool(vl110) == left


@pytest.mark.parametrize("target, codes", [("0.8.2", set()), ("0.8.5", set())])
def test_glued_o_value_with_a_dot_before_dotted_keys(target, codes):
    # before 0.9.0 a `.` does not make a dotted key: argparse gives `-O` the rest of the word, and
    # the real parsers of 0.8.2 and 0.8.5 accept `-O{"compilation_time": 1.0}`
    import vllm_lint

    line = """vllm serve m '-O{"compilation_time": 1.0}'\n"""
    assert {d.code for d in vllm_lint.lint(line, "serve.sh", target=target) if d.severity == "error"} == codes
    bad = """vllm serve m '-O{"compilation_time": "x"}'\n"""
    assert any(d.code == "VL105" for d in vllm_lint.lint(bad, "serve.sh", target=target))


@pytest.mark.parametrize("words, refused", [
    # 0.9.0's real parser (tools/crosscheck, issue 29): dotted keys of `--` options only, their
    # keys rewritten `_` -> `-` as well; CompilationConfig.from_cli reads JSON
    (["-O.level=3"], True),
    (["--compilation-config.debug_dump_path=null"], True),
    (["--kv-transfer-config.kv_role", "kv_producer"], True),
    (["--compilation-config.level", "3"], False),
    (["--compilation-config", "{'level': 3}"], True),
    (["--compilation-config", '{"level": 3}'], False),
    (["-O3"], False),
    (["--hf-overrides.some_key", "1"], False),
])
def test_dotted_keys_and_from_cli_at_0_9_0(words, refused):
    import shlex

    import vllm_lint

    line = "vllm serve m " + " ".join(shlex.quote(w) for w in words) + "\n"
    errors = [d for d in vllm_lint.lint(line, "serve.sh", target="0.9.0") if d.severity == "error"]
    assert bool(errors) == refused, errors


def test_dotted_keys_at_0_9_2_unchanged():
    import vllm_lint

    for line in ("vllm serve m -O.level=3\n", "vllm serve m --kv-transfer-config.kv_role kv_producer\n"):
        assert not [d for d in vllm_lint.lint(line, "serve.sh", target="0.9.2") if d.severity == "error"], line
