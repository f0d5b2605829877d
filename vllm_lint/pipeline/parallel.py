"""Running the linter over many files: in this process for the few files of a pre-commit run
(start-up bound); for whole repositories, shared with forked worker processes so that every core
works to the end.

Sharing: the files still to lint are dealt into tasks of neighbouring files, in the walk's order
and cut where a folder ends (``_deal``): what the release finding reads once per folder (its
runners, pins, plugin files) is then read by the one process that lints the folder, where tasks
of every ``T``-th file made each process read every folder (benchmarks/README.md, fifth pass).
Task numbers wait in a pipe written before forking; this process and each worker read one number
at a time (a pipe read of 4 bytes is atomic) until the pipe is empty, so a process that drew
expensive tasks (a folder of launches) simply takes fewer. A worker sends its results back pickled
through a pipe of its own and ends with ``os._exit``. Whatever a worker did not bring back (it
failed or was killed) is linted here, so an error in it is reported as in a sequential run.

Forking right after discovery (benchmarks/README.md): screening files (read, pre-filter) is most
of a repository's files and is shared too; a fork costs ~1 ms, where a ``ProcessPoolExecutor``
cost ~20 ms to import and start and the teardown of ``multiprocessing`` at exit ~10 ms more.
Without ``os.fork`` (Windows), or with other threads running, the files are linted in this process.
"""

from __future__ import annotations

import os

PARALLEL_MIN_FILES = 64  # below this, one process: a pre-commit run is start-up bound
TASKS_PER_PROCESS = 64  # more tasks: a shorter wait for the last one; each costs one pipe read
MAX_TASKS = 1024  # 4 KB of task numbers: a pipe holds at least that much before a write blocks


def lint_all(linter, targets, fix: bool, jobs: int = 0) -> list:
    """Each target's result (with the config files its launches named, after it). ``jobs``:
    processes to use, this one included (0: one per core, at most four; 1: this process only)."""
    import gc

    processes = jobs or min(os.cpu_count() or 1, 4)
    results: list = [None] * len(targets)
    todo: "list[int] | range" = range(len(targets))  # (not a list of every index: memory of a 50k-file run)
    # The objects loaded by now (modules, database, rules) live to the end, and the files' objects
    # are mostly acyclic and short-lived: the first are frozen out of the collector's passes, and
    # young collections run every 10,000 allocations instead of 700. Measured on the benchmark
    # corpus in one process (21 paired runs): ~8 ms less CPU; switching the collector off saves ~10.
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], 10_000), *threshold[1:])
    try:
        cache = linter.cache
        if cache is not None and not fix and len(targets) >= PARALLEL_MIN_FILES and cache.has_records():
            # unchanged files are answered from the cache's stat index without being read; in a
            # repository linted before, that is nearly all of them, and the rest seldom pay a fork
            todo = []
            for i, target in enumerate(targets):
                results[i] = linter.cached_result(target)
                if results[i] is None:
                    todo.append(i)
        if processes > 1 and len(todo) >= PARALLEL_MIN_FILES and _can_fork():
            _share(linter, targets, todo, results, fix, processes - 1)
        for i in todo:
            if results[i] is None:  # sequential, or what a worker did not bring back
                results[i] = linter.lint_file(targets[i], fix=fix)
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    return _flatten(results)


def _can_fork() -> bool:
    """Whether forking is safe here: a platform with ``fork``, and no other thread running (called
    as a library from a threaded program, a child could inherit a lock that another thread holds,
    an import lock among them, and wait for it forever)."""
    import sys

    threading = sys.modules.get("threading")
    return hasattr(os, "fork") and (threading is None or threading.active_count() == 1)


def _share(linter, targets, todo: "list[int] | range", results: list, fix: bool, workers: int) -> None:
    """Lint ``todo`` in this process and ``workers`` forked ones; fill ``results``."""
    import gc
    import signal
    import sys

    tasks = _deal(targets, todo, min(len(todo), TASKS_PER_PROCESS * (workers + 1), MAX_TASKS))
    n_tasks = len(tasks)
    workers = min(workers, n_tasks - 1)  # (``-j 500``: no worker without a task)
    try:
        queue_r, queue_w = os.pipe()
    except OSError:
        return  # no file descriptor left: lint_all lints everything in this process
    # at most MAX_TASKS numbers of 4 bytes: within any pipe's buffer, so this write cannot block
    os.write(queue_w, b"".join(k.to_bytes(4, "little") for k in range(n_tasks)))
    os.close(queue_w)  # with no writer left, an empty queue reads as end of file
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()  # nothing buffered is inherited (and written twice)
        except (OSError, ValueError):
            pass
    _warm_up(linter, targets, todo)
    # frozen (as lint_all froze what was loaded before), the objects the workers inherit are left
    # out of garbage collection, whose passes would write to (and so copy) every page holding one
    gc.freeze()
    children: list[tuple[int, int]] = []  # (pid, read end of its results pipe)
    try:
        for _ in range(workers):
            try:
                out_r, out_w = os.pipe()
            except OSError:  # out of file descriptors (``-j 5000``): the workers forked so far
                break
            try:
                pid = os.fork()
            except OSError:  # out of processes or memory: the same
                os.close(out_r)
                os.close(out_w)
                break
            if pid == 0:  # the worker: never returns
                os.close(out_r)
                for _pid, r in children:
                    os.close(r)
                _work(linter, targets, tasks, queue_r, out_w, fix)
            os.close(out_w)
            children.append((pid, out_r))
        for k in _take(queue_r):
            for i in tasks[k]:
                results[i] = linter.lint_file(targets[i], fix=fix)
        for pid, out_r in children:
            done, watched = _receive(out_r)
            if watched and linter.targeting.watched is not None:  # (what its release choices read)
                for path, sig in watched.items():
                    linter.targeting.watched.setdefault(path, sig)
            for i, res in done:
                results[i] = res
                if linter.cache is not None and res.content_key is not None:
                    # the worker noted it in its own copy of the cache: note it here, where the
                    # cache is written
                    linter.cache.note_key(res.path, res.content_key)
    finally:
        os.close(queue_r)
        for pid, out_r in children:
            try:
                os.close(out_r)
            except OSError:
                pass
            try:
                os.kill(pid, signal.SIGKILL)  # a no-op for a worker that has ended (a zombie until reaped)
                os.waitpid(pid, 0)
            except OSError:  # (ChildProcessError: reaped already, where SIGCHLD is ignored)
                pass


def _deal(targets, todo: "list[int] | range", n_tasks: int) -> list[list[int]]:
    """``todo`` (in the walk's order) cut into about ``n_tasks`` runs of neighbouring files: a run
    ends where a folder ends once it holds its share (``len(todo) / n_tasks`` files), and at twice
    its share inside a larger folder, so that no task outweighs the others; at most ``n_tasks``."""
    size = -(-len(todo) // max(1, n_tasks))
    tasks: list[list[int]] = []
    run: list[int] = []
    folder = None
    for i in todo:
        d = os.path.dirname(targets[i].path)
        if run and (len(run) >= 2 * size or (d != folder and len(run) >= size)):
            tasks.append(run)
            run = []
        run.append(i)
        folder = d
    if run:
        tasks.append(run)
    return tasks


def _warm_up(linter, targets, todo: "list[int] | range") -> None:
    """Load, before forking, what each worker would otherwise load again for itself: the
    front-ends of the formats the file names show (PyYAML's ~14 ms among them), the shell grammar
    (every format can embed shell) and the newest release's option surface. Measured on the
    benchmark corpus: the same wall time as loading in every process, ~40 ms less CPU."""
    from ..frontends.base import warm_up

    warm_up({targets[i].named for i in todo} - {None})
    from ..surface.db import DatabaseError, UnknownVersion

    try:
        linter.db.surface(linter.targeting.explicit or linter.db.newest)
    except (DatabaseError, UnknownVersion):
        pass  # reported where a file needs it, as in a run in one process


def _take(queue_r: int):
    """Task numbers from the shared queue until it is empty."""
    while True:
        b = os.read(queue_r, 4)
        if len(b) < 4:
            return
        yield int.from_bytes(b, "little")


def _work(linter, targets, tasks, queue_r: int, out_w: int, fix: bool) -> None:
    """A forked worker's whole life: lint the tasks it draws, send back ``([(index, result)], what its
    release choices read)`` (``Targeting.watched``: the result cache's survey), end."""
    code = 1
    try:
        done = []
        try:
            for k in _take(queue_r):
                for i in tasks[k]:
                    done.append((i, linter.lint_file(targets[i], fix=fix)))
        except BaseException:
            pass  # the main process lints what is not sent back, and reports any error itself
        import pickle

        with open(out_w, "wb") as f:
            f.write(pickle.dumps((done, linter.targeting.watched), protocol=pickle.HIGHEST_PROTOCOL))
        code = 0
    finally:
        os._exit(code)


def _receive(out_r: int) -> tuple:
    """A worker's results and what its release choices read, or nothing when they did not arrive
    whole."""
    import pickle

    chunks = []
    while True:
        b = os.read(out_r, 1 << 20)
        if not b:
            break
        chunks.append(b)
    try:
        got = pickle.loads(b"".join(chunks))
    except Exception:
        return [], None
    if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], list)):
        return [], None
    return got[0], got[1] if isinstance(got[1], dict) else None


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
