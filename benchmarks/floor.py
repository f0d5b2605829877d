"""The parse-only floor: what any linter built on the same parsers must spend on the same files.

Per file: read the bytes, apply the front-end's own byte pre-filter, and parse what passes with
the parser that front-end uses: tree-sitter-bash (shell), PyYAML's C ``compose_all`` after the
same template filling (YAML), ``ast.parse`` (Python), the Dockerfile instruction splitter plus
tree-sitter-bash on RUN/CMD/ENTRYPOINT text that mentions vLLM, and the Markdown fence scanner
plus the matching parser on fenced blocks that mention vLLM; JSON and notebooks through the same
YAML parser (and their cells), and the command lines of systemd units, Makefile recipes and
PowerShell scripts through tree-sitter-bash after the front-ends' own translations; Terraform's
manifests through the YAML parser. No extraction,
no database, no rules.

Files are found with ``os.walk`` and discovery's ``format_by_name`` (no ``.gitignore``
handling: a floor). With ``--jobs 2`` the files are spread over a process pool in small chunks,
like ``vllm_lint.pipeline.parallel``.

    python benchmarks/floor.py DIR [--jobs N]
"""

from __future__ import annotations

import ast
import os
import sys
import warnings


def _shell_parser():
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


_SH = None


def parse_shell(data: bytes) -> None:
    global _SH
    if _SH is None:
        _SH = _shell_parser()
    _SH.parse(data)


def parse_yaml(data: bytes) -> None:
    import yaml

    from vllm_lint.frontends.yaml.loader import prepare

    filled, _ = prepare(data)
    try:
        list(yaml.compose_all(filled.decode("utf-8"), Loader=yaml.CSafeLoader))
    except (yaml.YAMLError, UnicodeDecodeError, RecursionError):
        pass


def parse_python(data: bytes) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(data)
        except (SyntaxError, ValueError, RecursionError):
            pass


def parse_dockerfile(data: bytes) -> None:
    from vllm_lint.frontends.dockerfile import _instructions

    instrs, _ = _instructions(data)
    for ins in instrs:
        text = data[ins.start:ins.end] if hasattr(ins, "start") else b""
        if b"vllm" in text:
            parse_shell(text)


def parse_markdown(data: bytes) -> None:
    from vllm_lint.frontends.markdown import _DOCKER, _PYTHON, _YAML, fenced_blocks

    for lang, start, end, _line in fenced_blocks(data):
        block = data[start:end]
        if b"vllm" not in block and b"VLLM" not in block:
            continue
        if lang in _YAML:
            parse_yaml(block)
        elif lang in _PYTHON:
            parse_python(block)
        elif lang in _DOCKER:
            parse_dockerfile(block)
        else:
            parse_shell(block)


def parse_json(data: bytes) -> None:
    import json

    try:
        json.loads(data)  # the front-end refuses what is not JSON first
    except ValueError:
        return
    parse_yaml(data)  # then reads it with the YAML front-end's parser (JSON is YAML's flow style)


def parse_systemd(data: bytes) -> None:
    """The ``Exec*=`` command lines (``\\``-continued lines joined), parsed as shell."""
    lines = data.replace(b"\\\r\n", b" ").replace(b"\\\n", b" ").splitlines()
    commands = [ln.split(b"=", 1)[1] for ln in lines if ln.lstrip().startswith(b"Exec") and b"=" in ln]
    if commands:
        parse_shell(b"\n".join(commands))


def parse_makefile(data: bytes) -> None:
    from vllm_lint.frontends.makefile import recipe_script

    parse_shell(recipe_script(data))


def parse_powershell(data: bytes) -> None:
    from vllm_lint.frontends.powershell import as_shell

    parse_shell(as_shell(data))


def parse_notebook(data: bytes) -> None:
    """The JSON through the YAML parser (as the front-end reads it), then each cell that mentions
    vLLM: code with ``!`` and ``%`` lines as shell and the rest as Python, Markdown as Markdown."""
    import json

    try:
        nb = json.loads(data)
    except ValueError:
        return
    parse_yaml(data)
    for cell in nb.get("cells", []) if isinstance(nb, dict) else []:
        src = cell.get("source", "") if isinstance(cell, dict) else ""
        text = ("".join(src) if isinstance(src, list) else str(src)).encode("utf-8", "replace")
        if b"vllm" not in text and b"VLLM" not in text:
            continue
        if cell.get("cell_type") == "markdown":
            parse_markdown(text)
            continue
        lines = text.splitlines()
        magic = [ln.lstrip()[1:] for ln in lines if ln.lstrip().startswith((b"!", b"%"))]
        if magic:
            parse_shell(b"\n".join(magic))
        parse_python(b"\n".join(b"" if ln.lstrip().startswith((b"!", b"%")) else ln for ln in lines))


def parse_plaintext(data: bytes) -> None:
    """The candidate command lines the plain-text reader finds, each parsed as shell."""
    from vllm_lint.frontends.plaintext import command_lines

    for start, end, _ in command_lines(data):
        parse_shell(data[start:end])


def parse_terraform(data: bytes) -> None:
    """A template's manifest or a ``.tf`` file's heredoc manifests through the YAML parser (after
    the front-end's translation of ``${...}`` / ``%{...}``), the rest as plain text."""
    from vllm_lint.frontends import terraform
    from vllm_lint.frontends.interpolations import interpolations_as_regions

    manifests = [body for body, _emb in terraform._heredocs(data)] or [data]
    for body in manifests:
        if terraform._MANIFEST.search(body):
            parse_yaml(interpolations_as_regions(body)[0])
        else:
            parse_plaintext(body)


def parse_nix(data: bytes) -> None:
    """A NixOS configuration's containers (its sets, their bindings)."""
    from vllm_lint.frontends import nix

    nix.extract(data, "floor.nix")


def parse_javascript(data: bytes) -> None:
    """The code map (strings, comments) and the objects around ``image`` keys of TypeScript / JavaScript."""
    from vllm_lint.frontends import javascript

    javascript.extract(data, "floor.ts")


#: every format the tool reads (``vllm_lint.frontends.base.FORMATS``; tests/tools/test_floor.py)
PARSE = {"shell": parse_shell, "yaml": parse_yaml, "python": parse_python, "dockerfile": parse_dockerfile,
         "markdown": parse_markdown, "json": parse_json, "systemd": parse_systemd, "makefile": parse_makefile,
         "powershell": parse_powershell, "notebook": parse_notebook, "plaintext": parse_plaintext,
         "terraform": parse_terraform, "nix": parse_nix, "javascript": parse_javascript}


def files(root: str) -> list[str]:
    from pathlib import Path

    from vllm_lint.pipeline.discovery import format_by_name

    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        # (a walk reads every file: a name that says no format may still hold a launch)
        out.extend(os.path.join(d, n) for n in sorted(names))
    return out


def one(path: str) -> int:
    from pathlib import Path

    from vllm_lint.frontends.base import format_by_content
    from vllm_lint.pipeline.discovery import format_by_name
    from vllm_lint.pipeline.engine import frontend

    with open(path, "rb") as f:
        data = f.read()
    fmt = format_by_name(Path(path)) or format_by_content(data[:4096] if b"\0" in data[:8192] else data,
                                                          os.path.basename(path))
    if fmt is None or not frontend(fmt).might_contain_launch(data):
        return 0
    PARSE[fmt](data)
    return 1


def _chunk(paths: list[str]) -> int:
    return sum(one(p) for p in paths)


def main() -> None:
    root = sys.argv[1]
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    paths = files(root)
    if jobs <= 1:
        parsed = _chunk(paths)
    else:
        from multiprocessing import get_context

        by_size = sorted(paths, key=lambda p: -os.path.getsize(p))
        chunks = [by_size[i:i + 16] for i in range(0, len(by_size), 16)]
        with get_context("fork").Pool(jobs) as pool:
            parsed = sum(pool.imap_unordered(_chunk, chunks))
    print(f"{len(paths)} files, {parsed} parsed")


if __name__ == "__main__":
    main()
