from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_hf(isolated_hf):
    """No case reads the user's Hugging Face cache or the vllm-lint cache, or reaches the hub."""
    yield
