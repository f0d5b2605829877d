"""Formats people keep launches in (issue 17), each its own module: the registry names each as its
module does (the cases of each are in its own folder, tests/formats/<name>/test_<name>.py)."""

from __future__ import annotations

import importlib

from vllm_lint.frontends import base as registry


def test_the_engine_names_each_format_as_its_module_does():
    for fmt in ("json", "systemd", "makefile", "powershell", "notebook"):
        fe = importlib.import_module(f"vllm_lint.frontends.{fmt}")
        assert fe.FORMAT == fmt and fmt in registry.names()
        for suffix in fe.SUFFIXES:
            assert registry.format_by_filename("x" + suffix) == fmt
        for name in getattr(fe, "NAMES", ()):
            assert registry.format_by_filename(name) == fmt and registry.format_by_filename(name.upper()) == fmt
