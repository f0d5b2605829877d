"""A result cache, so a second run over unchanged files costs almost nothing: one file per
*fingerprint* (a secret of the user's, the database's content, settings, selected rules,
unsafe-fixes, tool version and its code), ``v3/stat-<fingerprint>.json``, mapping each path to one record::

    [size, mtime_ns, "none"]                                      no launch in the file
    [size, mtime_ns, "clean|<pin>", findings]                     (without a content key)
    [size, mtime_ns, "clean|<pin>", findings, key, raw_fixable]   a file that was linted
    [size, mtime_ns, "clean|<pin>", findings, key, raw_fixable, reads]   ... whose analysis read
                                                                  other files
    [size, mtime_ns, "clean|<pin>", findings, key, raw_fixable, reads, survey]   ... and the
                                                                  survey its pin was chosen under

``clean`` is ``newest`` when a launch of the file named no release and was checked against the
database's newest (``FileResult.defaulted``: the run's summary says so), ``newer`` when one named a
release newer than the database (``FileResult.newer``; the summary counts those apart). ``<pin>`` is
what the files around the file name (``Targeting.pin_for``: runners, then requirement and lock files). ``reads`` lists the other files the analysis read, ``[path, content key]`` each (a local model
directory's ``config.json``: ``vllm_lint.inputs``); a record holds only while each of them still
has its content key, in both lookups.

**Surveys: the pin without choosing it again.** Choosing a file's pin reads the files around it and
the repository (runners, pins, the callers' and the repository's walks: ``pipeline.targeting``), the
costliest part of a warm run when done again for every cached file (benchmarks/README.md, sixth
pass). While a run's release choices (``Targeting.choose`` and ``pin_for``) run, every file they read
(``fsutil.read_regular``) and every folder they list or look into for a name (``fsutil.watch``) is
recorded with its stat signature, ``[size, mtime_ns, inode]`` (None: missing), the first one seen;
worker processes send theirs back with their results. That record is the run's *survey*, stored
once in the index under the key ``"\\0surveys"`` (no path holds a NUL) as ``{name: [[path, size,
mtime_ns, inode] or [path], ...]}``, its name a hash of its entries; every record whose pin was chosen
in the run names it. A folder's signature changes when an entry is added, removed or renamed, so a
file made later where a choice looked for one, or a listing that gained a Dockerfile, does not
match; a file's changes with its bytes. A ``.git`` looked for is recorded as there or missing (what
git writes in it is no change), links on the way to a folder by their folder's signature, and
nothing in the cache's own folder (each write changes it, and no choice reads its files). A warm run checks each survey its records name once (a
``stat`` per entry): while every signature matches, the choices would read the same bytes and
choose the same, so the record's pin stands without being chosen again; else the pin is chosen
again as before (and the record written again under the run's survey). A survey that holds is
added to the run's, so a record written in the run never names a survey that misses what it rests
on. A choice that looked across the repository beyond the files around the file (a kustomization
setting the image of a ``$(var)`` placeholder, the image a ``docker build`` makes) adds the read
``inputs.WHOLE_SURVEY`` to the analysis's: such a record holds, in either lookup, only while its
survey does (a kustomization made later anywhere is seen). Surveys no record names are dropped when
the index is written. A missing cache folder is made before the first lookup, so that its creation
does not change the listing of the folder holding it (usually the repository's root) after the
survey recorded it.

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

**The cache is the tool's, not the repository's.** It lives in the repository's working
directory, so a repository can bring one (committed, in an archive, planted by another user of a
shared checkout); nothing in it may make a file with findings report clean, or reach outside:

* the fingerprint hashes a secret of the user's (:func:`secret`: 32 random bytes in the user's
  cache folder, readable by the user only), so an index made on another machine or by another
  user has another name and never matches, and content keys cannot be computed elsewhere;
* the index file starts with a MAC of its body, keyed by the fingerprint: an index edited by
  anything but this user's vllm-lint (a committed copy, hand-edited) is a miss as a whole; the
  surveys are part of that body, so a survey whose signatures were made to match other files
  cannot be planted either (and a survey only ever stands for a pin this user's run chose);
* each record is validated before use (:func:`_valid_record`: known rule codes, severities,
  positions and spans that fit the file's size, printable text); one that does not is a miss;
* the database enters the fingerprint by content (``index.json``'s and the overlay's bytes; and
  the mtime of the release files' folder, which a rebuilt release moves), not by the path, size
  and mtime of one file;
* every file is created through directory descriptors opened with ``O_NOFOLLOW``, with
  ``O_CREAT | O_EXCL`` and a random temporary name: a cache folder (or its ``v3/``) that is a
  symbolic link is not used at all (no read, no write), and a link planted where ``.gitignore``,
  ``CACHEDIR.TAG`` or a temporary file would go is never written through;
* the index is read only as a regular file of at most :data:`MAX_INDEX_BYTES`; a record's
  ``reads`` are keyed only as regular files of bounded size (``inputs.content_key``).

Where the secret cannot be read or created (a read-only home), or the platform has no
``O_NOFOLLOW`` and directory descriptors, the run uses no cache.

Written once per run: ``flush()`` merges this run's records into the index, re-reading the file
first if another run replaced it since this one read it, and writes it atomically (temporary file,
then rename), so concurrent runs (pre-commit runs hooks in parallel) never read a half-written
index; a record lost to a race only costs a re-read. One record per path, so a file does not grow
with a path's history (records of deleted paths stay). A run that changed nothing writes nothing
(it only refreshes the file's mtime once a day, to mark it in use). When a new index file is
created (the settings or the tool version changed), the index files of other fingerprints unused
for ``PRUNE_DAYS`` are deleted.
Results linted in worker processes bring their content keys back in ``FileResult.content_key``.
An unreadable, corrupt or forged index, or record, is a miss, never an error.

Why one file: format v1 wrote one entry file per linted file with a launch (a ``mkdir``, an
``open`` and a ``replace`` each, ~0.2 ms per syscall here), so the run that fills the cache cost
200-500 ms CPU more than a --no-cache run over the benchmark corpus (2,200 files, 228 with
launches; medians of paired runs, two busy cores); one write per run costs 20-40 ms more (~0.75 s
CPU either way). For the same reason the content key of a file without a keyed record is computed
only once it is linted (in the worker process that lints it, whose project-pin lookups it shares).
``v1/`` and ``v2/`` caches are ignored.

The cache lives in ``.vllm-lint-cache/`` in the working directory (like ruff's ``.ruff_cache``),
holding a ``.gitignore`` of ``*`` and a ``CACHEDIR.TAG``; ``--no-cache`` bypasses it and
``VLLM_LINT_CACHE_DIR`` moves it.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import Any, Optional

from .. import __version__
from ..launch import Edit, Span
from ..rules.base import Diagnostic, Fix, registry

CACHE_DIR_ENV = "VLLM_LINT_CACHE_DIR"
PRUNE_DAYS = 30  # an index file of other settings, unused this long, is deleted
MAX_INDEX_BYTES = 256 * 1024 * 1024  # a larger index file is a miss (never read whole)
MAX_TEXT = 4096  # the longest message, option or verdict a record may hold
_DAY = 86400
_FORMAT = "v3"  # v1: one file per content entry; v2: no MAC, no user secret (both ignored now)
_KEY_CHARS = 32
_MAGIC = b"vllm-lint result cache v3 "
_SECRET_FILE = "result-cache.key"
_SECRET_BYTES = 32
_SEVERITIES = ("error", "warning", "info")
_APPLICABILITY = ("safe", "unsafe", "display-only")

_SURVEYS = "\0surveys"  # the index's table of surveys (no path holds a NUL)
_RUN = object()  # in a record of this run: the name of this run's survey, known at flush()

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
# files are made and read only through directory descriptors opened without following links
SAFE_PLATFORM = bool(_NOFOLLOW and _DIRECTORY) and {os.open, os.mkdir, os.rename, os.unlink, os.stat} <= os.supports_dir_fd

try:
    # BLAKE2b straight from its C module: ``import hashlib`` loads OpenSSL's bindings first, 2.2 ms
    # of every cached run's start-up (a third of a one-file lint's own work)
    from _blake2 import blake2b as _hash
except ImportError:  # an interpreter without CPython's module layout
    from hashlib import blake2b as _hash


def default_dir() -> Path:
    return Path(os.environ.get(CACHE_DIR_ENV) or ".vllm-lint-cache")


def user_cache_dir() -> Path:
    """``platformdirs.user_cache_dir("vllm-lint")``, without importing platformdirs on Linux and
    macOS (10 ms of start-up: it imports ``tempfile``)."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "vllm-lint"
    if os.name == "posix":
        xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
        return Path(xdg if xdg else os.path.expanduser("~/.cache")) / "vllm-lint"
    import platformdirs

    return Path(platformdirs.user_cache_dir("vllm-lint"))


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def code_signature(package_dir: str = _PACKAGE_DIR) -> bytes:
    """What identifies the installed code a cached result came from, beside the tool version. A
    version names a release's code, but an install from a source checkout (editable, or a git
    install of an unreleased commit) keeps its version across changes. In a source checkout (the
    package's folder beside a ``pyproject.toml``): the path, size and mtime of each of the
    package's files, so an edited rule is never answered from the cache; in an install: the
    mtime of the package's ``__init__.py``, which every reinstall writes anew."""
    parent = os.path.dirname(package_dir)
    if not os.path.isfile(os.path.join(parent, "pyproject.toml")):
        try:
            return str(os.stat(os.path.join(package_dir, "__init__.py")).st_mtime_ns).encode()
        except OSError:
            return b"no-init"
    parts: list[str] = []
    todo = [package_dir]
    while todo:
        d = todo.pop()
        try:
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            continue
        for e in entries:
            if e.name == "__pycache__" or e.name.startswith("."):
                continue
            try:
                if e.is_dir(follow_symlinks=False):
                    todo.append(e.path)
                elif e.is_file(follow_symlinks=False):
                    st = e.stat(follow_symlinks=False)
                    parts.append(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}")
            except OSError:
                continue
    return "\n".join(parts).encode()


def secret() -> Optional[bytes]:
    """The user's result-cache secret: 32 random bytes in the user's cache folder, made on first
    use (mode 0600, created exclusively, never through a link). A file that is not the user's own
    regular file of 32 bytes readable by the user only is replaced. None when it can be neither
    read nor made (the run then uses no cache)."""
    if not SAFE_PLATFORM:
        return None
    folder = user_cache_dir()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        dfd = os.open(folder, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fd = os.open(_SECRET_FILE, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=dfd)
            try:
                st = os.fstat(fd)
                data = os.read(fd, _SECRET_BYTES + 1)
            finally:
                os.close(fd)
            if stat.S_ISREG(st.st_mode) and len(data) == _SECRET_BYTES and st.st_uid == os.geteuid() \
                    and not st.st_mode & 0o077:
                return data
        except OSError:
            pass
        data = os.urandom(_SECRET_BYTES)
        tmp = f".{_SECRET_FILE}.{os.urandom(6).hex()}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o600, dir_fd=dfd)
        try:
            try:
                os.write(fd, data)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.rename(tmp, _SECRET_FILE, src_dir_fd=dfd, dst_dir_fd=dfd)
        except OSError:
            _unlink(tmp, dfd)
            return None
        return data
    except OSError:
        return None
    finally:
        os.close(dfd)


def _unlink(name: str, dfd: int) -> None:
    try:
        os.unlink(name, dir_fd=dfd)
    except OSError:
        pass


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


# ---------------------------------------------------------------------------- validation


def _int(v: Any, low: int, high: int) -> bool:
    return type(v) is int and low <= v <= high


def _text(v: Any, empty: bool = True) -> bool:
    """A string a report may print: no control character (an escape sequence, a line break that
    would start a CI workflow command), not too long."""
    return isinstance(v, str) and (empty or bool(v)) and len(v) <= MAX_TEXT and v.isprintable()


def _valid_span(v: Any, size: int) -> bool:
    return isinstance(v, list) and len(v) == 2 and _int(v[0], 0, size) and _int(v[1], v[0], size)


def valid_finding(rec: Any, size: int, codes) -> bool:
    """Whether a cached finding (``dump_placed``'s shape) can stand for a real one of a file of
    ``size`` bytes: a known rule code, a valid severity, a span and positions inside the file,
    printable text, a fix of known applicability whose edits lie inside the file. (Written out
    flat: a warm run checks every record it uses, hundreds per run.)"""
    if type(rec) is not dict:
        return False
    g = rec.get
    code, message, pos = g("code"), g("message"), g("pos")
    if not (type(code) is str and code in codes and g("severity") in _SEVERITIES and type(message) is str
            and message and len(message) <= MAX_TEXT and message.isprintable()
            and type(pos) is list and len(pos) == 4):
        return False
    last = size + 1
    for x in pos:
        if type(x) is not int or not 0 <= x <= last:
            return False
    for key in ("option", "target_version"):
        v = g(key)
        if v is not None and not (type(v) is str and len(v) <= MAX_TEXT and v.isprintable()):
            return False
    line, span = g("line"), g("span")
    if line is not None and not (type(line) is int and 0 <= line <= last):
        return False
    if span is not None and not _valid_span(span, size):
        return False
    fix = g("fix")
    if fix is None:
        return True
    if not (type(fix) is dict and fix.get("applicability") in _APPLICABILITY and _text(fix.get("message"))
            and type(fix.get("edits")) is list and fix["edits"]):
        return False
    return all(type(e) is list and len(e) == 3 and _int(e[0], 0, size) and _int(e[1], e[0], size)
               and type(e[2]) is str for e in fix["edits"])


_VERDICTS: dict[str, bool] = {}  # verdict -> printable (a run's records share a few hundred)


def _valid_record(rec: Any, codes) -> bool:
    """Whether an index record has one of the shapes in the module's docstring, with valid
    findings and reads (else it is a miss)."""
    if not (type(rec) is list and len(rec) in (3, 4, 6, 7, 8) and _int(rec[0], 0, 1 << 62)
            and type(rec[1]) is int and type(rec[2]) is str):
        return False
    ok = _VERDICTS.get(rec[2])
    if ok is None:
        ok = _VERDICTS[rec[2]] = _text(rec[2], empty=False)
    if not ok:
        return False
    if len(rec) > 3 and not (isinstance(rec[3], list) and all(valid_finding(d, rec[0], codes) for d in rec[3])):
        return False
    if len(rec) > 4 and not (isinstance(rec[4], str) and len(rec[4]) == _KEY_CHARS and rec[5] in (0, 1)
                             and type(rec[5]) is int):
        return False
    if len(rec) > 6 and not (isinstance(rec[6], list) and all(
            isinstance(r, list) and len(r) == 2 and isinstance(r[0], str) and r[0] and "\0" not in r[0]
            and isinstance(r[1], str) for r in rec[6])):
        return False
    if len(rec) > 7 and not (isinstance(rec[7], str) and len(rec[7]) == _KEY_CHARS):
        return False
    return True


def _survey_id(entries: list) -> str:
    """The name of a survey: a hash of its entries (the same inputs, the same name)."""
    return _hash(json.dumps(entries, separators=(",", ":")).encode(), digest_size=16).hexdigest()


def _survey_entries(watched: dict) -> list:
    """A run's survey as stored: ``[path, size, mtime_ns, inode]`` per input, ``[path]`` for one
    that was missing, ``[path, true]`` for one that only had to be there, sorted."""
    return sorted([p, *sig] if type(sig) is list else [p, True] if sig is True else [p]
                  for p, sig in watched.items())


def _wanted(entry: list) -> Any:
    """What a survey's entry says its path was: a signature, True (there) or None (missing)."""
    rest = entry[1:]
    return True if rest == [True] and rest[0] is True else rest or None


def _same(a: bytes, b: bytes) -> bool:
    """Equal, in time independent of where they differ (``hmac.compare_digest`` without ``hmac``,
    whose import loads OpenSSL's bindings)."""
    if len(a) != len(b):
        return False
    acc = 0
    for x, y in zip(a, b):
        acc |= x ^ y
    return acc == 0


class Cache:
    def __init__(self, directory: Path, fingerprint: str):
        self.root = Path(directory)
        self.dir = self.root / _FORMAT
        self.fingerprint = fingerprint
        # the index's MAC key: derived from the fingerprint, of which the file name shows a part
        self._mac_key = _hash(b"vllm-lint index mac\0" + fingerprint.encode()).digest()[:32]
        self._index: Optional[dict[str, list]] = None  # the index as read from disk
        self._seen: Optional[tuple[int, int, int]] = None  # (inode, size, mtime_ns) of the file read
        self._new: dict[str, list] = {}  # this run's records, written by flush()
        self._answered: dict[str, list] = {}  # records that answered a stat lookup unchanged
        self._keys: dict[str, tuple[str, int]] = {}  # path -> (content key, its raw findings had a fix)
        self._read_keys: dict[str, str] = {}  # content keys of the other files records name, once a run
        self._valid: dict[str, bool] = {}  # path -> its record validated (once a run)
        self._codes: Optional[set[str]] = None
        # the run's survey: what the release choices of this run read, path -> stat signature
        # (``Targeting.watched``, set by the linter); the surveys of the index checked this run
        self.survey: Optional[dict[str, Optional[list[int]]]] = None
        self._holds: dict[str, bool] = {}
        self._sigs: dict[str, Any] = {}  # stat signatures taken this run, for the surveys' checks
        self._restamp: set[str] = set()  # records answered by computing their pin again

    @classmethod
    def for_run(cls, directory: Path, db_path: Path, settings: Any, rule_codes: list[str],
                unsafe: bool) -> Optional["Cache"]:
        """The run's cache, or None when the user's secret is not at hand (:func:`secret`)."""
        fp = cls.fingerprint_of(db_path, settings, rule_codes, unsafe)
        return None if fp is None else cls(directory, fp)

    @staticmethod
    def fingerprint_of(db_path: Path, settings: Any, rule_codes: list[str], unsafe: bool) -> Optional[str]:
        """The hash of what a cached result depends on besides the file: the user's secret, the tool
        version and its code (:func:`code_signature`), the database's content, the settings, the rules and unsafe-fixes. None without a
        secret."""
        key = secret()
        if key is None:
            return None
        h = _hash(key=key)
        h.update(__version__.encode())
        h.update(b"\0" + code_signature())
        for name in ("index.json", os.path.join("overlays", "renames.json")):
            try:
                with open(db_path / name, "rb") as f:
                    h.update(b"\0" + _hash(f.read()).digest())
            except OSError:
                h.update(b"\0missing")
        # release files are read only when a target needs them (hashing all of them would cost more
        # than a cached run): their folder's mtime, which a rebuilt release (written by a rename)
        # moves even when the index stays the same. An extra miss at worst, never a stale hit.
        try:
            h.update(str(os.stat(db_path / "releases").st_mtime_ns).encode())
        except OSError:
            h.update(b"\0no-releases")
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
    def _name(self) -> str:
        return f"stat-{self.fingerprint[:24]}.json"

    @property
    def _path(self) -> Path:
        return self.dir / self._name

    def _mac(self, body: bytes) -> bytes:
        return _hash(body, key=self._mac_key, digest_size=32).hexdigest().encode()

    def _encode(self, index: dict[str, list]) -> bytes:
        # json.dumps, not json.dump: only the one-shot encoder is the C one
        body = json.dumps(index, separators=(",", ":")).encode()
        return _MAGIC + self._mac(body) + b"\n" + body

    def _decode(self, data: bytes) -> Optional[dict[str, list]]:
        """The index in ``data``, when its MAC holds (else None: made elsewhere, or edited)."""
        head, nl, body = data.partition(b"\n")
        if not nl or not head.startswith(_MAGIC) or not _same(head[len(_MAGIC):], self._mac(body)):
            return None
        loaded = json.loads(body)
        return loaded if isinstance(loaded, dict) else None

    # ------------------------------------------------------------------ the files
    def _open_dirs(self, create: bool) -> Optional[int]:
        """A descriptor of ``v3/``, reached without following a link at the cache folder or at
        ``v3``; with ``create``, both are made (with the cache folder's ``.gitignore`` and
        ``CACHEDIR.TAG``). None when the cache folder is missing (and not created) or unusable."""
        if not SAFE_PLATFORM:
            return None
        flags = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC
        root = os.fspath(self.root)
        try:
            if create:
                if self.root.parent != self.root:
                    os.makedirs(self.root.parent, exist_ok=True)
                try:
                    os.mkdir(root, 0o755)
                except FileExistsError:
                    pass
            rfd = os.open(root, flags)  # a symbolic link: ELOOP (or ENOTDIR): not used
        except OSError:
            return None
        try:
            if create:
                _mark(rfd)
                try:
                    os.mkdir(_FORMAT, 0o755, dir_fd=rfd)
                except FileExistsError:
                    pass
            return os.open(_FORMAT, flags, dir_fd=rfd)
        except OSError:
            return None
        finally:
            os.close(rfd)

    def _read_index(self, dfd: int) -> tuple[Optional[dict[str, list]], Optional[os.stat_result]]:
        """(the index, its stat) read from ``v3/`` (a regular file, bounded, not through a link);
        (None, None) when it is missing, unreadable or fails its MAC."""
        try:
            fd = os.open(self._name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=dfd)
        except OSError:
            return None, None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_INDEX_BYTES:
                return None, None
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read(MAX_INDEX_BYTES + 1)
            if len(data) > MAX_INDEX_BYTES:
                return None, None
            index = self._decode(data)
            if index is not None and time.time() - st.st_mtime > _DAY:
                # a run that changes nothing writes nothing: mark the index as in use, so that
                # pruning (flush) keeps it
                try:
                    os.utime(fd)
                    st = os.fstat(fd)
                except OSError:
                    pass
            return index, st
        except (OSError, ValueError, RecursionError):
            return None, None
        finally:
            os.close(fd)

    def _load(self) -> dict[str, list]:
        if self._index is None:
            self._index = {}
            # (a missing cache folder is made now, before the release choices list the folders
            # around: made by this run's flush, it would change the listing of the folder holding
            # it, usually the repository's root, and the next run's survey would not hold)
            dfd = self._open_dirs(create=False) or self._open_dirs(create=True)
            if dfd is not None:
                try:
                    index, st = self._read_index(dfd)
                finally:
                    os.close(dfd)
                if index is not None and st is not None:
                    self._index = index
                    self._seen = (st.st_ino, st.st_size, st.st_mtime_ns)
        return self._index

    def _record(self, path: str) -> Optional[list]:
        """``path``'s record when it validates (``_valid_record``), else None (a miss)."""
        rec = self._load().get(path)
        if rec is None:
            return None
        ok = self._valid.get(path)
        if ok is None:
            if self._codes is None:
                self._codes = set(registry())
            ok = self._valid[path] = _valid_record(rec, self._codes)
        return rec if ok else None

    # ------------------------------------------------------------------ lookups

    def stat_result(self, path: str, stat_key: tuple[int, int]
                    ) -> Optional[tuple[str, list[Diagnostic], tuple[tuple[str, str], ...], Optional[str]]]:
        """(why the last result holds, its positioned findings, the other files it read, the survey
        its pin was chosen under or None) when ``path``'s size and mtime are unchanged since and so
        are the files it read, else None. The reason is "none" (no launch) or "clean|<pin>" (see
        above); whether the pin still holds is the caller's: :meth:`survey_holds`, else choose it
        again and :meth:`restamp`."""
        rec = self._record(path)
        if rec is None or rec[0] != stat_key[0] or rec[1] != stat_key[1]:
            return None
        try:
            diags = [load_placed(d, path) for d in (rec[3] if len(rec) > 3 else [])]
            reads = self._reads(rec)
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        if reads is None:
            return None
        self._answered[path] = rec
        return rec[2], diags, reads, (rec[7] if len(rec) > 7 else None)

    def survey_holds(self, survey: Optional[str]) -> bool:
        """Whether every file and folder the survey ``survey`` of the index recorded still has its
        stat signature (a missing one is still missing): then the release choices made under it
        would read the same and choose the same. Checked once a run; a survey that holds is added
        to this run's (a record this run writes may rest on it)."""
        if survey is None:
            return False
        got = self._holds.get(survey)
        if got is None:
            got = self._holds[survey] = self._check_survey(survey)
        return got

    def _check_survey(self, survey: str) -> bool:
        from ..fsutil import signature

        table = self._load().get(_SURVEYS)
        entries = table.get(survey) if type(table) is dict else None
        if type(entries) is not list:
            return False
        now = self._sigs
        try:
            for e in entries:
                path = e[0]
                if type(path) is not str or "\0" in path:
                    return False
                sig = now.get(path, False)
                if sig is False:
                    sig = now[path] = signature(path)
                want = _wanted(e)
                if (sig is None) if want is True else want != sig:
                    return False
        except (TypeError, IndexError, KeyError):
            return False
        if self.survey is not None:
            for e in entries:
                self.survey.setdefault(e[0], _wanted(e))
        return True

    def restamp(self, path: str) -> None:
        """``path``'s record, answered by the stat lookup, had its pin chosen again this run (its
        survey no longer holds): it is written again under this run's survey."""
        self._restamp.add(path)

    def has_records(self) -> bool:
        """Whether the index holds any record (else no stat lookup can hit: a cold run)."""
        return bool(self._load())

    def has_content(self, path: str) -> bool:
        """Whether ``path``'s record carries a content key (else ``content_result`` cannot hit)."""
        rec = self._record(path)
        return rec is not None and len(rec) in (6, 7, 8)

    def content_result(self, path: str, key: str, fix: bool
                       ) -> Optional[tuple[str, list[Diagnostic], int, tuple[tuple[str, str], ...]]]:
        """(why the result holds, its positioned findings, whether the findings before suppression
        had a fix, the other files it read) when ``path``'s last record was made from content with
        this ``key`` and the files it read are unchanged, else None. In a --fix run a result whose
        findings had a fix is a miss: the fix is to be applied."""
        rec = self._record(path)
        if rec is None or len(rec) not in (6, 7, 8) or rec[4] != key or (fix and rec[5]):
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
        from ..inputs import WHOLE_SURVEY, content_key

        reads = tuple((str(p), str(k)) for p, k in rec[6])
        for path, key in reads:
            if path == WHOLE_SURVEY[0]:  # (its findings rest on the whole survey of its run)
                if not self.survey_holds(rec[7] if len(rec) > 7 else None):
                    return None
                continue
            now = self._read_keys.get(path)
            if now is None:
                now = self._read_keys[path] = content_key(path)  # (a regular file, bounded)
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
            if path not in self._restamp or len(old) < 6:
                return  # answered by its record, which stays as it is
            # (its pin was chosen again this run: the same record, under this run's survey)
            self._new[path] = [*old[:6], old[6] if len(old) > 6 else [], _RUN]
            return
        rec: list = [stat_key[0], stat_key[1], verdict]
        launches = not verdict.startswith("none")
        if launches or diags:
            rec.append([dump_placed(d) for d in diags])
            key = self._keys.get(path)
            if key is not None and launches:
                rec.append(key[0])
                rec.append(1 if key[1] else 0)
                # a verdict with a pin: chosen this run, under this run's survey
                rec.append([list(r) for r in reads])
                rec.append(_RUN)
        self._new[path] = rec

    @staticmethod
    def _surveys_of(index: Optional[dict]) -> dict:
        table = index.get(_SURVEYS) if index else None
        return dict(table) if type(table) is dict else {}

    def _stamp(self, surveys: dict) -> None:
        """This run's survey into ``surveys``, and its name into the records of this run that
        rest on it (without a survey at hand: written without one, their pins chosen again)."""
        name = None
        if self.survey is not None:
            # (not this cache's own folder, which each flush changes: a walk that lists it reads none
            # of its files, so no release choice depends on them)
            own = os.path.abspath(self.dir)
            inside = own + os.sep
            entries = _survey_entries({p: sig for p, sig in self.survey.items()
                                       if p != own and not p.startswith(inside)})
            name = _survey_id(entries)
            surveys[name] = entries
        for path, rec in self._new.items():
            if len(rec) == 8 and rec[7] is _RUN:
                if name is None:
                    del rec[6 if not rec[6] else 7:]
                else:
                    rec[7] = name

    def _prune(self, dfd: int) -> None:
        """Delete the index files of other fingerprints (older settings or tool versions) unused for
        ``PRUNE_DAYS``; run when a new index file is created, so only when settings change."""
        now = time.time()
        try:
            with os.scandir(dfd) as entries:
                old = [e.name for e in entries if e.name.startswith("stat-") and e.name.endswith(".json")
                       and e.name != self._name and now - e.stat(follow_symlinks=False).st_mtime > PRUNE_DAYS * _DAY]
            for name in old:
                os.unlink(name, dir_fd=dfd)  # (a link is removed, never followed)
        except OSError:
            pass

    def flush(self) -> None:
        """Merge this run's records into the index file: the one write of the run, atomic
        (temporary file, then rename). What a concurrent run wrote since this one read the file is
        merged in; a record lost to a race only costs a re-read."""
        if not self._new:
            return
        dfd = self._open_dirs(create=True)
        if dfd is None:
            return
        # a random name, created exclusively: a file or link planted at a guessable name is never
        # written through (not tempfile: its import costs ~3 ms of start-up)
        tmp = f".tmp-stat-{os.getpid()}-{os.urandom(8).hex()}"
        try:
            merged = self._load()
            surveys = self._surveys_of(merged)
            try:
                st = os.stat(self._name, dir_fd=dfd, follow_symlinks=False)
                if (st.st_ino, st.st_size, st.st_mtime_ns) != self._seen:
                    on_disk, _ = self._read_index(dfd)
                    if on_disk is not None:
                        merged.update(on_disk)
                        surveys.update(self._surveys_of(on_disk))
            except OSError:
                pass
            self._stamp(surveys)
            merged.update(self._new)
            merged[_SURVEYS] = surveys
            _prune_surveys(merged)
            data = self._encode(merged)
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644, dir_fd=dfd)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            try:
                os.stat(self._name, dir_fd=dfd, follow_symlinks=False)
                created = False
            except FileNotFoundError:
                created = True
            # (a link at the index's name is replaced, not followed)
            os.rename(tmp, self._name, src_dir_fd=dfd, dst_dir_fd=dfd)
            self._new = {}
            self._valid = {}
            if created:
                self._prune(dfd)
        except (OSError, ValueError, RecursionError):
            _unlink(tmp, dfd)
        finally:
            os.close(dfd)


def _prune_surveys(index: dict) -> None:
    """Keep in ``index``'s table only the surveys a record rests on."""
    used = {rec[7] for path, rec in index.items() if path != _SURVEYS and type(rec) is list and len(rec) == 8}
    table = index.get(_SURVEYS)
    if type(table) is dict:
        for name in [n for n in table if n not in used]:
            del table[name]
        if not table:
            del index[_SURVEYS]


def _mark(rfd: int) -> None:
    """The cache folder's ``.gitignore`` (of everything) and ``CACHEDIR.TAG``, each created only
    where nothing is (a link, dangling or not, is left as it is and never followed)."""
    for name, text in ((".gitignore", "# created by vllm-lint\n*\n"),
                       ("CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                                        "# vllm-lint result cache; see https://bford.info/cachedir/\n")):
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644, dir_fd=rfd)
        except OSError:
            continue  # there already, or not writable
        try:
            with os.fdopen(fd, "w") as f:
                f.write(text)
        except OSError:
            pass
