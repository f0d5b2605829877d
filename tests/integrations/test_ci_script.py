"""`.ci/run` runs the README's test command, then the tests that command leaves out (`slow`,
`browser`)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_test_command() -> str:
    m = re.search(r"\.venv/bin/(python -m pytest[^\n`]*)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert m, "README.md has no test command"
    return m.group(1).strip()


def test_ci_runs_the_readme_command_and_the_slow_tests():
    lines = [l.strip() for l in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    command = readme_test_command()
    assert '-m "not slow and not browser"' in command
    assert command in lines
    assert lines[-1] == 'python -m pytest -m "slow or browser" || [ $? -eq 5 ]'


def test_no_tests_is_no_failure_but_a_failure_is(tmp_path):
    """The last line's shell logic: pytest's exit 5 passes, any other non-zero fails the script."""
    for code, ok in ((0, True), (5, True), (1, False), (2, False)):
        script = f"set -euo pipefail\n(exit {code}) || [ $? -eq 5 ]\n"
        assert (subprocess.run(["bash", "-c", script]).returncode == 0) is ok, code
