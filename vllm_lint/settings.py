"""Configuration: ``[tool.vllm-lint]`` in ``pyproject.toml`` or a ``.vllm-lint.toml``, found by
walking up from the linted path (the nearest wins; ``.vllm-lint.toml`` before ``pyproject.toml``
in the same directory), overridden by command-line options."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional


def _tomllib():
    # imported only when a configuration file is read (~3 ms of start-up otherwise)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    return tomllib


class ConfigError(Exception):
    """Invalid configuration (exit code 2)."""


class Settings:
    """Settings of one run. A plain class rather than a dataclass (start-up, vllm_lint/record.py);
    its instance ``__dict__`` holds exactly the fields (the cache fingerprints ``vars(settings)``).
    ``config_files``: globs of vLLM --config YAML files; ``gpu``: the GPU product when the launch's
    context does not say; ``moe_*`` and ``ep_*``: anti-pattern thresholds (VL302/VL303);
    ``online``: model facts may be fetched from the Hugging Face hub (cached); ``source``: the file
    these settings came from (excludes are relative to its folder); ``target_origin``: where
    ``target_version`` came from, "configuration" (a configuration file) or "--target-version"
    (the command line), None when it is not set."""

    _FIELDS = ("target_version", "select", "extend_select", "ignore", "exclude", "extend_exclude",
               "per_file_ignores", "config_files", "gpu", "gpus", "moe_gpu_memory_utilization_threshold",
               "moe_gpu_memory_utilization_cap", "ep_min_activation_density", "online", "source", "target_origin")
    _KEYS = None  # set below

    def __init__(self, target_version: Optional[str] = None, select: Optional[list[str]] = None,
                 extend_select: Optional[list[str]] = None, ignore: Optional[list[str]] = None,
                 exclude: Optional[list[str]] = None, extend_exclude: Optional[list[str]] = None,
                 per_file_ignores: Optional[dict[str, list[str]]] = None, config_files: Optional[list[str]] = None,
                 gpu: Optional[str] = None, gpus: Optional[int] = None,
                 moe_gpu_memory_utilization_threshold: float = 0.95, moe_gpu_memory_utilization_cap: float = 0.90,
                 ep_min_activation_density: float = 0.02, online: bool = False,
                 source: Optional[Path] = None, target_origin: Optional[str] = None) -> None:
        self.target_version = target_version
        self.select = [] if select is None else select
        self.extend_select = [] if extend_select is None else extend_select
        self.ignore = [] if ignore is None else ignore
        self.exclude = [] if exclude is None else exclude
        self.extend_exclude = [] if extend_exclude is None else extend_exclude
        self.per_file_ignores = {} if per_file_ignores is None else per_file_ignores
        self.config_files = [] if config_files is None else config_files
        self.gpu = gpu
        self.gpus = gpus
        self.moe_gpu_memory_utilization_threshold = moe_gpu_memory_utilization_threshold
        self.moe_gpu_memory_utilization_cap = moe_gpu_memory_utilization_cap
        self.ep_min_activation_density = ep_min_activation_density
        self.online = online
        self.source = source
        self.target_origin = target_origin

    def __repr__(self) -> str:
        return f"Settings({', '.join(f'{k}={getattr(self, k)!r}' for k in self._FIELDS)})"

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self._FIELDS)

    __hash__ = None  # type: ignore[assignment]

    def merged(self, **overrides: Any) -> "Settings":
        data = {k: getattr(self, k) for k in self._FIELDS}
        for k, v in overrides.items():
            if v is not None and v != [] and v != ():
                data[k] = v
        return Settings(**data)


_TYPES: dict[str, type] = {
    "target-version": str,
    "select": list,
    "extend-select": list,
    "ignore": list,
    "exclude": list,
    "extend-exclude": list,
    "per-file-ignores": dict,
    "config-files": list,
    "gpu": str,
    "gpus": int,
    "moe-gpu-memory-utilization-threshold": float,
    "moe-gpu-memory-utilization-cap": float,
    "ep-min-activation-density": float,
    "online": bool,
}

# What each setting does: the configuration reference (`vllm-lint site build`, tests/site checks
# that every key has one).
DESCRIPTIONS: dict[str, str] = {
    "target-version": "The vLLM release to check against when the launch names none (`0.27` = the newest 0.27.x); "
                      "the command line's `--target-version` wins.",
    "select": "Rule codes or prefixes to enable (`VL1`, `VL101`), replacing the default set.",
    "extend-select": "Rule codes or prefixes to enable on top of the selection (opt-in rules included).",
    "ignore": "Rule codes or prefixes to disable.",
    "exclude": "Path patterns (gitignore syntax) never linted, replacing the default exclusions.",
    "extend-exclude": "Path patterns (gitignore syntax) never linted, on top of the default exclusions.",
    "per-file-ignores": "A table from a path pattern to the rule codes ignored in the files it matches.",
    "config-files": "Globs of vLLM `--config` YAML files to lint as such, even when no launch names them.",
    "gpu": "The GPU product (`H100`, `A100-80GB`) assumed when a launch's own context does not say (VL3xx/VL4xx).",
    "gpus": "The number of GPUs assumed when a launch's own context does not say (VL402).",
    "moe-gpu-memory-utilization-threshold": "VL302 reports `--gpu-memory-utilization` at or above this value on a "
                                            "mixture-of-experts model.",
    "moe-gpu-memory-utilization-cap": "The value VL302's unsafe fix lowers `--gpu-memory-utilization` to.",
    "ep-min-activation-density": "VL303 reports expert parallelism on a model whose routed activation density "
                                 "(experts per token / routed experts) is below this value.",
    "online": "Allow fetching model facts from the Hugging Face hub (cached) for models the shipped table lacks.",
}


def _validate(table: dict[str, Any], source: Path) -> Settings:
    s = Settings(source=source)
    for key, value in table.items():
        if key not in _TYPES:
            import difflib

            close = difflib.get_close_matches(key, list(_TYPES), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ConfigError(f"{source}: unknown setting '{key}'{hint}")
        want = _TYPES[key]
        ok = isinstance(value, want) and (want is bool or not isinstance(value, bool)) or (want is float and isinstance(value, int) and not isinstance(value, bool))
        if want is int and isinstance(value, bool):
            ok = False
        if not ok:
            raise ConfigError(f"{source}: setting '{key}' must be a {want.__name__}, got {type(value).__name__}")
        if want is list and not all(isinstance(x, str) for x in value):
            raise ConfigError(f"{source}: setting '{key}' must be a list of strings")
        if want is dict:
            for k, v in value.items():
                if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                    raise ConfigError(f"{source}: per-file-ignores['{k}'] must be a list of codes")
        setattr(s, key.replace("-", "_"), float(value) if want is float else value)
    if s.target_version is not None:
        s.target_origin = "configuration"
    return s


def _may_configure(raw: bytes) -> bool:
    """Whether a pyproject.toml can hold a ``tool.vllm-lint`` table: ``[tool.vllm-lint]``,
    ``[tool."vllm-lint"]``, ``tool.vllm-lint.x = ...``, a ``vllm-lint`` key under ``[tool]`` or
    an inline ``tool = {...}``. Never false when the table exists; a project that merely names
    vllm-lint (a dependency, a script) is not parsed."""
    if b"vllm-lint" not in raw:
        return False
    import re

    return bool(re.search(rb"tool\s*\.\s*[\"']?vllm-lint", raw)
                or re.search(rb"(?m)^\s*\[\s*tool\s*\]", raw)
                or re.search(rb"(?m)^\s*tool\s*=", raw))


def load_file(path: Path) -> Optional[Settings]:
    try:
        raw = path.read_bytes()
        if path.name == "pyproject.toml" and not _may_configure(raw):
            return None  # no [tool.vllm-lint] table: not worth parsing (benchmarks/README.md)
        data = _tomllib().loads(raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n"))
    except OSError as e:
        raise ConfigError(f"{path}: cannot read configuration: {e.strerror or e}") from None
    except ValueError as e:  # tomllib.TOMLDecodeError, UnicodeDecodeError
        raise ConfigError(f"{path}: invalid TOML: {e}") from None
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: [tool] must be a table")
    if path.name == "pyproject.toml":
        table = tool.get("vllm-lint")
        if table is None:
            return None
    else:
        table = tool.get("vllm-lint", data)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.vllm-lint] must be a table")
    return _validate(table, path)


def discover(start: Path) -> Settings:
    """Settings of the nearest configuration file at or above ``start``."""
    try:
        here = start.resolve()
    except (OSError, RuntimeError):  # a symlink loop: search from the directory holding it
        here = Path(os.path.abspath(start)).parent
    if here.is_file() or not here.exists():
        here = here.parent
    for d in [here, *here.parents]:
        for name in (".vllm-lint.toml", "pyproject.toml"):
            p = d / name
            if p.is_file():
                s = load_file(p)
                if s is not None:
                    return s
    return Settings()


def for_run(config_path: Optional[str], paths) -> Settings:
    """The configuration one run uses: the file named by ``--config``, else the nearest one above
    the first linted path."""
    if config_path:
        return load_file(Path(config_path)) or Settings(source=Path(config_path))
    return discover(Path(paths[0]))
