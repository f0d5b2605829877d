"""The Python API: lint or fix one file's text in memory, as the command line would.

    >>> import vllm_lint
    >>> [d.code for d in vllm_lint.lint("vllm serve m --swap-space 4\\n", "serve.sh", target="0.27.1")]
    ['VL101']
    >>> vllm_lint.fix("vllm serve m --swap-space 4\\n", "serve.sh", target="0.27.1").output
    'vllm serve m\\n'

``filename`` gives the format (``.sh``, ``.yaml``, ``Dockerfile``, ``.py``, ``.md``; else the
content decides) and where a project pin is looked for; the file need not exist. ``settings``:
a :class:`vllm_lint.settings.Settings`, or a dict with the keys of ``[tool.vllm-lint]``
(``{"select": ["VL1"], "gpus": 8}``), validated as the configuration file is. No configuration file
is read. The results are :class:`vllm_lint.rules.base.Diagnostic` objects (``code``, ``message``,
``severity``, ``row``, ``column``, ``end_row``, ``end_column``, ``option``, ``target_version``,
``fix``). ``vllm_lint`` imports this module only when one of these names is first used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

__all__ = ["lint", "fix", "FixResult", "UnknownFormat"]

Text = Union[str, bytes]


class UnknownFormat(ValueError):
    """Neither the file name nor the content says which format the text is in."""


class FixResult:
    """What :func:`fix` did: ``output`` (the fixed text, str or bytes as given), ``fixed_count``
    (fixes applied) and ``diagnostics`` (what is left, positioned in ``output``)."""

    __slots__ = ("output", "fixed_count", "diagnostics")

    def __init__(self, output: Text, fixed_count: int, diagnostics: list) -> None:
        self.output, self.fixed_count, self.diagnostics = output, fixed_count, diagnostics

    def __repr__(self) -> str:
        return f"FixResult(fixed_count={self.fixed_count}, diagnostics={len(self.diagnostics)})"


def analyse_bytes(linter, data: bytes, filename: str, fix: bool = False) -> tuple[list, Optional[bytes], int]:
    """``data`` linted (and with ``fix``, fixed) as the file ``filename`` named on the command line,
    through the engine's one check (``Linter.check``): (the findings left, positioned and
    suppressed as in a file; the fixed bytes or None; fixes applied). The command line's standard
    input and this module's functions share it."""
    checked = linter.check(filename, data, "explicit", fix=fix)
    if checked.format is None:
        raise UnknownFormat(f"cannot tell the format of {filename}: name it (serve.sh, deploy.yaml, Dockerfile, "
                            "launch.py, README.md)")
    if checked.skipped is not None:
        return [], None, 0
    return checked.diagnostics, checked.fixed, checked.count


_DBS: dict[Optional[str], Any] = {}


def _linter(target: Optional[str], settings: Any, db: Optional[str], unsafe: bool):
    from .rules.base import select_layered
    from .settings import Settings, _validate, rule_layers
    from .surface.db import Database
    from .pipeline.engine import Linter

    if settings is None:
        settings = Settings()
    elif isinstance(settings, dict):
        settings = _validate(settings, Path("<settings>"))
    if target is not None:
        settings = settings.merged(target_version=target)
    key = None if db is None else str(db)
    if key not in _DBS:
        _DBS[key] = Database(Path(db) if db else None)
    rules = select_layered(rule_layers(settings), preview=bool(settings.preview))
    return Linter(_DBS[key], settings, rules, unsafe_fixes=unsafe)


def _as_bytes(data: Text) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def lint(data: Text, filename: str = "-", *, target: Optional[str] = None, settings: Any = None,
         db: Optional[str] = None) -> list:
    """The findings in ``data`` (text or bytes) read as the file ``filename``; ``target``: the
    vLLM release to check against (as ``-t``; default: what the launch names, else the newest);
    ``db``: a flag database directory (default: the shipped one)."""
    diags, _, _ = analyse_bytes(_linter(target, settings, db, False), _as_bytes(data), filename)
    return diags


def fix(data: Text, filename: str = "-", *, target: Optional[str] = None, settings: Any = None,
        unsafe: bool = False, db: Optional[str] = None) -> FixResult:
    """``data`` with the safe fixes applied (and the unsafe ones with ``unsafe``), as ``--fix``
    would write it: a :class:`FixResult`."""
    raw = _as_bytes(data)
    diags, fixed, count = analyse_bytes(_linter(target, settings, db, unsafe), raw, filename, fix=True)
    out = raw if fixed is None else fixed
    return FixResult(out.decode("utf-8", errors="surrogateescape") if isinstance(data, str) else out, count, diags)
