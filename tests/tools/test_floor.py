"""benchmarks/floor.py, the parse-only floor: it reads every format the tool reads (a format added
without a floor parser made it crash with a KeyError on a tree holding one)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import floor  # noqa: E402

SAMPLES = {
    "run.sh": b"vllm serve m --port 8000\n",
    "deploy.yaml": b"kind: Pod\nspec:\n  containers:\n  - args: [vllm, serve, m]\n",
    "app.py": b"from vllm import LLM\nLLM(model='m')\n",
    "Dockerfile": b"FROM vllm/vllm-openai:v0.8.5\nRUN vllm serve m\n",
    "README.md": b"```bash\nvllm serve m\n```\n",
    "pod.json": b'{"kind": "Pod", "spec": {"containers": [{"args": ["vllm", "serve", "m"]}]}}\n',
    "vllm.service": b"[Service]\nExecStart=/usr/bin/vllm serve m \\\n  --port 8000\n",
    "Makefile": b"serve:\n\tvllm serve m --port 8000\n",
    "start.ps1": b"vllm serve m `\n  --port 8000\n",
    "demo.ipynb": b'{"cells": [{"cell_type": "code", "source": ["!vllm serve m\\n", "from vllm import LLM\\n"]},'
                  b' {"cell_type": "markdown", "source": ["```bash\\nvllm serve m\\n```\\n"]}]}\n',
    "job.sbatch.tpl": b"#SBATCH --gres=gpu:1\nsrun vllm serve m --port 8000\n",  # plain text: by content
    "vllm.nix": b'{ c = { image = "vllm/vllm-openai:v0.8.5"; cmd = [ "--port" "8000" ]; }; }\n',
    "index.ts": b"const c = { image: 'vllm/vllm-openai:v0.8.5', args: ['--port', '8000'] };\n",
    "main.tf": b'resource "x" "y" {\n  yaml_body = <<EOT\nkind: Pod\nspec:\n  containers:\n  - args: [vllm, serve, m]\nEOT\n}\n',
}


def test_the_floor_has_a_parser_for_every_format():
    from vllm_lint.frontends.base import FORMATS

    assert sorted(floor.PARSE) == sorted(f.name for f in FORMATS)


def test_the_floor_reads_a_tree_with_every_format(tmp_path):
    from vllm_lint.frontends.base import FORMATS
    from vllm_lint.pipeline.discovery import format_by_name

    for name, data in SAMPLES.items():
        (tmp_path / name).write_bytes(data)
    from vllm_lint.frontends.base import format_by_content

    assert {format_by_name(Path(n)) or format_by_content(SAMPLES[n], n) for n in SAMPLES} == {f.name for f in FORMATS}
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "floor.py"), str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"{len(SAMPLES)} files, {len(SAMPLES)} parsed"
