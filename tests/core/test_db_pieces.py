"""The flag database read in pieces (``surface/dbfile.py``): a lint decodes only the index entries and
option records it asks for, where the files' checksums say they are the bytes ``compile_index``
certified; every answer is the one the whole decode gives, and a file that is not those bytes is
decoded whole and refused or accepted exactly as before."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zlib

import pytest

from vllm_lint.surface import dbfile
from vllm_lint.surface.db import (RELEASE_TABLES, Database, DatabaseError, Surface, _Options, _Table,
                                  compile_index, default_db_path)

SHIPPED = default_db_path()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _whole(db: Database, version: str) -> Surface:
    with open(os.path.join(db.dir, "releases", f"{version}.json"), "rb") as f:
        return Surface(json.loads(f.read()))


def _prefixes(strings):
    out = {"--", "-", "--zzz", "--no-", "--max", "--enable", "-O"}
    for s in strings:
        out.update(s[:n] for n in (3, 5, 8, len(s) - 1, len(s)))
    return sorted(out)


def test_every_shipped_release_is_certified():
    """The index vouches for every committed release file (else a lint decodes it whole: slower,
    same answers); `vllm-lint db index` recompiles it."""
    db = Database(SHIPPED)
    crcs = db.index["release_crc32"]
    assert sorted(crcs) == sorted(db.versions)
    for v in db.versions:
        assert not isinstance(db.surface(v).by_string, dict), v  # read in pieces


@pytest.mark.parametrize("searches", [10_000, _Options.SEARCHES])
def test_pieces_answer_as_the_whole_file(monkeypatch, searches):
    """Every lookup a rule makes, on every shipped release: by string, by dest, abbreviations,
    the tables, the views of ``read_by``; with searches only, and with the whole table taken
    after ``SEARCHES`` of them."""
    monkeypatch.setattr(_Options, "SEARCHES", searches)
    monkeypatch.setattr(_Table, "ENTRIES", searches)
    db = Database(SHIPPED)
    for v in db.versions:
        lazy, whole = db.surface(v), _whole(db, v)
        strings = list(whole.by_string) + ["--nope", "-", "", "--tensor-parallel-size-x", 'a"b', "\ud800"]
        for s in strings:
            assert lazy.lookup(s) == whole.lookup(s), (v, s)
            assert (s in lazy.by_string) == (s in whole.by_string)
        for d in list(whole.by_dest) + ["nope", ""]:
            assert lazy.by_dest.get(d) == whole.by_dest.get(d), (v, d)
        for p in _prefixes(whole.long_strings):
            assert lazy.prefix_matches(p) == whole.prefix_matches(p), (v, p)
        for key in RELEASE_TABLES:
            lt, wt = getattr(lazy, key) if key != "start_fields" else lazy.start_fields, \
                getattr(whole, key) if key != "start_fields" else whole.start_fields
            assert bool(lt) == bool(wt)
            for name in list(wt)[::7] + ["VLLM_NOPE", "nope"]:
                assert lt.get(name) == wt.get(name) and (name in lt) == (name in wt), (v, key, name)
            assert dict(lt.items()) == dict(wt.items())
        for entry in ("vllm serve", "openai.api_server", "docker:vllm/vllm-openai:latest"):
            lv, wv = lazy.read_by(entry), whole.read_by(entry)
            assert lv.lookup("--model") == wv.lookup("--model") and lv.options == wv.options
        assert lazy.options == whole.options and lazy.absent_from_serve == whole.absent_from_serve
        assert lazy.long_strings == whole.long_strings and dict(lazy.by_string) == dict(whole.by_string)
        for attr in ("env_refused", "build_env", "async_engine_args", "llm_params", "positionals", "serve_checks",
                     "config_checks", "device_id_checks", "o_flag", "image_runs", "deprecated_entries"):
            assert getattr(lazy, attr) == getattr(whole, attr), (v, attr)


def test_one_option_object_per_record():
    s = Database(SHIPPED).surface("0.27.1")
    tp = s.lookup("--tensor-parallel-size")
    assert s.lookup("-tp") is tp and s.by_dest["tensor_parallel_size"] is tp
    assert any(o is tp for o in s.options)


def test_a_record_shared_by_releases_is_one_option():
    """Consecutive releases share most option records byte for byte: each distinct record is
    decoded and built once per process (``_SHARED_OPTIONS``), and every release's options are still
    its own records' (``test_pieces_answer_as_the_whole_file``)."""
    db = Database(SHIPPED)
    a, b = db.surface("0.27.0").options, db.surface("0.27.1").options
    assert a == _whole(db, "0.27.0").options and b == _whole(db, "0.27.1").options
    shared = [o for o in b if any(o is p for p in a)]
    assert shared and all(o in a for o in shared)
    assert all(any(o == p for p in a) for o in shared)


def test_a_lint_decodes_only_what_it_asks(monkeypatch):
    calls = []
    real = json.loads
    monkeypatch.setattr(json, "loads", lambda b, *a, **k: calls.append(len(b)) or real(b, *a, **k))
    db = Database(SHIPPED)
    s = db.surface("latest")
    assert s.lookup("--tensor-parallel-size") is not None and db.option_history("--swap-space") is not None
    assert s.env.get("VLLM_HOST_IP") is not None
    assert sum(calls) < 20_000  # of ~630 KB of index and release file


def test_the_index_reads_alike_in_pieces():
    with open(SHIPPED / "index.json", "rb") as f:
        data = f.read()
    whole = json.loads(data)
    assert dbfile.own_checksum_holds(data)
    tables = tuple(k for k, v in whole.items() if isinstance(v, dict))
    assert "options" in tables and dbfile.reads_alike(data, whole, tables=tables)


def test_the_checksum_is_crc32():
    data = b'{\n  "a": 1,\n  "crc32": "00000000",\n  "z": [\n    1\n  ]\n}\n'
    at = dbfile.checksum_at(data)
    assert dbfile.crc32(data) == zlib.crc32(data)
    filled = dbfile.with_checksum(data)
    assert int(filled[at:at + 8], 16) == zlib.crc32(data[:at] + data[at + 8:])
    assert dbfile.own_checksum_holds(filled) and not dbfile.own_checksum_holds(data)


@pytest.fixture
def db_copy(synth_db_path, tmp_path):
    d = tmp_path / "db"
    shutil.copytree(synth_db_path, d)
    return d


def _break(path, at_text: bytes, into: bytes) -> None:
    data = path.read_bytes()
    assert at_text in data
    path.write_bytes(data.replace(at_text, into, 1))


def test_a_corrupted_release_is_refused_where_the_lint_never_looks(db_copy):
    """A byte broken in an option no lint asks for: the checksum fails, the file is decoded whole
    and refused, as before pieces."""
    assert not isinstance(Database(db_copy).surface("0.27.1").by_string, dict)
    _break(db_copy / "releases" / "0.27.1.json", b'"name": "--model"', b'"name": "--model')
    with pytest.raises(DatabaseError, match=r"0\.27\.1\.json: cannot read database file"):
        Database(db_copy).surface("0.27.1")


def test_a_truncated_release_is_refused(db_copy):
    f = db_copy / "releases" / "0.27.1.json"
    f.write_bytes(f.read_bytes()[:-200])
    with pytest.raises(DatabaseError, match=r"0\.27\.1\.json: cannot read database file"):
        Database(db_copy).surface("0.27.1")


def test_a_hand_edited_release_is_read_whole(db_copy):
    """Valid JSON that is not the certified bytes: read whole and checked, as before."""
    f = db_copy / "releases" / "0.27.1.json"
    rec = json.loads(f.read_bytes())
    rec["options"][0]["aliases"] = ["--hand-added"]
    f.write_text(json.dumps(rec))
    s = Database(db_copy).surface("0.27.1")
    assert isinstance(s.by_string, dict) and s.lookup("--hand-added") is not None


@pytest.mark.parametrize("cut", [lambda d: d[:-3], lambda d: d.replace(b'"--swap-space": [', b'"--swap-space": ', 1)])
def test_a_corrupted_index_is_refused_where_the_lint_never_looks(db_copy, cut):
    f = db_copy / "index.json"
    f.write_bytes(cut(f.read_bytes()))
    with pytest.raises(DatabaseError, match=r"index\.json: cannot read database file"):
        Database(db_copy)


def test_an_index_without_checksums_is_read_whole(db_copy):
    """An index written by an older vllm-lint: no checksums, every file decoded whole."""
    f = db_copy / "index.json"
    index = json.loads(f.read_bytes())
    del index["crc32"], index["release_crc32"]
    f.write_text(json.dumps(index, indent=2, sort_keys=True) + "\n")
    db = Database(db_copy)
    assert db._index.doc is None and isinstance(db.surface("0.27.1").by_string, dict)
    assert db.option_history("--swap-space").ranges == [("0.8.5", "0.10.0")]


def test_the_writer_certifies_only_canonical_bytes(db_copy):
    f = db_copy / "releases" / "0.10.0.json"
    f.write_text(json.dumps(json.loads(f.read_bytes()), indent=1, sort_keys=True))
    index = compile_index(db_copy)
    assert "0.10.0" not in index["release_crc32"] and "0.27.1" in index["release_crc32"]


def test_the_database_loads_without_pathlib():
    """The lint path's database: directories are strings (pathlib pulls urllib.parse and ipaddress)."""
    code = ("import sys\nsys.path.insert(0, %r)\nfrom vllm_lint.surface.db import Database\n"
            "db = Database()\ns = db.surface('latest')\ns.lookup('--model'); s.env.get('VLLM_HOST_IP')\n"
            "db.option_history('--swap-space'); db.option_overlay('--x'); db.plugins\n"
            "print(sorted(m for m in ('pathlib', 'zlib', 'hashlib') if m in sys.modules))\n") % ROOT
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "VLLM_LINT_DB": str(SHIPPED)}).stdout
    assert out.strip() == "[]"
