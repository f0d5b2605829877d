"""## What it does
Says, once per file, that part of it could not be read as its format and was skipped: Helm
template expressions (`{{ .Values.x }}`) in a values file or chart, or the `${NAME}` placeholders
of a manifest's template (`deploy.yaml.tpl`), for instance; expressions in comments are read as
nothing and not counted (a values file whose only expressions are commented out is silent). A warning when
what was skipped changes how the file runs: a Dockerfile `CMD [...]` or `ENTRYPOINT [...]` with a
comment after the `]` (`CMD ["vllm", "serve", "m"]  # vllm-lint: ignore[VL101]`) is not exec form
to Docker, which runs the whole line through `/bin/sh -c`; the launch in it is not checked, and
the container will not start as written.

## Why is this bad?
It is not bad in itself; it is reported so that a clean result never hides content the linter
did not look at (templated YAML that tools skip silently is a well-known source of missed
deprecations).

## Example
`templates/deploy.yaml:12:9: VL002 Helm template expressions were skipped (3); options they produce are not checked`

## Fix safety
No fix. Informational, except the Dockerfile case (a warning).

## Evidence
Behaviour of the tool itself.
"""

from .base import Rule

RULE = Rule(code="VL002", name="skipped-content", summary="part of a file was not read",
            severity="info")
# Emitted by the engine from front-end notes.
