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

from ...container import Container, EnvOptions, env_options
from ...launch import Launch, Span, VersionHint
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
    ours = []
    for ka in keyed:
        if env_options(ka.key) is not row:
            continue
        ka.key_style = "env"
        ka.value = row.flag(ka.value)
        if ka.value is False:
            continue  # (the entrypoint leaves the option out)
        ours.append(ka)
    if not ours:
        return None
    env = [e for e in env_from_mapping(fx, node, None) if env_options(e.name) is None]
    span = fx.src.span(node)
    named = _image_text(fx, image[0], image[1]) if image is not None else None
    hints = []
    text = None
    if named is not None:
        text = named[0]
        release = row.release_of(text)
        if release is not None:
            at = None
            if named[1] is not None:
                raw = fx.src.data[named[1].start:named[1].end]
                k = raw.rfind((":" + release).encode())
                if k >= 0:
                    at = Span(named[1].start + k + 1, named[1].start + k + 1 + len(release))
            hints.append(VersionHint(release, "image-tag", at or named[2]))
    model = next((ka.value for ka in ours if ka.key == row.prefix + "MODEL" and isinstance(ka.value, str)), None)
    box = Container(row.platform, span, image=text, image_span=named[2] if named is not None else None,
                    run_image=text, env=env, version_hints=hints)
    unbound = None  # (an image named by a variable this code does not bind: a notebook's earlier cell may)
    if named is None and image is not None:
        node = resolve_name(image[0], image[1], (image[0].lineno, image[0].col_offset))[0]
        if isinstance(node, ast.Name):
            unbound = node.id
    la = Launch(path=fx.path, entry=row.program, style="config", span=span, keyed=ours, env=env,
                version_hints=list(hints), opaque=bool(opaque), container=box, model=model,
                read_as=f"the {row.platform} container's `{row.prefix}*` variables, which its entrypoint turns "
                        f"into `{row.program}` options ({row.prefix}MAX_MODEL_LEN -> --max-model-len)")
    if unbound is not None:
        la.context["image_name"] = unbound
    return la
