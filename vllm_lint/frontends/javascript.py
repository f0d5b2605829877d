"""TypeScript and JavaScript: containers written as object literals by infrastructure code (Pulumi's
``new k8s.apps.v1.Deployment(...)``, cdk8s' ``KubeDeployment``, the AWS CDK's
``taskDefinition.addContainer(...)``). An object literal with an ``image`` property and a command
or arguments is a container: its image, and each string of those arrays a word at its bytes, as in a
Kubernetes manifest (``command`` its entrypoint, ``args`` its arguments) or a container run by Docker's rules
(an ECS container definition: ``entryPoint``, ECS' own keys or an image from ``ContainerImage``; Pulumi's
``docker.Container``: ``entrypoints``, ``envs``, ``gpus``, ``restart``; the entrypoint, then ``command`` its
arguments); ``env: [{ name, value }]`` and
``environment: { NAME: 'value' }`` are its environment.

An image written as a call holding one string (``ecs.ContainerImage.fromRegistry('vllm/...')``)
is that string; a value written as a name (``image: vllmImage``, ``args: ['--model', model]``) is
the one string the file binds to it (``const model = '...'``, a property ``model: '...'``), else an
opaque word, as is any other expression (a template literal with ``${}``, a call); a spread
(``...extraArgs``) may stand for any number of words. Comments (``//``, ``/* */``) are skipped, so
an argument left in a comment is none. Other code of these languages is not read: a command string
in it is data as often as not."""

from __future__ import annotations

import re
from typing import Optional

from vllm_lint.launch import EnvAssign, Extraction, Span, Token

FORMAT = "javascript"

__all__ = ["FORMAT", "might_contain_launch", "extract"]

_IMAGE = re.compile(rb"""(?<![\w$.])(?:image|["']image["'])[ \t]*:[ \t]*""")
_KEY = re.compile(rb"""[ \t\r\n]*(?:([A-Za-z_$][\w$]*)|"([^"\n]*)"|'([^'\n]*)')[ \t\r\n]*:[ \t\r\n]*""")
_NAME = re.compile(rb"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
# after a name: an optional type, `=` or `:`, a string literal, the end of the statement or property
_BINDING = rb"""[ \t]*(?::[ \t]*[\w<>\[\]| ]+)?[ \t]*[=:][ \t]*("[^"\n]*"|'[^'\n]*')[ \t]*[,;\n]"""
_COMMAND_KEYS = ("command", "entryPoint", "entrypoints")
_ARGS_KEYS = ("args",)
#: keys only a container run by Docker's rules has (``command`` its arguments): an ECS container
#: definition (the CDK's ContainerDefinitionOptions, a task definition's JSON), Pulumi's docker.Container
_DOCKER_KEYS = ("entryPoint", "portMappings", "memoryLimitMiB", "memoryReservationMiB", "gpuCount", "essential",
                "logging", "linuxParameters", "containerName",
                "entrypoints", "envs", "gpus", "restart", "networksAdvanced", "deviceRequests")
_COUNT = re.compile(rb"""(["']?)([0-9]+)\1""")  # a count of GPUs: a number, or a string holding one
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "'": "'", '"': '"', "`": "`", "0": "\0"}

Words = list[tuple[Token, tuple[int, int]]]


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data


def extract(data: bytes, path: str) -> Extraction:
    out = Extraction()
    if b"image" not in data:
        return out
    code = _code_map(data)
    keys = [m.start() for m in _IMAGE.finditer(data) if code(m.start())]
    if not keys:
        return out
    binds: dict[bytes, Optional[Token]] = {}
    for obj in _enclosing(data, code, keys):
        props = _properties(data, code, obj[0] + 1, obj[1])
        if "image" not in props or not any(k in props for k in _COMMAND_KEYS + _ARGS_KEYS):
            continue
        _container(data, code, binds, path, props, Span(obj[0], obj[1] + 1), out)
    return out


def _container(data: bytes, code, binds: dict, path: str, props: dict[str, tuple[int, int]], span: Span,
               out: Extraction) -> None:
    from vllm_lint.frontends.object_containers import container_launch

    def _words(s: int, e: int) -> Words:
        return _array(data, code, binds, s, e)

    image = _image(data, binds, *props["image"])
    if "args" not in props and (any(k in props for k in _DOCKER_KEYS)
                                or b"ContainerImage." in data[slice(*props["image"])]):
        # Docker's command: ECS' container (the CDK's addContainer, a task definition), Pulumi's
        # docker.Container (entrypoints): the entrypoint, then command its arguments
        ep = next((k for k in ("entryPoint", "entrypoints") if k in props), None)
        command = _words(*props[ep]) if ep else []
        args = _words(*props["command"]) if "command" in props else []
    else:  # Kubernetes' container: command replaces the entrypoint, args follow it
        command = _words(*props["command"]) if "command" in props else []
        args = _words(*props["args"]) if "args" in props else []
    env = []
    for k in ("env", "environment"):
        if k in props:
            env.extend(_env(data, code, binds, *props[k]))
    for tok, (a, _b) in (_words(*props["envs"]) if "envs" in props else []):  # (Pulumi docker: ["K=V"])
        if "=" in tok.text and not tok.opaque:
            name, _eq, value = tok.text.partition("=")
            env.append(EnvAssign(name, Span(a + 1, a + 1 + len(name.encode())) if tok.text_span else None, value))
    container_launch(data, path, "TypeScript/JavaScript", span, image, command, args, env, out,
                     _hardware(data, code, props))


def _hardware(data: bytes, code, props: dict[str, tuple[int, int]]):
    """The GPUs the container object requests: a Kubernetes ``resources`` limit or request
    (``"nvidia.com/gpu": 2``: cdk8s, Pulumi) or an ECS ``gpuCount``; None when it states none."""
    from vllm_lint.launch import Hardware

    sections = _object_properties(data, code, props.get("resources"))
    for part in ("limits", "requests"):
        amounts = _object_properties(data, code, sections.get(part))
        for key in ("nvidia.com/gpu", "amd.com/gpu"):
            m = _COUNT.fullmatch(data, *_strip(data, *amounts[key])) if key in amounts else None
            if m is not None:
                return Hardware(gpu_count=int(m.group(2)), source=f"resources.{part}.{key}")
    m = _COUNT.fullmatch(data, *_strip(data, *props["gpuCount"])) if "gpuCount" in props else None
    return Hardware(gpu_count=int(m.group(2)), source="gpuCount") if m is not None else None


def _object_properties(data: bytes, code, value: Optional[tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """The properties of the object literal a property's value is (none for any other value)."""
    if value is None:
        return {}
    s, e = _strip(data, *value)
    return _properties(data, code, s + 1, e - 1) if data[s:s + 1] == b"{" and data[e - 1:e] == b"}" else {}


# -- lexing: which bytes are code (not strings or comments), and the braces' pairs ------------------

def _code_map(data: bytes):
    """A function telling whether an offset is code: outside strings, template literals and
    comments (a template literal's ``${ }`` is not read as code: its value is unknown anyway)."""
    spans = []
    i, n = 0, len(data)
    while i < n:
        c = data[i:i + 1]
        if c in (b"'", b'"', b"`"):
            j = _string_end(data, i)
            spans.append((i, j))
            i = j
        elif data[i:i + 2] == b"//":
            j = data.find(b"\n", i)
            j = n if j < 0 else j
            spans.append((i, j))
            i = j
        elif data[i:i + 2] == b"/*":
            j = data.find(b"*/", i + 2)
            j = n if j < 0 else j + 2
            spans.append((i, j))
            i = j
        else:
            i += 1
    import bisect

    starts = [s for s, _e in spans]

    def code(k: int) -> bool:
        x = bisect.bisect_right(starts, k) - 1
        return x < 0 or k >= spans[x][1]

    code.spans = spans  # type: ignore[attr-defined]
    return code


def _string_end(data: bytes, i: int) -> int:
    q = data[i:i + 1]
    j = i + 1
    while j < len(data):
        c = data[j:j + 1]
        if c == b"\\":
            j += 2
            continue
        if c == q:
            return j + 1
        if c == b"\n" and q != b"`":
            return j
        j += 1
    return len(data)


def _enclosing(data: bytes, code, keys: list[int]) -> list[tuple[int, int]]:
    """The innermost object (its ``{`` and ``}`` offsets) around each offset of ``keys`` (sorted),
    each once, in one pass over the braces of the code."""
    found: dict[int, int] = {}
    inside: dict[int, int] = {}  # (an open brace: the keys it is the innermost object of)
    stack: list[int] = []
    skip = iter(code.spans)
    nxt = next(skip, None)
    k = 0
    i = 0
    n = len(data)
    while i < n:
        while k < len(keys) and keys[k] <= i:
            if stack:
                inside[stack[-1]] = 1
            k += 1
        if nxt is not None and i >= nxt[0]:
            i = max(i, nxt[1])
            nxt = next(skip, None)
            continue
        c = data[i:i + 1]
        if c == b"{":
            stack.append(i)
        elif c == b"}" and stack:
            o = stack.pop()
            if o in inside:
                found[o] = i
        i += 1
    return sorted(found.items())


def _properties(data: bytes, code, s: int, e: int) -> dict[str, tuple[int, int]]:
    """The object's own properties (``key: value`` at its top level): each value's byte range."""
    out: dict[str, tuple[int, int]] = {}
    i = s
    while i < e:
        i = _strip(data, i, e)[0]
        if i >= e:
            break
        m = _KEY.match(data, i, e)
        if m is None:
            i = _skip_value(data, code, i, e) + 1
            continue
        key = (m.group(1) or m.group(2) or m.group(3)).decode("utf-8", "replace")
        v_end = _skip_value(data, code, m.end(), e)
        out.setdefault(key, (m.end(), v_end))
        i = v_end + 1
    return out


def _skip_value(data: bytes, code, i: int, e: int) -> int:
    """The offset of the ``,`` ending the value at ``i`` (or ``e``)."""
    depth = 0
    while i < e:
        if not code(i):
            i += 1
            continue
        c = data[i:i + 1]
        if c in (b"{", b"[", b"("):
            depth += 1
        elif c in (b"}", b"]", b")"):
            depth -= 1
        elif c == b"," and depth == 0:
            return i
        i += 1
    return e


# -- values -----------------------------------------------------------------------------------------

def _literal(data: bytes, s: int, e: int) -> Optional[Token]:
    """The word a string literal ``data[s:e]`` gives (quotes included), or None for another value."""
    q = data[s:s + 1]
    if q not in (b"'", b'"', b"`") or e - s < 2 or data[e - 1:e] != q:
        return None
    raw = data[s + 1:e - 1]
    if q == b"`" and b"${" in raw:
        return Token(raw.decode("utf-8", "replace"), Span(s, e), None, True)
    if b"\\" not in raw:
        return Token(raw.decode("utf-8", "replace"), Span(s, e), Span(s + 1, e - 1))
    text = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), raw.decode("utf-8", "replace"))
    return Token(text, Span(s, e), None)


def _value_token(data: bytes, binds: dict, s: int, e: int) -> Token:
    """One value: a string literal, the one string the file binds to a name, else an opaque word."""
    s, e = _strip(data, s, e)
    tok = _literal(data, s, e)
    if tok is not None:
        return tok
    text = data[s:e].decode("utf-8", "replace")
    m = _NAME.fullmatch(data[s:e])
    if m:
        name = m.group(0).rsplit(b".", 1)[-1]
        if name not in binds:
            binds[name] = _bound_string(data, name)
        b = binds[name]
        if b is not None:  # (a word of its own: one launch may name it twice)
            return Token(b.text, b.span, b.text_span, b.opaque)
    return Token(text, Span(s, e), None, True, splat=text.startswith("..."))


def _bound_string(data: bytes, name: bytes) -> Optional[Token]:
    """The string literal the file binds ``name`` to (``const name = '...'``, ``name: string = "..."``,
    a property ``name: '...'``), when it binds it to one."""
    binds = list(re.finditer(rb"(?<![\w$.])" + re.escape(name) + _BINDING, data))
    if len({b.group(1) for b in binds}) != 1:
        return None
    b = binds[0]
    return _literal(data, b.start(1), b.end(1))


def _image(data: bytes, binds: dict, s: int, e: int) -> Token:
    s, e = _strip(data, s, e)
    if data[e - 1:e] == b")":  # a call holding one string: ContainerImage.fromRegistry('...')
        lits = list(re.finditer(rb"""'[^'\n]*'|"[^"\n]*\"""", data[s:e]))
        if len(lits) == 1:
            return _literal(data, s + lits[0].start(), s + lits[0].end())
    return _value_token(data, binds, s, e)


def _array(data: bytes, code, binds: dict, s: int, e: int) -> Words:
    """The items of an array value (each a word), or the value as one word."""
    s, e = _strip(data, s, e)
    if data[s:s + 1] != b"[":
        return [(_value_token(data, binds, s, e), (s, e))]
    out: Words = []
    i, end = s + 1, e - 1
    while i < end:
        j = i
        depth = 0
        while j < end and not (depth == 0 and data[j:j + 1] == b"," and code(j)):
            if code(j):
                depth += data[j:j + 1] in (b"(", b"[", b"{")
                depth -= data[j:j + 1] in (b")", b"]", b"}")
            j += 1
        a, b = _strip(data, i, j)
        if a < b:
            out.append((_value_token(data, binds, a, b), (a, b)))
        i = j + 1
    return out


def _strip(data: bytes, s: int, e: int) -> tuple[int, int]:
    """The value's bytes without the whitespace and comments around it."""
    changed = True
    while changed and s < e:
        changed = False
        while s < e and data[s:s + 1] in b" \t\r\n":
            s, changed = s + 1, True
        if data[s:s + 2] == b"//":
            nl = data.find(b"\n", s, e)
            s, changed = (e if nl < 0 else nl), True
        elif data[s:s + 2] == b"/*":
            k = data.find(b"*/", s + 2, e)
            s, changed = (e if k < 0 else k + 2), True
    while e > s and data[e - 1:e] in b" \t\r\n":
        e -= 1
    return s, e


def _env(data: bytes, code, binds: dict, s: int, e: int) -> list[EnvAssign]:
    """``[{ name: 'X', value: 'v' }, ...]`` or ``{ X: 'v', ... }``."""
    s, e = _strip(data, s, e)
    out = []
    if data[s:s + 1] == b"{":
        for key, (a, b) in _properties(data, code, s + 1, e - 1).items():
            tok = _value_token(data, binds, a, b)
            k = data.find(key.encode(), s, a)
            out.append(EnvAssign(key, Span(k, k + len(key.encode())) if k >= 0 else None, tok.text,
                                 value_text_span=tok.text_span, value_opaque=tok.opaque))
    elif data[s:s + 1] == b"[":
        for tok, (a, b) in _array(data, code, binds, s, e):
            if not tok.opaque or data[a:a + 1] != b"{":
                continue
            props = _properties(data, code, a + 1, b - 1)
            if "name" not in props:
                continue
            name = _value_token(data, binds, *props["name"])
            value = _value_token(data, binds, *props["value"]) if "value" in props else None
            if name.opaque:
                continue
            out.append(EnvAssign(name.text, name.text_span, None if value is None else value.text,
                                 value_text_span=value.text_span if value else None,
                                 value_opaque=value is None or value.opaque))
    return out
