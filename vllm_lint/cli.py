"""Command line: ``vllm-lint [OPTIONS] [PATHS]...`` lints; ``db``, ``flags``, ``rule`` and ``audit``
are subcommands beside it.

Exit codes: 0 nothing left to report, 1 findings left, 2 usage, configuration or internal error.
Heavy modules (libcst, requests, front-ends) are imported only when a command needs them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

import click

from . import __version__

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

LINT_HELP = """Lint (and with --fix, rewrite) vLLM launches in PATHS against the vLLM release they deploy.

\b
Exit codes: 0 nothing to report, 1 findings remain, 2 usage, configuration or internal error.
\b
Other commands: vllm-lint flags list|show|diff, vllm-lint rule CODE, vllm-lint audit,
vllm-lint db build|update|status. Run `vllm-lint COMMAND --help` for each."""


class DefaultGroup(click.Group):
    """A group whose default command is ``lint``: ``vllm-lint --fix deploy/`` runs ``lint``.

    The other commands live in their own modules and are imported only when named (or listed), so
    a lint run neither imports nor builds them (start-up, benchmarks/README.md)."""

    LAZY = {"db": ("cli_db", "db"), "audit": ("audit_cli", "audit"), "flags": ("cli_flags", "flags_group"),
            "rule": ("cli_flags", "rule_cmd")}

    def get_command(self, ctx: click.Context, cmd_name: str) -> Optional[click.Command]:
        if cmd_name not in self.commands and cmd_name in self.LAZY:
            import importlib

            module, attr = self.LAZY[cmd_name]
            try:
                cmd = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
            except ImportError:  # an optional command whose dependencies are missing
                return None
            self.add_command(cmd, cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.LAZY})

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in ("--version",):
            return super().parse_args(ctx, args)
        if not args or (args[0] not in self.commands and args[0] not in self.LAZY):
            args = ["lint", *args]
        return super().parse_args(ctx, args)


def _fail(message: str, code: int = EXIT_ERROR) -> "click.exceptions.Exit":
    click.echo(f"vllm-lint: error: {message}", err=True)
    return click.exceptions.Exit(code)


def _db_range() -> str:
    try:
        from .surface.db import Database

        db = Database()
        return f"vLLM {db.versions[0]} to {db.newest}, {len(db.versions)} releases"
    except Exception as e:  # noqa: BLE001 - shown, never raised
        return f"database unavailable: {e}"


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"vllm-lint {__version__} (flag database: {_db_range()})")
    ctx.exit(0)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]}, help=LINT_HELP)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the range of vLLM releases the database covers.")
def main() -> None:
    pass


def _load_db(db_path: Optional[str]):
    from .surface.db import Database, DatabaseError

    try:
        return Database(Path(db_path) if db_path else None)
    except DatabaseError as e:
        raise _fail(str(e))


@main.command("lint", help=LINT_HELP)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--fix", is_flag=True, help="Apply safe fixes in place.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (and show as fixable) unsafe fixes.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the unified diff of the fixes; write nothing.")
@click.option("--target-version", "-t", metavar="VERSION", help="vLLM release to check against (0.27 = newest 0.27.x).")
@click.option("--select", metavar="CODES", help="Comma-separated rule codes or prefixes to enable (VL1,VL201).")
@click.option("--extend-select", metavar="CODES", help="Rule codes or prefixes to enable on top of the selection.")
@click.option("--ignore", metavar="CODES", help="Comma-separated rule codes or prefixes to disable.")
@click.option("--output-format", type=click.Choice(["text", "concise", "json", "github", "gitlab", "sarif", "junit"]),
              default="text", show_default=True)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("--quiet", "-q", is_flag=True, help="Print findings only, no summary.")
@click.option("--statistics", is_flag=True, help="Print a count per rule instead of each finding.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Configuration file to use.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB",
              help="Flag database directory (default: the shipped one).")
@click.option("--gpu", help="GPU product for anti-pattern rules when the launch does not say (H100, H200, GB200...).")
@click.option("--gpus", type=int, help="GPUs available to each launch when the launch does not say.")
@click.option("--color/--no-color", default=None, help="Force coloured output on or off (default: on a terminal, unless NO_COLOR).")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache (.vllm-lint-cache/).")
@click.option("--online", is_flag=True, default=None,
              help="Allow fetching model facts (config.json) from the Hugging Face hub; cached.")
@click.option("--verbose", "-v", is_flag=True,
              help="Say which release each launch was checked against and why, and which rules were skipped.")
@click.option("--add-noqa", is_flag=True,
              help="Write a `# vllm-lint: ignore[CODES]` comment for every finding (adopting on an existing repository).")
@click.option("--baseline", "baseline_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Hide the findings recorded in this baseline file; report only new ones.")
@click.option("--write-baseline", is_flag=True, help="Record the current findings in the --baseline FILE and exit 0.")
def lint_cmd(paths, fix, unsafe_fixes, show_diff, target_version, select, extend_select, ignore, output_format,
             exit_zero, quiet, statistics, config_path, db_path, gpu, gpus, color, no_cache, online, verbose,
             add_noqa, baseline_path, write_baseline) -> None:
    from .engine import Linter, discover
    from .report import ReportContext
    from .rules.base import registry, select_rules
    from .settings import ConfigError, for_run as settings_for_run
    from .surface.db import DatabaseError, UnknownVersion

    paths = paths or (".",)
    if write_baseline and not baseline_path:
        raise _fail("--write-baseline needs --baseline FILE")
    if add_noqa and (fix or show_diff or write_baseline):
        raise _fail("--add-noqa cannot be combined with --fix, --diff or --write-baseline")
    try:
        settings = settings_for_run(config_path, paths)
    except ConfigError as e:
        raise _fail(str(e))
    split = lambda s: [c.strip() for c in s.split(",") if c.strip()] if s else None  # noqa: E731
    settings = settings.merged(target_version=target_version, select=split(select), ignore=split(ignore),
                               extend_select=split(extend_select), gpu=gpu, gpus=gpus, online=online)
    if target_version:
        settings.source = None if not config_path else settings.source
    codes = set(registry())
    for c in (settings.select or []) + (settings.ignore or []) + (settings.extend_select or []):
        if not any(code.startswith(c.upper()) for code in codes):
            raise _fail(f"unknown rule code or prefix '{c}' (see `vllm-lint rule --all`)")
    db = _load_db(db_path)
    rules = select_rules(settings.select, settings.ignore, settings.extend_select)
    cache = None
    if not (no_cache or verbose or os.environ.get("VLLM_LINT_NO_CACHE")):
        from .cache import Cache, default_dir

        cache = Cache(default_dir(), Cache.fingerprint_of(db.path, settings, [r.code for r in rules], unsafe_fixes))
    try:
        linter = Linter(db, settings, rules, unsafe_fixes=unsafe_fixes, cache=cache)
    except UnknownVersion as e:
        raise _fail(str(e))
    targets, problems = discover(paths, settings)
    do_fix = fix or show_diff
    results = []
    from .engine import FileResult

    if problems:
        r = FileResult("<paths>")
        r.diagnostics = problems
        for d in problems:
            d.row, d.column = 1, 1
        results.append(r)
    try:
        from .parallel import lint_all

        results.extend(lint_all(linter, targets, do_fix, db_path=db_path))
        if cache is not None and not do_fix:
            for r in results:
                if r.verdict and r.stat_key and not r.related:
                    cache.note_result(r.path, r.stat_key, r.verdict, r.diagnostics)
            cache.flush()
    except (DatabaseError, UnknownVersion) as e:
        raise _fail(str(e))
    fixed_count = 0
    if do_fix:
        from .fix import write_atomic

        for r in results:
            if r.fixed is None:
                continue
            if show_diff:
                import difflib

                a = r.original.decode("utf-8", errors="replace").splitlines(keepends=True)
                b = r.fixed.decode("utf-8", errors="replace").splitlines(keepends=True)
                old_name, new_name = (r.path, r.path) if os.path.isabs(r.path) else (f"a/{r.path}", f"b/{r.path}")
                sys.stdout.write("".join(difflib.unified_diff(a, b, old_name, new_name)))
            else:
                try:
                    write_atomic(Path(r.path), r.fixed)
                except OSError as e:
                    raise _fail(f"{r.path}: cannot write the fixed file: {e.strerror or e}")
            fixed_count += r.fixed_count
    if add_noqa:
        _add_noqa(linter, results)
    if baseline_path:
        from . import baseline

        try:
            if write_baseline:
                n = baseline.write(Path(baseline_path), results)
                click.echo(f"Recorded {n} finding{'s' if n != 1 else ''} in {baseline_path}.", err=True)
                raise click.exceptions.Exit(EXIT_CLEAN)
            baseline.apply(Path(baseline_path), results)
        except (baseline.BaselineError, OSError) as e:
            raise _fail(str(e))
    if color is None:
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    ctx = ReportContext(fix_mode=fix, unsafe_fixes=unsafe_fixes, fixed_count=fixed_count, statistics=statistics,
                        quiet=quiet or show_diff, color=color, rules=registry())
    if verbose:
        for r in results:
            for line in r.verbose:
                click.echo(f"{r.path}: {line}", err=True)
    from .report import render

    remaining = sum(len(r.diagnostics) for r in results)
    if show_diff:
        # as ruff: the diff on stdout, a one-line account on stderr; exit 1 when a fix is pending
        sys.stdout.flush()
        files = sum(1 for r in results if r.fixed is not None)
        click.echo(f"Would fix {fixed_count} problem{'s' if fixed_count != 1 else ''} in {files} "
                   f"file{'s' if files != 1 else ''} ({remaining} would remain).", err=True)
        raise click.exceptions.Exit(EXIT_FINDINGS if fixed_count and not exit_zero else EXIT_CLEAN)
    out = render(output_format, results, ctx)
    if out:
        click.echo(out, nl=False, color=color)
    raise click.exceptions.Exit(EXIT_FINDINGS if remaining and not exit_zero else EXIT_CLEAN)


def _add_noqa(linter, results) -> None:
    """--add-noqa: write the comments, say what was done, exit 0 when nothing is left to report."""
    from .fix import write_atomic
    from .noqa import UNSUPPRESSIBLE, add_noqa

    added = files = left = 0
    for nr in add_noqa(linter, results):
        if nr.new != nr.data:
            try:
                write_atomic(Path(nr.path), nr.new)
            except OSError as e:
                raise _fail(f"{nr.path}: cannot write: {e.strerror or e}")
            added += nr.added
            files += 1
        for row, codes, reason in nr.failed:
            left += 1
            click.echo(f"{nr.path}:{row}: no suppression comment added for {codes}: {reason}", err=True)
    for r in results:
        for d in r.diagnostics:
            if d.code in UNSUPPRESSIBLE:
                left += 1
                click.echo(f"{d.path}:{d.row}:{d.column}: {d.code} {d.message} (cannot be suppressed)", err=True)
    click.echo(f"Added {added} suppression comment{'s' if added != 1 else ''} to {files} file{'s' if files != 1 else ''}.",
               err=True)
    raise click.exceptions.Exit(EXIT_FINDINGS if left else EXIT_CLEAN)


def run() -> None:
    try:
        main(standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("vllm-lint: interrupted", err=True)
        sys.exit(EXIT_ERROR)


def console() -> None:
    """The ``vllm-lint`` program (console script and ``python -m vllm_lint``): :func:`run`, after
    which the process ends at once (:func:`_exit_now`). ``run`` itself raises ``SystemExit`` as usual
    for callers in the same process."""
    try:
        run()
    except SystemExit as e:
        _exit_now(e.code)
        raise


def _exit_now(code: object) -> None:
    """End the process without the interpreter's teardown when nothing depends on it.

    Freeing every module and object at exit (the release file's dicts, the grammar, ~250 modules)
    costs about 9 ms CPU, an eighth of a one-file lint (benchmarks/README.md). Output is flushed
    first; a run that started worker processes or other threads, or runs under coverage, exits
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


if __name__ == "__main__":  # pragma: no cover
    run()
