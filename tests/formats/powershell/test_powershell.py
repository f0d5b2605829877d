"""PowerShell scripts (issue 17): backtick continuations read and fixed, a block comment skipped."""

from __future__ import annotations

from read_and_fix import check_read_and_fixed

PS1 = ("docker run --gpus all `\n  vllm/vllm-openai:v0.27.1 `\n  m `\n  --swap-space 4\n"
       "<# vllm serve m --swap-space 4 #>\nvllm serve m ` \n  --port 1\n")


def test_a_script_is_read_and_fixed(run_cli, tmp_path):
    check_read_and_fixed(run_cli, tmp_path, "run.ps1", PS1, [("VL101", 4, 3), ("VL109", 7, 3)], "  m\n<#")
