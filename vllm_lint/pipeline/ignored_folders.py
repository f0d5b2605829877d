"""The folders a repository's ``.gitignore`` files name plainly (``build/``, ``/benchmarks/corpus``,
``node_modules``): what the walks that read a repository for its release (``pipeline.repository``'s
survey, ``pipeline.callers``) leave out, as a clone leaves them out. Generated output, caches
and downloads are not what the repository deploys, and a launch's release must not depend on
them (a checkout with a generated corpus was read otherwise than its fresh clone).

Only plain names are read (no ``*``, ``?``, ``[``, ``\\``): the discovery of the files to lint
honours every pattern with ``pathspec`` (``pipeline.discovery``), whose import costs more than a
one-file lint's whole budget; a file with a negation (``!``) is read as naming nothing, since it
may bring back what a plain line leaves out.
"""

from __future__ import annotations

import os

from ..fsutil import TooLarge, read_regular, relative_path

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

_MAX_BYTES = 256 * 1024  # a larger .gitignore is not read here
_WILD = frozenset("*?[\\")


class IgnoredFolders:
    """The plain folder patterns of each folder's ``.gitignore``, read once per folder (a run's memo)."""

    def __init__(self) -> None:
        # folder -> (names ignored at any depth below it, paths relative to it ignored) or None
        self._rules: dict[str, Optional[tuple[frozenset, frozenset]]] = {}
        self._tails: dict[frozenset, frozenset] = {}  # anchored paths -> their last names (``ignored``)

    def rules(self, folder: str, names: Optional[list] = None) -> Optional[tuple[frozenset, frozenset]]:
        """The folder's own ``.gitignore`` rules (``names`` its listing, when known, saves a read)."""
        if folder in self._rules:
            return self._rules[folder]
        got = None
        if names is None or ".gitignore" in names:
            try:
                text = read_regular(os.path.join(folder, ".gitignore"), _MAX_BYTES).decode("utf-8", errors="replace")
            except (OSError, TooLarge):
                text = ""
            got = plain_rules(text)
        self._rules[folder] = got
        return got

    def root_rules(self, root: str, names: Optional[list] = None) -> list:
        """The (folder, rules) a walk from the repository root ``root`` starts with: its
        ``info/exclude`` (as discovery reads it: a worktree's is its common directory's; anchored
        at the root) and its ``.gitignore``."""
        from .discovery import git_exclude_lines

        out = []
        exclude = plain_rules("\n".join(git_exclude_lines(root)))
        if exclude is not None:
            out.append((root, exclude))
        own = self.rules(root, names)
        if own is not None:
            out.append((root, own))
        return out

    def names_ruled(self, above: list) -> frozenset:
        """The names a folder must have for :meth:`ignored` to leave it out under the rules
        ``above``: those named at any depth, and the last names of the anchored paths. A walk asks
        once for the rules a run of folders shares, and calls :meth:`ignored` only for a folder so
        named (a call per folder was ~4k instructions, most of a folder's walk where none is)."""
        names: set = set()
        for _folder, rules in above:
            if rules is not None:
                anywhere, anchored = rules
                names.update(anywhere)
                names.update(a[a.rfind("/") + 1:] for a in anchored)
        return frozenset(names)

    def ignored(self, path: str, above: list) -> bool:
        """Whether the folder ``path`` is named by the rules of the folders ``above`` it (from the
        walk's root down to its parent), each (folder, rules)."""
        name = path[path.rfind(os.sep) + 1:] if os.altsep is None else os.path.basename(path)
        for folder, rules in above:
            if rules is None:
                continue
            anywhere, anchored = rules
            if name in anywhere:
                return True
            if anchored:  # (a path ending in another name is none of them: no relative path made)
                tails = self._tails.get(anchored)
                if tails is None:
                    tails = self._tails[anchored] = frozenset(a[a.rfind("/") + 1:] for a in anchored)
                if name in tails and relative_path(path, folder).replace(os.sep, "/") in anchored:
                    return True
        return False


def plain_rules(text: str) -> Optional[tuple[frozenset, frozenset]]:
    """(folder names ignored at any depth, paths relative to the file's folder ignored) of a
    ``.gitignore``'s plain lines; None when it has none, or a negation."""
    anywhere, anchored = set(), set()
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            return None
        if _WILD & set(line):
            continue
        line = line.rstrip("/")
        if not line or line in (".", ".."):
            continue
        if "/" in line:
            line = line.lstrip("/")
            if line and ".." not in line.split("/"):
                anchored.add(line)
        else:
            anywhere.add(line)
    if not anywhere and not anchored:
        return None
    return frozenset(anywhere), frozenset(anchored)
