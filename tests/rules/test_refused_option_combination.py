"""VL112 over synthetic releases: which launches the serve validator's pairs refuse, many cases per
release (the rule's folder, tests/rules/VL112/, shows the findings themselves)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from synthetic_db import _record, build_releases, opt  # noqa: E402

from vllm_lint.pipeline.engine import Linter  # noqa: E402
from vllm_lint.rules.base import select_rules  # noqa: E402
from vllm_lint.settings import Settings  # noqa: E402
from vllm_lint.surface.db import Database  # noqa: E402


def _neg(name, **kw):
    no = "--no-" + name[2:]
    return opt(name, [no], kind="negatable", type=None, negations=[no], **kw)


def _switch(name, **kw):
    return opt(name, kind="switch", type=None, default=kw.pop("default", False), **kw)


def _check(kind, a, b, oa=None, ob=None):
    return {"kind": kind, "dests": [a, b],
            "options": [oa or "--" + a.replace("_", "-"), ob or "--" + b.replace("_", "-")]}


BOTH = ["openai.api_server", "vllm serve"]
COMMON = [opt("--model"), opt("--config", default=""), opt("--port", type="int", default=8000)]

# 0.7-like: switches, a requires and a conflict, a parser with choices (optional_type)
R1 = COMMON + [_switch("--enable-tool"), opt("--tool-parser"), _switch("--enable-think"),
               opt("--think-parser", choices=["alpha", "beta"], optional=True),
               opt("--level", type="int", default=0), opt("--ratio", type="float", default=0.0),
               opt("--flag-value", kind="bool_value", type="bool", default=False),
               opt("--tool-parser-plugin", default="")]
C1 = [_check("requires", "enable_tool", "tool_parser"), _check("requires", "enable_think", "think_parser"),
      _check("conflicts", "enable_tool", "enable_think"), _check("requires", "level", "ratio"),
      _check("requires", "flag_value", "tool_parser_plugin")]
# 0.33-like: negatable options whose --disable- spelling is a negation; B's default not constant;
# two options of one dest with different defaults
R2 = COMMON + [
    opt("--enable-out", ["--disable-out", "--no-enable-out"], kind="negatable", type=None, default=False,
        negations=["--disable-out", "--no-enable-out"]),
    opt("--enable-req", ["--disable-req", "--no-enable-req"], kind="negatable", type=None, default=False,
        negations=["--disable-req", "--no-enable-req"]),
    _neg("--enable-metrics", default=False), _switch("--disable-stats"),
    _neg("--enable-x", default=False), opt("--x-source", default=None, default_computed=True),
    _neg("--enable-y", default=False), opt("--y-one", dest="y", default=None), opt("--y-two", dest="y", default="on")]
C2 = [_check("requires", "enable_out", "enable_req"), _check("conflicts", "enable_metrics", "disable_stats"),
      _check("requires", "enable_x", "x_source"), _check("requires", "enable_y", "y", ob="--y-one")]

# 0.34-like: conditions beyond pairs (a validator called under an option, comparisons with
# numbers and another option, None tests, membership, the subcommand)
R6 = COMMON + [_switch("--multi-lb", aliases=["-mlb"]), opt("--dp-size", ["-dp"], type="int", default=1),
               opt("--dp-local", ["-dpl"], type="int", default=None), opt("--servers", type="int", default=None),
               opt("--keep-alive", type="int", default=0), opt("--sock", optional=True, default=None),
               opt("--grpc-port", type="int", optional=True, default=None),
               opt("--traces", choices=["all", "model", "worker"], nargs="+", default=None),
               opt("--trace-endpoint", default=None)]


def _t(dest, test, **kw):
    return {"dest": dest, "test": test, **({"option": "--" + dest.replace("_", "-")} if dest != "subparser" else {}),
            **kw}


C6 = [{"kind": "when", "when": [_t("grpc_port", "not_none"), _t("subparser", "!=", value="serve")]},
      {"kind": "when", "when": [_t("keep_alive", "<", value=0)]},
      {"kind": "when", "when": [dict(_t("multi_lb", "set"), option="--multi-lb"), _t("sock", "not_none")]},
      {"kind": "when", "when": [dict(_t("multi_lb", "set"), option="--multi-lb"), _t("servers", "not_in", values=[None, 1])]},
      {"kind": "when", "when": [dict(_t("multi_lb", "set"), option="--multi-lb"), _t("dp_size", "<", value=2)]},
      {"kind": "when", "when": [dict(_t("multi_lb", "set"), option="--multi-lb"), _t("dp_local", "none")]},
      {"kind": "when", "when": [dict(_t("multi_lb", "set"), option="--multi-lb"),
                                _t("dp_local", ">", dest2="dp_size", option2="--dp-size")]}]


@pytest.fixture(scope="module")
def linters(tmp_path_factory):
    releases = {}
    config_checks = [{"class": "TraceConfig", "kind": "when", "when": [
        {"dest": "traces", "test": "set", "option": "--traces"},
        {"dest": "trace_endpoint", "test": "unset", "option": "--trace-endpoint"}]}]
    for v, opts, checks, entries in (("1.0.0", R1, C1, BOTH), ("2.0.0", R2, C2, BOTH),
                                     ("3.0.0", R1, C1, ["vllm serve"]), ("4.0.0", R1, None, None),
                                     ("5.0.0", R1, "absent", None), ("6.0.0", R6, C6, BOTH)):
        rec = _record(v, opts, {})
        if checks == "absent":
            pass  # a release file built before serve_checks was scraped
        elif checks is None:
            rec["serve_checks"] = None
        else:
            rec["serve_checks"] = {"function": "x.py", "entries": entries, "checks": checks}
        if v == "6.0.0":
            rec["config_checks"] = config_checks
        releases[v] = rec
    db = Database(build_releases(tmp_path_factory.mktemp("vl112db"), releases))
    return {v: Linter(db, Settings(target_version=v), select_rules(["VL112"], [])) for v in releases}


def found(linter, text: str, name: str = "t.sh") -> list:
    diags = linter.analyse(Path(name), text.encode(), mode="auto", fmt="python" if name.endswith(".py") else "shell").diagnostics
    return sorted((d.option, d.severity) for d in diags if d.code == "VL112")


TOOL = [("--enable-tool", "error")]
THINK = [("--enable-think", "error")]


@pytest.mark.parametrize("version, line, want", [
    ("1.0.0", "m --enable-tool", TOOL),
    ("1.0.0", "m --enable-tool --tool-parser x", []),
    ("1.0.0", "m --tool-parser x --enable-tool", []),
    ("1.0.0", "m --enable-tool --tool-parser ''", TOOL),
    ("1.0.0", "m --enable-to --tool-parser=", TOOL),            # abbreviation, empty inline value
    ("1.0.0", "m --enable-tool=1 --tool-parser x", []),         # a switch given a value: the parser refuses first
    ("1.0.0", "m --enable-tool --tool-parser \"$P\"", []),      # opaque value
    ("1.0.0", "m --enable-tool \"$MORE\"", []),                 # a variable where an option could be
    ("1.0.0", "m --enable-tool $MORE", []),                     # splat
    ("1.0.0", "m --enable-tool \"$@\"", []),
    ("1.0.0", "m --enable-tool --config c.yaml", []),           # the file may name the parser
    ("1.0.0", "m --enable-tool --bogus 1", []),                 # the parser refuses the unknown option first
    ("1.0.0", "m --enable-tool --port", []),                    # a missing value: refused first
    ("1.0.0", "m --enable-tool --version", []),                 # prints and exits
    ("1.0.0", "\"$MODEL\" --enable-tool", TOOL),                # the positional model may be a variable
    ("1.0.0", "m --enable-think", THINK),
    ("1.0.0", "m --enable-think --think-parser alpha", []),
    ("1.0.0", "m --enable-think --think-parser None", []),      # None is no choice here: refused first
    ("1.0.0", "m --enable-think --think-parser gamma", []),     # an invalid choice is refused first (VL105)
    ("1.0.0", "m --enable-think --think-parser ''", []),        # '' is None, not a choice: refused first
    ("1.0.0", "m --enable-tool --tool-parser x --enable-think --think-parser beta", TOOL),   # the conflict
    ("1.0.0", "m --enable-tool --enable-think --think-parser beta", TOOL),  # vLLM raises at the first
    ("1.0.0", "m --level 2", [("--level", "error")]),
    ("1.0.0", "m --level 0", []),
    ("1.0.0", "m --level 2 --ratio 0.5", []),
    ("1.0.0", "m --level 2 --ratio 0", [("--level", "error")]),
    ("1.0.0", "m --level two", []),                             # not an int: unknown
    ("1.0.0", "m --flag-value true", [("--flag-value", "error")]),
    ("1.0.0", "m --flag-value false", []),
    ("1.0.0", "m --flag-value maybe", []),
    ("1.0.0", "m --flag-value true --tool-parser-plugin p.py", []),
    ("2.0.0", "m --enable-out", [("--enable-out", "error")]),
    ("2.0.0", "m --enable-out --enable-req", []),
    ("2.0.0", "m --enable-out --disable-req", [("--enable-out", "error")]),
    ("2.0.0", "m --enable-req --enable-out --no-enable-req", [("--enable-out", "error")]),
    ("2.0.0", "m --disable-req --enable-out --enable-req", []),
    ("2.0.0", "m --enable-out --disable-out", []),
    ("2.0.0", "m --enable-out=true --enable-req", []),
    ("2.0.0", "m --enable-metrics --disable-stats", [("--enable-metrics", "error")]),
    ("2.0.0", "m --disable-stats --enable-metrics", [("--enable-metrics", "error")]),
    ("2.0.0", "m --enable-metrics", []),
    ("2.0.0", "m --no-enable-metrics --disable-stats", []),
    ("2.0.0", "m --enable-metrics --disable-stats --no-enable-metrics", []),
    ("2.0.0", "m --enable-x", []),                              # B's default is not a constant
    ("2.0.0", "m --enable-y", []),                              # B's options disagree on the default
    ("2.0.0", "m --enable-y --y-one ''", [("--enable-y", "error")]),
    ("2.0.0", "m --enable-y --y-two ''", [("--enable-y", "error")]),
    ("3.0.0", "m --enable-tool", TOOL),                         # serve runs the check here
    ("4.0.0", "m --enable-tool", []),                           # no validator at this release
    ("5.0.0", "m --enable-tool", []),                           # a release file without the key
    ("6.0.0", "m -mlb", [("--multi-lb", "error")]),             # --dp-size 1 by default: below 2
    ("6.0.0", "m -mlb -dp 2", [("--multi-lb", "error")]),       # no --dp-local
    ("6.0.0", "m -mlb -dp 2 -dpl 2", []),
    ("6.0.0", "m -mlb -dp 2 -dpl 4", [("--multi-lb", "error")]),  # local above the whole
    ("6.0.0", "m -mlb -dp 4 -dpl 2 --servers 1", []),
    ("6.0.0", "m -mlb -dp 4 -dpl 2 --servers 2", [("--multi-lb", "error")]),
    ("6.0.0", "m -mlb -dp 4 -dpl 2 --sock /s", [("--multi-lb", "error")]),
    ("6.0.0", "m -mlb -dp 4 -dpl 2 --sock None", []),           # the optional word None is None
    ("6.0.0", "m -mlb -dp x -dpl 2", []),                       # not a number: not known
    ("6.0.0", "m -mlb -dp \"$N\" -dpl 2", []),
    ("6.0.0", "m -mlb -dp 2 -dpl 2 $MORE", []),                 # words we cannot see
    ("6.0.0", "m -dp 1", []),                                   # the guarded option is not set
    ("6.0.0", "m --keep-alive -1", [("--keep-alive", "error")]),
    ("6.0.0", "m --keep-alive 0", []),
    ("6.0.0", "m --grpc-port 5", []),                           # vllm serve: the subcommand is serve
    # a config class start-up builds from plain options (config_checks); a list option's truth
    ("6.0.0", "m --traces worker model", [("--traces", "error")]),
    ("6.0.0", "m --traces worker --trace-endpoint http://h:4317", []),
    ("6.0.0", "m --traces \"$T\"", []),
    ("6.0.0", "m --traces nope", []),                           # no choice: refused by the parser first
])
def test_serve_lines(linters, version, line, want):
    assert found(linters[version], f"vllm serve {line}\n") == want


@pytest.mark.parametrize("version, text, want", [
    ("1.0.0", "python -m vllm.entrypoints.openai.api_server --model m --enable-tool\n", TOOL),
    ("3.0.0", "python -m vllm.entrypoints.openai.api_server --model m --enable-tool\n", []),  # not an entry here
    ("1.0.0", "python -m vllm.entrypoints.api_server --model m --enable-tool\n", []),  # the demo server
    ("1.0.0", "python -m dynamo.vllm --model m --enable-tool\n", []),                 # a wrapper
    ("1.0.0", "docker run --gpus all vllm/vllm-openai:v1.0.0 --model m --enable-tool\n", TOOL),
    ("6.0.0", "python -m vllm.entrypoints.openai.api_server --model m --grpc-port 5\n", [("--grpc-port", "error")]),
    ("6.0.0", "python -m dynamo.vllm --model m --traces all\n", []),             # a wrapper builds its own
])
def test_entries(linters, version, text, want):
    assert found(linters[version], text) == want


@pytest.mark.parametrize("text, want", [
    ("from vllm import LLM\nLLM(model='m', enable_tool=True)\n", []),
    ("from vllm import EngineArgs\nEngineArgs(model='m', enable_tool=True)\n", []),
    ("import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--enable-tool'])\n", TOOL),
    ("import subprocess\nsubprocess.run(['vllm', 'serve', 'm', '--enable-tool', *extra])\n", []),
])
def test_python(linters, text, want):
    assert found(linters["1.0.0"], text, "app.py") == want


def test_defaults_are_read_from_an_index_built_once_per_release():
    """The settings a check reads come from the release's options by destination, built once: the
    option list is walked once per release, not once per setting a check asks about (the list has
    ~300-700 options and a launch-dense tree asks thousands of times)."""
    from types import SimpleNamespace

    from vllm_lint.rules import vl112_refused_option_combination as vl112
    from vllm_lint.surface.db import Surface

    class Counting(list):
        walks = 0

        def __iter__(self):
            Counting.walks += 1
            return super().__iter__()

    surface = Surface(_record("0.7.0", R1, {}))
    names = [o.dest for o in surface.options]
    surface.options = Counting(surface.options)
    ctx = SimpleNamespace(surface=surface)
    truths = [vl112._default_truth(ctx, d) for d in names * 20]
    assert Counting.walks == 1
    assert truths[names.index("enable_tool")] is False
    assert vl112._default_truth(ctx, "not_an_option") is vl112._UNKNOWN


def test_a_when_check_says_what_holds(linters):
    diags = linters["6.0.0"].analyse(Path("t.sh"), b"vllm serve m -mlb -dp 4 -dpl 8\n", mode="auto",
                                     fmt="shell").diagnostics
    (d,) = [d for d in diags if d.code == "VL112"]
    assert "`-mlb`" in d.message and "`-dpl` 8 above `--dp-size` 4" in d.message and "vLLM 6.0.0" in d.message
    diags = linters["6.0.0"].analyse(Path("t.sh"), b"vllm serve m --traces all\n", mode="auto", fmt="shell").diagnostics
    (d,) = [d for d in diags if d.code == "VL112"]
    assert "TraceConfig raises when start-up builds it" in d.message and "without `--trace-endpoint`" in d.message
