"""Running the linter over many files: sequential for the few files of a pre-commit run (start-up
bound), a process pool over both cores for whole repositories."""

from __future__ import annotations

import os
from typing import Optional

PARALLEL_MIN_FILES = 64


def lint_all(linter, targets, fix: bool, db_path: Optional[str] = None) -> list:
    if len(targets) < PARALLEL_MIN_FILES or (os.cpu_count() or 1) < 2:
        return _flatten([linter.lint_file(t, fix=fix) for t in targets])
    from concurrent.futures import ProcessPoolExecutor

    workers = min(os.cpu_count() or 2, 4)
    chunks = [targets[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(max_workers=workers, initializer=_init,
                             initargs=(db_path, linter.settings, [r.code for r in linter.rules],
                                       linter.unsafe_fixes, linter.cache)) as pool:
        parts = list(pool.map(_run_chunk, [(c, fix) for c in chunks]))
    by_path = {}
    for part in parts:
        for r in part:
            by_path[r.path] = r
    return _flatten([by_path[str(t.path)] for t in targets if str(t.path) in by_path])


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


def _run_chunk(job):
    targets, fix = job
    return [_WORKER.lint_file(t, fix=fix) for t in targets]
