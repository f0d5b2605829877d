"""Containers configured by environment variables that their entrypoint turns into vLLM's options
(:data:`vllm_lint.container.ENV_OPTIONS`: SageMaker's ``SM_VLLM_*``): a dict literal holding such a
variable is one ``config`` launch of those variables, keyed in the row's spelling (``key_style``
"env": a renamed option is spelled ``SM_VLLM_NEW_NAME``), in the container's image when the mapping
or call around it names one (``create_model(PrimaryContainer={'Image': ..., 'Environment': {...}})``,
``Model(image_uri=..., env={...})``; an f-string image's literal tag, a name bound to one), with
the block's other variables as its environment. ``"true"`` is the bare flag, ``"false"`` leaves it
out, as the entrypoint does. Found by :mod:`.argv_lists`' walk (no walk of its own)."""

from __future__ import annotations

import ast

from ...container import EnvOptions, env_keyed, env_launch, env_options
from ...launch import Launch, Span
from .engine_args import mapping
from .environ import env_from_mapping
from .scope import Scope, resolve_name
from .state import PyFile

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


def row_of(node: ast.Dict) -> Optional[EnvOptions]:
    """The :data:`~vllm_lint.container.ENV_OPTIONS` row of a dict literal's keys, or None."""
    for k in node.keys:
        if isinstance(k, ast.Constant) and isinstance(k.value, str):
            row = env_options(k.value)
            if row is not None:
                return row
    return None


def note_image(keyed: dict, scope: Scope, images: dict) -> None:
    """A mapping's (or call's) keys ``keyed``: when one holds an environment block and another
    names the image (``Environment`` beside ``Image``), remember the image for that block."""
    for key, value in keyed.items():
        node = value
        if isinstance(node, ast.Name):
            node = resolve_name(node, scope, (node.lineno, node.col_offset))[0]
        if not isinstance(node, ast.Dict):
            continue
        row = row_of(node)
        if row is None or key not in row.env_keys:
            continue
        image = next((keyed[k] for k in row.image_keys if k in keyed), None)
        if image is not None:
            images[id(node)] = (image, scope)


def _image_text(fx: PyFile, node: ast.AST, scope: Scope) -> Optional[tuple[str, Optional[Span], Span]]:
    """(the image as written, its fields as ``{}``; the span of the literal's tag part when 1:1; the
    node's span): a string, an f-string, a name bound to either."""
    node = resolve_name(node, scope, (node.lineno, node.col_offset))[0]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, fx.str_inner(node), fx.src.span(node)
    if isinstance(node, ast.JoinedStr):
        parts = [v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}" for v in node.values]
        return "".join(parts), None, fx.src.span(node)
    return None


def launch_of(fx: PyFile, node: ast.Dict, scope: Scope, image: Optional[tuple[ast.AST, Scope]]) -> Optional[Launch]:
    """The launch of an environment block (a dict literal holding a row's variables)."""
    row = row_of(node)
    if row is None:
        return None
    keyed, opaque = mapping(fx, node, scope, (node.lineno, node.col_offset))
    ours = env_keyed(row, keyed)
    if not ours:
        return None
    env = [e for e in env_from_mapping(fx, node, None) if env_options(e.name) is None]
    named = _image_text(fx, image[0], image[1]) if image is not None else None
    la = env_launch(row, fx.path, fx.src.span(node), ours, env, image=named[0] if named is not None else None,
                    image_span=named[2] if named is not None else None, data=fx.src.data,
                    tag_in=named[1] if named is not None else None, opaque=bool(opaque))
    la.read_as += f" ({row.prefix}MAX_MODEL_LEN -> --max-model-len)"
    unbound = None  # (an image named by a variable this code does not bind: a notebook's earlier cell may)
    if named is None and image is not None:
        node = resolve_name(image[0], image[1], (image[0].lineno, image[0].col_offset))[0]
        if isinstance(node, ast.Name):
            unbound = node.id
    if unbound is not None:
        la.context["image_name"] = unbound
    return la
