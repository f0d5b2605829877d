"""The semantic check: read at B, does the fixed launch set the same configuration fields to the
same values as the original did at A? (Options removed outright and options A itself refused are
left out, and said so.)"""

from __future__ import annotations

from typing import Any, Optional

from ...argv import ParsedArg
from ...launch import Launch
from ...rules.base import LintContext
from .model import SemanticDiff, fmt_value


def arg_key(a: ParsedArg) -> Any:
    """Identity of an occurrence across two parses of the same launch (at A and at B)."""
    if a.tokens and a.tokens[0].span is not None:
        return ("tok", a.tokens[0].span.start)
    if a.keyed is not None:
        s = a.keyed.key_span or a.keyed.value_span
        return ("key", s.start if s else id(a.keyed))
    return ("obj", id(a))


def semantic_check(ctx_a: LintContext, ctx_b: LintContext, args_a: list[ParsedArg], args_b: list[ParsedArg],
                   args_fixed: list[ParsedArg]) -> tuple[list[SemanticDiff], list[str], list[str]]:
    """Does the fixed launch, read at B, set the same fields to the same values as the
    original did at A? Options removed outright (no successor) are left out (returned as the
    second value); so are options A itself did not accept (nothing to preserve) and whatever
    the fixed launch sets that B does not accept (still reported among the remaining findings)."""
    expected, dropped, skip, not_at_a = _expected_fields(ctx_a, ctx_b, args_a, args_b)
    actual = actual_fields(ctx_b, args_fixed)
    return _differences(expected, actual, skip, ctx_a.target, ctx_b.target), dropped, not_at_a


def _expected_fields(ctx_a: LintContext, ctx_b: LintContext, args_a: list[ParsedArg],
                     args_b: list[ParsedArg]) -> tuple[dict[str, list[Any]], list[str], set[str], list[str]]:
    """(field at B -> the values the original sets, the options removed outright, the fields at
    B fed by options A did not accept, those options): what the fixed launch should set."""
    from ...rules._status import option_status

    sb = ctx_b.surface
    b_by_key = {arg_key(b): b for b in args_b}
    expected: dict[str, list[Any]] = {}
    dropped: list[str] = []
    skip: set[str] = set()  # fields at B fed by options A did not accept
    not_at_a: list[str] = []
    for a in args_a:
        key, value = field_value(a)
        if key is None:
            continue
        kw = a.style == "kwargs" and a.key_style != "cli"
        # as the lint reads it at A: the entry's own keywords (AsyncEngineArgs has fields EngineArgs lacks)
        accepted_at_a = a.positional or option_status(ctx_a, a).state == "ok"
        b = b_by_key.get(arg_key(a))
        st = option_status(ctx_b, b) if b is not None and not a.positional else None
        # the field this occurrence maps to at B
        if a.positional or (st is not None and st.state == "ok"):
            if kw or a.positional:
                k = key
            else:
                ob = b.option if b is not None and b.option is not None else None
                if ob is not None and (a.option is None or ob.name in a.option.strings
                                       or a.option.name in ob.strings):
                    # the same option at both ends (its dest may have been renamed internally,
                    # or inverted: --disable-x sets disable_x at A and enable_x at B)
                    k = ob.dest + (f".{a.json_path}" if a.json_path else "")
                    value = translate(key, k, value)
                else:
                    k = key  # B reads the same words as a different option: compare A's field
        elif st is not None and st.state == "renamed" and st.successor:
            if kw:
                k = st.successor
            else:
                base, _, jkey = st.successor.partition(".")
                ob = sb.lookup(base)
                if ob is None:
                    dropped.append(a.written)
                    continue
                k = ob.dest + (f".{jkey}" if jkey else "") + (f".{a.json_path}" if a.json_path else "")
                value = translate(key, k, value)
        else:
            (dropped if accepted_at_a else not_at_a).append(a.written)
            continue
        if not accepted_at_a:
            skip.add(k)
            not_at_a.append(a.written)
            continue
        expected.setdefault(k, []).append(value)
    return expected, dropped, skip, not_at_a


def _differences(expected: dict[str, list[Any]], actual: dict[str, list[Any]], skip: set[str],
                 release_a: str, release_b: str) -> list[SemanticDiff]:
    """The fields (but ``skip``) whose values the fixed launch (``actual``) sets otherwise than
    the original did at ``release_a`` (``expected``)."""
    diffs: list[SemanticDiff] = []
    for k in sorted((set(expected) | set(actual)) - skip):
        ea, aa = expected.get(k), actual.get(k)
        if ea is not None and aa is not None and [_norm(v) for v in ea] == [_norm(v) for v in aa]:
            continue
        old = ea[-1] if ea else None
        new = aa[-1] if aa else None
        if aa is None:
            msg = f"`{k}`: the original sets {fmt_value(old)} at {release_a}; the fixed launch does not set it at {release_b}"
        elif ea is None:
            msg = f"`{k}`: the fixed launch sets {fmt_value(new)} at {release_b}; the original did not set it at {release_a}"
        else:
            msg = f"`{k}`: {fmt_value(old)} at {release_a} but {fmt_value(new)} in the fixed launch at {release_b}"
        diffs.append(SemanticDiff(k, old, new, msg))
    return diffs


def actual_fields(ctx_b: LintContext, args_fixed: list[ParsedArg]) -> dict[str, list[Any]]:
    """Field -> the values the fixed launch sets, of the options B accepts."""
    from ...rules._status import option_status

    actual: dict[str, list[Any]] = {}
    for f in args_fixed:
        key, value = field_value(f)
        if key is None:
            continue
        if not f.positional and option_status(ctx_b, f).state != "ok":
            continue  # still rejected at B: a remaining finding, not a meaning change
        actual.setdefault(key, []).append(value)
    return actual


_POLARITY = (("enable_", False), ("disable_", True), ("no_", True))


def _polarity(field: str) -> tuple[str, bool]:
    """A boolean field's subject and whether it is stated inverted: ``disable_log_requests`` ->
    (``log_requests``, True), ``enable_log_requests`` -> (``log_requests``, False)."""
    for prefix, inverted in _POLARITY:
        if field.startswith(prefix):
            return field[len(prefix):], inverted
    return field, False


def translate(field_a: Optional[str], field_b: Optional[str], value: Any) -> Any:
    """A boolean ``value`` of ``field_a`` as the value of ``field_b`` that means the same, when the
    two fields are one subject stated the other way round (``disable_x=True`` is
    ``enable_x=False``); anything else unchanged."""
    if not isinstance(value, bool) or not field_a or not field_b or field_a == field_b:
        return value
    (subject_a, inv_a), (subject_b, inv_b) = _polarity(field_a), _polarity(field_b)
    if subject_a != subject_b:
        return value
    return value if inv_a == inv_b else not value


def field_value(a: ParsedArg) -> tuple[Optional[str], Any]:
    """(configuration field, value) that one option occurrence sets."""
    if a.positional:
        return "model", a.value
    if a.style == "kwargs" and a.key_style != "cli":
        return a.canonical, a.value
    opt = a.option
    if opt is None:
        return a.canonical, a.value
    key = opt.dest + (f".{a.json_path}" if a.json_path else "")
    if a.json_path is None and a.how != "o-rewrite":
        s = a.resolved_string or a.written
        if s in opt.negations:
            return key, False
        if not opt.takes_value(s):
            if a.style == "argv" or a.key_style == "cli":
                return key, True if a.value is None else a.value
            return key, a.value
    return key, a.value


def _norm(v: Any) -> Any:
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return v


def launch_text(launch: Launch) -> Any:
    if launch.style == "argv":
        return [t.text for t in launch.tokens]
    return [(k.key, repr(k.value)) for k in launch.keyed]
