"""knowledge.device_ids: what start-up refuses in --device-ids, given the scraped facts."""

from __future__ import annotations

import pytest

from vllm_lint.knowledge.device_ids import device_ids_problem

ALL = {"items": "comma_digits", "checks": ["not_mixed", "platform_ids", "unique"]}


@pytest.mark.parametrize("value, refused", [
    ("0", False), ("0,1, 2", False), ("GPU-5d1c", False), ("mig-1,GPU-2", False),
    ("-1", False),            # not digits, so a string; int("-1") still passes the platform
    ("auto", True), ("cuda", True), ("", True), ("/tmp/x", True),
    ("1,1", True), ("01,1", True),   # both become the integer 1
    ("0,GPU-5d1c", True), ("0,-1", True),   # an integer and a string
])
def test_refusals(value, refused):
    assert (device_ids_problem("--device-ids", value, ALL) is not None) is refused


def test_only_the_scraped_checks_and_known_item_shapes():
    assert device_ids_problem("--device-ids", "1,1", dict(ALL, checks=["platform_ids"])) is None
    assert device_ids_problem("--device-ids", "auto", dict(ALL, items=None)) is None
