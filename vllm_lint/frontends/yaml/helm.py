"""Helm: image values (``repository``/``registry``/``tag``), expressions with a literal
``default`` (the text a scalar renders when the values are unset), and the values of
vllm-project/production-stack's chart.

production-stack (``servingEngineSpec.modelSpec[]``): one ``style="config"`` launch per model with
camelCase ``vllmConfig`` keys (``Launch.option_for_key`` maps each key to the option the chart
emits), ``modelURL`` in ``Launch.model``, ``v0`` -> ``VLLM_USE_V1=0``, string ``hf_token`` /
``vllmApiKey`` -> ``HF_TOKEN`` / ``VLLM_API_KEY``, ``requestGPU`` -> gpu count; ``extraArgs``, which
the chart renders after those keys on the same command line, are the launch's ``tokens``.
"""

from __future__ import annotations

import re

from vllm_lint.container import Container
from vllm_lint.frontends.yaml.deleters import make_deleter
from vllm_lint.frontends.yaml.env import k8s_env
from vllm_lint.frontends.yaml.hardware import affinity_product, hardware_here
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import PairView, get, get_pair, seq, text, to_int
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import EnvAssign, Hardware, KeyedArg, Launch, Span, VersionHint
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

# production-stack chart (helm/templates/deployment-vllm-multi.yaml): keys that become options
PS_VLLMCONFIG_OPTIONS = {
    "enableChunkedPrefill": "--enable-chunked-prefill",  # false -> --no-enable-chunked-prefill
    "enablePrefixCaching": "--enable-prefix-caching",  # false/absent -> --no-enable-prefix-caching
    "maxModelLen": "--max-model-len",
    "dtype": "--dtype",
    "tensorParallelSize": "--tensor-parallel-size",
    "maxNumSeqs": "--max-num-seqs",
    "gpuMemoryUtilization": "--gpu-memory-utilization",
    "maxLoras": "--max-loras",
}
PS_MODELSPEC_OPTIONS = {
    "enableLoRA": "--enable-lora",
    "enableTool": "--enable-auto-tool-choice",
    "toolCallParser": "--tool-call-parser",
    "chatTemplate": "--chat-template",
}


def image_from_values(node: Any) -> Optional[str]:
    """``{registry, repository, tag}`` -> ``registry/repository:tag`` (``name`` for ``repository``
    in the charts that call it so)."""
    repo = text(get(node, "repository")) or text(get(node, "name"))
    if not repo:
        return None
    reg = text(get(node, "registry"))
    tag = text(get(node, "tag"))
    img = f"{reg}/{repo}" if reg else repo
    return f"{img}:{tag}" if tag else img


# ---- expressions with a default ------------------------------------------------------------

_GO_STRING = r'(?:"((?:[^"\\]|\\.)*)"|`([^`]*)`)'
# {{ X | default "lit" }}  /  {{ default "lit" X }}  (trim markers allowed)
_DEFAULT_PIPE = lazy_re(r"^\{\{-?\s*[.$][\w.$]*\s*\|\s*default\s+" + _GO_STRING + r"\s*-?\}\}$", re.S)
_DEFAULT_CALL = lazy_re(r"^\{\{-?\s*default\s+" + _GO_STRING + r"\s+[.$][\w.$]*\s*-?\}\}$", re.S)


def template_default(expr: str) -> Optional[str]:
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


def helm_default(t: YamlText, node: Any) -> Optional[tuple[str, Optional[Span], str]]:
    """A scalar written with template expressions that all render to a known text: from the
    chart's ``values.yaml`` (:mod:`.chart_values`), or a literal ``default``
    (``vllm/vllm-openai:{{ .Values.image.tag | default "v0.8.5" }}``, as it renders when the
    values are unset): its text, the span of its tag and where the text came from
    (``helm-values`` or ``helm-default``). None otherwise (no template, an expression with
    neither, a nested YAML text)."""
    if not isinstance(node, ScalarNode) or t.original is None or t.outer is not None:
        return None
    s, e = t.pos(node.start_mark.index), t.pos(node.end_mark.index)
    inside = [(a, b) for a, b in t.regions if a >= s and b <= e]
    if not inside:
        return None
    rb = t.original[s:e]
    if rb[:1] in (b"|", b">"):  # a block scalar: its text starts after the header's line
        nl = rb.find(b"\n")
        if nl < 0:
            return None
        s, rb = s + nl + 1, rb[nl + 1:]
    s += len(rb) - len(rb.lstrip())
    e -= len(rb) - len(rb.rstrip())
    if e - s >= 2 and rb.strip()[:1] in (b"'", b'"') and rb.strip()[-1:] == rb.strip()[:1]:
        s, e = s + 1, e - 1
    raw = t.original[s:e].decode("utf-8", "replace")
    if not raw.isascii():
        return None  # keep character and byte offsets equal
    from vllm_lint.frontends.delimited import delimited
    from vllm_lint.frontends.yaml.chart_values import render_expr

    # the filled bytes say what renders: a value's expression is `_`, a control action or a branch
    # the values drop is blank (`{{- if eq .Values.gpu "amd" }}`, the other branch's text)
    filled = t.data[s:e] if len(t.data) == len(t.original) else None
    out, pos, exprs = [], 0, []
    source = "helm-default"
    for start, end in delimited(raw, "{{", "}}"):
        out.append(_kept(raw, filled, pos, start))
        pos = end
        if filled is not None and not filled[start:end].strip(b" \t\r\n"):
            continue
        expr = raw[start:end]
        lit = None if t.values is None else render_expr(expr, t.values)
        if lit is not None:
            source = "helm-values"
        else:
            lit = template_default(expr)
        if lit is None:
            return None
        out.append(lit)
        exprs.append((start, end))
    out.append(_kept(raw, filled, pos, len(raw)))
    rendered = "".join(out).strip()
    if not exprs:
        return None
    if "{{" in rendered or "}}" in rendered or not rendered or any(c.isspace() for c in rendered):
        return None
    # the tag as written: after the last ':' outside the expressions (in the text that renders)
    tag_at = next((i + 1 for i in range(len(raw) - 1, -1, -1)
                   if raw[i] == ":" and not any(a <= i < b for a, b in exprs)
                   and (filled is None or filled[i] == 0x3A)), 0)
    tag_end = e if filled is None else s + max((b for a, b in exprs if b > tag_at), default=len(raw))
    return rendered, t.fspan(s + tag_at, tag_end), source


def _kept(raw: str, filled: Optional[bytes], a: int, b: int) -> str:
    """The text of ``raw[a:b]`` that renders: all of it, or (``filled`` given) the characters a
    dropped branch did not blank."""
    if filled is None:
        return raw[a:b]
    return "".join(c for c, f in zip(raw[a:b], filled[a:b]) if ord(c) == f or c.isspace())


# ---- production-stack ----------------------------------------------------------------------


def production_stack(t: YamlText, spec: Any) -> None:
    """The launches of production-stack's ``servingEngineSpec`` (``spec``)."""
    for ms in seq(get(spec, "modelSpec")):
        if isinstance(ms, MappingNode):
            _model_spec(t, spec, ms)


def _model_spec(t: YamlText, spec: Any, ms: Any) -> None:
    from vllm_lint.frontends.commands import image_is_vllm

    repo = text(get(ms, "repository"))
    tag_node = get(ms, "tag")
    tag = text(tag_node)
    image = f"{repo}:{tag}" if repo and tag else repo
    versions = []
    if image and image_is_vllm(image) and tag:
        versions.append(VersionHint(tag, "image-tag", t.node_span(tag_node), image))
    hw = _hardware(ms)
    env = _env(t, spec, ms)
    cfg = get(ms, "vllmConfig")
    ctx: dict[str, Any] = {"chart": "vllm-project/production-stack"}
    if image:
        ctx["image"] = image
    url = get(ms, "modelURL")
    if text(url):
        ctx["model"] = url.value
    keyed = _keyed(t, ms, cfg, env, ctx)
    # the chart renders vllmConfig's keys and then its extraArgs into one command line
    extra = get(cfg, "extraArgs")
    words = t.words_from(extra) if isinstance(extra, SequenceNode) else []
    if words:
        t.consumed.update(id(x) for x in extra.value)
    span = t.content_span(ms) or Span(0, 0)
    # the chart's container: its image from repository and tag, the command the chart renders
    box = Container("production-stack", span, name=text(get(ms, "name")), image=image, run_image=image,
                    env=env, hardware=hw, version_hints=versions,
                    partial_layout=("production-stack starts this model on a Ray cluster (raySpec)"
                                    if get(ms, "raySpec") is not None else None))
    launch = Launch(
        path=t.path, entry="production-stack", style="config", span=span,
        keyed=keyed, tokens=[tok for tok, _h in words], env=box.env, version_hints=box.version_hints,
        hardware=box.hardware, delete_tokens=make_deleter(t, {id(tok): h for tok, h in words}) if words else None,
        partial_layout=box.partial_layout, container=box,
    )
    launch.take_context(ctx)
    t.out.launches.append(launch)
    t.consumed.add(id(ms))


def _hardware(ms: Any) -> Hardware:
    hw = hardware_here(ms)
    n = to_int(text(get(ms, "requestGPU")))
    if n is not None:
        hw.gpu_count = n
        hw.source = "production-stack.requestGPU"
    terms = get(ms, "nodeSelectorTerms")
    prod = affinity_product(terms) if terms is not None else None
    if prod:
        hw.gpu_product = prod
    return hw


def _env(t: YamlText, spec: Any, ms: Any) -> list[EnvAssign]:
    env = k8s_env(t, get(ms, "env"))
    # the chart turns a string `hf_token` (and servingEngineSpec `vllmApiKey`) into a
    # Secret read as HF_TOKEN / VLLM_API_KEY: a literal token in the values file
    for holder, key, var in ((ms, "hf_token", "HF_TOKEN"), (spec, "vllmApiKey", "VLLM_API_KEY")):
        tok = get(holder, key)
        if isinstance(tok, ScalarNode) and text(tok):
            env.append(EnvAssign(var, None, tok.value, value_span=t.content_span(tok),
                                 value_text_span=t.text_span(tok)))
    return env


def _keyed(t: YamlText, ms: Any, cfg: Any, env: list[EnvAssign], ctx: dict[str, Any]) -> list[KeyedArg]:
    """The model spec's keys that become options (``ctx["option_for_key"]``), and what
    ``vllmConfig`` sets otherwise (variables appended to ``env``, keys the chart ignores)."""
    keyed: list[KeyedArg] = []
    option_for_key: dict[str, str] = {}
    ignored: list[str] = []
    for key, opt in PS_MODELSPEC_OPTIONS.items():
        pair = get_pair(ms, key)
        if pair is not None:
            keyed.extend(t.keyed_args(PairView(pair), style_of=lambda k: "camel"))
            option_for_key[key] = opt
    if isinstance(cfg, MappingNode):
        for ka in t.keyed_args(cfg, style_of=lambda k: "camel"):
            if ka.key in PS_VLLMCONFIG_OPTIONS:
                keyed.append(ka)
                option_for_key[ka.key] = PS_VLLMCONFIG_OPTIONS[ka.key]
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
    ctx["option_for_key"] = option_for_key
    if ignored:
        ctx["ignored_keys"] = ignored
    return keyed
