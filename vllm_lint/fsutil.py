"""File-system helpers shared by the engine and the knowledge modules."""

from __future__ import annotations

import os
from typing import Union

AnyPath = Union[str, "os.PathLike[str]"]  # a file's path: a string on the lint path, or a path object


def real_dir(d: str, memo: dict[str, str]) -> str:
    """``os.path.realpath(d)`` for a directory, remembered in ``memo``. A realpath costs an lstat
    per path component; built from the parent's remembered real path, a directory costs one lstat
    (is it a symbolic link?) the first time it is seen. Strings throughout."""
    got = memo.get(d)
    if got is None:
        head, tail = os.path.split(d)
        if not head or head == d or tail in ("", ".", ".."):
            got = os.path.realpath(d)
        else:
            got = os.path.join(real_dir(head, memo), tail)
            if os.path.islink(got):
                got = os.path.realpath(got)
        memo[d] = got
    return got
