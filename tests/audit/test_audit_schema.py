"""``vllm_lint/data/audit.schema.json`` (the website's audit-schema page) describes what
``vllm-lint audit --format json`` prints: real output validates against it, and it names every key
the output has."""

from __future__ import annotations

import json

import jsonschema

from vllm_lint.site.reference import SCHEMA_FILE, schema_rows


def test_audit_output_validates_against_the_shipped_schema(run_audit, tmp_path):
    (tmp_path / "serve.sh").write_text("vllm serve m --swap-space 4 --cuda-graph-sizes 8 --port 8000\n")
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.8.5\nENV VLLM_USE_V1=1\n'
                                         'CMD ["--model", "m", "--swap-space", "4"]\n')
    (tmp_path / "broken.yaml").write_text("a: [\n")
    r = run_audit("--from", "0.8.5", "--to", "0.27.1", "--format", "json", str(tmp_path))
    doc = json.loads(r.output)
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc), key=str)
    assert errors == []
    assert doc["summary"]["breaks"] > 0  # the documents exercised findings, not only empty lists

    documented = {row["path"] for row in schema_rows(schema)}

    def keys(node, path=""):
        if isinstance(node, dict):
            for k, v in node.items():
                here = f"{path}.{k}" if path else k
                yield here
                yield from keys(v, here)
        elif isinstance(node, list):
            for v in node:
                yield from keys(v, path + "[]")

    undocumented = {k for k in keys(doc) if k not in documented}
    assert undocumented == set()
