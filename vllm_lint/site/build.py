"""Rendering the site: every page of ``SiteModel`` (written by ``pages``) into OUTDIR.

Links are relative and name ``index.html`` (the site works opened from disk); the search index
and the compare data are scripts, not fetched JSON (``fetch`` of ``file://`` is blocked). Output is
deterministic: sorted inputs, no timestamps, files written in a fixed order.
"""

from __future__ import annotations

import gc
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

from ..surface.db import Database
from . import model as m
from . import pages
from .pages import h
from .svg import Timeline

HERE = Path(__file__).parent
MARKER = "vllm-lint-site.txt"  # a folder holding it was built by this command and may be rebuilt


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _cache_folder(name: str) -> Optional[Path]:
    """A folder of the site generator's cache in the user's cache folder (as Python keeps
    ``.pyc`` files: what it holds is keyed by its inputs, so a stale entry is never used), or None
    where it cannot be made (the build then does the work every time)."""
    import platformdirs

    folder = Path(platformdirs.user_cache_dir("vllm-lint")) / name
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return folder


MD_CONFIG = "commonmark, html off, tables"
DOCS_CACHE_ENTRIES = 8  # what _md() builds: part of the rendered docs' cache key


def _md():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _sha256(data: bytes) -> Any:
    """``hashlib.sha256(data)``, from CPython's own module where it has one (``hashlib`` loads
    OpenSSL first: ~5 ms of a build)."""
    try:
        from _sha2 import sha256  # type: ignore[import-not-found]  # Python 3.12+
    except ImportError:
        try:
            from _sha256 import sha256  # type: ignore[import-not-found,no-redef]  # Python 3.11
        except ImportError:
            from hashlib import sha256
    return sha256(data)


def render_docs(docs: list[str]) -> list[str]:
    """Markdown texts as HTML. The result is kept in the cache folder, keyed by the texts, the
    renderer's configuration and markdown-it's installed files, so a rebuild with unchanged rule
    docs does not import markdown-it at all."""
    import importlib.util

    spec = importlib.util.find_spec("markdown_it")
    origin = spec.origin if spec and spec.origin else ""
    try:
        st = os.stat(origin)
        stamp = f"{origin}|{st.st_size}|{st.st_mtime_ns}"
    except OSError:
        stamp = None
    folder = _cache_folder("site-docs") if stamp else None
    file = None
    if folder:
        h = _sha256("\0".join([MD_CONFIG, stamp or "", *docs]).encode("utf-8")).hexdigest()
        file = folder / f"{h[:32]}.json"
        try:
            cached = json.loads(file.read_text(encoding="utf-8"))
            if isinstance(cached, list) and len(cached) == len(docs) and all(isinstance(x, str) for x in cached):
                return cached
        except (OSError, ValueError):
            pass
    md = _md()
    html = [md.render(doc) for doc in docs]
    if file is not None:
        try:
            fd, tmp = tempfile.mkstemp(dir=file.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(html, f)
            os.replace(tmp, file)
            # a few entries (checkouts, environments) are kept; older ones go
            entries = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in entries[DOCS_CACHE_ENTRIES:]:
                old.unlink(missing_ok=True)
        except OSError:
            pass
    return html


class SiteError(Exception):
    """The site cannot be built where asked (exit code 2)."""


# the compact, sorted JSON of the site's scripts
_DUMP = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode


def _json_script(var: str, data: Any) -> str:
    # "</" inside a string would end an inline script; \u003c keeps the JSON valid
    text = _DUMP(data).replace("</", "<\\/")
    return f"window.{var}={text};\n"


_PLAIN = (str, type(None))  # values a fragment's key holds as they are (any other: (its repr,))


def _equality_key(value: Any) -> Any:
    """``value`` with the Python equalities JSON text does not show (``True == 1``, ``1 == 1.0``)
    made explicit, so that the client-side compare sees a change exactly where ``timeline.diff`` does."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [_equality_key(v) for v in value]
    if isinstance(value, dict):
        return {k: _equality_key(v) for k, v in value.items()}
    return value


def _compared(value: Any) -> Any:
    """A field of the compare data: its text as ``flags diff`` shows it, or ``[text, key]`` when
    the text alone would tell apart values Python holds equal."""
    text = m.shown(value)
    if value is None or value.__class__ is str or value.__class__ is int:
        return text
    key = m.shown(_equality_key(value))
    return text if key == text else [text, key]


class Builder:
    def __init__(self, db: Database, out: Path) -> None:
        self.db = db
        self.out = Path(out)
        self.model = m.SiteModel(db)
        self.files: dict[str, bytes] = {}
        self._links: dict[tuple[str, str, str], str] = {}
        self._fragments: dict[tuple[Any, ...], str] = {}
        self._option_fragments: dict[int, tuple[Any, str]] = {}  # id(Option) -> (it, its fragment)
        self._owners: tuple[dict[str, str], str] = ({}, "{}")  # the last release data's owners, and their JSON
        self._diffs: dict[tuple[str, str, str], bytes] = {}
        self._guides: dict[tuple[str, str], list[m.GuideSection]] = {}
        self._docs_html: dict[tuple[tuple[str, str], ...], bytes] = {}
        self._frames: dict[str, pages.Frame] = {}

    # ------------------------------------------------------------------ links
    # Links are rendered once per (name, depth), as HTML text: pages hold thousands of them.
    def opt_link(self, name: str, root: str) -> str:
        key = ("o", name, root)
        html = self._links.get(key)
        if html is None:
            url = self.model.option_link(name)
            code = f"<code>{h(name)}</code>"
            html = self._links[key] = f'<a href="{h(root + url)}">{code}</a>' if url else code
        return html

    def env_link(self, name: str, root: str) -> str:
        key = ("e", name, root)
        html = self._links.get(key)
        if html is None:
            html = self._links[key] = f'<a href="{h(root + m.env_url(name))}"><code>{h(name)}</code></a>'
        return html

    def release_link(self, version: str, root: str) -> str:
        key = ("r", version, root)
        html = self._links.get(key)
        if html is None:
            html = self._links[key] = f'<a href="{h(root + m.release_url(version))}">{h(version)}</a>'
        return html

    def docs_links(self, docs: list[tuple[str, str]]) -> bytes:
        """The links of a page to each release's docs, rendered (and encoded) once per list: most
        options and variables were accepted by the same runs of releases, and these lists are long."""
        key = tuple(docs)
        html = self._docs_html.get(key)
        if html is None:
            html = self._docs_html[key] = " \u00b7 ".join(
                f'<a href="{h(url)}" rel="external">{h(ver)}</a>' for ver, url in docs).encode("utf-8")
        return html

    # ------------------------------------------------------------------ output
    def written_page(self, path: str, title: str, description: str, main: pages.Html, scripts: str = "") -> None:
        """A page: its ``main`` block (``pages``) inside the frame every page shares."""
        root = "../" * path.count("/")
        frame = self._frames.get(root)
        if frame is None:
            mdl = self.model
            frame = self._frames[root] = pages.Frame(root, mdl.versions[0], mdl.newest, len(mdl.versions))
        self.files[path] = frame.fill(title, description, main, scripts)

    def write(self) -> None:
        """Write ``files`` into OUTDIR. A new folder, or a previous build, is replaced at once: the
        site is written into a temporary sibling folder, which is then renamed into place, so a
        failed or interrupted build leaves the previous site whole. An existing empty folder (one
        the user made, perhaps a mount point), and a previous build that cannot be renamed (a
        mount point, a folder whose parent is not writable), are written into directly."""
        out = Path(os.path.realpath(self.out))  # a symlinked OUTDIR: the link stays, its target is replaced
        if out.exists() and not out.is_dir():
            raise SiteError(f"{self.out}: exists and is not a directory")
        previous = out.is_dir() and any(out.iterdir())
        if previous and not (out / MARKER).is_file():
            raise SiteError(f"{self.out}: not empty and not a site built by vllm-lint ({MARKER} is missing); "
                            f"choose an empty or new directory")
        if out.is_dir() and not previous:
            self._write_tree(str(out))
            return
        parent = out.parent
        parent.mkdir(parents=True, exist_ok=True)
        try:
            staging = tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".building", dir=parent)
        except OSError:
            if not previous:
                raise
            self._rebuild_in_place(out)
            return
        try:
            mode = stat.S_IMODE(out.stat().st_mode) if previous else 0o777 & ~_umask()
            os.chmod(staging, mode)
            self._write_tree(staging)
            if previous:
                old = tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=parent)
                try:
                    os.rename(out, os.path.join(old, "site"))
                except OSError:
                    os.rmdir(old)
                    self._rebuild_in_place(out)
                    return
                os.rename(staging, out)
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.rename(staging, out)
        finally:
            if os.path.isdir(staging):
                shutil.rmtree(staging, ignore_errors=True)

    def _rebuild_in_place(self, out: Path) -> None:
        for entry in sorted(out.iterdir()):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        self._write_tree(str(out))

    def _write_tree(self, base: str) -> None:
        """One ``mkdir`` per folder (parents first: the paths are sorted) and one open and write
        per file; nothing is synced (the rename into place is what makes the build atomic)."""
        made = {""}
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
        for rel in sorted(self.files):
            folder = rel.rpartition("/")[0]
            if folder not in made:
                parts = folder.split("/")
                for k in range(1, len(parts) + 1):
                    sub = "/".join(parts[:k])
                    if sub not in made:
                        os.mkdir(os.path.join(base, sub))
                        made.add(sub)
            fd = os.open(os.path.join(base, rel), flags, 0o666)
            try:
                data = self.files[rel]
                written = os.write(fd, data)
                if written < len(data):
                    with memoryview(data) as view:
                        while written < len(data):
                            written += os.write(fd, view[written:])
            finally:
                os.close(fd)

    # ------------------------------------------------------------------ pages
    def build(self) -> dict[str, int]:
        self.static()
        self.search_index()
        self.index_page()
        self.option_pages()
        self.env_pages()
        self.release_pages()
        self.compare_pages()
        self.rule_pages()
        self.reference_pages()
        self.files[MARKER] = (f"Built by `vllm-lint site build` from the flag database "
                              f"(vLLM {self.model.versions[0]} to {self.model.newest}). "
                              f"Rebuilding replaces everything in this folder.\n").encode()
        self.write()
        return {"files": len(self.files), "bytes": sum(len(b) for b in self.files.values())}

    def static(self) -> None:
        for p in sorted((HERE / "static").iterdir()):
            if p.is_file() and p.name != "not-found.js":
                self.files[f"static/{p.name}"] = p.read_bytes()
        # the host's page for a missing address, served at any depth: its style and script inline
        self.files["404.html"] = pages.not_found(
            "Page not found", "No page of the vLLM flag history has this address.",
            (HERE / "static" / "style.css").read_text(encoding="utf-8"),
            (HERE / "static" / "not-found.js").read_text(encoding="utf-8")).encode("utf-8")

    def search_index(self) -> None:
        """``[name, kind, url, note]`` rows for every option string, variable, release and rule."""
        rows: list[list[str]] = []
        mdl = self.model
        for name, page in mdl.options.items():
            if page.is_canonical:
                last = page.spelling_eras[-1]
                note = (f"{mdl.versions[page.accepted[0]]} .. {last.last}" if last.b < len(mdl.versions) - 1
                        else f"since {mdl.versions[page.accepted[0]]}")
            else:
                owners = sorted({e.value for e in page.spelling_eras})
                note = "alias of " + ", ".join(owners)
            rows.append([name, "option", page.url, note])
        for name, page in mdl.env.items():
            note = f"{page.eras[0].first} .. {page.eras[-1].last}" if page.eras[-1].b < len(mdl.versions) - 1 \
                else f"since {page.eras[0].first}"
            kind = "build env" if not page.runtime else "env"
            rows.append([name, kind, page.url, note])
        for r in mdl.releases:
            rows.append([r.version, "release", r.url, f"{r.options} options"])
        for rule in self.rules():
            rows.append([rule.code, "rule", rule.page, f"{rule.name}: {rule.summary}"])
        self.files["search-index.js"] = _json_script("VLLM_LINT_SEARCH", rows).encode("utf-8")

    def index_page(self) -> None:
        mdl = self.model
        newest = mdl.releases[-1]
        self.written_page("index.html", "vLLM flag history",
                          f"Every option and environment variable of vLLM {mdl.versions[0]} to {mdl.newest}: "
                          f"when each appeared, changed, was deprecated, renamed or removed.",
                          pages.index_main(self, "", mdl.counts(), newest, list(reversed(mdl.releases[-8:]))),
                          '<script src="search-index.js"></script>\n<script src="static/search.js"></script>\n')
        canonical = [p for p in mdl.options.values() if p.is_canonical]
        spellings = [p for p in mdl.options.values() if not p.is_canonical]
        self.written_page("options/index.html", "vLLM options",
                          f"All {len(canonical)} vLLM serve options from {mdl.versions[0]} to {mdl.newest}, "
                          f"with {len(spellings)} other spellings.", pages.options_main(self, canonical, spellings, "../"))
        self.written_page("env/index.html", "vLLM environment variables",
                          f"All {len(mdl.env)} environment variables vLLM {mdl.versions[0]} to {mdl.newest} read.",
                          pages.variables_main(self, list(mdl.env.values()), "../"))
        self.written_page("releases/index.html", "vLLM releases", f"{len(mdl.releases)} vLLM releases and what each changed.",
                          pages.releases_main("../", list(reversed(mdl.releases))))

    # ---- options
    def option_pages(self) -> None:
        mdl = self.model
        for page in mdl.options.values():
            st = page.story
            if page.is_canonical:
                tl = self.option_timeline(page)
                last = mdl.versions[page.accepted[-1]]
                gone = page.accepted[-1] < len(mdl.versions) - 1
                desc = (f"vLLM option {page.name}: accepted {self._ranges_text(st)}"
                        + (f"; last accepted by {last}, removed in {st.removed_in[-1]}" if gone and st else "")
                        + (f"; successor {st.successor}" if st and st.successor else "") + ".")
                gaps = (st.removed_in[:-1] if gone else st.removed_in) if st else []
                root = "../" * page.url.count("/")
                main = pages.option_main(self, page, root, st=st, timeline=tl.render(), gone=gone, last=last,
                                         gaps=gaps, command=self._command(page.name),
                                         canon_last=mdl.versions[page.canonical[-1]])
                self.written_page(page.url, f"{page.name} (vLLM option)", desc, main,
                                  f'<script src="{root}static/timeline.js"></script>\n')
            else:
                owners = sorted({e.value for e in page.spelling_eras})
                desc = f"vLLM option spelling {page.name}: " + "; ".join(
                    f"{e.label} alias of {e.value}" for e in page.spelling_eras) + "."
                main = pages.spelling_main(self, page, "../" * page.url.count("/"), owners=owners,
                                           command=self._command(page.name))
                self.written_page(page.url, f"{page.name} (vLLM option spelling)", desc, main)

    @staticmethod
    def _command(name: str) -> str:
        return f"vllm-lint flags show -- {name}" if name.startswith("-") and not name.startswith("--") \
            else f"vllm-lint flags show {name}"

    @staticmethod
    def _ranges_text(st: Optional[Any]) -> str:
        if st is None:
            return ""
        return ", ".join(a if a == b else f"{a} .. {b}" for a, b in st.ranges)

    def option_timeline(self, page: m.OptionPage) -> Timeline:
        mdl = self.model
        v = mdl.versions
        tl = Timeline(v, f"Timeline of {page.name} across vLLM {v[0]} to {v[-1]}")
        for e in page.spelling_eras:
            if e.value == page.name:
                tl.bar(e.a, e.b, "tl-acc", f"{page.name} accepted: {e.label}")
            else:
                tl.bar(e.a, e.b, "tl-alias", f"{e.label}: an alias of {e.value}")
        for e in page.deprecated_eras:
            tl.overlay(e.a, e.b, "tl-dep", f"deprecated: {e.label}")
        st = page.story
        if st:
            pos = mdl.pos
            for c in st.changes:
                tl.marker(pos[c.version], c.what if c.what in ("default", "choices") else "type",
                          f"{c.version}: {m.describe_change(c.what, c.old, c.new)}")
            for k, removed in enumerate(st.removed_in):
                final = k == len(st.removed_in) - 1
                if final and st.successor:
                    tl.end(pos[removed], f"{removed}: renamed to {st.successor}",
                           self._rel(page.url, page.successor_url) if page.successor_url else None, "tl-renamed")
                else:
                    tl.end(pos[removed], f"removed in {removed}")
        return tl

    @staticmethod
    def _rel(from_path: str, to_path: str) -> str:
        return "../" * from_path.count("/") + to_path

    # ---- environment variables
    def env_pages(self) -> None:
        mdl = self.model
        v = mdl.versions
        for page in mdl.env.values():
            tl = Timeline(v, f"Timeline of {page.name} across vLLM {v[0]} to {v[-1]}")
            for e in page.category_eras:
                cls = "tl-acc" if e.value == "runtime" else "tl-build" if e.value == "build" else "tl-both"
                tl.bar(e.a, e.b, cls, f"read as a {e.value} variable: {e.label}")
            for e in page.deprecated_eras:
                tl.overlay(e.a, e.b, "tl-dep", f"deprecated: {e.label}")
            pos = mdl.pos
            for c in page.changes:
                tl.marker(pos[c.version], c.what if c.what in ("default", "choices") else "type",
                          f"{c.version}: {c.text}")
            for k, removed in enumerate(page.removed_in):
                if k == len(page.removed_in) - 1 and page.successor:
                    tl.end(pos[removed], f"{removed}: replaced by {page.successor}",
                           self._rel(page.url, page.successor_url) if page.successor_url else None, "tl-renamed")
                else:
                    tl.end(pos[removed], f"removed in {removed}")
            last = page.eras[-1].last
            gone = page.eras[-1].b < len(v) - 1
            kinds = " and ".join(page.categories)
            desc = (f"vLLM {kinds} environment variable {page.name}: read by "
                    + ", ".join(e.label for e in page.eras)
                    + (f"; last read by {last}, removed in {page.removed_in[-1]}" if gone else "") + ".")
            root = "../" * page.url.count("/")
            main = pages.env_main(self, page, root, timeline=tl.render(), gone=gone, last=last,
                                  command=f"vllm-lint flags show {page.name}")
            self.written_page(page.url, f"{page.name} (vLLM environment variable)", desc, main,
                              f'<script src="{root}static/timeline.js"></script>\n')

    # ---- releases and comparisons
    def release_pages(self) -> None:
        mdl = self.model
        for r in mdl.releases:
            d = r.diff
            if d:
                desc = (f"vLLM {r.version} against {r.prev}: {len(d.added)} options added, {len(d.removed)} removed, "
                        f"{len(d.renamed)} renamed, {len(d.deprecated)} deprecated, {len(d.changed)} changed; "
                        f"{len(d.env_added)} environment variables added, {len(d.env_removed)} removed.")
            else:
                desc = f"vLLM {r.version}, the oldest release in the database: {r.options} options, {r.env} variables."
            self.written_page(r.url, f"vLLM {r.version}: what changed", desc,
                              pages.release_main(self, r, "../" * r.url.count("/"),
                                                 self._diff_html(d, r.url) if d else b""))
            self.files[f"data/releases/{r.version}.js"] = self._release_data(r.index).encode("utf-8")
        ov = self.db.overlay
        # what the client-side guide says of a removal (model.removal_todo, model.env_removal_todo)
        renames = {kind: {k: {"successor": (val or {}).get("successor"), "note": (val or {}).get("note"),
                              "noop": bool((val or {}).get("noop_at_removal"))}
                          for k, val in sorted((ov.get(kind) or {}).items())}
                   for kind in ("options", "env")}
        self.files["data/renames.js"] = _json_script("VLLM_LINT_RENAMES", renames).encode("utf-8")

    def _diff_html(self, d: Any, path: str) -> bytes:
        """The sections of a comparison, rendered once per (pair, depth): a release's page and
        the compare page of it and the release before show the same ones."""
        root = "../" * path.count("/")
        key = (d.old, d.new, root)
        html = self._diffs.get(key)
        if html is None:
            guide = self._guides.get((d.old, d.new))
            if guide is None:
                guide = self._guides[(d.old, d.new)] = m.migration_guide(self.db, d)
            html = self._diffs[key] = pages.diff_sections(self, guide, root).encode("utf-8")
        return html

    def _release_data(self, i: int) -> str:
        """What the client-side compare needs of one release: each option string's owner, each
        action's compared fields, each variable's fields (as ``timeline.diff`` compares them).

        The text is ``json.dumps(..., sort_keys=True)`` of that, assembled from one fragment per
        action and variable; consecutive releases share most of them, so each distinct fragment
        is encoded once, keyed by what it is made of: strings and None as they are, anything else by
        its ``repr`` in a tuple (``repr`` tells ``True`` from ``1`` and ``1.0``, as the JSON text does;
        the tuple tells the number ``1`` from the string ``"1"``)."""
        s = self.model.surfaces[i]
        cache = self._fragments

        def fields(rec_default: Any, computed: bool, choices: Any, typ: Any) -> list[Any]:
            default = "(computed)" if computed else rec_default
            return [_compared(default), _compared(choices), _compared(typ), choices]

        plain = _PLAIN
        actions: dict[str, str] = {}
        by_option = self._option_fragments
        for o in s.options:
            if o.name in actions:
                continue
            # an Option shared by releases (surface/db.py builds each distinct record once) is
            # keyed once: its fields are the same object's
            held = by_option.get(id(o))
            if held is not None:
                actions[o.name] = held[1]
                continue
            dep = o.deprecated or None
            successor = (dep or {}).get("successor")
            default, choices, typ = o.default, o.choices, o.type
            key = ("o", o.name, o.kind, o.default_computed, bool(dep),
                   default if default.__class__ in plain else (repr(default),),
                   choices if choices.__class__ in plain else (repr(choices),),
                   typ if typ.__class__ in plain else (repr(typ),),
                   successor if successor.__class__ in plain else (repr(successor),))
            text = cache.get(key)
            if text is None:
                row = fields(default, o.default_computed, choices, typ) + [
                    m.shown(o.kind), o.kind, 1 if dep else 0, successor]
                text = cache[key] = _DUMP(o.name) + ":" + _DUMP(row)
            by_option[id(o)] = (o, text)  # (the Option held: its id is not reused while it is)
            actions[o.name] = text
        owners = {string: opt.name for string, opt in s.by_string.items()}
        env: dict[str, str] = {}
        for name, rec in self.model.env_by_release[i][0].items():
            get = rec.get
            default, choices, typ = get("default"), get("choices"), get("type")
            key = ("e", name, bool(get("default_computed")), bool(get("deprecated")),
                   default if default.__class__ in plain else (repr(default),),
                   choices if choices.__class__ in plain else (repr(choices),),
                   typ if typ.__class__ in plain else (repr(typ),))
            text = cache.get(key)
            if text is None:
                row = fields(default, bool(get("default_computed")), choices, typ) + [
                    1 if get("deprecated") else 0]
                text = cache[key] = _DUMP(name) + ":" + _DUMP(row)
            env[name] = text
        # a quarter of the releases have the option strings of the release before, each of the same option
        if self._owners[0] != owners:
            self._owners = (owners, _DUMP(owners))
        text = ('{"actions":{' + ",".join([actions[k] for k in sorted(actions)]) + '},"env":{'
                + ",".join([env[k] for k in sorted(env)]) + '},"owners":' + self._owners[1]
                + ',"version":' + _DUMP(s.version) + "}").replace("</", "<\\/")
        return f"(window.VLLM_LINT_RELEASES=window.VLLM_LINT_RELEASES||{{}})[{json.dumps(s.version)}]={text};\n"

    def compare_pages(self) -> None:
        mdl = self.model
        pairs = sorted(mdl.compares, key=lambda p: (mdl.versions.index(p[0]), mdl.versions.index(p[1])))
        for old, new in pairs:
            d = mdl.compares[(old, new)]
            url = m.compare_url(old, new)
            self.written_page(url, f"vLLM {old} ... {new}",
                              f"What changed in vLLM's options and environment variables from {old} to {new}: "
                              f"{len(d.removed)} options removed, {len(d.renamed)} renamed, {len(d.added)} added.",
                              pages.compare_pair_main(self, old, new, "../" * url.count("/"), self._diff_html(d, url)))
        index_of = {v: i for i, v in enumerate(mdl.versions)}
        self.files["data/compare.js"] = _json_script("VLLM_LINT_COMPARE", {
            "versions": mdl.versions, "index": index_of,
            "prerendered": [f"{a}...{b}" for a, b in pairs], "o_rewritten": m.O_REWRITTEN,
            "o_rewriting": [v for v, s in zip(mdl.versions, mdl.surfaces) if m.rewrites_o(s)]}).encode("utf-8")
        self.written_page("compare/index.html", "Compare vLLM releases",
                          "What changed in vLLM's options and environment variables between any two releases.",
                          pages.compare_main(mdl.versions, pairs), pages.compare_scripts("../"))

    # ---- rules and reference
    def rules(self) -> list[Any]:
        from ..rules.base import registry

        return list(registry().values())

    def rule_pages(self) -> None:
        rules = self.rules()
        self.written_page("rules/index.html", "vllm-lint rules",
                          f"The {len(rules)} rules of vllm-lint: what each finds, why, and whether it fixes it.",
                          pages.rules_main(rules))
        # a rule's doc headings sit one level below the page's own <h1>
        docs = ["\n".join("#" + line if line.startswith("#") else line for line in rule.doc.splitlines())
                for rule in rules]
        for rule, doc_html in zip(rules, render_docs(docs)):
            self.written_page(rule.page, f"{rule.code} {rule.name} (vllm-lint rule)",
                              f"vllm-lint {rule.code} {rule.name}: {rule.summary}.",
                              pages.rule_main(rule, "../" * rule.page.count("/"), doc_html))

    def reference_pages(self) -> None:
        from .reference import audit_schema, configuration, schema_rows

        self.written_page("reference/configuration/index.html", "vllm-lint configuration",
                          "Every [tool.vllm-lint] setting: type, default and meaning.",
                          pages.configuration_main(configuration()))
        schema = audit_schema()
        self.written_page("reference/audit-schema/index.html", "vllm-lint audit JSON schema",
                          "The JSON schema of `vllm-lint audit --format json` output.",
                          pages.audit_schema_main(schema, schema_rows(schema),
                                                  json.dumps(schema, indent=2, ensure_ascii=False)))
        self.files["reference/audit-schema/audit.schema.json"] = (
            json.dumps(schema, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def build_site(out: Path, db: Optional[Database] = None, warn: Optional[Callable[[str], None]] = None
               ) -> dict[str, int]:
    """Build the whole site into ``out``; returns file and byte counts. ``warn`` is told, one line
    each, what of the database was left out (``SiteModel.warnings``)."""
    # The build allocates ~1 M small objects and frees almost none until it ends: the cyclic
    # garbage collector would walk them all again and again for nothing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        builder = Builder(db or Database(), out)
        if warn is not None:
            for line in builder.model.warnings:
                warn(line)
        return builder.build()
    finally:
        if collecting:
            gc.enable()
