"""An option's or variable's facts in words for a person, worded once: what ``vllm-lint flags
show`` / ``flags list`` print, the language server's hover and completion show, and VL101's fix
says (its history; how it is written; its default). Light to import: the lint path uses it."""

from __future__ import annotations

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any
    from .db import Option
    from .timeline import OptionStory

NOOP_AT_REMOVAL = "it had no effect when it was removed"


def history_lines(st: "OptionStory", newest: str, code=str) -> list[tuple[str, str]]:
    """An option's or variable's life as (label, text) lines, label "" for a line that is a
    sentence: accepted ranges, removal (with the no-op note), still accepted, deprecation,
    successor, other spellings; ``code`` quotes a word of the command line."""
    out = [("accepted by", ", ".join(a if a == b else f"{a} .. {b}" for a, b in st.ranges))]
    back = getattr(st, "returned_in", [])
    if st.removed_in:
        gone = ", ".join(st.removed_in) + (f" ({NOOP_AT_REMOVAL})" if st.noop_at_removal else "")
        if back:
            gone += "; accepted again from " + ", ".join(back)
        out.append(("removed in", gone))
    if not st.removed_in or back and st.ranges[-1][1] == newest:
        out.append(("", f"still accepted by the newest release ({newest})"))
    roles = getattr(st, "roles", [])
    if len({r for _, _, r in roles}) > 1 or any(r.startswith("rewritten") for _, _, r in roles):
        # what the name was changed over its life: say it per run of releases
        words = [f"{a if a == b else f'{a} .. {b}'} {_role_words(r, code, st.name)}" for a, b, r in roles]
        out.append(("what it is", "; ".join(words)))
    if st.deprecated_from:
        out.append(("deprecated from", st.deprecated_from))
    if st.successor:
        out.append(("successor", code(st.successor) + (f"  ({st.successor_evidence})" if st.successor_evidence else "")))
    if st.aliases:
        out.append(("other spellings", ", ".join(map(code, st.aliases))))
    return out


def _role_words(role: str, code=str, name: str = "") -> str:
    """One run's role (``OptionStory.roles``) in words."""
    if not role:
        return "an option of its own"
    if role.startswith("rewritten to "):
        target = role[len("rewritten to "):]
        return (f"no parser option: vLLM's argument preprocessing rewrites {code(name + '3')}, {code(name + ' 3')} "
                f"and {code(name + '=3')} into {code(target + ' 3')} (a bare {code(name)} is refused)")
    how, _, target = role.partition(" of ")
    return f"the {how} of {code(target)}"


_TYPE_WORDS = {  # the value argparse's type takes, in words: (one, several)
    "int": ("an integer", "integers"),
    "float": ("a number", "numbers"),
    "str": ("a string", "strings"),
    "bool": ("true or false", "true/false values"),
    "json": ("JSON", "JSON values"),
    "dict_or_str": ("JSON or a string", "JSON values or strings"),
    "human_int": ("an integer (1k = 1000 and 1K = 1024 also read)", "integers (1k = 1000 and 1K = 1024 also read)"),
    "human_int_or_auto": ("an integer or auto (1k = 1000 and 1K = 1024 also read)", "integers or auto"),
}


def value_words(opt: "Option", code=str) -> str:
    """How an option is written, in words ("a switch", "takes an integer", "takes one of a, b");
    ``code`` quotes a word of the command line (Markdown: backticks)."""
    if opt.kind == "switch":
        return "a switch (takes no value)"
    if opt.kind == "negatable":
        return f"a switch ({code(opt.negations[0])} turns it off)" if opt.negations else "a switch (takes no value)"
    one, several = _TYPE_WORDS.get(opt.type or "", ("a value", "values"))
    if opt.choices:
        one = several = "one of " + ", ".join(code(str(c)) for c in opt.choices)
    if opt.nargs == "+":
        what = f"one or more {several}" if not opt.choices else f"one or more of {', '.join(code(str(c)) for c in opt.choices)}"
    elif opt.nargs == "*":
        what = f"any number of {several}" if not opt.choices else f"any number of {', '.join(code(str(c)) for c in opt.choices)}"
    else:
        what = one
    if opt.kind == "optional_value" or opt.nargs == "?":
        return f"takes {what}, or nothing"
    return f"takes {what}"


def default_words(default: Any, computed: bool, switch: bool = False, code=str) -> str:
    """An option's or variable's default, in words: "off by default", "unset by default",
    "default computed at start", "default 8"."""
    import json

    if computed:
        return "default computed at start"
    if switch and isinstance(default, bool):
        return "on by default" if default else "off by default"
    if default is None:
        return "unset by default"
    if default == "":
        return "empty by default"
    return "default " + code(default if isinstance(default, str) else json.dumps(default))


def option_words(opt: "Option", code=str) -> str:
    """An option at one release, in words: how it is written and its default (and deprecated)."""
    text = (f"{value_words(opt, code)}; "
            f"{default_words(opt.default, opt.default_computed, opt.kind in ('switch', 'negatable'), code)}")
    return text + ("; deprecated" if opt.deprecated else "")
