"""The scripts that run a script and install the release it runs on (``Targeting``'s source after
the runners of the file's folder): an experiment runner that does ``pip install vllm==0.8.4``
then ``bash model_scripts/pythia_1b.sh`` deploys 0.8.4 for the script it calls.

A caller is a shell script (``.sh``, ``.bash``, ``.slurm``, ``.sbatch``) of the same repository
(the folder holding ``.git``; outside a repository, the file's own folder only) that installs a
release (an install command with ``vllm==X``, vLLM's source built at a tag:
``knowledge.source_builds``, or an HPC site's module of a release: ``module load vLLM/0.11.0``,
``ml vllm/0.10.1``), then names the script, or the Python file it runs, by path: ``bash
model_scripts/x.sh``, ``python recipes/serve.py``, ``PY=${WD}/recipes/serve.py`` then ``srun python
"$PY"``,
``./x.sh``, ``source x.sh``, ``sbatch jobs/x.slurm`` (also up a folder, with ``..``), a glob
``for s in model_scripts/*.sh``, a variable in the file name (``model_scripts/${model}.sh`` in a
loop over names: any script there, as a glob). A leading ``$DIR/`` is the folder the script assigns to it
(``DIR=model_scripts``), else it (and the ``..`` after it) is passed over, as ``$(dirname
"$0")/`` is; a bare name after ``cd DIR`` is in DIR. A path with a folder is matched against the
end of the script's path in the repository, a bare name only beside the caller. A path named
before the install counts when a variable holds it (``MODEL_SCRIPT=model_scripts/x.sh``, called
later). Several callers naming one release give it; callers naming different releases give
their range, whose newest release runs (said so in --verbose).

The repository is walked once per run and its callers indexed by the name each path ends in
(bounded: :data:`MAX_ENTRIES` entries, :data:`MAX_SCRIPTS` scripts read, :data:`MAX_BYTES`
each; only those naming vllm are parsed); dot folders and ``node_modules`` are not walked."""

from __future__ import annotations

import os
import re

from .. import fsutil, inputs
from ..fsutil import TooLarge, read_listed, read_regular, relative_path, watch
from ..record import Record, lazy_re
from .surroundings import CALLED_SUFFIXES, CALLER_SUFFIXES, Named, Surroundings, lines_holding

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

MAX_ENTRIES = 50_000
MAX_SCRIPTS = 5_000
MAX_BYTES = 1 << 20
HELD_BYTES = 8 << 20  # (the scripts a one-file run holds before their screen: :meth:`Callers._all`)
_SUFFIXES = CALLER_SUFFIXES  # a caller's
_CALLED = CALLED_SUFFIXES  # what a caller names: a script, or the Python file it runs
_PATH_WORD = lazy_re(r"(?<![\w./$}*-])((?:\$\{?\w+\}?/|[\w.-]+/|/)*(?:[\w.*-]|\$\{?\w+\}?)+\.(?:sh|bash|slurm|sbatch|py))(?![\w.-])")
# a variable in a script's file name (`model_scripts/${model}.sh` in a loop over names): any name there
_NAME_VAR = lazy_re(r"\$\{?\w+\}?")
# what every glob _PATH_WORD finds ends in, a `*` or a variable in its name (a screen: a script
# without one names no other by a glob)
_GLOB_NAME = lazy_re(r"(?:\*|\$\{?\w+\}?)(?:[\w.*-]|\$\{?\w+\}?)*\.(?:sh|bash|slurm|sbatch|py)(?![\w.-])")
# an install of a release in a command of the script (`pip install vllm==0.8.4`, `if uv pip install
# -q "vllm==0.8.4"; then`, `$VENV/bin/pip install`), not a comment nor a message
_INSTALL = lazy_re(r"(?m)^(?![ \t]*(?:#|echo\b|printf\b))[^\n]*?\b(?:pip3?|uv)[ \t]+(?:install|add)[ \t][^\n]*?"
                   r"(?<![\w/.-])[\"']?vllm(?:\[[^\]\n]*\])?[ \t]*===?[ \t]*v?([0-9][0-9a-zA-Z.+]*)")
# an HPC site's environment module of a release, loaded in a command of the script (`module load
# NRIS/GPU vLLM/0.11.0`, `ml vllm/0.10.1`, EasyBuild's `vLLM/0.11.0-foss-2024a-CUDA-12.6.0`): the
# site built that release (frontends.commands.version_from_module_load reads the same words)
_MODULE = lazy_re(r"(?im)^(?:[^\n#]*?(?:&&|\|\||;|\bthen|\bdo)[ \t]*|[ \t]*)(?:module[ \t]+(?:load|add|switch|swap)|ml)[ \t][^\n;&|]*"
                  r"(?<![\w/.-])vllm/v?(\d+\.\d+(?:\.\d+)*(?:\.post\d+)?)(?![\w.])")
# the start of an assignment whose value is the path (`MODEL_SCRIPT="model_scripts/x.sh"`, an array)
_ASSIGNED = lazy_re(r"(?:export[ \t]+|local[ \t]+|declare[ \t]+-\w+[ \t]+)?[A-Za-z_]\w*(?:\[\w*\])?\+?=\(?[^\n]*$")
# `cd DIR` (DIR as written, a leading variable passed over): the folder later bare names are in
_CD = lazy_re(r"(?:^|[;&|(]|\bthen|\bdo)[ \t]*(?:builtin[ \t]+)?(?:cd|pushd)[ \t]+[\"']?([^\s\"';&|)]+)", re.M)


class _Caller(Record):
    __slots__ = ("folder", "release", "why", "refs", "read")

    def __init__(self, folder: str, release: str, why: str, refs: list[tuple[str, int]]) -> None:
        self.folder = folder  # the caller's folder, relative to the repository root ("" at the root)
        self.release = release
        self.why = why
        self.refs = refs  # (path as written, normalised), offset
        self.read: Optional[tuple[str, str]] = None  # (absolute path, content key): vllm_lint.inputs


def _file_in_root(directory: str, name: str, root: str) -> str:
    """The path of file ``name`` of the real folder ``directory`` relative to the repository
    ``root``, with ``/`` (``fsutil.relative_path``: no relpath per file)."""
    return relative_path(os.path.join(directory, name), root).replace(os.sep, "/")


class Callers:
    """The callers of a repository's scripts, indexed once per repository root per run."""

    def __init__(self, surroundings: Surroundings) -> None:
        self.surroundings = surroundings
        self._index: dict[str, dict[str, list[tuple[str, _Caller, str]]]] = {}  # root -> name -> (caller, ref)
        self._read: dict[str, list[list]] = {}  # root -> every script its walk read, screened or not (_all)
        self._scripts: dict[str, list[list]] = {}  # root -> the scripts that may call (_scan)
        self.reads = 0  # the scripts read (a count the tests read: the work of a walk)
        self.screens = 0  # those given the byte screen (``_may_call``): a one-file run screens only the
        # scripts whose bytes may name the file (:meth:`_refs`)
        self.screened = 0  # those that passed it

    def caller_for(self, directory: str, name: str) -> Optional[Named]:
        """What the scripts calling the file ``name`` of the real folder ``directory`` install."""
        if not name.endswith(_CALLED):
            return None  # (every path a caller names ends in a script's or Python's suffix, _PATH_WORD: nothing to walk for)
        root = self.surroundings.root_of(directory) or directory
        rel = _file_in_root(directory, name, root)
        if rel.startswith("../"):
            return None
        found: list[tuple[str, _Caller]] = []
        base = rel.rsplit("/", 1)[-1]
        for path, c, ref in self._refs(root, base):  # (the refs ending in its name, then the globs)
            if path != rel and _names(ref, c.folder, rel) and (path, c) not in found:
                found.append((path, c))
        if not found:
            return None
        releases = sorted({c.release for _p, c in found}, key=_version_key)
        said = "; ".join(f"{p} {c.why}" for p, c in found[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
        if len(releases) == 1:
            return Named(releases[0], f"run by {said}", read=found[0][1].read)
        return Named(f">={releases[0]},<={releases[-1]}", f"run by scripts installing different releases ({said})",
                     spec=True)

    def index(self, directory: str) -> None:
        """Index the callers of the repository holding the real folder ``directory`` now, as the
        second script asked about would (a run that shares its files with worker processes does
        this before forking, so that each does not walk and read the repository's scripts again:
        ``pipeline.parallel``)."""
        self._callers(self.surroundings.root_of(directory) or directory)

    def _refs(self, root: str, base: str) -> list[tuple[str, _Caller, str]]:
        """(caller's path, caller, ref) of the refs whose name is ``base``, then of every glob, in
        the order of the walk. The first script asked about in a repository (a one-file run) screens
        and parses only the scripts whose bytes hold its name, a ``$`` or a ``*`` (a ref's name, or
        a glob's ``*`` or variable, is written in the text: :data:`_PATH_WORD`), and of those the
        ones whose text holds its name or a glob's; a second one indexes every caller by name, once
        (:meth:`_callers`)."""
        index = self._index.get(root)
        if index is not None:
            return index.get(base, []) + index.get("*", [])
        if root in self._read or root in self._scripts:  # (a second script of this repository: index them all)
            index = self._callers(root)
            return index.get(base, []) + index.get("*", [])
        named: list[tuple[str, _Caller, str]] = []
        globs: list[tuple[str, _Caller, str]] = []
        written = _bytes_of(base)
        for script in self._all(root):
            if written is not None:  # (bytes.find: `in` on bytes formats and drops a TypeError each time)
                data = script[2]
                if data.find(written) < 0 and data.find(b"$") < 0 and data.find(b"*") < 0:
                    continue  # (its text holds neither the name nor a glob's `*` or variable)
            if not self._kept(script):
                continue
            if base not in script[3] and not (_may_glob(script[3]) and _GLOB_NAME.search(script[3])):
                continue
            c = _parsed(script)
            for ref, _at in c.refs if c is not None else ():
                name = ref.rsplit("/", 1)[-1]
                if "*" in name:
                    globs.append((script[0], c, ref))
                elif name == base:
                    named.append((script[0], c, ref))
        return named + globs

    def _callers(self, root: str) -> dict[str, list[tuple[str, _Caller, str]]]:
        """The repository's callers by the name their path ends in (``*``: a glob's), once."""
        if root not in self._index:
            index: dict[str, list[tuple[str, _Caller, str]]] = {}
            for script in self._scan(root):
                c = _parsed(script)
                for ref, _at in c.refs if c is not None else ():
                    name = ref.rsplit("/", 1)[-1]
                    index.setdefault("*" if "*" in name else name, []).append((script[0], c, ref))
            self._index[root] = index
            self._scripts.pop(root, None)
            self._read.pop(root, None)
        return self._index[root]

    def _scan(self, root: str) -> list[list]:
        """The scripts of the repository that may be callers (they name vllm and install a release:
        ``==`` or vLLM's source), in walk order (each folder's files by name, then its folders by
        name), once per root: [path relative to the root, folder, bytes, text, root, the caller
        or None (parsed at first use, :func:`_parsed`), ...]."""
        got = self._scripts.get(root)
        if got is None:
            got = self._scripts[root] = [script for script in self._all(root) if self._kept(script)]
        return got

    def _all(self, root: str) -> list[list]:
        """Every script the repository's walk read, in walk order, once per root, screened at first
        use (:meth:`_kept`): [None, folder, bytes, None, root, False, path, None] until then. Past
        :data:`HELD_BYTES` of scripts held unscreened, each is screened as it is read and the bytes
        of one that cannot call dropped (a repository of large scripts is not held whole)."""
        got = self._read.get(root)
        if got is None:
            got = self._read[root] = []
            held = 0
            for script in self._walk(root):
                if held <= HELD_BYTES:
                    held += len(script[2])
                elif not self._kept(script):
                    script[2] = b""
                got.append(script)
        return got

    def _kept(self, script: list) -> bool:
        """Whether a read script passes the byte screen (:func:`_may_call`), decided once; a kept
        one gets its path relative to the root and its text."""
        kept = script[7]
        if kept is None:
            self.screens += 1
            kept = script[7] = _may_call(script[2])
            if kept:
                self.screened += 1
                script[0] = relative_path(script[6], script[4]).replace(os.sep, "/")
                script[3] = script[2].decode("utf-8", errors="replace")
        return kept

    def _walk(self, root: str):
        """Every script (a caller's suffix) of the repository at ``root``, read, in walk order (each
        folder's files by name, then its folders by name; os.walk's order without its per-folder
        lstat: links found on the entries): [None, folder, bytes, None, root, False, path, None]
        (:meth:`_all`; its screen, :meth:`_kept`, at first use)."""
        read = 0
        seen = 0
        in_repo = self.surroundings.root_of(root) is not None
        # (outside a repository only the folder itself is walked: no rules of what to leave out read)
        ignores: Any = self.surroundings.ignored_folders if in_repo else None
        stack: list[tuple[str, list]] = [(root, ignores.root_rules(root) if in_repo else [])]
        ruled: Optional[list] = None  # (the rules last asked about, and the names they may leave out)
        named: frozenset = frozenset()
        while stack:
            d, above = stack.pop()
            dirs: list[str] = []
            scripts: Optional[list[tuple[str, bool]]] = None  # (the files with a script's suffix, listed as regular or not: the only ones read)
            files = 0
            gitignore = False
            links: Optional[set[str]] = None
            if fsutil._watch is not None:
                watch(d)  # (the result cache's survey: a listing is its folder's signature)
            try:
                it = os.scandir(d)
            except OSError:
                continue
            with it:
                for e in it:
                    try:
                        is_dir = e.is_dir()
                    except OSError:
                        is_dir = False
                    if is_dir:
                        if in_repo:
                            name = e.name
                            if name[0] != "." and name != "node_modules":
                                dirs.append(name)
                                if e.is_symlink():  # (listed, not walked: os.walk's followlinks=False)
                                    if links is None:
                                        links = set()
                                    links.add(name)
                        continue
                    files += 1
                    name = e.name
                    last = name[-1]  # (every suffix of a caller ends in `h` or `m`: no endswith for the rest)
                    if last == "h" or last == "m":
                        if name.endswith(_SUFFIXES):
                            try:
                                regular = e.is_file(follow_symlinks=False)
                            except OSError:
                                regular = False
                            if scripts is None:
                                scripts = []
                            scripts.append((name, regular))
                    elif last == "e" and name == ".gitignore":
                        gitignore = True
            seen += len(dirs) + files
            if seen > MAX_ENTRIES:
                return
            prefix = d if d.endswith(os.sep) else d + os.sep  # (os.path.join(d, name) for a listed name)
            if scripts is not None:
                scripts.sort()
                for fname, regular in scripts:
                    read += 1
                    if read > MAX_SCRIPTS:
                        return
                    self.reads += 1
                    path = prefix + fname
                    try:  # (a file listed as regular is read without its fstat: fsutil.read_listed)
                        data = (read_listed if regular else read_regular)(path, MAX_BYTES)
                    except (OSError, TooLarge):
                        continue
                    yield [None, d, data, None, root, False, path, None]
            if d != root and gitignore:
                rules = ignores.rules(d)
                if rules is not None:
                    above = above + [(d, rules)]
            if dirs:
                dirs.sort()
                if above and above is not ruled:
                    ruled, named = above, ignores.names_ruled(above)
                for x in reversed(dirs):  # (a folder the repository's .gitignore names is not walked)
                    if (links is None or x not in links) and not (above and x in named
                                                                  and ignores.ignored(prefix + x, above)):
                        stack.append((prefix + x, above))


def _may_call(data: bytes) -> bool:
    """Whether a script's bytes may make it a caller (``_read_caller``): vllm and ``==`` (an install
    of a release: ``_INSTALL``) or vLLM's source (a build at a tag), or an HPC module of a release
    (``_MODULE``: ``vllm/``, a ``v`` or not, and a digit, in any case). The module is looked for in
    the script's lower case (the lower case of bytes is ASCII's, as an expression's ``(?i)`` on
    bytes is) by ``bytes.find``, a few of its bytes tried at each ``vllm/``: an expression ignoring
    case steps every byte (~50 instructions a byte), and every script of a repository that installs
    nothing is screened (benchmarks/README.md, eighth and ninth passes)."""
    if data.find(b"vllm") >= 0 and (data.find(b"==") >= 0 or data.find(b"vllm-project/vllm") >= 0):
        return True  # (bytes.find, not `in`: `in` on bytes first tries the needle as an int, a TypeError each time)
    low = data.lower()
    i = low.find(b"vllm/")
    while i >= 0:
        c = low[i + 5:i + 6]
        if c == b"v":
            c = low[i + 6:i + 7]
        if c and c.isdigit():  # (an ASCII digit: bytes.isdigit is ASCII's)
            return True
        i = low.find(b"vllm/", i + 5)
    return False



def _may_glob(text: str) -> bool:
    """Whether :data:`_GLOB_NAME` may match in ``text``: a match lies on one line (none of its
    characters is a line break) that holds a ``*`` or a ``$`` and a script's ending. A script whose
    lines with a ``$`` name no script is not searched, nor the expression compiled (~1 M
    instructions of a one-file run in this repository, whose test scripts use variables)."""
    for start, end in lines_holding(text, _SCRIPT_ENDINGS):
        if text.find("$", start, end) >= 0 or text.find("*", start, end) >= 0:
            return True
    return False


def _bytes_of(name: str) -> Optional[bytes]:
    """The bytes a script's text holds where its decoded text holds ``name`` (UTF-8), or None when
    that is not so for every text: a name holding U+FFFD (which a byte that is no UTF-8 decodes to)
    or a character no UTF-8 spells (a file name's undecodable byte)."""
    if "\ufffd" in name:
        return None
    try:
        return name.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _parsed(script: list) -> Optional[_Caller]:
    """The caller a scanned script is (None: it installs no release or names no script), read once."""
    if script[5] is False:
        path, d, data, text, root = script[:5]
        caller = _read_caller(text, os.path.relpath(d, root))
        if caller is not None:
            caller.read = (os.path.abspath(os.path.join(d, path.rsplit("/", 1)[-1])), inputs.key_of(data))
        script[5] = caller
    return script[5]


def _read_caller(text: str, folder: str) -> Optional[_Caller]:
    """A script's install (its first ``vllm==X`` install command, else an HPC module of a
    release, else vLLM's source built at a tag) and the script paths it names after it; None
    without either."""
    release, at, why = None, -1, ""
    for m in _INSTALL.finditer(text):
        release, at = m.group(1), m.start()
        why = f"(line {text.count(chr(10), 0, at) + 1}: installs vllm=={release})"
        break
    if release is None:
        m = _MODULE.search(text)
        if m is not None:
            release, at = m.group(1), m.start()
            why = f"(line {text.count(chr(10), 0, at) + 1}: loads the module vllm/{release})"
    if release is None and "vllm-project/vllm" in text:
        from ..knowledge.source_builds import source_builds

        built = source_builds(text.encode())
        if built:
            release, at = built[0].ref, len(text.encode()[:built[0].start].decode("utf-8", errors="replace"))
            why = f"(line {built[0].line}: vLLM built from its source, {built[0].how})"
    if release is None:
        return None
    refs = []
    values = _folder_values(text)
    cds = [(m.start(), _normal(_filled(m.group(1), values))) for m in _on_lines(_CD, text, _CD_WORDS)]
    for m in _on_lines(_PATH_WORD, text, _SCRIPT_ENDINGS):
        line_start = text.rfind("\n", 0, m.start()) + 1
        head = text[line_start:m.start()].lstrip()
        if head.startswith("#") or (m.start() < at and not _ASSIGNED.match(head)):
            continue  # (before the install: only a path a variable holds, called later)
        ref = _normal(_filled(m.group(1), values))
        head_part, slash, name_part = ref.rpartition("/")
        if "$" in name_part:
            ref = head_part + slash + _NAME_VAR.sub("*", name_part)
        cwd = next((d for o, d in reversed(cds) if o < m.start()), None)
        if cwd is not None and not ref.startswith("/") and cwd not in ("-", "~"):
            ref = (cwd.rstrip("/") + "/" + ref) if cwd.startswith("/") else os.path.normpath(cwd + "/" + ref).replace(os.sep, "/")
        refs.append((ref, m.start()))
    if not refs:
        return None
    return _Caller("" if folder == "." else folder.replace(os.sep, "/"), release.lstrip("v"), why, refs)


# what a line holds when _PATH_WORD or _CD can match on it (neither crosses a line break)
_SCRIPT_ENDINGS = CALLED_SUFFIXES  # (_PATH_WORD ends in one of them)
_CD_WORDS = ("cd", "pushd")


def _on_lines(pattern, text: str, words: tuple[str, ...]):
    """``pattern.finditer(text)`` for a pattern whose matches hold one of ``words`` and no line
    break: run on the lines that hold one (``surroundings.lines_holding``; ``finditer``'s ``pos``
    and ``endpos``: what lies before and after a line is the line break either way), not on the
    whole text. Its index of a repository (every script installing a release) ran the two
    expressions over every script's text: ~47 of its 67 ms in the 10k monorepo
    (benchmarks/README.md, seventh pass)."""
    for start, end in lines_holding(text, words):
        yield from pattern.finditer(text, start, end)


_FOLDER_VALUE = lazy_re(r"""(?m)^[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+)?([A-Za-z_]\w*)=["']?([\w./${}-]+?)/?["']?[ \t]*(?:#.*)?$""")
_LEADING_VAR = lazy_re(r"^\$(?:\{(\w+)\}|(\w+))")


def _folder_values(text: str) -> dict[str, Optional[str]]:
    """NAME -> value of the script's assignments of a path (``MODEL_DIR=model_scripts``); None
    for a name given two values."""
    out: dict[str, Optional[str]] = {}
    for m in _FOLDER_VALUE.finditer(text):
        name, value = m.group(1), m.group(2)
        out[name] = value if out.get(name, value) == value else None
    return out


def _filled(ref: str, values: dict[str, Optional[str]]) -> str:
    """``ref`` with its leading variable replaced by the script's value for it (three levels:
    ``ROOT=..``, ``DIR=$ROOT/model_scripts``, ``$DIR/x.sh``)."""
    for _ in range(3):
        m = _LEADING_VAR.match(ref)
        value = values.get(m.group(1) or m.group(2)) if m else None
        if not value:
            break
        ref = value + ref[m.end():]
    return ref


def _normal(ref: str) -> str:
    """A script path as written, without ``./``; a leading variable (``$DIR/``, ``${ROOT}/``,
    ``$(dirname "$0")/``) and the parent folders (``..``) after it become ``/``: the end of a path."""
    ref = re.sub(r"^(?:\$\{?\w+\}?/|/)+(?:\.\.?/)*", "/", ref) if ref.startswith(("$", "/")) else ref
    while ref.startswith("./"):
        ref = ref[2:]
    return ref


def _names(ref: str, folder: str, rel: str) -> bool:
    """Whether the path ``ref`` a caller in ``folder`` names is the script at ``rel`` (both
    relative to the repository root); a ``*`` in its name matches as the shell's glob does."""
    if "*" in ref:  # the glob's folder, and the script's name matching its pattern
        from fnmatch import fnmatchcase

        head, _, pattern = ref.rpartition("/")
        name = rel.rsplit("/", 1)[-1]
        return fnmatchcase(name, pattern) and "*" not in head and _names(f"{head}/{name}" if head else name, folder, rel)
    if "/" not in ref:  # a bare name: beside the caller
        return (f"{folder}/{ref}" if folder else ref) == rel
    if ref.startswith("/"):  # after a variable or absolute (inside an image, the checkout on a cluster): the end
        return rel == ref[1:] or rel.endswith(ref) or ref.endswith("/" + rel)  # of one path is the other
    joined = os.path.normpath(os.path.join(folder, ref)).replace(os.sep, "/")
    if joined == rel:  # from the caller's folder
        return True
    tail = re.sub(r"^(?:\.\.?/)+", "", ref)
    return rel == tail or rel.endswith("/" + tail)  # from the repository root, or a folder the caller enters


def _version_key(v: str) -> tuple:
    from packaging.version import InvalidVersion, Version

    try:
        return (0, Version(v))
    except InvalidVersion:
        return (1, v)
