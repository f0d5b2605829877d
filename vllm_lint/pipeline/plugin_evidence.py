"""The platform plugin release a launch runs, as evidence of its vLLM release (``Targeting``: after
every source that names vLLM's own release at the same distance).

Two distances:

* **the launch's own**: the plugin image it runs in (``quay.io/ascend/vllm-ascend:v0.10.0rc1``,
  a ``FROM`` of it), else a plugin release its file pins or installs (``pip install
  vllm-ascend==0.9.1``, ``optimum-neuron[vllm]==0.4.5``, ``vllm-gaudi.git@v0.24.0``);
* **around it**: the same in the files of its folder and the folders above it, to the repository
  root (the folder holding ``.git``; without one, the file's own folder): requirement files, a
  ``Dockerfile`` / ``Containerfile`` ``FROM`` a plugin image, a compose file or manifest whose
  ``image:`` is one. A folder whose files name two releases of a plugin names none.

The plugin release's vLLM release is ``knowledge.plugin_targets``'s. Each folder is read once per
run; the file that decided is noted in ``vllm_lint.inputs`` (``Found.read``).
"""

from __future__ import annotations

import os
import re

from .. import inputs
from ..frontends.base import builds_image_by_name
from ..fsutil import TooLarge, read_regular
from ..images import image_is_vllm, version_from_image
from ..knowledge.image_tags import vendor_scheme
from ..record import Record, lazy_re
from .surroundings import PLUGIN_WORDS, _PLUGIN_WORDS

# (the plugin tables, ``surface.plugins`` and ``knowledge.plugin_targets``, and the forks' are
# imported where a text holds a plugin word or an image is read: most launches' files name none,
# and every one-file lint paid ~2 M instructions for them; benchmarks/README.md, issue 31's tenth pass)

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

MAX_BYTES = 1 << 20
_FROM = lazy_re(r"^[ \t]*FROM[ \t]+(?:--platform=\S+[ \t]+)?(\S+)", re.M | re.I)
_IMAGE = lazy_re(r"""(?m)^[ \t]*-?[ \t]*image[ \t]*:[ \t]*["']?([^\s"'#]+)""")


class Found(Record):
    """A plugin release: ``dist`` (its PyPI name), ``version`` as written, ``where`` (the file and
    what it says, for --verbose) and ``read`` (the file's (absolute path, content key), or None
    for the launch's own file)."""

    __slots__ = ("dist", "version", "where", "read")

    def __init__(self, dist: str, version: str, where: str, read: Optional[tuple[str, str]] = None) -> None:
        self.dist = dist
        self.version = version
        self.where = where
        self.read = read


def of_image(image: Optional[str], where: str) -> Optional[Found]:
    """The plugin release an image reference names by its repository and tag, or None."""
    if not image or "$" in image or "{" in image:
        return None
    from ..knowledge.forks import forks_of_image
    from ..knowledge.plugin_targets import plugin_version
    from ..surface.plugins import plugins_of_image

    dists = plugins_of_image(image)
    if not dists or image_is_vllm(image) or vendor_scheme(image) is not None or forks_of_image(image):
        # (vLLM's own image, vllm/vllm-tpu: its tag is vLLM's; a vendor's or a fork's, opea/vllm-gaudi:1.22.0:
        # its tag is the vendor's version, read by knowledge.image_tags)
        return None
    tag = version_from_image(image)
    version = plugin_version(tag) if tag else None
    if len(dists) != 1 or version is None:
        return None
    return Found(next(iter(dists)), version, f"{where} {image}")


def of_text(text: str, name: str) -> Optional[Found]:
    """The plugin release a file's text pins or installs (``vllm-ascend==0.11.0rc1``,
    ``optimum-neuron[vllm]==0.4.5``, ``vllm-gaudi.git@v0.24.0``; one plugin, one release of it),
    with the line of its first pin."""
    low = text.lower()
    if not any(w in low for w in _PLUGIN_WORDS):
        return None
    from ..surface.plugins import PLUGINS

    pinned: dict[str, list[tuple[int, str]]] = {}
    spelled_any = low.replace("-", "_")
    for p in PLUGINS:
        if p.dist.replace("-", "_") not in spelled_any:
            continue
        spelled = re.escape(p.dist).replace(r"\-", "[-_]")
        found = [(m.start(1), m.group(1)) for m in re.finditer(
            r"(?<![\w.-])" + spelled + r"(?:\[[\w,\s-]*\])?(?:\.git)?\s*(?:===?\s*|@\s*v?)"
            r"([0-9]+(?:\.[0-9]+)+(?:rc[0-9]+)?(?:\.post[0-9]+)?)(?![\w.])", text, re.IGNORECASE)]
        if found:
            pinned[p.dist] = found
    if len(pinned) != 1:
        return None
    dist, found = next(iter(pinned.items()))
    if len({v for _, v in found}) != 1:  # (two releases of the plugin: neither is the launch's)
        return None
    at, version = found[0]
    return Found(dist, version, f"{name}:{text.count(chr(10), 0, at) + 1}")


_OWN_MEMO: list = [None, None]  # the last file's bytes and its pin: its launches share one pass over it


def own(image: Optional[str], data: Optional[bytes], name: str) -> Optional[Found]:
    """The launch's own plugin release: its image's, else its file's pin."""
    found = of_image(image, "image")
    if found is None and data:
        if _OWN_MEMO[0] is not data:
            _OWN_MEMO[:] = [data, of_text(data.decode("utf-8", "replace"), name)]
        found = _OWN_MEMO[1]
    return found


class PluginSurroundings:
    """The plugin release the folders around a file name, each folder read once (one run's memo)."""

    def __init__(self, root_of, listing, wordless=frozenset()) -> None:
        self._root_of = root_of  # directory -> the repository root above it, or None
        self._listing = listing  # directory -> its sorted file names
        # paths read already (by the runners' reading of the same folder) whose bytes hold none of
        # the plugin words: not read again (``Surroundings.wordless``)
        self._wordless = wordless
        self._folders: dict[str, Optional[Found]] = {}

    def for_dir(self, directory: str) -> Optional[Found]:
        """The nearest folder's plugin release, from ``directory`` up to the repository root."""
        root = self._root_of(directory)
        d = directory
        while True:
            found = self._folder(d)
            if found is not None:
                return found
            parent = os.path.dirname(d)
            if root is None or d == root or parent == d:
                return None
            d = parent

    def _folder(self, directory: str) -> Optional[Found]:
        if directory in self._folders:
            return self._folders[directory]
        named: list[Found] = []
        for name in self._listing(directory):
            low = name.lower()
            requirement = (low.startswith(("requirements", "constraints")) and low.endswith((".txt", ".in"))) \
                or low == "pyproject.toml"
            dockerfile = builds_image_by_name(name)
            manifest = low.endswith((".yaml", ".yml")) and not name.startswith(".")
            if not (requirement or dockerfile or manifest):
                continue
            path = os.path.join(directory, name)
            if path in self._wordless:
                continue
            try:
                data = read_regular(path, MAX_BYTES)
            except (OSError, TooLarge):
                continue
            text = data.decode("utf-8", "replace")
            low_text = text.lower()
            if not any(w in low_text for w in _PLUGIN_WORDS):
                continue
            found = None
            if requirement:
                found = of_text(text, name)
            else:
                images = [m.group(1) for m in (_FROM if dockerfile else _IMAGE).finditer(text)] \
                    if dockerfile or "image" in text else []  # (a manifest naming no image: no expression compiled)
                hits = [f for f in (of_image(i, f"{name} ({'FROM' if dockerfile else 'image'}") for i in images) if f]
                if hits:
                    found = hits[-1] if dockerfile else hits[0]
                    found.where += ")"
            if found is not None:
                found.read = (os.path.abspath(path), inputs.key_of(data))
                named.append(found)
        releases = {(f.dist, f.version) for f in named}
        result = named[0] if len(releases) == 1 else None
        self._folders[directory] = result
        return result
