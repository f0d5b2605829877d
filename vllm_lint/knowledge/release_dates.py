"""The day each vLLM release reached PyPI (``vllm_lint/data/release_dates.tsv``, written by
``tools/release_dates.py`` from PyPI's JSON API), and the date a tag or branch name carries
(``nightly-2025-08-05``, ``open-mi300-08052025``, ``2025.08.05``): a build of that day runs the
release current then, or main a little after it (:func:`current_at`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional
from ..record import lazy_re

if TYPE_CHECKING:  # (datetime is imported when a date is made: most tags carry none)
    import datetime

_DATES: Optional[list[tuple[datetime.date, str]]] = None


def _table_path() -> Path:
    return Path(__file__).resolve().parent.parent / "data" / "release_dates.tsv"


def _load() -> list[tuple[datetime.date, str]]:
    import datetime

    out = []
    header = True
    for line in _table_path().read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if header:  # the column names
            header = False
            continue
        version, day = line.split("\t")[:2]
        out.append((datetime.date.fromisoformat(day.strip()), version.strip()))
    out.sort()
    return out


def release_dates() -> list[tuple[datetime.date, str]]:
    """(day, release) for every release in the table, oldest first."""
    global _DATES
    if _DATES is None:
        _DATES = _load()
    return _DATES


def current_at(day: datetime.date) -> Optional[str]:
    """The newest release uploaded on or before ``day``; None before the first."""
    found = None
    for d, version in release_dates():
        if d > day:
            break
        found = version
    return found


# a date in a tag or branch name: 2025-08-05 / 2025.08.05 / 2025_08_05, 20250805, or 08052025
# (rocm/vllm-dev's MMDDYYYY), each not part of a longer run of digits
_SEPARATED = lazy_re(r"(?<!\d)(20\d\d)[-._](\d\d)[-._](\d\d)(?!\d)")
_PACKED = lazy_re(r"(?<!\d)(\d{8})(?!\d)")


def date_in(text: str) -> Optional[datetime.date]:
    """The calendar date ``text`` carries (module docstring), or None. Eight packed digits are read
    as YYYYMMDD when that is a date from 2020 on, else as MMDDYYYY; a date that is no day of the
    calendar is none."""
    m = _SEPARATED.search(text)
    if m:
        return _day(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    for m in _PACKED.finditer(text):
        digits = m.group(1)
        day = _day(int(digits[:4]), int(digits[4:6]), int(digits[6:])) if digits.startswith("20") else None
        day = day or _day(int(digits[4:]), int(digits[:2]), int(digits[2:4]))
        if day is not None:
            return day
    return None


def _day(year: int, month: int, day: int) -> Optional[datetime.date]:
    if not 2020 <= year <= 2099:
        return None
    import datetime

    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None
