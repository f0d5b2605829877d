"""The lint pipeline: paths -> files -> format -> front-end -> launches -> target -> rules -> diagnostics.

Also the fix loop: apply non-overlapping edits, re-lint, repeat (bounded); a fixed file is written
only if it still parses in its format (``vllm_lint.fix``).
"""

from __future__ import annotations

import bisect
import importlib
import os
import re
import stat
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from .fsutil import real_dir
from .launch import EnvAssign, Extraction, Launch, ParseError, Span, VersionHint
from .record import Record, lazy_re
from .rules.base import Diagnostic, LintContext, Rule, registry
from .settings import Settings
from .surface.db import Database, DatabaseError, UnknownVersion

AnyPath = Union[str, "os.PathLike[str]"]  # a file's path: a string on the lint path, or a path object

FORMATS = ("shell", "python", "dockerfile", "yaml", "markdown")
MAX_FIX_PASSES = 10
MAX_FILE_BYTES = 10 * 1024 * 1024  # larger files get a VL001 finding instead of being parsed

_SHELL_EXT = {".sh", ".bash", ".zsh", ".ksh", ".env.sh"}
_YAML_EXT = {".yaml", ".yml"}
_MD_EXT = {".md", ".markdown"}
_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
              ".mypy_cache", ".pytest_cache", ".ruff_cache", ".vllm-lint-cache", "site-packages"}

_SUPPRESS = re.compile(rb"#\s*vllm-lint:\s*ignore(?:\[([A-Za-z0-9_,\s]+)\])?(?!-)")
_SUPPRESS_FILE = lazy_re(rb"#\s*vllm-lint:\s*ignore-file\b")


# ----------------------------------------------------------------------------- format detection


def format_by_name(path: AnyPath) -> Optional[str]:
    """The format a path's file name says."""
    return format_by_filename(os.path.basename(path))


def format_by_filename(name: str) -> Optional[str]:
    """The format a file name says (``format_by_name`` for a name string: no path object)."""
    lower = name.lower()
    dot = lower.rfind(".")
    suffix = lower[dot:] if 0 < dot < len(lower) - 1 else ""  # as PurePath.suffix
    if suffix in _YAML_EXT:
        return "yaml"
    if suffix == ".py" or suffix == ".pyw":
        return "python"
    if suffix in _SHELL_EXT:
        return "shell"
    if suffix in _MD_EXT:
        return "markdown"
    if lower.startswith(("dockerfile", "containerfile")) or lower.endswith((".dockerfile", ".containerfile")):
        return "dockerfile"
    return None


def format_by_content(head: bytes) -> Optional[str]:
    first = head.split(b"\n", 1)[0].strip()
    if first.startswith(b"#!"):
        if re.search(rb"\b(ba|z|k|da)?sh\b", first):
            return "shell"
        if b"python" in first:
            return "python"
        return None
    text = head.lstrip(b"\xef\xbb\xbf")
    if re.match(rb"(?:\s*#[^\n]*\n)*\s*(?:ARG\s[^\n]*\n\s*)*FROM\s+\S", text, re.I):
        return "dockerfile"
    if re.search(rb"^(apiVersion|kind|services|version|steps|jobs|run|setup|resources):", text, re.M):
        return "yaml"
    return None


# ----------------------------------------------------------------------------- discovery


class Target(Record):
    """A file to lint. ``path``: as shown in findings, normalised as ``str(Path(...))`` would (a
    string: a path object per walked file cost more than the rest of screening it); ``explicit``:
    named on the command line, not found by a directory walk."""

    __slots__ = ("path", "explicit")

    def __init__(self, path: str, explicit: bool) -> None:
        self.path = path
        self.explicit = explicit


def discover(paths: Iterable[str], settings: Settings) -> tuple[list[Target], list[Diagnostic]]:
    """Files to lint. Explicit files are always linted; directories are walked honouring
    ``.gitignore``, ``exclude`` / ``extend-exclude`` and skipping VCS, virtualenvs and
    node_modules. Unreadable paths become VL001 findings."""

    out: list[Target] = []
    problems: list[Diagnostic] = []
    excludes = list(settings.exclude) + list(settings.extend_exclude)
    base = settings.source.parent if settings.source else Path.cwd()
    user_spec = _spec(excludes) if excludes else None

    def excluded(path: str) -> bool:
        if user_spec is None:
            return False
        p = Path(path)
        try:
            rel = p.resolve().relative_to(base.resolve()).as_posix()
        except ValueError:
            rel = p.as_posix()
        return user_spec.match_file(rel) or user_spec.match_file(p.name)

    seen: set[str] = set()
    for raw in paths:
        p = Path(raw)
        if not os.path.lexists(p):
            problems.append(Diagnostic("VL001", f"{raw}: no such file or directory", raw, None, line=1))
            continue
        if p.is_dir():
            root = str(p)
            # the walk's paths are ``root/name...``: normalised as ``root`` is, except that the
            # entries of "." read "./name" where ``str(Path("./name"))`` is "name"
            cut = 2 if root == "." else 0
            for f, key in _walk(root, excluded):
                if key not in seen:
                    seen.add(key)
                    out.append(Target(f[cut:], False))
        else:
            key = os.path.realpath(p)
            if key not in seen:
                seen.add(key)
                out.append(Target(str(p), True))
    return out, problems


def _spec(lines: list[str]):
    import pathspec

    try:  # pathspec >= 1.0 names git's own semantics "gitignore"
        return pathspec.PathSpec.from_lines("gitignore", lines)
    except (KeyError, LookupError):
        return pathspec.PathSpec.from_lines("gitwildmatch", lines)


def _walk(root: str, excluded) -> Iterable[tuple[str, str]]:
    """Candidate files under ``root``: each path, with its real path (the key that makes a file
    linted once). Strings and directory entries throughout: a path object per walked file, and a
    system call per file to resolve it, were most of this function's cost (benchmarks/README.md).
    A directory is resolved once (``fsutil.real_dir``); a symbolic link (known from its entry) is
    resolved itself."""
    specs: list[tuple[str, Any]] = []  # (directory with a trailing separator, its .gitignore)
    visited: set[tuple[int, int]] = set()
    real_dirs: dict[str, str] = {}  # fsutil.real_dir's memo

    def ignored(path: str, is_dir: bool) -> bool:
        for prefix, spec in specs:
            if path.startswith(prefix):
                rel = path[len(prefix):]
                if os.sep != "/":
                    rel = rel.replace(os.sep, "/")
                if spec.match_file(rel + "/" if is_dir else rel):
                    return True
        return False

    stack = [root]
    while stack:
        d = stack.pop()
        try:
            st = os.stat(d)
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in visited:  # symlink loops
            continue
        visited.add((st.st_dev, st.st_ino))
        for e in entries:
            if e.name == ".gitignore":
                try:
                    if e.is_file():
                        with open(e.path, encoding="utf-8", errors="replace") as fh:
                            specs.append((os.path.join(d, ""), _spec(fh.read().splitlines())))
                except Exception:
                    pass
                break
        subdirs = []
        for e in entries:
            path = e.path
            try:
                is_dir = e.is_dir()
            except OSError:
                continue
            if is_dir:
                name = e.name
                if name in _SKIP_DIRS or (name.startswith(".") and name not in (".github", ".gitlab")) \
                        or (specs and ignored(path, True)) or excluded(path) \
                        or os.path.exists(os.path.join(path, "pyvenv.cfg")):
                    continue
                subdirs.append(path)
            else:
                try:
                    if not e.is_file():
                        continue  # a FIFO, socket or device: reading it could block (named, it is read)
                except OSError:
                    continue
                if (specs and ignored(path, False)) or excluded(path):
                    continue
                if format_by_filename(e.name) is not None or "." not in e.name:
                    try:
                        is_link = e.is_symlink()
                    except OSError:
                        is_link = True  # let realpath decide
                    if is_link:
                        yield path, os.path.realpath(path)
                    else:
                        yield path, os.path.join(real_dir(d, real_dirs), e.name)
        stack.extend(reversed(subdirs))


# ----------------------------------------------------------------------------- file linting


class FileResult(Record):
    """One file's outcome. ``fixed``: the new content when --fix changed something; ``related``:
    config files reached via --config; ``stat_key``: (size, mtime_ns) when read; ``verdict``: why
    the result holds while the file is unchanged: "none" (no launch), "clean|<pin>" (and, for YAML, how
    it was named: ``_mode_tag``);
    ``content_key``: (content key, the findings before suppression had a fix) for the result cache,
    brought back from worker processes with the result."""

    __slots__ = ("path", "diagnostics", "fixed", "original", "format", "fix_note", "fixed_count", "verbose",
                 "related", "stat_key", "verdict", "content_key")

    def __init__(self, path: str, diagnostics: Optional[list[Diagnostic]] = None, fixed: Optional[bytes] = None,
                 original: Optional[bytes] = None, format: Optional[str] = None, fix_note: Optional[str] = None,
                 fixed_count: int = 0, verbose: Optional[list[str]] = None,
                 related: Optional[list["FileResult"]] = None, stat_key: Optional[tuple[int, int]] = None,
                 verdict: Optional[str] = None) -> None:
        self.path = path
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.fixed = fixed
        self.original = original
        self.format = format
        self.fix_note = fix_note
        self.fixed_count = fixed_count
        self.verbose = [] if verbose is None else verbose
        self.related = [] if related is None else related
        self.stat_key = stat_key
        self.verdict = verdict
        self.content_key: Optional[tuple[str, int]] = None


class LineIndex:
    def __init__(self, data: bytes):
        self.data = data
        self.starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.data)))
        row = bisect.bisect_right(self.starts, offset) - 1
        col = len(self.data[self.starts[row]:offset].decode("utf-8", errors="replace")) + 1
        return row + 1, col

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, max(0, offset)) - 1

    def line_bytes(self, row0: int) -> bytes:
        end = self.starts[row0 + 1] if row0 + 1 < len(self.starts) else len(self.data)
        return self.data[self.starts[row0]:end]


_FRONTENDS: dict[str, Any] = {}


def frontend(fmt: str):
    """The front-end module of a format, imported at first use."""
    fe = _FRONTENDS.get(fmt)
    if fe is None:
        fe = _FRONTENDS[fmt] = importlib.import_module(f"vllm_lint.frontends.{fmt}")
    return fe


def _mode_tag(path: AnyPath, mode: str) -> str:
    """The part of a cached verdict that says how the file was named, for the files whose outcome
    depends on it: YAML (and files whose format is sniffed from content) skips the pre-filter when
    named explicitly or matched by ``config-files``, so a file without a launch in a directory
    walk may hold one when named."""
    return _mode_tag_of(format_by_name(path), mode)


def _mode_tag_of(named_format: Optional[str], mode: str) -> str:
    """``_mode_tag`` of a file whose name says ``named_format``."""
    return f"|{mode}" if named_format in (None, "yaml") else ""


def _no_launch(path: AnyPath, mode: str) -> str:
    """The verdict of a file found to hold no launch."""
    return "none" + _mode_tag(path, mode)


class Linter:
    def __init__(self, db: Database, settings: Settings, rules: list[Rule], *, unsafe_fixes: bool = False,
                 cache=None):
        self.db = db
        self.cache = cache  # vllm_lint.cache.Cache or None
        self.settings = settings
        self.rules = rules
        self.unsafe_fixes = unsafe_fixes
        self._pins: dict[str, Optional[tuple[str, str]]] = {}
        self.verbose: list[str] = []  # per-file notes for --verbose, collected by lint_file
        self.references: list[tuple[Path, tuple[str, str]]] = []  # --config files launches name
        self._linted_refs: set[str] = set()
        self.explicit_target: Optional[str] = None
        if settings.target_version:
            self.explicit_target = db.resolve_version(settings.target_version)

    # -- target release
    def _project_pin(self, directory) -> Optional[tuple[str, str]]:
        """The release a requirements / constraints file or pyproject.toml in ``directory`` (a
        real directory, path or string) or an ancestor up to the repository root pins, once per
        directory. Strings, not path objects: every directory of a corpus is asked once."""
        key = str(directory)
        if key in self._pins:
            return self._pins[key]
        found = None
        pin_re = re.compile(r"^\s*vllm(?:\[[^\]]*\])?\s*(==|~=|>=)\s*v?([0-9][0-9a-zA-Z.+]*)", re.M)
        for name in sorted(os.listdir(key)) if os.path.isdir(key) else []:
            if (name.startswith(("requirements", "constraints")) and name.endswith((".txt", ".in"))) or name == "pyproject.toml":
                try:
                    with open(os.path.join(key, name), encoding="utf-8", errors="replace") as f:
                        text = f.read()
                except OSError:
                    continue
                m = pin_re.search(text) or re.search(r"[\"']vllm(?:\[[^\]]*\])?\s*(==|~=|>=)\s*v?([0-9][0-9a-zA-Z.+]*)", text)
                if m:
                    op, ver = m.group(1), m.group(2)
                    v = self.db.floor_version(ver) if op in ("==", "~=") else self.db.newest
                    if v:
                        found = (v, f"{name} pins vllm{op}{ver}")
                        break
        if found is None and not os.path.exists(os.path.join(key, ".git")):
            parent = os.path.dirname(key)
            if parent != key:
                found = self._project_pin(parent)
        self._pins[key] = found
        return found

    def _real_parent(self, path: AnyPath) -> str:
        """``str(path.parent.resolve())``, once per directory (``fsutil.real_dir``; the memo lives as
        long as this linter). ``str(path.parent)`` without a path object."""
        return real_dir(os.path.dirname(str(path)) or ".", self.__dict__.setdefault("_real_dirs", {}))

    def target_for(self, path: AnyPath, hints: list[VersionHint]) -> tuple[str, str]:
        if self.explicit_target:
            return self.explicit_target, "--target-version" if self.settings.source is None else "configuration"
        for h in hints:
            text = h.version.strip()
            if text.lower() in ("latest", "nightly", "main"):
                return self.db.newest, f"{h.source} '{text}' (newest release in the database)"
            v = self.db.floor_version(text)
            if v:
                return v, f"{h.source} {text}"
        pin = self._project_pin(self._real_parent(path))
        if pin:
            return pin
        return self.db.newest, "newest release in the database"

    # -- one file
    def lint_bytes(self, path: AnyPath, data: bytes, fmt: str, mode: str = "auto",
                   forced: Optional[tuple[str, str]] = None) -> tuple[list[Diagnostic], Optional[Extraction]]:
        """Lint ``data`` as ``fmt``. ``mode``: "auto", "explicit" (the file was named on the command
        line) or "config" (a vLLM ``--config`` YAML); ``forced``: (release, reason) to check against,
        for a config file reached through a launch's ``--config``."""
        from .argv import ArgvParser

        shown = str(path)
        fe = frontend(fmt)
        try:
            if fmt == "yaml" and mode == "config":
                extraction: Extraction = fe.extract_config_file(data, shown)
            elif fmt == "yaml":
                extraction = fe.extract(data, shown, explicit=mode == "explicit")
            else:
                extraction = fe.extract(data, shown)
        except ParseError as e:
            d = Diagnostic("VL001", f"cannot parse {fmt}: {e.message}", shown, None, line=e.line)
            if e.offset is not None:
                d.span = Span(e.offset, e.offset)
            return [d], None
        except RecursionError:
            return [Diagnostic("VL001", f"cannot parse {fmt}: nesting too deep", shown, None, line=1)], None
        diags: list[Diagnostic] = []
        seen_env: set[tuple[int, int]] = set()
        for launch in extraction.launches:
            hints = list(launch.version_hints) + list(extraction.version_hints)
            target, source = forced or self.target_for(path, hints)
            surface = self.db.surface(target)
            args = ArgvParser(surface, self.db, positional_model=launch.entry != "openai.api_server"
                              and launch.entry != "api_server").parse(launch)
            self._note_config_reference(path, args, target, source)
            for e in launch.env:
                if e.name_span:
                    seen_env.add((e.name_span.start, e.name_span.end))
            ctx = LintContext(shown, launch, args, list(launch.env), surface, self.db, target, source,
                              self.settings, data)
            ctx.extra["extraction"] = extraction
            diags.extend(self._run(ctx))
        loose = [e for e in extraction.env if not e.name_span or (e.name_span.start, e.name_span.end) not in seen_env]
        if loose:
            target, source = forced or self.target_for(path, list(extraction.version_hints))
            ctx = LintContext(shown, None, [], loose, self.db.surface(target), self.db, target, source,
                              self.settings, data)
            ctx.extra["extraction"] = extraction
            diags.extend(self._run(ctx))
        for note in extraction.notes:
            if any(r.code == note.code for r in self.rules):
                diags.append(Diagnostic(note.code, note.message, shown, note.span, severity="info"))
        return _dedupe(diags), extraction

    def _note_config_reference(self, path: AnyPath, args, target: str, source: str) -> None:
        """A launch's ``--config FILE``: lint FILE as a vLLM config file at this launch's release."""
        for a in args:
            if a.option is None or a.option.dest != "config" or not a.value or a.value_opaque:
                continue
            ref = Path(a.value)
            for cand in ([ref] if ref.is_absolute() else [Path(path).parent / ref, Path.cwd() / ref]):
                if cand.is_file() and format_by_name(cand) == "yaml":
                    self.references.append((cand, (target, f"{source}, via --config in {path}")))
                    break

    def _run(self, ctx: LintContext) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        self.verbose.append(f"checked against vLLM {ctx.target} ({ctx.target_source})"
                            + (f" at line {_line(ctx.data, ctx.launch.span.start)}" if ctx.launch else ""))
        for rule in self.rules:
            try:
                out.extend(rule.run(ctx))
            except (DatabaseError, UnknownVersion):
                raise
            except Exception as e:  # a rule bug must not lose the other findings
                out.append(Diagnostic("VL001", f"internal error in {rule.code}: {type(e).__name__}: {e}",
                                      ctx.path, ctx.launch.span if ctx.launch else None, line=1))
        self.verbose.extend(ctx.extra.get("skipped", []))
        return out

    def detect_format(self, path: AnyPath, data: bytes, explicit: bool) -> Optional[str]:
        fmt = format_by_name(path)
        if fmt is None:
            fmt = format_by_content(data[:4096])
        return fmt

    def lint_file(self, target: Target, fix: bool = False, mode: Optional[str] = None,
                  forced: Optional[tuple[str, str]] = None) -> FileResult:
        res = self._lint_one(target, fix, mode, forced)
        # config files named by --config in this file's launches, at those launches' releases
        while self.references:
            ref, ref_target = self.references.pop(0)
            key = os.path.realpath(ref)
            if key in self._linted_refs:
                continue
            self._linted_refs.add(key)
            res.related.append(self._lint_one(Target(str(ref), True), fix, "config", ref_target))
        for r in [res, *res.related]:
            for d in r.diagnostics:  # file-level findings (unreadable, binary, too large) skip finish()
                if d.row == 0:
                    _place(d, LineIndex(b""))
        return res

    def _mode(self, target: Target) -> str:
        """How the file was named: "explicit", "auto" (found by a directory walk) or "config" (matched
        by the ``config-files`` setting: read as a vLLM config file)."""
        mode = "explicit" if target.explicit else "auto"
        if self.settings.config_files and format_by_name(target.path) == "yaml":
            import fnmatch

            path = Path(target.path)
            posix = path.resolve().as_posix()
            if any(fnmatch.fnmatch(posix, g) or fnmatch.fnmatch(posix, "*/" + g) or fnmatch.fnmatch(path.name, g)
                   for g in self.settings.config_files):
                mode = "config"
        return mode

    def _stat_answer(self, path: str, mode: str, st: os.stat_result) -> Optional[FileResult]:
        """The result the cache's stat index holds for ``path`` (stat ``st``) when the file is
        unchanged since its record and the record's verdict still holds, else None."""
        if stat.S_ISDIR(st.st_mode):
            return None
        stat_key = (st.st_size, st.st_mtime_ns)
        known = self.cache.stat_result(path, stat_key)
        if known is None or (known[0] != _no_launch(path, mode) and known[0] != self._verdict(path, mode)):
            return None
        res = FileResult(path, stat_key=stat_key)
        res.verdict, res.diagnostics = known
        return res

    def cached_result(self, target: Target) -> Optional[FileResult]:
        """The result of an unchanged file from the cache's stat index, without reading the file;
        None when it must be linted (``vllm_lint.parallel`` asks this before sharing out files)."""
        try:
            st = os.stat(target.path)
        except OSError:
            return None
        return self._stat_answer(os.fspath(target.path), self._mode(target), st)

    def _lint_one(self, target: Target, fix: bool, mode: Optional[str], forced: Optional[tuple[str, str]]) -> FileResult:
        path = shown = os.fspath(target.path)
        res = FileResult(shown)
        self.references = []
        if mode is None:
            mode = self._mode(target)
        try:
            st = None
            if self.cache is not None and not fix and forced is None and self.cache.has_records():
                # an unchanged file is answered by its record without being read
                st = os.stat(path)
                known = self._stat_answer(shown, mode, st)
                if known is not None:
                    return known
            with open(path, "rb") as f:  # (a directory: IsADirectoryError)
                if st is None:
                    st = os.fstat(f.fileno())  # no second lookup of the path
                size = st.st_size
                res.stat_key = (size, st.st_mtime_ns)
                if size > MAX_FILE_BYTES:
                    if target.explicit or format_by_name(path):
                        res.diagnostics.append(Diagnostic("VL001", f"file is too large to lint ({size // 1048576} MiB; "
                                                          f"limit {MAX_FILE_BYTES // 1048576} MiB)", shown, None, line=1))
                    return res
                data = f.read()
        except IsADirectoryError:
            res.stat_key = None
            if target.explicit:
                res.diagnostics.append(Diagnostic("VL001", "is a directory, not a file", shown, None, line=1))
            return res
        except FileNotFoundError:
            res.diagnostics.append(Diagnostic("VL001", "file disappeared while linting", shown, None, line=1))
            return res
        except OSError as e:
            res.diagnostics.append(Diagnostic("VL001", f"cannot read file: {e.strerror or e}", shown, None, line=1))
            return res
        named = format_by_name(path)
        fmt = named or format_by_content(data[:4096])
        res.format = fmt
        if fmt is None:
            res.verdict = "none" + _mode_tag_of(named, mode)
            return res
        if data.find(b"\x00", 0, 8192) >= 0:
            if target.explicit:
                res.diagnostics.append(Diagnostic("VL001", "binary file (contains NUL bytes)", shown, None, line=1))
            return res
        if not (mode == "config" or (mode == "explicit" and fmt == "yaml") or frontend(fmt).might_contain_launch(data)):
            res.verdict = "none" + _mode_tag_of(named, mode)
            return res
        if b"vllm-lint" in data and _SUPPRESS_FILE.search(data):
            return res
        self.verbose = []
        key = None
        if self.cache is not None and self.cache.has_content(shown):
            # the same bytes as at this path's last record (only its mtime changed): its findings.
            # (Without such a record the key waits for the verdict, which needs the project pin.)
            key = self._content_key(path, data, fmt, mode, forced)
            known = self.cache.content_result(shown, key, fix)
            if known is not None:
                res.verdict, res.diagnostics = known[0], known[1]
                res.content_key = (key, known[2])
                self.cache.note_key(shown, res.content_key)
                return res
        diags, _ = self.lint_bytes(path, data, fmt, mode, forced)
        res.verbose = list(dict.fromkeys(self.verbose))
        fixable = any(d.fix is not None for d in diags)
        if fix:
            from .fix import fix_loop

            new, diags, note, count = fix_loop(self, path, data, fmt, diags, mode=mode, forced=forced)
            if new != data:
                res.fixed, res.original, res.fixed_count = new, data, count
            res.fix_note = note
        # the findings left after fixing are positioned in (and suppressed by) the fixed bytes
        res.diagnostics = self.finish(res.fixed if res.fixed is not None else data, diags, shown)
        if self.cache is not None and not self.references and forced is None and res.fixed is None:
            # (the verdict needs the project pin, which a launch with an image tag never looked up)
            res.verdict = self._verdict(path, mode)
            res.content_key = (key or self._content_key(path, data, fmt, mode, forced), 1 if fixable else 0)
            self.cache.note_key(shown, res.content_key)
        return res

    def _verdict(self, path: AnyPath, mode: str) -> str:
        """A file's findings hold while its bytes, the project pin near it and (where it matters)
        the way it was named stay the same."""
        return f"clean|{self._project_pin(self._real_parent(path))}{_mode_tag(path, mode)}"

    def _content_key(self, path: AnyPath, data: bytes, fmt: str, mode: str, forced: Optional[tuple[str, str]]) -> str:
        pin = self._project_pin(self._real_parent(path))
        return self.cache.key(str(path), data, f"{fmt}|{pin}|{mode}|{forced}")

    def finish(self, data: bytes, diags: list[Diagnostic], path: Optional[str] = None) -> list[Diagnostic]:
        """Positions, suppression comments, per-file-ignores; and, when VL003 is selected, a
        finding for each suppression comment (or code in one) that suppressed nothing."""
        if not diags and b"vllm-lint" not in data:
            return []  # nothing to place or suppress, no suppression comment to report
        index = LineIndex(data)
        used: set[tuple[int, Optional[str]]] = set()  # (row0 of the comment, code or None if blanket)
        out = self._placed_unsuppressed(diags, index, used)
        if any(r.code == "VL003" for r in self.rules) and b"vllm-lint" in data:
            from .rules.vl003_unused_suppression import unused_suppressions

            shown = path if path is not None else (diags[0].path if diags else "")
            for d in unused_suppressions(data, index, used, {r.code for r in self.rules}, shown):
                _place(d, index)
                if not self._suppressed(d, index, None):
                    out.append(d)
        return sorted(out, key=lambda d: (d.row, d.column, d.code))

    def unsuppressed(self, data: bytes, diags: list[Diagnostic]) -> list[Diagnostic]:
        """The findings that no suppression comment or per-file-ignore switches off: those --fix
        may fix (as ruff, a suppressed finding is left alone, fix included)."""
        if not diags or (b"vllm-lint" not in data and not self.settings.per_file_ignores):
            return diags
        return self._placed_unsuppressed(diags, LineIndex(data))

    def _placed_unsuppressed(self, diags: list[Diagnostic], index: LineIndex,
                             used: Optional[set[tuple[int, Optional[str]]]] = None) -> list[Diagnostic]:
        """``diags`` positioned, without those a suppression switches off (see ``_suppressed``)."""
        out = []
        for d in diags:
            _place(d, index)
            if not self._suppressed(d, index, used):
                out.append(d)
        return out

    def _suppressed(self, d: Diagnostic, index: LineIndex,
                    used: Optional[set[tuple[int, Optional[str]]]] = None) -> bool:
        """Whether ``d`` is switched off by per-file-ignores or a suppression comment.

        A ``# vllm-lint: ignore[CODES]`` comment applies to findings on its own line, and a
        standalone comment line applies to the line right below it. Two extensions, so that
        every line can be suppressed without changing what the file means (``--add-noqa``):

        * a command continued with trailing backslashes (shell, Dockerfile, Python) is one
          logical line: a standalone comment line right above its first line covers all of it
          (a comment cannot follow a backslash, and a comment line inside the command would
          end it);
        * a comment on a YAML block scalar's header line (``args: |  # vllm-lint: ignore``)
          covers the whole scalar (a ``#`` inside the scalar would be part of its value).

        When ``used`` is given, the (comment row, code) pairs that matched are added to it.
        """
        if self.settings.per_file_ignores:
            import fnmatch

            p = Path(d.path)
            for pattern, codes in self.settings.per_file_ignores.items():
                if fnmatch.fnmatch(p.as_posix(), pattern) or fnmatch.fnmatch(p.name, pattern) \
                        or fnmatch.fnmatch(p.as_posix(), "*/" + pattern):
                    if any(d.code.startswith(c.upper()) for c in codes):
                        return True
        if d.code in ("VL001", "VL003"):
            return False
        row0 = d.row - 1
        if row0 < 0 or row0 >= len(index.starts):
            return False
        candidates = [row0]
        # a standalone comment line right above applies to the next line
        if row0 > 0 and index.line_bytes(row0 - 1).lstrip().startswith(b"#"):
            candidates.append(row0 - 1)
        first = row0
        while first > 0 and index.line_bytes(first - 1).rstrip().endswith(b"\\"):
            first -= 1
        if first != row0 and first > 0 and index.line_bytes(first - 1).lstrip().startswith(b"#"):
            candidates.append(first - 1)
        header = _block_scalar_header(index, row0)
        if header is not None:
            candidates.append(header)
        for r in candidates:
            m = _SUPPRESS.search(index.line_bytes(r))
            if m:
                codes = m.group(1)
                if codes is None:
                    if used is not None:
                        used.add((r, None))
                    return True
                wanted = [c.strip().upper() for c in codes.decode().split(",") if c.strip()]
                hit = [c for c in wanted if d.code.startswith(c)]
                if hit:
                    if used is not None:
                        used.update((r, c) for c in hit)
                    return True
        return False


_BLOCK_HEADER = re.compile(rb"(?:^|:|^\s*-|\s-)\s+[|>][1-9+-]{0,2}\s*(?:#.*)?$")


def _indent(line: bytes) -> Optional[int]:
    stripped = line.rstrip(b"\r\n")
    if not stripped.strip():
        return None
    return len(stripped) - len(stripped.lstrip(b" \t"))


def _block_scalar_header(index: LineIndex, row0: int) -> Optional[int]:
    """The row of the YAML block scalar header (``key: |``, ``- >-``) whose scalar contains
    ``row0``, found by walking up to ever less indented lines; None when there is none."""
    level = _indent(index.line_bytes(row0))
    if not level:
        return None
    r = row0 - 1
    while r >= 0:
        line = index.line_bytes(r)
        ind = _indent(line)
        if ind is not None and ind < level:
            if _BLOCK_HEADER.search(line.rstrip(b"\r\n")):
                return r
            if ind == 0:
                return None
            level = ind
        r -= 1
    return None


def _line(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, max(0, offset)) + 1


def _place(d: Diagnostic, index: LineIndex) -> None:
    if d.span is not None:
        d.row, d.column = index.position(d.span.start)
        d.end_row, d.end_column = index.position(d.span.end)
    else:
        d.row = d.line or 1
        d.column = 1
        d.end_row, d.end_column = d.row, 1


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.code, d.span.start if d.span else None, d.span.end if d.span else None, d.message)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out
