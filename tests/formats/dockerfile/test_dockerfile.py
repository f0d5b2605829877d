"""Dockerfile front-end."""

from __future__ import annotations

import random

import pytest

from vllm_lint.frontends import dockerfile
from vllm_lint.launch import Edit, Extraction, ParseError


def check_spans(data: bytes, ex: Extraction) -> None:
    for la in ex.launches:
        for t in list(la.tokens) + list(la.dropped):
            if t.text_span is not None:
                assert data[t.text_span.start : t.text_span.end].decode("utf-8", "replace") == t.text
    for e in ex.env + [e for la in ex.launches for e in la.env]:
        if e.name_span is not None:
            assert data[e.name_span.start : e.name_span.end].decode() == e.name
        if e.value_text_span is not None:
            assert data[e.value_text_span.start : e.value_text_span.end].decode() == e.value


def ex(text: str | bytes):
    data = text.encode() if isinstance(text, str) else text
    out = dockerfile.extract(data, "Dockerfile")
    check_spans(data, out)
    return data, out


def apply(data: bytes, edits: list[Edit]) -> bytes:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        data = data[: e.span.start] + e.content.encode() + data[e.span.end :]
    return data


def texts(la):
    return [t.text for t in la.tokens]


def test_interface():
    assert dockerfile.FORMAT == "dockerfile"
    assert dockerfile.might_contain_launch(b"FROM vllm/vllm-openai")
    assert not dockerfile.might_contain_launch(b"FROM ubuntu")


def test_cmd_bare_options_after_vllm_image():
    data, out = ex('FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "m", "--swap-space", "4"]\n')
    (la,) = out.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.8.5"
    assert texts(la) == ["--model", "m", "--swap-space", "4"]
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.8.5", "dockerfile-from")]
    h = la.version_hints[0]
    assert data[h.span.start : h.span.end] == b"v0.8.5"
    edits = la.delete_tokens(la.tokens[2:])
    assert apply(data, edits) == b'FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "m"]\n'
    edits = la.delete_tokens(la.tokens[:2])
    assert apply(data, edits) == b'FROM vllm/vllm-openai:v0.8.5\nCMD ["--swap-space", "4"]\n'


def test_json_escapes_make_text_span_none():
    data, out = ex('FROM vllm/vllm-openai\nCMD ["--x", "{\\"a\\": 1}", "caf\\u00e9"]\n')
    la = out.launches[0]
    assert texts(la) == ["--x", '{"a": 1}', "caf\u00e9"]
    assert la.tokens[0].text_span is not None
    assert la.tokens[1].text_span is None and la.tokens[2].text_span is None
    assert [(h.version) for h in la.version_hints] == ["latest"]


def test_entrypoint_plus_cmd():
    data, out = ex('FROM python:3.11\nRUN pip install vllm==0.9.1\nENTRYPOINT ["vllm", "serve"]\nCMD ["m", "--tp", "2"]\n')
    (la,) = out.launches
    assert la.entry == "vllm serve" and texts(la) == ["m", "--tp", "2"]
    assert [(h.version, h.source) for h in out.version_hints] == [("0.9.1", "pip-install")]


def test_entrypoint_exec_python_module():
    _d, out = ex('FROM nvidia/cuda:12.4.0-runtime\nENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m"]\n')
    assert out.launches[0].entry == "openai.api_server"
    assert texts(out.launches[0]) == ["--model", "m"]
    assert out.launches[0].version_hints == []  # not a vLLM image


def test_shell_form_cmd_and_entrypoint():
    data, out = ex("FROM ubuntu\nCMD vllm serve m \\\n    # comment inside\n    --tp 2\n")
    (la,) = out.launches
    assert texts(la) == ["m", "--tp", "2"] and la.dropped == []
    _d, out = ex('FROM ubuntu\nENTRYPOINT exec vllm serve m --max-model-len=4096\nCMD ["ignored"]\n')
    assert texts(out.launches[0]) == ["m", "--max-model-len=4096"]


def test_sh_c_exec_form():
    data, out = ex('FROM ubuntu\nCMD ["/bin/bash", "-c", "vllm serve m --tp 2 --chat-template \\"x\\""]\n')
    (la,) = out.launches
    assert texts(la) == ["m", "--tp", "2", "--chat-template", "x"]
    t = la.tokens[1]
    assert data[t.text_span.start : t.text_span.end] == b"--tp"


def test_run_with_continuations_and_mounts():
    data, out = ex(
        "FROM python:3.12\n"
        "RUN --mount=type=cache,target=/root/.cache/pip \\\n"
        "    pip install --no-cache-dir \\\n"
        "      # pinned\n"
        "      vllm==0.7.3 && \\\n"
        "    echo ok\n"
    )
    assert [(h.version, h.source) for h in out.version_hints] == [("0.7.3", "pip-install")]
    h = out.version_hints[0]
    assert data[h.span.start : h.span.end] == b"vllm==0.7.3"


def test_arg_version_hints():
    data, out = ex(
        "ARG VLLM_VERSION=0.8.5\n"
        "FROM vllm/vllm-openai:v${VLLM_VERSION}\n"
        "FROM python:3.11 AS app\n"
        "ARG VLLM_VERSION\n"
        "RUN pip install \"vllm==${VLLM_VERSION}\"\n"
    )
    srcs = [(h.version, h.source) for h in out.version_hints]
    assert ("v0.8.5", "dockerfile-arg") in srcs and ("0.8.5", "dockerfile-arg") in srcs
    for h in out.version_hints:
        assert data[h.span.start : h.span.end] == b"0.8.5"


def test_arg_holding_the_whole_image_reference():
    """``ARG BASE=vllm/vllm-openai:v0.23.0`` then ``FROM ${BASE}``: the hint is the tag inside the
    default (what an upgrade rewrites); a quoted default is read, with no span in it (the words'
    reader gives none inside quotes), so an upgrade names it instead of rewriting it."""
    data, out = ex("ARG BASE=vllm/vllm-openai:v0.23.0\nARG OTHER=ghcr.io/x/y:v0.9.0\nFROM ${BASE}\n")
    assert [(h.version, h.source) for h in out.version_hints] == [("v0.23.0", "dockerfile-arg")]
    h = out.version_hints[0]
    assert data[h.span.start : h.span.end] == b"v0.23.0"
    data, out = ex("ARG BASE=\"vllm/vllm-openai:v0.9.2-cu128\"\nFROM $BASE AS serve\n")
    h = out.version_hints[0]
    assert (h.version, data[h.span.start : h.span.end]) == ("v0.9.2-cu128", b"$BASE")


def test_env_forms():
    data, out = ex(
        "FROM vllm/vllm-openai:v0.9.0\n"
        "ENV VLLM_USE_V1=1 HF_HOME=/data VLLM_X=\"a b\"\n"
        "ENV VLLM_LOGGING_LEVEL DEBUG\n"
        "ENV VLLM_PORT=$PORT\n"
        "CMD [\"--model\", \"m\"]\n"
    )
    env = {e.name: e for e in out.env}
    assert set(env) == {"VLLM_USE_V1", "VLLM_X", "VLLM_LOGGING_LEVEL", "VLLM_PORT"}
    assert env["VLLM_X"].value == "a b" and env["VLLM_LOGGING_LEVEL"].value == "DEBUG"
    assert env["VLLM_PORT"].value_opaque
    assert [e.name for e in out.launches[0].env] == ["VLLM_USE_V1", "VLLM_X", "VLLM_LOGGING_LEVEL", "VLLM_PORT"]
    assert b"VLLM_LOGGING_LEVEL" not in apply(data, [Edit(env["VLLM_LOGGING_LEVEL"].delete_span, "")])
    assert apply(data, [Edit(env["VLLM_USE_V1"].delete_span, "")]).count(b"\n") == data.count(b"\n")


def test_multistage_inherits_and_scopes():
    _d, out = ex(
        "FROM vllm/vllm-openai:v0.8.4 AS base\n"
        "ENV VLLM_A=1\n"
        "FROM base AS final\n"
        "CMD [\"--model\", \"m\"]\n"
        "FROM ubuntu AS other\n"
        "CMD [\"--model\", \"x\"]\n"
    )
    (la,) = out.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.8.4"
    assert [e.name for e in la.env] == ["VLLM_A"]


def test_heredoc_run():
    _d, out = ex("# syntax=docker/dockerfile:1\nFROM ubuntu\nRUN <<EOF\npip install vllm==0.6.0\nvllm serve m --tp 2\nEOF\nCMD [\"x\"]\n")
    assert [h.version for h in out.version_hints] == ["0.6.0"]
    assert texts(out.launches[0]) == ["m", "--tp", "2"]


def test_escape_directive_backtick():
    _d, out = ex("# escape=`\nFROM vllm/vllm-openai:v0.9.0\nCMD [\"--model\", `\n  \"m\"]\nRUN vllm serve m `\n  --tp 2\n")
    texts_all = [texts(la) for la in out.launches]
    assert ["--model", "m"] in texts_all and ["m", "--tp", "2"] in texts_all


def test_crlf():
    data, out = ex(b"FROM vllm/vllm-openai:v0.9.0\r\nENV VLLM_A=1\r\nCMD [\"--model\", \"m\"]\r\n")
    assert texts(out.launches[0]) == ["--model", "m"]
    assert out.env[0].value == "1"


def test_nul_raises_and_garbage_survives():
    with pytest.raises(ParseError):
        dockerfile.extract(b"FROM x\x00", "Dockerfile")
    for junk in (b"CMD [", b'CMD ["--x", ', b"FROM\n", b"ENV\n", b"ARG =\n", b"RUN <<EOF\nvllm serve", b"\xff\xfe vllm",
                 b"FROM vllm/vllm-openai\nCMD [\"a\" \"b\"]\n", b"\\\n\\\n", b"FROM vllm/vllm-openai\nCMD []\n"):
        ex(junk)


def test_quick_fuzz_no_crash():
    rng = random.Random(7)
    pieces = ["FROM ", "vllm/vllm-openai:v0.8.5", "CMD ", "ENTRYPOINT ", "RUN ", "ENV ", "ARG ", "[", "]", '"', ",",
              "--tp", "2", "\\\n", "\n", "# c\n", "VLLM_X=1", "${V}", "<<EOF\n", "EOF\n", "vllm serve m", " AS b",
              "\r\n", "`", "\\u00e9", "\\", "pip install vllm==1", "bash -c '"]
    for _ in range(300):
        s = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30))).encode()
        _d, out = ex(s)
        for la in out.launches:
            if la.tokens and la.delete_tokens:
                la.delete_tokens(la.tokens[:1])


def test_from_registry_port_untagged():
    data, out = ex('FROM registry:5000/vllm/vllm-openai\nCMD ["--model", "m"]\n')
    (h,) = out.launches[0].version_hints
    assert h.version == "latest" and data[h.span.start : h.span.end] == b"registry:5000/vllm/vllm-openai"
