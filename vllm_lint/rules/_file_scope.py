"""Helpers for rules about a file's text rather than one launch: they run on the file's first
context only (its first launch, else the launch-less context of its loose environment, which a
file without a launch always gets), so each finding is made once."""

from __future__ import annotations


def is_first_context(ctx) -> bool:
    ex = ctx.extraction
    if ex is None:
        return ctx.launch is None
    if ex.launches:
        return ctx.launch is ex.launches[0]
    return ctx.launch is None

