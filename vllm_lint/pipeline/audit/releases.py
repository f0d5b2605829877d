"""The flag database walked between two releases: the releases in between, and an option's successor."""

from __future__ import annotations

from typing import Optional

from ...surface.db import Database


def versions_between(db: Database, lo: str, hi: str) -> list[str]:
    """Releases in ``(lo, hi]`` in order (empty when hi <= lo)."""
    a, b = db.position(lo), db.position(hi)
    return db.versions[a + 1:b + 1]


def in_range(db: Database, v: str, lo: str, hi: str) -> bool:
    return db.position(lo) < db.position(v) <= db.position(hi)

def successor(db: Database, name: str, last: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    """(successor, evidence): curated overlay first, then the deprecation record at ``last``."""
    ov = db.option_overlay(name)
    if ov and ov.get("successor"):
        return ov["successor"], ov.get("evidence")
    if last:
        opt = db.surface(last).lookup(name)
        if opt and opt.deprecated and opt.deprecated.get("successor"):
            return opt.deprecated["successor"], f"named by vLLM {last}'s deprecation"
    return None, None
