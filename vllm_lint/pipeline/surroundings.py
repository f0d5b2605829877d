"""What the files around a launch say about the vLLM release it runs on (``Targeting``'s third
source, after ``-t`` and the launch's own hints).

Two kinds, each read once per directory per run (:class:`Surroundings`):

* **runners**: the files that run a script or configure the image it runs in: a Dockerfile
  (``Dockerfile``, ``Dockerfile.*``, ``*.Dockerfile``, ``Containerfile``), a compose file, a
  Kubernetes manifest, a Truss ``config.yaml`` (``base_image``), that names a vLLM image, a
  chart's ``Chart.yaml`` ``appVersion`` (when a template of the chart takes its image tag from it)
  and a kustomization's ``images:`` override. A runner in the file's own folder applies when it
  is the only release named there; a runner in a folder above applies only when it names the
  file (``COPY scripts/serve.sh``, ``command: ["/app/serve.sh"]``, ``ENTRYPOINT``), up to the
  repository root (the folder holding ``.git``; without one, the file's own folder only);
* **pins**: requirement and lock files in the file's folder or above (to the repository root, as
  before): ``requirements*.txt`` / ``constraints*.txt`` / ``.in``, ``pyproject.toml``,
  ``uv.lock``, ``poetry.lock``, ``pdm.lock``, ``Pipfile.lock``, ``pixi.lock``, a conda ``environment.yml``. A
  range (``vllm>=0.8,<0.10``) gives the newest release of the database it allows, said so.

The file that names the release is noted in ``vllm_lint.inputs`` (``Named.read``: the result
cache keeps a result while it is unchanged), and the choice is part of the cached verdict
(``engine._verdict``), recomputed on every run from one read of each folder, so a file changed
or added beside a launch is seen on the next run. The files that named nothing are not noted: a
monorepo's folder of a thousand manifests would put a thousand reads in every record. Files over
:data:`MAX_BYTES` are not read.
"""

from __future__ import annotations

import os
import re

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)
from .. import inputs
from ..frontends.base import builds_image_by_name
from ..fsutil import TooLarge, read_head, read_regular, watch
from ..images import TAG_KEYS, image_is_vllm, version_from_image
from ..record import Record, lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

    from .ignored_folders import IgnoredFolders

MAX_BYTES = 1 << 20
#: the scripts of a repository that may run another file (``pipeline.callers`` walks and reads
#: only these)
CALLER_SUFFIXES = (".sh", ".bash", ".slurm", ".sbatch")
#: what a caller may name: a script, or the Python file it runs (the only files ``pipeline.callers``
#: is asked about)
CALLED_SUFFIXES = CALLER_SUFFIXES + (".py",)
_YAML = (".yaml", ".yml")
#: the words a file naming a platform plugin's release holds (``pipeline.plugin_evidence``'s screen;
#: here, so that a folder's reading notes the files holding none without importing it)
_PLUGIN_WORDS = ("ascend", "spyre", "gaudi", "metax", "musa", "rbln", "kunlun", "neuron", "tpu")
PLUGIN_WORDS = tuple(w.encode() for w in _PLUGIN_WORDS)  # (for a screen of lower-cased ASCII bytes)
_FROM = lazy_re(r"^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)", re.M | re.I)
_IMAGE = lazy_re(r"""(?:^|[\s{,])(?:image|newName)[ \t]*:[ \t]*["']?((?:\$\{[^}\s"']*\}|[^\s"'#,}$]|\$(?!\{))+)""", re.M)
_WORD = lazy_re(r"[\w./-]+")  # (one pass: a long base64 line must not backtrack)
_SCRIPT_SUFFIXES = (".sh", ".py", ".bash", ".yaml", ".yml", ".json")
_PIP_PIN = lazy_re(r"""(?i)(?:^|[\s"'\[,])vllm(?:\[[^\]]*\])?\s*(===?|~=)\s*v?([0-9][0-9a-zA-Z.+]*)""")
_SPEC = lazy_re(r"""(?i)(?:^|[\s"'\[,])vllm(?:\[[^\]]*\])?\s*((?:===?|~=|!=|<=?|>=?)\s*v?[0-9][^;,\s"'\]]*"""
                   r"""(?:\s*,\s*(?:===?|~=|!=|<=?|>=?)\s*v?[0-9][^;,\s"'\]]*)*)""", re.M)
_LOCK_PACKAGE = lazy_re(r'\[\[package\]\][ \t]*\r?\n[ \t]*name[ \t]*=[ \t]*"vllm"[ \t]*\r?\n[ \t]*version[ \t]*=[ \t]*"([^"]+)"')
_CONDA_PIN = lazy_re(r"""(?im)^[ \t]*-[ \t]*["']?vllm(?:\[[^\]]*\])?[ \t]*={1,2}[ \t]*v?([0-9][0-9a-zA-Z.+]*)(?![\w.*])""")
_POETRY = lazy_re(r"""(?m)^[ \t]*["']?vllm["']?[ \t]*=[ \t]*(?:["']([^"'\n]+)["']|\{[^}\n]*\bversion[ \t]*=[ \t]*["']([^"'\n]+)["'])""")
_LOCK_FILES = ("uv.lock", "poetry.lock", "pdm.lock")
# a pixi.lock's package entry (format 5 and 6): its source line (`- pypi: URL`, `- conda: URL`) then its name
# and version
_PIXI_PACKAGE = lazy_re(r"(?m)^[ \t]*- (?:pypi|conda):[ \t]*\S+[ \t]*\r?\n[ \t]+name:[ \t]*vllm[ \t]*\r?\n"
                        r"[ \t]+version:[ \t]*['\"]?([0-9][0-9a-zA-Z.+]*)")
_SETUP_SCRIPTS = ("setup", "install", "prepare", "prep", "bootstrap", "env_setup", "environment")
# an install instruction on a command line of its own (`pip install vllm==X`, `$ uv pip install
# "vllm==X"`, `python -m pip install -U vllm==X`), not a mention in prose
_INSTALL_PIN = lazy_re(r"""(?im)^[ \t]*(?:[$>][ \t]*)?(?:sudo[ \t]+)?(?:python3?[ \t]+-m[ \t]+)?(?:pip3?|uv[ \t]+pip|uv)[ \t]+(?:install|add)\b[^\n`]{0,200}?(?<![\w-])["']?vllm(?:\[[^\]]*\])?[ \t]*(===?|~=)[ \t]*v?([0-9][0-9a-zA-Z.+]*)""")
# what a match of _INSTALL_PIN starts with after its blanks and prompt (`$`, `>`): sudo, python, pip or
# uv, ignoring case (U+017F is an s, U+0131 an i: what the expression matches besides the upper case)
_INSTALL_HEADS = ("su", "py", "pi", "uv")
# what a match's first line holds besides `vllm`, in its lower case: its installer (`pip`, `uv`; U+0131 is
# an i to the expression); a README names vllm on ~10 times as many lines as it names one of these
_INSTALL_WORDS = ("pip", "p\u0131p", "uv")
_FOLD = {0x17F: "s", 0x131: "i"}


def lines_holding(text: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """The (start, end) of each line of ``text`` that holds one of ``words``, in order, each once
    (``end`` at its line break, or the text's end): where an expression whose matches start on, or
    hold, such a word is worth trying (``_install_pins``, ``callers._on_lines``)."""
    starts: set[int] = set()
    for w in words:
        i = text.find(w)
        while i >= 0:
            starts.add(text.rfind("\n", 0, i) + 1)
            end = text.find("\n", i)
            if end < 0:
                break
            i = text.find(w, end)
    out = []
    for start in sorted(starts):
        end = text.find("\n", start)
        out.append((start, len(text) if end < 0 else end))
    return out


def _install_pins(text: str):
    """``_INSTALL_PIN.finditer(text)``, trying only the lines a match may start on: every match
    starts a line that holds ``vllm`` and ``pip`` or ``uv`` (in any case: :data:`_INSTALL_WORDS`)
    and ``=`` (or the ``[`` of extras, which may run onto the next line), and whose command starts
    with one of :data:`_INSTALL_HEADS`. A README names vllm on many lines and installs it on few:
    the expression was run at every position of the text (and compiled for a README holding no
    install line); the lines holding ``vllm`` were each found and cut (~3 M instructions for this
    repository's README, which names vllm on 223 lines and pip or uv on 26: benchmarks/README.md,
    issue 31's ninth pass)."""
    low = text.lower()
    if len(low) != len(text):  # (a character lower-cases to two: offsets of the lower case differ)
        yield from _INSTALL_PIN.finditer(text)
        return
    pos = 0  # (where finditer would search on from: the end of the last match)
    for start, end in lines_holding(low, _INSTALL_WORDS):
        if start < pos:
            continue  # (inside the last match: extras run onto the next line)
        if low.find("vllm", start, end) < 0:
            continue
        line = text[start:end]
        head = line.lstrip(" \t")
        if head[:1] in ("$", ">"):
            head = head[1:].lstrip(" \t")
        if head[:2].lower().translate(_FOLD) in _INSTALL_HEADS and ("=" in line or "[" in line):
            m = _INSTALL_PIN.match(text, start)
            if m is not None:
                yield m
                pos = m.end()


# a release stated in a README's words, in its lower case: `vllm`, at most 16 of these characters,
# a version; what lies between and the version's form are checked by hand (:func:`_stated_gap`,
# :func:`_release_form`), with no expression: ``knowledge.stated.WORDS`` and ``ELSEWHEN`` cost
# ~0.7 ms to compile, ~7 M instructions of a one-file lint whose README names vLLM
_GAP_CHARS = frozenset("-/:= \tvrsionelapw")
# a version cited as a bound, not the release in use ("0.8.5 or later")
_OR_LATER = ("or later", "and later", "or newer", "and newer", "or above", "and above", "or higher",
             "and higher", "and up", "or up")
# the words of ``knowledge.stated.ELSEWHEN`` (another release, a minimum, an upgrade, a bug), as the
# starts of the sentence's words: a sentence holding one states nothing
_ELSEWHEN_WORDS = ("newer", "older", "upgrad", "migrat", "previous", "formerly", "used to", "no longer", "until",
                   "before", "after", "since", "broken", "bug", "issue", "regression", "workaround", "fix", "fail",
                   "not supported", "unsupported", "doesn't", "does not", "min", "at least", "require", "need",
                   "added in", "introduced", "available in", "available from", "deprecated", "removed", "as of",
                   "compatib", "vllm-project/vllm/issues", "vllm-project/vllm/pull")


def _stated_gap(gap: str) -> bool:
    """Whether what lies between `vllm` and a version is how a statement writes it: ``vllm 0.9.2``,
    ``vllm v0.9.2``, ``vllm version: 0.9.2``, ``vllm release is 0.9.2``, ``vllm-openai:v0.9.2``,
    ``vllm/vllm-openai:v0.9.2`` (the second `vllm`); not a specifier (``vllm==0.9.2``)."""
    if gap.startswith(("-openai", "/openai")):
        gap = gap[7:]
    gap = gap.lstrip(" \t")
    for w in ("version", "release"):
        if gap.startswith(w):
            gap = gap[len(w):].lstrip(" \t")
            break
    if gap.startswith(":"):
        gap = gap[1:].lstrip(" \t")
    elif gap.startswith("is ") or gap.startswith("is\t"):
        gap = gap[2:].lstrip(" \t")
    return gap in ("", "v")


def _release_form(word: str) -> Optional[str]:
    """The release at the start of ``word`` (``0.9.2``, ``0.10.1.1``, ``0.9.0.post1``,
    ``0.17.2rc1.dev133``), a final ``.`` of a sentence dropped; None for another form (``0.9.2.x``,
    ``0.9.2-rc``)."""
    word = word.rstrip(".")
    parts = word.split(".")
    if len(parts) < 3 or not all(p.isdigit() for p in parts[:2]):
        return None
    third = parts[2]
    digits = len(third) - len(third.lstrip("0123456789"))
    if not digits:
        return None
    rest = third[digits:]
    tail = parts[3:]
    if rest:  # `2rc1` then `dev133`
        if not (rest.startswith("rc") and rest[2:].isdigit() and rest[2:]):
            return None
        return word if all(t.startswith("dev") and t[3:].isdigit() and t[3:] for t in tail) and len(tail) <= 1 else None
    if not tail:
        return word
    if len(tail) == 1 and (tail[0].isdigit() or (tail[0].startswith("post") and tail[0][4:].isdigit() and tail[0][4:])
                           or (tail[0].startswith("dev") and tail[0][3:].isdigit() and tail[0][3:])):
        return word
    return None


def _speaks_elsewhen(sentence: str) -> bool:
    """Whether a lower-case sentence speaks of another release, a minimum, an upgrade or a bug
    (a word of :data:`_ELSEWHEN_WORDS` starting one of its words; ``>=``, ``<=``, ``=>``), the
    README's "OpenAI-compatible" aside."""
    sentence = sentence.replace("openai-compatible", "").replace("openai compatible", "")
    if ">=" in sentence or "<=" in sentence or "=>" in sentence:
        return True
    for w in _ELSEWHEN_WORDS:
        i = sentence.find(w)
        while i >= 0:
            if i == 0 or not (sentence[i - 1].isalnum() or sentence[i - 1] == "_"):
                return True
            i = sentence.find(w, i + 1)
    return False


def _readme_statement(text: str) -> Optional[tuple[int, str]]:
    """(line, release) of the one release a README states in words (``using **vLLM v0.17.0**``,
    ``tested with vllm 0.9.2``, an image ``vllm/vllm-openai:v0.9.2``: as ``knowledge.stated`` reads
    a comment); None when it states none, or several, or speaks of a minimum, an upgrade or a bug
    in that sentence (:func:`_speaks_elsewhen`), or cites a specifier (``vllm==0.8.5``: the
    install instruction's, read before)."""
    low = text.lower()
    if len(low) != len(text):
        return None  # (offsets of the lower case differ: no such README seen)
    found: Optional[tuple[int, str]] = None
    n = len(low)
    s = low.find("vllm") - 4
    while True:
        s = low.find("vllm", s + 4)
        if s < 0:
            break
        if s and (low[s - 1].isalnum() or low[s - 1] == "_"):
            continue  # (not a word of its own: `myvllm 1.0.0`)
        j = s + 4
        lim = min(n, j + 16)
        while j < lim and low[j] in _GAP_CHARS:
            j += 1
        if j == n or not low[j].isdigit():
            continue
        k = j
        while k < n and (low[k].isalnum() or low[k] in "._"):
            k += 1
        v = _release_form(low[j:k])
        if v is None or not _stated_gap(low[s + 4:j]):
            continue
        e = j + len(v)
        after = low[e:e + 16].lstrip(" \t")
        if after.startswith(("+", *_OR_LATER)):
            continue
        ls = low.rfind("\n", 0, s) + 1
        le = low.find("\n", e)
        le = len(low) if le < 0 else le
        # (its sentence, within its line)
        a = max(low.rfind(". ", ls, s), low.rfind("! ", ls, s), low.rfind("? ", ls, s), ls - 1)
        b = min((i for i in (low.find(". ", e, le), low.find("! ", e, le), low.find("? ", e, le)) if i >= 0),
                default=le)
        if _speaks_elsewhen(low[a + 1:b]):
            continue
        if found is None:
            found = (text.count("\n", 0, ls) + 1, v)
        elif found[1] != v:
            return None
    return found


# env files: .env, .env.example, default.env, vllm.env (docker compose reads .env; the others are
# copied to it or passed with --env-file / env_file:)
_ENV_FILE = lazy_re(r"^(?:\.env(?:\.[\w.-]+)?|[\w.-]+\.env)$")
_ENV_LINE = lazy_re(r"""(?m)^[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*=[ \t]*("[^"\n]*"|'[^'\n]*'|[^\s#'"]*)""")
_VAR_REF = lazy_re(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}$]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
# conda environment files: environment.yml, environment-gpu.yaml, conda.yml, conda-env.yaml
_CONDA_FILE = lazy_re(r"^(?:environment|conda)(?:[-_.][\w.-]*)?\.ya?ml$")


class Named(Record):
    """A version a file around the launch names: ``text`` as written (a tag, ``0.9.2``, or a
    specifier such as ``>=0.8,<0.10`` when ``spec``), the ``image`` it is the tag of, and
    ``why``: the file and what it says, for --verbose."""

    __slots__ = ("text", "image", "why", "spec", "read")

    def __init__(self, text: str, why: str, image: Optional[str] = None, spec: bool = False,
                 read: Optional[tuple[str, str]] = None) -> None:
        self.text = text
        self.image = image
        self.why = why
        self.spec = spec
        self.read = read  # (absolute path, content key) of the file that says it


class _Runner(Record):
    __slots__ = ("named", "refs")

    def __init__(self, named: Named, refs: frozenset) -> None:
        self.named = named
        self.refs = refs


class _Folder(Record):
    """One folder: its file ``names``, whether it is a repository's ``root``, and, read when first
    asked (``Surroundings.runners`` / ``Surroundings.pin``), its runners and its pin."""

    __slots__ = ("names", "root", "runners", "pin", "env", "readme", "sibling_chart", "index", "log")

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.root = ".git" in names
        self.runners: Optional[list[_Runner]] = None
        self.pin: Any = _UNREAD
        self.env: dict[str, tuple[str, str]] = {}  # the env files' variables: NAME -> (value, file)
        self.readme: Any = _UNREAD
        self.sibling_chart: Any = _UNREAD  # (a folder of charts) chart folder -> the image its values set
        self.index: Optional[_RunnerIndex] = None  # its runners by the paths they name, once read
        self.log: Any = _UNREAD  # the release its server logs say ran (log_for)


_UNREAD = object()
AHEAD_BYTES = 1 << 20  # the most of a folder's bytes kept for the linter (``Surroundings.ahead``)


class _RunnerIndex(Record):
    """A folder's runners by the paths their words name, built once: the runner that
    names a file is looked up, not searched for among every runner of the folder, for every launch
    below it (a folder of a thousand manifests above a folder of a thousand scripts was a million
    tests). ``exact``: a path as written (``./`` dropped) -> the first runner writing it;
    ``absolute``: a path's last name -> (runner, path) of the absolute paths (``/app/serve.sh``) in
    the runners' order; ``chart``: the first runner of a chart's templates (``*chart*``); ``only``:
    the one release the folder's runners name (the last runner naming it), else None."""

    __slots__ = ("exact", "absolute", "chart", "only")

    def __init__(self, runners: list) -> None:
        self.exact: dict[str, int] = {}
        self.absolute: dict[str, list[tuple[int, str]]] = {}
        self.chart: Optional[int] = None
        for k, runner in enumerate(runners):
            for ref in runner.refs:
                r = ref[2:] if ref.startswith("./") else ref
                self.exact.setdefault(r, k)
                if r.startswith("/"):
                    self.absolute.setdefault(r.rsplit("/", 1)[-1], []).append((k, r))
            if self.chart is None and "*chart*" in runner.refs:
                self.chart = k
        for found in self.absolute.values():
            found.sort(key=lambda x: x[0])  # (a runner's own paths come as its set gives them)
        named = {r.named.text: r.named for r in runners}
        self.only: Optional[Named] = next(iter(named.values())) if len(named) == 1 else None

    def first_naming(self, rel: str, chart: bool = False) -> Optional[int]:
        """The index of the first runner whose words name the file at ``rel`` (relative to the
        folder; with ``chart``, or that is a chart's): a word that is the same relative path (``./``
        dropped), or an absolute path inside the image ending in it (``/app/serve.sh``; for a bare
        name, any absolute path whose last name it is)."""
        best = self.exact.get(rel)
        tail = "/" + rel
        bare = "/" not in rel
        for k, r in self.absolute.get(rel.rsplit("/", 1)[-1], ()):
            if best is not None and k >= best:
                break
            if bare or r.endswith(tail):
                best = k
                break
        if chart and self.chart is not None and (best is None or self.chart < best):
            best = self.chart
        return best


_is_vllm_image = image_is_vllm


def _vendor_scheme(image: str) -> bool:
    from ..knowledge.image_tags import vendor_scheme

    return vendor_scheme(image) is not None
_tag = version_from_image


class Surroundings:
    """The runners and pins of folders, read once per folder (one run's memo)."""

    #: what a caller may name (``Targeting`` asks for a file's callers by it without importing this module)
    called_suffixes = CALLED_SUFFIXES

    @staticmethod
    def unpinned_install(text: str) -> bool:
        """Whether ``text`` installs vllm without a version (:func:`_unpinned_install`; ``Targeting``
        asks through its object: no import statement run per file)."""
        return _unpinned_install(text)

    def __init__(self, words: tuple[bytes, ...] = ()) -> None:
        self._folders: dict[str, _Folder] = {}
        self._roots: dict[str, Optional[str]] = {}
        # the file ``_read`` read last (path, bytes), and its record (``_last``) once asked for
        self._last_read: Optional[tuple[str, bytes]] = None
        self._last_key: Optional[tuple[str, str]] = None
        # every file read: its bytes when they name vllm, else None (``pipeline.repository``'s survey
        # reads the repository's files from here before the disk)
        self.seen: dict[str, Optional[bytes]] = {}
        self._ignored: Optional[IgnoredFolders] = None  # (``ignored_folders``: made for the first walk)
        # the files read whose bytes are ASCII and hold none of ``words`` (lower-cased): the plugin
        # evidence's folder reading passes them over rather than reading them again
        self._words = words
        self.words = words
        # The files of a launch's own folder that come after it (by name: the walk's order), read
        # for the folder's runners when its first launch asked: their bytes, which the linter takes
        # rather than reading each file again (``take_ahead``), for the folder read last only and
        # up to AHEAD_BYTES (a folder of a hundred manifests read twice was a third of the reads
        # of a 10k-file tree: benchmarks/README.md, tenth pass).
        # Only for a linter that reads the files of the folders it lints (``reads_ahead``, set by
        # ``Linter.lint_file``), not for one that checks bytes it is given (the language server).
        self.reads_ahead = False
        self.ahead: dict[str, bytes] = {}
        self._ahead_dir: Optional[str] = None
        self._ahead_after: Optional[str] = None  # (while that folder's runners are read: the launch's name)
        self._ahead_size = 0
        self.wordless: set[str] = set()
        # per directory: what ``pin_for`` and ``own_chart_for`` found (the files of a folder ask
        # the same; each answer walks folders up)
        self._pins_for: dict[str, Optional[Named]] = {}
        self._own_charts: dict[str, Optional[Named]] = {}

    @property
    def ignored_folders(self) -> IgnoredFolders:
        """The folders the repository's .gitignore files name, which its walks (the callers', the
        survey's) leave out; imported and made for the first walk (a launch naming its release walks none)."""
        if self._ignored is None:
            from .ignored_folders import IgnoredFolders

            self._ignored = IgnoredFolders()
        return self._ignored

    @property
    def _last(self) -> Optional[tuple[str, str]]:
        """The file ``_read`` read last: (absolute path, content key), what a ``Named`` it gives
        records (``vllm_lint.inputs``). Made when asked: most files a folder's reading reads name
        nothing (a folder of a thousand manifests), and their key and absolute path were never used."""
        if self._last_key is None and self._last_read is not None:
            path, data = self._last_read
            self._last_key = (os.path.abspath(path), inputs.key_of(data))
        return self._last_key

    # -- one folder
    def folder(self, directory: str) -> _Folder:
        """The folder's listing, once."""
        f = self._folders.get(directory)
        if f is None:
            watch(directory)  # (the result cache's survey: a listing is its folder's signature)
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                names = []
            f = self._folders[directory] = _Folder(names)
        return f

    def take_ahead(self, directory: str, name: str) -> Optional[bytes]:
        """The bytes of the file ``name`` of the real folder ``directory`` when the runners'
        reading read them ahead of the linter (``ahead``), once; None otherwise (read it). A file
        of another folder ends what was read ahead: the linter has left the folder."""
        if directory != self._ahead_dir:
            self.ahead.clear()
            self._ahead_dir = None
            return None
        return self.ahead.pop(name, None)

    def runners(self, directory: str) -> list[_Runner]:
        """The folder's runners, read once."""
        f = self.folder(directory)
        if f.runners is None:
            f.runners = []
            self._read_runners(f, directory)
        return f.runners

    def pin(self, directory: str) -> Optional[Named]:
        """The folder's pin, read once."""
        f = self.folder(directory)
        if f.pin is _UNREAD:
            f.pin = self._pin(f, directory, f.names)
        return f.pin

    def _read(self, f: _Folder, path: str, words: bool = True) -> Optional[str]:
        data = self._read_bytes(f, path, words)
        return None if data is None else data.decode("utf-8", errors="replace")

    def _read_bytes(self, f: _Folder, path: str, words: bool = True, name: Optional[str] = None) -> Optional[bytes]:
        """The bytes of the file at ``path``, bounded (None when it is no regular file or too large),
        noted in ``seen``; with ``words``, an ASCII file holding none of the plugin words noted in
        ``wordless`` (not for a file the plugin evidence never reads: a README); ``name``: its name,
        when it is an entry of ``f``'s listing (kept for the linter while ``runner_for`` reads ahead)."""
        try:  # a regular file, bounded (a Dockerfile may be a link to /dev/zero or a FIFO)
            data = read_regular(path, MAX_BYTES)
        except (OSError, TooLarge):
            return None
        if name is not None and self._ahead_after is not None and name > self._ahead_after \
                and self._ahead_size + len(data) <= AHEAD_BYTES:
            self.ahead[name] = data
            self._ahead_size += len(data)
        self._last_read, self._last_key = (path, data), None
        low = data.lower()
        self.seen[path] = data if low.find(b"vllm") >= 0 else None
        if words and self._words and data.isascii():
            for w in self._words:
                if low.find(w) >= 0:  # (bytes.find: `in` on bytes formats a TypeError first)
                    break
            else:
                self.wordless.add(path)  # (ASCII: its lower case is the decoded text's, letter for letter)
        return data

    def _read_runners(self, f: _Folder, directory: str) -> None:
        names = f.names
        self._env_files(f, directory)
        prefix = directory if directory.endswith(os.sep) else directory + os.sep  # (os.path.join, for a name)
        for name in names:
            if builds_image_by_name(name):
                data = self._read_bytes(f, prefix + name, name=name)
                if data is not None:
                    self._dockerfile(f, name, data.decode("utf-8", errors="replace"))
            elif name.endswith(_YAML) and not _is_conda_file(name) and name != "Chart.yaml" and not name.startswith("."):
                self._yaml(f, directory, name, prefix + name)
        if "Chart.yaml" in names:
            self._chart(f, directory)

    def _env_files(self, f: _Folder, directory: str) -> None:
        """The variables the folder's env files define (``.env``, ``.env.example``, ``default.env``,
        ``vllm.env``): what compose interpolates into ``image: vllm/vllm-openai:v${VLLM_VERSION}``
        (a variable two files define differently is left out). A variable whose value is a vLLM
        image with a tag is a runner of the folder itself (``VLLM_IMAGE=rocm/vllm:..._vllm_0.19.1``)."""
        seen: dict[str, set] = {}
        for name in f.names:
            if ".env" not in name or not _ENV_FILE.match(name):
                continue
            text = self._read(f, os.path.join(directory, name))
            if text is None:
                continue
            read = self._last
            for m in _ENV_LINE.finditer(text):
                key, value = m.group(1), _env_value(m.group(2))
                seen.setdefault(key, set()).add(value)
                f.env.setdefault(key, (value, name))
                if _is_vllm_image(value) and _tag(value):
                    f.runners.append(_Runner(Named(_tag(value) or "", f"{name} ({key}={value})", value, read=read),
                                             frozenset()))
        for key, values in seen.items():
            if len(values) > 1:
                del f.env[key]

    def _interpolated(self, f: _Folder, image: str) -> Optional[tuple[str, str]]:
        """``image`` with its ``${VAR}`` / ``$VAR`` / ``${VAR:-default}`` filled from the folder's env
        files (a default when the files do not define it), and the words saying from where; None when
        a variable stays unknown."""
        used: list[str] = []

        def fill(m: "re.Match[str]") -> str:
            key, default = m.group(1) or m.group(3), m.group(2)
            if key in f.env:
                value, where = f.env[key]
                used.append(f"{key}={value} in {where}")
                return value
            if default is not None:
                return default
            raise KeyError(key)

        try:
            filled = _VAR_REF.sub(fill, image)
        except KeyError:
            return None
        return filled, ", ".join(used) if used else "its default"

    def _dockerfile(self, f: _Folder, name: str, text: str) -> None:
        images = [m.group(1) for m in _FROM.finditer(text) if _is_vllm_image(m.group(1))]
        refs = _path_words(text)
        if images:
            tag = _tag(images[-1])
            if tag:
                f.runners.append(_Runner(Named(tag, f"{name} (FROM {images[-1]})", images[-1], read=self._last), refs))
            return
        m = _PIP_PIN.search(text)
        if m and not _unpinned_install(text):  # (a build branch installing vllm unpinned: no one release)
            f.runners.append(_Runner(Named(m.group(2), f"{name} (pip install vllm{m.group(1)}{m.group(2)})", read=self._last), refs))
        elif not m:
            built = _built_from_source(text, name, self._last) or _stated_base(text, name, self._last)
            if built is not None:
                f.runners.append(_Runner(built, refs))

    def _yaml(self, f: _Folder, directory: str, name: str, path: str) -> None:
        data = self._read_bytes(f, path, name=name)  # (a file over MAX_BYTES: None, unread)
        # (bytes first: most sibling YAML files never name vLLM; no character lower-cases to v, l or m)
        if data is None or self.seen[path] is None:
            return
        text = data.decode("utf-8", errors="replace")
        if name in ("kustomization.yaml", "kustomization.yml"):
            named = _kustomize(text, name)
            if named is not None:
                named.read = self._last
                f.runners.append(_Runner(named, frozenset()))
            return
        read = self._last
        images, said = [], {}
        builds = "build" in text or "artifacts" in text
        for m in _IMAGE.finditer(text):
            image = m.group(1)
            if builds and build_result(text, m.start(1)):
                continue  # (the name a build gives its image: what its Dockerfile installs is the release)
            if "$" in image:  # (compose interpolates it from the folder's .env)
                got = self._interpolated(f, image)
                if got is None:
                    continue
                said[got[0]] = f"{image}, {got[1]}"
                image = got[0]
            if _is_vllm_image(image) and ":" not in image.rsplit("/", 1)[-1] and "@" not in image:
                tag = _tag_beside(text, m.start(1))  # (values: image: repo, tag: 3.3.0 beside it)
                if tag is not None:
                    image = f"{image}:{tag}"
            if _is_vllm_image(image):
                images.append(image)
        tags = {t for t in (_tag(i) for i in images) if t}
        refs = _path_words(text)
        if len(tags) == 1:
            image = next(i for i in images if _tag(i) in tags)
            f.runners.append(_Runner(Named(next(iter(tags)), f"{name} (image {said.get(image, image)})", image,
                                           read=read), refs))
        elif not tags and ("vllm-project/vllm" in text or "inputs" in text):
            named = _workflow_release(text, name)
            if named is not None:
                named.read = read
                f.runners.append(_Runner(named, refs))
        elif not tags and ("requirements" in text or "pip" in text):
            # a Truss config's `requirements:` list, a Ray `runtime_env: pip: ["vllm==0.4.3"]` (whose
            # `import_path: pkg.serve:app` names the file it runs), a `pip install vllm==X` in a job
            m = _PIP_PIN.search(text)
            if m:
                refs = refs | _import_paths(text)
                f.runners.append(_Runner(Named(m.group(2), f"{name} (vllm{m.group(1)}{m.group(2)})", read=read), refs))

    def _chart(self, f: _Folder, directory: str) -> None:
        """A chart's ``appVersion``, when one of its templates takes an image tag from it and the
        chart's image is vLLM's (its values name a vLLM image repository)."""
        text = self._read(f, os.path.join(directory, "Chart.yaml"))
        chart_read = self._last
        m = re.search(r"""(?m)^appVersion[ \t]*:[ \t]*["']?([^\s"'#]+)""", text or "")
        if not m:
            return
        values = self._read(f, os.path.join(directory, "values.yaml")) or ""
        repos = re.findall(r"""(?m)^[ \t]*(?:repository|image)[ \t]*:[ \t]*["']?([^\s"'#]+)""", values)
        if not any(_is_vllm_image(r) for r in repos):
            return
        # a vendor's image (Red Hat AI Inference Server's rhaiis/vllm-*): the appVersion is the vendor's
        # version, read through its tag scheme (knowledge.image_tags), never as vLLM's
        image = next((f"{r}:{m.group(1)}" for r in repos if _is_vllm_image(r) and _vendor_scheme(r)), None)
        tdir = os.path.join(directory, "templates")
        watch(tdir)
        try:
            templates = sorted(os.listdir(tdir))
        except OSError:
            return
        for t in templates:
            body = self._read(f, os.path.join(tdir, t)) if t.endswith((".yaml", ".yml", ".tpl")) else None
            if body and re.search(r"image[ \t]*:[^\n]*\.Chart\.AppVersion", body):
                f.runners.append(_Runner(Named(m.group(1), f"Chart.yaml (appVersion {m.group(1)}, the image tag "
                                                          f"templates/{t} renders)", image, read=chart_read),
                                         frozenset({"*chart*"})))
                return

    def _pin(self, f: _Folder, directory: str, names: list[str]) -> Optional[Named]:
        """The folder's pin: an exact pin (a requirement file's ``==``, a lock file, a conda
        environment) before a range (``pyproject.toml``, ``setup.py``, a requirement file's bounds)
        that allows it; the main ``requirements.txt`` before its variants (``requirements-cpu.txt``)."""
        exact: list[Named] = []
        ranges: list[Named] = []
        for name in sorted((n for n in names if _is_requirement_file(n)), key=_requirement_order):
            text = self._read(f, os.path.join(directory, name)) or ""
            named = _requirement_pin(text, name) or _built_from_source(text, name, None)
            if named is not None:
                named.read = self._last
                (ranges if named.spec else exact).append(named)
        for name in _LOCK_FILES:
            if name in names:
                m = _LOCK_PACKAGE.search(self._read(f, os.path.join(directory, name)) or "")
                if m:
                    exact.append(Named(m.group(1), f"{name} locks vllm {m.group(1)}", read=self._last))
        if "pixi.lock" in names:  # (one vllm in every environment of the lock: several name none)
            found = {m.group(1) for m in _PIXI_PACKAGE.finditer(self._read(f, os.path.join(directory, "pixi.lock")) or "")}
            if len(found) == 1:
                ver = found.pop()
                exact.append(Named(ver, f"pixi.lock locks vllm {ver}", read=self._last))
        if "Pipfile.lock" in names:
            try:
                lock = json.loads(self._read(f, os.path.join(directory, "Pipfile.lock")) or "{}")
                ver = next((lock[s]["vllm"]["version"] for s in ("default", "develop")
                            if isinstance(lock.get(s), dict) and isinstance(lock[s].get("vllm"), dict)), None)
            except (ValueError, KeyError, TypeError):
                ver = None
            if isinstance(ver, str) and ver.startswith("=="):
                exact.append(Named(ver[2:], f"Pipfile.lock locks vllm{ver}", read=self._last))
        for name in names:
            if _is_conda_file(name):
                text = self._read(f, os.path.join(directory, name)) or ""
                m = _CONDA_PIN.search(text)
                if m:
                    exact.append(Named(m.group(1), f"{name} pins vllm {m.group(1)}", read=self._last))
                elif "vllm" in text:
                    named = _requirement_pin(text, name)
                    if named is not None:
                        named.read = self._last
                        ranges.append(named)
        for name in names:  # a setup script that installs the environment (setup_vllm.sh, install.sh)
            if name.endswith(".sh") and name.startswith(_SETUP_SCRIPTS) and not exact:
                m = next(_install_pins(self._read(f, os.path.join(directory, name)) or ""), None)
                if m and m.group(1) in ("==", "==="):
                    exact.append(Named(m.group(2), f"{name} installs vllm=={m.group(2)}", read=self._last))
        if ranges:
            allowed = [e for e in exact if _allows(ranges[0], e.text)]
            return allowed[0] if allowed else ranges[0]
        return exact[0] if exact else None

    # -- one file
    def root_of(self, directory: str) -> Optional[str]:
        """The repository root at or above ``directory`` (the folder holding ``.git``), or None."""
        if directory in self._roots:
            return self._roots[directory]
        found = None
        watch(os.path.join(directory, ".git"), exists=True)  # (the result cache's survey)
        if os.path.isdir(os.path.join(directory, ".git")) or os.path.isfile(os.path.join(directory, ".git")):
            found = directory
        else:
            parent = os.path.dirname(directory)
            found = self.root_of(parent) if parent != directory else None
        self._roots[directory] = found
        return found

    def runner_for(self, directory: str, name: str) -> Optional[Named]:
        """What runs (or holds the image of) the file ``name`` in the real folder ``directory``."""
        f = self._folders.get(directory)
        if self.reads_ahead and (f is None or f.runners is None):  # (its first launch: the files after it are read ahead)
            self.ahead.clear()
            self._ahead_dir, self._ahead_after, self._ahead_size = directory, name, 0
            try:
                here, index = self._indexed(directory)
            finally:
                self._ahead_after = None
        else:
            here, index = self._indexed(directory)
        k = index.first_naming(name)
        if k is not None:
            return here[k].named
        if index.only is not None:
            return index.only
        root = self.root_of(directory)
        d, rel = directory, name
        while root is not None and d != root:
            parent = os.path.dirname(d)
            if parent == d:
                break
            rel = os.path.basename(d) + "/" + rel
            d = parent
            runners, index = self._indexed(d)
            k = index.first_naming(rel, chart=True)
            if k is not None:
                return runners[k].named
        return None

    def _indexed(self, directory: str) -> tuple[list[_Runner], _RunnerIndex]:
        """The folder's runners and their index (``_RunnerIndex``), each made once."""
        runners = self.runners(directory)
        f = self._folders[directory]
        if f.index is None:
            f.index = _RunnerIndex(runners)
        return runners, f.index

    def own_chart_for(self, directory: str) -> Optional[Named]:
        """For a template of a Helm chart (``templates/`` under a folder with ``Chart.yaml``), the
        vLLM image the chart's own ``values.yaml`` configures when it names one release (``image:
        repo:tag``, or ``image``/``repository`` with a ``tag:`` beside it): what the template renders
        by default where its own words name none (an image written through ``{{ include }}``).
        Once per directory."""
        if directory in self._own_charts:
            return self._own_charts[directory]
        found = self._own_charts[directory] = self._own_chart_for(directory)
        return found

    def _own_chart_for(self, directory: str) -> Optional[Named]:
        d = directory
        for _ in range(3):  # templates/, templates/sub/
            if os.path.basename(d) == "templates" and "Chart.yaml" in self.folder(os.path.dirname(d)).names:
                break
            d = os.path.dirname(d)
        else:
            return None
        chart = os.path.dirname(d)
        f = self.folder(chart)
        # its values.yaml; when that names no vLLM image, the values files beside it that a release
        # merges into it or passes with -f (llmaz's values.global.yaml), together
        variants = [n for n in f.names if _VALUES_VARIANT.match(n)]
        for names in ([n for n in ("values.yaml",) if n in f.names], variants):
            images, reads = [], []
            for name in names:
                text = self._read(f, os.path.join(chart, name)) or ""
                for m in _VALUES_IMAGE.finditer(text):
                    image = m.group(1)
                    if "$" in image or "{" in image or not _is_vllm_image(image):
                        continue
                    if ":" not in image.rsplit("/", 1)[-1] and "@" not in image:
                        tag = _tag_beside(text, m.start(1))
                        if tag is None:
                            continue
                        image = f"{image}:{tag}"
                    images.append((image, name, self._last))
            if not images:
                continue
            tags = {t for t in (_tag(i) for i, _n, _r in images) if t and t != "latest"}
            if len(tags) != 1:
                return None
            image, name, read = next(x for x in images if _tag(x[0]) in tags)
            return Named(next(iter(tags)), f"{os.path.basename(chart)}/{name} (the image the chart's templates "
                                           f"render by default, {image})", image, read=read)
        return None

    def sibling_chart_for(self, directory: str) -> Optional[Named]:
        """For a file of a Helm chart (a ``Chart.yaml`` at or above it, inside a repository), the
        vLLM image a sibling chart's ``values.yaml`` configures (an operator's chart setting the
        model server image its model catalog chart runs: KubeAI's ``charts/kubeai`` beside
        ``charts/models``): its one release, or the one under a ``default:`` key."""
        root = self.root_of(directory)
        d = directory
        while root is not None and "Chart.yaml" not in self.folder(d).names:
            if d == root or os.path.dirname(d) == d:
                return None
            d = os.path.dirname(d)
        if root is None or d == root:
            return None
        parent = os.path.dirname(d)
        pf = self.folder(parent)
        if pf.sibling_chart is _UNREAD:
            pf.sibling_chart = {}
            for name in pf.names:
                sub = os.path.join(parent, name)
                if "Chart.yaml" in self.folder(sub).names and "values.yaml" in self.folder(sub).names:
                    text = self._read(pf, os.path.join(sub, "values.yaml")) or ""
                    read = self._last
                    found = [(m.group(1), m.group(2)) for m in _KEYED_IMAGE.finditer(text) if _is_vllm_image(m.group(2))
                             and _tag(m.group(2)) not in (None, "latest")]
                    tags = {_tag(i) for _k, i in found}
                    pick = found[0] if len(tags) == 1 else next(((k, i) for k, i in found if k == "default"), None)
                    if pick is not None:
                        pf.sibling_chart[sub] = Named(_tag(pick[1]) or "", f"{name}/values.yaml (the model server image "
                                                      f"a sibling chart configures, {pick[0]}: {pick[1]})", pick[1],
                                                      read=read)
        named = {k: v for k, v in pf.sibling_chart.items() if k != d}
        return next(iter(named.values())) if len({n.text for n in named.values()}) == 1 else None

    def built_for(self, directory: str, text: str) -> Optional[Named]:
        """The release of the image a script builds itself (``docker build -t $IMAGE -f
        docker/Dockerfile .`` then ``docker run $IMAGE ...``): the Dockerfile it names (``-f``, else
        the build context's ``Dockerfile``), found from the script's folder or the repository
        root, when it starts ``FROM`` a vLLM image or pins vllm."""
        root = self.root_of(directory)
        for m in _DOCKER_BUILD.finditer(text):
            words = [w.strip("\"'") for w in re.sub(r"\\\r?\n", " ", m.group(1)).split()]
            path = None
            for k, w in enumerate(words):
                if w in ("-f", "--file") and k + 1 < len(words):
                    path = words[k + 1]
                elif w.startswith(("--file=", "-f=")):
                    path = w.split("=", 1)[1]
            if path is None:
                rest = [w for k, w in enumerate(words) if not w.startswith("-")
                        and not (k > 0 and words[k - 1] in _BUILD_VALUE_OPTS)]
                if not rest:
                    continue
                path = os.path.join(rest[-1], "Dockerfile")
            if "$" in path or "{" in path or path == "-":
                continue
            for base in (directory, root):
                if base is None:
                    continue
                full = os.path.normpath(os.path.join(base, path))
                d, name = os.path.split(full)
                if root is not None and not (d + os.sep).startswith(root + os.sep) and d != root:
                    continue  # (not outside the repository)
                if name in self.folder(d).names:
                    named = next((r.named for r in self.runners(d) if r.named.why.startswith(name + " (")), None)
                    if named is not None:
                        return Named(named.text, f"the image this script builds: {named.why}", named.image,
                                     read=named.read)
        return None

    def readme_for(self, directory: str) -> Optional[Named]:
        """The repository's own install instruction, in its root README (``pip install
        vllm==0.8.5.post1``): the weakest source of the repository, read when nothing nearer names a
        release; only inside a repository (the folder holding ``.git``), once per run."""
        root = self.root_of(directory)
        if root is None:
            return None
        f = self.folder(root)
        if f.readme is _UNREAD:
            f.readme = None
            for name in f.names:
                if name.lower() in ("readme.md", "readme.rst", "readme.txt", "readme"):
                    # (a README is none of the files the plugin evidence reads: no plugin words looked for)
                    text = self._read(f, os.path.join(root, name), words=False) or ""
                    for m in _install_pins(text):
                        if m.group(1) in ("==", "==="):
                            row = text.count("\n", 0, m.start()) + 1
                            f.readme = Named(m.group(2), f"{name}:{row}, the repository's install instruction (vllm=="
                                                         f"{m.group(2)}; nothing nearer names a release)",
                                             read=self._last)
                            break
                    if f.readme is None:
                        stated = _readme_statement(text)
                        if stated is not None:
                            row, v = stated
                            f.readme = Named(v, f"{name}:{row}, the release the repository's README states (vLLM {v}; "
                                                f"no install instruction, nothing nearer names a release)",
                                             read=self._last)
                    break
        return f.readme

    def log_for(self, directory: str) -> Optional[Named]:
        """The release a server's log kept in ``directory`` says ran (``nohup.out``, ``*.log``,
        ``*.out``: vLLM's start-up line ``vLLM API server version 0.9.1``, its banner's ``version
        0.24.0``, an engine's ``Initializing a V1 LLM engine (v0.9.1)``): what ran the launches
        beside it, read when nothing nearer names a release; None when the logs name none, or
        several (a development build names no release). Once per folder."""
        f = self.folder(directory)
        if f.log is _UNREAD:
            f.log = None
            found: dict[str, tuple[str, str, Any]] = {}  # release -> (file, line, read)
            for name in f.names:
                if not name.lower().endswith(_LOG_SUFFIXES) or name.startswith("."):
                    continue
                path = os.path.join(directory, name)
                try:  # (its start: vLLM says its release as it starts, and a run's log grows long)
                    data = read_head(path, _LOG_HEAD)
                except (OSError, TooLarge):
                    continue
                self._last_read, self._last_key = (path, data), None
                if b"version" not in data and b"engine (v" not in data:
                    continue
                text = data.decode("utf-8", errors="replace")
                for m in _LOG_RELEASE.finditer(text):
                    v = m.group(1) or m.group(2) or m.group(3)
                    found.setdefault(v, (name, str(text.count("\n", 0, m.start()) + 1), self._last))
            if len(found) == 1:
                (v, (name, row, read)), = found.items()
                f.log = Named(v, f"{name}:{row}, the log of a server run beside it (vLLM {v}; nothing nearer "
                                 "names a release)", read=read)
        return f.log

    def pin_for(self, directory: str) -> Optional[Named]:
        """The nearest pin in ``directory`` or above, up to the repository root (or, outside a
        repository, to the file system's root, as before). A range (a ``pyproject.toml``'s
        ``vllm>=0.10``) is resolved by an exact pin further up that it allows (a workspace's
        ``uv.lock`` at the root), else gives the newest release it allows. Once per directory."""
        if directory in self._pins_for:
            return self._pins_for[directory]
        found = self._pins_for[directory] = self._pin_for(directory)
        return found

    def _pin_for(self, directory: str) -> Optional[Named]:
        d = directory
        found: Optional[Named] = None
        while True:
            pin = self.pin(d)
            if pin is not None:
                if found is None and not pin.spec:
                    return pin
                if found is None:
                    found = pin
                elif not pin.spec and _allows(found, pin.text):
                    return pin
            parent = os.path.dirname(d)
            if self.folder(d).root or parent == d:
                return found
            d = parent


# a server's log kept beside a launch (`nohup vllm serve ... &` writes nohup.out), and the release
# vLLM prints of itself when it starts: the API server's line (0.4 to 0.10), the banner of 0.11+
# (`▄▄ ▄█ █ ... version 0.24.0`), an engine's start (`Initializing a V1 LLM engine (v0.9.1)`); a
# development build (`0.11.0rc2.dev147+g...`) names no release
_LOG_SUFFIXES = (".log", ".out")  # (nohup.out among them; tested on the lower-cased name, no expression)
_LOG_HEAD = 256 * 1024  # the start of a log read for it
_REL = r"v?(\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)(?![\w.+-])"
_LOG_RELEASE = lazy_re(r"vLLM API server version " + _REL + r"|[\u2580-\u259f][^\n]*?\bversion " + _REL
                       + r"|Initializing an? (?:V1 )?LLM engine \(" + _REL + r"\)")

# a chart's values files other than values.yaml: values.global.yaml, values-prod.yaml
_VALUES_VARIANT = lazy_re(r"^values[-._][\w.-]+\.ya?ml$")
# a chart's values: `image: repo[:tag]` or `repository: repo` (its `tag:` beside it)
_KEY_LINE = lazy_re(r"[ \t]*(?:-[ \t]+)?([\w.-]+)[ \t]*:")


def build_result(text: str, at: int) -> bool:
    """Whether the image at offset ``at`` is written at an ``image:`` key whose mapping builds it (a
    compose service's ``build:`` beside it, an item of Skaffold's ``build.artifacts``): the name the
    build tags its result with, not a release (what the build's Dockerfile installs is)."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    end = len(text) if end < 0 else end
    m = _KEY_LINE.match(text, start, end)
    if m is None or m.group(1) != "image":
        return False
    col = m.start(1) - start  # the column of the mapping's keys
    lead = text[start:m.start(1)].strip()
    for line in text[end + 1:].split("\n"):  # the keys after it, until the mapping ends
        body = line.lstrip(" \t")
        if not body or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        if indent < col:
            break
        k = _KEY_LINE.match(line)
        if indent == col and k is not None and k.group(1) == "build" and not body.startswith("-"):
            return True
    pos = start - 1
    dash = text[start:m.start(1)].find("-") if lead.startswith("-") else -1
    while pos > 0:  # the keys before it, up to the line that starts the mapping, or its parent
        ls = text.rfind("\n", 0, pos) + 1
        line, pos = text[ls:pos], ls - 1
        body = line.lstrip(" \t")
        if not body or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        k = _KEY_LINE.match(line)
        if dash >= 0:  # (a list item: its mapping starts on the image's line; the parent names the list)
            if indent < dash or (indent == dash and not body.startswith("-")):
                return k is not None and k.group(1) == "artifacts"
            continue
        key_col = k.start(1) if k is not None else indent
        if key_col == col and k is not None and k.group(1) == "build":
            return True
        if body.startswith("-") and key_col == col:
            dash = indent  # (the list item whose mapping holds the image: its parent names the list)
            continue
        if indent < col:
            break
    return False


_VALUES_IMAGE = lazy_re(r"""(?m)^[ \t]*-?[ \t]*(?:image|repository)[ \t]*:[ \t]*["']?([^\s"'#]+)""")
_KEYED_IMAGE = lazy_re(r"""(?m)^[ \t]*-?[ \t]*([\w.-]+)[ \t]*:[ \t]*["']?([\w.-]+(?:/[\w.-]+)+:[\w.+-]+)["']?[ \t]*(?:#.*)?$""")
_DOCKER_BUILD = lazy_re(r"""\b(?:docker|podman|buildah)[ \t]+(?:image[ \t]+|buildx[ \t]+)?(?:build|bud)\b((?:\\\r?\n|[^\n;&|])*)""")
_BUILD_VALUE_OPTS = {"-t", "--tag", "--build-arg", "--target", "--platform", "--label", "--network", "--secret",
                     "--cache-from", "--cache-to", "--progress", "--ssh", "-o", "--output", "--build-context"}
# (the keys the YAML front-end reads beside an untagged image: ``images.TAG_KEYS``)
_TAG_KEY = lazy_re(r"""[ \t]*-?[ \t]*(?:""" + "|".join(TAG_KEYS) + r""")[ \t]*:[ \t]*["']?(v?\d+\.\d+[\w.+-]*)""")


def _tag_beside(text: str, at: int) -> Optional[str]:
    """The tag a key beside an untagged ``image:`` at offset ``at`` gives (``tag: 3.3.0``, llmaz's
    ``version: v0.6.0``): the mapping's other keys at the image key's indentation, up to 20 lines."""
    line_start = text.rfind("\n", 0, at) + 1
    head = text[line_start:at]
    indent = len(head) - len(head.lstrip(" -"))
    pos = line_start
    for _ in range(40):  # the lines above, then below
        pos = text.rfind("\n", 0, pos - 1) + 1 if pos > 0 else -1
        if pos < 0:
            break
        found = _sibling_tag(text, pos, indent)
        if found:
            return found
        if found == "" or pos == 0:
            break
    pos = text.find("\n", at)
    for _ in range(20):
        if pos < 0:
            break
        found = _sibling_tag(text, pos + 1, indent)
        if found is not False:
            return found or None
        pos = text.find("\n", pos + 1)
    return None


def _sibling_tag(text: str, pos: int, indent: int) -> Any:
    """The tag on the line at ``pos`` when it is a tag key at ``indent``; "" when the line leaves
    the mapping (less indented); False to read on."""
    end = text.find("\n", pos)
    line = text[pos:end if end >= 0 else len(text)]
    body = line.lstrip(" ")
    if not body.strip() or body.lstrip().startswith("#"):
        return False
    here = len(line) - len(line.lstrip(" -"))
    if here < indent:
        return ""
    if here > indent:
        return False
    m = _TAG_KEY.match(line)
    return m.group(1) if m else False


_BARE_VLLM = lazy_re(r"""(?m)(?:^|[ \t"'])vllm(?:\[[\w,]*\])?(?=[ \t"']|\\?$)""")


def _unpinned_install(text: str) -> bool:
    """Whether a Dockerfile also installs vllm with no version (``pip install vllm transformers``,
    in another build branch than its pinned install): its pin is then not the release that runs."""
    for m in _BARE_VLLM.finditer(text):
        start = m.start()
        while True:  # back to the first line of the command (continuation lines end with "\")
            prev_end = text.rfind("\n", 0, start)
            if prev_end <= 0 or not text[:prev_end].rstrip(" \t").endswith("\\"):
                break
            start = text.rfind("\n", 0, prev_end) + 1
        line_start = text.rfind("\n", 0, start) + 1
        segment = re.split(r"&&|;|\|", text[line_start:m.start()])[-1]  # (the command the word belongs to)
        if re.search(r"\b(?:pip3?|uv|pipx|conda|mamba)\b.*\b(?:install|add)\b", segment, re.S):
            return True
    return False


def _built_from_source(text: str, name: str, read: Optional[tuple[str, str]]) -> Optional[Named]:
    """The release a file builds vLLM's own source at (``knowledge.source_builds``: ``git clone
    --branch v0.10.0``, ``git checkout v${VERSION}``, ``vllm @ git+...@v0.9.1``), or None."""
    if "vllm-project/vllm" not in text:
        return None
    from ..knowledge.source_builds import source_builds

    built = source_builds(text.encode())
    if not built:
        return None
    return Named(built[0].ref, f"{name} (vLLM built from its source at line {built[0].line}: {built[0].how})", read=read)


_FROM_STAGE = lazy_re(r"^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)(?:[ \t]+AS[ \t]+(\S+))?", re.M | re.I)


def _stated_base(text: str, name: str, read: Optional[tuple[str, str]]) -> Optional[Named]:
    """The release a Dockerfile states in words for the vendor's vLLM image it is built on: its last
    stage starts ``FROM`` an image whose reference names vllm but no release vLLM-lint can read
    (``.../pytorch-vllm-serve:gemma4``), it installs no vllm of its own, and its comments or its
    ``ENV`` / ``LABEL`` / ``ARG`` keys state one vLLM release (``# Base image includes: vLLM
    0.17.2rc1.dev133``; every statement of the same release, ``knowledge.stated``), or None."""
    from ..knowledge.stated import dockerfile_statements

    stages = {}
    base = None
    for m in _FROM_STAGE.finditer(text):
        base = stages.get(m.group(1).lower(), m.group(1))
        if m.group(2):
            stages[m.group(2).lower()] = base
    if base is None or "vllm" not in base.lower() or "$" in base or _unpinned_install(text) or _OWN_INSTALL.search(text):
        return None
    said = dockerfile_statements(text)
    releases = {_release_part(v) for _row, v in said}
    if len(releases) != 1 or None in releases:
        return None
    row, v = said[0]
    return Named(v, f"{name} (FROM {base}, whose vLLM release line {row} states: {v})", read=read)


# a pip install of vllm from a source tree or a wheel file of its own (no release: the Dockerfile's words
# about its base say nothing then)
_OWN_INSTALL = lazy_re(r"(?im)^[^#\n]*\b(?:pip3?|uv)\b[^\n]*\binstall\b[^\n]*(?:git\+\S*vllm|vllm[^\s]*\.whl)")


def _release_part(v: str) -> Optional[str]:
    """``0.17.2rc1.dev133`` -> ``0.17.2``: the release a pre-release or development build leads to."""
    m = re.match(r"(\d+\.\d+\.\d+)", v)
    return m.group(1) if m else None


def _is_conda_file(name: str) -> bool:
    return name.startswith(("environment", "conda")) and bool(_CONDA_FILE.match(name))


def _env_value(raw: str) -> str:
    return raw[1:-1] if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"" else raw


def _path_words(text: str) -> frozenset:
    """The words of ``text`` that look like a script's or config file's path (``scripts/serve.sh``,
    ``/app/serve.sh``), in one linear pass."""
    # (a word holds no line break: only the lines holding a suffix are searched, most of a
    # manifest's lines name no file)
    return frozenset(w for start, end in lines_holding(text, _SCRIPT_SUFFIXES) for w in _WORD.findall(text, start, end)
                     if w.endswith(_SCRIPT_SUFFIXES) and len(w) < 512)


_IMPORT_PATH = lazy_re(r"import_path[\"']?[ \t]*[:=][ \t]*[\"']?([\w.-]+):")


def _import_paths(text: str) -> frozenset:
    """The Python files a Ray Serve ``import_path: pkg.module:app`` names (``module.py``, and its
    path from the working directory)."""
    out = set()
    for m in _IMPORT_PATH.finditer(text):
        parts = m.group(1).split(".")
        out.add(parts[-1] + ".py")
        out.add("/".join(parts) + ".py")
    return frozenset(out)


def _requirement_pin(text: str, name: str) -> Optional[Named]:
    """The first uncommented ``vllm`` requirement of a requirement file, ``pyproject.toml`` (PEP 621
    or Poetry's ``vllm = "^0.5.1"``), ``setup.py`` / ``setup.cfg`` (``install_requires``, extras)
    or conda environment: an exact ``==`` pin, else the specifier as a range (``~=0.8.0`` and
    ``==0.8.*`` are ranges: the newest release they allow runs)."""
    if "vllm" not in text.lower():  # (every match names vllm: no expression compiled for the rest)
        return None
    for m in _SPEC.finditer(text) if _may_spec(text) else ():
        line_start = text.rfind("\n", 0, m.start(1)) + 1
        if text[line_start:m.start(1)].lstrip().startswith("#"):
            continue
        spec = re.sub(r"\s+", "", m.group(1)).replace("v", "")
        if spec.startswith(("==", "===")) and "," not in spec and "*" not in spec:
            return Named(spec.lstrip("="), f"{name} pins vllm{spec}")
        return Named(spec, f"{name} allows vllm{spec}", spec=True)
    if name == "pyproject.toml":
        m = _POETRY.search(text) if _may_poetry(text) else None
        if m:
            written = m.group(1) or m.group(2)
            spec = _poetry_spec(written)
            if spec is not None:
                if spec.startswith("==") and "," not in spec:
                    return Named(spec[2:], f"{name} pins vllm = \"{written}\"")
                return Named(spec, f"{name} allows vllm = \"{written}\" ({spec})", spec=True)
    return None


def _may_spec(text: str) -> bool:
    """Whether :data:`_SPEC` may match ``text``: every match writes vllm (in any case), its extras
    in brackets or none, blanks, then an operator (its first character one of ``=~!<>``). A
    ``pyproject.toml`` or ``setup.py`` naming vllm otherwise (``vllm-lint``, ``vllm_plugin``) is
    not searched, and the expression not compiled for it (~2 M instructions)."""
    low = text.lower()
    if len(low) != len(text):  # (a character lower-cases to two: offsets of the lower case differ)
        return True
    n = len(text)
    at = low.find("vllm")
    while at >= 0:
        j = at + 4
        if text[j:j + 1] == "[":  # (the extras: up to the first `]`, else the group does not match)
            j = text.find("]", j) + 1 or j
        while j < n and text[j].isspace():
            j += 1
        if text[j:j + 1] in _SPEC_OPERATOR_STARTS:
            return True
        at = low.find("vllm", at + 1)
    return False


_SPEC_OPERATOR_STARTS = ("=", "~", "!", "<", ">")


def _may_poetry(text: str) -> bool:
    """Whether :data:`_POETRY` may match ``text``: every match writes vllm, a quote or none,
    blanks, then ``=``."""
    at = text.find("vllm")
    while at >= 0:
        j = at + 4
        if text[j:j + 1] in ("\"", "'"):
            j += 1
        while text[j:j + 1] in (" ", "\t"):
            j += 1
        if text[j:j + 1] == "=":
            return True
        at = text.find("vllm", at + 1)
    return False


def _poetry_spec(written: str) -> Optional[str]:
    """A Poetry version constraint as a PEP 440 specifier: ``^0.5.1`` is ``>=0.5.1,<0.6.0``,
    ``~0.5.1`` is ``>=0.5.1,<0.6.0``, ``0.5.2`` is ``==0.5.2``; None for ``*`` or what it cannot read."""
    w = written.strip()
    m = re.fullmatch(r"([\^~])\s*v?(\d+(?:\.\d+)*)", w)
    if m:
        parts = [int(x) for x in m.group(2).split(".")]
        if m.group(1) == "^":  # the first non-zero part is kept
            i = next((k for k, x in enumerate(parts) if x != 0), len(parts) - 1)
        else:  # ~X.Y(.Z): the minor is kept; ~X: the major
            i = min(1, len(parts) - 1)
        upper = parts[:i] + [parts[i] + 1]
        return f">={m.group(2)},<{'.'.join(map(str, upper))}"
    if re.fullmatch(r"v?\d+(?:\.\d+)+(?:\.post\d+)?", w):
        return "==" + w.lstrip("v")
    if re.fullmatch(r"(?:(?:===?|~=|!=|<=?|>=?)\s*v?[\d.*]+(?:\.post\d+)?\s*,?\s*)+", w):
        return re.sub(r"\s+", "", w).rstrip(",")
    return None


def _is_requirement_file(name: str) -> bool:
    return ((name.startswith(("requirements", "constraints")) and name.endswith((".txt", ".in", ".lock")))
            or name in ("pyproject.toml", "setup.py", "setup.cfg"))


def _requirement_order(name: str) -> tuple:
    """The main requirement file first (``requirements.txt``, its lock), then its variants
    (``requirements-cpu.txt``, ``requirements/dev.txt``), then the package's own metadata."""
    main = name in ("requirements.txt", "requirements.lock", "requirements.in", "constraints.txt")
    meta = name in ("pyproject.toml", "setup.py", "setup.cfg")
    return (not main, meta, name)


def _allows(range_: Named, version: str) -> bool:
    """Whether the range ``range_`` (a ``Named`` specifier) allows ``version``."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    try:
        return SpecifierSet(range_.text).contains(Version(version.lstrip("v").split("+")[0]), prereleases=True)
    except (InvalidSpecifier, InvalidVersion):
        return False


_INPUT_REF = lazy_re(r"\$\{\{\s*(?:github\.event\.)?inputs\.([\w-]+)\s*\}\}")


def _workflow_release(text: str, name: str) -> Optional[Named]:
    """A GitHub action or workflow that builds vLLM from its source at a tag (``actions/checkout``
    of ``repository: vllm-project/vllm`` with ``ref:``) or pins it (``pip install vllm==``), the
    tag or pin given by an input: the input's ``default`` (a composite action's
    ``vllm_version: default: v0.9.0.1``)."""
    if "\\" not in text and "vllm-project/vllm" not in text.lower() and not ("${{" in text and ("==" in text or "~=" in text)):
        # (without escapes, every string the loader makes is written in the text: no checkout of vLLM's
        # repository and no pin filled from an input can be found; PyYAML is not imported for it)
        return None
    return _workflow_loaded(text, name)


def _workflow_loaded(text: str, name: str) -> Optional[Named]:
    """:func:`_workflow_release` on the loaded document."""
    try:
        from .. import libyaml

        doc = libyaml.load(text)
    except Exception:  # a malformed file names nothing here; its own lint reports it
        return None
    if not isinstance(doc, dict):
        return None
    defaults: dict[str, str] = {}
    on = doc.get("on", doc.get(True)) if isinstance(doc.get("on", doc.get(True)), dict) else {}
    for holder in (doc.get("inputs"), *(v.get("inputs") for v in on.values() if isinstance(v, dict))):
        if isinstance(holder, dict):
            for key, spec in holder.items():
                if isinstance(spec, dict) and isinstance(spec.get("default"), (str, int, float)):
                    defaults.setdefault(str(key), str(spec["default"]))

    def fill(value: str) -> Optional[str]:
        try:
            return _INPUT_REF.sub(lambda m: defaults[m.group(1)], value)
        except KeyError:
            return None

    stack, seen = [doc], 0
    while stack and seen < 10_000:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            repo, ref = node.get("repository"), node.get("ref")
            if isinstance(repo, str) and repo.strip().lower() == "vllm-project/vllm" and isinstance(ref, str):
                tag = fill(ref)
                if tag and re.fullmatch(r"v?\d+\.\d+\.\d+[\w.+-]*", tag.strip()):
                    how = ", the default of its input" if tag != ref else ""
                    return Named(tag.strip(), f"{name} (vLLM's source checked out at {tag.strip()}{how})")
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, str) and "vllm" in node and "${{" in node:
            filled = fill(node)
            m = _PIP_PIN.search(filled) if filled else None
            if m:
                return Named(m.group(2), f"{name} (pip install vllm{m.group(1)}{m.group(2)}, the default of its input)")
    return None


def _kustomize(text: str, name: str) -> Optional[Named]:
    """A kustomization's ``images:`` override of a vLLM image (``newTag``, or a tag in ``newName``)."""
    try:
        from .. import libyaml

        doc = libyaml.load(text)
    except Exception:  # a malformed kustomization names nothing here; its own lint reports it
        return None
    for item in (doc or {}).get("images") or [] if isinstance(doc, dict) else []:
        if not isinstance(item, dict):
            continue
        image = str(item.get("newName") or item.get("name") or "")
        if not _is_vllm_image(image) and not _is_vllm_image(str(item.get("name") or "")):
            continue
        tag = item.get("newTag")
        if tag is not None:
            return Named(str(tag), f"{name} (images: {item.get('name')} newTag {tag})", image)
        if ":" in image.rsplit("/", 1)[-1]:
            return Named(_tag(image) or "", f"{name} (images: newName {image})", image)
    return None
