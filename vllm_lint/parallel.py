"""Running the linter over many files: sequential for the few files of a pre-commit run (start-up
bound), a process pool over both cores for whole repositories."""

from __future__ import annotations

import os
from typing import Optional

PARALLEL_MIN_FILES = 64  # below this, one process: a pre-commit run is start-up bound
PARALLEL_MIN_PARSED = 48  # files needing a parse before worker processes pay off (benchmarks/)
CHUNK = 8  # files per task at most, and CHUNK_BYTES: small tasks keep both cores busy to the end
CHUNK_BYTES = 32 * 1024


def lint_all(linter, targets, fix: bool, db_path: Optional[str] = None) -> list:
    if len(targets) < PARALLEL_MIN_FILES or (os.cpu_count() or 1) < 2:
        return _flatten([linter.lint_file(t, fix=fix) for t in targets])
    from .engine import Deferred

    # This process screens every file (read, format, pre-filter, cache lookup: cheap, and in a
    # repository most files stop there); the files that need parsing go to worker processes in
    # small tasks once there are enough of them to pay for the workers' start-up.
    results: list = [None] * len(targets)
    pending: list[int] = []
    pending_bytes = 0
    futures: list = []
    pool = None
    formats: dict = {}  # format -> (size, index) of a deferred file, before the pool exists
    linter.defer_parsing = True
    try:
        for i, t in enumerate(targets):
            try:
                results[i] = linter.lint_file(t, fix=fix)
                continue
            except Deferred as d:
                pending.append(i)
                pending_bytes += d.args[0]
                if pool is None:
                    formats.setdefault(d.args[1], (d.args[0], i))
            if pool is None and len(pending) >= PARALLEL_MIN_PARSED:
                pending_bytes -= _warm_up(linter, targets, pending, results, fix, formats)
                pool = _pool(linter, db_path)
            if pool is not None and (len(pending) >= CHUNK or pending_bytes >= CHUNK_BYTES):
                futures.append((pending, pool.submit(_run_chunk, ([targets[j] for j in pending], fix))))
                pending, pending_bytes = [], 0
    finally:
        linter.defer_parsing = False
    try:
        if pool is not None and pending:
            futures.append((pending, pool.submit(_run_chunk, ([targets[j] for j in pending], fix))))
            pending = []
        for i in pending:
            results[i] = linter.lint_file(targets[i], fix=fix)
        cache = linter.cache
        for idx, fut in futures:
            for j, r in zip(idx, fut.result()):
                results[j] = r
                if cache is not None and r.content_key is not None:
                    # the worker noted it in its own copy of the cache: note it here, where the
                    # cache is written
                    cache.note_key(r.path, r.content_key)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return _flatten(results)


def _warm_up(linter, targets, pending: list[int], results: list, fix: bool, formats: dict) -> int:
    """Lint here, before forking, the first deferred file of each format (taken out of ``pending``);
    return their bytes. The forked workers inherit what that loaded (parser modules and grammars,
    release surfaces, model tables, rule helpers, memos) instead of each loading it again."""
    done = 0
    linter.defer_parsing = False
    try:
        for size, i in formats.values():
            results[i] = linter.lint_file(targets[i], fix=fix)
            pending.remove(i)
            done += size
    finally:
        linter.defer_parsing = True
    return done


def _pool(linter, db_path: Optional[str]):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    workers = min(os.cpu_count() or 2, 4)
    if multiprocessing.get_start_method() == "fork":
        # forked workers use a copy of this linter and everything it has loaded so far; frozen,
        # the objects they inherit are left out of garbage collection, whose passes would write
        # to (and so copy) every page that holds one
        import gc

        gc.freeze()
        return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_adopt, initargs=(linter,))
    return ProcessPoolExecutor(max_workers=workers, initializer=_init,
                               initargs=(db_path, linter.settings, [r.code for r in linter.rules],
                                         linter.unsafe_fixes, linter.cache))


def _flatten(results: list) -> list:
    """Each file's result, then the config files its launches named (once each)."""
    if not any(r.related for r in results):
        return list(results)  # discover() already gave each file once
    out, seen = [], set()
    for r in results:
        for x in [r, *r.related]:
            key = os.path.realpath(x.path)
            if key in seen:
                # the same file linted directly and through --config: keep the --config reading,
                # which knows the launch's release
                if x is not r:
                    out = [y for y in out if os.path.realpath(y.path) != key] + [x]
                continue
            seen.add(key)
            out.append(x)
    return out


_WORKER = None


def _init(db_path, settings, codes, unsafe, cache) -> None:
    global _WORKER
    from pathlib import Path

    from .engine import Linter
    from .rules.base import registry
    from .surface.db import Database

    reg = registry()
    _WORKER = Linter(Database(Path(db_path) if db_path else None), settings, [reg[c] for c in codes],
                     unsafe_fixes=unsafe, cache=cache)


def _adopt(linter) -> None:
    """Worker start under fork: the parent's linter, reset to what a new one would hold."""
    global _WORKER
    linter.defer_parsing = False
    linter.references = []
    linter.verbose = []
    linter._linted_refs = set()
    _WORKER = linter


def _run_chunk(job):
    targets, fix = job
    return [_WORKER.lint_file(t, fix=fix) for t in targets]
