"""Every registered format's folder, ``tests/formats/<name>/``: real-looking files of that format,
each linted through the CLI with every default rule, its findings (and the bytes ``--fix``
writes) compared with its snapshots. The harness is the rules' (tests/snapshots.py; directives
and ``harness.toml`` as in tests/README.md, "Rule fixtures"); a folder's cases are the files its
format claims, so the folder shows what the format reads, where its spans fall and how its fixes
edit it. Beside its cases, a folder holds the tests of its front-end's details (``test_*.py``,
spans, robustness; larger inputs under ``fixtures/``); ``_shared/`` holds the tests of the
machinery every format uses (the registry, the command reader, the per-format modules).

Regenerate after a deliberate change, then review the diff:
    python -m pytest tests/formats --regen
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from snapshots import SNAPSHOTS, cases, check_case, stale_snapshots

HERE = Path(__file__).resolve().parent


def folders() -> list[Path]:
    """One folder per format; ``_shared/`` (and ``__pycache__``) are none."""
    return sorted(d for d in HERE.iterdir() if d.is_dir() and d.name != SNAPSHOTS and not d.name.startswith("_"))


def all_cases():
    return [pytest.param(f, id=f"{d.name}/{f.name}") for d in folders() for f in cases(d)]


@pytest.mark.parametrize("case", all_cases())
def test_case_matches_its_snapshots(case, fixture_databases, monkeypatch, tmp_path, snapshot):
    from vllm_lint.frontends.base import format_by_content, format_by_filename

    with open(case, "rb") as f:
        head = f.read(4096)
    assert (format_by_filename(case.name) or format_by_content(head, case.name)) == case.parent.name, \
        f"{case}: not a file of the format its folder is named after"
    check_case(case, fixture_databases, monkeypatch, tmp_path, snapshot, default_select=None)


def test_every_registered_format_has_a_folder_with_cases_that_report_and_stay_silent():
    from vllm_lint.frontends.base import names

    assert sorted(d.name for d in folders()) == sorted(names()), \
        "one folder tests/formats/<name>/ per registered format (frontends/base.py FORMATS), and no other"
    for folder in folders():
        reported, silent = [], []
        for case in cases(folder):
            snap = folder / SNAPSHOTS / (case.name + ".snap")
            text = snap.read_text(encoding="utf-8") if snap.is_file() else ""
            (reported if len(text.splitlines()) > 1 else silent).append(case.name)
        assert reported and silent, (f"tests/formats/{folder.name}/ needs a case with findings ({reported}) and "
                                     f"one without ({silent})")


def test_no_snapshot_without_its_case(snapshot):
    for folder in folders():
        stale_snapshots(folder, snapshot)


def test_the_folders_hold_only_cases_settings_tests_and_fixtures():
    for folder in folders():
        for entry in os.scandir(folder):
            assert entry.is_file() or entry.name in (SNAPSHOTS, "fixtures", "__pycache__"), \
                f"{entry.path}: a format folder holds files, snapshots/ and fixtures/ only"
