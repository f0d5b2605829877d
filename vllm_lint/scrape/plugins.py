"""A platform plugin's release, read statically from its sdist, wheel or tagged git snapshot like
vLLM's (never imported): the variables of its environment module (``scrape/envs.py``'s extractor
on the plugin's module), the variables its other modules read themselves (``os.environ.get("X")``
and the plugin's own declaring helpers: :func:`package_reads`) and the vLLM requirement its
``pyproject.toml`` / ``requirements.txt`` declares.

``build_plugin`` writes ``flag_db/plugins/<dist>/<version>.json`` atomically and recompiles
``flag_db/plugins/index.json`` (``surface/plugins.py``).
"""

from __future__ import annotations

import ast
import posixpath
import sys
from pathlib import Path
from typing import Any, Callable, Optional, Sequence, Union

from vllm_lint.surface.plugins import Plugin, compile_plugin_index

from .build import ReleaseResult, _one_line, select_versions
from .env_reads import _py_names
from .envs import extract_env
from .pyresolve import Project
from .sources import GitSource, PyPISource, _run_git, read_archive

SCHEMA = 1
_METADATA = ("pyproject.toml", "requirements.txt", "setup.py")


def plugin_wanted(plugin: Plugin) -> Callable[[str], bool]:
    """The members read from a plugin's archive: its package's Python modules and the metadata
    that pins vLLM."""
    prefix = plugin.package_path + "/"

    def want(path: str) -> bool:
        return path in _METADATA or _is_wheel_metadata(path) or (path.startswith(prefix) and path.endswith(".py"))

    return want


def _is_wheel_metadata(path: str) -> bool:
    return path.count("/") == 1 and path.endswith(".dist-info/METADATA")


def vllm_requirement(tree: Any) -> Optional[dict]:
    """The ``vllm`` requirement of the plugin's own dependencies, where written statically:
    ``[project].dependencies`` of ``pyproject.toml``, else ``requirements.txt``, else (a wheel,
    which has neither) the ``Requires-Dist`` lines of its ``*.dist-info/METADATA``. None when none
    names vLLM (vllm-ascend pins it by its own version number and its documentation, not its
    metadata). A package whose vLLM integration is an optional part pins vLLM in its extra named
    ``vllm`` (optimum-neuron: ``vllm==0.11.0; extra == "vllm"``): that pin, when no unconditional
    one is written; other extras and markers are not the plugin's target."""
    from packaging.requirements import InvalidRequirement, Requirement

    def pick(lines: Sequence[Any], where: str) -> Optional[dict]:
        in_extra = None
        for line in lines:
            if not isinstance(line, str):
                continue
            try:
                req = Requirement(line.split("#", 1)[0].strip())
            except InvalidRequirement:
                continue
            if req.name.lower() != "vllm":
                continue
            if req.marker is None:
                return {"specifier": str(req.specifier), "from": where}
            if in_extra is None and str(req.marker).replace("'", '"') == 'extra == "vllm"':
                in_extra = {"specifier": str(req.specifier), "from": f"{where} (extra vllm)"}
        return in_extra

    data = tree.read("pyproject.toml")
    if data is not None:
        if sys.version_info >= (3, 11):
            import tomllib
        else:  # pragma: no cover
            import tomli as tomllib
        try:
            doc = tomllib.loads(data.decode("utf-8", "replace"))
        except tomllib.TOMLDecodeError:
            doc = {}
        project = doc.get("project") or {}
        deps = project.get("dependencies") or []
        found = pick(deps if isinstance(deps, list) else [], "pyproject.toml")
        if found:
            return found
        extra = (project.get("optional-dependencies") or {}).get("vllm")
        found = pick(extra if isinstance(extra, list) else [], "pyproject.toml")
        if found:
            return dict(found, **{"from": "pyproject.toml (extra vllm)"})
    data = tree.read("requirements.txt")
    if data is not None:
        return pick(data.decode("utf-8", "replace").splitlines(), "requirements.txt")
    paths = getattr(tree, "paths", None)
    for path in (paths() if callable(paths) else ()):
        if _is_wheel_metadata(path):
            text = (tree.read(path) or b"").decode("utf-8", "replace").split("\n\n", 1)[0]  # the headers
            lines = [ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("Requires-Dist:")]
            return pick(lines, "METADATA")
    return None


def _helper_names(text: str, helpers: Sequence[tuple[str, str]]) -> set[str]:
    """Names declared through the helpers ``(callable, spelling)``: a call ``Env("X", int)`` with
    spelling ``"{}"`` reads ``X``; ``Value("skip_warmup", False)`` with ``"VLLM_{upper}"`` reads
    ``VLLM_SKIP_WARMUP``, and its ``env_var="X"`` keyword, where given, reads ``X`` instead."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    spelling = dict(helpers)
    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        if called not in spelling:
            continue
        given = next((k.value for k in node.keywords if k.arg == "env_var"), None)
        if isinstance(given, ast.Constant) and isinstance(given.value, str):
            out.add(given.value)
        elif given is None and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            first = node.args[0].value
            out.add(spelling[called].format(first, upper=first.upper()))
    return out


def package_reads(tree: Any, package: str, prefixes: Sequence[str], helpers: Sequence[tuple[str, str]] = (),
                  skip: Sequence[str] = ()) -> dict[str, str]:
    """``{name: first module reading it}``: the variables (starting with one of ``prefixes``) that
    the modules of ``package`` read themselves, outside the paths ``skip`` (the environment module):
    ``os.getenv("X")``, ``os.environ.get("X")``, ``os.environ["X"]``, ``"X" in os.environ``
    (``scrape/env_reads.py``'s shapes), and the calls of ``helpers`` (:func:`_helper_names`).
    Names built at run time (an f-string) are not read."""
    out: dict[str, str] = {}
    paths = getattr(tree, "paths", None)
    for path in (paths() if callable(paths) else ()):
        if not (path.startswith(package + "/") and path.endswith(".py")) or path in skip:
            continue
        data = tree.read(path)
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        found = _py_names(text) if ("environ" in text or "getenv" in text) else set()
        if helpers and any(h + "(" in text for h, _ in helpers):
            found |= _helper_names(text, helpers)
        for name in sorted(found):
            if name.startswith(tuple(prefixes)):
                out.setdefault(name, path)
    return out


def device_control_vars(tree: Any, package_path: str) -> dict[str, str]:
    """``{name: module}``: the variable a platform class of the package names as its
    ``device_control_env_var`` (a class attribute, ``device_control_env_var: str = "MUSA_VISIBLE_DEVICES"``):
    vLLM reads it, on that platform, as it reads ``CUDA_VISIBLE_DEVICES`` on CUDA."""
    out: dict[str, str] = {}
    paths = getattr(tree, "paths", None)
    for path in (paths() if callable(paths) else ()):
        if not (path.startswith(package_path + "/") and path.endswith(".py")):
            continue
        data = tree.read(path)
        if data is None or b"device_control_env_var" not in data:
            continue
        try:
            module = ast.parse(data.decode("utf-8", "replace"))
        except (SyntaxError, ValueError):
            continue
        for cls in (n for n in ast.walk(module) if isinstance(n, ast.ClassDef)):
            for st in cls.body:
                target = st.target if isinstance(st, ast.AnnAssign) else \
                    st.targets[0] if isinstance(st, ast.Assign) and len(st.targets) == 1 else None
                value = getattr(st, "value", None)
                if isinstance(target, ast.Name) and target.id == "device_control_env_var" \
                        and isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
                    out.setdefault(value.value, path)
    return out


def extract_plugin_release(tree: Any, plugin: Plugin, version: str, source: dict) -> dict:
    env: dict[str, Any] = {}
    where: Optional[tuple[str, bool]] = None
    if plugin.envs_module is not None:
        project = Project(tree)
        # the module as the newest releases name it, else as older ones did (vllm-rbln's rbln_envs)
        module = next((m for m in (plugin.envs_module,) + plugin.older_envs_modules if project.module_path(m)), None)
        if module is None:
            raise ValueError(f"{plugin.dist} {version}: no {plugin.envs_module} module in the archive")
        where = project.module_path(module)
        env = extract_env(project, module, plugin.dict_names)
        if not env:
            raise ValueError(f"{plugin.dist} {version}: {where[0]} binds none of {', '.join(plugin.dict_names)}")
    if plugin.read_prefixes:
        # read in its other modules: known by name only (no type or default is static there)
        for name, path in package_reads(tree, plugin.package_path, plugin.read_prefixes, plugin.env_helpers,
                                        skip=(where[0],) if where else ()).items():
            env.setdefault(name, {"read_in": path})
    for name, path in device_control_vars(tree, plugin.package_path).items():
        env.setdefault(name, {"device_control": path})
    if not env:
        raise ValueError(f"{plugin.dist} {version}: its package reads no variable statically")
    return {"schema": SCHEMA, "plugin": plugin.dist, "version": version, "source": source,
            "envs_module": where[0] if where else None, "env": env, "vllm": vllm_requirement(tree)}


class PluginPyPISource(PyPISource):
    """A plugin's release archives on PyPI (the same download, digest and cache rules as vLLM's)."""

    def __init__(self, plugin: Plugin, index_root: str = "https://pypi.org/pypi", **kw: Any) -> None:
        super().__init__(url=f"{index_root.rstrip('/')}/{plugin.dist}/json", **kw)
        self.plugin = plugin

    def fetch(self, version: str) -> tuple[Any, dict[str, Any]]:
        path, f = self.download(version)
        tree = read_archive(path, f["filename"], want=plugin_wanted(self.plugin), package=self.plugin.package_path)
        kind = "sdist" if f.get("packagetype") == "sdist" else "wheel"
        return tree, {"kind": kind, "archive": posixpath.basename(f["filename"]), "sha256": f["digests"]["sha256"]}


class PluginGitSource(GitSource):
    """A plugin's release tags in a local git directory (a clone, or a ``fetch`` snapshot): for a
    plugin that publishes no archive on PyPI (vllm-gaudi). The source record names the repository,
    the tag and its commit."""

    def __init__(self, plugin: Plugin, git_dir: str) -> None:
        super().__init__(git_dir)
        self.plugin = plugin

    def fetch(self, version: str) -> tuple[Any, dict[str, Any]]:
        tree, src = super().fetch(version)
        commit = _run_git(self.repo, "rev-parse", f"{src['ref']}^{{commit}}").decode().strip()
        src.update(repo=f"https://github.com/{self.plugin.git_repo}" if self.plugin.git_repo else None,
                   commit=commit)
        return tree, src


def newest_release(versions: Sequence[str]) -> list[str]:
    """The newest final release of ``versions`` (a plugin's pre-releases are skipped)."""
    finals = select_versions(versions, None, minimum=None)
    from packaging.version import Version

    finals = [v for v in finals if not Version(v).is_prerelease]
    return finals[-1:]


def build_plugin(source: Any, plugin: Plugin, db_dir: Union[str, Path],
                 versions: Union[None, str, Sequence[str]] = None) -> list[ReleaseResult]:
    """Scrape ``versions`` of ``plugin`` (default: its newest release) into
    ``db_dir/plugins/<dist>/`` and recompile the plugin index. A release that fails is reported
    with its reason; the others still land."""
    import time

    from vllm_lint.surface.db import dump_json, write_file_atomic

    todo = newest_release(source.versions()) if versions is None else \
        select_versions(source.versions(), versions, minimum=None)
    folder = Path(db_dir) / "plugins" / plugin.dist
    results = []
    for v in todo:
        t0 = time.perf_counter()
        try:
            tree, src = source.fetch(v)
            data = dump_json(extract_plugin_release(tree, plugin, v, src))
            dest = folder / f"{v}.json"
            folder.mkdir(parents=True, exist_ok=True)
            changed = write_file_atomic(dest, data)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - one bad release must not stop the others
            results.append(ReleaseResult(v, False, _one_line(e), time.perf_counter() - t0))
            continue
        results.append(ReleaseResult(v, True, "", time.perf_counter() - t0, dest, changed))
    if any(r.ok for r in results):
        write_plugin_index(Path(db_dir) / "plugins")
    return results


def write_plugin_index(plugins_dir: Path) -> None:
    from vllm_lint.surface.db import write_json

    write_json(plugins_dir / "index.json", compile_plugin_index(plugins_dir))
