"""What release B refuses of a launch that ran at A (breaks), and what is deprecated on the way,
option by option and variable by variable; each with the fix ``--fix --target-version B`` offers."""

from __future__ import annotations

from typing import Optional

from ...argv import ParsedArg
from ...launch import EnvAssign, LineIndex
from ...rules.base import LintContext
from ...surface.db import Database
from .model import Finding, LaunchAudit
from .releases import in_range, versions_between


class BreakFinder:
    """The breaks and deprecations of one upgrade to ``to`` (fixes shown as ``--unsafe-fixes`` says)."""

    def __init__(self, db: Database, to: str, unsafe: bool):
        self.db = db
        self.to = to
        self.unsafe = unsafe
        self._dep_cache: dict[tuple[str, str, str], Optional[tuple[str, dict]]] = {}

    def arg_break(self, ctx_a: LintContext, ctx_b: LintContext, a: Optional[ParsedArg], b: ParsedArg,
                   index: LineIndex) -> Optional[Finding]:
        from ...rules._status import option_status

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
        from ...rules.vl105_invalid_value import RULE as VL105

        sub = LintContext(ctx.path, ctx.launch, [arg], [], ctx.surface, ctx.db, ctx.target, ctx.target_source,
                          ctx.settings, ctx.data)
        for d in VL105.run(sub):
            return d.message
        return None

    def _story_change(self, name: str, frm: str, whats: tuple[str, ...]) -> Optional[str]:
        from ...surface.timeline import story

        st = story(self.db, name)
        if st is None:
            return None
        for c in st.changes:
            if c.what in whats and in_range(self.db, c.version, frm, self.to):
                return c.version
        return None

    def attach_fix(self, f: Finding, by_span, arg: ParsedArg) -> None:
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
            for v in [frm, *versions_between(db, frm, self.to)]:
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

    def arg_deprecated(self, ctx_a: LintContext, ctx_b: LintContext, a: ParsedArg,
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
    def _env_refusal(self, ctx_b: LintContext, e: EnvAssign) -> Optional[str]:
        """VL201's word when B refuses to start with this assignment (a removed variable it raises on,
        a value its platform check rejects), else None: what the lint at B calls an error."""
        from ...rules.vl201_removed_env_var import RULE as VL201

        sub = LintContext(ctx_b.path, ctx_b.launch, [], [e], ctx_b.surface, ctx_b.db, ctx_b.target,
                          ctx_b.target_source, ctx_b.settings, ctx_b.data)
        for d in VL201.run(sub):
            if d.severity == "error":
                return d.message
        return None

    def env_findings(self, la: LaunchAudit, ctx_a: LintContext, ctx_b: LintContext, e: EnvAssign,
                      index: LineIndex, by_span) -> None:
        from ...rules._env_status import env_status, is_vllm_var

        if not is_vllm_var(e.name):
            return
        st_b = env_status(ctx_b, e)
        st_a = env_status(ctx_a, e)
        line, col = index.position(e.name_span.start) if e.name_span else (None, None)
        common = dict(written=e.name, line=line, column=col, already_at_from=st_a.state != "ok")
        f = None
        refusal = self._env_refusal(ctx_b, e)
        if st_b.state == "removed":
            msg = f"`{e.name}` is no longer read by vLLM {self.to} (last read by {st_b.last})"
            if st_b.successor:
                msg += f"; use `{st_b.successor}`"
            if st_b.note:
                msg += f": {st_b.note}"
            if refusal:
                msg = f"{refusal} (last read by {st_b.last})"
            # a variable B no longer reads is ignored (the launch starts), unless B refuses it at start
            f = Finding("break" if refusal else "ignored", "env", e.name, "env-removed", msg,
                        changed_in=st_b.removed_in, last_accepted=st_b.last, successor=st_b.successor, **common)
            (la.breaks if refusal else la.ignored).append(f)
            return
        if refusal:
            f = Finding("break", "env", e.name, "env-value", refusal, old=e.value, **common)
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
