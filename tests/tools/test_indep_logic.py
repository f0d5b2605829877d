"""Pure parts of the independent tester (tools/crosscheck/indep/): the docs tokenizer, the
culprit and verdict comparison, ddmin, and seeded generation from a hand-written grammar (no
vLLM, no venvs, no network)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "crosscheck" / "indep"))

import gen_docs  # noqa: E402
import gen_grammar  # noqa: E402
import shrink  # noqa: E402
import verdict  # noqa: E402


def test_docs_tokenizer_reads_shell_words():
    text = ("```bash\n$ CUDA_VISIBLE_DEVICES=0 vllm serve <model> \\\n    --max_model_len=4096 \\\n"
            "    --speculative-config '{\"method\": \"ngram\",\n  \"n\": 3}' --port $PORT | tee log\n```\n"
            "# vllm serve m \\\n#   -tp 2  # two GPUs\n"
            "vllm serve m --chat-template \"a b\" --config c.yaml\n"
            "vllm serve m --bad 'open\n")
    lines = list(gen_docs.extract_file(text, comment_lines=True))
    assert lines == [
        ["m", "--max_model_len=4096", "--speculative-config", '{"method": "ngram",\n  "n": 3}'],
        ["m", "-tp", "2"],
    ]


def test_culprit_and_naming():
    c = verdict.real_culprit
    assert c("argument --tensor-parallel-size/-tp: invalid int value: 'x'") == {"--tensor-parallel-size", "-tp"}
    assert c("unrecognized arguments: True --foo") == {"true"}
    assert c("ambiguous option: --max=3 could match --max-model-len, --max-num-seqs") == {"--max"}
    assert c("the following arguments are required: model_tag") is None
    found = [{"code": "VL107", "option": None, "message": "`--max-model` abbreviates `--max-model-len`"}]
    assert verdict.names_culprit(found, {"--max-model-len"})
    assert verdict.names_culprit([{"option": "--max_model_len", "message": ""}], {"--max-model-len"})
    assert not verdict.names_culprit([{"option": "--port", "message": "`8000`"}], {"--max-model-len"})
    real_no = {"refused": True, "message": "unrecognized arguments: x"}
    assert verdict.compare(real_no, {"refused": False, "errors": []})["kind"] == "missed"
    assert verdict.compare({"refused": False}, {"refused": True, "errors": []})["kind"] == "false-alarm"
    env = {"refused": True, "message": "FileNotFoundError: [Errno 2] No such file or directory: 'c.yaml'"}
    assert verdict.compare(env, {"refused": False, "errors": []})["kind"] == "agree"


def test_ddmin_finds_the_minimal_words():
    words = ["m", "--dtype", "auto", "--bad", "1", "-tp", "2", "--port", "8000"]
    assert shrink.ddmin(words, lambda w: "--bad" in w) == ["--bad"]
    assert shrink.ddmin(words, lambda w: "-tp" in w and "2" in w) == ["-tp", "2"]
    assert shrink.ddmin(words, lambda w: len(w) >= 0) == []


GRAMMAR = {"actions": [
    {"strings": ["--help", "-h"], "dest": "help", "nargs": 0, "const": None, "default": None, "choices": None,
     "types": [], "action": "_HelpAction", "positional": False},
    {"strings": [], "dest": "model_tag", "nargs": "?", "const": None, "default": None, "choices": None,
     "types": [], "action": "_StoreAction", "positional": True},
    {"strings": ["--tensor-parallel-size", "-tp"], "dest": "tensor_parallel_size", "nargs": None, "const": None,
     "default": 1, "choices": None, "types": ["int"], "action": "_StoreAction", "positional": False},
    {"strings": ["--enforce-eager", "--no-enforce-eager"], "dest": "enforce_eager", "nargs": 0, "const": None,
     "default": False, "choices": None, "types": [], "action": "BooleanOptionalAction", "positional": False},
    {"strings": ["--dtype"], "dest": "dtype", "nargs": None, "const": None, "default": "auto",
     "choices": ["auto", "half", "bfloat16"], "types": ["str"], "action": "_StoreAction", "positional": False},
    {"strings": ["--compilation-config", "-O"], "dest": "compilation_config", "nargs": None, "const": None,
     "default": None, "choices": None, "types": ["parse_dataclass"], "action": "_StoreAction", "positional": False,
     "config_class": "CompilationConfig",
     "fields": [{"name": "level", "kind": "int", "init": True, "private": False},
                {"name": "_hidden", "kind": "bool", "init": True, "private": True}]},
]}
OTHER = {"actions": [
    {"strings": ["--swap-space"], "dest": "swap_space", "nargs": None, "const": None, "default": 4,
     "choices": None, "types": ["float"], "action": "_StoreAction", "positional": False},
]}


def test_grammar_generator_is_seeded_and_uses_the_grammar():
    a = [gen_grammar.line(GRAMMAR, [OTHER], "9.9", 0, i) for i in range(300)]
    b = [gen_grammar.line(GRAMMAR, [OTHER], "9.9", 0, i) for i in range(300)]
    assert a == b and len({tuple(x) for x in a}) > 150
    words = {w for line in a for w in line}
    assert "--help" not in words and "-h" not in words
    assert "--swap-space" in words and "--no-enforce-eager" in words
    assert any(w.startswith("--compilation-config.") for w in words)
    assert any(w.startswith("--tensor_parallel") for w in words)


def test_docs_mutations_are_seeded():
    opts = gen_grammar.load(GRAMMAR)
    others = gen_grammar.load(OTHER)
    lines = [["m", "--dtype", "half", "--tensor-parallel-size", "2"]]
    out = [gen_docs.line(lines, "9.9", 0, i, opts, others, gen_grammar.value_words) for i in range(100)]
    assert out == [gen_docs.line(lines, "9.9", 0, i, opts, others, gen_grammar.value_words) for i in range(100)]
    tags = {t for _, t in out}
    assert {"as-written", "typo", "foreign", "wrong_choice", "respell", "drop_value"} <= tags
