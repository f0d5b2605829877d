"""From bytes to PyYAML node trees, with byte positions.

The file's bytes are checked (size, merge-conflict markers, UTF-8), their template expressions
filled (:mod:`.templates`), and composed with libyaml (:mod:`vllm_lint.libyaml`: PyYAML's C parser,
without the rest of PyYAML's package run) through :class:`Loader`, whose
resolver decides plain scalars' implicit tags without regular expressions. libyaml's
``Mark.index`` counts code points (and starts after a BOM): :class:`CodePointOffsets` turns it
into a byte offset. Bad input raises :class:`~vllm_lint.launch.ParseError` in bounded time
(libyaml refuses nesting deeper than 1000 levels; files above :data:`MAX_BYTES` are refused).

The fixer's checks (:func:`parse_check`, :func:`same_meaning`) load with the plain safe loader
(``yaml.CSafeLoader``'s classes).
"""

from __future__ import annotations

import re
from bisect import bisect_left

from vllm_lint import libyaml
from vllm_lint.frontends.yaml.templates import fill_templates
from vllm_lint.launch import ParseError
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional


MAX_BYTES = 32 * 1024 * 1024

_BaseLoader = libyaml.Composer  # (libyaml's parser and PyYAML's resolver)

ScalarNode = libyaml.ScalarNode
MappingNode = libyaml.MappingNode
SequenceNode = libyaml.SequenceNode
plain_tag = libyaml.plain_tag


class Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """The composer with a cheaper resolver, for this front-end's ``compose_all`` only.

    libyaml's composer calls three Python methods for every node: ``resolve``, which matched a
    plain scalar's text against the implicit-tag regular expressions (~1/6 of the compose time on
    the benchmark corpus, and 1-3 M instructions to compile each the first time a file needs it),
    and ``descend_resolver`` / ``ascend_resolver``, which do nothing without path resolvers. A
    plain scalar's tag depends on its text alone (there are no path resolvers): it is
    :func:`vllm_lint.libyaml.plain_tag`'s, the same answers without the expressions (a resolver a
    program adds to PyYAML's ``Resolver`` at run time is not asked); other nodes get the base
    class's answer.
    """

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is ScalarNode and implicit[0]:
            return plain_tag(value)
        return _BaseLoader.resolve(self, kind, value, implicit)

    # No path resolvers are ever added to this class (add_path_resolver would add them to
    # yaml.Loader / FullLoader / UnsafeLoader or to a class named explicitly), so descending and
    # ascending the path stack does nothing: the composer's calls go to built-ins that take the
    # same arguments, create a throw-away object and have no effect, instead of Python methods.
    descend_resolver = slice  # descend_resolver(parent, index)
    ascend_resolver = tuple  # ascend_resolver()


class CodePointOffsets:
    """Code-point index (as libyaml reports it, after a BOM) -> byte offset in the file."""

    def __init__(self, text: str, base: int):
        self.base = base
        self.idx: list[int] = []
        self.extra: list[int] = []
        if not text.isascii():
            total = 0
            for m in re.finditer(r"[^\x00-\x7f]", text):
                c = m.group()
                total += len(c.encode("utf-8", "surrogatepass")) - 1
                self.idx.append(m.start())
                self.extra.append(total)

    def __call__(self, i: int) -> int:
        if not self.idx:
            return self.base + i
        k = bisect_left(self.idx, i)  # non-ASCII chars strictly before i
        return self.base + i + (self.extra[k - 1] if k else 0)


_CONFLICT = lazy_re(rb"^(?:<{7}|>{7})(?: |\r?$)|^={7}\r?$", re.M)


def prepare(data: bytes, values: Optional[dict] = None) -> tuple[bytes, list[tuple[int, int]]]:
    """The bytes to compose (templates filled, as rendered from a Helm chart's ``values`` where they
    decide it) and the template regions; ParseError for a file too large or with merge-conflict
    markers."""
    if len(data) > MAX_BYTES:
        raise ParseError(f"file too large for the YAML front-end ({len(data)} bytes)", offset=0)
    # (no run of seven '<', '>' or '=': no marker, and no scan of every line start)
    m = _CONFLICT.search(data) if (b"<<<<<<<" in data or b">>>>>>>" in data or b"=======" in data) else None
    if m:
        raise ParseError("merge conflict marker", offset=m.start(),
                         line=data.count(b"\n", 0, m.start()) + 1)
    if b"{{" in data:
        return fill_templates(data, values)
    return data, []


def compose(data: bytes) -> tuple[list, Callable[[int], int]]:
    """The documents of ``data`` and the map from their marks' indexes to byte offsets."""
    base = 0
    if data.startswith(b"\xef\xbb\xbf"):
        base = 3
    try:
        text = data[base:].decode("utf-8")
    except UnicodeDecodeError as e:
        raise ParseError(f"not UTF-8: {e.reason}", offset=base + e.start,
                         line=data.count(b"\n", 0, base + e.start) + 1) from None
    # ASCII text (most files): a code-point index is a byte offset after the BOM
    pos: Callable[[int], int] = base.__add__ if text.isascii() else CodePointOffsets(text, base)
    try:
        return list(libyaml.compose_all(text, Loader)), pos
    except libyaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        off = pos(mark.index) if mark is not None else None
        # (the file's lines: a filled template's lone `\r` (templates.block_scalar_leads) is no line)
        line = None if mark is None else data.count(b"\n", 0, off) + 1 if b"\n" in data else mark.line + 1
        raise ParseError(f"invalid YAML: {_short(e)}", offset=off, line=line) from None
    except (RecursionError, MemoryError, ValueError) as e:
        raise ParseError(f"YAML too complex: {type(e).__name__}") from None


def _short(e: Exception) -> str:
    p = getattr(e, "problem", None)
    c = getattr(e, "context", None)
    if p:
        return f"{c}: {p}" if c else str(p)
    return str(e).splitlines()[0] if str(e) else type(e).__name__


# ---- the fixer's checks ------------------------------------------------------------------


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """Why the fixed YAML ``after`` would not compose where ``before`` did (templated YAML, which
    does not compose as plain YAML, has had its spans checked instead)."""
    try:
        try:
            list(libyaml.compose_all(before, libyaml.SafeLoader))
        except libyaml.YAMLError:
            return None
        list(libyaml.compose_all(after, libyaml.SafeLoader))
    except Exception as e:  # yaml.YAMLError and friends
        return f"the fixed file would not parse ({type(e).__name__})"
    return None


def same_meaning(before: bytes, after: bytes) -> Optional[str]:
    """None when ``after`` loads to the same YAML data as ``before``; else why not."""
    try:
        old = list(libyaml.load_all(before))
    except Exception:  # templated YAML: the launch comparison has to do
        return None
    try:
        new = list(libyaml.load_all(after))
    except Exception:
        return "the YAML would no longer load"
    return None if old == new else "the YAML data would change"
