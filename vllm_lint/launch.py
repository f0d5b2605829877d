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

import bisect
import re
from itertools import accumulate

from .record import Record

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Literal, Optional


class Span:
    """Half-open byte range ``[start, end)`` in the file's original bytes. Immutable, hashable and
    ordered by ``(start, end)``, as the frozen, ordered dataclass it replaces."""

    __slots__ = ("start", "end")
    start: int
    end: int

    def __init__(self, start: int, end: int) -> None:
        if start > end:
            raise ValueError(f"bad span {start}..{end}")
        _SPAN_START(self, start)  # the slots' own setters: a third cheaper than object.__setattr__,
        _SPAN_END(self, end)  # and front-ends make a span per word

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self):
        return (Span, (self.start, self.end))

    def __repr__(self) -> str:
        return f"Span(start={self.start!r}, end={self.end!r})"

    def __hash__(self) -> int:
        return hash((self.start, self.end))

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self.start == other.start and self.end == other.end

    def __ne__(self, other: Any) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return self.start != other.start or self.end != other.end

    def __lt__(self, other: Any) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return (self.start, self.end) < (other.start, other.end)

    def __le__(self, other: Any) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return (self.start, self.end) <= (other.start, other.end)

    def __gt__(self, other: Any) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return (self.start, self.end) > (other.start, other.end)

    def __ge__(self, other: Any) -> bool:
        if other.__class__ is not Span:
            return NotImplemented
        return (self.start, self.end) >= (other.start, other.end)


_SPAN_START = Span.__dict__["start"].__set__
_SPAN_END = Span.__dict__["end"].__set__


class Edit:
    """Replace the bytes in ``span`` with ``content`` (UTF-8 text). Immutable and hashable."""

    __slots__ = ("span", "content")
    span: Span
    content: str

    def __init__(self, span: Span, content: str) -> None:
        object.__setattr__(self, "span", span)
        object.__setattr__(self, "content", content)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def __reduce__(self):
        return (Edit, (self.span, self.content))

    def __repr__(self) -> str:
        return f"Edit(span={self.span!r}, content={self.content!r})"

    def __hash__(self) -> int:
        return hash((self.span, self.content))

    def __eq__(self, other: Any) -> bool:
        if other.__class__ is not Edit:
            return NotImplemented
        return self.span == other.span and self.content == other.content


class Token(Record):
    """One argv word as the program will receive it.

    ``text`` is the decoded word (quotes removed, escapes resolved). ``span`` covers the word as
    written, quotes included. ``text_span`` covers the bytes that spell ``text`` verbatim when the
    word has no escapes inside (so ``text[i]`` sits at ``text_span.start + i`` in byte terms); it is
    ``None`` when the mapping is not 1:1, and such a token cannot be edited in place.
    ``opaque`` marks a word whose value is unknown statically (``$TP``, ``$(VAR)``, ``{{ .x }}``).
    ``splat`` marks a word that may expand to any number of words (``$EXTRA_ARGS``, ``"$@"``).
    ``assumed``: why the word is taken to be ``text`` though the file leaves it to the run (the
    default of an environment variable, ``os.environ.get("X", "4096")``), said in the findings
    about it.
    ``verbatim``: for an opaque word whose text is its bytes as written, expansions included
    (``"pretrained=$MODEL,dtype=auto"``), those bytes: a reader may place the literal parts of
    such a word (another tool's ``key=value`` string); nothing edits it.
    ``origin``: for a word written with variables whose values are known statically (``$MODEL``
    after ``MODEL=org/m``, a variable the configuration's environment states: the front-end's
    value resolution, ``frontends/shell_values.py``), ``text`` is its value and ``origin`` says
    where each variable's value is set: ``(name, Span)`` pairs (the span None where the file does
    not map it). Such a word has no ``text_span``: a fix never
    writes a value in place of the variable.
    """

    __slots__ = ("text", "span", "text_span", "opaque", "splat", "assumed", "verbatim", "origin")

    def __init__(self, text: str, span: Optional[Span], text_span: Optional[Span] = None, opaque: bool = False,
                 splat: bool = False, assumed: Optional[str] = None, verbatim: Optional[Span] = None,
                 origin: Optional[tuple] = None) -> None:
        self.text = text
        self.span = span
        self.text_span = text_span
        self.opaque = opaque
        self.splat = splat
        self.assumed = assumed
        self.verbatim = verbatim
        self.origin = origin


class KeyedArg(Record):
    """A keyword argument or config key: ``LLM(swap_space=4)``, ``swap-space: 4``.

    ``key`` is written as in the file (``swap_space``, ``swap-space``, ``tensorParallelSize``);
    ``key_style`` says how to spell a replacement: ``"snake"``, ``"dash"``, ``"camel"``,
    ``"cli"`` (a full ``--option`` string, as in a Helm ``extraArgs`` map), or ``"env"`` (a
    container's variable its entrypoint turns into the option: ``container.ENV_OPTIONS``).
    ``value`` is the Python value (``None`` when ``value_opaque``). ``delete_span`` is what to cut to
    remove the whole key/argument cleanly (with its separator), or ``None`` if it cannot be cut.
    ``assumed``: as :attr:`Token.assumed`, for the value; ``value_span`` is then the default as
    written, before the ``int()``/``float()`` that makes it ``value``.
    """

    __slots__ = ("key", "key_span", "value", "value_span", "value_text_span", "value_opaque", "delete_span",
                 "key_style", "assumed")

    def __init__(self, key: str, key_span: Optional[Span], value: Any, value_span: Optional[Span] = None,
                 value_text_span: Optional[Span] = None, value_opaque: bool = False,
                 delete_span: Optional[Span] = None,
                 key_style: Literal["snake", "dash", "camel", "cli", "env"] = "snake", assumed: Optional[str] = None) -> None:
        self.key = key
        self.key_span = key_span
        self.value = value
        self.value_span = value_span
        self.value_text_span = value_text_span
        self.value_opaque = value_opaque
        self.delete_span = delete_span
        self.key_style = key_style
        self.assumed = assumed


class EnvAssign(Record):
    """An environment variable set for the launch: ``VLLM_X=1 vllm serve``, ``ENV``, ``env:``.

    ``origin`` is what the front-end knows of where the variable ends up (``vllm_lint.reach``
    decides from it): ``None`` for the environment of the processes the file starts, ``"build"``
    for a variable that only a build sees (a Dockerfile ``ENV`` outside the final image's stages,
    an ``export`` inside a ``RUN``)."""

    __slots__ = ("name", "name_span", "value", "value_span", "value_text_span", "value_opaque", "delete_span",
                 "origin")

    def __init__(self, name: str, name_span: Optional[Span], value: Optional[str], value_span: Optional[Span] = None,
                 value_text_span: Optional[Span] = None, value_opaque: bool = False,
                 delete_span: Optional[Span] = None, origin: Optional[str] = None) -> None:
        self.origin = origin
        self.name = name
        self.name_span = name_span
        self.value = value
        self.value_span = value_span
        self.value_text_span = value_text_span
        self.value_opaque = value_opaque
        self.delete_span = delete_span


class VersionHint(Record):
    """Where the launch names a vLLM release: an image tag, ``FROM``, a pin.

    ``version`` as written ("v0.8.5", "0.27", "latest", "nightly"); ``source``: "image-tag",
    "dockerfile-from", "pip-install", "requirements", "pyproject", ...; ``image``: for a tag, the
    image reference it is the tag of, when known (a vendor's tag scheme depends on it:
    ``nvcr.io/nvidia/vllm:25.10-py3``)."""

    __slots__ = ("version", "source", "span", "image")

    def __init__(self, version: str, source: str, span: Optional[Span] = None, image: Optional[str] = None) -> None:
        self.version = version
        self.source = source
        self.span = span
        self.image = image


class Hardware(Record):
    """What the launch's context says about the GPUs it runs on: ``gpu_product`` as written ("H100",
    "NVIDIA-H200", "nvidia-gb200"), ``gpu_count`` GPUs requested for this launch (per pod / service /
    node)."""

    __slots__ = ("gpu_product", "gpu_count", "nodes", "source")

    def __init__(self, gpu_product: Optional[str] = None, gpu_count: Optional[int] = None,
                 nodes: Optional[int] = None, source: Optional[str] = None) -> None:
        self.gpu_product = gpu_product
        self.gpu_count = gpu_count
        self.nodes = nodes
        self.source = source


if TYPE_CHECKING:
    DeleteTokens = Callable[[list[Token]], Optional[list[Edit]]]


class Launch(Record):
    """One vLLM start or configuration found in a file.

    * ``entry``: "vllm serve", "api_server", "openai.api_server", "LLM", "EngineArgs", "config-file", ...
    * ``span``: the whole launch, for reporting and suppression.
    * ``tokens`` (argv style): the words after the command; ``keyed``: kwargs / config style.
    * ``delete_tokens`` (argv style): cut these tokens (and the separator around them) out of the
      file. The front-end knows its format: shell removes a continuation line, a YAML list removes
      its items.
    * ``dropped``: options silently cut off by a broken line continuation (shell), reported by VL109.
    * ``opaque``: the launch's options may include more than we see (``$EXTRA_ARGS``, ``**kwargs``
      of unknown content): rules must not claim an option is absent.
    * What the launch's surroundings say, for the rules and the reach decisions: ``image``, the
      container image it runs in (``docker run IMAGE``, a Dockerfile's ``FROM``, a pod's
      ``image:``); ``image_cmd``, the words given after such an image before vLLM's own options
      (they follow the image's entrypoint), with ``image_cmd_delete``, their span when a fix may
      cut them; ``model``, the model the launch names outside its options (a Python positional
      or ``model=``, a chart's ``modelURL``, a KServe ``storageUri``);
      ``option_for_key``, for a config-style launch, the option each key stands for (a chart's
      camelCase keys); ``chart``, the Helm chart whose values the launch is; ``script_span``, for a
      launch in a container's ``sh -c`` script, the script's bytes in the file; ``partial_layout``,
      why the launch's words are not its process's whole parallel layout, when a wrapper starts
      pods the file does not show (a production-stack Ray cluster, KServe leader and worker pods).
    * ``entry_words``: for a process started from a command line (shell, a container's command, a
      Dockerfile instruction, a Python argv list), the words that name the program up to vLLM's own
      options (``["python3", "-m", "vllm.entrypoints.openai.api_server"]``, ``["vllm", "serve"]``);
      None where the launch is no process of its own (``LLM(...)``, a parser called in Python).
      ``replace_entry``: writes other words in their place (the front-end knows its quoting and
      list syntax), or None where they are not plain words of the file.
    * ``container``: the container the launch runs in, as its platform's configuration states it
      (``vllm_lint.container.Container``: image, command, args, environment, GPUs, each where it
      is written), when a front-end read one; the fields above are filled from it.
    * ``context``: the front-end's own notes about the launch, which name where in the file it was
      found, for the front-ends' tests; nothing outside the front-ends reads them (a test checks).
      YAML: ``kind`` (the workload holding it), ``shell`` (read from
      a container's ``sh -c`` script), ``cloud_init`` (the cloud-init command list holding it),
      ``args_only`` (from ``args:`` alone, the command being the image's), ``step`` (the CI step's name), ``ignored_keys`` (production-stack ``vllmConfig``
      keys the chart ignores); shell: ``heredoc_file`` (the format of the file a heredoc writes),
      ``systemd`` (``ExecStart`` of a unit a heredoc writes); Python: ``positional`` (the source
      text of positional arguments after the model), ``image_name`` (the variable naming a
      container's image that the code does not bind: a notebook reads it in an earlier cell).
    """

    __slots__ = ("path", "entry", "style", "span", "tokens", "keyed", "env", "version_hints", "hardware",
                 "delete_tokens", "dropped", "opaque", "context", "image", "image_cmd", "image_cmd_delete", "model",
                 "option_for_key", "chart", "script_span", "partial_layout", "container", "entry_words", "replace_entry",
                 "read_as")

    #: the keys of a front-end's context dictionary that are the typed fields above (``take_context``)
    TYPED_CONTEXT = ("image", "image_cmd", "image_cmd_delete", "model", "option_for_key", "chart",
                     "script_span", "partial_layout")

    def __init__(self, path: str, entry: str, style: Literal["argv", "kwargs", "config"], span: Span,
                 tokens: Optional[list[Token]] = None, keyed: Optional[list[KeyedArg]] = None,
                 env: Optional[list[EnvAssign]] = None, version_hints: Optional[list[VersionHint]] = None,
                 hardware: Optional[Hardware] = None, delete_tokens: Optional[DeleteTokens] = None,
                 dropped: Optional[list[Token]] = None, opaque: bool = False,
                 context: Optional[dict[str, Any]] = None, image: Optional[str] = None,
                 image_cmd: Optional[list[str]] = None, image_cmd_delete: Optional[Span] = None, model: Any = None,
                 option_for_key: Optional[dict[str, str]] = None,
                 chart: Optional[str] = None, script_span: Optional[Span] = None,
                 partial_layout: Optional[str] = None, container: Any = None,
                 entry_words: Optional[list[str]] = None,
                 replace_entry: Optional[Callable[[list[str]], Optional[list[Edit]]]] = None,
                 read_as: Optional[str] = None) -> None:
        self.path = path
        self.entry = entry
        self.style = style
        self.span = span
        self.tokens = [] if tokens is None else tokens
        self.keyed = [] if keyed is None else keyed
        self.env = [] if env is None else env
        self.version_hints = [] if version_hints is None else version_hints
        self.hardware = Hardware() if hardware is None else hardware
        self.delete_tokens = delete_tokens
        self.dropped = [] if dropped is None else dropped
        self.opaque = opaque
        self.context: dict[str, Any] = {}
        self.image = image
        self.image_cmd = image_cmd
        self.image_cmd_delete = image_cmd_delete
        self.model = model
        self.option_for_key = option_for_key
        self.chart = chart
        self.script_span = script_span
        self.partial_layout = partial_layout
        self.container = container  # (vllm_lint.container.Container, which imports this module)
        self.entry_words = entry_words
        self.replace_entry = replace_entry
        # how the front-end read a launch that is not written plainly (a wrapper read through, an
        # image built from a vLLM image, a script a Dockerfile writes), for --verbose; None if plain
        self.read_as = read_as
        if context:  # a front-end's context dictionary: its typed keys become the fields
            self.take_context(context)

    def take_context(self, ctx: dict[str, Any]) -> None:
        """Take what a front-end gathered about the launch's surroundings (a dictionary built while
        walking a document): the typed fields it names where this launch has none of its own, the
        rest into ``context`` under the launch's own notes."""
        for key in self.TYPED_CONTEXT:
            if key in ctx and getattr(self, key) is None:
                setattr(self, key, ctx[key])
        self.context = {**{k: v for k, v in ctx.items() if k not in self.TYPED_CONTEXT}, **self.context}


class Extraction(Record):
    """What a front-end found in one file: its launches, the ``VLLM_*`` variables set outside any
    launch (``env``), file-wide ``version_hints``, and informational ``notes`` (what was skipped and
    why)."""

    __slots__ = ("launches", "env", "version_hints", "notes")

    def __init__(self, launches: Optional[list[Launch]] = None, env: Optional[list[EnvAssign]] = None,
                 version_hints: Optional[list[VersionHint]] = None, notes: Optional[list["Note"]] = None) -> None:
        self.launches = [] if launches is None else launches
        self.env = [] if env is None else env
        self.version_hints = [] if version_hints is None else version_hints
        self.notes = [] if notes is None else notes


class Note(Record):
    """An informational message from a front-end (``Helm template expressions skipped``)."""

    __slots__ = ("message", "span", "code", "severity")

    def __init__(self, message: str, span: Optional[Span] = None, code: str = "VL002", severity: str = "info") -> None:
        self.message = message
        self.span = span
        self.code = code
        self.severity = severity


class ParseError(Exception):
    """A file could not be parsed. ``offset`` is the byte offset where parsing stopped."""

    def __init__(self, message: str, offset: Optional[int] = None, line: Optional[int] = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.line = line  # 1-based, when the parser reports a line rather than an offset


class TooLarge(Exception):
    """A file holds more than one of the per-file budgets below allows: it is reported as too large
    to read (a VL001 finding naming the file and the budget) rather than read slowly. Not a
    :class:`ParseError`: a front-end that skips an embedded block it cannot parse (a Markdown fence,
    a heredoc) lets this through to the engine, as the budget is the file's."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message  # what is over which budget (the file's first line holds the finding)


# Per-file budgets. Reading a file costs time and memory in proportion to these counts (a launch is
# checked by every rule, a launch word is parsed and may carry a finding, a script's words are
# nodes of the shell grammar's tree), and the 10 MiB input limit admits files with far more of
# them than any deployment file holds: the largest real scripts hold tens of launches.
MAX_LAUNCHES = 1_000  # launches in one file
MAX_LAUNCH_WORDS = 20_000  # words of all launches of one file
MAX_SCRIPT_WORDS = 250_000  # words of the shell text of one file (counted before it is parsed)
MAX_SCRIPT_NODES = 500_000  # nodes of the shell parser's tree of one file (a word may be many: `{{{{`)
MAX_TEMPLATE_REGIONS = 20_000  # template expressions ({{ ... }}) in one file


def check_launch_budget(launches: int, words: int) -> None:
    """Raise :class:`TooLarge` when ``launches`` or ``words`` (of launches) exceed the budget."""
    if launches > MAX_LAUNCHES:
        raise TooLarge(f"more than {MAX_LAUNCHES:,} launches (the per-file budget)")
    if words > MAX_LAUNCH_WORDS:
        raise TooLarge(f"more than {MAX_LAUNCH_WORDS:,} words in its launches (the per-file budget)")


_PLUS_ONE = (1).__add__


class LineIndex:
    """Rows and columns of byte offsets in ``data`` (rows split at ``\\n``)."""

    def __init__(self, data: bytes):
        self.data = data
        # each row's first byte: the running sum of the lengths of the rows before it, each with
        # its "\n" (a split and C-level sums: a match object per line cost ~3x as much)
        self.starts = list(accumulate(map(_PLUS_ONE, map(len, data.split(b"\n")[:-1])), initial=0))
        self.mentions_tool = b"vllm-lint" in data  # else no suppression comment can be there
        self._ascii_rows: dict[int, bool] = {}  # row -> its bytes are ASCII (a column is then a byte count)

    def position(self, offset: int) -> tuple[int, int]:
        offset = max(0, min(offset, len(self.data)))
        row = bisect.bisect_right(self.starts, offset) - 1
        start = self.starts[row]
        if row == 0 and self.data.startswith(b"\xef\xbb\xbf"):
            start = min(3, offset)  # a UTF-8 byte order mark is no column of line 1
        ascii_row = self._ascii_rows.get(row)
        if ascii_row is None:  # once per row: many positions on one long line stay linear
            end = self.starts[row + 1] if row + 1 < len(self.starts) else len(self.data)
            ascii_row = self._ascii_rows[row] = self.data[self.starts[row]:end].isascii()  # (a BOM is not)
        if ascii_row:
            return row + 1, offset - start + 1
        col = len(self.data[start:offset].decode("utf-8", errors="replace")) + 1
        return row + 1, col

    def line_bytes(self, row0: int) -> bytes:
        end = self.starts[row0 + 1] if row0 + 1 < len(self.starts) else len(self.data)
        return self.data[self.starts[row0]:end]


def word_replacer(tokens: list[Token], delete_tokens: Optional[DeleteTokens]) -> Optional[Callable[[list[str]], Optional[list[Edit]]]]:
    """A launch's ``replace_entry`` over its entry ``tokens`` (words of a list or a split string):
    the first words are rewritten in place (each where its text is spelled verbatim), the words
    left over are cut with the front-end's ``delete_tokens``; None when a word is not plain."""
    if not tokens or any(t.text_span is None or t.opaque or t.splat for t in tokens):
        return None

    def replace(new: list[str]) -> Optional[list[Edit]]:
        if not new or len(new) > len(tokens):
            return None
        edits = [Edit(t.text_span, word) for t, word in zip(tokens, new)]
        rest = tokens[len(new):]
        if rest:
            cut = delete_tokens(rest) if delete_tokens is not None else None
            if cut is None:
                return None
            edits.extend(cut)
        return edits

    return replace
