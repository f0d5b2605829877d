#!/usr/bin/env python3
"""Write ``vllm_lint/data/release_dates.tsv``: the day each vLLM release reached PyPI (the upload
time of its first file, from PyPI's JSON API), which dates a nightly or dated image tag
(``knowledge/release_dates.py``). Pre-releases, development releases and releases whose every
file is yanked are left out.

    python tools/release_dates.py                      # https://pypi.org/pypi/vllm/json
    python tools/release_dates.py --json pypi-vllm.json  # a saved copy of that answer
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "vllm_lint" / "data" / "release_dates.tsv"
URL = "https://pypi.org/pypi/vllm/json"

HEADER = f"""\
# The day each vLLM release reached PyPI: the upload time (UTC) of its first file, from {URL}
# (releases[v][*].upload_time_iso_8601); pre-releases and releases whose every file is yanked left out.
# A dated image tag or branch (rocm/vllm-dev:...-08052025, nightly-2025-08-05) is read as the release
# current on that day (knowledge/release_dates.py). Written by tools/release_dates.py.
version\tuploaded
"""


def rows(answer: dict[str, Any]) -> list[tuple[Version, str, str]]:
    out = []
    for v, files in (answer.get("releases") or {}).items():
        try:
            pv = Version(v)
        except InvalidVersion:
            continue
        files = [f for f in files or [] if isinstance(f, dict)]
        if pv.is_prerelease or pv.is_devrelease or not files or all(f.get("yanked") for f in files):
            continue
        times = sorted(t for t in (f.get("upload_time_iso_8601") or f.get("upload_time") or "" for f in files) if t)
        if times:
            out.append((pv, v, times[0][:10]))
    return sorted(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--json", type=Path, help="a saved copy of PyPI's JSON answer for vllm (else fetched)")
    p.add_argument("--out", type=Path, default=OUT)
    a = p.parse_args(argv)
    if a.json:
        answer = json.loads(a.json.read_text(encoding="utf-8"))
    else:
        import requests

        resp = requests.get(URL, timeout=30, headers={"Accept": "application/json"})
        resp.raise_for_status()
        answer = resp.json()
    found = rows(answer)
    if not found:
        print("no releases in the answer", file=sys.stderr)
        return 1
    a.out.write_text(HEADER + "".join(f"{v}\t{day}\n" for _pv, v, day in found), encoding="utf-8")
    print(f"{a.out}: {len(found)} releases, {found[0][1]} ({found[0][2]}) to {found[-1][1]} ({found[-1][2]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
