"""The lint command without click: its options, an argv reader for the common case, and the job.

A pre-commit run of one file is start-up bound, and importing click (~20 ms CPU, about half of
the process) was the largest item left in it (benchmarks/README.md). So the options of the lint
command are declared once, here, as data. ``vllm_lint.cli`` builds the click command from this
table, and :func:`parse_argv` reads the same options without click for the plain command lines
that pre-commit, editors and CI pass (``vllm-lint --fix a.sh b.yaml``). Anything else (help,
``--version``, a subcommand, a usage error, bundled short flags, ``--``) gets ``None``, and the
program hands the whole command line to click, so the messages and exit codes of every unusual
case are click's own. A test compares this reader with click's parser on generated command lines.

:func:`execute` is the job itself, called by both paths with the same values.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Any, Optional

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

LINT_HELP = """Lint (and with --fix, rewrite) vLLM launches in PATHS against the vLLM release they deploy.

\b
Exit codes: 0 nothing to report, 1 findings remain, 2 usage, configuration or internal error.
\b
Other commands: vllm-lint flags list|show|diff, vllm-lint rule CODE, vllm-lint audit,
vllm-lint db build|update|status. Run `vllm-lint COMMAND --help` for each."""

OUTPUT_FORMATS = ("text", "concise", "json", "github", "gitlab", "sarif", "junit")

# the commands beside lint: name -> (module, attribute), imported only when named (cli.DefaultGroup);
# a first word among them is no path to lint
OTHER_COMMANDS = {"db": ("cli_db", "db"), "audit": ("audit_cli", "audit"), "flags": ("cli_flags", "flags_group"),
                  "rule": ("cli_flags", "rule_cmd"), "server": ("cli_server", "server_cmd"),
                  "site": ("site.command", "site_group")}


class Option:
    """One option of the lint command. ``kind``: ``flag`` (present or not), ``pair`` (``--x/--no-x``),
    ``text``, ``int``, ``choice``, ``file`` (a path that must not be a directory) or ``dir`` (a path
    that must not be a file)."""

    __slots__ = ("name", "decls", "kind", "help", "metavar", "default", "envvar")

    def __init__(self, name: str, decls: tuple[str, ...], kind: str, help: Optional[str] = None,
                 metavar: Optional[str] = None, default: Any = False, envvar: Optional[str] = None):
        self.name, self.decls, self.kind, self.help = name, decls, kind, help
        self.metavar, self.default, self.envvar = metavar, default, envvar

    def spellings(self) -> list[tuple[str, Any]]:
        """Each command-line spelling with the value a flag spelling sets (None: takes a value)."""
        if self.kind == "pair":
            on, off = self.decls[0].split("/")
            return [(on, True), (off, False)]
        if self.kind == "flag":
            return [(d, True) for d in self.decls]
        return [(d, None) for d in self.decls]


OPTIONS: tuple[Option, ...] = (
    Option("fix", ("--fix",), "flag", "Apply safe fixes in place."),
    Option("unsafe_fixes", ("--unsafe-fixes",), "flag", "Also apply (and show as fixable) unsafe fixes."),
    Option("show_diff", ("--diff",), "flag", "Print the unified diff of the fixes; write nothing."),
    Option("target_version", ("--target-version", "-t"), "text",
           "vLLM release to check against (0.27 = newest 0.27.x).", metavar="VERSION", default=None),
    Option("select", ("--select",), "text", "Comma-separated rule codes or prefixes to enable (VL1,VL201).",
           metavar="CODES", default=None),
    Option("extend_select", ("--extend-select",), "text", "Rule codes or prefixes to enable on top of the selection.",
           metavar="CODES", default=None),
    Option("ignore", ("--ignore",), "text", "Comma-separated rule codes or prefixes to disable.", metavar="CODES",
           default=None),
    Option("output_format", ("--output-format",), "choice", default="text"),
    Option("exit_zero", ("--exit-zero",), "flag", "Exit 0 even when findings remain."),
    Option("quiet", ("--quiet", "-q"), "flag", "Print findings only, no summary."),
    Option("statistics", ("--statistics",), "flag", "Print a count per rule instead of each finding."),
    Option("config_path", ("--config",), "file", "Configuration file to use.", default=None),
    Option("db_path", ("--db",), "dir", "Flag database directory (default: the shipped one).", default=None,
           envvar="VLLM_LINT_DB"),
    Option("gpu", ("--gpu",), "text",
           "GPU product for anti-pattern rules when the launch does not say (H100, H200, GB200...).", default=None),
    Option("gpus", ("--gpus",), "int", "GPUs available to each launch when the launch does not say.", default=None),
    Option("color", ("--color/--no-color",), "pair",
           "Force coloured output on or off (default: on a terminal, unless NO_COLOR).", default=None),
    Option("no_cache", ("--no-cache",), "flag", "Neither read nor write the result cache (.vllm-lint-cache/)."),
    Option("jobs", ("--jobs", "-j"), "int",
           "Processes to lint with (default 0: one per core, at most four; 1: no worker processes).", default=0,
           metavar="N"),
    Option("online", ("--online",), "flag",
           "Allow fetching model facts (config.json) from the Hugging Face hub; cached.", default=None),
    Option("verbose", ("--verbose", "-v"), "flag",
           "Say which release each launch was checked against and why, and which rules were skipped."),
    Option("add_noqa", ("--add-noqa",), "flag",
           "Write a `# vllm-lint: ignore[CODES]` comment for every finding (adopting on an existing repository)."),
    Option("baseline_path", ("--baseline",), "file",
           "Hide the findings recorded in this baseline file; report only new ones.", metavar="FILE", default=None),
    Option("write_baseline", ("--write-baseline",), "flag", "Record the current findings in the --baseline FILE and exit 0."),
)

_SPELLINGS = {s: (opt, value) for opt in OPTIONS for s, value in opt.spellings()}


# ------------------------------------------------------------------------------------ argv


def parse_argv(argv: list[str]) -> Optional[dict[str, Any]]:
    """The lint command's values for ``argv`` (the program's arguments), exactly as click would give
    them; ``None`` for anything click must handle (see the module docstring)."""
    args = list(argv)
    if args and args[0] == "lint":
        args = args[1:]
    elif args and args[0] in OTHER_COMMANDS:
        return None
    values: dict[str, Any] = {opt.name: opt.default for opt in OPTIONS}
    paths: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            if not _path_ok(arg, file_ok=True, dir_ok=True):
                return None
            paths.append(arg)
            continue
        if arg.startswith("--"):
            name, eq, text = arg.partition("=")
        elif len(arg) == 2:
            name, eq, text = arg, "", ""
        else:
            return None  # -tVALUE, -qv: click's parser
        found = _SPELLINGS.get(name)
        if found is None:
            return None  # --help, --version, --, an unknown option
        opt, flag_value = found
        if flag_value is not None:
            if eq:
                return None  # a flag given a value: click's error
            values[opt.name] = flag_value
            continue
        if not eq:
            if i >= len(args) or args[i].startswith("-"):
                return None
            text = args[i]
            i += 1
        value = _convert(opt, text)
        if value is None:
            return None
        values[opt.name] = value
    for opt in OPTIONS:
        if opt.envvar and values[opt.name] is None and os.environ.get(opt.envvar):
            value = _convert(opt, os.environ[opt.envvar])
            if value is None:
                return None
            values[opt.name] = value
    values["paths"] = tuple(paths)
    return values


def _convert(opt: Option, text: str) -> Any:
    """The option's value, or None where click would refuse it (or might, for want of a check here)."""
    if opt.kind == "int":
        try:
            return int(text)
        except ValueError:
            return None
    if opt.kind == "choice":
        return text if text in OUTPUT_FORMATS else None
    if opt.kind == "file":
        return text if _path_ok(text, file_ok=True, dir_ok=False) else None
    if opt.kind == "dir":
        return text if _path_ok(text, file_ok=False, dir_ok=True) else None
    return text


def _path_ok(text: str, file_ok: bool, dir_ok: bool) -> bool:
    """What ``click.Path(exists=False, file_okay=..., dir_okay=...)`` accepts: a missing path, or one
    of an allowed kind that is readable."""
    try:
        st = os.stat(text)
    except (OSError, ValueError):
        return True
    if (not file_ok and stat.S_ISREG(st.st_mode)) or (not dir_ok and stat.S_ISDIR(st.st_mode)):
        return False
    return os.access(text, os.R_OK)


# ------------------------------------------------------------------------------------ the job


class Exit(Exception):
    """End the command with this exit code (its message, if any, was already written)."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def echo(message: str, err: bool = False, nl: bool = True) -> None:
    """Write and flush, as ``click.echo`` does; an encoding the stream cannot take is replaced."""
    stream = sys.stderr if err else sys.stdout
    text = message + ("\n" if nl else "")
    try:
        stream.write(text)
    except UnicodeEncodeError:
        stream.flush()
        stream.buffer.write(text.encode(stream.encoding or "utf-8", "replace"))
    stream.flush()


def fail(message: str, code: int = EXIT_ERROR) -> Exit:
    echo(f"vllm-lint: error: {message}", err=True)
    return Exit(code)


def load_db(db_path: Optional[str]):
    from .surface.db import Database, DatabaseError

    try:
        return Database(Path(db_path) if db_path else None)
    except DatabaseError as e:
        raise fail(str(e))


def execute(paths, fix, unsafe_fixes, show_diff, target_version, select, extend_select, ignore, output_format,
            exit_zero, quiet, statistics, config_path, db_path, gpu, gpus, color, no_cache, online, verbose,
            add_noqa, baseline_path, write_baseline, jobs=0) -> int:
    """Run the lint command; return its exit code (or raise :class:`Exit` after an error message)."""
    from .engine import Linter, discover
    from .report import ReportContext
    from .rules.base import registry, select_rules
    from .settings import ConfigError, for_run as settings_for_run
    from .surface.db import DatabaseError, UnknownVersion

    paths = paths or (".",)
    if jobs < 0:
        raise fail("--jobs must be 0 (one per core) or more")
    if write_baseline and not baseline_path:
        raise fail("--write-baseline needs --baseline FILE")
    if add_noqa and (fix or show_diff or write_baseline):
        raise fail("--add-noqa cannot be combined with --fix, --diff or --write-baseline")
    try:
        settings = settings_for_run(config_path, paths)
    except ConfigError as e:
        raise fail(str(e))
    split = lambda s: [c.strip() for c in s.split(",") if c.strip()] if s else None  # noqa: E731
    settings = settings.merged(target_version=target_version, select=split(select), ignore=split(ignore),
                               extend_select=split(extend_select), gpu=gpu, gpus=gpus, online=online,
                               target_origin="--target-version" if target_version else None)
    codes = set(registry())
    for c in (settings.select or []) + (settings.ignore or []) + (settings.extend_select or []):
        if not any(code.startswith(c.upper()) for code in codes):
            raise fail(f"unknown rule code or prefix '{c}' (see `vllm-lint rule --all`)")
    db = load_db(db_path)
    rules = select_rules(settings.select, settings.ignore, settings.extend_select)
    cache = None
    if not (no_cache or verbose or os.environ.get("VLLM_LINT_NO_CACHE")):
        from .cache import Cache, default_dir

        cache = Cache(default_dir(), Cache.fingerprint_of(db.path, settings, [r.code for r in rules], unsafe_fixes))
    try:
        linter = Linter(db, settings, rules, unsafe_fixes=unsafe_fixes, cache=cache)
    except UnknownVersion as e:
        raise fail(str(e))
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

        results.extend(lint_all(linter, targets, do_fix, jobs=jobs))
        if cache is not None and not do_fix:
            for r in results:
                if r.verdict and r.stat_key and not r.related:
                    cache.note_result(r.path, r.stat_key, r.verdict, r.diagnostics, r.reads)
            cache.flush()
    except (DatabaseError, UnknownVersion) as e:
        raise fail(str(e))
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
                    raise fail(f"{r.path}: cannot write the fixed file: {e.strerror or e}")
            fixed_count += r.fixed_count
    if add_noqa:
        return _add_noqa(linter, results)
    if baseline_path:
        from . import baseline

        try:
            if write_baseline:
                n = baseline.write(Path(baseline_path), results)
                echo(f"Recorded {n} finding{'s' if n != 1 else ''} in {baseline_path}.", err=True)
                return EXIT_CLEAN
            baseline.apply(Path(baseline_path), results)
        except (baseline.BaselineError, OSError) as e:
            raise fail(str(e))
    if color is None:
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    read, unread = reading(results)
    note = unread_note(read, unread, verbose)
    ctx = ReportContext(fix_mode=fix, unsafe_fixes=unsafe_fixes, fixed_count=fixed_count, statistics=statistics,
                        quiet=quiet or show_diff, color=color, rules=registry(), no_launch=not read,
                        reading_note=note)
    explicit = {t.path for t in targets if t.explicit}
    if not quiet:
        for r in unread:
            if r.path in explicit and r.unread == "format not supported":
                echo(f"warning: {r.path}: format not supported, file not read", err=True)
    if verbose:
        for r in results:
            for line in r.verbose:
                echo(f"{r.path}: {line}", err=True)
        for r in unread:
            echo(f"{r.path}: not read: {r.unread}", err=True)
    from .report import render

    remaining = sum(len(r.diagnostics) for r in results)
    if show_diff:
        # as ruff: the diff on stdout, a one-line account on stderr; exit 1 when a fix is pending
        sys.stdout.flush()
        files = sum(1 for r in results if r.fixed is not None)
        echo(f"Would fix {fixed_count} problem{'s' if fixed_count != 1 else ''} in {files} "
             f"file{'s' if files != 1 else ''} ({remaining} would remain).", err=True)
        return EXIT_FINDINGS if fixed_count and not exit_zero else EXIT_CLEAN
    out = render(output_format, results, ctx)
    if out:
        echo(out, nl=False)
    if note and not quiet and output_format not in ("text", "concise"):
        echo(note, err=True)  # machine formats keep their shape
    return EXIT_FINDINGS if remaining and not exit_zero else EXIT_CLEAN


def reading(results) -> tuple[int, list]:
    """How many files had a vLLM launch read, and the results of the files that held none
    (``FileResult.unread`` says why)."""
    read = sum(1 for r in results if r.read)
    return read, [r for r in results if not r.read and r.unread]


def unread_note(read: int, unread: list, verbose: bool) -> Optional[str]:
    """The summary's account of what was not read; None when every candidate file held a launch."""
    n = len(unread)
    if not n:
        return None if read else "No vLLM launch found: no file to read."
    files = f"{n} file{'s' if n != 1 else ''}"
    if not read:
        text = f"No vLLM launch found in {files}."
    else:
        text = f"{files} held no vLLM launch."
    return text if verbose else text + " Run with --verbose to see which and why."


def _add_noqa(linter, results) -> int:
    """--add-noqa: write the comments, say what was done; exit 0 when nothing is left to report."""
    from .fix import write_atomic
    from .noqa import UNSUPPRESSIBLE, add_noqa

    added = files = left = 0
    for nr in add_noqa(linter, results):
        if nr.new != nr.data:
            try:
                write_atomic(Path(nr.path), nr.new)
            except OSError as e:
                raise fail(f"{nr.path}: cannot write: {e.strerror or e}")
            added += nr.added
            files += 1
        for row, codes, reason in nr.failed:
            left += 1
            echo(f"{nr.path}:{row}: no suppression comment added for {codes}: {reason}", err=True)
    for r in results:
        for d in r.diagnostics:
            if d.code in UNSUPPRESSIBLE:
                left += 1
                echo(f"{d.path}:{d.row}:{d.column}: {d.code} {d.message} (cannot be suppressed)", err=True)
    echo(f"Added {added} suppression comment{'s' if added != 1 else ''} to {files} file{'s' if files != 1 else ''}.",
         err=True)
    return EXIT_FINDINGS if left else EXIT_CLEAN
