"""PEP 440 versions for the lint path, without importing ``packaging`` for the usual case.

``packaging.version`` costs a pre-commit run about 2 ms of its ~80 ms budget (its verbose regex
is compiled at import; benchmarks/README.md). vLLM's release numbers are simple (``0.8.5``,
``0.6.6.post1``, ``0.11.0rc1``): those are parsed here with a small pattern. Anything else is
handed to ``packaging.version`` (imported then), so the accepted language and the ordering stay
PEP 440's. Instances compare equal, order and hash like ``packaging.version.Version`` and also
compare with ``packaging.version.Version`` objects.
"""

from __future__ import annotations

from ..record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

# (compiled at first use: a release number of digits and dots, with a .postN or not, is read by
# :func:`_plain` without it; compiling it was ~1.3 M instructions of every start-up)
_SIMPLE = lazy_re(r"v?(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?(?:\.post(\d+))?(?:\.dev(\d+))?")


def _plain(s: str) -> Optional[tuple[tuple[int, ...], Optional[int]]]:
    """(release, post) of ``s`` when it is ``v?`` ASCII digits and dots (no empty part) with an
    optional ``.postN`` (N ASCII digits): what ``_SIMPLE.fullmatch`` reads from such a string;
    None for anything else (read by the expression)."""
    body = s[1:] if s[:1] == "v" else s
    post = None
    at = body.find(".post")
    if at >= 0:
        digits = body[at + 5:]
        if not (digits.isascii() and digits.isdigit()):
            return None
        post, body = int(digits), body[:at]
    if not (body.isascii() and body.replace(".", "").isdigit()):
        return None
    parts = body.split(".")
    if "" in parts:
        return None
    return tuple(int(x) for x in parts), post


class InvalidVersion(ValueError):
    """Not a PEP 440 version."""


def _key(epoch: int, release: tuple[int, ...], pre: Optional[tuple[str, int]], post: Optional[int],
         dev: Optional[int], local: Optional[tuple[Any, ...]]) -> tuple:
    """The ordering key of packaging.version (``_cmpkey``), with tuples in place of infinities."""
    rel = list(release)
    while rel and rel[-1] == 0:
        rel.pop()
    if pre is None and post is None and dev is not None:
        pre_k: tuple = (0,)  # X.devN sorts before X's pre-releases
    elif pre is None:
        pre_k = (2,)
    else:
        pre_k = (1, pre[0], pre[1])  # "a" < "b" < "rc"
    post_k = (0,) if post is None else (1, post)
    dev_k = (1,) if dev is None else (0, dev)
    local_k = (0,) if local is None else (1, tuple((1, p, "") if isinstance(p, int) else (0, 0, p) for p in local))
    return epoch, tuple(rel), pre_k, post_k, dev_k, local_k


class Version:
    __slots__ = ("epoch", "release", "pre", "post", "dev", "local", "_k", "_text")

    def __init__(self, text: str) -> None:
        s = text.strip().lower()
        plain = _plain(s)
        if plain is not None:
            self.epoch = 0
            self.release, self.post = plain
            self.pre = self.dev = self.local = self._text = None
        elif m := _SIMPLE.fullmatch(s):
            self.epoch = 0
            self.release = tuple(int(x) for x in m.group(1).split("."))
            self.pre = (m.group(2), int(m.group(3))) if m.group(2) else None
            self.post = int(m.group(4)) if m.group(4) is not None else None
            self.dev = int(m.group(5)) if m.group(5) is not None else None
            self.local = None
            self._text = None
        else:
            from packaging.version import InvalidVersion as _Invalid, Version as _PV

            try:
                pv = _PV(text)
            except _Invalid as e:
                raise InvalidVersion(str(e)) from None
            self.epoch, self.release, self.pre, self.post, self.dev = pv.epoch, pv.release, pv.pre, pv.post, pv.dev
            self.local = tuple(int(p) if p.isdigit() else p for p in pv.local.split(".")) if pv.local else None
            self._text = str(pv)
        self._k = _key(self.epoch, self.release, self.pre, self.post, self.dev, self.local)

    # -- the parts of packaging's interface the linter uses
    @property
    def is_prerelease(self) -> bool:
        return self.pre is not None or self.dev is not None

    @property
    def is_devrelease(self) -> bool:
        return self.dev is not None

    def __str__(self) -> str:
        if self._text is not None:
            return self._text
        s = ".".join(map(str, self.release))
        if self.pre:
            s += f"{self.pre[0]}{self.pre[1]}"
        if self.post is not None:
            s += f".post{self.post}"
        if self.dev is not None:
            s += f".dev{self.dev}"
        return s

    def __repr__(self) -> str:
        return f"<Version('{self}')>"

    def __hash__(self) -> int:
        return hash(self._k)

    @staticmethod
    def _other(other: Any) -> Optional[tuple]:
        if isinstance(other, Version):
            return other._k
        if all(hasattr(other, a) for a in ("epoch", "release", "pre", "post", "dev", "local")):
            local = other.local
            if isinstance(local, str):
                local = tuple(int(p) if p.isdigit() else p for p in local.split("."))
            return _key(other.epoch, tuple(other.release), other.pre, other.post, other.dev, local)
        return None

    def __eq__(self, other: Any) -> bool:
        k = self._other(other)
        return NotImplemented if k is None else self._k == k

    def __lt__(self, other: Any) -> bool:
        k = self._other(other)
        return NotImplemented if k is None else self._k < k

    def __le__(self, other: Any) -> bool:
        k = self._other(other)
        return NotImplemented if k is None else self._k <= k

    def __gt__(self, other: Any) -> bool:
        k = self._other(other)
        return NotImplemented if k is None else self._k > k

    def __ge__(self, other: Any) -> bool:
        k = self._other(other)
        return NotImplemented if k is None else self._k >= k
