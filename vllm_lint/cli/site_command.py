"""``vllm-lint site build OUTDIR``: the flag-history website (built by ``vllm_lint.site``); loaded only
when named (``cli.DefaultGroup``)."""

from __future__ import annotations

from pathlib import Path

import click

from .common import error_exit, load_database


@click.group("site")
def site_group() -> None:
    """The flag-history website generated from the database and the rule docs."""


@site_group.command("build")
@click.argument("outdir", type=click.Path(file_okay=False))
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def site_build(outdir, db_path) -> None:
    """Write the static site into OUTDIR (new, empty, or a previous build, which is replaced).

    Open OUTDIR/index.html from disk or publish the folder on any static host."""
    import importlib.util

    # the dependencies this command alone needs (found, not imported: markdown-it is imported
    # only when the rule docs are not in the cache)
    for module, package in (("markdown_it", "markdown-it-py"),):
        if importlib.util.find_spec(module) is None:
            raise error_exit(f"site build needs the {package} package (a dependency of vllm-lint): pip install {package}")
    from ..site.build import SiteError, build_site

    db = load_database(db_path)
    try:
        stats = build_site(Path(outdir), db, warn=lambda line: click.echo(f"warning: {line}", err=True))
    except SiteError as e:
        raise error_exit(str(e))
    except OSError as e:
        raise error_exit(f"{e.filename or outdir}: cannot write the site: {e.strerror or e}")
    click.echo(f"Built {stats['files']} files ({stats['bytes'] / 1e6:.1f} MB) in {outdir}; "
               f"open {Path(outdir) / 'index.html'}")
