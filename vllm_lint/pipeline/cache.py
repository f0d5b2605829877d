"""A result cache, so a second run over unchanged files costs almost nothing: one JSON file per
*fingerprint* (database identity, settings, selected rules, unsafe-fixes, tool version),
``v2/stat-<fingerprint>.json``, mapping each path to one record::

    [size, mtime_ns, "none"]                                      no launch in the file
    [size, mtime_ns, "clean|<pin>", findings]                     (without a content key)
    [size, mtime_ns, "clean|<pin>", findings, key, raw_fixable]   a file that was linted
    [size, mtime_ns, "clean|<pin>", findings, key, raw_fixable, reads]   ... whose analysis read
                                                                  other files

``clean`` is ``newest`` when a launch of the file named no release and was checked against the
database's newest (``FileResult.defaulted``: the run's summary says so), ``newer`` when one named a
release newer than the database (``FileResult.newer``; the summary counts those apart). ``<pin>`` is
what the files around the file name (``Targeting.pin_for``: runners, then requirement and lock files). ``reads`` lists the other files the analysis read, ``[path, content key]`` each (a local model
directory's ``config.json``: ``vllm_lint.inputs``); a record holds only while each of them still
has its content key, in both lookups.

For YAML files (and files whose format is sniffed from their content) the reason also names how
the file was named, ``none|auto`` or ``clean|<pin>|explicit``: named explicitly or matched by
``config-files`` they skip the pre-filter, so their outcome differs from a directory walk's
(``engine._mode_tag``).

``findings`` are the file's final findings, positioned (what the report prints); ``key`` is 128
bits of the BLAKE2b hash of the fingerprint, the path (findings name it), the format, the project pin
near the file (it chooses the target release), the lint mode and the bytes; ``raw_fixable`` says
whether the findings before suppression comments had a fix.

Two lookups. By stat: a file whose size and mtime (nanoseconds) equal its record's is answered
without being read, as ruff does, if the reason still holds (no launch, or the same pin). By
content: a file whose size or mtime changed (a checkout, a ``touch``) is read and keyed; when the
key equals its record's, the record's findings are what linting would give again, so they are
reused and the record takes the new size and mtime. A --fix run skips the stat lookup and does not
reuse a result with ``raw_fixable`` set: that fix is to be applied (even under a suppression
comment, as a fresh --fix run does).

Written once per run: ``flush()`` merges this run's records into the index, re-reading the file
first if another run replaced it since this one read it, and writes it atomically (temporary file,
then rename), so concurrent runs (pre-commit runs hooks in parallel) never read a half-written
index; a record lost to a race only costs a re-read. One record per path, so a file does not grow
with a path's history (records of deleted paths stay). A run that changed nothing writes nothing
(it only refreshes the file's mtime once a day, to mark it in use). When a new index file is
created (the settings or the tool version changed), the index files of other fingerprints unused
for ``PRUNE_DAYS`` are deleted.
Results linted in worker processes bring their content keys back in ``FileResult.content_key``.
An unreadable or corrupt index, or record, is a miss, never an error.

Why one file: format v1 wrote one entry file per linted file with a launch (a ``mkdir``, an
``open`` and a ``replace`` each, ~0.2 ms per syscall here), so the run that fills the cache cost
200-500 ms CPU more than a --no-cache run over the benchmark corpus (2,200 files, 228 with
launches; medians of paired runs, two busy cores); one write per run costs 20-40 ms more (~0.75 s
CPU either way). For the same reason the content key of a file without a keyed record is computed
only once it is linted (in the worker process that lints it, whose project-pin lookups it shares).
``v1/`` caches are ignored.

The cache lives in ``.vllm-lint-cache/`` in the working directory (like ruff's ``.ruff_cache``),
holding a ``.gitignore`` of ``*`` and a ``CACHEDIR.TAG``; ``--no-cache`` bypasses it and
``VLLM_LINT_CACHE_DIR`` moves it.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Optional

from .. import __version__
from ..launch import Edit, Span
from ..rules.base import Diagnostic, Fix

CACHE_DIR_ENV = "VLLM_LINT_CACHE_DIR"
PRUNE_DAYS = 30  # an index file of other settings, unused this long, is deleted
_DAY = 86400
_FORMAT = "v2"  # v1: one file per content entry (ignored now)
_KEY_CHARS = 32

try:
    # BLAKE2b straight from its C module: ``import hashlib`` loads OpenSSL's bindings first, 2.2 ms
    # of every cached run's start-up (a third of a one-file lint's own work)
    from _blake2 import blake2b as _hash
except ImportError:  # an interpreter without CPython's module layout
    from hashlib import blake2b as _hash


def default_dir() -> Path:
    return Path(os.environ.get(CACHE_DIR_ENV) or ".vllm-lint-cache")


def _span(s: Optional[Span]) -> Optional[list[int]]:
    return None if s is None else [s.start, s.end]


def _unspan(v: Optional[list[int]]) -> Optional[Span]:
    return None if v is None else Span(v[0], v[1])


def dump(d: Diagnostic) -> dict[str, Any]:
    return {
        "code": d.code, "message": d.message, "span": _span(d.span), "severity": d.severity,
        "option": d.option, "target_version": d.target_version, "line": d.line,
        "fix": None if d.fix is None else {
            "applicability": d.fix.applicability, "message": d.fix.message,
            "edits": [[e.span.start, e.span.end, e.content] for e in d.fix.edits]},
    }


def load(rec: dict[str, Any], path: str) -> Diagnostic:
    fix = rec.get("fix")
    return Diagnostic(
        code=rec["code"], message=rec["message"], path=path, span=_unspan(rec.get("span")),
        severity=rec.get("severity", "error"), option=rec.get("option"),
        target_version=rec.get("target_version"), line=rec.get("line"),
        fix=None if fix is None else Fix([Edit(Span(a, b), c) for a, b, c in fix["edits"]],
                                         fix["applicability"], fix["message"]),
    )


def dump_placed(d: Diagnostic) -> dict[str, Any]:
    rec = dump(d)
    rec["pos"] = [d.row, d.column, d.end_row, d.end_column]
    return rec


def load_placed(rec: dict[str, Any], path: str) -> Diagnostic:
    d = load(rec, path)
    d.row, d.column, d.end_row, d.end_column = rec["pos"]
    return d


class Cache:
    def __init__(self, directory: Path, fingerprint: str):
        self.dir = directory / _FORMAT
        self.fingerprint = fingerprint
        self._index: Optional[dict[str, list]] = None  # the index as read from disk
        self._seen: Optional[tuple[int, int, int]] = None  # (inode, size, mtime_ns) of the file read
        self._new: dict[str, list] = {}  # this run's records, written by flush()
        self._answered: dict[str, list] = {}  # records that answered a stat lookup unchanged
        self._keys: dict[str, tuple[str, int]] = {}  # path -> (content key, its raw findings had a fix)
        self._read_keys: dict[str, str] = {}  # content keys of the other files records name, once a run

    @staticmethod
    def fingerprint_of(db_path: Path, settings: Any, rule_codes: list[str], unsafe: bool) -> str:
        h = _hash()
        h.update(__version__.encode())
        index = db_path / "index.json"
        try:
            st = index.stat()
            h.update(f"{index}:{st.st_size}:{st.st_mtime_ns}".encode())
        except OSError:
            h.update(b"no-index")
        overlay = db_path / "overlays" / "renames.json"
        try:
            st = overlay.stat()
            h.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
        except OSError:
            pass
        fields = {k: v for k, v in vars(settings).items() if k != "source"}
        h.update(json.dumps(fields, sort_keys=True, default=str).encode())
        h.update(",".join(rule_codes).encode())
        h.update(b"unsafe" if unsafe else b"safe")
        return h.hexdigest()

    def key(self, path: str, data: bytes, context: str) -> str:
        """The content key of ``data`` read from ``path`` in ``context`` (format, pin, mode): 128
        bits of a BLAKE2b hash, which also covers the fingerprint."""
        h = _hash()
        h.update(self.fingerprint.encode())
        h.update(path.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
        h.update(context.encode())
        h.update(b"\0")
        h.update(data)
        return h.hexdigest()[:_KEY_CHARS]

    @property
    def _path(self) -> Path:
        return self.dir / f"stat-{self.fingerprint[:24]}.json"

    def _load(self) -> dict[str, list]:
        if self._index is None:
            self._index = {}
            try:
                with open(self._path, "rb") as f:
                    st = os.fstat(f.fileno())
                    loaded = json.loads(f.read())
                if isinstance(loaded, dict):
                    self._index = loaded
                    self._seen = (st.st_ino, st.st_size, st.st_mtime_ns)
                    if time.time() - st.st_mtime > _DAY:
                        # a run that changes nothing writes nothing: mark the index as in use,
                        # so that pruning (flush) keeps it
                        os.utime(self._path)
                        self._seen = None
            except (OSError, ValueError, RecursionError):
                pass  # no index yet, or an unreadable one: every file is a miss
        return self._index

    # ------------------------------------------------------------------ lookups

    def stat_result(self, path: str, stat_key: tuple[int, int]
                    ) -> Optional[tuple[str, list[Diagnostic], tuple[tuple[str, str], ...]]]:
        """(why the last result holds, its positioned findings, the other files it read) when
        ``path``'s size and mtime are unchanged since and so are the files it read, else None. The
        reason is "none" (no launch) or "clean|<pin>" (see above)."""
        rec = self._load().get(path)
        if not (isinstance(rec, list) and len(rec) in (3, 4, 6, 7) and rec[0] == stat_key[0] and rec[1] == stat_key[1]):
            return None
        try:
            diags = [load_placed(d, path) for d in (rec[3] if len(rec) > 3 else [])]
            reads = self._reads(rec)
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        if reads is None:
            return None
        self._answered[path] = rec
        return rec[2], diags, reads

    def has_records(self) -> bool:
        """Whether the index holds any record (else no stat lookup can hit: a cold run)."""
        return bool(self._load())

    def has_content(self, path: str) -> bool:
        """Whether ``path``'s record carries a content key (else ``content_result`` cannot hit)."""
        rec = self._load().get(path)
        return isinstance(rec, list) and len(rec) in (6, 7)

    def content_result(self, path: str, key: str, fix: bool
                       ) -> Optional[tuple[str, list[Diagnostic], int, tuple[tuple[str, str], ...]]]:
        """(why the result holds, its positioned findings, whether the findings before suppression
        had a fix, the other files it read) when ``path``'s last record was made from content with
        this ``key`` and the files it read are unchanged, else None. In a --fix run a result whose
        findings had a fix is a miss: the fix is to be applied."""
        rec = self._load().get(path)
        if not (isinstance(rec, list) and len(rec) in (6, 7) and rec[4] == key and isinstance(rec[2], str)) \
                or (fix and rec[5]):
            return None
        try:
            diags = [load_placed(d, path) for d in rec[3]]
            reads = self._reads(rec)
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        if reads is None:
            return None
        return rec[2], diags, rec[5], reads

    def _reads(self, rec: list) -> Optional[tuple[tuple[str, str], ...]]:
        """The other files a record's analysis read, when every one is unchanged; else None. Each
        file's content key is computed once per run (many files read the same model's config)."""
        if len(rec) < 7:
            return ()
        from ..inputs import content_key

        reads = tuple((str(p), str(k)) for p, k in rec[6])
        for path, key in reads:
            now = self._read_keys.get(path)
            if now is None:
                now = self._read_keys[path] = content_key(path)
            if now != key:
                return None
        return reads

    # ------------------------------------------------------------------ recording

    def note_key(self, path: str, key: tuple[str, int]) -> None:
        """The content key (and raw-findings-had-a-fix flag) behind ``path``'s result in this run.
        Results linted in worker processes bring theirs back in ``FileResult.content_key``."""
        self._keys[path] = key

    def note_result(self, path: str, stat_key: tuple[int, int], verdict: str, diags: list[Diagnostic],
                    reads: tuple[tuple[str, str], ...] = ()) -> None:
        """Record ``path``'s result of this run (its final findings, the other files its analysis
        read), for ``flush()`` to write."""
        old = self._answered.get(path)
        if old is not None and old[0] == stat_key[0] and old[1] == stat_key[1] and old[2] == verdict:
            return  # answered by its record, which stays as it is
        rec: list = [stat_key[0], stat_key[1], verdict]
        launches = not verdict.startswith("none")
        if launches or diags:
            rec.append([dump_placed(d) for d in diags])
            key = self._keys.get(path)
            if key is not None and launches:
                rec.append(key[0])
                rec.append(1 if key[1] else 0)
                if reads:
                    rec.append([list(r) for r in reads])
        self._new[path] = rec

    def _prune(self) -> None:
        """Delete the index files of other fingerprints (older settings or tool versions) unused for
        ``PRUNE_DAYS``; run when a new index file is created, so only when settings change."""
        now = time.time()
        try:
            for p in self.dir.glob("stat-*.json"):
                if p != self._path and now - p.stat().st_mtime > PRUNE_DAYS * _DAY:
                    p.unlink()
        except OSError:
            pass

    def _prepare(self) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        root = self.dir.parent
        for name, text in ((".gitignore", "# created by vllm-lint\n*\n"),
                           ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                                            "# vllm-lint result cache; see https://bford.info/cachedir/\n")):
            p = root / name
            if not p.exists():
                try:
                    p.write_text(text)
                except OSError:
                    pass

    def flush(self) -> None:
        """Merge this run's records into the index file: the one write of the run, atomic
        (temporary file, then rename). What a concurrent run wrote since this one read the file is
        merged in; a record lost to a race only costs a re-read."""
        if not self._new:
            return
        tmp = self.dir / f".tmp-stat-{os.getpid()}-{self.fingerprint[:8]}"
        try:
            self._prepare()
            merged = self._load()
            try:
                st = os.stat(self._path)
                if (st.st_ino, st.st_size, st.st_mtime_ns) != self._seen:
                    with open(self._path, "rb") as f:
                        on_disk = json.loads(f.read())
                    if isinstance(on_disk, dict):
                        merged.update(on_disk)
            except (OSError, ValueError, RecursionError):
                pass
            merged.update(self._new)
            # json.dumps, not json.dump: only the one-shot encoder is the C one
            text = json.dumps(merged, separators=(",", ":"))
            # a name no other process uses (not tempfile: its import costs ~3 ms of start-up)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            created = not self._path.exists()
            os.replace(tmp, self._path)
            self._new = {}
            if created:
                self._prune()
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
