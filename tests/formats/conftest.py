"""The formats' tests: each format's folder (cases, snapshots, its front-end's tests) and
``_shared/``, the tests and helpers of the machinery every format uses."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# the helpers of _shared/ (span_invariants, read_and_fix), importable from every format's folder
sys.path.insert(0, str(Path(__file__).resolve().parent / "_shared"))


@pytest.fixture(autouse=True)
def _isolated_hf(isolated_hf):
    """No case reads the user's Hugging Face cache or the vllm-lint cache, or reaches the hub."""
    yield
