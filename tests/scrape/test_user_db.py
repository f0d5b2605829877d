"""`db update` from an install (no checkout): the new releases go to the user database in the user
data directory, which every command then uses without flags; `db status` says which database is
in use and what it adds; `--db` still wins; every db command takes the index URL. Offline: the
index is tests/local_index.py on 127.0.0.1, serving a synthetic sdist."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from local_index import LocalIndex, synthetic_sdist
from vllm_lint.cli import db_command
from vllm_lint.cli.app import main
from vllm_lint.surface import db as dbmod


@pytest.fixture
def installed(tmp_path, synth_db_path, monkeypatch):
    """vllm-lint as a wheel install sees it: no checkout, the synthetic database shipped, an empty
    user data directory and archive cache."""
    shipped = tmp_path / "site-packages" / "vllm_lint" / "flag_db"
    shutil.copytree(synth_db_path, shipped)
    monkeypatch.setattr(db_command, "_checkout_db_dir", lambda: None)
    monkeypatch.setattr(dbmod, "_shipped_db_dir", lambda: str(shipped))  # what shipped_db_path() answers
    monkeypatch.delenv("VLLM_LINT_DB", raising=False)
    monkeypatch.delenv("VLLM_LINT_PYPI_URL", raising=False)
    monkeypatch.setenv("VLLM_LINT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("VLLM_LINT_NO_CACHE", "1")
    return shipped


def cli(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_update_from_an_install_lands_in_the_user_database(installed, tmp_path):
    user = tmp_path / "data" / "flag_db"
    (tmp_path / "serve.sh").write_text("vllm serve m --all2all-backend mori_high_throughput\n")
    with LocalIndex({"0.27.1": b"not used", "0.35.0": synthetic_sdist("0.35.0")}) as index:
        r = cli("db", "status")
        assert r.exit_code == 0 and "shipped with vllm-lint" in r.output and "0.8.5 to 0.27.1" in r.output
        r = cli("db", "status", "--online", "--index-url", index.url)
        assert r.exit_code == 1 and "0.35.0" in r.output and "db update" in r.output
        r = cli("db", "update", "--index-url", index.url)
        assert r.exit_code == 0, r.output
        assert sorted(p.name for p in (user / "releases").iterdir()) == ["0.35.0.json"]
        assert not (installed / "releases" / "0.35.0.json").exists()  # the shipped files stay as shipped
        asked = len(index.requests)
        # every command picks the user database up, without flags
        r = cli("db", "status", "--format", "json")
        info = json.loads(r.output)
        assert info["which"] == "user" and info["adds"] == ["0.35.0"] and info["newest"] == "0.35.0"
        assert info["releases"] == 4 and info["path"] == str(user)
        r = cli("db", "status")
        assert "the user database" in r.output and "adds 0.35.0" in r.output
        r = cli(str(tmp_path / "serve.sh"), "-t", "0.35.0", "--output-format", "concise")
        assert "0.35.0" in r.output and "is not in the flag database" not in r.output, r.output
        r = cli(str(tmp_path / "serve.sh"), "-t", "0.10.0", "--output-format", "concise")
        assert "VL106" in r.output  # a shipped release, read through the user database
        assert len(index.requests) == asked  # a lint never reaches the index
        # a second update has nothing to do
        r = cli("db", "update", "--index-url", index.url)
        assert r.exit_code == 0 and "nothing to do" in r.output
    # --db (and VLLM_LINT_DB) still override
    r = cli("db", "status", "--db", str(installed), "--format", "json")
    assert json.loads(r.output)["newest"] == "0.27.1"


def test_a_user_database_over_another_shipped_one_is_not_used(installed, tmp_path):
    """After vllm-lint is upgraded, the user database was compiled over another shipped database:
    it is set aside (the shipped one is used, `db status` says why) until `db update` rebuilds it;
    a release the new shipped database has is taken from it."""
    with LocalIndex({"0.35.0": synthetic_sdist("0.35.0")}) as index:
        assert cli("db", "update", "--index-url", index.url).exit_code == 0
        # the upgrade ships 0.35.0 itself
        shutil.copy(tmp_path / "data" / "flag_db" / "releases" / "0.35.0.json", installed / "releases")
        dbmod.compile_index(installed)
        r = cli("db", "status")
        assert "shipped with vllm-lint" in r.output and "from an older vllm-lint" in r.output
        r = cli("db", "update", "--index-url", index.url)
        assert "removed from" in r.output and r.exit_code == 0
    assert list((tmp_path / "data" / "flag_db" / "releases").iterdir()) == []
    # rebuilt over the new shipped database: every release from it, nothing added
    info = json.loads(cli("db", "status", "--format", "json").output)
    assert info["which"] == "user" and info["adds"] == [] and info["newest"] == "0.35.0" and info["releases"] == 4


def test_every_db_command_takes_the_index_url(installed, tmp_path, monkeypatch):
    with LocalIndex({"0.35.0": synthetic_sdist("0.35.0")}) as index:
        monkeypatch.setenv("VLLM_LINT_PYPI_URL", index.url)  # the variable, for every command
        r = cli("db", "build", "--versions", "0.35.0", "--db-dir", str(tmp_path / "mirror-db"))
        assert r.exit_code == 0, r.output
        assert (tmp_path / "mirror-db" / "releases" / "0.35.0.json").is_file()
        assert any(p.startswith("/packages/vllm-0.35.0") for p in index.requests)
        # an index without vllm: one line naming it, no traceback
        wrong = index.url.replace("/vllm/", "/vllm-nope/")
        r = cli("db", "update", "--index-url", wrong)
        assert r.exit_code == 2 and wrong in r.output and "Traceback" not in r.output


def test_a_download_larger_than_declared_is_refused(installed, tmp_path):
    sdist = synthetic_sdist("0.35.0")
    with LocalIndex({"0.35.0": sdist}, declared_sizes={"0.35.0": 1000}) as index:
        r = cli("db", "update", "--index-url", index.url)
    assert r.exit_code == 1 and "larger than the 1000 bytes the index declares" in r.output
    assert not (tmp_path / "data" / "flag_db" / "releases" / "0.35.0.json").exists()


def test_db_add_a_source_tree_under_a_name(installed, tmp_path):
    """`db add` builds a release from an unpacked source tree (or a checkout at a ref) under the
    name the user gives; lint and -t accept it; the default target stays the newest release."""
    import subprocess

    from local_index import FIXTURES

    tree = tmp_path / "vllm-src"
    shutil.copytree(FIXTURES / "era_0_33", tree)
    (tmp_path / "serve.sh").write_text("vllm serve m --all2all-backend bogus\n")
    r = cli("db", "add", str(tree), "--name", "0.35.0.dev0+g1a2b3c")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "data" / "flag_db" / "releases" / "0.35.0.dev0+g1a2b3c.json").is_file()
    r = cli(str(tmp_path / "serve.sh"), "-t", "0.35.0.dev0+g1a2b3c", "--output-format", "concise")
    assert "`bogus` for `--all2all-backend` at vLLM 0.35.0.dev0+g1a2b3c" in r.output, r.output
    r = cli("db", "status", "--format", "json")
    info = json.loads(r.output)
    assert info["adds"] == ["0.35.0.dev0+g1a2b3c"] and info["newest"] == "0.27.1"
    # a checkout at a ref: the tree as committed there, not as it is on disk
    subprocess.run(["git", "init", "-q", str(tree)], check=True)
    subprocess.run(["git", "-C", str(tree), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(tree), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"], check=True)
    (tree / "vllm" / "engine" / "arg_utils.py").write_text("this is not python (\n")
    r = cli("db", "add", str(tree), "--name", "0.35.0.dev1", "--ref", "HEAD")
    assert r.exit_code == 0, r.output
    r = cli("db", "add", str(tree), "--name", "0.35.0.dev2", "--ref", "no-such-ref")
    assert r.exit_code == 1 and "no-such-ref" in r.output and "Traceback" not in r.output
    # bad input: one line each
    r = cli("db", "add", str(tree), "--name", "not a version")
    assert r.exit_code == 2 and "PEP 440" in r.output
    r = cli("db", "add", str(tmp_path), "--name", "0.35.0.dev3")
    assert r.exit_code == 1 and "no vllm/ package" in r.output
