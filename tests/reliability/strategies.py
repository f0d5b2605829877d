"""Hypothesis strategies that write vLLM launches in every format vllm-lint reads.

Each strategy draws a :class:`Doc`: the file's bytes plus what the generator knows about them:

* ``words``: for every option word it wrote, the byte span of the word as written (quotes
  included) and the option as spelled (``--swap_space``, ``swap_space``); a finding about an
  option must point at exactly one of these spans;
* ``chunks``: the file cut into *protected* and *touchy* pieces. Touchy pieces are options a fix
  may rewrite or delete (removed, renamed, abbreviated options) and the separators next to them;
  everything else is protected, and every protected piece must survive a fix byte for byte and in
  order.

Options are drawn from a pool modelled on the synthetic database (tests/synthetic_db.py) with
random order, ``_``/``-`` spellings, ``--opt=value`` vs ``--opt value``, values with non-ASCII
text, every quoting style of the format, comments, line continuations and LF or CRLF line ends.
"""

from __future__ import annotations

import functools

import json
from dataclasses import dataclass, field
from typing import Callable, Optional

from hypothesis import strategies as st

# ----------------------------------------------------------------------------- the document model


@dataclass
class WordInfo:
    written: Optional[str]  # the option as spelled, for option words; None for values
    rendered: bytes  # the bytes written for the word (quotes included)


@dataclass
class Doc:
    fmt: str
    name: str  # file name (decides the format in the CLI)
    nl: str = "\n"
    parts: list[tuple[bytes, bool]] = field(default_factory=list)  # (bytes, protected)
    words: dict[tuple[int, int], WordInfo] = field(default_factory=dict)
    mode: str = "auto"  # "config" for vLLM --config YAML files
    size: int = 0

    def put(self, text: str, protected: bool = True) -> tuple[int, int]:
        b = text.encode("utf-8")
        start = self.size
        if b:
            self.parts.append((b, protected))
            self.size += len(b)
        return start, self.size

    def word(self, rendered: str, written: Optional[str], protected: bool) -> tuple[int, int]:
        span = self.put(rendered, protected)
        if written is not None:
            self.words[span] = WordInfo(written, rendered.encode("utf-8"))
        return span

    @property
    def data(self) -> bytes:
        return b"".join(b for b, _ in self.parts)

    def protected_chunks(self) -> list[tuple[int, bytes]]:
        """Maximal runs of protected bytes, with their offset in the original."""
        out: list[tuple[int, bytes]] = []
        pos = 0
        run: list[bytes] = []
        run_start = 0
        for b, prot in self.parts:
            if prot:
                if not run:
                    run_start = pos
                run.append(b)
            elif run:
                out.append((run_start, b"".join(run)))
                run = []
            pos += len(b)
        if run:
            out.append((run_start, b"".join(run)))
        return out


@dataclass
class W:
    """One argv word before quoting."""

    text: str
    touchy: bool = False
    written: Optional[str] = None  # set on option words
    head: bool = False  # the command words (vllm serve ...): quoted whole, never split


@dataclass
class Item:
    """One option occurrence."""

    name: str  # canonical (--swap-space)
    spelled: str  # as written (--swap_space)
    values: list[str]
    inline: bool  # --opt=value
    touchy: bool

    def words(self) -> list[W]:
        if self.inline:
            return [W(f"{self.spelled}={self.values[0]}", self.touchy, self.spelled)]
        return [W(self.spelled, self.touchy, self.spelled)] + [W(v, self.touchy) for v in self.values]


# ----------------------------------------------------------------------------- values and options

# letters that need no quoting in any format here (shell, YAML plain, JSON, Python strings), with
# non-ASCII on purpose (2-, 3- and 4-byte UTF-8)
_LETTERS = "abcxyzKLM" + "éüßΩ模型ツ" + "\U0001f600"
_TAIL = _LETTERS + "0189-._/"

NAME_TEXT = st.builds(lambda a, b: a + b, st.sampled_from(_LETTERS), st.text(_TAIL, max_size=10))
INT = st.integers(1, 65535).map(str)

# (canonical name, value strategy (list of words) or None for a switch, touchy)
# touchy: a fix may change it at some target release (removed no-op, renamed, abbreviated,
# deprecated-with-successor); everything else must come out of a fix unchanged.
POOL: list[tuple[str, Optional[st.SearchStrategy], bool]] = [
    ("--swap-space", INT.map(lambda v: [v]), True),  # removed, no-op at removal: deleted
    ("--num-scheduler-steps", INT.map(lambda v: [v]), True),  # removed, no fix
    ("--cuda-graph-sizes", st.lists(INT, min_size=1, max_size=3), True),  # renamed
    ("--guided-decoding-backend", st.sampled_from(("xgrammar", "outlines")).map(lambda v: [v]), True),
    ("--max-model", INT.map(lambda v: [v]), True),  # abbreviation of --max-model-len
    ("--tensor-parallel-size", INT.map(lambda v: [v]), False),
    ("-tp", INT.map(lambda v: [v]), False),
    ("--port", INT.map(lambda v: [v]), False),
    ("--dtype", st.sampled_from(("auto", "bfloat16", "fp16")).map(lambda v: [v]), False),
    ("--enforce-eager", None, False),
    ("--served-model-name", st.lists(NAME_TEXT, min_size=1, max_size=2), False),
    ("--gpu-memory-utilization", st.sampled_from(("0.9", "0.85")).map(lambda v: [v]), False),
    ("--tensor-paralel-size", INT.map(lambda v: [v]), False),  # unknown: VL103, no fix
    ("--max-num-seqs", INT.map(lambda v: [v]), False),
]


def _reused(factory):
    """The same strategy object for the same arguments: a strategy built in every draw is
    validated again every time, which cost more than the lint of the drawn file. The drawn values
    are the same."""
    return functools.lru_cache(maxsize=None)(factory)


@_reused
@st.composite
def spelled(draw, name: str, allow_underscore: bool = True) -> str:
    if not name.startswith("--") or not allow_underscore:
        return name
    head = name[2:].split("-")
    out = head[0]
    for part in head[1:]:
        out += draw(st.sampled_from(("-", "_"))) + part
    return "--" + out


@_reused
@st.composite
def item(draw, allow_inline: bool = True, allow_underscore: bool = True) -> Item:
    name, values, touchy = draw(_POOL)
    vals = draw(values) if values is not None else []
    inline = allow_inline and len(vals) == 1 and draw(st.booleans())
    return Item(name, draw(spelled(name, allow_underscore)), vals, inline, touchy)


TOUCHY = [p for p in POOL if p[2]]
# strategies built once: one built inside each draw is validated again every time (most of the run)
_POOL, _TOUCHY = st.sampled_from(POOL), st.sampled_from(TOUCHY)


@st.composite
def items(draw) -> list[Item]:
    """1-7 options, at least one of which a fix may touch, in random order."""
    out = draw(st.lists(item(), min_size=0, max_size=6))
    name, values, _ = draw(_TOUCHY)
    vals = draw(values)
    extra = Item(name, draw(spelled(name)), vals, len(vals) == 1 and draw(st.booleans()), True)
    out.insert(draw(st.integers(0, len(out))), extra)
    return out


ITEMS = items()
MODEL = st.builds(lambda a, b: f"{a}/{b}", NAME_TEXT, NAME_TEXT)
COMMENT = st.text("abc xyz-é模型ü\U0001f600", max_size=12).map(lambda t: "# " + t.strip())
NL = st.sampled_from(("\n", "\r\n"))


def emit(doc: Doc, words: list[W], render: Callable[[str], str], sep: Callable[[], str],
         lead: str = "", tail: str = "", head_render: Optional[Callable[[str], str]] = None) -> None:
    """Write ``lead w0 sep w1 sep ... tail``; a separator is touchy when a neighbour is."""
    for i, w in enumerate(words):
        if i == 0:
            doc.put(lead, not w.touchy)
        else:
            doc.put(sep(), not (w.touchy or words[i - 1].touchy))
        doc.word((head_render or render)(w.text) if w.head else render(w.text), w.written, not w.touchy)
    doc.put(tail, not (words and words[-1].touchy))


# ----------------------------------------------------------------------------- shell


@_reused
@st.composite
def shell_quote(draw, text: str, split: bool = True) -> str:
    styles = ["bare", "bare", "single", "double", "ansi", "partial", "backslash"]
    style = draw(st.sampled_from(tuple(styles if split else styles[:4])))
    if style == "single":
        return f"'{text}'"
    if style == "double":
        return f'"{text}"'
    if style == "ansi":
        return f"$'{text}'"
    if style == "partial" and len(text) > 1:
        k = draw(st.integers(1, len(text) - 1))
        return f"{text[:k]}'{text[k:]}'"
    if style == "backslash" and len(text) > 1:
        k = draw(st.integers(1, len(text) - 1))
        if text[k] not in "\n":
            return f"{text[:k]}\\{text[k:]}"
    return text


# `vllm serve --model` (the vLLM image from 0.12): deprecated from 0.11.1, VL106's fix drops the word
_MODEL_OPTION = W("--model", True, "--model")

HEADS = [
    ["vllm", "serve", "{model}"],
    ["exec", "vllm", "serve", "{model}"],
    ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "{model}"],
    ["VLLM_HOST_IP=10.0.0.1", "vllm", "serve", "{model}"],
    ["docker", "run", "--gpus", "all", "vllm/vllm-openai:latest", "--model", "{model}"],
]
_HEADS = st.sampled_from(HEADS)


@st.composite
def shell_launch(draw, doc: Doc, quote: bool = True) -> None:
    nl = doc.nl
    model = draw(MODEL)
    # a command name split by quotes (vll'm') is not found: the pre-filters look for the bytes
    # "vllm", by design
    # `--model` to the vLLM image is `vllm serve --model` from 0.12, whose fix drops the word (VL106)
    head = [W(h, True, h, head=True) if h == "--model" else W(h.format(model=model), head=True)
            for h in draw(_HEADS)]
    items = draw(ITEMS)
    words = head + [w for it in items for w in it.words()]
    indent = draw(st.sampled_from(("  ", "    ", "\t")))
    continued = draw(st.booleans())

    def sep() -> str:
        if continued and draw(st.booleans()):
            return " \\" + nl + indent
        return " "

    def render(t: str) -> str:
        return draw(shell_quote(t)) if quote else t

    trailing = draw(st.sampled_from(("", "  " + draw(COMMENT))))
    emit(doc, words, render, sep, tail=trailing + nl,
         head_render=lambda t: draw(shell_quote(t, split=False)) if quote else t)


@st.composite
def shell_doc(draw, doc: Optional[Doc] = None) -> Doc:
    doc = doc or Doc("shell", "deploy.sh", draw(NL))
    if draw(st.booleans()):
        doc.put("#!/bin/bash" + doc.nl)
    for _ in range(draw(st.integers(1, 2))):
        if draw(st.booleans()):
            doc.put(draw(COMMENT) + doc.nl)
        if draw(st.booleans()):
            doc.put("export VLLM_HOST_IP=127.0.0.1" + doc.nl)
        draw(shell_launch(doc))
    return doc


# ----------------------------------------------------------------------------- YAML


@_reused
@st.composite
def yaml_quote(draw, text: str) -> str:
    style = draw(st.sampled_from(("plain", "single", "double")))
    if style == "single":
        return f"'{text}'"
    if style == "double":
        return f'"{text}"'
    return text


def _plain_ok(text: str) -> bool:
    """A YAML plain scalar that reads back as the same string (not a number, bool or null)."""
    import yaml

    try:
        return yaml.safe_load(text) == text
    except yaml.YAMLError:
        return False


@_reused
@st.composite
def yaml_word(draw, text: str) -> str:
    q = draw(yaml_quote(text))
    if q == text and not _plain_ok(text):
        # numbers and booleans are what users write too (`- 4`); the front-end reads their text
        return text if draw(st.booleans()) else f'"{text}"'
    return q


@st.composite
def k8s_doc(draw, doc: Optional[Doc] = None) -> Doc:
    doc = doc or Doc("yaml", "deploy.yaml", draw(NL))
    nl = doc.nl
    model = draw(MODEL)
    items = draw(ITEMS)
    doc.put(f"apiVersion: apps/v1{nl}kind: Deployment{nl}metadata:{nl}  name: vllm  {draw(COMMENT)}{nl}"
            f"spec:{nl}  template:{nl}    spec:{nl}      containers:{nl}        - name: vllm{nl}"
            f"          image: vllm/vllm-openai:latest{nl}")
    shape = draw(st.sampled_from(("block", "flow", "sh-c-literal", "sh-c-flow", "command-block")))
    ind = "            "
    if shape in ("block", "flow", "command-block"):
        words = [w for it in items for w in it.words()]
        if shape == "command-block":
            doc.put(f"          command:{nl}")
            emit(doc, [W("vllm"), W("serve"), W(model)] + words, lambda t: draw(yaml_word(t)),
                 lambda: nl + ind + "- ", lead=ind + "- ", tail=nl)
        else:
            doc.put(f'          command: ["vllm", "serve"]{nl}          args:')
            words = [W(model)] + words
            if shape == "block":
                emit(doc, words, lambda t: draw(yaml_word(t)), lambda: nl + ind + "- ",
                     lead=nl + ind + "- ", tail=nl)
            else:
                emit(doc, words, lambda t: draw(yaml_word(t)), lambda: draw(st.sampled_from((", ", ","))),
                     lead=" [", tail="]" + nl)
    elif shape == "sh-c-flow":
        doc.put(f'          command: ["/bin/sh", "-c"]{nl}          args: ["')
        words = [W("vllm"), W("serve"), W(model)] + [w for it in items for w in it.words()]
        emit(doc, words, lambda t: t, lambda: " ", tail='"]' + nl)
    else:
        doc.put(f"          command:{nl}{ind}- /bin/sh{nl}{ind}- -c{nl}{ind}- |{nl}")
        body = ind + "  "
        doc.put(f"{body}echo start{nl}{body}")
        words = [W("exec"), W("vllm"), W("serve"), W(model)] + [w for it in items for w in it.words()]
        emit(doc, words, lambda t: t, lambda: draw(st.sampled_from((" ", " \\" + nl + body + "  "))),
             tail=nl)
    if draw(st.booleans()):
        doc.put(f"          env:{nl}            - name: VLLM_HOST_IP{nl}              value: \"10.0.0.1\"{nl}")
    doc.put(f"          resources:{nl}            limits:{nl}              nvidia.com/gpu: 1{nl}")
    return doc


@st.composite
def compose_doc(draw) -> Doc:
    doc = Doc("yaml", "compose.yaml", draw(NL))
    nl = doc.nl
    items = draw(ITEMS)
    doc.put(f"services:{nl}  vllm:{nl}    image: vllm/vllm-openai:latest  {draw(COMMENT)}{nl}")
    words = [_MODEL_OPTION, W(draw(MODEL))] + [w for it in items for w in it.words()]
    shape = draw(st.sampled_from(("string", "block", "flow")))
    if shape == "string":
        emit(doc, words, lambda t: t, lambda: " ", lead="    command: ", tail=nl)
    elif shape == "block":
        emit(doc, words, lambda t: draw(yaml_word(t)), lambda: nl + "      - ", lead=f"    command:{nl}      - ",
             tail=nl)
    else:
        emit(doc, words, lambda t: draw(yaml_word(t)), lambda: ", ", lead="    command: [", tail="]" + nl)
    doc.put(f"    ports:{nl}      - \"8000:8000\"{nl}")
    return doc


@st.composite
def config_doc(draw) -> Doc:
    """A vLLM ``--config`` YAML: one key per option, ``_`` or ``-`` spellings."""
    doc = Doc("yaml", "vllm-config.yaml", draw(NL), mode="config")
    nl = doc.nl
    if draw(st.booleans()):
        doc.put(draw(COMMENT) + nl)
    doc.put(f"model: {draw(MODEL)}{nl}")
    keys = [("swap-space", "4", True), ("cuda-graph-sizes", "[1, 2]", True), ("max-model-len", "8192", False),
            ("tensor-parallel-size", "2", False), ("num-scheduler-steps", "8", True), ("port", "8000", False),
            ("served-model-name", draw(NAME_TEXT), False), ("enforce-eager", "true", False),
            ("guided-decoding-backend", "xgrammar", True)]
    chosen = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=6, unique_by=lambda k: k[0]))
    for key, value, touchy in chosen:
        spelled_key = key.replace("-", "_") if draw(st.booleans()) else key
        k = draw(st.sampled_from((spelled_key, spelled_key, f'"{spelled_key}"')))
        rendered_value = value if value.startswith("[") or _plain_ok(value) or value in ("true", "8192", "4", "2", "8000", "8") \
            else f'"{value}"'
        doc.put("", not touchy)
        doc.word(k, spelled_key, not touchy)
        tail = f": {rendered_value}"
        if draw(st.booleans()):
            tail += "  " + draw(COMMENT)
        doc.put(tail + nl, not touchy)
    return doc


# ----------------------------------------------------------------------------- Python


@st.composite
def python_doc(draw, doc: Optional[Doc] = None) -> Doc:
    doc = doc or Doc("python", "serve.py", draw(NL))
    nl = doc.nl
    doc.put(f"# -*- coding: utf-8 -*-{nl}{draw(COMMENT)}{nl}")
    shape = draw(st.sampled_from(("kwargs", "subprocess")))
    q = draw(st.sampled_from(("'", '"')))
    multiline = draw(st.booleans())

    def sep() -> str:
        if multiline:
            c = ("  " + draw(COMMENT)) if draw(st.booleans()) else ""
            return "," + c + nl + "    "
        return ", "

    if shape == "kwargs":
        cls = draw(st.sampled_from(("LLM", "EngineArgs")))
        doc.put(f"from vllm import LLM, EngineArgs{nl}{nl}llm = {cls}(")
        kw = [("swap_space", "4", True), ("cuda_graph_sizes", "[1, 2]", True), ("tensor_parallel_size", "2", False),
              ("max_model_len", "8192", False), ("num_scheduler_steps", "8", True),
              ("dtype", q + "bfloat16" + q, False), ("enforce_eager", "True", False),
              ("served_model_name", q + draw(NAME_TEXT) + q, False)]
        chosen = draw(st.lists(st.sampled_from(kw), min_size=1, max_size=6, unique_by=lambda k: k[0]))
        units = [(f"model={q}{draw(MODEL)}{q}", None, False)] + [(f"{k}={v}", k, t) for k, v, t in chosen]
        lead = nl + "    " if multiline else ""
        for i, (text, key, touchy) in enumerate(units):
            if i == 0:
                doc.put(lead, True)
            else:
                doc.put(sep(), not (touchy or units[i - 1][2]))
            if key is not None:
                doc.word(key, key, not touchy)
                doc.put(text[len(key):], not touchy)
            else:
                doc.put(text, not touchy)
        trailing = ("," if draw(st.booleans()) else "") + (nl if multiline else "")
        doc.put(trailing, not units[-1][2])
        doc.put(")" + nl)
    else:
        doc.put(f"import subprocess{nl}{nl}subprocess.run([")
        model = draw(MODEL)
        items = draw(ITEMS)
        words = [W("vllm"), W("serve"), W(model)] + [w for it in items for w in it.words()]
        emit(doc, words, lambda t: q + t + q, sep, tail="")
        doc.put("], check=True)" + nl)
    return doc


# ----------------------------------------------------------------------------- Dockerfile


@st.composite
def dockerfile_doc(draw, doc: Optional[Doc] = None) -> Doc:
    doc = doc or Doc("dockerfile", "Dockerfile", draw(NL))
    nl = doc.nl
    items = draw(ITEMS)
    words = [w for it in items for w in it.words()]
    shape = draw(st.sampled_from(("cmd-exec", "entrypoint-exec", "cmd-shell")))
    # the vLLM image's exec ENTRYPOINT takes CMD as its arguments; a shell-form CMD needs a plain base
    base = "vllm/vllm-openai:latest" if shape == "cmd-exec" else "python:3.12-slim"
    doc.put(f"{draw(COMMENT)}{nl}FROM {base}{nl}ENV VLLM_HOST_IP=0.0.0.0{nl}")
    if shape == "cmd-exec":
        words = [_MODEL_OPTION, W(draw(MODEL))] + words
        seps = [", ", ",", ", \\" + nl + "    "]
        emit(doc, words, lambda t: json.dumps(t, ensure_ascii=draw(st.booleans())),
             lambda: draw(st.sampled_from(seps)), lead="CMD [", tail="]" + nl)
    elif shape == "entrypoint-exec":
        words = [W("vllm"), W("serve"), W(draw(MODEL))] + words
        emit(doc, words, lambda t: json.dumps(t, ensure_ascii=False), lambda: ", ", lead="ENTRYPOINT [",
             tail="]" + nl)
    else:
        words = [W("vllm"), W("serve"), W(draw(MODEL))] + words
        emit(doc, words, lambda t: t, lambda: draw(st.sampled_from((" ", " \\" + nl + "    "))), lead="CMD ",
             tail=nl)
    return doc


# ----------------------------------------------------------------------------- Markdown


@st.composite
def markdown_doc(draw) -> Doc:
    doc = Doc("markdown", "README.md", draw(NL))
    nl = doc.nl
    doc.put(f"# Déploiement 模型{nl}{nl}Run the server:{nl}{nl}")
    for _ in range(draw(st.integers(1, 2))):
        lang = draw(st.sampled_from(("bash", "sh", "console", "shell", "yaml", "python", "dockerfile")))
        fence = draw(st.sampled_from(("```", "~~~")))
        doc.put(f"{fence}{lang}{nl}")
        if lang == "console":
            doc.put("$ ")
            draw(shell_launch(doc))
            doc.put(f"INFO: started{nl}")
        elif lang == "yaml":
            draw(k8s_doc(doc))
        elif lang == "python":
            draw(python_doc(doc))
        elif lang == "dockerfile":
            draw(dockerfile_doc(doc))
        else:
            draw(shell_launch(doc))
        doc.put(f"{fence}{nl}{nl}Some text with `vllm serve` inline.{nl}{nl}")
    return doc


STRATEGIES = {
    "shell": st.deferred(lambda: shell_doc()),
    "k8s": k8s_doc(),
    "compose": compose_doc(),
    "config": config_doc(),
    "python": python_doc(),
    "dockerfile": dockerfile_doc(),
    "markdown": markdown_doc(),
}
