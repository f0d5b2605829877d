"""Pure parts of the differential tester (tools/crosscheck/difftest.py, difftest_gen.py): culprit
parsing, shrinking, seeded generation and unit mining (no vLLM, no venvs, no network)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "crosscheck"))

import difftest as dt  # noqa: E402
import difftest_gen as gen  # noqa: E402


def test_culprit_of_argparse_errors():
    assert dt.culprit("argument --tensor-parallel-size/-tp: invalid int value: 'x'") == ["--tensor-parallel-size", "-tp"]
    assert dt.culprit("unrecognized arguments: true --foo") == ["true"]
    assert dt.culprit("unrecognized arguments: --bar=1") == ["--bar"]
    assert dt.culprit("ambiguous option: --max could match --max-model-len, --max-num-seqs") == ["--max"]
    assert dt.culprit("ValueError: With `vllm serve`, you should provide the model as a positional argument or in a config file instead of via the `--model` option.") == ["--model"]
    assert dt.culprit("the following arguments are required: model_tag") is None
    assert dt.culprit(None) is None


def test_verdicts_and_shrinking():
    assert dt.verdict_kind(True, True) == dt.verdict_kind(False, False) == "agree"
    assert dt.verdict_kind(True, False) == "missed" and dt.verdict_kind(False, True) == "false-alarm"
    line = [["m"], ["--dtype", "auto"], ["--bad", "1"], ["-tp", "2"]]
    assert dt.shrink(line, lambda argv: "--bad" in argv) == [["--bad", "1"]]
    assert dt.shrink(line, lambda argv: "m" in argv and "-tp" in argv) == [["m"], ["-tp", "2"]]


def test_generators_are_seeded(tmp_path):
    voc = gen.load_vocabulary(ROOT / "flag_db")
    target = voc.releases["0.13.0"]
    a = [gen.edge(voc, target, dt.seed_of(0, "edge", i)) for i in range(200)]
    b = [gen.edge(voc, target, dt.seed_of(0, "edge", i)) for i in range(200)]
    assert a == b and len({repr(x) for x in a}) > 150
    units = {"models": ["m"], "units": [[["--enforce-eager"], 3], [["-tp", "2"], 1]]}
    r = [gen.realistic(units, s) for s in range(50)]
    assert r == [gen.realistic(units, s) for s in range(50)]
    assert all(line[0] == ["m"] for line in r)


def test_mine_units():
    shapes = {"--tensor-parallel-size": True, "--enforce-eager": False, "--served-model-name": "many"}
    doc = gen.mine_units(["vllm serve org/m --tensor-parallel-size 2 --enforce-eager \\\n  --served-model-name a b\n",
                          "vllm serve org/m --port $PORT --dtype=auto | tee log\n"], shapes.get)
    assert doc["models"] == ["org/m"]
    assert sorted(map(tuple, (u for u, _ in doc["units"]))) == [
        ("--dtype=auto",), ("--enforce-eager",), ("--served-model-name", "a", "b"), ("--tensor-parallel-size", "2")]


class _Finding:
    def __init__(self, option, message):
        self.option, self.message = option, message


def test_culprit_named_across_vllms_rewrites_and_error_classes():
    # 0.8.5 reports `--kv_transfer_config.kv_connector` as `--kv-transfer-config.kv-connector`
    blamed = dt.culprit("unrecognized arguments: --kv-transfer-config.kv-connector NixlConnector")
    assert dt.names_culprit([_Finding("--kv-transfer-config", "...")], blamed, None)
    assert dt.names_culprit([_Finding(None, "`--kv_transfer_config.kv_connector` was removed")], blamed, None)
    assert not dt.names_culprit([_Finding("--dtype", "`--dtype` ...")], blamed, None)
    assert dt.error_class({"ok": True}) is None
    assert dt.error_class({"ok": False, "error": "argument --max_model_len: invalid"}) == "--max-model-len"
    assert dt.error_class({"ok": False, "error": "the following arguments are required: model_tag"}) == \
        "the following arguments are required"


def test_launch_units_as_vllm_lint_splits_them():
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    linter = Linter(Database(), Settings(target_version="0.13.0"), select_rules([], []))
    text = b"vllm serve org/m --tensor-parallel-size 2 --enforce-eager --max-model-len $LEN --model x --dtype auto\n"
    (la,) = linter.analyse(Path("t.sh"), text).launches
    model, units = dt.launch_units(la.launch, la.args)
    assert model == "org/m"
    assert units == [("--tensor-parallel-size", "2"), ("--enforce-eager",), ("--dtype", "auto")]


def test_start_up_refusals_count_as_refusals():
    """Issue 29: what vLLM refuses right after parsing (validate_parsed_serve_args, the model-free
    start-up) counts like a parser refusal; whether lint names the refused option is measured
    with the culprits."""
    canonical = {"--speculative-config": "--speculative-config", "-sc": "--speculative-config",
                 "--optimization-level": "--optimization-level", "-O": "--optimization-level"}.get
    spec = {"option": "speculative_config", "key": "a", "step": "speculative_config", "error": "...",
            "options": ["--speculative-config", "-sc"]}
    accepted_started = {"ok": True, "start_error": None}
    accepted_refused = {"ok": True, "start_error": spec}
    blames_sc = [_Finding("--speculative-config", "unknown key `a` in `--speculative-config`")]
    blames_dtype = [_Finding("--dtype", "invalid value `x` for `--dtype`")]
    # start-up refuses and lint refuses: both refuse, an agreement, and lint names the option
    assert dt.classify(accepted_refused, True, blames_sc, canonical) == "agree"
    assert dt.start_culprit(accepted_refused, blames_sc, canonical) is True
    # lint blames another option: the verdicts agree, the culprit does not
    assert dt.classify(accepted_refused, True, blames_dtype, canonical) == "agree"
    assert dt.start_culprit(accepted_refused, blames_dtype, canonical) is False
    # start-up accepts: a false alarm stays one
    assert dt.classify(accepted_started, True, blames_sc, canonical) == "false-alarm"
    assert dt.start_culprit(accepted_started, blames_sc, canonical) is None
    # lint silent where start-up refuses: missed
    assert dt.classify(accepted_refused, False, [], canonical) == "missed"
    assert dt.start_refused(accepted_refused) and not dt.start_refused(accepted_started)
    # the parser refusing: as before
    assert dt.classify({"ok": False, "error": "x", "start_error": spec}, True, blames_sc, canonical) == "agree"
    assert dt.classify({"ok": False, "error": "x", "start_error": spec}, False, [], canonical) == "missed"
    assert not dt.start_refused({"ok": False, "error": "x", "start_error": spec})
    # -O.level=3 at 0.12+: optimization_level refused by VllmConfig; lint names `-O`
    olevel = {"ok": True, "start_error": {"option": "optimization_level", "key": None, "step": "VllmConfig.optimization_level",
                                           "error": "...", "options": ["--optimization-level", "-O"]}}
    finding = [_Finding("-O", "`-O.level` was removed in vLLM 0.12.0")]
    assert dt.classify(olevel, True, finding, canonical) == "agree" and dt.start_culprit(olevel, finding, canonical)
    st = {"lines": 10, "agree": 7, "missed": 1, "false-alarm": 2, "start-refused": 2}
    assert dt.agreement(st) == (7, 10)


def test_start_refusals_count_only_when_certain():
    """The worker's start check (tools/crosscheck/difftest_start.py), on a stand-in release: an
    error counts only when resetting the option clears it, never when it depends on the machine;
    a dict option's refused key is read from pydantic's error locations or a dataclass's
    unexpected keyword."""
    import argparse

    import difftest_start as ds

    class ValidationError(Exception):
        def __init__(self, errs):
            super().__init__("1 validation error")
            self._errs = errs

        def errors(self):
            return self._errs

    assert ds._key_of(ValidationError([{"type": "missing", "loc": ("target_model_config",)},
                                       {"type": "extra_forbidden", "loc": ("a",)}]), {"a": 1}) == "a"
    assert ds._key_of(ValidationError([{"type": "value_error", "loc": ()}]), {"a": 1}) is None
    assert ds._key_of(TypeError("__init__() got an unexpected keyword argument 'draft-x'"), {"draft-x": 1}) == "draft-x"
    assert ds._key_of(TypeError("__init__() got an unexpected keyword argument 'b'"), {"a": 1}) is None
    assert ds._key_of(ValidationError([{"type": "extra_forbidden", "loc": ("a",)}]), 256) is None
    assert ds._machine_dependent(FileNotFoundError("x")) and ds._machine_dependent(ValueError("tracing is not installed"))
    assert not ds._machine_dependent(ValueError("Non-integer device ID 'xpu' is not supported by cpu."))
    assert ds._may_be_uuid(["GPU-5f1c"]) and not ds._may_be_uuid(["xpu"]) and not ds._may_be_uuid(None)

    class EngineArgs:
        def __init__(self, ns):
            if ns.tensor_parallel_size < 1:
                raise ValueError("tensor_parallel_size must be >= 1")
            self.ns = ns

        @classmethod
        def from_cli_args(cls, ns):
            return cls(ns)

        def create_load_config(self):
            if self.ns.download_dir and self.ns.load_format == "tensorizer":
                raise ValueError("tensorizer needs a tensorizer_uri")
            if self.ns.download_dir == "/missing":
                raise FileNotFoundError("/missing")

    check = object.__new__(ds.StartCheck)
    check.cls, check.validate, check.steps, check.speculative, check.fields = EngineArgs, None, ["create_load_config"], False, {}
    check.defaults = {"model": "m", "tensor_parallel_size": 1, "download_dir": None, "load_format": "auto"}
    check.dest_options = {"tensor_parallel_size": ["--tensor-parallel-size", "-tp"], "download_dir": ["--download-dir"],
                          "load_format": ["--load-format"]}
    ns = lambda **kw: argparse.Namespace(**{**check.defaults, "model": "org/m", **kw})  # noqa: E731
    assert check.check(ns()) is None
    got = check.check(ns(tensor_parallel_size=0))
    assert got["option"] == "tensor_parallel_size" and got["step"] == "engine_args" and "-tp" in got["options"]
    combo = check.check(ns(download_dir="/d", load_format="tensorizer"))
    assert combo["option"] == "download_dir" and combo["also"] == ["load_format"]
    assert combo["options"] == ["--download-dir", "--load-format"]
    assert check.check(ns(download_dir="/missing")) is None  # the machine's, not the line's

    # the serve validator: a check after a missing chat-template file still counts (where the
    # file exists the validator runs on to it), a second machine refusal does not
    def validate(n):
        if n.chat_template is not None and n.chat_template.startswith("/missing"):
            raise ValueError(f"the chat template {n.chat_template} does not exist")
        if n.enable_tool and not n.tool_parser:
            raise TypeError("enable_tool requires tool_parser")
        if n.enable_tool and n.tool_parser == "/missing.py":
            raise FileNotFoundError("/missing.py")

    check.validate = validate
    check.defaults.update(chat_template=None, enable_tool=False, tool_parser=None)
    check.dest_options.update(enable_tool=["--enable-tool"], chat_template=["--chat-template"])
    for kw, want in (({"enable_tool": True}, "enable_tool"),
                     ({"enable_tool": True, "chat_template": "/missing.jinja"}, "enable_tool"),
                     ({"chat_template": "/missing.jinja"}, None),
                     ({"chat_template": "/missing.jinja", "enable_tool": True, "tool_parser": "x"}, None),
                     ({"chat_template": "/missing.jinja", "enable_tool": True, "tool_parser": "/missing.py"}, None)):
        got = check.check(ns(**kw))
        assert (got and got["option"], got and got["step"]) == (want, want and "validate_parsed_serve_args"), kw

    # two refusals of one step: no single reset clears it, resetting them in turn does
    def validate_two(n):
        if n.enable_tool and not n.tool_parser:
            raise TypeError("enable_tool requires tool_parser")
        if n.enable_reasoning and not n.reasoning_parser:
            raise TypeError("enable_reasoning requires reasoning_parser")

    check.validate = validate_two
    check.defaults.update(enable_reasoning=False, reasoning_parser=None)
    check.dest_options.update(enable_reasoning=["--enable-reasoning"])
    both = check.check(ns(enable_tool=True, enable_reasoning=True))
    assert both["option"] == "enable_tool" and both["also"] == ["enable_reasoning"]
    assert check.check(ns(enable_reasoning=True))["option"] == "enable_reasoning"


def test_speculative_string_read_with_literal_eval():
    """0.8.2 keeps `--speculative-config` a string and reads it with ast.literal_eval: an
    object written in JSON is an object there (its keys are then checked), JSON's `true` is not a
    Python literal; where the value must already be a dict a string is refused as before."""
    import argparse
    import ast

    import difftest_start as ds

    class Spec:
        def __init__(self, model=None, method=None, num_speculative_tokens=None):
            pass

    class OldArgs:
        def __init__(self, ns):
            self.speculative_config = ns.speculative_config

        @classmethod
        def from_cli_args(cls, ns):
            return cls(ns)

        def create_speculative_config(self, target_model_config):
            if isinstance(self.speculative_config, str):
                self.speculative_config = ast.literal_eval(self.speculative_config)
            return Spec(**self.speculative_config)

    class NewArgs(OldArgs):
        def create_speculative_config(self, target_model_config):
            return Spec(**self.speculative_config)

    check = object.__new__(ds.StartCheck)
    check.cls, check.validate, check.steps, check.speculative, check.fields = OldArgs, None, [], True, {}
    check.defaults = {"model": "m", "speculative_config": None}
    check.dest_options = {"speculative_config": ["--speculative-config"]}
    ns = lambda v: argparse.Namespace(model="org/m", speculative_config=v)  # noqa: E731
    assert check._speculative(ns('{"method": "ngram", "num_speculative_tokens": 5}')) is None
    got = check._speculative(ns('{"method": "ngram", "parallel_drafting": 1}'))
    assert got["key"] == "parallel_drafting"
    assert "not a Python literal" in check._speculative(ns('{"method": "ngram", "x": true}'))["error"]
    check.cls = NewArgs
    assert "not a JSON object" in check._speculative(ns('{"method": "ngram"}'))["error"]


def test_sweep_gives_every_valued_option_its_choice_and_type_values():
    target = {"options": [
        {"name": "--moe-backend", "kind": "valued", "type": "str", "choices": ["auto", "flashinfer_cutlass"]},
        {"name": "--traces", "kind": "valued", "type": "str", "nargs": "+", "choices": ["model", "worker"]},
        {"name": "--port", "kind": "valued", "type": "int", "choices": None},
        {"name": "-cc", "kind": "json", "type": "json", "choices": None},
        {"name": "--enforce-eager", "kind": "switch", "type": None},
        {"name": "--help", "kind": "switch", "type": None},
        {"name": "--model", "kind": "valued", "type": "str"},
    ]}
    lines = gen.sweep(target)
    assert lines == gen.sweep(target) and all(line[0] == ["m"] and len(line) == 2 for line in lines)
    units = [line[1] for line in lines]
    for v in ["auto", "flashinfer_cutlass", "AUTO", "flashinfer-cutlass", "None", "", "bogus", "auto,flashinfer_cutlass"]:
        assert ["--moe-backend", v] in units, v
    assert ["--traces", "model", "worker"] in units and ["--traces", "model,worker"] in units
    assert ["--port", "x"] in units and ["--port", "1.5"] in units
    assert ["-cc", "a=1"] in units and ["-cc", "{bad}"] in units
    assert not any(u[0] in ("--enforce-eager", "--help", "--model") for u in units)


def test_crosscheck_compares_choices_as_the_parser_takes_them_and_the_probes():
    import importlib.util

    # by path: another test module of the worker may have imported benchmarks/run.py as `run`
    spec = importlib.util.spec_from_file_location("crosscheck_run", ROOT / "tools" / "crosscheck" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)

    probe = {"none": False, "empty": False, "upper": True, "lower": False, "dashed": True,
             "refused_as_written": ["None"]}
    action = {"choices": ["auto", "flashinfer_cutlass", "None"], "choice_probe": probe}
    assert run.accepted_choices(action) == ["auto", "flashinfer_cutlass"]
    assert run.accepted_choices({"choices": ["a", None], "choice_probe": {**probe, "none": True}}) == ["a", "None"]
    opt = {"choices": ["auto", "flashinfer_cutlass"], "optional": True,
           "transform": [["lower"], ["replace", "-", "_"]]}
    assert run.probe_diff(opt, probe) == []
    assert run.probe_diff({**opt, "transform": None}, probe) == ["upper: real True, db False", "dashed: real True, db False"]
    assert run.probe_diff({**opt, "choices": [*opt["choices"], "None"]}, probe) == [
        "none: real False, db True", "empty: real False, db True", "listed but refused as written: ['None']"]


def test_a_left_over_word_with_spaces_is_named_whole():
    error = "unrecognized arguments: [1, 2] true"
    blamed = dt.culprit(error)
    assert blamed == ["[1,"]
    assert dt.names_culprit([_Finding(None, "`[1, 2]` is left over")], blamed, None, error)
    assert not dt.names_culprit([_Finding(None, "`[1, 2, 3]` is left over")], blamed, None, error)
    assert not dt.names_culprit([_Finding(None, "`[1, 2]` is left over")], blamed, None,
                                "unrecognized arguments: [1, 2]x")


def test_crosscheck_leaves_api_server_only_options_out_of_the_serve_comparison():
    import importlib.util

    spec = importlib.util.spec_from_file_location("crosscheck_run", ROOT / "tools" / "crosscheck" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)

    def option(name, **extra):
        return {"name": name, "aliases": [], "dest": name[2:].replace("-", "_"), "default": None,
                "default_computed": True, "choices": None, **extra}

    real = {"actions": [{"option_strings": ["--model-impl"], "dest": "model_impl", "default": None,
                         "choices": None}]}
    db = {"options": [option("--model-impl"), option("--model", absent_from_serve=True)]}
    strings = run.compare(db, real)["strings"]
    assert strings["only_db"] == [] and strings["only_real"] == []
    db["options"][1].pop("absent_from_serve")
    assert run.compare(db, real)["strings"]["only_db"] == ["--model"]


def test_crosscheck_compares_which_action_owns_each_spelling():
    import importlib.util

    spec = importlib.util.spec_from_file_location("crosscheck_run", ROOT / "tools" / "crosscheck" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)

    def option(name, aliases=(), negations=()):
        return {"name": name, "aliases": list(aliases), "negations": list(negations), "dest": "x",
                "default": None, "default_computed": True, "choices": None}

    real = {"actions": [{"option_strings": ["--enable-x", "--no-enable-x", "--disable-x"], "dest": "x",
                         "default": None, "choices": None, "action": "BooleanOptionalAction"}]}
    right = {"options": [option("--enable-x", ["--no-enable-x", "--disable-x"], ["--no-enable-x"])]}
    assert run.compare(right, real)["owners"] == {"checked": 3, "agree": 3, "diffs": []}
    # a spelling the DB gives an option of its own, and a negation it does not mark
    split = {"options": [option("--enable-x", ["--no-enable-x"]), option("--disable-x")]}
    owners = run.compare(split, real)["owners"]
    assert owners["agree"] == 0 and {d["string"] for d in owners["diffs"]} == {"--enable-x", "--no-enable-x", "--disable-x"}


def test_a_verdict_that_depends_on_the_process_agrees_only_where_lint_says_so():
    """0.8.5's --guided-decoding-backend takes one of two choice lists by process (issue 29)."""
    from types import SimpleNamespace as NS

    vary = {"--guided-decoding-backend": {"strings": ["--guided-decoding-backend"],
                                          "choices": [["auto", "xgrammar"], ["auto", "outlines", "xgrammar"]]}}
    ok, no = {"ok": True}, {"ok": False, "error": "argument --guided-decoding-backend: invalid choice: 'outlines'"}
    warning = [NS(option="--guided-decoding-backend", message="`outlines` for `--guided-decoding-backend` ...")]
    assert dt.varying(no, [no, ok], False, warning, vary) == "varies-said"
    assert dt.varying(ok, [no, ok], False, warning, vary) == "varies-said"
    assert dt.varying(no, [no, ok], False, [], vary) == "varies-unsaid"
    assert dt.varying(no, [no, ok], True, warning, vary) == "varies-unsaid"
    assert dt.varying(no, [no, no], False, [], vary) is None
    assert dt.varying(ok, [ok, {"ok": True, "start_error": {"option": "x"}}], False, [], vary) == "varies-unsaid"
    assert dt.agreement({"agree": 5, "varies-said": 2, "lines": 9}) == (7, 9)


def test_crosscheck_choices_of_a_list_drawn_by_process_agree_with_the_marked_union():
    import importlib.util

    spec = importlib.util.spec_from_file_location("crosscheck_run", ROOT / "tools" / "crosscheck" / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    union = ["auto", "guidance", "lm-format-enforcer", "outlines", "xgrammar"]
    opt = {"name": "--guided-decoding-backend", "aliases": [], "dest": "guided_decoding_backend",
           "default": "auto", "default_computed": True, "choices": union,
           "choices_vary": ["lm-format-enforcer", "outlines"]}

    def agree(real_choices, o):
        real = {"actions": [{"option_strings": ["--guided-decoding-backend"], "dest": "guided_decoding_backend",
                             "default": "auto", "choices": real_choices}]}
        return run.compare({"options": [o]}, real)["choices"]["agree"] == 1

    assert agree(union, opt) and agree(["auto", "guidance", "xgrammar"], opt)
    assert not agree(["auto", "xgrammar"], opt)  # guidance is in every list
    assert not agree(["auto", "guidance", "xgrammar"], {**opt, "choices_vary": []})
