"""Which GPU product a configuration names, and its memory (knowledge.hardware)."""

import pytest

from vllm_lint.knowledge.hardware import gpu_family, gpu_memory_gib


@pytest.mark.parametrize("product, family, gib", [
    ("RTX4090", "rtx4090", 24),  # SkyPilot, dstack
    ("NVIDIA GeForce RTX 4090", "rtx4090", 24),  # RunPod
    ("NVIDIA-GeForce-RTX-4090", "rtx4090", 24),  # the device plugin's node label
    ("rtx-3090-ti", "rtx3090", 24),
    ("RTX 5090", "rtx5090", 32),
    ("NVIDIA RTX A6000", "a6000", 48),
    ("RTXA5000", "a5000", 24),
    ("NVIDIA-A4000", "a4000", 16),
    ("A40", "a40", 48),
    ("NVIDIA-L20", "l20", 48),
    ("L40S", "l40s", 48),  # (the A40 and L20 rows leave the others as they were)
    ("L4", "l4", 24),
    ("A100-80GB", "a100", 80),
    ("A10G", "a10g", 24),
])
def test_a_workstation_or_consumer_product_is_known_by_its_written_forms(product, family, gib):
    assert gpu_family(product) == family
    assert gpu_memory_gib(product) == gib


@pytest.mark.parametrize("product", [
    "RTX6000", "RTX 6000 Ada", "NVIDIA RTX PRO 6000 Blackwell",  # 24, 48 or 96 GB: not said
    "GeForce RTX 4080", "4090", "rtx40900", "A400",
])
def test_a_product_whose_memory_the_name_leaves_open_stays_unknown(product):
    assert gpu_memory_gib(product) is None
