"""systemd unit files (``*.service``): each ``ExecStart=`` command line is a launch, with the
unit's ``Environment=`` assignments as its environment (systemd starts the service with its own
environment, not a shell's exports). Offsets are 1:1 into the file; ``\\``-continued lines are one
command line. The reading is the one the shell front-end gives a unit written by a heredoc
(:func:`vllm_lint.frontends.shell.extract_unit`). ``#`` and ``;`` start comment lines, so
suppression comments work as in shell.
"""

from __future__ import annotations

from vllm_lint.launch import Extraction

FORMAT = "systemd"
SUFFIXES = (".service",)

__all__ = ["FORMAT", "SUFFIXES", "might_contain_launch", "extract"]


def might_contain_launch(data: bytes) -> bool:
    return b"ExecStart" in data and (b"vllm" in data or b"VLLM_" in data)


def comment_placements(lines: list[bytes], idx: int) -> list[int]:
    """No row takes a trailing comment: after a unit's value a ``#`` is part of the value (it
    would reach vLLM); a suppression goes on its own line above."""
    return []


def extract(data: bytes, path: str) -> Extraction:
    from vllm_lint.frontends import shell

    return shell.extract_unit(data, path)
