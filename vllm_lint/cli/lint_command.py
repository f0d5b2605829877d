"""The lint command without click: its options, an argv reader for the common case, and the job.

A pre-commit run of one file is start-up bound, and importing click (~20 ms CPU, about half of
the process) was the largest item left in it (benchmarks/README.md). So the options of the lint
command are declared once, here, as data. ``vllm_lint.cli.app`` builds the click command from this
table, and :func:`parse_argv` reads the same options without click for the plain command lines
that pre-commit, editors and CI pass (``vllm-lint --fix a.sh b.yaml``). Anything else (help,
``--version``, a subcommand, a usage error, bundled short flags, ``--``) gets ``None``, and the
program hands the whole command line to click, so the messages and exit codes of every unusual
case are click's own. A test compares this reader with click's parser on generated command lines.

:func:`execute` is the job itself, called by both paths with the same values: :func:`validate`,
:func:`run` (after :func:`prepare`), :func:`write` and :func:`report`, over one :class:`LintOptions`.
"""

from __future__ import annotations

import os
import stat
import sys

from ..report import base as reporters

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

LINT_HELP = """Lint (and with --fix, rewrite) vLLM launches in PATHS against the vLLM release they deploy.
PATH `-` reads standard input (name it with --stdin-filename; unnamed, its content decides the format,
else it is read as a shell script).

\b
Exit codes: 0 nothing to report, 1 findings at or above --fail-on remain, 2 usage,
configuration or internal error.
\b
Other commands: vllm-lint flags list|show|diff, vllm-lint rule CODE, vllm-lint audit,
vllm-lint upgrade --to TO, vllm-lint check-args -- ARGS, vllm-lint db build|update|status|cache,
vllm-lint server, vllm-lint site build, vllm-lint version.
Run `vllm-lint COMMAND --help` for each."""

OUTPUT_FORMATS = reporters.names()  # report.base.REPORTERS: each output format's name, then its aliases
SEVERITIES = ("error", "warning", "info")
_RANK = {"info": 0, "warning": 1, "error": 2}

# the commands beside lint: name -> (module, attribute), imported only when named (cli.DefaultGroup);
# a first word among them is no path to lint
OTHER_COMMANDS = {"db": ("cli.db_command", "db"), "audit": ("cli.audit_command", "audit"), "flags": ("cli.flags_command", "flags_group"),
                  "rule": ("cli.flags_command", "rule_cmd"), "server": ("cli.server_command", "server_cmd"),
                  "site": ("cli.site_command", "site_group"), "version": ("cli.app", "version_cmd"),
                  "upgrade": ("cli.upgrade_command", "upgrade"),
                  "check-args": ("cli.check_args_command", "check_args_cmd")}
# ``--output-format`` spellings that are another's name (ruff's ``full`` is the default text output)
FORMAT_ALIASES = {alias: r.name for r in reporters.REPORTERS for alias in r.aliases}
# ``--select ALL`` (as ruff): every rule, the ones off by default too; rules.base reads it as the empty prefix
ALL_RULES = "ALL"


def command_suggestion(word: str) -> Optional[str]:
    """The command ``word`` is a typo of (``flgs`` -> ``flags``), when ``word`` is no path on disk:
    a mistyped command is a usage error, not a file to lint."""
    if word.startswith("-") or word in OTHER_COMMANDS or os.path.lexists(word):
        return None
    import difflib

    close = difflib.get_close_matches(word, [*OTHER_COMMANDS, "lint"], n=1, cutoff=0.7)
    return close[0] if close else None


class Option:
    """One option of the lint command. ``kind``: ``flag`` (present or not), ``pair`` (``--x/--no-x``),
    ``text``, ``int``, ``choice`` (one of ``choices``), ``file`` (a path that must not be a
    directory) or ``dir`` (a path that must not be a file)."""

    __slots__ = ("name", "decls", "kind", "help", "metavar", "default", "envvar", "choices")

    def __init__(self, name: str, decls: tuple[str, ...], kind: str, help: Optional[str] = None,
                 metavar: Optional[str] = None, default: Any = False, envvar: Optional[str] = None,
                 choices: tuple[str, ...] = ()):
        self.name, self.decls, self.kind, self.help = name, decls, kind, help
        self.metavar, self.default, self.envvar, self.choices = metavar, default, envvar, choices

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
    Option("fix_only", ("--fix-only",), "flag", "Apply fixes; do not report (or fail on) what is left. Implies --fix."),
    Option("show_fixes", ("--show-fixes",), "flag", "List the fixes applied, per file and rule."),
    Option("exit_non_zero_on_fix", ("--exit-non-zero-on-fix",), "flag",
           "Exit 1 when a fix was applied, even if nothing is left to report."),
    Option("target_version", ("--target-version", "-t"), "text",
           "vLLM release to check against (0.27 = newest 0.27.x).", metavar="VERSION", default=None),
    Option("select", ("--select",), "text", "Comma-separated rule codes or prefixes to enable (VL1,VL201).",
           metavar="CODES", default=None),
    Option("extend_select", ("--extend-select",), "text", "Rule codes or prefixes to enable on top of the selection.",
           metavar="CODES", default=None),
    Option("ignore", ("--ignore",), "text", "Comma-separated rule codes or prefixes to disable.", metavar="CODES",
           default=None),
    Option("extend_ignore", ("--extend-ignore",), "text", "Rule codes or prefixes to disable on top of --ignore.",
           metavar="CODES", default=None),
    Option("preview", ("--preview/--no-preview",), "pair", "Enable rules in preview (new in this vllm-lint release).",
           default=None),
    Option("breaking_only", ("--breaking-only",), "flag",
           "Report only what the target release refuses (errors): will the launch start?"),
    Option("output_format", ("--output-format",), "choice", default="text", choices=OUTPUT_FORMATS),
    Option("output_file", ("--output-file", "-o"), "file", "Write the report to FILE instead of standard output.",
           metavar="FILE", default=None),
    Option("fail_on", ("--fail-on",), "choice",
           "Lowest severity that makes the run exit 1 (default: warning, or `fail-on` in the configuration).",
           default=None, choices=SEVERITIES),
    Option("exit_zero", ("--exit-zero",), "flag", "Exit 0 even when findings remain."),
    Option("quiet", ("--quiet", "-q"), "flag", "Print findings only, no summary."),
    Option("statistics", ("--statistics",), "flag", "Print a count per rule instead of each finding."),
    Option("config_path", ("--config",), "file", "Configuration file to use.", default=None),
    Option("isolated", ("--isolated",), "flag",
           "Read no configuration file and no user cache of model facts (the same result everywhere)."),
    Option("force_exclude", ("--force-exclude/--no-force-exclude",), "pair",
           "Apply the excludes to files named on the command line too (as pre-commit passes them).", default=None),
    Option("stdin_filename", ("--stdin-filename",), "text",
           "The name of the file read from standard input (its format, settings and excludes).", metavar="NAME",
           default=None),
    Option("show_settings", ("--show-settings",), "flag", "Print the resolved settings for the first path and exit."),
    Option("show_files", ("--show-files",), "flag", "Print the files that would be linted and exit."),
    Option("docs_url", ("--docs-url",), "text",
           "Where the website of `vllm-lint site build` is published: JSON, SARIF and rdjson link each "
           "rule's page there (no links without it; `vllm-lint rule CODE` prints the same text).",
           metavar="URL", default=None, envvar="VLLM_LINT_DOCS_URL"),
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
    Option("ignore_noqa", ("--ignore-noqa",), "flag", "Ignore `# vllm-lint: ignore` comments (per-file-ignores still apply)."),
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
    elif args and (args[0] in OTHER_COMMANDS or command_suggestion(args[0])):
        return None  # a command, or a typo of one: click's (which names the command meant)
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
        return text if text in opt.choices else None
    if opt.kind == "file":
        return text if _path_ok(text, file_ok=True, dir_ok=False) else None
    if opt.kind == "dir":
        return text if _path_ok(text, file_ok=False, dir_ok=True) else None
    return text


def _path_ok(text: str, file_ok: bool, dir_ok: bool) -> bool:
    """What ``click.Path(exists=False, file_okay=..., dir_okay=..., readable=False)`` accepts: a
    missing path, or one of an allowed kind. (An unreadable path is the command's to report, in one
    line: VL001 for a file to lint.)"""
    try:
        st = os.stat(text)
    except (OSError, ValueError):
        return True
    return not ((not file_ok and stat.S_ISREG(st.st_mode)) or (not dir_ok and stat.S_ISDIR(st.st_mode)))


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


def _path(p: str):
    """``pathlib.Path(p)``, imported when a run writes or names a file (``pathlib`` imports
    ``urllib.parse`` and ``ipaddress``: not on the path of a plain lint; benchmarks/README.md)."""
    from pathlib import Path

    return Path(p)


def load_db(db_path: Optional[str]):
    from ..surface.db import Database, DatabaseError

    try:
        return Database(db_path or None)  # (a string: the database names its folder as Path would)
    except DatabaseError as e:
        raise fail(str(e))


class LintOptions:
    """The lint command's values as attributes: one field per entry of :data:`OPTIONS` (its name,
    its default) and ``paths``; the one object the four steps of :func:`execute` read. A value of
    no declared field is a programming error (TypeError), not a silent extra attribute."""

    __slots__ = ("paths", *(opt.name for opt in OPTIONS))

    def __init__(self, paths: tuple[str, ...] = (), **values: Any) -> None:
        self.paths = tuple(paths)
        for opt in OPTIONS:
            setattr(self, opt.name, values.pop(opt.name, opt.default))
        if values:
            raise TypeError(f"no lint option named {', '.join(sorted(values))}")

    @property
    def from_stdin(self) -> bool:
        return self.paths == ("-",)

    @property
    def do_fix(self) -> bool:
        """Whether fixes are computed (written, or shown with --diff)."""
        return self.fix or self.show_diff or self.fix_only


class Job:
    """What :func:`prepare` builds from the options: the resolved ``settings``, the selected
    ``rules``, the ``linter`` (with its database and result cache) and ``where`` (the paths the
    settings were resolved for: the first path, or the name of standard input)."""

    __slots__ = ("settings", "rules", "linter", "cache", "where")

    def __init__(self, settings, rules, linter, cache, where) -> None:
        self.settings, self.rules, self.linter, self.cache, self.where = settings, rules, linter, cache, where


def _codes(text: Optional[str]) -> Optional[list[str]]:
    return [c.strip() for c in text.split(",") if c.strip()] if text else None


def validate(o: LintOptions) -> None:
    """Combinations that cannot work are usage errors (exit 2), never silently ignored; the paths
    default to the current directory."""
    if o.jobs < 0:
        raise fail("--jobs must be 0 (one per core) or more")
    if o.write_baseline and not o.baseline_path:
        raise fail("--write-baseline needs --baseline FILE")
    if o.add_noqa and (o.fix or o.show_diff or o.write_baseline or o.fix_only):
        raise fail("--add-noqa cannot be combined with --fix, --fix-only, --diff or --write-baseline")
    if o.target_version is not None and not o.target_version.strip():
        raise fail("--target-version needs a release (0.27 for the newest 0.27.x, or 0.27.1)")
    if o.statistics and not reporters.get(o.output_format).statistics:
        raise fail(f"--statistics prints text or JSON; it cannot be combined with --output-format {o.output_format}")
    if o.show_diff and not reporters.get(o.output_format).human:
        raise fail(f"--diff prints a unified diff; it cannot be combined with --output-format {o.output_format}")
    if o.isolated and o.config_path:
        raise fail("--isolated reads no configuration file; it cannot be combined with --config")
    if o.stdin_filename is not None and "-" not in o.paths:
        if o.paths:
            raise fail("--stdin-filename names standard input: pass `-` as the only path")
        o.paths = ("-",)
    if "-" in o.paths and len(o.paths) > 1:
        raise fail("`-` (standard input) must be the only path")
    if "-" in o.paths and (o.add_noqa or o.write_baseline or o.show_files):
        raise fail("--add-noqa, --write-baseline and --show-files need files, not standard input")
    o.paths = o.paths or (".",)


def _severity_overrides(results, overrides: dict[str, str]) -> None:
    """``severity`` in the configuration: the longest matching code prefix gives a finding's severity."""
    table = sorted(((k.upper(), v) for k, v in overrides.items()), key=lambda kv: -len(kv[0]))
    for r in results:
        for d in r.diagnostics:
            for prefix, severity in table:
                if d.code.startswith(prefix):
                    d.severity = severity
                    break


def execute(paths=(), **values) -> int:
    """Run the lint command; return its exit code (or raise :class:`Exit` after an error message).
    Four steps over one :class:`LintOptions`: validate, run (prepare the job, lint), write (the
    fixes, or the suppression comments of --add-noqa), report."""
    o = LintOptions(paths, **values)
    o.output_format = FORMAT_ALIASES.get(o.output_format, o.output_format)
    validate(o)
    job = prepare(o)
    if o.show_settings:
        return _show_settings(job.settings, job.rules, job.linter, job.where[0])
    if o.from_stdin:
        return _lint_stdin(o, job.linter, job.settings, o.do_fix)
    ran = run(o, job)
    if ran is None:
        return EXIT_CLEAN
    fixed_count = write(o, ran.results, job.linter)
    if o.add_noqa:
        return _add_noqa(job.linter, ran.results, o.paths)
    if not o.quiet:
        for r in ran.unsupported_named():
            echo(f"warning: {_shown(r.path)}: format not supported, file not read", err=True)
    return report(o, ran, job.settings, job.linter, fixed_count)


def prepare(o: LintOptions) -> Job:
    """The settings for the run (the configuration file, then the command line), the rules they
    select, the database, the result cache and the linter; a bad value is one line, exit 2."""
    from ..pipeline.engine import Linter
    from ..rules.base import registry, select_layered
    from ..settings import ConfigError, for_run as settings_for_run, rule_layers
    from ..surface.db import UnknownVersion

    from_stdin = o.from_stdin
    where = (o.stdin_filename or "-",) if from_stdin else o.paths
    try:
        settings = settings_for_run(o.config_path, where if from_stdin and o.stdin_filename else
                                    (("." if from_stdin else o.paths[0]),), isolated=o.isolated)
    except ConfigError as e:
        raise fail(str(e))
    config_target = settings.target_version
    settings = settings.merged(target_version=o.target_version, gpu=o.gpu, gpus=o.gpus, online=o.online,
                               fail_on=o.fail_on, force_exclude=o.force_exclude, preview=o.preview,
                               target_origin="--target-version" if o.target_version else None)
    if o.isolated or "vllm_lint.knowledge.models" in sys.modules:
        from ..knowledge import models

        models.USE_USER_CACHES = not o.isolated  # (set by every run: an in-process caller runs several)
    if o.isolated:
        settings.online = False
    layers = rule_layers(settings) + [(_codes(o.select), _codes(o.extend_select) or [],
                                       (_codes(o.ignore) or []) + (_codes(o.extend_ignore) or []))]
    codes = set(registry())
    for i, (sel, ext, ign) in enumerate(layers):
        for c in (sel or []) + list(ext) + list(ign):
            if c.upper() != ALL_RULES and not any(code.startswith(c.upper()) for code in codes):
                origin = f"{settings.source}: " if i < len(layers) - 1 and settings.source else ""
                raise fail(f"{origin}unknown rule code or prefix '{c}' (see `vllm-lint rule --all`)")
    db = load_db(o.db_path)
    rules = select_layered(layers, preview=bool(settings.preview))
    if o.ignore_noqa:
        settings.ignore_noqa = True
    cache = None
    if not (o.no_cache or o.verbose or o.add_noqa or from_stdin or o.show_settings or o.show_files
            or os.environ.get("VLLM_LINT_NO_CACHE")):
        from ..pipeline.cache import Cache, default_dir

        cache = Cache.for_run(default_dir(), db.path, settings, [r.code for r in rules], o.unsafe_fixes)
    try:
        linter = Linter(db, settings, rules, unsafe_fixes=o.unsafe_fixes, cache=cache, notes=bool(o.verbose))
    except UnknownVersion as e:
        origin = f"{settings.source}: setting 'target-version': " if config_target and not o.target_version \
            and settings.source else ""
        raise fail(f"{origin}{e}")
    return Job(settings, rules, linter, cache, where)


def run(o: LintOptions, job: Job):
    """Discover the files and lint them (fixing in memory with --fix); record the verdicts in the
    result cache. The run's ``pipeline.results.RunResults``: the results the report needs, in the
    walk's order, and the counts of the rest; None when --show-files printed the files instead."""
    from ..pipeline.discovery import discover
    from ..pipeline.engine import FileResult
    from ..pipeline.parallel import lint_each
    from ..pipeline.results import RunResults
    from ..surface.db import DatabaseError, UnknownVersion
    from ..record import settle_collections

    settle_collections()  # (start-up is over: record.py)
    targets, problems = discover(o.paths, job.settings)
    if o.baseline_path:  # the baseline quotes the lines it records: it is vllm-lint's file, not a launch
        own = os.path.realpath(o.baseline_path)
        targets = [t for t in targets if os.path.realpath(t.path) != own]
    if o.show_files:
        from ..pipeline.discovery import claimed

        for t in sorted(targets, key=lambda t: t.path):
            if t.explicit or claimed(t.path):
                echo(_shown(t.path))
        return None
    do_fix = o.do_fix
    cache = job.cache if not do_fix else None
    ran = RunResults(targets, verbose=o.verbose, cache=cache, every_file=reporters.get(o.output_format).every_file)
    if problems:
        r = FileResult("<paths>")
        r.diagnostics = problems
        for d in problems:
            d.row, d.column = 1, 1
        ran.add_problems(r)
    try:
        # each file's result as it completes, in the walk's order: counted, noted in the cache,
        # and kept only when the report needs it (pipeline/results.py)
        for i, res in lint_each(job.linter, targets, do_fix, jobs=o.jobs, slim=ran.slim, release=True,
                                unread=ran.unread_counts()):
            ran.add(i, res)
        ran.done()
        if cache is not None:
            cache.flush()
    except (DatabaseError, UnknownVersion) as e:
        raise fail(str(e))
    return ran


def write(o: LintOptions, results, linter=None) -> int:
    """The fixed files, written atomically (or, with --diff, their unified diff on standard
    output); the number of problems the fixes removed. A file the fixer refuses to write (a
    symbolic link, read-only, changed since it was read: ``fix.WriteRefused``) gets one line on
    standard error and is reported as it is now (linted again, without fixing)."""
    fixed_count = 0
    if not o.do_fix:
        return fixed_count
    from ..pipeline.fix import WriteRefused, write_atomic

    inside = _inside(o.paths)
    for i, r in enumerate(results):
        if r.fixed is None:
            continue
        if o.show_diff:
            sys.stdout.write(_diff(r.path, r.original, r.fixed))
        else:
            try:
                if not inside(r.path):  # (a --config file a launch names, in a parent folder)
                    raise WriteRefused("outside the tree being linted; not fixed")
                write_atomic(_path(r.path), r.fixed, expected=r.original)
            except WriteRefused as e:
                echo(f"warning: {_shown(r.path)}: {e}", err=True)
                if linter is not None:
                    from ..pipeline.discovery import Target

                    results[i] = linter.lint_file(Target(r.path, r.mode != "auto"), fix=False, mode=r.mode,
                                                  forced=r.forced)
                else:
                    r.fixed = None
                continue
            except OSError as e:
                raise fail(f"{_shown(r.path)}: cannot write the fixed file: {e.strerror or e}")
        fixed_count += r.fixed_count
    return fixed_count


def _inside(paths) -> Callable[[str], bool]:
    """Whether a file lies in the trees being linted: under the working directory, a folder named on
    the command line or the folder of a file named (real paths). The only files --fix and
    --add-noqa write: a launch's ``--config`` may name a file anywhere (a parent of the repository)."""
    roots = [os.path.realpath(p if os.path.isdir(p) else os.path.dirname(p) or ".") for p in paths]
    roots.append(os.path.realpath("."))

    def inside(path: str) -> bool:
        real = os.path.realpath(path)
        return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)

    return inside


def _shown(path: str) -> str:
    """A path (or a message) as a line of the command's own output shows it: control characters
    escaped (``fsutil.visible``), so a name cannot break the line or reach the terminal as codes."""
    from ..fsutil import visible

    return visible(path)


def _diff(path: str, before: bytes, after: bytes) -> str:
    import difflib

    a = before.decode("utf-8", errors="replace").splitlines(keepends=True)
    b = after.decode("utf-8", errors="replace").splitlines(keepends=True)
    path = _shown(path)  # (a line break in a name would end the header)
    old_name, new_name = (path, path) if os.path.isabs(path) else (f"a/{path}", f"b/{path}")
    return "".join(difflib.unified_diff(a, b, old_name, new_name))


def report(o: LintOptions, ran, settings, linter, fixed_count: int, sources: Optional[dict] = None,
           to_stderr: bool = False) -> int:
    """Baseline, severity, the report and the exit code, for files and standard input alike.
    ``ran``: the run's ``pipeline.results.RunResults`` (the results to report, the counts of the rest)."""
    from ..report import render_chunks

    results = ran.results
    _keep_and_rank(o, results, settings)
    if o.baseline_path and _baseline(o, results):
        return EXIT_CLEAN  # --write-baseline: recorded, nothing reported
    fail_on = settings.fail_on or "warning"
    read = ran.read_files()
    note = " ".join(n for n in (unread_note(read, ran.unread_files(), o.verbose), newest_note(ran, linter))
                    if n) or None
    ctx = _report_context(o, fixed_count, fail_on, sources, not read, note, to_stderr)
    if o.verbose:
        _explain(results, ran.unread())
    remaining = [d for r in results for d in r.diagnostics]
    failing = sum(1 for d in remaining if _RANK.get(d.severity, 2) >= _RANK[fail_on])
    if o.show_diff:
        return _diff_account(o, results, fixed_count, len(remaining))
    if o.show_fixes and (o.fix or o.fix_only):
        _print_fixes(linter, results)
    if o.fix_only:
        return _fix_only_account(o, fixed_count, to_stderr)
    _write_report(o, render_chunks(o.output_format, results, ctx), to_stderr)
    if note and not o.quiet and not reporters.get(o.output_format).human:
        echo(note, err=True)  # machine formats keep their shape
    if o.exit_zero:
        return EXIT_CLEAN
    if failing or (o.exit_non_zero_on_fix and fixed_count):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _keep_and_rank(o: LintOptions, results, settings) -> None:
    """--breaking-only keeps what the target refuses (VL001: the file could not be checked at all);
    the configuration's ``severity`` table ranks the rest."""
    if o.breaking_only:
        for r in results:
            r.diagnostics = [d for d in r.diagnostics if d.severity == "error"]
    if settings.severity:
        _severity_overrides(results, settings.severity)


def _baseline(o: LintOptions, results) -> bool:
    """--write-baseline records the findings (True: the run ends there); --baseline hides the
    recorded ones from ``results``. A bad baseline file is one line, exit 2."""
    from ..pipeline import baseline

    try:
        if o.write_baseline:
            n = baseline.write(_path(o.baseline_path), results)
            echo(f"Recorded {n} finding{'s' if n != 1 else ''} in {o.baseline_path}.", err=True)
            return True
        baseline.apply(_path(o.baseline_path), results)
    except (baseline.BaselineError, OSError) as e:
        raise fail(str(e))
    return False


def _report_context(o: LintOptions, fixed_count: int, fail_on: str, sources: Optional[dict], no_launch: bool,
                    note: Optional[str], to_stderr: bool):
    """What the reporters are told besides the findings; colour as --color says, else as ruff
    decides it (no colour into a file or with NO_COLOR, colour with FORCE_COLOR, else a terminal's)."""
    from ..report import ReportContext
    from ..rules.base import registry

    color = o.color
    if color is None:
        if o.output_file:
            color = False
        elif os.environ.get("NO_COLOR"):
            color = False
        elif os.environ.get("FORCE_COLOR"):
            color = True
        else:
            color = (sys.stderr if to_stderr else sys.stdout).isatty()
    return ReportContext(fix_mode=o.fix or o.fix_only, unsafe_fixes=o.unsafe_fixes, fixed_count=fixed_count,
                         statistics=o.statistics, quiet=o.quiet or o.show_diff, color=color, rules=registry(),
                         fail_on=fail_on, sources=sources, no_launch=no_launch, reading_note=note,
                         docs_url=o.docs_url or None)


def _explain(results, unread) -> None:
    """--verbose: why each file was read as it was, and what was not read."""
    for r in results:
        for line in r.verbose:
            echo(f"{_shown(r.path)}: {line}", err=True)
    for r in unread:
        echo(f"{_shown(r.path)}: not read: {r.unread}", err=True)


def _diff_account(o: LintOptions, results, fixed_count: int, remaining: int) -> int:
    """--diff, as ruff: the diff on stdout (printed), a one-line account on stderr; exit 1 when a
    fix is pending."""
    sys.stdout.flush()
    files = sum(1 for r in results if r.fixed is not None)
    echo(f"Would fix {fixed_count} problem{'s' if fixed_count != 1 else ''} in {files} "
         f"file{'s' if files != 1 else ''} ({remaining} would remain).", err=True)
    return EXIT_FINDINGS if fixed_count and not o.exit_zero else EXIT_CLEAN


def _fix_only_account(o: LintOptions, fixed_count: int, to_stderr: bool) -> int:
    """--fix-only: how many were fixed, and no report (nor failure) for what is left."""
    if not o.quiet:
        echo(f"Fixed {fixed_count} problem{'s' if fixed_count != 1 else ''}." if fixed_count else
             "No problems fixed.", err=to_stderr)
    return EXIT_FINDINGS if o.exit_non_zero_on_fix and fixed_count and not o.exit_zero else EXIT_CLEAN


def _write_report(o: LintOptions, chunks, to_stderr: bool) -> None:
    """The report into --output-file, else on stdout (stderr when stdout carries fixed text), its
    pieces written as they are made (``report.render_chunks``)."""
    if o.output_file:
        try:
            with open(o.output_file, "w", encoding="utf-8") as f:
                for chunk in chunks:
                    f.write(chunk)
        except OSError as e:
            raise fail(f"{o.output_file}: cannot write the report: {e.strerror or e}")
        return
    stream = sys.stderr if to_stderr else sys.stdout
    for chunk in chunks:
        if chunk:
            _write(stream, chunk)
    stream.flush()


def _write(stream, text: str) -> None:
    """``text`` on ``stream``, as ``echo`` writes it (an encoding the stream cannot take is replaced)."""
    try:
        stream.write(text)
    except UnicodeEncodeError:
        stream.flush()
        stream.buffer.write(text.encode(stream.encoding or "utf-8", "replace"))


def _print_fixes(linter, results) -> None:
    """--show-fixes: per file, how many findings of each rule the fixes removed (as ruff)."""
    from collections import Counter

    lines = []
    for r in results:
        if r.fixed is None or r.original is None or r.format is None:
            continue
        before = linter.check(r.path, r.original, r.mode or "auto", fmt=r.format, screened=True, forced=r.forced)
        gone = Counter(d.code for d in before.diagnostics) - Counter(d.code for d in r.diagnostics)
        if gone:
            lines.append(f"  {_shown(r.path)}:")
            names = {rule.code: rule.name for rule in linter.rules}
            lines.extend(f"    {n} x {code} ({names.get(code, code)})" for code, n in sorted(gone.items()))
    if lines:
        echo("Fixed:", err=True)
        for line in lines:
            echo(line, err=True)


def _show_settings(settings, rules, linter, path: str) -> int:
    """--show-settings: the configuration file, the target and every setting, for ``path``."""
    import json

    echo(f"Resolved settings for: {path}")
    echo(f"Settings path: {settings.source if settings.source else '(none: defaults)'}")
    if linter.targeting.explicit:
        echo(f"target-version = {json.dumps(linter.targeting.explicit)}  # from {getattr(settings, 'target_origin', 'configuration')}")
    else:
        echo("target-version: inferred per launch (image tag, FROM, pin, prose), else the newest release "
             f"{linter.db.newest}")
    echo(f"rules = {json.dumps([r.code for r in rules])}")
    for key in settings._FIELDS:
        if key in ("source", "target_version", "select"):
            continue
        value = getattr(settings, key)
        if key == "fail_on" and value is None:
            value = "warning"
        echo(f"{key.replace('_', '-')} = {json.dumps(value)}")
    return EXIT_CLEAN


def _lint_stdin(o: LintOptions, linter, settings, do_fix: bool) -> int:
    """``vllm-lint -``: lint standard input as the file ``--stdin-filename`` names (its format,
    settings and excludes); with --fix the fixed text goes to standard output (always, changed or
    not, so an editor can replace the buffer with it) and the report to standard error."""
    from ..api import UnknownFormat, check_bytes
    from ..pipeline.discovery import discover
    from ..pipeline.engine import NO_LAUNCH, FileResult
    from ..pipeline.results import RunResults
    from ..record import settle_collections
    from ..fsutil import TooLarge, read_at_most
    from ..pipeline.engine import MAX_FILE_BYTES

    settle_collections()  # (start-up is over: record.py)

    name = o.stdin_filename or "-"
    try:  # bounded: at most the limit and one byte is read (`vllm-lint - < /dev/zero` ends)
        data = read_at_most(sys.stdin.buffer, MAX_FILE_BYTES)
    except TooLarge:  # (nothing on standard output: an editor must not replace its buffer with it)
        raise fail(f"standard input is larger than the {MAX_FILE_BYTES // 1048576} MiB input limit; not linted")
    if o.stdin_filename and settings.force_exclude:
        targets, _ = discover([name], settings)
        if os.path.lexists(name) and not targets:
            if do_fix and not o.show_diff:
                sys.stdout.buffer.write(data)
                sys.stdout.flush()
            return EXIT_CLEAN
    res = FileResult(name)
    # unnamed (as ruff's ``-``): the content decides the format, else a shell script (what is piped)
    as_name = name if o.stdin_filename else _unnamed_stdin_format(data)
    try:
        checked = check_bytes(linter, data, as_name, fix=do_fix)
    except UnknownFormat as e:
        echo(f"vllm-lint: warning: {e}", err=True)
        if do_fix and not o.show_diff:
            sys.stdout.buffer.write(data)
        return EXIT_CLEAN
    skipped = checked.skipped is not None
    diags, fixed, count = ([], None, 0) if skipped else (checked.diagnostics, checked.fixed, checked.count)
    for d in diags:
        d.path = name
    res.diagnostics = diags
    res.format = "stdin"
    # as for a file on disk: the summary says so when the text held no launch to check
    res.read = bool(diags) or (not skipped and bool(checked.analysis.launches))
    if not res.read:
        res.unread = NO_LAUNCH
    if fixed is not None and fixed != data:
        res.original, res.fixed, res.fixed_count = data, fixed, count
    if o.show_diff:
        if res.fixed is not None:
            sys.stdout.write(_diff(name, data, res.fixed))
        return report(o, RunResults.of([res]), settings, linter, count, sources={name: res.fixed or data},
                      to_stderr=True)
    if do_fix:
        sys.stdout.buffer.write(res.fixed if res.fixed is not None else data)
        sys.stdout.flush()
        return report(o, RunResults.of([res]), settings, linter, count, sources={name: res.fixed or data},
                      to_stderr=True)
    return report(o, RunResults.of([res]), settings, linter, 0, sources={name: data})


def _unnamed_stdin_format(data: bytes) -> str:
    """The name standard input is read under when the user named none: ``-`` when its content
    tells the format (a shebang, a YAML document, a Dockerfile ...), else ``-.sh``."""
    from ..frontends.base import format_by_content

    return "-" if format_by_content(data[:4096]) else "-.sh"


def unread_note(read: int, n: int, verbose: bool) -> Optional[str]:
    """The summary's account of what was not read (``read``: the files a launch was read in, ``n``:
    those that held none); None when every candidate file held a launch."""
    if not n:
        return None if read else "No vLLM launch found: no file to read."
    files = f"{n} file{'s' if n != 1 else ''}"
    if not read:
        text = f"No vLLM launch found in {files}."
    else:
        text = f"{files} held no vLLM launch."
    return text if verbose else text + " Run with --verbose to see which and why."


def newest_note(ran, linter) -> Optional[str]:
    """Once per run: launches that name no release, and apart from them launches that name a
    release newer than the database, were checked against the database's newest, so their
    findings change when the database grows. None when every launch named a known release."""
    if linter.targeting.explicit:
        return None
    notes = []
    newer = ran.newer()
    if newer:
        named = sorted({v for r in newer for v in r.newer if v != "?"})
        files = f"{len(newer)} file{'s' if len(newer) != 1 else ''}"
        notes.append(f"{files} named a vLLM release newer than the database{' (' + ', '.join(named) + ')' if named else ''}: "
                     f"checked against its newest, {linter.db.newest} (`vllm-lint db update` adds newer releases).")
    n = ran.defaulted_files()
    if n:
        files = f"{n} file{'s' if n != 1 else ''}"
        notes.append(f"{files} named no vLLM release: checked against the newest in the database, {linter.db.newest} "
                     "(--target-version or target-version to choose).")
    return " ".join(notes) or None


def _add_noqa(linter, results, paths=()) -> int:
    """--add-noqa: write the comments, say what was done; exit 0 when nothing is left to report."""
    from ..pipeline.fix import WriteRefused, write_atomic
    from ..pipeline.noqa import UNSUPPRESSIBLE, add_noqa

    added = files = left = 0
    inside = _inside(paths)
    for nr in add_noqa(linter, results):
        if nr.new != nr.data:
            try:
                if not inside(nr.path):
                    raise WriteRefused("outside the tree being linted; not fixed")
                write_atomic(_path(nr.path), nr.new, expected=nr.data)
            except WriteRefused as e:
                echo(f"warning: {_shown(nr.path)}: {str(e).replace('not fixed', 'no comment added')}", err=True)
                left += 1
                continue
            except OSError as e:
                raise fail(f"{_shown(nr.path)}: cannot write: {e.strerror or e}")
            added += nr.added
            files += 1
        for row, codes, reason in nr.failed:
            left += 1
            echo(f"{_shown(nr.path)}:{row}: no suppression comment added for {codes}: {reason}", err=True)
    for r in results:
        for d in r.diagnostics:
            if d.code in UNSUPPRESSIBLE:
                left += 1
                echo(f"{_shown(d.path)}:{d.row}:{d.column}: {d.code} {_shown(d.message)} (cannot be suppressed)", err=True)
    echo(f"Added {added} suppression comment{'s' if added != 1 else ''} to {files} file{'s' if files != 1 else ''}.",
         err=True)
    return EXIT_FINDINGS if left else EXIT_CLEAN
