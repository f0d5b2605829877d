"""## What it does
Finds a vLLM requirement with an unquoted `>`, `>=`, `<` or `<=` in a shell install:
`pip install vllm>=0.10.0`, `pip3 install vllm[audio]<0.11`, `python -m pip install ...`,
`uv pip install ...`, with the commands called by any path (`/opt/venv/bin/pip`,
`/usr/bin/python3.11 -m pip`), wherever a POSIX shell runs the line: shell scripts, Dockerfile
`RUN` lines, YAML (CI steps, container commands), Makefile recipes, the shell, console,
Dockerfile and YAML blocks of Markdown, a notebook's shell lines (`!pip ...`, `%pip ...`,
`%%bash` cells; a line whose quotes a JSON escape spells is left alone) and the double-quoted
strings Python hands to a shell (`os.system("...")`, `subprocess.run("...", shell=True)`). Quoted requirements (`'vllm>=0.10.0'`), exec-form
`RUN [...]`, systemd `ExecStart=` lines (no shell) and requirement files are not affected.

## Why is this bad?
The shell reads `>` and `<` as redirections before pip sees them: `pip install vllm>=0.10.0`
runs `pip install vllm` with its output written to a file named `=0.10.0`: pip sees no bound, so
an already installed older vLLM is kept (or the newest is installed), and nothing fails; `vllm<0.11` reads its input from a file named `0.11`, and
the command fails when there is none. The file says one thing and the shell does another.

## Example
```dockerfile
RUN pip install vllm>=0.10.0
```

## Fix safety
Unsafe (`--unsafe-fixes`): quotes the requirement (`'vllm>=0.10.0'`), which installs what was
written; that may be a different release from the one installed today.

## Evidence
POSIX shell grammar (redirection operators `>`, `<` are recognised anywhere in a simple command's
words unless quoted); pip's documentation quotes requirement specifiers on the command line for this
reason ("pip install 'SomeProject>=1,<2'"). A warning: the install is not a vLLM launch, and the
command is accepted.
"""

import re

from ..record import lazy_re
from ..launch import Edit, Span
from ._file_scope import is_first_context
from . import _facts
from .base import Fix, LintContext, Rule

RULE = Rule(code="VL408", name="unquoted-version-specifier",
            summary="an unquoted > or < in `pip install vllm>=...` is a shell redirection: the pin is lost",
            severity="warning", fix="unsafe",
            triggers=frozenset((_facts.FIRST_CONTEXT,)))

_INSTALL = lazy_re(
    # commands by their base name: ``/opt/venv/bin/pip``, ``~/.local/bin/uv``, ``python3.11 -m pip``
    rb"(?:(?<=[\s;&|(`])|^)(?:[^\s;&|()`'\"]*/)?(?:uv\s+)?"
    rb"(?:(?:[^\s;&|()`'\"]*/)?python3?(?:\.\d+)?\s+-m\s+)?(?:[^\s;&|()`'\"]*/)?pip3?(?:\.\d+)?\s+install\b"
    rb"(?P<rest>[^\n;&|]*)", re.M)
_REQ = lazy_re(rb"(?<=[\s])(?P<req>vllm(?:\[[A-Za-z0-9_,.-]*\])?(?P<op>[<>]=?)(?P<ver>[^\s;&|'\"`]*))(?=[\s;&|]|$)")

# what every _REQ match starts with (the screen of the file's bytes)
_BOUND = lazy_re(rb"vllm(?:\[[A-Za-z0-9_,.-]*\])?[<>]")


def _quoted_before(line_prefix: bytes) -> bool:
    """Whether a position follows an unclosed quote on its line."""
    return line_prefix.count(b"'") % 2 == 1 or line_prefix.count(b'"') % 2 == 1


@RULE.check
def check(ctx: LintContext):
    data = ctx.data
    if not is_first_context(ctx) or ctx.file_format is None or b"install" not in data or b"vllm" not in data \
            or not _BOUND.search(data):
        # (every match holds these bytes, and every format's shell text is the file's own bytes at
        # their places, the rest blanked: searched in the file before its shell text is made)
        return
    data = ctx.file_format.shell_text(ctx.data)  # what a shell runs, offsets kept; the rest blanked
    if data is None:
        return
    for m in _INSTALL.finditer(data):
        start = m.start("rest")
        for r in _REQ.finditer(data, start, m.end("rest")):
            line_start = data.rfind(b"\n", 0, r.start()) + 1
            if _quoted_before(data[line_start:r.start()]):
                continue
            req = r.group("req").decode("utf-8", "replace")
            op = r.group("op").decode()
            name = req[:req.index(op)]
            if op.startswith(">"):
                what = (f"the shell runs `pip install {name}` and writes its output to a file named "
                        f"`{req[len(name) + 1:]}`: pip sees no version bound (an installed older vLLM is kept, "
                        f"else the newest is installed)")
            else:
                what = (f"the shell runs `pip install {name}` reading its input from a file named "
                        f"`{req[len(name) + 1:]}`, and fails when there is none")
            span = Span(r.start("op"), r.end("req"))
            fix = Fix([Edit(Span(r.start("req"), r.start("req")), "'"), Edit(Span(r.end("req"), r.end("req")), "'")],
                      "unsafe", f"Quote the requirement ('{req}')")
            yield ctx.diag(RULE, f"unquoted `{req}` in a shell install: {what}; quote the requirement ('{req}')",
                           span, fix=fix, option=None)
