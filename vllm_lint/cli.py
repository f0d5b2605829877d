"""Command line: ``vllm-lint [OPTIONS] [PATHS]...`` lints; ``db``, ``flags``, ``rule`` and ``audit``
are subcommands beside it.

Exit codes: 0 nothing left to report, 1 findings left, 2 usage, configuration or internal error.
Heavy modules (libcst, requests, front-ends) are imported only when a command needs them.
"""

from __future__ import annotations

import json
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
    """A group whose default command is ``lint``: ``vllm-lint --fix deploy/`` runs ``lint``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in ("--version",):
            return super().parse_args(ctx, args)
        if not args or args[0] not in self.commands:
            if args and args[0] in ("-h", "--help"):
                args = ["lint", *args]
            else:
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
    from .settings import ConfigError, Settings, discover as discover_settings, load_file
    from .surface.db import DatabaseError, UnknownVersion

    paths = paths or (".",)
    if write_baseline and not baseline_path:
        raise _fail("--write-baseline needs --baseline FILE")
    if add_noqa and (fix or show_diff or write_baseline):
        raise _fail("--add-noqa cannot be combined with --fix, --diff or --write-baseline")
    try:
        if config_path:
            settings = load_file(Path(config_path)) or Settings(source=Path(config_path))
        else:
            settings = discover_settings(Path(paths[0]))
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


# --------------------------------------------------------------------------------- rule


@main.command("rule")
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Every rule.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
def rule_cmd(code, show_all, fmt) -> None:
    """Print a rule's documentation (what, why, example, fix safety, evidence)."""
    from .rules.base import registry
    from .docs import render_rules

    reg = registry()
    if show_all:
        chosen = list(reg.values())
    elif code:
        c = code.upper()
        if c not in reg:
            by_name = [r for r in reg.values() if r.name == code.lower()]
            if not by_name:
                raise _fail(f"unknown rule '{code}' (known: {', '.join(reg)})")
            c = by_name[0].code
        chosen = [reg[c]]
    else:
        raise _fail("name a rule code (vllm-lint rule VL102) or pass --all")
    click.echo(render_rules(chosen, fmt), nl=False)


# --------------------------------------------------------------------------------- flags


@main.group("flags")
def flags_group() -> None:
    """Query the flag database: list a release's options, show an option's history, diff releases."""


def _resolve(db, version: str) -> str:
    from .surface.db import UnknownVersion

    try:
        return db.resolve_version(version)
    except UnknownVersion as e:
        raise _fail(str(e))


@flags_group.command("list")
@click.option("--version", "version", required=True, help="vLLM release (0.27 = newest 0.27.x).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--env", "env", is_flag=True, help="List the environment variables instead.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def flags_list(version, fmt, env, db_path) -> None:
    """Every option (or environment variable) one release accepts."""
    db = _load_db(db_path)
    s = db.surface(_resolve(db, version))
    if env:
        rows = [{"name": n, "default": r.get("default"), "deprecated": bool(r.get("deprecated")),
                 "type": r.get("type"), "choices": r.get("choices"),
                 "default_computed": bool(r.get("default_computed"))} for n, r in sorted(s.env.items())]
        if fmt == "json":
            click.echo(json.dumps(rows, indent=2))
        else:
            for r in rows:
                dep = "  [deprecated]" if r["deprecated"] else ""
                default = "(computed)" if r["default_computed"] else json.dumps(r["default"])
                click.echo(f"{r['name']} = {default}{dep}")
        return
    rows = []
    for o in sorted(s.options, key=lambda o: o.name):
        rows.append({"name": o.name, "aliases": o.aliases, "kind": o.kind, "type": o.type, "nargs": o.nargs,
                     "choices": o.choices, "default": o.default, "default_computed": o.default_computed,
                     "deprecated": o.deprecated, "group": o.group, "dest": o.dest})
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    click.echo(f"vLLM {s.version}: {len(rows)} options")
    for r in rows:
        names = ", ".join([r["name"], *r["aliases"]])
        extra = []
        if r["type"]:
            extra.append(r["type"])
        if r["choices"]:
            extra.append("{" + ",".join(map(str, r["choices"])) + "}")
        extra.append("default (computed)" if r["default_computed"] else f"default {json.dumps(r['default'])}")
        if r["deprecated"]:
            extra.append("DEPRECATED")
        click.echo(f"  {names}  [{r['kind']}] {' '.join(extra)}")


@flags_group.command("show", context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def flags_show(name, fmt, db_path) -> None:
    """An option's or environment variable's history: accepted ranges, removal, successor, changes."""
    import difflib

    from .surface.timeline import canonical_query, story

    db = _load_db(db_path)
    st = story(db, name)
    if st is None:
        kind, canon = canonical_query(name)
        pool = db.all_env_names if kind == "env" else db.all_option_strings
        close = difflib.get_close_matches(canon, pool, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise _fail(f"'{name}' is not an option or variable of any vLLM release in the database{hint}",
                    EXIT_FINDINGS)
    if fmt == "json":
        click.echo(json.dumps(st.to_json(), indent=2))
        return
    label = "environment variable" if st.kind == "env" else "option"
    click.echo(f"{st.name} ({label}{', alias of ' + st.canonical if st.canonical else ''})")
    click.echo("  accepted by: " + ", ".join(a if a == b else f"{a} .. {b}" for a, b in st.ranges))
    if st.removed_in:
        click.echo("  removed in:  " + ", ".join(st.removed_in))
    else:
        click.echo(f"  still accepted by the newest release ({db.newest})")
    if st.deprecated_from:
        click.echo(f"  deprecated from: {st.deprecated_from}")
    if st.successor:
        click.echo(f"  successor:   {st.successor}" + (f"  ({st.successor_evidence})" if st.successor_evidence else ""))
    if st.aliases:
        click.echo("  other spellings: " + ", ".join(st.aliases))
    from .surface.timeline import describe_change

    for c in st.changes:
        click.echo(f"  {c.version}: {describe_change(c.what, c.old, c.new)}")


@flags_group.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True)
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def flags_diff(old, new, fmt, db_path) -> None:
    """Options and environment variables added, removed, renamed, deprecated or changed between two releases."""
    from .surface.timeline import describe_change, diff

    db = _load_db(db_path)
    d = diff(db, _resolve(db, old), _resolve(db, new))
    if fmt == "json":
        click.echo(json.dumps(d.to_json(), indent=2))
        return
    md = fmt == "markdown"
    out = [f"## vLLM {d.old} -> {d.new}" if md else f"vLLM {d.old} -> {d.new}"]

    def section(title, items):
        if not items:
            return
        out.append(f"\n### {title} ({len(items)})" if md else f"\n{title} ({len(items)}):")
        for it in items:
            out.append(f"- {it}" if md else f"  {it}")

    q = (lambda s: f"`{s}`") if md else (lambda s: s)
    section("Removed options", [q(s) for s in d.removed])
    section("Renamed options", [f"{q(a)} -> {q(b)}" for a, b, _ in d.renamed])
    section("Added options", [q(s) for s in d.added])
    section("Newly deprecated options", [q(s) for s in d.deprecated])
    section("Changed options", [f"{q(o)}: {describe_change(w, a, b)}" for o, w, a, b in d.changed])
    section("Removed environment variables", [q(s) for s in d.env_removed])
    section("Renamed environment variables", [f"{q(a)} -> {q(b)}" for a, b, _ in d.env_renamed])
    section("Added environment variables", [q(s) for s in d.env_added])
    section("Newly deprecated environment variables", [q(s) for s in d.env_deprecated])
    section("Changed environment variables", [f"{q(o)}: {describe_change(w, a, b)}" for o, w, a, b in d.env_changed])
    click.echo("\n".join(out))


def _register_optional() -> None:
    """Subcommands owned by their own modules (kept out of this file's import cost)."""
    try:
        from .cli_db import db as db_group

        main.add_command(db_group, "db")
    except ImportError:
        pass
    try:
        from .audit_cli import audit as audit_cmd

        main.add_command(audit_cmd, "audit")
    except ImportError:
        pass


_register_optional()


def run() -> None:
    try:
        main(standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("vllm-lint: interrupted", err=True)
        sys.exit(EXIT_ERROR)


if __name__ == "__main__":  # pragma: no cover
    run()
