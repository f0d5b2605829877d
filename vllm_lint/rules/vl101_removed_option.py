"""## What it does
Finds options that an earlier vLLM release accepted and the target release no longer accepts,
and names the last release that accepted them.

## Why is this bad?
vLLM's parser rejects unknown options at startup (`unrecognized arguments`), so a deploy script
that worked on the old release dies at pod start on the new one, after minutes of image pulls
and imports. Keyword arguments of `LLM(...)` / `EngineArgs(...)` fail the same way (`TypeError`).
Under a wrapper that reads its argv with `parse_known_args` (KServe's huggingfaceserver) the
option is dropped instead: the launch starts without the setting, a warning.

## Example
```bash
vllm serve meta-llama/Llama-3.1-8B-Instruct --swap-space 16 --num-scheduler-steps 8
```
At 0.27.1: `VL101 --swap-space was removed in vLLM 0.18.0 (last accepted by 0.17.1)`.

From 0.13 vLLM rewrites any word starting with `-O` to `--optimization-level <rest>`, so a
former dotted key `-O.mode=3` parses as the level `.mode=3`, which start-up refuses only when it is
the last level given: followed by `-O=2` or `--optimization-level 2` it is replaced, and the
finding is a **warning** (ignored) with a safe fix that removes it (checked with the real parsers of
0.13.0, 0.21.0, 0.24.0, 0.27.1 and 0.34.0).

## Fix safety
Safe where the database's curated overlay records the option as a no-op at removal (the setting
had no effect any more in the last releases that accepted it): deleting it cannot change
behaviour. Otherwise the deletion is unsafe (`--unsafe-fixes`): the target refuses the launch
with the option, so the launch starts only without it, but what it set is lost; the message says
what replaced it, if anything (`vllm-lint upgrade` applies these deletions and lists each for a
person to check).

## Evidence
The per-release database in `flag_db/` (scraped from each release's source) and
`flag_db/overlays/renames.json` (curated, each entry with its evidence).
"""

from ._status import args_in_state, delete_edits, dropping_wrapper, unaccepted
from .base import Fix, LintContext, Rule, option_state

RULE = Rule(code="VL101", name="removed-option", summary="option removed before the target release",
            severity="error", fix="safe",
            triggers=frozenset((option_state("removed"),)))


def _superseded_level(ctx: LintContext, arg) -> object:
    """From 0.13 vLLM rewrites a word ``-O.<key>`` to ``--optimization-level .<key>``, which the
    parser takes as any word and start-up validates: only the last optimization level given is
    validated. For such a word followed by another level (``-O.mode=3 -O=2``, ``--optimization-level
    2``), that later argument (the word is accepted and its value replaced), else None."""
    s = ctx.surface
    if not arg.written.startswith("-O.") or s.o_flag != "optimization-level" or s.o_dotted_is_cc \
            or arg.style != "argv":
        return None
    later = None
    for a in reversed(ctx.args):
        if a is arg:
            return later
        if a.style == "argv" and (a.option is not None and a.option.dest == "optimization_level"
                                  or a.written.startswith("-O.")):
            later = a
    return None


@RULE.check
def check(ctx: LintContext):
    for arg, st in args_in_state(ctx, "removed"):
        later = _superseded_level(ctx, arg)
        if later is not None and dropping_wrapper(ctx) is None:
            # (checked with the real parsers of 0.13.0, 0.21.0, 0.24.0, 0.27.1 and 0.34.0:
            # `-O.mode=3 -O=2` starts at level 2, `-O=2 -O.mode=3` is refused at start-up)
            edits = delete_edits(ctx, arg)
            later_text = later.written + ("" if later.json_path is not None or later.value is None
                                          else ("=" if later.inline_value else " ") + str(later.value))
            fix = (Fix(edits, "safe", f"Remove `{arg.written}` (the later `{later_text}` replaces it)")
                   if edits else None)
            yield ctx.diag(RULE, f"{st.shown} was removed in vLLM {st.removed_in} (last accepted by {st.last}); "
                                 f"{ctx.target} reads the word as an optimization level, which the later "
                                 f"`{later_text}` replaces: what it set is ignored; put compilation settings in "
                                 f"`-cc` / `--compilation-config`", arg.report_span, fix=fix, option=st.name,
                           severity="warning")
            continue
        where = f"removed in vLLM {st.removed_in}" if st.removed_in else "removed"
        refused, severity = unaccepted(ctx, f"{ctx.target} rejects it")
        if severity:
            refused = f"at {ctx.target} {refused}"
        msg = f"{st.shown} was {where} (last accepted by {st.last}); {refused}"
        if st.successor_note:
            msg += f"{'; ' if severity else ': '}{st.successor_note}"
        fix = None
        edits = delete_edits(ctx, arg)
        if edits and st.noop_at_removal:
            from ..surface.wording import NOOP_AT_REMOVAL  # (a module of people's words: when said)

            fix = Fix(edits, "safe", f"Remove `{arg.written}` ({NOOP_AT_REMOVAL})")
        elif edits and severity is None:  # refused (a wrapper that drops it starts without it anyway)
            fix = Fix(edits, "unsafe", f"Remove `{arg.written}` ({ctx.target} refuses it; what it set is lost)")
        yield ctx.diag(RULE, msg, arg.report_span, fix=fix, option=st.name, severity=severity)
