"""tools/release_train.py, offline: a local package index (tests/local_index.py) serves a synthetic
sdist of a release the database lacks; the script updates a copy of the synthetic database,
runs the cross-check command per new release (a stand-in here: the real one builds vLLM's parser
in a venv) and writes the pull request's description."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from local_index import LocalIndex, synthetic_sdist

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "tools" / "release_train.py"

# a value deprecated in favour of another, in the fixture's own docstring words
DEPRECATING = {"vllm/config/parallel.py": ('    """All2All backend."""\n',
                                           '    """All2All backend:\n\n'
                                           '    - "naive": the simple one (deprecated; use "allgather_reducescatter")\n'
                                           '    - "allgather_reducescatter": gather, then scatter\n    """\n')}


def fake_crosscheck(tmp_path: Path, agree: bool) -> str:
    """A cross-check command writing run.py's JSON shape: full agreement, or one default off."""
    script = tmp_path / "fake_xc.py"
    script.write_text(
        "import json, sys\n"
        "version, out = sys.argv[1], sys.argv[2]\n"
        f"bad = {0 if agree else 1}\n"
        "json.dump({version: {'strings': {'agree': 40, 'real': 40, 'db': 40, 'only_real': [], 'only_db': []},\n"
        "  'defaults': {'agree': 30 - bad, 'checked': 30}, 'choices': {'agree': 3, 'checked': 3},\n"
        "  'choice_probes': {'agree': 3, 'checked': 3}, 'types': {'agree': 5, 'checked': 5},\n"
        "  'positionals': {'db': ['model_tag'], 'real': ['model_tag']}, 'choices_missing_in_db': {}}},\n"
        "  open(out, 'w'))\n")
    return f"{{python}} {script} {{version}} {{json}}"


@pytest.fixture
def area(tmp_path, synth_db_path, monkeypatch):
    db = tmp_path / "flag_db"
    shutil.copytree(synth_db_path, db)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("VLLM_LINT_DB", raising=False)
    out = tmp_path / "github-output"
    monkeypatch.setenv("GITHUB_OUTPUT", str(out))
    return db, out


def run(db: Path, url: str, tmp_path: Path, crosscheck: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--db-dir", str(db), "--index-url", url,
                           "--work", str(tmp_path / "work"), "--crosscheck", crosscheck,
                           "--body", str(tmp_path / "body.md")], capture_output=True, text=True, timeout=600)


def test_a_new_release_lands_with_its_diff_in_words_and_the_crosscheck_figures(area, tmp_path):
    db, out = area
    before = {p.name: p.read_bytes() for p in (db / "releases").iterdir()}
    with LocalIndex({"0.27.1": b"never fetched", "0.35.0": synthetic_sdist("0.35.0", edits=DEPRECATING)}) as index:
        r = run(db, index.url, tmp_path, fake_crosscheck(tmp_path, agree=True))
        assert r.returncode == 0, r.stderr
        assert not any("0.27.1" in p for p in index.requests)
    assert (db / "releases" / "0.35.0.json").is_file()
    assert all((db / "releases" / name).read_bytes() == data for name, data in before.items())
    text = (tmp_path / "body.md").read_text()
    assert "## vLLM 0.35.0 (from 0.27.1)" in text
    assert "**Removed options**" in text and "**New options**" in text
    assert "**Newly deprecated values** (1)\n- `--all2all-backend naive` in favour of `allgather_reducescatter`" in text
    assert "Cross-check against the real `vllm serve` parser: agrees (option strings 40/40, defaults 30/30" in text
    assert "Existing release files: byte-identical." in text
    assert "new_releases=0.35.0\n" in out.read_text() and "title=flag_db: vLLM 0.35.0\n" in out.read_text()
    # the next run has nothing to do, and says so to the workflow
    with LocalIndex({"0.35.0": synthetic_sdist("0.35.0", edits=DEPRECATING)}) as index:
        r = run(db, index.url, tmp_path, fake_crosscheck(tmp_path, agree=True))
    assert r.returncode == 0 and "already has every release" in r.stderr
    assert out.read_text().endswith("new_releases=\ntitle=\n")


def test_a_disagreement_with_the_real_parser_opens_no_pull_request(area, tmp_path):
    db, out = area
    with LocalIndex({"0.35.0": synthetic_sdist("0.35.0")}) as index:
        r = run(db, index.url, tmp_path, fake_crosscheck(tmp_path, agree=False))
    assert r.returncode == 1, r.stderr
    text = (tmp_path / "body.md").read_text()
    assert "**disagrees**: defaults: 1 disagree" in text
    assert out.read_text() == "new_releases=\ntitle=\n"
    # a cross-check that cannot run is a failure too, never a silent pass
    (db / "releases" / "0.35.0.json").unlink()
    with LocalIndex({"0.35.0": synthetic_sdist("0.35.0")}) as index:
        r = run(db, index.url, tmp_path, "{python} -c 'raise SystemExit(3)'")
    assert r.returncode == 1 and "the cross-check failed (exit 3)" in (tmp_path / "body.md").read_text()
