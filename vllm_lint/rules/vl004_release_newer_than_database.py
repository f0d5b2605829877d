"""## What it does
Reports where a file names a vLLM release newer than every release in vllm-lint's flag database:
an image tag (`vllm/vllm-openai:v0.34.0`), a `FROM`, a `pip install vllm==0.34.0`, a vendor tag
that holds such a release, or a comment stating it (`# tested with vLLM 0.34.0`), when that is
what chose the launch's release. The launch is checked against the newest release the database
has, and the finding says so and names the command that adds the newer one.

## Why is this bad?
Every finding is true or false only at a release. A release the database does not have cannot
be checked: options it added look unknown, and what it removed still looks accepted. Checking
against the newest known release is the closest answer, but it is not the file's release, and
it should not pass in silence (the summary counts these files too).

## Example
```dockerfile
FROM vllm/vllm-openai:v0.34.0
CMD ["--model", "m"]
```
`Dockerfile:1:23: VL004 warning: vLLM 0.34.0 is newer than the flag database (newest 0.33.0): checked against 0.33.0; run `vllm-lint db update` to add it`

A release older than the newest that PyPI never had (`v0.8.6`) is not reported: it is checked
against the newest of its series, and `--verbose` says so. With `--target-version` the file's
own release is not used, and the rule stays silent.

## Fix safety
No fix: update the database (`vllm-lint db update`, or a newer vllm-lint), or choose the
release with `--target-version`.

## Evidence
Behaviour of the tool itself: the database lists the releases it covers (`vllm-lint db status`);
the release a file names is read as `README.md` "Which release is checked" describes
(`vllm_lint/pipeline/targeting.py`, `vllm_lint/knowledge/image_tags.py`).
"""

from __future__ import annotations

from . import _facts
from .base import LintContext, Rule

RULE = Rule(code="VL004", name="release-newer-than-database",
            summary="the file names a vLLM release newer than the flag database: checked against its newest",
            severity="warning",
            triggers=frozenset((_facts.NEWER,)))


@RULE.check
def check(ctx: LintContext):
    choice = ctx.target_choice
    if choice is None or choice.kind != "newer" or choice.hint is None or choice.hint.span is None:
        return  # (a release named by a file around this one is reported in that file)
    yield ctx.diag(RULE, f"vLLM {choice.named} is newer than the flag database (newest {ctx.db.newest}): "
                         f"checked against {ctx.target}; run `vllm-lint db update` to add it", choice.hint.span)
