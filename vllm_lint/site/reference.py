"""The reference pages' content: the configuration settings (from ``settings``) and the audit's
JSON schema (``vllm_lint/data/audit.schema.json``, which the audit tests validate output against)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA_FILE = Path(__file__).resolve().parents[1] / "data" / "audit.schema.json"


def configuration() -> list[dict[str, Any]]:
    """``[{"key", "type", "default", "description"}]`` for every ``[tool.vllm-lint]`` setting."""
    from .. import settings

    defaults = settings.Settings()
    out = []
    names = {"string": "string", "array": "list of strings", "codes-table": "table", "severity-table": "table",
             "integer": "integer", "number": "number", "boolean": "boolean"}
    for key, spec in settings.SETTINGS.items():
        out.append({"key": key, "type": names[spec.type],
                    "default": getattr(defaults, key.replace("-", "_"), None),
                    "description": settings.DESCRIPTIONS[key]})
    return out


def audit_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def schema_rows(schema: dict[str, Any]) -> list[dict[str, str]]:
    """Every property of the schema, depth first: ``{"path", "type", "description"}``."""
    defs = schema.get("$defs", {})
    rows: list[dict[str, str]] = []

    def walk(node: dict[str, Any], path: str, seen: tuple[str, ...]) -> None:
        ref = node.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name in seen:
                return
            node, seen = defs[name], seen + (name,)
        for key, sub in (node.get("properties") or {}).items():
            target = sub
            if "$ref" in sub:
                target = defs[sub["$ref"].rsplit("/", 1)[-1]]
            here = f"{path}.{key}" if path else key
            rows.append({"path": here, "type": _type(sub, defs), "description": sub.get("description")
                         or target.get("description", "")})
            if target.get("type") == "object" or "properties" in target:
                walk(sub, here, seen)
            items = target.get("items")
            if isinstance(items, dict):
                walk(items, here + "[]", seen)

    walk(schema, "", ())
    return rows


def _type(node: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in node:
        return node["$ref"].rsplit("/", 1)[-1]
    if "const" in node:
        return json.dumps(node["const"])
    if "enum" in node:
        return " | ".join(json.dumps(v) for v in node["enum"])
    t = node.get("type")
    if t == "array":
        items = node.get("items") or {}
        return f"array of {_type(items, defs) if items else 'any'}"
    if isinstance(t, list):
        return " | ".join(t)
    return t or "any"
