"""Running the linter over many files: in this process for the few files of a pre-commit run
(start-up bound); for whole repositories, shared with forked worker processes so that every core
works to the end.

Sharing: the files still to lint are dealt into tasks of neighbouring files, in the walk's order
and cut where a folder ends (``_deal``): what the release finding reads once per folder (its
runners, pins, plugin files) is then read by the one process that lints the folder, where tasks
of every ``T``-th file made each process read every folder (benchmarks/README.md, fifth pass).
Task numbers wait in a pipe written before forking; this process and each worker read one number
at a time (a pipe read of 4 bytes is atomic) until the pipe is empty, so a process that drew
expensive tasks (a folder of launches) simply takes fewer. A worker sends each task's results back
as soon as the task is done, slimmed (``results.RunResults.slim``: a file with nothing to report is
a few bytes of counts) and pickled through a pipe of its own, which this process reads between its
own files; it ends with ``os._exit``. Whatever a worker did not bring back (it failed or was
killed) is linted here, so an error in it is reported as in a sequential run. The results are given
in the walk's order as soon as every earlier one is in (``lint_each``), so a run holds only those it
reports, not one per file (benchmarks/README.md, sixth pass).

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


def lint_each(linter, targets: list, fix: bool, jobs: int = 0, slim=None, release: bool = False, unread=None):
    """``(index, result)`` of every target, in the walk's order (the targets' order), each as soon
    as it and every one before it are in hand, so that a run need not hold the results of files it
    has done with (``results.RunResults``). ``slim``: what is kept of a result while it waits for
    those before it, and what a worker sends back of it (default: the result itself); with
    ``release``, ``targets[i]`` is set to None once its result is given (in a worker: once it is
    linted), so that the run's files are not all held to its end either. ``jobs``: processes to
    use, this one included (0: one per core, at most four; 1: this process only). ``unread``: what
    is kept of a walked file without a launch (``results.RunResults.unread_counts``), given in place
    of its result without one being made (``Linter.lint_file``); None: a result for every file."""
    import gc

    processes = jobs or min(os.cpu_count() or 1, 4)
    order = _Order(slim, targets if release else None)
    order.unread = unread
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
                got = linter.cached_result(target)
                if got is None:
                    todo.append(i)
                else:
                    order.put(i, got)
                    yield from order.ready()
        if processes > 1 and len(todo) >= PARALLEL_MIN_FILES and _can_fork():
            yield from _share(linter, targets, todo, order, fix, processes - 1)
        for i in todo:
            if not order.done(i):  # sequential, or what a worker did not bring back
                order.put(i, linter.lint_file(targets[i], fix=fix, unread=unread))
                yield from order.ready()
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)


class _Order:
    """Results that came before those of earlier files (from a worker, or the cache), kept
    (slimmed) until those are in; ``ready`` gives the run of results that can go in order (and
    releases their targets, when ``targets`` is given)."""

    __slots__ = ("slim", "pending", "next", "targets", "unread")

    def __init__(self, slim, targets: "list | None" = None) -> None:
        self.slim = slim
        self.pending: dict = {}
        self.next = 0  # the first index not given yet
        self.targets = targets
        self.unread = None  # (lint_each's: what the engine gives for a walked file without a launch)

    def put(self, i: int, res, slimmed: bool = False) -> None:
        self.pending[i] = res if slimmed or self.slim is None or res is self.unread else self.slim(res)

    def done(self, i: int) -> bool:
        return i < self.next or i in self.pending

    def ready(self):
        pending, targets = self.pending, self.targets
        while self.next in pending:
            yield self.next, pending.pop(self.next)
            if targets is not None:
                targets[self.next] = None
            self.next += 1


def _can_fork() -> bool:
    """Whether forking is safe here: a platform with ``fork``, and no other thread running (called
    as a library from a threaded program, a child could inherit a lock that another thread holds,
    an import lock among them, and wait for it forever)."""
    import sys

    threading = sys.modules.get("threading")
    return hasattr(os, "fork") and (threading is None or threading.active_count() == 1)


def _share(linter, targets, todo: "list[int] | range", order: "_Order", fix: bool, workers: int):
    """Lint ``todo`` in this process and ``workers`` forked ones; give each result in order
    (``order``) as soon as it can go."""
    import gc
    import select
    import signal
    import sys

    tasks = _deal(targets, todo, min(len(todo), TASKS_PER_PROCESS * (workers + 1), MAX_TASKS))
    n_tasks = len(tasks)
    workers = min(workers, n_tasks - 1)  # (``-j 500``: no worker without a task)
    try:
        queue_r, queue_w = os.pipe()
    except OSError:
        return  # no file descriptor left: lint_each lints everything in this process
    # at most MAX_TASKS numbers of 4 bytes: within any pipe's buffer, so this write cannot block
    os.write(queue_w, b"".join(k.to_bytes(4, "little") for k in range(n_tasks)))
    os.close(queue_w)  # with no writer left, an empty queue reads as end of file
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()  # nothing buffered is inherited (and written twice)
        except (OSError, ValueError):
            pass
    _warm_up(linter, targets, todo)
    # frozen (as lint_each froze what was loaded before), the objects the workers inherit are left
    # out of garbage collection, whose passes would write to (and so copy) every page holding one
    gc.freeze()
    children: list[_Child] = []
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
                for c in children:
                    os.close(c.fd)
                _work(linter, targets, tasks, queue_r, out_w, fix, order.slim, order.targets is not None, order.unread)
            os.close(out_w)
            os.set_blocking(out_r, False)
            children.append(_Child(pid, out_r))
        cache = linter.cache
        watched = linter.targeting.watched  # (the result cache's survey: what the release choices read)
        linted = 0
        for k in _take(queue_r):
            for i in tasks[k]:
                order.put(i, linter.lint_file(targets[i], fix=fix, unread=order.unread))
                linted += 1
                if linted % POLL_EVERY == 0:
                    _poll(children, order, cache, watched)
                yield from order.ready()
            _poll(children, order, cache, watched)
            yield from order.ready()
        while True:  # the workers' last results
            open_fds = [c.fd for c in children if not c.ended]
            if not open_fds:
                break
            try:
                select.select(open_fds, [], [])
            except InterruptedError:
                pass
            _poll(children, order, cache, watched)
            yield from order.ready()
    finally:
        os.close(queue_r)
        for c in children:
            try:
                os.close(c.fd)
            except OSError:
                pass
            try:
                os.kill(c.pid, signal.SIGKILL)  # a no-op for a worker that has ended (a zombie until reaped)
                os.waitpid(c.pid, 0)
            except OSError:  # (ChildProcessError: reaped already, where SIGCHLD is ignored)
                pass


_LENGTH = 4  # bytes of a frame's length
POLL_EVERY = 16  # this process reads what the workers sent every this many of its own files


class _Child:
    """A worker: its process id, the read end of the pipe its results come through (not
    blocking), the bytes read of a frame not yet whole, and whether it has ended (or sent what
    cannot be read: the rest of its files are linted here)."""

    __slots__ = ("pid", "fd", "buf", "ended")

    def __init__(self, pid: int, fd: int) -> None:
        self.pid, self.fd = pid, fd
        self.buf = bytearray()
        self.ended = False


def _poll(children: list, order: "_Order", cache, watched: "dict | None" = None) -> None:
    """Take what the workers have sent so far, without waiting: frames of 4 bytes of length, then
    a pickled ``([(index, slimmed result)], what the worker's release choices read or None)``."""
    for c in children:
        if c.ended:
            continue
        while True:
            try:
                b = os.read(c.fd, 1 << 16)
            except BlockingIOError:
                break
            except OSError:
                b = b""
            if not b:
                c.ended = True
                break
            c.buf += b
        _frames(c, order, cache, watched)


def _frames(c: _Child, order: "_Order", cache, watched: "dict | None" = None) -> None:
    """The whole frames in ``c.buf``, into ``order`` (a frame cut short by the worker's end is dropped)."""
    import pickle

    buf = c.buf
    while len(buf) >= _LENGTH:
        n = int.from_bytes(buf[:_LENGTH], "little")
        if len(buf) < _LENGTH + n:
            return
        try:
            got = pickle.loads(buf[_LENGTH:_LENGTH + n])
        except Exception:
            got = None
        del buf[:_LENGTH + n]
        if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], list)):
            c.ended = True  # (not what a worker writes: whatever it did not bring back is linted here)
            c.buf = bytearray()
            return
        done, seen = got
        if isinstance(seen, dict) and watched is not None:  # (what its release choices read)
            for path, sig in seen.items():
                watched.setdefault(path, sig)
        for i, res in done:
            content_key = getattr(res, "content_key", None)
            if cache is not None and content_key is not None:
                # the worker noted it in its own copy of the cache: note it here, where the cache is written
                cache.note_key(res.path, content_key)
            order.put(i, res, slimmed=True)


def _deal(targets, todo: "list[int] | range", n_tasks: int) -> "list[list[int] | range]":
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
            tasks.append(_compact(run))
            run = []
        run.append(i)
        folder = d
    if run:
        tasks.append(_compact(run))
    return tasks


def _compact(run: list[int]) -> "list[int] | range":
    """A run of consecutive indices as a range (an int object per file was ~1.5 MB at 50k files)."""
    return range(run[0], run[-1] + 1) if run[-1] - run[0] + 1 == len(run) else run


def _warm_up(linter, targets, todo: "list[int] | range") -> None:
    """Load, before forking, what each worker would otherwise load again for itself: the
    front-ends of the formats the file names show (PyYAML's ~14 ms among them), the shell grammar
    (every format can embed shell) and the newest release's option surface. Measured on the
    benchmark corpus: the same wall time as loading in every process, ~40 ms less CPU.

    And, when at least two of the files may be run by a script (``surroundings.CALLED_SUFFIXES``:
    scripts and Python files) and no ``-t`` decides every release, the index of the repository's callers (``Callers.index``: a walk of the
    repository reading every script): the release finding builds it at the second script it is
    asked about, which every process of a run with scripts in most of its tasks reached, each
    walking and reading the repository again (~0.13 s CPU per process in the 10k monorepo,
    benchmarks/README.md, seventh pass)."""
    from ..frontends.base import warm_up
    from .surroundings import CALLED_SUFFIXES

    named: set = set()
    scripts: list[int] = []
    for i in todo:
        t = targets[i]
        named.add(t.named)
        if len(scripts) < 2 and t.path.endswith(CALLED_SUFFIXES):
            scripts.append(i)
    warm_up(named - {None})
    from ..surface.db import DatabaseError, UnknownVersion

    try:
        linter.db.surface(linter.targeting.explicit or linter.db.newest)
    except (DatabaseError, UnknownVersion):
        pass  # reported where a file needs it, as in a run in one process
    if len(scripts) == 2 and not linter.targeting.explicit:
        linter.targeting.index_callers(targets[scripts[0]].path)


def _take(queue_r: int):
    """Task numbers from the shared queue until it is empty."""
    while True:
        b = os.read(queue_r, 4)
        if len(b) < 4:
            return
        yield int.from_bytes(b, "little")


def _work(linter, targets, tasks, queue_r: int, out_w: int, fix: bool, slim, release: bool, unread=None) -> None:
    """A forked worker's whole life: lint the tasks it draws, send each task's ``([(index, slimmed
    result)], None)`` as it is done (``_poll`` reads them) and last ``([], what its release choices
    read)`` (``Targeting.watched``: the result cache's survey), end.

    The pipe is written without blocking while there are tasks left (:class:`_Outbox`): a main
    process kept off the processor by the machine's load must not stall the worker once the pipe's
    buffer (64 KB, a few tasks' results) is full; what does not fit waits for the next task, and the
    rest is written at the end."""
    code = 1
    try:
        out = _Outbox(out_w)
        done: list = []
        try:
            for k in _take(queue_r):
                for i in tasks[k]:
                    res = linter.lint_file(targets[i], fix=fix, unread=unread)
                    if release:
                        targets[i] = None  # (its memory is this process's to reuse)
                    done.append((i, res if slim is None or res is unread else slim(res)))
                out.send((done, None))
                done = []
        except BaseException:
            pass  # the main process lints what is not sent back, and reports any error itself
        if done:
            out.send((done, None))
        if linter.targeting.watched:
            out.send(([], linter.targeting.watched))
        out.flush()
        code = 0
    finally:
        os._exit(code)


class _Outbox:
    """A worker's end of its results pipe: frames (4 bytes of length, then the pickle) written as
    far as the pipe takes them without blocking; ``flush`` writes the rest, blocking."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = bytearray()
        try:
            os.set_blocking(fd, False)
        except OSError:  # (then every write blocks, as a plain pipe does)
            pass

    def send(self, frame) -> None:
        import pickle

        body = pickle.dumps(frame, protocol=pickle.HIGHEST_PROTOCOL)
        self.pending += len(body).to_bytes(_LENGTH, "little")
        self.pending += body
        self._write()

    def _write(self) -> None:
        while self.pending:
            try:
                n = os.write(self.fd, self.pending)
            except BlockingIOError:
                return  # the pipe is full: the rest after the next task
            del self.pending[:n]

    def flush(self) -> None:
        os.set_blocking(self.fd, True)
        self._write()
        os.close(self.fd)
