"""The images a repository builds itself, by name: ``docker build -t NAME [-f FILE] CONTEXT`` in a
Makefile, a script, a README or a CI workflow of the folders above a file (up to the repository's
root, the nearest folder with a ``.git``), so that a ``docker run NAME`` elsewhere in the
repository is known to run what that Dockerfile builds.

A cheap index, whatever the repository's size: only the folders on the way up from the file (not
the tree below them), in each only the files that build images (``Makefile``, ``*.mk``,
``justfile``, ``*.sh``, ``README*.md``; ``.github/workflows/*.yml`` at the root), each read once per
process while unchanged (bounded), and only when a file runs an image nobody else names. Every file read is an
input of the analysis (:func:`vllm_lint.inputs.read_other`), so a cached result follows it.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import namedtuple

from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's seventh pass)
if TYPE_CHECKING:
    from typing import NamedTuple, Optional

_MAX_LEVELS = 6  # folders above a file that are searched when no `.git` says where the root is
_MAX_FILES = 64  # build files read per folder
_MAX_BYTES = 512 * 1024
_BUILD_FILES = lazy_re(r"(?i)^(?:(?:gnu)?makefile|justfile|.+\.mk|.+\.sh|.+\.bash|readme[^/]*\.md)$")
BUILD_LINE = lazy_re(rb"(?m)\b(?:docker|podman)(?:[ \t]+buildx)?[ \t]+build\b(?:[^\n\\]|\\\r?\n|\\.)*")
_BUILD_WORD = lazy_re(rb"\\\r?\n|[^\s]+")
# options of `docker build` that take a value (the value is not the context)
_VALUED = frozenset({"--build-arg", "--target", "--platform", "--secret", "--label", "--network", "--progress",
                     "--cache-from", "--cache-to", "-o", "--output", "--ssh", "--build-context"})

# folder -> (its files' stamps, [(image name, how it is built)]): read again when a stamp changed
# (a long-running language server sees edits)
_FOLDERS: dict[str, tuple[tuple, list[tuple[str, "Built"]]]] = {}


def parse_build(words: list[str]) -> tuple[list[str], Optional[str], Optional[str], Optional[str]]:
    """``(tags, Dockerfile, context, target)`` of the words of a ``docker build`` line (from the
    word after ``build``; a shell operator ends it)."""
    tags: list[str] = []
    dockerfile = context = target = None
    k = 0
    while k < len(words):
        x = words[k]
        if x in ("-t", "--tag", "-f", "--file") and k + 1 < len(words):
            if x in ("-t", "--tag"):
                tags.append(words[k + 1])
            else:
                dockerfile = words[k + 1]
            k += 2
            continue
        if x.startswith(("--tag=", "-t=")):
            tags.append(x.split("=", 1)[1])
        elif x.startswith(("--file=", "-f=")):
            dockerfile = x.split("=", 1)[1]
        elif x.startswith("-"):
            if x == "--target" and k + 1 < len(words):
                target = words[k + 1]
            elif x.startswith("--target="):
                target = x.split("=", 1)[1]
            if x in _VALUED:
                k += 1
        elif x in ("build", "buildx"):
            pass
        elif x in ("&&", "||", ";", "|") or x.startswith("#"):
            break
        else:
            context = x
        k += 1
    return tags, dockerfile, context, target


def build_words(line: bytes) -> list[str]:
    """The words of a ``docker build`` line matched by :data:`BUILD_LINE`, unquoted, from ``build`` on."""
    words = [x.decode("utf-8", "replace").strip("\"'`") for x in _BUILD_WORD.findall(line)
             if not x.startswith(b"\\")]
    k = next((i for i, w in enumerate(words) if w == "build"), len(words))
    return words[k + 1:]


if TYPE_CHECKING:
    class Built(NamedTuple):
        dockerfile: str
        context: str
        source: str
        target: Optional[str]
else:  # (collections' namedtuple: typing.NamedTuple is the same class, with typing imported for it)
    Built = namedtuple("Built", ("dockerfile", "context", "source", "target"))
Built.__doc__ = """An image a build file of the repository builds: its Dockerfile's and build context's
absolute paths, the file whose ``docker build`` names it, and the stage built (``--target``), if one
is named."""


def built_in_repository(path: str, image: str) -> Optional[Built]:
    """How a build file of the folders above ``path`` builds the image named ``image`` (``NAME``
    and ``NAME:latest`` are one), or None."""
    from vllm_lint import inputs

    names = {image, image[:-len(":latest")] if image.endswith(":latest") else image + ":latest"}
    for folder in _folders_up(path):
        for name, built in _builds_in(folder):
            if name in names:
                inputs.read_other(built.source, _MAX_BYTES)  # (an input of this analysis, read before)
                return built
    return None


def _folders_up(path: str) -> list[str]:
    """The folders from ``path``'s own up to the repository's root (the nearest with a ``.git``),
    at most :data:`_MAX_LEVELS` above when none has one."""
    from vllm_lint.fsutil import folders_to_root

    out, in_repository = folders_to_root(os.path.dirname(os.path.abspath(path)))
    return out if in_repository else out[:_MAX_LEVELS + 1]


def _builds_in(folder: str) -> list[tuple[str, "Built"]]:
    """The images the build files directly in ``folder`` (and its ``.github/workflows``) build."""
    from vllm_lint import inputs

    files = _build_files(folder)
    stamps = tuple(_stamp(f) for f in files)
    cached = _FOLDERS.get(folder)
    if cached is not None and cached[0] == stamps:
        for source in {b.source for _n, b in cached[1]}:
            inputs.read_other(source, _MAX_BYTES)  # (still this analysis's inputs)
        return cached[1]
    got: list[tuple[str, Built]] = []
    for source in files:
        raw = inputs.read_other(source, _MAX_BYTES)
        if raw is None or b"build" not in raw:
            continue
        for m in BUILD_LINE.finditer(raw):
            tags, dockerfile, context, target = parse_build(build_words(m.group(0)))
            if not tags or context is None or "$" in context or "://" in context or (dockerfile and "$" in dockerfile):
                continue
            # a Makefile's and a script's commands run from their folder, a README's and a workflow's
            # from the repository's root: this folder either way, or the one a `cd` before the
            # build moves to
            base = moved_to(raw, m.start(), folder)
            rel = dockerfile if dockerfile is not None else posixpath.join(context, "Dockerfile")
            built = Built(os.path.normpath(os.path.join(base, rel)), os.path.normpath(os.path.join(base, context)),
                          source, target)
            for tag in tags:
                if "$" not in tag and "{" not in tag and re.fullmatch(r"[\w./:@-]+", tag):
                    got.append((tag, built))
    _FOLDERS[folder] = (stamps, got)
    return got


_CD_LINE = lazy_re(rb"(?m)^[ \t]*(?:[$>][ \t]*)?cd(?![\w.-])(?:[ \t]+([^\s;&|]*))?")
_CD_DIR = lazy_re(r"[\w.@+-][\w./@+-]*")
_FENCE = lazy_re(rb"(?m)^[ \t]*(?:```|~~~)")


def moved_to(raw: bytes, at: int, folder: str) -> str:
    """The folder a build at ``at`` of a build file in ``folder`` runs in: the one the nearest
    ``cd DIR`` line before it moves to (in the same Markdown code block, for a README), taken
    from ``folder`` (a README's steps each start from the repository's root: ``cd a; build; cd
    b; build``), else ``folder``. ``cd ..``, ``cd -``, ``cd ~``, an absolute path or a folder in a
    variable leave it at ``folder``."""
    fences = [f.start() for f in _FENCE.finditer(raw, 0, at)]
    lo = fences[-1] if fences else 0
    cds = list(_CD_LINE.finditer(raw, lo, at))
    if not cds:
        return folder
    rel = (cds[-1].group(1) or b"").decode("utf-8", "replace").strip("\"'")
    if not _CD_DIR.fullmatch(rel) or posixpath.normpath(rel).startswith(".."):
        return folder  # (`cd`, `cd ..`, `cd -`, `cd ~`, `cd /abs`, `cd "$DIR"`)
    return os.path.normpath(os.path.join(folder, rel))


# folder -> (its signature: what its stat says of its entries, the build files in it and in its
# `.github/workflows`): listed again when an entry was added, removed or renamed (its mtime)
_LISTED: dict[str, tuple[tuple, list[str]]] = {}


def _build_files(folder: str) -> list[str]:
    """The build files directly in ``folder`` (at most :data:`_MAX_FILES`, by name) and then those of
    its ``.github/workflows``. The listing is kept while the folders' stats say their entries are
    the same: the files above a linted file are asked for by each file below them that runs an
    image of its own (a listing and a name match per entry each time, before)."""
    workflows = os.path.join(folder, ".github", "workflows")
    sig = (_signature(folder), _signature(workflows))
    kept = _LISTED.get(folder)
    if kept is not None and kept[0] == sig:
        return kept[1]
    try:
        names = sorted(n for n in os.listdir(folder) if _BUILD_FILES.match(n))[:_MAX_FILES]
    except OSError:
        names = []
    files = [os.path.join(folder, n) for n in names]
    if os.path.isdir(workflows):
        try:
            files += [os.path.join(workflows, n) for n in sorted(os.listdir(workflows))
                      if n.endswith((".yml", ".yaml"))][:_MAX_FILES]
        except OSError:
            pass
    if sig[0] is not None:
        _LISTED[folder] = (sig, files)
    return files


def _signature(folder: str) -> Optional[tuple]:
    """What a folder's ``stat`` says of its entries (an entry added, removed or renamed changes its
    mtime), or None when it is no folder."""
    try:
        st = os.stat(folder)
    except OSError:
        return None
    if st.st_mode & 0o170000 != 0o040000:
        return None
    return (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_ctime_ns, st.st_size)


def _stamp(path: str) -> tuple:
    try:
        st = os.stat(path)
    except OSError:
        return (path,)
    return (path, st.st_mtime_ns, st.st_size)
