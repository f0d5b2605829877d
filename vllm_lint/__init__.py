"""vllm-lint: lint and fix vLLM launch configurations against the release you deploy.

The Python API (``vllm_lint.lint``, ``vllm_lint.fix``, ``vllm_lint.check_args``, ...) lives in
``vllm_lint.api``, imported at first use so that the command line's start-up does not pay for it.
"""

__version__ = "0.1.0"

__all__ = ["__version__", "lint", "fix", "check_args", "FixResult", "ArgsResult", "Diagnostic"]


def __getattr__(name: str):
    if name in ("lint", "fix", "check_args", "FixResult", "ArgsResult", "ArgFinding", "ArgsError", "UnknownFormat"):
        # a facade resolved at first use: the package (layer 0, docs/architecture.md) names the
        # entry module only by name, so importing vllm_lint loads nothing else
        import importlib

        return getattr(importlib.import_module(f"{__name__}.api"), name)
    if name == "Diagnostic":
        import importlib

        return importlib.import_module(f"{__name__}.rules.base").Diagnostic
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
