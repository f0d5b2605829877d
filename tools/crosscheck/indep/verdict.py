"""Verdicts of both sides and their comparison, written for the independent tester.

Real side (``oracle.py``): refused or not, and argparse's message. Its culprit is the option the
message names first: ``argument --a/-b: ...`` (every string of that action counts), the first
word of ``unrecognized arguments: ...``, ``ambiguous option: --x could match ...``, ``expected
one argument`` (the action named before it), or the ``--model`` refusal (``--model``). A refusal
without an option in it (``the following arguments are required``, a bare exception) has no
culprit.

Lint side: ``vllm_lint.lint`` on ``vllm serve <words>`` as a shell file at the release
(``target=``). Refused = an error-severity finding of the argument rules (codes VL1xx) or of
VL410 (a value the release's config classes refuse when start-up builds them, issue 29); other
error findings (model facts, hardware) are engine-time and kept aside as ``other_errors``. A
finding names an option through its ``option`` attribute or a backticked word of its message.
Names are compared as the user wrote them and as vLLM spells them: ``_`` and ``-`` are one, a
``=value`` is cut, and a written abbreviation names the option it abbreviates.
"""

from __future__ import annotations

import re
import shlex
from typing import Any, Optional

ARG = re.compile(r"^argument ((?:-{1,2}[^\s/:]+/?)+):")
UNRECOGNIZED = re.compile(r"unrecognized arguments: (\S+)")
AMBIGUOUS = re.compile(r"ambiguous option: (\S+?)(?:=\S*)? could match")


def norm(word: str) -> str:
    return word.split("=", 1)[0].replace("_", "-").lower()


def real_culprit(message: Optional[str]) -> Optional[set[str]]:
    """The option names argparse's message blames (several spellings of one action), or None."""
    if not message:
        return None
    m = ARG.match(message)
    if m:
        return {norm(s) for s in m.group(1).split("/") if s}
    m = AMBIGUOUS.search(message)
    if m:
        return {norm(m.group(1))}
    m = UNRECOGNIZED.search(message)
    if m:
        w = m.group(1)
        return {norm(w) if w.startswith("-") else w.lower()}
    if "--model" in message and "positional" in message:
        return {"--model"}
    return None


def shell_line(argv: list[str]) -> str:
    return "vllm serve " + " ".join(shlex.quote(w) for w in argv) + "\n"


def refusal_code(code: str) -> bool:
    """The rules whose errors say the release refuses the line: the argument rules (VL1xx) and
    VL410 (a value a config class refuses when start-up builds it); the others' errors are facts
    of the model or the hardware."""
    return code.startswith("VL1") or code == "VL410"


def lint(argv: list[str], release: str, db: Optional[str] = None) -> dict[str, Any]:
    import vllm_lint

    diags = vllm_lint.lint(shell_line(argv), "serve.sh", target=release, db=db)
    errors, other, warnings = [], [], []
    for d in diags:
        rec = {"code": d.code, "option": d.option, "message": d.message}
        if str(getattr(d.severity, "value", d.severity)).lower() != "error":
            warnings.append(rec)
            continue
        (errors if refusal_code(d.code) else other).append(rec)
    return {"refused": bool(errors), "errors": errors, "other_errors": other, "warnings": warnings}


def named(finding: dict[str, Any]) -> set[str]:
    out = set()
    if finding.get("option"):
        out.add(norm(finding["option"]))
    for w in re.findall(r"`([^`]+)`", finding.get("message") or ""):
        out.add(norm(w) if w.startswith("-") else w.lower())
    return out


def names_culprit(findings: list[dict[str, Any]], culprit: set[str]) -> bool:
    """A finding names the culprit: the same word, the written abbreviation of the option
    argparse resolved it to, or (argparse cuts a word with spaces at the first space) the word
    of which the message gives the start."""
    for f in findings:
        for n in named(f):
            for c in culprit:
                if n == c or n.startswith(c):
                    return True
                if c.startswith("--") and n.startswith("-") and len(n) > 2 and c.startswith(n):
                    return True
                if c.startswith("-") and not c.startswith("--") and n.startswith("-") and len(n) >= 2 and c.startswith(n):
                    return True
    return False


#: refusals that depend on the machine the parser runs on, not on the command line: a chat
#: template given as a path, or a ``--config`` file, that does not exist here. Counted as accepted.
ENVIRONMENT = ("appears path-like, but doesn't exist", "FileNotFoundError: [Errno 2]")


def environmental(real: dict[str, Any]) -> bool:
    return bool(real.get("refused")) and any(p in (real.get("message") or "") for p in ENVIRONMENT)


def compare(real: dict[str, Any], mine: dict[str, Any]) -> dict[str, Any]:
    """``kind``: agree | missed (real refuses, lint silent) | false-alarm; ``culprit``: None
    when not measured (not both refuse or no culprit), else whether lint names it."""
    if environmental(real):
        real = {**real, "refused": False}
    if real["refused"] and not mine["refused"]:
        kind = "missed"
    elif mine["refused"] and not real["refused"]:
        kind = "false-alarm"
    else:
        kind = "agree"
    culprit = None
    if real["refused"] and mine["refused"]:
        blamed = real_culprit(real.get("message"))
        if blamed:
            culprit = names_culprit(mine["errors"], blamed)
    return {"kind": kind, "culprit": culprit}


def compare_varying(real: dict[str, Any], others: list[dict[str, Any]], mine: dict[str, Any],
                    strings: set[str]) -> Optional[dict[str, Any]]:
    """A line whose real verdict depends on the process: the parse with the choices another
    process of the release drew (``others``) refuses where this one accepts, or the reverse.
    No verdict is right for every process, so the line agrees only where vllm-lint says so: no
    refusal, and a warning naming the option whose choices vary (``strings``). ``kind``:
    ``varies-said`` (counted as agreeing) or ``varies-unsaid``; None when every process agrees."""
    refused = {bool(r["refused"]) and not environmental(r) for r in [real, *others]}
    if len(refused) < 2:
        return None
    said = not mine["refused"] and names_culprit(mine.get("warnings") or [], {norm(s) for s in strings})
    return {"kind": "varies-said" if said else "varies-unsaid", "culprit": None}
