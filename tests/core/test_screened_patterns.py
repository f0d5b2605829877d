"""record.screened_re: an expression answered None without compiling when the string holds none of
the literals every match must hold (issue 31). The screen may only ever skip strings the expression
does not match: checked here against the compiled expression for the expressions screened on the
lint path and for the constructs the reader knows."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from vllm_lint.container import PLATFORMS
from vllm_lint.frontends import commands
from vllm_lint.frontends.yaml import engine_blocks
from vllm_lint.knowledge import image_tags, models
from vllm_lint.report import text as text_report
from vllm_lint.record import ScreenedPattern, required_text, screened_re

# the expressions of the lint path that are screened, and constructs of every kind the reader meets
SCREENED = [models._QUANT_SUFFIXES, models._HF_CACHE_DIR, text_report._FOREIGN_NOQA, commands._PYTHON_RE, commands._PROGRAM_VAR, commands._VLLM_VAR, engine_blocks._NAMES_VLLM]
PATTERNS = [s["repository"] for s in image_tags.SCHEMES] + [
    r"ab+c", r"a{2}bc", r"a{0,2}bc", r"a{,3}bc", r"a{}b", r"a{x}b", r"x(?:yz)?w", r"x(?:yz)+w", r"(?i)Hello",
    r"a\.b\d+cd", r"(foo|bar)baz", r"(?P<k>ab|cd)e?f", r"[abc]+de", r"[]x]y", r"(?=abc)d", r"(?<!q)ab",
    r"ab*?c", r"ab++c", r"(?>ab)c", r"^a|b$", r"\bword\b", r"a|", r"\$\{?\w+\}?/x\.sh", r"(?i)[-_.](fp8|awq)$",
] + [p._source for p in SCREENED] + [row.marker for row in PLATFORMS if row.found == "values"] + [(p, re.X) for p in (
    # PyYAML's implicit resolvers (vllm_lint.libyaml screens them), verbose
    r"""^(?:yes|Yes|YES|no|No|NO
        |true|True|TRUE|false|False|FALSE
        |on|On|ON|off|Off|OFF)$""",
    r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
        |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
        |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN))$""",
    r"""^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
        |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
        (?:[Tt]|[ \t]+)[0-9][0-9]?
        :[0-9][0-9] :[0-9][0-9] (?:\.[0-9]*)?
        (?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$""",
    r"a b  # a comment\n c [ #]d",
)]
SAMPLES = ["", "vllm/vllm-openai", "nvcr.io/nvidia/vllm", "nvidia/vllm", "x/nvcr.io/nvidia/vllm", "rocm/vllm-dev",
           "quay.io/modh/vllm", "registry.redhat.io/rhoai/odh-vllm-cuda-rhel9", "rhaiis/vllm-cuda-rhel9",
           "vault.habana.ai/gaudi-docker/1.21.0/ubuntu22.04/habanalabs/vllm-installer-2.6.0", "opea/vllm-gaudi",
           "llama-3.1-8b-instruct-fp8", "qwen2.5-7b-instruct-awq", "model-gptq-int4", "x-bnb-4bit", "m-4bit",
           "x-w8a8-fp8", "abc", "abbbc", "aabc", "bc", "a{}b", "a{x}b", "xw", "xyzw", "xyzyzw", "hello", "HELLO",
           "a.b12cd", "foobaz", "barbaz", "cdf", "abef", "]y", "abcd", "ab", "word", "${X}/x.sh", "M-FP8", "hİ",
           "ſtrange", "x\nab", "python3", "python3.11m", "$PY", "${VLLM_BIN}", "$Vllm", "vllm_engine_args",
           "serving-config", "Engine", "spec", "containers", "args", "extraArgs", "vllm_arguments", "ARGS", "argv", "margs",
           "/models/models--org--name/snapshots/abc", "models--a--b", "x  # NOQA: E501", "#noqa", "# noqa",
           "yes", "Off", "1.5", "1:30", ".inf", "8192", "2001-12-14", "2001-12-14 21:59:43.10 -5", "abc d", "ab c#d"]


def _agrees(pattern, text: str) -> None:
    pattern, flags = pattern if isinstance(pattern, tuple) else (pattern, 0)
    compiled = re.compile(pattern, flags)
    for how in ("search", "match", "fullmatch"):
        got = getattr(screened_re(pattern, flags), how)(text)
        want = getattr(compiled, how)(text)
        assert (got is None) == (want is None), (pattern, how, text)
        if got is not None:
            assert got.span() == want.span() and got.groups() == want.groups()


def test_the_screen_skips_only_strings_the_expression_does_not_match():
    for pattern in PATTERNS:
        for text in SAMPLES:
            _agrees(pattern, text)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(PATTERNS), st.text(alphabet="abcdefxyzw.-_/4{}[]$\\İſKk8qinthvfpolmVLgrs3 0159:#TZNOY", max_size=24))
def test_the_screen_agrees_with_the_expression_on_any_text(pattern, text):
    _agrees(pattern, text)


def test_required_text_reads_literals_and_gives_up_on_what_it_does_not_know():
    assert required_text(r"ab+c") == (("ab",), False)
    assert required_text(r"x(?:yz)?w")[0] in (("x",), ("w",))
    assert required_text(r"(foo|bar)baz")[0] in (("bar", "foo"), ("baz",))
    assert required_text(r"(?i)Hello") == (("hello",), True)
    assert required_text(r"a{}b") == (("a{}b",), False)  # ``{}`` is literal text for re
    for unknown in (r".*", r"[abc]+", r"\x41bc", r"(?x) a b", r"a|", r"(?i:ab)c", r"(a)\1"):
        assert required_text(unknown) == ((), False), unknown
    assert required_text(b"bytes") == ((), False)
    assert required_text("a b # c\n d", re.X) == (("abd",), False)  # (verbose: layout and comments dropped)
    assert required_text("[ #]x", re.X) == (("x",), False)
    assert required_text(r"a\ b", re.X) == ((), False)


def test_a_screened_string_compiles_nothing():
    p = screened_re(r"(^|/)quay\.io/modh/vllm$")
    assert isinstance(p, ScreenedPattern)
    assert p.search("vllm/vllm-openai") is None
    assert "search" not in vars(p)  # (not compiled: the compiled pattern's methods would be set)
    assert p.search("quay.io/modh/vllm").span() == (0, 17)
    assert "search" in vars(p)


def test_a_vllm_image_compiles_no_vendor_repository(tmp_path):
    """Reading ``vllm/vllm-openai:v0.8.5`` compiles only the catch-all scheme's repository (``.*``)."""
    image_tags._compiled = None
    try:
        assert image_tags.scheme_reading("v0.8.5", "vllm/vllm-openai") is None
        compiled = [s["repository"] for s, repo_re, _t in image_tags._schemes() if "search" in vars(repo_re)]
        assert compiled == [r".*"]
        assert image_tags.vendor_scheme("nvcr.io/nvidia/vllm:25.09-py3")["repository"].startswith(r"(^|/)nvcr")
    finally:
        image_tags._compiled = None
