"""## What it does
Finds a server started as `python -m vllm.entrypoints.openai.api_server` (in a shell command, a
container's command, a Dockerfile instruction or a Python argument list) at a release that
deprecates that way of starting it, and offers the migration to `vllm serve`.

## Why is this bad?
From 0.29.0 the module warns when it is run as a program and points to `vllm serve`; a later
release may drop it, and the container then stops at start-up. `vllm serve` reads the same
options (both build the parser with the same function and run the same checks after parsing),
with the model as its positional argument.

## Example
```bash
python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B --port 8000   # at 0.34.0
```
`VL113 python3 -m vllm.entrypoints.openai.api_server is deprecated at vLLM 0.34.0; start the server with vllm serve`

After `--fix`: `vllm serve Qwen/Qwen3-8B --port 8000` (the fix writes `vllm serve`, and VL106's
fix then moves `--model` to the positional slot, as `vllm serve --model` is deprecated too).

A bare `python3 -m vllm.entrypoints.openai.api_server` with no argument after it is not reported
in documentation, nor outside a container or a Dockerfile: there it names the command (a table of
defaults, a description), and rewriting it would change prose. A container's `command` or a
Dockerfile's `ENTRYPOINT` without arguments is reported.

## Fix safety
Safe where the words of the entrypoint are written plainly (no variable, no quoting that a
rewrite would have to reproduce), are just `python3 -m MODULE`, and the launch sets nothing about
API-server processes or data parallelism. Unsafe otherwise: an interpreter option (`-u`, `-X ...`)
would be dropped; an interpreter named by path (`/opt/venv/bin/python3`) may not be the Python
whose `vllm` is first on `PATH`; `vllm serve` can start several API-server processes and run
headless where the module runs one server (`--api-server-count`, `--headless`,
`--data-parallel-*`). Where the words cannot be rewritten in place (a variable holds the
interpreter, a wrapper's quoting), the finding has no fix. `vllm-lint upgrade` applies the safe
fix when the release it upgrades to deprecates the module.

## Evidence
Scraped per release (`era.deprecated_entries`, `vllm_lint/scrape/entry_deprecations.py`): the
`__main__` block of `vllm/entrypoints/openai/api_server.py` calls `warnings.warn` with a
`DeprecationWarning` from 0.29.0 (read in the sdists of 0.27.1 and 0.28.0, which do not, and of
0.29.0 to 0.34.0, which do). Same parser: the module's `main()` builds `make_arg_parser` and calls
`validate_parsed_serve_args` as `vllm serve` does (0.29.0 and 0.34.0 sdists).
"""

from . import _facts
from .base import Fix, LintContext, Rule

RULE = Rule(code="VL113", name="deprecated-entrypoint", summary="`python -m` entrypoint deprecated at the target release",
            severity="warning", fix="safe",
            triggers=frozenset((_facts.DEPRECATED_ENTRY,)))

#: what the migration writes in place of the entrypoint's words
SERVE = ["vllm", "serve"]
#: options whose meaning differs between the module (one server process) and `vllm serve`
_PROCESS_LAYOUT = ("api_server_count", "headless")


@RULE.check
def check(ctx: LintContext):
    launch = ctx.launch
    if launch is None or launch.entry_words is None or launch.entry not in ctx.surface.deprecated_entries:
        return
    if not launch.tokens and (ctx.documentation or (launch.container is None and launch.image is None)):
        # the entrypoint's words alone, in documentation or in no container or image: a mention (a
        # table cell or a description naming a default command) more often than a server started
        # with every default; not rewritten. A container's or a Dockerfile's ENTRYPOINT is one.
        ctx.skip(RULE, "the entrypoint is named without arguments (a mention, not a launch to migrate)")
        return
    shown = " ".join(launch.entry_words)
    fix = edits = None
    if launch.replace_entry is not None:
        edits = launch.replace_entry(SERVE)
        if edits:
            safe = _plain_interpreter(launch.entry_words) and not any(_changes_process_layout(a) for a in ctx.args)
            fix = Fix(list(edits), "safe" if safe else "unsafe", "Start the server with `vllm serve`")
    span = edits[0].span if edits else launch.span
    yield ctx.diag(RULE, f"`{shown}` is deprecated at vLLM {ctx.target}; start the server with `vllm serve` "
                         "(the same options, the model as its positional argument)", span, fix=fix)


def _plain_interpreter(words: list[str]) -> bool:
    """``python3 -m MODULE`` and nothing else: no interpreter option (``-u``, ``-X``) the rewrite
    would drop, no interpreter named by path (a venv's ``vllm`` need not be the one on PATH)."""
    return len(words) == 3 and words[1] == "-m" and "/" not in words[0]


def _changes_process_layout(arg) -> bool:
    dest = arg.option.dest if arg.option is not None else ""
    return dest in _PROCESS_LAYOUT or dest.startswith("data_parallel")
