"""Nix: a NixOS configuration's OCI containers (``virtualisation.oci-containers.containers.<name> =
{ image = ...; cmd = [ ... ]; }``, run by the module as ``docker run`` / ``podman run`` of the
image with ``cmd`` as its arguments; ``entrypoint`` a string, ``environment`` an attribute set).

An attribute set is a container when it binds ``image`` and one of the container's other keys
(``cmd``, ``entrypoint``, ``environment``, ``extraOptions``, ``ports``, ``volumes``, ``autoStart``)
at its own level, so that a ``let`` binding of settings (``cfg = { image = ...; model = ...; }``)
is none. A value written as a name (``cfg.model``, ``image = cfg.image;``) is the one string the
file binds to its last component (``model = "...";``), read at that string's bytes; a name the
file binds to no string, or to several, is an opaque word, as is any other expression
(``toString cfg.port``, a function call). A file with no such container is read by the plain-text
reader (its command lines: a unit's ``ExecStart``, a ``script``)."""

from __future__ import annotations

import re
from typing import Optional

from vllm_lint.launch import EnvAssign, Extraction, Span, Token

FORMAT = "nix"

__all__ = ["FORMAT", "might_contain_launch", "extract"]

_SET = re.compile(rb"(?m)^[ \t]*([A-Za-z_][\w'.-]*|\"[^\"\n]*\")[ \t]*=[ \t]*\{")
_ATTRIBUTE = re.compile(rb"[ \t]*([A-Za-z_][\w'.-]*)[ \t]*=[ \t]*")
_NAME = re.compile(rb"[A-Za-z_][\w'-]*(?:\.[A-Za-z_][\w'-]*)*")
# after a name: `= "string";` (no interpolation)
_BINDING = rb"[ \t]*=[ \t]*(\"[^\"\n$]*\")[ \t]*;"
_CONTAINER_KEYS = ("cmd", "entrypoint", "environment", "extraOptions", "ports", "volumes", "autoStart")

Words = list[tuple[Token, tuple[int, int]]]


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data


def extract(data: bytes, path: str) -> Extraction:
    out = Extraction()
    binds: dict[bytes, Optional[Token]] = {}
    if b"image" in data:
        for m in _SET.finditer(data):
            from vllm_lint.frontends.hcl_containers import _block_end

            end = _block_end(data, m.end())
            if end is None:
                continue
            attrs = _attributes(data, m.end(), end - 1, binds)
            if "image" in attrs and any(k in attrs for k in _CONTAINER_KEYS):
                _container(data, path, attrs, Span(m.start(1), end), out)
    if not out.launches:
        from vllm_lint.frontends import plaintext

        return plaintext.extract(data, path)
    return out


def _container(data: bytes, path: str, attrs: dict[str, Words], span: Span, out: Extraction) -> None:
    from vllm_lint.frontends.object_containers import container_launch

    image_word = attrs["image"][0][0] if attrs["image"] else None
    env = [EnvAssign(tok.text.split("=", 1)[0], Span(*r), tok.text.split("=", 1)[1], value_opaque=tok.opaque)
           for tok, r in attrs.get("environment", []) if "=" in tok.text]
    container_launch(data, path, "NixOS oci-containers", span, image_word, attrs.get("entrypoint", []),
                     attrs.get("cmd", []), env, out)


def _attributes(data: bytes, s: int, e: int, binds: dict) -> dict[str, Words]:
    """The set's own bindings (not those of nested sets), each value's words with their byte
    ranges; an attribute set value (``environment = { ... }``) gives ``NAME=value`` words."""
    from vllm_lint.frontends.hcl_containers import _block_end, _string_end

    out: dict[str, Words] = {}
    i, depth, line_start = s, 0, True
    while i < e:
        if depth == 0 and (line_start or data[i - 1:i] in (b";", b"{")):
            m = _ATTRIBUTE.match(data, i)
            if m:
                j = m.end()
                name = m.group(1).decode()
                if data[j:j + 1] == b"{":
                    end = _block_end(data, j + 1)
                    if end is not None and end <= e + 1:
                        inner = _attributes(data, j + 1, end - 1, binds)
                        out.setdefault(name, [(Token(f"{k}={v[0][0].text}", v[0][0].span, None, v[0][0].opaque),
                                               _key_range(data, k, j + 1, end - 1)) for k, v in inner.items() if v])
                        i, line_start = end, False
                        continue
                got = _value(data, j, e, binds)
                if got is not None:
                    out.setdefault(name, got[0])
                    i, line_start = got[1], False
                    continue
        c = data[i:i + 1]
        line_start = c == b"\n"
        if c == b'"':
            i = _string_end(data, i) or i + 1
            continue
        if c == b"#":
            nl = data.find(b"\n", i, e)
            i = e if nl < 0 else nl
            continue
        if c == b"{":
            depth += 1
        elif c == b"}":
            depth -= 1
        i += 1
    return out


def _key_range(data: bytes, key: str, s: int, e: int) -> tuple[int, int]:
    """The bytes of a binding's name ``key`` in a set's body ``data[s:e]``."""
    m = re.compile(rb"(?m)(?:^|[;{])[ \t]*(" + re.escape(key.encode()) + rb")[ \t]*=").search(data, s, e)
    return (m.start(1), m.end(1)) if m else (s, s)


def _value(data: bytes, j: int, e: int, binds: dict) -> Optional[tuple[Words, int]]:
    """A binding's value at ``j`` (to its ``;``): its words and the offset after it."""
    from vllm_lint.frontends.hcl_containers import _string, _string_end

    c = data[j:j + 1]
    if c == b'"':
        end = _string_end(data, j)
        return None if end is None else ([(_string(data, j, end), (j, end))], end)
    if c == b"[":
        return _list(data, j + 1, e, binds)
    semi = data.find(b";", j, e)
    if semi < 0:
        return None
    return [_expression(data, j, semi, binds)], semi


def _list(data: bytes, i: int, e: int, binds: dict) -> Optional[tuple[Words, int]]:
    """The items of a Nix list whose ``[`` is just before ``i``, separated by whitespace."""
    from vllm_lint.frontends.hcl_containers import _string, _string_end

    items: Words = []
    while i < e:
        c = data[i:i + 1]
        if c in (b" ", b"\t", b"\r", b"\n"):
            i += 1
        elif c == b"#":
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
        else:  # a name (cfg.model) or a parenthesised expression: one item
            j, depth = i, 0
            while j < e and not (depth == 0 and data[j:j + 1] in (b" ", b"\t", b"\r", b"\n", b"]")):
                depth += data[j:j + 1] == b"("
                depth -= data[j:j + 1] == b")"
                j += 1
            items.append(_expression(data, i, j, binds))
            i = j
    return None


def _expression(data: bytes, s: int, e: int, binds: dict) -> tuple[Token, tuple[int, int]]:
    """A non-literal value: the one string the file binds to a name's last component, else an
    opaque word (``binds``: each name's, looked up once per file)."""
    text = data[s:e].decode("utf-8", "replace").strip()
    m = _NAME.fullmatch(data[s:e].strip())
    if m:
        last = m.group(0).rsplit(b".", 1)[-1]
        if last not in binds:
            binds[last] = None
            found = list(re.finditer(rb"(?m)(?:^|[;{])[ \t]*" + re.escape(last) + _BINDING, data))
            if len({b.group(1) for b in found}) == 1:
                from vllm_lint.frontends.hcl_containers import _string

                binds[last] = _string(data, found[0].start(1), found[0].end(1))
        b = binds[last]
        if b is not None:  # (a word of its own: one launch may name it twice)
            return Token(b.text, b.span, b.text_span, b.opaque), (s, e)
    return Token(text, Span(s, e), None, True), (s, e)
