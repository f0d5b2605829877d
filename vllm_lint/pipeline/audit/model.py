"""The audit's report as data: findings per launch (breaks, deprecations, default drift), what the
fixes leave, the semantic check's differences, per file and for the run, each with its JSON form
(``docs/audit.md``); and how a value is shown."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

SCHEMA = 2


class AuditUsageError(Exception):
    """A usage problem (exit code 2): a bad version."""


class NoOrigin(Exception):
    """A launch names no release, and neither --from nor --default-from gives one: it is listed
    in the report, not audited."""


# ----------------------------------------------------------------------------- data classes


@dataclass
class Finding:
    category: str  # break | ignored | deprecated | drift
    kind: str  # option | env | kwarg
    name: str  # canonical name in the timeline (--swap-space, VLLM_USE_V1, swap_space)
    what: str  # break: removed | renamed | ambiguous | abbreviation | value | arity | env-removed | env-value
    #            ignored: env-removed (B no longer reads it and starts)
    #            deprecated: deprecated;  drift: default | default-computed | moved
    message: str
    written: Optional[str] = None  # as written in the file (breaks, deprecations)
    line: Optional[int] = None
    column: Optional[int] = None
    changed_in: Optional[str] = None  # first release with the change (removal, deprecation, default)
    changes: list[dict[str, Any]] = field(default_factory=list)  # drift: every step in (A, B]
    last_accepted: Optional[str] = None
    successor: Optional[str] = None
    old: Any = None  # drift: default at A; value breaks: the value
    new: Any = None  # drift: default at B
    statically_known: bool = True
    old_computed: bool = False  # drift: the default at A is computed at run time
    new_computed: bool = False  # drift: the default at B is computed at run time
    empty_to_empty: bool = False  # drift between two empty values (null, "", [], {}): likely cosmetic
    already_at_from: bool = False  # the launch is already rejected at A for this reason
    fix: Optional[str] = None  # what `--fix --target-version B` does: safe | unsafe | None
    fix_message: Optional[str] = None

    @property
    def history(self) -> str:
        return f"vllm-lint flags show {self.name}" if self.kind != "kwarg" else \
            f"vllm-lint flags show --{self.name.replace('_', '-')}"

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category, "kind": self.kind, "name": self.name, "what": self.what,
            "message": self.message, "written": self.written, "line": self.line, "column": self.column,
            "changed_in": self.changed_in, "changes": self.changes, "last_accepted": self.last_accepted,
            "successor": self.successor, "old": self.old, "new": self.new,
            "statically_known": self.statically_known, "old_computed": self.old_computed,
            "new_computed": self.new_computed, "empty_to_empty": self.empty_to_empty,
            "already_at_from": self.already_at_from,
            "fix": self.fix, "fix_message": self.fix_message, "history": self.history,
        }


@dataclass
class Remaining:
    """A finding `--fix --target-version B` leaves in the fixed file, and why it was not fixed."""

    code: str
    message: str
    line: int
    column: int
    reason: str
    severity: str = "error"
    original_line: int = 0  # the line of the original file it comes from (breaks are numbered so)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "line": self.line, "column": self.column,
                "original_line": self.original_line, "severity": self.severity, "reason": self.reason}


@dataclass
class SemanticDiff:
    field: str  # dest, dest.json_key, EngineArgs field or "model"
    old: Any  # value the original set at A (None: not set)
    new: Any  # value the fixed launch sets at B (None: not set)
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "old": self.old, "new": self.new, "message": self.message}


@dataclass
class LaunchAudit:
    path: str
    line: int
    entry: str
    from_version: str
    from_source: str
    to_version: str
    breaks: list[Finding] = field(default_factory=list)  # what B refuses: the launch does not start
    ignored: list[Finding] = field(default_factory=list)  # what B accepts and no longer acts on
    deprecated: list[Finding] = field(default_factory=list)
    drift: list[Finding] = field(default_factory=list)
    opaque: bool = False  # may set more than we see ($EXTRA_ARGS): drift can over-report
    fixed: bool = False  # the fix changed this launch
    semantic_checked: bool = False
    semantic: list[SemanticDiff] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # removed outright, left out of the check
    not_at_from: list[str] = field(default_factory=list)  # A itself rejected them: nothing to preserve
    remaining: list[Remaining] = field(default_factory=list)  # findings left at B after the fix

    @property
    def ready(self) -> bool:
        return not self.breaks

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line, "entry": self.entry, "from": self.from_version, "from_source": self.from_source,
            "to": self.to_version, "ready": self.ready, "opaque": self.opaque, "fixed": self.fixed,
            "breaks": [f.to_json() for f in self.breaks],
            "ignored": [f.to_json() for f in self.ignored],
            "deprecated": [f.to_json() for f in self.deprecated],
            "drift": [f.to_json() for f in self.drift],
            "semantic_check": {"checked": self.semantic_checked,
                               "differences": [d.to_json() for d in self.semantic],
                               "removed_outright": self.dropped, "not_accepted_at_from": self.not_at_from},
            "remaining": [r.to_json() for r in self.remaining],
        }


@dataclass
class FileAudit:
    path: str
    format: Optional[str]
    launches: list[LaunchAudit] = field(default_factory=list)
    diff: str = ""  # unified diff of the fixes (never written)
    fixes_applied: int = 0
    fix_note: Optional[str] = None
    remaining: list[Remaining] = field(default_factory=list)
    error: Optional[str] = None
    no_origin: list[int] = field(default_factory=list)  # lines of launches that name no release

    def count(self, category: str) -> int:
        return sum(len(getattr(la, category)) for la in self.launches)

    def distinct_drift(self) -> int:
        """The drift of the file's launches, each change once per (A, B)."""
        return len({(la.from_version, la.to_version, drift_key(f)) for la in self.launches for f in la.drift})

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "format": self.format, "error": self.error, "no_origin": self.no_origin,
                "diff": self.diff,
                "fixes_applied": self.fixes_applied, "fix_note": self.fix_note,
                "remaining": [r.to_json() for r in self.remaining],
                "launches": [la.to_json() for la in self.launches]}


def drift_key(f: Finding) -> tuple:
    """What makes two launches' drift findings one: the same field, change and words."""
    return (f.kind, f.name, f.what, f.message)


@dataclass
class DriftEntry:
    """One default drift, for the launches it touches (those of the group that do not set it)."""

    finding: Finding
    launches: list[tuple[str, int]]  # (path, line)

    def to_json(self) -> dict[str, Any]:
        return {**self.finding.to_json(), "launches": [{"path": p, "line": line} for p, line in self.launches]}


@dataclass
class DriftGroup:
    """The default drift of every launch audited from ``from_version`` to ``to_version``, each
    change once (a repository's launches mostly leave the same options unset)."""

    from_version: str
    to_version: str
    launches: list[tuple[str, int]]  # every launch of the group, (path, line)
    opaque: bool  # one of them may set more than shown
    entries: list[DriftEntry]

    def to_json(self) -> dict[str, Any]:
        return {"from": self.from_version, "to": self.to_version, "opaque": self.opaque,
                "launches": [{"path": p, "line": line} for p, line in self.launches],
                "drift": [e.to_json() for e in self.entries]}


def drift_groups(launches: list[LaunchAudit]) -> list[DriftGroup]:
    """The launches' drift, one group per (A, B) in order of first appearance, each change once;
    entries by kind (options, then keyword arguments) and name."""
    groups: dict[tuple[str, str], DriftGroup] = {}
    found: dict[tuple[str, str], dict[tuple, DriftEntry]] = {}
    for la in launches:
        pair = (la.from_version, la.to_version)
        group = groups.get(pair)
        if group is None:
            group = groups[pair] = DriftGroup(la.from_version, la.to_version, [], False, [])
            found[pair] = {}
        group.launches.append((la.path, la.line))
        group.opaque = group.opaque or (la.opaque and bool(la.drift))
        for f in la.drift:
            entry = found[pair].get(drift_key(f))
            if entry is None:
                entry = found[pair][drift_key(f)] = DriftEntry(f, [])
            entry.launches.append((la.path, la.line))
    for pair, group in groups.items():
        group.entries = sorted(found[pair].values(), key=lambda e: (e.finding.kind != "option", e.finding.name))
    return [g for g in groups.values() if g.entries]


@dataclass
class AuditReport:
    from_spec: Optional[str]  # --from as resolved, or None (per launch)
    to_version: str
    files: list[FileAudit] = field(default_factory=list)

    @property
    def launches(self) -> list[LaunchAudit]:
        return [la for f in self.files for la in f.launches]

    @property
    def breaks(self) -> int:
        return sum(len(la.breaks) for la in self.launches)

    @property
    def no_origin(self) -> list[tuple[str, int]]:
        return [(f.path, line) for f in self.files for line in f.no_origin]

    @property
    def exit_code(self) -> int:
        return 1 if self.breaks or self.no_origin else 0

    @property
    def drift(self) -> list[DriftGroup]:
        return drift_groups(self.launches)

    def summary(self) -> dict[str, Any]:
        las = self.launches
        return {
            "files": len(self.files),
            "launches": len(las),
            "ready": sum(1 for la in las if la.ready),
            "breaks": self.breaks,
            "new_breaks": sum(1 for la in las for f in la.breaks if not f.already_at_from),
            "ignored": sum(len(la.ignored) for la in las),
            "deprecated": sum(len(la.deprecated) for la in las),
            "drift": sum(len(g.entries) for g in self.drift),  # each change once per (A, B)
            "fixes_applied": sum(f.fixes_applied for f in self.files),
            "remaining": sum(len(f.remaining) for f in self.files),
            "semantic_differences": sum(len(la.semantic) for la in las),
            "no_origin": [{"path": p, "line": line} for p, line in self.no_origin],
            "per_file": [{"path": f.path, "launches": len(f.launches), "breaks": f.count("breaks"),
                          "ignored": f.count("ignored"), "deprecated": f.count("deprecated"),
                          "drift": f.distinct_drift(),
                          "fixes_applied": f.fixes_applied, "remaining": len(f.remaining),
                          "semantic_differences": f.count("semantic"), "error": f.error}
                         for f in self.files],
            "ready_launches": [{"path": la.path, "line": la.line, "from": la.from_version}
                               for la in las if la.ready],
        }

    def to_json(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "from": self.from_spec, "to": self.to_version, "exit_code": self.exit_code,
                "summary": self.summary(), "files": [f.to_json() for f in self.files],
                "drift": [g.to_json() for g in self.drift]}


EMPTY = (None, "", [], {})


def fmt_value(v: Any) -> str:
    if isinstance(v, str):
        return v if v else '""'
    return json.dumps(v)

