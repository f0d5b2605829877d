"""The Launch model: one place where vLLM is started or configured.

Front-ends (shell, Python, Dockerfile, YAML, Markdown) turn a file into launches; rules read
launches; the fixer applies byte edits. Front-ends know formats, not rules. All positions are
byte offsets into the file's original bytes (``Span``), so an edit never re-serialises anything.

Two shapes of launch exist:

* ``style="argv"``: a command line (``vllm serve m --tp 2``, a Kubernetes ``args`` list, a
  Dockerfile exec form). The front-end supplies ``tokens``; the core parses them with the target
  release's semantics (``vllm_lint.argv``), because which words are option values depends on the
  release.
* ``style="kwargs"`` / ``style="config"``: keyword arguments (``LLM(tensor_parallel_size=2)``) or
  keys of a vLLM ``--config`` YAML / Helm values block. The front-end supplies ``keyed`` args.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Literal, Optional


@dataclass(frozen=True, order=True)
class Span:
    """Half-open byte range ``[start, end)`` in the file's original bytes."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if self.start > self.end:
            raise ValueError(f"bad span {self.start}..{self.end}")


@dataclass(frozen=True)
class Edit:
    """Replace the bytes in ``span`` with ``content`` (UTF-8 text)."""

    span: Span
    content: str


@dataclass
class Token:
    """One argv word as the program will receive it.

    ``text`` is the decoded word (quotes removed, escapes resolved). ``span`` covers the word as
    written, quotes included. ``text_span`` covers the bytes that spell ``text`` verbatim when the
    word has no escapes inside (so ``text[i]`` sits at ``text_span.start + i`` in byte terms); it is
    ``None`` when the mapping is not 1:1, and such a token cannot be edited in place.
    ``opaque`` marks a word whose value is unknown statically (``$TP``, ``$(VAR)``, ``{{ .x }}``).
    ``splat`` marks a word that may expand to any number of words (``$EXTRA_ARGS``, ``"$@"``).
    """

    text: str
    span: Optional[Span]
    text_span: Optional[Span] = None
    opaque: bool = False
    splat: bool = False


@dataclass
class KeyedArg:
    """A keyword argument or config key: ``LLM(swap_space=4)``, ``swap-space: 4``.

    ``key`` is written as in the file (``swap_space``, ``swap-space``, ``tensorParallelSize``);
    ``key_style`` says how to spell a replacement: ``"snake"``, ``"dash"``, ``"camel"``, or
    ``"cli"`` (a full ``--option`` string, as in a Helm ``extraArgs`` map).
    ``value`` is the Python value (``None`` when ``value_opaque``). ``delete_span`` is what to cut to
    remove the whole key/argument cleanly (with its separator), or ``None`` if it cannot be cut.
    """

    key: str
    key_span: Optional[Span]
    value: Any
    value_span: Optional[Span] = None
    value_text_span: Optional[Span] = None
    value_opaque: bool = False
    delete_span: Optional[Span] = None
    key_style: Literal["snake", "dash", "camel", "cli"] = "snake"


@dataclass
class EnvAssign:
    """An environment variable set for the launch: ``VLLM_X=1 vllm serve``, ``ENV``, ``env:``."""

    name: str
    name_span: Optional[Span]
    value: Optional[str]
    value_span: Optional[Span] = None
    value_text_span: Optional[Span] = None
    value_opaque: bool = False
    delete_span: Optional[Span] = None


@dataclass
class VersionHint:
    """Where the launch names a vLLM release: an image tag, ``FROM``, a pin."""

    version: str  # as written ("v0.8.5", "0.27", "latest", "nightly")
    source: str  # "image-tag", "dockerfile-from", "pip-install", "requirements", "pyproject", ...
    span: Optional[Span] = None


@dataclass
class Hardware:
    """What the launch's context says about the GPUs it runs on."""

    gpu_product: Optional[str] = None  # "H100", "NVIDIA-H200", "nvidia-gb200", as written
    gpu_count: Optional[int] = None  # GPUs requested for this launch (per pod / service / node)
    nodes: Optional[int] = None
    source: Optional[str] = None


DeleteTokens = Callable[[list[Token]], Optional[list[Edit]]]


@dataclass
class Launch:
    """One vLLM start or configuration found in a file."""

    path: str
    entry: str  # "vllm serve", "api_server", "openai.api_server", "LLM", "EngineArgs", "config-file", ...
    style: Literal["argv", "kwargs", "config"]
    span: Span  # the whole launch, for reporting and suppression
    tokens: list[Token] = field(default_factory=list)  # argv style: the words after the command
    keyed: list[KeyedArg] = field(default_factory=list)  # kwargs / config style
    env: list[EnvAssign] = field(default_factory=list)
    version_hints: list[VersionHint] = field(default_factory=list)
    hardware: Hardware = field(default_factory=Hardware)
    # argv style: cut these tokens (and the separator around them) out of the file. The front-end
    # knows its format: shell removes a continuation line, a YAML list removes its items.
    delete_tokens: Optional[DeleteTokens] = None
    # Options silently cut off by a broken line continuation (shell), reported by VL109.
    dropped: list[Token] = field(default_factory=list)
    # The launch's options may include more than we see (``$EXTRA_ARGS``, ``**kwargs`` of unknown
    # content): rules must not claim an option is absent.
    opaque: bool = False
    # Front-end specific extra context (e.g. the referenced --config file path).
    context: dict[str, Any] = field(default_factory=dict)


@dataclass
class Extraction:
    """What a front-end found in one file."""

    launches: list[Launch] = field(default_factory=list)
    env: list[EnvAssign] = field(default_factory=list)  # VLLM_* set outside any launch
    version_hints: list[VersionHint] = field(default_factory=list)  # file-wide hints
    notes: list["Note"] = field(default_factory=list)  # informational: what was skipped and why


@dataclass
class Note:
    """An informational message from a front-end (``Helm template expressions skipped``)."""

    message: str
    span: Optional[Span] = None
    code: str = "VL002"


class ParseError(Exception):
    """A file could not be parsed. ``offset`` is the byte offset where parsing stopped."""

    def __init__(self, message: str, offset: Optional[int] = None, line: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.line = line  # 1-based, when the parser reports a line rather than an offset
