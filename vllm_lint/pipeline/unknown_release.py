"""A launch whose vLLM release is one of several (``Choice.kind`` "between"): it runs a vendor's
image or a fork whose release is not published (Red Hat OpenShift AI's
``quay.io/modh/vllm:rhoai-2.20-cuda``, a Triton month outside NVIDIA's matrix, a fork built at a
branch or commit), or a build dated between two releases (``rocm/vllm-dev:open-mi300-08052025``).

Such a launch does not run the newest release the way an unpinned install does: a finding true
only from some release on (a deprecation, a removal, a variable no longer read) or only until one
(a variable not read yet) would be true or false by chance. So the launch is checked at both ends
of the releases it may run: the newest (``Choice.high``, else ``Choice.release``) and the oldest
(:func:`lower_end`: ``Choice.low``, raised to the first release that accepts the launch as written,
else the database's oldest). A finding is raised only when it holds at both ends (its message says
so); the others are not raised, and --verbose names them. A finding that holds at every release (a
misspelt option, a secret in plain text) holds at both ends and is raised as always.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from ..argv import ArgvParser
from ..rules.base import Diagnostic, LintContext
from .targeting import Choice, accepted_range


def lower_end(db: Any, choice: Choice, args: list, env_names: list[str]) -> str:
    """The oldest release the launch may run: ``choice.low`` (None: the database's oldest),
    raised to the first release of the range that accepts the launch as written when that lies
    between it and ``choice.release``."""
    low = choice.low or db.versions[0]
    written = accepted_range(db, args, env_names)
    if written is not None and db.position(low) < db.position(written[0]) <= db.position(choice.release):
        low = written[0]
    return low


def _key(d: Diagnostic) -> tuple[str, Optional[str], Any]:
    return d.code, d.option, (d.span.start if d.span is not None else d.line)


def hold_at_both_ends(ctx: LintContext, choice: Choice, found: list[Diagnostic],
                      run: Callable[[LintContext], list[Diagnostic]], verbose: list[str], line: int) -> list[Diagnostic]:
    """The findings of ``found`` (at ``choice.release``) that the launch of ``ctx`` also gets at
    :func:`lower_end`; ``run`` runs the rules on a context (its --verbose notes are dropped: the
    lower end's own choice is not the launch's), ``verbose`` receives what was not raised."""
    db = ctx.db
    launch = ctx.launch
    low = lower_end(db, choice, ctx.args, [e.name for e in launch.env]) if launch is not None else (choice.low or db.versions[0])
    high = choice.high or choice.release
    other = high if choice.release != high else low  # (the end the launch was not checked at yet)
    if other == choice.release:
        return found
    surface = db.surface(other)
    args = (ArgvParser(surface, db, positional_model=surface.entry_has_positional_model(launch.entry)).parse(launch)
            if launch is not None else [])
    at_low = LintContext(ctx.path, launch, args, ctx.env, surface, db, other, f"{ctx.target_source}; the other end",
                         ctx.settings, ctx.data, extraction=ctx.extraction, file_format=ctx.file_format)
    at_low.target_choice = choice
    mark = len(verbose)
    low_keys = {_key(d) for d in run(at_low)}
    del verbose[mark:]
    kept, dropped = [], []
    for d in found:
        (kept if _key(d) in low_keys else dropped).append(d)
    for d in kept:
        if d.code[:3] in ("VL1", "VL2"):
            d.message += f" (the release it runs lies between {low} and {high}: this holds at both)"
    verbose.append(f"release between {low} and {high} at line {line}: checked at {choice.release} and at {other}"
                   + (f"; not raised, as they hold at one of them only: "
                      + ", ".join(f"{d.code}" + (f" {d.option}" if d.option else "") for d in dropped) if dropped else ""))
    return kept
