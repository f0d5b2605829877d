"""Rules: each a module ``vlNNN_<name>.py`` in this package whose docstring is its documentation.

A rule module defines ``RULE = Rule(code=..., name=..., ...)`` and decorates its check function
with ``@RULE.check``. Adding a rule touches one new module and one fixture folder
(``tests/rules/<code>/``); the registry finds it by walking this package.

Rules know launches and surfaces, not formats: they read ``LintContext`` (the parsed arguments of
one launch, its environment, the target release's surface and the timeline) and emit
``Diagnostic`` objects whose fixes are byte ``Edit``s (``vllm_lint.launch``), built by the helpers in
``rules/_status.py`` and ``knowledge/__init__.py``.
"""

from __future__ import annotations

import os
import re

from ..launch import Edit, EnvAssign, Launch, Span
from ..record import Record, import_module

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Literal, Optional

    from ..frontends.base import Format

    Severity = Literal["error", "warning", "info"]
    Applicability = Literal["safe", "unsafe", "display-only"]

#: The one severity contract every rule obeys (README "Severity", docs/rules.md, each rule's entry).
SEVERITY_CONTRACT: dict[str, str] = {
    "error": "the release refuses the launch: its parser rejects the command line, or the config it builds "
             "at start fails",
    "warning": "accepted, but ignored, deprecated, changed in meaning, or a likely mistake",
    "info": "advice",
}


class Fix(Record):
    __slots__ = ("edits", "applicability", "message")

    def __init__(self, edits: list[Edit], applicability: Applicability, message: str) -> None:
        self.edits = edits
        self.applicability = applicability
        self.message = message


class Diagnostic(Record):
    """One finding. ``option``: the canonical option or variable name involved; ``line`` (1-based)
    when the span is unknown (parse errors). The engine fills in ``row``, ``column``, ``end_row``
    and ``end_column`` from the file's bytes; ``fix_blocked`` says why a fix exists but was not
    written (it would not re-parse)."""

    __slots__ = ("code", "message", "path", "span", "severity", "fix", "option", "target_version", "line", "row",
                 "column", "end_row", "end_column", "fix_blocked")

    def __init__(self, code: str, message: str, path: str, span: Optional[Span], severity: Severity = "error",
                 fix: Optional[Fix] = None, option: Optional[str] = None, target_version: Optional[str] = None,
                 line: Optional[int] = None, row: int = 0, column: int = 0, end_row: int = 0, end_column: int = 0,
                 fix_blocked: Optional[str] = None) -> None:
        self.code = code
        self.message = message
        self.path = path
        self.span = span
        self.severity = severity
        self.fix = fix
        self.option = option
        self.target_version = target_version
        self.line = line
        self.row = row
        self.column = column
        self.end_row = end_row
        self.end_column = end_column
        self.fix_blocked = fix_blocked

    @property
    def fixable(self) -> bool:
        return self.fix is not None and self.fix.applicability != "display-only"

    def fix_applies(self, unsafe_fixes: bool) -> bool:
        """Whether ``--fix`` applies this finding's fix (with ``--unsafe-fixes`` or not): the
        ``[*]`` mark of the text output, the editor's quick fixes."""
        return self.fix is not None and (self.fix.applicability == "safe"
                                         or (unsafe_fixes and self.fix.applicability == "unsafe"))


class Memo(Record):
    """What the shared helpers computed once for one context, so that the rules asking after the
    first get it without a pass of their own: each option's status by ``id`` of its
    ``ParsedArg`` (``option_status``) and the options grouped by timeline state once every one
    has its status (``options_by_state``; ``rules/_status.py``), the same for the ``VLLM_``
    variables (``env_status`` by name, ``env_by_state``; ``rules/_env_status.py``), the last
    assignment of each variable in the launch's and in the file's environment (``env_last``), the
    parallel layout (``layout``) and the GPUs (``gpus``; ``knowledge/``), the model's facts (``model``:
    facts, why not, the name looked up; ``knowledge.layout.model_facts``) and whether their match was
    noted for ``--verbose`` (``model_noted``), the platform plugins the launch runs on (``plugins``;
    ``surface/plugins.py``)."""

    __slots__ = ("option_status", "options_by_state", "env_status", "env_by_state", "env_last", "layout", "gpus",
                 "model", "model_noted", "plugins")

    def __init__(self) -> None:
        self.option_status: dict[int, Any] = {}
        self.options_by_state: Optional[dict[str, list]] = None
        self.env_status: dict[str, Any] = {}
        self.env_by_state: Optional[dict[str, list]] = None
        self.env_last: Optional[tuple[dict[str, EnvAssign], dict[str, EnvAssign]]] = None
        self.layout: Any = None
        self.gpus: Any = None
        self.model: Optional[tuple[Any, str, Optional[str]]] = None
        self.model_noted = False
        self.plugins: Optional[frozenset[str]] = None  # the platform plugins the launch runs on


class LintContext(Record):
    """Everything a rule may read about one launch (or one file's loose environment).

    ``args``: list of ``argv.ParsedArg``; ``surface``: the ``surface.db.Surface`` of the target
    release; ``db``: the ``surface.db.Database``; ``target_source``: "--target-version", "config",
    "image-tag", "newest in database", ...; ``settings``: ``settings.Settings``; ``extraction``:
    the file's whole ``launch.Extraction`` (its loose environment, other launches);
    ``file_format``: the file's registered format (``frontends.base.Format``: what its text is,
    asked by property, never by name), None for a context built outside a file's analysis;
    ``skipped``: why rules stayed silent (``--verbose``; ``notes`` False: not kept, the engine shows
    none); ``memo``: the shared helpers' results
    (:class:`Memo`); ``target_choice``: how the engine chose the release
    (``pipeline.targeting.Choice``: ``kind``, ``named``, the deciding ``hint``), None outside it."""

    __slots__ = ("path", "launch", "args", "env", "surface", "db", "target", "target_source", "settings", "data",
                 "extraction", "file_format", "skipped", "memo", "target_choice", "notes")

    def __init__(self, path: str, launch: Optional[Launch], args: list[Any], env: list[EnvAssign], surface: Any,
                 db: Any, target: str, target_source: str, settings: Any, data: bytes = b"",
                 extraction: Any = None, file_format: Optional["Format"] = None) -> None:
        self.path = path
        self.launch = launch
        self.args = args
        self.env = env
        self.surface = surface
        self.db = db
        self.target = target
        self.target_source = target_source
        self.settings = settings
        self.data = data
        self.extraction = extraction
        self.file_format = file_format
        self.skipped: list[str] = []
        self.memo = Memo()
        self.target_choice: Any = None
        self.notes = True

    @property
    def documentation(self) -> bool:
        """The file is documentation (its format says so: Markdown, notebooks), so its launches
        are examples rather than deployments."""
        return self.file_format is not None and self.file_format.documentation

    def skip(self, rule: "Rule", reason: str) -> None:
        """Record why a rule stayed silent (shown with --verbose): an unknown model, no GPU count."""
        if self.notes:
            self.skipped.append(f"{rule.code} skipped: {reason}")

    def diag(self, rule: "Rule", message: str, span: Optional[Span], *, fix: Optional[Fix] = None,
             option: Optional[str] = None, severity: Optional[Severity] = None) -> Diagnostic:
        if span is None and self.launch is not None:
            span = self.launch.span  # words with no exact position (a folded YAML scalar): the launch
        elif self.launch is not None:
            message += _assumed(self.launch, span, message, self.data)
        return Diagnostic(code=rule.code, message=message, path=self.path, span=span,
                          severity=severity or rule.severity, fix=fix, option=option,
                          target_version=self.target)


def _assumed(launch: Launch, span: Span, message: str, data: bytes = b"") -> str:
    """What a finding at ``span`` must add when it is about a value that is an assumption
    (``Token.assumed``: the default of an environment variable): a finding on the value, or on
    its option or key that quotes it; or about a value read through variables (``Token.origin``):
    where each is set, ``(`MODEL`, line 3)``, for a finding on the word, on its option quoting
    it, or quoting it in backticks anywhere. Else ""."""
    def within(outer: Optional[Span]) -> bool:
        return outer is not None and outer.start <= span.start and span.end <= outer.end

    def quoted(text: str) -> bool:
        return re.search(r"(?<![\w.])" + re.escape(text) + r"(?![\w.])", message) is not None

    toks = launch.tokens
    for i, t in enumerate(toks):
        if t.assumed and (within(t.span) or i and toks[i - 1].span == span and quoted(t.text)):
            return f" ({t.assumed})"
    notes: list[str] = []
    for i, t in enumerate(toks):
        if t.origin and (within(t.span) or i and toks[i - 1].span == span and quoted(t.text)
                         or f"`{t.text}`" in message or _names(t.text, quoted)):
            note = _origin(t.origin, data)
            if note not in notes:
                notes.append(note)
    if notes:
        return f" ({'; '.join(notes)})"
    for k in launch.keyed:
        if k.assumed and (within(k.value_span) or k.key_span == span and quoted(str(k.value))):
            return f" ({k.assumed})"
    return ""


def _names(text: str, quoted: Callable[[str], bool]) -> bool:
    """Whether a message names the model (or path) ``text``: by its last component, when that is a
    name rather than a number (``Llama-4-Maverick-17B-128E-Instruct`` for ``meta-llama/...``)."""
    last = text.rstrip("/").rsplit("/", 1)[-1]
    return len(last) >= 4 and any(c.isalpha() for c in last) and quoted(last)


def _origin(origin: tuple, data: bytes) -> str:
    """Where a value read through variables comes from: ```MODEL`, line 3`` per variable."""
    out = []
    for name, sp in origin:
        if sp is None:
            out.append(f"`{name}`")
        else:
            line = data.count(b"\n", 0, sp.start) + 1
            out.append(f"`{name}`, line {line}")
    return "; ".join(dict.fromkeys(out))


if TYPE_CHECKING:
    CheckFn = Callable[[LintContext], Iterable[Diagnostic]]


class RuleSetting(Record):
    """A key of the configuration (``[tool.vllm-lint]``) that one rule reads, declared by the rule
    (as ruff's per-linter settings): its TOML ``type`` (``number``, ``integer``, ``boolean``,
    ``string``), its ``default``, what it means and its bounds. ``settings.SETTINGS`` composes the
    rules' keys with the general ones; the rule reads ``ctx.settings.<key with _>``."""

    __slots__ = ("key", "type", "default", "help", "minimum", "maximum")

    def __init__(self, key: str, type: str, default: Any, help: str, minimum: Optional[float] = None,
                 maximum: Optional[float] = None) -> None:
        self.key, self.type, self.default, self.help = key, type, default, help
        self.minimum, self.maximum = minimum, maximum

    @property
    def attribute(self) -> str:
        return self.key.replace("-", "_")


#: a rule's trigger (``Rule.triggers``) that any ``VLLM_`` variable in the context's environment sets
VLLM_VARIABLES = "VLLM_*"

#: the timeline states of an option that rules ask for (``rules/_status.py``): not "ok"
OPTION_STATES = ("removed", "renamed", "unknown", "too-new", "ambiguous")


def option_state(state: str) -> str:
    """A rule's trigger (``Rule.triggers``) that a launch sets when one of its options has the
    timeline state ``state`` (:data:`OPTION_STATES`) at the target (``rules/_status.py``
    ``states_named``): no option string or variable name holds a space."""
    return "option " + state


class Rule(Record):
    """A rule's metadata and check. ``fix``: the applicability of the fix this rule offers, if any;
    ``settings``: the configuration keys it reads (:class:`RuleSetting`); ``triggers``: when the
    rule can say something only about a launch that sets one of a few options or variables, those
    names (options by their ``dest``, as ``knowledge.layout.dest_of`` gives it; variables by name,
    in the launch's or the file's environment, or :data:`VLLM_VARIABLES` for any ``VLLM_``
    variable there, or :func:`option_state` for an option in a timeline state at the target,
    looked up once per launch in the release's tables, or a fact of the context, ``rules._facts``:
    its GPUs, its image, whether it is the file's first): the engine does not call its check for a context
    that names none of them (``pipeline.engine.Linter._run``). A rule that declares them must stay
    silent without them, no finding and no ``--verbose`` note: tests/core/test_rule_triggers.py
    runs every rule on every fixture and holds it to that."""

    __slots__ = ("code", "name", "summary", "severity", "fix", "default_enabled", "doc", "_check", "preview",
                 "secret", "settings", "triggers")

    def __init__(self, code: str, name: str, summary: str, severity: Severity = "error",
                 fix: Optional[Applicability] = None, default_enabled: bool = True, doc: str = "",
                 _check: Optional[CheckFn] = None, preview: bool = False, secret: bool = False,
                 settings: tuple[RuleSetting, ...] = (), triggers: Optional[frozenset[str]] = None) -> None:
        self.code = code
        self.name = name
        self.summary = summary
        self.severity = severity
        self.fix = fix
        self.default_enabled = default_enabled
        self.doc = doc
        self._check = _check
        self.preview = preview  # new in this vllm-lint release: runs only with --preview (CHANGELOG.md)
        self.secret = secret  # its findings' spans are secret values: a report never prints them (report.masked)
        self.settings = settings
        self.triggers = triggers

    def check(self, fn: CheckFn) -> CheckFn:
        self._check = fn
        return fn

    def run(self, ctx: LintContext) -> Iterable[Diagnostic]:
        if self._check is None:
            return ()
        return self._check(ctx)

    @property
    def page(self) -> str:
        """The rule's page in the website ``vllm-lint site build`` writes, relative to its root."""
        return f"rules/{self.code}/index.html"

    def url(self, base: Optional[str]) -> Optional[str]:
        """The rule's page where the built website is published (``base``: ``--docs-url``, the
        language server's ``documentationBaseUrl``), else None: no address is made up, and
        ``vllm-lint rule CODE`` prints the same documentation."""
        return f"{base.rstrip('/')}/{self.page}" if base else None


_REGISTRY: Optional[dict[str, Rule]] = None


def _rule_modules(paths: Iterable[str]) -> list[str]:
    """Names of the ``vl*`` modules of the rules package (a directory listing: pkgutil's import
    and module walk cost start-up time; benchmarks/README.md)."""
    names: set[str] = set()
    for d in paths:
        try:
            entries = os.listdir(d)
        except OSError:  # not a directory (zip import): ask pkgutil
            import pkgutil

            names.update(i.name for i in pkgutil.iter_modules([d]) if i.name.startswith("vl"))
            continue
        names.update(n[:-3] for n in entries if n.startswith("vl") and n.endswith(".py"))
    return sorted(names)


def registry() -> dict[str, Rule]:
    """All rules, by code, in code order. Importing a rule module registers nothing globally;
    the module's ``RULE`` object is collected here."""
    global _REGISTRY
    if _REGISTRY is None:
        from .. import rules as pkg

        found: dict[str, Rule] = {}
        for name in _rule_modules(pkg.__path__):
            mod = import_module(f"{pkg.__name__}.{name}")
            rule = getattr(mod, "RULE", None)
            if isinstance(rule, Rule):
                if not rule.doc:
                    rule.doc = (mod.__doc__ or "").strip()
                if rule.code in found:
                    raise RuntimeError(f"rule code {rule.code} defined twice")
                found[rule.code] = rule
        _REGISTRY = dict(sorted(found.items()))
    return _REGISTRY


def select_rules(select: Iterable[str], ignore: Iterable[str], extend_select: Iterable[str] = (),
                 preview: bool = False) -> list[Rule]:
    """ruff-style selection by code prefix: ``VL1`` selects VL101..VL109 (one layer)."""
    return select_layered([(list(select) or None, list(extend_select), list(ignore))], preview)


ALL_PREFIX = ""  # ``ALL`` in a code list: the prefix every code starts with


def select_layered(layers: Iterable[tuple], preview: bool = False) -> list[Rule]:
    """The rules chosen by selection layers, lowest first (the files a configuration extends, the
    configuration, the command line), as ruff resolves them: a layer's ``select`` (None: not given)
    replaces the choice of the layers below, its ``extend-select`` adds and its ``ignore`` removes;
    within a layer the longest matching prefix decides (``ignore = ["VL1"]`` with
    ``extend-select = ["VL101"]`` keeps VL101), an ignore winning a tie. A rule that is off by
    default is chosen only by a prefix longer than ``VLn`` (``VL00``, ``VL003``); a preview rule
    only with ``preview``. ``ALL`` (as ruff's) is the shortest prefix of all: it chooses every rule,
    the ones off by default too, and any other prefix in the same layer outranks it."""
    def prefixes(codes):
        return [ALL_PREFIX if c.upper() == "ALL" else c.upper() for c in codes or ()]

    layers = [(None if sel is None else prefixes(sel), prefixes(ext), prefixes(ign)) for sel, ext, ign in layers]
    out = []
    for code, rule in registry().items():
        chosen = rule.default_enabled
        for sel, ext, ign in layers:
            on = [p for p in (sel or []) + ext if code.startswith(p)
                  and (rule.default_enabled or code == p or len(p) > 3 or p == ALL_PREFIX)]
            off = [p for p in ign if code.startswith(p)]
            if sel is not None and not on:
                chosen = False
            if on or off:
                chosen = max(map(len, on), default=-1) > max(map(len, off), default=-1)
        if chosen and (preview or not rule.preview):
            out.append(rule)
    return out
