"""A run's results as they complete: every file counted, and only the results a report shows kept.

Holding every file's result to the end of a run made its memory grow with the repository (~1 KB
a file: the result, its lists, its stat key, the engine's notes for ``--verbose``; 89 MiB at 50k
files, benchmarks/README.md, sixth pass). :class:`RunResults` takes each file's result in the
walk's order (``parallel.lint_each``) and keeps it only when the report needs it: findings, fixed
bytes, releases newer than the database, with ``--verbose`` its notes or why it was not read, a
file named on the command line in no format (the warning the command prints), or every file for an
output format that lists each linted file (JUnit: ``report.base.Reporter.every_file``). Every other
result is only counted (a launch read, nothing read and why, checked against the newest release) and
noted in the result cache; :meth:`RunResults.slim` is what a worker process sends back of a result,
a few bytes for a file with nothing to report.

The order is the one a run gave before results were streamed: each file's result, then the ``--config`` files its
launches named, a file reached both ways kept once, as the ``--config`` reading (which knows the
launch's release), where that reading comes. A file counted and dropped before the first
``--config`` file is reached may so be taken back (``_withdraw``); its counts are kept per index
for that (one byte a file).
"""

from __future__ import annotations

import os
from .engine import NOT_SUPPORTED, FileResult

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional, Union

# what a file that is only counted contributed to the summary (``RunResults._flags``)
READ, UNREAD, DEFAULTED = 1, 2, 4


def flags_of(r: FileResult) -> int:
    """The summary's counts of one result: a launch read, nothing read (``unread``: why), a launch
    checked against the newest release for want of a named one (and none newer than the database)."""
    return (READ if r.read else 0) | (UNREAD if not r.read and r.unread else 0) \
        | (DEFAULTED if r.defaulted and not r.newer else 0)


class RunResults:
    """The results of one run: ``results``, those a report shows, in the walk's order (the same
    list every consumer reads: the fixes' writer, ``--add-noqa``, baselines, the reporters), and
    the counts of the rest. ``targets``: the run's files (``discovery.Target``), by index;
    ``verbose``: ``--verbose`` (every file's notes and reasons are shown); ``cache``: the result
    cache to note each result in (None: none, or ``--fix``); ``every_file``: keep every result
    (an output format that lists each file)."""

    __slots__ = ("results", "_targets", "_verbose", "_cache", "_every", "_explicit", "_flags", "_read", "_unread",
                 "_defaulted", "_seen", "_problems", "_log", "_ends")

    def __init__(self, targets=(), *, verbose: bool = False, cache=None, every_file: bool = False) -> None:
        self.results: list[FileResult] = []
        self._targets = targets
        self._verbose = verbose
        self._cache = cache
        self._every = every_file
        self._explicit = {t.path for t in targets if t.explicit}  # (the few named on the command line)
        self._flags = bytearray(len(targets))  # per index: what a counted (not kept) result contributed
        self._read = self._unread = self._defaulted = 0  # the counts of the results not kept
        # real path -> the index of a counted result or the kept result, from the first --config
        # file reached on (None before: files of the walk are distinct, ``discovery.discover``)
        self._seen: Optional[dict[str, Union[int, FileResult]]] = None
        self._problems: Optional[FileResult] = None
        # until then, the paths of the files taken, one after the other (UTF-8, ``_ends``: where
        # each ends, eight bytes little-endian each, as an ``array("L")`` holds them without the
        # ``array`` module's import, ~1 M instructions of a one-file lint): ~35 bytes a file, where
        # the run's targets may be released as they are taken (``parallel.lint_each``: a Target
        # and its path string are ~150)
        self._log = bytearray()
        self._ends = bytearray()

    @classmethod
    def of(cls, results: list[FileResult]) -> "RunResults":
        """Every result of ``results`` kept as it is (standard input: one result)."""
        run = cls(every_file=True)
        run.results = list(results)
        return run

    # ------------------------------------------------------------------ taking results

    def wanted(self, r: FileResult) -> bool:
        """Whether the report needs ``r`` itself, not only its counts."""
        return bool(self._every or r.diagnostics or r.fixed is not None or r.newer
                    or (self._verbose and (r.verbose or r.unread))
                    or (r.unread == NOT_SUPPORTED and r.path in self._explicit))

    def unread_counts(self) -> Optional[int]:
        """What ``slim`` keeps of the result of a walked file the pre-filter says holds no launch (no
        finding, no fix, no note: ``flags_of`` it), when that is all the run keeps of it (no result
        cache to note it in, no ``--verbose`` to name it, no report of every file), else None. The
        engine gives it in place of such a result (``Linter.lint_file``'s ``unread``)."""
        return UNREAD if self._cache is None and not self._verbose and not self._every else None

    def slim(self, r: FileResult) -> Union[FileResult, int]:
        """What is kept of ``r`` until it is taken in order (and what a worker sends back): its
        counts (``flags_of``) for a file with nothing to report nor to note in the cache, else the
        result, without the engine's notes unless ``--verbose`` shows them."""
        for x in (r, *r.related):
            if not self._verbose and x.verbose:
                x.verbose = []
            if self._cache is None and not self._every:
                x.reads = ()  # (read by the cache only)
        if r.related or self.wanted(r) or (self._cache is not None and r.verdict and r.stat_key):
            return r
        return flags_of(r)

    def add(self, index: int, got: Union[FileResult, int]) -> None:
        """The result of ``targets[index]`` (or its counts: ``slim``), taken in the walk's order,
        with the results of the ``--config`` files its launches named."""
        seen = self._seen
        counts = isinstance(got, int)
        if seen is None and not counts and got.related:
            seen = self._seen = self._seen_so_far(index)
        if seen is None:
            self._log += self._targets[index].path.encode("utf-8", "surrogateescape")
            self._ends += len(self._log).to_bytes(8, "little")
        if counts:
            if seen is not None:
                key = os.path.realpath(self._targets[index].path)
                if key in seen:
                    return  # read as another file's --config file already
                seen[key] = index
            self._count(index, got)
            return
        if seen is None:
            self._take(index, got)
            return
        for x in (got, *got.related):
            key = os.path.realpath(x.path)
            if key in seen:
                if x is got:
                    continue  # this file was read as another file's --config file: that reading stays
                self._withdraw(seen[key])  # the --config reading stays, here
            direct = x is got
            kept = self._take(index if direct else None, x)
            seen[key] = x if kept or not direct else index

    def _seen_so_far(self, index: int) -> dict:
        """Real path -> index (or kept result) of every file taken before ``index``, when the
        first ``--config`` file is reached (every one before was taken as it came: each once, by
        discovery)."""
        log, start = self._log, 0
        seen: dict[str, Union[int, FileResult]] = {}
        ends = self._ends
        for j in range(index):
            end = int.from_bytes(ends[8 * j:8 * j + 8], "little")
            seen[os.path.realpath(log[start:end].decode("utf-8", "surrogateescape"))] = j
            start = end
        for r in self.results:
            if r is not self._problems:
                seen[os.path.realpath(r.path)] = r
        self._log, self._ends = bytearray(), bytearray()
        return seen

    def add_problems(self, r: FileResult) -> None:
        """The findings of the paths given (missing ones): first in the report."""
        self._problems = r
        self.results.insert(0, r)

    def _take(self, index: Optional[int], r: FileResult) -> bool:
        """Note ``r`` in the cache, keep it or count it; whether it was kept."""
        cache = self._cache
        if cache is not None and r.verdict and r.stat_key and not r.related:
            cache.note_result(r.path, r.stat_key, r.verdict, r.diagnostics, r.reads)
        if self.wanted(r):
            if not self._every:
                r.reads = ()  # (the cache has them; nothing else reads them)
            self.results.append(r)
            return True
        self._count(index, flags_of(r))
        return False

    def _count(self, index: Optional[int], flags: int) -> None:
        if index is not None:
            self._flags[index] = flags
        self._read += flags & READ
        self._unread += (flags & UNREAD) >> 1
        self._defaulted += (flags & DEFAULTED) >> 2

    def _withdraw(self, entry: Union[int, FileResult]) -> None:
        """Take back a result given before (its counts, or the kept result)."""
        if isinstance(entry, int):
            flags = self._flags[entry]
            self._read -= flags & READ
            self._unread -= (flags & UNREAD) >> 1
            self._defaulted -= (flags & DEFAULTED) >> 2
            self._flags[entry] = 0
        elif any(r is entry for r in self.results):
            self.results = [r for r in self.results if r is not entry]
        else:  # a --config file that was counted
            flags = flags_of(entry)
            self._read -= flags & READ
            self._unread -= (flags & UNREAD) >> 1
            self._defaulted -= (flags & DEFAULTED) >> 2

    # ------------------------------------------------------------------ the summary

    def done(self) -> None:
        """Every file is in: the run's files are no longer needed (nor held here)."""
        self._targets = ()

    def unsupported_named(self) -> list[FileResult]:
        """The files named on the command line that no format reads (the command warns of each)."""
        return [r for r in self.results if r.unread == NOT_SUPPORTED and r.path in self._explicit]

    def read_files(self) -> int:
        """How many files had a vLLM launch read."""
        return self._read + sum(1 for r in self.results if r.read)

    def unread(self) -> list[FileResult]:
        """The kept results of files that held no launch (all of them with ``--verbose``), in order."""
        return [r for r in self.results if not r.read and r.unread]

    def unread_files(self) -> int:
        """How many files could have held a launch and held none (``FileResult.unread``)."""
        return self._unread + len(self.unread())

    def newer(self) -> list[FileResult]:
        """The results of files whose launches named releases newer than the database (all kept)."""
        return [r for r in self.results if r.newer]

    def defaulted_files(self) -> int:
        """How many files (apart from those of ``newer``) had a launch that named no release."""
        return self._defaulted + sum(1 for r in self.results if r.defaulted and not r.newer)
