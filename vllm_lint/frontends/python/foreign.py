"""Calls of other tools that start vLLM (``vllm_lint.foreign_launchers``): lm-evaluation-harness's
``simple_evaluate(model="vllm", model_args=...)``, distilabel's ``vLLM(model=..., extra_kwargs=...)``.

The call's keywords that the tool hands to vLLM become the launch's arguments, each where it is
written: a keyword the row maps, the model, and the items of a holder (a mapping's keys, or a
``key=value,...`` string given as the command-line words it stands for, which ``argv`` splits as
it splits the tool's command line). The tool's other keywords are its own and are left out."""

from __future__ import annotations

import ast

from ...foreign_launchers import ForeignLauncher
from ...launch import Launch, Token
from .engine_args import keyed_value, mapping
from .literals import NOT_LITERAL, literal
from .scope import Scope
from .state import PyFile


def foreign_launch(fx: PyFile, call: ast.Call, row: ForeignLauncher, scope: Scope) -> None:
    kws = {k.arg: k for k in call.keywords if k.arg is not None}
    if row.call_select is not None:
        name, values = row.call_select
        chosen = literal(kws[name].value) if name in kws else NOT_LITERAL
        if chosen not in values:
            return  # another back-end of the tool, or one the file leaves to the run
    src = fx.src
    launch = Launch(path=fx.path, entry=row.entry, style="kwargs", span=src.span(call))
    if any(k.arg is None for k in call.keywords) or call.args:
        launch.opaque = True  # **options or positionals: more than the file shows
    pos = (call.lineno, call.col_offset)
    for k in call.keywords:
        if k.arg is None:
            continue
        if k.arg in row.call_holders:
            value = k.value
            text = literal(value)
            if isinstance(text, str):
                # the string the tool splits: given to argv as the command-line words it is
                inner = fx.str_inner(value)
                launch.style = "argv"
                launch.tokens += [Token("--" + k.arg, fx.kw_span(k)), Token(text, src.span(value), inner)]
                continue
            keyed, opaque = mapping(fx, value, scope, pos)
            if opaque is None:
                launch.opaque = True
                continue
            launch.keyed += keyed
            launch.opaque = launch.opaque or opaque
        elif k.arg in row.keys or k.arg in row.model:
            ka = keyed_value(fx, k.arg, fx.kw_span(k), k.value, None)
            launch.keyed.append(ka)
            if k.arg in row.model:
                launch.model = ka.value
    fx.result.launches.append(launch)
