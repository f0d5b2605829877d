"""Shared test configuration.

Tests are offline and deterministic by default. Tests marked ``network`` reach PyPI and run only
with ``--run-network``.
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-network", action="store_true", default=False,
                     help="run tests that reach PyPI or GitHub")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-network"):
        return
    skip = pytest.mark.skip(reason="reaches the network; pass --run-network to run")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip)
