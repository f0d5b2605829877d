"""Helpers of the website tests."""

from __future__ import annotations

import html
import re


def text_of(page: str) -> str:
    """The visible text of a page, tags dropped, whitespace collapsed."""
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()
