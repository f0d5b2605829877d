"""The audit's conductor: one lint check of each file at release B (with ``--fix``, in memory),
release A per launch, and per launch the comparers (``breaks``, ``drift``, ``semantic``) of its
parse at A with its parse at B; ``audit_paths`` runs it over the files a lint would read."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any, Iterable, Optional

from ...argv import ArgvParser, ParsedArg
from ...frontends.base import get as format_unit
from ...launch import EnvAssign, Extraction, Launch, LineIndex
from ...rules.base import Diagnostic, LintContext, registry, select_rules
from ...settings import Settings
from ...surface.db import Database
from ..discovery import discover
from ..engine import Linter
from ..targeting import accepted_range, never_accepted, never_accepted_note
from .breaks import BreakFinder
from .drift import DriftFinder
from .model import AuditReport, FileAudit, LaunchAudit, NoOrigin, Remaining
from .semantic import arg_key, launch_text, semantic_check


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
        self.break_finder = BreakFinder(db, self.to, unsafe_fixes)
        self.drift_finder = DriftFinder(db, self.to)

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
        # (an image or fork whose release is unknown names none either: pipeline.unknown_release)
        if choice.kind == "default" or (choice.kind == "between" and choice.named is None):
            if self.default_from:
                return self.default_from, "--default-from"
            written = accepted_range(self.db, args or [], env or [])
            if written is not None:
                # (the range leaves out what no release has: then it is true of the launch's other words only)
                but = never_accepted_note(never_accepted(self.db, args or [], env or []))
                return written[1], (f"no release named: the newest release that accepts this launch{but} as written "
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
        a_by_key = {arg_key(a): a for a in args_a}
        broken: set[Any] = set()
        for b in args_b:
            if b.positional:
                continue
            a = a_by_key.get(arg_key(b))
            f = self.break_finder.arg_break(ctx_a, ctx_b, a, b, index)
            if f is not None:
                self.break_finder.attach_fix(f, by_span, b)
                la.breaks.append(f)
                broken.add(arg_key(b))
        for a in args_a:
            if a.positional or arg_key(a) in broken:
                continue
            f = self.break_finder.arg_deprecated(ctx_a, ctx_b, a, index)
            if f is not None:
                b = next((x for x in args_b if arg_key(x) == arg_key(a)), None)
                if b is not None:
                    self.break_finder.attach_fix(f, by_span, b)
                la.deprecated.append(f)
        for e in launch.env:
            self.break_finder.env_findings(la, ctx_a, ctx_b, e, index, by_span)
        la.drift = self.drift_finder.drift(sa, sb, args_a, args_b, launch)
        if fixed_launch is not None and launch_text(fixed_launch) != launch_text(launch):
            la.fixed = True
            args_fixed = ArgvParser(sb, db, positional_model=pm).parse(fixed_launch)
            la.semantic_checked = True
            la.semantic, la.dropped, la.not_at_from = semantic_check(ctx_a, ctx_b, args_a, args_b, args_fixed)
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
            self.break_finder.env_findings(la, ctx_a, ctx_b, e, index, by_span)
        return la

    def _ctx(self, path, launch, args, env, surface, target, data) -> LintContext:
        return LintContext(str(path), launch, args, env, surface, self.db, target, "audit",
                           self.to_linter.settings, data)


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


def audit_paths(paths: Iterable[str], db: Database, to_version: Optional[str] = None, *,
                from_version: Optional[str] = None, settings: Optional[Settings] = None,
                unsafe_fixes: bool = False, default_from: Optional[str] = None) -> AuditReport:
    """Audit every launch under ``paths``. ``from_version`` (--from) is A for every launch;
    ``default_from`` (--default-from) only for launches that name no release; a launch with
    neither is listed in the report (``no_origin``) and not audited. Raises ``UnknownVersion``
    for bad versions."""
    from ...fsutil import open_regular, read_at_most
    from ..engine import MAX_FILE_BYTES

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
