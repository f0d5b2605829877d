"""The other files one file's analysis reads (a local model directory's ``config.json``, a
Hugging Face cache snapshot), each with its content key.

A finding can depend on more than the linted file's bytes: ``vllm serve ./m -tp 3`` is checked
against ``m/config.json``. Whatever reads such a file tells this module (:func:`note`); the engine
collects what one analysis read (:func:`recording`) into ``FileAnalysis.reads``, and the result
cache keeps a result only while every one of those files still has the content key it had
(:func:`content_key`). A file that could not be read has the key ``"-"``.

Recordings nest: what an inner recording collects (a memoised model lookup records what its first
resolution read, to replay it on later hits) is also added to the one around it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Iterable, Optional

MISSING = "-"
#: a read that stands for every file and folder the release choices of the run read (the result
#: cache's survey): a choice that looked across the repository beyond the files around the file (a
#: kustomization setting its image, the image a ``docker build`` makes) holds only while none changed
WHOLE_SURVEY = ("*survey", "survey")
READ_LIMIT = 10 * 1024 * 1024  # the most of another file whose content key is taken (the engine's file limit)
_stack: list[dict[str, str]] = []


def key_of(data: bytes) -> str:
    """The content key of ``data``: 128 bits of its BLAKE2b hash."""
    try:
        from _blake2 import blake2b  # (``hashlib`` loads OpenSSL's bindings first: cache.py)
    except ImportError:  # pragma: no cover - an interpreter without CPython's module layout
        from hashlib import blake2b
    return blake2b(data, digest_size=16).hexdigest()


def _where(path: str) -> str:
    return os.path.abspath(path)


def content_key(path: str) -> str:
    """The content key of the file at ``path`` now: ``MISSING`` when it cannot be read, is no
    regular file (a FIFO would block, ``/dev/zero`` never end: a path in a cache record is not
    trusted) or is larger than :data:`READ_LIMIT`."""
    from .fsutil import read_regular

    try:
        return key_of(read_regular(path, READ_LIMIT))
    except (OSError, ValueError):
        return MISSING


def note(path: str, data: Optional[bytes]) -> None:
    """``path`` was read and gave ``data`` (None: it could not be read)."""
    if _stack:
        _stack[-1].setdefault(_where(str(path)), MISSING if data is None else key_of(data))


def replay(reads: Iterable[tuple[str, str]]) -> None:
    """Note again what an earlier recording collected (a memoised result is reused)."""
    if _stack:
        top = _stack[-1]
        for path, key in reads:
            top.setdefault(path, key)


class recording:
    """``with recording() as reads``: collect the files read inside the block, a dict path ->
    content key, filled as they are. (A class, not ``contextlib.contextmanager``: ``contextlib`` is
    ~3 M instructions to import, 2 % of a one-file lint: issue 31's eighth pass.)"""

    __slots__ = ("reads",)

    def __enter__(self) -> dict[str, str]:
        self.reads: dict[str, str] = {}
        _stack.append(self.reads)
        return self.reads

    def __exit__(self, *exc: object) -> None:
        _stack.pop()
        if _stack:
            for path, key in self.reads.items():
                _stack[-1].setdefault(path, key)


def read_other(path: str, limit: int) -> Optional[bytes]:
    """The bytes of another file an analysis reads (a Dockerfile beside a script, a chart's values,
    a model's ``config.json``), noted as an input whether it exists or not (a file made later
    changes the result); None when it is no regular file (a link to a FIFO or a device is not
    read), cannot be read, or is larger than ``limit``."""
    from .fsutil import open_regular

    try:
        with open_regular(path) as f:
            raw = f.read(limit + 1)
    except OSError:
        note(path, None)
        return None
    note(path, raw)
    return None if len(raw) > limit else raw
