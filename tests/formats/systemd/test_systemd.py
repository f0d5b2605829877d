"""systemd units (issue 17): ExecStart read and fixed, and --add-noqa's comments on their own line."""

from __future__ import annotations

from read_and_fix import check_read_and_fixed, lint

UNIT = """[Unit]
Description=vLLM

[Service]
Environment=VLLM_USE_V1=1
ExecStart=/opt/venv/bin/vllm serve m \\
    --swap-space 4
"""


def test_a_unit_is_read_and_fixed(run_cli, tmp_path):
    check_read_and_fixed(run_cli, tmp_path, "vllm.service", UNIT, [("VL201", 5, 13), ("VL101", 7, 5)],
                         "ExecStart=/opt/venv/bin/vllm serve m\n")


def test_add_noqa_puts_unit_comments_on_their_own_line(run_cli, tmp_path):
    """In a unit file a `#` after a value is part of the value (it would reach vLLM)."""
    p = tmp_path / "vllm.service"
    p.write_text(UNIT)
    run_cli("-t", "0.27.1", "--add-noqa", str(p))
    assert p.read_text() == ("[Unit]\nDescription=vLLM\n\n[Service]\n# vllm-lint: ignore[VL201]\n"
                             "Environment=VLLM_USE_V1=1\n# vllm-lint: ignore[VL101]\n"
                             "ExecStart=/opt/venv/bin/vllm serve m \\\n    --swap-space 4\n")
    assert lint(run_cli, p) == []
