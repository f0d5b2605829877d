"""Environment variables one release reads outside ``vllm/envs.py``, found in its source text.

Two categories, each a sorted list of names in the release file:

* ``env_reads``: names that the runtime reads directly, ``os.getenv("X")``, ``os.environ.get("X")``,
  ``os.environ["X"]`` (not an assignment) or ``"X" in os.environ``, in any module under ``vllm/``
  (``VLLM_BATCH_INVARIANT`` was read this way before it moved into ``envs.py``). They are part of
  the release's runtime surface, like the keys of ``envs.py``.
* ``build_env``: names that vLLM's own build reads at that release: ``setup.py``, ``$ENV{X}`` and
  ``DEFINED ENV{X}`` in ``CMakeLists.txt`` and ``cmake/*.cmake``, and the build scripts its Dockerfiles call (a script
  under ``tools/`` or ``.buildkite/`` whose file name a Dockerfile mentions). They configure a
  build, not a server (``VLLM_PRECOMPILED_WHEEL_LOCATION``, ``VLLM_CPU_AVX512BF16``,
  ``VLLM_MAX_SIZE_MB``).

Text-level on purpose: a read is a string literal in one of those shapes, which a regular
expression finds as reliably as a parser and at a fraction of the cost over a whole release.
"""

from __future__ import annotations

import posixpath
import re
from typing import Iterable

from . import eras
from .tree import SourceTree

_NAME = r"([A-Z][A-Z0-9_]*)"
_PY_READ = re.compile(
    r"(?:os\.)?(?:getenv|environ\.get|environ\.setdefault)\(\s*['\"]" + _NAME + r"['\"]"
    + r"|(?:os\.)?environ\[\s*['\"]" + _NAME + r"['\"]\s*\](?!\s*=[^=])"  # a read, not an assignment
    + r"|['\"]" + _NAME + r"['\"]\s+in\s+(?:os\.)?environ\b")
_CMAKE_READ = re.compile(r"(?<!set\()(?<!unset\()\bENV\{" + _NAME + r"\}")  # $ENV{X}, DEFINED ENV{X}; not set(ENV{X} ...)
_SHELL_READ = re.compile(r"\$\{?" + _NAME)
_SHELL_ASSIGN = re.compile(r"^\s*(?:export\s+)?" + _NAME + r"=", re.M)


def _py_names(text: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in _PY_READ.finditer(text)}


def runtime_reads(tree: SourceTree, known: Iterable[str] = ()) -> list[str]:
    """``VLLM_*`` names read directly under ``vllm/`` that are not in ``known`` (``envs.py``'s keys)."""
    skip = set(known)
    found: set[str] = set()
    for path in _paths(tree):
        if not (path.startswith("vllm/") and path.endswith(".py")) or path == eras.module_path(eras.ENVS):
            continue
        text = _text(tree, path)
        if text and ("environ" in text or "getenv" in text):
            found |= {n for n in _py_names(text) if n.startswith("VLLM_")}
    return sorted(found - skip)


def build_reads(tree: SourceTree) -> list[str]:
    """``VLLM_*`` names vLLM's build reads at this release (setup.py, CMake, Dockerfile-called scripts)."""
    found: set[str] = set()
    paths = list(_paths(tree))
    setup = _text(tree, "setup.py")
    if setup:
        found |= _py_names(setup)
    for path in paths:
        if path == "CMakeLists.txt" or (path.startswith("cmake/") and path.endswith(".cmake")):
            found |= set(_CMAKE_READ.findall(_text(tree, path) or ""))
    dockerfiles = [_text(tree, p) or "" for p in paths if posixpath.basename(p).startswith("Dockerfile")]
    called = "\n".join(dockerfiles)
    for path in paths:
        if not path.startswith(eras.BUILD_SCRIPT_DIRS) or not path.endswith((".py", ".sh")):
            continue
        if posixpath.basename(path) not in called:
            continue
        text = _text(tree, path) or ""
        if path.endswith(".py"):
            found |= _py_names(text)
        else:
            own = set(_SHELL_ASSIGN.findall(text))
            found |= set(_SHELL_READ.findall(text)) - own
    return sorted(n for n in found if n.startswith("VLLM_"))


def _paths(tree: SourceTree) -> Iterable[str]:
    paths = getattr(tree, "paths", None)
    return paths() if callable(paths) else ()


def _text(tree: SourceTree, path: str) -> str | None:
    raw = tree.read(path)
    return raw.decode("utf-8", "replace") if raw is not None else None


_HELPER_DEF = re.compile(r"^(\s*)def (\w+)\(\s*self\s*,\s*(\w+)\s*:\s*str\s*,\s*(\w+)\s*:\s*str\s*\)[^:]*:", re.M)
_CLASS_DEF = re.compile(r"^class (\w+)\b", re.M)


def config_env_deprecations(tree: SourceTree) -> dict[str, str]:
    """``{VLLM_NAME: "--x-config.field"}``: variables a config class under ``vllm/config/`` still
    copies into one of its fields with a deprecation warning (0.13.0-0.14.1:
    ``AttentionConfig._set_from_env_if_set("backend", "VLLM_ATTENTION_BACKEND")``). The helper is
    recognised by its shape (a method taking a field name and a variable name whose body says
    "deprecated" and checks the environment); the successor is the class's JSON option (class
    ``AttentionConfig`` -> ``--attention-config``) and the field."""
    out: dict[str, str] = {}
    for path in _paths(tree):
        if not (path.startswith(eras.CONFIG_PACKAGE) and path.endswith(".py")):
            continue
        text = _text(tree, path) or ""
        if "deprecated" not in text:
            continue
        for m in _HELPER_DEF.finditer(text):
            indent, helper = m.group(1), m.group(2)
            body_end = re.compile(r"^" + re.escape(indent) + r"\S", re.M).search(text, m.end())
            body = text[m.end(): body_end.start() if body_end else len(text)]
            if "deprecated" not in body or "envs." not in body and "environ" not in body:
                continue
            calls = re.finditer(r"self\." + helper + r"\(\s*['\"](\w+)['\"]\s*,\s*['\"](VLLM_\w+)['\"]\s*,?\s*\)", text)
            for c in calls:
                owners = [k for k in _CLASS_DEF.finditer(text) if k.start() < c.start()]
                if not owners:
                    continue
                cls = owners[-1].group(1)
                if not cls.endswith("Config"):
                    continue
                option = "--" + re.sub(r"(?<!^)(?=[A-Z])", "-", cls).lower()
                out[c.group(2)] = f"{option}.{c.group(1)}"
    return out
