"""What the pages say, gathered from the flag database in one pass over the releases.

Everything is read through ``surface.db.Database`` (surfaces, histories, overlays) and
``surface.timeline`` (an option's story, a release diff, how a change is worded), so the website
says what ``vllm-lint flags show`` and ``flags diff`` say. Release positions below are indices
into ``Database.versions``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable, Optional

from ..surface.db import Database, Surface
from ..surface.timeline import OptionStory, SurfaceDiff, describe_change, diff, story

# vLLM's documentation of each release is a version of its Read the Docs project, docs.vllm.ai/en/v<release>/
# (the project's version list has one for every release tag from 0.4.0.post1 on, without gaps; 0.4.0
# has none). Where the engine-arguments and environment-variables pages sit in it moved over the
# years; these eras are read from the docs/ trees the sdists ship (0.6.2 on) and their mkdocs.yaml
# (``use_directory_urls: false`` up to 0.11.0, so ``page.html``; folder URLs from 0.11.1 on). Before
# 0.6.2 the sdists ship no docs: the engine-arguments page is cited at 0.4.0.post1, 0.4.1, 0.4.2 and
# 0.5.3 under models/, and no release before 0.6.2 is linked to an environment-variables page.
DOCS_URL = "https://docs.vllm.ai/en/v{version}/{page}"
DOC_ERAS: list[tuple[str, Optional[str], str, Optional[str]]] = [
    # (first release, last release or None for "to the newest", engine-arguments page, env-vars page)
    ("0.4.0.post1", "0.6.1.post2", "models/engine_args.html", None),
    ("0.6.2", "0.6.4.post1", "models/engine_args.html", "serving/env_vars.html"),
    ("0.6.5", "0.6.6.post1", "usage/engine_args.html", "usage/env_vars.html"),
    ("0.7.0", "0.8.5.post1", "serving/engine_args.html", "serving/env_vars.html"),
    ("0.9.0", "0.11.0", "configuration/engine_args.html", "configuration/env_vars.html"),
    ("0.11.1", None, "configuration/engine_args/", "configuration/env_vars/"),
]

# why a release has no link (see ``DOC_ERAS``): before the first documented version, or no such page
NO_DOCS = "no documentation of its own on docs.vllm.ai (its versions start at {first})"
NO_DOC_PAGE = ("no engine-arguments page is known in its documentation",
               "no environment-variables page is known in the documentation of releases before {first}")


@lru_cache(maxsize=1)
def _doc_eras() -> list[tuple[Any, Any, tuple[Optional[str], ...]]]:
    """``DOC_ERAS`` with its bounds parsed: (first, last or None, pages)."""
    from ..surface.version import Version

    return [(Version(first), Version(last) if last else None, tuple(pages)) for first, last, *pages in DOC_ERAS]


def doc_gap(version: str, which: int) -> str:
    """Why ``doc_url(version, which)`` is None, in the words of the pages."""
    from ..surface.version import InvalidVersion, Version

    first = DOC_ERAS[0][0]
    try:
        if Version(version) < _doc_eras()[0][0]:
            return NO_DOCS.format(first=first)
    except InvalidVersion:
        return NO_DOCS.format(first=first)
    linked = [era[0] for era in DOC_ERAS if era[2 + which]]
    return NO_DOC_PAGE[which].format(first=linked[0] if linked else first)


def doc_url(version: str, which: int) -> Optional[str]:
    """The page of release ``version``'s own docs for engine arguments (``which`` 0) or
    environment variables (1), or None where it has none (see ``DOC_ERAS``)."""
    from ..surface.version import InvalidVersion, Version

    try:
        v = Version(version)
    except InvalidVersion:
        return None
    for first, last, pages in _doc_eras():
        if first <= v and (last is None or v <= last):
            page = pages[which]
            return DOCS_URL.format(version=version, page=page) if page else None
    return None


_SEGMENT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def path_segment(name: str) -> str:
    """``name`` as one folder name of the site, the same on every file system, from disk and from a
    server: letters, digits, ``-`` and ``_`` stay; any other character (``/``, ``.``, ``%``, ``?``,
    ``#``, ``\\``, a space, non-ASCII) becomes ``~`` and two hex digits per UTF-8 byte, so a
    database's name can neither leave its folder (a parent's name, a slash) nor be read as a query or
    a fragment; an empty name is ``~``. The names of the shipped database have no such character:
    their addresses are unchanged. ``static/compare.js`` (``segment``) escapes the same way."""
    if name and _SEGMENT_CHARS.issuperset(name):
        return name
    return "".join(c if c in _SEGMENT_CHARS else "".join(f"~{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
                   for c in name) or "~"


def option_slug(string: str) -> str:
    """The folder of an option string's page: ``--swap-space`` -> ``swap-space``, ``-tp`` -> ``-tp``
    (escaped: :func:`path_segment`)."""
    return path_segment(string[2:] if string.startswith("--") else string)


def option_url(string: str) -> str:
    return f"options/{option_slug(string)}/index.html"


def env_url(name: str) -> str:
    return f"env/{path_segment(name)}/index.html"


def release_url(version: str) -> str:
    return f"releases/{version}/index.html"


def compare_url(old: str, new: str) -> str:
    return f"compare/{old}...{new}/index.html"


def runs(indices: Iterable[int]) -> list[tuple[int, int]]:
    """Consecutive runs of release positions, inclusive."""
    out: list[list[int]] = []
    for i in sorted(set(indices)):
        if out and out[-1][1] == i - 1:
            out[-1][1] = i
        else:
            out.append([i, i])
    return [(a, b) for a, b in out]


def value_runs(values: dict[int, Any]) -> list[tuple[int, int, Any]]:
    """Runs of consecutive positions holding the same value: ``[(first, last, value)]`` (a run's
    value is its first position's)."""
    positions = sorted(values)
    return value_runs_in(positions, [values[i] for i in positions])


def value_eras(versions: list[str], positions: list[int], values: list[Any]) -> list["Era"]:
    """``value_runs_in`` as eras."""
    return [Era(versions, a, b, v) for a, b, v in value_runs_in(positions, values)]


def value_runs_in(positions: list[int], values: list[Any]) -> list[tuple[int, int, Any]]:
    """``value_runs`` of sorted ``positions`` and the value at each."""
    out: list[tuple[int, int, Any]] = []
    first = last = -2
    held: Any = None
    for i, v in zip(positions, values):
        if last == i - 1 and held == v:
            last = i
            continue
        if last >= 0:
            out.append((first, last, held))
        first = last = i
        held = v
    if last >= 0:
        out.append((first, last, held))
    return out


_SHOWN: dict[tuple[type, Any], str] = {}
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps(value, ensure_ascii=False), without a new encoder each call


def shown(value: Any) -> str:
    """A value as the terminal commands print it (JSON); scalars memoised (the compare data
    formats every field of every release)."""
    if value is None or isinstance(value, (str, int, float)):
        key = (value.__class__, value)
        text = _SHOWN.get(key)
        if text is None:
            text = _SHOWN[key] = _ENCODE(value)
        return text
    return _ENCODE(value)


def env_tables(surface: Surface) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """A release's runtime and build-time environment variables.

    Runtime variables are the release's ``env`` table. Build-time variables are shown where the
    database tells them apart: a ``build_env`` table beside ``env``, or ``env`` entries whose
    ``scope`` is ``"build"``. A database without either has runtime variables only."""
    runtime: dict[str, dict[str, Any]] = {}
    build: dict[str, dict[str, Any]] = {}
    for name, rec in surface.env.items():
        rec = rec if isinstance(rec, dict) else {}
        (build if rec.get("scope") == "build" else runtime)[name] = rec
    extra = surface.record.get("build_env")
    if isinstance(extra, list):  # the shipped database: the names vLLM's build reads (scrape/env_reads.py)
        extra = {name: {} for name in extra}
    if isinstance(extra, dict):
        for name, rec in extra.items():
            build[name] = rec if isinstance(rec, dict) else {}
    return runtime, build


class Era:
    """A run of releases ``first..last`` (versions) in which something held ``value``."""

    __slots__ = ("first", "last", "value", "a", "b")

    def __init__(self, versions: list[str], a: int, b: int, value: Any = None) -> None:
        self.a, self.b, self.value = a, b, value
        self.first, self.last = versions[a], versions[b]

    @property
    def label(self) -> str:
        return self.first if self.first == self.last else f"{self.first} .. {self.last}"


class FieldChange:
    __slots__ = ("version", "what", "old", "new", "text")

    def __init__(self, version: str, what: str, old: Any, new: Any) -> None:
        self.version, self.what, self.old, self.new = version, what, old, new
        self.text = describe_change(what, old, new)


def _field_view(rec: dict[str, Any]) -> dict[str, Any]:
    return {"default": "(computed)" if rec.get("default_computed") else rec.get("default"),
            "choices": rec.get("choices"), "type": rec.get("type")}


def field_changes(versions: list[str], records: dict[int, dict[str, Any]]) -> list[FieldChange]:
    """Changes of ``default``/``choices``/``type`` between consecutive releases that both hold the
    record (as ``flags show`` reports them: a computed default reads ``(computed)``)."""
    out: list[FieldChange] = []
    prev: Optional[dict[str, Any]] = None
    prev_i = -2
    for i in sorted(records):
        rec = records[i]
        if prev is not None and prev_i == i - 1 and rec != prev:  # (most records stay the same)
            out.extend(_field_changes(versions[i], prev, rec))
        prev, prev_i = rec, i
    return out


def _field_changes(version: str, prev: dict[str, Any], rec: dict[str, Any]) -> list[FieldChange]:
    """``field_changes`` of two consecutive records."""
    old, cur = _field_view(prev), _field_view(rec)
    if cur == old:
        return []
    return [FieldChange(version, k, old[k], cur[k]) for k in cur if cur[k] != old[k]]


class JsonKey:
    """One key of a JSON option's config class, with its own history."""

    __slots__ = ("name", "eras", "changes", "latest")

    def __init__(self, name: str, eras: list[Era], changes: list[FieldChange], latest: dict[str, Any]) -> None:
        self.name, self.eras, self.changes, self.latest = name, eras, changes, latest


class OptionPage:
    """Everything an option's page shows. ``canonical``: releases where this string is an
    action's first long option string; ``spelling_eras``: who owned the string, release by
    release (itself, or another option it was an alias of)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.slug = option_slug(name)
        self.url = option_url(name)
        self.story: Optional[OptionStory] = None
        self.canonical: list[int] = []
        self.accepted: list[int] = []
        self.spelling_eras: list[Era] = []
        self.deprecated_eras: list[Era] = []
        self.config_eras: list[Era] = []
        self.kind_eras: list[Era] = []
        self.alias_eras: list[Era] = []
        self.json_classes: list[Era] = []
        self.json_keys: list[JsonKey] = []
        self.docs: list[tuple[str, str]] = []  # (version, url)
        self.docs_missing: list[Era] = []  # runs of canonical releases without a docs link, and why
        self.era_notes: dict[int, str] = {}  # spelling era (first position) -> how vLLM reads it there
        self.successor_url: Optional[str] = None
        self.latest: Any = None  # the Option at the newest release that had it as canonical

    @property
    def is_canonical(self) -> bool:
        return bool(self.canonical)


class EnvPage:
    def __init__(self, name: str) -> None:
        self.name = name
        self.url = env_url(name)
        self.runtime: list[int] = []
        self.build: list[int] = []
        self.eras: list[Era] = []  # accepted runs
        self.category_eras: list[Era] = []  # value: "runtime" | "build" | "runtime and build"
        self.deprecated_eras: list[Era] = []
        self.changes: list[FieldChange] = []
        self.removed_in: list[str] = []
        self.successor: Optional[str] = None
        self.successor_url: Optional[str] = None
        self.evidence: Optional[str] = None
        self.note: Optional[str] = None
        self.latest: dict[str, Any] = {}
        self.docs: list[tuple[str, str]] = []
        self.docs_missing: list[Era] = []  # runs of runtime releases without a docs link, and why

    @property
    def categories(self) -> list[str]:
        return [c for c, idx in (("runtime", self.runtime), ("build", self.build)) if idx]


class ReleasePage:
    def __init__(self, version: str, index: int) -> None:
        self.version = version
        self.index = index
        self.url = release_url(version)
        self.prev: Optional[str] = None
        self.next: Optional[str] = None
        self.diff: Optional[SurfaceDiff] = None
        self.options = 0  # actions (canonical names)
        self.strings = 0  # every option string
        self.env = 0
        self.build_env = 0
        self.source: dict[str, Any] = {}


class SiteModel:
    """The whole site's content, computed once from a database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.versions: list[str] = list(db.versions)
        self.newest = db.newest
        self.pos = {v: i for i, v in enumerate(self.versions)}
        self.surfaces = [db.surface(v) for v in self.versions]
        self.env_by_release = [env_tables(s) for s in self.surfaces]  # (runtime, build) per release
        self.options: dict[str, OptionPage] = {}
        self.env: dict[str, EnvPage] = {}
        self.releases: list[ReleasePage] = []
        self.compares: dict[tuple[str, str], SurfaceDiff] = {}
        self.warnings: list[str] = []  # names of the database left out of the site, and why (one line each)
        self._gather_options()
        self._gather_env()
        self._gather_releases()

    # ------------------------------------------------------------------ docs links
    def _docs(self, indices: Iterable[int], which: int) -> tuple[list[tuple[str, str]], list[Era]]:
        """``(version, url)`` of each release's own docs page, and the runs of releases without
        one (each run's value says why)."""
        # most options and variables were accepted by the same runs of releases: one answer per run
        memo = (tuple(sorted(indices)), which)
        hit = self._docs_memo.get(memo)
        if hit is not None:
            return list(hit[0]), list(hit[1])
        out: list[tuple[str, str]] = []
        missing: dict[int, str] = {}
        for i in memo[0]:
            key = (i, which)
            if key not in self._doc_cache:
                self._doc_cache[key] = doc_url(self.versions[i], which)
            url = self._doc_cache[key]
            if url:
                out.append((self.versions[i], url))
            else:
                missing[i] = doc_gap(self.versions[i], which)
        eras = [Era(self.versions, a, b, why) for a, b, why in value_runs(missing)]
        self._docs_memo[memo] = (out, eras)
        return list(out), list(eras)

    _doc_cache: dict[tuple[int, int], Optional[str]]
    _docs_memo: dict[tuple[tuple[int, ...], int], tuple[list[tuple[str, str]], list[Era]]]

    # ------------------------------------------------------------------ options
    def _gather_options(self) -> None:
        self._doc_cache = {}
        self._docs_memo = {}
        held: dict[str, dict[int, Any]] = {}  # string -> release -> the Option it is there (its story's)
        actions: dict[str, dict[int, Any]] = {}  # canonical name -> release -> Option
        # each release's JSON options' configs (``Surface.json_config_for``), decoded whole: the site
        # asks for every entry
        self._json_configs: dict[int, dict[str, Any]] = {}
        # (the releases are visited in order: each per-release dict below holds them ascending)
        for i, s in enumerate(self.surfaces):
            for opt in s.options:
                per = actions.get(opt.name)
                if per is None:
                    per = actions[opt.name] = {}
                per[i] = opt
                if opt.kind == "json" and i not in self._json_configs:
                    self._json_configs[i] = dict(s.json_configs.items())
            for string, opt in s.by_string.items():
                per = held.get(string)
                if per is None:
                    per = held[string] = {}
                per[i] = opt
        # -O from 0.12.0 is no parser string: vLLM rewrites it into --optimization-level before
        # parsing (Surface.o_flag), so the spelling still means that option there
        rewritten = [i for i, s in enumerate(self.surfaces) if rewrites_o(s)]
        strings = set(held)
        if rewritten:
            strings.add("-O")
        v = self.versions
        for string in sorted(strings):
            page = OptionPage(string)
            per = held.get(string) or {}
            if string == "-O" and rewritten:
                # string -> release -> the canonical name owning it
                owner = {i: opt.name for i, opt in per.items()}
                owner.update(dict.fromkeys(rewritten, "--optimization-level"))
                page.accepted = sorted(owner)
                page.spelling_eras = value_eras(v, page.accepted, [owner[i] for i in page.accepted])
                page.era_notes = {e.a: "vLLM rewrites -O3 and -O 3 into --optimization-level 3 before parsing; "
                                       "-O.key is no --compilation-config key any more"
                                  for e in page.spelling_eras if e.a in rewritten}
            else:
                page.accepted = list(per)
                page.spelling_eras = value_eras(v, page.accepted, [opt.name for opt in per.values()])
            self.options[string] = page
        for name, per_release in actions.items():
            self._fill_option(self.options[name], per_release)
        for page in list(self.options.values()):
            if not page.is_canonical:
                continue  # a spelling's page lists its eras; only options tell a story
            page.story = story(self.db, page.name, held)
            if page.story is None:
                # a name no query reads back (no option string: ``/``, ``plain``, ``--a_b``): its
                # history cannot be told, so it gets no page (and no link) rather than a broken one
                del self.options[page.name]
                self.warnings.append(f"option {page.name!r} in the database is no option string its "
                                     "history can be read for: no page")
                continue
            succ = page.story.successor if page.story else None
            if succ:
                page.successor_url = self.option_link(succ)

    def option_link(self, string: Optional[str]) -> Optional[str]:
        """The page of an option string, or of the JSON option a dotted key belongs to."""
        if not string:
            return None
        if string in self.options:
            return self.options[string].url
        head, dot, key = string.partition(".")
        if dot and head in self.options:
            return self.options[head].url + "#key-" + key.split(".")[0]
        return None

    def _fill_option(self, page: OptionPage, per_release: dict[int, Any]) -> None:
        v = self.versions
        page.canonical = list(per_release)  # (ascending: _gather_options)
        page.latest = per_release[page.canonical[-1]]
        dep = self.db.deprecated_history(page.name)
        page.deprecated_eras = [Era(v, a, b) for a, b in runs(dep.indices & per_release.keys())] if dep else []
        # the runs of its config field, its (kind, type) and its aliases, in one pass: [first, last, value]
        config: list[list[Any]] = []
        kind: list[list[Any]] = []
        alias: list[list[Any]] = []
        last = -2
        for i, o in per_release.items():
            c, k, a = o.config, (o.kind, o.type), o.aliases
            if last == i - 1:
                r = config[-1]
                if r[2] == c:
                    r[1] = i
                else:
                    config.append([i, i, c])
                r = kind[-1]
                if r[2] == k:
                    r[1] = i
                else:
                    kind.append([i, i, k])
                r = alias[-1]
                if r[2] == a:
                    r[1] = i
                else:
                    alias.append([i, i, a])
            else:
                config.append([i, i, c])
                kind.append([i, i, k])
                alias.append([i, i, a])
            last = i
        page.config_eras = [Era(v, a, b, val) for a, b, val in config]
        page.kind_eras = [Era(v, a, b, val) for a, b, val in kind]
        page.alias_eras = [Era(v, a, b, tuple(val)) for a, b, val in alias]
        page.docs, page.docs_missing = self._docs(page.canonical, 0)
        keys: dict[str, dict[int, dict[str, Any]]] = {}
        classes: dict[int, Any] = {}
        for i, opt in per_release.items():
            if opt.kind != "json":
                continue
            cfg = self._json_configs[i].get(opt.dest)  # (json_config_for)
            if not isinstance(cfg, dict):
                continue
            classes[i] = cfg.get("class")
            for key, rec in (cfg.get("fields") or {}).items():
                keys.setdefault(key, {})[i] = rec if isinstance(rec, dict) else {}
        page.json_classes = [Era(v, a, b, val) for a, b, val in value_runs(classes)]
        for key in sorted(keys):
            recs = keys[key]
            page.json_keys.append(JsonKey(key, [Era(v, a, b) for a, b in runs(recs)], field_changes(v, recs),
                                          recs[max(recs)]))

    # ------------------------------------------------------------------ environment
    def _gather_env(self) -> None:
        v = self.versions
        records: dict[str, dict[int, dict[str, Any]]] = {}
        runtime: dict[str, list[int]] = {}
        build: dict[str, list[int]] = {}
        # (the releases are visited in order: each name's positions and records ascending)
        for i, tables in enumerate(self.env_by_release):
            # (runtime first: a name in both tables of a release keeps its runtime record)
            for table, positions in zip(tables, (runtime, build)):
                for name, rec in table.items():
                    at = positions.get(name)
                    if at is None:
                        positions[name] = [i]
                    else:
                        at.append(i)
                    per = records.get(name)
                    if per is None:
                        records[name] = {i: rec}
                    elif i not in per:
                        per[i] = rec
        for name in sorted(records):
            page = EnvPage(name)
            recs = records[name]
            page.runtime, page.build = runtime.get(name, []), build.get(name, [])
            # in one pass: the runs read, of each category, deprecated; the field changes
            rt, bd = set(page.runtime), set(page.build)
            read: list[list[int]] = []
            cats: list[list[Any]] = []
            deps: list[list[int]] = []
            changes: list[FieldChange] = []
            last = -2
            prev: Any = None
            for i, rec in recs.items():
                cat = ("runtime and build" if i in bd else "runtime") if i in rt else "build"
                if last == i - 1:
                    read[-1][1] = i
                    r = cats[-1]
                    if r[2] == cat:
                        r[1] = i
                    else:
                        cats.append([i, i, cat])
                    if rec != prev:  # (most records stay the same)
                        changes.extend(_field_changes(v[i], prev, rec))
                else:
                    read.append([i, i])
                    cats.append([i, i, cat])
                if rec.get("deprecated"):
                    if deps and deps[-1][1] == i - 1:
                        deps[-1][1] = i
                    else:
                        deps.append([i, i])
                last, prev = i, rec
            page.eras = [Era(v, a, b) for a, b in read]
            page.category_eras = [Era(v, a, b, val) for a, b, val in cats]
            page.deprecated_eras = [Era(v, a, b) for a, b in deps]
            page.changes = changes
            page.removed_in = [v[e.b + 1] for e in page.eras if e.b + 1 < len(v)]
            ov = self.db.env_overlay(name) or {}
            page.successor, page.evidence, page.note = ov.get("successor"), ov.get("evidence"), ov.get("note")
            page.latest = recs[max(recs)]
            page.docs, page.docs_missing = self._docs(page.runtime, 1)
            self.env[name] = page
        for page in self.env.values():
            if page.successor:
                page.successor_url = (self.env[page.successor].url if page.successor in self.env
                                      else self.option_link(page.successor))

    # ------------------------------------------------------------------ releases
    def _gather_releases(self) -> None:
        for i, (version, s) in enumerate(zip(self.versions, self.surfaces)):
            page = ReleasePage(version, i)
            page.prev = self.versions[i - 1] if i else None
            page.next = self.versions[i + 1] if i + 1 < len(self.versions) else None
            page.options = len(s.options)
            page.strings = len(s.by_string)
            rt, bd = self.env_by_release[i]
            page.env, page.build_env = len(rt), len(bd)
            page.source = s.record.get("source") or {}
            if page.prev:
                page.diff = self.compare(page.prev, version)
            self.releases.append(page)

    def compare(self, old: str, new: str) -> SurfaceDiff:
        d = self.compares.get((old, new))
        if d is None:
            d = self.compares[(old, new)] = diff(self.db, old, new)
        return d

    # ------------------------------------------------------------------ the index page
    def counts(self) -> dict[str, int]:
        return {
            "releases": len(self.versions),
            "options": sum(1 for p in self.options.values() if p.is_canonical),
            "spellings": len(self.options),
            "env": sum(1 for p in self.env.values() if p.runtime),
            "build_env": sum(1 for p in self.env.values() if p.build),
        }


# ---------------------------------------------------------------------- the upgrade guide
class GuideItem:
    """One entry of a comparison read as an upgrade guide: the option strings (one, or ``--x``
    and ``--no-x`` of the same option), where it went (a rename), and what to do or what changed
    (``sep`` before it; backquoted words are code). ``static/compare.js`` words its entries alike."""

    __slots__ = ("names", "to", "sep", "text")

    def __init__(self, names: tuple[str, ...], to: Optional[str] = None, text: Optional[str] = None,
                 sep: str = " \u2014 ") -> None:
        self.names, self.to, self.text, self.sep = names, to, text, sep

    def plain(self) -> str:
        """The entry as its list item reads (what a browser shows of it)."""
        out = " / ".join(self.names) + (f" \u2192 {self.to}" if self.to else "")
        return out + (self.sep + self.text.replace("`", "") if self.text else "")


class GuideSection:
    __slots__ = ("id", "title", "env", "items")

    def __init__(self, id: str, title: str, env: bool, items: list[GuideItem]) -> None:
        self.id, self.title, self.env, self.items = id, title, env, items


def negatable_groups(names: list[str], owner: dict[str, Any]) -> list[tuple[str, ...]]:
    """``names`` in order, ``--x`` and ``--no-x`` of the same option (``owner``: string -> its
    option) as one group, under ``--x``."""
    present = set(names)
    out: list[tuple[str, ...]] = []
    for s in names:
        if s.startswith("--no-") and "--" + s[5:] in present and owner.get(s) == owner.get("--" + s[5:]):
            continue
        neg = "--no-" + s[2:]
        out.append((s, neg) if s.startswith("--") and neg in present and owner.get(neg) == owner.get(s) else (s,))
    return out


def removal_todo(overlay: dict[str, Any], successor: Optional[str], new: str) -> str:
    """What to do with a removed option: its successor (where it is gone as well), the overlay's
    advice, or delete it."""
    if successor:
        return f"its successor `{successor}` is not in {new} either"
    if overlay.get("note"):
        return str(overlay["note"])
    if overlay.get("noop_at_removal"):
        return "it had no effect by then: delete it"
    return "no replacement: delete it"


def env_removal_todo(overlay: dict[str, Any], new: str) -> str:
    succ = overlay.get("successor")
    if succ and succ.startswith("-"):
        return f"use `{succ}` instead"
    if succ:
        return f"its successor `{succ}` is not in {new} either"
    if overlay.get("note"):
        return str(overlay["note"])
    return "no longer read: delete it"


# -O from 0.12.0 is no parser string, yet still accepted (see ``SiteModel._gather_options``)
O_REWRITTEN = ("still accepted: vLLM rewrites `-O3` into `--optimization-level 3` before parsing; "
               "`-O.key` is no `--compilation-config` key any more")


def rewrites_o(s: Surface) -> bool:
    return "-O" not in s.by_string and s.o_flag == "optimization-level" and "--optimization-level" in s.by_string


def migration_guide(db: Database, d: SurfaceDiff) -> list[GuideSection]:
    """``d`` (``timeline.diff``) as an upgrade guide: what a launch written for ``d.old`` must
    change for ``d.new`` first (removals with what to do, renames, changes with both values,
    deprecations with their successor, the environment), then what is new."""
    a, b = db.surface(d.old), db.surface(d.new)
    owners_a = {s: o.name for s, o in a.by_string.items()}
    owners_b = {s: o.name for s, o in b.by_string.items()}

    def removed(group: tuple[str, ...]) -> GuideItem:
        s = group[0]
        if s == "-O" and rewrites_o(b):
            return GuideItem(group, text=O_REWRITTEN)
        ov = db.option_overlay(s) or {}
        succ = ov.get("successor") or (a.by_string[s].deprecated or {}).get("successor")
        return GuideItem(group, text=removal_todo(ov, succ, d.new))

    def renamed(old: str, new: str) -> GuideItem:
        head, dot, key = new.partition(".")
        return GuideItem((old,), to=new, text=f"now the key `{key}` of `{head}`'s JSON" if dot else None)

    def deprecated(s: str) -> GuideItem:
        succ = (db.option_overlay(s) or {}).get("successor") or (b.by_string[s].deprecated or {}).get("successor")
        return GuideItem((s,), text=f"use `{succ}` instead" if succ else None)

    def changed(items: list[tuple[str, str, Any, Any]]) -> list[GuideItem]:
        return [GuideItem((n,), text=describe_change(w, x, y), sep=": ") for n, w, x, y in items]

    return [
        GuideSection("removed", "Removed options: what to do", False,
                     [removed(g) for g in negatable_groups(d.removed, owners_a)]),
        GuideSection("renamed", "Renamed options", False, [renamed(o, n) for o, n, _ in d.renamed]),
        GuideSection("changed", "Changed defaults, choices and types", False, changed(d.changed)),
        GuideSection("deprecated", "Newly deprecated options", False, [deprecated(s) for s in d.deprecated]),
        GuideSection("env-removed", "Removed environment variables: what to do", True,
                     [GuideItem((n,), text=env_removal_todo(db.env_overlay(n) or {}, d.new)) for n in d.env_removed]),
        GuideSection("env-renamed", "Renamed environment variables", True,
                     [GuideItem((o,), to=n) for o, n, _ in d.env_renamed]),
        GuideSection("env-changed", "Changed environment variables", True, changed(d.env_changed)),
        GuideSection("env-deprecated", "Newly deprecated environment variables", True,
                     [GuideItem((n,)) for n in d.env_deprecated]),
        GuideSection("added", "Added options", False, [GuideItem(g) for g in negatable_groups(d.added, owners_b)]),
        GuideSection("env-added", "Added environment variables", True, [GuideItem((n,)) for n in d.env_added]),
    ]
