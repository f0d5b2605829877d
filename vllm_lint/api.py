"""The Python API: lint or fix one file's text in memory, as the command line would.

    >>> import vllm_lint
    >>> [d.code for d in vllm_lint.lint("vllm serve m --swap-space 4\\n", "serve.sh", target="0.27.1")]
    ['VL101']
    >>> vllm_lint.fix("vllm serve m --swap-space 4\\n", "serve.sh", target="0.27.1").output
    'vllm serve m\\n'

``filename`` gives the format (``.sh``, ``.yaml``, ``Dockerfile``, ``.py``, ``.md``; else the
content decides) and where a project pin is looked for; the file need not exist. ``settings``:
a :class:`vllm_lint.settings.Settings`, or a dict with the keys of ``[tool.vllm-lint]``
(``{"select": ["VL1"], "gpus": 8}``), validated as the configuration file is. No configuration file
is read. The results are :class:`vllm_lint.rules.base.Diagnostic` objects (``code``, ``message``,
``severity``, ``row``, ``column``, ``end_row``, ``end_column``, ``option``, ``target_version``,
``fix``). ``vllm_lint`` imports this module only when one of these names is first used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional, Union

__all__ = ["lint", "fix", "check_args", "ArgsResult", "ArgFinding", "ArgsError", "FixResult", "UnknownFormat"]

Text = Union[str, bytes]


class UnknownFormat(ValueError):
    """Neither the file name nor the content says which format the text is in."""


class FixResult:
    """What :func:`fix` did: ``output`` (the fixed text, str or bytes as given), ``fixed_count``
    (fixes applied) and ``diagnostics`` (what is left, positioned in ``output``)."""

    __slots__ = ("output", "fixed_count", "diagnostics")

    def __init__(self, output: Text, fixed_count: int, diagnostics: list) -> None:
        self.output, self.fixed_count, self.diagnostics = output, fixed_count, diagnostics

    def __repr__(self) -> str:
        return f"FixResult(fixed_count={self.fixed_count}, diagnostics={len(self.diagnostics)})"


def analyse_bytes(linter, data: bytes, filename: str, fix: bool = False) -> tuple[list, Optional[bytes], int]:
    """``data`` linted (and with ``fix``, fixed) as the file ``filename`` named on the command line,
    through the engine's one check (``Linter.check``): (the findings left, positioned and
    suppressed as in a file; the fixed bytes or None; fixes applied). The command line's standard
    input and this module's functions share it."""
    checked = check_bytes(linter, data, filename, fix)
    if checked.skipped is not None:
        return [], None, 0
    return checked.diagnostics, checked.fixed, checked.count


def check_bytes(linter, data: bytes, filename: str, fix: bool = False):
    """``Linter.check`` of ``data`` as the file ``filename`` named on the command line (its
    ``Checked``: findings, fixed bytes, and the analysis with its launches); UnknownFormat when
    neither the name nor the content gives a format."""
    checked = linter.check(filename, data, "explicit", fix=fix)
    if checked.format is None:
        raise UnknownFormat(f"cannot tell the format of {filename}: name it (serve.sh, deploy.yaml, Dockerfile, "
                            "launch.py, README.md)")
    return checked


_DBS: dict[Optional[str], Any] = {}


def _linter(target: Optional[str], settings: Any, db: Optional[str], unsafe: bool):
    from .rules.base import select_layered
    from .settings import Settings, _validate, rule_layers
    from .surface.db import Database
    from .pipeline.engine import Linter

    if settings is None:
        settings = Settings()
    elif isinstance(settings, dict):
        settings = _validate(settings, Path("<settings>"))
    if target is not None:
        settings = settings.merged(target_version=target)
    key = None if db is None else str(db)
    if key not in _DBS:
        _DBS[key] = Database(Path(db) if db else None)
    rules = select_layered(rule_layers(settings), preview=bool(settings.preview))
    return Linter(_DBS[key], settings, rules, unsafe_fixes=unsafe)


def _as_bytes(data: Text) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else bytes(data)


def lint(data: Text, filename: str = "-", *, target: Optional[str] = None, settings: Any = None,
         db: Optional[str] = None) -> list:
    """The findings in ``data`` (text or bytes) read as the file ``filename``; ``target``: the
    vLLM release to check against (as ``-t``; default: what the launch names, else the newest);
    ``db``: a flag database directory (default: the shipped one)."""
    diags, _, _ = analyse_bytes(_linter(target, settings, db, False), _as_bytes(data), filename)
    return diags


def fix(data: Text, filename: str = "-", *, target: Optional[str] = None, settings: Any = None,
        unsafe: bool = False, db: Optional[str] = None) -> FixResult:
    """``data`` with the safe fixes applied (and the unsafe ones with ``unsafe``), as ``--fix``
    would write it: a :class:`FixResult`."""
    raw = _as_bytes(data)
    diags, fixed, count = analyse_bytes(_linter(target, settings, db, unsafe), raw, filename, fix=True)
    out = raw if fixed is None else fixed
    return FixResult(out.decode("utf-8", errors="surrogateescape") if isinstance(data, str) else out, count, diags)


# ---- an argument list built in code (``vllm-lint check-args``)

#: the file name an argument list is checked as: one shell command line
ARGS_FILENAME = "check-args.sh"


class ArgFinding:
    """One finding of :func:`check_args`: the ``diagnostic`` (code, message, severity, option,
    fix), ``arg_index`` (the index in the checked ``args`` of the word it is about; None when it
    is about an environment variable or the command as a whole) and ``env_name``."""

    __slots__ = ("diagnostic", "arg_index", "env_name")

    def __init__(self, diagnostic, arg_index: Optional[int], env_name: Optional[str]) -> None:
        self.diagnostic, self.arg_index, self.env_name = diagnostic, arg_index, env_name

    def __repr__(self) -> str:
        return f"ArgFinding({self.diagnostic.code}, arg_index={self.arg_index}, env_name={self.env_name!r})"


class ArgsResult:
    """What :func:`check_args` found: ``args`` (the words checked, as given), ``env``,
    ``target`` (the release checked against), ``findings`` (:class:`ArgFinding`),
    ``fixed_args`` / ``fixed_env`` (with the safe fixes applied, the unsafe ones too with
    ``unsafe``; equal to the input when nothing applies)."""

    __slots__ = ("args", "env", "target", "findings", "fixed_args", "fixed_env")

    def __init__(self, args: list, env: dict, target: Optional[str], findings: list, fixed_args: list,
                 fixed_env: dict) -> None:
        self.args, self.env, self.target, self.findings = args, env, target, findings
        self.fixed_args, self.fixed_env = fixed_args, fixed_env

    def __repr__(self) -> str:
        return f"ArgsResult(target={self.target!r}, findings={len(self.findings)})"


class ArgsError(ValueError):
    """An argument list that cannot be checked (empty, a word that is not a string, a bad
    environment name). ``str(err)`` is one line."""


def check_args(args, *, target: Optional[str] = None, env: Optional[dict] = None, settings: Any = None,
               unsafe: bool = False, db: Optional[str] = None) -> ArgsResult:
    """Check the argument list of a vLLM server as a process gets it (``["vllm", "serve", "org/m",
    "--max-model-len", "8192"]``; ``["serve", ...]`` and the words after ``vllm serve`` alone are
    read as ``vllm serve``; ``python -m vllm.entrypoints.openai.api_server ...`` as that module),
    with ``env`` the variables the process gets: the same findings, severities and fixes as the
    same launch written in a shell script."""
    import shlex

    words = _words_of(args)
    env = dict(env or {})
    for name, value in env.items():
        if not isinstance(name, str) or not name.isidentifier() or not isinstance(value, str):
            raise ArgsError(f"environment entries must be NAME: \"value\" strings (got {name!r})")
    env_words = [f"{k}={v}" for k, v in env.items()]
    linter = _linter(target, settings, db, unsafe)
    # as given (``serve ...`` with ``vllm`` put in front); words that start no vLLM command are
    # the arguments of ``vllm serve``
    prefix = 1 if words[0] == "serve" else 0
    for put in ((["vllm"] if prefix else []), ["vllm", "serve"]):
        line = _command_line([*env_words, *put, *words])
        checked = check_bytes(linter, line, ARGS_FILENAME)
        if checked.skipped is None and checked.analysis.launches:
            break
        prefix = 2
    words = [*put, *words]
    diags = [] if checked.skipped is not None else checked.diagnostics
    starts = _word_starts([*env_words, *words])
    findings = []
    for d in diags:
        k = _word_at(starts, d.span.start) if d.span is not None else None
        findings.append(ArgFinding(d, k - len(env_words) - prefix if k is not None and k >= len(env_words) + prefix
                                   else None, list(env)[k] if k is not None and k < len(env_words) else None))
    _, fixed, count = analyse_bytes(linter, line, ARGS_FILENAME, fix=True) if diags else (None, None, 0)
    fixed_args, fixed_env = list(args), env
    if fixed is not None and count:
        out = shlex.split(fixed.decode("utf-8", "surrogateescape"))
        fixed_env = {}
        while out and "=" in out[0] and out[0].split("=", 1)[0].isidentifier():
            name, value = out.pop(0).split("=", 1)
            fixed_env[name] = value
        fixed_args = out[prefix:]
    release = next((d.target_version for d in diags if d.target_version), None) or linter_target(linter)
    return ArgsResult(list(args), env, release, findings, fixed_args, fixed_env)


def linter_target(linter) -> Optional[str]:
    """The release a launch that names none is checked against: ``-t``, else the newest."""
    t = linter.settings.target_version
    try:
        return linter.db.resolve_version(t) if t else linter.db.versions[-1]
    except Exception:  # noqa: BLE001 - only for the account; the check itself reported the error
        return t


def _words_of(args) -> list[str]:
    if isinstance(args, (str, bytes)) or not all(isinstance(w, str) for w in args):
        raise ArgsError("the argument list must be a list of strings (one per word, as a process gets them)")
    words = list(args)
    if not words:
        raise ArgsError("the argument list is empty")
    return words


def _command_line(words: list[str]) -> bytes:
    import shlex

    return shlex.join(words).encode("utf-8", "surrogateescape") + b"\n"


def _word_starts(words: list[str]) -> list[int]:
    import shlex

    starts, at = [], 0
    for w in words:
        starts.append(at)
        at += len(shlex.quote(w).encode("utf-8", "surrogateescape")) + 1
    return starts


def _word_at(starts: list[int], offset: int) -> Optional[int]:
    import bisect

    k = bisect.bisect_right(starts, offset) - 1
    return k if k >= 0 else None
