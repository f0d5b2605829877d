"""device_id_checks over synthetic EngineArgs sources: the start-up method that resolves device ids
through the platform is found only where create_engine_config calls it on every start."""

from __future__ import annotations

import textwrap

from vllm_lint.scrape.pyresolve import Project
from vllm_lint.scrape.serve_checks import device_id_checks
from vllm_lint.scrape.tree import DictTree

OPTIONS = [{"name": "--device-ids", "dest": "device_ids"}, {"name": "--tp", "dest": "tp"}]

ADD = """
    @staticmethod
    def add_cli_args(parser):
        parser.add_argument(
            "--device-ids",
            type=lambda s: [int(p) if p.isdigit() else p for p in (x.strip() for x in s.split(","))],
        )
"""

RESOLVE = """
    def _resolve_device_ids(self):
        if not self.device_ids:
            return None
        ids = self.device_ids
        if len(set(ids)) != len(ids):
            raise ValueError("duplicates")
        if all(isinstance(i, str) for i in ids):
            return [current_platform.device_control_id_to_physical_device_id(i) for i in ids]
        if any(isinstance(i, str) for i in ids):
            raise ValueError("mixed")
        return ids
"""


def project(engine_body: str, resolve: str = RESOLVE, add: str = ADD) -> Project:
    src = "class EngineArgs:\n" + textwrap.dedent(add).replace("\n", "\n    ").rstrip() + "\n" \
        + textwrap.indent(textwrap.dedent(resolve), "    ") \
        + "    def create_engine_config(self):\n" + textwrap.indent(textwrap.dedent(engine_body), "        ")
    return Project(DictTree({"vllm/engine/arg_utils.py": src.encode()}))


def test_found_with_its_checks_and_item_shape():
    got = device_id_checks(project("parallel = ParallelConfig(tp=self.tp, ids=self._resolve_device_ids())\n"
                                   "return parallel\n"), OPTIONS)
    assert got == [{"dest": "device_ids", "option": "--device-ids", "method": "_resolve_device_ids",
                    "items": "comma_digits", "checks": ["not_mixed", "platform_ids", "unique"]}]


def test_a_call_under_a_condition_is_not_every_start():
    assert device_id_checks(project("if self.tp:\n    ids = self._resolve_device_ids()\nreturn 1\n"), OPTIONS) == []


def test_a_method_without_the_platform_lookup_is_not_recorded():
    plain = RESOLVE.replace("current_platform.device_control_id_to_physical_device_id(i)", "i")
    assert device_id_checks(project("x = self._resolve_device_ids()\n", resolve=plain), OPTIONS) == []


def test_only_the_checks_the_source_raises_on():
    lenient = RESOLVE.replace('        if len(set(ids)) != len(ids):\n            raise ValueError("duplicates")\n', "")
    got = device_id_checks(project("x = self._resolve_device_ids()\n", resolve=lenient), OPTIONS)
    assert got[0]["checks"] == ["not_mixed", "platform_ids"]


def test_another_type_leaves_the_item_shape_unknown():
    add = ADD.replace('type=lambda s: [int(p) if p.isdigit() else p for p in (x.strip() for x in s.split(","))]',
                      "type=str")
    got = device_id_checks(project("x = self._resolve_device_ids()\n", add=add), OPTIONS)
    assert got[0]["items"] is None
