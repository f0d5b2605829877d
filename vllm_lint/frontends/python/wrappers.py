"""Serving frameworks' Python APIs that carry vLLM's release, environment or arguments.

* Ray Serve: ``LLMConfig(model_loading_config=..., engine_kwargs=..., runtime_env=...)`` (from
  ``ray.serve.llm``) is a ``style="kwargs"`` launch of entry ``ray.serve.llm`` (as in the YAML
  front-end): ``engine_kwargs`` are vLLM's engine arguments, ``runtime_env["env_vars"]`` the
  environment of the replica that runs vLLM, the model its ``model_source`` (else ``model_id``),
  the GPU its ``accelerator_type``.
* Modal: ``Image....pip_install("vllm==X")``, ``.uv_pip_install(...)`` and
  ``Image.from_registry("vllm/vllm-openai:vX")`` name the release; a ``modal.Image`` chain's
  ``.env({...})`` is the environment of the functions that run on it.
* BentoML: ``bentoml.images.Image(...).python_packages("vllm==X")`` names the release;
  ``bentoml.service(envs=[{"name": ..., "value": ...}])`` is the service's environment; vLLM's
  own server parser called on a list (``make_arg_parser(FlexibleArgumentParser()).parse_args([...])``,
  as BentoML services do) is an ``openai.api_server`` launch of those words, and the engine's
  parser (``AsyncEngineArgs.add_cli_args(parser).parse_args([...])``, for ``from_cli_args``) one
  of the engine's options.

A range (``vllm>=0.9``) is recorded as written; the engine takes only a release as the target."""

from __future__ import annotations

import ast

from ...launch import EnvAssign, Hardware, Launch, VersionHint
from .callees import IMAGE_METHODS, PIN_METHODS
from .engine_args import mapping
from .environ import env_assign, env_from_mapping
from .processes import argv_words
from .scope import Scope, lookup, resolve_name
from .state import PyFile

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

ENV_METHOD = "env"
PARSE_METHOD = "parse_args"
_MAX_CHAIN = 8  # names followed back to the image a method is called on


def method_call(fx: PyFile, call: ast.Call, attr: str, scope: Scope) -> None:
    """A method call that may name the release or the environment (the receiver may be any
    expression: ``modal.Image.debian_slim().pip_install(...)``)."""
    if attr in PIN_METHODS:
        _pins(fx, call)
    elif attr in IMAGE_METHODS:
        _image_pin(fx, call)
    elif attr == ENV_METHOD:
        if len(call.args) == 1 and not call.keywords and _on_modal_image(fx, call.func, scope, 0):
            fx.result.env.extend(env_from_mapping(fx, call.args[0], None))
    elif attr == PARSE_METHOD:
        _server_parse(fx, call, scope)


def _strings(node: ast.AST) -> list[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, (ast.List, ast.Tuple)):
        return [e for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def _pins(fx: PyFile, call: ast.Call) -> None:
    from ..commands import version_from_pip_install, version_from_requirement  # noqa: PLC0415 - cheap, local

    index = " ".join(k.value.value for k in call.keywords if k.arg in ("extra_index_url", "index_url", "find_links")
                     and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str))
    for arg in call.args:
        for s in _strings(arg):
            v = version_from_requirement(s.value)
            if v is None and index and s.value.strip().lower().split("[", 1)[0] == "vllm":
                # an unpinned vllm from vLLM's nightly wheel index: a nightly build
                v = version_from_pip_install(["pip", "install", "vllm", "--extra-index-url", index])
            if v is not None:
                fx.result.version_hints.append(VersionHint(v, "pip-install", fx.str_inner(s) or fx.src.span(s)))


def build_commands(fx: PyFile, call: ast.Call) -> None:
    """Shell commands an image runs at build (Modal ``.run_commands("pip install vllm==X")``,
    BentoML ``Image(...).run("uv pip install vllm --extra-index-url https://wheels.vllm.ai/nightly")``):
    a ``pip install`` of vllm names the release (a nightly wheel index: a nightly build)."""
    import shlex  # noqa: PLC0415 - cheap, local

    from ..commands import version_from_pip_install  # noqa: PLC0415 - cheap, local

    for arg in call.args:
        for s in _strings(arg):
            if "vllm" not in s.value or "install" not in s.value or len(s.value) > 10_000:
                continue
            for command in s.value.replace("&&", "\n").replace(";", "\n").splitlines():
                try:
                    words = shlex.split(command)
                except ValueError:
                    continue
                v = version_from_pip_install(words)
                if v is not None:
                    fx.result.version_hints.append(VersionHint(v, "pip-install", fx.str_inner(s) or fx.src.span(s)))
                    return


def _image_pin(fx: PyFile, call: ast.Call) -> None:
    from ..commands import image_is_vllm, version_from_image  # noqa: PLC0415 - cheap, local

    if not call.args or not isinstance(call.args[0], ast.Constant) or not isinstance(call.args[0].value, str):
        return
    image = call.args[0].value
    tag = version_from_image(image) if image_is_vllm(image) else None
    if tag:
        fx.result.version_hints.append(VersionHint(tag, "image-tag", fx.str_inner(call.args[0]), image))


def _on_modal_image(fx: PyFile, node: ast.AST, scope: Scope, depth: int) -> bool:
    """Whether the method ``node`` (an attribute) is called on a ``modal.Image`` chain, through
    names bound to one (``image = modal.Image.debian_slim(); image = image.env({...})``)."""
    while depth < _MAX_CHAIN:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            if (fx.names.dotted(node) or "").startswith("modal.Image."):
                return True
            node = node.value
        elif isinstance(node, ast.Name):
            if fx.names.dotted(node) == "modal.Image":
                return True
            pos = (node.lineno, node.col_offset)
            binding, scope = lookup(node.id, scope, pos)
            if binding is not None and _holds(binding.stmt, pos):  # image = image.env(...)
                binding, scope = lookup(node.id, scope, binding.pos)
            if binding is None or binding.value is binding.stmt:
                return False
            node, depth = binding.value, depth + 1
        else:
            return False
    return False


def _holds(st: ast.stmt, pos: tuple[int, int]) -> bool:
    return (st.lineno, st.col_offset) <= pos <= (st.end_lineno or st.lineno, st.end_col_offset or 0)


def call(fx: PyFile, call: ast.Call, dotted: str, scope: Scope) -> bool:
    """A framework call named by its import (``LLMConfig``, ``bentoml.service``); False when
    ``dotted`` is none of them."""
    if dotted.startswith("ray.") and dotted.endswith(".LLMConfig"):
        _ray_llm_config(fx, call, scope)
        return True
    if dotted == "bentoml.service":
        _bento_envs(fx, call)
        return True
    return False


def _keyword(call: ast.Call, name: str) -> Optional[ast.AST]:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _ray_llm_config(fx: PyFile, call: ast.Call, scope: Scope) -> None:
    kwargs = _keyword(call, "engine_kwargs")
    runtime_env = _keyword(call, "runtime_env")
    if kwargs is None and runtime_env is None:
        return
    pos = (call.lineno, call.col_offset)
    launch = Launch(path=fx.path, entry="ray.serve.llm", style="kwargs", span=fx.src.span(call))
    if kwargs is not None:
        keyed, opaque = mapping(fx, kwargs, scope, pos)
        launch.keyed.extend(keyed)
        launch.opaque = opaque is None or bool(opaque)
    accelerator = _keyword(call, "accelerator_type")
    if isinstance(accelerator, ast.Constant) and isinstance(accelerator.value, str):
        launch.hardware = Hardware(gpu_product=accelerator.value, source="accelerator_type")
    model = _model_of(fx, _keyword(call, "model_loading_config"), scope, pos)
    if model is not None:
        launch.model = model
    if runtime_env is not None:
        launch.env = _runtime_env_vars(fx, runtime_env, scope, pos)
    fx.result.launches.append(launch)


def _model_of(fx: PyFile, node: Optional[ast.AST], scope: Scope, pos: tuple[int, int]) -> Optional[str]:
    if node is None:
        return None
    keyed, _opaque = mapping(fx, node, scope, pos)
    found = {ka.key: ka.value for ka in keyed if isinstance(ka.value, str)}
    return found.get("model_source") or found.get("model_id")


def _runtime_env_vars(fx: PyFile, node: ast.AST, scope: Scope, pos: tuple[int, int]) -> list[EnvAssign]:
    """``runtime_env={"env_vars": {...}}`` or ``dict(env_vars={...})``."""
    if isinstance(node, ast.Name):
        binding, _bscope = lookup(node.id, scope, pos)
        if binding is None or binding.value is binding.stmt:
            return []
        node = binding.value
    env_vars: Optional[ast.AST] = None
    if isinstance(node, ast.Dict):
        env_vars = next((v for k, v in zip(node.keys, node.values)
                         if isinstance(k, ast.Constant) and k.value == "env_vars"), None)
    elif isinstance(node, ast.Call) and fx.names.dotted(node.func) == "dict":
        env_vars = _keyword(node, "env_vars")
    return env_from_mapping(fx, env_vars, None) if env_vars is not None else []


def _bento_envs(fx: PyFile, call: ast.Call) -> None:
    """``bentoml.service(envs=[{"name": "X", "value": "1"}, ...])``."""
    envs = _keyword(call, "envs")
    if not isinstance(envs, (ast.List, ast.Tuple)):
        return
    for e in envs.elts:
        if not isinstance(e, ast.Dict):
            continue
        entry = {k.value: v for k, v in zip(e.keys, e.values) if isinstance(k, ast.Constant)}
        name = entry.get("name")
        if name is None:
            continue
        ea = env_assign(fx, name, entry.get("value"), None)
        if ea is not None:
            fx.result.env.append(ea)


def _server_parse(fx: PyFile, call: ast.Call, scope: Scope) -> None:
    """``make_arg_parser(FlexibleArgumentParser()).parse_args([...])``: vLLM's server parser; and
    ``EngineArgs.add_cli_args(parser).parse_args([...])`` (also ``AsyncEngineArgs``, the parser
    bound to a name first), whose namespace ``from_cli_args`` turns into engine arguments."""
    parser = call.func.value if isinstance(call.func, ast.Attribute) else None
    if parser is None or len(call.args) != 1 or call.keywords:
        return
    pos = (call.lineno, call.col_offset)
    if isinstance(parser, ast.Name):
        parser = resolve_name(parser, scope, pos)[0]
    if not isinstance(parser, ast.Call):
        return
    made = fx.names.dotted(parser.func) or ""
    if made.startswith("vllm.") and made.endswith(".make_arg_parser"):
        entry = "openai.api_server"
    elif made.startswith("vllm") and made.rsplit(".", 2)[-2:] in (["EngineArgs", "add_cli_args"],
                                                                   ["AsyncEngineArgs", "add_cli_args"]):
        # the engine's options alone: read as the api_server module's, which takes them with no
        # positional model (its few own options, --host, --port, are accepted here: under-read)
        entry = "api_server"
    else:
        return
    words = argv_words(fx, call.args[0], scope, pos)
    if not words.entries:
        return
    launch = Launch(path=fx.path, entry=entry, style="argv", span=fx.src.span(call))
    launch.tokens = [t for t, _w, _l, _i in words.entries]
    launch.opaque = any(t.splat for t in launch.tokens) or bool(words.ambiguous)
    launch.delete_tokens = words.deleter()
    fx.consumed.update(words.seqs)
    fx.result.launches.append(launch)
