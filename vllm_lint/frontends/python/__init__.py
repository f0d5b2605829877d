"""Python front-end: ``LLM(...)`` / ``EngineArgs(...)`` calls, subprocess command lines, ``os.environ``.

Static only: the user's code is parsed, never imported or run.

What it finds
-------------
* Keyword arguments of ``LLM``, ``EngineArgs`` and ``AsyncEngineArgs`` under whatever name they are
  imported (``from vllm import LLM as E``, ``import vllm as v; v.LLM``, ``from
  vllm.engine.arg_utils import AsyncEngineArgs``, and unbound bare names as in documentation
  snippets). ``style="kwargs"``; the first positional argument is the model
  (``Launch.model`` and a ``KeyedArg("model", key_span=None)``). ``**{...}`` literals and
  ``**name`` where ``name`` is bound to a dict literal / ``dict(...)`` call in the same scope
  (function, else module) are expanded into KeyedArgs; any other ``**x`` / ``*x`` makes the launch
  ``opaque``. ``AsyncEngineArgs.from_cli_args(args)`` is not a call of the class and is ignored.
* ``subprocess.run/Popen/call/check_call/check_output``, ``os.exec*``/``os.spawn*``/
  ``os.posix_spawn*``, ``asyncio.create_subprocess_exec``: a list/tuple literal (or a name bound
  to one, ``+`` concatenations, ``shlex.split("...")``) whose words start vLLM
  (:func:`vllm_lint.frontends.commands.find_vllm_command`) -> ``style="argv"`` launch with
  ``delete_tokens`` for list literals. ``sys.executable`` reads as ``python``. A string with
  ``shell=True``, ``os.system``, ``os.popen``, ``subprocess.getoutput``,
  ``asyncio.create_subprocess_shell`` is handed to :func:`vllm_lint.frontends.shell.extract_script`
  with its embedding in the string literal (f-string fields become ``${...}`` placeholders,
  i.e. opaque shell words). ``env=`` dicts (``{**os.environ, "VLLM_X": "1"}``, ``dict(os.environ,
  ...)``, ``env = os.environ.copy(); env["VLLM_X"] = "1"``) become the launch's env.
* Argv lists away from any process call (:mod:`.argv_lists`): a list or tuple literal (or a ``+``
  concatenation) whose words start vLLM, wherever it stands, is an ``argv`` launch at the list
  (also after an opaque word: ``[image, "vllm", "serve", m]`` handed to a launcher); a
  ``command``/``args`` pair (``X_command``/``X_args``) in a dict literal or a call's keywords is one
  launch of both, with its ``image``'s release and its ``env``. Lists a process call was given are that call's.
* A string formatted with ``%`` or ``.format(...)`` and run by a shell: its fields are opaque words.
* Command lines shown in docstrings and other string statements ("Start the server with:
  ``vllm serve m --runner pooling``"): lines that start with a vLLM command (after an optional
  ``$`` prompt) with their backslash continuations, and inline backquoted commands with an
  argument, read as shell (never run) through the string's embedding, so findings point at the
  word and fixes edit the docstring where its bytes spell the value 1:1 (a raw docstring; an
  escaped ``\\\\`` has no 1:1 bytes, so no fix is offered there). Placeholders (``<model>``,
  ``[options]``, ``...``) are opaque words (:mod:`~vllm_lint.frontends.doc_commands`).
* Mappings reaching ``**`` through the module: a name bound to a mapping is followed inside
  ``{**BASE, ...}`` and ``DEFAULTS | overrides`` (an unknown operand makes the launch opaque), and
  ``{k: v for k, v in D.items() if ...}`` over a known mapping gives its keys (opaque: the
  condition may drop some). A key given twice in a literal dict is kept twice (VL108: the first
  is silently lost).
* Serving frameworks (:mod:`.wrappers`): Ray Serve ``LLMConfig(engine_kwargs=...,
  runtime_env={"env_vars": ...})`` (a ``ray.serve.llm`` kwargs launch with its env); Modal's
  ``pip_install("vllm==X")``/``uv_pip_install``/``Image.from_registry("vllm/vllm-openai:vX")``
  (version hints) and a ``modal.Image`` chain's ``.env({...})``; BentoML's
  ``python_packages("vllm==X")``, ``bentoml.service(envs=[...])`` and vLLM's server parser called
  on a list (``make_arg_parser(...).parse_args([...])``, an ``openai.api_server`` argv launch).
* ``os.environ["X"] = ...``, ``os.environ.setdefault``, ``os.environ.update({...} | k=v)``,
  ``os.environ |= {...}``, ``os.putenv`` -> ``Extraction.env`` (every literal name, not only
  ``VLLM_*``; rules decide what matters).

``Launch.model``: the value of the first positional / ``model=``; ``Launch.image``: the image of a
``docker run``; a launch found in a shell string has the Python call as its ``span``.
``Launch.context`` keys: ``positional`` (the source text of positionals after the model).

Known limits: deletes of two adjacent arguments are computed independently and may overlap (the
fixer's loop re-lints and applies the second); an argv name bound in several branches before a
process call gives one launch per branch (each at its list), a dict bound so, or a name
mutated inside a nested block, makes the launch ``opaque`` (the last binding's contents are
still reported); a single binding inside an ``if`` is taken as is; tuple argv has no ``delete_tokens``;
a ``" ".join(cmd)`` string is read as the list's words only when every literal word is one the
shell reads back as itself (``shlex.join`` always).

Parser choice: stdlib ``ast``, not libcst
-----------------------------------------
Measured (CPU seconds, best of 3, a loop over every file, pre-filter bypassed; CPython 3.11;
libcst in an earlier run, on 740 stdlib files, 12.2 MB):

============================================  =========  ========  =========
corpus                                        ast.parse  libcst    extract()
============================================  =========  ========  =========
stdlib, 734 files, 12.1 MB (no vLLM)          9.5 MB/s   0.86 MB/s 9.1 MB/s
vLLM 0.8.5 source tree, 1401 files, 14.3 MB   8.8 MB/s   0.77 MB/s 8.8 MB/s
============================================  =========  ========  =========

``extract()`` includes its own ``ast.parse``, which it runs with the garbage collector off; with
the whole tree walked (before the pruning of issue 7, see "Pruning" below) it ran at 6.8 and
6.6 MB/s. So libcst would cost ~10x the parse (before any metadata provider, which deps.md measured at
another 4-7x) plus its import (138 ms CPU here, ~320 ms in deps.md). ``ast`` gives every node's
start and end as (line, UTF-8 byte column), which converts to absolute byte offsets with a
line-start table built on the raw bytes (``\\r\\n``, ``\\r``, ``\\n`` all end a line, as in CPython's
tokenizer; a UTF-8 BOM shifts line 1 by 3 bytes; files with a non-UTF-8 coding declaration get
their columns re-encoded per line). What ``ast`` lacks is the position of commas, brackets and
comments; the delete spans that need them are computed by scanning the bytes *between* sibling
nodes, which can hold only whitespace, comments, brackets, ``*``/``**`` and one comma, so no
second parser is needed. With the byte pre-filter, files that never mention vLLM cost a
``bytes in`` check (~900 MB/s).
libcst stays available to the fixer if it ever needs to re-serialise, which vllm-lint avoids.

Modules
-------
``source`` (byte offsets, the file's encoding, container layouts), ``literals`` (string literals
with positions, literal values), ``callees`` (the calls read, imports and dotted names), ``walk``
(which statements are entered), ``scope`` (bindings and changes of names), ``state`` (the file
under extraction), ``engine_args`` (``LLM(...)`` and its kin), ``processes`` (subprocess and
``os.exec*``), ``argv_lists`` (argv lists away from a process call), ``environ`` (``os.environ``
and ``env=``), ``wrappers`` (Ray Serve, Modal, BentoML), ``documented`` (commands in strings and
comments), ``extractor`` (the driver).

Errors: syntax errors, undeclared non-UTF-8 bytes and null bytes raise ``ParseError(line=...)``;
pathological nesting (``RecursionError``/``MemoryError`` in the parser or in ``literal_eval``)
becomes a ``ParseError`` too, never a crash.
"""

from __future__ import annotations

import ast

from .extractor import extract

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

FORMAT = "python"

__all__ = ["FORMAT", "might_contain_launch", "extract", "shell_text"]


def might_contain_launch(data: bytes) -> bool:
    """Cheap pre-filter: a file that never says ``vllm`` nor ``VLLM_`` holds nothing for us, unless
    it passes ``engine_kwargs`` (a Ray Serve ``LLMConfig`` need not name vLLM)."""
    return b"vllm" in data or b"VLLM_" in data or b"engine_kwargs" in data


# ----------------------------------------------------------------------------- the format unit
# (the hooks of vllm_lint.frontends.base: the fixer's parse check, --add-noqa's equivalence check)


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """Why the fixed module ``after`` would not parse, or None."""
    try:
        ast.parse(after)
    except SyntaxError as e:
        try:
            ast.parse(before)
        except SyntaxError as b:  # a file that did not parse (Python 2), fixed in its strings only
            if (b.msg, b.lineno, b.offset) == (e.msg, e.lineno, e.offset):
                return None  # the same error at the same place: the fix broke nothing
        except Exception:
            pass
        return f"the fixed file would not parse ({e.msg})"
    except Exception as e:
        return f"the fixed file would not parse ({type(e).__name__})"
    return None


def same_meaning(before: bytes, after: bytes) -> Optional[str]:
    """None when ``after`` has the same AST as ``before``; else why not."""
    try:
        old = ast.dump(ast.parse(before))
    except (SyntaxError, ValueError):
        return None
    try:
        new = ast.dump(ast.parse(after))
    except (SyntaxError, ValueError):
        return "the Python would no longer parse"
    return None if old == new else "the Python code would change"


def _dotted_name(node: ast.AST) -> Optional[str]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def shell_text(data: bytes) -> Optional[bytes]:
    """The strings a shell runs (``os.system("...")``, ``subprocess.run("...", shell=True)``,
    ``os.popen``, ``subprocess.getoutput``, ...) written as one plain double-quoted literal on one
    line, at their places, the rest blanked (the ``shell_text`` hook). A single-quoted literal is
    left out: quoting a word inside it with ``'`` would end the Python string."""
    if b"install" not in data:
        return None
    from .callees import PROC_CALLS

    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return None
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    out: Optional[bytearray] = None
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        spec = PROC_CALLS.get(_dotted_name(node.func) or "")
        if spec is None or spec[0] not in ("shell", "popen"):
            continue
        kind, idx = spec
        kw = {k.arg: k.value for k in node.keywords if k.arg is not None}
        if kind == "popen" and not (isinstance(kw.get("shell"), ast.Constant) and kw["shell"].value is True):
            continue
        arg = node.args[idx] if len(node.args) > idx else kw.get("args" if kind == "popen" else "cmd")
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)) or arg.lineno != arg.end_lineno:
            continue
        start = starts[arg.lineno - 1] + arg.col_offset
        end = starts[arg.lineno - 1] + arg.end_col_offset
        raw = data[start:end]
        body = raw[1:-1]
        if raw[:1] != b'"' or raw[-1:] != b'"' or len(raw) < 2 or raw[:3] == b'"""' \
                or b'"' in body or b"\\" in body or not body.isascii():
            continue  # (a prefix, an escape or a triple quote: its bytes do not spell the string 1:1)
        if out is None:
            out = bytearray(bytes(b if b in (0x0A, 0x0D) else 0x20 for b in data))
        out[start + 1:end - 1] = body
    return bytes(out) if out is not None else None
