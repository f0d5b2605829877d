"""The variables an Ansible role gives its Jinja templates, and the ``{% if %}`` conditions they decide.

A template under ``<role>/templates/`` (``start.sh.j2``, ``deploy.yaml.j2``) renders with the role's
``defaults/main.yml`` and ``vars/main.yml`` (vars over defaults, as Ansible's precedence has it; a
playbook or inventory may still override a default, which a static reading cannot see). Where those
files give a condition's variables literal values, the branch of an ``{% if %}`` / ``{% elif %}`` /
``{% else %}`` that renders is the one read, and an ``{% if %}`` without ``{% else %}`` whose
condition is false renders nothing; otherwise the first branch is read, as before. A launcher
script's word written as one expression of a variable they set to a number or a text is read as that
value, an assumption its findings name (:func:`render_words`). The conditions
decided: a variable (Jinja's truth), ``x | bool`` (Ansible's: ``yes``/``true``/``1``/``on``),
``x is defined`` / ``is not defined``, ``not x``, ``x == / != / > / >= / < / <= literal``, and
``and`` / ``or`` of those. The files read are inputs of the result (:mod:`vllm_lint.inputs`)."""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

_MAX_BYTES = 1 << 20
_UNKNOWN = object()
_MISSING = object()


def role_vars(path: str) -> Optional[dict]:
    """The variables of the Ansible role whose template ``path`` is (``<role>/templates/...``), or
    None (no role folder, or neither file gives a mapping)."""
    norm = path.replace("\\", "/")
    k = norm.rfind("/templates/")
    if k < 0:
        return None
    role = norm[:k] or "."
    from vllm_lint import inputs
    from vllm_lint import libyaml

    merged: dict = {}
    found = False
    for sub in ("defaults", "vars"):
        for name in ("main.yml", "main.yaml"):
            raw = inputs.read_other(os.path.join(role, sub, name), _MAX_BYTES)
            if raw is None:
                continue
            try:
                data = libyaml.load(raw)
            except Exception:  # yaml.YAMLError, RecursionError: the role's files give nothing
                data = None
            if isinstance(data, dict):
                merged.update(data)
                found = True
            break
    return merged if found else None


_TOKEN = re.compile(r"""\s*(==|!=|>=|<=|>|<|\(|\)|\||"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[A-Za-z_][\w.]*|-?\d+(?:\.\d+)?)""")


def decide(cond: str, variables: Optional[dict]) -> Optional[bool]:
    """Whether the Jinja condition ``cond`` (the text after ``if`` / ``elif``) holds with
    ``variables``, or None when a static reading cannot say."""
    if variables is None:
        return None
    words = _tokens(cond)
    if words is None:
        return None
    try:
        value, rest = _or(words, variables)
    except (IndexError, ValueError, TypeError):
        return None
    if rest or value is _UNKNOWN:
        return None
    return _truth(value)


def _tokens(cond: str) -> Optional[list[str]]:
    out, pos = [], 0
    cond = cond.strip()
    while pos < len(cond):
        m = _TOKEN.match(cond, pos)
        if m is None:
            return None
        out.append(m.group(1))
        pos = m.end()
        while pos < len(cond) and cond[pos].isspace():
            pos += 1
    return out


def _or(words: list[str], v: dict) -> tuple[Any, list[str]]:
    left, words = _and(words, v)
    while words and words[0] == "or":
        right, words = _and(words[1:], v)
        left = _UNKNOWN if _UNKNOWN in (left, right) and not (_known_true(left) or _known_true(right)) \
            else (_known_true(left) or _known_true(right))
    return left, words


def _and(words: list[str], v: dict) -> tuple[Any, list[str]]:
    left, words = _not(words, v)
    while words and words[0] == "and":
        right, words = _not(words[1:], v)
        if _known_false(left) or _known_false(right):
            left = False
        elif _UNKNOWN in (left, right):
            left = _UNKNOWN
        else:
            left = True
    return left, words


def _not(words: list[str], v: dict) -> tuple[Any, list[str]]:
    if words and words[0] == "not":
        value, rest = _not(words[1:], v)
        return (_UNKNOWN if value is _UNKNOWN else not _truth(value)), rest
    return _compare(words, v)


def _compare(words: list[str], v: dict) -> tuple[Any, list[str]]:
    left, words = _term(words, v)
    if words and words[0] in ("==", "!=", ">", ">=", "<", "<="):
        op = words[0]
        right, words = _term(words[1:], v)
        if _UNKNOWN in (left, right) or left is _MISSING or right is _MISSING:
            return _UNKNOWN, words
        try:
            result = {"==": left == right, "!=": left != right, ">": left > right, ">=": left >= right,
                      "<": left < right, "<=": left <= right}[op]
        except TypeError:
            return _UNKNOWN, words
        return result, words
    if left is _MISSING:
        return _UNKNOWN, words  # (an undefined variable fails the render, or comes from elsewhere)
    return left, words


def _term(words: list[str], v: dict) -> tuple[Any, list[str]]:
    w = words[0]
    rest = words[1:]
    if w == "(":
        value, rest = _or(rest, v)
        if not rest or rest[0] != ")":
            raise ValueError("unbalanced")
        rest = rest[1:]
    elif w[:1] in ("'", '"'):
        value = w[1:-1] if "\\" not in w else _UNKNOWN
    elif re.fullmatch(r"-?\d+", w):
        value = int(w)
    elif re.fullmatch(r"-?\d+\.\d+", w):
        value = float(w)
    elif w in ("true", "True"):
        value = True
    elif w in ("false", "False"):
        value = False
    elif w in ("none", "None"):
        value = None
    else:
        value = _lookup(w, v)
        if rest[:2] == ["is", "defined"] or rest[:3] == ["is", "not", "defined"]:
            negate = rest[1] == "not"
            rest = rest[3:] if negate else rest[2:]
            defined = value is not _MISSING
            return (not defined if negate else defined), rest
    while rest and rest[0] == "|" and len(rest) > 1:
        name = rest[1]
        rest = rest[2:]
        if value is _UNKNOWN or value is _MISSING:
            value = _UNKNOWN
        elif name == "bool":
            value = _as_bool(value)
        elif name == "int":
            try:
                value = int(value)
            except (TypeError, ValueError):
                value = 0
        elif name == "length":
            value = len(value) if hasattr(value, "__len__") else _UNKNOWN
        else:
            value = _UNKNOWN
    return value, rest


def _lookup(name: str, v: dict) -> Any:
    node: Any = v
    for part in name.split("."):
        if not isinstance(node, dict) or part not in node:
            return _MISSING
        node = node[part]
    if isinstance(node, str) and ("{{" in node or "{%" in node):
        return _UNKNOWN  # (a value templated from other variables)
    return node


def _as_bool(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value == 1
    if isinstance(value, str):
        return value.strip().lower() in ("yes", "on", "1", "true", "y", "t")
    return False


def _truth(value: Any) -> bool:
    return bool(value) if value is not None else False


def _known_true(value: Any) -> bool:
    return value is not _UNKNOWN and value is not _MISSING and _truth(value)


def _known_false(value: Any) -> bool:
    return value is not _UNKNOWN and value is not _MISSING and not _truth(value)


_STATEMENT = re.compile(rb"\{%-?\s*(\w+)(.*?)-?%\}", re.S)


def dropped_branches(data: bytes, tags: list[tuple[int, int]], variables: Optional[dict]) -> list[tuple[int, int]]:
    """The spans of ``data`` an ``{% if %}`` chain does not render (``tags``: its statements' spans,
    in order): the branches ``variables`` decide against, else every branch after the first (an
    alternative: two branches that set one option are no option given twice)."""
    out: list[tuple[int, int]] = []
    stack: list[list[list]] = []  # per open `if`: its branches [condition or None, body start, body end]
    for a, b in tags:
        m = _STATEMENT.match(data, a, b)
        word = m.group(1) if m else b""
        rest = m.group(2).decode("utf-8", "replace") if m else ""
        if word == b"if":
            stack.append([[rest, b]])
        elif word in (b"elif", b"else") and stack:
            stack[-1][-1].append(a)
            stack[-1].append([rest if word == b"elif" else None, b])
        elif word == b"endif" and stack:
            branches = stack.pop()
            branches[-1].append(a)
            out.extend(_not_rendered(branches, variables))
    return out


def blank_statements(data: bytes, tags: list[tuple[int, int]],
                     variables: Optional[dict]) -> tuple[bytearray, list[tuple[int, int]]]:
    """``data`` with what rendering removes blanked (spaces; line breaks kept): the statements
    ``tags`` and the branches :func:`dropped_branches` finds; and those spans (overlapping, in no
    order)."""
    holes = tags + dropped_branches(data, tags, variables)
    out = bytearray(data)
    for a, b in holes:
        out[a:b] = bytes(c if c in (10, 13) else 32 for c in data[a:b])
    return out, holes


def _not_rendered(branches: list[list], variables: Optional[dict]) -> list[tuple[int, int]]:
    chosen: Optional[int] = None
    for k, (cond, _bs, _be) in enumerate(branches):
        truth = True if cond is None else decide(cond, variables)
        if truth is None:  # (undecided: the first branch is read)
            chosen = 0
            break
        if truth:
            chosen = k
            break
    return [(bs, be) for k, (_c, bs, be) in enumerate(branches) if k != chosen]


_EXPRESSION = re.compile(rb"""^(["']?)\{\{-?\s*([A-Za-z_][\w.]*)\s*((?:\|\s*(?:int|string|trim|quote)\s*)*)-?\}\}\1$""")


def render_words(launches: list, data: bytes, variables: Optional[dict]) -> None:
    """The words of ``launches`` written as one Jinja expression of a variable (``{{ MAX_LEN }}``,
    ``"{{ PORT | int }}"``) that the role's files set to a number or a text (not one templated from
    other variables): read as that value, an assumption a finding on it names (a playbook or the
    inventory may set another). ``data``: the file's bytes, the words' spans in it."""
    if not variables:
        return
    for la in launches:
        for t in la.tokens:
            if not t.opaque or t.splat or t.span is None:
                continue
            m = _EXPRESSION.match(data[t.span.start:t.span.end].strip())
            if m is None:
                continue
            name = m.group(2).decode("ascii", "replace")
            value = _lookup(name, variables)
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                continue
            text = str(value)
            if not text.strip() or any(c.isspace() for c in text.strip()):
                continue  # (several words, or none: not one word the template renders)
            t.text, t.opaque, t.text_span = text.strip(), False, None
            t.assumed = f"`{{{{ {name} }}}}` rendered as the Ansible role's defaults or vars set it ({text.strip()}); a playbook or inventory may set another"
