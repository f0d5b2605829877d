"""What a release refuses inside an option's type, over a synthetic release: dotted keys on an
option that takes no JSON, ``key+`` on a field that is no list, a string a validator looks up as
an enum member's name, and the checks a config class runs once its fields are validated (the
facts of ``json_configs`` that scrape/field_checks.py and scrape/serve_checks.py read)."""

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

OPTIONS = [opt("--model"), opt("--max-len", type="human_int_or_auto", default=None),
           opt("--name"), opt("--kind", choices=["a", "b"], default="a"), opt("--size", ["-s"], type="int", default=1),
           opt("--compile", ["-cc"], kind="json", type="json"), opt("--prof", kind="json", type="json")]
CONFIGS = {
    "compile": {"class": "CompileConfig", "extra": "forbid", "fields": {
        "level": {"type": "int | None", "default": None},
        "sizes": {"type": "list[int] | None", "default": None},
        "graph_mode": {"type": "GraphMode | None", "default": None, "prevalidated": ["null", "str"],
                       "enum_names": {"names": ["NONE", "PIECEWISE", "FULL"], "case": "upper"}},
        "backend": {"type": "Backend | None", "default": None, "prevalidated": ["str"],
                    "enum_names": {"names": ["FLASH_ATTN", "TRITON"], "case": "upper", "also": ["auto"]}}}},
    "prof": {"class": "ProfConfig", "extra": "forbid", "fields": {
        "profiler": {"type": "str | None", "default": None, "choices": ["torch", "cuda"], "choices_enforced": True},
        "dir": {"type": "str", "default": ""},
        "delay": {"type": "int", "default": 0},
        "window": {"type": "int", "default": 0, "default_computed": True}},
        "checks": [
            {"kind": "when", "when": [{"dest": "profiler", "test": "==", "value": "torch", "option": "profiler"},
                                      {"dest": "dir", "test": "unset", "option": "dir"}]},
            {"kind": "when", "when": [{"dest": "delay", "test": "<", "value": 0, "option": "delay"}]},
            {"kind": "when", "when": [{"dest": "delay", "test": ">", "dest2": "window", "option": "delay",
                                       "option2": "window"}]}]},
}


@pytest.fixture(scope="module")
def linters(tmp_path_factory):
    releases = {}
    for v in ("0.8.0", "0.27.0"):
        rec = _record(v, OPTIONS, {})
        rec["json_configs"] = CONFIGS
        releases[v] = rec
    db = Database(build_releases(tmp_path_factory.mktemp("typedb"), releases))
    return {v: Linter(db, Settings(target_version=v), select_rules(["VL105"], [])) for v in releases}


def errors(linter, line: str) -> list[str]:
    diags = linter.analyse(Path("t.sh"), f"vllm serve m {line}\n".encode(), mode="auto", fmt="shell").diagnostics
    return sorted(d.option for d in diags if d.code == "VL105" and d.severity == "error")


@pytest.mark.parametrize("version, line, want", [
    # dotted keys on an option that takes no JSON: its type gets the object as JSON text
    ("0.27.0", "--max-len.mode=3", ["--max-len"]),
    ("0.27.0", "--max-len.a.b 3 --max-len.c 4", ["--max-len"]),
    ("0.27.0", "-s.x 3", ["--size"]),
    ("0.27.0", "--kind.x a", ["--kind"]),                      # no choice is an object
    ("0.27.0", "--name.x 3", []),                              # a string option takes the text
    ("0.27.0", "--max-len.x \"$V\"", []),                      # a value we cannot see
    ("0.8.0", "--max-len.mode=3", []),                         # no dotted keys at this release
    # key+ makes a list of the comma-separated words
    ("0.27.0", "-cc.level+ 3", ["--compile"]),
    ("0.27.0", "-cc.sizes+ 3,4", []),
    # a string looked up as an enum member's name, any case
    ("0.27.0", "-cc.graph_mode full", []),
    ("0.27.0", "-cc.graph_mode FULL", []),
    ("0.27.0", "-cc.graph_mode fool", ["--compile"]),
    ("0.27.0", "-cc.graph_mode 2", []),                        # not a string: the enum's value
    ("0.27.0", "-cc '{\"graph_mode\": \"fool\"}'", ["--compile"]),
    ("0.27.0", "-cc.backend auto", []),                        # passed before the lookup
    ("0.27.0", "-cc.backend flash_attn", []),
    ("0.27.0", "-cc.backend flash", ["--compile"]),
    # the class's own checks, over the keys given and the defaults of the others
    ("0.27.0", "--prof.profiler torch", ["--prof"]),
    ("0.27.0", "--prof.profiler torch --prof.dir /tmp/p", []),
    ("0.27.0", "--prof '{\"profiler\": \"torch\", \"dir\": \"\"}'", ["--prof"]),
    ("0.27.0", "--prof.profiler cuda", []),
    ("0.27.0", "--prof.delay -1", ["--prof"]),
    ("0.27.0", "--prof.delay 5", []),                          # window's default is computed: unknown
    ("0.27.0", "--prof.delay 5 --prof.window 2", ["--prof"]),
    ("0.27.0", "--prof.delay x", ["--prof"]),                  # refused by its type, reported as such
    ("0.8.0", "--prof '{\"profiler\": \"torch\"}'", []),       # keys not validated at this release
])
def test_refused_in_the_type(linters, version, line, want):
    assert errors(linters[version], line) == want


def test_messages_name_what_refuses(linters):
    def message(line):
        diags = linters["0.27.0"].analyse(Path("t.sh"), f"vllm serve m {line}\n".encode(), mode="auto",
                                          fmt="shell").diagnostics
        (d,) = [d for d in diags if d.code == "VL105"]
        return d.message
    assert "JSON text `{\"mode\": 3}`" in message("--max-len.mode=3")
    assert "none, piecewise, full" in message("-cc.graph_mode fool")
    got = message("--prof.profiler torch")
    assert "`profiler` \"torch\"" in got and "no `dir`" in got and "ProfConfig" in got
