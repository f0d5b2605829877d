"""## What it does
Finds secrets written in plain text into a manifest, script or Dockerfile: a literal
`--api-key` value (or `api_key:` in a config file), and literal values of `HF_TOKEN`,
`HUGGING_FACE_HUB_TOKEN` and `VLLM_API_KEY` in the launch's environment.

A variable reference whose value the file does not write (`$HF_TOKEN`, `${API_KEY}`, `$(API_KEY)`
from the caller's environment or a secret), a Kubernetes `valueFrom` secret reference, a template
expression, or any value we cannot read statically is fine (a variable the same file assigns a
literal key is that key: `KEY=sk-...` then `--api-key "$KEY"` is reported, naming where it is
written: `docs/antipatterns.md`, values through variables; a variable reported where it is written,
`export HF_TOKEN=hf_...` then `--api-key "$HF_TOKEN"`, is reported there only), and so
are obvious placeholders (`<your-token>`, `hf_xxx`, `changeme`, `EMPTY`, `...`, the name of the
secret in capitals such as `HUGGINGFACE_TOKEN`). Code blocks in
Markdown documentation are not checked: examples there show literal example keys on purpose.

## Why is this bad?
Anything committed is readable by everyone with access to the repository, its forks, CI logs and
image layers, and stays in the history after it is removed. A Hugging Face token can download
gated models on your account; an API key opens the server to anyone who has read the file.

## Example
```yaml
env:
- name: HF_TOKEN
  value: hf_AbCdEf0123456789          # VL501
- name: HF_TOKEN
  valueFrom: {secretKeyRef: {name: hf, key: token}}   # fine
```

## Fix safety
No fix: the secret must be rotated and moved to a secret store, which a linter cannot do.

## Evidence
vLLM reads `--api-key` / `VLLM_API_KEY` as the server's bearer token (`vllm/entrypoints/openai/cli_args.py`,
`vllm/envs.py`); `HF_TOKEN` / `HUGGING_FACE_HUB_TOKEN` are the Hugging Face hub credentials read by
`huggingface_hub`. Kubernetes documents `valueFrom.secretKeyRef` for this purpose.
"""

import re

from ..knowledge.layout import dest_of
from ..record import lazy_re
from .base import LintContext, Rule

_ENV_SECRETS = ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "VLLM_API_KEY")

RULE = Rule(code="VL501", name="plaintext-secret",
            summary="API key or Hugging Face token written in plain text",
            severity="warning", secret=True,
            triggers=frozenset((*_ENV_SECRETS, "api_key")))

# the options whose values are credentials: no rule's message quotes them (a message reaches CI
# logs, SARIF uploads and the editor's problem list)
SECRET_DESTS = frozenset({"api_key", "hf_token"})
_PLACEHOLDER = lazy_re(
    r"^(?:<.*>|\{\{.*\}\}|\$.*|.*\$\{.*|x+|\*+|\.+|hf_x+|hf_\.+|hf_\*+|hf_<.*>|empty|none|null|changeme|change-me|"
    r"secret|token|api[-_]?key|your[-_ ].*|my[-_ ].*|<.*|.*(?:xxxx|\.\.\.).*|redacted|todo|fixme|dummy|example.*|"
    r"placeholder|test|fake)$", re.I)
# the name of a secret written where its value belongs (``hf_token: HUGGINGFACE_TOKEN``): a value to fill in
_SECRET_NAME = lazy_re(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:TOKEN|KEY|SECRET|PASSWORD)$|^(?:TOKEN|KEY|SECRET)_[A-Z0-9_]+$")


def is_literal_secret(value) -> bool:
    if not isinstance(value, str):
        return False
    v = value.strip().strip("'\"")
    if len(v) < 6 or any(c.isspace() for c in v):
        return False
    if any(c in v for c in "$`{}") or _PLACEHOLDER.match(v) or _SECRET_NAME.match(v):
        return False
    return True


@RULE.check
def check(ctx: LintContext):
    if ctx.documentation:  # examples in documentation are not deployments
        return
    reported = set()  # the variables reported where their value is written
    for e in ctx.env:
        if e.name in _ENV_SECRETS and not e.value_opaque and is_literal_secret(e.value):
            reported.add(e.name)
            yield ctx.diag(RULE, f"{e.name} is written in plain text: use a secret reference (Kubernetes valueFrom.secretKeyRef, "
                                 f"a compose/CI secret, or an environment variable set outside the file) and rotate it",
                           e.value_span or e.name_span, option=e.name)
    if ctx.launch is None:
        return
    for arg in ctx.args:
        if arg.positional or dest_of(arg) != "api_key" or arg.value_opaque:
            continue
        if is_literal_secret(arg.value):
            origins = [name for t in arg.value_tokens if t.origin for name, _sp in t.origin]
            if origins and all(name in reported for name in origins):
                continue  # (`export HF_TOKEN=hf_...` then `--api-key "$HF_TOKEN"`: one secret, reported once)
            span = (arg.value_tokens[0].span if arg.value_tokens else None) or arg.report_span
            yield ctx.diag(RULE, "the API key is written in plain text: pass it through VLLM_API_KEY from a secret store "
                                 "and rotate it", span, option="--api-key")
