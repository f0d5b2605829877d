"""Cross-release questions: an option's life story (``flags show``) and what changed between two
releases (``flags diff``, the upgrade audit)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .db import Database, Option, Surface


def describe_refusal(entry: dict[str, Any]) -> str:
    """``env_refused`` in words: when start-up refuses the variable, and vLLM's migration."""
    values = ", ".join(str(v) for v in entry.get("values") or [])
    how = entry.get("refused")
    text = {"any": "refused at start, any value", "except": f"refused at start unless {values}",
            "only": f"refused at start when {values}"}.get(how, "refused at start")
    if entry.get("ignored"):
        text += f" ({', '.join(entry['ignored'])} accepted and ignored)"
    moved = entry.get("migration") or {}
    named = [" ".join(w) for w in moved.get("options") or []] + list(moved.get("env") or [])
    if named:
        text += "; vLLM's migration: " + ", ".join(named)
    return text


def describe_change(what: str, old: Any, new: Any) -> str:
    """One line for a person: choices as additions and removals, anything else as old -> new."""
    import json

    if what == "choices" and isinstance(old, list) and isinstance(new, list):
        added = [c for c in new if c not in old]
        removed = [c for c in old if c not in new]
        parts = [f"+{c}" for c in added] + [f"-{c}" for c in removed]
        return "choices " + (", ".join(parts) if parts else "reordered")
    if what == "choices" and isinstance(old, list) and new is None:
        return f"choices no longer listed (any value; {len(old)} before)"
    return f"{what} {json.dumps(old)} -> {json.dumps(new)}"


def canonical_query(name: str) -> tuple[str, str]:
    """('option', '--swap-space') or ('env', 'VLLM_USE_V1') from any spelling a person types."""
    n = name.strip()
    if n.startswith("VLLM_") or (n.isupper() and "_" in n):
        return "env", n
    if n.startswith("-") and not n.startswith("--") and len(n) <= 6:
        return "option", n  # a short alias such as -tp
    bare = n.lstrip("-")
    return "option", "--" + bare.replace("_", "-")


@dataclass
class Change:
    version: str  # first release with the new value
    what: str  # default | choices | type | kind | deprecated
    old: Any
    new: Any


@dataclass
class OptionStory:
    name: str
    kind: str  # option | env
    ranges: list[tuple[str, str]]
    removed_in: list[str]  # releases right after each range that ended before the newest
    successor: Optional[str] = None
    successor_evidence: Optional[str] = None
    aliases: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    deprecated_from: Optional[str] = None
    canonical: Optional[str] = None  # when the query was an alias
    noop_at_removal: bool = False  # the curated overlay: it did nothing any more when removed
    # what the name was, per run of releases: (first, last, role), role "" for an option of its
    # own, "alias of X", "negation of X" or "rewritten to X" (by parse_args, not an argparse action)
    roles: list[tuple[str, str, str]] = field(default_factory=list)
    returned_in: list[str] = field(default_factory=list)  # first release of each later run

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "kind": self.kind, "canonical": self.canonical,
            "accepted": [{"first": a, "last": b} for a, b in self.ranges],
            "removed_in": self.removed_in, "successor": self.successor,
            "successor_evidence": self.successor_evidence, "deprecated_from": self.deprecated_from,
            "aliases": self.aliases, "noop_at_removal": self.noop_at_removal,
            "changes": [{"version": c.version, "what": c.what, "old": c.old, "new": c.new} for c in self.changes],
            "roles": [{"first": a, "last": b, "role": r} for a, b, r in self.roles],
            "returned_in": self.returned_in,
        }


def _fields(opt: Option) -> dict[str, Any]:
    return {
        "default": "(computed)" if opt.default_computed else opt.default,
        "choices": opt.choices,
        "type": opt.type,
        "kind": opt.kind,
    }


def _env_fields(rec: dict[str, Any]) -> dict[str, Any]:
    return {"default": "(computed)" if rec.get("default_computed") else rec.get("default"),
            "choices": rec.get("choices"), "type": rec.get("type")}


def _changes(version: str, old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """What differs between the field views of two consecutive releases."""
    if new == old:  # most fields of most options stay the same from one release to the next
        return []
    return [Change(version, k, old[k], new[k]) for k in new if new[k] != old[k]]


def story(db: Database, query: str, held: Optional[dict[str, dict[int, Option]]] = None) -> Optional[OptionStory]:
    """``query``'s life story. ``held``: every option string's option at each release position
    that accepts it (``Surface.by_string``), from a caller that read every release's table already
    (``site``: one pass over the releases for all options); by default each surface is asked."""
    kind, name = canonical_query(query)
    if kind == "env":
        hist = db.env_history(name)
        if hist is None:
            return None
        st = OptionStory(name, "env", hist.ranges, _removed(db, hist.ranges))
        ov = db.env_overlay(name) or {}
        st.successor, st.successor_evidence = ov.get("successor"), ov.get("evidence")
        prev = None
        for idx, v in enumerate(db.versions):
            if idx not in hist.indices:
                prev = None
                continue
            rec = db.surface(v).env.get(name, {})
            cur = _env_fields(rec)
            if rec.get("deprecated") and st.deprecated_from is None:
                st.deprecated_from = v
            if prev is not None:
                st.changes.extend(_changes(v, prev, cur))
            prev = cur
        return st
    hist = db.option_history(name)
    # a string parse_args rewrites into an option is accepted where the rewrite exists (-O from 0.12)
    rewritten = {i: to for i, v in enumerate(db.versions) if (to := db.surface(v).rewrites(name))} \
        if name == "-O" else {}
    if hist is None and not rewritten:
        return None
    indices = (hist.indices if hist is not None else set()) | set(rewritten)
    ranges = _runs(db, indices)
    st = OptionStory(name, "option", ranges, _removed(db, ranges))
    st.returned_in = [a for a, _ in ranges[1:]]
    ov = db.option_overlay(name) or {}
    st.successor, st.successor_evidence = ov.get("successor"), ov.get("evidence")
    st.noop_at_removal = bool(ov.get("noop_at_removal")) and bool(st.removed_in)
    prev: Optional[Option] = None  # the option at the release before, in the same run of releases
    strings: set[str] = set()
    roles: list[list[Any]] = []  # [first position, last position, role]: consecutive releases in one role
    found = held.get(name, {}) if held is not None else None
    last = -2
    for idx in sorted(indices):
        if idx != last + 1:  # a gap: no change is told across it
            prev = None
        last = idx
        v = db.versions[idx]
        if idx in rewritten and (hist is None or idx not in hist.indices):
            role = f"rewritten to {rewritten[idx]}"
            st.canonical = rewritten[idx]
            opt = None
        else:
            opt = found.get(idx) if found is not None else db.surface(v).lookup(name)
            if opt is None:
                continue
            if opt.name != name:
                st.canonical = opt.name
                role = f"{'negation' if name in opt.negations else 'alias'} of {opt.name}"
            else:
                st.canonical = None
                role = ""
        if roles and roles[-1][2] == role and roles[-1][1] == idx - 1:
            roles[-1][1] = idx
        else:
            roles.append([idx, idx, role])
        if opt is None:
            prev = None
            continue
        strings.add(opt.name)
        strings.update(opt.aliases)
        if opt.deprecated:
            if st.deprecated_from is None:
                st.deprecated_from = v
            if not st.successor and opt.deprecated.get("successor"):
                st.successor = opt.deprecated["successor"]
                st.successor_evidence = f"named by vLLM {v}'s deprecation"
        if prev is not None and (prev.default_computed, prev.default, prev.choices, prev.type, prev.kind) != (
                opt.default_computed, opt.default, opt.choices, opt.type, opt.kind):
            st.changes.extend(_changes(v, _fields(prev), _fields(opt)))
        prev = opt
    strings.discard(name)
    st.aliases = sorted(strings)
    st.roles = [(db.versions[a], db.versions[b], role) for a, b, role in roles]
    return st


def _runs(db: Database, indices: set[int]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for i in sorted(indices):
        if out and db.position(out[-1][1]) == i - 1:
            out[-1] = (out[-1][0], db.versions[i])
        else:
            out.append((db.versions[i], db.versions[i]))
    return out


def _removed(db: Database, ranges: list[tuple[str, str]]) -> list[str]:
    out = []
    for _, last in ranges:
        pos = db.position(last)
        if pos + 1 < len(db.versions):
            out.append(db.versions[pos + 1])
    return out


@dataclass
class SurfaceDiff:
    old: str
    new: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str, Optional[str]]] = field(default_factory=list)  # (old, new, evidence)
    deprecated: list[str] = field(default_factory=list)
    changed: list[tuple[str, str, Any, Any]] = field(default_factory=list)  # (option, what, old, new)
    env_added: list[str] = field(default_factory=list)
    env_removed: list[str] = field(default_factory=list)
    env_renamed: list[tuple[str, str, Optional[str]]] = field(default_factory=list)
    env_deprecated: list[str] = field(default_factory=list)
    env_changed: list[tuple[str, str, Any, Any]] = field(default_factory=list)
    deprecated_values: list[tuple[str, str, Optional[str]]] = field(default_factory=list)  # (option, value, successor)
    env_refused: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # newly refused at start

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.old, "to": self.new,
            "options": {
                "added": self.added, "removed": self.removed, "deprecated": self.deprecated,
                "renamed": [{"old": a, "new": b, "evidence": e} for a, b, e in self.renamed],
                "changed": [{"option": o, "what": w, "old": a, "new": b} for o, w, a, b in self.changed],
                "deprecated_values": [{"option": o, "value": v, "successor": su}
                                      for o, v, su in self.deprecated_values],
            },
            "env": {
                "added": self.env_added, "removed": self.env_removed, "deprecated": self.env_deprecated,
                "renamed": [{"old": a, "new": b, "evidence": e} for a, b, e in self.env_renamed],
                "changed": [{"variable": o, "what": w, "old": a, "new": b} for o, w, a, b in self.env_changed],
                "refused_at_start": [{"variable": n, **e} for n, e in self.env_refused],
            },
        }


def _strings(s: Surface) -> dict[str, Option]:
    return dict(s.by_string.items())  # (a surface read in pieces answers items() from its whole table)


def diff(db: Database, old: str, new: str) -> SurfaceDiff:
    a, b = db.surface(old), db.surface(new)
    d = SurfaceDiff(a.version, b.version)
    sa, sb = _strings(a), _strings(b)
    removed = sorted(set(sa) - set(sb))
    d.added = sorted(set(sb) - set(sa))
    for s in removed:
        ov = db.option_overlay(s) or {}
        succ = ov.get("successor")
        if not succ:
            dep = sa[s].deprecated or {}
            succ = dep.get("successor")
        if succ and succ.partition(".")[0] in sb:
            d.renamed.append((s, succ, ov.get("evidence") or "named by vLLM's deprecation"))
        else:
            d.removed.append(s)
    for s in sorted(set(sa) & set(sb)):
        oa, ob = sa[s], sb[s]
        if s != ob.name:
            continue  # report each action once, under its canonical name in the new release
        if ob.deprecated and not oa.deprecated:
            d.deprecated.append(s)
        if ob.deprecated_values:  # (few options deprecate values)
            for value, entry in sorted(ob.deprecated_values.items()):
                if value not in oa.deprecated_values:
                    d.deprecated_values.append((s, value, (entry or {}).get("successor")))
        if (oa.default_computed, oa.default, oa.choices, oa.type, oa.kind) == (
                ob.default_computed, ob.default, ob.choices, ob.type, ob.kind):
            continue  # the same field views (the common case): nothing to compare
        d.changed.extend((s, c.what, c.old, c.new) for c in _changes(b.version, _fields(oa), _fields(ob)))
    ea, eb = dict(a.env.items()), dict(b.env.items())
    for n in sorted(set(ea) - set(eb)):
        ov = db.env_overlay(n) or {}
        if ov.get("successor") and ov["successor"] in eb:
            d.env_renamed.append((n, ov["successor"], ov.get("evidence")))
        else:
            d.env_removed.append(n)
    d.env_added = sorted(set(eb) - set(ea))
    d.env_refused = [(n, e) for n, e in sorted(b.env_refused.items()) if a.env_refused.get(n) != e]
    for n in sorted(set(ea) & set(eb)):
        ra, rb = ea[n], eb[n]
        if ra == rb:  # most variables' records stay the same from one release to the next
            continue
        if rb.get("deprecated") and not ra.get("deprecated"):
            d.env_deprecated.append(n)
        d.env_changed.extend((n, c.what, c.old, c.new) for c in _changes(b.version, _env_fields(ra), _env_fields(rb)))
    return d
