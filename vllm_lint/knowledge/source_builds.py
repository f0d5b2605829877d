"""vLLM built from its own source at a tag: the release a Dockerfile, script or guide installs
when it builds vLLM from ``github.com/vllm-project/vllm`` rather than a wheel or an image
(:func:`source_builds`).

The constructions read, each in a command of its own (continuation lines joined; comment lines
and messages, ``echo`` / ``printf`` / ``Write-Host`` / ``print(``, skipped):

* ``git clone --branch v0.10.0 https://github.com/vllm-project/vllm`` (``-b``, ``--branch=``,
  the option before or after the address);
* a clone of vLLM's repository, then ``git checkout v0.8.2`` (``git -C vllm checkout``,
  ``checkout tags/v0.8.2``, ``checkout -b name v0.8.2``, ``git reset --hard v0.8.2``, ``git switch
  --detach v0.8.2``) before any other repository is cloned;
* ``pip install git+https://github.com/vllm-project/vllm@v0.9.1`` (``uv pip install
  vllm@git+...@v0.9.1``, ``"vllm @ git+...git@v0.9.1"``, a requirement line);
* an archive of a tag (``github.com/vllm-project/vllm/archive/refs/tags/v0.9.1.tar.gz``).

The tag may come through a variable of the file (``ARG VERSION=0.6.4.post1`` ... ``git checkout
v${VERSION}``; ``ENV``, a shell assignment, ``export``, ``${VLLM_REF:-v0.8.2}``'s default): a
variable given two different values names no one release. Only a tag that reads as a release
(``v0.8.2``, ``0.6.4.post1``, ``v0.9.0rc1``) counts; a branch or commit (``main``, a hash) is
not a release. A fork's repository (``github.com/ROCm/vllm``, ``HabanaAI/vllm-fork``) is not
vLLM's: not read here (``knowledge.forks``). Two builds naming different releases name none.
"""

from __future__ import annotations

import re

from ..record import Record, lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

#: vLLM's own repository (a fork's address never matches: the owner is vllm-project)
_REPO = r"(?:(?:https?|git|ssh)://(?:git@)?|git@)?github\.com[/:]vllm-project/vllm(?:\.git)?"
_REPO_AT_END = lazy_re(_REPO + r"(?=$|[\s\"'#@/;&|)\]])", re.I)
_RELEASE = lazy_re(r"v?\d+\.\d+\.\d+(?:\.post\d+|\.\d+|rc\d+)?")
_GIT_URL = lazy_re(r"git\+" + _REPO + r"@(?P<ref>[^\s\"'#;&|,\]]+)", re.I)
_ARCHIVE = lazy_re(_REPO + r"/archive/(?:refs/tags/)?(?P<ref>[^\s\"'/]+?)\.(?:tar\.gz|tgz|zip)\b", re.I)
_CLONE = lazy_re(r"\bgit[ \t]+(?:-[Cc][ \t]+\S+[ \t]+)?clone\b")
_BRANCH = lazy_re(r"(?:^|[ \t])(?:--branch(?:=|[ \t]+)|-b[ \t]+)[\"']?(?P<ref>[^\s\"';&|]+)")
_CHECKOUT = lazy_re(r"\bgit[ \t]+(?:-C[ \t]+\S+[ \t]+)?(?:checkout(?:[ \t]+(?:-[bB][ \t]+\S+|-f|--force|--detach|-q|--quiet))*"
                    r"|reset[ \t]+--hard|switch[ \t]+(?:--detach|-d))[ \t]+[\"']?(?:tags/)?(?P<ref>[^\s\"';&|]+)")
# assignments a ref may be read from: Dockerfile ARG/ENV, shell (export, declare, local), ${X:=v}
_ASSIGN = lazy_re(r"(?m)^[ \t]*(?:(?:ARG|ENV|export|declare(?:[ \t]+-\w+)*|local|readonly)[ \t]+)?"
                  r"(?P<name>[A-Za-z_]\w*)(?:=|(?<=\w)[ \t]+(?=[\"']?v?\d))[ \t]*"
                  r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s#;&|\"']+)")
_DEFAULT_ASSIGN = lazy_re(r"\$\{(?P<name>[A-Za-z_]\w*):?=(?P<value>[^}\s]+)\}")
_VAR = lazy_re(r"\$\{(?P<a>[A-Za-z_]\w*)(?::?-(?P<d>[^}$]*))?\}|\$(?P<b>[A-Za-z_]\w*)")
_MESSAGE = lazy_re(r"[ \t]*(?:run[ \t]+)?(?:echo|printf|write-host|write-output|print\(|logger\.\w+\(|log\.\w+\()")
_ENV_SPACE = lazy_re(r"(?m)^[ \t]*ENV[ \t]+(?P<name>[A-Za-z_]\w*)[ \t]+(?P<value>[^\s=]+)[ \t]*$")


class SourceBuild(Record):
    """One build of vLLM from its source: ``ref``, the tag as it resolves (``v0.6.4.post1``);
    ``start``/``end``, the byte offsets of the text that holds its version (the tag, or the value
    of the variable it is read from); ``line``, the 1-based line of the command; ``how``, the
    command in words for --verbose."""

    __slots__ = ("ref", "start", "end", "line", "how")

    def __init__(self, ref: str, start: int, end: int, line: int, how: str) -> None:
        self.ref = ref
        self.start = start
        self.end = end
        self.line = line
        self.how = how


def source_builds(data: bytes) -> list[SourceBuild]:
    """Every build of vLLM's own source at a release tag in ``data``; empty when none, or when
    they name different releases (then no one release is built)."""
    if b"vllm-project/vllm" not in data:  # (GitHub's addresses as written: one pass over most files)
        return []
    text = data.decode("utf-8", errors="replace")
    # continuation lines joined, offsets kept (the backslash and line end become spaces)
    flat = re.sub(r"\\\r?\n", lambda m: " " * len(m.group(0)), text)
    values = _assignments(text)
    found: list[SourceBuild] = []
    cloned = False  # a clone of vLLM's repository without a tag: a checkout after it names one
    pos = 0
    for line in flat.splitlines(keepends=True):
        start, pos = pos, pos + len(line)
        if line.lstrip().startswith("#") or "git" not in line.lower():
            continue
        for seg_start, seg in _segments(line, start):
            low = seg.lower()
            if _MESSAGE.match(low):
                continue  # (a message naming the command: "run pip install git+...@v0.10.1 by hand")
            if "vllm-project/vllm" in low:
                for rx, how in ((_GIT_URL, "pip install git+...vllm@{}"), (_ARCHIVE, "an archive of vLLM's tag {}")):
                    for m in rx.finditer(seg):
                        _add(found, text, values, m.group("ref"), seg_start + m.start("ref"), how)
                if _CLONE.search(seg) and _REPO_AT_END.search(seg):
                    m = _BRANCH.search(seg)
                    if m:
                        _add(found, text, values, m.group("ref"), seg_start + m.start("ref"),
                             "git clone --branch {} of vLLM's repository")
                        cloned = False
                    else:
                        cloned = True
                    continue
            if _CLONE.search(seg):
                cloned = False  # (another repository: a checkout after it is of that one)
                continue
            if cloned:
                m = _CHECKOUT.search(seg)
                if m:
                    _add(found, text, values, m.group("ref"), seg_start + m.start("ref"),
                         "git checkout {} of vLLM's repository")
                    cloned = False
    if len({b.ref.lstrip("v") for b in found}) > 1:
        return []
    return found


def _segments(line: str, start: int):
    """The commands of one (joined) line: split at ``&&``, ``||``, ``;`` and ``|``, with offsets."""
    at = 0
    for m in re.finditer(r"&&|\|\||;|\|", line):
        yield start + at, line[at:m.start()]
        at = m.end()
    yield start + at, line[at:]


def _assignments(text: str) -> dict[str, Optional[tuple[str, int]]]:
    """NAME -> (value, offset of the value) of the file's assignments with a literal value; None
    for a variable given two different values."""
    out: dict[str, Optional[tuple[str, int]]] = {}
    for rx in (_ASSIGN, _ENV_SPACE, _DEFAULT_ASSIGN):
        for m in rx.finditer(text):
            raw, at = m.group("value"), m.start("value")
            if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
                raw, at = raw[1:-1], at + 1
            if not raw or "$" in raw:
                continue
            name = m.group("name")
            if name in out and (out[name] is None or out[name][0] != raw):
                out[name] = None
            else:
                out.setdefault(name, (raw, at))
    return out


def _add(found: list[SourceBuild], text: str, values: dict, ref: str, at: int, how: str) -> None:
    """Resolve ``ref`` (written at character offset ``at``) through the file's variables; keep it
    when it reads as a release."""
    ref = ref.strip("\"'")
    holder: Optional[tuple[int, int]] = None  # (character offsets of the version's text)
    if "$" in ref:
        used: list[tuple[str, int]] = []

        def fill(m: "re.Match[str]") -> str:
            name = m.group("a") or m.group("b")
            got = values.get(name)
            if got is not None:
                used.append((name, *got))
                return got[0]
            if m.group("d") is not None and name not in values:
                used.append((name, m.group("d"), at + m.start("d")))
                return m.group("d")
            raise KeyError(name)

        try:
            resolved = _VAR.sub(fill, ref)
        except KeyError:
            return
        said = f"{ref} with " + ", ".join(f"{n}={v} (line {text.count(chr(10), 0, o) + 1})" for n, v, o in used)
        if used:
            holder = (used[0][2], used[0][2] + len(used[0][1]))
        ref = resolved
    else:
        said = ref
        holder = (at, at + len(ref))
    if not _RELEASE.fullmatch(ref) or holder is None:
        return
    start, end = len(text[:holder[0]].encode()), len(text[:holder[1]].encode())
    line = text.count("\n", 0, at) + 1
    found.append(SourceBuild(ref, start, end, line, how.format(said)))


def source_build_hints(data: bytes) -> list:
    """The file's builds of vLLM's source as version hints (``launch.VersionHint``, source words
    for --verbose: ``vLLM built from its source (line 29: git checkout ...) at v0.6.4.post1``), the
    span on the text holding the version (where VL004 reports, what an upgrade rewrites)."""
    builds = source_builds(data)[:1]
    if not builds:  # (nearly every file: no import to make)
        return []
    from ..launch import Span, VersionHint

    return [VersionHint(b.ref, f"vLLM built from its source (line {b.line}: {b.how}) at", Span(b.start, b.end))
            for b in builds]
