"""serve_checks over synthetic source trees: which statements of the serve validator are recorded,
and which entry points are found to call it."""

from __future__ import annotations

import textwrap

import pytest

from vllm_lint.scrape.pyresolve import Project
from vllm_lint.scrape.serve_checks import serve_checks
from vllm_lint.scrape.tree import DictTree

OPTIONS = [{"name": "--" + d.replace("_", "-"), "dest": d} for d in (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")] + [
    {"name": "--iota-long", "dest": "iota"}, {"name": "-i", "dest": "iota"}]

SERVE = """
from vllm.entrypoints.openai.cli_args import validate_parsed_serve_args

class ServeSubcommand:
    def validate(self, args):
        validate_parsed_serve_args(args)
"""


def tree(validator_body: str, *, serve: str = SERVE, api: str | None = None, extra: dict | None = None) -> Project:
    files = {
        "vllm/entrypoints/cli/serve.py": serve,
        "vllm/entrypoints/openai/cli_args.py":
            "def validate_parsed_serve_args(ns):\n" + textwrap.indent(textwrap.dedent(validator_body), "    "),
    }
    if api is not None:
        files["vllm/entrypoints/openai/api_server.py"] = api
    files.update(extra or {})
    return Project(DictTree({k: textwrap.dedent(v).encode() for k, v in files.items()}))


def checks(body: str, **kw) -> list:
    return [(c["kind"], *c["dests"]) if c["kind"] != "when" else
            ("when", *[" ".join(str(x) for x in (t["dest"], t["test"], t.get("value", t.get("values", t.get("dest2", ""))))
                            ).strip() for t in c["when"]])
            for c in serve_checks(tree(body, **kw), OPTIONS)["checks"]]


@pytest.mark.parametrize("body, want", [
    ("if ns.alpha and not ns.beta:\n    raise TypeError('x')\n", [("requires", "alpha", "beta")]),
    ("if ns.alpha and ns.beta:\n    raise ValueError('x')\n", [("conflicts", "alpha", "beta")]),
    ("if getattr(ns, 'alpha', False) and getattr(\n    ns, 'beta', None\n):\n    raise ValueError('x')\n",
     [("conflicts", "alpha", "beta")]),
    ("if getattr(ns, 'alpha') and not getattr(ns, 'beta', 0):\n    raise ValueError\n", [("requires", "alpha", "beta")]),
    # the subcommand guard is passed; calls of values and imports are passed; comparisons are read
    ("if hasattr(ns, 'subparser') and ns.subparser != 'serve':\n    return\ncheck(ns.alpha)\n"
     "import os\nif ns.gamma < 0:\n    raise ValueError\nif ns.alpha and not ns.beta:\n    raise TypeError\n",
     [("when", "gamma < 0"), ("requires", "alpha", "beta")]),
    ("if hasattr(ns, 'subparser') and ns.subparser not in ('serve', 'launch'):\n    return\n"
     "if ns.alpha and ns.beta:\n    raise TypeError\n", [("conflicts", "alpha", "beta")]),
    # conditions beyond pairs: a conjunction per way the test holds
    ("if ns.alpha and ns.beta and ns.gamma:\n    raise TypeError\n", [("when", "alpha set", "beta set", "gamma set")]),
    ("if ns.alpha or ns.beta:\n    raise TypeError\n", [("when", "alpha set"), ("when", "beta set")]),
    ("if not ns.alpha and ns.beta:\n    raise TypeError\n", [("when", "alpha unset", "beta set")]),
    ("if ns.alpha and bool(ns.beta):\n    raise TypeError\n", [("conflicts", "alpha", "beta")]),
    ("if bool(ns.alpha) != bool(ns.beta):\n    raise TypeError\n",
     [("requires", "alpha", "beta"), ("when", "alpha unset", "beta set")]),
    ("if ns.alpha is not None and ns.beta not in (None, 1):\n    raise TypeError\n",
     [("when", "alpha not_none", "beta not_in [None, 1]")]),
    ("if not 0 <= ns.alpha <= 9:\n    raise TypeError\n", [("when", "alpha < 0"), ("when", "alpha > 9")]),
    ("if 2 > ns.alpha:\n    raise TypeError\n", [("when", "alpha < 2")]),
    ("if ns.alpha > ns.beta:\n    raise TypeError\n", [("when", "alpha > beta")]),
    ("if getattr(ns, 'subparser', None) != 'serve' and ns.alpha:\n    raise TypeError\n",
     [("when", "subparser != serve", "alpha set")]),
    # a part the reader cannot state drops that way of holding, not the others
    ("if ns.alpha and check(ns.beta):\n    raise TypeError\n", []),
    ("if check(ns.beta) or ns.alpha:\n    raise TypeError\n", [("when", "alpha set")]),
    # not checks: an else, more than the raise, another object, an attribute of a value
    ("if ns.alpha and ns.beta:\n    raise TypeError\nelse:\n    pass\n", []),
    ("if ns.alpha and ns.beta:\n    log('x')\n    raise TypeError\n", []),
    ("if ns.alpha and ns.beta:\n    log('x')\n", []),
    ("if other.alpha and other.beta:\n    raise TypeError\n", []),
    ("if ns.alpha.x and ns.beta:\n    raise TypeError\n", []),
    # a dest that is no option of the release
    ("if ns.alpha and not ns.nothing:\n    raise TypeError\n", []),
    # an early return guards what follows where its negation is one conjunction; otherwise it ends
    # what is certain
    ("if ns.alpha and ns.beta:\n    raise TypeError\nif ns.gamma:\n    return\nif ns.delta and ns.epsilon:\n"
     "    raise TypeError\n", [("conflicts", "alpha", "beta"), ("when", "gamma unset", "delta set", "epsilon set")]),
    ("if ns.gamma and ns.zeta:\n    return\nif ns.delta and ns.epsilon:\n    raise TypeError\n", []),
    ("for x in ns.items:\n    if x:\n        return\nif ns.alpha and ns.beta:\n    raise TypeError\n", []),
    ("if hasattr(ns, 'subparser') and ns.subparser != 'run':\n    return\nif ns.alpha and ns.beta:\n"
     "    raise TypeError\n", []),
    # a nested function's return is not the validator's
    ("def helper():\n    return 1\nif ns.alpha and ns.beta:\n    raise TypeError\n", [("conflicts", "alpha", "beta")]),
    # a dest assigned before its check is dropped; the others stay
    ("ns.beta = True\nif ns.alpha and not ns.beta:\n    raise TypeError\nif ns.gamma and ns.delta:\n    raise TypeError\n",
     [("conflicts", "gamma", "delta")]),
    ("if ns.zeta:\n    ns.alpha = False\nif ns.alpha and ns.beta:\n    raise TypeError\n", []),
    ("setattr(ns, 'beta', 1)\nif ns.alpha and ns.beta:\n    raise TypeError\n", []),
    ("ns.eta += 1\nif ns.alpha and ns.beta:\n    raise TypeError\nif ns.eta and ns.theta:\n    raise TypeError\n",
     [("conflicts", "alpha", "beta")]),
])
def test_recorded_shapes(body, want):
    assert checks(body) == want


HELPER = """
def check_lb(a):
    if getattr(a, "delta", None) is None:
        return
    if a.epsilon:
        raise ValueError
    size = a.zeta
    if size is None or size < 2:
        raise ValueError
"""


@pytest.mark.parametrize("body, want", [
    # a validator called under a condition, imported in the branch; its early return is its own
    ("if ns.alpha:\n    from vllm.lb import check_lb\n\n    check_lb(ns)\nif ns.beta and ns.gamma:\n    raise X\n",
     [("when", "alpha set", "delta not_none", "epsilon set"), ("when", "alpha set", "delta not_none", "zeta none"),
      ("when", "alpha set", "delta not_none", "zeta < 2"), ("conflicts", "beta", "gamma")]),
    # called at the top level, bound in the module
    ("check_lb(ns)\n", [("when", "delta not_none", "epsilon set"), ("when", "delta not_none", "zeta none"),
                        ("when", "delta not_none", "zeta < 2")]),
    # a value, not the namespace, is passed: not followed
    ("check_lb(ns.alpha)\n", []),
    # the branch does more than call it: not followed
    ("if ns.alpha:\n    log(1)\n    check_lb(ns)\n", []),
])
def test_called_validators(body, want):
    extra = {"vllm/lb.py": HELPER}
    if body.startswith("check_lb"):
        extra["vllm/entrypoints/openai/cli_args.py"] = (
            "from vllm.lb import check_lb\n\ndef validate_parsed_serve_args(ns):\n" + textwrap.indent(body, "    "))
    assert checks(body, extra=extra) == want


def test_option_names_prefer_the_dest_spelling():
    out = serve_checks(tree("if ns.iota and not ns.alpha:\n    raise TypeError\n"), OPTIONS)
    assert out["checks"] == [{"kind": "requires", "dests": ["iota", "alpha"], "options": ["--iota-long", "--alpha"]}]
    assert out["function"] == "vllm/entrypoints/openai/cli_args.py"


API_DIRECT = """
from vllm.entrypoints.openai.cli_args import validate_parsed_serve_args

if __name__ == "__main__":
    args = parse()
    validate_parsed_serve_args(args)
"""
API_THROUGH_MAIN = """
if __name__ == "__main__":
    from vllm.entrypoints.launch_entry import main

    main()
"""
LAUNCH_ENTRY = """
def main():
    from vllm.entrypoints.openai.cli_args import validate_parsed_serve_args

    validate_parsed_serve_args(parse())
"""
API_NO_CALL = """
if __name__ == "__main__":
    run()
"""


@pytest.mark.parametrize("serve, api, extra, want", [
    (SERVE, API_DIRECT, None, ["openai.api_server", "vllm serve"]),
    (SERVE, API_THROUGH_MAIN, {"vllm/entrypoints/launch_entry.py": LAUNCH_ENTRY}, ["openai.api_server", "vllm serve"]),
    (SERVE, API_THROUGH_MAIN, {"vllm/entrypoints/launch_entry.py": "def main():\n    run()\n"}, ["vllm serve"]),
    (SERVE, API_NO_CALL, None, ["vllm serve"]),
    (SERVE, None, None, ["vllm serve"]),
    ("from vllm.entrypoints.openai.cli_args import validate_parsed_serve_args\n", API_DIRECT, None,
     ["openai.api_server"]),
])
def test_entries(serve, api, extra, want):
    out = serve_checks(tree("if ns.alpha and ns.beta:\n    raise TypeError\n", serve=serve, api=api, extra=extra),
                       OPTIONS)
    assert out["entries"] == want and out["checks"] == [{"kind": "conflicts", "dests": ["alpha", "beta"],
                                                         "options": ["--alpha", "--beta"]}]


def test_no_validator_is_none():
    p = Project(DictTree({"vllm/entrypoints/cli/serve.py": b"def run(args):\n    pass\n",
                          "vllm/entrypoints/openai/api_server.py": API_NO_CALL.encode()}))
    assert serve_checks(p, OPTIONS) is None
    assert serve_checks(Project(DictTree({})), OPTIONS) is None


def test_config_classes_plain_options_feed():
    """option_class_checks: a config class that a create_*_config helper of EngineArgs builds,
    its checks over the options feeding its fields; a class built with the model, a field
    EngineArgs rewrites, a computed default are left out."""
    from vllm_lint.scrape.serve_checks import option_class_checks

    files = {
        "vllm/config/__init__.py": textwrap.dedent('''
            from dataclasses import dataclass

            @dataclass
            class TraceConfig:
                detail: bool = False
                endpoint: str | None = None
                rate: int = 0

                def __post_init__(self):
                    if self.detail and not self.endpoint:
                        raise ValueError("x")
                    if self.rate < 0:
                        raise ValueError("y")

            @dataclass
            class ModelConfig:
                trust: bool = False
                revision: str | None = None

                def __post_init__(self):
                    if self.trust and not self.revision:
                        raise ValueError("z")
            '''),
        "vllm/engine/arg_utils.py": textwrap.dedent('''
            from vllm.config import ModelConfig, TraceConfig

            class EngineArgs:
                def create_trace_config(self):
                    return TraceConfig(detail=self.detail, endpoint=self.endpoint, rate=self.rate)

                def create_model_config(self):
                    return ModelConfig(trust=self.trust, revision=self.revision)

                def fix(self):
                    self.rate = max(self.rate, 0)
            '''),
    }
    p = Project(DictTree({k: v.encode() for k, v in files.items()}))
    opts = [{"name": "--detail", "dest": "detail", "config": "TraceConfig.detail"},
            {"name": "--endpoint", "dest": "endpoint", "config": "TraceConfig.endpoint"},
            {"name": "--rate", "dest": "rate", "config": "TraceConfig.rate"},
            {"name": "--trust", "dest": "trust", "config": "ModelConfig.trust"},
            {"name": "--revision", "dest": "revision", "config": "ModelConfig.revision"}]
    got = option_class_checks(p, opts, lambda name: p.find_class("vllm.config", name))
    assert got == [{"class": "TraceConfig", "kind": "when", "when": [
        {"dest": "detail", "test": "set", "option": "--detail"},
        {"dest": "endpoint", "test": "unset", "option": "--endpoint"}]}]


EFFORT = """
from typing import Any, Literal, get_args

Effort = Literal["low", "medium", "high"]


def validate_effort_map(effort_map: Any) -> None:
    if effort_map is None:
        return

    efforts = get_args(Effort)
    if not isinstance(effort_map, dict) or not all(
        isinstance(value, str) for value in effort_map.values()
    ):
        raise ValueError("must be a JSON object of strings")
    if unknown := sorted(set(effort_map) - set(efforts)):
        raise ValueError(f"unknown efforts {unknown}")
"""


def test_a_value_the_validator_checks_by_itself():
    """0.33+: validate_parsed_serve_args calls validate_reasoning_effort_map on one option's value:
    an object of strings whose keys are a Literal's values."""
    extra = {"vllm/entrypoints/openai/efforts.py": EFFORT}
    body = ("from vllm.entrypoints.openai.efforts import validate_effort_map\n"
            "validate_effort_map(getattr(ns, 'alpha', None))\n")
    got = serve_checks(tree(body, extra=extra), OPTIONS)
    assert got["values"] == {"alpha": {"option": "--alpha", "object": True, "values": "str",
                                       "keys": ["low", "medium", "high"]}}
    # a body of another shape (no key check) is no fact
    extra = {"vllm/entrypoints/openai/efforts.py": EFFORT.replace("set(effort_map) - set(efforts)", "[]")}
    assert "values" not in serve_checks(tree(body, extra=extra), OPTIONS)
