"""Build or update flag_db/ from a source (PyPI archives, GitHub tags, a local git checkout).

For each release: fetch the source tree, run the extractor, and write
``releases/<version>.json`` atomically (a temporary file in the same directory, then
``os.replace``) only once the release extracted completely. A release that fails is reported with
its reason and the others still land. Several releases are fetched and extracted in a process pool
(reading a compressed archive and parsing with libcst are CPU-bound). The index is compiled
afterwards (``vllm_lint.surface.db.compile_index``).
"""

from __future__ import annotations

import gc
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence, Union

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from vllm_lint.scrape import eras
from vllm_lint.surface.db import compile_index as compile_db_index, dump_json, write_file_atomic

#: The database covers releases from here on (eras.py).
MIN_VERSION = eras.MIN_VERSION
SCHEMA = 1

Extractor = Callable[[Any, str, dict], dict]
Progress = Callable[["ReleaseResult"], None]


@dataclass
class ReleaseResult:
    version: str
    ok: bool
    reason: str = ""
    seconds: float = 0.0
    path: Optional[Path] = None
    changed: bool = False


@dataclass
class BuildResult:
    releases: list[ReleaseResult] = field(default_factory=list)
    index: Optional[str] = None  # "compiled" or an error message
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[ReleaseResult]:
        return [r for r in self.releases if not r.ok]

    @property
    def ok(self) -> bool:
        return not self.failed and self.index in (None, "compiled")


class VersionSpecError(ValueError):
    pass


def select_versions(available: Iterable[str], spec: Union[None, str, Sequence[str]] = None,
                    minimum: Optional[str] = MIN_VERSION) -> list[str]:
    """The releases of ``available`` that ``spec`` selects, oldest first.

    ``spec`` is None (every release from ``minimum`` on), a PEP 440 specifier set
    (``">=0.4.0,<=0.33.0"``), or explicit versions (``"0.8.5,0.10.2"`` or a list). Explicit versions
    that are not available are an error.
    """
    avail = {}
    for v in available:
        try:
            avail[v] = Version(v)
        except InvalidVersion:
            continue
    if spec is None or (isinstance(spec, str) and not spec.strip()):
        floor = Version(minimum) if minimum else None
        chosen = [v for v, ver in avail.items() if floor is None or ver >= floor]
        return sorted(chosen, key=lambda v: avail[v])
    items = [s.strip() for s in (spec.replace(" ", ",").split(",") if isinstance(spec, str) else spec)]
    items = [s for s in items if s]
    exact: list[str] = []
    for s in items:
        try:
            Version(s)
        except InvalidVersion:
            break
        exact.append(s)
    else:
        by_norm = {str(ver): v for v, ver in avail.items()}
        missing = [s for s in exact if str(Version(s)) not in by_norm]
        if missing:
            raise VersionSpecError(f"not available from this source: {', '.join(missing)}")
        return sorted({by_norm[str(Version(s))] for s in exact}, key=lambda v: avail[v])
    try:
        sset = SpecifierSet(",".join(items))
    except InvalidSpecifier:
        raise VersionSpecError(f"invalid version spec {spec!r} (use e.g. '>=0.8,<0.11' or '0.8.5,0.10.2')") from None
    return sorted((v for v, ver in avail.items() if sset.contains(ver, prereleases=False)), key=lambda v: avail[v])


def _default_extractor() -> Extractor:
    from vllm_lint.scrape.extract import extract_release

    return extract_release


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split()) or type(e).__name__
    from vllm_lint.scrape.sources import SourceError

    if isinstance(e, SourceError):
        return text[:400]
    return f"{type(e).__name__}: {text}"[:400]


def _check_record(record: Any, version: str) -> None:
    if not isinstance(record, dict):
        raise ValueError(f"extractor returned {type(record).__name__}, not a dict")
    if record.get("schema") != SCHEMA:
        raise ValueError(f"extractor returned schema {record.get('schema')!r}, expected {SCHEMA}")
    if record.get("version") != version:
        raise ValueError(f"extractor returned version {record.get('version')!r} for {version}")
    if not isinstance(record.get("options"), list) or not record["options"]:
        raise ValueError("extractor returned no options")


def build_one(source: Any, version: str, db_dir: Union[str, Path],
              extractor: Optional[Extractor] = None) -> ReleaseResult:
    """Fetch, extract and write one release. Never raises: failures come back in the result."""
    t0 = time.perf_counter()
    dest = Path(db_dir) / "releases" / f"{version}.json"
    # The extraction allocates ~500,000 objects (syntax trees of ~60 modules, resolved values) that
    # live until it ends, nearly none of them in cycles: the cyclic collector's full passes over
    # them were ~15 % of a release's CPU and freed almost nothing (trees are freed by reference
    # counting when the release is done).
    collecting = gc.isenabled()
    gc.disable()
    try:
        extract = extractor or _default_extractor()
        tree, src = source.fetch(version)
        record = extract(tree, version, src)
        _check_record(record, version)
        data = dump_json(record)  # inside the try: a record that is not JSON is a failed release
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - one bad release must not stop the others
        return ReleaseResult(version, False, _one_line(e), time.perf_counter() - t0)
    finally:
        if collecting:
            gc.enable()
    try:
        changed = write_file_atomic(dest, data)
    except OSError as e:
        return ReleaseResult(version, False, f"cannot write {dest}: {e.strerror or e}", time.perf_counter() - t0)
    return ReleaseResult(version, True, "", time.perf_counter() - t0, dest, changed)


def compile_index(db_dir: Path) -> str:
    """Compile ``index.json``; "compiled", or the reason it failed."""
    try:
        compile_db_index(Path(db_dir))
    except Exception as e:  # noqa: BLE001
        return f"index compilation failed: {_one_line(e)}"
    return "compiled"


def build(
    source: Any,
    versions: Union[None, str, Sequence[str]] = None,
    db_dir: Union[str, Path] = "flag_db",
    progress: Optional[Progress] = None,
    jobs: Optional[int] = None,
    extractor: Optional[Extractor] = None,
    index: bool = True,
    resolved: Optional[list[str]] = None,
) -> BuildResult:
    """Build the release files selected by ``versions`` (see :func:`select_versions`) into
    ``db_dir/releases/`` and compile the index. ``progress`` is called once per finished release.

    ``jobs`` worker processes fetch and extract in parallel (default: up to 2, never more than the
    CPU count); ``jobs=1`` runs everything in this process.
    """
    t0 = time.perf_counter()
    db = Path(db_dir)
    result = BuildResult()
    todo = resolved if resolved is not None else select_versions(source.versions(), versions)
    result.notes.extend(getattr(source, "notes", []) or [])
    if jobs is None:
        jobs = min(os.cpu_count() or 1, 2) if len(todo) > 1 else 1
    jobs = max(1, min(jobs, len(todo) or 1))
    (db / "releases").mkdir(parents=True, exist_ok=True)

    def report(r: ReleaseResult) -> None:
        result.releases.append(r)
        if progress is not None:
            progress(r)

    if jobs == 1:
        for v in todo:
            report(build_one(source, v, db, extractor))
    else:
        # newest (largest) first for better packing across workers
        order = sorted(todo, key=Version, reverse=True)
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures: dict[Future, str] = {pool.submit(build_one, source, v, db, extractor): v for v in order}
            pending = set(futures)
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    v = futures[fut]
                    try:
                        report(fut.result())
                    except Exception as e:  # worker died (e.g. killed, unpicklable result)
                        report(ReleaseResult(v, False, f"worker failed: {_one_line(e)}"))
    result.releases.sort(key=lambda r: Version(r.version))
    if index and any(r.ok for r in result.releases):
        result.index = compile_index(db)
    result.seconds = time.perf_counter() - t0
    return result


def db_versions(db_dir: Union[str, Path]) -> list[str]:
    """Versions that have a release file, oldest first (a user database's include the shipped
    database's under it)."""
    from vllm_lint.surface.db import database_base, release_files

    return [p.stem for _, p in release_files(Path(db_dir), database_base(Path(db_dir)))]


def newer_versions(source: Any, db_dir: Union[str, Path]) -> list[str]:
    # a source tree added under a development name (`db add`: 0.35.0.dev0+g1a2b3c) is no release:
    # the newest release decides what is new
    have = [v for v in db_versions(db_dir) if not (Version(v).is_devrelease or Version(v).local)]
    if not have:
        return select_versions(source.versions(), None)
    newest = Version(have[-1])
    return [v for v in select_versions(source.versions(), None) if Version(v) > newest]


def update(source: Any, db_dir: Union[str, Path] = "flag_db", progress: Optional[Progress] = None,
           jobs: Optional[int] = None, extractor: Optional[Extractor] = None, index: bool = True) -> BuildResult:
    """Scrape only the releases newer than the newest one in the database."""
    todo = newer_versions(source, db_dir)
    if not todo:
        res = BuildResult(notes=list(getattr(source, "notes", []) or []))
        return res
    return build(source, None, db_dir, progress=progress, jobs=jobs, extractor=extractor,
                 index=index, resolved=todo)
