"""## What it does
Says, once per file, that part of it could not be read as its format and was skipped: Helm
template expressions (`{{ .Values.x }}`) in a values file or chart, for instance.

## Why is this bad?
It is not bad in itself; it is reported so that a clean result never hides content the linter
did not look at (templated YAML that tools skip silently is a well-known source of missed
deprecations).

## Example
`templates/deploy.yaml:12:9: VL002 Helm template expressions were skipped (3); options they produce are not checked`

## Fix safety
No fix. Informational.

## Evidence
Behaviour of the tool itself.
"""

from .base import Rule

RULE = Rule(code="VL002", name="skipped-content", summary="part of a file was not read",
            severity="info")
# Emitted by the engine from front-end notes.
