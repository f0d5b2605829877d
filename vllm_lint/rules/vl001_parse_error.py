"""## What it does
Reports a file that could not be read or parsed (broken YAML, invalid UTF-8 in Python, a binary
file passed explicitly, an unreadable path), with the line where parsing stopped. A file over 10 MiB,
or beyond a per-file budget (more than 1,000 launches, 20,000 words in its launches, 250,000 words
or 500,000 syntax nodes of shell, 20,000 template expressions), is reported as too large to read
rather than read for minutes.

## Why is this bad?
A file the linter cannot read is a file it cannot vouch for. Rather than skip it silently (the
most common complaint about deprecation linters that ignore unparseable manifests), vllm-lint
reports it and goes on with the other files.

## Example
```yaml
args: ["--model", "m"
```
`deploy.yaml:1:23: VL001 cannot parse YAML: expected ',' or ']'`

## Fix safety
No fix.

## Evidence
Behaviour of the tool itself; see tests/README.md for the bad-input matrix.
"""

from .base import Rule

RULE = Rule(code="VL001", name="parse-error", summary="file could not be read or parsed",
            severity="error")
# Emitted by the engine when a front-end raises ParseError; this module holds its documentation.
