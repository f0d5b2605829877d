"""Discovery: the files a run lints, from the paths it was given (explicit files, directory walks
honouring ``.gitignore``, ``.git/info/exclude``, ``exclude`` / ``extend-exclude`` and
``force-exclude``), and the format a file's name says. Only names are read here; what a file holds
is the engine's business (``vllm_lint.pipeline.engine``): a walk yields every file but those whose
name says they are binary, so that a launch in a file of any name is read or named
(``frontends.base.format_by_content``)."""

from __future__ import annotations

import os
import stat

from ..frontends.base import format_by_content, format_by_filename
from ..fsutil import AnyPath, path_is, path_str, read_regular, real_dir, watch
from ..record import Record
from ..rules.base import Diagnostic
from ..settings import Settings

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Iterable, Optional

_SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
              ".mypy_cache", ".pytest_cache", ".ruff_cache", ".vllm-lint-cache", "site-packages"}
# Hidden folders a walk skips: version control, caches and tools' state (as ruff's default
# excludes); other hidden folders are the repository's own (`.github`, `.devcontainer`,
# `.agents/plans`, `.ci`) and are read, so that no file there is silent. A folder holding a
# `pyvenv.cfg` (a virtual environment of any name) is skipped too.
_SKIP_HIDDEN = {".bzr", ".direnv", ".eggs", ".git-rewrite", ".ipynb_checkpoints", ".pyenv", ".pytype",
                ".hypothesis", ".pants.d", ".cache", ".idea", ".vscode", ".terraform", ".terragrunt-cache",
                ".next", ".nuxt", ".npm", ".yarn", ".pnpm-store", ".gradle", ".m2", ".cargo", ".rustup",
                ".conda", ".local", ".history", ".Trash"}


# Files a walk never reads: what these suffixes name is binary (images, archives, compiled code,
# model weights, media, fonts, office documents), so no launch can be read from it. Any other
# file is read: its content may claim a format (``frontends.base.format_by_content``) or say
# that it mentions a launch no format reads (the ``--verbose`` account names it).
_BINARY_SUFFIXES = frozenset((
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".webp", ".tif", ".tiff", ".psd", ".heic",
    ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar", ".whl", ".egg", ".jar",
    ".war", ".deb", ".rpm", ".apk", ".dmg", ".iso", ".img",
    ".so", ".dylib", ".dll", ".exe", ".o", ".a", ".lib", ".obj", ".pyc", ".pyo", ".pyd", ".class",
    ".wasm", ".bin", ".dat", ".db", ".sqlite", ".sqlite3", ".pkl", ".pickle", ".npy", ".npz",
    ".pt", ".pth", ".ckpt", ".safetensors", ".onnx", ".gguf", ".h5", ".hdf5", ".pb", ".tflite",
    ".parquet", ".arrow", ".feather", ".avro", ".orc",
    ".mp3", ".mp4", ".wav", ".flac", ".ogg", ".avi", ".mov", ".mkv", ".webm", ".m4a",
    ".ttf", ".otf", ".woff", ".woff2", ".eot",
    ".pdf", ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".key", ".pages",
))


def _binary_by_name(name: str) -> bool:
    """Whether a file's suffix says its content is binary (``_BINARY_SUFFIXES``)."""
    dot = name.rfind(".")
    return 0 < dot and name[dot:].lower() in _BINARY_SUFFIXES


_MAX_IGNORE_BYTES = 1024 * 1024  # a larger .gitignore is not read


def format_by_name(path: AnyPath) -> Optional[str]:
    """The format a path's file name says."""
    return format_by_filename(os.path.basename(path))


def claimed(path: str) -> bool:
    """Whether a walked file is one a format reads: its name says so, or its content does (a
    ``#!`` line, a content claim, a vLLM command line in a text file: ``format_by_content``).
    ``--show-files`` lists these; the other walked files are only screened for a launch marker."""
    if format_by_name(path) is not None:
        return True
    try:
        with open(path, "rb") as fh:
            data = fh.read(10 * 1024 * 1024)
    except OSError:
        return False
    return data.find(b"\x00", 0, 8192) < 0 and format_by_content(data, os.path.basename(path)) is not None


NAME_UNREAD: Any = object()  # (a Target whose name was not looked at yet: its constructor looks)


class Target(Record):
    """A file to lint. ``path``: as shown in findings, normalised as ``str(Path(...))`` would (a
    string: a path object per walked file cost more than the rest of screening it); ``explicit``:
    named on the command line, not found by a directory walk; ``named``: the format its file name
    says (``format_by_name``), found once: the walk has it already, and screening, the cache's
    verdicts and the warm-up before forking read it here."""

    __slots__ = ("path", "explicit", "named")

    def __init__(self, path: str, explicit: bool, named: Optional[str] = NAME_UNREAD) -> None:
        self.path = path
        self.explicit = explicit
        self.named = format_by_name(path) if named is NAME_UNREAD else named


def discover(paths: Iterable[str], settings: Settings) -> tuple[list[Target], list[Diagnostic]]:
    """Files to lint. Explicit files are always linted, unless ``force-exclude`` is on and an
    ``exclude`` / ``extend-exclude`` pattern matches the file or a folder above it (pre-commit names
    every staged file); directories are walked honouring ``.gitignore``, ``.git/info/exclude``,
    ``exclude`` / ``extend-exclude`` and skipping VCS, virtualenvs and node_modules, without following
    symbolic links (a path named on the command line is followed: the user chose it). Missing paths
    become VL001 findings."""

    out: list[Target] = []
    problems: list[Diagnostic] = []
    excludes = list(settings.exclude) + list(settings.extend_exclude)
    user_spec = _spec(excludes) if excludes else None
    if user_spec is not None:  # (pathlib only where patterns are matched: benchmarks/README.md)
        from pathlib import Path

        base = settings.source.parent if settings.source else Path.cwd()
    base_real: Optional[Path] = None  # (resolved once, at the first path asked about)

    def excluded(path: str, real: Optional[str] = None) -> bool:
        """Whether the patterns match ``path`` (relative to the configuration's folder, real paths
        compared) or its name. ``real``: the path's real path when the caller knows it (the walk
        does, from its folder's: a resolve per path cost an lstat per component of it)."""
        nonlocal base_real
        if user_spec is None:
            return False
        if base_real is None:
            base_real = base.resolve()
        if real is not None and os.sep == "/":
            top = str(base_real)
            if real == top:
                rel = "."
            elif real.startswith(top) and (top == "/" or real[len(top)] == "/"):
                rel = real[len(top):].lstrip("/")
            else:
                rel = Path(path).as_posix()
            return user_spec.match_file(rel) or user_spec.match_file(os.path.basename(path))
        p = Path(path)
        try:
            rel = p.resolve().relative_to(base_real).as_posix()
        except ValueError:
            rel = p.as_posix()
        return user_spec.match_file(rel) or user_spec.match_file(p.name)

    seen: set[str] = set()
    paths = list(paths)
    # (one path named: its walk meets each real file once, as it follows no link below it; the
    # real paths that tell files apart are made only where two paths may meet or an exclude
    # pattern compares them: a string and a set entry per file, ~5 MB at 50k files)
    keys = len(paths) > 1 or user_spec is not None
    for raw in paths:
        p = path_str(raw)  # (``str(Path(raw))``)
        if not os.path.lexists(p):
            problems.append(Diagnostic("VL001", "no such file or directory", raw, None, line=1))
            continue
        if settings.force_exclude and _force_excluded(p, excluded):
            continue
        if path_is(p, stat.S_ISDIR):
            root = p
            # the walk's paths are ``root/name...``: normalised as ``root`` is, except that the
            # entries of "." read "./name" where ``str(Path("./name"))`` is "name"
            cut = 2 if root == "." else 0
            if not keys:
                out.extend(Target(f[cut:], False, named) for f, _key, named in _walk(root, excluded, False))
                continue
            for f, key, named in _walk(root, excluded):
                if key not in seen:
                    seen.add(key)
                    out.append(Target(f[cut:], False, named))
        else:
            key = os.path.realpath(p)
            if key not in seen:
                seen.add(key)
                out.append(Target(p, True))
    return out, problems


def _force_excluded(p: str, excluded) -> bool:
    """Whether an explicitly named path (as ``str(Path(...))`` spells it), or a folder above it,
    is excluded (``--force-exclude``)."""
    if excluded(p):
        return True
    if not os.path.isabs(p) and any(part in _SKIP_DIRS for part in p.split(os.sep)[:-1]):
        return True
    parent = os.path.dirname(p)  # (``Path.parent``, but "" for ".": neither is a folder to match)
    while parent not in ("", ".", os.sep) and parent != os.path.dirname(parent):
        if excluded(parent):
            return True
        parent = os.path.dirname(parent)
    return False


def _spec(lines: list[str]):
    import pathspec

    try:  # pathspec >= 1.0 names git's own semantics "gitignore"
        return pathspec.PathSpec.from_lines("gitignore", lines)
    except (KeyError, LookupError):
        return pathspec.PathSpec.from_lines("gitwildmatch", lines)


def git_exclude_lines(repo_dir: str) -> list[str]:
    """The pattern lines of the repository's ``info/exclude`` (``repo_dir`` holds its ``.git``);
    none when it has none. ``.git`` may be a file (a worktree or a submodule: ``gitdir: PATH``);
    a worktree's exclude file is its common directory's."""
    git = os.path.join(repo_dir, ".git")
    try:
        # (read for the release choices' walks too: the result cache's survey; a .git folder only
        # as there, a worktree's .git file as read)
        watch(git, exists=not os.path.isfile(git))
        if os.path.isfile(git):
            with open(git, encoding="utf-8", errors="replace") as fh:
                line = fh.readline().strip()
            if not line.startswith("gitdir:"):
                return []
            git = os.path.join(repo_dir, line[len("gitdir:"):].strip())
            common = os.path.join(git, "commondir")
            watch(common)
            if os.path.isfile(common):
                with open(common, encoding="utf-8", errors="replace") as fh:
                    git = os.path.join(git, fh.readline().strip())
        watch(os.path.join(git, "info", "exclude"))
        with open(os.path.join(git, "info", "exclude"), encoding="utf-8", errors="replace") as fh:
            return [ln for ln in fh.read().splitlines() if ln.strip() and not ln.startswith("#")]
    except (OSError, UnicodeError):
        return []


def _git_exclude(repo_dir: str) -> Optional[Any]:
    """The patterns of the repository's ``info/exclude`` (:func:`git_exclude_lines`), as git and
    ruff honour them; None when there are none."""
    lines = git_exclude_lines(repo_dir)
    return _spec(lines) if lines else None


def _repository_of(root: str) -> Optional[str]:
    """The nearest directory at or above ``root`` that holds a ``.git`` (directory or file)."""
    d = os.path.abspath(root)
    while True:
        if os.path.exists(os.path.join(d, ".git")):
            return d
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def _holds_venv(entries: list) -> bool:
    """Whether a folder's sorted listing holds a ``pyvenv.cfg`` (``os.path.exists``: a link to
    nothing is none): the folder is a virtual environment, which a walk skips."""
    lo, hi = 0, len(entries)
    while lo < hi:  # (bisection by name: the listing is sorted)
        mid = (lo + hi) // 2
        if entries[mid].name < "pyvenv.cfg":
            lo = mid + 1
        else:
            hi = mid
    return lo < len(entries) and entries[lo].name == "pyvenv.cfg" and os.path.exists(entries[lo].path)


def _walk(root: str, excluded, keys: bool = True) -> Iterable[tuple[str, Optional[str], Optional[str]]]:
    """Candidate files under ``root``: each path, with its real path (the key that makes a file
    linted once; None without ``keys``, when no exclude pattern compares real paths either) and
    the format its name says. Strings and directory entries throughout: a path
    object per walked file, and a system call per file to resolve it, were most of this
    function's cost (benchmarks/README.md). A directory is resolved once (``fsutil.real_dir``).
    Symbolic links below ``root`` are not followed (``root`` itself is, the user named it).

    Each folder is walked with the ignore files of the folders above it only (its own and its
    ancestors' ``.gitignore``, the exclude files of the repositories it is in): a path is matched
    against the rules that can apply to it, not against every ignore file the walk has found
    (that was O(files x ignore files): 0.9 s for 12k files with a ``.gitignore`` per folder)."""
    # (directory with a trailing separator, its .gitignore or info/exclude, the path from the
    # patterns' base to that directory: "" but for an exclude file of a repository above the root)
    top: list[tuple[str, Any, str]] = []
    visited: set[tuple[int, int]] = set()
    real_dirs: dict[str, str] = {}  # fsutil.real_dir's memo
    repo = _repository_of(root)
    if repo is not None:
        spec = _git_exclude(repo)
        if spec is not None:
            lead = os.path.relpath(os.path.abspath(root), repo)
            top.append((os.path.join(root, ""), spec, "" if lead == os.curdir else os.path.join(lead, "")))

    def ignored(specs: list, path: str, is_dir: bool) -> bool:
        for prefix, spec, lead in specs:
            if path.startswith(prefix):
                rel = lead + path[len(prefix):]
                if os.sep != "/":
                    rel = rel.replace(os.sep, "/")
                if spec.match_file(rel + "/" if is_dir else rel):
                    return True
        return False

    stack: list[tuple[str, list]] = [(root, top)]
    while stack:
        d, specs = stack.pop()
        try:
            st = os.stat(d)
            entries = sorted(os.scandir(d), key=lambda e: e.name)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in visited:  # symlink loops
            continue
        if d != root and _holds_venv(entries):
            continue  # (a virtual environment: known from its own listing, not a stat before it is pushed)
        visited.add((st.st_dev, st.st_ino))
        own: list[tuple[str, Any, str]] = []
        for e in entries:
            if e.name == ".git" and d != root:  # a nested repository's own exclude file
                spec = _git_exclude(d)
                if spec is not None:
                    own.append((os.path.join(d, ""), spec, ""))
            elif e.name == ".gitignore":
                try:
                    if e.is_file(follow_symlinks=False):
                        text = read_regular(e.path, _MAX_IGNORE_BYTES).decode("utf-8", errors="replace")
                        own.append((os.path.join(d, ""), _spec(text.splitlines()), ""))
                except Exception:
                    pass
            elif e.name > ".gitignore":
                break  # (sorted by name)
        if own:
            specs = specs + own  # (a new list: the folders beside this one keep their own)
        real_d = real_dir(d, real_dirs) if keys else None
        subdirs = []
        for e in entries:
            try:
                # a regular file or a folder, neither through a link (one test for a file: most
                # entries). A link is not followed, as git and ruff walk: its target may lie outside
                # the tree the user named (and --fix would write there); a link inside it leads to
                # what the walk finds. A FIFO, socket or device is not read: it could block (named:
                # a VL001 finding).
                if e.is_file(follow_symlinks=False):
                    is_dir = False
                elif e.is_dir(follow_symlinks=False):
                    is_dir = True
                else:
                    continue
            except OSError:
                continue
            path = e.path
            name = e.name
            if is_dir:
                if name in _SKIP_DIRS or name in _SKIP_HIDDEN \
                        or (specs and ignored(specs, path, True)) \
                        or (keys and excluded(path, os.path.join(real_d, name))):
                    continue
                subdirs.append(path)
            else:
                real = os.path.join(real_d, name) if keys else None
                if name in _SKIP_DIRS or (specs and ignored(specs, path, False)) or (keys and excluded(path, real)):
                    continue  # (a worktree's or submodule's ``.git`` is a file: git's, not a launch's)
                named = format_by_filename(name)
                if named is not None or not _binary_by_name(name):
                    yield path, real, named
        stack.extend((p, specs) for p in reversed(subdirs))
