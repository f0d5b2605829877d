"""Configuration: ``[tool.vllm-lint]`` in ``pyproject.toml`` or a ``.vllm-lint.toml``, found by
walking up from the linted path (the nearest wins; ``.vllm-lint.toml`` before ``pyproject.toml``
in the same directory), overridden by command-line options. ``extend = "../base.toml"`` reads
another file first (paths relative to the file naming it) and lays this one over it.

The settings are declared once, in :data:`SETTINGS`: the validator reads that table, and so does
:func:`json_schema` (shipped as ``vllm_lint/data/vllm-lint.schema.json`` for editors; a test
keeps the two in step). Validation stays in-house: ``jsonschema`` costs more start-up than a
one-file lint."""

from __future__ import annotations

import errno
import os
import stat
import sys

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional
    from pathlib import Path


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
    context does not say; the keys rules declare (``Rule.settings``: VL302's and VL303's
    thresholds), one field each, their defaults the rules';
    ``online``: model facts may be fetched from the Hugging Face hub (cached); ``fail_on``: the
    lowest severity that fails a run (None: warning); ``severity``: code prefix -> severity;
    ``source``: the file these settings came from (excludes are relative to its folder);
    ``target_origin``: where ``target_version`` came from, "configuration" (a configuration file)
    or "--target-version" (the command line), None when it is not set. A run also sets ``layers``
    (the rule selection of each file in the ``extend`` chain, :func:`rule_layers`) and
    ``ignore_noqa``; they are in ``__dict__`` too, so the cache sees them."""

    _FIELDS = ("target_version", "select", "extend_select", "ignore", "exclude", "extend_exclude",
               "per_file_ignores", "config_files", "gpu", "gpus", "online", "fail_on", "severity",
               "force_exclude", "preview", "source", "target_origin")  # and the rules' keys (below)
    _KEYS = None  # set below

    def __init__(self, target_version: Optional[str] = None, select: Optional[list[str]] = None,
                 extend_select: Optional[list[str]] = None, ignore: Optional[list[str]] = None,
                 exclude: Optional[list[str]] = None, extend_exclude: Optional[list[str]] = None,
                 per_file_ignores: Optional[dict[str, list[str]]] = None, config_files: Optional[list[str]] = None,
                 gpu: Optional[str] = None, gpus: Optional[int] = None, online: bool = False,
                 fail_on: Optional[str] = None, severity: Optional[dict[str, str]] = None, force_exclude: bool = False,
                 preview: bool = False, source: Optional[Path] = None, target_origin: Optional[str] = None,
                 **rule_values: Any) -> None:
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
        for attribute, default in rule_defaults().items():  # the keys rules declare
            setattr(self, attribute, rule_values.pop(attribute, default))
        if rule_values:
            raise TypeError(f"no setting named {', '.join(sorted(rule_values))}")
        self.online = online
        self.fail_on = fail_on
        self.severity = {} if severity is None else severity
        self.force_exclude = force_exclude
        self.preview = preview
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
        out = Settings(**data)
        if "layers" in vars(self):
            out.layers = self.layers
        return out


class Setting:
    """One key of ``[tool.vllm-lint]``: its TOML type (``string``, ``array`` of strings, ``table``
    of code lists or of severities, ``integer``, ``number``, ``boolean``), what it means, and its
    bounds or choices."""

    __slots__ = ("type", "help", "minimum", "maximum", "choices")

    def __init__(self, type: str, help: str, minimum: Optional[float] = None, maximum: Optional[float] = None,
                 choices: Optional[tuple[str, ...]] = None) -> None:
        self.type, self.help, self.minimum, self.maximum, self.choices = type, help, minimum, maximum, choices


SEVERITIES = ("error", "warning", "info")

SETTINGS: dict[str, Setting] = {
    "extend": Setting("string", "Another configuration file to read first (relative to this one); this file's keys override it."),
    "target-version": Setting("string", "vLLM release to check against (0.27 = newest 0.27.x)."),
    "select": Setting("array", "Rule codes or prefixes to enable (replaces the default selection)."),
    "extend-select": Setting("array", "Rule codes or prefixes to enable on top of the selection."),
    "ignore": Setting("array", "Rule codes or prefixes to disable."),
    "exclude": Setting("array", "gitignore-style patterns of files and folders to skip (replaces the defaults)."),
    "extend-exclude": Setting("array", "gitignore-style patterns to skip in addition to `exclude`."),
    "force-exclude": Setting("boolean", "Apply the excludes to files named on the command line too (pre-commit)."),
    "per-file-ignores": Setting("codes-table", "Glob (relative to this file's folder) -> rule codes or prefixes to disable there."),
    "config-files": Setting("array", "Globs of vLLM --config YAML files to lint as such."),
    "gpu": Setting("string", "GPU product when a launch does not say (H100, H200, GB200...)."),
    "gpus": Setting("integer", "GPUs available to each launch when the launch does not say.", minimum=1),
    "online": Setting("boolean", "Allow fetching model facts (config.json) from the Hugging Face hub; cached."),
    "fail-on": Setting("string", "Lowest severity that makes the run exit 1 (default warning).", choices=SEVERITIES),
    "severity": Setting("severity-table", "Rule code or prefix -> the severity to report it with (the longest prefix wins)."),
    "preview": Setting("boolean", "Enable rules in preview (new in this vllm-lint release)."),
}


def _rule_settings() -> list[tuple[str, Any]]:
    """(code, RuleSetting) for each configuration key a rule declares, in rule order."""
    from .rules.base import registry

    return [(rule.code, spec) for rule in registry().values() for spec in rule.settings]


_RULE_DEFAULTS: dict[str, Any] = {}


def rule_defaults() -> dict[str, Any]:
    """Settings field -> default, of the keys the rules declare."""
    return _RULE_DEFAULTS


# the general keys, then each rule's own (ruff's per-linter settings), composed once
for _code, _spec in _rule_settings():
    if _spec.key in SETTINGS:
        raise ValueError(f"{_code} declares the setting {_spec.key!r}, which is already a setting")
    SETTINGS[_spec.key] = Setting(_spec.type, f"{_code}: {_spec.help}", minimum=_spec.minimum, maximum=_spec.maximum)
    _RULE_DEFAULTS[_spec.attribute] = _spec.default
Settings._FIELDS = Settings._FIELDS + tuple(_RULE_DEFAULTS)

# what each setting does, for the configuration reference (`vllm-lint site build`)
DESCRIPTIONS: dict[str, str] = {key: spec.help for key, spec in SETTINGS.items()}

_PYTHON = {"string": str, "array": list, "codes-table": dict, "severity-table": dict, "integer": int, "number": float,
           "boolean": bool}
_NAMES = {"string": "a string", "array": "a list of strings", "codes-table": "a table of code lists",
          "severity-table": "a table of severities", "integer": "an integer", "number": "a number",
          "boolean": "true or false"}
_TOML_NAMES = {str: "a string", list: "a list", dict: "a table", int: "an integer", float: "a number", bool: "a boolean"}


def _toml_kind(value: Any) -> str:
    for t in (bool, int, float, str, list, dict):
        if isinstance(value, t):
            return _TOML_NAMES[t]
    return type(value).__name__


def _check(key: str, value: Any, source: Path) -> Any:
    """``value`` of ``key`` as the settings hold it, or a ConfigError naming the file and the key."""
    spec = SETTINGS[key]
    want = _PYTHON[spec.type]
    ok = isinstance(value, want) and not (isinstance(value, bool) and want is not bool)
    if want is float and isinstance(value, int) and not isinstance(value, bool):
        ok = True
    if want is int and isinstance(value, float) and value.is_integer():
        value, ok = int(value), True  # 2.0 is an integer to JSON schema too
    if not ok:
        raise ConfigError(f"{source}: setting '{key}' must be {_NAMES[spec.type]}, got {_toml_kind(value)}")
    if spec.type == "array" and not all(isinstance(x, str) for x in value):
        raise ConfigError(f"{source}: setting '{key}' must be a list of strings")
    if spec.type == "codes-table":
        for k, v in value.items():
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ConfigError(f"{source}: {key}['{k}'] must be a list of codes")
    if spec.type == "severity-table":
        for k, v in value.items():
            if v not in SEVERITIES:
                raise ConfigError(f"{source}: {key}['{k}'] must be one of {', '.join(SEVERITIES)}, got {v!r}")
    if spec.choices and value not in spec.choices:
        raise ConfigError(f"{source}: setting '{key}' must be one of {', '.join(spec.choices)}, got {value!r}")
    if spec.minimum is not None and value < spec.minimum or spec.maximum is not None and value > spec.maximum:
        bounds = f"between {spec.minimum:g} and {spec.maximum:g}" if spec.maximum is not None else f"at least {spec.minimum:g}"
        raise ConfigError(f"{source}: setting '{key}' must be {bounds}, got {value}")
    if key == "target-version" and not value.strip():
        raise ConfigError(f"{source}: setting '{key}' must name a release (0.27 or 0.27.1)")
    return float(value) if want is float else value


def _validate(table: dict[str, Any], source: Path) -> Settings:
    s = Settings(source=source)
    for key, value in table.items():
        if key == "extend":
            _check(key, value, source)
            continue
        if key not in SETTINGS:
            import difflib

            close = difflib.get_close_matches(key, list(SETTINGS), n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            raise ConfigError(f"{source}: unknown setting '{key}'{hint}")
        setattr(s, key.replace("-", "_"), _check(key, value, source))
    if s.target_version is not None:
        s.target_origin = "configuration"
    s.layers = [_layer(table)]
    return s


def _layer(table: dict[str, Any]) -> tuple:
    """One file's rule selection: (select or None when not given, extend-select, ignore)."""
    return (table.get("select"), table.get("extend-select", []), table.get("ignore", []))


def rule_layers(settings: "Settings") -> list[tuple]:
    """The selection layers of ``settings``, base files first (ruff's order: each layer's
    ``select`` replaces what the layers below chose, ``extend-select`` adds, ``ignore`` removes)."""
    got = getattr(settings, "layers", None)
    if got is not None:
        return list(got)
    return [(settings.select or None, settings.extend_select, settings.ignore)]


def json_schema() -> dict:
    """The JSON schema of ``[tool.vllm-lint]``, from :data:`SETTINGS`."""
    props: dict[str, Any] = {}
    for key, spec in SETTINGS.items():
        if spec.type == "array":
            p: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
        elif spec.type == "codes-table":
            p = {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
        elif spec.type == "severity-table":
            p = {"type": "object", "additionalProperties": {"enum": list(SEVERITIES)}}
        else:
            p = {"type": spec.type}
        if key == "target-version":
            p["pattern"] = r"\S"
        if spec.choices:
            p["enum"] = list(spec.choices)
        if spec.minimum is not None:
            p["minimum"] = spec.minimum
        if spec.maximum is not None:
            p["maximum"] = spec.maximum
        p["description"] = spec.help
        props[key] = p
    return {"$schema": "http://json-schema.org/draft-07/schema#", "title": "[tool.vllm-lint]",
            "description": "vllm-lint configuration: [tool.vllm-lint] in pyproject.toml, or a .vllm-lint.toml",
            "type": "object", "properties": props, "additionalProperties": False}


def _may_configure(raw: bytes) -> bool:
    r"""Whether a pyproject.toml can hold a ``tool.vllm-lint`` table: ``[tool.vllm-lint]``,
    ``[tool."vllm-lint"]``, ``tool.vllm-lint.x = ...``, a ``vllm-lint`` key under ``[tool]`` or
    an inline ``tool = {...}``. Never false when the table exists; a project that merely names
    vllm-lint (a dependency, a script) is not parsed. What the expressions ``tool\s*\.\s*["']?vllm-lint``,
    ``(?m)^\s*\[\s*tool\s*\]`` and ``(?m)^\s*tool\s*=`` find, read around each ``vllm-lint`` and
    ``tool`` by hand: compiling the three was ~1 M instructions of a one-file lint in a repository
    whose pyproject.toml names vllm-lint (benchmarks/README.md, issue 31's ninth pass)."""
    if b"vllm-lint" not in raw:
        return False
    i = raw.find(b"vllm-lint")
    while i >= 0:  # tool . "vllm-lint", read backwards from it
        j = i - 1 if i and raw[i - 1] in b"\"'" else i
        j = _blank_before(raw, j)
        if j and raw[j - 1] == 0x2E:  # (".")
            j = _blank_before(raw, j - 1)
            if raw[max(j - 4, 0):j] == b"tool" and j >= 4:
                return True
        i = raw.find(b"vllm-lint", i + 1)
    i = raw.find(b"tool")
    while i >= 0:  # a line of "[tool]" or "tool =" (blank lines and blanks around it)
        after = _blank_after(raw, i + 4)
        start = _blank_before(raw, i)
        nxt = raw[after:after + 1]
        if nxt == b"]" and start and raw[start - 1] == 0x5B:  # ("[")
            if _line_starts_in(raw, _blank_before(raw, start - 1), start - 1):
                return True
        elif nxt == b"=" and _line_starts_in(raw, start, i):
            return True
        i = raw.find(b"tool", i + 1)
    return False


_BLANKS = b" \t\n\r\f\v"  # (``\s`` of a bytes expression)


def _blank_before(raw: bytes, i: int) -> int:
    """The start of the blanks that end at ``i``."""
    while i and raw[i - 1] in _BLANKS:
        i -= 1
    return i


def _blank_after(raw: bytes, i: int) -> int:
    """The end of the blanks that start at ``i``."""
    n = len(raw)
    while i < n and raw[i] in _BLANKS:
        i += 1
    return i


def _line_starts_in(raw: bytes, start: int, end: int) -> bool:
    r"""Whether a line starts after one of the blanks ``raw[start:end]`` or at ``start`` (the start of
    the text, or after a line break): what ``(?m)^\s*`` before ``end`` needs."""
    return start == 0 or raw[start - 1] == 0x0A or b"\n" in raw[start:end]


CONFIG_FILE_BYTES = 10 * 1024 * 1024  # a larger configuration file is refused (one line)


def load_file(path: "Path | str", _chain: tuple = ()) -> Optional[Settings]:
    """The settings of one file (and the files it extends); None for a pyproject.toml without a
    ``[tool.vllm-lint]`` table. ``path`` may be a string: the settings' ``source`` is a ``Path``,
    made (and ``pathlib`` imported) only for a file that configures vllm-lint."""
    from .fsutil import read_regular

    try:  # (a regular file, bounded: a configuration may be a link to /dev/zero or a FIFO)
        raw = read_regular(path, CONFIG_FILE_BYTES)
        if os.path.basename(path) == "pyproject.toml" and not _may_configure(raw):
            return None  # no [tool.vllm-lint] table: not worth parsing (benchmarks/README.md)
        from pathlib import Path

        path = Path(path)
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
    own = _validate(table, path)
    if "extend" not in table:
        return own
    ext = _check("extend", table["extend"], path)
    base_path = (path.parent / os.path.expanduser(ext)).resolve()
    if base_path in _chain or base_path == path.resolve():
        raise ConfigError(f"{path}: 'extend' makes a cycle through {base_path}")
    if not base_path.is_file():
        raise ConfigError(f"{path}: setting 'extend': no such file {base_path}")
    base = load_file(base_path, (*_chain, path.resolve())) or Settings(source=base_path)
    for key in table:
        if key != "extend":
            attr = key.replace("-", "_")
            setattr(base, attr, getattr(own, attr))
    base.source = path
    base.layers = rule_layers(base) + own.layers
    return base


def discover(start: "Path | str") -> Settings:
    """Settings of the nearest configuration file at or above ``start``. The folders are strings
    (``os.path``), walked as ``Path.resolve()`` and ``Path.parents`` walk them: ``pathlib`` (with
    ``urllib.parse`` and ``ipaddress``, ~16 M instructions) is not imported for a run without a
    configuration file (benchmarks/README.md, issue 31's sixth pass)."""
    from .fsutil import path_is

    start = os.fspath(start)
    try:
        here = _resolved(start)
    except (OSError, RuntimeError):  # a symlink loop: search from the directory holding it
        here = os.path.dirname(os.path.abspath(start))
    if path_is(here, stat.S_ISREG) or not path_is(here):
        here = os.path.dirname(here)
    while True:
        for name in (".vllm-lint.toml", "pyproject.toml"):
            p = os.path.join(here, name)
            if path_is(p, stat.S_ISREG):
                s = load_file(p)
                if s is not None:
                    return s
        up = os.path.dirname(here)
        if up == here:
            return Settings()
        here = up


def _resolved(path: str) -> str:
    """``str(Path(path).resolve())``: the real path, a symlink loop raising RuntimeError."""
    s = os.path.realpath(path)
    try:
        os.stat(s)
    except OSError as e:
        _loop(e)
    return s


def _loop(e: OSError) -> None:
    if e.errno == errno.ELOOP:
        raise RuntimeError(f"Symlink loop from {e.filename!r}")


def for_run(config_path: Optional[str], paths, isolated: bool = False) -> Settings:
    """The configuration one run uses: the file named by ``--config``, else the nearest one above
    the first linted path; none with ``isolated`` (``--isolated``)."""
    if isolated:
        return Settings()
    if config_path:
        from pathlib import Path

        return load_file(Path(config_path)) or Settings(source=Path(config_path))
    return discover(paths[0])


def __getattr__(name: str) -> Any:
    if name == "SCHEMA_FILE":  # (a Path: made when asked, so the lint path imports no pathlib)
        from pathlib import Path

        return Path(__file__).resolve().parent / "data" / "vllm-lint.schema.json"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

if __name__ == "__main__":  # python -m vllm_lint.settings > vllm_lint/data/vllm-lint.schema.json
    import json

    print(json.dumps(json_schema(), indent=2))
