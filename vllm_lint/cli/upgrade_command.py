"""``vllm-lint upgrade``: move a repository's vLLM launches to another release in one command
(logic in ``vllm_lint.pipeline.upgrade``)."""

from __future__ import annotations

import click

UPGRADE_HELP = """Upgrade the vLLM launches in PATHS to release TO, in place and byte-exactly: bump the
release the files name (image tags, FROM, pip pins, requirement files), fix every launch for TO
(what TO refuses, what it deprecates where the successor is known), and list what is left for a
person. --dry-run shows the diff and writes nothing; --format markdown prints the pull request's
description instead of the account (and, with --dry-run, instead of the diff).

\b
TO is a release (0.34.0), a minor series (0.34: its newest patch) or `latest`.
\b
Exit codes: 0 nothing left for a person, 1 something is, 2 usage or database error."""


def _releases(ctx, param, incomplete: str):
    from .common import complete_releases

    return complete_releases(ctx, param, incomplete)


@click.command("upgrade", help=UPGRADE_HELP)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--to", "to_version", metavar="TO", required=True, shell_complete=_releases,
              help="Release to upgrade to (0.34.0, 0.34, latest).")
@click.option("--dry-run", "--diff", "dry_run", is_flag=True, help="Print the diff of the changes; write nothing.")
@click.option("--format", "output_format", type=click.Choice(["text", "markdown"]), default="text",
              show_default=True, help="What to print: an account per file, or a pull request description.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply unsafe fixes.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Configuration file to use.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB",
              help="Flag database directory (default: the shipped one).")
def upgrade(paths, to_version, dry_run, output_format, unsafe_fixes, config_path, db_path) -> None:
    import sys
    from pathlib import Path

    from ..pipeline.fix import write_atomic
    from ..pipeline.upgrade import render_markdown, render_text, upgrade_paths
    from ..rules.base import select_layered
    from ..settings import rule_layers
    from ..surface.db import DatabaseError, UnknownVersion
    from .common import error_exit, settings_and_db
    from .lint_command import _diff

    paths = paths or (".",)
    settings, db = settings_and_db(config_path, paths, db_path)
    try:
        to = db.resolve_version(to_version)
        rules = select_layered(rule_layers(settings), preview=bool(settings.preview))
        report = upgrade_paths(paths, settings, db, rules, to, unsafe_fixes=unsafe_fixes)
    except (DatabaseError, UnknownVersion) as e:
        raise error_exit(str(e))
    for f in report.files:
        if not f.changed:
            continue
        if dry_run:
            if output_format == "text":  # (markdown: the description alone, for a bot to post)
                sys.stdout.write(_diff(f.path, f.original, f.new))
        else:
            try:
                write_atomic(Path(f.path), f.new)
            except OSError as e:
                raise error_exit(f"{f.path}: cannot write the upgraded file: {e.strerror or e}")
    out = render_markdown(report) if output_format == "markdown" else render_text(report, dry_run)
    click.echo(out, nl=False, err=dry_run and output_format == "text")
    raise click.exceptions.Exit(report.exit_code)
