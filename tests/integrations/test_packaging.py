"""Packaging: the wheel builds, installs into a clean virtualenv (dependencies from the
machine's package index), and works from outside the repository; ``python -m vllm_lint`` works.
The wheel test takes about 40 s (build ~10 s, venv + dependencies ~30 s): marked slow, in the
default run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from integration_data import REPO, copy_tree


def test_python_m(synth_db_path, tmp_path):
    env = {**os.environ, "VLLM_LINT_DB": str(synth_db_path), "VLLM_LINT_NO_CACHE": "1"}
    r = subprocess.run([sys.executable, "-m", "vllm_lint", "--version"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("vllm-lint ") and "0.8.5 to 0.27.1" in r.stdout
    (tmp_path / "a.sh").write_text("vllm serve m --swap-space 4\n")
    r = subprocess.run([sys.executable, "-m", "vllm_lint", "-t", "0.27.1", "a.sh"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and "a.sh:1:14: VL101" in r.stdout


def test_shell_completion_script(synth_db_path, tmp_path):
    exe = Path(sys.executable).parent / "vllm-lint"
    if not exe.exists():
        pytest.skip("console script not installed")
    env = {**os.environ, "_VLLM_LINT_COMPLETE": "bash_source"}
    r = subprocess.run([str(exe)], env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0 and "_vllm_lint_completion" in r.stdout and "complete " in r.stdout


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_repository(tmp_path, synth_db_path):
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    src = tmp_path / "vllm-lint-checkout"  # (a directory named 'src' confuses setuptools' bdist_wheel)
    copy_tree(src)
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
                   check=True, timeout=600, capture_output=True)
    wheels = list(dist.glob("vllm_lint-*.whl"))
    assert len(wheels) == 1
    import zipfile

    names = set(zipfile.ZipFile(wheels[0]).namelist())
    shipped = {f"vllm_lint/flag_db/releases/{p.name}" for p in (src / "flag_db" / "releases").glob("*.json")}
    assert shipped <= names, "the wheel must carry every release of the database"
    assert "vllm_lint/report/sarif.py" in names and "vllm_lint/py.typed" in names
    assert {"vllm_lint/site/static/style.css", "vllm_lint/site/static/search.js",
            "vllm_lint/data/audit.schema.json"} <= names, "the site's assets are package data"

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheels[0])], check=True, timeout=900,
                   capture_output=True)
    exe = py.parent / "vllm-lint"
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("VLLM_LINT_DB", "PYTHONPATH", "VIRTUAL_ENV")}
    env["VLLM_LINT_NO_CACHE"] = "1"
    r = subprocess.run([str(exe), "--version"], cwd=outside, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.startswith("vllm-lint 0.1.0 (flag database:"), r.stdout + r.stderr
    # the installed package, not the checkout
    r = subprocess.run([str(py), "-c", "import vllm_lint; print(vllm_lint.__file__)"], cwd=outside, env=env,
                       capture_output=True, text=True, timeout=60)
    assert str(venv) in r.stdout
    if (src / "flag_db" / "index.json").is_file():  # the shipped database is compiled
        newest = json.loads((src / "flag_db" / "index.json").read_text())["versions"][-1]
    else:  # not compiled in this checkout yet: check the command with the synthetic one
        env["VLLM_LINT_DB"] = str(synth_db_path)
        newest = "0.27.1"
    r = subprocess.run([str(exe), "flags", "list", "--version", newest], cwd=outside, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"vLLM {newest}: ") and "--tensor-parallel-size" in r.stdout
    r = subprocess.run([str(py), "-m", "vllm_lint", "rule", "VL101"], cwd=outside, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "removed-option" in r.stdout
    # the language server runs from the wheel: initialize, open a launch, get its findings
    sys.path.insert(0, str(REPO / "benchmarks"))
    from lsp import Client

    script = outside / "serve.sh"
    text = "vllm serve m --swap-space 8\n"
    script.write_text(text)
    c = Client([str(exe), "server", "--debounce", "0"], cwd=outside, env=env)
    c.send("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, request=True)
    c.wait(lambda m: m.get("id") == 1)
    c.send("initialized", {})
    c.send("textDocument/didOpen", {"textDocument": {"uri": script.as_uri(), "languageId": "shellscript",
                                                     "version": 1, "text": text}})
    msg = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    c.close()
    assert [d["code"] for d in msg["params"]["diagnostics"]] == ["VL101"]
    site = outside / "site"
    r = subprocess.run([str(exe), "site", "build", str(site)], cwd=outside, env=env, capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert (site / "options" / "tensor-parallel-size" / "index.html").is_file()
    assert (site / "static" / "style.css").is_file() and (site / "rules" / "VL101" / "index.html").is_file()
