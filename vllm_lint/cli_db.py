"""``vllm-lint db``: build and update the flag database from vLLM's released source.

Exit codes: 0 every selected release landed; 1 some releases failed (the others landed);
2 usage error, or the source could not be reached at all. Errors are one line, never a traceback.
Heavy imports (requests, libcst, the extractor) happen inside the commands.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Optional

import click

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _checkout_db_dir() -> Optional[Path]:
    """flag_db/ of the repository this package runs from (an editable install / checkout)."""
    pkg = Path(__file__).resolve().parent
    root = pkg.parent
    db = root / "flag_db"
    if db.is_dir() and (root / "pyproject.toml").is_file() and ((root / ".git").exists() or (db / "README.md").is_file()):
        return db
    return None


def _resolve_db_dir(db_dir: Optional[Path]) -> Path:
    if db_dir is not None:
        return db_dir
    found = _checkout_db_dir()
    if found is None:
        raise click.UsageError("not running from a vllm-lint checkout; pass --db-dir DIR")
    return found


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _make_source(kind: str, repo: Optional[str]) -> Any:
    from vllm_lint.scrape.sources import SourceError, make_source

    try:
        return make_source(kind, repo)
    except SourceError as e:
        _fail(str(e))


def _run(kind: str, repo: Optional[str], db_dir: Path, versions: Optional[str], jobs: Optional[int],
         only_newer: bool) -> None:
    from vllm_lint.scrape import build as b
    from vllm_lint.scrape.sources import SourceError

    if jobs is not None and jobs < 1:
        raise click.BadParameter("must be at least 1", param_hint="--jobs")
    source = _make_source(kind, repo)
    try:
        if only_newer:
            todo = b.newer_versions(source, db_dir)
        else:
            todo = b.select_versions(source.versions(), versions)
    except b.VersionSpecError as e:
        raise click.BadParameter(str(e), param_hint="--versions")
    except SourceError as e:
        _fail(str(e))
    except Exception as e:  # noqa: BLE001
        _fail(f"{type(e).__name__}: {e}")
    for note in getattr(source, "notes", []) or []:
        click.echo(f"note: {note}", err=True)
    if not todo:
        click.echo("nothing to do: the database already has every release" if only_newer
                   else "no release matches", err=True)
        sys.exit(EXIT_OK)

    failures: list[Any] = []
    with click.progressbar(length=len(todo), label=f"{len(todo)} release(s) from {kind}", file=sys.stderr,
                           show_pos=True, item_show_func=lambda s: s) as bar:
        def progress(r: Any) -> None:
            if not r.ok:
                failures.append(r)
            bar.update(1, r.version)

        try:
            result = b.build(source, None, db_dir, progress=progress, jobs=jobs, resolved=todo)
        except KeyboardInterrupt:
            _fail("interrupted", EXIT_FAILED)
        except Exception as e:  # noqa: BLE001
            _fail(f"{type(e).__name__}: {e}", EXIT_FAILED)

    landed = [r for r in result.releases if r.ok]
    changed = sum(1 for r in landed if r.changed)
    for r in result.failed:
        click.echo(f"failed {r.version}: {r.reason}", err=True)
    click.echo(f"{len(landed)}/{len(result.releases)} release(s) written to {db_dir / 'releases'} "
               f"({changed} changed) in {result.seconds:.1f}s", err=True)
    if result.index and result.index != "compiled":
        click.echo(f"error: {result.index}", err=True)
    sys.exit(EXIT_OK if result.ok else EXIT_FAILED)


_source_opt = click.option("--source", "kind", type=click.Choice(["pypi", "github", "git"]), default="pypi",
                           show_default=True, help="Where releases come from.")
_repo_opt = click.option("--repo", type=str, default=None,
                         help="Local vLLM checkout (--source git) or owner/name (--source github).")
_dbdir_opt = click.option("--db-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                          help="Database directory [default: flag_db/ of this checkout].")
_jobs_opt = click.option("--jobs", "-j", type=int, default=None, help="Worker processes [default: up to 2].")


@click.group("db")
def db() -> None:
    """Build or update the flag database from vLLM's release source."""


@db.command("build")
@_source_opt
@_repo_opt
@click.option("--versions", default=None, metavar="SPEC",
              help="Releases to build: a PEP 440 spec ('>=0.4.0,<=0.33.0') or a list ('0.8.5,0.10.2') "
                   "[default: every release from 0.4.0].")
@_dbdir_opt
@_jobs_opt
def build_cmd(kind: str, repo: Optional[str], versions: Optional[str], db_dir: Optional[Path],
              jobs: Optional[int]) -> None:
    """Scrape the selected releases and rewrite their files, then compile the index."""
    _run(kind, repo, _resolve_db_dir(db_dir), versions, jobs, only_newer=False)


@db.command("update")
@_source_opt
@_repo_opt
@_dbdir_opt
@_jobs_opt
def update_cmd(kind: str, repo: Optional[str], db_dir: Optional[Path], jobs: Optional[int]) -> None:
    """Scrape only releases newer than the newest one in the database."""
    _run(kind, repo, _resolve_db_dir(db_dir), None, jobs, only_newer=True)


main = db

if __name__ == "__main__":  # pragma: no cover
    db()


@db.command("status")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", default=None,
              help="Database directory [default: the shipped one].")
@click.option("--online", is_flag=True, help="Also ask PyPI whether vLLM has releases newer than the database.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def status_cmd(db_path: Optional[str], online: bool, fmt: str) -> None:
    """How current the flag database is: its newest release and how many it holds; with --online,
    the vLLM releases on PyPI that it lacks. The database carries no timestamps by design (its
    files are reproducible from vLLM's source), so age is told in releases.

    Exit codes: 0 current (or not checked online), 1 newer releases exist, 2 error."""
    import json as _json
    import os

    from packaging.version import InvalidVersion, Version

    from vllm_lint.surface.db import Database, DatabaseError

    try:
        database = Database(Path(db_path) if db_path else None)
    except DatabaseError as e:
        _fail(str(e))
    info: dict[str, Any] = {"path": str(database.path), "releases": len(database.versions),
                            "oldest": database.versions[0], "newest": database.newest}
    newer: list[dict[str, Any]] = []
    if online:
        import requests

        from vllm_lint.scrape.sources import PYPI_JSON_URL

        url = os.environ.get("VLLM_LINT_PYPI_URL") or PYPI_JSON_URL
        try:
            resp = requests.get(url, timeout=15, headers={"Accept": "application/json"})
            resp.raise_for_status()
            releases = resp.json().get("releases", {})
        except requests.RequestException as e:
            _fail(f"cannot reach PyPI ({url}): {type(e).__name__}; check the network or run without --online")
        except (ValueError, AttributeError):
            _fail(f"unexpected answer from {url} (not PyPI's JSON API)")
        have = Version(database.newest)

        def uploaded(files: Any) -> Optional[str]:
            times = sorted(f.get("upload_time_iso_8601") or f.get("upload_time") or ""
                           for f in files or [] if isinstance(f, dict))
            times = [t for t in times if t]
            return times[0][:10] if times else None

        for v, files in releases.items():
            try:
                pv = Version(v)
            except InvalidVersion:
                continue
            if pv > have and not pv.is_prerelease and not pv.is_devrelease and files and not all(
                    isinstance(f, dict) and f.get("yanked") for f in files):
                newer.append({"version": v, "uploaded": uploaded(files)})
        newer.sort(key=lambda r: Version(r["version"]))
        info["newest_uploaded"] = uploaded(releases.get(database.newest))
        info["newer_on_pypi"] = newer
    if fmt == "json":
        click.echo(_json.dumps(info, indent=2))
    else:
        up = f" (uploaded to PyPI {info['newest_uploaded']})" if info.get("newest_uploaded") else ""
        click.echo(f"flag database: {info['path']}")
        click.echo(f"  {info['releases']} releases, vLLM {info['oldest']} to {info['newest']}{up}")
        if online:
            if newer:
                click.echo(f"  {len(newer)} newer release(s) on PyPI: "
                           + ", ".join(r["version"] + (f" ({r['uploaded']})" if r["uploaded"] else "") for r in newer))
                click.echo("  run `vllm-lint db update` in a checkout to add them (or upgrade vllm-lint)")
            else:
                click.echo("  up to date with PyPI")
        else:
            click.echo("  (pass --online to compare with the releases on PyPI)")
    sys.exit(EXIT_FAILED if newer else EXIT_OK)
