"""``vllm-lint check-args``: check a vLLM server's argument list built in code (an operator, a
dashboard, a launcher) from the command line or as JSON lines (logic in ``vllm_lint.api``)."""

from __future__ import annotations

import json
import sys

import click

CHECK_ARGS_HELP = """Check the argument list of a vLLM server as a process gets it, with the same
findings, severities and fixes as the same launch written in a file.

\b
  vllm-lint check-args -t 0.34 -- vllm serve org/m --swap-space 4
  vllm-lint check-args -t 0.34 --env VLLM_USE_V1=1 -- serve org/m
  vllm-lint check-args -t 0.34 -- org/m --max-model-len 8k     (words after `vllm serve`)

With --jsonl, standard input holds one argument list per line (a JSON array of strings, or an
object {"args": [...], "env": {...}, "target": "0.34", "id": ...}) and standard output one JSON
object per line: id, args, target, findings (code, severity, message, option, arg_index: the word
it is about, env: the variable it is about, fix), fixed_args and fixed_env (the safe fixes
applied; the unsafe ones too with --unsafe-fixes). A line that is not such a list gets
{"line": N, "error": "..."}.

\b
Exit codes: 0 no findings, 1 findings, 2 usage, database error or a bad input line."""


def _releases(ctx, param, incomplete: str):
    from .common import complete_releases

    return complete_releases(ctx, param, incomplete)


@click.command("check-args", help=CHECK_ARGS_HELP, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("words", nargs=-1)
@click.option("-t", "--target-version", "target", metavar="X.Y.Z", shell_complete=_releases,
              help="vLLM release to check against (0.34.0, 0.34: its newest patch) [default: the newest].")
@click.option("--env", "env_items", multiple=True, metavar="NAME=VALUE",
              help="An environment variable the process gets (repeatable).")
@click.option("--jsonl", is_flag=True, help="Read argument lists as JSON lines on standard input.")
@click.option("--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="How to print the verdict of the argument list given as WORDS.")
@click.option("--unsafe-fixes", is_flag=True, help="Apply the unsafe fixes too in fixed_args.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB",
              help="Flag database directory (default: the shipped one, or the user database).")
def check_args_cmd(words, target, env_items, jsonl, output_format, unsafe_fixes, db_path) -> None:
    from ..api import ArgsError
    from ..surface.db import DatabaseError, UnknownVersion
    from .common import error_exit as _fail

    env = {}
    for item in env_items:
        name, eq, value = item.partition("=")
        if not eq or not name.isidentifier():
            raise click.UsageError(f"--env takes NAME=VALUE (got {item!r})")
        env[name] = value
    try:
        if jsonl:
            if words:
                raise click.UsageError("give the argument lists on standard input with --jsonl, or as WORDS, not both")
            code = _jsonl(sys.stdin, target, env, unsafe_fixes, db_path)
        else:
            if not words:
                raise click.UsageError("no argument list: `vllm-lint check-args -t 0.34 -- vllm serve MODEL ...`")
            verdict = _check(list(words), target, env, unsafe_fixes, db_path)
            if output_format == "json":
                click.echo(json.dumps(verdict, indent=2))
            else:
                _print_text(verdict)
            code = 1 if verdict["findings"] else 0
    except (ArgsError, UnknownVersion, DatabaseError) as e:
        raise _fail(str(e))
    raise click.exceptions.Exit(code)


def _check(words, target, env, unsafe, db_path) -> dict:
    from ..api import check_args

    r = check_args(words, target=target, env=env, unsafe=unsafe, db=db_path)
    return {"args": r.args, "env": r.env, "target": r.target,
            "findings": [_finding(f) for f in r.findings],
            "fixed_args": r.fixed_args, "fixed_env": r.fixed_env}


def _finding(f) -> dict:
    d = f.diagnostic
    fix = None if d.fix is None else {"applicability": d.fix.applicability, "message": d.fix.message}
    return {"code": d.code, "severity": d.severity, "message": d.message, "option": d.option,
            "arg_index": f.arg_index, "env": f.env_name, "fix": fix}


def _jsonl(stream, target, env, unsafe, db_path) -> int:
    from ..api import ArgsError
    from ..surface.db import UnknownVersion

    code = 0
    for n, line in enumerate(stream, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except ValueError as e:
            out, code = {"line": n, "error": f"not JSON: {e.msg} at column {e.colno}"}, 2
        else:
            if isinstance(item, list):
                item = {"args": item}
            if not isinstance(item, dict) or "args" not in item:
                out, code = {"line": n, "error": "expected a JSON array of strings or an object with \"args\""}, 2
            else:
                try:
                    out = _check(item["args"], item.get("target", target), {**env, **(item.get("env") or {})},
                                 unsafe, db_path)
                except (ArgsError, UnknownVersion, TypeError, AttributeError) as e:
                    out, code = {"line": n, "error": str(e).splitlines()[0]}, 2
                else:
                    if "id" in item:
                        out = {"id": item["id"], **out}
                    if out["findings"] and code == 0:
                        code = 1
        click.echo(json.dumps(out, separators=(",", ":")))
    return code


def _print_text(verdict: dict) -> None:
    import shlex

    args = verdict["args"]
    for f in verdict["findings"]:
        where = f"env {f['env']}" if f["env"] else (
            f"arg {f['arg_index']} ({args[f['arg_index']]})" if f["arg_index"] is not None else "command")
        mark = " [*]" if f["fix"] and f["fix"]["applicability"] == "safe" else ""
        click.echo(f"{where}: {f['code']}{mark} {f['severity']} ({verdict['target']}): {f['message']}")
    if verdict["fixed_args"] != args or verdict["fixed_env"] != verdict["env"]:
        env = [f"{k}={v}" for k, v in verdict["fixed_env"].items()]
        click.echo("fixed: " + shlex.join([*env, *verdict["fixed_args"]]))
    n = len(verdict["findings"])
    click.echo(f"{n} finding{'s' if n != 1 else ''} at vLLM {verdict['target']}." if n else
               f"No findings at vLLM {verdict['target']}.", err=True)
