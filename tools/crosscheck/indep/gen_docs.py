"""The docs-realistic generator: the ``vllm serve`` command lines of vLLM's own docs and examples
at a release, as written, and seeded light mutations of them.

Extraction (this module's own, not vllm-lint's front-ends): every line of a text file under the
sdist's ``docs/``, ``examples/`` and ``README.md`` whose start (after a prompt ``$``, ``#`` or ``>``
and ``VAR=value`` / ``nohup`` / ``exec`` words) is ``vllm serve``; from there a small POSIX-shell
tokenizer reads words (quotes, backslash escapes, backslash-newline continuations, comment markers
of continued comment lines) until an unquoted newline or an operator (``|``, ``;``, ``&``, ``>``,
``<``, ``)``, a backtick, ``#`` at a word start). Words the shell would expand (``$``, ``${``,
backticks) and placeholders (``<model>``, ``{{ }}``, ``...``) cannot be judged: such a word is
dropped, and with it the option it is the value of; a line whose model is one becomes model
``m``. A line with ``--config`` (its options are in a file) or ``--help`` is left out. Lines are
deduplicated per release.

Line ``i`` at release ``v`` with seed ``s`` comes from ``random.Random(f"{s}:docs:{v}:{i}")``: a
docs line chosen uniformly and, with probability one half, one mutation: a typo in an option
name, an option of another release inserted, a choice value replaced by a wrong one, a valid
respelling (``_`` or ``=``), or an option's value removed.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any, Iterator, Optional

SUFFIXES = {".md", ".rst", ".sh", ".bash", ".txt", ".yaml", ".yml", ".py", ".j2", ".toml", ""}
START = re.compile(r"^[ \t]*(?:[$#>][ \t]*)*(?:(?:[A-Za-z_][A-Za-z0-9_]*=\S*|nohup|exec|time)[ \t]+)*vllm[ \t]+serve(?=[ \t\\\n])")
OPERATORS = set("|;&<>)`")
ANGLE = re.compile(r"<[A-Za-z0-9_.:/ -]{1,40}>")


class Unbalanced(ValueError):
    pass


def words_from(text: str, pos: int, comment_lines: bool) -> tuple[list[tuple[str, bool]], int]:
    """Shell words from ``text[pos:]`` to the end of the command: (word, expandable) pairs, where
    ``expandable`` says the word holds an unquoted or double-quoted ``$`` or a backtick."""
    out: list[tuple[str, bool]] = []
    cur: list[str] = []
    in_word = expand = False
    i, n = pos, len(text)

    def flush() -> None:
        nonlocal cur, in_word, expand
        if in_word:
            out.append(("".join(cur), expand))
        cur, in_word, expand = [], False, False

    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 < n and text[i + 1] == "\n":
                i += 2
                if comment_lines:  # a continued comment: "#   --flag \" on the next line
                    while i < n and text[i] in " \t":
                        i += 1
                    if i < n and text[i] == "#":
                        i += 1
                continue
            if i + 1 < n:
                cur.append(text[i + 1])
                in_word = True
                i += 2
                continue
            i += 1
            continue
        if c == "'":
            j = text.find("'", i + 1)
            if j < 0:
                raise Unbalanced("'")
            cur.append(text[i + 1:j])
            in_word = True
            i = j + 1
            continue
        if c == '"':
            j = i + 1
            buf = []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n and text[j + 1] in '"\\$`\n':
                    if text[j + 1] != "\n":
                        buf.append(text[j + 1])
                    j += 2
                    continue
                if text[j] in "$`":
                    expand = True
                buf.append(text[j])
                j += 1
            if j >= n:
                raise Unbalanced('"')
            cur.append("".join(buf))
            in_word = True
            i = j + 1
            continue
        if c == "\n":
            break
        if c in " \t\r":
            flush()
            i += 1
            continue
        if c == "<":
            ph = ANGLE.match(text, i)
            if ph:  # `<model>` is a placeholder, not a redirection
                cur.append(ph.group(0))
                in_word = expand = True
                i = ph.end()
                continue
        if c in OPERATORS:
            break
        if c == "#" and not in_word:
            break
        if c == "$":
            expand = True
        cur.append(c)
        in_word = True
        i += 1
    flush()
    return out, i


PLACEHOLDER = re.compile(r"<[^>]*>|\{\{|\}\}|\.\.\.|^\[.*\]$|…")


def judgeable(word: str, expandable: bool) -> bool:
    return not expandable and not PLACEHOLDER.search(word)


#: lines that are no launch a parser can judge here: ``--config`` (its options are in a file) and
#: ``--help`` (``--help=<keyword>`` is handled while the parser is built, from ``sys.argv``)
UNJUDGEABLE = {"--config", "--help", "-h"}


def norm_word(w: str) -> str:
    return w.split("=", 1)[0].replace("_", "-")


def clean(words: list[tuple[str, bool]]) -> Optional[list[str]]:
    """The argv after ``vllm serve`` with unjudgeable words (and their options) dropped."""
    argv: list[str] = []
    if any(norm_word(w) in UNJUDGEABLE for w, _ in words):
        return None
    for k, (w, exp) in enumerate(words):
        if judgeable(w, exp):
            argv.append(w)
            continue
        if k == 0 and not w.startswith("-"):
            argv.append("m")  # the model is a variable or a placeholder
            continue
        if w.startswith("-"):
            continue  # an option spelled through a variable
        if argv and argv[-1].startswith("-") and "=" not in argv[-1]:
            argv.pop()  # the value of that option: drop the option with it
    return argv


def extract_file(text: str, comment_lines: bool) -> Iterator[list[str]]:
    for m in re.finditer(r"(?m)^.*$", text):
        s = START.match(m.group(0))
        if not s:
            continue
        try:
            words, _ = words_from(text, m.start() + s.end(), comment_lines)
        except Unbalanced:
            continue
        argv = clean(words)
        if argv is not None:
            yield argv


def docs_lines(src: Path) -> list[list[str]]:
    """The distinct ``vllm serve`` argvs of one extracted sdist, in a stable order."""
    files = [src / "README.md"] if (src / "README.md").is_file() else []
    for top in ("docs", "examples"):
        if (src / top).is_dir():
            files += sorted(p for p in (src / top).rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    seen: dict[tuple[str, ...], None] = {}
    for p in files:
        try:
            text = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        if "vllm" not in text:
            continue
        for argv in extract_file(text, comment_lines=p.suffix in (".py", ".sh", ".yaml", ".yml", "")):
            seen.setdefault(tuple(argv), None)
    return [list(a) for a in seen]


# ---------------------------------------------------------------------------------------------
# mutations


def _option_positions(argv: list[str]) -> list[int]:
    return [k for k, w in enumerate(argv) if w.startswith("--") and len(w) > 3]


def typo(argv: list[str], r: random.Random) -> Optional[list[str]]:
    pos = _option_positions(argv)
    if not pos:
        return None
    k = r.choice(pos)
    w = argv[k]
    name, eq, val = w.partition("=")
    body = name[2:]
    j = r.randrange(len(body))
    op = r.choice(["drop", "swap", "double", "replace"])
    if op == "drop":
        body = body[:j] + body[j + 1:]
    elif op == "swap" and j + 1 < len(body):
        body = body[:j] + body[j + 1] + body[j] + body[j + 2:]
    elif op == "double":
        body = body[:j] + body[j] + body[j:]
    else:
        body = body[:j] + r.choice("aeiosx") + body[j + 1:]
    return argv[:k] + ["--" + body + eq + val] + argv[k + 1:]


def foreign_option(argv: list[str], r: random.Random, foreign: list[Any], value_of) -> Optional[list[str]]:
    if not foreign:
        return None
    o = r.choice(foreign)
    words = [o.name, *value_of(o, r)]
    k = r.choice([p for p in range(1, len(argv) + 1) if p == len(argv) or argv[p].startswith("-")] or [len(argv)])
    return argv[:k] + words + argv[k:]


def wrong_choice(argv: list[str], r: random.Random, by_string: dict[str, Any]) -> Optional[list[str]]:
    cands = [k for k, w in enumerate(argv[:-1]) if by_string.get(w) is not None and by_string[w].choices
             and not by_string[w].switch]
    if not cands:
        return None
    k = r.choice(cands)
    c = str(r.choice(by_string[argv[k]].choices))
    bad = r.choice(["bogus", c + "x", c.upper() if c.upper() != c else c.title(), "None"])
    return argv[:k + 1] + [bad] + argv[k + 2:]


def respell(argv: list[str], r: random.Random, by_string: dict[str, Any]) -> Optional[list[str]]:
    cands = [k for k, w in enumerate(argv) if w.startswith("--") and w in by_string]
    if not cands:
        return None
    k = r.choice(cands)
    o = by_string[argv[k]]
    has_value = not o.switch and k + 1 < len(argv) and not argv[k + 1].startswith("-")
    if has_value and o.nargs is None and r.random() < 0.5:
        return argv[:k] + [f"{argv[k]}={argv[k + 1]}"] + argv[k + 2:]
    return argv[:k] + ["--" + argv[k][2:].replace("-", "_")] + argv[k + 1:]


def drop_value(argv: list[str], r: random.Random, by_string: dict[str, Any]) -> Optional[list[str]]:
    cands = [k for k, w in enumerate(argv[:-1]) if w in by_string and not by_string[w].switch
             and not argv[k + 1].startswith("-")]
    if not cands:
        return None
    k = r.choice(cands)
    return argv[:k + 1] + argv[k + 2:]


MUTATIONS = ["typo", "foreign", "wrong_choice", "respell", "drop_value"]


def line(lines: list[list[str]], release: str, seed: int, i: int, opts: list[Any], others: list[Any],
         value_of) -> tuple[list[str], str]:
    """(argv, mutation or "as-written")."""
    r = random.Random(f"{seed}:docs:{release}:{i}")
    base = r.choice(lines)
    if r.random() < 0.5:
        return list(base), "as-written"
    by_string = {s: o for o in opts for s in o.strings}
    order = MUTATIONS[:]
    r.shuffle(order)
    for m in order:
        if m == "typo":
            out = typo(base, r)
        elif m == "foreign":
            out = foreign_option(base, r, others, value_of)
        elif m == "wrong_choice":
            out = wrong_choice(base, r, by_string)
        elif m == "respell":
            out = respell(base, r, by_string)
        else:
            out = drop_value(base, r, by_string)
        if out is not None:
            return out, m
    return list(base), "as-written"
