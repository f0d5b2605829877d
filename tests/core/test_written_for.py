"""A launch that names no release, checked against the newest: ``--verbose`` and its VL1xx/VL2xx
findings say which releases accept it as written (``targeting.accepted_range``). The range leaves
out the options no release ever had, so beside a VL103 it is said to hold for the launch but for
them, naming them (a snapshot of the verbose lines and the findings)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_the_range_names_the_options_no_release_has(run_cli, tmp_path, monkeypatch, snapshot):
    (tmp_path / ".git").mkdir()
    (tmp_path / "serve.sh").write_text(
        "vllm serve facebook/opt-125m --swap-space 4 --no-such-option 1\n"
        "vllm serve facebook/opt-125m --swap-space 4\n")
    monkeypatch.chdir(tmp_path)
    r = run_cli("--verbose", "--output-format", "concise", "--select", "VL1", "serve.sh")
    lines = [ln for ln in r.output.splitlines() if "no release named" in ln or "VL103" in ln]
    snapshot(HERE / "snapshots" / "written_for_unknown_option.txt", "\n".join(lines) + "\n")
