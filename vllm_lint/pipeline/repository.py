"""What a whole repository says about the vLLM release it serves (issue 28): ``Targeting``'s
sources after the files around a launch (``pipeline.surroundings``), read once per repository
per run (:class:`RepositorySurvey`).

* **a server named by the launch**: a platform's catalog names its model server by name and the
  platform's own configuration, elsewhere in the repository, sets that server's image: KubeAI's
  ``engine: VLLM`` and a chart's ``modelServers: VLLM: images: default: <image>``, a KServe
  InferenceService's ``runtime: <name>`` and the ``ServingRuntime`` (or ``ClusterServingRuntime``,
  or one inside an OpenShift ``Template``) of that name, llmaz's ``backendName: <name>`` and the
  ``BackendRuntime`` of that name (``image:`` with its ``version:``). The link is read where the
  file's own bytes say it (:meth:`RepositorySurvey.linked`). A Triton Python backend model
  (``model_repository/<model>/<version>/model.py``, importing ``triton_python_backend_utils``) names
  the Triton server that serves its model repository: the ``tritonserver:YY.MM-vllm-python-py3``
  image of the file that names the model repository's folder by path (a Terraform file whose
  ``aws s3 sync`` copies it to the server's bucket), else of the files in a folder above it, else
  of the repository (:meth:`RepositorySurvey.triton`);
* **the one release the repository names**: every vLLM image with a tag in the repository's
  deployment files (YAML, Helm templates, Dockerfiles, env files such as ``params.env``, a
  ``FROM`` or a ``pip install vllm==``), outside tests and vendored folders. When they all name
  one release it is the release of a launch nothing nearer names (:meth:`RepositorySurvey.mentions`,
  read against the database by ``Targeting``); when they name several, none is chosen and the reason
  says which, where.

The walk is bounded (:data:`MAX_FOLDERS`, :data:`MAX_FILES` files read): a repository larger than
that is not surveyed, said so. Only the files that name a release are noted as inputs of the
result (``vllm_lint.inputs``), as for the files around a launch.
"""

from __future__ import annotations

import os
import re

from ..frontends.base import builds_image_by_name
from ..fsutil import TooLarge, read_regular, watch
from ..images import image_is_vllm, version_from_image
from ..record import Record, lazy_re
from . import surroundings as _s
from .surroundings import Named

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

    from . import kustomize as _k

#: the names of a kustomization (``kustomize.NAMES``: that module imported for a file so named only)
_KUSTOMIZATIONS = ("kustomization.yaml", "kustomization.yml", "Kustomization")

#: folders a survey walks at most; files it reads at most
MAX_FOLDERS = 4000
MAX_FILES = 8000

# folders whose files are not what the repository deploys: tests and their fixtures, vendored or
# installed code, packaged output (a `build/` folder often holds the Dockerfiles: read)
_SKIP_DIRS = frozenset({"node_modules", "__pycache__", "venv", "site-packages", "vendor", "third_party",
                        "third-party", "test", "tests", "testdata", "test-data", "e2e", "fixtures", "dist"})
_TEMPLATE_SUFFIXES = (".yaml", ".yml", ".tpl")
# an image reference with a tag whose repository part names vllm (``vllm/vllm-openai:v0.8.3``,
# ``"quay.io/x/vllm-openai:0.9"``, ``VLLM_IMAGE=rocm/vllm:..._vllm_0.19.1``)
_TAGGED = lazy_re(r"""(?i)(?<![\w./:@$-])((?:[\w.-]+(?::\d+)?/)*[\w.-]*vllm[\w.-]*):([\w][\w.+-]*)""")
# an untagged image key (its tag beside it: ``tag:`` / ``version:``)
_UNTAGGED = lazy_re(r"""(?m)^[ \t]*-?[ \t]*(?:image|repository)[ \t]*:[ \t]*["']?((?:[\w.-]+(?::\d+)?/)*[\w.-]*vllm[\w.-]*)["']?[ \t]*(?:#.*)?$""")
# how a launch's file names its model server (KubeAI, KServe, llmaz)
_REFERS = lazy_re(r"""(?m)^[ \t]*-?[ \t]*(engine|runtime|backendName)[ \t]*:[ \t]*["']?([A-Za-z0-9][\w.-]*)["']?[ \t]*(?:#.*)?$""")
_REF_KIND = {"engine": "engine", "runtime": "runtime", "backendName": "backend"}
_SERVER_MARKERS = (b"modelServers", b"ServingRuntime", b"BackendRuntime")
# a Triton Inference Server image with the vLLM backend (``knowledge.image_tags``' Triton scheme), written
# whole or as a repository with its ``tag:`` beside it (chart values, also in a Terraform heredoc)
_TRITON = lazy_re(r"""(?i)(?<![\w./:@$-])((?:[\w.-]+(?::\d+)?/)*tritonserver):(\d{2}\.\d{2}-vllm-python-py3)(?![\w.-])""")
_TRITON_UNTAGGED = lazy_re(r"""(?m)^[ \t]*-?[ \t]*(?:image|repository)[ \t]*:[ \t]*["']?((?:[\w.-]+(?::\d+)?/)*tritonserver)["']?[ \t]*(?:#.*)?$""")
_TRITON_TAG = lazy_re(r"^\d{2}\.\d{2}-vllm-python-py3$")
# a path a file names (the model repository's folder, relative to the file's folder or the root): words with a slash
_PATH_WORD = lazy_re(r"""(?<![\w:/.-])(\.{0,2}/?[\w.-]+(?:/[\w.-]+)+/?)""")
#: the module every Triton Python backend model imports
TRITON_MODEL_MARK = b"triton_python_backend_utils"
# Terraform: a deployment's Helm values in a heredoc (read for the Triton servers it configures)
_TERRAFORM = (".tf",)


#: a Mention's text for an install of vllm with no version (what a fresh build installs: the newest)
UNPINNED = "latest"


class Mention(Record):
    """One vLLM image (or pin) a file of the repository names: ``text`` as written (a tag or a
    version), ``image``, ``where`` (``path:line``, relative to the root) and ``read``: (absolute
    path, content key) of the file."""

    __slots__ = ("text", "image", "where", "read")

    def __init__(self, text: str, image: Optional[str], where: str, read: tuple[str, str]) -> None:
        self.text = text
        self.image = image
        self.where = where
        self.read = read

    def named(self, why: str) -> Named:
        return Named(self.text, why, self.image, read=self.read)


class Survey(Record):
    """A repository's ``mentions`` (every vLLM image with a tag, in walk order), its ``servers``
    ((kind, name) -> the mentions of the images configured for that model server, the default
    first), ``truncated`` (the walk stopped at its bound: nothing repository-wide is chosen) and
    what is left to walk (``pending``: a walk paused at a second release resumes from there)."""

    __slots__ = ("mentions", "servers", "tritons", "kustomizations", "truncated", "pending", "folders", "files",
                 "distinct", "ignores")

    def __init__(self, root: str) -> None:
        self.mentions: list[Mention] = []
        self.servers: dict[tuple[str, str], list[Mention]] = {}
        # the Triton vLLM images the repository configures: (the mention, its file's folder, the folders
        # the file names by path)
        self.tritons: list[tuple[Mention, str, frozenset]] = []
        # the kustomizations that copy a ConfigMap's field into an image (``pipeline.kustomize``)
        self.kustomizations: list[_k.Kustomization] = []
        self.truncated = False
        self.pending = [root]  # (the folders left to walk: a walk paused at a second release resumes)
        self.folders = 0
        self.files = 0
        self.distinct: set = set()  # what the mentions name (``RepositorySurvey.distinct``)
        # a folder left to walk -> the .gitignore rules above it (``pipeline.ignored_folders``)
        self.ignores: dict[str, list] = {}


class RepositorySurvey:
    """One run's surveys of repositories (their roots from ``surroundings.root_of``); ``distinct``
    tells the releases of two mentions apart (what a mention names, read against the database)."""

    def __init__(self, surroundings: _s.Surroundings, distinct: Callable[[Mention], Any]) -> None:
        self.surroundings = surroundings
        self.distinct = distinct
        self._surveys: dict[str, Survey] = {}
        self._texts: dict[str, Optional[tuple[str, tuple[str, str]]]] = {}  # (``_text_of``'s memo)

    def survey(self, root: str, whole: bool = False) -> Survey:
        """The repository at ``root``, walked once: until a second release is named (enough to
        choose none), or ``whole`` (the model servers it configures)."""
        s = self._surveys.get(root)
        if s is None:
            s = self._surveys[root] = Survey(root)
        if s.pending and not s.truncated and (whole or len(s.distinct) < 2):
            self._walk(s, root, stop=not whole)
        return s

    def reads(self, root: str) -> list[tuple[str, str]]:
        """The files of the repository that name a vLLM release (the inputs of a choice made from it)."""
        return list(dict.fromkeys(m.read for m in self.survey(root).mentions))

    # -- the two sources
    def linked(self, root: str, data: bytes) -> tuple[Optional[Named], Optional[str]]:
        """(the image of the model server the file's bytes ``data`` name, a note) when every server
        they name that the repository configures has one release; (None, why not) when they name
        several releases, (None, None) when they name no server the repository configures."""
        if not any(k.encode() in data for k in _REF_KIND):
            return None, None
        text = data.decode("utf-8", errors="replace")
        refs = [(m.group(1), m.group(2)) for m in _REFERS.finditer(text)]
        if not refs:  # (no server named: the repository is not walked for its servers)
            return None, None
        servers = self.survey(root, whole=True).servers
        found: dict[Any, tuple[Mention, str]] = {}  # the release it names -> (image, how the file names it)
        for key, name in refs:
            images = servers.get((_REF_KIND[key], name))
            if images:
                found.setdefault(self.distinct(images[0]), (images[0], f"{key}: {name}"))
        if not found:
            return None, None
        if len(found) > 1:
            return None, ("the model servers it names run several releases (" +
                          ", ".join(f"{how}: {m.where} {m.image}" for m, how in found.values()) + "): none chosen")
        mention, how = next(iter(found.values()))
        return mention.named(f"{mention.where} {mention.image} (the image of the model server it names, {how})"), None

    def triton(self, root: str, directory: str) -> tuple[Optional[Named], Optional[str]]:
        """The Triton server image that serves the Triton Python backend model in the folder
        ``directory`` (``<model repository>/<model>/<version>/``): the Triton vLLM images of the files that name
        its model repository's folder or one above it by path (a sync to the server's bucket, a
        volume), else of the files in a folder above it, else of the whole repository; the first
        of these naming one release gives it, (None, why) when one names several."""
        tritons = self.survey(root, whole=True).tritons
        if not tritons:
            return None, None
        d = directory
        above = []  # the model's folder and those above it, below the repository root
        while d != root and len(d) > len(root):
            above.append(d)
            d = os.path.dirname(d)
        named_by = [t for t in tritons if t[2] & set(above)]
        around = [t for t in tritons if t[1] == root or t[1] in above]
        for group, how in ((named_by, "the file that names its model repository's folder"),
                           (around, "a folder above its model repository"), (tritons, "the repository")):
            if not group:
                continue
            found = {}
            for m, _d, _n in group:
                found.setdefault(self.distinct(m), m)
            if len(found) > 1:
                return None, ("the Triton servers configured in " + how + " run several releases (" +
                              ", ".join(f"{m.where} {m.image}" for m in list(found.values())[:3]) + "): none chosen")
            m = next(iter(found.values()))
            return m.named(f"{m.where} {m.image} (the Triton server that serves this model; its image is set in "
                           f"{how})"), None
        return None, None

    def kustomized(self, root: str, data: bytes, image: str) -> tuple[Optional[Named], Optional[str], list]:
        """(the image the repository's kustomizations set for the manifest ``data`` whose container's
        image is the placeholder ``image`` (``$(vllm-image)``), a note, the files read for it):
        ``pipeline.kustomize``."""
        s = self.survey(root, whole=True)
        if not s.kustomizations:
            return None, None, []
        from . import kustomize as _k

        got, note = _k.replaced_image(s.kustomizations, data.decode("utf-8", errors="replace"), image, root,
                                      self._text_of)
        if got is None:
            return None, note, []
        return Named(version_from_image(got.image) or "", f"image {image}: {got.image} at {got.where}, set by {got.how}",
                     got.image), None, got.reads

    def _text_of(self, path: str, data: Optional[bytes] = None) -> Optional[tuple[str, tuple[str, str]]]:
        """A file's text and its read (absolute path, content key), bounded, once per run (``data``:
        its bytes, read already); None when unreadable."""
        if path in self._texts:
            return self._texts[path]
        from .. import inputs

        if data is None:
            try:
                data = read_regular(path, _s.MAX_BYTES)
            except (OSError, TooLarge):
                data = None
        got = None if data is None else (data.decode("utf-8", errors="replace"), (os.path.abspath(path), inputs.key_of(data)))
        self._texts[path] = got
        return got

    def mentions(self, root: str) -> tuple[list[Mention], bool]:
        """The repository's mentions, and whether the walk was cut short."""
        s = self.survey(root)
        return s.mentions, s.truncated

    # -- the walk
    def _walk(self, out: Survey, root: str, stop: bool) -> None:
        """Walk on from ``out.pending``, folder by folder; with ``stop``, pause after the folder in
        which a second release is named."""
        stack = out.pending
        ignores = self.surroundings.ignored_folders
        while stack:
            d = stack.pop()
            out.folders += 1
            if out.folders > MAX_FOLDERS:
                out.truncated = True
                return
            watch(d)  # (the result cache's survey: a listing is its folder's signature)
            try:
                entries = sorted(os.scandir(d), key=lambda e: e.name)
            except OSError:
                continue
            subdirs = []
            before = len(out.mentions)
            names = [e.name for e in entries]
            above = out.ignores.pop(d, None)
            if above is None:  # (the root: its info/exclude and .gitignore)
                above = ignores.root_rules(d, names)
            elif ".gitignore" in names:
                rules = ignores.rules(d, names)
                if rules is not None:
                    above = above + [(d, rules)]
            for e in entries:
                name = e.name
                try:
                    if name.startswith("."):  # (every env file's name holds `.env`: no expression for `.github`)
                        if not (".env" in name and _s._ENV_FILE.match(name) and e.is_file(follow_symlinks=False)):
                            continue
                    elif e.is_dir(follow_symlinks=False):
                        if name.lower() not in _SKIP_DIRS and not (above and ignores.ignored(e.path, above)):
                            subdirs.append(e.path)
                            out.ignores[e.path] = above
                        continue
                    elif not (e.is_file(follow_symlinks=False) and (name.endswith(_TEMPLATE_SUFFIXES)
                              or builds_image_by_name(name) or (".env" in name and _s._ENV_FILE.match(name))
                              or name.endswith(_TERRAFORM))):
                        continue
                except OSError:
                    continue
                out.files += 1
                if out.files > MAX_FILES:
                    out.truncated = True
                    return
                self._file(out, root, e.path, name)
            stack.extend(reversed(subdirs))
            out.distinct.update(self.distinct(m) for m in out.mentions[before:])
            if stop and len(out.distinct) > 1:
                return

    def _file(self, out: Survey, root: str, path: str, name: str) -> None:
        data = self.surroundings.seen.get(path, b"")  # (the files around launches, read already)
        if name in _KUSTOMIZATIONS:  # (read whether or not it names vllm: its keys may not)
            got = self._text_of(path, data or None)
            if got is not None:
                from . import kustomize as _k

                k = _k.read_kustomization(got[0], os.path.dirname(os.path.abspath(path)),
                                          os.path.relpath(path, root).replace(os.sep, "/"))
                if k is not None:
                    k.read = got[1]
                    out.kustomizations.append(k)
        if data is None:
            return
        if not data:
            try:
                data = read_regular(path, _s.MAX_BYTES)
            except (OSError, TooLarge):
                return
            names = b"vllm" in data.lower()
            self.surroundings.seen[path] = data if names else None  # (a second, whole walk reads it from here)
            if not names:
                return
        made: list = []

        def read() -> tuple[str, str]:  # (the file's record, its content key made for a file that names something)
            if not made:
                from .. import inputs

                made.append((os.path.abspath(path), inputs.key_of(data)))
            return made[0]

        text = data.decode("utf-8", errors="replace")
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        if b"tritonserver" in data:
            out.tritons.extend(_tritons(text, rel, read(), os.path.dirname(os.path.abspath(path)), root))
        if name.endswith(_TERRAFORM):  # (read for the Triton servers it configures only)
            return
        found = _images(text)
        if "$" in text and name.endswith((".yaml", ".yml")):
            found = sorted(found + self._variable_images(text, os.path.dirname(path)))
        if found and (b"build" in data or b"artifacts" in data):  # (the name a build gives its image: no release)
            found = [f for f in found if not _s.build_result(text, f[0])]
        if builds_image_by_name(name) and not found:  # (no vLLM image: what it installs)
            m = _s._PIP_PIN.search(text)
            if m and not _commented(text, m.start(2)):
                found = [(m.start(2), m.group(2), None)]
            if _s._unpinned_install(text):  # (an unpinned install runs the newest release: another one)
                bare = next((b for b in _s._BARE_VLLM.finditer(text) if not _commented(text, b.start())), None)
                found.append((bare.start() if bare else 0, UNPINNED, None))
        for at, tag, image in found:
            out.mentions.append(Mention(tag, image, f"{rel}:{text.count(chr(10), 0, at) + 1}", read()))
        if name.endswith((".yaml", ".yml")) and any(k in data for k in _SERVER_MARKERS):
            for key, images in _servers(text).items():
                got = []
                for image in images:
                    at = text.find(image)
                    if at < 0:  # (an image with its version beside it: the image key's line)
                        at = text.find(image.rsplit(":", 1)[0])
                    line = text.count("\n", 0, at) + 1 if at >= 0 else 1
                    got.append(Mention(version_from_image(image) or "", image, f"{rel}:{line}", read()))
                out.servers.setdefault(key, got)


    def _variable_images(self, text: str, directory: str) -> list[tuple[int, str, str]]:
        """(offset, tag, image) of the vLLM images a compose-style file spells with variables, filled
        as compose fills them (the folder's env files, else the defaults: ``${TAG:-v0.8.5}``); a tag
        left to a variable nothing defines is a release nobody names here (``${...}``)."""
        s = self.surroundings
        f = s.folder(directory)
        s.runners(directory)  # (the folder's env files)
        out = []
        if "image" not in text:  # (every match's key: its expression not compiled for a file naming none)
            return out
        for m in _VARIABLE_IMAGE.finditer(text):
            if _commented(text, m.start(1)):
                continue
            got = s._interpolated(f, m.group(1))
            if got is not None:
                image = got[0]
                if image_is_vllm(image) and version_from_image(image):
                    out.append((m.start(1), version_from_image(image) or "", image))
            elif "$" not in m.group(1).rsplit(":", 1)[0] and image_is_vllm(m.group(1).rsplit(":", 1)[0]):
                out.append((m.start(1), "${...}", m.group(1)))
        return out


def _tritons(text: str, rel: str, read: tuple[str, str], folder: str, root: str) -> list[tuple[Mention, str, frozenset]]:
    """The Triton vLLM images a file configures (``tritonserver:24.06-vllm-python-py3``, or
    ``repository: .../tritonserver`` with its ``tag:`` beside it), each with the file's folder and
    the folders the file names by path (relative to its folder or to the repository root)."""
    images = []
    for m in _TRITON.finditer(text):
        if not _commented(text, m.start()):
            images.append((m.start(), m.group(0)))
    for m in _TRITON_UNTAGGED.finditer(text):
        tag = _s._tag_beside(text, m.start(1))
        if tag and _TRITON_TAG.match(tag) and not _commented(text, m.start(1)):
            images.append((m.start(1), f"{m.group(1)}:{tag}"))
    if not images:
        return []
    named = set()
    for w in _PATH_WORD.findall(text):
        w = w.rstrip("/")
        for base in (folder, root):
            full = os.path.normpath(os.path.join(base, w.lstrip("/") if base == root else w))
            if full.startswith(root + os.sep):
                named.add(full)
    refs = frozenset(named)
    return [(Mention(version_from_image(image) or "", image, f"{rel}:{text.count(chr(10), 0, at) + 1}", read),
             folder, refs) for at, image in sorted(images)]


def _commented(text: str, at: int) -> bool:
    start = text.rfind("\n", 0, at) + 1
    return text[start:at].lstrip().startswith(("#", "//", "{{/*", "<!--"))


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}  # (str.translate: the length kept)


def _images(text: str) -> list[tuple[int, str, str]]:
    """(offset, tag, image) of every vLLM image with a tag ``text`` names outside comments: written
    whole, or untagged with its ``tag:`` / ``version:`` key beside it (chart values, llmaz)."""
    out = []
    low = text.lower()
    if len(low) != len(text):  # (a character lower-cases to two, `İ`: the offsets must stay the text's, or the loop
        low = text.translate(_ASCII_LOWER)  # never ends; no other character lower-cases to v, l or m)
    at = low.find("vllm")
    while at >= 0:  # (only the lines naming vllm: most of a file is not read twice)
        start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
        end = len(text) if end < 0 else end
        first, at = at, low.find("vllm", end)
        if not _may_tag(text, low, first, end):
            continue
        for m in _TAGGED.finditer(text, start, end):
            image = m.group(0)
            if text[m.end():m.end() + 1] in ("$", "{"):  # (`v${VERSION}`: read with its default below)
                continue
            if image_is_vllm(image) and not _commented(text, m.start()):
                tag = version_from_image(image)
                if tag:
                    out.append((m.start(2), tag, image))
    for m in _UNTAGGED.finditer(text) if _may_untagged(text) else ():
        if image_is_vllm(m.group(1)) and not _commented(text, m.start(1)):
            tag = _s._tag_beside(text, m.start(1))
            if tag:
                out.append((m.start(1), tag, f"{m.group(1)}:{tag}"))
    out.sort()
    return out


# the characters of an image's name that ``str.lstrip`` passes over for :func:`_may_tag` (ASCII's of
# ``[\w.-]``; a character that is not ASCII stops it, and the line is searched)
_NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"


def _may_tag(text: str, low: str, at: int, end: int) -> bool:
    """Whether :data:`_TAGGED` may match on the line ending at ``end`` whose first ``vllm`` (in the
    lower case ``low``, as long as ``text``) is at ``at``: a match's last name holds ``vllm``, then
    name characters, ``:`` and a word character (``vllm[\\w.-]*:[\\w]``). The expression tries every
    position of a line and backtracks over each word of a path (``$RUNNER_TEMP/vllm-lint-venv/bin``):
    ~100k instructions a line of a GitHub action naming vllm-lint on 18 lines and no image (benchmarks/README.md,
    issue 31's ninth pass)."""
    while 0 <= at < end:
        rest = text[at + 4:end].lstrip(_NAME_CHARS)
        c = rest[:1]
        if c == ":":
            w = rest[1:2]
            if w and (w.isalnum() or w == "_"):
                return True
        elif c and not c.isascii():
            return True  # (a character a word may hold: searched)
        at = low.find("vllm", at + 4, end)
    return False


def _may_untagged(text: str) -> bool:
    """Whether :data:`_UNTAGGED` may match in ``text``: a match is one line that starts with its key
    (``image`` or ``repository``, a list's dash and blanks before it, a ``:`` after it), and its name's last part holds ``vllm`` followed by name
    characters and then the line's end, a quote, a blank or a comment (``vllm/vllm-openai:v0.27.1``
    is a tagged name: a ``:`` follows). Compiling the expression was ~1.4 M instructions of a one-file
    run whose repository names only tagged images (benchmarks/README.md, issue 31's tenth pass)."""
    for start, end in _s.lines_holding(text, ("image", "repository")):
        head = text[start:end].lstrip(" \t")  # (the line starts with the key: `- image:`, `repository :`)
        if head[:1] == "-":
            head = head[1:].lstrip(" \t")
        key = 5 if head.startswith("image") else 10 if head.startswith("repository") else 0
        if not key or head[key:].lstrip(" \t")[:1] != ":":
            continue
        at = text.find("vllm", start, end)
        while at >= 0:
            c = text[at + 4:end].lstrip(_NAME_CHARS)[:1]
            if c in ("", '"', "'", " ", "\t", "#") or not c.isascii():  # (a character a word may hold: tried)
                return True
            at = text.find("vllm", at + 4, end)
    return False


_VARIABLE_IMAGE = lazy_re(r"""(?m)^[ \t]*-?[ \t]*image[ \t]*:[ \t]*["']?([^\s"'#]*\$[^\s"'#]*)""")


def _servers(text: str) -> dict[tuple[str, str], list[str]]:
    """The model servers a YAML file configures: (kind, name) -> their vLLM images, the default
    first. ``modelServers: NAME: images: {default: ...}`` (KubeAI's chart values, anywhere in the
    document), a ``ServingRuntime`` / ``ClusterServingRuntime`` (also inside a ``Template``'s
    ``objects``), a ``BackendRuntime`` (``image`` and ``version``). A Helm template that is no
    YAML before rendering names none here."""
    try:
        from .. import libyaml

        docs = list(libyaml.load_all(text))
    except Exception:  # (a template before rendering, or malformed: its own lint reports it)
        return {}
    out: dict[tuple[str, str], list[str]] = {}
    stack: list[Any] = list(docs)
    seen = 0
    while stack and seen < 20_000:
        node = stack.pop()
        seen += 1
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, dict):
            continue
        kind = node.get("kind")
        meta = node.get("metadata") if isinstance(node.get("metadata"), dict) else {}
        spec = node.get("spec") if isinstance(node.get("spec"), dict) else {}
        name = meta.get("name")
        if kind in ("ServingRuntime", "ClusterServingRuntime") and isinstance(name, str):
            images = [str(c.get("image")) for c in spec.get("containers") or [] if isinstance(c, dict)]
            images = [i for i in images if image_is_vllm(i) and version_from_image(i)]
            if images:
                out.setdefault(("runtime", name), images)
        elif kind == "BackendRuntime" and isinstance(name, str):
            image, version = spec.get("image"), spec.get("version")
            if isinstance(image, str) and image_is_vllm(image):
                if ":" not in image.rsplit("/", 1)[-1] and isinstance(version, (str, int, float)):
                    image = f"{image}:{version}"
                if version_from_image(image) not in (None, "latest"):
                    out.setdefault(("backend", name), [image])
        servers = node.get("modelServers")
        if isinstance(servers, dict):
            for server, conf in servers.items():
                imgs = conf.get("images") if isinstance(conf, dict) else None
                if isinstance(imgs, dict):
                    images = [str(i) for i in imgs.values() if isinstance(i, str) and image_is_vllm(i)
                              and version_from_image(i) not in (None, "latest")]
                    default = imgs.get("default")
                    if default in images:  # (the image a model without a profile's image runs)
                        out.setdefault(("engine", str(server)), [default])
                    elif "default" not in imgs and len({version_from_image(i) for i in images}) == 1:
                        out.setdefault(("engine", str(server)), images[:1])
        stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
    return out
