"""## What it does
Finds server settings that widen what a client or a model repository can do:

* `VLLM_SERVER_DEV_MODE=1` (warning): enables development endpoints on the API server
  (e.g. resetting caches, sleeping/waking the engine, `collective_rpc`) that are not meant to be
  reachable in production;
* `--allowed-local-media-path /` (warning): lets any API client make the server read any file the
  process can read (`file://` media URLs);
* `--trust-remote-code` on a hub model without a pinned `--revision` / `--code-revision`
  (informational): Python code the model repository ships runs in the server, and whatever its
  owner pushes next runs on the next start. The model table (`vllm_lint/data/models.tsv`,
  `remote_code`) says which official repositories ship code (their `config.json` names it in
  `auto_map`) and which do not (a transformers-native `model_type` and no `auto_map`): for the
  latter the option changes nothing and the rule stays silent (`--verbose` says why). A model the
  table does not know is not reported either (whether its repository ships code is not known, and
  most do not): advice only where it changes something. Documentation whose subject is the
  setting (a file named after it, or a section whose heading names it) is not told about it.

## Why is this bad?
Each turns a request or a repository push into code execution or file disclosure on the server.

## Example
```bash
VLLM_SERVER_DEV_MODE=1 vllm serve some-org/model --trust-remote-code --allowed-local-media-path /
```

## Fix safety
No fix.

## Evidence
vLLM's help text for `--allowed-local-media-path` ("This is a security risk. Should only be enabled
in trusted environments."), vLLM's security documentation (`docs/usage/security.md`) on
`VLLM_SERVER_DEV_MODE` and development endpoints, and `--trust-remote-code` / `--revision` /
`--code-revision` help texts (the revision pins the model's code). Local model paths are not
reported for remote code (their code does not change underneath you).
"""

import os
import re

from ..knowledge.layout import as_bool, dest_of, env_lookup, layout
from ..knowledge.models import remote_code
from ..record import lazy_re
from .base import LintContext, Rule

RULE = Rule(code="VL502", name="risky-server-setting",
            summary="development mode, unrestricted local media path, or unpinned remote code",
            severity="warning",
            triggers=frozenset(("VLLM_SERVER_DEV_MODE", "allowed_local_media_path", "trust_remote_code")))

_REPO_ID = lazy_re(r"^[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*$")
_PINNED = lazy_re(r"^[0-9a-f]{7,40}$|^v?\d+(\.\d+)*$")
_SUBJECT = lazy_re(r"trust[-_ ]?remote[-_ ]?code|remote[-_ ]code", re.IGNORECASE)
_HEADING = lazy_re(rb"^ {0,3}#{1,6}[ \t]+([^\r\n]*)", re.M)


def _documents_the_setting(ctx: LintContext) -> bool:
    """A documentation file named after remote code, or the launch sits in a section whose heading
    names it: the example shows the setting on purpose."""
    if not ctx.documentation:
        return False
    if _SUBJECT.search(os.path.basename(ctx.path)):
        return True
    if ctx.launch is None or not isinstance(ctx.data, bytes):
        return False
    heading = None
    for m in _HEADING.finditer(ctx.data, 0, ctx.launch.span.start):
        heading = m.group(1)
    return heading is not None and _SUBJECT.search(heading.decode("utf-8", "replace")) is not None


@RULE.check
def check(ctx: LintContext):
    e = env_lookup(ctx, "VLLM_SERVER_DEV_MODE", file_wide=False)
    if e is not None and not e.value_opaque and as_bool(e.value) is True:
        yield ctx.diag(RULE, "VLLM_SERVER_DEV_MODE=1 exposes development endpoints on the API server; never enable it "
                             "where clients are not fully trusted", e.name_span or e.value_span,
                       option="VLLM_SERVER_DEV_MODE")
    if ctx.launch is None:
        return
    lay = layout(ctx)
    trust = None
    for arg in ctx.args:
        d = dest_of(arg)
        if d == "allowed_local_media_path" and not arg.value_opaque and isinstance(arg.value, str):
            if arg.value.strip().rstrip("/") == "" and arg.value.strip() != "":
                yield ctx.diag(RULE, "--allowed-local-media-path / lets any API client read any file the server can read; "
                                     "point it at the media directory only", arg.report_span,
                               option="--allowed-local-media-path")
        elif d == "trust_remote_code":
            trust = arg
    if trust is None or trust.value_opaque:
        return
    if trust.option is not None and trust.written in trust.option.negations:
        return
    if trust.value is not None and as_bool(trust.value) is not True:
        return
    model = lay.model.value if lay.model.known else None
    if not isinstance(model, str) or not _REPO_ID.match(model.strip()):
        return
    for key in ("revision", "code_revision"):
        a = lay.by_dest.get(key)
        if a is not None:
            if a.value_opaque:
                return
            if isinstance(a.value, str) and _PINNED.match(a.value.strip()):
                return
    if lay.hidden:
        ctx.skip(RULE, "the launch may pass a revision we cannot see")
        return
    if _documents_the_setting(ctx):
        ctx.skip(RULE, "the documentation's subject is remote code")
        return
    ships = remote_code(model)
    if ships is None:
        # advice only where it changes something for this model: the table does not say whether
        # its repository ships code (most repositories do not), so nothing is claimed
        ctx.skip(RULE, f"whether {model}'s repository ships code is not known (the model table does not say)")
        return
    if not ships[0]:
        ctx.skip(RULE, f"--trust-remote-code changes nothing for {model}: its repository ships no code ({ships[1]})")
        return
    yield ctx.diag(RULE, f"--trust-remote-code runs {model}'s repository code without a pinned revision: pin "
                         f"--revision (and --code-revision) to a commit", trust.report_span,
                   option="--trust-remote-code", severity="info")
