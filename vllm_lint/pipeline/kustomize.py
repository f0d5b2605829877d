"""The image a kustomization puts into a manifest's container (issue 28's family "the release is
set somewhere else in the repository"): a manifest whose ``image:`` is a placeholder
(``image: $(vllm-gaudi-image)``) is given its image by a kustomization, from a ConfigMap its
``configMapGenerator`` builds out of an env file (``params.env``) or literals:

* ``replacements:``: a ``source`` (``kind: ConfigMap``, its ``name``, ``fieldPath: data.KEY``)
  copied into ``targets`` chosen by ``select`` (``kind``, ``name``) at ``fieldPaths``
  (``spec.containers.0.image``, ``objects.0.spec.containers.0.image``); the placeholder's text does
  not matter, the field is overwritten;
* ``vars:`` (kustomize's older form): ``$(NAME)`` anywhere in a resource is replaced by the
  field ``fieldref.fieldPath`` (``data.KEY``) of the object ``objref`` names.

Read here: the kustomizations of a repository (:func:`read_kustomization`, their facts kept by
``pipeline.repository``'s survey) and, for one manifest, the image they set for its container
(:func:`replaced_image`). Only ConfigMap sources built by a generator of the same kustomization
are followed (what a clone holds); a value two kustomizations set differently is no answer.
"""

from __future__ import annotations

import os

from ..record import Record, lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

#: the file names kustomize reads as a kustomization
NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")

# a manifest's objects: `kind: X` at the top level, `metadata:` then `  name: Y` below it
_KIND = lazy_re(r"(?m)^kind[ \t]*:[ \t]*[\"']?([\w.-]+)")
_META_NAME = lazy_re(r"(?m)^metadata[ \t]*:[ \t]*\n(?:(?:[ \t]+[^\n]*|[ \t]*)\n)*?[ \t]+name[ \t]*:[ \t]*[\"']?([\w.$(){}-]+)")
_DOC_SPLIT = lazy_re(r"(?m)^---[ \t]*$")
# an env file's line as kustomize reads it (keys may hold `-` and `.`: `vllm-gaudi-image=...`)
_ENV_LINE = lazy_re(r"(?m)^[ \t]*([^#=\s][^=\s]*)[ \t]*=[ \t]*([^\n]*?)[ \t]*$")
_VAR = lazy_re(r"\$\(([\w.-]+)\)")


class Source(Record):
    """One value a kustomization puts into resources: the ConfigMap ``config`` and its ``key``,
    the kustomization's ``folder``; ``targets``: (kind, name) of the objects it is copied into at
    an image field (replacements), or None for a var (``$(var)`` anywhere: ``var`` is its name)."""

    __slots__ = ("config", "key", "folder", "targets", "var", "where")

    def __init__(self, config: str, key: str, folder: str, targets: Optional[frozenset], var: Optional[str],
                 where: str) -> None:
        self.config, self.key, self.folder, self.targets, self.var, self.where = config, key, folder, targets, var, where


class Kustomization(Record):
    """What one kustomization file says: ``sources`` and ``generators`` (ConfigMap name -> (env
    files relative to its folder, literal ``KEY=value`` strings))."""

    __slots__ = ("sources", "generators", "folder", "read")

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.read: Optional[tuple[str, str]] = None  # (absolute path, content key), set by the survey
        self.sources: list[Source] = []
        self.generators: dict[str, tuple[list[str], list[str]]] = {}


def read_kustomization(text: str, folder: str, where: str) -> Optional[Kustomization]:
    """The replacements and vars of a kustomization's ``text`` that copy a ConfigMap's field into
    an image (replacements) or a ``$(var)``, and its ConfigMap generators; None when it has none."""
    if "replacements" not in text and "vars" not in text:
        return None
    from .. import libyaml

    try:
        doc = libyaml.load(text)
    except Exception:  # a malformed kustomization sets nothing here; its own lint reports it
        return None
    if not isinstance(doc, dict):
        return None
    k = Kustomization(folder)
    for g in _dicts(doc.get("configMapGenerator")):
        name = g.get("name")
        if isinstance(name, str):
            envs = [e for e in _list(g.get("envs")) + _list(g.get("env")) if isinstance(e, str)]
            literals = [x for x in _list(g.get("literals")) if isinstance(x, str)]
            k.generators[name] = (envs, literals)
    for r in _dicts(doc.get("replacements")):
        src = r.get("source")
        key = _data_key(src.get("fieldPath")) if isinstance(src, dict) else None
        if key is None or src.get("kind", "ConfigMap") != "ConfigMap" or not isinstance(src.get("name"), str):
            continue
        targets = set()
        for t in _dicts(r.get("targets")):
            sel = t.get("select")
            paths = [p for p in _list(t.get("fieldPaths")) if isinstance(p, str)]
            if isinstance(sel, dict) and any(p.rsplit(".", 1)[-1] == "image" for p in paths):
                targets.add((str(sel.get("kind") or ""), str(sel.get("name") or "")))
        if targets:
            k.sources.append(Source(src["name"], key, folder, frozenset(targets), None, where))
    for v in _dicts(doc.get("vars")):
        ref, field = v.get("objref"), v.get("fieldref")
        key = _data_key(field.get("fieldpath") or field.get("fieldPath")) if isinstance(field, dict) else None
        if (isinstance(v.get("name"), str) and isinstance(ref, dict) and ref.get("kind") == "ConfigMap"
                and isinstance(ref.get("name"), str) and key is not None):
            k.sources.append(Source(ref["name"], key, folder, None, v["name"], where))
    return k if k.sources and k.generators else None


def objects_of(text: str) -> set[tuple[str, str]]:
    """(kind, metadata.name) of each document of a manifest's ``text``."""
    out = set()
    for doc in _DOC_SPLIT.split(text):
        kind, name = _KIND.search(doc), _META_NAME.search(doc)
        if kind and name:
            out.add((kind.group(1), name.group(1)))
    return out


class Replaced(Record):
    """The image kustomizations set for a manifest's container: ``image``, ``where`` (the env
    file's ``path:line`` or the kustomization's literal), ``how`` (the replacement or var), and
    ``reads`` (the kustomization and the env file the value was read from: absolute path, content key)."""

    __slots__ = ("image", "where", "how", "reads")

    def __init__(self, image: str, where: str, how: str, reads: list) -> None:
        self.image, self.where, self.how, self.reads = image, where, how, reads


def replaced_image(kustomizations: list[Kustomization], manifest: str, image: str, root: str,
                   read_file: Any) -> tuple[Optional[Replaced], Optional[str]]:
    """(the image the repository's ``kustomizations`` set for the container whose ``image:`` is
    written ``image`` in the manifest text ``manifest``, a note): a replacement selecting one of the
    manifest's objects at an image field, or a var the image names; (None, why) when they set
    several different images, (None, None) when none applies. ``read_file(path)`` gives a file's
    (text, read) or None."""
    objects = objects_of(manifest) if any(s.targets for k in kustomizations for s in k.sources) else set()
    named = set(_VAR.findall(image))
    found: dict[str, Replaced] = {}
    for k in kustomizations:
        for s in k.sources:
            if s.targets is not None:  # (a `select` naming only the object's name has kind "")
                if not any((kind, name) in s.targets or ("", name) in s.targets for kind, name in objects):
                    continue
                how = f"a kustomize replacement in {s.where} (data.{s.key} of ConfigMap {s.config})"
            elif s.var in named:
                how = f"the kustomize var $({s.var}) of {s.where} (data.{s.key} of ConfigMap {s.config})"
            else:
                continue
            got = _value(k, s, root, read_file)
            if got is not None:
                value, where, read = got
                reads = [r for r in (k.read, read) if r is not None]
                found.setdefault(value, Replaced(value, where, how, reads))
    if not found:
        return None, None
    if len(found) > 1:
        return None, ("kustomizations set several images for it (" +
                      ", ".join(f"{r.where} {r.image}" for r in list(found.values())[:3]) + "): none chosen")
    return next(iter(found.values())), None


def _value(k: Kustomization, s: Source, root: str, read_file: Any) -> Optional[tuple[str, str, Any]]:
    """(value, where, read) of the key ``s.key`` in the ConfigMap ``s.config`` that ``k`` generates."""
    gen = k.generators.get(s.config)
    if gen is None:
        return None
    envs, literals = gen
    for lit in literals:
        key, _, value = lit.partition("=")
        if key.strip() == s.key and value.strip():
            return value.strip(), f"{s.where} (literal {s.key})", None
    for env in envs:
        path = os.path.normpath(os.path.join(k.folder, env))
        if not (path == root or path.startswith(root.rstrip(os.sep) + os.sep)):
            continue  # (a file outside the repository is not read)
        got = read_file(path)
        if got is None:
            continue
        text, read = got
        for m in _ENV_LINE.finditer(text):
            if m.group(1) == s.key and m.group(2):
                value = m.group(2)
                if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
                    value = value[1:-1]
                rel = os.path.relpath(path, root).replace(os.sep, "/")
                return value, f"{rel}:{text.count(chr(10), 0, m.start()) + 1}", read
    return None


def _data_key(path: Any) -> Optional[str]:
    if isinstance(path, str) and path.startswith("data.") and len(path) > 5:
        return path[5:]
    return None


def _list(v: Any) -> list:
    return v if isinstance(v, list) else ([v] if v is not None else [])


def _dicts(v: Any) -> list:
    return [x for x in _list(v) if isinstance(x, dict)]
