"""The ``vllm-lint`` program (console script and ``python -m vllm_lint``).

A plain lint command line is read by :func:`vllm_lint.cli.lint_command.parse_argv` and run without
importing click; every other command line goes to the click application in ``vllm_lint.cli.app``.
Either way the process then ends at once (:func:`_exit_now`).
"""

from __future__ import annotations

import os
import sys


def console() -> None:
    _fewer_young_collections()
    try:
        _run(sys.argv[1:])
    except SystemExit as e:
        _exit_now(e.code)
        raise


def _fewer_young_collections() -> None:
    """Young garbage collections every 10,000 allocations instead of 700, from the program's start.

    Start-up allocates mostly what lives to the end (~200 modules, the rules, the database): a
    one-file lint ran ~22 young collections that freed next to nothing, about 5 % of its CPU
    (benchmarks/README.md). The lint of many files keeps the same threshold
    (``vllm_lint.pipeline.parallel``), so only start-up changes."""
    import gc

    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], 10_000), *threshold[1:])


def _run(argv: list[str]) -> None:
    from .lint_command import EXIT_ERROR, EXIT_FINDINGS, Exit, echo, execute, parse_argv

    # shell completion (``_VLLM_LINT_COMPLETE=bash_source``) is click's, as is anything unusual
    completing = any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ)
    values = None if completing else parse_argv(argv)
    if values is None:
        from .app import run

        run()
        return
    try:
        code = execute(**values)
    except Exit as e:
        code = e.code
    except KeyboardInterrupt:
        echo("vllm-lint: interrupted", err=True)
        code = EXIT_ERROR
    except BrokenPipeError:
        # as click: the reader went away (``| head``); say nothing more, exit 1
        _silence_stdout()
        code = EXIT_FINDINGS
    sys.exit(code)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _exit_now(code: object) -> None:
    """End the process without the interpreter's teardown when nothing depends on it.

    Freeing every module and object at exit (the release file's dicts, the grammar, ~250 modules)
    costs about 9 ms CPU, an eighth of a one-file lint (benchmarks/README.md). Output is flushed
    first. The lint's own workers are forked and reaped before this (``vllm_lint.pipeline.parallel``); a
    process with ``multiprocessing`` loaded or other threads running, or under coverage, exits
    normally (their atexit handlers matter), and so does any exit that is not a plain code."""
    if code is not None and not isinstance(code, int):
        return
    if "multiprocessing" in sys.modules or "coverage" in sys.modules:
        return
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # a closed or broken pipe: let the normal exit report it as before
    os._exit(code or 0)
