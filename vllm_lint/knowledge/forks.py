"""Forks of vLLM and the variables they read that the newest release does not
(``vllm_lint/data/forks.tsv``, one source per row: the fork's module at a commit, written by
``tools/fork_env.py``), and :data:`FORKS`: how a launch shows it runs a fork (its image, or the
file building the fork from its repository).

A fork replaces vLLM in the image that runs it (a community build for one GPU family, a vendor's
branch): its own ``VLLM_*`` switches are read there, so they are not "unknown" (nor "no longer
read") where the launch runs the fork, and not "unknown" where it may. The table is read once, on
the first name the target release does not read.
"""

from __future__ import annotations

import os
import re

from ..record import Record, lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional
    from pathlib import Path


class Fork(Record):
    """A fork of vLLM that images run. ``repo``: ``owner/name`` on GitHub (the ``fork`` column of
    the table); ``image``: a pattern matched against an image reference (lower case, registry
    included) that names the fork's images; ``source``: where that is stated. A file that clones
    or installs the repository (``git clone https://github.com/ROCm/vllm``,
    ``git+https://github.com/HabanaAI/vllm-fork``) runs it too."""

    __slots__ = ("repo", "image", "source", "until")

    def __init__(self, repo: str, image: str, source: str, until: Optional[str] = None) -> None:
        self.repo = repo
        self.image = lazy_re(image)  # (compiled when an image naming vllm is read)
        self.source = source
        self.until = until  # images whose tag names this vLLM release or a later one are built from vLLM's own


FORKS: tuple[Fork, ...] = (
    # AMD's images (rocm/vllm, rocm/vllm-dev) were built from ROCm's fork (vLLM's own ROCm image
    # is vllm/vllm-openai-rocm); the fork's last branches are of September 2025, on vLLM 0.10
    # (main: v0.9.2rc1 and 1516 commits), so a tag naming vLLM 0.11.0 or later is vLLM's own build,
    # and a tag naming no release (latest, nightly) may be either
    Fork("ROCm/vllm", r"(?:^|/)rocm/vllm(?:-[\w.-]*)?(?:[:@]|$)",
         "https://hub.docker.com/r/rocm/vllm (built from https://github.com/ROCm/vllm; "
         "docker/Dockerfile.rocm of the fork)", until="0.11.0"),
    # Intel Gaudi images up to Gaudi software 1.22 run HabanaAI's fork (OPEA's opea/vllm-gaudi,
    # Intel's vault.habana.ai/gaudi-docker/<v>/.../vllm-installer-*, Red Hat's ...-gaudi runtimes);
    # later ones the vllm-gaudi plugin, which reads the same switches (surface/plugins.py)
    Fork("HabanaAI/vllm-fork", r"gaudi|habana|(?:^|[/:_-])hpu(?:$|[/:_.-])",
         "https://github.com/HabanaAI/vllm-fork (README: the Gaudi images and the vllm-installer "
         "images of vault.habana.ai); https://github.com/opea-project/GenAIComps (vllm-gaudi built "
         "from the fork)"),
)


def forks_of_launch(image: Optional[str], text: str) -> set[str]:
    """The forks a launch runs, by its image reference or by the file cloning or installing the
    fork's repository."""
    return forks_of_image(image) | forks_of_text(text)


def forks_of_image(image: Optional[str]) -> set[str]:
    """The forks an image runs for certain (a ROCm image whose tag names vLLM 0.8.5)."""
    return {f.repo for f in FORKS if _runs(f, image) is True}


def forks_maybe_of_image(image: Optional[str]) -> set[str]:
    """The forks an image may run, its tag naming no release (``rocm/vllm:latest``)."""
    return {f.repo for f in FORKS if _runs(f, image) is None}


_TAG_VLLM = lazy_re(r"vllm[_-]?v?(\d+\.\d+(?:\.\d+)?)|^v?(\d+\.\d+(?:\.\d+)?)(?![\d.])")


def _runs(fork: Fork, image: Optional[str]) -> Optional[bool]:
    """True: the image runs the fork; False: it does not; None: it may (no release in its tag)."""
    low = (image or "").lower()
    if not low or "vllm" not in low or not fork.image.search(low):
        return False
    if fork.until is None:
        return True
    from ..surface.version import Version

    tag = low.split("@", 1)[0].rsplit("/", 1)[-1].partition(":")[2]
    m = _TAG_VLLM.search(tag)
    if not m:
        return None
    return Version(m.group(1) or m.group(2)) < Version(fork.until)


def forks_of_text(text: str) -> set[str]:
    """The forks a file builds: a clone or a pip install of the repository (a link to one of its
    issues is not a build)."""
    out = set()
    if "github.com" in text:
        low_text = text.lower()
        for f in FORKS:
            repo = re.escape(f.repo.lower())
            if re.search(r"(?:\bgit\s+clone\b[^\n]*?|git\+)(?:https?://|git@)github\.com[/:]" + repo
                         + r"(?:\.git)?(?![\w.-]|/(?!tree/|archive/))", low_text):
                out.add(f.repo)
    return out


_BY_NAME: Optional[dict[str, tuple[str, ...]]] = None


def _table_file() -> str:
    """The shipped table's path, a string (``os.path``: the lint path imports no ``pathlib``)."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "data", "forks.tsv")


def _table_path() -> Path:
    from pathlib import Path

    return Path(_table_file())


def _load() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    header = True
    with open(_table_file(), encoding="utf-8") as f:
        text = f.read()
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header:  # the column names
            header = False
            continue
        name, fork = cells[0].strip(), cells[1].strip()
        if fork not in out.setdefault(name, []):
            out[name].append(fork)
    return {name: tuple(forks) for name, forks in out.items()}


def fork_readers(name: str) -> tuple[str, ...]:
    """The forks (``owner/name`` on GitHub) that read the variable ``name``; empty when none known."""
    global _BY_NAME
    if _BY_NAME is None:
        _BY_NAME = _load()
    return _BY_NAME.get(name, ())


# ----------------------------------------------------------------------------- the release a fork build runs


class ForkBuild(Record):
    """A file building vLLM from a fork's repository (a clone, a checkout, a ``git+`` install):
    ``repo`` (``owner/name``), ``ref`` (the tag, branch or commit it builds, None when it names
    none: the default branch), ``release`` (the upstream vLLM release the ref names, None when it
    names none), ``offset`` (where the repository is named in the text)."""

    __slots__ = ("repo", "ref", "release", "offset")

    def __init__(self, repo: str, ref: Optional[str], release: Optional[str], offset: int) -> None:
        self.repo = repo
        self.ref = ref
        self.release = release
        self.offset = offset


# github.com/<owner>/<name>: a fork of vLLM is a known one (FORKS) or a repository named vllm or
# vllm-fork outside vllm-project (neuralmagic/vllm, a user's vllm); a clone or a git+ install of it
_FORK_URL = lazy_re(r"(?P<how>\bgit\s+clone\b[^\n]*?|git\+)(?:https?://|git@)github\.com[/:]"
                       r"(?P<repo>[\w.-]+/[\w.-]+?)(?:\.git)?(?P<at>@[^\s\"'#;&|)\\]+)?(?=[\s\"'#;&|)\\]|$)", re.I)
_BRANCH_FLAG = lazy_re(r"(?:\s-b\s+|\s--branch[=\s]+)[\"']?(?P<ref>[^\s\"';&|)\\]+)")
_CHECKOUT = lazy_re(r"\bgit\s+(?:checkout|switch)(?:\s+-[-\w]+)*\s+[\"']?(?P<ref>[^\s\"';&|)\\-][^\s\"';&|)\\]*)")
_UPSTREAM = lazy_re(r"^v?(?P<v>\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)(?:[+-]|$)")
_VAR = lazy_re(r"^\$\{?(?P<name>\w+)\}?$")
_CHECKOUT_LINES = 6  # a checkout this many lines after the clone builds the clone's ref


def _is_fork(repo: str) -> bool:
    low = repo.lower()
    if any(f.repo.lower() == low for f in FORKS):
        return True
    owner, _, name = low.partition("/")
    return owner != "vllm-project" and name in ("vllm", "vllm-fork")


def fork_builds(text: str) -> list[ForkBuild]:
    """The fork builds of a file's text (:class:`ForkBuild`), in order. A ref spelled with a
    variable is read from the file's ``ARG`` / ``ENV`` / shell assignment of it, when it has one."""
    if "github.com" not in text:
        return []
    out = []
    for m in _FORK_URL.finditer(text):
        repo = m.group("repo")
        if not _is_fork(repo):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        line_end = text.find("\n", m.end())
        line = text[line_start:line_end if line_end >= 0 else len(text)]
        ref = m.group("at")[1:] if m.group("at") else None
        if ref is None and m.group("how").lower() != "git+":
            b = _BRANCH_FLAG.search(line)
            ref = b.group("ref") if b else None
            if ref is None:  # a checkout on the lines after the clone (`&& cd vllm-fork && git checkout v0.6.6.post1`)
                window = "\n".join(text[m.end():m.end() + 4096].split("\n")[:_CHECKOUT_LINES])
                c = _CHECKOUT.search(window)
                ref = c.group("ref") if c else None
        if ref is not None:
            ref = _resolve(text, ref)
        release = None
        if ref is not None:
            u = _UPSTREAM.match(ref)
            release = u.group("v") if u else None
        out.append(ForkBuild(repo, ref, release, m.start()))
    return out


def _resolve(text: str, ref: str) -> str:
    """``${VLLM_FORK_REF}`` -> the value the file assigns it (``ARG VLLM_FORK_REF=v0.7.2+Gaudi-1.21.0``),
    else the ref as written."""
    v = _VAR.match(ref)
    if v is None:
        return ref
    m = re.search(r"(?m)^\s*(?:ARG\s+|ENV\s+|export\s+)?" + re.escape(v.group("name")) + r"[=\s][\"']?([^\s\"']+)", text)
    return m.group(1) if m else ref
