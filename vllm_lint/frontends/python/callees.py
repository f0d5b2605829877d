"""The calls this front-end reads: vLLM's entry classes, the functions that start a process, and
those that set the environment; and the imports that bind a name to one of them."""

from __future__ import annotations

import ast

from ...foreign_launchers import call_names

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

ENTRIES = {"LLM": "LLM", "EngineArgs": "EngineArgs", "AsyncEngineArgs": "AsyncEngineArgs"}

# dotted callee -> (kind, index of the argv argument or -1 for "all positionals from index")
# kinds: "popen" (args list or shell string), "shell" (string), "argv" (list at index),
#        "varargs" (words are positionals from index)
PROC_CALLS: dict[str, tuple[str, int]] = {
    "subprocess.run": ("popen", 0),
    "subprocess.Popen": ("popen", 0),
    "subprocess.call": ("popen", 0),
    "subprocess.check_call": ("popen", 0),
    "subprocess.check_output": ("popen", 0),
    "subprocess.getoutput": ("shell", 0),
    "subprocess.getstatusoutput": ("shell", 0),
    "os.system": ("shell", 0),
    "os.popen": ("shell", 0),
    "asyncio.create_subprocess_shell": ("shell", 0),
    "asyncio.create_subprocess_exec": ("varargs", 0),
    "os.execv": ("argv", 1),
    "os.execve": ("argv", 1),
    "os.execvp": ("argv", 1),
    "os.execvpe": ("argv", 1),
    "os.execl": ("varargs", 1),
    "os.execlp": ("varargs", 1),
    "os.execle": ("varargs-env", 1),
    "os.execlpe": ("varargs-env", 1),
    "os.spawnv": ("argv", 2),
    "os.spawnve": ("argv", 2),
    "os.spawnvp": ("argv", 2),
    "os.spawnvpe": ("argv", 2),
    "os.spawnl": ("varargs", 2),
    "os.spawnlp": ("varargs", 2),
    "os.spawnle": ("varargs-env", 2),
    "os.spawnlpe": ("varargs-env", 2),
    "os.posix_spawn": ("argv", 1),
    "os.posix_spawnp": ("argv", 1),
}
_MODULES = frozenset({"vllm"} | {d.split(".", 1)[0] for d in PROC_CALLS})

ENV_CALLS = ("os.environ.setdefault", "os.putenv", "os.environ.update", "os.environ.__setitem__")
# serving frameworks (.wrappers): methods read on any receiver, and calls named by their import
PIN_METHODS = frozenset({"pip_install", "uv_pip_install", "python_packages"})
IMAGE_METHODS = frozenset({"from_registry"})
WRAPPER_METHODS = PIN_METHODS | IMAGE_METHODS | {"env", "parse_args"}
WRAPPER_CALLS = ("LLMConfig", "service")
# an image's build commands (Modal ``run_commands("pip install ...")``, BentoML ``Image.run(...)``):
# read for a vllm pin, and the call still goes to its other readers (``subprocess.run``)
SHELL_METHODS = frozenset({"run_commands", "run"})
INTERESTING_LAST = frozenset(
    list(ENTRIES) + [d.rsplit(".", 1)[-1] for d in list(PROC_CALLS) + list(ENV_CALLS)]
    + list(WRAPPER_METHODS) + list(WRAPPER_CALLS) + list(call_names()) + list(SHELL_METHODS))
ENV_KW_INDEX = {"os.execve": 2, "os.execvpe": 2, "os.spawnve": 3, "os.spawnvpe": 3,
                "os.posix_spawn": 2, "os.posix_spawnp": 2}


def _ours(target: Optional[str]) -> bool:
    """Whether an import binds a name to a module this front-end reads calls of. A name imported
    twice keeps that binding (``try: import subprocess32 as subprocess`` / ``except ImportError:
    import subprocess``: either way the calls may start vLLM)."""
    return target is not None and target.split(".", 1)[0] in _MODULES


def entry_of(dotted: str) -> Optional[str]:
    """The entry class a dotted callee names (``vllm.LLM``, a bare ``LLM``), or None."""
    last = dotted.rsplit(".", 1)[-1]
    if last not in ENTRIES:
        return None
    if dotted == last or dotted.startswith("vllm."):
        return ENTRIES[last]
    return None


class Names:
    """What the module's imports bind (``from vllm import LLM as E``, ``import subprocess as sp``),
    and the dotted callee a name or attribute chain spells with them."""

    def __init__(self) -> None:
        self.aliases: dict[str, str] = {}
        self.star_modules: set[str] = set()
        self.module_scope: Any = None  # the module's scope.Scope, set once the imports are read

    def add_import(self, node: ast.AST) -> None:
        aliases = self.aliases
        if isinstance(node, ast.Import):
            for a in node.names:
                name = a.asname or a.name.split(".")[0]
                if not _ours(aliases.get(name)):
                    aliases[name] = a.name if a.asname else name
            return
        assert isinstance(node, ast.ImportFrom)
        if node.level or not node.module:
            for a in node.names:
                aliases.setdefault(a.asname or a.name, "." + a.name)
            return
        for a in node.names:
            if a.name == "*":
                self.star_modules.add(node.module)
                continue
            name = a.asname or a.name
            target = f"{node.module}.{a.name}"
            if not _ours(aliases.get(name)):
                aliases[name] = target

    def alias_words(self) -> list[bytes]:
        """Names imported as something a call or an environment statement is read for."""
        return [name.encode("utf-8") for name, target in self.aliases.items()
                if target in PROC_CALLS or target in ENV_CALLS or target == "os.environ"
                or entry_of(target) is not None]

    def dotted(self, node: ast.AST) -> Optional[str]:
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        base = self.aliases.get(node.id)
        if base is None:
            if node.id in self.module_scope.local_defs:
                base = "<local>." + node.id
            elif self.star_modules and node.id in ENTRIES and "vllm" in self.star_modules:
                base = "vllm." + node.id
            else:
                base = node.id
        parts.append(base)
        return ".".join(reversed(parts))

    def is_environ(self, node: ast.AST) -> bool:
        return self.dotted(node) == "os.environ"
