"""Targeting: the release each launch of a file is checked against (``Targeting.target_for``):
``-t`` / ``target-version``, else the launch's and the file's version hints (an image tag, a
``FROM``, a ``pip install vllm==``), else the project pin (a requirements / constraints file or
pyproject.toml in the file's folder or above it, up to the repository root), else the newest
release in the database (:data:`NEWEST_SOURCE`). A ``--config`` file is forced to the release of
the launch naming it by the engine (``Linter.analyse``'s ``forced``)."""

from __future__ import annotations

import os
import re
from typing import Optional

from ..fsutil import AnyPath, read_regular, real_dir
from ..launch import VersionHint
from ..settings import Settings
from ..surface.db import Database

PIN_FILE_BYTES = 10 * 1024 * 1024  # a larger requirements file or pyproject.toml is not read for a pin

#: ``Targeting.target_for``'s fallback when no release is named (no -t, hint or pin)
NEWEST_SOURCE = "newest release in the database"


class Targeting:
    """How one run chooses releases: ``explicit`` is the release ``-t`` names (resolved in the
    database), else None; the project pins are looked up once per directory."""

    def __init__(self, db: Database, settings: Settings) -> None:
        self.db = db
        self.settings = settings
        self.explicit: Optional[str] = db.resolve_version(settings.target_version) if settings.target_version else None
        self._pins: dict[str, Optional[tuple[str, str]]] = {}
        self._real_dirs: dict[str, str] = {}  # fsutil.real_dir's memo

    def pin_for(self, path: AnyPath) -> Optional[tuple[str, str]]:
        """The project pin of the folder holding the file at ``path`` (``project_pin``)."""
        return self.project_pin(self.real_parent(path))

    def project_pin(self, directory) -> Optional[tuple[str, str]]:
        """The release a requirements / constraints file or pyproject.toml in ``directory`` (a
        real directory, path or string) or an ancestor up to the repository root pins, once per
        directory. Strings, not path objects: every directory of a corpus is asked once."""
        key = str(directory)
        if key in self._pins:
            return self._pins[key]
        found = None
        pin_re = re.compile(r"^\s*vllm(?:\[[^\]]*\])?\s*(==|~=|>=)\s*v?([0-9][0-9a-zA-Z.+]*)", re.M)
        for name in sorted(os.listdir(key)) if os.path.isdir(key) else []:
            if (name.startswith(("requirements", "constraints")) and name.endswith((".txt", ".in"))) or name == "pyproject.toml":
                try:  # (a regular file, bounded: requirements.txt may be a link to /dev/zero)
                    text = read_regular(os.path.join(key, name), PIN_FILE_BYTES).decode("utf-8", errors="replace")
                except OSError:
                    continue
                m = pin_re.search(text) or re.search(r"[\"']vllm(?:\[[^\]]*\])?\s*(==|~=|>=)\s*v?([0-9][0-9a-zA-Z.+]*)", text)
                if m:
                    op, ver = m.group(1), m.group(2)
                    # a range (vllm>=0.10) is not a pin: it names no release
                    v = self.db.floor_version(ver) if op in ("==", "~=") else None
                    if v:
                        found = (v, f"{name} pins vllm{op}{ver}")
                        break
        if found is None and not os.path.exists(os.path.join(key, ".git")):
            parent = os.path.dirname(key)
            if parent != key:
                found = self.project_pin(parent)
        self._pins[key] = found
        return found

    def real_parent(self, path: AnyPath) -> str:
        """``str(path.parent.resolve())``, once per directory (``fsutil.real_dir``; the memo lives as
        long as this object). ``str(path.parent)`` without a path object."""
        return real_dir(os.path.dirname(str(path)) or ".", self._real_dirs)

    def target_for(self, path: AnyPath, hints: list[VersionHint]) -> tuple[str, str]:
        """(release, why) for a launch of the file at ``path`` with version ``hints`` (the launch's
        own first, then the file's)."""
        if self.explicit:
            return self.explicit, self.settings.target_origin or "--target-version"
        for h in hints:
            text = h.version.strip()
            if text.lower() in ("latest", "nightly", "main"):
                return self.db.newest, f"{h.source} '{text}' ({NEWEST_SOURCE})"
            v = self.db.floor_version(text)
            if v is None:  # a local suffix on the release (v0.7.3.self.post1): the release it names
                m = re.match(r"v?(\d+\.\d+(?:\.\d+)?)(?=[.+_-]|$)", text)
                v = self.db.floor_version(m.group(1)) if m else None
            if v:
                return v, f"{h.source} {text}"
        pin = self.pin_for(path)
        if pin:
            return pin
        return self.db.newest, NEWEST_SOURCE
