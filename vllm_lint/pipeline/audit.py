"""The version-upgrade audit (``vllm-lint audit``): what moving a repository's vLLM launches from
release A to release B breaks, deprecates and silently changes, what ``--fix --target-version B``
would rewrite, what it cannot, and whether the rewritten launches still mean the same thing.

Pure functions over the flag database and the engine's front-ends; nothing here writes a file.
``audit_paths`` returns an ``AuditReport`` (data classes); ``render_text`` / ``render_markdown``
/ ``AuditReport.to_json`` format it (``docs/audit.md`` documents the JSON schema).

Vocabulary, per launch:

* **break**: an option or variable the launch sets that release B rejects or ignores (removed,
  renamed, an abbreviation that became ambiguous, a value that no longer parses, a switch that
  now takes a value or the reverse, an environment variable no longer read).
* **deprecated**: an option or variable the launch sets that some release in ``[A, B]`` marks
  deprecated and B still accepts.
* **drift**: an option the launch does not set whose default differs between A and B (constant
  defaults compared exactly; a default computed at run time on one side is "changed, not
  statically known"); options that exist only on one side are not drift, except an option
  renamed (or moved into a JSON config) whose successor carries a different default.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional

from ..argv import ArgvParser, ParsedArg
from .discovery import discover
from ..frontends.base import get as format_unit
from .engine import Linter
from .targeting import NEWEST_SOURCE, accepted_range
from ..fsutil import visible
from ..launch import EnvAssign, Extraction, Launch, LineIndex
from ..rules.base import Diagnostic, LintContext, registry, select_rules
from ..settings import Settings
from ..surface.db import Database, Surface

SCHEMA = 1


class AuditUsageError(Exception):
    """A usage problem (exit code 2): a bad version."""


class NoOrigin(Exception):
    """A launch names no release, and neither --from nor --default-from gives one: it is listed
    in the report, not audited."""


# ----------------------------------------------------------------------------- data classes


@dataclass
class Finding:
    category: str  # break | deprecated | drift
    kind: str  # option | env | kwarg
    name: str  # canonical name in the timeline (--swap-space, VLLM_USE_V1, swap_space)
    what: str  # break: removed | renamed | ambiguous | abbreviation | value | arity | env-removed | env-value
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
    breaks: list[Finding] = field(default_factory=list)
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

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "format": self.format, "error": self.error, "no_origin": self.no_origin,
                "diff": self.diff,
                "fixes_applied": self.fixes_applied, "fix_note": self.fix_note,
                "remaining": [r.to_json() for r in self.remaining],
                "launches": [la.to_json() for la in self.launches]}


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

    def summary(self) -> dict[str, Any]:
        las = self.launches
        return {
            "files": len(self.files),
            "launches": len(las),
            "ready": sum(1 for la in las if la.ready),
            "breaks": self.breaks,
            "new_breaks": sum(1 for la in las for f in la.breaks if not f.already_at_from),
            "deprecated": sum(len(la.deprecated) for la in las),
            "drift": sum(len(la.drift) for la in las),
            "fixes_applied": sum(f.fixes_applied for f in self.files),
            "remaining": sum(len(f.remaining) for f in self.files),
            "semantic_differences": sum(len(la.semantic) for la in las),
            "no_origin": [{"path": p, "line": line} for p, line in self.no_origin],
            "per_file": [{"path": f.path, "launches": len(f.launches), "breaks": f.count("breaks"),
                          "deprecated": f.count("deprecated"), "drift": f.count("drift"),
                          "fixes_applied": f.fixes_applied, "remaining": len(f.remaining),
                          "semantic_differences": f.count("semantic"), "error": f.error}
                         for f in self.files],
            "ready_launches": [{"path": la.path, "line": la.line, "from": la.from_version}
                               for la in las if la.ready],
        }

    def to_json(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "from": self.from_spec, "to": self.to_version, "exit_code": self.exit_code,
                "summary": self.summary(), "files": [f.to_json() for f in self.files]}


# ----------------------------------------------------------------------------- helpers


def _arg_key(a: ParsedArg) -> Any:
    """Identity of an occurrence across two parses of the same launch (at A and at B)."""
    if a.tokens and a.tokens[0].span is not None:
        return ("tok", a.tokens[0].span.start)
    if a.keyed is not None:
        s = a.keyed.key_span or a.keyed.value_span
        return ("key", s.start if s else id(a.keyed))
    return ("obj", id(a))


def _versions_between(db: Database, lo: str, hi: str) -> list[str]:
    """Releases in ``(lo, hi]`` in order (empty when hi <= lo)."""
    a, b = db.position(lo), db.position(hi)
    return db.versions[a + 1:b + 1]


def _in_range(db: Database, v: str, lo: str, hi: str) -> bool:
    return db.position(lo) < db.position(v) <= db.position(hi)


def _successor(db: Database, name: str, last: Optional[str]) -> tuple[Optional[str], Optional[str]]:
    """(successor, evidence): curated overlay first, then the deprecation record at ``last``."""
    ov = db.option_overlay(name)
    if ov and ov.get("successor"):
        return ov["successor"], ov.get("evidence")
    if last:
        opt = db.surface(last).lookup(name)
        if opt and opt.deprecated and opt.deprecated.get("successor"):
            return opt.deprecated["successor"], f"named by vLLM {last}'s deprecation"
    return None, None


_EMPTY = (None, "", [], {})


def _fmt(v: Any) -> str:
    if isinstance(v, str):
        return v if v else '""'
    return json.dumps(v)


def _reason(d: Diagnostic, unsafe: bool) -> str:
    if d.fix_blocked:
        return f"a fix exists but was not applied: {d.fix_blocked}"
    if d.fix is None:
        rule = registry().get(d.code)
        return f"no automatic fix ({rule.summary})" if rule else "no automatic fix"
    if d.fix.applicability == "display-only":
        return "suggestion only, not applied automatically"
    if d.fix.applicability == "unsafe" and not unsafe:
        return "the fix may change behaviour; apply it with --unsafe-fixes after review"
    return "a fix exists but overlapped another edit"


# ----------------------------------------------------------------------------- the auditor


class Auditor:
    """Audits files from A (per launch, or ``from_version``) to ``to_version``."""

    def __init__(self, db: Database, to_version: str, *, from_version: Optional[str] = None,
                 settings: Optional[Settings] = None, unsafe_fixes: bool = False, rules=None,
                 default_from: Optional[str] = None):
        self.db = db
        self.to = db.resolve_version(to_version)
        self.from_version = db.resolve_version(from_version) if from_version else None
        self.default_from = db.resolve_version(default_from) if default_from else None
        base = settings or Settings()
        rules = rules if rules is not None else select_rules(base.select, base.ignore, base.extend_select)
        self.unsafe = unsafe_fixes
        # release A per launch: what the launch names (image tag, FROM, pin, configuration)
        self.from_linter = Linter(db, base.merged(), rules)
        if self.from_version is None:
            self.from_linter.targeting.explicit = None
        # release B: what `vllm-lint --fix --target-version B` does
        to_settings = base.merged(target_version=self.to)
        self.to_linter = Linter(db, to_settings, rules, unsafe_fixes=unsafe_fixes)
        self._dep_cache: dict[tuple[str, str, str], Optional[tuple[str, dict]]] = {}

    # -- release A of one launch
    def from_for(self, path: Path, hints, line: int, data: Optional[bytes] = None, at: Optional[int] = None,
                 args: Optional[list] = None, env: Optional[list[str]] = None) -> tuple[str, str]:
        """Release A of a launch at ``line``: ``--from``; else what the launch and the files around
        it name (``Targeting.choose``; ``data`` and ``at`` for a comment stating it); else
        ``--default-from``; else the newest release that accepts the launch as written (its
        ``args`` and ``env`` names: ``targeting.accepted_range``), said so; else ``NoOrigin``."""
        if self.from_version:
            return self.from_version, "--from"
        choice = self.from_linter.targeting.choose(path, hints, data, at)
        if choice.kind == "default":
            if self.default_from:
                return self.default_from, "--default-from"
            written = accepted_range(self.db, args or [], env or [])
            if written is not None:
                return written[1], (f"no release named: the newest release that accepts this launch as written "
                                    f"({written[0]} - {written[1]})")
            raise NoOrigin(line)
        return choice.release, choice.why

    # -- one file
    def audit_file(self, path: Path, data: bytes, mode: str = "explicit") -> Optional[FileAudit]:
        """The audit of one file's bytes (named as ``mode`` says: ``Linter.analyse``); None when
        it holds no launch and no vLLM environment."""
        shown = str(path)
        # B: the lint run with --fix (the engine's one check of the file), in memory
        checked = self.to_linter.check(path, data, mode, fix=True)
        analysis = checked.analysis
        if analysis.skipped is not None:
            return None
        fmt = analysis.format
        fa = FileAudit(shown, fmt)
        words = None if format_unit(fmt).documentation else data  # (a comment stating the release)
        extraction = analysis.extraction
        if extraction is None:  # it did not parse
            fa.error = analysis.diagnostics[0].message
            return fa
        if not extraction.launches and not extraction.env:
            return None
        index = LineIndex(data)
        by_span: dict[tuple[int, int], list[Diagnostic]] = {}
        for d in analysis.diagnostics:  # the findings before fixing, whose fixes the report names
            if d.span is not None:
                by_span.setdefault((d.span.start, d.span.end), []).append(d)
        outcome = checked.outcome
        fixed, left = checked.data, checked.diagnostics
        fa.fixes_applied, fa.fix_note = (outcome.count if fixed != data else 0), outcome.note
        if fixed != data:
            a = data.decode("utf-8", errors="replace").splitlines(keepends=True)
            b = fixed.decode("utf-8", errors="replace").splitlines(keepends=True)
            rel = shown.lstrip("/")
            fa.diff = "".join(difflib.unified_diff(a, b, f"a/{rel}", f"b/{rel}"))
        original_row = _line_map(data, fixed)
        fa.remaining = [Remaining(d.code, d.message, d.row, d.column, _reason(d, self.unsafe), d.severity,
                                  original_row(d.row)) for d in left]
        fixed_extraction: Optional[Extraction] = outcome.analysis.extraction if fixed != data else None
        # launches
        for i, launch in enumerate(extraction.launches):
            fixed_launch = None
            if fixed_extraction is not None and len(fixed_extraction.launches) == len(extraction.launches):
                fixed_launch = fixed_extraction.launches[i]
            try:
                la = self._audit_launch(path, data, index, extraction, launch, by_span, fixed_launch,
                                        analysis.launches[i].args, words)
            except NoOrigin as e:
                fa.no_origin.append(e.args[0])
                continue
            if fixed_launch is not None:
                span = fixed_launch.span
                la.remaining = [r for r, d in zip(fa.remaining, left)
                                if d.span is not None and span.start <= d.span.start < max(span.end, span.start + 1)]
            elif fixed == data:
                span = launch.span
                la.remaining = [r for r, d in zip(fa.remaining, left)
                                if d.span is not None and span.start <= d.span.start < max(span.end, span.start + 1)]
            fa.launches.append(la)
        loose = analysis.loose_env
        if loose:
            try:
                fa.launches.append(self._audit_loose_env(path, index, extraction, loose, by_span))
            except NoOrigin as e:
                fa.no_origin.append(e.args[0])
        return fa

    # -- one launch
    def _audit_launch(self, path: Path, data: bytes, index: LineIndex, extraction: Extraction, launch: Launch,
                      by_span, fixed_launch: Optional[Launch], args_b: list[ParsedArg],
                      words: Optional[bytes] = None) -> LaunchAudit:
        db = self.db
        line = index.position(launch.span.start)[0]
        hints = list(launch.version_hints) + list(extraction.version_hints)
        frm, source = self.from_for(path, hints, line, words, launch.span.start, args_b, [e.name for e in launch.env])
        sa, sb = db.surface(frm), db.surface(self.to)
        la = LaunchAudit(str(path), line, launch.entry, frm, source, self.to, opaque=launch.opaque)
        pm = sa.entry_has_positional_model(launch.entry)
        args_a = ArgvParser(sa, db, positional_model=pm).parse(launch)  # (at B: the analysis's)
        ctx_a = self._ctx(path, launch, args_a, list(launch.env), sa, frm, data)
        ctx_b = self._ctx(path, launch, args_b, list(launch.env), sb, self.to, data)
        a_by_key = {_arg_key(a): a for a in args_a}
        broken: set[Any] = set()
        for b in args_b:
            if b.positional:
                continue
            a = a_by_key.get(_arg_key(b))
            f = self._arg_break(ctx_a, ctx_b, a, b, index)
            if f is not None:
                self._attach_fix(f, by_span, b)
                la.breaks.append(f)
                broken.add(_arg_key(b))
        for a in args_a:
            if a.positional or _arg_key(a) in broken:
                continue
            f = self._arg_deprecated(ctx_a, ctx_b, a, index)
            if f is not None:
                b = next((x for x in args_b if _arg_key(x) == _arg_key(a)), None)
                if b is not None:
                    self._attach_fix(f, by_span, b)
                la.deprecated.append(f)
        for e in launch.env:
            self._env_findings(la, ctx_a, ctx_b, e, index, by_span)
        la.drift = self._drift(sa, sb, args_a, args_b, launch)
        if fixed_launch is not None and _launch_text(fixed_launch) != _launch_text(launch):
            la.fixed = True
            args_fixed = ArgvParser(sb, db, positional_model=pm).parse(fixed_launch)
            la.semantic_checked = True
            la.semantic, la.dropped, la.not_at_from = self._semantic(ctx_a, ctx_b, args_a, args_b, args_fixed)
        return la

    def _audit_loose_env(self, path: Path, index: LineIndex, extraction: Extraction, loose: list[EnvAssign],
                         by_span) -> LaunchAudit:
        first = min((e.name_span.start for e in loose if e.name_span), default=0)
        line = index.position(first)[0]
        frm, source = self.from_for(path, list(extraction.version_hints), line, env=[e.name for e in loose])
        sa, sb = self.db.surface(frm), self.db.surface(self.to)
        la = LaunchAudit(str(path), line, "environment", frm, source, self.to)
        ctx_a = self._ctx(path, None, [], loose, sa, frm, b"")
        ctx_b = self._ctx(path, None, [], loose, sb, self.to, b"")
        for e in loose:
            self._env_findings(la, ctx_a, ctx_b, e, index, by_span)
        return la

    def _ctx(self, path, launch, args, env, surface, target, data) -> LintContext:
        return LintContext(str(path), launch, args, env, surface, self.db, target, "audit",
                           self.to_linter.settings, data)

    # -- breaks
    def _arg_break(self, ctx_a: LintContext, ctx_b: LintContext, a: Optional[ParsedArg], b: ParsedArg,
                   index: LineIndex) -> Optional[Finding]:
        from ..rules._status import option_status

        st_b = option_status(ctx_b, b)
        ok_a = a is not None and option_status(ctx_a, a).state == "ok"
        kind = "kwarg" if b.style == "kwargs" and b.key_style != "cli" else "option"
        line, col = index.position(b.report_span.start) if b.report_span else (None, None)
        common = dict(written=b.written, line=line, column=col, already_at_from=not ok_a, kind=kind)
        if st_b.state in ("removed", "renamed"):
            where = f"removed in vLLM {st_b.removed_in}" if st_b.removed_in else "removed"
            if st_b.state == "renamed":
                msg = (f"`{b.written}` was renamed to `{st_b.successor}` (old name last accepted by {st_b.last}); "
                       f"{self.to} rejects it")
            else:
                msg = f"`{b.written}` was {where} (last accepted by {st_b.last}); {self.to} rejects it"
                if kind == "kwarg":
                    msg = f"`{b.written}=` was {where} (last accepted by {st_b.last}); {self.to} raises TypeError"
                if st_b.successor_note:
                    msg += f": {st_b.successor_note}"
            return Finding("break", name=st_b.name, what=st_b.state, message=msg, changed_in=st_b.removed_in,
                           last_accepted=st_b.last, successor=st_b.successor, **common)
        if not ok_a or a is None:
            return None
        if st_b.state == "ambiguous":
            return Finding("break", name=st_b.name, what="ambiguous",
                           message=f"the abbreviation `{b.written}` is ambiguous at {self.to} "
                                   f"({', '.join(b.ambiguous[:5])}); spell the option out",
                           **common)
        if st_b.state != "ok" or b.option is None or a.option is None:
            return None
        # an abbreviation (or -O) that B reads as a different option than A did
        if b.option.name not in a.option.strings and a.option.name not in b.option.strings \
                and b.style == "argv" and "abbrev" in (a.how, b.how):
            return Finding("break", name=a.option.name, what="abbreviation",
                           message=f"`{b.written}` meant `{a.option.name}` at {ctx_a.target} but `{b.option.name}` at "
                                   f"{self.to}; spell the option out", **common)
        # a switch that now takes a value, or the reverse (argv only: the next word changes role)
        if b.style == "argv" and b.json_path is None and a.json_path is None and b.how != "o-rewrite" \
                and a.how != "o-rewrite":
            ta = a.option.takes_value(a.resolved_string or a.written)
            tb = b.option.takes_value(b.resolved_string or b.written)
            if ta != tb:
                ch = self._story_change(b.option.name, ctx_a.target, ("kind",))
                what = "takes a value" if tb else "takes no value"
                return Finding("break", name=b.option.name, what="arity", changed_in=ch,
                               message=f"`{b.written}` {what} at {self.to} (it {'did not' if tb else 'did'} at "
                                       f"{ctx_a.target}), so the words after it are read differently", **common)
        # a value that parsed at A and no longer parses at B
        pb = self._value_problem(ctx_b, b)
        if pb and not self._value_problem(ctx_a, a):
            ch = self._story_change(b.option.name, ctx_a.target, ("choices", "type", "kind"))
            return Finding("break", name=b.option.name, what="value", message=pb, changed_in=ch, old=b.value,
                           **common)
        return None

    def _value_problem(self, ctx: LintContext, arg: ParsedArg) -> Optional[str]:
        from ..rules.vl105_invalid_value import RULE as VL105

        sub = LintContext(ctx.path, ctx.launch, [arg], [], ctx.surface, ctx.db, ctx.target, ctx.target_source,
                          ctx.settings, ctx.data)
        for d in VL105.run(sub):
            return d.message
        return None

    def _story_change(self, name: str, frm: str, whats: tuple[str, ...]) -> Optional[str]:
        from ..surface.timeline import story

        st = story(self.db, name)
        if st is None:
            return None
        for c in st.changes:
            if c.what in whats and _in_range(self.db, c.version, frm, self.to):
                return c.version
        return None

    def _attach_fix(self, f: Finding, by_span, arg: ParsedArg) -> None:
        span = arg.report_span
        if span is None:
            return
        codes = {"break": ("VL101", "VL102", "VL105", "VL107", "VL201"), "deprecated": ("VL106", "VL204")}[f.category]
        for d in by_span.get((span.start, span.end), []):
            if d.code in codes and d.fix is not None and d.fix.applicability != "display-only":
                if d.fix.applicability == "safe" or self.unsafe:
                    f.fix, f.fix_message = d.fix.applicability, d.fix.message
                else:
                    f.fix, f.fix_message = "unsafe", d.fix.message + " (needs --unsafe-fixes)"
                return

    # -- deprecations
    def _deprecated_at(self, kind: str, name: str, frm: str) -> Optional[tuple[str, dict]]:
        """(first release in [A, B] (or earlier, if already deprecated at A) where ``name`` is
        deprecated, its deprecation record), or None."""
        key = (kind, name, frm)
        if key in self._dep_cache:
            return self._dep_cache[key]
        db = self.db
        found = None
        if kind == "option":
            hist = db.deprecated_history(name)
            if hist is not None:
                pa, pb = db.position(frm), db.position(self.to)
                inside = sorted(i for i in hist.indices if pa <= i <= pb)
                if inside:
                    first = inside[0]
                    while first - 1 in hist.indices:
                        first -= 1
                    v = db.versions[inside[0]]
                    opt = db.surface(v).lookup(name)
                    found = (db.versions[first], (opt.deprecated if opt else None) or {})
        else:
            ov = db.env_overlay(name) or {}
            for v in [frm, *_versions_between(db, frm, self.to)]:
                rec = db.surface(v).env.get(name) or {}
                if rec.get("deprecated"):
                    dep = rec["deprecated"] if isinstance(rec["deprecated"], dict) else {}
                    found = (v, dep)
                    break
            if found is None and ov.get("deprecated_since"):
                try:
                    since = db.resolve_version(ov["deprecated_since"])
                    if db.position(since) <= db.position(self.to):
                        found = (since, {"successor": ov.get("successor")})
                except Exception:
                    pass
        self._dep_cache[key] = found
        return found

    def _arg_deprecated(self, ctx_a: LintContext, ctx_b: LintContext, a: ParsedArg,
                        index: LineIndex) -> Optional[Finding]:
        if a.option is None:
            return None
        name = a.option.name
        dep = self._deprecated_at("option", name, ctx_a.target)
        if dep is None:
            return None
        since, rec = dep
        ov = self.db.option_overlay(a.resolved_string or name) or self.db.option_overlay(name) or {}
        succ = ov.get("successor") or rec.get("successor")
        still = self.db.surface(self.to).lookup(name)
        msg = f"`{a.written}` is deprecated since vLLM {since}"
        if succ:
            msg += f"; use `{succ}`"
        if ov.get("note"):
            msg += f" ({ov['note']})"
        if still is not None and not still.deprecated:
            msg += f" (no longer marked deprecated at {self.to})"
        line, col = index.position(a.report_span.start) if a.report_span else (None, None)
        kind = "kwarg" if a.style == "kwargs" and a.key_style != "cli" else "option"
        return Finding("deprecated", kind, name, "deprecated", msg, written=a.written, line=line, column=col,
                       changed_in=since, successor=succ,
                       already_at_from=self.db.position(since) <= self.db.position(ctx_a.target))

    # -- environment
    def _env_findings(self, la: LaunchAudit, ctx_a: LintContext, ctx_b: LintContext, e: EnvAssign,
                      index: LineIndex, by_span) -> None:
        from ..rules._env_status import env_status, is_vllm_var

        if not is_vllm_var(e.name):
            return
        st_b = env_status(ctx_b, e)
        st_a = env_status(ctx_a, e)
        line, col = index.position(e.name_span.start) if e.name_span else (None, None)
        common = dict(written=e.name, line=line, column=col, already_at_from=st_a.state != "ok")
        f = None
        if st_b.state == "removed":
            msg = f"`{e.name}` is no longer read by vLLM {self.to} (last read by {st_b.last})"
            if st_b.successor:
                msg += f"; use `{st_b.successor}`"
            if st_b.note:
                msg += f": {st_b.note}"
            f = Finding("break", "env", e.name, "env-removed", msg, changed_in=st_b.removed_in,
                        last_accepted=st_b.last, successor=st_b.successor, **common)
        elif st_b.state == "ok" and st_a.state == "ok" and e.value is not None and not e.value_opaque:
            rb = ctx_b.surface.env.get(e.name) or {}
            ra = ctx_a.surface.env.get(e.name) or {}
            cb, ca = rb.get("choices"), ra.get("choices")
            if cb and e.value not in [str(c) for c in cb] and (not ca or e.value in [str(c) for c in ca]):
                f = Finding("break", "env", e.name, "env-value",
                            f"`{e.name}={e.value}` is not an accepted value at {self.to} "
                            f"(expected one of {', '.join(map(str, cb))})", old=e.value, **common)
        if f is not None:
            la.breaks.append(f)
            return
        if st_b.state != "ok":
            return
        dep = self._deprecated_at("env", e.name, ctx_a.target)
        if dep is None:
            return
        since, rec = dep
        succ = rec.get("successor") or st_b.successor
        msg = f"`{e.name}` is deprecated since vLLM {since}" + (f"; use `{succ}`" if succ else "")
        f = Finding("deprecated", "env", e.name, "deprecated", msg, changed_in=since, successor=succ,
                    written=e.name, line=line, column=col,
                    already_at_from=self.db.position(since) <= self.db.position(ctx_a.target))
        la.deprecated.append(f)

    # -- default drift
    def _drift(self, sa: Surface, sb: Surface, args_a: list[ParsedArg], args_b: list[ParsedArg],
               launch: Launch) -> list[Finding]:
        if launch.style == "kwargs":
            return self._drift_engine_args(sa, sb, args_a, args_b)
        set_dests = {x.option.dest for x in [*args_a, *args_b] if x.option is not None}
        if any(x.positional for x in args_a):
            set_dests |= {"model", "model_tag"}
        out: list[Finding] = []
        seen: set[str] = set()
        for oa in sorted(sa.options, key=lambda o: o.name):
            if oa.dest in set_dests or oa.name in seen:
                continue
            ob = sb.lookup(oa.name)
            if ob is not None:
                if ob.dest in set_dests:
                    continue
                seen.add(oa.name)
                # the same words may feed an inverted field at B (--disable-x: disable_x at A,
                # enable_x at B): compare what the defaults mean, in the terms of the option named
                f = self._compare(oa.name, oa.name, (oa.default, oa.default_computed),
                                  (_translate(ob.dest, oa.dest, ob.default), ob.default_computed), sa.version,
                                  "default")
                if f:
                    out.append(f)
                continue
            # gone under this name: drift only if it moved to a successor with another default
            hist = self.db.option_history(oa.name)
            last = self.db.last_accepting(hist, sb.version) if hist else None
            succ, evidence = _successor(self.db, oa.name, last or sa.version)
            if not succ:
                continue
            base, _, key = succ.partition(".")
            obs = sb.lookup(base)
            if obs is None or obs.dest in set_dests:
                continue
            if not key and sa.lookup(base) is not None:
                continue  # the successor existed at A: its own drift (if any) is reported under its name
            if key:
                cfg = (sb.json_config_for(obs) or {}).get("fields", {}).get(key.split(".")[0])
                if cfg is None:
                    continue
                new = (cfg.get("default"), bool(cfg.get("default_computed")))
            else:
                new = (obs.default, obs.default_computed)
            f = self._compare(oa.name, succ, (oa.default, oa.default_computed), new, sa.version, "moved")
            if f:
                f.successor = succ
                f.changed_in = (self.db.versions[self.db.position(last) + 1]
                                if last and self.db.position(last) + 1 < len(self.db.versions) else None)
                shown_a = "(computed)" if f.old_computed else _fmt(f.old)
                shown_b = "(computed)" if f.new_computed else _fmt(f.new)
                f.message = (f"`{oa.name}` (default {shown_a} at {sa.version}) became `{succ}` "
                             f"(default {shown_b} at {self.to})"
                             + (f" in {f.changed_in}" if f.changed_in else "")
                             + ("" if f.statically_known else "; changed, not statically known")
                             + (f"; evidence: {evidence}" if evidence else ""))
                out.append(f)
        return out

    def _drift_engine_args(self, sa: Surface, sb: Surface, args_a, args_b) -> list[Finding]:
        set_fields = {x.canonical for x in [*args_a, *args_b]}
        out = []
        for name in sorted(sa.engine_args):
            if name in set_fields or name not in sb.engine_args:
                continue
            ra, rb = sa.engine_args[name], sb.engine_args[name]
            f = self._compare(name, name, (ra.get("default"), bool(ra.get("default_computed"))),
                              (rb.get("default"), bool(rb.get("default_computed"))), sa.version, "default",
                              kind="kwarg")
            if f:
                out.append(f)
        return out

    def _compare(self, old_name: str, new_name: str, old: tuple[Any, bool], new: tuple[Any, bool], frm: str,
                 what: str, kind: str = "option") -> Optional[Finding]:
        (dva, ca), (dvb, cb) = old, new
        if ca and cb:
            return None  # computed on both sides: nothing static to compare
        if not ca and not cb and dva == dvb:
            return None
        known = not (ca or cb)
        empty = known and dva in _EMPTY and dvb in _EMPTY
        shown_a = "(computed)" if ca else _fmt(dva)
        shown_b = "(computed)" if cb else _fmt(dvb)
        changes = self._default_steps(old_name if what != "moved" else new_name, frm, kind) if what != "moved" \
            else []
        f = Finding("drift", kind, old_name, what if known or what == "moved" else "default-computed", "",
                    old=None if ca else dva, new=None if cb else dvb, statically_known=known, changes=changes,
                    old_computed=ca, new_computed=cb, empty_to_empty=empty,
                    changed_in=changes[0]["version"] if changes else None)
        label = f"`{old_name}`" if kind != "kwarg" else f"`{old_name}=`"
        if known:
            f.message = f"{label} default {shown_a} at {frm} -> {shown_b} at {self.to}"
        else:
            f.message = f"{label} default changed, not statically known ({shown_a} at {frm}, {shown_b} at {self.to})"
        if changes and len(changes) == 1:
            f.message += f" (changed in {changes[0]['version']})"
        elif changes:
            f.message += " (changed in " + ", ".join(c["version"] for c in changes) + ")"
        return f

    def _default_steps(self, name: str, frm: str, kind: str) -> list[dict[str, Any]]:
        """Every release in (A, B] where the default changed, from the option's story (the
        timeline's walk; EngineArgs fields are walked here, the story covers options and env)."""
        if kind == "kwarg":
            steps = []
            prev = None
            for v in [frm, *_versions_between(self.db, frm, self.to)]:
                rec = self.db.surface(v).engine_args.get(name)
                cur = None if rec is None else ("(computed)" if rec.get("default_computed") else rec.get("default"))
                if prev is not None and rec is not None and cur != prev[0] and v != frm:
                    steps.append({"version": v, "old": prev[0], "new": cur})
                prev = (cur,) if rec is not None else None
            return steps
        from ..surface.timeline import story

        st = story(self.db, name)
        if st is None:
            return []
        return [{"version": c.version, "old": c.old, "new": c.new} for c in st.changes
                if c.what == "default" and _in_range(self.db, c.version, frm, self.to)]

    # -- semantic check
    def _semantic(self, ctx_a: LintContext, ctx_b: LintContext, args_a: list[ParsedArg],
                  args_b: list[ParsedArg], args_fixed: list[ParsedArg]
                  ) -> tuple[list[SemanticDiff], list[str], list[str]]:
        """Does the fixed launch, read at B, set the same fields to the same values as the
        original did at A? Options removed outright (no successor) are left out (returned as the
        second value); so are options A itself did not accept (nothing to preserve) and whatever
        the fixed launch sets that B does not accept (still reported among the remaining findings)."""
        expected, dropped, skip, not_at_a = self._expected_fields(ctx_a, ctx_b, args_a, args_b)
        actual = _actual_fields(ctx_b, args_fixed)
        return self._differences(expected, actual, skip, ctx_a.target), dropped, not_at_a

    def _expected_fields(self, ctx_a: LintContext, ctx_b: LintContext, args_a: list[ParsedArg],
                         args_b: list[ParsedArg]) -> tuple[dict[str, list[Any]], list[str], set[str], list[str]]:
        """(field at B -> the values the original sets, the options removed outright, the fields at
        B fed by options A did not accept, those options): what the fixed launch should set."""
        from ..rules._status import option_status

        sb = ctx_b.surface
        b_by_key = {_arg_key(b): b for b in args_b}
        expected: dict[str, list[Any]] = {}
        dropped: list[str] = []
        skip: set[str] = set()  # fields at B fed by options A did not accept
        not_at_a: list[str] = []
        for a in args_a:
            key, value = _field_value(a)
            if key is None:
                continue
            kw = a.style == "kwargs" and a.key_style != "cli"
            accepted_at_a = a.positional or (a.canonical in ctx_a.surface.engine_args
                                             or a.canonical in ctx_a.surface.llm_params if kw else a.option is not None)
            b = b_by_key.get(_arg_key(a))
            st = option_status(ctx_b, b) if b is not None and not a.positional else None
            # the field this occurrence maps to at B
            if a.positional or (st is not None and st.state == "ok"):
                if kw or a.positional:
                    k = key
                else:
                    ob = b.option if b is not None and b.option is not None else None
                    if ob is not None and (a.option is None or ob.name in a.option.strings
                                           or a.option.name in ob.strings):
                        # the same option at both ends (its dest may have been renamed internally,
                        # or inverted: --disable-x sets disable_x at A and enable_x at B)
                        k = ob.dest + (f".{a.json_path}" if a.json_path else "")
                        value = _translate(key, k, value)
                    else:
                        k = key  # B reads the same words as a different option: compare A's field
            elif st is not None and st.state == "renamed" and st.successor:
                if kw:
                    k = st.successor
                else:
                    base, _, jkey = st.successor.partition(".")
                    ob = sb.lookup(base)
                    if ob is None:
                        dropped.append(a.written)
                        continue
                    k = ob.dest + (f".{jkey}" if jkey else "") + (f".{a.json_path}" if a.json_path else "")
                    value = _translate(key, k, value)
            else:
                (dropped if accepted_at_a else not_at_a).append(a.written)
                continue
            if not accepted_at_a:
                skip.add(k)
                not_at_a.append(a.written)
                continue
            expected.setdefault(k, []).append(value)
        return expected, dropped, skip, not_at_a

    def _differences(self, expected: dict[str, list[Any]], actual: dict[str, list[Any]], skip: set[str],
                     release_a: str) -> list[SemanticDiff]:
        """The fields (but ``skip``) whose values the fixed launch (``actual``) sets otherwise than
        the original did at ``release_a`` (``expected``)."""
        diffs: list[SemanticDiff] = []
        for k in sorted((set(expected) | set(actual)) - skip):
            ea, aa = expected.get(k), actual.get(k)
            if ea is not None and aa is not None and [_norm(v) for v in ea] == [_norm(v) for v in aa]:
                continue
            old = ea[-1] if ea else None
            new = aa[-1] if aa else None
            if aa is None:
                msg = f"`{k}`: the original sets {_fmt(old)} at {release_a}; the fixed launch does not set it at {self.to}"
            elif ea is None:
                msg = f"`{k}`: the fixed launch sets {_fmt(new)} at {self.to}; the original did not set it at {release_a}"
            else:
                msg = f"`{k}`: {_fmt(old)} at {release_a} but {_fmt(new)} in the fixed launch at {self.to}"
            diffs.append(SemanticDiff(k, old, new, msg))
        return diffs


def _actual_fields(ctx_b: LintContext, args_fixed: list[ParsedArg]) -> dict[str, list[Any]]:
    """Field -> the values the fixed launch sets, of the options B accepts."""
    from ..rules._status import option_status

    actual: dict[str, list[Any]] = {}
    for f in args_fixed:
        key, value = _field_value(f)
        if key is None:
            continue
        if not f.positional and option_status(ctx_b, f).state != "ok":
            continue  # still rejected at B: a remaining finding, not a meaning change
        actual.setdefault(key, []).append(value)
    return actual


_POLARITY = (("enable_", False), ("disable_", True), ("no_", True))


def _polarity(field: str) -> tuple[str, bool]:
    """A boolean field's subject and whether it is stated inverted: ``disable_log_requests`` ->
    (``log_requests``, True), ``enable_log_requests`` -> (``log_requests``, False)."""
    for prefix, inverted in _POLARITY:
        if field.startswith(prefix):
            return field[len(prefix):], inverted
    return field, False


def _translate(field_a: Optional[str], field_b: Optional[str], value: Any) -> Any:
    """A boolean ``value`` of ``field_a`` as the value of ``field_b`` that means the same, when the
    two fields are one subject stated the other way round (``disable_x=True`` is
    ``enable_x=False``); anything else unchanged."""
    if not isinstance(value, bool) or not field_a or not field_b or field_a == field_b:
        return value
    (subject_a, inv_a), (subject_b, inv_b) = _polarity(field_a), _polarity(field_b)
    if subject_a != subject_b:
        return value
    return value if inv_a == inv_b else not value


def _line_map(before: bytes, after: bytes):
    """Row of ``after`` (1-based) -> the row of ``before`` it comes from: the same line where the
    fix left it, else the first line of the text it replaced."""
    if before == after:
        return lambda row: row
    import difflib

    a, b = before.splitlines(), after.splitlines()
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()

    def original(row: int) -> int:
        j = row - 1
        for tag, i1, i2, j1, j2 in ops:
            if j1 <= j < j2:
                return (i1 + (j - j1) if tag == "equal" else i1) + 1
        return min(row, len(a) or 1)

    return original


def _field_value(a: ParsedArg) -> tuple[Optional[str], Any]:
    """(configuration field, value) that one option occurrence sets."""
    if a.positional:
        return "model", a.value
    if a.style == "kwargs" and a.key_style != "cli":
        return a.canonical, a.value
    opt = a.option
    if opt is None:
        return a.canonical, a.value
    key = opt.dest + (f".{a.json_path}" if a.json_path else "")
    if a.json_path is None and a.how != "o-rewrite":
        s = a.resolved_string or a.written
        if s in opt.negations:
            return key, False
        if not opt.takes_value(s):
            if a.style == "argv" or a.key_style == "cli":
                return key, True if a.value is None else a.value
            return key, a.value
    return key, a.value


def _norm(v: Any) -> Any:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return v


def _launch_text(launch: Launch) -> Any:
    if launch.style == "argv":
        return [t.text for t in launch.tokens]
    return [(k.key, repr(k.value)) for k in launch.keyed]


# ----------------------------------------------------------------------------- entry point


def audit_paths(paths: Iterable[str], db: Database, to_version: Optional[str] = None, *,
                from_version: Optional[str] = None, settings: Optional[Settings] = None,
                unsafe_fixes: bool = False, default_from: Optional[str] = None) -> AuditReport:
    """Audit every launch under ``paths``. ``from_version`` (--from) is A for every launch;
    ``default_from`` (--default-from) only for launches that name no release; a launch with
    neither is listed in the report (``no_origin``) and not audited. Raises ``UnknownVersion``
    for bad versions."""
    from ..fsutil import open_regular, read_at_most
    from .engine import MAX_FILE_BYTES

    settings = settings or Settings()
    auditor = Auditor(db, to_version or db.newest, from_version=from_version, settings=settings,
                      unsafe_fixes=unsafe_fixes, default_from=default_from)
    report = AuditReport(auditor.from_version, auditor.to)
    targets, problems = discover(list(paths) or ["."], settings)
    for p in problems:
        report.files.append(FileAudit(p.path, None, error=p.message.partition(": ")[2] or p.message))
    for t in targets:
        path = Path(t.path)
        try:
            if path.is_dir():
                continue
            # a regular file or a pipe, bounded as a lint reads it (a device or a FIFO named: no hang)
            with open_regular(path, pipes=True) as f:
                data = read_at_most(f, MAX_FILE_BYTES)
        except OSError as e:
            report.files.append(FileAudit(str(path), None, error=f"cannot read file: {e.strerror or e}"))
            continue
        fa = auditor.audit_file(path, data, auditor.to_linter.mode_of(t))
        if fa is not None:
            report.files.append(fa)
    return report


# ----------------------------------------------------------------------------- rendering

_CATEGORY_TITLES = (("breaks", "Breaks at {to}"), ("deprecated", "Deprecated on the way"),
                    ("drift", "Default drift (options the launch does not set)"))


def _release_link(v: Optional[str]) -> str:
    return f"[{v}](https://github.com/vllm-project/vllm/releases/tag/v{v})" if v else ""


def _fix_text(f: Finding) -> str:
    if f.category == "drift":
        return ""
    if f.fix == "safe":
        return f"fixed by `--fix`: {f.fix_message}"
    if f.fix == "unsafe":
        return f"unsafe fix: {f.fix_message}"
    return "no automatic fix"


def render_text(report: AuditReport) -> str:
    s = report.summary()
    out = [f"vLLM upgrade audit -> {report.to_version}"
           + (f" (from {report.from_spec})" if report.from_spec else " (from each launch's release)")]
    for fa in report.files:
        out.append("")
        if fa.error:
            out.append(f"{visible(fa.path)}: error: {fa.error}")
            continue
        for line in fa.no_origin:
            out.append(f"{visible(fa.path)}:{line}: not audited: the launch names no vLLM release (no image tag, FROM or "
                       f"pin); pass --default-from VERSION")
        for la in fa.launches:
            out.append(f"{visible(la.path)}:{la.line}: {la.entry}, {la.from_version} -> {la.to_version} "
                       f"(from: {la.from_source}){'  READY' if la.ready else ''}")
            for cat, title in _CATEGORY_TITLES:
                items = getattr(la, cat)
                if not items:
                    continue
                out.append(f"  {title.format(to=la.to_version)} ({len(items)}):")
                shown = [f for f in items if not f.empty_to_empty]
                for f in shown:
                    loc = f"line {f.line}: " if f.line else ""
                    extra = [x for x in (_fix_text(f), f"history: {f.history}") if x]
                    out.append(f"    {loc}{f.message}{_already(f, la)}")
                    out.append(f"      {'; '.join(extra)}")
                empties = [f for f in items if f.empty_to_empty]
                if empties:
                    out.append("    between empty values (null, \"\", [], {}; likely cosmetic): "
                               + ", ".join(f"{f.name} ({_fmt(f.old)} -> {_fmt(f.new)})" for f in empties))
            if la.opaque and la.drift:
                out.append("  (the launch may set more options than shown, e.g. $EXTRA_ARGS: drift may over-report)")
            if la.semantic_checked:
                if la.semantic:
                    out.append(f"  Semantic check: {len(la.semantic)} difference(s) after the fix:")
                    out.extend(f"    {d.message}" for d in la.semantic)
                else:
                    out.append("  Semantic check: the fixed launch sets the same fields to the same values"
                               + (f" (removed outright: {', '.join(la.dropped)})" if la.dropped else ""))
                if la.not_at_from:
                    out.append(f"    not compared, {la.from_version} itself rejects: {', '.join(la.not_at_from)}")
        if fa.diff:
            out.append(f"Fixes `vllm-lint --fix --target-version {report.to_version}` would make "
                       f"({fa.fixes_applied}):")
            out.extend("  " + ln for ln in fa.diff.rstrip("\n").split("\n"))
        if fa.fix_note:
            out.append(f"  fix note: {fa.fix_note}")
        if fa.remaining:
            out.append(f"Left after the fixes ({len(fa.remaining)}):")
            for r in fa.remaining:
                out.append(f"  {visible(fa.path)}:{r.original_line or r.line}: {r.code} {visible(r.message)}")
                out.append(f"    why: {r.reason}")
    out.append("")
    out.append(f"Summary: {s['files']} file(s), {s['launches']} launch(es), {s['ready']} ready for "
               f"{report.to_version}; {s['breaks']} break(s) ({s['new_breaks']} new in this upgrade, the rest "
               f"already refused today), {s['deprecated']} deprecated, {s['drift']} default "
               f"drift(s), {s['fixes_applied']} fix(es), {s['remaining']} left after fixing, "
               f"{s['semantic_differences']} semantic difference(s).")
    for pf in s["per_file"]:
        out.append(f"  {pf['path']}: " + (f"error: {pf['error']}" if pf["error"] else
                   f"{pf['launches']} launch(es), {pf['breaks']} break(s), {pf['deprecated']} deprecated, "
                   f"{pf['drift']} drift, {pf['fixes_applied']} fix(es), {pf['remaining']} left"))
    if s["no_origin"]:
        out.append(f"Not audited ({len(s['no_origin'])}: no release named; --default-from VERSION audits them): "
                   + ", ".join(f"{r['path']}:{r['line']}" for r in s["no_origin"]))
    if s["ready_launches"]:
        out.append("Ready for " + report.to_version + ": "
                   + ", ".join(f"{r['path']}:{r['line']}" for r in s["ready_launches"]))
    return "\n".join(out) + "\n"


def _md_cell(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(report: AuditReport) -> str:
    s = report.summary()
    to = report.to_version
    out = _md_summary(report, s)
    for fa in report.files:
        out += _md_file(fa, to)
    return "\n".join(out).rstrip("\n") + "\n"


def _md_summary(report: AuditReport, s: dict) -> list[str]:
    """The Markdown report's head: the verdict, the counts, one row per file, the launches not
    audited and those already ready."""
    to = report.to_version
    frm = report.from_spec or "each launch's release"
    out = [f"## vLLM upgrade audit: {frm} → {to}", ""]
    verdict = ("**Nothing breaks at " + to + ".**") if not s["breaks"] else \
        f"**{s['breaks']} break(s) at {to}** in {s['launches'] - s['ready']} of {s['launches']} launch(es)."
    out += [verdict, "",
            "| | Count |", "|---|---:|",
            f"| Launches | {s['launches']} |",
            f"| Ready for {to} | {s['ready']} |",
            f"| Breaks | {s['breaks']} |",
            f"| … of which new in this upgrade (the rest already fail at the release each launch runs today) | {s['new_breaks']} |",
            f"| Deprecated on the way | {s['deprecated']} |",
            f"| Default drift | {s['drift']} |",
            f"| Fixes `vllm-lint --fix --target-version {to}` makes | {s['fixes_applied']} |",
            f"| Left to do by hand | {s['remaining']} |",
            f"| Semantic differences after fixing | {s['semantic_differences']} |", ""]
    if s["per_file"]:
        out += ["| File | Launches | Breaks | Deprecated | Drift | Fixes | Left |", "|---|---:|---:|---:|---:|---:|---:|"]
        for pf in s["per_file"]:
            if pf["error"]:
                out.append(f"| `{_md_cell(pf['path'])}` | error: {_md_cell(pf['error'])} | | | | | |")
            else:
                out.append(f"| `{_md_cell(pf['path'])}` | {pf['launches']} | {pf['breaks']} | {pf['deprecated']} | "
                           f"{pf['drift']} | {pf['fixes_applied']} | {pf['remaining']} |")
        out.append("")
    if s["no_origin"]:
        out.append(f"Not audited ({len(s['no_origin'])} launch(es) name no vLLM release; `--default-from VERSION` "
                   "audits them from that release): " + ", ".join(f"`{r['path']}:{r['line']}`" for r in s["no_origin"]))
        out.append("")
    if s["ready_launches"]:
        out.append("Already ready for " + to + ": " + ", ".join(f"`{r['path']}:{r['line']}`"
                                                                 for r in s["ready_launches"]))
        out.append("")
    return out


def _md_file(fa: FileAudit, to: str) -> list[str]:
    """One file's section of the Markdown report: its launches, its fixes as a diff, what is left."""
    out = [f"### `{visible(fa.path)}`", ""]
    if fa.error:
        return out + [f"Error: {fa.error}", ""]
    for la in fa.launches:
        out += _md_launch(la, to)
    if fa.diff:
        out += [f"<details><summary>Fixes by <code>vllm-lint --fix --target-version {to}</code> "
                f"({fa.fixes_applied})</summary>", "", "```diff", fa.diff.rstrip("\n"), "```", "", "</details>", ""]
    if fa.remaining:
        out += ["**Left to do by hand**", ""]
        for r in fa.remaining:
            out.append(f"- line {r.original_line or r.line}: {r.code} {_md_cell(r.message)} — _{r.reason}_")
        out.append("")
    return out


def _md_launch(la: LaunchAudit, to: str) -> list[str]:
    """One launch's part of the Markdown report: its breaks, deprecations, default drift and the
    semantic check of the fixed launch."""
    status = "✅ ready" if la.ready else f"❌ {len(la.breaks)} break(s)"
    out = [f"#### Line {la.line}: `{la.entry}`, {la.from_version} → {la.to_version} ({status})", "",
           f"_Release {la.from_version} from {la.from_source}._", ""]
    if la.breaks:
        out += [f"**Breaks at {to}**", ""]
        for f in la.breaks:
            out.append(_md_finding(f, la))
        out.append("")
    if la.deprecated:
        out += ["**Deprecated on the way**", ""]
        for f in la.deprecated:
            out.append(_md_finding(f, la))
        out.append("")
    if la.drift:
        out += _md_drift(la, to)
    if la.semantic_checked:
        if la.semantic:
            out += ["**Semantic check: the fixed launch differs**", ""]
            out += [f"- {_md_cell(d.message)}" for d in la.semantic]
            out.append("")
        else:
            out += ["Semantic check: the fixed launch sets the same fields to the same values"
                    + (f" (removed outright: {', '.join('`' + x + '`' for x in la.dropped)})" if la.dropped else "")
                    + ".", ""]
        if la.not_at_from:
            out += [f"Not compared ({la.from_version} itself rejects them): "
                    + ", ".join(f"`{x}`" for x in la.not_at_from) + ".", ""]
    return out


def _md_drift(la: LaunchAudit, to: str) -> list[str]:
    """A launch's default drift as a folded table (the changes between empty values after it)."""
    out = [f"<details><summary>Default drift: {len(la.drift)} option(s) this launch does not set"
           + (" (it may set more than shown)" if la.opaque else "") + "</summary>", "",
           f"| Option | {la.from_version} | {to} | Changed in |", "|---|---|---|---|"]
    for f in [x for x in la.drift if not x.empty_to_empty]:
        a = "(computed)" if f.old_computed else _fmt(f.old)
        b = "(computed)" if f.new_computed else _fmt(f.new)
        name = f"`{f.name}`" + (f" → `{f.successor}`" if f.successor else "")
        when = ", ".join(_release_link(c["version"]) for c in f.changes) or _release_link(f.changed_in)
        if not f.statically_known:
            b += " — changed, not statically known"
        out.append(f"| {name} | `{_md_cell(a)}` | `{_md_cell(b)}` | {when} |")
    empties = [x for x in la.drift if x.empty_to_empty]
    if empties:
        out += ["", "Between empty values (likely cosmetic): "
                + ", ".join(f"`{x.name}` (`{_md_cell(_fmt(x.old))}` → `{_md_cell(_fmt(x.new))}`)"
                            for x in empties)]
    return out + ["", "</details>", ""]


def _already(f: Finding, la: LaunchAudit) -> str:
    if not f.already_at_from:
        return ""
    if f.category == "deprecated":
        return f" (already deprecated at {la.from_version})"
    return f" (already rejected by {la.from_version})"


def _md_finding(f: Finding, la: LaunchAudit) -> str:
    where = f"line {f.line}: " if f.line else ""
    bits = [f"- {where}{f.message}{_already(f, la)}"]
    if f.changed_in:
        bits.append(f"({'removed' if f.what in ('removed', 'renamed', 'env-removed') else 'changed'} in "
                    f"{_release_link(f.changed_in)})")
    fx = _fix_text(f)
    if fx:
        bits.append(f"— {fx}")
    bits.append(f"— history: `{f.history}`")
    return " ".join(bits)
