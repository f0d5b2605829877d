"""The model families issue 19 names each keep at least one row of the table, so that a family
cannot silently disappear when rows are edited or re-derived."""

from __future__ import annotations

import csv
import re

import pytest

from vllm_lint.knowledge import models

# family -> a pattern on the row's `model` name
FAMILIES = {
    "Llama 3.x": r"^Llama-3\.\d", "Llama 4": r"^Llama-4-",
    "Qwen 2.5": r"^Qwen2\.5-", "Qwen 3": r"^Qwen3-\d", "Qwen3-Next": r"^Qwen3-Next-", "Qwen3-VL": r"^Qwen3-VL-",
    "Qwen3-Coder 30B-A3B": r"^Qwen3-Coder-30B-A3B", "Qwen3-Coder 480B-A35B": r"^Qwen3-Coder-480B-A35B",
    "DeepSeek V2": r"^DeepSeek-V2", "DeepSeek V3": r"^DeepSeek-V3$", "DeepSeek R1": r"^DeepSeek-R1$",
    "DeepSeek V3.1": r"^DeepSeek-V3\.1", "DeepSeek V3.2": r"^DeepSeek-V3\.2",
    "Kimi K2": r"^Kimi-K2", "GLM 4.5": r"^GLM-4\.5", "GLM 4.6": r"^GLM-4\.6", "MiniMax": r"^MiniMax-",
    "gpt-oss": r"^gpt-oss-",
    "Mistral": r"^Mistral-", "Mistral-Small 3.1": r"^Mistral-Small-3\.1-", "Mistral-Small 3.2": r"^Mistral-Small-3\.2-",
    "Mixtral": r"^Mixtral-", "Ministral": r"^Ministral-",
    "Devstral": r"^Devstral-", "Magistral": r"^Magistral-",
    "Gemma 2": r"^gemma-2-", "Gemma 3": r"^gemma-3-", "Phi 3": r"^Phi-3", "Phi 4": r"^[Pp]hi-4",
    "Nemotron": r"Nemotron", "InternVL": r"^InternVL", "LLaVA": r"^llava-", "Granite": r"^granite-",
}



def _models() -> list[str]:
    lines = [ln for ln in models._table_path().read_text(encoding="utf-8").splitlines(keepends=True)
             if not ln.startswith("#")]
    return [r["model"] for r in csv.DictReader(lines, delimiter="\t")]


@pytest.mark.parametrize("family", list(FAMILIES))
def test_family_has_a_row(family):
    assert any(re.search(FAMILIES[family], m) for m in _models()), family
