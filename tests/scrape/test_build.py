"""Database build/update orchestration and the ``db`` CLI group (offline, stub extractor)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from vllm_lint.scrape import build as B
from vllm_lint.scrape.sources import NetworkError, NotFoundError
from vllm_lint.scrape.tree import DictTree


class FakeSource:
    """Each version's tree holds one file whose content the stub extractor echoes."""

    kind = "fake"

    def __init__(self, versions: list[str], broken: tuple[str, ...] = (), unreachable: tuple[str, ...] = ()):
        self._versions = versions
        self.broken = broken
        self.unreachable = unreachable
        self.notes: list[str] = []

    def versions(self) -> list[str]:
        return list(self._versions)

    def fetch(self, version: str) -> tuple[DictTree, dict]:
        if version in self.unreachable:
            raise NetworkError(f"cannot reach https://example/{version} after 5 attempts: connection failed")
        if version not in self._versions:
            raise NotFoundError(f"vllm {version} is not on PyPI")
        body = b"BROKEN" if version in self.broken else f"flags for {version}".encode()
        return DictTree({"vllm/engine/arg_utils.py": body}), {"kind": "sdist", "archive": f"vllm-{version}.tar.gz",
                                                              "sha256": "0" * 64}


def stub_extract(tree: Any, version: str, source: dict) -> dict:
    body = tree.read("vllm/engine/arg_utils.py")
    if body == b"BROKEN":
        raise SyntaxError("cannot parse vllm/engine/arg_utils.py line 3")
    # unsorted keys and non-ASCII on purpose: the writer must canonicalise
    return {"version": version, "schema": 1, "source": source, "era": {"entry": "x"},
            "options": [{"name": "--tensor-parallel-size", "aliases": ["-tp"], "default": 1,
                         "help_free_note": "µ"}],
            "env": {}, "positionals": []}


VERSIONS = ["0.3.9", "0.4.0", "0.4.0.post1", "0.8.5", "0.10.2", "0.33.0"]


def test_select_versions() -> None:
    avail = VERSIONS + ["not-a-version"]
    assert B.select_versions(avail) == ["0.4.0", "0.4.0.post1", "0.8.5", "0.10.2", "0.33.0"]
    assert B.select_versions(avail, ">=0.4.0,<=0.8.5") == ["0.4.0", "0.4.0.post1", "0.8.5"]
    assert B.select_versions(avail, ">=0.4.0.post1, <0.10") == ["0.4.0.post1", "0.8.5"]
    assert B.select_versions(avail, ">0.4.0") == ["0.8.5", "0.10.2", "0.33.0"]  # PEP 440: no .post of 0.4.0
    assert B.select_versions(avail, "0.33.0,0.8.5") == ["0.8.5", "0.33.0"]
    assert B.select_versions(avail, ["0.10.2"]) == ["0.10.2"]
    assert B.select_versions(avail, "0.3.9") == ["0.3.9"]  # explicit versions ignore the floor
    with pytest.raises(B.VersionSpecError, match="0.9.9"):
        B.select_versions(avail, "0.8.5,0.9.9")
    with pytest.raises(B.VersionSpecError, match="invalid"):
        B.select_versions(avail, ">>0.4")


def test_build_writes_canonical_deterministic_files(tmp_path: Path) -> None:
    src = FakeSource(VERSIONS)
    res = B.build(src, None, tmp_path, jobs=1, extractor=stub_extract, index=False)
    assert res.ok and [r.version for r in res.releases] == ["0.4.0", "0.4.0.post1", "0.8.5", "0.10.2", "0.33.0"]
    p = tmp_path / "releases" / "0.8.5.json"
    first = p.read_bytes()
    assert first.endswith(b"}\n") and "µ".encode() in first
    doc = json.loads(first)
    assert list(doc) == sorted(doc)
    assert first == (json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()
    assert not (tmp_path / "releases" / "0.3.9.json").exists()
    mtime = p.stat().st_mtime_ns
    res2 = B.build(src, None, tmp_path, jobs=1, extractor=stub_extract, index=False)
    assert p.read_bytes() == first and p.stat().st_mtime_ns == mtime  # unchanged file untouched
    assert not any(r.changed for r in res2.releases)
    assert sorted(os.listdir(tmp_path / "releases")) == sorted(f"{v}.json" for v in VERSIONS[1:])


def test_failed_release_does_not_land_and_others_do(tmp_path: Path) -> None:
    (tmp_path / "releases").mkdir()
    old = b'{"previous": true}\n'
    (tmp_path / "releases" / "0.8.5.json").write_bytes(old)
    src = FakeSource(VERSIONS, broken=("0.8.5",), unreachable=("0.10.2",))
    seen: list[str] = []
    res = B.build(src, None, tmp_path, jobs=1, extractor=stub_extract, index=False,
                  progress=lambda r: seen.append(r.version))
    assert sorted(seen) == sorted(["0.4.0", "0.4.0.post1", "0.8.5", "0.10.2", "0.33.0"])
    failed = {r.version: r.reason for r in res.failed}
    assert set(failed) == {"0.8.5", "0.10.2"}
    assert failed["0.8.5"].startswith("SyntaxError: cannot parse")
    assert failed["0.10.2"].startswith("cannot reach")  # source errors are already user-facing
    assert all("\n" not in r for r in failed.values())
    assert (tmp_path / "releases" / "0.8.5.json").read_bytes() == old  # not clobbered
    assert not (tmp_path / "releases" / "0.10.2.json").exists()
    assert (tmp_path / "releases" / "0.33.0.json").exists()
    assert not res.ok


def test_invalid_records_are_rejected(tmp_path: Path) -> None:
    def wrong_version(tree: Any, version: str, source: dict) -> dict:
        return {**stub_extract(tree, version, source), "version": "9.9.9"}

    def no_options(tree: Any, version: str, source: dict) -> dict:
        return {**stub_extract(tree, version, source), "options": []}

    for ex, msg in [(wrong_version, "version"), (no_options, "no options")]:
        res = B.build(FakeSource(["0.8.5"]), None, tmp_path, jobs=1, extractor=ex, index=False)
        assert not res.ok and msg in res.failed[0].reason
    assert not (tmp_path / "releases" / "0.8.5.json").exists()


def test_atomic_write_leaves_nothing_behind_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dest = tmp_path / "releases" / "0.8.5.json"
    dest.parent.mkdir()
    dest.write_bytes(b"old\n")

    def boom(a: Any, b: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(B.os, "replace", boom)
    res = B.build_one(FakeSource(["0.8.5"]), "0.8.5", tmp_path, stub_extract)
    assert not res.ok and "No space left" in res.reason
    assert dest.read_bytes() == b"old\n"
    assert os.listdir(dest.parent) == ["0.8.5.json"]  # no temp file left


def test_parallel_build_matches_serial(tmp_path: Path) -> None:
    src = FakeSource(VERSIONS, broken=("0.4.0",))
    serial, parallel = tmp_path / "s", tmp_path / "p"
    r1 = B.build(src, None, serial, jobs=1, extractor=stub_extract, index=False)
    r2 = B.build(src, None, parallel, jobs=2, extractor=stub_extract, index=False)
    assert [(r.version, r.ok) for r in r1.releases] == [(r.version, r.ok) for r in r2.releases]
    for f in sorted(os.listdir(serial / "releases")):
        assert (serial / "releases" / f).read_bytes() == (parallel / "releases" / f).read_bytes()
    assert sorted(os.listdir(serial / "releases")) == sorted(os.listdir(parallel / "releases"))


def test_update_scrapes_only_newer_releases(tmp_path: Path) -> None:
    B.build(FakeSource(VERSIONS[:4]), None, tmp_path, jobs=1, extractor=stub_extract, index=False)
    assert B.db_versions(tmp_path) == ["0.4.0", "0.4.0.post1", "0.8.5"]
    (tmp_path / "releases" / "0.4.0.json").write_bytes(b"hand-edited\n")
    got: list[str] = []
    res = B.update(FakeSource(VERSIONS), tmp_path, jobs=1, extractor=stub_extract, index=False,
                   progress=lambda r: got.append(r.version))
    assert got == ["0.10.2", "0.33.0"] and res.ok
    assert (tmp_path / "releases" / "0.4.0.json").read_bytes() == b"hand-edited\n"
    res = B.update(FakeSource(VERSIONS), tmp_path, jobs=1, extractor=stub_extract, index=False)
    assert res.releases == []


def test_index_compiled_after_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Path] = []
    monkeypatch.setattr(B, "compile_db_index", lambda db_dir: calls.append(db_dir))
    res = B.build(FakeSource(["0.8.5"]), None, tmp_path, jobs=1, extractor=stub_extract)
    assert res.index == "compiled" and calls == [tmp_path]

    def broken(db_dir: Path) -> None:
        raise KeyError("releases")

    monkeypatch.setattr(B, "compile_db_index", broken)
    res = B.build(FakeSource(["0.8.5"]), None, tmp_path, jobs=1, extractor=stub_extract)
    assert "index compilation failed" in (res.index or "") and not res.ok


# ---------------------------------------------------------------------------------------------
# CLI


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch) -> Any:
    from vllm_lint.cli import db_command as cli_db
    from vllm_lint.scrape import sources

    state: dict[str, Any] = {"source": FakeSource(VERSIONS)}
    monkeypatch.setattr(sources, "make_source", lambda kind, repo=None: state["source"])
    monkeypatch.setattr(B, "_default_extractor", lambda: stub_extract)
    monkeypatch.setattr(B, "compile_db_index", lambda db_dir: None)  # the stub records are not real releases
    runner = CliRunner()

    def run(*args: str) -> Any:
        return runner.invoke(cli_db.db, list(args))

    run.state = state  # type: ignore[attr-defined]
    return run


def test_cli_build_ok(cli: Any, tmp_path: Path) -> None:
    r = cli("build", "--db-dir", str(tmp_path), "--versions", ">=0.8,<0.11", "--jobs", "1")
    assert r.exit_code == 0, r.output
    assert sorted(os.listdir(tmp_path / "releases")) == ["0.10.2.json", "0.8.5.json"]
    assert "2/2 release(s) written" in r.output


def test_cli_build_partial_failure_exit_1(cli: Any, tmp_path: Path) -> None:
    cli.state["source"] = FakeSource(VERSIONS, broken=("0.8.5",))
    r = cli("build", "--db-dir", str(tmp_path), "--jobs", "1")
    assert r.exit_code == 1
    assert "failed 0.8.5: SyntaxError: cannot parse" in r.output
    assert "Traceback" not in r.output
    assert (tmp_path / "releases" / "0.33.0.json").exists()


def test_cli_usage_errors_exit_2(cli: Any, tmp_path: Path) -> None:
    r = cli("build", "--db-dir", str(tmp_path), "--versions", "0.9.9")
    assert r.exit_code == 2 and "0.9.9" in r.output and "Traceback" not in r.output
    r = cli("build", "--db-dir", str(tmp_path), "--source", "svn")
    assert r.exit_code == 2
    r = cli("build", "--db-dir", str(tmp_path), "--jobs", "0")
    assert r.exit_code == 2


def test_cli_network_error_exit_2(cli: Any, tmp_path: Path) -> None:
    class Offline(FakeSource):
        def versions(self) -> list[str]:
            raise NetworkError("cannot reach https://pypi.org/pypi/vllm/json after 5 attempts: "
                               "connection failed (Network is unreachable) (offline?)")

    cli.state["source"] = Offline([])
    r = cli("build", "--db-dir", str(tmp_path))
    assert r.exit_code == 2
    lines = [ln for ln in r.output.splitlines() if ln.strip()]
    assert lines == ["error: cannot reach https://pypi.org/pypi/vllm/json after 5 attempts: "
                     "connection failed (Network is unreachable) (offline?)"]


def test_cli_update(cli: Any, tmp_path: Path) -> None:
    assert cli("build", "--db-dir", str(tmp_path), "--versions", "<0.10", "--jobs", "1").exit_code == 0
    r = cli("update", "--db-dir", str(tmp_path), "--jobs", "1")
    assert r.exit_code == 0 and "2/2" in r.output
    r = cli("update", "--db-dir", str(tmp_path))
    assert r.exit_code == 0 and "nothing to do" in r.output


def test_cli_default_db_dir_is_the_checkout() -> None:
    from vllm_lint.cli import db_command as cli_db

    found = cli_db._checkout_db_dir()
    assert found is not None and found.name == "flag_db" and (found / "README.md").is_file()
