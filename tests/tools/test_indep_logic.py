"""Pure parts of the independent tester (tools/crosscheck/indep/): the docs tokenizer, the
culprit and verdict comparison, ddmin, and seeded generation from a hand-written grammar (no
vLLM, no venvs, no network)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "crosscheck" / "indep"))

import gen_docs  # noqa: E402
import gen_grammar  # noqa: E402
import shrink  # noqa: E402
import verdict  # noqa: E402


def test_docs_tokenizer_reads_shell_words():
    text = ("```bash\n$ CUDA_VISIBLE_DEVICES=0 vllm serve <model> \\\n    --max_model_len=4096 \\\n"
            "    --speculative-config '{\"method\": \"ngram\",\n  \"n\": 3}' --port $PORT | tee log\n```\n"
            "# vllm serve m \\\n#   -tp 2  # two GPUs\n"
            "vllm serve m --chat-template \"a b\" --config c.yaml\n"
            "vllm serve m --bad 'open\n")
    lines = list(gen_docs.extract_file(text, comment_lines=True))
    assert lines == [
        ["m", "--max_model_len=4096", "--speculative-config", '{"method": "ngram",\n  "n": 3}'],
        ["m", "-tp", "2"],
    ]


def test_culprit_and_naming():
    c = verdict.real_culprit
    assert c("argument --tensor-parallel-size/-tp: invalid int value: 'x'") == {"--tensor-parallel-size", "-tp"}
    assert c("unrecognized arguments: True --foo") == {"true"}
    assert c("ambiguous option: --max=3 could match --max-model-len, --max-num-seqs") == {"--max"}
    assert c("the following arguments are required: model_tag") is None
    found = [{"code": "VL107", "option": None, "message": "`--max-model` abbreviates `--max-model-len`"}]
    assert verdict.names_culprit(found, {"--max-model-len"})
    assert verdict.names_culprit([{"option": "--max_model_len", "message": ""}], {"--max-model-len"})
    assert not verdict.names_culprit([{"option": "--port", "message": "`8000`"}], {"--max-model-len"})
    real_no = {"refused": True, "message": "unrecognized arguments: x"}
    assert verdict.compare(real_no, {"refused": False, "errors": []})["kind"] == "missed"
    assert verdict.compare({"refused": False}, {"refused": True, "errors": []})["kind"] == "false-alarm"
    env = {"refused": True, "message": "FileNotFoundError: [Errno 2] No such file or directory: 'c.yaml'"}
    assert verdict.compare(env, {"refused": False, "errors": []})["kind"] == "agree"


def test_ddmin_finds_the_minimal_words():
    words = ["m", "--dtype", "auto", "--bad", "1", "-tp", "2", "--port", "8000"]
    assert shrink.ddmin(words, lambda w: "--bad" in w) == ["--bad"]
    assert shrink.ddmin(words, lambda w: "-tp" in w and "2" in w) == ["-tp", "2"]
    assert shrink.ddmin(words, lambda w: len(w) >= 0) == []


GRAMMAR = {"actions": [
    {"strings": ["--help", "-h"], "dest": "help", "nargs": 0, "const": None, "default": None, "choices": None,
     "types": [], "action": "_HelpAction", "positional": False},
    {"strings": [], "dest": "model_tag", "nargs": "?", "const": None, "default": None, "choices": None,
     "types": [], "action": "_StoreAction", "positional": True},
    {"strings": ["--tensor-parallel-size", "-tp"], "dest": "tensor_parallel_size", "nargs": None, "const": None,
     "default": 1, "choices": None, "types": ["int"], "action": "_StoreAction", "positional": False},
    {"strings": ["--enforce-eager", "--no-enforce-eager"], "dest": "enforce_eager", "nargs": 0, "const": None,
     "default": False, "choices": None, "types": [], "action": "BooleanOptionalAction", "positional": False},
    {"strings": ["--dtype"], "dest": "dtype", "nargs": None, "const": None, "default": "auto",
     "choices": ["auto", "half", "bfloat16"], "types": ["str"], "action": "_StoreAction", "positional": False},
    {"strings": ["--compilation-config", "-O"], "dest": "compilation_config", "nargs": None, "const": None,
     "default": None, "choices": None, "types": ["parse_dataclass"], "action": "_StoreAction", "positional": False,
     "config_class": "CompilationConfig",
     "fields": [{"name": "level", "kind": "int", "init": True, "private": False},
                {"name": "_hidden", "kind": "bool", "init": True, "private": True}]},
]}
OTHER = {"actions": [
    {"strings": ["--swap-space"], "dest": "swap_space", "nargs": None, "const": None, "default": 4,
     "choices": None, "types": ["float"], "action": "_StoreAction", "positional": False},
]}


def test_grammar_generator_is_seeded_and_uses_the_grammar():
    a = [gen_grammar.line(GRAMMAR, [OTHER], "9.9", 0, i) for i in range(300)]
    b = [gen_grammar.line(GRAMMAR, [OTHER], "9.9", 0, i) for i in range(300)]
    assert a == b and len({tuple(x) for x in a}) > 150
    words = {w for line in a for w in line}
    assert "--help" not in words and "-h" not in words
    assert "--swap-space" in words and "--no-enforce-eager" in words
    assert any(w.startswith("--compilation-config.") for w in words)
    assert any(w.startswith("--tensor_parallel") for w in words)


def test_docs_mutations_are_seeded():
    opts = gen_grammar.load(GRAMMAR)
    others = gen_grammar.load(OTHER)
    lines = [["m", "--dtype", "half", "--tensor-parallel-size", "2"]]
    out = [gen_docs.line(lines, "9.9", 0, i, opts, others, gen_grammar.value_words) for i in range(100)]
    assert out == [gen_docs.line(lines, "9.9", 0, i, opts, others, gen_grammar.value_words) for i in range(100)]
    tags = {t for _, t in out}
    assert {"as-written", "typo", "foreign", "wrong_choice", "respell", "drop_value"} <= tags


# --- the start-up settle (settle.py; run.py's post-parse column) ---------------------------------

import importlib.util  # noqa: E402

import settle  # noqa: E402

GIVEN = {
    "speculative_config": {"strings": ["--speculative-config", "-sc"], "shape": "mapping",
                           "keys": ["method", "foo"]},
    "diffusion_config": {"strings": ["--diffusion-config", "-dc"], "shape": "other", "keys": []},
    "watermark_config": {"strings": ["--watermark-config"], "shape": "str", "keys": []},
    "load_format": {"strings": ["--load-format"], "shape": "str", "keys": []},
    "port": {"strings": ["--port"], "shape": "other", "keys": []},
}


def _f(step, field, etype, message, errors=None, stand_ins=0):
    return {"step": step, "field": field, "type": etype, "message": message, "errors": errors,
            "stand_ins": stand_ins}


def test_settle_finds_what_a_failure_is_about():
    about = lambda f: [d for d, _ in settle.about(f, GIVEN)]  # noqa: E731
    sc = "create_speculative_config"
    cases = [
        # pydantic error at a key the line gave, in the option's own class
        (_f(sc, "speculative_config", "ValidationError", "1 validation error",
            [{"type": "unexpected_keyword_argument", "loc": ["foo"]}], 2), ["speculative_config"]),
        (_f(sc, "speculative_config", "ValidationError", "x",
            [{"type": "int_parsing", "loc": ["method", 0]}], 2), ["speculative_config"]),
        # a missing field, a key the line did not give, a root error of a mapping: about nothing
        (_f(sc, "speculative_config", "ValidationError", "x", [{"type": "missing", "loc": ["method"]}], 2), []),
        (_f(sc, "speculative_config", "ValidationError", "x", [{"type": "int_parsing", "loc": ["model"]}], 2), []),
        (_f(sc, "speculative_config", "ValidationError", "Value error, --speculative-config needs a model",
            [{"type": "value_error", "loc": []}], 2), []),
        # stdlib dataclass: unexpected keyword that is (not) a given key
        (_f(sc, "speculative_config", "TypeError", "__init__() got an unexpected keyword argument 'foo'",
            None, 2), ["speculative_config"]),
        (_f(sc, "speculative_config", "TypeError", "__init__() got an unexpected keyword argument 'bar'",
            None, 2), []),
        # a non-object handed over as a mapping (only when the value is not a mapping)
        (_f("create_diffusion_config", "diffusion_config", "AttributeError",
            "'int' object has no attribute 'update'"), ["diffusion_config"]),
        (_f("create_diffusion_config", "diffusion_config", "TypeError",
            "DiffusionConfig() argument after ** must be a mapping, not list"), ["diffusion_config"]),
        (_f(sc, "speculative_config", "AttributeError", "'dict' object has no attribute 'update'", None, 2), []),
        (_f("hand_over:diffusion_config", "diffusion_config", "ValidationError", "x",
            [{"type": "dataclass_type", "loc": []}]), ["diffusion_config"]),
        # VllmConfig's validation of one handed-over value: any error but missing is about it
        (_f("hand_over:load_format", "load_format", "ValidationError", "x",
            [{"type": "enum", "loc": []}]), ["load_format"]),
        (_f("hand_over:load_format", "load_format", "ValidationError", "x",
            [{"type": "missing", "loc": ["a"]}]), []),
        (_f("hand_over:load_format", "load_format", "ValidationError", "x",
            [{"type": "value_error", "loc": [], "msg": "No such file: x"}]), []),
        (_f("create_watermark_config", "watermark_config", "JSONDecodeError", "Expecting value"),
         ["watermark_config"]),
        (_f("create_diffusion_config", "diffusion_config", "JSONDecodeError", "Expecting value"), []),
        # a class built from several options: the error's loc is a dest the line gave
        (_f("create_load_config", None, "ValidationError", "x",
            [{"type": "literal_error", "loc": ["load_format"]}]), ["load_format"]),
        (_f("create_load_config", None, "ValidationError", "x",
            [{"type": "literal_error", "loc": ["download_dir"]}]), []),
        # named in the message: only a step without stand-ins
        (_f("from_cli_args", None, "ValueError", "--port must be set with -sc"), ["port", "speculative_config"]),
        (_f("from_cli_args", None, "ValueError", "bad value for 'foo' in the config"), ["speculative_config"]),
        (_f("from_cli_args", None, "ValueError", "the portable build"), []),
        (_f(sc, "speculative_config", "ValueError", "--port must be set with -sc", None, 2), []),
        # this machine: about nothing, whatever it names
        (_f("from_cli_args", None, "FileNotFoundError", "--port: No such file"), []),
        (_f("from_cli_args", None, "RuntimeError", "--port needs CUDA"), []),
        (_f(sc, "speculative_config", "ValidationError", "x",
            [{"type": "value_error", "loc": ["foo"], "msg": "Value error, file does not exist"}], 2), []),
    ]
    for failure, want in cases:
        assert about(failure) == want, (failure, about(failure))


def test_settle_shapes_and_the_post_parse_verdict():
    assert settle.shape({"b": 1, "a": 2}) == {"shape": "mapping", "keys": ["a", "b"]}
    assert settle.shape("x")["shape"] == "str" and settle.shape(3)["shape"] == "other"
    assert settle.shape(None)["shape"] == "other" and settle.shape([])["shape"] == "other"
    two = _f("create_speculative_config", "speculative_config", "ValidationError", "2 validation errors",
             [{"type": "string_type", "loc": ["method"]}, {"type": "unexpected_keyword_argument", "loc": ["foo"]},
              {"type": "missing", "loc": ["model"]}], 2)
    (dest, why), = settle.about(two, GIVEN)
    assert dest == "speculative_config" and "'method'" in why and "'foo'" in why and "'model'" not in why
    certain = [{"step": "create_speculative_config", "dest": "speculative_config",
                "strings": ["--speculative-config", "-sc"], "message": "m", "why": "w"}]
    sc_err = {"code": "VL105", "option": "-sc", "message": "value of `-sc` must be a JSON object"}
    dotted = {"code": "VL105", "option": None, "message": "unknown key `foo` in `--speculative-config.foo`"}
    other = {"code": "VL101", "option": "--device", "message": "`--device` was removed"}
    nc = verdict.names_culprit
    assert settle.settles([sc_err], certain, nc) is True
    assert settle.settles([dotted], certain, nc) is True
    assert settle.settles([sc_err, other], certain, nc) is False  # one lint error start does not settle
    assert settle.settles([other], certain, nc) is False
    assert settle.settles([sc_err], [], nc) is None
    assert settle.settles([], certain, nc) is False
    # vLLM's preprocessing rewrote the word the line wrote: the word names the option too
    level = [{"step": "hand_over:optimization_level", "dest": "optimization_level",
              "strings": ["--optimization-level"], "words": ["-O.level=3"], "message": "m", "why": "w"}]
    o_err = {"code": "VL101", "option": "-O.level", "message": "`-O.level` was removed"}
    assert settle.certain_names(level) == {"--optimization-level", "-o.level"}
    assert settle.settles([o_err], level, nc) is True
    assert settle.settles([o_err], [{**level[0], "words": []}], nc) is False


def _indep_run():
    spec = importlib.util.spec_from_file_location("indep_run_for_tests",
                                                  ROOT / "tools" / "crosscheck" / "indep" / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_post_parse_lines_count_as_agreeing():
    """Issue 29: a line both refuse, vLLM after parsing, is an agreement within every line."""
    run = _indep_run()
    assert run.measured({"lines": 300, "post-parse": 4}) == 300
    assert run.measured({"lines": 10}) == 10 and run.measured({}) == 0
    assert run.agreed({"agree": 290, "post-parse": 4}) == 294
    counts = {"lines": 300, "agree": 290, "missed": 3, "false-alarm": 3, "post-parse": 4}
    gen = {"counts": counts, "by_tag": {"grammar": counts}, "problems": []}
    docs = {"counts": {"lines": 100, "agree": 100}, "by_tag": {"as-written": {"lines": 100, "agree": 100}},
            "problems": []}
    md = run.markdown([{"release": "9.9", "docs_lines": 7, "docs": docs, "grammar": gen}], 300, 0)
    head, _, row = md.splitlines()[:3]
    assert head.count("post-parse: both refuse") == 2
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert len(cells) == len(head.strip("|").split("|"))
    assert cells[5] == "98.0" and cells[6] == "3 / 3" and cells[7] == "4"  # 294 / 300
    assert cells[2].startswith("100.0") and cells[4] == "0"


def test_the_vllm_config_call_is_read_with_its_parentheses():
    import oracle

    src = ("def create_engine_config(self):\n    x = f(VllmConfig)\n"
           "    config = VllmConfig(\n        a=self.a,\n        b=g(self.b),\n        c=(1, 2),\n    )\n"
           "    other = SubVllmConfig(d=self.d)\n")
    call = oracle._call_text(src, "VllmConfig")
    assert "a=self.a" in call and "b=g(self.b)" in call and "c=(1, 2)" in call and "self.d" not in call
    assert oracle._call_text("y = SubVllmConfig(a=1)", "VllmConfig") == ""


def test_refusing_rules_are_the_argument_rules_and_the_config_ranges():
    import verdict

    assert verdict.refusal_code("VL105") and verdict.refusal_code("VL112") and verdict.refusal_code("VL410")
    assert not verdict.refusal_code("VL407") and not verdict.refusal_code("VL201")


def test_settle_a_message_quoting_a_value_the_line_gave():
    given = {"device_ids": {"strings": ["--device-ids"], **settle.shape(["auto", 1])},
             "served_model_name": {"strings": ["--served-model-name"], **settle.shape(["GPU-5d1c"])},
             "load_format": {"strings": ["--load-format"], **settle.shape("dummy")}}
    about = lambda f: [d for d, _ in settle.about(f, given)]  # noqa: E731
    step = "_resolve_device_ids"
    assert about(_f(step, None, "ValueError", "Non-integer device ID 'auto' is not supported by cpu.")) \
        == ["device_ids"]
    assert about(_f("from_cli_args", None, "ValueError", 'unknown format "dummy"')) == ["load_format"]
    # unquoted, a GPU UUID (a GPU machine may resolve it), or a step with stand-ins: about nothing
    assert about(_f(step, None, "ValueError", "Non-integer device ID auto")) == []
    assert about(_f(step, None, "ValueError", "Non-integer device ID 'GPU-5d1c'")) == []
    assert about(_f("create_speculative_config", None, "ValueError", "bad 'auto'", None, 2)) == []


def test_oracle_hand_overs_are_the_calls_every_start_makes():
    import ast

    import oracle

    src = ("def create_engine_config(self):\n"
           "    parallel = ParallelConfig(dcp=self.dcp, tp=max(1, self.tp))\n"
           "    lora = LoRAConfig(max_loras=self.max_loras) if self.enable_lora else None\n"
           "    if self.x:\n        Other(a=self.a)\n"
           "    items = [Item(b=self.b) for _ in range(2)]\n"
           "    return VllmConfig(parallel=parallel, level=self.level)\n"
           "    After(c=self.c)\n")
    names = [getattr(c.func, "id", None) for c in oracle._unconditional_calls(ast.parse(src).body[0])]
    assert names == ["ParallelConfig", "max", "VllmConfig"]


def test_settle_a_quoted_value_of_the_line_is_not_this_machine():
    given = {"device_ids": {"strings": ["--device-ids"], **settle.shape(["cuda"])}}
    failure = _f("_resolve_device_ids", None, "ValueError", "Non-integer device ID 'cuda' is not supported by cpu.")
    assert [d for d, _ in settle.about(failure, given)] == ["device_ids"]
    # the machine's own words still are
    failure = _f("_resolve_device_ids", None, "RuntimeError", "no CUDA device for 'x'")
    assert settle.about(failure, given) == []


def test_serve_model_filled_from_the_positional_where_serve_has_no_model_option():
    """0.9.0's serve parser has no --model; its command sets args.model from the positional before
    it builds the engine, so the start-up settle does the same (else EngineArgs cannot be made)."""
    import argparse

    import oracle

    ns = argparse.Namespace(model_tag="org/m")
    oracle._serve_model(ns)
    assert ns.model == "org/m"
    ns = argparse.Namespace(model_tag=None)
    oracle._serve_model(ns)
    assert ns.model == "facebook/opt-125m"
    ns = argparse.Namespace(model_tag="a", model="b")
    oracle._serve_model(ns)
    assert ns.model == "b"


def test_a_verdict_that_depends_on_the_process_agrees_only_where_lint_says_so():
    """0.8.5's --guided-decoding-backend takes one of two choice lists by process: `outlines` is
    refused by some processes and accepted by others; only a warning about it is right for both."""
    refused = {"refused": True, "message": "argument --guided-decoding-backend: invalid choice: 'outlines'"}
    accepted = {"refused": False, "message": None}
    strings = {"--guided-decoding-backend"}
    warn = {"refused": False, "errors": [], "warnings": [
        {"code": "VL105", "option": "--guided-decoding-backend", "message": "`outlines` for ..."}]}
    silent = {"refused": False, "errors": [], "warnings": []}
    error = {"refused": True, "errors": [{"code": "VL105", "option": "--guided-decoding-backend",
                                          "message": "invalid"}], "warnings": warn["warnings"]}
    assert verdict.compare_varying(refused, [refused, accepted], warn, strings)["kind"] == "varies-said"
    assert verdict.compare_varying(accepted, [refused, accepted], warn, strings)["kind"] == "varies-said"
    assert verdict.compare_varying(refused, [accepted], silent, strings)["kind"] == "varies-unsaid"
    assert verdict.compare_varying(refused, [accepted], error, strings)["kind"] == "varies-unsaid"
    # refused whatever the list (another word refused first): an ordinary verdict
    assert verdict.compare_varying(refused, [refused, refused], silent, strings) is None
    run = _indep_run()
    assert run.agreed({"agree": 290, "post-parse": 4, "varies-said": 3, "varies-unsaid": 2}) == 297
