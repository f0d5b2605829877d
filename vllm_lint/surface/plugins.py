"""vLLM's platform plugins: the table of the plugins the database knows, and what their releases
read (``flag_db/plugins/<plugin>/<version>.json``, compiled into ``flag_db/plugins/index.json``).

A platform plugin (Spyre, Ascend, ...) ships as its own package with an environment module shaped
like vLLM's ``envs.py``. Its variables are no vLLM release's, yet a launch on that plugin reads
them: the rules ask here which plugin reads a name and whether a launch runs on it.
"""

from __future__ import annotations

import os
import re
from functools import cached_property

from ..record import lazy_json as json  # (json.loads without the json package: record.json_loads)
from ..record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional
    from pathlib import Path

INDEX_SCHEMA = 1


class Plugin:
    """One platform plugin. ``dist``: its PyPI name; ``package``: its import package;
    ``envs_module`` / ``dict_names``: where its environment dict lives and what it is called;
    ``image_words``: words of an image reference that name the plugin's images; ``source``: where
    the module path was read. ``read_prefixes``: the plugin's other modules read variables
    themselves (``os.environ.get``), and those starting with one of these are its too;
    ``env_helpers``: ``(callable, spelling)`` of the plugin's own helpers that declare a variable
    (``scrape/plugins.py``, ``package_reads``); ``git_repo``: ``owner/name`` on GitHub of a plugin
    with no archive on PyPI, scraped from its release tags (``vllm-lint db plugin --git DIR``);
    ``older_envs_modules``: the names older releases gave the environment module. A plugin with no
    environment module (``envs_module`` None) is known by the variables its modules read
    (``read_prefixes``) and its platform's device-control variable; ``package`` may then be a
    subpackage (``optimum.neuron``)."""

    __slots__ = ("dist", "package", "envs_module", "dict_names", "image_words", "source", "read_prefixes",
                 "env_helpers", "git_repo", "older_envs_modules")

    def __init__(self, dist: str, package: str, envs_module: Optional[str], dict_names: tuple[str, ...],
                 image_words: tuple[str, ...], source: str, read_prefixes: tuple[str, ...] = (),
                 env_helpers: tuple[tuple[str, str], ...] = (), git_repo: Optional[str] = None,
                 older_envs_modules: tuple[str, ...] = ()) -> None:
        self.dist = dist
        self.package = package
        self.envs_module = envs_module
        self.dict_names = dict_names
        self.image_words = image_words
        self.source = source
        self.read_prefixes = read_prefixes
        self.env_helpers = env_helpers
        self.git_repo = git_repo
        self.older_envs_modules = older_envs_modules

    @property
    def package_path(self) -> str:
        """The package as a folder of the archive (``optimum.neuron`` -> ``optimum/neuron``)."""
        return self.package.replace(".", "/")


PLUGINS: tuple[Plugin, ...] = (
    Plugin("vllm-spyre", "vllm_spyre", "vllm_spyre.envs", ("environment_variables",),
           ("vllm-spyre", "spyre"), "vllm_spyre/envs.py of the vllm-spyre 1.10.0 sdist (PyPI)"),
    Plugin("vllm-ascend", "vllm_ascend", "vllm_ascend.envs", ("env_variables", "environment_variables"),
           ("vllm-ascend",), "vllm_ascend/envs.py of the vllm-ascend 0.23.0.post1 sdist (PyPI)"),
    # Google's TPU backend: the `vllm-tpu` package and the `vllm/vllm-tpu` image carry it; its
    # release numbers follow vLLM's (tpu-inference 0.32.0 is built for vLLM 0.32.0)
    Plugin("tpu-inference", "tpu_inference", "tpu_inference.envs", ("environment_variables",),
           ("vllm-tpu", "tpu-inference", "tpu_inference"),
           "tpu_inference/envs.py of the tpu-inference 0.32.0 sdist (PyPI)"),
    Plugin("vllm-kunlun", "vllm_kunlun", "vllm_kunlun.platforms.envs", ("xvllm_environment_variables",),
           ("vllm-kunlun", "kunlun"), "vllm_kunlun/platforms/envs.py of the vllm-kunlun 0.11.1 sdist (PyPI)"),
    # Rebellions ATOM/REBEL NPUs: wheels only on PyPI (read as an sdist is: scrape/sources.py)
    Plugin("vllm-rbln", "vllm_rbln", "vllm_rbln.envs", ("environment_variables",), ("vllm-rbln", "rbln"),
           "vllm_rbln/envs.py of the vllm-rbln 0.12.0 wheel, vllm_rbln/rbln_envs.py of 0.8.2 to 0.11.0 (PyPI)",
           older_envs_modules=("vllm_rbln.rbln_envs",)),
    # Intel Gaudi (HPU): not on PyPI, scraped from its release tags. Most of its switches are read
    # outside envs.py: its extension's `Env("VLLM_PROMPT_BS_BUCKET_MIN", int)` and
    # `Value("skip_warmup", ...)` (VLLM_ + the name upper-cased, or its `env_var=`; the classes of
    # vllm_gaudi/extension/config.py), and `os.environ.get` in its modules (PT_HPU_* for
    # Habana's PyTorch bridge). Images: OPEA's `opea/vllm-gaudi`, Intel's
    # `vault.habana.ai/gaudi-docker/.../vllm-installer-*`, Red Hat's `...-gaudi` runtimes
    Plugin("vllm-gaudi", "vllm_gaudi", "vllm_gaudi.envs", ("environment_variables",),
           ("vllm-gaudi", "gaudi", "habana"),
           "vllm_gaudi/envs.py and vllm_gaudi/extension/{config,features}.py at tag v0.26.0 of "
           "https://github.com/vllm-project/vllm-gaudi",
           read_prefixes=("VLLM_", "PT_HPU_"),
           env_helpers=(("Env", "{}"), ("Value", "VLLM_{upper}"), ("ValueFromList", "VLLM_{upper}")),
           git_repo="vllm-project/vllm-gaudi"),
    # MetaX C-series GPUs (MACA): not on PyPI, scraped from its release tags; each release is
    # built for the vLLM release of the same number (its README: "vLLM (the same version as
    # vllm-metax)", releases/vX.Y.Z "corresponds to vLLM release vX.Y.Z"); no pin is written in
    # its metadata. Its platform's device-control variable is CUDA_VISIBLE_DEVICES
    Plugin("vllm-metax", "vllm_metax", "vllm_metax.envs", ("environment_variables",), ("vllm-metax",),
           "vllm_metax/envs.py at tag v0.22.0 of https://github.com/MetaX-MACA/vLLM-metax",
           git_repo="MetaX-MACA/vLLM-metax"),
    # Moore Threads MUSA GPUs: a wheel with no environment module; its platform reads
    # MUSA_DEVICE_ORDER and names MUSA_VISIBLE_DEVICES its device-control variable; it requires
    # vllm without a bound
    Plugin("vllm-musa", "vllm_musa_platform", None, (), ("vllm-musa",),
           "vllm_musa_platform/musa.py of the vllm-musa 0.1.1 wheel (PyPI)", read_prefixes=("MUSA_", "VLLM_MUSA_")),
    # AWS Trainium / Inferentia through Hugging Face's optimum-neuron (its `vllm.platform_plugins`
    # entry point optimum.neuron.vllm.plugin): the vLLM it targets is the pin of its extra `vllm`
    # (vllm==0.11.0 for 0.4.5); the NEURON_* / OPTIMUM_NEURON_* variables its modules read.
    # (PyPI's vllm-neuron is a placeholder that raises ImportError: no release to read)
    Plugin("optimum-neuron", "optimum.neuron", None, (), ("optimum-neuron",),
           "optimum/neuron/vllm/platform.py of the optimum-neuron 0.4.5 wheel (PyPI)",
           read_prefixes=("NEURON_", "OPTIMUM_NEURON_")),
)
PLUGIN_BY_DIST = {p.dist: p for p in PLUGINS}


def compile_plugin_index(plugins_dir: "Path") -> dict:
    """The content of ``plugins/index.json`` from ``plugins/<dist>/<version>.json`` (written by
    ``scrape/plugins.py``): per plugin its releases (oldest first), the vLLM requirement of each,
    and every variable with the releases reading it."""
    from pathlib import Path

    from packaging.version import InvalidVersion, Version

    plugins_dir = Path(plugins_dir)
    out: dict[str, Any] = {}
    for folder in sorted(p for p in plugins_dir.iterdir() if p.is_dir()):
        releases = []
        for f in folder.glob("*.json"):
            try:
                releases.append((Version(f.stem), f))
            except InvalidVersion:
                continue
        if not releases:
            continue
        releases.sort()
        env: dict[str, list[str]] = {}
        vllm: dict[str, Optional[str]] = {}
        for _, f in releases:
            rec = json.loads(f.read_bytes())
            vllm[rec["version"]] = rec.get("vllm")
            for name in rec.get("env", {}):
                env.setdefault(name, []).append(rec["version"])
        out[folder.name] = {"releases": [f.stem for _, f in releases], "vllm": vllm, "env": env}
    return {"schema": INDEX_SCHEMA, "plugins": out}


class PluginIndex:
    """The compiled plugin index of a database (empty when the database has none)."""

    def __init__(self, plugins: dict[str, Any]) -> None:
        self.plugins = plugins

    @classmethod
    def load(cls, *dirs: Any) -> "PluginIndex":
        """The plugins of the databases ``dirs`` (a user database, then the shipped one it adds
        to), merged: a plugin's releases in any of them count."""
        merged: dict[str, Any] = {}
        for d in dirs:
            if d is None:
                continue
            path = os.path.join(d, "plugins", "index.json")
            if not os.path.isfile(path):
                continue
            try:
                with open(path, "rb") as f:
                    doc = json.loads(f.read())
            except (OSError, ValueError):
                continue
            if isinstance(doc, dict) and doc.get("schema") == INDEX_SCHEMA and isinstance(doc.get("plugins"), dict):
                for dist, entry in doc["plugins"].items():
                    if not isinstance(entry, dict):
                        continue
                    into = merged.setdefault(dist, {"releases": [], "vllm": {}, "env": {}})
                    into["releases"] += [v for v in entry.get("releases", []) if v not in into["releases"]]
                    for v, req in entry.get("vllm", {}).items():
                        into["vllm"].setdefault(v, req)
                    for name, versions in entry.get("env", {}).items():
                        have = into["env"].setdefault(name, [])
                        have += [v for v in versions if v not in have]
        return cls(merged)

    @cached_property
    def _readers(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for dist in sorted(self.plugins):
            for name in self.plugins[dist].get("env", {}):
                out.setdefault(name, []).append(dist)
        return out

    def readers(self, name: str) -> list[str]:
        """The plugins (PyPI names) some release of which reads ``name``."""
        return self._readers.get(name, [])

    def env_names(self, dist: str) -> list[str]:
        return sorted(self.plugins.get(dist, {}).get("env", {}))


_INSTALL = lazy_re(r"\b(?:pip3?|uv\s+pip|pipx)\s+install\b[^\n]*")  # (a text naming a plugin's: at first use)


def plugins_of_launch(image: Optional[str], text: str) -> set[str]:
    """The plugins a launch runs on, by what its surroundings say: its image reference names the
    plugin (``quay.io/ascend/vllm-ascend:v0.23.0``), or the file installs or pins the plugin's
    package (``pip install vllm-spyre``, a ``vllm-spyre==1.10.0`` requirement line)."""
    return plugins_of_image(image) | plugins_of_text(text)


def plugins_of_image(image: Optional[str]) -> set[str]:
    low_image = (image or "").lower()
    return {p.dist for p in PLUGINS if low_image and any(w in low_image for w in p.image_words)}


def _name_pattern(dist: str) -> str:
    """A plugin's PyPI name as the expressions below spell it (``-`` or ``_``)."""
    return re.escape(dist).replace(r"\-", "[-_]")


def _names_any(text: str) -> bool:
    """Whether some plugin's name may occur in ``text`` as the expressions below match it
    (case-insensitively, ``-`` or ``_``): False only when none does. A file that names none (nearly
    every file) would otherwise take three searches per plugin, each with a look-behind tried at
    every position (~50 ms for a 100 KB file). For ASCII text, case-insensitive matching of an
    ASCII name is a search in the lower-cased text; other text is left to the expressions (Unicode
    case folding matches a few non-ASCII letters too)."""
    if not text.isascii():
        return True
    low = text.lower()
    return any(p.dist in low or p.dist.replace("-", "_") in low for p in PLUGINS)


def plugins_of_text(text: str) -> set[str]:
    """The plugins a file installs or pins (one pass over the file, whatever its launches)."""
    out: set[str] = set()
    if not _names_any(text):
        # (each expression below needs a plugin's name in what it searches: the text, or its
        # install lines lower-cased, whose names are the text's)
        return out
    installs = " ".join(m.group(0).lower() for m in _INSTALL.finditer(text))
    for p in PLUGINS:
        in_install, requirement, _pin = _expressions(p.dist)
        if in_install.search(installs) or requirement.search(text):
            out.add(p.dist)
    return out


_EXPRESSIONS: dict = {}  # a plugin's name -> its three expressions below (``_expressions``)


def _expressions(dist: str) -> tuple:
    """A plugin's expressions (in an install line, as a requirement, pinned: ``plugins_of_text``,
    ``plugin_pins``), compiled once per process, not looked up in re's cache by a new string per
    plugin and file."""
    got = _EXPRESSIONS.get(dist)
    if got is None:
        name = _name_pattern(dist)
        got = _EXPRESSIONS[dist] = (
            re.compile(r"(?<![\w./-])" + name + r"(?![\w/-])", re.IGNORECASE),
            re.compile(r"^\s*" + name + r"\s*(?:$|[=<>!~;\[])", re.IGNORECASE | re.MULTILINE),
            re.compile(r"(?<![\w.-])" + name + r"(?:\[[\w,\s-]*\])?(?:\.git)?\s*(?:===?\s*|@\s*v?)([0-9]+(?:\.[0-9]+)+(?:\.post[0-9]+)?)(?![\w.])",
                       re.IGNORECASE))
    return got


def plugin_pins(text: str) -> dict[str, str]:
    """The plugin releases a file pins: ``vllm-spyre==1.9.0`` (a requirement or an install, extras
    allowed: ``optimum-neuron[vllm]==0.4.5``),
    ``vllm-gaudi.git@v0.24.0`` / ``vllm-gaudi@v0.24.0`` (a git install at a release tag)."""
    out: dict[str, str] = {}
    if not _names_any(text):
        return out  # (each expression below needs a plugin's name)
    for p in PLUGINS:
        m = _expressions(p.dist)[2].search(text)
        if m:
            out[p.dist] = m.group(1)
    return out
