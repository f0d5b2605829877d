"""The vLLM release a platform plugin's release targets (``vllm-ascend 0.9.1`` -> vLLM 0.9.1), so
that a launch whose only evidence is a plugin release is checked at the vLLM release it runs
(``pipeline.targeting``).

In order: the requirement the plugin release's own metadata writes (``flag_db/plugins/``: an
exact pin, ``optimum-neuron[vllm]==0.4.5`` -> ``vllm==0.11.0``, or a range, vllm-spyre's
``>=0.11.0,<=0.16.0``, whose newest release in the database is taken), then the plugin's version
scheme where its own documentation says its numbers are vLLM's (:data:`SAME_NUMBER`, each with
its source). A plugin whose release names no bound (vllm-musa) or whose scheme is not documented
(tpu-inference, vllm-kunlun: left out) targets nothing here.
"""

from __future__ import annotations

import re

from ..record import Record, lazy_re
from .image_tags import HintReading, read_hint

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

#: plugins whose release X.Y.Z (with its rcN / .postN) is built for vLLM X.Y.Z, by their own words
SAME_NUMBER: dict[str, str] = {
    "vllm-ascend": "https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/community/versioning_policy.md "
                   "(a final release matches the vLLM final release v[major].[minor].[micro]; rcN and .postN "
                   "releases belong to it)",
    "vllm-metax": "https://github.com/MetaX-MACA/vLLM-metax (README: \"vLLM (the same version as vllm-metax)\", "
                  "releases/vX.Y.Z \"Corresponds to vLLM release vX.Y.Z\")",
    "vllm-gaudi": "https://github.com/vllm-project/vllm-gaudi (README: \"Version 0.26.0 is now available, built on "
                  "vLLM 0.26.0\", one such line per release)",
}

# X.Y.Z, the release of vLLM, then the plugin's own pre- and post-release parts; then a build's label
_RELEASE = lazy_re(r"^v?(?P<version>(\d+\.\d+\.\d+)(?:\.\d+)?(?:\.?(?:rc|a|b)\d+)?(?:\.?post\d+)?)(?:[-+_.].*)?$", re.I)


class PluginTarget(Record):
    """What one plugin release says of the vLLM release it runs on: ``reading`` (the database's
    reading of it: ``knowledge.image_tags.HintReading``), ``says``: the words for --verbose
    ("targets vLLM 0.9.1 (its version scheme: ...)"), ``spec``: the range it allows, if a range."""

    __slots__ = ("reading", "says", "spec")

    def __init__(self, reading: HintReading, says: str, spec: Optional[str] = None) -> None:
        self.reading = reading
        self.says = says
        self.spec = spec


def plugin_version(text: str) -> Optional[str]:
    """A plugin release as a tag or pin writes it (``v0.10.0rc1``, ``0.9.1``,
    ``0.10.2-maca.ai3.1.0.7``: 0.10.2, a build's label dropped), or None when it names none
    (``latest``)."""
    m = _RELEASE.match(text.strip())
    return m.group("version") if m else None


def target_of(db: Any, dist: str, version: str) -> Optional[PluginTarget]:
    """The vLLM release ``dist``'s release ``version`` targets (module docstring), read against the
    database ``db``; None when nothing says."""
    entry = db.plugins.plugins.get(dist, {})
    req = entry.get("vllm", {}).get(version) if isinstance(entry.get("vllm"), dict) else None
    if isinstance(req, dict) and req.get("specifier"):
        return _from_requirement(db, str(req["specifier"]), str(req.get("from") or "its metadata"))
    if dist in SAME_NUMBER:
        m = _RELEASE.match(version)
        if m is None:
            return None
        vllm = m.group(2)
        reading = read_hint(db, vllm)
        if reading.status in ("none", "unmapped"):
            return None
        return PluginTarget(reading, f"targets vLLM {vllm} (its version scheme: {dist} X.Y.Z is built for vLLM X.Y.Z)")
    return None


def _from_requirement(db: Any, specifier: str, where: str) -> Optional[PluginTarget]:
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    # (a local label is the plugin's build of that release: vllm-rbln's ==0.13.0+cpu runs vLLM 0.13.0)
    spec_text = re.sub(r"\+[\w.]+", "", specifier.replace(" ", ""))
    exact = re.fullmatch(r"===?v?([0-9][\w.]*)", spec_text)
    if exact:
        reading = read_hint(db, exact.group(1))
        if reading.status in ("none", "unmapped"):
            return None
        return PluginTarget(reading, f"requires vllm{specifier}, by its {where}")
    try:
        spec = SpecifierSet(spec_text)
    except InvalidSpecifier:
        return None
    allowed = [v for v in db.versions if spec.contains(v, prereleases=True)]
    if not allowed:
        return None
    reading = HintReading("release", allowed[-1], named=allowed[-1])
    return PluginTarget(reading, f"allows vllm{specifier}, by its {where}: {allowed[0]} to {allowed[-1]} in the database, "
                                 f"checked against the newest, {allowed[-1]}", spec=spec_text)
