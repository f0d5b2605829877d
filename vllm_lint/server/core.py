"""The language server's knowledge, free of any transport: lint a document's text in memory with
the file's own settings, and turn what the engine found into what an editor shows (ranges in the
client's position encoding, quick fixes, suppressions, hovers, completions).

``vllm_lint.server.protocol`` wires this to LSP messages; the tests drive both.
"""

from __future__ import annotations

import bisect
from itertools import accumulate
import os
import re
import stat
from pathlib import Path
from typing import Any, Optional

from ..rules.base import Diagnostic

# the language identifiers editors use, and the format each one means when the file name does not say
# which wins when a project configuration file and the client's settings both set something
# (ruff's configurationPreference): the file, the editor, or the editor alone
PREFERENCES = ("filesystemFirst", "editorFirst", "editorOnly")


class ClientSettings:
    """What the client may set (``initializationOptions`` or ``workspace/didChangeConfiguration``,
    under ``vllm-lint``): ``targetVersion``, ``select``, ``ignore``, ``unsafeFixes``,
    ``documentationBaseUrl`` and ``configurationPreference``."""

    __slots__ = ("target_version", "select", "ignore", "unsafe_fixes", "docs_base_url", "preference")

    def __init__(self, target_version: Optional[str] = None, select: Optional[list[str]] = None,
                 ignore: Optional[list[str]] = None, unsafe_fixes: bool = False,
                 docs_base_url: Optional[str] = None, preference: str = "filesystemFirst") -> None:
        self.target_version = target_version
        self.select = select
        self.ignore = ignore
        self.unsafe_fixes = unsafe_fixes
        self.docs_base_url = docs_base_url
        self.preference = preference

    @classmethod
    def from_json(cls, raw: Any) -> "ClientSettings":
        """Read leniently: a value of the wrong shape is ignored (an editor's settings UI must never
        take the server down); ``raw`` may hold the keys directly or under ``vllm-lint``."""
        if isinstance(raw, dict) and isinstance(raw.get("vllm-lint"), dict):
            raw = raw["vllm-lint"]
        if not isinstance(raw, dict):
            return cls()

        def codes(key: str) -> Optional[list[str]]:
            v = raw.get(key)
            if isinstance(v, str):
                v = [c for c in re.split(r"[,\s]+", v) if c]
            if isinstance(v, list) and all(isinstance(c, str) for c in v):
                return v or None
            return None

        target = raw.get("targetVersion")
        base = raw.get("documentationBaseUrl")
        pref = raw.get("configurationPreference")
        return cls(target_version=target if isinstance(target, str) and target.strip() else None,
                   select=codes("select"), ignore=codes("ignore"),
                   unsafe_fixes=raw.get("unsafeFixes") is True,
                   docs_base_url=base.rstrip("/") if isinstance(base, str) and base.strip() else None,
                   preference=pref if pref in PREFERENCES else "filesystemFirst")


# ----------------------------------------------------------------------------- positions


class Positions:
    """Byte offsets of a document's UTF-8 bytes as LSP positions in the negotiated encoding
    ("utf-8", "utf-16" or "utf-32"), and back. LSP lines end at ``\\n``, ``\\r\\n`` or ``\\r``."""

    def __init__(self, data: bytes, encoding: str = "utf-16") -> None:
        self.data = data
        self.encoding = encoding
        starts = [0]
        starts += accumulate(map(len, data.splitlines(keepends=True)))  # bytes: \n, \r\n and \r
        if data and data[-1] not in b"\r\n":
            starts.pop()  # the end of the last line, which no line starts at
        self.starts = starts

    def _units(self, chunk: bytes) -> int:
        if self.encoding == "utf-8" or chunk.isascii():
            return len(chunk)
        text = chunk.decode("utf-8", errors="replace")
        if self.encoding == "utf-32":
            return len(text)
        return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.data)))
        line = bisect.bisect_right(self.starts, offset) - 1
        return line, self._units(self.data[self.starts[line]:offset])

    def offset(self, line: int, character: int) -> int:
        """The byte offset of an LSP position (clamped to the line, as the protocol asks)."""
        if line >= len(self.starts):
            return len(self.data)
        start = self.starts[max(line, 0)]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.data)
        row = self.data[start:end].rstrip(b"\r\n")
        if self.encoding == "utf-8" or row.isascii():
            return start + min(character, len(row))
        text = row.decode("utf-8", errors="replace")
        units = 0
        for i, ch in enumerate(text):
            if units >= character:
                return start + len(text[:i].encode("utf-8"))
            units += 2 if self.encoding == "utf-16" and ord(ch) > 0xFFFF else 1
        return start + len(row)


# ----------------------------------------------------------------------------- one document


class Analysis:
    """One lint of one version of a document: its bytes, format, the findings as the CLI reports
    them (placed, suppressions applied) and the release each launch was checked against."""

    __slots__ = ("path", "data", "fmt", "diagnostics", "targets", "linter", "error", "reads", "_positions")

    def __init__(self, path: str, data: bytes, fmt: Optional[str], diagnostics: list[Diagnostic],
                 targets: list[tuple[int, int, str, str]], linter: Any = None, error: Optional[str] = None):
        self.path = path
        self.data = data
        self.fmt = fmt
        self.diagnostics = diagnostics
        self.targets = targets  # (launch start, launch end, release, why that release)
        self.linter = linter
        self.error = error  # a configuration or database problem: one message, shown once
        self.reads: tuple[tuple[str, str], ...] = ()  # other files read, with their content keys
        self._positions: Optional[Positions] = None

    def positions(self, encoding: str) -> Positions:
        """This version's line table in ``encoding`` (built once: diagnostics, code actions and
        hovers of one version share it)."""
        pos = self._positions
        if pos is None or pos.encoding != encoding:
            pos = self._positions = Positions(self.data, encoding)
        return pos

    @property
    def keyword_options(self) -> bool:
        """Whether the document's format writes options as keyword arguments of an engine call
        (``LLM(max_model_len=...)``), so that a bare word can be an option."""
        from ..frontends.base import get as format_unit

        return self.fmt is not None and format_unit(self.fmt).keyword_options

    def target_at(self, offset: int) -> Optional[tuple[str, str]]:
        for start, end, release, why in self.targets:
            if start <= offset <= end:
                return release, why
        return (self.targets[0][2], self.targets[0][3]) if self.targets else None


class Session:
    """What the server keeps between requests: the database (loaded once), the client's
    settings, and the rule selection per configuration. Every lint builds a fresh ``Linter``
    (cheap), so a configuration file or project pin edited on disk is seen at the next keystroke.
    What outlives one lint, the process's memo of resolved models, is kept true by content key:
    before each lint, a file an earlier lint read (a local model's ``config.json``, a Hugging Face
    cache snapshot) that has changed since makes the server forget every resolved model
    (``files_changed``, also called when the client reports changed files)."""

    def __init__(self, db_path: Optional[str] = None) -> None:
        self.db_path = db_path
        self._db = None
        self.client = ClientSettings()
        self._rules: dict[tuple, list] = {}
        self._read: dict[str, str] = {}  # file an earlier lint read -> its content key then

    def files_changed(self) -> None:
        """Files on disk may have changed: forget the facts read from them."""
        from ..knowledge import models

        models.clear_cache()
        self._read.clear()

    def _check_reads(self) -> None:
        if not self._read:
            return
        from ..inputs import content_key

        if any(content_key(f) != key for f, key in self._read.items()):
            self.files_changed()

    @property
    def db(self):
        if self._db is None:
            from ..surface.db import Database

            self._db = Database(Path(self.db_path) if self.db_path else None)
        return self._db

    def settings_for(self, path: str):
        """The file's own configuration (found from its folder, as the CLI does) combined with
        the client's settings by ``configurationPreference``."""
        from ..settings import Settings, discover

        c = self.client
        if c.preference == "editorOnly":
            base = Settings()
        else:
            base = discover(Path(path).parent if path else Path.cwd())
        chosen = {"target_version": c.target_version, "select": c.select, "ignore": c.ignore}
        if c.preference == "filesystemFirst" and base.source is not None:
            chosen = {k: v for k, v in chosen.items() if not getattr(base, k)}
        return base.merged(**chosen)

    def rules_for(self, settings) -> list:
        from ..rules.base import select_rules

        key = (tuple(settings.select or ()), tuple(settings.ignore or ()), tuple(settings.extend_select or ()))
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = select_rules(settings.select, settings.ignore, settings.extend_select)
        return rules

    def linter_for(self, path: str):
        from ..pipeline.engine import Linter

        settings = self.settings_for(path)
        return Linter(self.db, settings, self.rules_for(settings), unsafe_fixes=self.client.unsafe_fixes)

    def analyse(self, path: str, text: str, language_id: Optional[str] = None) -> Analysis:
        """Lint ``text`` (the editor's buffer, saved or not) as the file at ``path``."""
        data = text.encode("utf-8", "replace")  # (a lone surrogate: valid JSON, not UTF-8)
        return self._analyse_bytes(path, data, language_id)

    def analyse_unopened(self, path: str, roots: list[str]) -> Optional[Analysis]:
        """Lint a file the client has not opened (a pull, hover or code action for a URI it never
        sent): read as ``read_unopened`` allows, else None (nothing to show)."""
        if not path:
            return None
        data, refused = read_unopened(path, roots)
        if data is None:
            if refused is None:
                return None
            from ..pipeline.discovery import format_by_name

            return Analysis(path, b"", format_by_name(path), [Diagnostic("VL001", refused, path, None, line=1)], [])
        return self._analyse_bytes(path, data, None)

    def _analyse_bytes(self, path: str, data: bytes, language_id: Optional[str]) -> Analysis:
        from ..frontends.base import format_by_content
        from ..pipeline.discovery import format_by_name
        from ..pipeline.engine import MAX_FILE_BYTES
        from ..settings import ConfigError
        from ..surface.db import DatabaseError

        fmt = format_by_name(path) if path else None
        if fmt is None:
            from ..frontends.base import format_by_language_id

            fmt = format_by_language_id(language_id)
        if fmt is None:
            fmt = format_by_content(data, os.path.basename(path) if path else "")
        if fmt is None:
            return Analysis(path, data, None, [], [])
        if len(data) > MAX_FILE_BYTES:  # as the command line: a finding instead of a parse
            return Analysis(path, data, fmt, [Diagnostic("VL001", _too_large(len(data)), path, None, line=1)], [])
        self._check_reads()
        try:
            linter = self.linter_for(path)
            diags, targets, reads = lint_document(linter, path, data, fmt)
        except ConfigError as e:
            return Analysis(path, data, fmt, [], [], error=str(e))
        except DatabaseError as e:
            return Analysis(path, data, fmt, [], [], error=str(e))
        self._read.update(reads)
        out = Analysis(path, data, fmt, diags, targets, linter)
        out.reads = reads
        return out


def _too_large(size: int) -> str:
    from ..pipeline.engine import MAX_FILE_BYTES

    return f"file is too large to lint ({size // 1048576} MiB; limit {MAX_FILE_BYTES // 1048576} MiB)"


def read_unopened(path: str, roots: list[str]) -> tuple[Optional[bytes], Optional[str]]:
    """The bytes of a file the client has not opened, or (None, why not) where the command line
    would report a finding (too large), or (None, None): only a regular file is read (a device,
    FIFO or socket is never opened: ``/dev/urandom`` never ends, a FIFO blocks), no more than the
    lint's input limit, and a path that goes through a symbolic link only where it resolves inside
    a workspace folder (a link out of the workspace is not followed)."""
    from ..pipeline.engine import MAX_FILE_BYTES

    path = os.path.abspath(path)
    try:
        real = os.path.realpath(path)
        if real != path and not any(_inside(real, root) for root in roots):
            return None, None
        st = os.stat(real)
        if not stat.S_ISREG(st.st_mode):
            return None, None
        if st.st_size > MAX_FILE_BYTES:
            return None, _too_large(st.st_size)
        # O_NONBLOCK: should a FIFO have been put there since the check, opening it does not wait
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_BINARY", 0))
    except (OSError, ValueError):
        return None, None
    try:
        now = os.fstat(fd)
        if not stat.S_ISREG(now.st_mode) or (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            return None, None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None, None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:  # grew since the check
        return None, _too_large(len(data))
    return data, None


def _inside(path: str, root: str) -> bool:
    root = os.path.realpath(root)
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def lint_document(linter, path: str, data: bytes, fmt: str
                  ) -> tuple[list[Diagnostic], list[tuple[int, int, str, str]], tuple[tuple[str, str], ...]]:
    """The findings the CLI would report for ``data`` at ``path`` (nothing read from disk for
    the document itself: the engine's ``Linter.check``), the release each launch was checked
    against, and the other files the analysis read (path, content key)."""
    checked = linter.check(path, data, "auto", fmt=fmt)
    if checked.skipped is not None:
        return [], [], ()
    analysis = checked.analysis
    targets = [(la.launch.span.start, la.launch.span.end, la.target, la.target_source) for la in analysis.launches]
    return checked.diagnostics, targets, analysis.reads


# ----------------------------------------------------------------------------- fixes


def fixed_bytes(analysis: Analysis, d: Diagnostic) -> Optional[bytes]:
    """The document with ``d``'s own fix applied, or None when it conflicts or would not re-parse
    (the same check ``--fix`` makes before a write)."""
    from ..pipeline.fix import FixConflict, apply_edits
    from ..frontends.base import get as format_unit

    try:
        new = apply_edits(analysis.data, list(d.fix.edits))
    except FixConflict:
        return None
    if new == analysis.data or format_unit(analysis.fmt).parse_check(analysis.data, new):
        return None
    return new


def fix_all(analysis: Analysis) -> Optional[bytes]:
    """What ``vllm-lint --fix`` would write for this document (the engine's bounded fix loop), or
    None when nothing changes."""
    linter = analysis.linter
    if linter is None or not analysis.diagnostics:
        return None
    return linter.check(analysis.path, analysis.data, "auto", fmt=analysis.fmt, fix=True).fixed


def suppressed_bytes(analysis: Analysis, row: int) -> Optional[bytes]:
    """The document with a suppression comment for the findings on ``row`` (1-based), placed as
    ``--add-noqa`` places it, or None where no placement keeps the file's meaning."""
    from ..pipeline.noqa import add_to_bytes

    if analysis.linter is None:
        return None
    res = add_to_bytes(analysis.linter, Path(analysis.path), analysis.data, analysis.fmt, rows={row})
    return res.new if res.added and res.new != analysis.data else None


def minimal_edit(old: bytes, new: bytes) -> tuple[int, int, bytes]:
    """One replacement turning ``old`` into ``new``: (start, end) in ``old`` and the new bytes,
    cut at UTF-8 character boundaries so that positions convert exactly."""
    n = min(len(old), len(new))
    p = 0
    while p < n and old[p] == new[p]:
        p += 1
    s = 0
    while s < n - p and old[-1 - s] == new[-1 - s]:
        s += 1
    while p > 0 and (old[p] & 0xC0) == 0x80:
        p -= 1
    while s > 0 and (old[len(old) - s] & 0xC0) == 0x80:
        s -= 1
    return p, len(old) - s, new[p:len(new) - s]


_LINES = re.compile(rb"[^\n]*\n|[^\n]+")
_WORDS = re.compile(rb"\s+|[^\s]+")
_WORD_DIFF_MAX = 1 << 16  # bytes of a changed run of lines compared word by word


def minimal_edits(old: bytes, new: bytes) -> list[tuple[int, int, bytes]]:
    """Replacements turning ``old`` into ``new``, one per changed run (of lines, then of words
    within them), each cut as ``minimal_edit`` cuts: (start, end) in ``old`` and the new bytes.
    What lies between two changes is not sent back: a fix on each side of a secret does not
    carry the secret in its edit, and the editor keeps its cursor and marks there."""
    from difflib import SequenceMatcher

    if old == new:
        return []
    start, end, _ = minimal_edit(old, new)
    tail = len(old) - end
    old_mid, new_mid = old[start:end], new[start:len(new) - tail]
    out: list[tuple[int, int, bytes]] = []

    def runs(a: list[bytes], b: list[bytes], base: int, split_words: bool) -> None:
        a_off = list(accumulate(map(len, a), initial=0))
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            a_text, b_text = b"".join(a[i1:i2]), b"".join(b[j1:j2])
            if split_words and len(a_text) + len(b_text) <= _WORD_DIFF_MAX:
                runs(_WORDS.findall(a_text), _WORDS.findall(b_text), base + a_off[i1], False)
                continue
            p, q, text = minimal_edit(a_text, b_text)
            out.append((base + a_off[i1] + p, base + a_off[i1] + q, text))

    runs(_LINES.findall(old_mid), _LINES.findall(new_mid), start, True)
    return out


# ----------------------------------------------------------------------------- hover and completion

_WORD = re.compile(rb"--?[A-Za-z0-9][A-Za-z0-9_.\-]*|VLLM_[A-Z0-9_]+|[A-Za-z_][A-Za-z0-9_]*")


def word_at(data: bytes, offset: int) -> Optional[tuple[int, int, str]]:
    """The option, variable or identifier under ``offset``: (start, end, text)."""
    line_start = data.rfind(b"\n", 0, offset) + 1
    line_end = data.find(b"\n", offset)
    line_end = len(data) if line_end < 0 else line_end
    for m in _WORD.finditer(data, line_start, line_end):
        if m.start() <= offset <= m.end():
            text = m.group().decode("utf-8", "replace")
            if text.startswith("--") and "=" not in text:
                text = text.split(".")[0]  # --compilation-config.mode: the option
            return m.start(), m.end(), text
    return None


def _page(base: Optional[str], kind: str, name: str) -> Optional[str]:
    """The option's or variable's page in the website ``vllm-lint site build`` writes, published
    at ``base``."""
    if not base:
        return None
    from ..site.model import env_url, option_url

    return f"{base}/{env_url(name) if kind == 'env' else option_url(name)}"


def _code(word: str) -> str:
    """A word of the command line in Markdown (a backtick in it lengthens the fence)."""
    return f"`` {word} ``" if "`" in word else f"`{word}`"


def hover_markdown(session: Session, analysis: Analysis, offset: int) -> Optional[tuple[int, int, str]]:
    """A few lines of history for the option or environment variable under ``offset``: accepted
    from, removed in, successor, the default at the target release, and which release that is and
    why, in the command line's words (``surface.wording``). None when the word is neither."""
    from ..surface.timeline import canonical_query, story
    from ..surface.wording import default_words, history_lines, option_words

    w = word_at(analysis.data, offset)
    if w is None:
        return None
    start, end, text = w
    if not (text.startswith("-") or text.startswith("VLLM_")):
        if not analysis.keyword_options:
            return None
        text = "--" + text.replace("_", "-")  # an LLM(...) keyword argument
    db = session.db
    st = story(db, text)
    if st is None:
        return None
    target = analysis.target_at(start)
    if target is None:
        from ..pipeline.targeting import NEWEST_SOURCE

        release, why = (analysis.linter.targeting.target_for(analysis.path, []) if analysis.linter
                        else (db.newest, NEWEST_SOURCE))
    else:
        release, why = target
    label = "environment variable" if st.kind == "env" else "option"
    lines = [f"**`{st.name}`** ({label}{', alias of `' + st.canonical + '`' if st.canonical else ''})", ""]
    lines += [f"- {what}: {text}" if what else f"- {text}" for what, text in history_lines(st, db.newest, _code)]
    surface = db.surface(release)
    if st.kind == "env":
        rec = surface.env.get(st.name)
        lines.append(f"- vLLM {release}: " + ("not read" if rec is None else "read, " + default_words(
            rec.get("default"), bool(rec.get("default_computed")), code=_code)))
    else:
        opt = surface.lookup(st.canonical or st.name)
        lines.append(f"- vLLM {release}: " + ("not accepted" if opt is None else option_words(opt, _code)))
    lines.append(f"- checked against vLLM {release} ({why})")
    kind, canon = canonical_query(st.canonical or st.name)
    page = _page(session.client.docs_base_url, kind, canon)
    if page:
        lines.append(f"- [history of `{canon}`]({page})")
    return start, end, "\n".join(lines)


_ENGINE_CALL = re.compile(rb"\b(?:LLM|EngineArgs|AsyncEngineArgs)\s*\($")


def _inside_engine_call(data: bytes, offset: int) -> bool:
    """Whether ``offset`` sits among the keyword arguments of an ``LLM(``/``EngineArgs(`` call:
    the nearest unclosed parenthesis before it opens one (a cheap scan; strings are not parsed)."""
    depth = 0
    i = offset - 1
    lo = max(0, offset - 20000)
    while i >= lo:
        c = data[i]
        if c in b")]}":
            depth += 1
        elif c in b"([{":
            if depth == 0:
                return c == 0x28 and bool(_ENGINE_CALL.search(data[max(0, i - 40):i + 1]))
            depth -= 1
        i -= 1
    return False


def completions(session: Session, analysis: Analysis, offset: int) -> tuple[int, list[dict[str, Any]]]:
    """Option names valid at the document's target release for the word being typed at
    ``offset``: (start offset of the word, items as dicts of label, detail, documentation,
    deprecated, insert). Empty where no option can be written."""
    from ..surface.wording import option_words

    data = analysis.data
    start = offset
    while start > 0 and (chr(data[start - 1]).isalnum() or data[start - 1] in b"-_"):
        start -= 1
    prefix = data[start:offset].decode("utf-8", "replace")
    python_kwargs = analysis.keyword_options and not prefix.startswith("-") and _inside_engine_call(data, start)
    if not python_kwargs and not prefix.startswith("-"):
        return start, []
    if analysis.fmt is None:
        return start, []
    target = analysis.target_at(start)
    if target is None:
        release = (analysis.linter.targeting.target_for(analysis.path, [])[0] if analysis.linter else session.db.newest)
    else:
        release = target[0]
    surface = session.db.surface(release)
    items = []
    if python_kwargs:
        for name, rec in sorted(surface.engine_args.items()):
            if name.startswith(prefix) and not name.startswith("_"):
                items.append({"label": name, "detail": f"EngineArgs.{name} (vLLM {release})",
                              "documentation": None, "deprecated": False, "insert": name + "="})
        return start, items
    want = "--" + prefix.lstrip("-").replace("_", "-") if prefix.startswith("--") else prefix
    for opt in sorted(surface.options, key=lambda o: o.name):
        if not opt.name.startswith(want) or opt.name in opt.hidden:
            continue
        items.append({"label": opt.name, "detail": f"{option_words(opt)} (vLLM {release})",
                      "documentation": ("deprecated at this release" if opt.deprecated else None),
                      "deprecated": bool(opt.deprecated), "insert": opt.name})
    return start, items


SEVERITIES = {"error": 1, "warning": 2, "info": 3}  # LSP's DiagnosticSeverity


def diagnostic_json(session: Session, pos: Positions, d: Diagnostic) -> dict[str, Any]:
    """One finding as an LSP ``Diagnostic``, in JSON: the one place it is built (what pygls'
    converter writes for the same values; the typed form, for code actions and pulls, is
    structured from it)."""
    from ..rules.base import registry

    if d.span is not None:
        start, end = d.span.start, d.span.end
    else:
        line = max(d.row - 1, 0)
        start = pos.starts[min(line, len(pos.starts) - 1)]
        end = pos.data.find(b"\n", start)
        end = len(pos.data) if end < 0 else end
    (l1, c1), (l2, c2) = pos.position(start), pos.position(end)
    out: dict[str, Any] = {"range": {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}},
                           "message": shown_message(d)}
    if d.severity in SEVERITIES:
        out["severity"] = SEVERITIES[d.severity]
    out["code"] = d.code
    rule = registry().get(d.code)
    href = rule.url(session.client.docs_base_url) if rule else None
    if href:
        out["codeDescription"] = {"href": href}
    out["source"] = "vllm-lint"
    out["data"] = {"fixable": d.fix_applies(session.client.unsafe_fixes)}
    return out


def apply_initialization_options(session: Session, opts: Any) -> Optional[float]:
    """Take the client's ``initializationOptions``: its settings (under ``settings`` or at the top)
    and a ``debounce`` in seconds, returned when one is given."""
    if not isinstance(opts, dict):
        return None
    session.client = ClientSettings.from_json(opts.get("settings", opts))
    debounce = opts.get("debounce")
    if isinstance(debounce, (int, float)) and not isinstance(debounce, bool) and debounce >= 0:
        return float(debounce)
    return None


def shown_message(d: Diagnostic) -> str:
    """The message as the CLI's text output gives it: the release it was checked against named."""
    msg = d.message
    if d.target_version and d.code != "VL001":
        msg += f" [vllm {d.target_version}]"
    if d.fix_blocked:
        msg += f" (fix not applied: {d.fix_blocked})"
    return msg


def uri_to_path(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    p = urlparse(uri)
    if p.scheme != "file":
        return ""
    return os.path.normpath(unquote(p.path))
