"""Timelines as inline SVG, drawn from release positions: one column per release of the database.

Colours come from the page's stylesheet (classes ``tl-*``), so the light and dark themes apply.
Every mark carries a ``<title>`` (a tooltip, and what a screen reader reads).
"""

from __future__ import annotations

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
        label_rows = self._axis_rows()
        height = AXIS_Y + 14 + 11 * len(label_rows) + 4
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
        out.extend(self._axis(label_rows))
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

    def _axis_rows(self) -> list[list[tuple[int, str]]]:
        """The first release of each minor series, labelled, in as many rows as keep labels apart."""
        starts: list[tuple[int, str]] = []
        seen = None
        for i, v in enumerate(self.versions):
            series = ".".join(v.split(".")[:2])
            if series != seen:
                starts.append((i, series))
                seen = series
        rows: list[list[tuple[int, str]]] = []
        for i, text in starts:
            for row in rows:
                last_i, last_text = row[-1]
                if self._x(i) >= self._x(last_i) + len(last_text) * 6 + 4:
                    row.append((i, text))
                    break
            else:
                rows.append([(i, text)])
        return rows

    def _axis(self, rows: list[list[tuple[int, str]]]) -> list[str]:
        out = []
        for i in range(len(self.versions)):
            out.append(f'<line class="tl-tick" x1="{self._x(i)}" y1="{AXIS_Y - 4}" x2="{self._x(i)}" y2="{AXIS_Y}"/>')
        for r, row in enumerate(rows):
            y = AXIS_Y + 10 + 11 * r
            for i, text in row:
                out.append(f'<text class="tl-axis" x="{self._x(i)}" y="{y}">{escape(text)}</text>')
        return out
