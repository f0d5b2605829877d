"""Package list: vllm_lint's own packages plus the database at flag_db/.

flag_db/ sits at the repository root (reviewed like data, one file per vLLM
release) and is installed as vllm_lint.flag_db; pyproject.toml maps the
directory, this file adds it to the package list, which find cannot do.
"""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["vllm_lint", "vllm_lint.*"]) + ["vllm_lint.flag_db"])
