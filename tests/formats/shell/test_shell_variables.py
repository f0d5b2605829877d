"""Values through variables (``frontends/shell_values.py``): a launch's ``$VAR`` is read as its
value only where that value is certain at the launch; anything a branch, loop, function, input or
command may change stays opaque."""

from __future__ import annotations

import pytest

from vllm_lint.frontends import shell as S
from span_invariants import check_spans

KNOWN = [
    ("M=a; vllm serve $M", "a"),
    ('M=a; if x; then M=b; vllm serve "$M"; fi', "b"),
    ("true || M=b; M=a; vllm serve $M", "a"),
    ("export M=org/x; vllm serve $M", "org/x"),
    ("readonly M=org/x; vllm serve $M", "org/x"),
    ("M=a; cd /x && vllm serve $M", "a"),
    ("M=a; f() { vllm serve $M; }; f", "a"),
    ("f() { local M=a; vllm serve $M; }; f", "a"),
    ("case $1 in a) M=x; vllm serve $M;; esac", "x"),
    ("M=a; vllm serve $M & M=b; wait", "a"),  # (expanded when the command starts)
    ("source env.sh; M=a; vllm serve $M", "a"),
    ('M="a b"; vllm serve "$M"', "a b"),
    ('D=/models; M=$D/llama; vllm serve "$M"', "/models/llama"),
    ('D=/models; vllm serve "${D}/llama"', "/models/llama"),
    ('M=a; vllm serve "${M:-b}"', "a"),
    ('M=; vllm serve "${M:-b}"', "b"),
    ("M=a; vllm serve --model=$M", "--model=a"),
    ("M=a; M=c; vllm serve $M", "c"),
    ("M=a; vllm serve $M; read M", None),  # (read anywhere)
    ("while IFS= read -r line; do :; done < f; M=a; vllm serve $M", "a"),
]

OPAQUE = [
    "M=a; if x; then M=b; fi; vllm serve $M",
    "if x; then M=b; else vllm serve $M; fi",
    "vllm serve $M",
    "vllm serve ${M:-org/x}",  # (the caller's environment may set M)
    "M=${M:-org/x}; vllm serve $M",
    'M="a b"; vllm serve $M',  # (split into two words)
    "M='a*'; vllm serve $M",  # (a glob)
    "M=; vllm serve $M",  # (no word at all)
    "for M in a b; do vllm serve $M; done",
    "M=a; for x in 1 2; do vllm serve $M; M=b; done",
    "M=a; f() { vllm serve $M; }; M=b; f",
    "f() { M=b; }; M=a; f; vllm serve $M",
    "M=a; source env.sh; vllm serve $M",
    "M=a; . ./env.sh; vllm serve $M",
    'M=a; eval "$SETUP"; vllm serve $M',
    "load() { source env.sh; }; M=a; load; vllm serve $M",
    "read M; vllm serve $M",
    "M=$(cat x); vllm serve $M",
    "M=`cat x`; vllm serve $M",
    "M=a && vllm serve $M",
    "M=a; (M=b); vllm serve $M",
    "M=a; M+=b; vllm serve $M",
    "declare -l M=ABC; vllm serve $M",
    "declare -i M=2*2; vllm serve $M",
    "M=(a b); vllm serve $M",
    "M=~/m; vllm serve $M",
    "M=a; unset M; vllm serve $M",
    "M=a; IFS=/; vllm serve $M",
    "M=a; printf -v M '%s' b; vllm serve $M",
    "M=a; : ${M:=b}; vllm serve $M",
    "M=a; (( M = 2 )); vllm serve $M",
    'declare -n R=M; M=a; vllm serve "$M"',
    "M=a; M=b vllm serve $M x",  # (a prefix does not change the expansion, but $M is a)
    "vllm serve ${#M} ${M/a/b} ${M:0:2} $1 $@",
]


def _model(script: str):
    data = script.encode()
    ex = S.extract(data, "a.sh")
    check_spans(data, ex)
    assert ex.launches, script
    return ex.launches[0].tokens[0]


@pytest.mark.parametrize("script,value", KNOWN)
def test_a_value_known_on_every_path_is_read(script, value):
    tok = _model(script)
    if value is None:
        assert tok.opaque, script
        return
    assert (tok.text, tok.opaque, tok.text_span) == (value, False, None), script
    assert tok.origin and all(name for name, _sp in tok.origin)


@pytest.mark.parametrize("script", OPAQUE)
def test_a_value_that_may_differ_stays_opaque(script):
    tok = _model(script)
    if script.startswith("M=a; M=b vllm"):
        assert tok.text == "a"
        return
    assert tok.opaque, (script, tok.text)


def test_the_origin_names_the_assignment_in_the_file():
    data = b"#!/bin/sh\nMODEL=org/m\nvllm serve $MODEL\n"
    tok = S.extract(data, "a.sh").launches[0].tokens[0]
    (name, sp), = tok.origin
    assert name == "MODEL" and data[sp.start:sp.end] == b"org/m"


def test_the_stated_environment_gives_a_variable_the_script_leaves_to_it():
    from vllm_lint.launch import Span

    stated = {"MODEL": ("org/m", Span(0, 5)), "TP": (None, Span(6, 7))}
    ex = S.extract_script(b'vllm serve "$MODEL" -tp $TP\nMODEL=x vllm serve $MODEL\n', "a.sh", stated=stated)
    a, b = ex.launches
    assert (a.tokens[0].text, a.tokens[0].origin) == ("org/m", (("MODEL", Span(0, 5)),))
    assert a.tokens[2].opaque  # (stated, but not as a literal)
    assert b.tokens[0].text == "org/m"  # (a prefix is the command's environment, not its words')
    ex = S.extract_script(b"MODEL=y; vllm serve $MODEL\n", "a.sh", stated=stated)
    assert ex.launches[0].tokens[0].text == "y"  # (the script's own assignment wins)


@pytest.mark.parametrize("script", [
    'M=a; bash -c "M=b; vllm serve $M"',  # (the outer shell expands $M before bash runs)
    "bash <<EOF\nM=b\nvllm serve $M\nEOF\n",
    'eval "M=b; vllm serve \\$M"',
])
def test_a_script_read_out_of_another_reads_no_value(script):
    assert _model(script).opaque


def test_a_makefile_recipe_reads_no_value():
    from vllm_lint.frontends import makefile

    data = b"MODEL := org/m\nserve:\n\tTP=2\n\tvllm serve $(MODEL) -tp $$TP\n"
    (la,) = makefile.extract(data, "Makefile").launches
    assert la.tokens[0].opaque  # (`make MODEL=...` overrides it; each recipe line is its own shell)


def _per_name(src: bytes, name: bytes):
    """The reading of one name the resolver had before its one-pass index: an expression per name,
    over the whole script (kept here as the index's oracle)."""
    import re

    key = re.escape(name)
    other = re.compile(
        rb"\b(?:read|mapfile|readarray|unset|getopts|printf|let|select|for|local|declare|typeset)\b"
        rb"[^\n;&|]*(?<![\w${])" + key + rb"(?![\w])(?!=)"
        rb"|\(\([^)]*\b" + key + rb"\b|\$\{" + key + rb":?[=?]|\b" + key + rb"\[[^\]\n]*\]\+?=")
    starts = [(m.start(), m.end()) for m in re.finditer(rb"(?<![\w$-])" + key + rb"\+?=", src)]
    return other.search(src) is not None, starts


def test_the_one_pass_index_reads_every_name_as_an_expression_per_name_does():
    import random

    from vllm_lint.frontends.shell_values import Resolver

    rng = random.Random(31)
    names = [b"M", b"TP", b"M2", b"_x", b"read"]
    pieces = [b"M", b"TP", b"M2", b"_x", b"=", b"+=", b"$", b"{", b"}", b"(", b"((", b")", b"))", b"[", b"]", b" ", b"\n",
              b";", b"&", b"|", b"-", b":", b"?", b"read ", b"for ", b"let ", b"unset ", b"declare -x ", b"local ",
              b"printf -v ", b"echo ", b"a", b"1", b"'", b'"', b"${", b":=", b"[0]="]
    for _ in range(3000):
        src = b"".join(rng.choice(pieces) for _ in range(rng.randint(1, 30)))
        other, starts = Resolver(src, None, None)._indexed()
        for name in names:
            set_elsewhere, expected = _per_name(src, name)
            assert (name in other) == set_elsewhere, (src, name)
            assert starts.get(name, []) == expected, (src, name)


def test_a_script_of_many_variables_compiles_no_expression_per_name(monkeypatch):
    import re

    lines = []
    for i in range(200):
        lines.append(f"V{i}=org/m{i}")
        lines.append(f"vllm serve $V{i} --max-model-len ${{V{i}}}")
    data = "\n".join(lines).encode() + b"\n"
    S.extract(data, "warm.sh")  # (the front-end's own expressions compiled once)
    compiled = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a, **k: compiled.append(a[0]) or real(*a, **k))
    ex = S.extract(data, "a.sh")
    assert [la.tokens[0].text for la in ex.launches[:3]] == ["org/m0", "org/m1", "org/m2"]
    assert len(compiled) < 20, compiled[:5]  # (not one per variable: the script is read once)
