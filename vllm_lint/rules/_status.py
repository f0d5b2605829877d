"""What the timeline says about each option of a launch, computed once and shared by the
VL1xx rules (removed, renamed, unknown, too new, deprecated, abbreviated)."""

from __future__ import annotations

from ..argv import ParsedArg, spell_like
from ..launch import Edit, Span
from ..record import Record
from ..foreign_launchers import FOREIGN_LAUNCHERS
from ..wrapper_options import WRAPPERS, Wrapper
from .base import Fix, LintContext

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

    from .base import Severity


class Status(Record):
    """``name``: the name the timeline knows the option by ("--swap-space" or the EngineArgs field);
    ``last``: the last release accepting it before the target, ``removed_in`` the release after it,
    ``first``: the first release accepting it after the target; ``successor``: the option string
    the target accepts in its place; ``expanded_from``: the abbreviation written, when resolved
    through history; ``historic_matches``: options an unknown prefix once abbreviated;
    ``unrewritten``: what vLLM's argv rewriting would have made of the option, for a program that
    skips it: "_" (written with ``_``; the status is that of the dashed option ``name``, "unknown"
    where the target accepts that one), "." (a dotted key of the JSON option ``name``) or "-O" (the
    shorthand that vLLM rewrites to ``--optimization-level``), else ""."""

    __slots__ = ("arg", "state", "name", "last", "removed_in", "first", "successor", "successor_safe",
                 "successor_note", "noop_at_removal", "evidence", "suggestion", "expanded_from", "historic_matches",
                 "unrewritten")

    def __init__(self, arg: ParsedArg, state: str, name: str, last: Optional[str] = None,
                 removed_in: Optional[str] = None, first: Optional[str] = None, successor: Optional[str] = None,
                 successor_safe: bool = False, successor_note: Optional[str] = None, noop_at_removal: bool = False,
                 evidence: Optional[str] = None, suggestion: Optional[str] = None,
                 expanded_from: Optional[str] = None, historic_matches: Optional[list[str]] = None) -> None:
        self.arg = arg
        self.state = state  # ok | removed | renamed | unknown | too-new | ambiguous
        self.name = name
        self.last = last
        self.removed_in = removed_in
        self.first = first
        self.successor = successor
        self.successor_safe = successor_safe
        self.successor_note = successor_note
        self.noop_at_removal = noop_at_removal
        self.evidence = evidence
        self.suggestion = suggestion
        self.expanded_from = expanded_from
        self.historic_matches = [] if historic_matches is None else historic_matches
        self.unrewritten = ""

    @property
    def shown(self) -> str:
        """How messages name the option: as written, with its expansion when abbreviated."""
        if self.expanded_from:
            return f"`{self.arg.written}` (short for `{self.name}`)"
        return f"`{self.arg.written}`"


def dropping_wrapper(ctx: LintContext) -> Optional[Wrapper]:
    """The wrapper the launch runs under when it reads its argv with ``parse_known_args``
    (``Wrapper.ignores_leftovers``): an option or word its parser does not take is dropped there,
    never refused, so vLLM never sees it."""
    w = WRAPPERS.get(ctx.launch.entry) if ctx.launch is not None else None
    return w if w is not None and w.ignores_leftovers else None


def unaccepted(ctx: LintContext, refusal: str, what: str = "it") -> tuple[str, Optional[Severity]]:
    """What happens to an option the parser of the launch does not take: the release's
    ``refusal`` (an error), or, under a wrapper that drops it, a warning saying so."""
    w = dropping_wrapper(ctx)
    if w is None:
        return refusal, None
    return f"{w.short} drops {what}: vLLM never sees it", "warning"


def _next_version(ctx: LintContext, version: str) -> Optional[str]:
    pos = ctx.db.position(version)
    return ctx.db.versions[pos + 1] if pos + 1 < len(ctx.db.versions) else None


def _successor(ctx: LintContext, name: str, last: Optional[str]) -> tuple[Optional[str], bool, Optional[str], bool, Optional[str]]:
    """(successor, safe, note, noop_at_removal, evidence) from the curated overlay first, then the
    deprecation record of the last release that accepted ``name``."""
    ov = ctx.db.option_overlay(name)
    if ov:
        return (ov.get("successor"), bool(ov.get("safe")), ov.get("note"),
                bool(ov.get("noop_at_removal")), ov.get("evidence"))
    # the index says where a string was deprecated: without that, the release file of ``last``
    # (a whole surface, ~1.5 ms) is not read for nothing
    dep = ctx.db.deprecated_history(name) if last else None
    if dep is not None and ctx.db.position(last) in dep.indices:
        opt = ctx.db.surface(last).lookup(name)
        if opt and opt.deprecated and opt.deprecated.get("successor"):
            return opt.deprecated["successor"], True, None, False, f"deprecated in vLLM {last} with a named successor"
    return None, False, None, False, None


def _unaccepted_successor(ctx: LintContext, succ: str, arg: ParsedArg) -> str:
    base, dot, key = succ.partition(".")
    if dot and ctx.surface.lookup(base) is not None and not ctx.surface.dotted_json:
        import json

        value = arg.value if isinstance(arg.value, str) and not arg.value_opaque else "..."
        try:
            shown = json.dumps({key: json.loads(value)})
        except ValueError:
            shown = json.dumps({key: value})
        return (f"its successor `{succ}` needs dotted keys (vLLM 0.9.0+); at {ctx.target} write "
                f"`{base} '{shown}'`")
    return f"its successor `{succ}` is not accepted by {ctx.target} either"


def target_accepts(ctx: LintContext, option: str) -> bool:
    base = option.partition(".")[0]
    opt = ctx.surface.lookup(base)
    if opt is None:
        return False
    if "." in option:
        if not ctx.surface.dotted_json:
            return False
        cfg = ctx.surface.json_config_for(opt)
        key = option.partition(".")[2].split(".")[0].rstrip("+")
        return cfg is None or key in (cfg.get("fields") or {})
    return True


def closest(surface, word: str, pool, cutoff: float, kind: str = "") -> Optional[str]:
    """The closest name to ``word`` in ``pool()``: ``difflib.get_close_matches(word, pool(), n=1,
    cutoff=cutoff)``, memoised per release surface: a repository repeats its typos, and each
    lookup compares against hundreds of names. The similarity of a word to a name is computed
    once per process (``_RATIOS``): releases share most of their names."""
    memo = surface.__dict__.setdefault("_closest_memo", {})
    key = (kind, word, cutoff)
    if key not in memo:
        memo[key] = close_match(word, pool(), cutoff)
    return memo[key]


# (word, cutoff) -> {name: difflib ratio of name to word, or None when below cutoff}
_RATIOS: dict[tuple[str, float], dict[str, Optional[float]]] = {}


def close_match(word: str, names, cutoff: float) -> Optional[str]:
    """``get_close_matches(word, names, n=1, cutoff)``: the best (ratio, name) at or above
    ``cutoff``, the same filters (real_quick_ratio, quick_ratio, ratio) with the same floats. The
    first two are computed here, without a matcher: most names pass the length filter and share
    most letters with an option name, and the method calls cost more than the arithmetic. The
    letters in common (quick_ratio's, with multiplicity) are counted per distinct letter of
    ``word`` by ``str.count``, not per letter of each name."""
    scores = _RATIOS.setdefault((word, cutoff), {})
    best: Optional[tuple[float, str]] = None
    matcher = None
    lw = len(word)
    counts: Optional[list[tuple[str, int]]] = None
    for x in names:
        if x in scores:
            r = scores[x]
        else:
            r = None
            lx = len(x)
            n = lx + lw
            if (2.0 * min(lx, lw) / n if n else 1.0) >= cutoff:  # real_quick_ratio
                if counts is None:
                    counts = [(c, word.count(c)) for c in dict.fromkeys(word)]
                matches = 0
                for c, k in counts:  # quick_ratio: the characters in common, with multiplicity
                    m = x.count(c)
                    matches += m if m < k else k
                if (2.0 * matches / n if n else 1.0) >= cutoff:
                    if matcher is None:
                        import difflib  # only when a name is that close (~2 ms of start-up otherwise)

                        matcher = difflib.SequenceMatcher()
                        matcher.set_seq2(word)
                    matcher.set_seq1(x)
                    ratio = matcher.ratio()
                    if ratio >= cutoff:
                        r = ratio
            scores[x] = r
        if r is not None and (best is None or (r, x) > best):
            best = (r, x)
    return best[1] if best is not None else None


def args_in_state(ctx: LintContext, state: str):
    """(argument, status) for each option of the launch whose timeline state is ``state``, one
    that is not "ok" (the rules ask for what the target refuses or changed).

    Six rules ask per launch, and nearly every option is "ok": the pairs are grouped by state in
    one pass over the arguments (``_by_state``), so the rules get theirs without a pass of their
    own. An option the target's parser resolved is "ok" without a status made for it
    (``_compute``)."""
    return _by_state(ctx).get(state, ())


def states_named(ctx: LintContext) -> dict[str, list]:
    """The timeline states (not "ok") that options of the launch have at the target, as keys: what
    the engine matches the rules' :func:`~vllm_lint.rules.base.option_state` triggers against."""
    return _by_state(ctx)


def _by_state(ctx: LintContext) -> dict[str, list]:
    by_state = ctx.memo.options_by_state
    if by_state is not None:
        return by_state
    cache = ctx.memo.option_status  # as option_status, without a call per argument
    by_state = {}
    for arg in ctx.args:
        if arg.positional or arg.option is not None and (arg.style != "kwargs" or arg.key_style == "cli"):
            continue  # (resolved by the target's parser: "ok", as ``_compute`` says first)
        st = cache.get(id(arg))
        if st is None:
            st = cache[id(arg)] = _compute(ctx, arg)
        if st.state != "ok":
            by_state.setdefault(st.state, []).append((arg, st))
    ctx.memo.options_by_state = by_state  # only when every argument has its status
    return by_state


def option_status(ctx: LintContext, arg: ParsedArg) -> Status:
    cache = ctx.memo.option_status
    key = id(arg)
    if key not in cache:
        cache[key] = _compute(ctx, arg)
    return cache[key]


def _compute(ctx: LintContext, arg: ParsedArg) -> Status:
    if arg.style == "kwargs" and arg.key_style != "cli":
        return _compute_kwarg(ctx, arg)
    base = arg.canonical.partition(".")[0] if arg.json_path is not None or "." in arg.canonical else arg.canonical
    if arg.option is not None:
        return Status(arg, "ok", arg.resolved_string or base)
    if arg.how == "ambiguous":
        return Status(arg, "ambiguous", base)
    read_by = ctx.surface.read_by(ctx.launch.entry) if ctx.launch is not None else ctx.surface
    if read_by is not ctx.surface:
        if arg.o_shorthand and ctx.surface.o_flag == "optimization-level" and read_by.o_flag == "none":
            st = Status(arg, "unknown", "--optimization-level")
            st.unrewritten = "-O"
            return st
        if "." in arg.canonical and ctx.surface.dotted_json and ctx.surface.lookup(base) is not None:
            st = Status(arg, "unknown", base)
            st.unrewritten = "."
            return st
        if base.startswith("--") and "_" in base and ctx.surface.underscores_normalised:
            st = _underscored_status(ctx, arg, "--" + base[2:].replace("_", "-"))
            if st is not None:
                return st
    hist = ctx.db.option_history(base)
    expanded_from = None
    if hist is None:
        full = _historic_expansion(ctx, base)
        if full is None:
            s = ctx.surface
            close = closest(s, base, lambda: s.long_strings if base.startswith("--") else list(s.by_string), 0.75)
            if close is None and base.startswith("--") and s.lookup(base[1:]) is not None:
                close = base[1:]  # a short form written with two dashes (--tp for -tp)
            st = Status(arg, "unknown", base, suggestion=close)
            if base.startswith("--") and len(base) >= 4:
                st.historic_matches = ctx.db.option_strings_starting(base)
            return st
        expanded_from, base, hist = base, full, ctx.db.option_history(full)
    st = _timeline_status(ctx, arg, base, hist)
    st.expanded_from = expanded_from
    return st


def _underscored_status(ctx: LintContext, arg: ParsedArg, dashed: str) -> Optional[Status]:
    """``--max_num_seqs`` under a program that does not rewrite ``_`` to ``-``: the status of
    ``--max-num-seqs`` ("unknown", since the program does not take the spelling, where the
    target accepts the dashed one), or None when no release knows the dashed one either."""
    from ..argv import ArgvParser

    _, opt, resolved, how, _, _ = ArgvParser(ctx.surface, ctx.db).resolve(dashed)
    if opt is not None:
        st = Status(arg, "unknown", resolved or dashed)
    else:
        hist = ctx.db.option_history(dashed)
        if hist is None:
            return None
        st = _timeline_status(ctx, arg, dashed, hist)
    st.unrewritten = "_"
    return st


def _last_reading_o_dotted(ctx: LintContext) -> Optional[str]:
    """The newest release before the target that reads ``-O.<key>`` as a compilation-config key:
    the ``-O`` alias with dotted keys (0.9.2-0.11.x), or 0.12.x's deprecated rewrite to ``-cc.<key>``."""
    for v in reversed(ctx.db.versions[:ctx.db.position(ctx.target)]):
        sv = ctx.db.surface(v)
        if sv.o_dotted_is_cc or (sv.o_flag == "alias" and sv.dotted_json_short):
            return v
    return None


def _historic_expansion(ctx: LintContext, prefix: str) -> Optional[str]:
    """The option an abbreviation meant in the newest release before the target that had a
    unique match for it (``--cuda-graph`` -> ``--cuda-graph-sizes``), or None."""
    if not prefix.startswith("--") or len(prefix) < 4:
        return None
    if not any(s != prefix for s in ctx.db.option_strings_starting(prefix)):
        return None
    # (the releases in between match nothing: the index finds the newest that does)
    v = ctx.db.newest_abbreviating(prefix, ctx.db.position(ctx.target))
    if v is None:
        return None
    s = ctx.db.surface(v)
    dests = {s.by_string[c].dest: s.by_string[c].name for c in s.prefix_matches(prefix)}
    return next(iter(dests.values())) if len(dests) == 1 else None


def _timeline_status(ctx: LintContext, arg: ParsedArg, base: str, hist) -> Status:
    last = ctx.db.last_accepting(hist, ctx.target)
    if base == "-O" and arg.written.startswith("-O.") and last is not None:
        last = _last_reading_o_dotted(ctx) or last
    if last is not None:
        succ, safe, note, noop, evidence = _successor(ctx, base, last)
        st = Status(arg, "removed", base, last=last, removed_in=_next_version(ctx, last),
                    noop_at_removal=noop, evidence=evidence, successor_note=note)
        if succ and target_accepts(ctx, succ):
            st.state, st.successor, st.successor_safe = "renamed", succ, safe
        elif succ:
            st.successor_note = note or _unaccepted_successor(ctx, succ, arg)
        return st
    first = ctx.db.first_accepting_after(hist, ctx.target)
    return Status(arg, "too-new", base, first=first)


def _compute_kwarg(ctx: LintContext, arg: ParsedArg) -> Status:
    name = arg.canonical
    s = ctx.surface
    entry = ctx.launch.entry if ctx.launch is not None else ""
    is_async = entry == "AsyncEngineArgs"
    # LLM(...) takes its own parameters besides EngineArgs' fields; other tools' launchers hand
    # what they pass on to LLM(...)
    is_llm = entry == "LLM" or entry in FOREIGN_LAUNCHERS
    if name in s.engine_args or is_llm and name in s.llm_params or is_async and name in s.async_engine_args:
        return Status(arg, "ok", name)
    hist = ctx.db.engine_arg_history(name)
    if hist is None and is_async:
        hist = ctx.db.async_engine_arg_history(name)
    if hist is None and is_llm:
        hist = ctx.db.llm_param_history(name)
    if hist is None:
        close = closest(s, name, lambda: sorted(set(s.engine_args) | (set(s.llm_params) if is_llm else set())),
                        0.75, "kwarg")
        return Status(arg, "unknown", name, suggestion=close)
    last = ctx.db.last_accepting(hist, ctx.target)
    if last is not None:
        succ, safe, note, noop, evidence = _successor(ctx, "--" + name.replace("_", "-"), last)
        st = Status(arg, "removed", name, last=last, removed_in=_next_version(ctx, last),
                    noop_at_removal=noop, evidence=evidence, successor_note=note)
        if succ and "." not in succ:
            field = succ.lstrip("-").replace("-", "_")
            if field in s.engine_args:
                st.state, st.successor, st.successor_safe = "renamed", field, safe
        elif succ:
            st.successor_note = note or f"moved into `{succ}`, which has no keyword form"
        return st
    return Status(arg, "too-new", name, first=ctx.db.first_accepting_after(hist, ctx.target))


# ------------------------------------------------------------------------------- edits


def rename_edits(arg: ParsedArg, new_option: str, dashes: bool = False) -> Optional[list[Edit]]:
    """Rewrite the written option name, keeping its value and ``=`` style (and its ``_``
    spelling, unless ``dashes``: for a program that does not rewrite it)."""
    if arg.name_span is None:
        return None
    if arg.key_style == "env" and "." in new_option:
        return None  # (a container's variable names no nested key: `SM_VLLM_A_B` is `--a-b`)
    if arg.style == "kwargs" and arg.key_style != "cli":
        text = new_option.lstrip("-").replace("-", "_")
    elif dashes:
        text = new_option
    else:
        text = spell_like(new_option, arg)
    return [Edit(arg.name_span, text)]


def model_positional_fix(ctx: LintContext, arg: ParsedArg) -> Optional[Fix]:
    """Drop the word ``--model`` (``--model=`` of an inline value) of ``vllm serve`` so that its
    value is the positional model (VL110 where the release refuses `--model`, VL106 where it is
    deprecated)."""
    tok = arg.tokens[0] if arg.tokens else None
    if tok is None or arg.name_span is None or tok.opaque:
        return None
    if arg.inline_value:
        edits = [Edit(Span(arg.name_span.start, arg.name_span.end + 1), "")]
    elif arg.value_tokens and ctx.launch is not None and ctx.launch.delete_tokens is not None and tok.span:
        edits = ctx.launch.delete_tokens([tok])
        if edits is None:
            return None
    else:
        return None
    return Fix(list(edits), "safe", "Give the model as the positional argument")


def delete_edits(ctx: LintContext, arg: ParsedArg) -> Optional[list[Edit]]:
    if arg.keyed is not None:
        if arg.keyed.delete_span is None:
            return None
        return [_whole_line(ctx.data, Edit(arg.keyed.delete_span, ""))]
    launch = ctx.launch
    if launch is None or launch.delete_tokens is None or not arg.tokens:
        return None
    if any(t.span is None for t in arg.tokens):
        return None
    edits = launch.delete_tokens(list(arg.tokens))
    return None if edits is None else [_whole_line(ctx.data, e) for e in edits]


def _whole_line(data: bytes, e: Edit) -> Edit:
    """A deletion that removes a line's content and its newline takes the line's indentation too.

    Front-ends that see embedded text (a shell script in a YAML ``|`` block, a Markdown fence)
    measure "the whole line" without the container's indentation; left alone, that indentation
    would be glued to the next line."""
    if e.content or not data or e.span.end == 0 or data[e.span.end - 1:e.span.end] != b"\n":
        return e
    start = data.rfind(b"\n", 0, e.span.start) + 1
    if start < e.span.start and not data[start:e.span.start].strip(b" \t"):
        return Edit(Span(start, e.span.end), "")
    return e


def value_edits(ctx: LintContext, arg: ParsedArg, old: str, new: str) -> Optional[list[Edit]]:
    """Replace the value ``old`` of a single-valued argument by ``new``, only where the bytes that
    spell it are ``old`` verbatim (an argv word or the ``=value`` part of one, a YAML / keyword
    value, quotes kept); None where that cannot be done byte-exactly."""
    raw = old.encode()
    if arg.keyed is not None:
        span = arg.keyed.value_text_span or arg.keyed.value_span
        if span is not None and ctx.data[span.start:span.end] == raw:
            return [Edit(span, new)]
        return None
    words = arg.value_tokens or (arg.tokens if arg.inline_value else [])
    if len(words) != 1:
        return None
    tok = words[0]
    if tok.text_span is None or not (tok.text == old or tok.text.endswith("=" + old)):
        return None
    span = Span(tok.text_span.end - len(raw), tok.text_span.end)
    if ctx.data[span.start:span.end] != raw:
        return None
    return [Edit(span, new)]
