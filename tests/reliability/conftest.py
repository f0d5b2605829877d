"""Reliability suite: property tests (hypothesis), the bad-input matrix, crash-safe and concurrent
fixing, scraper hardening. ``synth_db_path`` and ``run_cli`` come from tests/conftest.py.

Hypothesis profiles (select with ``HYPOTHESIS_PROFILE``):

* ``quick`` (default): 50 examples per property, derandomized, for the README's test command
  (under a minute on two cores, tests/README.md "Timing").
* ``ci`` (``.ci/run`` sets it): 200 examples per property, derandomized (the same inputs on every
  run, so CI is reproducible), no deadline (shared machines), no example database written.
* ``nightly``: 5000 examples per property, randomized, for a scheduled job.
* ``dev``: 30 examples, for quick local iteration.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, str(Path(__file__).resolve().parent))

_COMMON = dict(deadline=None, database=None, print_blob=True,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.filter_too_much])
settings.register_profile("quick", max_examples=50, derandomize=True, **_COMMON)
settings.register_profile("ci", max_examples=200, derandomize=True, **_COMMON)
settings.register_profile("nightly", max_examples=5000, derandomize=False, **_COMMON)
settings.register_profile("dev", max_examples=30, derandomize=True, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


from reliability_support import cli_env  # noqa: E402,F401  (kept importable from here)
