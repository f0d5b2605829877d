"""A read-only view of one vLLM release's source files, whatever it came from.

Sources (``vllm_lint.scrape.sources``) build a ``SourceTree`` from a PyPI archive, a GitHub tag or
a local git checkout; extractors (``vllm_lint.scrape.extract``) read only through it. Paths are
POSIX paths relative to the source root (``vllm/engine/arg_utils.py``), whatever prefix the
archive used (``vllm-0.27.1/`` in an sdist, none in a wheel).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Optional, Protocol


class SourceTree(Protocol):
    def read(self, path: str) -> Optional[bytes]:
        """The file's bytes, or ``None`` when the release has no such file."""

    def listdir(self, directory: str) -> list[str]:
        """Paths of the regular files directly inside ``directory`` (``vllm/config``), sorted."""


class DictTree:
    """A SourceTree over an in-memory mapping; used by tests and by archive sources that read
    only the members they need into memory."""

    def __init__(self, files: Mapping[str, bytes]):
        self._files = dict(files)

    def read(self, path: str) -> Optional[bytes]:
        return self._files.get(path)

    def listdir(self, directory: str) -> list[str]:
        prefix = directory.rstrip("/") + "/"
        return sorted(p for p in self._files if p.startswith(prefix) and "/" not in p[len(prefix):])

    def paths(self) -> Iterable[str]:
        return sorted(self._files)
