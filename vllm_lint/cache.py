"""A content-keyed result cache, so a second run over unchanged files costs almost nothing.

Key: the file's bytes, its path (findings name it, and project pins near it choose the target
release), the pin found for its directory, the database's identity, the settings, the selected
rules, the fix mode and the tool version. Value: the findings, serialised. Entries are written
atomically (temporary file, then rename), so concurrent runs (pre-commit runs hooks in parallel)
never read a half-written entry; an unreadable entry is a miss.

A second, cheaper layer: the *stat index* remembers, per file, its size and modification time
(nanoseconds) at its last run, why its result holds (no launch at all, or launches checked against
a given project pin) and its final findings, positioned. An unchanged file is then answered
without being read, as ruff does. A file whose size or mtime changed is read and keyed by content
again.

The cache lives in ``.vllm-lint-cache/`` in the working directory (like ruff's ``.ruff_cache``),
holding a ``.gitignore`` of ``*`` and a ``CACHEDIR.TAG``; ``--no-cache`` bypasses it and
``VLLM_LINT_CACHE_DIR`` moves it.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Optional

from . import __version__
from .launch import Edit, Span
from .rules.base import Diagnostic, Fix

CACHE_DIR_ENV = "VLLM_LINT_CACHE_DIR"
_FORMAT = "v1"


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
        self._stat_index: Optional[dict[str, list]] = None
        self._stat_new: dict[str, list] = {}
        self.hits = 0
        self.misses = 0
        self._ready = False

    @staticmethod
    def fingerprint_of(db_path: Path, settings: Any, rule_codes: list[str], unsafe: bool) -> str:
        h = hashlib.sha256()
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
        h = hashlib.sha256()
        h.update(self.fingerprint.encode())
        h.update(path.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
        h.update(context.encode())
        h.update(b"\0")
        h.update(data)
        return h.hexdigest()

    def get(self, key: str, path: str) -> Optional[list[Diagnostic]]:
        p = self.dir / key[:2] / f"{key}.json"
        try:
            with open(p, "rb") as f:
                recs = json.loads(f.read())
            out = [load(r, path) for r in recs]
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            self.misses += 1
            return None
        self.hits += 1
        return out

    def _prepare(self) -> None:
        if self._ready:
            return
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
        self._ready = True

    def put(self, key: str, diags: list[Diagnostic]) -> None:
        try:
            self._prepare()
            d = self.dir / key[:2]
            d.mkdir(exist_ok=True)
            # a name no other process uses (not tempfile: its import costs ~3 ms of start-up)
            tmp = d / f".tmp-{os.getpid()}-{key[:16]}"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump([dump(x) for x in diags], f, separators=(",", ":"))
            os.replace(tmp, d / f"{key}.json")
        except OSError:
            pass  # a cache that cannot be written is just a slower run

    # ------------------------------------------------------------------ stat index

    @property
    def _stat_path(self) -> Path:
        return self.dir / f"stat-{self.fingerprint[:24]}.json"

    def stat_result(self, path: str, stat_key: tuple[int, int]) -> Optional[tuple[str, list[Diagnostic]]]:
        """(why the last result holds, its positioned findings) when ``path``'s size and mtime are
        unchanged since, else None. The reason is "none" (no launch) or "clean|<pin>"."""
        if self._stat_index is None:
            try:
                with open(self._stat_path, "rb") as f:
                    loaded = json.loads(f.read())
                self._stat_index = loaded if isinstance(loaded, dict) else {}
            except (OSError, ValueError):
                self._stat_index = {}
        rec = self._stat_index.get(path)
        if not (isinstance(rec, list) and len(rec) in (3, 4) and rec[0] == stat_key[0] and rec[1] == stat_key[1]):
            return None
        try:
            diags = [load_placed(d, path) for d in (rec[3] if len(rec) == 4 else [])]
        except (KeyError, TypeError, ValueError, IndexError):
            return None
        return rec[2], diags

    def note_result(self, path: str, stat_key: tuple[int, int], verdict: str, diags: list[Diagnostic]) -> None:
        rec: list = [stat_key[0], stat_key[1], verdict]
        if diags:
            rec.append([dump_placed(d) for d in diags])
        self._stat_new[path] = rec

    def flush(self) -> None:
        """Merge this run's clean files into the stat index (atomically; a concurrent run's entries
        may be lost, which only costs a re-read)."""
        if not self._stat_new:
            return
        try:
            self._prepare()
            merged = dict(self._stat_index or {})
            try:
                with open(self._stat_path, "rb") as f:
                    on_disk = json.loads(f.read())
                if isinstance(on_disk, dict):
                    merged.update(on_disk)
            except (OSError, ValueError):
                pass
            merged.update(self._stat_new)
            tmp = self.dir / f".tmp-stat-{os.getpid()}"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(merged, f, separators=(",", ":"))
            os.replace(tmp, self._stat_path)
        except OSError:
            pass
