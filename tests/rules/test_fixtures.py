"""Every rule's fixture folder, ``tests/rules/<CODE>/``, run through the CLI and compared with its
snapshots. How to add a case or a folder: tests/README.md, "Rule fixtures".

A case is any file directly in the folder (``*.toml`` files are settings the cases use, never
cases; sub-folders hold what cases read beside them, such as a model directory). Each case is
linted with ``--select <CODE>`` against the folder's synthetic database and its findings are
compared with ``snapshots/<case>.snap``; where a fix applies, the case is fixed in a copy of the
folder and the fixed bytes are compared with ``snapshots/<case>.fixed``.

``harness.toml`` in a folder (optional):

    database = "synthetic"   # tests/synthetic_db.py (0.8.5, 0.10.0, 0.27.1); default "deploy":
                             # tests/rules/deploy_db.py (the releases the VL3xx-5xx rules gate on)
    target = "0.27.1"        # the cases' target release (default 0.27.1; "none": no -t)
    select = ["VL003", "VL101"]   # default: the folder's code

Directives (comment lines anywhere in a case):

    # test-target: 0.10.0         this case's target release ("none": no -t, the file's own hints)
    # test-args: --gpus 8         extra CLI arguments; {here} is the case's folder
    # test-expect: VL303 4 warning  optional: a finding you mean the case to show (code, row,
                                  severity); the snapshot must contain it

Regenerate after a deliberate change, then review the diff:
    python -m pytest tests/rules --regen

The harness itself (shared with the formats' folders, tests/formats/) is in tests/snapshots.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from snapshots import SNAPSHOTS, cases, check_case, stale_snapshots

HERE = Path(__file__).resolve().parent


def folders() -> list[Path]:
    return sorted(d for d in HERE.glob("VL[0-9][0-9][0-9]") if d.is_dir())


def all_cases():
    return [pytest.param(f, id=f"{d.name}/{f.name}") for d in folders() for f in cases(d)]


@pytest.mark.parametrize("case", all_cases())
def test_case_matches_its_snapshots(case, fixture_databases, monkeypatch, tmp_path, snapshot):
    check_case(case, fixture_databases, monkeypatch, tmp_path, snapshot, default_select=[case.parent.name])


def test_every_rule_has_a_folder_with_cases_that_fire_and_stay_silent():
    from vllm_lint.rules.base import registry

    codes = list(registry())
    assert codes
    for code in codes:
        folder = HERE / code
        assert folder.is_dir(), f"{code} has no fixture folder tests/rules/{code}/ (tests/README.md)"
        fired, silent = [], []
        for case in cases(folder):
            snap = folder / SNAPSHOTS / (case.name + ".snap")
            text = snap.read_text(encoding="utf-8") if snap.is_file() else ""
            (fired if re.search(rf"^\S+ {code} ", text, re.M) else silent).append(case.name)
        assert fired and silent, f"{code} needs cases where it fires ({fired}) and where it stays silent ({silent})"


def test_no_snapshot_without_its_case(snapshot):
    for folder in folders():
        stale_snapshots(folder, snapshot)
