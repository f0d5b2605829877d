"""tools/release_dates.py: the day each release reached PyPI, from PyPI's JSON answer (offline)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def _tool():
    spec = importlib.util.spec_from_file_location("release_dates_tool", REPO / "tools" / "release_dates.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


ANSWER = {"releases": {
    "0.10.0": [{"upload_time_iso_8601": "2025-07-25T10:00:00Z"}, {"upload_time_iso_8601": "2025-07-24T23:00:00Z"}],
    "0.9.2": [{"upload_time_iso_8601": "2025-07-08T01:00:00Z"}],
    "0.10.1rc1": [{"upload_time_iso_8601": "2025-08-10T00:00:00Z"}],   # a pre-release: left out
    "0.2.1": [{"upload_time_iso_8601": "2023-09-01T00:00:00Z", "yanked": True}],  # every file yanked
    "0.0.0": [],                                                        # no file
    "not-a-version": [{"upload_time_iso_8601": "2023-01-01T00:00:00Z"}],
}}


def test_rows_are_the_first_upload_of_each_release_in_release_order():
    rows = _tool().rows(ANSWER)
    assert [(v, day) for _pv, v, day in rows] == [("0.9.2", "2025-07-08"), ("0.10.0", "2025-07-24")]


def test_the_table_is_written_with_its_header(tmp_path):
    src = tmp_path / "pypi.json"
    src.write_text(json.dumps(ANSWER))
    out = tmp_path / "release_dates.tsv"
    assert _tool().main(["--json", str(src), "--out", str(out)]) == 0
    lines = [ln for ln in out.read_text().splitlines() if not ln.startswith("#")]
    assert lines == ["version\tuploaded", "0.9.2\t2025-07-08", "0.10.0\t2025-07-24"]
