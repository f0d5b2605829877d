"""Containers written as HCL blocks in a Terraform configuration: the Kubernetes provider's
``container { ... }`` (``kubernetes_deployment``, ``kubernetes_pod``, ``kubernetes_job``, their
``_v1`` forms) and Cloud Run's ``containers { ... }`` (``google_cloud_run_v2_service``). The
block's attributes are the container's parts, as in YAML (:data:`vllm_lint.container.PLATFORMS`'
Kubernetes row: ``image``, ``command``, ``args``; ``env { name value }`` blocks; a
``"nvidia.com/gpu"`` limit), each string of a list a word at its own bytes.

A SageMaker model's ``primary_container`` / ``container`` (``aws_sagemaker_model``) whose
``environment = { ... }`` map holds variables its entrypoint turns into vLLM's options
(:data:`vllm_lint.container.ENV_OPTIONS`: ``SM_VLLM_*``) is a ``config`` launch of those variables
in its ``image``'s release.

Nomad's jobs (``.nomad``, ``.hcl``) are the same parts in other blocks: a ``task`` whose ``driver``
is ``docker`` or ``podman`` holds its container in ``config { image command args }``, its
environment in ``env { NAME = "value" }`` and its GPUs in ``resources { device "nvidia/gpu" {
count } }``.

A string holding an interpolation (``"${var.model}"``) or an item that is no string
(``var.args``, a function call) is an opaque word. Deleting words cuts list items with the comma
after them (or before them, the last).
"""

from __future__ import annotations

import re
from typing import Optional

from vllm_lint.launch import EnvAssign, Extraction, Hardware, Span, Token
from vllm_lint.record import lazy_re

_BLOCK = lazy_re(rb"(?m)^[ \t]*(containers?|primary_container)[ \t]*\{")
_ENV_MAP = lazy_re(rb"(?m)^[ \t]*environment[ \t]*=[ \t]*\{")
_MAP_KEY = lazy_re(rb'(?m)^[ \t]*(?:"([A-Za-z_][A-Za-z0-9_]*)"|([A-Za-z_][A-Za-z0-9_]*))[ \t]*=[ \t]*')
_ATTRIBUTE = lazy_re(rb"(?m)^[ \t]*([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[ \t]*")
_ENV_BLOCK = lazy_re(rb"(?m)^[ \t]*env[ \t]*\{")
_GPU = lazy_re(rb'"nvidia\.com/gpu"[ \t]*=[ \t]*"?([0-9]+)"?')
_TASK = lazy_re(rb'(?m)^[ \t]*task[ \t]+"[^"\n]*"[ \t]*\{')
_CONFIG = lazy_re(rb"(?m)^[ \t]*config[ \t]*\{")
_NOMAD_GPU = lazy_re(rb'device[ \t]+"(?:nvidia/)?gpu(?:/[^"]*)?"[ \t]*\{[^}]*?count[ \t]*=[ \t]*([0-9]+)')
_CONTAINER_DRIVERS = ("docker", "podman")
_ESCAPE = {b"n": "\n", b"t": "\t", b'"': '"', b"\\": "\\", b"r": "\r"}


def read(data: bytes, path: str, out: Extraction) -> None:
    """The launches of the container blocks of a ``.tf`` file's bytes, and of a Nomad job's
    container tasks."""
    if b"task" in data and b"driver" in data:
        _nomad_tasks(data, path, out)
    for m in _BLOCK.finditer(data):
        end = _block_end(data, m.end())
        if end is None:
            continue
        body_start, body_end = m.end(), end - 1
        if b"vllm" not in data[body_start:body_end]:
            continue
        _container(data, path, body_start, body_end, Span(m.start(1), end), out)


def _nomad_tasks(data: bytes, path: str, out: Extraction) -> None:
    for m in _TASK.finditer(data):
        end = _block_end(data, m.end())
        if end is None:
            continue
        s, e = m.end(), end - 1
        if b"vllm" not in data[s:e]:
            continue
        driver = _attributes(data, s, e).get("driver")
        if not driver or driver[0][0].text not in _CONTAINER_DRIVERS:
            continue
        c = _CONFIG.search(data, s, e)
        c_end = _block_end(data, c.end()) if c else None
        if c is None or c_end is None or c_end > e:
            continue
        gpu = _NOMAD_GPU.search(data, s, e)
        hw = Hardware(gpu_count=int(gpu.group(1)), source='resources.device "nvidia/gpu".count') if gpu else Hardware()
        _container(data, path, c.end(), c_end - 1, Span(m.start(), end), out, env=_nomad_env(data, s, e), hw=hw,
                   platform="Nomad task")


def _nomad_env(data: bytes, s: int, e: int) -> list[EnvAssign]:
    """A Nomad task's ``env { NAME = "value" }`` (its own, not a nested block's)."""
    out = []
    for m in _ENV_BLOCK.finditer(data, s, e):
        end = _block_end(data, m.end())
        if end is None or end > e:
            continue
        for a in _ATTRIBUTE.finditer(data, m.end(), end - 1):
            name = a.group(1).decode()
            words = _attributes(data, a.start(), end - 1).get(name)
            tok = words[0][0] if words else None
            out.append(EnvAssign(name, Span(a.start(1), a.end(1)), None if tok is None else tok.text,
                                 value_text_span=tok.text_span if tok else None,
                                 value_opaque=bool(tok and tok.opaque)))
    return out


def _container(data: bytes, path: str, s: int, e: int, span: Span, out: Extraction,
               env: Optional[list[EnvAssign]] = None, hw: Optional[Hardware] = None,
               platform: str = "terraform") -> None:
    from vllm_lint.frontends.object_containers import container_launch

    attrs = _attributes(data, s, e)
    image_word = attrs.get("image")
    image = image_word[0][0] if image_word else None
    command, args = attrs.get("command", []), attrs.get("args", [])
    if hw is None:
        gpu = _GPU.search(data, s, e)
        if gpu:
            hw = Hardware(gpu_count=int(gpu.group(1)), source="resources.limits.nvidia.com/gpu")
    if container_launch(data, path, platform, span, image, command, args, _env(data, s, e) if env is None else env,
                        out, hw):
        return
    if not command and not args and b"environment" in data[s:e]:
        _env_options(data, path, s, e, span, image, out)


def _env_options(data: bytes, path: str, s: int, e: int, span: Span, image: Optional[Token], out: Extraction) -> None:
    """The launch of a container's ``environment = { ... }`` map holding a row's variables
    (:data:`vllm_lint.container.ENV_OPTIONS`), if it holds one."""
    from vllm_lint.container import env_launch, env_options
    from vllm_lint.launch import KeyedArg

    m = _ENV_MAP.search(data, s, e)
    end = _block_end(data, m.end()) if m else None
    if m is None or end is None or end > e + 1:
        return
    keyed, env, row = [], [], None
    for a in _MAP_KEY.finditer(data, m.end(), end - 1):
        name = (a.group(1) or a.group(2)).decode()
        got = _value(data, a.end(), end - 1)
        tok = got[0][0][0] if got and got[0] else None
        key_span = Span(a.start(1), a.end(1)) if a.group(1) else Span(a.start(2), a.end(2))
        here = env_options(name)
        if here is None or (row is not None and here is not row):
            env.append(EnvAssign(name, key_span, None if tok is None else tok.text,
                                 value_text_span=tok.text_span if tok else None, value_opaque=bool(tok and tok.opaque)))
            continue
        row = here
        value = None if tok is None or tok.opaque else here.flag(tok.text)
        if value is False:
            continue  # (the entrypoint leaves the option out)
        line_end = data.find(b"\n", a.end())
        keyed.append(KeyedArg(name, key_span, value, value_span=tok.span if tok else None,
                              value_text_span=tok.text_span if tok and value is not True else None,
                              value_opaque=tok is None or tok.opaque,
                              delete_span=Span(data.rfind(b"\n", 0, a.start()) + 1, line_end + 1) if line_end > 0 else None,
                              key_style="env"))
    if row is None or not keyed:
        return
    out.launches.append(env_launch(row, path, Span(m.start(), end), keyed, env,
                                   image=image.text if image is not None else None,
                                   image_span=image.span if image is not None else None, data=data,
                                   tag_in=image.span if image is not None else None, container_span=span))


def _block_end(data: bytes, i: int) -> Optional[int]:
    """The offset after the ``}`` closing a block whose body starts at ``i`` (strings and comments
    skipped), or None."""
    depth = 0
    n = len(data)
    while i < n:
        c = data[i:i + 1]
        if c == b'"':
            i = _string_end(data, i)
            if i is None:
                return None
            continue
        if c == b"#" or data[i:i + 2] == b"//":
            nl = data.find(b"\n", i)
            i = n if nl < 0 else nl
            continue
        if c == b"{":
            depth += 1
        elif c == b"}":
            if depth == 0:
                return i + 1
            depth -= 1
        i += 1
    return None


def _string_end(data: bytes, i: int) -> Optional[int]:
    """The offset after the string literal opening at ``i`` (interpolations' braces included)."""
    j = i + 1
    depth = 0
    while j < len(data):
        c = data[j:j + 1]
        if c == b"\\":
            j += 2
            continue
        if c == b"\n" and depth == 0:
            return None
        if data[j:j + 2] == b"${":
            depth += 1
            j += 2
            continue
        if c == b"}" and depth:
            depth -= 1
        elif c == b'"' and depth == 0:
            return j + 1
        j += 1
    return None


def _string(data: bytes, s: int, e: int) -> Token:
    """The word a string literal ``data[s:e]`` (quotes included) gives."""
    raw = data[s + 1:e - 1]
    opaque = b"${" in raw.replace(b"$${", b"") or b"%{" in raw.replace(b"%%{", b"")
    if b"\\" not in raw and b"$${" not in raw and b"%%{" not in raw:
        return Token(raw.decode("utf-8", "replace"), Span(s, e), Span(s + 1, e - 1), opaque)
    text = re.sub(rb"\\(.)", lambda m: _ESCAPE.get(m.group(1), m.group(1).decode("latin-1")).encode(), raw)
    text = text.replace(b"$${", b"${").replace(b"%%{", b"%{")
    return Token(text.decode("utf-8", "replace"), Span(s, e), None, opaque)


def _attributes(data: bytes, s: int, e: int) -> dict[str, list[tuple[Token, tuple[int, int]]]]:
    """The block's own attributes (not those of its nested blocks: a probe's ``exec { command }``):
    their words, each with its item's byte range (a string, a list's items; another expression is
    one opaque word that may stand for any number)."""
    out: dict[str, list] = {}
    i = s
    depth = 0
    line_start = True
    while i < e:
        if line_start and depth == 0:
            m = _ATTRIBUTE.match(data, i)
            if m:
                got = _value(data, m.end(), e)
                if got is not None:
                    out.setdefault(m.group(1).decode(), got[0])
                    i, line_start = got[1], False
                    continue
        c = data[i:i + 1]
        line_start = c == b"\n"
        if c == b'"':
            i = _string_end(data, i) or i + 1
            continue
        if c == b"#" or data[i:i + 2] == b"//":
            nl = data.find(b"\n", i, e)
            i = e if nl < 0 else nl
            continue
        if c == b"{":
            depth += 1
        elif c == b"}":
            depth -= 1
        i += 1
    return out


def _value(data: bytes, j: int, e: int) -> Optional[tuple[list, int]]:
    """An attribute's value at ``j``: its words and the offset after it; None for a block-like
    value (``{ ... }``) or nothing."""
    c = data[j:j + 1]
    if c == b'"':
        end = _string_end(data, j)
        return None if end is None else ([(_string(data, j, end), (j, end))], end)
    if c == b"[":
        return _list(data, j + 1, e)
    if c in (b"{", b"\n", b"\r", b""):
        return None
    nl = data.find(b"\n", j, e)  # an expression (var.args, concat(...)): any words
    k = e if nl < 0 else nl
    text = data[j:k].decode("utf-8", "replace").strip()
    return [(Token(text, Span(j, k), None, True, splat=True), (j, k))], k


def _list(data: bytes, i: int, e: int) -> Optional[tuple[list, int]]:
    """The items of a list whose ``[`` is just before ``i``: (words with their ranges, the offset
    after ``]``)."""
    items = []
    while i < e:
        c = data[i:i + 1]
        if c in (b" ", b"\t", b"\r", b"\n", b","):
            i += 1
        elif c == b"#" or data[i:i + 2] == b"//":
            nl = data.find(b"\n", i)
            i = e if nl < 0 else nl
        elif c == b"]":
            return items, i + 1
        elif c == b'"':
            end = _string_end(data, i)
            if end is None:
                return None
            items.append((_string(data, i, end), (i, end)))
            i = end
        else:  # an expression: var.args, a call; to the next comma or bracket at its depth
            j, depth = i, 0
            while j < e and not (depth == 0 and data[j:j + 1] in (b",", b"]", b"\n")):
                depth += data[j:j + 1] in (b"(", b"[", b"{")
                depth -= data[j:j + 1] in (b")", b"]", b"}")
                j += 1
            text = data[i:j].decode("utf-8", "replace").strip()
            items.append((Token(text, Span(i, j), None, True), (i, j)))  # (one item: one word)
            i = j
    return None


def _env(data: bytes, s: int, e: int) -> list[EnvAssign]:
    out = []
    for m in _ENV_BLOCK.finditer(data, s, e):
        end = _block_end(data, m.end())
        if end is None or end > e:
            continue
        attrs = _attributes(data, m.end(), end - 1)
        name, value = attrs.get("name"), attrs.get("value")
        if not name or name[0][0].opaque:
            continue
        tok = value[0][0] if value else None
        out.append(EnvAssign(name[0][0].text, name[0][0].text_span, None if tok is None else tok.text,
                             value_text_span=tok.text_span if tok else None,
                             value_opaque=bool(tok and tok.opaque)))
    return out
