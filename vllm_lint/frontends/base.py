"""A format is a unit: the registry of formats and the protocol each one's module implements.

The pipeline (engine, discovery, suppression, the fixer, --add-noqa, the audit) knows no format
by name: it asks this registry which format a file is (:func:`format_by_filename`,
:func:`format_by_content`) and then the format's :class:`Format` for everything format-specific.

**Registering a format is one entry** in :data:`FORMATS` (its name, the module that implements
it, and what it claims by file name and by content: that part is data, so that screening a
walked file imports no front-end) plus that module. Order matters twice: a file name's suffix is
matched before any name prefix or ending (``Dockerfile.yaml`` is YAML), and the content claims
are tried in the order of the entries (a shebang line settles the format on its own).

The module of a format provides (the first two are required)::

    might_contain_launch(data) -> bool          the cheap byte pre-filter, no parsing
    extract(data, path) -> Extraction           raises launch.ParseError on bad input
    extract_in_mode(data, path, mode) -> Extraction
                                                when the entry lists more ``modes`` than AUTO
    parse_check(before, after) -> str | None    why ``after`` (a fixed file) no longer parses as
                                                well as ``before`` did; the fixer writes nothing then
    same_meaning(before, after) -> str | None   why ``after`` (a comment added) means something else
    suppression_rows(index, row0) -> list[int]  rows, besides the finding's own line and the
                                                comment lines above it, whose suppression comment
                                                applies to row ``row0`` (``vllm_lint.pipeline.suppress``)
    is_comment(data, offset) -> bool            whether the ``#`` at byte ``offset`` starts a comment
                                                (default: yes; YAML: not inside a quoted or plain
                                                scalar, whose text it is part of)
    comment_placements(lines, idx) -> list[int] rows where --add-noqa may put a trailing comment
                                                for row ``idx``, besides a standalone comment line
                                                above (default: the row itself)
    comment_line_row(lines, idx) -> int | None  the row above which --add-noqa may insert that
                                                standalone comment line (default: ``idx``;
                                                None: nowhere)
    embedded_at(data, row0) -> (format, first_row, end_row) | None
                                                for a format that holds others (Markdown fences):
                                                the format and rows of the embedded text at ``row0``
    warm_up() -> None                           load what a forked worker would load again
    shell_text(data) -> bytes | None            for a format whose text only partly runs in a POSIX shell
                                                (Makefile recipes, Markdown shell blocks): that text,
                                                same length, the rest blanked (the rules about shell
                                                syntax, VL408); a ``shell_lines`` format's text is all of it
"""

from __future__ import annotations

import os
import re

from ..record import import_module

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional


class Mode:
    """How a file came to be linted, one of three values: found by a directory walk (``AUTO``),
    named on the command line (``EXPLICIT``), or a vLLM ``--config`` file, named by a launch or
    matched by the ``config-files`` setting (``CONFIG``). Plain strings rather than an ``Enum``
    (whose class creation every start-up would pay): they read, compare and are cached as
    themselves."""

    AUTO = "auto"
    EXPLICIT = "explicit"
    CONFIG = "config"
    ALL = (AUTO, EXPLICIT, CONFIG)


class Format:
    """One registered format. ``suffixes``: file-name suffixes (as ``PurePath.suffix``, lower
    case); ``prefixes``/``endings``: how else a (lower-cased) file name can say it; ``shebang``:
    a pattern searched in a ``#!`` first line; ``content``: a pattern matched at the start of the
    head of a file whose name says nothing (``content_anywhere``: searched, multi-line);
    ``modes``: the modes in which its extraction differs (a format whose modes are only AUTO
    reads a file the same way however it was named; one with EXPLICIT skips the pre-filter for
    a file named on the command line; one with CONFIG reads vLLM ``--config`` files);
    ``embeds``: the formats its text can hold (loaded with it before workers fork);
    ``last_resort``: the format of any text file no other format claims whose ``content`` pattern
    is found anywhere in it (the whole file, not only its head), even after a ``#!`` line no
    format claims, except a file whose suffix is one of ``refuses`` (data and markup, whose lines
    are no command lines); the ``--verbose`` account says its files were ``read as plain text``;
    ``documentation``: its files are documentation, so their launches are examples
    (``LintContext.documentation``: VL501 leaves the secrets of examples alone); ``types``: the
    file types pre-commit's ``identify`` gives its files (``.pre-commit-hooks.yaml``'s
    ``types_or``; default: the name); ``language_ids``: the language identifiers editors give
    its documents (the language server's fallback for a buffer whose name says nothing).

What a format's text is, for the rules and the language server that ask instead of naming it:
``keyword_options``: options are written as keyword arguments of an engine call
(``LLM(max_model_len=...)``), so a bare word can be an option; ``shell_lines``: a ``pip install``
line of the file's text is run by a POSIX shell as written (a script, a ``RUN`` line, a CI
``run:`` block), so its unquoted ``>`` is a redirection; ``builds_image``: its ``FROM`` and ``RUN``
instructions build a container image."""

    __slots__ = ("name", "module_name", "suffixes", "prefixes", "endings", "shebang", "content",
                 "content_anywhere", "last_resort", "refuses", "modes", "embeds", "documentation", "types", "language_ids", "keyword_options",
                 "shell_lines", "builds_image", "_module")

    def __init__(self, name: str, module: str, *, suffixes: tuple[str, ...] = (), prefixes: tuple[str, ...] = (),
                 endings: tuple[str, ...] = (), shebang: Optional[bytes] = None, content: Optional[bytes] = None,
                 content_anywhere: bool = False, last_resort: bool = False, refuses: tuple[str, ...] = (),
                 modes: tuple[str, ...] = (Mode.AUTO,),
                 embeds: tuple[str, ...] = (), documentation: bool = False,
                 types: Optional[tuple[str, ...]] = None, language_ids: tuple[str, ...] = (),
                 keyword_options: bool = False, shell_lines: bool = False, builds_image: bool = False) -> None:
        self.name = name
        self.module_name = module
        self.suffixes = suffixes
        self.prefixes = prefixes
        self.endings = endings
        self.shebang = shebang
        self.content = content
        self.content_anywhere = content_anywhere
        self.last_resort = last_resort
        self.refuses = refuses
        self.modes = modes
        self.embeds = embeds
        self.documentation = documentation
        self.types = (name,) if types is None else types
        self.language_ids = language_ids
        self.keyword_options = keyword_options
        self.shell_lines = shell_lines
        self.builds_image = builds_image
        self._module: Any = None

    def __repr__(self) -> str:
        return f"Format({self.name!r})"

    @property
    def module(self) -> Any:
        """The format's module, imported at first use."""
        if self._module is None:
            self._module = import_module(self.module_name)
        return self._module

    # -- what a file's bytes hold
    def might_contain_launch(self, data: bytes) -> bool:
        return self.module.might_contain_launch(data)

    def might_contain_launch_at(self, data: bytes, path: Any) -> bool:
        """The pre-filter's second chance for bytes that fail :meth:`might_contain_launch`: what
        the files around ``path`` make of them (a chart's template rendered from its values)."""
        hook = getattr(self.module, "might_contain_launch_at", None)
        return hook is not None and hook(data, os.fspath(path))

    def depends_on_others(self, data: bytes) -> bool:
        """Whether the pre-filter's verdict on ``data`` rests on other files (not kept as the
        file's own in the result cache)."""
        hook = getattr(self.module, "depends_on_others", None)
        return hook is not None and hook(data)

    def skips_prefilter(self, mode: str) -> bool:
        """Whether a file named this way is read even when the pre-filter says no launch: a
        ``--config`` file, or a file named explicitly in a format that reads more when named."""
        return mode == Mode.CONFIG or (mode == Mode.EXPLICIT and Mode.EXPLICIT in self.modes)

    def mode_matters(self) -> bool:
        """Whether how a file was named can change what it gives (the result cache keys on it)."""
        return len(self.modes) > 1

    def extract(self, data: bytes, path: str, mode: str = Mode.AUTO):
        """The format's :class:`~vllm_lint.launch.Extraction` of ``data`` read in ``mode``."""
        if mode not in Mode.ALL:
            raise ValueError(f"unknown lint mode {mode!r} (one of {', '.join(Mode.ALL)})")
        if len(self.modes) > 1:
            return self.module.extract_in_mode(data, path, mode)
        return self.module.extract(data, path)

    # -- checks before a write
    def parse_check(self, before: bytes, after: bytes) -> Optional[str]:
        """None when ``after`` parses at least as well as ``before``; else the reason."""
        check = getattr(self.module, "parse_check", None)
        return None if check is None else check(before, after)

    def same_meaning(self, before: bytes, after: bytes) -> Optional[str]:
        """None when ``after`` means what ``before`` meant; else why not."""
        check = getattr(self.module, "same_meaning", None)
        return None if check is None else check(before, after)

    # -- suppression comments
    def suppression_rows(self, index: Any, row0: int) -> list[int]:
        rows = getattr(self.module, "suppression_rows", None)
        return [] if rows is None else rows(index, row0)

    def is_comment(self, data: bytes, offset: int) -> bool:
        check = getattr(self.module, "is_comment", None)
        return True if check is None else check(data, offset)

    def comment_placements(self, lines: list[bytes], idx: int) -> list[int]:
        rows = getattr(self.module, "comment_placements", None)
        return [idx] if rows is None else rows(lines, idx)

    def comment_line_row(self, lines: list[bytes], idx: int) -> Optional[int]:
        row = getattr(self.module, "comment_line_row", None)
        return idx if row is None else row(lines, idx)

    # -- what a POSIX shell runs of it
    def shell_text(self, data: bytes) -> Optional[bytes]:
        """The text of ``data`` a POSIX shell runs as written, offsets kept (the rest blanked); None
        when none does."""
        if self.shell_lines:
            return data
        hook = getattr(self.module, "shell_text", None)
        return None if hook is None else hook(data)

    def holds_others(self) -> bool:
        """Whether the format's text is mostly host to other formats' (Markdown fences), so that
        comments go only inside what it embeds (``embedded_at``)."""
        return hasattr(self.module, "embedded_at")

    def embedded_at(self, data: bytes, row0: int) -> Optional[tuple[str, int, int]]:
        find = getattr(self.module, "embedded_at", None)
        return None if find is None else find(data, row0)

    def warm_up(self) -> None:
        hook = getattr(self.module, "warm_up", None)
        if hook is not None:
            hook()


#: The registered formats (see the module docstring). A new format is one more entry here.
#: a command's option setting a variable that a container's entrypoint turns into a vLLM option
#: (``docker run -e SM_VLLM_MAX_MODEL_LEN=4096``, ``--env=SM_VLLM_...``: the prefixes of
#: ``container.ENV_OPTIONS``, kept here so that this registry imports no reader); a run of such a
#: container is a launch (``frontends/shell.py``), in a plain-text note too; prose that names a
#: variable is none. Files holding none of :data:`ENV_RUN_BYTES` skip it.
ENV_RUN_MARKER = rb"(?<![\w-])(?:-e|--env)(?:[ \t]+|=)[\"']?SM_VLLM_[A-Z0-9]"
ENV_RUN_BYTES = (b"SM_VLLM_",)

FORMATS: tuple[Format, ...] = (
    Format("shell", "vllm_lint.frontends.shell", suffixes=(".sh", ".bash", ".zsh", ".ksh"),
           shebang=rb"\b(ba|z|k|da)?sh\b", language_ids=("shellscript", "sh", "bash", "zsh"), shell_lines=True),
    Format("python", "vllm_lint.frontends.python", suffixes=(".py", ".pyw"), shebang=rb"python",
           embeds=("shell",), language_ids=("python",), keyword_options=True),
    Format("dockerfile", "vllm_lint.frontends.dockerfile", prefixes=("dockerfile", "containerfile"),
           endings=(".dockerfile", ".containerfile", "-dockerfile", "_dockerfile", "-containerfile", "_containerfile"),
           content=rb"(?i)(?:\s*#[^\n]*\n)*\s*(?:ARG\s[^\n]*\n\s*)*FROM\s+\S", embeds=("shell",),
           language_ids=("dockerfile",), shell_lines=True, builds_image=True),
    Format("yaml", "vllm_lint.frontends.yaml", suffixes=(".yaml", ".yml"),
           content=rb"(?m)^(?:(?:apiVersion|kind|services|version|steps|jobs|run|setup|resources):|#cloud-config\b)",
           content_anywhere=True, modes=(Mode.AUTO, Mode.EXPLICIT, Mode.CONFIG), embeds=("shell",),
           language_ids=("yaml", "dockercompose", "helm", "github-actions-workflow"), shell_lines=True),
    Format("markdown", "vllm_lint.frontends.markdown", suffixes=(".md", ".markdown"),
           embeds=("shell", "yaml", "python", "dockerfile"), documentation=True, language_ids=("markdown",)),
    # issue 17: each its own module
    Format("json", "vllm_lint.frontends.json", suffixes=(".json",), embeds=("yaml", "shell"), language_ids=("json",)),
    Format("systemd", "vllm_lint.frontends.systemd", suffixes=(".service",), embeds=("shell",), types=(),
           language_ids=("systemd",)),
    Format("makefile", "vllm_lint.frontends.makefile", suffixes=(".mk",), prefixes=("makefile", "gnumakefile"),
           embeds=("shell",), language_ids=("makefile",)),
    Format("terraform", "vllm_lint.frontends.terraform", suffixes=(".tf", ".tftpl", ".nomad", ".hcl"),
           embeds=("yaml", "shell", "plaintext"), language_ids=("terraform",)),
    Format("javascript", "vllm_lint.frontends.javascript", suffixes=(".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"),
           types=("ts", "javascript"), language_ids=("typescript", "javascript")),
    Format("nix", "vllm_lint.frontends.nix", suffixes=(".nix",), embeds=("plaintext",), language_ids=("nix",)),
    Format("powershell", "vllm_lint.frontends.powershell", suffixes=(".ps1", ".psm1"), embeds=("shell",),
           language_ids=("powershell",)),
    Format("notebook", "vllm_lint.frontends.notebook", suffixes=(".ipynb",),
           embeds=("yaml", "shell", "python", "markdown"), documentation=True, types=("jupyter",)),
    # issue 27: the command lines of any other text file (a Slurm job, a template, a Procfile);
    # last, so that every other claim is tried first
    Format("plaintext", "vllm_lint.frontends.plaintext",
           content=rb"\bvllm[ \t]+serve\b|-m[ \t]+vllm\.entrypoints\b|\bvllm/vllm-openai\b|" + ENV_RUN_MARKER,
           content_anywhere=True, last_resort=True, embeds=("shell",), types=(),
           refuses=(".csv", ".tsv", ".jsonl", ".ndjson", ".log", ".html", ".htm", ".xml", ".svg", ".lock",
                    ".sum", ".patch", ".diff", ".map",
                    # code of languages with no reader here: a command string there is data as often as not
                    ".jsx", ".tsx", ".go", ".java", ".kt", ".scala", ".rs", ".c",
                    ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift", ".lua", ".r", ".jl", ".dart")),
)

#: what makes a text file one that mentions a vLLM launch: a file with one that no format reads
#: is named in the ``--verbose`` account and counted in the summary (``format not supported``)
LAUNCH_MARKERS = (rb"\bvllm[ \t]+serve\b|vllm\.entrypoints|-m[ \t]+vllm\b|\bLLM\(|EngineArgs\("
                  # vLLM's images and the vendors' (ROCm, NGC), an argv list (`["vllm", "serve"`), Dynamo's
                  rb"|\bvllm/vllm-[a-z]|\brocm/vllm\b|\bnvcr\.io/nvidia/vllm\b|[\"']vllm[\"'][ \t]*,[ \t]*[\"']serve[\"']"
                  rb"|\bdynamo\.vllm\b|" + ENV_RUN_MARKER)

_BY_NAME = {f.name: f for f in FORMATS}
_BY_SUFFIX: dict[str, Format] = {}
for _f in FORMATS:
    for _s in _f.suffixes:
        _BY_SUFFIX.setdefault(_s, _f)
_PREFIXES = tuple((p, f) for f in FORMATS for p in f.prefixes)
_ENDINGS = tuple((e, f) for f in FORMATS for e in f.endings)
_COMPILED: dict[str, tuple[Any, Any]] = {}  # name -> (shebang pattern, content pattern), compiled at first use


def names() -> tuple[str, ...]:
    """The registered formats' names, in registry order."""
    return tuple(f.name for f in FORMATS)


def get(name: str) -> Format:
    """The registered format called ``name`` (KeyError if none is)."""
    return _BY_NAME[name]


def builds_image_by_name(name: str) -> bool:
    """Whether a file's name says it is an image's build file (a Dockerfile or Containerfile by any
    name the registry claims: ``Dockerfile``, ``Dockerfile.gpu``, ``Dockerfile-Nvidia``,
    ``gpu.Dockerfile``, ``cuda_dockerfile``), which the release finding reads for what an image
    installs; a suffix of another format wins, as when linting (``dockerfile.py`` is Python)."""
    lower = name.lower()
    if "dockerfile" not in lower and "containerfile" not in lower:  # (most names: no call below)
        return False
    f = format_by_filename(name)
    return f is not None and _BY_NAME[f].builds_image


def format_by_language_id(language_id: Optional[str]) -> Optional[str]:
    """The format of an editor document with this language identifier (LSP ``languageId``)."""
    for f in FORMATS:
        if language_id in f.language_ids:
            return f.name
    return None


#: the suffixes of a template of another file (Helm's and Go's ``.tpl`` / ``.tmpl``, envsubst's
#: ``.template``, Jinja's ``.j2`` / ``.jinja`` / ``.jinja2``): the name under them says what the
#: rendered file is (``deploy.yaml.tpl``, ``start.sh.j2``)
TEMPLATE_SUFFIXES = (".tpl", ".tmpl", ".template", ".j2", ".jinja", ".jinja2")
#: the formats whose reader reads a template of its files as written, its ``{{ ... }}`` expressions
#: unknown values (the YAML front-end's ``templates``; Jinja's ``{% %}`` statements blanked, the
#: first branch of an ``{% if %}`` read: ``yaml/file_templates``): a template of such a file is that
#: format; a template of another (a ``.sh.j2`` launcher, whose ``{{ }}`` and ``{% %}`` a shell reader
#: would split into words) is read by the reader of last resort, which knows a template's syntax
_TEMPLATE_READERS = ("yaml",)
#: Jinja's suffixes (its ``{% %}`` statements: what the YAML front-end blanks before it reads)
JINJA_SUFFIXES = (".j2", ".jinja", ".jinja2")


def template_suffix(name: str) -> str:
    """The template suffix ``name`` ends with (lower case), else ``""``."""
    lower = name.lower()
    for suffix in TEMPLATE_SUFFIXES:
        if lower.endswith(suffix) and len(lower) > len(suffix):
            return suffix
    return ""


def format_by_filename(name: str) -> Optional[str]:
    """The format a file name says: a suffix first, then a name prefix or ending; a template's
    name (:data:`TEMPLATE_SUFFIXES`) says the format of the file it renders when that format's
    reader reads templates (``deploy.yaml.tpl``: YAML)."""
    lower = name.lower()
    dot = lower.rfind(".")
    suffix = lower[dot:] if 0 < dot < len(lower) - 1 else ""  # as PurePath.suffix
    if suffix:
        f = _BY_SUFFIX.get(suffix)
        if f is not None:
            return f.name
        if suffix in TEMPLATE_SUFFIXES:
            inner = format_by_filename(name[:dot])
            if inner in _TEMPLATE_READERS:
                return inner
    for prefix, f in _PREFIXES:
        if lower.startswith(prefix):
            return f.name
    for ending, f in _ENDINGS:
        if lower.endswith(ending):
            return f.name
    return None


def _patterns(f: Format) -> tuple[Any, Any]:
    got = _COMPILED.get(f.name)
    if got is None:
        got = _COMPILED[f.name] = (re.compile(f.shebang) if f.shebang else None,
                                   re.compile(f.content) if f.content else None)
    return got


#: how much of a file its ``#!`` line and the content claims read (a last-resort claim reads it all)
HEAD_BYTES = 4096


def format_by_content(data: bytes, name: str = "") -> Optional[str]:
    """The format the bytes of a file (``name``: its file name, when known) say, for a file whose
    name says none: a ``#!`` line settles it alone (not a template's, :data:`TEMPLATE_SUFFIXES`:
    its ``#!`` is the rendered file's); else, for a name without a suffix (``README``,
    ``user-data``; a suffix no format claims says the file is something else: a template, a
    note, code), the first entry whose content pattern matches the head; else the last-resort
    entry whose pattern is anywhere in the file (unless the name's suffix is one it refuses)."""
    head = data[:HEAD_BYTES]
    first = head.split(b"\n", 1)[0].strip()
    if first.startswith(b"#!") and not template_suffix(name):
        # (a template's ``#!`` line is the rendered file's: its ``{{ }}`` and ``{% %}`` are no
        # words of that file's language, so the reader of last resort reads it)
        for f in FORMATS:
            shebang = _patterns(f)[0]
            if shebang is not None and shebang.search(first):
                return f.name
        return _last_resort(data, name)
    if 0 < name.rfind(".") < len(name) - 1:
        return _last_resort(data, name)
    text = head.lstrip(b"\xef\xbb\xbf")
    for f in FORMATS:
        content = _patterns(f)[1]
        if content is not None and not f.last_resort and (
                content.search(text) if f.content_anywhere else content.match(text)):
            return f.name
    return _last_resort(data, name)


def _last_resort(data: bytes, name: str) -> Optional[str]:
    if b"vllm" not in data and not any(b in data for b in ENV_RUN_BYTES):
        return None  # (every last-resort claim names vLLM or a variable of its: a byte search first, no regex)
    lower = name.lower()
    for f in FORMATS:
        if f.last_resort and not lower.endswith(f.refuses) and _patterns(f)[1].search(data):
            return f.name
    return None


_MARKERS: Any = None


def mentions_launch(data: bytes) -> bool:
    """Whether ``data`` holds a vLLM launch marker (:data:`LAUNCH_MARKERS`)."""
    global _MARKERS
    if b"vllm" not in data and b"LLM(" not in data and b"EngineArgs(" not in data \
            and not any(b in data for b in ENV_RUN_BYTES):
        return False  # (a byte search first: most files mention none of the markers' words)
    if _MARKERS is None:
        _MARKERS = re.compile(LAUNCH_MARKERS)
    return _MARKERS.search(data) is not None


def warm_up(format_names) -> None:
    """Import the named formats and those they embed, and their own warm-up (before a fork)."""
    todo = set(format_names)
    for name in list(todo):
        todo.update(get(name).embeds)
    todo.add("shell")  # every format can embed shell (Markdown fences, YAML `sh -c`, RUN, subprocess)
    for f in FORMATS:
        if f.name in todo:
            f.warm_up()
