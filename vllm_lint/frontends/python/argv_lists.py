"""Argv lists that start vLLM wherever they stand, not only as the argument of a process call.

A list or tuple literal (or a ``+`` concatenation of them and of names bound to them) whose words
start vLLM's server is an ``argv`` launch at the list's own position: a Vertex AI
``serving_container_command``, a BentoML ``__command__`` returning ``["vllm", "serve", ...]``, a
container dict in a test fixture, ``[image, "vllm", "serve", model] + args`` handed to a cluster
launcher (the command may start after an opaque word there: the launcher's image or host). A pair
of ``command`` / ``args`` (``serving_container_command`` / ``serving_container_args``, any
``X_command`` / ``X_args``, ``xCommand`` / ``xArgs``) in a dict literal or in one call's keywords is
one launch of both lists' words, as a container runs them, in the container's ``image`` (its
release) with its ``env`` (``[{"name": ..., "value": ...}]``, or a mapping such as Vertex's
``serving_container_environment_variables``). A list a process call or vLLM's parser
already read (``PyFile.consumed``), and a list compared with something, are not launches here.
The same walk finds the environment blocks of containers configured by variables
(:mod:`.env_launches`: SageMaker's ``SM_VLLM_*``).

Only statements on lines saying ``vllm`` or ``command`` are entered (:func:`~.walk.hit_lines`)."""

from __future__ import annotations

import ast

from ...container import ENV_OPTIONS
from ...launch import EnvAssign, Span, VersionHint
# (``env_launches``, ``environ`` and ``processes`` are imported where used: a file whose argv
# lists and container blocks are none of these imports none of them; issue 31's ninth pass)
from .scope import Scope, resolve_name
from .state import PyFile
from .walk import FUNC_DEFS, blocks, hit_lines, touching

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

_SEQS = (ast.List, ast.Tuple)
_MAX_DEPTH = 50  # nested expressions followed
_ENV_KEYS = ("env", "environment_variables", "Env")  # a container's environment beside its command


def standalone_argvs(fx: PyFile, tree: ast.Module, module_scope: Scope) -> None:
    """Add the launches of the argv lists and command/args pairs no recognised call read."""
    prefixes = [row.prefix.encode() for row in ENV_OPTIONS if row.prefix.encode() in fx.src.data]
    lines = hit_lines(fx.src, [b"vllm", b"command", b"Command"] + prefixes)
    if lines == []:
        return
    roots: list[tuple[ast.AST, Scope]] = []
    pairs: list[tuple[ast.AST, ast.AST, Scope]] = []
    envs: Optional[_Envs] = _Envs() if prefixes else None
    _statements(fx, tree, module_scope, lines, roots, pairs, envs)
    for command, args, image, env, scope in pairs:
        _pair(fx, command, args, image, env, scope)
    for root, scope in roots:
        _root(fx, root, scope, 0)
    if envs is not None and envs.blocks:
        from . import env_launches
        for node, scope in envs.blocks:
            la = env_launches.launch_of(fx, node, scope, envs.images.get(id(node)))
            if la is not None:
                fx.result.launches.append(la)


class _Envs:
    """The environment blocks of containers configured by variables (:mod:`.env_launches`) a walk
    met, and the images the mappings around them name."""

    __slots__ = ("blocks", "images", "seen")

    def __init__(self) -> None:
        self.blocks: list[tuple[ast.Dict, Scope]] = []
        self.images: dict[int, tuple[ast.AST, Scope]] = {}
        self.seen: set[int] = set()


def _statements(fx: PyFile, node: ast.AST, scope: Scope, lines: Optional[list[int]],
                roots: list, pairs: list, envs: "Optional[_Envs]" = None) -> None:
    for name in blocks(node.__class__):
        for st in touching(lines, getattr(node, name)):
            inner = Scope(st, scope, fx.parent_body) if st.__class__ in FUNC_DEFS else scope
            for field, value in ast.iter_fields(st):
                if field in ("body", "orelse", "finalbody", "handlers", "cases", "decorator_list",
                             "args", "returns", "bases", "keywords"):
                    continue
                for v in (value if isinstance(value, list) else [value]):
                    if isinstance(v, ast.withitem):
                        v = v.context_expr
                    if isinstance(v, ast.expr):
                        _expressions(v, scope, roots, pairs, 0, envs=envs)
            _statements(fx, st, inner, lines, roots, pairs, envs)


def _expressions(node: ast.AST, scope: Scope, roots: list, pairs: list, depth: int,
                 in_root: bool = False, envs: "Optional[_Envs]" = None) -> None:
    """Collect the outermost argv-like expressions (roots: :func:`_root` reads those inside
    them) and every command/args pair."""
    if depth > _MAX_DEPTH or isinstance(node, (ast.Lambda, ast.Compare)):
        return
    if not in_root and _is_root(node):
        roots.append((node, scope))
        in_root = True
    if isinstance(node, ast.Dict):
        keyed = {k.value: v for k, v in zip(node.keys, node.values)
                 if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        _collect_pairs(keyed, scope, pairs)
        if envs is not None:
            from . import env_launches
            env_launches.note_image(keyed, scope, envs.images)
            if id(node) not in envs.seen and env_launches.row_of(node) is not None:
                envs.seen.add(id(node))
                envs.blocks.append((node, scope))
    elif isinstance(node, ast.Call):
        keywords = {k.arg: k.value for k in node.keywords if k.arg}
        _collect_pairs(keywords, scope, pairs)
        if envs is not None:
            from . import env_launches
            env_launches.note_image(keywords, scope, envs.images)
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            _expressions(child, scope, roots, pairs, depth + 1, in_root, envs)
        elif envs is not None and isinstance(child, ast.keyword):  # (a call's keyword: `PrimaryContainer={...}`)
            _expressions(child.value, scope, roots, pairs, depth + 1, in_root, envs)


def _has_seq(node: ast.AST) -> bool:
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        if isinstance(node.right, _SEQS):
            return True
        node = node.left
    return isinstance(node, _SEQS)


def _collect_pairs(keyed: dict, scope: Scope, pairs: list) -> None:
    for key, value in keyed.items():
        for suffix, partner, images in (("command", "args", ("image", "image_uri")),
                                        ("Command", "Args", ("Image", "ImageUri"))):
            prefix = key[:-len(suffix)]
            if key.endswith(suffix) and prefix + partner in keyed:
                image = next((keyed[prefix + i] for i in images if prefix + i in keyed), None)
                env = next((keyed[prefix + e] for e in _ENV_KEYS if prefix + e in keyed), None)
                pairs.append((value, keyed[prefix + partner], image, env, scope))


def _image(fx: PyFile, node: Optional[ast.AST], scope: Scope) -> Optional[tuple[str, Optional[Span]]]:
    """The image a container's ``image`` names: a string, a name bound to one, or an
    ``os.environ.get("X", "default")`` (the default)."""
    if node is None:
        return None
    from .environ import env_default
    node = resolve_name(node, scope, (node.lineno, node.col_offset))[0]
    found = env_default(fx, node)
    if found is not None:
        node = found[1]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, fx.str_inner(node)
    return None


def _pair(fx: PyFile, command: ast.AST, args: ast.AST, image: Optional[ast.AST], env: Optional[ast.AST],
          scope: Scope) -> None:
    """``command`` and ``args`` (literals or names bound to them): one launch of both, in the
    container's ``image`` when it is vLLM's, with the container's ``env``."""
    from ..commands import image_is_vllm, version_from_image  # noqa: PLC0415 - cheap, local
    from .processes import ArgvWords, launches_of_words

    cmd_node = resolve_name(command, scope, (command.lineno, command.col_offset))[0]
    args_node = resolve_name(args, scope, (args.lineno, args.col_offset))[0]
    if not isinstance(cmd_node, _SEQS + (ast.BinOp,)) or _read(fx, cmd_node):
        return
    words = ArgvWords(fx, scope, (command.lineno, command.col_offset))
    words.add_seq(command)
    words.add_seq(args)
    span = fx.src.span(cmd_node)
    if isinstance(args_node, _SEQS + (ast.BinOp,)):
        args_span = fx.src.span(args_node)
        if args_span.start >= span.end:
            span = Span(span.start, args_span.end)
    found = launches_of_words(fx, words, span, inside=True)
    named = _image(fx, image, scope)
    if named is not None and image_is_vllm(named[0]):
        for la in found:
            la.image = named[0]
            tag = version_from_image(named[0])
            if tag:
                la.version_hints.append(VersionHint(tag, "image-tag", named[1], named[0]))
    if env is not None:
        for la in found:
            la.env = _container_env(fx, env, scope)
    fx.result.launches.extend(found)


def _container_env(fx: PyFile, node: ast.AST, scope: Scope) -> list[EnvAssign]:
    """A container's environment: ``[{"name": "X", "value": "1"}, ...]`` (a pod spec) or a mapping
    (``serving_container_environment_variables={"X": "1"}``); a name bound to either."""
    from .environ import env_assign, env_from_mapping
    node = resolve_name(node, scope, (node.lineno, node.col_offset))[0]
    if isinstance(node, ast.Dict):
        return env_from_mapping(fx, node, None)
    out: list[EnvAssign] = []
    for e in node.elts if isinstance(node, _SEQS) else []:
        if not isinstance(e, ast.Dict):
            continue
        entry = {k.value: v for k, v in zip(e.keys, e.values) if isinstance(k, ast.Constant)}
        if "name" in entry:
            ea = env_assign(fx, entry["name"], entry.get("value"), None)
            if ea is not None:
                out.append(ea)
    return out


def _read(fx: PyFile, node: ast.AST) -> bool:
    """Whether a launch was read from a list inside ``node`` already."""
    return any(id(n) in fx.consumed for n in ast.walk(node) if isinstance(n, _SEQS))


def _is_root(node: ast.AST) -> bool:
    return isinstance(node, _SEQS) or (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)
                                       and _has_seq(node))


def _root(fx: PyFile, node: ast.AST, scope: Scope, depth: int) -> None:
    """The launch of an argv-like expression; else those of the argv-like expressions inside it."""
    if depth > _MAX_DEPTH or id(node) in fx.consumed:
        return
    if not _read(fx, node):
        from .processes import ArgvWords, launches_of_words
        words = ArgvWords(fx, scope, (node.lineno, node.col_offset))
        words.add_seq(node)
        found = launches_of_words(fx, words, fx.src.span(node), inside=True)
        if found:
            fx.result.launches.extend(found)
            return
    stack = list(ast.iter_child_nodes(node))[::-1]  # in source order
    while stack:
        child = stack.pop()
        if isinstance(child, (ast.Lambda, ast.Compare)) or not isinstance(child, ast.expr):
            continue
        if _is_root(child):
            _root(fx, child, scope, depth + 1)
        else:
            stack.extend(list(ast.iter_child_nodes(child))[::-1])
