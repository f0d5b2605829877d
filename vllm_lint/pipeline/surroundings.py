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
  ``uv.lock``, ``poetry.lock``, ``pdm.lock``, ``Pipfile.lock``, a conda ``environment.yml``. A
  range (``vllm>=0.8,<0.10``) gives the newest release of the database it allows, said so.

The file that names the release is noted in ``vllm_lint.inputs`` (``Named.read``: the result
cache keeps a result while it is unchanged), and the choice is part of the cached verdict
(``engine._verdict``), recomputed on every run from one read of each folder, so a file changed
or added beside a launch is seen on the next run. The files that named nothing are not noted: a
monorepo's folder of a thousand manifests would put a thousand reads in every record. Files over
:data:`MAX_BYTES` are not read.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, Optional

from .. import inputs
from ..fsutil import TooLarge, read_regular
from ..images import image_is_vllm, version_from_image
from ..record import Record, lazy_re

MAX_BYTES = 1 << 20
_DOCKERFILE = lazy_re(r"^(?:Dockerfile(?:\..+)?|.+\.[Dd]ockerfile|Containerfile(?:\..+)?)$")
_YAML = (".yaml", ".yml")
_FROM = lazy_re(r"^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)", re.M | re.I)
_IMAGE = lazy_re(r"""(?:^|[\s{,])(?:image|newName)[ \t]*:[ \t]*["']?([^\s"'#,}]+)""", re.M)
_WORD = lazy_re(r"[\w./-]+")  # (one pass: a long base64 line must not backtrack)
_SCRIPT_SUFFIXES = (".sh", ".py", ".bash", ".yaml", ".yml", ".json")
_PIP_PIN = lazy_re(r"""(?i)(?:^|[\s"'\[,])vllm(?:\[[^\]]*\])?\s*(===?|~=)\s*v?([0-9][0-9a-zA-Z.+]*)""")
_SPEC = lazy_re(r"""(?i)(?:^|[\s"'\[,])vllm(?:\[[^\]]*\])?\s*((?:===?|~=|!=|<=?|>=?)\s*v?[0-9][^;,\s"'\]]*"""
                   r"""(?:\s*,\s*(?:===?|~=|!=|<=?|>=?)\s*v?[0-9][^;,\s"'\]]*)*)""", re.M)
_LOCK_PACKAGE = lazy_re(r'\[\[package\]\][ \t]*\r?\n[ \t]*name[ \t]*=[ \t]*"vllm"[ \t]*\r?\n[ \t]*version[ \t]*=[ \t]*"([^"]+)"')
_CONDA_PIN = lazy_re(r"""(?im)^[ \t]*-[ \t]*vllm[ \t]*={1,2}[ \t]*([0-9][0-9a-zA-Z.+]*)""")
_LOCK_FILES = ("uv.lock", "poetry.lock", "pdm.lock")
_CONDA_FILES = ("environment.yml", "environment.yaml")


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
    asked (``Surroundings.runners`` / ``Surroundings.pin``), its runners and its pin; ``reads``:
    the files read, with their keys."""

    __slots__ = ("names", "root", "runners", "pin", "reads")

    def __init__(self, names: list[str]) -> None:
        self.names = names
        self.root = ".git" in names
        self.runners: Optional[list[_Runner]] = None
        self.pin: Any = _UNREAD
        self.reads: list[tuple[str, str]] = []


_UNREAD = object()


_is_vllm_image = image_is_vllm
_tag = version_from_image


class Surroundings:
    """The runners and pins of folders, read once per folder (one run's memo)."""

    def __init__(self) -> None:
        self._folders: dict[str, _Folder] = {}
        self._roots: dict[str, Optional[str]] = {}
        self._last: Optional[tuple[str, str]] = None  # the file ``_read`` read last, with its key

    # -- one folder
    def folder(self, directory: str) -> _Folder:
        """The folder's listing, once."""
        f = self._folders.get(directory)
        if f is None:
            try:
                names = sorted(os.listdir(directory))
            except OSError:
                names = []
            f = self._folders[directory] = _Folder(names)
        return f

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

    def _read(self, f: _Folder, path: str) -> Optional[str]:
        data = self._read_bytes(f, path)
        return None if data is None else data.decode("utf-8", errors="replace")

    def _read_bytes(self, f: _Folder, path: str) -> Optional[bytes]:
        try:  # a regular file, bounded (a Dockerfile may be a link to /dev/zero or a FIFO)
            data = read_regular(path, MAX_BYTES)
        except (OSError, TooLarge):
            return None
        self._last = (os.path.abspath(path), inputs.key_of(data))
        f.reads.append(self._last)
        return data

    def _read_runners(self, f: _Folder, directory: str) -> None:
        names = f.names
        for name in names:
            path = os.path.join(directory, name)
            if _DOCKERFILE.match(name):
                text = self._read(f, path)
                if text is not None:
                    self._dockerfile(f, name, text)
            elif name.endswith(_YAML) and name not in _CONDA_FILES and name != "Chart.yaml" and not name.startswith("."):
                self._yaml(f, directory, name, path)
        if "Chart.yaml" in names:
            self._chart(f, directory)

    def _dockerfile(self, f: _Folder, name: str, text: str) -> None:
        images = [m.group(1) for m in _FROM.finditer(text) if _is_vllm_image(m.group(1))]
        refs = _path_words(text)
        if images:
            tag = _tag(images[-1])
            if tag:
                f.runners.append(_Runner(Named(tag, f"{name} (FROM {images[-1]})", images[-1], read=self._last), refs))
            return
        m = _PIP_PIN.search(text)
        if m:
            f.runners.append(_Runner(Named(m.group(2), f"{name} (pip install vllm{m.group(1)}{m.group(2)})", read=self._last), refs))

    def _yaml(self, f: _Folder, directory: str, name: str, path: str) -> None:
        try:
            if os.path.getsize(path) > MAX_BYTES:
                return
        except OSError:
            return
        data = self._read_bytes(f, path)
        # (bytes first: most sibling YAML files never name vLLM; no character lower-cases to v, l or m)
        if data is None or b"vllm" not in data.lower():
            return
        text = data.decode("utf-8", errors="replace")
        if name in ("kustomization.yaml", "kustomization.yml"):
            named = _kustomize(text, name)
            if named is not None:
                named.read = self._last
                f.runners.append(_Runner(named, frozenset()))
            return
        images = [m.group(1) for m in _IMAGE.finditer(text) if _is_vllm_image(m.group(1))]
        tags = {t for t in (_tag(i) for i in images) if t}
        refs = _path_words(text)
        if len(tags) == 1:
            image = next(i for i in images if _tag(i) in tags)
            f.runners.append(_Runner(Named(next(iter(tags)), f"{name} (image {image})", image, read=self._last), refs))
        elif not tags and name in ("config.yaml", "config.yml") and "requirements" in text:
            m = _PIP_PIN.search(text)  # a Truss config's `requirements:` list
            if m:
                f.runners.append(_Runner(Named(m.group(2), f"{name} (requirements: vllm{m.group(1)}{m.group(2)})", read=self._last), refs))

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
        tdir = os.path.join(directory, "templates")
        try:
            templates = sorted(os.listdir(tdir))
        except OSError:
            return
        for t in templates:
            body = self._read(f, os.path.join(tdir, t)) if t.endswith((".yaml", ".yml", ".tpl")) else None
            if body and re.search(r"image[ \t]*:[^\n]*\.Chart\.AppVersion", body):
                f.runners.append(_Runner(Named(m.group(1), f"Chart.yaml (appVersion {m.group(1)}, the image tag "
                                                          f"templates/{t} renders)", read=chart_read),
                                         frozenset({"*chart*"})))
                return

    def _pin(self, f: _Folder, directory: str, names: list[str]) -> Optional[Named]:
        for name in names:
            if (name.startswith(("requirements", "constraints")) and name.endswith((".txt", ".in"))) \
                    or name == "pyproject.toml":
                text = self._read(f, os.path.join(directory, name))
                named = _requirement_pin(text or "", name)
                if named is not None:
                    named.read = self._last
                    return named
        for name in _LOCK_FILES:
            if name in names:
                m = _LOCK_PACKAGE.search(self._read(f, os.path.join(directory, name)) or "")
                if m:
                    return Named(m.group(1), f"{name} locks vllm {m.group(1)}", read=self._last)
        if "Pipfile.lock" in names:
            try:
                lock = json.loads(self._read(f, os.path.join(directory, "Pipfile.lock")) or "{}")
                ver = next((lock[s]["vllm"]["version"] for s in ("default", "develop")
                            if isinstance(lock.get(s), dict) and isinstance(lock[s].get("vllm"), dict)), None)
            except (ValueError, KeyError, TypeError):
                ver = None
            if isinstance(ver, str) and ver.startswith("=="):
                return Named(ver[2:], f"Pipfile.lock locks vllm{ver}", read=self._last)
        for name in _CONDA_FILES:
            if name in names:
                m = _CONDA_PIN.search(self._read(f, os.path.join(directory, name)) or "")
                if m:
                    return Named(m.group(1), f"{name} pins vllm {m.group(1)}", read=self._last)
        return None

    # -- one file
    def root_of(self, directory: str) -> Optional[str]:
        """The repository root at or above ``directory`` (the folder holding ``.git``), or None."""
        if directory in self._roots:
            return self._roots[directory]
        found = None
        if os.path.isdir(os.path.join(directory, ".git")) or os.path.isfile(os.path.join(directory, ".git")):
            found = directory
        else:
            parent = os.path.dirname(directory)
            found = self.root_of(parent) if parent != directory else None
        self._roots[directory] = found
        return found

    def runner_for(self, directory: str, name: str) -> Optional[Named]:
        """What runs (or holds the image of) the file ``name`` in the real folder ``directory``."""
        here = self.runners(directory)
        for r in here:
            if _names(r.refs, name):
                return r.named
        named = {r.named.text: r.named for r in here}
        if len(named) == 1:
            return next(iter(named.values()))
        root = self.root_of(directory)
        d, rel = directory, name
        while root is not None and d != root:
            parent = os.path.dirname(d)
            if parent == d:
                break
            rel = os.path.basename(d) + "/" + rel
            d = parent
            for r in self.runners(d):
                if "*chart*" in r.refs or _names(r.refs, rel):
                    return r.named
        return None

    def pin_for(self, directory: str) -> Optional[Named]:
        """The nearest pin in ``directory`` or above, up to the repository root (or, outside a
        repository, to the file system's root, as before)."""
        d = directory
        while True:
            pin = self.pin(d)
            if pin is not None:
                return pin
            parent = os.path.dirname(d)
            if self.folder(d).root or parent == d:
                return None
            d = parent


def _path_words(text: str) -> frozenset:
    """The words of ``text`` that look like a script's or config file's path (``scripts/serve.sh``,
    ``/app/serve.sh``), in one linear pass."""
    return frozenset(w for w in _WORD.findall(text) if w.endswith(_SCRIPT_SUFFIXES) and len(w) < 512)


def _names(refs: frozenset, rel: str) -> bool:
    """Whether a runner's path-like words name the file at ``rel`` (relative to the runner's
    folder): the same relative path, or an absolute path inside the image ending in it
    (``/app/serve.sh``) when ``rel`` is a bare name."""
    for ref in refs:
        r = ref[2:] if ref.startswith("./") else ref
        if r == rel or (r.startswith("/") and r.rsplit("/", 1)[-1] == rel and "/" not in rel):
            return True
    return False


def _requirement_pin(text: str, name: str) -> Optional[Named]:
    if "vllm" not in text.lower():  # (every match names vllm: no expression compiled for the rest)
        return None
    for m in _SPEC.finditer(text):
        line_start = text.rfind("\n", 0, m.start(1)) + 1
        if text[line_start:m.start(1)].lstrip().startswith("#"):
            continue
        spec = re.sub(r"\s+", "", m.group(1)).replace("v", "")
        if spec.startswith(("==", "===")) and "," not in spec:
            return Named(spec.lstrip("="), f"{name} pins vllm{spec}")
        if spec.startswith("~=") and "," not in spec:
            return Named(spec[2:], f"{name} pins vllm{spec}")
        return Named(spec, f"{name} allows vllm{spec}", spec=True)
    return None


def _kustomize(text: str, name: str) -> Optional[Named]:
    """A kustomization's ``images:`` override of a vLLM image (``newTag``, or a tag in ``newName``)."""
    try:
        import yaml

        doc = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
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
