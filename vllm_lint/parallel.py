"""Running the linter over many files: sequential for the few files of a pre-commit run (start-up
bound); for whole repositories, this process and forked workers share the files that need parsing,
so every core works to the end."""

from __future__ import annotations

import os
from typing import Optional

PARALLEL_MIN_FILES = 64  # below this, one process: a pre-commit run is start-up bound
PARALLEL_MIN_PARSED = 48  # files needing a parse before worker processes pay off (benchmarks/)
CHUNK = 8  # files per task at most, and CHUNK_BYTES: small tasks keep both cores busy to the end
CHUNK_BYTES = 32 * 1024
AHEAD = 2  # unfinished tasks per worker: enough that a worker never waits for this process


def lint_all(linter, targets, fix: bool, db_path: Optional[str] = None, jobs: int = 0) -> list:
    """Each target's result. ``jobs``: processes to use, this one included (0: one per core, at
    most four; 1: this process only). The others are forked workers: this process lints too once
    its screening is done (2 cores, one worker: measured against two workers, the same wall time
    for ~30 ms less CPU on the benchmark corpus)."""
    workers = (jobs or min(os.cpu_count() or 1, 4)) - 1
    if len(targets) < PARALLEL_MIN_FILES or workers < 1:
        return _flatten([linter.lint_file(t, fix=fix) for t in targets])
    from collections import deque

    from .engine import Deferred

    # This process screens every file (read, format, pre-filter, cache lookup: cheap, and in a
    # repository most files stop there); the files that need parsing are queued in small tasks.
    # Once there are enough of them to pay for it, a worker process is forked and fed from the
    # front of the queue, a few tasks ahead; when the screening is done, this process lints
    # from the back of the queue itself, so both cores work to the end.
    results: list = [None] * len(targets)
    queue: deque = deque()  # tasks (lists of indices into targets) not yet handed out
    pending: list[int] = []
    pending_bytes = 0
    running: list = []  # (task, future) handed to the pool
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
                pool = _pool(linter, db_path, workers)
            if pool is not None and (len(pending) >= CHUNK or pending_bytes >= CHUNK_BYTES):
                queue.append(pending)
                pending, pending_bytes = [], 0
                _feed(pool, workers, queue, running, targets, fix, results, linter.cache)
    finally:
        linter.defer_parsing = False
    if pending:
        queue.append(pending)
    try:
        while queue:
            if pool is not None:
                _feed(pool, workers, queue, running, targets, fix, results, linter.cache)
            if queue:
                for i in queue.pop():
                    results[i] = linter.lint_file(targets[i], fix=fix)
        _collect(running, results, linter.cache, wait=True)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
    return _flatten(results)


def _feed(pool, workers: int, queue, running: list, targets, fix: bool, results: list, cache) -> None:
    """Hand tasks from the front of the queue to the pool until AHEAD of them are unfinished."""
    _collect(running, results, cache, wait=False)
    while queue and len(running) < AHEAD * workers:
        task = queue.popleft()
        running.append((task, pool.submit(_run_chunk, ([targets[j] for j in task], fix))))


def _collect(running: list, results: list, cache, wait: bool) -> None:
    """Take the results of finished tasks (all of them, waiting, when ``wait``)."""
    keep = []
    for task, fut in running:
        if not wait and not fut.done():
            keep.append((task, fut))
            continue
        for j, r in zip(task, fut.result()):
            results[j] = r
            if cache is not None and r.content_key is not None:
                # the worker noted it in its own copy of the cache: note it here, where the
                # cache is written
                cache.note_key(r.path, r.content_key)
    running[:] = keep


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


def _pool(linter, db_path: Optional[str], workers: int):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

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
