"""The parse-only floor: what any linter built on the same parsers must spend on the same files.

Per file: read the bytes, apply the front-end's own byte pre-filter, and parse what passes with
the parser that front-end uses: tree-sitter-bash (shell), PyYAML's C ``compose_all`` after the
same template filling (YAML), ``ast.parse`` (Python), the Dockerfile instruction splitter plus
tree-sitter-bash on RUN/CMD/ENTRYPOINT text that mentions vLLM, and the Markdown fence scanner
plus the matching parser on fenced blocks that mention vLLM. No extraction, no database, no rules.

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


PARSE = {"shell": parse_shell, "yaml": parse_yaml, "python": parse_python, "dockerfile": parse_dockerfile,
         "markdown": parse_markdown}


def files(root: str) -> list[str]:
    from pathlib import Path

    from vllm_lint.pipeline.discovery import format_by_name

    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for n in sorted(names):
            if format_by_name(Path(n)) is not None:
                out.append(os.path.join(d, n))
    return out


def one(path: str) -> int:
    from pathlib import Path

    from vllm_lint.pipeline.discovery import format_by_name
    from vllm_lint.pipeline.engine import frontend

    with open(path, "rb") as f:
        data = f.read()
    fmt = format_by_name(Path(path))
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
