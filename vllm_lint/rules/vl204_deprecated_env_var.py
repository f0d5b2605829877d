"""## What it does
Finds `VLLM_*` environment variables that the target release still reads but has deprecated,
and names the replacement (a variable or an option).

## Why is this bad?
Deprecated variables disappear a few releases later, silently (see VL201).

## Example
`VL204 VLLM_ATTENTION_BACKEND is deprecated at vLLM 0.13.0; use --attention-backend`

## Fix safety
No automatic fix: moving a variable to an option changes two places in different formats.

## Evidence
Deprecations scraped from `vllm/envs.py` where the source marks them, and the curated overlay
(`flag_db/overlays/renames.json`, section `env`) with evidence per entry.
"""

from .base import VLLM_VARIABLES, LintContext, Rule

RULE = Rule(code="VL204", name="deprecated-env-var", summary="VLLM_ variable deprecated at the target",
            severity="warning",
            triggers=frozenset((VLLM_VARIABLES,)))


@RULE.check
def check(ctx: LintContext):
    from ._env_status import env_in_state  # (at the check: a launch setting no variable never imports it; issue 31)

    for env, st in env_in_state(ctx, "ok"):
        rec = ctx.surface.env.get(env.name) or {}
        dep = rec.get("deprecated")
        if not dep and not (ctx.db.env_overlay(env.name) or {}).get("deprecated_since"):
            continue
        ov = ctx.db.env_overlay(env.name) or {}
        since = ov.get("deprecated_since")
        if not dep and since:
            from ..surface.version import Version
            if Version(ctx.target) < Version(since):
                continue
        succ = (dep or {}).get("successor") if isinstance(dep, dict) else None
        succ = succ or st.successor
        msg = f"`{env.name}` is deprecated at vLLM {ctx.target}"
        if succ:
            msg += f"; use `{succ}`"
        yield ctx.diag(RULE, msg, env.name_span or env.value_span, option=env.name)
