"""YAML front-end: vLLM launches in Kubernetes manifests, compose files, Helm values, vLLM
``--config`` files, task files (SkyPilot, dstack, GitHub Actions, GitLab CI) and any YAML string
that holds a vLLM command.

Parsing
-------
Detection uses PyYAML's ``compose_all`` with libyaml (``CSafeLoader``): nodes carry
``start_mark``/``end_mark`` and their scalar ``style``, at ~1.5 MB/s. Fixes splice text into the
original bytes at node spans (see :mod:`vllm_lint.frontends.yaml_scalar` for the per-style maps
from decoded values back to bytes); nothing is ever re-serialised. ruamel.yaml's round-trip mode is
deliberately *not* used: it is 10-20x slower, gives only start positions, and re-emits untouched
bytes (quotes dropped, sequences re-indented, long scalars folded, CRLF mixed), which would turn a
one-token fix into a noisy diff.

libyaml's ``Mark.index`` counts code points (and starts after a BOM), so positions are converted
to byte offsets once per file. Bad input raises :class:`~vllm_lint.launch.ParseError` in bounded
time: libyaml refuses nesting deeper than 1000 levels; our own walks are iterative with a visited
set, so alias bombs (billion laughs) cost one visit per distinct node; files above
``MAX_BYTES`` are refused; merge-conflict markers and non-UTF-8 bytes are reported as such.

Cost beyond the parse (issue 7): the loader caches plain scalars' implicit tags (:class:`_Loader`);
a document, and within it a collection, is walked only if its bytes mention one of the
pre-filter's words (:meth:`_File._walk` says when that is sound); a container's tokens,
environment and hardware are built only when it holds a launch; a one-line scalar without escapes
gets its spans without a :class:`~vllm_lint.frontends.yaml_scalar.ScalarMap`.

Templates
---------
A file with ``{{ ... }}`` (Helm, KServe ``{{.Name}}``, GitHub Actions ``${{ }}``) is not YAML as
written. Each template expression is replaced with same-length filler (blank for a line that holds
only template actions, ``_`` inline), which keeps every byte offset. Values touched by a template
become opaque; when templates touch a launch (or the filled text still does not parse) one
informational ``VL002`` note says so. A templated file that still does not parse is skipped with
that note, never a crash.

What is read
------------
* Kubernetes: ``containers``/``initContainers`` anywhere (Pod, Deployment, StatefulSet,
  DaemonSet, ReplicaSet, Job, CronJob, LeaderWorkerSet, KServe ServingRuntime /
  ClusterServingRuntime / LLMInferenceService, RayService/RayCluster pods, llm-d values). A
  container's ``command`` + ``args`` are matched with :func:`commands.find_vllm_command`;
  ``sh -c``/``bash -c`` scripts go to the shell front-end through the scalar's offset map; a vLLM
  image with ``args`` and no ``command`` gives ``entry="docker:<image>"``. ``$(VAR)`` words are
  opaque. ``env`` (``valueFrom`` -> opaque), image tag -> ``VersionHint("image-tag")``,
  ``nvidia.com/gpu``/``amd.com/gpu`` limits or requests -> ``gpu_count``, ``nodeSelector`` /
  node-affinity ``nvidia.com/gpu.product``, ``cloud.google.com/gke-accelerator``,
  ``karpenter.k8s.aws/instance-gpu-name`` -> ``gpu_product``, LeaderWorkerSet ``size`` ->
  ``nodes``.
* Arguments carried in an environment variable by a known wrapper: ``VLLM_ADDITIONAL_ARGS``
  (KServe ``LLMInferenceService``, which appends it to its ``vllm serve`` command) is split into
  shell words and reported as an argv launch with ``context["args_only"]``.
* KServe ``InferenceService`` ``predictor.model`` with a ``huggingface``/``vllm`` model format:
  ``args`` are the Hugging Face server's argv (it forwards vLLM's options).
* KubeAI ``Model`` (``engine: VLLM``): ``spec.args``, ``spec.url`` (model), ``spec.image``,
  ``resourceProfile`` (``nvidia-gpu-h100:8``).
* llm-d values: containers with ``modelCommand: vllmServe`` and ``args``.
* RayService ``serveConfigV2`` (YAML inside a string): parsed in turn, mapped through the outer
  scalar where 1:1; ``engine_kwargs`` of ``ray.serve.llm`` configs -> ``style="kwargs"``.
* docker compose ``services.*``: ``entrypoint``/``command`` (list or string; strings are split into
  words), ``environment`` (list or map), ``image`` (``${VAR:-default}`` tags use the default),
  ``deploy.resources.reservations.devices`` (``count``/``device_ids``) and ``gpus``.
* Helm values of vllm-project/production-stack (``servingEngineSpec.modelSpec[]``): one
  ``style="config"`` launch per model with camelCase ``vllmConfig`` keys
  (``context["option_for_key"]`` maps each key to the option the chart emits), ``modelURL`` in
  ``context["model"]``, ``v0`` -> ``VLLM_USE_V1=0``, string ``hf_token`` / ``vllmApiKey`` ->
  ``HF_TOKEN`` / ``VLLM_API_KEY``, ``requestGPU`` -> gpu count, plus an argv launch for
  ``extraArgs``. vLLM's own example chart (``image.command``) and other values files
  with ``command``/``args`` lists are read as containers.
* vLLM ``--config`` files: :func:`extract_config_file` (called by the engine when a launch
  references the file), or ``extract(..., explicit=True)`` for a file named on the command line
  that looks like one.
* Task files: SkyPilot ``setup``/``run`` (+ ``resources.accelerators``, ``num_nodes``, ``envs``),
  dstack ``commands`` (+ ``resources.gpu``, ``nodes``, ``env``), GitHub Actions
  ``jobs.*.steps[].run`` (+ workflow/job/step ``env``), GitLab ``script`` lists (+ global and job
  ``variables``, the job's or ``default`` image), and any other
  string scalar holding a vLLM command. Folded (``>``) and multi-line plain scalars are reported
  with no spans inside, so no fix is offered there.

Gaps: flow mappings (``{a: 1}``) give no ``delete_span``; deleting every item of a block list
leaves ``key:`` (null); Helm ``if``/``else`` branches are both read; GitLab ``extends`` /
``!reference`` are not followed (a job's inherited ``variables`` are not seen).
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_left, bisect_right
from typing import Any, Callable, Iterable, Optional

from vllm_lint.frontends.yaml_scalar import ScalarMap, map_scalar
from vllm_lint.launch import (
    Edit,
    EnvAssign,
    Extraction,
    Hardware,
    KeyedArg,
    Launch,
    Note,
    ParseError,
    Span,
    Token,
    VersionHint,
)
from vllm_lint.record import lazy_re

import yaml as _pyyaml

FORMAT = "yaml"
MAX_BYTES = 32 * 1024 * 1024

__all__ = [
    "FORMAT",
    "might_contain_launch",
    "extract",
    "extract_config_file",
    "looks_like_config_file",
    "split_words",
]

try:  # pragma: no cover - libyaml is expected
    _BaseLoader = _pyyaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _BaseLoader = _pyyaml.SafeLoader

ScalarNode = _pyyaml.ScalarNode
MappingNode = _pyyaml.MappingNode
SequenceNode = _pyyaml.SequenceNode

# plain scalar text -> its resolved tag (null, bool, int, float, str, ...); texts up to
# _TAG_TEXT_MAX characters, emptied when it reaches _TAG_CACHE_MAX entries
_PLAIN_TAGS: dict[str, str] = {}
_TAG_TEXT_MAX = 64
_TAG_CACHE_MAX = 4096


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
    """The safe loader with a cheaper resolver, for this module's ``compose_all`` only.

    libyaml's composer calls three Python methods for every node: ``resolve``, which matches a
    plain scalar's text against the implicit-tag regular expressions (~1/6 of the compose time on
    the benchmark corpus), and ``descend_resolver`` / ``ascend_resolver``, which do nothing
    without path resolvers. Tags are the same: a plain scalar's tag depends on its text alone
    (there are no path resolvers), so it is looked up in ``_PLAIN_TAGS`` before the regular
    expressions run; other nodes get the base class's answer.
    """

    def resolve(self, kind: Any, value: Any, implicit: Any) -> str:
        if kind is ScalarNode and implicit[0]:
            tag = _PLAIN_TAGS.get(value)
            if tag is None:
                tag = _BaseLoader.resolve(self, kind, value, implicit)
                if len(value) <= _TAG_TEXT_MAX:
                    if len(_PLAIN_TAGS) >= _TAG_CACHE_MAX:
                        _PLAIN_TAGS.clear()
                    _PLAIN_TAGS[value] = tag
            return tag
        return _BaseLoader.resolve(self, kind, value, implicit)

    # No path resolvers are ever added to this class (add_path_resolver would add them to
    # yaml.Loader / FullLoader / UnsafeLoader or to a class named explicitly), so descending and
    # ascending the path stack does nothing: the composer's calls go to built-ins that take the
    # same arguments, create a throw-away object and have no effect, instead of Python methods.
    descend_resolver = slice  # descend_resolver(parent, index)
    ascend_resolver = tuple  # ascend_resolver()

_PREFILTER = lazy_re(rb"(?i)vllm|modelFormat|engine_kwargs")  # the definition; tests compare with it


def might_contain_launch(data: bytes) -> bool:
    """Cheap pre-filter: the bytes mention vLLM (image, command, module, Helm chart keys).

    ``_PREFILTER.search(data) is not None``, spelled as substring searches of the ASCII-lowered
    bytes: a case-insensitive regular expression tests every byte in Python's matcher (~14 ns a
    byte), ``bytes.lower`` and ``in`` run at memory speed."""
    return _mentions(data.lower(), 0, len(data))


def _mentions(low: bytes, s: int, e: int) -> bool:
    """``_PREFILTER.search(data, s, e) is not None``, given ``low = data.lower()``."""
    return low.find(b"vllm", s, e) >= 0 or low.find(b"modelformat", s, e) >= 0 or (
        low.find(b"engine_kwargs", s, e) >= 0)


# ------------------------------------------------------------------------------------------
# positions


class _Pos:
    """Code-point index (as libyaml reports it, after a BOM) -> byte offset in the file."""

    def __init__(self, text: str, base: int):
        self.base = base
        self.idx: list[int] = []
        self.extra: list[int] = []
        if not text.isascii():
            total = 0
            for m in re.finditer(r"[^\x00-\x7f]", text):
                c = m.group()
                total += len(c.encode("utf-8", "surrogatepass")) - 1
                self.idx.append(m.start())
                self.extra.append(total)

    def __call__(self, i: int) -> int:
        if not self.idx:
            return self.base + i
        k = bisect_left(self.idx, i)  # non-ASCII chars strictly before i
        return self.base + i + (self.extra[k - 1] if k else 0)


# ------------------------------------------------------------------------------------------
# templates

_TEMPLATE = lazy_re(rb"\{\{.*?\}\}", re.S)
_CONFLICT = re.compile(rb"^(?:<{7}|>{7})(?: |\r?$)|^={7}\r?$", re.M)


_BLANK_FILL = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))
_INLINE_FILL = bytes(b if b in (0x0A, 0x0D) else 0x5F for b in range(256))


def _fill_templates(data: bytes) -> tuple[bytes, list[tuple[int, int]]]:
    """Replace each ``{{ ... }}`` with same-length filler; return the new bytes and regions."""
    regions: list[tuple[int, int]] = []
    out = bytearray(data)
    for m in _TEMPLATE.finditer(data):
        s, e = m.span()
        if e - s > 20000:
            continue
        regions.append((s, e))
    if not regions:
        return data, regions
    # lines that hold only template actions (and spaces) become blank
    for s, e in regions:
        ls = data.rfind(b"\n", 0, s) + 1
        le = data.find(b"\n", e)
        if le < 0:
            le = len(data)
        line = data[ls:le]
        blank_line = not _TEMPLATE.sub(b"", line).strip()
        # every byte but line breaks -> ' ' or '_'
        out[s:e] = data[s:e].translate(_BLANK_FILL if blank_line else _INLINE_FILL)
    # `${{` (GitHub Actions) leaves `$____`: a shell variable, which is opaque anyway
    return bytes(out), regions


# ------------------------------------------------------------------------------------------
# small node helpers


def _get(node: Any, key: str) -> Any:
    if not isinstance(node, MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, ScalarNode) and k.value == key:
            return v
    return None


def _keys(node: Any) -> dict[str, Any]:
    """A mapping's values by key, as :func:`_get` finds them (the first of duplicate keys)."""
    out: dict[str, Any] = {}
    for k, v in node.value:
        if isinstance(k, ScalarNode) and k.value not in out:
            out[k.value] = v
    return out


def _get_pair(node: Any, key: str) -> Any:
    if not isinstance(node, MappingNode):
        return None
    for k, v in node.value:
        if isinstance(k, ScalarNode) and k.value == key:
            return k, v
    return None


def _str(node: Any) -> Optional[str]:
    if isinstance(node, ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return node.value
    return None


def _seq(node: Any) -> list:
    return list(node.value) if isinstance(node, SequenceNode) else []


def _may_be_command(script: bytes) -> bool:
    """Whether ``script`` can hold a vLLM command line: it says vllm and has two words."""
    return b"vllm" in script and len(script.split(None, 1)) >= 2


def _split_value(node: Any) -> Optional[list]:
    """:func:`split_words` of a command/args string (None for a list or anything else)."""
    if isinstance(node, ScalarNode) and node.tag != "tag:yaml.org,2002:null":
        return split_words(node.value)
    return None


def _word_texts(node: Any, split: Optional[list]) -> list[str]:
    """The texts of ``_File._words_from(node, split)``'s tokens, without building them."""
    if isinstance(node, SequenceNode):
        return [item.value if isinstance(item, ScalarNode) else "" for item in node.value]
    if split is not None:
        return [w[0] for w in split]
    return []


def _verbatim(data: bytes, s: int, e: int, style: Optional[str], value: str) -> Any:
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


def _content_end(node: Any) -> int:
    """End mark index of a node's last content (block collections' end marks run into the next
    line and past trailing comments)."""
    for _ in range(2000):
        if isinstance(node, ScalarNode) or getattr(node, "flow_style", False):
            return node.end_mark.index
        if isinstance(node, MappingNode):
            if not node.value:
                return node.end_mark.index
            node = node.value[-1][1]
        elif isinstance(node, SequenceNode):
            if not node.value:
                return node.end_mark.index
            node = node.value[-1]
        else:
            return node.end_mark.index
    return node.end_mark.index


_BOOL_T = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"}
_BOOL_F = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"}


def _scalar_py(node: Any) -> Any:
    tag = node.tag
    v = node.value
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return v in _BOOL_T
    if tag == "tag:yaml.org,2002:int":
        try:
            t = v.replace("_", "")
            if t.startswith(("0o", "0x", "0b", "-0x", "+0x")):
                return int(t, 0)
            return int(t)
        except ValueError:
            return v
    if tag == "tag:yaml.org,2002:float":
        try:
            return float(v.replace("_", ""))
        except ValueError:
            low = v.lower()
            if low in (".inf", "+.inf"):
                return float("inf")
            if low == "-.inf":
                return float("-inf")
            if low == ".nan":
                return float("nan")
            return v
    return v


def _py(node: Any, depth: int = 0, budget: Optional[list] = None) -> Any:
    """Python value of a node, bounded in depth and size (alias bombs stay small)."""
    if budget is None:
        budget = [20000]
    budget[0] -= 1
    if budget[0] < 0 or depth > 64:
        return None
    if isinstance(node, ScalarNode):
        return _scalar_py(node)
    if isinstance(node, SequenceNode):
        return [_py(x, depth + 1, budget) for x in node.value]
    if isinstance(node, MappingNode):
        out = {}
        for k, v in node.value:
            key = _scalar_py(k) if isinstance(k, ScalarNode) else None
            try:
                out[key] = _py(v, depth + 1, budget)
            except TypeError:
                pass
        return out
    return None


# ------------------------------------------------------------------------------------------
# shell-like word splitting for strings that are not run by a shell (compose `command: "..."`,
# VLLM_ADDITIONAL_ARGS): quotes and backslashes as in POSIX shell, `$VAR` marks a word opaque.


_BARE_WORD = lazy_re(rb"[^ \t\r\n]+")


def split_words(s: str) -> list[tuple[str, int, int, Optional[tuple[int, int]], bool]]:
    """Split ``s`` into words: ``(text, raw_start, raw_end, verbatim, opaque)``.

    Positions are UTF-8 byte offsets into ``s``. ``verbatim`` is the byte range that spells
    ``text`` exactly (the whole word, or the inside of a word that is one quoted string), or
    None when quotes/escapes break the 1:1 mapping. ``opaque`` marks words with ``$``
    expansions.
    """
    b = s.encode("utf-8", "surrogatepass")
    if b"'" not in b and b'"' not in b and b"\\" not in b and b"$" not in b:
        # no quote, escape or expansion: each run of other bytes is a word, spelled as written
        return [(m.group().decode("utf-8", "replace"), m.start(), m.end(), m.span(), False)
                for m in _BARE_WORD.finditer(b)]
    n = len(b)
    i = 0
    words = []
    while i < n:
        while i < n and b[i] in b" \t\r\n":
            i += 1
        if i >= n:
            break
        start = i
        out = bytearray()
        parts = 0  # number of quoted/unquoted pieces
        escaped = False
        opaque = False
        while i < n and b[i] not in b" \t\r\n":
            c = b[i]
            if c == 0x27:  # '
                j = b.find(b"'", i + 1)
                if j < 0:
                    j = n
                out += b[i + 1 : j]
                i = j + 1
                parts += 1
            elif c == 0x22:  # "
                j = i + 1
                while j < n and b[j] != 0x22:
                    if b[j] == 0x5C and j + 1 < n and b[j + 1] in b'"\\$`':
                        out.append(b[j + 1])
                        escaped = True
                        j += 2
                        continue
                    if b[j] == 0x24:
                        opaque = True
                    out.append(b[j])
                    j += 1
                i = j + 1
                parts += 1
            elif c == 0x5C:
                if i + 1 < n:
                    out.append(b[i + 1])
                    escaped = True
                    i += 2
                else:  # a backslash that ends the string is itself (as in sh -c 'echo a\')
                    out.append(c)
                    i += 1
                parts += 1
            else:
                if c == 0x24:
                    if i + 1 < n and b[i + 1] == 0x24:  # $$ (compose escape) -> literal $
                        out.append(c)
                        escaped = True
                        i += 2
                        parts += 1
                        continue
                    opaque = True
                j = i
                while j < n and b[j] not in b" \t\r\n'\"\\" and not (j > i and b[j] == 0x24):
                    j += 1
                out += b[i:j]
                i = j
                parts += 1
        end = min(i, n)
        raw = b[start:end]
        text = bytes(out)
        verbatim: Optional[tuple[int, int]] = None
        if not escaped:
            if raw == text:
                verbatim = (start, end)
            elif parts == 1 and len(raw) >= 2 and raw[0] in b"'\"" and raw[-1] == raw[0]:
                if raw[1:-1] == text:
                    verbatim = (start + 1, end - 1)
        words.append((text.decode("utf-8", "replace"), start, end, verbatim, opaque))
    return words


# ------------------------------------------------------------------------------------------
# the per-file walker


_GPU_RESOURCE_KEYS = ("nvidia.com/gpu", "amd.com/gpu")
_HW_KEYS = frozenset({"resources", "nodeSelector", "affinity", "size", "resourceProfile"})
_GPU_PRODUCT_KEYS = (
    "nvidia.com/gpu.product",
    "cloud.google.com/gke-accelerator",
    "karpenter.k8s.aws/instance-gpu-name",
)
_SHELLS = {"sh", "bash", "zsh", "dash", "ash", "ksh"}
_ENV_ARG_CARRIERS = ("VLLM_ADDITIONAL_ARGS",)
_K8S_VAR = re.compile(r"\$\([A-Za-z_][A-Za-z0-9_]*\)")
_COMPOSE_VAR_DEFAULT = lazy_re(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::?-([^}]*))?\}")


def _hw_merge(outer: Hardware, inner: Hardware) -> Hardware:
    return Hardware(
        gpu_product=inner.gpu_product or outer.gpu_product,
        gpu_count=inner.gpu_count if inner.gpu_count is not None else outer.gpu_count,
        nodes=inner.nodes if inner.nodes is not None else outer.nodes,
        source=inner.source or outer.source,
    )


def _int(v: Any) -> Optional[int]:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str):
        t = v.strip().strip("'\"")
        if t.isdigit():
            return int(t)
    return None


def _parse_accel(spec: str) -> tuple[Optional[str], Optional[int]]:
    """``"H100:8"`` / ``"80GB:4"`` / ``"A100:40GB:2"`` -> (product, count)."""
    product = None
    count = None
    for part in str(spec).split(":"):
        p = part.strip()
        if not p:
            continue
        if p.isdigit():
            count = int(p)
        elif re.match(r"^[\d.]+\s*[GMT]B", p, re.I) or ".." in p:
            continue
        elif product is None:
            product = p
    return product, count


class _File:
    """One parsed text (a file, or a YAML string inside a file) and what was found in it."""

    def __init__(
        self,
        data: bytes,
        path: str,
        out: Extraction,
        *,
        outer: Optional[ScalarMap] = None,
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
        self.pos: Callable[[int], int] = lambda i: i
        self.written_low: Optional[bytes] = None  # see _as_written

    # ---- positions ------------------------------------------------------------------------

    def fspan(self, s: int, e: int) -> Optional[Span]:
        """File span of local bytes [s, e)."""
        if self.outer is None:
            return Span(s, e)
        return self.outer.span(s, e)

    def node_span(self, node: Any) -> Optional[Span]:
        return self.fspan(self.pos(node.start_mark.index), self.pos(node.end_mark.index))

    def content_span(self, node: Any) -> Optional[Span]:
        s, e = self.pos(node.start_mark.index), self.pos(_content_end(node))
        if e < s:  # the last value is an alias of a node anchored earlier in the file
            e = self.pos(node.end_mark.index)
        return self.fspan(s, e)

    def smap(self, node: Any) -> ScalarMap:
        """Map from the scalar's value bytes to *file* bytes."""
        s = self.pos(node.start_mark.index)
        e = self.pos(node.end_mark.index)
        m = map_scalar(self.data, s, e, node.style, node.value)
        if self.outer is None or not m.segments:
            return m
        segs = []
        for v, f, ln in m.segments:
            sp = self.outer.span(f, f + ln)
            if sp is not None:
                segs.append((v, sp.start, ln))
            else:  # split the run where the outer map breaks
                for k in range(ln):
                    sp1 = self.outer.span(f + k, f + k + 1)
                    if sp1 is not None:
                        segs.append((v + k, sp1.start, 1))
        return ScalarMap(m.value, segs)

    def text_span(self, node: Any) -> Optional[Span]:
        """The file span that spells the scalar's whole value verbatim (``smap(node)`` maps it as
        one run), or None."""
        if self.outer is None:
            s = self.pos(node.start_mark.index)
            e = self.pos(node.end_mark.index)
            sp = _verbatim(self.data, s, e, node.style, node.value)
            if sp is not False:
                return sp  # type: ignore[return-value]
        m = self.smap(node)
        return m.span(0, len(m.value)) if m.complete else None

    def scalar_token(self, node: Any) -> Token:
        if not isinstance(node, ScalarNode):
            return Token(text="", span=self.node_span(node), opaque=True)
        text = node.value
        opaque = "$(" in text and _K8S_VAR.search(text) is not None
        if self.outer is None:
            s = self.pos(node.start_mark.index)
            e = self.pos(node.end_mark.index)
            sp = _verbatim(self.data, s, e, node.style, text)
            if sp is not False:
                return Token(text, Span(s, e), sp, opaque)  # type: ignore[arg-type]
        return Token(text, self.node_span(node), self.text_span(node), opaque)

    def line_block(self, start: int, end: int, allow_dash: bool = False) -> Optional[Span]:
        """Local byte range [start, end) widened to whole lines, if nothing else is on them."""
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

    # ---- sequences: deleting items ---------------------------------------------------------

    def seq_delete(self, seq: Any, indices: Iterable[int]) -> Optional[list[Edit]]:
        items = seq.value
        idx = sorted(set(indices))
        if not idx:
            return []
        if not getattr(seq, "flow_style", False):
            edits = []
            for i in idx:
                it = items[i]
                s = self.pos(it.start_mark.index)
                e = self.pos(_content_end(it))
                sp = self.line_block(s, e, allow_dash=True)
                if sp is None:
                    return None
                edits.append(Edit(sp, ""))
            return edits
        # flow: cut "item, " or ", item"
        dset = set(idx)
        kept = [i for i in range(len(items)) if i not in dset]
        last_kept = kept[-1] if kept else None
        ranges = []
        for i in idx:
            if last_kept is not None and i < last_kept:
                s = self.pos(items[i].start_mark.index)
                e = self.pos(items[i + 1].start_mark.index)
            elif last_kept is not None:
                s = self.pos(items[last_kept].end_mark.index)
                e = self.pos(items[i].end_mark.index)
            else:
                s = self.pos(items[0].start_mark.index)
                e = self.pos(items[-1].end_mark.index)
            ranges.append((s, e))
        return _deletions(ranges, self.fspan)

    # ---- env ------------------------------------------------------------------------------

    def k8s_env(self, node: Any) -> list[EnvAssign]:
        out = []
        for item in _seq(node):
            if not isinstance(item, MappingNode):
                continue
            nm = _get(item, "name")
            name = _str(nm)
            if not name:
                continue
            val = _get(item, "value")
            vf = _get(item, "valueFrom")
            ea = EnvAssign(name=name, name_span=None, value=None)
            if isinstance(nm, ScalarNode):
                ea.name_span = self.text_span(nm)
            if val is not None and isinstance(val, ScalarNode):
                ea.value = val.value if val.tag != "tag:yaml.org,2002:null" else ""
                ea.value_span = self.node_span(val)
                ea.value_text_span = self.text_span(val)
                if "$(" in ea.value and _K8S_VAR.search(ea.value):
                    ea.value_opaque = True
            elif vf is not None or val is not None:
                ea.value_opaque = True
            s = self.pos(item.start_mark.index)
            e = self.pos(_content_end(item))
            ea.delete_span = self.line_block(s, e, allow_dash=True)
            out.append(ea)
        return out

    def compose_env(self, node: Any) -> list[EnvAssign]:
        out = []
        if isinstance(node, SequenceNode):
            for item in node.value:
                t = _str(item)
                if not t:
                    continue
                whole = self.text_span(item)  # a value spelled as one run: its parts are runs too
                name, eq, value = t.partition("=")
                ea = EnvAssign(name=name.strip(), name_span=None, value=value if eq else None)
                if whole is not None:
                    ea.name_span = Span(whole.start, whole.start + len(name.encode()))
                    if eq:
                        ea.value_span = Span(ea.name_span.end + 1, whole.end)
                        ea.value_text_span = ea.value_span
                if not eq or "$" in value:
                    ea.value_opaque = True
                s = self.pos(item.start_mark.index)
                ea.delete_span = self.line_block(s, self.pos(item.end_mark.index), allow_dash=True)
                out.append(ea)
        elif isinstance(node, MappingNode):
            for k, v in node.value:
                name = _str(k)
                if not name:
                    continue
                ea = EnvAssign(name=name, name_span=None, value=None)
                ea.name_span = self.text_span(k)
                if isinstance(v, ScalarNode) and v.tag != "tag:yaml.org,2002:null":
                    ea.value = v.value
                    ea.value_span = self.node_span(v)
                    ea.value_text_span = self.text_span(v)
                    if "$" in v.value:
                        ea.value_opaque = True
                else:
                    ea.value_opaque = True
                ks = self.pos(k.start_mark.index)
                ea.delete_span = self.line_block(ks, self.pos(_content_end(v)))
                out.append(ea)
        return out

    # ---- hardware --------------------------------------------------------------------------

    def hardware_here(self, node: Any) -> Hardware:
        """GPU facts stated directly in this mapping (resources, nodeSelector, affinity, ...)."""
        hw = Hardware()
        res = _get(node, "resources")
        if isinstance(res, MappingNode):
            for part in ("limits", "requests"):
                sect = _get(res, part)
                for key in _GPU_RESOURCE_KEYS:
                    n = _int(_str(_get(sect, key)))
                    if n is not None and hw.gpu_count is None:
                        hw.gpu_count = n
                        hw.source = f"resources.{part}.{key}"
        ns = _get(node, "nodeSelector")
        for key in _GPU_PRODUCT_KEYS:
            v = _str(_get(ns, key))
            if v:
                hw.gpu_product = v
                hw.source = hw.source or f"nodeSelector.{key}"
                break
        aff = _get(node, "affinity")
        if aff is not None and hw.gpu_product is None:
            hw.gpu_product = self._affinity_product(aff)
            if hw.gpu_product:
                hw.source = hw.source or "affinity"
        return hw

    def _affinity_product(self, node: Any) -> Optional[str]:
        stack = [node]
        seen: set[int] = set()
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if isinstance(n, MappingNode):
                key = _str(_get(n, "key"))
                if key in _GPU_PRODUCT_KEYS:
                    for v in _seq(_get(n, "values")):
                        if _str(v):
                            return _str(v)
                stack.extend(v for _k, v in n.value)
            elif isinstance(n, SequenceNode):
                stack.extend(n.value)
        return None

    # ---- launches from word lists -----------------------------------------------------------

    def _words_from(self, node: Any, split: Optional[list] = None) -> list[tuple[Token, Any]]:
        """(token, deletion handle) for a command/args value: a list or a string (``split``: its
        :func:`split_words`, when already made)."""
        out: list[tuple[Token, Any]] = []
        if isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                out.append((self.scalar_token(item), ("seq", node, i, item)))
        elif isinstance(node, ScalarNode) and node.tag != "tag:yaml.org,2002:null":
            out.extend(self.string_words(node, split))
        return out

    def string_words(self, node: Any, split: Optional[list] = None) -> list[tuple[Token, Any]]:
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

    def make_deleter(self, handles: dict[int, Any]) -> Callable[[list[Token]], Optional[list[Edit]]]:
        def delete_tokens(tokens: list[Token]) -> Optional[list[Edit]]:
            by_seq: dict[int, tuple[Any, list[int]]] = {}
            by_str: dict[int, tuple[Any, ScalarMap, list, list[int]]] = {}
            for t in tokens:
                h = handles.get(id(t))
                if h is None:
                    return None
                if h[0] == "seq":
                    by_seq.setdefault(id(h[1]), (h[1], []))[1].append(h[2])
                elif h[0] == "str":
                    by_str.setdefault(id(h[1]), (h[1], h[2], h[3], []))[3].append(h[4])
                else:
                    return None
            edits: list[Edit] = []
            for seq, idx in by_seq.values():
                e = self.seq_delete(seq, idx)
                if e is None:
                    return None
                edits.extend(e)
            for _node, m, words, idx in by_str.values():
                ranges = []
                for k in sorted(set(idx)):
                    if k > 0:
                        ranges.append((words[k - 1][2], words[k][2]))
                    elif len(words) > 1:
                        ranges.append((words[0][1], words[1][1]))
                    else:
                        ranges.append((words[0][1], words[0][2]))
                part = _deletions(ranges, m.span)
                if part is None:
                    return None
                edits.extend(part)
            return edits

        return delete_tokens

    def container(
        self,
        node: Any,
        hw: Hardware,
        *,
        cmd_key: str = "command",
        args_key: str = "args",
        env_key: str = "env",
        image: Optional[str] = None,
        image_node: Any = None,
        kind: Optional[str] = None,
        extra_env: Optional[list[EnvAssign]] = None,
        compose: bool = False,
    ) -> bool:
        """Launches of one container-like mapping. True when it held a vLLM launch."""
        from vllm_lint.frontends.commands import find_vllm_command, image_is_vllm

        if image is None:
            image_node = _get(node, "image")
            image = _str(image_node)
            if image is None and isinstance(image_node, MappingNode):
                image = self._image_from_values(image_node)
            if image is None and _get(node, "repository") is not None:
                image = self._image_from_values(node)
                image_node = node
        eff_image = _compose_default(image) if (compose and image) else image
        if not compose and isinstance(image_node, ScalarNode) and self.regions:
            rendered = self._helm_default(image_node)  # "{{ .Values.x | default "vllm/..." }}"
            if rendered is not None:
                eff_image = rendered[0]
        cmd_node = _get(node, cmd_key)
        args_node = _get(node, args_key)
        # The words' texts decide whether this container starts vLLM; the tokens, environment,
        # hardware, version hints and span are built only for a launch (most containers of a
        # manifest or services of a compose file hold none).
        cmd_split = _split_value(cmd_node)
        args_split = _split_value(args_node)
        cmd_texts = _word_texts(cmd_node, cmd_split)
        arg_texts = _word_texts(args_node, args_split)
        texts = cmd_texts + arg_texts
        ctx: dict[str, Any] = {}
        if kind:
            ctx["kind"] = kind
        name = _str(_get(node, "name"))
        if name:
            ctx["container"] = name
        if eff_image:
            ctx["image"] = eff_image
        found = False
        built: list = []  # [words, env, hw, versions, span], on first use

        def facts() -> list:
            if not built:
                cmd_words = self._words_from(cmd_node, cmd_split)
                words = cmd_words + self._words_from(args_node, args_split)
                env = (
                    self.compose_env(_get(node, env_key))
                    if compose
                    else self.k8s_env(_get(node, env_key))
                )
                if extra_env:
                    env = list(extra_env) + env
                hw2 = _hw_merge(hw, self.hardware_here(node))
                if compose:
                    hw2 = _hw_merge(hw2, self._compose_hw(node))
                versions = self._image_version(image, image_node, compose)
                span = self.content_span(node) or Span(0, 0)
                built.extend((words, env, hw2, versions, span))
            return built

        # sh -c / bash -c
        for i, w in enumerate(texts[:4]):
            base = w.rsplit("/", 1)[-1]
            if base in _SHELLS and i + 1 < len(texts):
                j = i + 1
                while j < len(texts) and texts[j].startswith("-") and "c" not in texts[j][1:]:
                    j += 1
                if j < len(texts) and re.match(r"^-[a-zA-Z]*c[a-zA-Z]*$", texts[j]):
                    if j + 1 < len(texts):
                        if self._shell_word(j + 1, len(cmd_texts), cmd_node, args_node, cmd_split,
                                            args_split, facts, ctx):
                            found = True
                break
        if not found:
            vc = find_vllm_command(texts) if texts else None
            if vc is not None:
                if not cmd_texts and eff_image and image_is_vllm(eff_image) and vc.args_start > 0:
                    # compose `command:` / Kubernetes `args:` are appended to the image's entrypoint
                    ctx["image_cmd"] = texts[:vc.args_start]
                words, env, hw2, versions, span = facts()
                self._argv_launch(vc.entry, words[vc.args_start:], span, env, versions, hw2, ctx,
                                  wrapped_env=[(words[k], nm, v) for k, nm, v in vc.env])
                found = True
            elif not cmd_texts and arg_texts:
                entry = None
                if eff_image and image_is_vllm(eff_image):
                    entry = f"docker:{eff_image}"
                elif _str(_get(node, "modelCommand")) == "vllmServe":
                    entry = "llm-d:vllmServe"
                elif (_str(_get(node, "engine")) or "").lower() == "vllm":
                    entry = "kubeai:VLLM"
                    if _str(_get(node, "url")):
                        ctx["model"] = _str(_get(node, "url"))
                elif self._kserve_hf(node):
                    entry = "kserve:huggingfaceserver"
                    ctx["wrapper_options"] = sorted(_KSERVE_HF_OPTIONS)
                if entry:
                    words, env, hw2, versions, span = facts()
                    self._argv_launch(entry, words, span, env, versions, hw2, ctx)  # no command words
                    found = True
        # options carried in an environment variable by a known wrapper
        for item in _seq(_get(node, env_key)):
            nm = _str(_get(item, "name"))
            val = _get(item, "value")
            if nm in _ENV_ARG_CARRIERS and isinstance(val, ScalarNode):
                _words, env, hw2, versions, span = facts()
                toks = self.string_words(val)
                c2 = dict(ctx, args_only=True, carrier=nm)
                self._argv_launch(f"env:{nm}", toks, self.content_span(item) or span, env,
                                  versions, hw2, c2)
                self.consumed.add(id(val))
                found = True
        if found:
            for n in (cmd_node, args_node):
                if isinstance(n, SequenceNode):
                    self.consumed.update(id(item) for item in n.value)
                elif isinstance(n, ScalarNode):
                    self.consumed.add(id(n))
        return found

    def _kserve_hf(self, node: Any) -> bool:
        fmt = _get(node, "modelFormat")
        name = (_str(_get(fmt, "name")) or _str(fmt) or "").lower()
        runtime = (_str(_get(node, "runtime")) or "").lower()
        return "huggingface" in name or "vllm" in name or "vllm" in runtime

    def _image_from_values(self, node: Any) -> Optional[str]:
        repo = _str(_get(node, "repository"))
        if not repo:
            return None
        reg = _str(_get(node, "registry"))
        tag = _str(_get(node, "tag"))
        img = f"{reg}/{repo}" if reg else repo
        return f"{img}:{tag}" if tag else img

    def _image_version(self, image: Optional[str], image_node: Any, compose: bool) -> list[VersionHint]:
        from vllm_lint.frontends.commands import image_is_vllm, version_from_image

        if not image:
            return []
        if isinstance(image_node, ScalarNode) and not compose:
            rendered = self._helm_default(image_node)
            if rendered is not None:
                v = version_from_image(rendered[0]) if image_is_vllm(rendered[0]) else None
                return [VersionHint(v, "helm-default", rendered[1])] if v else []
        eff = _compose_default(image) if compose else image
        if not image_is_vllm(eff):
            return []
        if isinstance(image_node, MappingNode):
            tag_node = _get(image_node, "tag")
            v = _str(tag_node)
            rendered = self._helm_default(tag_node)
            if rendered is not None:
                return [VersionHint(rendered[0], "helm-default", rendered[1])] if rendered[0] else []
            if v:
                return [VersionHint(v, "image-tag", self.node_span(tag_node))]
            return []
        v = version_from_image(eff)
        if not v:
            return []
        span = None
        if isinstance(image_node, ScalarNode):
            m = self.smap(image_node)
            raw = image_node.value.encode()
            k = raw.rfind(v.encode())
            if k >= 0:
                span = m.span(k, k + len(v.encode()))
            if span is None:
                span = self.node_span(image_node)
        return [VersionHint(v, "image-tag", span)]

    def _helm_default(self, node: Any) -> Optional[tuple[str, Optional[Span]]]:
        """A scalar written with template expressions that all carry a literal ``default``
        (``vllm/vllm-openai:{{ .Values.image.tag | default "v0.8.5" }}``): its text as it renders
        when the values are unset, and the span of its last expression. None otherwise (no
        template, an expression without a default, a nested YAML text)."""
        if not isinstance(node, ScalarNode) or self.original is None or self.outer is not None:
            return None
        s, e = self.pos(node.start_mark.index), self.pos(node.end_mark.index)
        inside = [(a, b) for a, b in self.regions if a >= s and b <= e]
        if not inside:
            return None
        rb = self.original[s:e]
        s += len(rb) - len(rb.lstrip())
        e -= len(rb) - len(rb.rstrip())
        if e - s >= 2 and rb.strip()[:1] in (b"'", b'"') and rb.strip()[-1:] == rb.strip()[:1]:
            s, e = s + 1, e - 1
        raw = self.original[s:e].decode("utf-8", "replace")
        if not raw.isascii():
            return None  # keep character and byte offsets equal
        out, pos, exprs = [], 0, []
        for m in _TEMPLATE_STR.finditer(raw):
            lit = _template_default(m.group(0))
            if lit is None:
                return None
            out.append(raw[pos:m.start()])
            out.append(lit)
            exprs.append((m.start(), m.end()))
            pos = m.end()
        out.append(raw[pos:])
        text = "".join(out)
        if "{{" in text or "}}" in text or not text or any(c.isspace() for c in text):
            return None
        # the tag as written: after the last ':' outside the expressions
        tag_at = next((i + 1 for i in range(len(raw) - 1, -1, -1)
                       if raw[i] == ":" and not any(a <= i < b for a, b in exprs)), 0)
        return text, self.fspan(s + tag_at, e)

    def _compose_hw(self, node: Any) -> Hardware:
        hw = Hardware()
        devs = _get(_get(_get(_get(node, "deploy"), "resources"), "reservations"), "devices")
        for d in _seq(devs):
            caps = [_str(c) for c in _seq(_get(d, "capabilities"))]
            drv = _str(_get(d, "driver")) or ""
            if "gpu" not in caps and drv not in ("nvidia", "amd"):
                continue
            n = _int(_str(_get(d, "count")))
            ids = _seq(_get(d, "device_ids"))
            if n is None and ids:
                n = len(ids)
            if n is not None:
                hw.gpu_count = n
            hw.source = "compose.deploy.devices"
        gpus = _get(node, "gpus")
        if gpus is not None and hw.gpu_count is None:
            n = _int(_str(gpus))
            if n is not None:
                hw.gpu_count = n
            hw.source = hw.source or "compose.gpus"
        return hw

    def _argv_launch(
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
            delete_tokens=self.make_deleter(handles),
            context=dict(ctx),
        )
        self.out.launches.append(launch)
        return launch

    def _shell_word(self, j: int, ncmd: int, cmd_node: Any, args_node: Any, cmd_split: Optional[list],
                    args_split: Optional[list], facts: Callable[[], list], ctx: dict) -> bool:
        """A ``sh -c`` script, word ``j`` of a container's command + args (``ncmd`` of them from
        the command): run the shell front-end on it."""
        node, split, k = (cmd_node, cmd_split, j) if j < ncmd else (args_node, args_split, j - ncmd)
        if isinstance(node, SequenceNode):
            item = node.value[k]
            if not isinstance(item, ScalarNode) or not _may_be_command(item.value.encode("utf-8", "surrogatepass")):
                return False  # (shell_launches would find nothing: no map needed)
            m = self.smap(item)
            script = m.value
            omap = m.map
            outer = item
        else:
            assert split is not None
            text, rs, re_, verb, _op = split[k]
            script = text.encode("utf-8", "surrogatepass")
            if not _may_be_command(script):
                return False
            m = self.smap(node)
            if verb is not None:
                base = verb[0]
                omap = lambda o, m=m, base=base: m.map(base + o)  # noqa: E731
            else:
                omap = lambda o: None  # noqa: E731
            outer = node
        launches = self.shell_launches(script, omap, self.content_span(outer))
        if launches:
            _words, env, hw, versions, _span = facts()
            for la in launches:
                la.env = list(env) + la.env
                la.version_hints = list(versions) + la.version_hints
                la.hardware = _hw_merge(hw, la.hardware)
                la.context = {**ctx, **la.context, "shell": True}
        return bool(launches)

    def shell_launches(self, script: bytes, omap: Callable[[int], Optional[int]],
                       outer: Optional[Span] = None) -> list[Launch]:
        """Launches of the shell ``script`` held in a scalar; ``outer`` is the scalar's span, the
        launch's span when the scalar's text does not map back 1:1 (multi-line plain or quoted
        scalars, folded blocks), so findings there point at the scalar, not at 1:1."""
        if not _may_be_command(script):
            # one word (a container name, an image, a label) is no command line: the shell
            # front-end and its grammar are not even loaded (start-up, benchmarks/README.md)
            return []
        try:
            from vllm_lint.frontends import shell
        except ImportError:  # pragma: no cover - the shell front-end lands separately
            return []
        try:
            ex = shell.extract_script(script, self.path, omap)
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

    # ---- the walk ---------------------------------------------------------------------------

    def _as_written(self) -> tuple[bytes, bytes]:
        """The bytes as written (template text included where templates were filled: a
        template's default may name the image) and their ASCII lower case, made once: what the
        mention checks of the walk look at."""
        written = self.original if self.original is not None else self.data
        if self.written_low is None:
            self.written_low = written.lower()
        return written, self.written_low

    def walk_document(self, root: Any) -> None:
        s0 = self.pos(root.start_mark.index)
        e0 = self.pos(root.end_mark.index)
        if not _mentions(self._as_written()[1], s0, max(e0, s0 + 1)):
            return  # nothing in this document mentions vLLM
        if not isinstance(root, MappingNode):
            if isinstance(root, SequenceNode):
                self._walk(root, Hardware(), None)
            return
        top = _keys(root)  # the root's keys as _get finds them (the first of duplicates)
        kind = _str(top.get("kind"))
        start = len(self.out.launches)
        doc_hw = Hardware()
        doc_env: list[EnvAssign] = []
        # task files
        res = top.get("resources")
        acc = _get(res, "accelerators")
        if acc is not None and (top.get("run") is not None or top.get("setup") is not None):
            prod, cnt = None, None
            if isinstance(acc, ScalarNode):
                prod, cnt = _parse_accel(acc.value)
            elif isinstance(acc, MappingNode) and acc.value:
                prod = _str(acc.value[0][0])
                cnt = _int(_str(acc.value[0][1]))
            elif isinstance(acc, SequenceNode) and acc.value:
                prod, cnt = _parse_accel(_str(acc.value[0]) or "")
            doc_hw = Hardware(gpu_product=prod, gpu_count=cnt,
                              nodes=_int(_str(top.get("num_nodes"))), source="skypilot")
            doc_env = self.compose_env(top.get("envs"))
        elif _str(top.get("type")) in ("task", "service", "dev-environment") and (
            top.get("commands") is not None
        ):
            gpu = _get(res, "gpu")
            prod, cnt = (None, None)
            if isinstance(gpu, ScalarNode):
                prod, cnt = _parse_accel(gpu.value)
            elif isinstance(gpu, MappingNode):
                nm = _get(gpu, "name")
                prod = _str(nm) or (_str(_seq(nm)[0]) if _seq(nm) else None)
                cnt = _int(_str(_get(gpu, "count")))
            doc_hw = Hardware(gpu_product=prod, gpu_count=cnt,
                              nodes=_int(_str(top.get("nodes"))), source="dstack")
            doc_env = self.compose_env(top.get("env"))
        # production-stack values
        pse = top.get("servingEngineSpec")
        if isinstance(pse, MappingNode):
            self._production_stack(pse)
        # GitHub Actions: env of workflow/job/step for each run
        jobs = top.get("jobs")
        github = isinstance(jobs, MappingNode) and top.get("on") is not None
        if github:
            self._github(root, jobs)
        self._walk(root, Hardware(), kind, compose_root=top.get("services"))
        if b"engine_kwargs" in self.data:
            self._ray_llm(root, Hardware())
        if not github:
            self._gitlab(root, start)
        for la in self.out.launches[start:]:
            if doc_hw.source:
                la.hardware = _hw_merge(doc_hw, la.hardware)
            if doc_env:
                la.env = list(doc_env) + la.env

    def _github(self, root: Any, jobs: Any) -> None:
        wf_env = self.compose_env(_get(root, "env"))
        for _k, job in jobs.value:
            job_env = self.compose_env(_get(job, "env"))
            for step in _seq(_get(job, "steps")):
                run = _get(step, "run")
                if not isinstance(run, ScalarNode) or id(run) in self.consumed:
                    continue
                env = wf_env + job_env + self.compose_env(_get(step, "env"))
                launches = self._string_launches(run)
                for la in launches:
                    la.env = env + la.env
                    la.context.setdefault("step", _str(_get(step, "name")) or "")

    def _gitlab(self, root: Any, start: int) -> None:
        """GitLab CI: global ``variables`` and each job's own ``variables`` are the environment of
        the launches in its ``script`` / ``before_script`` / ``after_script``; a job's image given
        as ``image: {name: ...}`` or inherited from ``default: image`` names the release."""
        if len(self.out.launches) == start:
            return
        jobs = _gitlab_jobs(root, self.path)
        if jobs is None:
            return
        glob_env = self.gitlab_env(_get(root, "variables"))
        default_image = _get(_get(root, "default"), "image") or _get(root, "image")
        ranges = []
        for job in jobs:
            sp = self.node_span(job)
            if sp is not None:
                ranges.append((sp, job))
        for la in self.out.launches[start:]:
            job = next((j for sp, j in ranges if sp.start <= la.span.start < sp.end), None)
            env = list(glob_env)
            if job is not None:
                env += self.gitlab_env(_get(job, "variables"))
                if not la.version_hints:
                    img = _get(job, "image") or default_image
                    name = _get(img, "name") if isinstance(img, MappingNode) else img
                    if isinstance(name, ScalarNode):
                        la.version_hints = self._image_version(name.value, name, False)
            if env:
                la.env = env + la.env

    def gitlab_env(self, node: Any) -> list[EnvAssign]:
        """GitLab ``variables``: ``NAME: value`` or ``NAME: {value: ..., description: ...}``."""
        if not isinstance(node, MappingNode):
            return []
        out: list[EnvAssign] = []
        for k, v in node.value:
            if isinstance(v, MappingNode):
                val = _get(v, "value")
                if not isinstance(val, ScalarNode):
                    continue
                one = self.compose_env(MappingNode("tag:yaml.org,2002:map", [(k, val)]))
                for ea in one:
                    ea.delete_span = None  # the key's mapping holds more than the value
                out.extend(one)
            else:
                out.extend(self.compose_env(MappingNode("tag:yaml.org,2002:map", [(k, v)])))
        return out

    def _string_launches(self, node: Any) -> list[Launch]:
        self.consumed.add(id(node))
        if not _may_be_command(node.value.encode("utf-8", "surrogatepass")):
            return []  # (shell_launches would find nothing: no map needed)
        m = self.smap(node)
        if "```" in node.value or "~~~" in node.value:
            return self._markdown_launches(m)
        return self.shell_launches(m.value, m.map, self.content_span(node))

    def _markdown_launches(self, m: ScalarMap) -> list[Launch]:
        """A string holding Markdown with fenced blocks (vLLM recipes' ``guide: |``): its blocks
        are read by the Markdown front-end, through the scalar's map."""
        from vllm_lint.frontends.base import get

        markdown = get("markdown").module  # (through the registry: Markdown reads YAML blocks)
        try:
            ex = markdown.extract(m.value, self.path)
        except ParseError:
            return []
        start = len(self.out.launches)
        markdown.shift(ex, m.map, self.out)
        return self.out.launches[start:]

    def _walk(self, root: Any, hw0: Hardware, kind: Optional[str], compose_root: Any = None) -> None:
        seen: set[int] = set()
        # (node, inherited hardware, parent key)
        stack: list[tuple[Any, Hardware, Optional[str], list]] = [(root, hw0, None, [])]
        strings: list[tuple[Any, Hardware, list]] = []
        # A collection whose bytes (as written: template text included) mention none of the
        # pre-filter's words holds no launch: every launch needs one (see might_contain_launch:
        # a command or image names vllm, a KServe model its modelFormat, a Ray config its
        # engine_kwargs), and what the walk takes from a collection (hardware, image tag) only
        # reaches launches inside it. This holds when every node lies within its parent's bytes,
        # i.e. without aliases (a '*'), and when values are spelled as written: a backslash (an
        # escape in a double-quoted string) may spell anything.
        prune = b"*" not in self.data
        raw, low = self._as_written()
        pos = self.pos

        def holds_none(n: Any) -> bool:
            s, e = pos(n.start_mark.index), pos(n.end_mark.index)
            return not _mentions(low, s, e) and raw.find(b"\\", s, e) < 0  # type: ignore[arg-type]
        while stack:
            node, hw, pkey, vers = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, ScalarNode):
                if node.tag == "tag:yaml.org,2002:str" and "vllm" in node.value:
                    strings.append((node, hw, vers))
                continue
            if prune and holds_none(node):
                continue
            if isinstance(node, SequenceNode):
                if pkey in ("containers", "initContainers"):
                    for item in node.value:
                        if isinstance(item, MappingNode) and id(item) not in seen:
                            seen.add(id(item))
                            if prune and holds_none(item):
                                continue
                            self.container(item, hw, kind=kind)
                            for _k, v in item.value:
                                stack.append((v, hw, None, vers))
                    continue
                for item in node.value:
                    stack.append((item, hw, pkey, vers))
                continue
            if not isinstance(node, MappingNode):
                continue
            km = {k.value: v for k, v in node.value if isinstance(k, ScalarNode)}
            hw2 = hw
            if _HW_KEYS.intersection(km):
                here = self.hardware_here(node)
                size = _int(_str(km.get("size")))
                if size is not None and ("workerTemplate" in km or "leaderTemplate" in km):
                    here.nodes = size
                # KubeAI Model resourceProfile: "nvidia-gpu-h100:8"
                rp = _str(km.get("resourceProfile"))
                if rp and ":" in rp and "gpu" in rp.lower():  # "cpu:6" is six CPU units, no GPU
                    p, _sep, c = rp.rpartition(":")
                    here.gpu_product = here.gpu_product or p
                    if here.gpu_count is None:
                        here.gpu_count = _int(c)
                    here.source = here.source or "kubeai.resourceProfile"
                hw2 = _hw_merge(hw, here)
            if compose_root is not None and node is compose_root:
                for _k, svc in node.value:
                    if isinstance(svc, MappingNode) and id(svc) not in seen:
                        seen.add(id(svc))
                        if prune and holds_none(svc):
                            continue
                        self.container(svc, hw2, cmd_key="entrypoint", args_key="command",
                                       env_key="environment", compose=True, kind="compose")
                        for _k2, v in svc.value:
                            stack.append((v, hw2, None, vers))
                continue
            # serveConfigV2: YAML inside a string
            sc = km.get("serveConfigV2")
            if isinstance(sc, ScalarNode):
                self._nested_yaml(sc, hw2)
            if pkey not in ("containers", "initContainers") and ("command" in km or "args" in km):
                self.container(node, hw2, kind=kind)
            img = km.get("image")
            if isinstance(img, ScalarNode) and pkey not in ("containers", "initContainers"):
                vers = self._image_version(img.value, img, "${" in img.value) or vers
            for k, v in node.value:
                stack.append((k, hw2, None, vers))
                stack.append((v, hw2, _str(k), vers))
        for s, hw, vers in strings:
            if id(s) in self.consumed:
                continue
            for la in self._string_launches(s):
                la.hardware = _hw_merge(hw, la.hardware)
                if vers:
                    la.version_hints = list(vers) + la.version_hints

    def _nested_yaml(self, node: Any, hw: Hardware) -> None:
        self.consumed.add(id(node))
        m = self.smap(node)
        inner = _File(m.value, self.path, self.out, outer=m if m.segments else ScalarMap(m.value, []))
        inner.root_data = self.root_data
        try:
            docs = inner.parse()
        except ParseError:
            return
        start = len(self.out.launches)
        for d in docs:
            inner.walk_document(d)
        inner.out = None  # type: ignore[assignment]  # see _extract: no cycle through the deleters
        for la in self.out.launches[start:]:
            la.hardware = _hw_merge(hw, la.hardware)
            la.context.setdefault("embedded", "serveConfigV2")

    def _ray_llm(self, root: Any, hw: Hardware) -> None:
        """ray.serve.llm configs: llm_configs[].engine_kwargs."""
        seen: set[int] = set()
        stack = [root]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if isinstance(n, MappingNode):
                ek = _get(n, "engine_kwargs")
                if isinstance(ek, MappingNode):
                    hw2 = Hardware(gpu_product=_str(_get(n, "accelerator_type")))
                    keyed = self.keyed_args(ek, style_of=lambda k: "snake")
                    mlc = _get(n, "model_loading_config")
                    ctx: dict[str, Any] = {"engine": "ray.serve.llm"}
                    mid = _str(_get(mlc, "model_source")) or _str(_get(mlc, "model_id"))
                    if mid:
                        ctx["model"] = mid
                    self.out.launches.append(Launch(
                        path=self.path, entry="ray.serve.llm", style="kwargs",
                        span=self.content_span(ek) or Span(0, 0), keyed=keyed,
                        hardware=_hw_merge(hw, hw2) if hw2.gpu_product else hw, context=ctx,
                    ))
                stack.extend(v for _k, v in n.value)
            elif isinstance(n, SequenceNode):
                stack.extend(n.value)

    # ---- keyed args -----------------------------------------------------------------------

    def keyed_args(
        self,
        mapping: Any,
        style_of: Callable[[str], str],
        keys: Optional[Callable[[str], bool]] = None,
    ) -> list[KeyedArg]:
        out = []
        block = not getattr(mapping, "flow_style", False)
        for k, v in mapping.value:
            key = _str(k)
            if key is None or (keys is not None and not keys(key)):
                continue
            ka = KeyedArg(
                key=key,
                key_span=self.text_span(k),
                value=_py(v),
                value_span=self.content_span(v),
                key_style=style_of(key),  # type: ignore[arg-type]
            )
            if isinstance(v, ScalarNode):
                ka.value_text_span = self.text_span(v)
            if block:
                ka.delete_span = self.line_block(self.pos(k.start_mark.index), self.pos(_content_end(v)))
            out.append(ka)
        return out

    # ---- production-stack ------------------------------------------------------------------

    def _production_stack(self, spec: Any) -> None:
        from vllm_lint.frontends.commands import image_is_vllm

        for ms in _seq(_get(spec, "modelSpec")):
            if not isinstance(ms, MappingNode):
                continue
            repo = _str(_get(ms, "repository"))
            tag_node = _get(ms, "tag")
            tag = _str(tag_node)
            image = f"{repo}:{tag}" if repo and tag else repo
            versions = []
            if image and image_is_vllm(image) and tag:
                versions.append(VersionHint(tag, "image-tag", self.node_span(tag_node)))
            hw = self.hardware_here(ms)
            n = _int(_str(_get(ms, "requestGPU")))
            if n is not None:
                hw.gpu_count = n
                hw.source = "production-stack.requestGPU"
            prod = self._affinity_product(_get(ms, "nodeSelectorTerms")) if _get(
                ms, "nodeSelectorTerms") is not None else None
            if prod:
                hw.gpu_product = prod
            env = self.k8s_env(_get(ms, "env"))
            # the chart turns a string `hf_token` (and servingEngineSpec `vllmApiKey`) into a
            # Secret read as HF_TOKEN / VLLM_API_KEY: a literal token in the values file
            for holder, key, var in ((ms, "hf_token", "HF_TOKEN"), (spec, "vllmApiKey", "VLLM_API_KEY")):
                tok = _get(holder, key)
                if isinstance(tok, ScalarNode) and _str(tok):
                    env.append(EnvAssign(var, None, tok.value, value_span=self.content_span(tok),
                                         value_text_span=self.text_span(tok)))
            cfg = _get(ms, "vllmConfig")
            ctx: dict[str, Any] = {"chart": "vllm-project/production-stack"}
            name = _str(_get(ms, "name"))
            if name:
                ctx["name"] = name
            if image:
                ctx["image"] = image
            url = _get(ms, "modelURL")
            if _str(url):
                ctx["model"] = url.value
                ctx["model_span"] = self.node_span(url)
            keyed: list[KeyedArg] = []
            option_for_key: dict[str, str] = {}
            ignored: list[str] = []
            for key, opt in _PS_MODELSPEC_OPTIONS.items():
                pair = _get_pair(ms, key)
                if pair is not None:
                    keyed.extend(self.keyed_args(_PairView(pair), style_of=lambda k: "camel"))
                    option_for_key[key] = opt
            if isinstance(cfg, MappingNode):
                for ka in self.keyed_args(cfg, style_of=lambda k: "camel"):
                    if ka.key in _PS_VLLMCONFIG_OPTIONS:
                        keyed.append(ka)
                        option_for_key[ka.key] = _PS_VLLMCONFIG_OPTIONS[ka.key]
                    elif ka.key == "v0":
                        if str(ka.value) == "1":
                            env.append(EnvAssign("VLLM_USE_V1", None, "0", value_span=ka.value_span,
                                                 delete_span=ka.delete_span))
                    elif ka.key == "prometheusMultiprocDir":
                        env.append(EnvAssign("PROMETHEUS_MULTIPROC_DIR", None, str(ka.value),
                                             value_span=ka.value_span,
                                             value_text_span=ka.value_text_span,
                                             delete_span=ka.delete_span))
                    elif ka.key != "extraArgs":
                        ignored.append(ka.key)
                if not any(ka.key == "enablePrefixCaching" and ka.value for ka in keyed):
                    # the chart emits --no-enable-prefix-caching whenever vllmConfig is set and
                    # enablePrefixCaching is not true
                    ctx["implicit_args"] = ["--no-enable-prefix-caching"]
            ctx["option_for_key"] = option_for_key
            if ignored:
                ctx["ignored_keys"] = ignored
            span = self.content_span(ms) or Span(0, 0)
            self.out.launches.append(Launch(
                path=self.path, entry="production-stack", style="config", span=span,
                keyed=keyed, env=env, version_hints=versions, hardware=hw, context=ctx,
            ))
            extra = _get(cfg, "extraArgs")
            if isinstance(extra, SequenceNode):
                words = self._words_from(extra)
                self._argv_launch("production-stack:extraArgs", words,
                                  self.content_span(extra) or span, env, versions, hw,
                                  dict(ctx, args_only=True))
                self.consumed.update(id(x) for x in extra.value)
            self.consumed.add(id(ms))

    # ---- parsing ---------------------------------------------------------------------------

    def parse(self) -> list:
        data = self.data
        base = 0
        if data.startswith(b"\xef\xbb\xbf"):
            base = 3
        try:
            text = data[base:].decode("utf-8")
        except UnicodeDecodeError as e:
            raise ParseError(f"not UTF-8: {e.reason}", offset=base + e.start,
                             line=data.count(b"\n", 0, base + e.start) + 1) from None
        # ASCII text (most files): a code-point index is a byte offset after the BOM
        self.pos = base.__add__ if text.isascii() else _Pos(text, base)
        try:
            return list(_pyyaml.compose_all(text, Loader=_Loader))
        except _pyyaml.YAMLError as e:
            mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
            line = mark.line + 1 if mark is not None else None
            off = self.pos(mark.index) if mark is not None else None
            raise ParseError(f"invalid YAML: {_short(e)}", offset=off, line=line) from None
        except (RecursionError, MemoryError, ValueError) as e:
            raise ParseError(f"YAML too complex: {type(e).__name__}") from None


class _PairView:
    """A one-pair mapping view, to reuse keyed_args on a single key of a larger mapping."""

    def __init__(self, pair: tuple):
        self.value = [pair]
        self.flow_style = False


# top-level GitLab CI keywords that are not jobs
_GITLAB_GLOBAL = frozenset({"stages", "variables", "default", "include", "workflow", "image",
                            "services", "before_script", "after_script", "cache", "types"})
# keys only GitLab CI jobs (or the file) carry, to tell a CI file from other YAML with `script`
_GITLAB_MARKS = frozenset({"stage", "extends", "rules", "only", "except", "needs", "artifacts",
                           "tags", "when", "allow_failure", "dependencies", "interruptible", "trigger"})


def _gitlab_jobs(root: Any, path: str) -> Optional[list]:
    """The job mappings of a GitLab CI document, or None when it does not look like one."""
    if not isinstance(root, MappingNode) or _get(root, "kind") is not None:
        return None
    jobs = []
    marked = "gitlab-ci" in path.rsplit("/", 1)[-1].lower() or any(
        _get(root, k) is not None for k in ("stages", "workflow", "include"))
    for k, v in root.value:
        key = _str(k)
        if not key or key in _GITLAB_GLOBAL or not isinstance(v, MappingNode):
            continue
        keys = {_str(kk) for kk, _v in v.value}
        if keys & {"script", "before_script", "after_script"}:
            jobs.append(v)
            marked = marked or bool(keys & _GITLAB_MARKS)
    return jobs if jobs and marked else None


_TEMPLATE_STR = lazy_re(r"\{\{.*?\}\}", re.S)
_GO_STRING = r'(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)'
# {{ X | default "lit" }}  /  {{ default "lit" X }}  (trim markers allowed)
_DEFAULT_PIPE = lazy_re(r"^\{\{-?\s*[.$][\w.$]*\s*\|\s*default\s+" + _GO_STRING + r"\s*-?\}\}$", re.S)
_DEFAULT_CALL = lazy_re(r"^\{\{-?\s*default\s+" + _GO_STRING + r"\s+[.$][\w.$]*\s*-?\}\}$", re.S)


def _template_default(expr: str) -> Optional[str]:
    """The literal a Helm expression renders when its value is unset: ``{{ .Values.image.tag |
    default "v0.8.5" }}`` -> ``v0.8.5``; None for anything else (pipelines after ``default``,
    ``default .Chart.AppVersion``, conditionals)."""
    m = _DEFAULT_PIPE.match(expr) or _DEFAULT_CALL.match(expr)
    if not m:
        return None
    if m.group(1) is not None:
        if "\\" in m.group(1):
            return None  # escapes: not worth decoding for a tag
        return m.group(1)
    return m.group(2)


def _short(e: Exception) -> str:
    p = getattr(e, "problem", None)
    c = getattr(e, "context", None)
    if p:
        return f"{c}: {p}" if c else str(p)
    return str(e).splitlines()[0] if str(e) else type(e).__name__


def _compose_default(image: str) -> str:
    """``vllm/vllm-openai:${TAG:-v0.8.5}`` -> ``vllm/vllm-openai:v0.8.5``."""
    if "$" not in image:
        return image
    return _COMPOSE_VAR_DEFAULT.sub(lambda m: m.group(1) or "", image)


# KServe huggingfaceserver's own options (python/huggingfaceserver/huggingfaceserver/__main__.py
# and kserve.model_server): in the same argv as vLLM's, but not vLLM's
_KSERVE_HF_OPTIONS = {
    "--model_name", "--model_dir", "--model_id", "--model_revision", "--tokenizer_revision",
    "--max_length", "--disable_lower_case", "--disable_special_tokens", "--tensor_input_names",
    "--backend", "--return_token_type_ids", "--return_probabilities", "--task", "--http_port",
    "--grpc_port", "--workers", "--max_threads", "--max_asyncio_workers", "--enable_grpc",
    "--enable_docs_url", "--enable_latency_logging", "--configure_logging", "--log_config_file",
    "--access_log_format", "--predictor_host", "--predictor_protocol", "--predictor_use_ssl",
    "--predictor_request_timeout_seconds",
}

# production-stack chart (helm/templates/deployment-vllm-multi.yaml): keys that become options
_PS_VLLMCONFIG_OPTIONS = {
    "enableChunkedPrefill": "--enable-chunked-prefill",  # false -> --no-enable-chunked-prefill
    "enablePrefixCaching": "--enable-prefix-caching",  # false/absent -> --no-enable-prefix-caching
    "maxModelLen": "--max-model-len",
    "dtype": "--dtype",
    "tensorParallelSize": "--tensor-parallel-size",
    "maxNumSeqs": "--max-num-seqs",
    "gpuMemoryUtilization": "--gpu-memory-utilization",
    "maxLoras": "--max-loras",
}
_PS_MODELSPEC_OPTIONS = {
    "enableLoRA": "--enable-lora",
    "enableTool": "--enable-auto-tool-choice",
    "toolCallParser": "--tool-call-parser",
    "chatTemplate": "--chat-template",
}


# ------------------------------------------------------------------------------------------
# vLLM --config files

_COMMON_OPTIONS = {
    "model", "tensor-parallel-size", "pipeline-parallel-size", "max-model-len",
    "gpu-memory-utilization", "dtype", "port", "host", "served-model-name", "max-num-seqs",
    "max-num-batched-tokens", "enable-prefix-caching", "enable-chunked-prefill", "quantization",
    "kv-cache-dtype", "trust-remote-code", "enforce-eager", "download-dir", "tokenizer",
    "swap-space", "block-size", "seed", "uvicorn-log-level", "api-key", "data-parallel-size",
    "enable-expert-parallel", "compilation-config", "speculative-config", "max-loras",
    "enable-lora", "lora-modules", "chat-template", "tool-call-parser", "enable-auto-tool-choice",
    "reasoning-parser", "disable-log-requests", "disable-log-stats", "load-format",
    "num-scheduler-steps", "distributed-executor-backend", "limit-mm-per-prompt",
    "revision", "max-logprobs", "hf-overrides", "override-generation-config",
}


def _norm_key(k: str) -> str:
    return k.strip().lower().replace("_", "-")


def looks_like_config_file(root: Any) -> bool:
    """A flat top-level mapping whose keys mostly look like vLLM options."""
    if not isinstance(root, MappingNode) or not root.value:
        return False
    keys = [_str(k) for k, _v in root.value]
    if any(k is None for k in keys):
        return False
    model = _get(root, "model")
    if model is not None and not isinstance(model, ScalarNode):
        return False  # a vLLM config's model is a name; a mapping is another file's (vLLM recipes')
    known = sum(1 for k in keys if _norm_key(k) in _COMMON_OPTIONS)  # type: ignore[arg-type]
    shaped = sum(1 for k in keys if re.match(r"^[a-z][a-z0-9]*([-_][a-z0-9]+)*$", k or ""))
    return known >= 1 and shaped == len(keys) and known * 2 >= len(keys) - 1


def _config_launch(f: _File, root: Any) -> Launch:
    keyed = f.keyed_args(root, style_of=lambda k: "dash" if "-" in k else "snake")
    return Launch(
        path=f.path, entry="config-file", style="config",
        span=f.content_span(root) or Span(0, len(f.data)), keyed=keyed,
    )


def extract_config_file(data: bytes, path: str) -> Extraction:
    """A vLLM ``--config`` YAML: one ``style="config"`` launch of its top-level keys.

    Called when a launch references the file (``vllm serve --config x.yaml``), so no shape check
    is made beyond the top level being a mapping.
    """
    out = Extraction()
    filled, regions = _prepare(data)
    f = _File(filled, path, out, regions=regions)
    docs = f.parse()
    for root in docs:
        if isinstance(root, MappingNode):
            out.launches.append(_config_launch(f, root))
    _apply_templates(f, out, data)
    return out


# ------------------------------------------------------------------------------------------
# entry point


def _prepare(data: bytes) -> tuple[bytes, list[tuple[int, int]]]:
    if len(data) > MAX_BYTES:
        raise ParseError(f"file too large for the YAML front-end ({len(data)} bytes)", offset=0)
    # (no run of seven '<', '>' or '=': no marker, and no scan of every line start)
    m = _CONFLICT.search(data) if (b"<<<<<<<" in data or b">>>>>>>" in data or b"=======" in data) else None
    if m:
        raise ParseError("merge conflict marker", offset=m.start(),
                         line=data.count(b"\n", 0, m.start()) + 1)
    if b"{{" in data:
        return _fill_templates(data)
    return data, []


def _overlaps(regions: list[tuple[int, int]], span: Optional[Span]) -> bool:
    if span is None or not regions:
        return False
    k = bisect_right(regions, (span.end, span.end))
    while k > 0:
        s, e = regions[k - 1]
        if e <= span.start:
            return False
        if s < span.end and e > span.start:
            return True
        k -= 1
    return False


def _apply_templates(f: _File, out: Extraction, original: bytes, failed: bool = False) -> None:
    regions = f.regions
    if not regions:
        return
    touched = 0
    for la in out.launches:
        for t in la.tokens:
            if _overlaps(regions, t.span):
                t.opaque = True
                t.text_span = None
                if t.span is not None:  # show the expression as written, not the filler
                    raw = original[t.span.start:t.span.end].decode("utf-8", "replace")
                    if len(raw) >= 2 and raw[0] in "'\"" and raw[-1] == raw[0]:
                        raw = raw[1:-1]
                    t.text = raw
                touched += 1
        for ka in la.keyed:
            if _overlaps(regions, ka.value_span):
                ka.value_opaque = True
                ka.value = None
                ka.value_text_span = None
                touched += 1
            if _overlaps(regions, ka.key_span):
                ka.key_span = None
                touched += 1
        for ea in la.env:
            if _overlaps(regions, ea.value_span):
                ea.value_opaque = True
                ea.value_text_span = None
                touched += 1
        for vh in la.version_hints:
            if _overlaps(regions, vh.span) and vh.source != "helm-default":
                touched += 1
        la.version_hints = [vh for vh in la.version_hints
                            if vh.source == "helm-default" or not _overlaps(regions, vh.span)]
    if failed:
        out.notes.append(Note(
            f"{len(regions)} template expression(s) ({{{{ ... }}}}) make this file unparseable "
            "as YAML even with them blanked out; the file was skipped",
            span=Span(regions[0][0], regions[0][1]),
        ))
    elif out.launches:
        out.notes.append(Note(
            f"{len(regions)} template expression(s) ({{{{ ... }}}}) were read as unknown values"
            + (f"; {touched} launch value(s) they touch are treated as opaque" if touched else ""),
            span=Span(regions[0][0], regions[0][1]),
        ))


def extract(data: bytes, path: str, *, explicit: bool = False) -> Extraction:
    """Launches in a YAML file. ``explicit``: the file was named on the command line, so a
    document shaped like a vLLM ``--config`` file is read as one."""
    # The node trees have no reference cycles and die with this call, yet the cyclic garbage
    # collector's passes, which the composer's allocations trigger, traverse them (and what the
    # walk builds): the collector is off for the call, and back on afterwards if it was on.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _extract(data, path, explicit)
    finally:
        if enabled:
            gc.enable()


def _extract(data: bytes, path: str, explicit: bool) -> Extraction:
    out = Extraction()
    filled, regions = _prepare(data)
    f = _File(filled, path, out, regions=regions)
    if regions:
        f.original = data
    try:
        docs = f.parse()
    except ParseError:
        if regions:
            _apply_templates(f, out, data, failed=True)
            return out
        raise
    for root in docs:
        if explicit and looks_like_config_file(root):
            out.launches.append(_config_launch(f, root))
            continue
        f.walk_document(root)
    # An argv launch's delete_tokens keeps the _File that found it: without its reference to the
    # extraction, the extraction is no reference cycle and is freed as soon as it is dropped.
    f.out = None  # type: ignore[assignment]
    _apply_templates(f, out, data)
    return out


def _deletions(ranges: list[tuple[int, int]], to_span: Callable[[int, int], Optional[Span]]) -> Optional[list[Edit]]:
    """Deletion edits for ``ranges`` (overlapping ones merged), each mapped to file bytes by
    ``to_span``; None when any range has no exact counterpart in the file."""
    merged: list[list[int]] = []
    for s, e in sorted(ranges):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    edits = []
    for s, e in merged:
        sp = to_span(s, e)
        if sp is None:
            return None
        edits.append(Edit(sp, ""))
    return edits


# ----------------------------------------------------------------------------- the format unit
# (the hooks of vllm_lint.frontends.base: modes, the fixer's parse check, suppression comments)


def extract_in_mode(data: bytes, path: str, mode: str) -> Extraction:
    """``extract`` in a lint mode: a vLLM ``--config`` file ("config"), a file named on the
    command line ("explicit": a document shaped like a config file is read as one), or found by a
    directory walk ("auto")."""
    if mode == "config":
        return extract_config_file(data, path)
    return extract(data, path, explicit=mode == "explicit")


def _plain_loader():
    import yaml as pyyaml

    return pyyaml, getattr(pyyaml, "CSafeLoader", pyyaml.SafeLoader)


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """Why the fixed YAML ``after`` would not compose where ``before`` did (templated YAML, which
    does not compose as plain YAML, has had its spans checked instead)."""
    try:
        pyyaml, loader = _plain_loader()
        try:
            list(pyyaml.compose_all(before, Loader=loader))
        except pyyaml.YAMLError:
            return None
        list(pyyaml.compose_all(after, Loader=loader))
    except Exception as e:  # yaml.YAMLError and friends
        return f"the fixed file would not parse ({type(e).__name__})"
    return None


def same_meaning(before: bytes, after: bytes) -> Optional[str]:
    """None when ``after`` loads to the same YAML data as ``before``; else why not."""
    pyyaml, loader = _plain_loader()
    try:
        old = list(pyyaml.load_all(before, Loader=loader))
    except Exception:  # templated YAML: the launch comparison has to do
        return None
    try:
        new = list(pyyaml.load_all(after, Loader=loader))
    except Exception:
        return "the YAML would no longer load"
    return None if old == new else "the YAML data would change"


_BLOCK_HEADER = re.compile(rb"(?:^|:|^\s*-|\s-)\s+[|>][1-9+-]{0,2}\s*(?:#.*)?$")


def _indent(line: bytes) -> Optional[int]:
    stripped = line.rstrip(b"\r\n")
    if not stripped.strip():
        return None
    return len(stripped) - len(stripped.lstrip(b" \t"))


def block_scalar_header(line_bytes: Callable[[int], bytes], row0: int) -> Optional[int]:
    """The row of the block scalar header (``key: |``, ``- >-``) whose scalar contains row
    ``row0`` (``line_bytes(row)``: a row's bytes), found by walking up to ever less indented
    lines; None when there is none."""
    level = _indent(line_bytes(row0))
    if not level:
        return None
    r = row0 - 1
    while r >= 0:
        line = line_bytes(r)
        ind = _indent(line)
        if ind is not None and ind < level:
            if _BLOCK_HEADER.search(line.rstrip(b"\r\n")):
                return r
            if ind == 0:
                return None
            level = ind
        r -= 1
    return None


def suppression_rows(index, row0: int) -> list[int]:
    """A comment on a block scalar's header line (``args: |  # vllm-lint: ignore``) covers the
    whole scalar: a ``#`` inside the scalar would be part of its value."""
    header = block_scalar_header(index.line_bytes, row0)
    return [] if header is None else [header]


def comment_placements(lines: list[bytes], idx: int) -> list[int]:
    """A trailing comment on the finding's line, else on its block scalar's header line."""
    from vllm_lint.launch import LineIndex

    header = block_scalar_header(LineIndex(b"".join(lines)).line_bytes, idx)
    return [idx] if header is None else [idx, header]
