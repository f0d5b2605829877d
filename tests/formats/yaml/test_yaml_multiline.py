"""YAML scalars over several lines, through the CLI: the fixes of this folder's cases
(multiline_*.yaml, folded_block.yaml) load with PyYAML to the value intended; --add-noqa writes
only where a `#` is a comment, and the value loads the same before and after; a suppression
comment written inside a quoted or plain scalar is part of the value, not a suppression. The
scalar maps themselves: test_yaml_scalar.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent


def _findings(run_cli, path, *args):
    return json.loads(run_cli("--output-format", "json", "-t", "0.27.1", *args, str(path)).stdout)


def _containers(text):
    return [c.get("args") or c.get("command") for c in yaml.safe_load(text)["spec"]["containers"]]


def test_the_fixes_across_folds_give_the_intended_values():
    plain = HERE / "multiline_plain.yaml"
    fixed = HERE / "snapshots" / "multiline_plain.yaml.fixed"
    assert _containers(plain.read_text()) == [
        "vllm serve facebook/opt-125m --swap-space 4 --cuda-graph-sizes 8 16 --dtype bf16",
        ["vllm serve facebook/opt-125m --max-num-seqs 32 --swap-space 4 --port 8000\n--dtype bf16"]]
    assert _containers(fixed.read_text()) == [
        "vllm serve facebook/opt-125m --cudagraph-capture-sizes 8 16 --dtype bf16",
        ["vllm serve facebook/opt-125m --max-num-seqs 32 --port 8000\n--dtype bf16"]]

    def entrypoints(p):
        services = yaml.safe_load(p.read_text())["services"]
        return [services[k]["entrypoint"][2] for k in ("double", "single")]

    quoted = HERE / "multiline_quoted.yaml"
    assert entrypoints(quoted) == [
        'vllm serve facebook/opt-125m --swap-space 4 --max-num-seqs 32 --cuda-graph-sizes 8 16 '
        '--tensor-parallel-size 2 --served-model-name "opt" --dtype bf16',
        "echo 'starting'; vllm serve facebook/opt-125m --swap-space 4 --dtype bf16"]
    assert entrypoints(HERE / "snapshots" / "multiline_quoted.yaml.fixed") == [
        'vllm serve facebook/opt-125m --max-num-seqs 32 --cudagraph-capture-sizes 8 16 '
        '--tensor-parallel-size 2 --served-model-name "opt" --dtype bf16',
        "echo 'starting'; vllm serve facebook/opt-125m --dtype bf16"]


def test_the_fix_of_a_line_of_a_folded_block_gives_the_intended_value():
    def args(p):
        return yaml.safe_load(p.read_text())["spec"]["template"]["spec"]["containers"][0]["args"]

    assert args(HERE / "folded_block.yaml") == [
        "vllm serve facebook/opt-125m --swap-space 4 --max-num-seqs 32 --dtype bf16\n"]
    assert args(HERE / "snapshots" / "folded_block.yaml.fixed") == [
        "vllm serve facebook/opt-125m --max-num-seqs 32 --dtype bf16\n"]


POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: s
spec:
  containers:
    - name: a
      image: vllm/vllm-openai:v0.27.1
{body}
"""

# the finding's line, and the line --add-noqa must end with its comment (a `#` anywhere inside
# the scalar would be content, or end a plain scalar)
ADD_NOQA = {
    "plain command string": ("      command: vllm serve m\n        --swap-space 4\n        --max-num-seqs 8",
                             "        --max-num-seqs 8"),
    "plain sh -c item": ("      command: [sh, -c]\n      args:\n        - vllm serve m\n          --swap-space 4\n"
                         "          --max-num-seqs 8", "          --max-num-seqs 8"),
    "double-quoted flow item": ('      command: ["sh", "-c", "vllm serve m\n        --swap-space 4 \\\n'
                                '        --max-num-seqs 8", "--"]', '        --max-num-seqs 8", "--"]'),
    "single-quoted with a quote": ("      command:\n        - sh\n        - -c\n        - 'echo ''#1''; vllm serve m\n"
                                   "          --swap-space 4\n          --max-num-seqs 8'", "          --max-num-seqs 8'"),
    "plain flow item": ("      command: [sh, -c, vllm serve m\n          --swap-space 4\n          --max-num-seqs 8]",
                        "          --max-num-seqs 8]"),
}


@pytest.mark.parametrize("case", sorted(ADD_NOQA))
def test_add_noqa_writes_after_the_scalar_and_keeps_its_value(run_cli, tmp_path, case):
    body, last = ADD_NOQA[case]
    src = POD.format(body=body)
    p = tmp_path / "pod.yaml"
    p.write_text(src)
    (found,) = _findings(run_cli, p, "--select", "VL101")
    assert found["location"]["row"] == next(i for i, line in enumerate(src.splitlines(), 1) if "--swap-space" in line)
    run_cli("--add-noqa", "-t", "0.27.1", "--select", "VL101", str(p))
    assert p.read_text() == src.replace(last + "\n", last + "  # vllm-lint: ignore[VL101]\n")
    assert _containers(p.read_text()) == _containers(src)
    assert _findings(run_cli, p, "--select", "VL101,VL003") == []


def test_a_suppression_inside_a_quoted_value_is_content(run_cli, tmp_path):
    src = POD.format(body='      args: ["--model", "m", "--swap-space", "4",\n'
                          '             "--served-model-name", "x  # vllm-lint: ignore"]')
    p = tmp_path / "pod.yaml"
    p.write_text(src)
    # the string reaches vLLM whole (`x  # vllm-lint: ignore` is the served name): no suppression
    assert _containers(src)[0][-1] == "x  # vllm-lint: ignore"
    assert [(d["code"], d["location"]["row"]) for d in _findings(run_cli, p, "--select", "VL101,VL003")] \
        == [("VL101", 9)]
    # --add-noqa writes a comment of its own after the value, and leaves the value alone
    run_cli("--add-noqa", "-t", "0.27.1", "--select", "VL101", str(p))
    assert _containers(p.read_text()) == _containers(src)
    assert _findings(run_cli, p, "--select", "VL101,VL003") == []


@pytest.mark.parametrize("inside", [
    pytest.param('      command: ["sh", "-c", "vllm serve m --swap-space 4\n        # vllm-lint: ignore[VL101]\n'
                 '        --port 1"]', id="a comment line inside a double-quoted script"),
    pytest.param("      command: vllm serve m --swap-space 4\n        --served-model-name=x#vllm-lint:ignore",
                 id="glued to a word of a plain scalar"),
    pytest.param("      args: [--swap-space, '4', '# vllm-lint: ignore-file']", id="ignore-file in a quoted item"),
])
def test_a_suppression_comment_written_inside_a_scalar_suppresses_nothing(run_cli, tmp_path, inside):
    p = tmp_path / "pod.yaml"
    p.write_text(POD.format(body=inside))
    assert [d["code"] for d in _findings(run_cli, p, "--select", "VL101,VL003")] == ["VL101"]


def test_a_real_comment_beside_a_quoted_value_still_suppresses(run_cli, tmp_path):
    p = tmp_path / "pod.yaml"
    p.write_text(POD.format(body='      args: ["--swap-space", "4", "# not me"]  # vllm-lint: ignore[VL101]'))
    assert _findings(run_cli, p, "--select", "VL101,VL003") == []


SCALARS = [
    "k: vllm serve m\n  --swap-space 4\n\n  --dtype  bf16\n",
    'k: "vllm serve m\n  --swap-space 4 \\\n  --x\\ty \\"q\\"\n\n  --dtype bf16"\n',
    "k: 'it''s m\n    --swap-space 4\n    --dtype bf16'\n",
    "k: [sh, -c, vllm serve m\n    --swap-space 4\n    --dtype bf16]\n",
    "k: >\n  vllm serve m\n  --swap-space 4\n    --indented x\n\n  --dtype bf16\n",
    "k: >-\n  vllm serve m\n  --swap-space 4\n  --dtype bf16\n\n\n",
]


@pytest.mark.parametrize("src", SCALARS)
def test_every_cut_across_a_fold_loads_as_the_value_without_the_cut(src):
    """Each deletion of one or two adjacent words (with the blank before them) that the cutter
    accepts, applied to the file, loads with PyYAML as the value without those bytes."""
    from vllm_lint.frontends.yaml.scalar import fold_cutter, map_scalar
    from vllm_lint.frontends.yaml.words import split_words

    data = src.encode()
    doc = yaml.compose(src, Loader=yaml.SafeLoader)
    node = doc.value[0][1]
    node = node.value[2] if isinstance(node, yaml.SequenceNode) else node
    s, e = node.start_mark.index, node.end_mark.index
    m = map_scalar(data, s, e, node.style, node.value)
    assert m.segments, "the map is verified against the loaded value"
    cut = fold_cutter(data, s, e, node.style, m)
    words = split_words(node.value)
    accepted = 0
    for k in range(1, len(words)):
        for n in (1, 2):
            if k + n > len(words):
                continue
            a, b = words[k - 1][2], words[k + n - 1][2]  # from the end of the word before
            sp = cut(a, b)
            if sp is None:
                continue
            accepted += 1
            after = yaml.safe_load(data[:sp.start] + data[sp.end:])["k"]
            after = after[2] if isinstance(after, list) else after
            assert after.encode() == m.text[:a] + m.text[b:], (k, n)
    assert accepted >= len(words) - 1


def test_in_a_markdown_yaml_fence_a_suppression_inside_a_string_is_content_too(run_cli, tmp_path):
    p = tmp_path / "README.md"
    p.write_text("# Deploy\n\n```yaml\n" + POD.format(
        body='      args: ["--model", "m", "--swap-space", "4", "--served-model-name", "x # vllm-lint: ignore"]')
        + "```\n")
    assert [(d["code"], d["location"]["row"]) for d in _findings(run_cli, p, "--select", "VL101,VL003")] \
        == [("VL101", 12)]
    p.write_text(p.read_text().replace('ignore"]', 'ignore"]  # vllm-lint: ignore[VL101]'))
    assert _findings(run_cli, p, "--select", "VL101,VL003") == []
