"""JSON-RPC messages as they go over the server's stdio (the base protocol's header and body)."""

from __future__ import annotations

import json
from typing import Any


def frame(message: dict[str, Any]) -> bytes:
    """A JSON-RPC message with its header (ASCII JSON: the byte length is the string's)."""
    body = json.dumps(message, separators=(",", ":"))
    return f"Content-Length: {len(body)}\r\n\r\n{body}".encode("ascii")
