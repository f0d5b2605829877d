"""Reporters: they know diagnostics only. Each module exposes ``render(results, ctx) -> str``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass
class ReportContext:
    fix_mode: bool = False
    unsafe_fixes: bool = False
    fixed_count: int = 0
    statistics: bool = False
    quiet: bool = False
    color: bool = False
    db_range: Optional[str] = None
    rules: Optional[dict] = None  # code -> Rule, for formats carrying rule metadata


FORMATS = ("text", "concise", "json", "github", "gitlab", "sarif", "junit")


def render(fmt: str, results, ctx: ReportContext) -> str:
    import importlib

    if fmt in ("text", "concise"):
        from .text import render as text

        return text(results, ctx, concise=fmt == "concise")
    module = {"json": "json_report"}.get(fmt, fmt)
    return importlib.import_module(f"{__name__}.{module}").render(results, ctx)
