"""Issue 29, sixth pass, over synthetic sources: a serve check that tests an environment variable
(``envs.X``), the resolvers ``EngineArgs.__post_init__`` calls (``resolver_checks``), the item
checks of a list field's after validator (``start_fields.<dest>.items``) and choices the platform
adds to (``choices_platform``)."""

from __future__ import annotations

import textwrap

from vllm_lint.scrape.argparse_calls import _platform_choices
from vllm_lint.scrape.extract import _Extractor
from vllm_lint.scrape.pyresolve import Project
from vllm_lint.scrape.serve_checks import resolver_checks, serve_checks
from vllm_lint.scrape.tree import DictTree

import libcst as cst


def _project(files: dict) -> Project:
    return Project(DictTree({k: textwrap.dedent(v).encode() for k, v in files.items()}))


def test_a_check_of_an_environment_variable_is_a_test_of_its_truth():
    validator = """
    import vllm.envs as envs

    def validate_parsed_serve_args(args):
        if getattr(args, "grpc_port", None) is None:
            return
        if not envs.VLLM_USE_RUST_FRONTEND or getattr(args, "subparser", None) != "serve":
            raise ValueError("x")
        if os_thing.lower_name:
            raise ValueError("not read: no envs module")
    """
    serve = "from vllm.entrypoints.openai.cli_args import validate_parsed_serve_args\n" \
            "def f(args):\n    validate_parsed_serve_args(args)\n"
    p = _project({"vllm/__init__.py": "", "vllm/envs.py": "VLLM_USE_RUST_FRONTEND = 0\n",
                  "vllm/entrypoints/cli/serve.py": serve, "vllm/entrypoints/openai/cli_args.py": validator})
    got = serve_checks(p, [{"name": "--grpc-port", "dest": "grpc_port"}])["checks"]
    assert got == [
        {"kind": "when", "when": [{"dest": "grpc_port", "option": "--grpc-port", "test": "not_none"},
                                  {"dest": "env:VLLM_USE_RUST_FRONTEND", "env": "VLLM_USE_RUST_FRONTEND",
                                   "test": "unset"}]},
        {"kind": "when", "when": [{"dest": "grpc_port", "option": "--grpc-port", "test": "not_none"},
                                  {"dest": "subparser", "test": "!=", "value": "serve"}]}]


QUANT = """
_ONLINE_SHORTHANDS = {"fp8_per_tensor": 1, "mxfp8": 2}
ONLINE_QUANT_SHORTHAND_NAMES = (*_ONLINE_SHORTHANDS.keys(), "online")


def resolve_quantization_config(quantization, quantization_config):
    if quantization is not None and quantization not in ONLINE_QUANT_SHORTHAND_NAMES:
        if quantization_config is not None:
            raise ValueError("x")
        return None
    return quantization_config
"""

ENGINE = """
class EngineArgs:
    quantization: str = None
    quantization_config: dict = None

    def __post_init__(self):
        from vllm.config.quantization import resolve_quantization_config

        self.quantization_config = resolve_quantization_config(self.quantization, self.quantization_config)
"""

QUANT_OPTIONS = [{"name": "--quantization", "dest": "quantization"},
                 {"name": "--quantization-config", "dest": "quantization_config"}]


def test_a_resolver_post_init_calls_on_its_fields():
    p = _project({"vllm/__init__.py": "", "vllm/config/__init__.py": "", "vllm/config/quantization.py": QUANT,
                  "vllm/engine/__init__.py": "", "vllm/engine/arg_utils.py": ENGINE})
    assert resolver_checks(p, QUANT_OPTIONS) == [{"class": "EngineArgs", "kind": "when", "when": [
        {"dest": "quantization", "option": "--quantization", "test": "not_none"},
        {"dest": "quantization", "option": "--quantization", "test": "not_in",
         "values": ["fp8_per_tensor", "mxfp8", "online"]},
        {"dest": "quantization_config", "option": "--quantization-config", "test": "not_none"}]}]
    # 0.33+: the branch composes them instead of raising; an assignment first hides the field
    composed = QUANT.replace('            raise ValueError("x")\n', '            return quantization_config\n')
    p = _project({"vllm/__init__.py": "", "vllm/config/__init__.py": "", "vllm/config/quantization.py": composed,
                  "vllm/engine/__init__.py": "", "vllm/engine/arg_utils.py": ENGINE})
    assert resolver_checks(p, QUANT_OPTIONS) == []
    assigned = ENGINE.replace("    def __post_init__(self):\n",
                              "    def __post_init__(self):\n        self.quantization = 'x'\n")
    p = _project({"vllm/__init__.py": "", "vllm/config/__init__.py": "", "vllm/config/quantization.py": QUANT,
                  "vllm/engine/__init__.py": "", "vllm/engine/arg_utils.py": assigned})
    assert resolver_checks(p, QUANT_OPTIONS) == []


PARALLEL = '''
import re
from pydantic import field_validator
from pydantic.dataclasses import dataclass

_CPUSET = re.compile(r"^\\d+(?:-\\d+)?(?:,\\d+(?:-\\d+)?)*$")


@dataclass
class ParallelConfig:
    numa_bind_nodes: list[int] | None = None
    numa_bind_cpus: list[str] | None = None

    @field_validator("numa_bind_nodes")
    @classmethod
    def _nodes(cls, value):
        if value is None:
            return None
        if any(node < 0 for node in value):
            raise ValueError("x")
        return value

    @field_validator("numa_bind_cpus")
    @classmethod
    def _cpus(cls, value):
        if value is None:
            return None
        for cpuset in value:
            if not cpuset:
                raise ValueError("x")
            if not _CPUSET.fullmatch(cpuset):
                raise ValueError("x")
            for part in cpuset.split(","):
                if "-" not in part:
                    continue
                start_str, end_str = part.split("-", 1)
                if int(start_str) > int(end_str):
                    raise ValueError("x")
        return value
'''

PARALLEL_ENGINE = """
from vllm.config import ParallelConfig


class EngineArgs:
    numa_bind_nodes: list = None
    numa_bind_cpus: list = None

    def create_engine_config(self):
        return ParallelConfig(numa_bind_nodes=self.numa_bind_nodes, numa_bind_cpus=self.numa_bind_cpus)
"""


def test_items_an_after_validator_refuses():
    tree = DictTree({"vllm/__init__.py": b"", "vllm/engine/__init__.py": b"",
                     "vllm/config/__init__.py": textwrap.dedent(PARALLEL).encode(),
                     "vllm/engine/arg_utils.py": textwrap.dedent(PARALLEL_ENGINE).encode()})
    options = [{"name": "--numa-bind-nodes", "dest": "numa_bind_nodes", "nargs": "+", "type": "int"},
               {"name": "--numa-bind-cpus", "dest": "numa_bind_cpus", "nargs": "+", "type": "str"}]
    got = _Extractor(Project(tree), "0.0.0")._start_fields(options)
    assert got == {
        "numa_bind_nodes": {"class": "ParallelConfig", "option": "--numa-bind-nodes", "items": {"ge": 0}},
        "numa_bind_cpus": {"class": "ParallelConfig", "option": "--numa-bind-cpus", "items": {
            "nonempty": True, "ascending": True, "pattern": r"^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$"}}}


def test_choices_the_platform_adds_to():
    def call(text):
        return cst.parse_expression(text)

    assert _platform_choices(call('g.add_argument("--d", choices=["auto", "cpu"] + ([current_platform.device_type] '
                                  'if current_platform.device_type not in ("", "cpu") else []))')) == ["auto", "cpu"]
    assert _platform_choices(call('g.add_argument("--d", choices=["auto"] + other_list)')) is None
    assert _platform_choices(call('g.add_argument("--d", choices=[x, "cpu"] + [current_platform.device_type])')) is None
