"""Expected output kept in files (snapshots): compared byte for byte, rewritten by ``--regen``.

    def test_x(snapshot):
        snapshot(Path("expected/x.txt"), actual_bytes_or_text)   # None: the file must not exist

``python -m pytest tests/rules tests/e2e --regen`` writes every snapshot the selected tests produce
(and deletes those a test says must not exist) instead of comparing; review the diff before
committing it (``git diff tests/``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

import pytest

Content = Union[str, bytes, None]


def _as_bytes(content: Content) -> Optional[bytes]:
    return content.encode("utf-8") if isinstance(content, str) else content


def check(path: Path, actual: Content, regen: bool) -> None:
    want = _as_bytes(actual)
    if regen:
        if want is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.is_file() or path.read_bytes() != want:
                path.write_bytes(want)
        return
    if want is None:
        assert not path.exists(), f"{path} is stale (nothing to compare it with): run pytest with --regen"
        return
    if not path.is_file():
        pytest.fail(f"no snapshot {path}: run this test with --regen, then review what it wrote", pytrace=False)
    got = path.read_bytes()
    if got != want:
        # compared as text so that pytest shows a line diff; then as bytes (line ends, BOMs)
        assert want.decode("utf-8", "replace") == got.decode("utf-8", "replace"), \
            f"{path} differs (run with --regen to accept the new output, then review the diff)"
        assert want == got, f"{path} differs in its bytes (line ends?)"
