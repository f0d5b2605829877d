"""## What it does
Finds command words that repeat the `vllm/vllm-openai` image's own entrypoint: `docker run
vllm/vllm-openai:v0.27.1 vllm serve m`, compose `command: ["vllm", "serve", ...]`, Kubernetes
`args: ["vllm", "serve", ...]` or a Dockerfile's `CMD ["vllm", "serve", ...]` (`FROM` the image,
no `ENTRYPOINT` of its own) on an image whose entrypoint already is `vllm serve`, and
`command: ["serve", "m", ...]`, which serves a model named `serve`.

## Why is this bad?
Arguments written after the image (`docker run IMAGE ...`, compose `command:`, Kubernetes
`args:`, a derived image's `CMD`) are appended to the image's entrypoint; only `--entrypoint`,
Kubernetes `command:` or an `ENTRYPOINT` of the Dockerfile's own replace it. The container runs `vllm serve vllm serve m ...` and vLLM refuses it, or serves
the wrong model.

## Example
```bash
docker run --gpus all vllm/vllm-openai:v0.27.1 vllm serve m
```
`VL111 the image's entrypoint at vLLM 0.27.1 already is `vllm serve`: these words repeat it`

## Fix safety
Safe where the image runs `vllm serve`: the fix drops the repeated words, so the container runs
`vllm serve m ...` as written. Not offered in YAML lists, nor where the image runs the
api_server module.

## Evidence
The `ENTRYPOINT` of the `vllm-openai` stage of vLLM's own Dockerfile, per release
(`era.image_entrypoint` in `flag_db/releases/*.json`). Silent where the release file does not
record it.
"""

from __future__ import annotations

from . import _facts
from .base import Fix, LintContext, Rule

RULE = Rule(code="VL111", name="image-entrypoint-repeated", summary="command repeats the image's entrypoint",
            severity="error", fix="safe",
            triggers=frozenset((_facts.IMAGE,)))

_SHOWN = {"vllm serve": "vllm serve", "openai.api_server": "python3 -m vllm.entrypoints.openai.api_server"}


@RULE.check
def check(ctx: LintContext):
    launch = ctx.launch
    if launch is None or launch.style != "argv" or not launch.image:
        return
    runs = ctx.surface.image_runs
    if runs is None:
        return
    words = launch.image_cmd
    shown = _SHOWN[runs]
    if words:
        span = launch.image_cmd_delete
        fix = None
        if span is not None and runs == "vllm serve" and words[-1:] == ["serve"]:
            from ..launch import Edit

            fix = Fix([Edit(span, "")], "safe", f"Drop `{' '.join(words)}`: the image already runs `{shown}`")
        yield ctx.diag(RULE, f"the image's entrypoint at vLLM {ctx.target} already is `{shown}`: `{' '.join(words)}` "
                             f"repeats it, and the container runs `{shown} {' '.join(words)} ...`",
                       span or launch.span, fix=fix)
        return
    if launch.entry.startswith("docker:") and runs == "vllm serve" and launch.tokens:
        first = launch.tokens[0]
        if first.text == "serve" and not first.opaque and not first.splat:
            fix = None
            if launch.delete_tokens is not None and first.span is not None:
                edits = launch.delete_tokens([first])
                if edits:
                    fix = Fix(list(edits), "safe", "Drop `serve`: the image already runs `vllm serve`")
            yield ctx.diag(RULE, f"the image's entrypoint at vLLM {ctx.target} already is `vllm serve`: this "
                                 "serves a model named `serve`", first.span, fix=fix)
