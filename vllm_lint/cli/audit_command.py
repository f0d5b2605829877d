"""``vllm-lint audit``: the version-upgrade audit (logic in ``vllm_lint.pipeline.audit``, schema in
``docs/audit.md``)."""

from __future__ import annotations

import json

import click

AUDIT_HELP = """Audit what upgrading the vLLM launches in PATHS from one release to another breaks,
deprecates and silently changes (default drift), the fixes `vllm-lint --fix --target-version TO`
would make (shown as a diff; nothing is written), what is left to do by hand, and whether the
fixed launches still set the same configuration.

\b
--from sets the release of every launch; without it, each launch's own (image tag, FROM, pip
pin), and --default-from for the launches that name none (they are listed, not audited, without
it). --to defaults to the newest release in the database.
\b
Exit codes: 0 nothing breaks at --to, 1 something breaks or a launch could not be audited,
2 usage or database error."""


def _releases(ctx, param, incomplete: str):
    from .common import complete_releases

    return complete_releases(ctx, param, incomplete)


@click.command("audit", help=AUDIT_HELP)
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--to", "to_version", metavar="VERSION", shell_complete=_releases,
              help="Release to upgrade to (default: newest in the database).")
@click.option("--from", "from_version", metavar="VERSION", shell_complete=_releases,
              help="Release every launch runs today (default: what each launch names).")
@click.option("--default-from", "default_from", metavar="VERSION", shell_complete=_releases,
              help="Release of the launches that name none (the others keep their own).")
@click.option("--format", "output_format", type=click.Choice(["text", "markdown", "json"]),
              default="text", show_default=True)
@click.option("--unsafe-fixes", is_flag=True, help="Include unsafe fixes in the diff and the semantic check.")
@click.option("--config", "config_path", type=click.Path(dir_okay=False), help="Configuration file to use.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB",
              help="Flag database directory (default: the shipped one).")
def audit(paths, to_version, from_version, default_from, output_format, unsafe_fixes, config_path, db_path) -> None:
    from ..pipeline.audit import AuditUsageError, audit_paths, render_markdown, render_text
    from .common import error_exit, settings_and_db
    from ..surface.db import DatabaseError, UnknownVersion

    paths = paths or (".",)
    settings, db = settings_and_db(config_path, paths, db_path)
    try:
        to = db.resolve_version(to_version) if to_version else db.newest
        frm = db.resolve_version(from_version) if from_version else None
        dfrm = db.resolve_version(default_from) if default_from else None
    except UnknownVersion as e:
        raise error_exit(str(e))
    if frm is not None and db.position(frm) > db.position(to):
        raise error_exit(f"--from {frm} is newer than --to {to}")
    if dfrm is not None and db.position(dfrm) > db.position(to):
        raise error_exit(f"--default-from {dfrm} is newer than --to {to}")
    if frm is not None and dfrm is not None:
        raise error_exit("--from sets every launch's release; --default-from only those that name none: pass one")
    try:
        report = audit_paths(paths, db, to, from_version=frm, settings=settings, unsafe_fixes=unsafe_fixes,
                             default_from=dfrm)
    except AuditUsageError as e:
        raise error_exit(str(e))
    except (DatabaseError, UnknownVersion) as e:
        raise error_exit(str(e))
    if output_format == "json":
        click.echo(json.dumps(report.to_json(), indent=2, sort_keys=False))
    elif output_format == "markdown":
        click.echo(render_markdown(report), nl=False)
    else:
        click.echo(render_text(report), nl=False)
    raise click.exceptions.Exit(report.exit_code)
