"""## What it does
Finds `VLLM_*` environment variables that an earlier release read and the target release no
longer reads (`VLLM_USE_V1` after the V0 engine was removed, `VLLM_ATTENTION_BACKEND` after it
became `--attention-backend`), and variables whose presence makes the target release refuse to
start (`VLLM_MARLIN_INPUT_DTYPE` at 0.34.0), in `export` lines, `env:` blocks, `ENV`,
`docker run -e`, and `os.environ[...]`.

## Why is this bad?
Up to 0.33, vLLM ignores a variable it no longer reads, so nothing fails: the setting the author
relied on silently stops applying (a backend choice, a V0 fallback, a memory knob). From 0.34.0,
start-up checks the environment (`validate_environ`, on every start): a variable on the release's
list of removed variables makes it stop with a `ValueError` whatever its value, with a migration
(`VLLM_MARLIN_INPUT_DTYPE`: `--quantization humming`), and some variables are refused for some
values (`VLLM_USE_V2_MODEL_RUNNER` for anything but `1`, which is accepted and ignored). Other
removed variables are still ignored (a warning). With `--fail-on-environ-validation`, 0.34.0
also refuses any `VLLM_*` name it does not know (VL202).

A platform plugin's variable has the plugin's own timeline (`flag_db/plugins/`): on a launch that
runs the plugin (its image, or the file installing it) and no fork that reads the name, a
variable that earlier releases of the plugin read and the plugin's release does not is reported
the same way (`VLLM_LINEAR_BUCKETING` after vllm-gaudi 0.24.0). The plugin's release is the one the
file pins (`vllm-gaudi==0.24.0`, `vllm-gaudi.git@v0.24.0`), else its newest in the database (said
so); a pin the database does not hold is not checked.

## Example
```yaml
env:
  - name: VLLM_USE_V1
    value: "0"
```
At 0.27.1: `VL201 VLLM_USE_V1 is no longer read by vLLM 0.27.1 (last read by 0.10.2)`.
```bash
VLLM_MARLIN_INPUT_DTYPE=int8 vllm serve m
```
At 0.34.0: `VL201 error: VLLM_MARLIN_INPUT_DTYPE makes vLLM 0.34.0 refuse to start (a removed
variable, any value); vLLM's migration: --quantization humming, VLLM_HUMMING_INPUT_QUANT_CONFIG`.

## Fix safety
No automatic fix: removing the variable is only a cleanup when its effect is gone anyway, and
the replacement (if any) is named in the message.

## Evidence
The keys of `vllm/envs.py`'s `environment_variables` at each release, in `flag_db/`; the
variables start-up refuses (`removed_environment_variables` and the checks of
`validate_environ`, 0.34.0+) as each release's `env_refused`.

## Severity
Error where the target refuses to start with the variable's value (or with any value); a warning
where it ignores it, or where the value is not known statically and only some values are refused.
"""

from .base import VLLM_VARIABLES, LintContext, Rule

RULE = Rule(code="VL201", name="removed-env-var",
            summary="VLLM_ variable the target no longer reads, or refuses at start",
            severity="warning",
            triggers=frozenset((VLLM_VARIABLES,)))


@RULE.check
def check(ctx: LintContext):
    from ._env_status import env_in_state  # (at the check: a launch setting no variable never imports it; issue 31)

    refused = ctx.surface.env_refused
    if refused:
        yield from _refusals(ctx, refused)
    for env, st in env_in_state(ctx, "removed"):
        if env.name in refused:
            continue
        msg = f"`{env.name}` is no longer read by vLLM {ctx.target} (last read by {st.last})"
        if st.successor:
            msg += f"; use `{st.successor}`"
        if st.note:
            msg += f": {st.note}"
        yield ctx.diag(RULE, msg, env.name_span or env.value_span, option=env.name)
    for env, st in env_in_state(ctx, "plugin-removed"):
        # a platform plugin's own timeline: the launch runs the plugin, whose release no longer reads it
        dist, (release, how) = st.plugins[0], st.checked
        msg = f"`{env.name}` is no longer read by {dist} {release} (last read by {st.last}), the platform plugin this launch runs"
        if how == "newest":
            msg += f" (no {dist} release named: checked at {release}, the newest)"
        yield ctx.diag(RULE, msg, env.name_span or env.value_span, option=env.name)


def _refusals(ctx: LintContext, refused: dict):
    from ._env_status import is_vllm_var

    for env in ctx.env:
        entry = refused.get(env.name) if is_vllm_var(env.name) else None
        if not entry:
            continue
        how = entry.get("refused")
        values = [str(v) for v in entry.get("values") or []]
        value = None if env.value_opaque else env.value
        span = env.name_span or env.value_span
        if how == "any":
            msg = f"`{env.name}` makes vLLM {ctx.target} refuse to start (a removed variable, any value)"
            moved = _migration(entry.get("migration") or {})
            if moved:
                msg += f"; vLLM's migration: {moved}"
            yield ctx.diag(RULE, msg, span, option=env.name, severity="error")
            continue
        if how not in ("except", "only") or not values:
            continue
        shown = ", ".join(f"`{v}`" for v in values)
        rule_text = f"anything but {shown}" if how == "except" else shown
        if value is None:
            yield ctx.diag(RULE, f"`{env.name}` makes vLLM {ctx.target} refuse to start when it is {rule_text}; "
                                 "its value here is not known", span, option=env.name)
        elif (value in values) == (how == "only"):
            yield ctx.diag(RULE, f"`{env.name}={value}` makes vLLM {ctx.target} refuse to start "
                                 f"(it accepts {'only ' + shown if how == 'except' else 'any value but ' + shown}); "
                                 "unset it", span, option=env.name, severity="error")
        elif value in (entry.get("ignored") or []):
            yield ctx.diag(RULE, f"`{env.name}={value}` is accepted and ignored by vLLM {ctx.target}; unset it",
                           span, option=env.name)


def _migration(moved: dict) -> str:
    parts = [f"`{' '.join(words)}`" for words in moved.get("options") or [] if isinstance(words, list)]
    parts += [f"`{name}`" for name in moved.get("env") or []]
    return ", ".join(parts)
