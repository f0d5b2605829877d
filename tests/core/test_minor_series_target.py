"""A two-part release number the user writes (``0.10``) means the newest release of that series
(0.10.2 here), at every entry point that takes one: ``-t``, ``target-version``, ``flags list
--version`` and ``audit --from/--to``. PEP 440 equality alone reads ``0.10`` as 0.10.0. A pin
in a requirements file is read the way pip reads it: ``vllm==0.10`` is 0.10.0."""

from __future__ import annotations

import json

import pytest
import synthetic_db

ONLY_IN_0102 = "--only-in-0-10-2"


@pytest.fixture(scope="module")
def series_db(tmp_path_factory):
    """The synthetic database plus 0.10.2: 0.10.0 with one more option."""
    db = synthetic_db.build(tmp_path_factory.mktemp("series-db"))
    rec = json.loads((db / "releases" / "0.10.0.json").read_text())
    rec["version"] = "0.10.2"
    rec["options"] = sorted(rec["options"] + [synthetic_db.opt(ONLY_IN_0102, type="int")], key=lambda o: o["name"])
    synthetic_db.write_json(db / "releases" / "0.10.2.json", rec)
    synthetic_db.compile_index(db)
    return db


@pytest.fixture
def cli(series_db, monkeypatch):
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(series_db))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")

    def run(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return run


def _targets(r):
    assert r.exit_code in (0, 1), r.output
    return {(d["code"], d.get("target_version")) for d in json.loads(r.stdout)}


def test_database_resolves_a_series_to_its_newest(series_db):
    from vllm_lint.surface.db import Database

    db = Database(series_db)
    assert db.resolve_version("0.10") == "0.10.2"
    assert db.resolve_version("v0.10") == "0.10.2"
    assert db.resolve_version("0.10.0") == "0.10.0"
    assert db.floor_version("0.10") == "0.10.0"  # a pin: pip reads ==0.10 as 0.10.0


def test_target_option(cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text(f"vllm serve m {ONLY_IN_0102} 1\n")
    assert _targets(cli("--output-format", "json", "-t", "0.10", str(p))) == set()
    assert ("VL104", "0.10.0") in _targets(cli("--output-format", "json", "-t", "0.10.0", str(p)))


def test_target_version_setting(cli, tmp_path):
    (tmp_path / ".vllm-lint.toml").write_text('target-version = "0.10"\n')
    p = tmp_path / "a.sh"
    p.write_text(f"vllm serve m {ONLY_IN_0102} 1 --swap-space 4\n")
    r = cli("--output-format", "json", "-v", str(p))
    assert _targets(r) == set(), r.output
    assert "checked against vLLM 0.10.2" in r.stderr


def test_requirements_pin_keeps_pip_meaning(cli, tmp_path):
    (tmp_path / "requirements.txt").write_text("vllm==0.10\n")
    p = tmp_path / "a.sh"
    p.write_text(f"vllm serve m {ONLY_IN_0102} 1\n")
    assert ("VL104", "0.10.0") in _targets(cli("--output-format", "json", str(p)))


def test_flags_list_version(cli):
    r = cli("flags", "list", "--version", "0.10", "--format", "json")
    assert r.exit_code == 0, r.output
    assert ONLY_IN_0102 in r.output
    r = cli("flags", "list", "--version", "0.10.0", "--format", "json")
    assert r.exit_code == 0 and ONLY_IN_0102 not in r.output


@pytest.mark.parametrize("end", ["--from", "--to"])
def test_audit_from_and_to(cli, tmp_path, end):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m --port 1\n")
    other = ("--to", "0.27.1") if end == "--from" else ("--from", "0.8.5")
    r = cli("audit", end, "0.10", *other, "--format", "json", str(p))
    assert r.exit_code in (0, 1), r.output
    assert json.loads(r.stdout)[end[2:]] == "0.10.2"
