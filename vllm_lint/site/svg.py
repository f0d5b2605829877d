"""Timelines as inline SVG, drawn from release positions: one column per release of the database.

Colours come from the page's stylesheet (classes ``tl-*``), so the light and dark themes apply.
Every mark carries a ``<title>`` (a tooltip, and what a screen reader reads).
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Optional

COL = 12  # width of one release's column
BAR_Y, BAR_H = 26, 18
AXIS_Y = BAR_Y + BAR_H + 6


class Timeline:
    """A timeline under construction: ``bar`` runs (accepted, alias, build...), ``overlay`` runs
    (deprecation windows), ``marker`` points (a change at a release) and ``end`` labels (removed,
    renamed, with a link)."""

    def __init__(self, versions: list[str], label: str) -> None:
        self.versions = versions
        self.label = label
        self.bars: list[tuple[int, int, str, str]] = []
        self.overlays: list[tuple[int, int, str, str]] = []
        self.markers: list[tuple[int, str, str]] = []
        self.ends: list[tuple[int, str, Optional[str], str]] = []

    def bar(self, a: int, b: int, cls: str, title: str) -> None:
        self.bars.append((a, b, cls, title))

    def overlay(self, a: int, b: int, cls: str, title: str) -> None:
        self.overlays.append((a, b, cls, title))

    def marker(self, i: int, shape: str, title: str) -> None:
        self.markers.append((i, shape, title))

    def end(self, i: int, text: str, href: Optional[str] = None, cls: str = "tl-removed") -> None:
        self.ends.append((i, text, href, cls))

    # ------------------------------------------------------------------ drawing
    def render(self) -> str:
        n = len(self.versions)
        width = n * COL + 28  # room for the last axis label
        rows, axis = _axis(tuple(self.versions))
        height = AXIS_Y + 14 + 11 * rows + 4
        out = [f'<svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
               f'width="{width}" height="{height}" role="img" aria-label="{escape(self.label)}">',
               f"<title>{escape(self.label)}</title>",
               f'<rect class="tl-gap" x="1" y="{BAR_Y}" width="{n * COL}" height="{BAR_H}"/>']
        for a, b, cls, title in self.bars:
            out.append(self._run(a, b, cls, title, BAR_Y, BAR_H))
        for a, b, cls, title in self.overlays:
            out.append(self._run(a, b, cls, title, BAR_Y + BAR_H - 6, 6))
        for i, shape, title in self.markers:
            out.append(self._marker(i, shape, title))
        out.extend(self._ends())
        out.append(axis)
        out.append("</svg>")
        return "".join(out)

    @staticmethod
    def _x(i: int) -> int:
        return 1 + i * COL

    def _run(self, a: int, b: int, cls: str, title: str, y: int, h: int) -> str:
        return (f'<rect class="{cls}" x="{self._x(a)}" y="{y}" width="{(b - a + 1) * COL}" height="{h}">'
                f"<title>{escape(title)}</title></rect>")

    def _marker(self, i: int, shape: str, title: str) -> str:
        cx, cy = self._x(i) + COL // 2, BAR_Y - 7
        if shape == "default":
            body = f'<circle class="tl-mark tl-default" cx="{cx}" cy="{cy}" r="4">'
            end = "</circle>"
        elif shape == "choices":
            body = (f'<polygon class="tl-mark tl-choices" points="{cx},{cy - 5} {cx + 5},{cy + 4} {cx - 5},{cy + 4}">')
            end = "</polygon>"
        else:  # type, kind
            body = f'<rect class="tl-mark tl-type" x="{cx - 4}" y="{cy - 4}" width="8" height="8">'
            end = "</rect>"
        return f"{body}<title>{escape(title)}</title>{end}"

    def _ends(self) -> list[str]:
        out = []
        for i, text, href, cls in self.ends:
            x = self._x(i)
            out.append(f'<line class="{cls}" x1="{x}" y1="{BAR_Y - 2}" x2="{x}" y2="{BAR_Y + BAR_H + 2}"/>')
            anchor = "end" if i > len(self.versions) * 0.6 else "start"
            tx = x - 3 if anchor == "end" else x + 3
            label = (f'<text class="tl-endlabel" x="{tx}" y="{BAR_Y - 14}" text-anchor="{anchor}">'
                     f"{escape(text)}</text>")
            if href:
                label = f'<a href="{escape(href)}">{label}</a>'
            out.append(label)
        return out



@lru_cache(maxsize=4)
def _axis(versions: tuple[str, ...]) -> tuple[int, str]:
    """The axis under every timeline (the same for all of them): a tick per release and the first
    release of each minor series labelled, in as many rows as keep labels apart."""
    x = Timeline._x
    starts: list[tuple[int, str]] = []
    seen = None
    for i, v in enumerate(versions):
        series = ".".join(v.split(".")[:2])
        if series != seen:
            starts.append((i, series))
            seen = series
    rows: list[list[tuple[int, str]]] = []
    for i, text in starts:
        for row in rows:
            last_i, last_text = row[-1]
            if x(i) >= x(last_i) + len(last_text) * 6 + 4:
                row.append((i, text))
                break
        else:
            rows.append([(i, text)])
    out = [f'<line class="tl-tick" x1="{x(i)}" y1="{AXIS_Y - 4}" x2="{x(i)}" y2="{AXIS_Y}"/>'
           for i in range(len(versions))]
    for r, row in enumerate(rows):
        y = AXIS_Y + 10 + 11 * r
        out.extend(f'<text class="tl-axis" x="{x(i)}" y="{y}">{escape(text)}</text>' for i, text in row)
    return len(rows), "".join(out)
