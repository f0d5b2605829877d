"""The per-launch work of a launch-dense tree (issue 31, sixth pass), checked by its answers and
counts, never by wall-clock times: the faster forms give what the plain ones gave."""

from __future__ import annotations

import random
import re


def _newest_run_as_list(indices: list[int]) -> list[int]:
    """The longest run of consecutive numbers that ends ``indices`` (sorted, distinct): the list
    form ``accepted_range`` used before its bit masks."""
    start = len(indices) - 1
    while start > 0 and indices[start - 1] == indices[start] - 1:
        start -= 1
    return indices[max(start, 0):]


def test_newest_run_of_a_mask_is_the_list_forms():
    from vllm_lint.pipeline.targeting import _newest_run

    rng = random.Random(31)
    cases = [[0], [5], [0, 1, 2], [0, 2, 3], [1, 3, 5, 6, 7], list(range(90))]
    cases += [sorted(rng.sample(range(n), rng.randint(1, n))) for n in (rng.randint(1, 120) for _ in range(3000))]
    for indices in cases:
        run = _newest_run_as_list(indices)
        assert _newest_run(sum(1 << i for i in indices)) == (run[0], run[-1]), indices


def test_a_history_mask_holds_its_indices():
    from vllm_lint.surface.db import History

    for indices in (set(), {0}, {3, 4, 9}, set(range(80))):
        h = History("--x", [], set(indices))
        assert {i for i in range(h.mask.bit_length()) if h.mask >> i & 1} == indices


def test_line_starts_are_the_newline_matches():
    from vllm_lint.launch import LineIndex

    rng = random.Random(7)
    texts = [b"", b"a", b"\n", b"\n\n", b"a\nb", b"a\nb\n", b"\r\n\r\nx", "é\nü\n".encode()]
    texts += [bytes(rng.choice(b"ab\n\r ") for _ in range(rng.randint(0, 60))) for _ in range(500)]
    for data in texts:
        assert LineIndex(data).starts == [0] + [m.end() for m in re.finditer(rb"\n", data)], data


def test_a_variable_no_neighbour_spells_compiles_nothing(tmp_path, monkeypatch):
    """``reach``: whether a script or Dockerfile beside a file uses one of its ``VLLM_*``
    variables; a name none of them holds is answered without compiling an expression."""
    from vllm_lint import reach

    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.6.0\nARG VLLM_USED\n")
    script = tmp_path / "run.sh"
    script.write_bytes(b"VLLM_UNUSED=1 vllm serve m\n")
    near = reach._Neighbours(str(script), script.read_bytes())
    assert near.uses("VLLM_ELSE") is False  # (reads the neighbours: the module's own expressions compile)
    compiled: list = []
    real = re.compile

    def counting(pattern, flags=0):
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(reach.re, "compile", counting)
    assert near.uses("VLLM_UNUSED") is False
    assert compiled == []
    assert near.uses("VLLM_USED") is True
    assert compiled
