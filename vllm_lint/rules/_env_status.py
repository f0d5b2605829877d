"""Timeline status of a VLLM_* environment variable, shared by the VL2xx rules."""

from __future__ import annotations

from typing import Optional

from ..launch import EnvAssign
from ..record import Record
from .base import LintContext


class EnvStatus(Record):
    __slots__ = ("state", "last", "removed_in", "first", "suggestion", "successor", "note", "plugins",
                 "suggestion_plugin", "forks")

    def __init__(self, state: str, last: Optional[str] = None, removed_in: Optional[str] = None,
                 first: Optional[str] = None, suggestion: Optional[str] = None, successor: Optional[str] = None,
                 note: Optional[str] = None, plugins: tuple[str, ...] = (),
                 suggestion_plugin: Optional[str] = None, forks: tuple[str, ...] = ()) -> None:
        self.state = state  # ok | removed | unknown | too-new | build | plugin (read by what the launch runs)
        self.last = last
        self.removed_in = removed_in
        self.first = first
        self.suggestion = suggestion
        self.successor = successor
        self.note = note
        self.plugins = plugins  # unknown: the platform plugins that read the name (none the launch runs on)
        self.suggestion_plugin = suggestion_plugin  # the plugin that reads ``suggestion``, if not vLLM
        self.forks = forks  # unknown: the forks of vLLM that read the name (knowledge/forks.py)


def is_vllm_var(name: str) -> bool:
    return name.startswith("VLLM_")


def env_in_state(ctx: LintContext, state: str):
    """(assignment, status) for each VLLM_ variable of the context in timeline state ``state``
    (grouped by state after the first full pass, as ``_status.args_in_state``)."""
    by_state = ctx.memo.env_by_state
    if by_state is not None:
        return by_state.get(state, ())
    return _first_pass(ctx, state)


def _first_pass(ctx: LintContext, state: str):
    by_state: dict[str, list] = {}
    for env in ctx.env:
        if is_vllm_var(env.name):
            st = env_status(ctx, env)
            by_state.setdefault(st.state, []).append((env, st))
            if st.state == state:
                yield env, st
    ctx.memo.env_by_state = by_state


def env_status(ctx: LintContext, env: EnvAssign) -> EnvStatus:
    cache = ctx.memo.env_status
    if env.name in cache:
        return cache[env.name]
    st = _compute(ctx, env.name)
    cache[env.name] = st
    return st


def _compute(ctx: LintContext, name: str) -> EnvStatus:
    ov = ctx.db.env_overlay(name) or {}
    if name in ctx.surface.env:
        return EnvStatus("ok", successor=ov.get("successor"), note=ov.get("note"))
    if _read_by_what_runs(ctx, name):
        # the plugin or fork the launch runs reads it, whatever vLLM's releases did with the name
        # (HabanaAI's fork still reads VLLM_SKIP_WARMUP, which vLLM dropped after 0.9.2)
        return EnvStatus("plugin")
    hist = ctx.db.env_history(name)
    if hist is None and ctx.db.build_env_history(name) is not None:
        return EnvStatus("build")  # a setting of vLLM's build, not of a server: no runtime finding
    if hist is None:
        return _not_vllms(ctx, name)
    last = ctx.db.last_accepting(hist, ctx.target)
    if last is not None:
        pos = ctx.db.position(last)
        nxt = ctx.db.versions[pos + 1] if pos + 1 < len(ctx.db.versions) else None
        return EnvStatus("removed", last=last, removed_in=nxt, successor=ov.get("successor"), note=ov.get("note"))
    return EnvStatus("too-new", first=ctx.db.first_accepting_after(hist, ctx.target))


def _read_by_what_runs(ctx: LintContext, name: str) -> bool:
    from ..knowledge.forks import fork_readers

    readers = set(ctx.db.plugins.readers(name)) | set(fork_readers(name))
    return bool(readers) and bool(launch_runs_on(ctx) & readers)


def launch_runs_on(ctx: LintContext) -> frozenset[str]:
    """The platform plugins (PyPI names) and forks of vLLM (``owner/name``) the launch runs on:
    its image names them, or the file installs or pins the plugin's package
    (``surface/plugins.py``) or builds the fork from its repository (``knowledge/forks.py``)."""
    if ctx.memo.plugins is None:
        from ..knowledge.forks import forks_of_image
        from ..surface.plugins import plugins_of_image

        images = [getattr(ctx.launch, "image", None)]
        if ctx.extraction is not None:
            images += [h.image for h in ctx.extraction.version_hints if h.image]
        found = set(_file_runs_on(ctx.data))
        for image in images:
            found |= plugins_of_image(image) | forks_of_image(image)
        ctx.memo.plugins = frozenset(found)
    return ctx.memo.plugins


_FILE_RUNS_ON: list = [None, frozenset()]  # the last file's bytes and what its text installs or builds


def _file_runs_on(data: Optional[bytes]) -> frozenset[str]:
    """The plugins a file installs or pins and the forks it builds, read once per file (its
    launches share the answer: a pass per launch would grow with launches times file size)."""
    if not data:
        return frozenset()
    if _FILE_RUNS_ON[0] is not data:
        from ..knowledge.forks import forks_of_text
        from ..surface.plugins import plugins_of_text

        text = data.decode("utf-8", "replace")
        _FILE_RUNS_ON[:] = [data, frozenset(plugins_of_text(text) | forks_of_text(text))]
    return _FILE_RUNS_ON[1]


def _not_vllms(ctx: LintContext, name: str) -> EnvStatus:
    """A name no vLLM release reads and nothing the launch runs on reads (``_compute`` answered
    that): a platform plugin's or a fork's (``knowledge/forks.py``) read elsewhere, or unknown, with
    the nearest name the target release or a plugin reads."""
    from ..knowledge.forks import fork_readers
    from ._status import closest

    index = ctx.db.plugins
    readers = index.readers(name)
    forks = fork_readers(name)
    if readers:
        return EnvStatus("unknown", plugins=tuple(readers), forks=forks)
    if forks:
        return EnvStatus("unknown", forks=forks)
    # every plugin's names: a typo of a plugin's variable is one wherever it is set
    own = {n: dist for dist in sorted(index.plugins) for n in index.env_names(dist) if is_vllm_var(n)}
    close = closest(ctx.surface, name, lambda: [n for n in ctx.surface.env if is_vllm_var(n)] + sorted(own), 0.8,
                    "env+plugins")
    return EnvStatus("unknown", suggestion=close, suggestion_plugin=own.get(close) if close else None)
