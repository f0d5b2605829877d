"""PowerShell scripts (``*.ps1``, ``*.psm1``): vLLM launches on Windows hosts (``docker run ...
vllm/vllm-openai``, ``vllm serve`` in a venv), read as shell after a same-length translation:

* a backslash (PowerShell's path separator, never an escape) becomes ``/``, so that a program
  called by path (``C:\\venv\\Scripts\\vllm.exe serve``) is known by its base name as in shell;
* a backtick that ends a line (PowerShell's continuation) becomes ``\\``, so a command continued
  over lines is one command, and a backtick followed by spaces before the line end becomes ``\\``
  + spaces: the broken continuation that VL109 reports, as in shell;
* any other backtick (PowerShell's escape character) becomes ``\\``;
* ``<# ... #>`` block comments become spaces.

Offsets are the file's, so findings point at the words and fixes edit them. ``$env:NAME`` and
``$var`` are unknown values (opaque), as shell variables are. ``#`` comments hold suppression
comments as in shell.
"""

from __future__ import annotations

from vllm_lint.frontends.delimited import delimited

from vllm_lint.launch import Extraction

FORMAT = "powershell"
SUFFIXES = (".ps1", ".psm1")

__all__ = ["FORMAT", "SUFFIXES", "might_contain_launch", "extract", "as_shell"]

_BLANK = bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))  # all but line breaks -> ' '


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data


def as_shell(data: bytes) -> bytes:
    """``data`` translated to shell, byte for byte (see the module docstring)."""
    out = bytearray(data)
    for s, e in delimited(data, b"<#", b"#>"):  # block comments, blanked
        out[s:e] = data[s:e].translate(_BLANK)
    return bytes(out).replace(b"\\", b"/").replace(b"`", b"\\")


def extract(data: bytes, path: str) -> Extraction:
    from vllm_lint.frontends import shell

    return shell.extract_script(as_shell(data), path)
