"""A vLLM release stated in words: ``# tested with vLLM 0.11.0``, ``# Base image includes: vLLM
0.17.2rc1.dev133``, ``ENV VLLM_VERSION=0.9.2``. One reading for every place that takes a release from
what a file says rather than from what it installs: a comment before a launch
(``pipeline.targeting``) and a Dockerfile built on a vendor's vLLM image whose tag names no release
(``pipeline.surroundings``). A line that also speaks of another release, a minimum, a feature's
first release or a bug states nothing (:data:`ELSEWHEN`)."""

from __future__ import annotations

import re

from ..record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

#: ``vllm`` then a version (``vLLM 0.8.5``, ``vllm==0.8.5``, ``vllm/vllm-openai:v0.8.5``, ``vLLM version
#: is 0.9.2``; a pre-release or development build such as ``0.17.2rc1.dev133`` too), never ``0.8.5+``
#: nor ``0.8.5 or later``
WORDS = lazy_re(
    r"(?i)\bvllm(?:[-/]openai)?(?:\s+(?:version|release|v))?\s*(?:==|=|:|\bis\b)?\s*v?"
    r"(?P<v>\d+\.\d+\.\d+(?:\.post\d+|\.\d+)?(?:rc\d+)?(?:\.dev\d+)?)\b"
    r"(?!\s*\+|\s*(?:or|and)\s+(?:later|newer|above|higher|up))")
COMMENT = lazy_re(r"^\s*(?:#|//|<!--|--|;|rem\b)", re.I)
# a comment that also speaks of another release, or of a bug of the one it names, does not state
# the one the launch runs on ("written for vLLM 0.8.5, now deployed on a newer image", "setting
# this is broken in vllm 0.6.2": both seen in real repositories)
ELSEWHEN = lazy_re(r"(?i)\b(?:newer|older|upgrad\w*|migrat\w*|previous\w*|formerly|used to|no longer|until|"
                   r"before|after|since|broken|bugs?|issues?|regression|workaround|fix(?:ed|es)?|fails?|"
                   r"not supported|unsupported|doesn't|does not|"
                   # a version cited as a minimum, a feature's first release or a bug report: not
                   # the release the launch runs ("requires vLLM 0.8.5", "added in vllm 0.9.0",
                   # "see vllm-project/vllm/issues/123 (0.8.5)")
                   r"min(?:imum)?|at least|requires?|required|needs?|added in|introduced|available (?:in|from)|"
                   r"deprecated|removed|as of|compatib\w*|vllm-project/vllm/(?:issues|pull))\b|>=|=>|<=")
# a Dockerfile instruction whose key names vLLM's version: ``ENV VLLM_VERSION=0.9.2``,
# ``LABEL vllm.version="0.9.2"``, ``ARG VLLM_VERSION=v0.9.2``
_INSTRUCTION = lazy_re(r"""(?i)^[ \t]*(?:ENV|LABEL|ARG)[ \t]+[\w.-]*vllm[\w.-]*version[\w.-]*[ \t]*[= ][ \t]*["']?v?"""
                       r"""(?P<v>\d+\.\d+\.\d+(?:\.post\d+|\.\d+)?(?:rc\d+)?(?:\.dev\d+)?)(?![\w.])""")


def stated_in_comment(line: str) -> Optional["re.Match[str]"]:
    """The version a comment line states (its group ``v``), or None: a comment (``#``, ``//``, ...)
    naming vllm and a version, and nothing of another release, a minimum or a bug."""
    if "vllm" not in line.lower() or not COMMENT.match(line) or ELSEWHEN.search(line):
        return None
    return WORDS.search(line)


def dockerfile_statements(text: str) -> list[tuple[int, str]]:
    """The vLLM versions a Dockerfile states in words, in its comments and in ``ENV`` / ``LABEL`` /
    ``ARG`` keys naming vLLM's version: (line number, the version as written), in order."""
    out: list[tuple[int, str]] = []
    if "vllm" not in text.lower():
        return out
    for row, line in enumerate(text.splitlines(), 1):
        if "vllm" not in line.lower():
            continue
        m = stated_in_comment(line) or (_INSTRUCTION.match(line) if not ELSEWHEN.search(line) else None)
        if m:
            out.append((row, m.group("v")))
    return out
