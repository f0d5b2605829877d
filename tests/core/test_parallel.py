"""Sharing files with forked workers (vllm_lint.pipeline.parallel) gives the findings of a sequential run,
file for file; whatever a worker does not bring back is linted in the main process."""

from __future__ import annotations

import os

import pytest

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")



def lint_all(linter, targets, fix: bool, jobs: int = 0) -> list:
    """Every target's result as a run keeps it for a report that needs every file (JUnit's), in
    the order of the output: ``parallel.lint_each`` through ``results.RunResults``."""
    from vllm_lint.pipeline import parallel
    from vllm_lint.pipeline.results import RunResults

    run = RunResults(targets, every_file=True)
    for i, res in parallel.lint_each(linter, targets, fix, jobs):
        run.add(i, res)
    return run.results

def _tree(root) -> None:
    flags = ["--tensor-parallel-size 2", "--swap-space 4", "--max-model-len 8192", "--no-such-flag 1",
             "--use-v2-block-manager", "--gpu-memory-utilization 0.9"]
    for i in range(30):
        d = root / f"d{i % 4}"
        d.mkdir(exist_ok=True)
        (d / f"s{i}.sh").write_text(f"#!/bin/sh\nset -e\nvllm serve facebook/opt-125m {flags[i % 6]} {flags[(i + 1) % 6]}\n")
        (d / f"p{i}.sh").write_text("#!/bin/sh\necho hello\n")
    for i in range(12):
        (root / f"k{i}.yaml").write_text(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\nspec:\n  template:\n    spec:\n"
            "      containers:\n        - name: vllm\n          image: vllm/vllm-openai:latest\n"
            f"          args: [\"--model\", \"facebook/opt-125m\", \"{flags[i % 6].split()[0]}\", \"1\"]\n")
    for i in range(8):
        (root / f"m{i}.py").write_text(f"from vllm import LLM\n\nllm = LLM(model='facebook/opt-125m', swap_space={i})\n")


def _findings(results) -> list:
    return [(r.path, d.code, d.row, d.column, d.message) for r in results for d in r.diagnostics]


@pytest.fixture
def corpus(synth_db_path, tmp_path, monkeypatch):
    """(targets, a new linter each call, the sequential results)."""
    from vllm_lint.pipeline import parallel
    from vllm_lint.pipeline.discovery import discover
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    targets, _ = discover(["."], settings)
    assert len(targets) >= parallel.PARALLEL_MIN_FILES

    def linter():
        return Linter(Database(synth_db_path), settings, select_rules([], []))

    sequential = [linter().lint_file(t) for t in targets]
    assert any(r.diagnostics for r in sequential)
    return targets, linter, sequential


@needs_fork
@pytest.mark.parametrize("jobs", [2, 3])
def test_workers_give_the_sequential_findings(corpus, workers_only, monkeypatch, jobs):
    from vllm_lint.pipeline import parallel

    targets, linter, sequential = corpus
    monkeypatch.setattr(parallel, "TASKS_PER_PROCESS", 3)
    main = linter()
    linted_here = []
    real = main.lint_file
    monkeypatch.setattr(main, "lint_file", lambda t, **k: linted_here.append(t) or real(t, **k))
    shared = lint_all(main, targets, False, jobs=jobs)
    assert len(workers_only) == jobs - 1
    assert linted_here == []  # every result came back from a worker
    assert _findings(shared) == _findings(sequential)
    assert [r.verdict for r in shared] == [r.verdict for r in sequential]
    assert [r.stat_key for r in shared] == [r.stat_key for r in sequential]


@needs_fork
def test_both_processes_draw_tasks_and_agree(corpus, monkeypatch):
    """Without the test hook, this process and the worker race for the tasks: any split gives the
    same results in the same order."""
    from vllm_lint.pipeline import parallel

    targets, linter, sequential = corpus
    monkeypatch.setattr(parallel, "TASKS_PER_PROCESS", 5)
    shared = lint_all(linter(), targets, False, jobs=2)
    assert _findings(shared) == _findings(sequential)


@needs_fork
@pytest.mark.parametrize("how", ["raises", "dies"])
def test_what_a_failed_worker_did_not_send_is_linted_here(corpus, workers_only, monkeypatch, how):
    from vllm_lint.pipeline import parallel

    targets, linter, sequential = corpus
    main_pid = os.getpid()
    main = linter()
    real = main.lint_file
    calls = []

    def failing(t, **k):
        calls.append(t)
        if os.getpid() != main_pid and len(calls) == 5:
            if how == "dies":
                os._exit(3)  # killed: the tasks it finished came back as each was done
            raise RuntimeError("worker bug")  # what it linted before comes back
        return real(t, **k)

    monkeypatch.setattr(parallel, "TASKS_PER_PROCESS", 40)  # (a task per file: 80 files, two processes)
    monkeypatch.setattr(main, "lint_file", failing)
    shared = lint_all(main, targets, False, jobs=2)
    assert _findings(shared) == _findings(sequential)
    # all but the four the worker linted: it sends each task's results when the task is done (one
    # file a task here), so what it sent before it raised or died comes back
    assert len(calls) == len(targets) - 4


@needs_fork
def test_an_error_in_a_worker_is_raised_here_as_in_a_sequential_run(corpus, workers_only, monkeypatch):
    from vllm_lint.pipeline import parallel
    from vllm_lint.surface.db import DatabaseError

    targets, linter, _ = corpus
    main = linter()
    real = main.db.surface
    calls: list = []

    def broken(*a, **k):
        calls.append(1)
        if len(calls) == 1:
            return real(*a, **k)  # the warm-up before forking
        raise DatabaseError("release file unreadable")

    monkeypatch.setattr(main.db, "surface", broken)
    with pytest.raises(DatabaseError):
        lint_all(main, targets, False, jobs=2)
    assert len(calls) > 1  # raised in this process, linting what the worker could not


def test_jobs_one_lints_in_this_process_only(corpus, monkeypatch):
    from vllm_lint.pipeline import parallel

    targets, linter, sequential = corpus

    def no_fork():
        raise AssertionError("a worker process was started")

    monkeypatch.setattr(os, "fork", no_fork)
    assert _findings(lint_all(linter(), targets, False, jobs=1)) == _findings(sequential)


def test_negative_jobs_is_a_usage_error(run_cli, tmp_path):
    r = run_cli("--jobs", "-1", str(tmp_path))
    assert r.exit_code == 2 and "--jobs" in r.stderr


@needs_fork
@pytest.mark.parametrize("fails", ["fork", "pipe", "queue"])
def test_a_failed_fork_or_pipe_leaves_the_work_to_the_processes_there_are(corpus, monkeypatch, fails):
    from vllm_lint.pipeline import parallel

    targets, linter, sequential = corpus
    real_fork, real_pipe = os.fork, os.pipe
    made = []

    def fork():
        if made:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        made.append(1)
        return real_fork()

    def pipe():
        made.append(1)
        if len(made) > (0 if fails == "queue" else 2):  # (else: the queue's pipe and one worker's)
            raise OSError(24, "Too many open files")
        return real_pipe()

    if fails == "fork":
        monkeypatch.setattr(os, "fork", fork)
    else:
        monkeypatch.setattr(os, "pipe", pipe)
    shared = lint_all(linter(), targets, False, jobs=4)
    assert _findings(shared) == _findings(sequential)


@needs_fork
def test_workers_are_reaped_where_sigchld_is_ignored(synth_db_path, tmp_path):
    """A process started with SIGCHLD ignored (inherited) has its children reaped by the kernel:
    waiting for a worker then fails with ECHILD, which must not end the run in a traceback."""
    import subprocess
    import sys

    _tree(tmp_path)
    code = ("import signal, sys\nsignal.signal(signal.SIGCHLD, signal.SIG_IGN)\n"
            "from vllm_lint.cli.program import _run\n"
            f"_run(['--no-cache', '-j', '2', '-t', '0.27.1', {str(tmp_path)!r}])\n")
    env = dict(os.environ, VLLM_LINT_DB=str(synth_db_path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in r.stderr, r.stderr
    assert r.returncode == 1 and "VL101" in r.stdout


def test_no_fork_while_other_threads_run(corpus, monkeypatch):
    import threading

    from vllm_lint.pipeline import parallel

    targets, linter, sequential = corpus

    def no_fork():
        raise AssertionError("forked with another thread running")

    monkeypatch.setattr(os, "fork", no_fork)
    release = threading.Event()
    t = threading.Thread(target=release.wait)
    t.start()
    try:
        assert _findings(lint_all(linter(), targets, False, jobs=2)) == _findings(sequential)
    finally:
        release.set()
        t.join()


@pytest.mark.parametrize("n_tasks", [1, 3, 7, 64])
def test_tasks_are_runs_of_neighbouring_files_cut_where_a_folder_ends(n_tasks):
    """A folder's files go to one task (unless it holds more than two tasks' share), so the release
    finding reads a folder's surroundings in one process, not in every one."""
    from vllm_lint.pipeline import parallel
    from vllm_lint.pipeline.discovery import Target

    sizes = [3, 1, 40, 2, 2, 9, 1, 1, 25, 5]
    targets = [Target(f"d{k}/f{j}.sh", False) for k, n in enumerate(sizes) for j in range(n)]
    todo = [i for i in range(len(targets)) if i % 11]  # (the cache answered some)
    tasks = parallel._deal(targets, todo, n_tasks)
    assert [i for t in tasks for i in t] == todo and all(tasks)
    assert len(tasks) <= n_tasks
    share = -(-len(todo) // n_tasks)
    folder = [targets[i].path.split("/")[0] for i in todo]
    for k, n in enumerate(sizes):
        holding = [t for t in tasks if any(targets[i].path.startswith(f"d{k}/") for i in t)]
        if 0 < folder.count(f"d{k}") <= share:
            assert len(holding) == 1
        else:  # (a larger folder: cut at twice the share)
            assert len(holding) <= 1 + folder.count(f"d{k}") // (2 * share) + 1


def test_the_workers_frames_are_taken_whole_and_a_cut_or_broken_one_ends_the_worker():
    """A worker's pipe holds frames (length, pickle): each whole frame's results are taken in as it
    arrives (with what the worker's release choices read); a frame cut short (the worker died
    writing it) is dropped, and one that does not unpickle ends what is taken from that worker:
    its files stay to be linted here."""
    import pickle

    from vllm_lint.pipeline import parallel
    from vllm_lint.pipeline.engine import FileResult

    class Order:
        def __init__(self):
            self.got = {}

        def put(self, i, res, slimmed=False):
            self.got[i] = res.path

    def frame(done, seen=None) -> bytes:
        data = pickle.dumps((done, seen))
        return len(data).to_bytes(parallel._LENGTH, "little") + data

    order, watched = Order(), {}
    r, w = os.pipe()
    os.set_blocking(r, False)
    child = parallel._Child(0, r)
    parallel._poll([child], order, None, watched)  # nothing sent yet: does not block
    assert order.got == {} and not child.ended
    os.write(w, frame([(0, FileResult("a")), (1, FileResult("b"))]))
    os.write(w, frame([(2, FileResult("c"))])[:-3])  # (the rest arrives later)
    parallel._poll([child], order, None, watched)
    assert order.got == {0: "a", 1: "b"}
    os.write(w, frame([(2, FileResult("c"))])[-3:])
    os.write(w, frame([], {"/x/Dockerfile": [1, 2, 3]}))
    parallel._poll([child], order, None, watched)
    assert order.got == {0: "a", 1: "b", 2: "c"} and watched == {"/x/Dockerfile": [1, 2, 3]}
    broken = frame([(3, FileResult("d"))])
    os.write(w, broken[:parallel._LENGTH] + b"\x00" * (len(broken) - parallel._LENGTH))  # (not a pickle)
    os.write(w, frame([(4, FileResult("e"))]))
    os.close(w)
    parallel._poll([child], order, None, watched)
    assert order.got == {0: "a", 1: "b", 2: "c"} and child.ended
    os.close(r)


def test_a_worker_does_not_wait_for_a_full_pipe_until_its_last_task():
    """A worker's frames go into its pipe as far as the pipe takes them: with the main process not
    reading (kept off the processor), sending returns at once and the rest waits; ``flush`` at the
    end writes it all, in order."""
    import pickle
    import threading

    from vllm_lint.pipeline import parallel

    r, w = os.pipe()
    out = parallel._Outbox(w)
    big = b"x" * 300_000  # (over any pipe's default buffer)
    out.send(big)  # returns with no reader
    assert out.pending
    out.send(b"y" * 10)
    frames = [pickle.dumps(x, protocol=pickle.HIGHEST_PROTOCOL) for x in (big, b"y" * 10)]
    got = bytearray()

    def drain():
        while True:
            b = os.read(r, 1 << 16)
            if not b:
                return
            got.extend(b)

    t = threading.Thread(target=drain)
    t.start()
    out.flush()
    t.join()
    os.close(r)
    n = parallel._LENGTH
    assert bytes(got) == b"".join(len(f).to_bytes(n, "little") + f for f in frames)


def _scripts_repo(root) -> None:
    """A repository of scripts in several folders, one of them a caller that installs a release
    and runs the scripts of ``jobs/`` (the release their launches are checked against)."""
    (root / ".git").mkdir()
    (root / "run_all.sh").write_text("#!/bin/sh\npip install vllm==0.10.0\nfor s in jobs/*.sh; do bash $s; done\n")
    for i in range(40):
        d = root / ("jobs" if i % 2 else f"other{i % 3}")
        d.mkdir(exist_ok=True)
        (d / f"s{i}.sh").write_text(f"#!/bin/sh\nvllm serve facebook/opt-125m --swap-space {i}\n")
    for i in range(30):
        (root / f"notes{i}.txt").write_text("nothing\n")


@needs_fork
@pytest.mark.parametrize("explicit", [False, True])
def test_the_callers_index_is_built_once_before_forking(synth_db_path, tmp_path, monkeypatch, workers_only, explicit):
    """A run with scripts among its files indexes the repository's callers (a walk reading every
    script) once, before forking, where every process walked and read the repository again; the
    worker's findings, the release a caller installs among them, are the sequential run's. With
    ``-t`` no release is looked for: no walk."""
    from vllm_lint.pipeline import callers, parallel
    from vllm_lint.pipeline.discovery import discover
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    repo = tmp_path / "repo"
    repo.mkdir()
    _scripts_repo(repo)
    monkeypatch.chdir(repo)
    settings = Settings(target_version="0.10.0") if explicit else Settings()
    targets, _ = discover(["."], settings)
    walks = tmp_path / "walks"
    real = callers.Callers._walk

    def counted(self, root):
        with open(walks, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        return real(self, root)

    def linter():
        return Linter(Database(synth_db_path), settings, select_rules([], []))

    sequential = [linter().lint_file(t) for t in targets]
    monkeypatch.setattr(callers.Callers, "_walk", counted)
    monkeypatch.setattr(parallel, "TASKS_PER_PROCESS", 3)
    shared = lint_all(linter(), targets, False, jobs=2)
    assert len(workers_only) == 1
    assert _findings(shared) == _findings(sequential)
    assert [r.verdict for r in shared] == [r.verdict for r in sequential]
    if explicit:
        assert not walks.exists()
    else:
        assert walks.read_text().split() == [str(os.getpid())]  # once, here, before the fork
        pinned = linter().targeting.pin_for("jobs/s1.sh")
        assert pinned is not None and pinned[0] == "0.10.0" and "run_all.sh" in pinned[1]
