"""Makefiles (issue 17): a recipe line read and fixed."""

from __future__ import annotations

from read_and_fix import check_read_and_fixed

MAKEFILE = "MODEL ?= m\n\nserve:\n\t@vllm serve $(MODEL) \\\n\t  --swap-space 4\n\nclean:\n\trm -rf x\n"


def test_a_recipe_is_read_and_fixed(run_cli, tmp_path):
    check_read_and_fixed(run_cli, tmp_path, "Makefile", MAKEFILE, [("VL101", 5, 4)], "serve:\n\t@vllm serve $(MODEL)\n\nclean:")
