"""Default drift: the options a launch does not set whose default differs between A and B (also
through a rename, onto its successor's default), with every release where it changed."""

from __future__ import annotations

from typing import Any, Optional

from ...argv import ParsedArg
from ...launch import Launch
from ...surface.db import Database, Surface
from .model import EMPTY, Finding, fmt_value
from .releases import in_range, successor, versions_between
from .semantic import translate


class DriftFinder:
    """The default drift of one upgrade to ``to``."""

    def __init__(self, db: Database, to: str):
        self.db = db
        self.to = to

    def drift(self, sa: Surface, sb: Surface, args_a: list[ParsedArg], args_b: list[ParsedArg],
               launch: Launch) -> list[Finding]:
        if launch.style == "kwargs":
            return self._drift_engine_args(sa, sb, args_a, args_b)
        set_dests = {x.option.dest for x in [*args_a, *args_b] if x.option is not None}
        if any(x.positional for x in args_a) or launch.model is not None:
            # the model named outside the options (a positional, a chart's modelURL) is set
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
                                  (translate(ob.dest, oa.dest, ob.default), ob.default_computed), sa.version,
                                  "default")
                if f:
                    out.append(f)
                continue
            # gone under this name: drift only if it moved to a successor with another default
            hist = self.db.option_history(oa.name)
            last = self.db.last_accepting(hist, sb.version) if hist else None
            succ, evidence = successor(self.db, oa.name, last or sa.version)
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
                shown_a = "(computed)" if f.old_computed else fmt_value(f.old)
                shown_b = "(computed)" if f.new_computed else fmt_value(f.new)
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
        empty = known and dva in EMPTY and dvb in EMPTY
        shown_a = "(computed)" if ca else fmt_value(dva)
        shown_b = "(computed)" if cb else fmt_value(dvb)
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
            for v in [frm, *versions_between(self.db, frm, self.to)]:
                rec = self.db.surface(v).engine_args.get(name)
                cur = None if rec is None else ("(computed)" if rec.get("default_computed") else rec.get("default"))
                if prev is not None and rec is not None and cur != prev[0] and v != frm:
                    steps.append({"version": v, "old": prev[0], "new": cur})
                prev = (cur,) if rec is not None else None
            return steps
        from ...surface.timeline import story

        st = story(self.db, name)
        if st is None:
            return []
        return [{"version": c.version, "old": c.old, "new": c.new} for c in st.changes
                if c.what == "default" and in_range(self.db, c.version, frm, self.to)]
