"""Timeline status of a VLLM_* environment variable, shared by the VL2xx rules."""

from __future__ import annotations

from ..launch import EnvAssign
from ..record import Record
from .base import LintContext

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


class EnvStatus(Record):
    __slots__ = ("state", "last", "removed_in", "first", "suggestion", "successor", "note", "plugins",
                 "suggestion_plugin", "forks", "checked")

    def __init__(self, state: str, last: Optional[str] = None, removed_in: Optional[str] = None,
                 first: Optional[str] = None, suggestion: Optional[str] = None, successor: Optional[str] = None,
                 note: Optional[str] = None, plugins: tuple[str, ...] = (),
                 suggestion_plugin: Optional[str] = None, forks: tuple[str, ...] = (),
                 checked: Optional[tuple[str, str]] = None) -> None:
        # ok | removed | unknown | too-new | build | plugin (read by what the launch runs) |
        # plugin-removed (read by earlier releases of the plugin the launch runs, not by its release)
        self.state = state
        self.last = last
        self.removed_in = removed_in
        self.first = first
        self.suggestion = suggestion
        self.successor = successor
        self.note = note
        self.plugins = plugins  # unknown: the platform plugins that read the name (none the launch runs on)
        self.suggestion_plugin = suggestion_plugin  # the plugin that reads ``suggestion``, if not vLLM
        self.forks = forks  # unknown: the forks of vLLM that read the name (knowledge/forks.py)
        # plugin-removed: ``plugins`` holds the plugin, ``checked`` its release checked and how it
        # was chosen, ``last`` / ``removed_in`` the plugin's releases
        self.checked = checked


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
    read_on_launch, status = _release_entry(ctx, name)
    if read_on_launch:
        on_plugin = _on_what_runs(ctx, name)
        if on_plugin is not None:
            # the plugin or fork the launch runs reads it (or its plugin's release no longer does),
            # whatever vLLM's releases did with the name (HabanaAI's fork still reads
            # VLLM_SKIP_WARMUP, which vLLM dropped after 0.9.2)
            return on_plugin
    return status


def _release_entry(ctx: LintContext, name: str) -> tuple[bool, EnvStatus]:
    """The variable's row in the table of the target release (built at the first launch setting
    it, then shared by every launch checked against that release, as ``_status`` does for
    options): whether a platform plugin or a fork reads the name (then what the launch runs may
    decide its status: ``_on_what_runs``), and its status where nothing the launch runs reads it.
    The statuses are shared between launches and never changed."""
    table = ctx.surface.__dict__.get("_env_table")
    if table is None:
        table = ctx.surface.__dict__["_env_table"] = {}
    entry = table.get(name)
    if entry is None:
        entry = table[name] = _release_row(ctx, name)
    return entry


def _release_row(ctx: LintContext, name: str) -> tuple[bool, EnvStatus]:
    ov = ctx.db.env_overlay(name) or {}
    if name in ctx.surface.env:
        return False, EnvStatus("ok", successor=ov.get("successor"), note=ov.get("note"))
    from ..knowledge.forks import fork_readers

    read_on_launch = bool(ctx.db.plugins.readers(name)) or bool(fork_readers(name))
    hist = ctx.db.env_history(name)
    if hist is None and ctx.db.build_env_history(name) is not None:
        return read_on_launch, EnvStatus("build")  # a setting of vLLM's build, not of a server: no runtime finding
    if hist is None:
        return read_on_launch, _not_vllms(ctx, name)
    last = ctx.db.last_accepting(hist, ctx.target)
    if last is not None:
        pos = ctx.db.position(last)
        nxt = ctx.db.versions[pos + 1] if pos + 1 < len(ctx.db.versions) else None
        return read_on_launch, EnvStatus("removed", last=last, removed_in=nxt, successor=ov.get("successor"),
                                         note=ov.get("note"))
    return read_on_launch, EnvStatus("too-new", first=ctx.db.first_accepting_after(hist, ctx.target))


def _on_what_runs(ctx: LintContext, name: str) -> Optional[EnvStatus]:
    """The status of a name that a plugin or fork the launch runs reads in some release: "plugin"
    (read there: silent), "plugin-removed" (the launch runs only plugins, and the release of each
    it runs no longer reads it), or None (nothing the launch runs ever read it)."""
    from ..knowledge.forks import fork_readers

    index = ctx.db.plugins
    plugins = set(index.readers(name))
    forks = set(fork_readers(name))
    if not plugins and not forks:
        return None
    on = launch_runs_on(ctx)
    if forks & on:
        return EnvStatus("plugin")  # a fork has no release timeline here: read
    dropped = []
    for dist in sorted(plugins & on):
        release, how = plugin_release(ctx, dist)
        versions = index.plugins[dist]["env"][name]
        if release is None or release in versions:
            return EnvStatus("plugin")
        from ..surface.version import Version

        at = Version(release)
        older = [v for v in versions if Version(v) < at]
        if not older:
            return EnvStatus("plugin")  # read only by newer releases of the plugin: not this rule's
        releases = index.plugins[dist]["releases"]
        after = releases[releases.index(older[-1]) + 1] if older[-1] in releases else None
        dropped.append(EnvStatus("plugin-removed", last=older[-1], removed_in=after, plugins=(dist,),
                                 checked=(release, how)))
    return dropped[0] if dropped else None


def plugin_release(ctx: LintContext, dist: str) -> tuple[Optional[str], str]:
    """The release of ``dist`` a launch on it runs: the one the file pins (``vllm-gaudi==0.24.0``,
    ``vllm-gaudi.git@v0.24.0``), else the newest in the database (said so). None when the pin
    names a release the database does not hold (not checked)."""
    releases = ctx.db.plugins.plugins.get(dist, {}).get("releases", [])
    pinned = _file_state(ctx.data)[1].get(dist)
    if pinned is not None:
        return (pinned, "pinned") if pinned in releases else (None, "")
    return (releases[-1], "newest") if releases else (None, "")


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
        found = set(_file_state(ctx.data)[0])
        for image in images:
            found |= plugins_of_image(image) | forks_of_image(image)
        ctx.memo.plugins = frozenset(found)
    return ctx.memo.plugins


_FILE_STATE: list = [None, frozenset(), {}]  # the last file's bytes, what it installs or builds, its plugin pins


def _file_state(data: Optional[bytes]) -> tuple[frozenset[str], dict[str, str]]:
    """The plugins a file installs or pins and the forks it builds, and the plugin releases it
    pins, read once per file (its launches share the answer: a pass per launch would grow with
    launches times file size)."""
    if not data:
        return frozenset(), {}
    if _FILE_STATE[0] is not data:
        from ..knowledge.forks import forks_of_text
        from ..surface.plugins import plugin_pins, plugins_of_text

        text = data.decode("utf-8", "replace")
        _FILE_STATE[:] = [data, frozenset(plugins_of_text(text) | forks_of_text(text)), plugin_pins(text)]
    return _FILE_STATE[1], _FILE_STATE[2]


_FORK_BUILT: list = [None, ()]  # the last file's bytes, the forks of vLLM it builds


def forks_built(ctx: LintContext) -> tuple[str, ...]:
    """The forks of vLLM (``owner/name``) the launch's file builds from their repository
    (``knowledge/forks.py`` ``fork_builds``: a clone or ``git+`` install of any ``<owner>/vllm``
    or ``vllm-fork`` outside vllm-project), read once per file."""
    data = ctx.data
    if not data or b"github.com" not in data:
        return ()
    if _FORK_BUILT[0] is not data:
        from ..knowledge.forks import fork_builds

        repos = tuple(dict.fromkeys(b.repo for b in fork_builds(data.decode("utf-8", "replace"))))
        _FORK_BUILT[:] = [data, repos]
    return _FORK_BUILT[1]


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
    own = _plugin_vars(index)
    close = closest(ctx.surface, name, lambda: [n for n in ctx.surface.env if is_vllm_var(n)] + sorted(own), 0.8,
                    "env+plugins")
    return EnvStatus("unknown", suggestion=close, suggestion_plugin=own.get(close) if close else None)


_PLUGIN_VARS: list = [None, {}]  # the plugin index, its VLLM_ names -> the plugin that reads each


def _plugin_vars(index) -> dict[str, str]:
    """Every plugin's ``VLLM_`` names, each with the (last, by name) plugin that reads it: a typo
    of a plugin's variable is one wherever it is set. Once per plugin index, not per unknown
    name of each launch."""
    if _PLUGIN_VARS[0] is not index:
        _PLUGIN_VARS[:] = [index, {n: dist for dist in sorted(index.plugins) for n in index.env_names(dist)
                                   if is_vllm_var(n)}]
    return _PLUGIN_VARS[1]
