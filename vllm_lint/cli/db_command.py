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

from vllm_lint.surface.plugins import PLUGIN_BY_DIST

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _checkout_db_dir() -> Optional[Path]:
    """flag_db/ of the repository this package runs from (an editable install / checkout)."""
    pkg = Path(__file__).resolve().parents[1]  # vllm_lint/
    root = pkg.parent
    db = root / "flag_db"
    if db.is_dir() and (root / "pyproject.toml").is_file() and ((root / ".git").exists() or (db / "README.md").is_file()):
        return db
    return None


def _resolve_db_dir(db_dir: Optional[Path]) -> Path:
    """Where ``db build`` / ``db update`` write: ``--db-dir``; else ``flag_db/`` of the checkout
    this package runs from; else the user's database (an install: the releases it adds over the
    shipped database, in the user data directory, which every command then picks up)."""
    if db_dir is not None:
        return db_dir
    found = _checkout_db_dir()
    if found is not None:
        return found
    from vllm_lint.surface.db import DatabaseError, prepare_user_db, shipped_db_path, user_db_path

    user = user_db_path()
    try:
        shipped = shipped_db_path()
        removed = prepare_user_db(user, shipped)
    except (DatabaseError, OSError) as e:
        _fail(f"cannot prepare the user database at {user}: {e}; pass --db-dir DIR")
    if removed:
        click.echo(f"note: the shipped database now has {', '.join(removed)}; removed from {user}", err=True)
    return user


def _fail(message: str, code: int = EXIT_USAGE) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def _make_source(kind: str, repo: Optional[str], index_url: Optional[str] = None) -> Any:
    from vllm_lint.scrape.sources import SourceError, make_source

    try:
        return make_source(kind, repo, **({"url": index_url} if kind == "pypi" and index_url else {}))
    except SourceError as e:
        _fail(str(e))


def _run(kind: str, repo: Optional[str], db_dir: Path, versions: Optional[str], jobs: Optional[int],
         only_newer: bool, yes: bool = False, index_url: Optional[str] = None) -> None:
    from vllm_lint.scrape import build as b
    from vllm_lint.scrape.sources import SourceError

    if jobs is not None and jobs < 1:
        raise click.BadParameter("must be at least 1", param_hint="--jobs")
    source = _make_source(kind, repo, index_url)
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
    _confirm_plan(source, kind, db_dir, todo, b.db_versions(db_dir), yes)

    source.report = True  # download and extraction lines (vllm_lint.scrape.sources)
    failures: list[Any] = []
    done = [0]

    def progress(r: Any) -> None:
        done[0] += 1
        if not r.ok:
            failures.append(r)
        state = "written" + (" (changed)" if getattr(r, "changed", False) else "") if r.ok else f"failed: {r.reason}"
        click.echo(f"[{done[0]}/{len(todo)}] {r.version} {state}", err=True)

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
    cache = getattr(source, "cache_dir", None)
    if cache is not None:
        removed = prune_archives(Path(cache) / "archives", archive_cache_limit())
        if removed:
            click.echo(f"archive cache: removed {removed} least recently used archive(s) to stay under "
                       f"{archive_cache_limit() // 10**6} MB ({ARCHIVE_LIMIT_ENV})", err=True)
    if result.index and result.index != "compiled":
        click.echo(f"error: {result.index}", err=True)
    sys.exit(EXIT_OK if result.ok else EXIT_FAILED)


ARCHIVE_LIMIT_ENV = "VLLM_LINT_ARCHIVE_CACHE_MB"
ARCHIVE_LIMIT_MB = 4000  # about the newest ten sdists; older ones are downloaded again when needed


def archive_cache_limit() -> int:
    """The archive cache's bound in bytes (``VLLM_LINT_ARCHIVE_CACHE_MB``, default 4000 MB)."""
    import os

    try:
        return max(0, int(os.environ.get(ARCHIVE_LIMIT_ENV, ARCHIVE_LIMIT_MB))) * 10**6
    except ValueError:
        return ARCHIVE_LIMIT_MB * 10**6


def _archives(folder: Path) -> list[tuple[float, int, Path]]:
    """(last use, size, path) of each cached archive, oldest use first."""
    out = []
    for p in folder.glob("*") if folder.is_dir() else []:
        if p.is_file() and not p.name.endswith((".part", ".tmp")):
            st = p.stat()
            out.append((max(st.st_atime, st.st_mtime), st.st_size, p))
    return sorted(out)


def prune_archives(folder: Path, limit: int) -> int:
    """Remove the least recently used archives until the folder holds at most ``limit`` bytes;
    returns how many were removed."""
    items = _archives(folder)
    total = sum(size for _, size, _ in items)
    removed = 0
    for _, size, p in items:
        if total <= limit:
            break
        try:
            p.unlink()
        except OSError:
            continue
        total -= size
        removed += 1
    return removed


def _confirm_plan(source: Any, kind: str, db_dir: Path, todo: list[str], have: list[str], yes: bool) -> None:
    """Say what the command will do before it starts: which releases, into which folder, how much to
    download. ``db update`` into a folder with no database (every release: gigabytes) needs --yes,
    or a yes at a prompt."""
    size = cached = 0
    if hasattr(source, "file_for"):
        folder = Path(source.cache_dir) / "archives"
        for v in todo:
            try:
                f = source.file_for(v)
            except Exception:  # noqa: BLE001 - the build reports it per release
                continue
            if (folder / f.get("filename", "")).is_file():
                cached += 1
            elif isinstance(f.get("size"), int):
                size += f["size"]
    span = f"{todo[0]}" if len(todo) == 1 else f"{todo[0]} to {todo[-1]}"
    where = "a new database" if not have else f"the database ({len(have)} releases, newest {have[-1]})"
    click.echo(f"{len(todo)} release(s) of vLLM ({span}) from {kind} into {where} at {db_dir}", err=True)
    if hasattr(source, "file_for"):
        click.echo(f"  about {size / 1e6:,.0f} MB to download into {Path(source.cache_dir) / 'archives'}"
                   f" ({cached} archive(s) already cached; `vllm-lint db cache` shows and prunes it)", err=True)
    if have or yes:
        return
    if sys.stdin.isatty() and sys.stderr.isatty():
        if click.confirm("Build every release?", err=True, default=False):
            return
        sys.exit(EXIT_USAGE)
    _fail(f"{db_dir} holds no database: this would build all {len(todo)} releases; pass --yes to go ahead, "
          "or --versions SPEC to `db build` fewer")


_source_opt = click.option("--source", "kind", type=click.Choice(["pypi", "github", "git"]), default="pypi",
                           show_default=True, help="Where releases come from.")
_repo_opt = click.option("--repo", type=str, default=None,
                         help="Local vLLM checkout (--source git) or owner/name (--source github).")
_dbdir_opt = click.option("--db-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
                          help="Database directory [default: flag_db/ of this checkout; from an install, the "
                               "user database in the user data directory, which every command picks up].")
INDEX_URL_ENV = "VLLM_LINT_PYPI_URL"
_index_opt = click.option("--index-url", envvar=INDEX_URL_ENV, default=None, metavar="URL",
                          help="vllm's JSON API on a package index (a mirror) [env: VLLM_LINT_PYPI_URL; "
                               "default: https://pypi.org/pypi/vllm/json]. File URLs in it are resolved "
                               "against it.")
_jobs_opt = click.option("--jobs", "-j", type=int, default=None, help="Worker processes [default: up to 2].")
_yes_opt = click.option("--yes", "-y", is_flag=True, help="Do not ask before building a new database (every release).")


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
@_index_opt
def build_cmd(kind: str, repo: Optional[str], versions: Optional[str], db_dir: Optional[Path],
              jobs: Optional[int], index_url: Optional[str]) -> None:
    """Scrape the selected releases and rewrite their files, then compile the index."""
    # building is what was asked for: the plan is said, not asked (update into a new folder asks)
    _run(kind, repo, _resolve_db_dir(db_dir), versions, jobs, only_newer=False, yes=True, index_url=index_url)


@db.command("update")
@_source_opt
@_repo_opt
@_dbdir_opt
@_jobs_opt
@_yes_opt
@_index_opt
def update_cmd(kind: str, repo: Optional[str], db_dir: Optional[Path], jobs: Optional[int], yes: bool,
               index_url: Optional[str]) -> None:
    """Scrape only releases newer than the newest one in the database (in an empty --db-dir: every
    release, which asks first). From an install, the new releases go to the user database, which
    every command then uses without flags (`vllm-lint db status` says which database is in use)."""
    _run(kind, repo, _resolve_db_dir(db_dir), None, jobs, only_newer=True, yes=yes, index_url=index_url)


@db.command("add")
@click.argument("path", type=click.Path(file_okay=False, path_type=Path))
@click.option("--name", required=True, metavar="VERSION",
              help="The name lint and -t use for it: a PEP 440 version, e.g. 0.35.0.dev0+g1a2b3c.")
@click.option("--ref", default=None, metavar="REF",
              help="A git ref of the checkout at PATH (a tag, branch or commit) [default: the files as they are].")
@click.option("--db-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Database directory [default: the user database in the user data directory, which every "
                   "command picks up].")
def add_cmd(path: Path, name: str, ref: Optional[str], db_dir: Optional[Path]) -> None:
    """Add a vLLM source tree as a release: a local checkout (at --ref) or an unpacked sdist, under a
    name of your choosing. `vllm-lint FILES -t NAME` then lints against it."""
    from vllm_lint.scrape import build as b
    from vllm_lint.scrape.sources import SourceError, TreeSource
    from vllm_lint.surface.version import InvalidVersion, Version

    try:
        Version(name)
    except InvalidVersion:
        raise click.BadParameter(f"{name!r} is not a PEP 440 version (e.g. 0.35.0.dev0+g1a2b3c)", param_hint="--name")
    if db_dir is None:
        # a development tree never joins a checkout's shipped flag_db/ unless asked
        from vllm_lint.surface.db import DatabaseError, prepare_user_db, shipped_db_path, user_db_path

        db_dir = user_db_path()
        try:
            prepare_user_db(db_dir, shipped_db_path())
        except (DatabaseError, OSError) as e:
            _fail(f"cannot prepare the user database at {db_dir}: {e}; pass --db-dir DIR")
    try:
        source = TreeSource(path, name, ref)
    except SourceError as e:
        _fail(str(e))
    where = f"{path} at {ref}" if ref else str(path)
    click.echo(f"adding {where} as vLLM {name} to {db_dir}", err=True)
    result = b.build(source, None, db_dir, jobs=1, resolved=[name])
    r = result.releases[0]
    if not r.ok:
        _fail(f"{where}: {r.reason}", EXIT_FAILED)
    if result.index and result.index != "compiled":
        _fail(result.index, EXIT_FAILED)
    click.echo(f"vLLM {name} written to {r.path} in {result.seconds:.1f}s; lint with -t {name}", err=True)


@db.command("index")
@_dbdir_opt
def index_cmd(db_dir: Optional[Path]) -> None:
    """Recompile index.json from the release files, with the checksums that let a lint read the
    files in pieces (a pure function of releases/*.json; `db build` and `db update` run it)."""
    from vllm_lint.scrape import build as b

    where = _resolve_db_dir(db_dir)
    outcome = b.compile_index(where)
    if outcome != "compiled":
        _fail(outcome, EXIT_FAILED)
    click.echo(f"compiled {where / 'index.json'}", err=True)


@db.command("plugin")
@click.argument("dist", type=click.Choice(sorted(PLUGIN_BY_DIST)))
@click.option("--versions", default=None, metavar="SPEC",
              help="Releases to scrape: a PEP 440 spec or a list [default: the newest final release].")
@click.option("--git", "git_dir", type=click.Path(file_okay=False, path_type=Path), default=None, metavar="DIR",
              help="Read the releases from the release tags of this git directory of the plugin (a clone) "
                   "instead of PyPI: for a plugin with no archive there (vllm-gaudi).")
@_dbdir_opt
def plugin_cmd(dist: str, versions: Optional[str], git_dir: Optional[Path], db_dir: Optional[Path]) -> None:
    """Scrape a platform plugin's releases from their PyPI sdists or wheels, or from the release
    tags of a git directory (its environment variables and the vLLM it requires) into
    plugins/<dist>/ of the database, and recompile plugins/index.json."""
    from vllm_lint.scrape import build as b
    from vllm_lint.scrape.plugins import PluginGitSource, PluginPyPISource, build_plugin
    from vllm_lint.scrape.sources import SourceError
    db_dir = _resolve_db_dir(db_dir)
    plugin = PLUGIN_BY_DIST[dist]
    try:
        source = PluginGitSource(plugin, str(git_dir)) if git_dir is not None else PluginPyPISource(plugin)
    except SourceError as e:
        _fail(str(e))
    source.report = True
    try:
        results = build_plugin(source, plugin, db_dir, versions)
    except b.VersionSpecError as e:
        raise click.BadParameter(str(e), param_hint="--versions")
    except SourceError as e:
        _fail(str(e))
    if not results:
        click.echo("no release matches", err=True)
    for r in results:
        click.echo(f"{dist} {r.version} " + (f"written to {r.path}" if r.ok else f"failed: {r.reason}"), err=True)
    sys.exit(EXIT_OK if all(r.ok for r in results) else EXIT_FAILED)


@db.command("cache")
@click.option("--prune", is_flag=True, help="Remove every cached archive and the cached PyPI index.")
@click.option("--max-size", type=int, default=None, metavar="MB",
              help="Remove the least recently used archives until the cache holds at most MB megabytes.")
def cache_cmd(prune: bool, max_size: Optional[int]) -> None:
    """The cache of release archives `db build` and `db update` download (from PyPI): where it is,
    how large, and pruning. It is bounded after every build (VLLM_LINT_ARCHIVE_CACHE_MB, default
    4000); the lint's own result cache is .vllm-lint-cache/ in the working directory."""
    from vllm_lint.scrape.sources import default_cache_dir

    root = default_cache_dir()
    folder = root / "archives"
    if prune or max_size is not None:
        limit = 0 if prune else max(0, max_size) * 10**6
        removed = prune_archives(folder, limit)
        for cached in root.glob("pypi-vllm*.json") if prune and root.is_dir() else []:
            cached.unlink()  # PyPI's index and each mirror's
        click.echo(f"removed {removed} archive(s) from {folder}")
    items = _archives(folder)
    total = sum(size for _, size, _ in items)
    click.echo(f"archive cache: {folder}")
    click.echo(f"  {len(items)} archive(s), {total / 1e6:,.0f} MB (bound: {archive_cache_limit() // 10**6} MB, "
               f"{ARCHIVE_LIMIT_ENV})")


main = db

if __name__ == "__main__":  # pragma: no cover
    db()


@db.command("status")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", default=None,
              help="Database directory [default: the shipped one].")
@click.option("--online", is_flag=True, help="Also ask PyPI whether vLLM has releases newer than the database.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
@_index_opt
def status_cmd(db_path: Optional[str], online: bool, output_format: str, index_url: Optional[str]) -> None:
    """How current the flag database is: its newest release and how many it holds; with --online,
    the vLLM releases on PyPI that it lacks. The database carries no timestamps by design (its
    files are reproducible from vLLM's source), so age is told in releases.

    Exit codes: 0 current (or not checked online), 1 newer releases exist, 2 error."""
    import json as _json
    import os

    from packaging.version import InvalidVersion, Version

    from vllm_lint.surface.db import Database, DatabaseError

    from vllm_lint.surface.db import shipped_db_path, user_additions, user_db_path, user_db_state

    try:
        database = Database(Path(db_path) if db_path else None)
    except DatabaseError as e:
        _fail(str(e))
    user = user_db_path()
    try:
        shipped: Optional[Path] = shipped_db_path()
    except DatabaseError:
        shipped = None
    if db_path:
        which = "given" if not os.environ.get("VLLM_LINT_DB") == db_path else "VLLM_LINT_DB"
    elif database.base is not None:
        which = "user"
    else:
        which = "shipped"
    info: dict[str, Any] = {"path": str(database.path), "which": which, "releases": len(database.versions),
                            "oldest": database.versions[0], "newest": database.newest,
                            "adds": user_additions(database),
                            "user_database": str(user),
                            "user_database_state": user_db_state(user, shipped) if shipped else "absent"}
    newer: list[dict[str, Any]] = []
    if online:
        import requests

        from vllm_lint.scrape.sources import PYPI_JSON_URL

        url = index_url or PYPI_JSON_URL
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
    if output_format == "json":
        click.echo(_json.dumps(info, indent=2))
    else:
        up = f" (uploaded to PyPI {info['newest_uploaded']})" if info.get("newest_uploaded") else ""
        said = {"given": "given with --db", "VLLM_LINT_DB": "from VLLM_LINT_DB",
                "user": "the user database, over the one shipped with vllm-lint",
                "shipped": "shipped with vllm-lint"}[which]
        click.echo(f"flag database: {info['path']} ({said})")
        click.echo(f"  {info['releases']} releases, vLLM {info['oldest']} to {info['newest']}{up}")
        if info["adds"]:
            click.echo(f"  adds {', '.join(info['adds'])} to the shipped database ({database.base})")
        state = info["user_database_state"]
        if which == "shipped" and state in ("stale", "broken"):
            click.echo(f"  the user database at {user} is {'from an older vllm-lint' if state == 'stale' else 'unreadable'}"
                       " and is not used; `vllm-lint db update` rebuilds it")
        if online:
            if newer:
                click.echo(f"  {len(newer)} newer release(s) on PyPI: "
                           + ", ".join(r["version"] + (f" ({r['uploaded']})" if r["uploaded"] else "") for r in newer))
                click.echo("  run `vllm-lint db update` to add them (from an install: into the user database)")
            else:
                click.echo("  up to date with PyPI")
        else:
            click.echo("  (pass --online to compare with the releases on PyPI)")
    sys.exit(EXIT_FAILED if newer else EXIT_OK)
