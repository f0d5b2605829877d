"""## What it does
Finds `VLLM_*` environment variables that no vLLM release ever read, and suggests the nearest
variable the target release reads.

## Why is this bad?
A misspelt variable (`VLLM_ATTENTION_BACKEN`) is ignored without a word; the setting never
applies.

Only names that reach a vLLM process are checked (`vllm_lint/reach.py`): not a Dockerfile `ARG` or
an `ENV` of a build stage, not a variable the file expands itself (`${VLLM_VERSION}` in a URL, a
CI workflow's `${{ env.VLLM_MODEL }}` as the model argument) or
hands on as its own: a bare `docker build --build-arg VLLM_REF`, a script the file runs that
expands it, a Dockerfile beside it or above it in the repository that declares `ARG VLLM_REF`, a
Compose file there that substitutes it (`image: ${VLLM_IMAGE:-...}` fed by the `.env` file).
Names vLLM's build reads (`setup.py`, CMake `$ENV{...}`, the scripts its Dockerfiles call) and
names it reads outside `envs.py` are known per release and never reported here.

A platform plugin's variable (`VLLM_SPYRE_USE_CB`, `VLLM_ASCEND_ENABLE_MLAPO`: the plugin releases
in `flag_db/plugins/`) is not unknown: on a launch that runs on that plugin (its image names the
plugin, or the file installs or pins the plugin's package) it is silent; on a launch known to run
elsewhere (a vLLM image of its own, or another plugin) it is a warning, "read only by vllm-spyre
(platform plugin)"; where nothing says which platform runs the launch it is silent, and `--verbose`
says why. On a plugin's launch, a misspelt name is also matched against the plugin's own variables.
A public fork's variable (`VLLM_USE_B12X_MOE` of the B12X build `local-inference-lab/vllm`: the
table `vllm_lint/data/forks.tsv`) gets the same treatment: silent where nothing says what runs the
launch, a warning "read only by local-inference-lab/vllm (a fork of vLLM)" on a vLLM image of its own.
A file that builds vLLM from a fork's repository (a `git clone` or a `git+` install of any GitHub
repository named `vllm` or `vllm-fork` outside vllm-project: `<owner>/vllm`) runs that fork,
whose own variables no table here holds: an unknown name there is silent, and `--verbose` says
why.

## Severity
Warning for a plugin's variable on a launch known to run elsewhere. Warning when the name is close to one the target release reads (a likely typo); information
otherwise (vLLM itself only logs unknown `VLLM_*` names).

## Example
```bash
export VLLM_WORKER_MULTIPROC_METHD=spawn
```
`VL202 VLLM_WORKER_MULTIPROC_METHD is not read by any vLLM release; did you mean VLLM_WORKER_MULTIPROC_METHOD?`

## Fix safety
No automatic fix.

## Evidence
The union of `vllm/envs.py` keys over every release in `flag_db/`, and the environment modules of
the platform plugins' releases in `flag_db/plugins/` (`vllm-lint db plugin`), and the forks'
environment modules read at a commit (`vllm_lint/data/forks.tsv`, `tools/fork_env.py`). Forks and
plugins the database does not hold read variables of their own; ignore the rule for them per file
or by code.
"""

from .base import VLLM_VARIABLES, LintContext, Rule

RULE = Rule(code="VL202", name="unknown-env-var", summary="VLLM_ variable no release reads",
            severity="warning",
            triggers=frozenset((VLLM_VARIABLES,)))


def _known_image(ctx: LintContext):
    """The vLLM image the launch (or its file) names, which then runs it, or None."""
    from ..images import image_is_vllm

    images = [getattr(ctx.launch, "image", None)]
    if ctx.extraction is not None:
        images += [h.image for h in ctx.extraction.version_hints if h.image]
    # an image that may run a fork (rocm/vllm:latest) says nothing of where the launch runs
    from ..knowledge.forks import forks_maybe_of_image

    return next((i for i in images if i and image_is_vllm(i) and not forks_maybe_of_image(i)), None)


@RULE.check
def check(ctx: LintContext):
    from ._env_status import env_in_state, forks_built, launch_runs_on  # (at the check: a launch setting no variable never imports it; issue 31)

    for env, st in env_in_state(ctx, "unknown"):
        span = env.name_span or env.value_span
        if st.plugins or st.forks:
            # a platform plugin's or a fork's variable where the launch shows no sign of it: a
            # finding only where the launch is known to run elsewhere (an image of vLLM's own);
            # with no image or pin at all what runs is not known, and the variable may well be read
            by = " and ".join([f"{p} (platform plugin)" for p in st.plugins]
                              + [f"{f} (a fork of vLLM)" for f in st.forks])
            what = "the plugin" if not st.forks else "the fork" if not st.plugins else "the plugin or fork"
            elsewhere = _known_image(ctx) or ", ".join(sorted(launch_runs_on(ctx))) or None
            if elsewhere is None:
                ctx.skip(RULE, f"`{env.name}` is read by {by}; the launch names no image or "
                               f"pin, so whether it runs on {what} is not known")
                continue
            yield ctx.diag(RULE, f"`{env.name}` is read only by {by}, not by vLLM; "
                                 f"this launch runs `{elsewhere}`, not {what}", span, option=env.name,
                           severity="warning")
            continue
        msg = f"`{env.name}` is not read by any vLLM release"
        built = forks_built(ctx)
        if built:
            # the file builds a fork of vLLM from its repository: the fork reads variables of its
            # own, which the database does not hold
            ctx.skip(RULE, msg + (f" (nearest: `{st.suggestion}`)" if st.suggestion else "")
                     + f", but the file builds the fork {', '.join(built)}, which may read it")
            continue
        if st.suggestion:
            msg += f"; did you mean `{st.suggestion}`" + (f" (read by {st.suggestion_plugin})" if st.suggestion_plugin else "") + "?"
        # a likely typo is a likely mistake (warning); any other unknown name vLLM only logs (info)
        yield ctx.diag(RULE, msg, span, option=env.name, severity="warning" if st.suggestion else "info")
