"""One parsed YAML text (a file, or a YAML string inside a file): byte spans of its nodes, tokens
of its words, and the launches built from them.

Fixes splice text into the original bytes at node spans (:mod:`.scalar` maps a decoded value
back to the bytes that spell it); nothing is ever re-serialised. A one-line scalar without
escapes gets its spans without a :class:`~vllm_lint.frontends.embedding.Embedding`.
"""

from __future__ import annotations

from vllm_lint.frontends.yaml.deleters import make_deleter
from vllm_lint.frontends.yaml.loader import ScalarNode, SequenceNode, compose
from vllm_lint.frontends.yaml.nodes import NULL, content_end, py, text as node_text
from vllm_lint.frontends.embedding import Embedding, rebase
from vllm_lint.frontends.yaml.scalar import fold_cutter, map_scalar
from vllm_lint.frontends.yaml.words import may_be_command, split_words
from vllm_lint.launch import (
    EnvAssign,
    Extraction,
    Hardware,
    KeyedArg,
    Launch,
    ParseError,
    Span,
    Token,
    VersionHint,
)
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

K8S_VAR = lazy_re(r"\$\([A-Za-z_][A-Za-z0-9_]*\)")


def verbatim(data: bytes, s: int, e: int, style: Optional[str], value: str) -> Any:
    """``map_scalar(data, s, e, style, value)``'s span of the whole value, for the scalars that are
    one verbatim run on one line: plain, or quoted without escapes (``''`` / backslash); False for
    any other scalar (left to map_scalar)."""
    src = data[s:e]
    if not style:
        if b"\n" in src or b"\r" in src:
            return False
        if not value:
            return None
        return Span(s, e) if src == value.encode("utf-8", "surrogatepass") else None
    if style == '"' or style == "'":
        q = 0x22 if style == '"' else 0x27
        if e - s < 3 or src[0] != q or src[-1] != q or b"\n" in src or b"\r" in src:
            return False
        body = src[1:-1]
        if (b"\\" if q == 0x22 else b"''") in body:
            return False
        return Span(s + 1, e - 1) if body == value.encode("utf-8", "surrogatepass") else None
    return False


def stated_env(env: list[EnvAssign], drop: frozenset = frozenset()) -> dict:
    """The environment a configuration states, for the values of its scripts' variables
    (``shell.extract_script``'s ``stated``): name -> (its literal value, None where not known
    statically; where it is written), the last entry of a name winning; ``drop``: names something
    else may set at run time."""
    out: dict = {}
    for e in env:
        if e.name in drop:
            out[e.name] = (None, None)
            continue
        where = e.value_span or e.name_span
        value = None if e.value_opaque or e.value is None or where is None else e.value
        out[e.name] = (value, where)
    return out


class YamlText:
    """One parsed text (a file, or a YAML string inside a file) and what was found in it."""

    def __init__(
        self,
        data: bytes,
        path: str,
        out: Extraction,
        *,
        outer: Optional[Embedding] = None,
        regions: Optional[list[tuple[int, int]]] = None,
    ):
        self.data = data  # the (filled) bytes that were parsed
        self.path = path
        self.out = out
        self.outer = outer  # for a nested YAML string: its map into the real file
        self.root_data = data  # the file's (filled) bytes; set by the parent for nested texts
        self.regions = regions or []
        self.original: Optional[bytes] = None  # the bytes as written, when templates were filled
        self.consumed: set[int] = set()
        # vLLM images of containers and values that hold no launch: the file's version hints when
        # the file holds no launch at all (image rules read them; ``_extract``); id(node) -> hints
        self.idle_images: dict[int, list[VersionHint]] = {}
        self.pos: Callable[[int], int] = lambda i: i
        self.written_low: Optional[bytes] = None  # see as_written
        self.values: Optional[dict] = None  # a Helm chart's values, for its templates (.chart_values)
        self._holds: dict[bytes, bool] = {}  # see holds
        # the environments the file states for the shell scripts in a range of it (a SkyPilot task's
        # `envs`, a CI job's variables): (start, end, name -> (literal or None, its span)), innermost last
        self.env_scopes: list[tuple[int, int, dict]] = []
        # the containers of the serving runtimes that say they run vLLM (kserve.vllm_runtime_containers)
        self.vllm_runtimes: set[int] = set()

    def parse(self) -> list:
        """The documents' root nodes (ParseError for bad input)."""
        docs, self.pos = compose(self.data)
        return docs

    def holds(self, needle: bytes) -> bool:
        """Whether the parsed bytes hold ``needle``: searched once per file, not once per document
        (a file of many documents stays linear)."""
        found = self._holds.get(needle)
        if found is None:
            found = self._holds[needle] = needle in self.data
        return found

    def as_written(self) -> tuple[bytes, bytes]:
        """The bytes as written (template text included where templates were filled: a
        template's default may name the image) and their ASCII lower case, made once: what the
        mention checks of the walk look at."""
        written = self.original if self.original is not None else self.data
        if self.written_low is None:
            self.written_low = written.lower()
        return written, self.written_low

    # ---- positions ------------------------------------------------------------------------

    def fspan(self, s: int, e: int) -> Optional[Span]:
        """File span of local bytes [s, e)."""
        if self.outer is None:
            return Span(s, e)
        return self.outer.span(s, e)

    def node_span(self, node: Any) -> Optional[Span]:
        return self.fspan(self.pos(node.start_mark.index), self.pos(node.end_mark.index))

    def content_span(self, node: Any) -> Optional[Span]:
        s, e = self.pos(node.start_mark.index), self.pos(content_end(node))
        if e < s:  # the last value is an alias of a node anchored earlier in the file
            e = self.pos(node.end_mark.index)
        return self.fspan(s, e)

    def smap(self, node: Any) -> Embedding:
        """Map from the scalar's value bytes to *file* bytes."""
        s = self.pos(node.start_mark.index)
        e = self.pos(node.end_mark.index)
        m = map_scalar(self.data, s, e, node.style, node.value)
        if self.outer is None or not m.segments:
            return m
        return m.compose(self.outer)  # (runs split where the outer map breaks)

    def cutter(self, node: Any, m: Embedding) -> Optional[Callable[[int, int], Optional[Span]]]:
        """:func:`~.scalar.fold_cutter` of a scalar of this text (``m``: its :meth:`smap`): what to
        delete for value bytes that a fold splits; None in a nested text."""
        if self.outer is not None:
            return None
        return fold_cutter(self.data, self.pos(node.start_mark.index), self.pos(node.end_mark.index), node.style, m)

    def text_span(self, node: Any) -> Optional[Span]:
        """The file span that spells the scalar's whole value verbatim (``smap(node)`` maps it as
        one run), or None."""
        if self.outer is None:
            s = self.pos(node.start_mark.index)
            e = self.pos(node.end_mark.index)
            sp = verbatim(self.data, s, e, node.style, node.value)
            if sp is not False:
                return sp  # type: ignore[return-value]
        m = self.smap(node)
        return m.span(0, len(m.text)) if m.complete else None

    def line_block(self, start: int, end: int, allow_dash: bool = False) -> Optional[Span]:
        """Local byte range [start, end) widened to whole lines, if nothing else is on them
        (None for a range that runs backwards: a key whose value is an alias of an earlier
        anchor, as a ``<<: *anchor`` merge brings)."""
        if end < start:
            return None
        d = self.data
        ls = d.rfind(b"\n", 0, start) + 1
        lead = d[ls:start]
        if allow_dash:
            if lead.strip(b" ") not in (b"-",) or not lead.rstrip(b" ").endswith(b"-"):
                return None
        elif lead.strip(b" "):
            return None
        le = d.find(b"\n", end)
        tail = d[end:] if le < 0 else d[end:le]
        t = tail.strip(b" \t\r")
        if t and not t.startswith(b"#"):
            return None
        le = len(d) if le < 0 else le + 1
        sp = self.fspan(ls, le)
        if sp is not None and self.outer is not None:
            # a line inside a block scalar: take the block's indentation with it
            root = self.root_data
            fls = root.rfind(b"\n", 0, sp.start) + 1
            if not root[fls:sp.start].strip(b" "):
                sp = Span(fls, sp.end)
        return sp

    # ---- words ----------------------------------------------------------------------------

    def scalar_token(self, node: Any) -> Token:
        if not isinstance(node, ScalarNode):
            return Token(text="", span=self.node_span(node), opaque=True)
        text = node.value
        opaque = "$(" in text and K8S_VAR.search(text) is not None
        if self.outer is None:
            s = self.pos(node.start_mark.index)
            e = self.pos(node.end_mark.index)
            sp = verbatim(self.data, s, e, node.style, text)
            if sp is not False:
                return Token(text, Span(s, e), sp, opaque)  # type: ignore[arg-type]
        return Token(text, self.node_span(node), self.text_span(node), opaque)

    def words_from(self, node: Any, split: Optional[list] = None) -> list[tuple[Token, Any]]:
        """(token, deletion handle) for a command/args value: a list or a string (``split``: its
        :func:`~.words.split_words`, when already made)."""
        out: list[tuple[Token, Any]] = []
        if isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                out.append((self.scalar_token(item), ("seq", node, i, item)))
        elif isinstance(node, ScalarNode) and node.tag != NULL:
            out.extend(self.string_words(node, split))
        return out

    def string_words(self, node: Any, split: Optional[list] = None) -> list[tuple[Token, Any]]:
        """(token, deletion handle) for each word of a string scalar."""
        m = self.smap(node)
        words = split_words(node.value) if split is None else split
        out = []
        if m.complete and m.segments:  # one verbatim run: value byte i is file byte f + i
            f = m.segments[0][1]
            for k, (text, rs, re_, verb, opaque) in enumerate(words):
                tok = Token(text, Span(f + rs, f + re_), Span(f + verb[0], f + verb[1]) if verb else None, opaque)
                out.append((tok, ("str", node, m, words, k)))
            return out
        for k, (text, rs, re_, verb, opaque) in enumerate(words):
            tok = Token(
                text=text,
                span=m.span(rs, re_),
                text_span=m.span(*verb) if verb else None,
                opaque=opaque,
            )
            out.append((tok, ("str", node, m, words, k)))
        return out

    def keyed_args(
        self,
        mapping: Any,
        style_of: Callable[[str], str],
        keys: Optional[Callable[[str], bool]] = None,
    ) -> list[KeyedArg]:
        """The keys of a mapping as keyed arguments (``style_of(key)``: how to spell one)."""
        out = []
        block = not getattr(mapping, "flow_style", False)
        for k, v in mapping.value:
            key = node_text(k)
            if key is None or (keys is not None and not keys(key)):
                continue
            ka = KeyedArg(
                key=key,
                key_span=self.text_span(k),
                value=py(v),
                value_span=self.content_span(v),
                key_style=style_of(key),  # type: ignore[arg-type]
            )
            if isinstance(v, ScalarNode):
                ka.value_text_span = self.text_span(v)
            if block:
                ka.delete_span = self.line_block(self.pos(k.start_mark.index), self.pos(content_end(v)))
            out.append(ka)
        return out

    # ---- launches ---------------------------------------------------------------------------

    def argv_launch(
        self,
        entry: str,
        words: list[tuple[Token, Any]],
        span: Span,
        env: list[EnvAssign],
        versions: list[VersionHint],
        hw: Hardware,
        ctx: dict,
        wrapped_env: Optional[list] = None,
    ) -> Launch:
        """Record an argv launch of ``words`` (``wrapped_env``: ``NAME=value`` words of an
        ``env`` wrapper, as (word, name, value))."""
        tokens = [t for t, _h in words]
        handles = {id(t): h for t, h in words}
        env_all = list(env)
        for (tok, _h), name, value in wrapped_env or []:
            ea = EnvAssign(name=name, name_span=None, value=value)
            if tok.text_span is not None and value is not None:
                k = tok.text.find(name + "=")
                if k >= 0:
                    pre = len(tok.text[:k].encode())
                    ea.name_span = Span(tok.text_span.start + pre,
                                        tok.text_span.start + pre + len(name.encode()))
                    ea.value_text_span = Span(ea.name_span.end + 1, tok.text_span.end)
            env_all.append(ea)
        launch = Launch(
            path=self.path,
            entry=entry,
            style="argv",
            span=span,
            tokens=tokens,
            env=env_all,
            version_hints=list(versions),
            hardware=hw,
            delete_tokens=make_deleter(self, handles),
        )
        launch.take_context(ctx)
        self.out.launches.append(launch)
        return launch

    def shell_launches(self, script: bytes, emb: Embedding, outer: Optional[Span] = None,
                       cut: Optional[Callable[[int, int], Optional[Span]]] = None,
                       stated: Optional[dict] = None) -> list[Launch]:
        """Launches of the shell ``script`` held in a scalar; ``outer`` is the scalar's span, the
        launch's span when no byte of the script maps back to the file, so findings there point
        at the scalar; ``cut``: the scalar's :meth:`cutter` (deletions across its folds);
        ``stated``: the environment the configuration gives the script (:func:`stated_env`), else
        that of the innermost of :attr:`env_scopes` around ``outer``."""
        if not may_be_command(script):
            # one word (a container name, an image, a label) is no command line: the shell
            # front-end and its grammar are not even loaded (start-up, benchmarks/README.md)
            return []
        try:
            from vllm_lint.frontends import shell
        except ImportError:  # pragma: no cover - the shell front-end lands separately
            return []
        if stated is None and outer is not None:
            stated = next((env for s, e, env in reversed(self.env_scopes) if s <= outer.start < e), None)
        try:
            ex = shell.extract_script(script, self.path, emb, cut_map=cut,
                                      stated=stated or None)
        except ParseError:
            return []
        if outer is not None:
            for la in ex.launches:
                if la.span == Span(0, 0):  # the shell front-end found no mapped byte
                    la.span = outer
        self.out.launches.extend(ex.launches)
        self.out.env.extend(ex.env)
        self.out.version_hints.extend(ex.version_hints)
        return ex.launches

    def string_launches(self, node: Any, stated: Optional[dict] = None) -> list[Launch]:
        """Launches of a string scalar that holds a command line (or Markdown with fenced
        blocks); ``stated``: as :meth:`shell_launches`."""
        self.consumed.add(id(node))
        if not may_be_command(node.value.encode("utf-8", "surrogatepass")):
            return []  # (shell_launches would find nothing: no map needed)
        m = self.smap(node)
        if "```" in node.value or "~~~" in node.value:
            return self._markdown_launches(m)
        return self.shell_launches(m.text, m, self.content_span(node), self.cutter(node, m), stated)

    def python_launches(self, node: Any) -> list[Launch]:
        """Launches of a string scalar that holds a Python file (a ConfigMap's ``app.py: |``: a
        Ray Serve app's ``AsyncEngineArgs(...)``), read by the Python front-end through the
        scalar's map."""
        from vllm_lint.frontends.base import get

        self.consumed.add(id(node))
        m = self.smap(node)
        python = get("python").module  # (through the registry, as Markdown is)
        try:
            ex = python.extract(m.text, self.path)
        except (ParseError, RecursionError, ValueError):
            return []
        start = len(self.out.launches)
        rebase(ex, m, self.out)
        return self.out.launches[start:]

    def _markdown_launches(self, m: Embedding) -> list[Launch]:
        """A string holding Markdown with fenced blocks (vLLM recipes' ``guide: |``): its blocks
        are read by the Markdown front-end, through the scalar's map."""
        from vllm_lint.frontends.base import get

        markdown = get("markdown").module  # (through the registry: Markdown reads YAML blocks)
        try:
            ex = markdown.extract(m.text, self.path)
        except ParseError:
            return []
        start = len(self.out.launches)
        rebase(ex, m, self.out)
        return self.out.launches[start:]
