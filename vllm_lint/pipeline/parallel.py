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
as it finishes the task (a frame: its length, then the pickle) through a pipe of its own, and this
process takes in what has arrived between its own tasks: pickling and unpickling are spread over
the run, shared as the tasks are, where one pickle of every result at the end (~1.5 MB at 10k files:
~40 ms to write and ~40 ms to read) was a serial tail after the last task. A worker ends with
``os._exit``. Whatever a worker did not bring back (it failed or was killed) is linted here, so an
error in it is reported as in a sequential run.

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
        inbox = _Inbox(linter, results, [r for _pid, r in children])
        for k in _take(queue_r):
            for i in tasks[k]:
                results[i] = linter.lint_file(targets[i], fix=fix)
            inbox.take_in()  # (what the workers sent meanwhile: their pipes do not fill)
        inbox.take_in(to_the_end=True)
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
    """A forked worker's whole life: lint the tasks it draws, sending back each task's
    ``([(index, result)], None)`` when it is done (after an error, what it linted of the task),
    and last ``([], what its release choices read)`` (``Targeting.watched``: the result cache's
    survey), end.

    The pipe is written without blocking while there are tasks left (:class:`_Outbox`): a main
    process kept off the processor by the machine's load must not stall the worker once the pipe's
    buffer (64 KB, a few tasks' results) is full; what does not fit waits for the next task, and the
    rest is written at the end."""
    code = 1
    try:
        import pickle

        out = _Outbox(out_w)
        done: list = []
        try:
            for k in _take(queue_r):
                for i in tasks[k]:
                    done.append((i, linter.lint_file(targets[i], fix=fix)))
                out.send(pickle.dumps((done, None), protocol=pickle.HIGHEST_PROTOCOL))
                done = []
        except BaseException:
            pass  # the main process lints what is not sent back, and reports any error itself
        if done:
            out.send(pickle.dumps((done, None), protocol=pickle.HIGHEST_PROTOCOL))
        if linter.targeting.watched:
            out.send(pickle.dumps(([], linter.targeting.watched), protocol=pickle.HIGHEST_PROTOCOL))
        out.flush()
        code = 0
    finally:
        os._exit(code)


class _Outbox:
    """A worker's end of its results pipe: frames (length, pickle) written as far as the pipe takes
    them without blocking; ``flush`` writes the rest, blocking."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = bytearray()
        try:
            os.set_blocking(fd, False)
        except OSError:  # (then every write blocks, as a plain pipe does)
            pass

    def send(self, frame: bytes) -> None:
        self.pending += len(frame).to_bytes(_LENGTH, "little")
        self.pending += frame
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


_LENGTH = 4  # bytes of a frame's length


class _Inbox:
    """The results the workers send, taken in as they arrive: each worker's pipe is read without
    blocking between this process's tasks (``take_in``), and to its end after the last one; a
    frame that does not arrive whole or does not unpickle is dropped (its files are linted here)."""

    def __init__(self, linter, results: list, pipes: list[int]) -> None:
        self.linter = linter
        self.results = results
        self.open = {}
        for r in pipes:
            try:
                os.set_blocking(r, False)
            except OSError:  # (cannot happen for a pipe; then it is read at the end only)
                pass
            self.open[r] = bytearray()

    def take_in(self, to_the_end: bool = False) -> None:
        for r in list(self.open):
            buf = self.open[r]
            if to_the_end:
                try:
                    os.set_blocking(r, True)
                except OSError:
                    pass
            while True:
                try:
                    b = os.read(r, 1 << 20)
                except BlockingIOError:
                    break  # nothing more for now
                except OSError:
                    b = b""
                if not b:  # the worker ended (a frame cut short is dropped)
                    del self.open[r]
                    break
                buf += b
                self._frames(buf)
                if not to_the_end:
                    break  # (the rest at the next call: back to linting)

    def _frames(self, buf: bytearray) -> None:
        import pickle

        while len(buf) >= _LENGTH:
            n = int.from_bytes(buf[:_LENGTH], "little")
            if len(buf) < _LENGTH + n:
                return
            frame = bytes(buf[_LENGTH:_LENGTH + n])
            del buf[:_LENGTH + n]
            try:
                got = pickle.loads(frame)
            except Exception:
                continue
            if not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], list)):
                continue
            done, watched = got
            if isinstance(watched, dict) and self.linter.targeting.watched is not None:
                for path, sig in watched.items():  # (what its release choices read)
                    self.linter.targeting.watched.setdefault(path, sig)
            for i, res in done:
                self.results[i] = res
                if self.linter.cache is not None and res.content_key is not None:
                    # the worker noted it in its own copy of the cache: note it here, where the
                    # cache is written
                    self.linter.cache.note_key(res.path, res.content_key)


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
