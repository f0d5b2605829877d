"""Shell front-end: launches, tokens with exact spans, env, hints, dropped options, deletions."""

from __future__ import annotations

import random

import pytest

from vllm_lint.frontends import shell
from vllm_lint.frontends.embedding import Embedding
from vllm_lint.launch import Edit, Extraction, Launch, ParseError


def check_spans(data: bytes, ex: Extraction) -> None:
    """Invariant: wherever a text span is set, it spells the decoded text verbatim."""
    for la in ex.launches:
        assert la.span.start <= la.span.end <= len(data)
        for t in list(la.tokens) + list(la.dropped):
            if t.text_span is not None:
                assert data[t.text_span.start : t.text_span.end].decode("utf-8", "replace") == t.text
                assert t.span is not None
                assert t.span.start <= t.text_span.start <= t.text_span.end <= t.span.end
        for e in la.env:
            check_env(data, e)
    for e in ex.env:
        check_env(data, e)


def check_env(data: bytes, e) -> None:
    if e.name_span is not None:
        assert data[e.name_span.start : e.name_span.end].decode() == e.name
    if e.value_text_span is not None:
        assert data[e.value_text_span.start : e.value_text_span.end].decode("utf-8", "replace") == e.value


def ex(text: str | bytes) -> tuple[bytes, Extraction]:
    data = text.encode() if isinstance(text, str) else text
    out = shell.extract(data, "run.sh")
    check_spans(data, out)
    return data, out


def one(text: str | bytes) -> tuple[bytes, Launch]:
    data, out = ex(text)
    assert len(out.launches) == 1, out.launches
    return data, out.launches[0]


def texts(la: Launch) -> list[str]:
    return [t.text for t in la.tokens]


def apply(data: bytes, edits: list[Edit]) -> bytes:
    for e in sorted(edits, key=lambda e: e.span.start, reverse=True):
        data = data[: e.span.start] + e.content.encode() + data[e.span.end :]
    return data


def find_tok(la: Launch, text: str, after: int = 0):
    return [t for t in la.tokens if t.text == text][after]


def test_module_interface():
    assert shell.FORMAT == "shell"
    assert shell.might_contain_launch(b"vllm serve m")
    assert shell.might_contain_launch(b"export VLLM_X=1")
    assert not shell.might_contain_launch(b"echo hi")


def test_simple_serve():
    data, la = one("vllm serve meta-llama/Llama-3-8B --tensor-parallel-size 2 --dtype=half\n")
    assert la.entry == "vllm serve"
    assert texts(la) == ["meta-llama/Llama-3-8B", "--tensor-parallel-size", "2", "--dtype=half"]
    t = find_tok(la, "--dtype=half")
    assert t.text_span == t.span
    assert data[la.span.start : la.span.end].startswith(b"vllm serve")
    assert not la.opaque and la.dropped == []


def test_quoted_words_text_span_excludes_quotes():
    data, la = one("""vllm serve "m" '--max-model-len' "4096" --x='{"a": 1}' --y "a\\"b"\n""")
    assert texts(la) == ["m", "--max-model-len", "4096", '--x={"a": 1}', "--y", 'a"b']
    t = find_tok(la, "--max-model-len")
    assert data[t.span.start : t.span.end] == b"'--max-model-len'"
    assert t.text_span == type(t.span)(t.span.start + 1, t.span.end - 1)
    assert find_tok(la, '--x={"a": 1}').text_span is None  # concatenation: not one verbatim run
    assert find_tok(la, 'a"b').text_span is None  # escape inside


def test_json_in_single_quotes_is_verbatim():
    data, la = one("""vllm serve m --compilation-config '{"level": 3, "cudagraph_capture_sizes": [1, 2]}'\n""")
    t = la.tokens[-1]
    assert t.text == '{"level": 3, "cudagraph_capture_sizes": [1, 2]}'
    assert t.text_span is not None


def test_escaped_space_word():
    data, la = one("vllm serve a\\ b --x\n")
    assert texts(la) == ["a b", "--x"]
    assert la.tokens[0].text_span is None


def test_expansions_opaque_and_splat():
    data, la = one('vllm serve "$MODEL" --tp $TP --port=${PORT:-8000} $EXTRA_ARGS "$@" "${ARGS[@]}" $(cat flags)\n')
    by = {t.text: t for t in la.tokens}
    assert by["$MODEL"].opaque and not by["$MODEL"].splat
    assert by["$TP"].opaque and not by["$TP"].splat
    assert by["--port=${PORT:-8000}"].opaque and not by["--port=${PORT:-8000}"].splat
    for w in ("$EXTRA_ARGS", "$@", "${ARGS[@]}", "$(cat flags)"):
        assert by[w].splat and by[w].opaque, w
    assert la.opaque
    assert all(t.text_span is None for t in la.tokens if t.opaque)


@pytest.mark.parametrize(
    "script, entry",
    [
        ("cd /app && vllm serve m --tp 2 || exit 1\n", "vllm serve"),
        ("echo start; exec python3 -m vllm.entrypoints.openai.api_server --model m\n", "openai.api_server"),
        ("vllm serve m 2>&1 | tee log.txt\n", "vllm serve"),
        ("(cd x; vllm serve m) &\n", "vllm serve"),
        ("start() {\n  vllm serve m \"$@\"\n}\nstart\n", "vllm serve"),
        ("if [ -n \"$X\" ]; then\n  vllm serve m\nelse\n  echo no\nfi\n", "vllm serve"),
        ("for i in 1 2; do\n  vllm serve m --port 800$i &\ndone\nwait\n", "vllm serve"),
        ("while true; do vllm serve m; sleep 1; done\n", "vllm serve"),
        ("case $1 in\n  serve) vllm serve m ;;\nesac\n", "vllm serve"),
        ("nohup python -m vllm.entrypoints.api_server --model m > out.log 2>&1 &\n", "api_server"),
        ("srun -N 1 --gres=gpu:8 numactl --cpunodebind=0 vllm serve m\n", "vllm serve"),
        ("uv run vllm serve m\n", "vllm serve"),
    ],
)
def test_contexts(script, entry):
    _data, la = one(script)
    assert la.entry == entry
    assert "m" in texts(la) or "--model" in texts(la)


def test_not_launches():
    _d, out = ex("vllm bench serve --model m\npip install vllm\necho vllm serve\nvllm --version\n")
    assert out.launches == []


def test_env_prefix_and_exports():
    data, out = ex(
        "export VLLM_ATTENTION_BACKEND=FLASHINFER\n"
        "VLLM_USE_V1=0\n"
        "export HF_HOME=/x\n"
        "VLLM_LOGGING_LEVEL=DEBUG CUDA_VISIBLE_DEVICES=0,1 vllm serve m\n"
    )
    assert [(e.name, e.value) for e in out.env] == [
        ("VLLM_ATTENTION_BACKEND", "FLASHINFER"), ("VLLM_USE_V1", "0")]
    la = out.launches[0]
    assert [(e.name, e.value) for e in la.env] == [
        ("VLLM_ATTENTION_BACKEND", "FLASHINFER"), ("VLLM_USE_V1", "0"),
        ("VLLM_LOGGING_LEVEL", "DEBUG"), ("CUDA_VISIBLE_DEVICES", "0,1")]
    exp = out.env[0]
    assert apply(data, [Edit(exp.delete_span, "")]).startswith(b"VLLM_USE_V1=0\n")
    pre = la.env[2]
    assert apply(data, [Edit(pre.delete_span, "")]).endswith(b"\nCUDA_VISIBLE_DEVICES=0,1 vllm serve m\n")


def test_export_after_launch_not_attached():
    _d, out = ex("vllm serve m\nexport VLLM_X=1\n")
    assert out.launches[0].env == []
    assert [e.name for e in out.env] == ["VLLM_X"]


def test_export_opaque_value():
    _d, out = ex('export VLLM_X="$(nproc)"\nexport VLLM_Y="a b" OTHER=1\n')
    assert out.env[0].value_opaque and out.env[0].value is None
    assert out.env[1].value == "a b" and out.env[1].delete_span is None


def test_docker_run_env_and_tag():
    data, la = one(
        "docker run --runtime nvidia --gpus all \\\n"
        "  -v ~/.cache/huggingface:/root/.cache/huggingface \\\n"
        "  --env \"HUGGING_FACE_HUB_TOKEN=$HF_TOKEN\" \\\n"
        "  -e VLLM_USE_V1=1 \\\n"
        "  -p 8000:8000 --ipc=host \\\n"
        "  vllm/vllm-openai:v0.8.5 \\\n"
        "  --model mistralai/Mistral-7B-v0.1 --max-model-len 8192\n"
    )
    assert la.entry == "docker:vllm/vllm-openai:v0.8.5"
    assert texts(la) == ["--model", "mistralai/Mistral-7B-v0.1", "--max-model-len", "8192"]
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.8.5", "image-tag")]
    h = la.version_hints[0]
    assert data[h.span.start : h.span.end] == b"vllm/vllm-openai:v0.8.5"
    env = {e.name: e for e in la.env}
    assert env["HUGGING_FACE_HUB_TOKEN"].value_opaque
    v1 = env["VLLM_USE_V1"]
    assert v1.value == "1" and data[v1.value_text_span.start : v1.value_text_span.end] == b"1"
    assert b"VLLM_USE_V1" not in apply(data, [Edit(v1.delete_span, "")])
    assert b"  -p 8000:8000" in apply(data, [Edit(v1.delete_span, "")])


def test_pip_install_hint():
    data, out = ex("pip install vllm==0.8.5\nvllm serve m\n")
    assert [(h.version, h.source) for h in out.version_hints] == [("0.8.5", "pip-install")]
    h = out.version_hints[0]
    assert data[h.span.start : h.span.end] == b"vllm==0.8.5"


def test_sh_c_single_quotes():
    data, la = one("docker run --entrypoint bash img -c 'vllm serve m --tp 2'\n")
    assert texts(la) == ["m", "--tp", "2"]
    t = find_tok(la, "--tp")
    assert data[t.text_span.start : t.text_span.end] == b"--tp"


def test_sh_c_double_quotes_with_escapes():
    data, la = one('bash -lc "cd /x && vllm serve m --chat-template \\"$T\\" --max-model-len 4096 --q \\"a b\\""\n')
    assert texts(la)[:2] == ["m", "--chat-template"]
    assert find_tok(la, "--max-model-len").text_span is not None
    ab = find_tok(la, "a b")  # its quotes came from escapes, its text is still verbatim
    assert data[ab.text_span.start : ab.text_span.end] == b"a b"
    # deletion within the 1:1 part works, deletion across escapes is refused
    edits = la.delete_tokens([find_tok(la, "--max-model-len"), find_tok(la, "4096")])
    assert apply(data, edits) == b'bash -lc "cd /x && vllm serve m --chat-template \\"$T\\" --q \\"a b\\""\n'
    assert la.delete_tokens([find_tok(la, "--q"), find_tok(la, "a b")]) is None


def test_sh_c_nested_twice():
    data, la = one("""sh -c "bash -c 'vllm serve m --x 1'"\n""")
    assert texts(la) == ["m", "--x", "1"]
    assert data[la.tokens[1].text_span.start : la.tokens[1].text_span.end] == b"--x"


def test_heredoc():
    data, out = ex("ssh host bash <<'EOF'\nexport VLLM_X=1\nvllm serve m --tp 4\nEOF\necho done\n")
    la = out.launches[0]
    assert texts(la) == ["m", "--tp", "4"]
    assert [e.name for e in la.env] == ["VLLM_X"]


def test_python_heredoc_not_parsed_as_shell():
    _d, out = ex("python - <<EOF\nimport os\nos.system('vllm serve m')\nEOF\n")
    assert out.launches == []


def test_continuation_with_comment_line_drops_options():
    data, la = one("vllm serve m \\\n  --tp 2 \\\n  # --dtype half \\\n  --max-model-len 4096 \\\n  --port 8000\n")
    assert texts(la) == ["m", "--tp", "2"]
    assert [t.text for t in la.dropped] == ["--max-model-len", "4096", "--port", "8000"]
    d = la.dropped[0]
    assert data[d.text_span.start : d.text_span.end] == b"--max-model-len"


def test_missing_backslash_drops_following_dash_lines():
    data, la = one("vllm serve m \\\n  --tp 2\n  --max-model-len 4096 \\\n  --port 8000\necho next\n")
    assert texts(la) == ["m", "--tp", "2"]
    assert [t.text for t in la.dropped] == ["--max-model-len", "4096", "--port", "8000"]


def test_backslash_space_drops():
    data, la = one("vllm serve m \\\n  --dtype half \\  \n  --port 8000\n")
    assert texts(la) == ["m", "--dtype", "half"]
    assert [t.text for t in la.dropped] == ["--port", "8000"]


def test_no_false_dropped():
    _d, la = one("vllm serve m \\\n  --tp 2\n\necho --not-dropped\n-x\n")
    assert la.dropped == []
    _d, la = one("vllm serve m &\n--x\n")
    assert la.dropped == []


def test_crlf_file():
    data, la = one(b"#!/bin/sh\r\nvllm serve m --tp 2\r\necho ok\r\n")
    assert texts(la) == ["m", "--tp", "2"] and la.dropped == []


def test_crlf_continuation_is_broken():
    data, la = one(b"vllm serve m \\\r\n  --tp 2 \\\r\n  --port 8000\r\n")
    assert texts(la) == ["m"]
    assert [t.text for t in la.dropped] == ["--tp", "2", "--port", "8000"]


def test_non_utf8_bytes():
    data, la = one(b"# caf\xe9\nvllm serve m --served-model-name caf\xe9 --tp 2\n")
    assert texts(la)[-2:] == ["--tp", "2"]
    assert la.tokens[2].text == "caf\ufffd"


def test_nul_byte_raises():
    with pytest.raises(ParseError):
        shell.extract(b"vllm serve\x00 m", "x.sh")


def test_broken_scripts_still_yield_launches():
    for s in (
        "if [ x ]; then\n vllm serve m --tp 2\n",  # missing fi
        "vllm serve m --x 'unterminated\n",
        "echo $((\nvllm serve m2 --tp 2\n",
        "}}}\nvllm serve m3\n((((",
    ):
        _d, out = ex(s)
        assert isinstance(out, Extraction)
    _d, out = ex("if [ x ]; then\n vllm serve m --tp 2\n")
    assert texts(out.launches[0]) == ["m", "--tp", "2"]


# ---- delete_tokens


def test_delete_whole_continuation_line():
    data, la = one("vllm serve m \\\n  --swap-space 4 \\\n  --tp 2\n")
    edits = la.delete_tokens([find_tok(la, "--swap-space"), find_tok(la, "4")])
    assert apply(data, edits) == b"vllm serve m \\\n  --tp 2\n"


def test_delete_last_line_of_command():
    data, la = one("vllm serve m \\\n  --tp 2 \\\n  --swap-space 4\necho\n")
    edits = la.delete_tokens([find_tok(la, "--swap-space"), find_tok(la, "4")])
    assert apply(data, edits) == b"vllm serve m \\\n  --tp 2\necho\n"


def test_delete_inline():
    data, la = one("vllm serve m --swap-space 4 --tp 2\n")
    edits = la.delete_tokens([find_tok(la, "--swap-space"), find_tok(la, "4")])
    assert apply(data, edits) == b"vllm serve m --tp 2\n"
    edits = la.delete_tokens([find_tok(la, "--tp"), find_tok(la, "2")])
    assert apply(data, edits) == b"vllm serve m --swap-space 4\n"


def test_delete_first_on_line_with_more_after():
    data, la = one("vllm serve m \\\n  --swap-space 4 --tp 2 \\\n  --x\n")
    edits = la.delete_tokens([find_tok(la, "--swap-space"), find_tok(la, "4")])
    assert apply(data, edits) == b"vllm serve m \\\n  --tp 2 \\\n  --x\n"


def test_delete_crlf_line():
    data, la = one(b"vllm serve m --swap-space=4 --tp 2\r\n")
    edits = la.delete_tokens([find_tok(la, "--swap-space=4")])
    assert apply(data, edits) == b"vllm serve m --tp 2\r\n"


def test_delete_in_docker_run():
    data, la = one("docker run --gpus all vllm/vllm-openai:v0.9.0 \\\n  --model m \\\n  --disable-log-requests \\\n  --port 8000\n")
    edits = la.delete_tokens([find_tok(la, "--disable-log-requests")])
    assert apply(data, edits) == b"docker run --gpus all vllm/vllm-openai:v0.9.0 \\\n  --model m \\\n  --port 8000\n"


# ---- embeddings (nested use by other front-ends)


def test_extract_script_with_an_embedding():
    outer = b"run: |\n  vllm serve m --tp 2\n"
    start = outer.index(b"vllm")
    script = outer[start:]
    out = shell.extract_script(script, "x.yaml", Embedding.identity(script, start))
    la = out.launches[0]
    t = find_tok(la, "--tp")
    assert outer[t.text_span.start : t.text_span.end] == b"--tp"
    edits = la.delete_tokens([t, find_tok(la, "2")])
    assert apply(outer, edits) == b"run: |\n  vllm serve m\n"


def test_embedding_holes():
    script = b"vllm serve m --tp 2"
    out = shell.extract_script(script, "x", Embedding(script, [(0, 100, 13), (15, 115, 4)]))
    la = out.launches[0]
    t = find_tok(la, "--tp")
    assert t.text_span is None
    assert la.delete_tokens([t, find_tok(la, "2")]) is None
    assert find_tok(la, "2").text_span.start == 118


# ---- fuzz


def test_quick_fuzz_no_crash():
    rng = random.Random(1234)
    pieces = ["vllm", "serve", "m", "--tp", "2", "\\\n", "\\ \n", "\\\r\n", "'", '"', "$X", "${A[@]}",
              "$(", ")", "`", "#", "\n", ";", "&&", "|", "<<EOF\n", "EOF\n", "bash -c", "docker run",
              "-e", "VLLM_X=1", "export", "vllm/vllm-openai:v0.8.5", " ", " ", "\xe9", "{", "}", "if",
              "then", "fi", "(", "=", "$'\\n'", "--x=", "sh -c '", "pip install vllm==0.8.5"]
    for _ in range(400):
        s = "".join(rng.choice(pieces) + rng.choice(["", " "]) for _ in range(rng.randint(1, 40)))
        data = s.encode("utf-8", "surrogateescape")
        if rng.random() < 0.2:
            data = data.replace(b"\xc3", b"\xff")
        out = shell.extract(data, "f.sh")
        check_spans(data, out)
        for la in out.launches:
            if la.tokens:
                res = la.delete_tokens(la.tokens[:1])
                if res:
                    apply(data, res)


def test_exports_that_rules_read_are_recorded_and_others_are_not():
    from vllm_lint.frontends import shell

    data = (b"export HF_TOKEN=hf_x\nexport NCCL_CUMEM_ENABLE=0\nexport PATH=/x:$PATH\n"
            b"CUDA_VISIBLE_DEVICES=0,1\nvllm serve m\n")
    ex = shell.extract(data, "x.sh")
    names = {e.name for e in ex.env}
    assert names == {"HF_TOKEN", "NCCL_CUMEM_ENABLE", "CUDA_VISIBLE_DEVICES"}
    assert {e.name for e in ex.launches[0].env} >= names


@pytest.mark.parametrize("ref", ["$IMAGE", '"$IMAGE"', "${IMAGE}", '"${IMAGE}"'])
@pytest.mark.parametrize("assign", ["IMAGE=vllm/vllm-openai:v0.27.1", "export IMAGE='vllm/vllm-openai:v0.27.1'"])
def test_docker_run_with_the_image_in_a_variable(assign, ref):
    """`IMAGE=vllm/vllm-openai:vX` then `docker run ... $IMAGE --opts`: the launch is found (the
    command itself never spells "vllm") and the tag is the version hint, pointing at the value."""
    data, out = ex(f"{assign}\ndocker run --gpus all -e VLLM_USE_V1=1 {ref} \\\n  --model m \\\n  --swap-space 4\n")
    (la,) = out.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.27.1"
    assert [t.text for t in la.tokens] == ["--model", "m", "--swap-space", "4"]
    assert [e.name for e in la.env] == ["VLLM_USE_V1"]
    (hint,) = la.version_hints
    assert hint.version == "v0.27.1" and data[hint.span.start:hint.span.end].strip(b"'") == b"vllm/vllm-openai:v0.27.1"


def test_image_variable_of_another_image_is_not_a_launch():
    _, out = ex("IMAGE=nginx:1.25\ndocker run $IMAGE --model m\n")
    assert out.launches == []


def test_docker_run_gpus_sets_hardware():
    _d, out = ex(
        "docker run --gpus 2 vllm/vllm-openai:v0.8.5 --model m -tp 4\n"
        "docker run --gpus '\"device=0,1,2\"' --rm vllm/vllm-openai:v0.8.5 --model m\n"
        "docker run --gpus all vllm/vllm-openai:v0.8.5 --model m\n"
        "podman run --device nvidia.com/gpu=0 --device nvidia.com/gpu=1 vllm/vllm-openai:v0.8.5 m\n"
        "sudo docker run --gpus=1 img vllm serve m\n"
    )
    got = [(la.hardware.gpu_count, la.hardware.source) for la in out.launches]
    assert got == [
        (2, "docker --gpus"), (3, "docker --gpus"), (None, None),
        (2, "podman --device nvidia.com/gpu"), (1, "docker --gpus"),
    ]


def test_systemd_unit_written_by_heredoc_exec_start_is_a_launch():
    data, out = ex(
        "export VLLM_USE_V1=0\n"
        "cat > /etc/systemd/system/vllm.service <<EOF\n"
        "[Unit]\n"
        "Description=vLLM\n"
        "[Service]\n"
        'Environment="VLLM_ATTENTION_BACKEND=XFORMERS" HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz12\n'
        "Environment=VLLM_LOGGING_LEVEL=DEBUG\n"
        "ExecStart=-/opt/venv/bin/vllm serve m \\\n"
        "  --swap-space 4 --port $PORT\n"
        "Restart=always\n"
        "EOF\n"
    )
    (la,) = out.launches
    assert la.entry == "vllm serve" and la.context["systemd"] == "ExecStart"
    assert [t.text for t in la.tokens] == ["m", "--swap-space", "4", "--port", "$PORT"]
    assert la.tokens[-1].opaque
    # the unit's Environment= lines, not the script's exports (systemd does not inherit them)
    assert [(e.name, e.value) for e in la.env] == [
        ("VLLM_ATTENTION_BACKEND", "XFORMERS"), ("HF_TOKEN", "hf_abcdefghijklmnopqrstuvwxyz12"),
        ("VLLM_LOGGING_LEVEL", "DEBUG"),
    ]
    assert la.env[0].delete_span is None  # two assignments on that line
    cut = la.env[2].delete_span
    assert data[cut.start:cut.end] == b"Environment=VLLM_LOGGING_LEVEL=DEBUG\n"
    i = [t.text for t in la.tokens].index("--swap-space")
    new = shell.extract(apply(data, la.delete_tokens(la.tokens[i:i + 2])), "run.sh")
    assert [t.text for t in new.launches[0].tokens] == ["m", "--port", "$PORT"]


def test_systemd_unit_in_command_substitution_and_tee():
    data, out = ex(
        "UNIT=$(cat <<EOF\n"
        "[Service]\n"
        "ExecStart=/usr/bin/vllm serve m1 --max-model-len 10\n"
        "EOF\n"
        ")\n"
        "sudo tee /etc/systemd/system/v2.service > /dev/null <<'EOF'\n"
        "ExecStart=/usr/bin/vllm serve m2\n"
        "EOF\n"
        "cat > notes.txt <<EOF\n"
        "ExecStart=/usr/bin/vllm serve not-a-unit\n"
        "EOF\n"
    )
    assert [la.tokens[0].text for la in out.launches] == ["m1", "m2"]
    sp = out.launches[0].tokens[0].text_span
    assert data[sp.start:sp.end] == b"m1"


# ---------------------------------------------------------------------------------------------
# issue 7: what the cheaper paths must still give


def _named_nodes(root):
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.is_named:
            yield node


@pytest.mark.parametrize(
    "script",
    [
        b"vllm serve m --tp 2 --x=1 8000 /a/b/vllm 'q' '' \"d\" \"$X\" a\\ b $'\\x41\\n' {a,b} ~/x *.sh\n",
        b"'vllm' serve m\n\"vllm\" serve m\nv\\llm serve m\n/opt/bin/vllm serve m \\\n  --tp 2 \\\r\n  --y\n",
        b"VLLM_X=1 A='b c' B=\"$D\" C=(1 2) vllm serve m $EXTRA_ARGS \"$@\" \"${A[@]}\" $(cat f) `x` $((1+2))\n",
        b"export VLLM_Y=caf\xe9 IMAGE=vllm/vllm-openai:v1\ndocker run -e A=1 --gpus=2 $IMAGE --model m\n",
        b"bash -c 'vllm serve m --tp 2' && sh -lc \"vllm serve \\\"a b\\\"\"\ncat <<EOF\nvllm serve m\nEOF\n",
        b"x=$'a\\'b' y=$\"t\" z=a$X\"b\"'c' w=\\$ v=\\\\ u=\"\\\\$\"\necho 0x1f 12 -3 -- - ''\n",
    ],
)
def test_word_fast_path_decodes_as_the_general_decoder(script):
    """``_Decoder.word`` takes a short cut for a word that is one leaf spelled as written; on
    every named node of these scripts it gives what the general decoder does."""
    dec = shell._Decoder(script)
    fast = 0
    for node in _named_nodes(shell.parser().parse(script).root_node):
        a, b = dec.word(node), dec.decode(node)
        fast += a.pos.__class__ is range
        assert (bytes(a.raw), list(a.pos), a.text, a.opaque, a.splat, a.start, a.end, a.text_range()) == \
               (bytes(b.raw), list(b.pos), b.text, b.opaque, b.splat, b.start, b.end, b.text_range()), node.type
    assert fast


@pytest.mark.parametrize(
    "script",
    [b"a\n\n  b; c &&  d\n# x\nif x; then y; fi  \\\n z\n", b"vllm serve m \\\n  --tp 2 # c\ncat <<EOF\nvllm\nEOF\n",
     b"f() {\n  vllm serve m;\n}\n((((\n", b""],
)
def test_child_after_is_the_first_child_ending_after_the_byte(script):
    """On every node and at every byte: a child's bytes (tree-sitter's search) and the gaps
    between children (bisection) alike."""
    from bisect import bisect_right

    for node in _named_nodes(shell.parser().parse(script).root_node):
        kids = node.children
        ends = [c.end_byte for c in kids]
        for i in range(node.start_byte - 1, node.end_byte + 2):
            k = bisect_right(ends, i)
            got = shell._child_after(node, i)
            if k == len(kids):
                assert got is None
            else:
                assert (got.start_byte, got.end_byte, got.type) == (kids[k].start_byte, kids[k].end_byte, kids[k].type)


def _full_walk(ctx, root):
    """The walk as first written: every child of a node holding a mark is tested."""
    stack = [root]
    while stack:
        node = stack.pop()
        if not shell._relevant(ctx, node):
            continue
        t = node.type
        if t == "command":
            shell._command(ctx, node)
            continue
        if t == "declaration_command":
            shell._declaration(ctx, node)
            continue
        if t == "variable_assignment":
            shell._bare_assignment(ctx, node)
            continue
        if t == "redirected_statement":
            shell._heredocs(ctx, node)
        if t == "heredoc_redirect":
            continue
        stack.extend(reversed(node.children))


def _walk_scripts():
    rng = random.Random(7)
    filler = ["echo a", "ls -la /tmp", "x=$(date)", "if [ -f a ]; then\n  rm a\nfi", "for i in 1 2; do echo $i; done",
              "f() { true; }", "cat a | grep b > c", "", "# vllm in a comment", "(cd /x && make)"]
    hits = ["vllm serve m --tp 2", "export VLLM_X=1", "VLLM_Y=2", "docker run $IMAGE --model m",
            "IMAGE=vllm/vllm-openai:v0.9.0", "NCCL_DEBUG=INFO python -m vllm.entrypoints.openai.api_server --model m",
            "if true; then\n  { vllm serve m2; }\nfi", "bash -c 'vllm serve m3'", "pip install vllm==0.8.5",
            "cat > /etc/systemd/system/v.service <<EOF\n[Service]\nExecStart=/bin/vllm serve m4\nEOF",
            "while :; do\n  case $1 in\n    a) HF_TOKEN=x vllm serve m5 ;;\n  esac\ndone", "echo ${IMAGE} $IMAGE"]
    for _ in range(60):
        lines = [rng.choice(filler) if rng.random() < 0.7 else rng.choice(hits) for _ in range(rng.randint(1, 40))]
        yield "\n".join(lines).encode() + b"\n"


@pytest.mark.parametrize("script", list(_walk_scripts()))
def test_walk_visits_what_a_full_walk_visits(script, monkeypatch):
    """The walk jumps to the children that hold a mark; it must reach the same nodes, in the
    same order, as testing every child (marks added on the way by ``IMAGE=vllm/...`` included)."""

    def run(walk):
        seen = []
        with monkeypatch.context() as m:
            m.setattr(shell, "_walk", walk)
            for name in ("_command", "_declaration", "_bare_assignment", "_heredocs"):
                real = getattr(shell, name)
                m.setattr(shell, name, lambda ctx, node, _r=real, _n=name: (
                    seen.append((_n, node.start_byte, node.end_byte)), _r(ctx, node))[1])
            ex = shell.extract(script, "w.sh")
        return seen, [(la.entry, [t.text for t in la.tokens], [e.name for e in la.env]) for la in ex.launches], \
            [e.name for e in ex.env], [h.version for h in ex.version_hints]

    assert run(shell._walk) == run(_full_walk)


def test_launches_keep_neither_the_tree_nor_a_cycle(monkeypatch):
    """The launches' delete_tokens keep the words' offsets, not the words (a word holds a
    tree-sitter node, and a node its whole tree), and the extraction holds no reference cycle:
    all of it is freed as soon as it is dropped."""
    import gc
    import sys

    real = shell.parser()
    trees = [real.parse(b"echo control")]

    class Recording:
        def parse(self, data):
            trees.append(real.parse(data))
            return trees[-1]

    monkeypatch.setattr(shell, "parser", lambda: Recording())
    data = (b"export VLLM_X=1\nIMAGE=vllm/vllm-openai:v1\ndocker run $IMAGE --x 1\nbash -c 'vllm serve m --tp 2'\n"
            b"vllm serve m \\\n --a 1\n  --b 2\nbash <<EOF\nvllm serve m3\nEOF\n")
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        ex = shell.extract(data, "x.sh")
        assert len(ex.launches) == 4 and len(trees) == 4
        assert len({sys.getrefcount(t) for t in trees}) == 1  # no more references than the control's
        edits = [la.delete_tokens(la.tokens[-1:]) for la in ex.launches]
        assert all(edits)
        del ex
        assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_delete_tokens_of_a_copied_token_matches_by_span():
    from vllm_lint.record import replace

    data, la = one("vllm serve m --swap-space 4 --tp 2\n")
    copy = replace(find_tok(la, "--swap-space"))
    edits = la.delete_tokens([find_tok(la, "4"), copy])
    assert apply(data, edits) == b"vllm serve m --tp 2\n"
    assert la.delete_tokens([replace(copy, span=None)]) is None


# ---- arrays expanded into a launch: "${ARGS[@]}"

_ARRAY_SCRIPT = ("#!/bin/bash\n"
                 "ARGS=(\n"
                 "  --model \"$MODEL\"\n"
                 "  --swap-space 8  # why\n"
                 "  --dtype bfloat16\n"
                 ")\n"
                 "if [[ -n \"$LORA\" ]]; then\n"
                 "  ARGS+=(--enable-lora --max-loras 4)\n"
                 "fi\n"
                 "exec vllm serve \"${ARGS[@]}\" --port 8000 \"$@\"\n")


def test_an_array_assigned_before_the_launch_is_read_where_it_is_written():
    data, la = one(_ARRAY_SCRIPT)
    assert texts(la) == ["--model", "$MODEL", "--swap-space", "8", "--dtype", "bfloat16", "--enable-lora",
                         "--max-loras", "4", "--port", "8000", "$@"]
    swap = find_tok(la, "--swap-space")
    assert data[swap.span.start:swap.span.end] == b"--swap-space" and data.index(b"--swap-space") == swap.span.start
    assert la.opaque  # "$@" is still there
    i = texts(la).index("--swap-space")
    new = apply(data, la.delete_tokens(la.tokens[i:i + 2]))
    assert new == data.replace(b"--swap-space 8  ", b"")  # the comment stays on its line
    i = texts(la).index("--dtype")
    assert apply(data, la.delete_tokens(la.tokens[i:i + 2])) == data.replace(b"  --dtype bfloat16\n", b"")
    i = texts(la).index("--max-loras")
    assert apply(data, la.delete_tokens(la.tokens[i:i + 2])) == data.replace(b" --max-loras 4", b"")
    # words of the array and of the command together: no single cut removes them
    j = texts(la).index("--port")
    assert la.delete_tokens([la.tokens[i], la.tokens[j]]) is None
    for t in (data, new):
        shell.extract_script(t, "x.sh")  # still shell


@pytest.mark.parametrize("assign", ["declare -a ARGS=(--swap-space 8 --dtype x)", "local ARGS=(--swap-space 8 --dtype x)"])
def test_declared_and_local_arrays_are_read(assign):
    data, la = one(f"run() {{\n  {assign}\n  vllm serve m \"${{ARGS[@]}}\"\n}}\n")
    assert texts(la) == ["m", "--swap-space", "8", "--dtype", "x"]
    i = texts(la).index("--swap-space")
    assert b"(--dtype x)" in apply(data, la.delete_tokens(la.tokens[i:i + 2]))
    assert b"(--swap-space 8)" in apply(data, la.delete_tokens(la.tokens[i + 2:i + 4]))
    assert la.delete_tokens(la.tokens[i:i + 4]) is None  # the array would be left empty: not cut


@pytest.mark.parametrize("script", [
    "ARGS=(--swap-space 8)\nARGS[1]=4\nvllm serve m \"${ARGS[@]}\"\n",  # an element assigned
    "ARGS=(--swap-space 8)\nARGS=--dtype\nvllm serve m \"${ARGS[@]}\"\n",  # a scalar assigned
    "ARGS=(--swap-space 8)\nARGS=(--dtype x)\nvllm serve m \"${ARGS[@]}\"\n",  # assigned twice
    "ARGS+=(--swap-space 8)\nvllm serve m \"${ARGS[@]}\"\n",  # appended to what the caller gave
    "ARGS=(--swap-space 8)\nread -ra ARGS <<< \"$X\"\nvllm serve m \"${ARGS[@]}\"\n",  # read into it
    "ARGS=(--swap-space 8)\nunset ARGS\nvllm serve m \"${ARGS[@]}\"\n",
    "vllm serve m \"${ARGS[@]}\"\nARGS=(--swap-space 8)\n",  # assigned after the command
    "# ARGS=(--swap-space 8)\nvllm serve m \"${ARGS[@]}\"\n",  # a comment only
    "echo 'ARGS=(--swap-space 8)'\nvllm serve m \"${ARGS[@]}\"\n",  # a string only
    "ARGS=(--swap-space 8)\nvllm serve m \"${ARGS[*]}\"\n",  # one word, not a splat
])
def test_an_array_the_script_does_not_say_for_certain_stays_opaque(script):
    _, la = one(script)
    assert "--swap-space" not in texts(la)
    assert la.opaque or "[*]" in script  # (as before: "${A[*]}" is one opaque word)


# ---- strings of options expanded into a launch: $OPTS

@pytest.mark.parametrize("assign, after", [
    ('EXTRA_ARGS="--swap-space 4 --dtype half"', 'EXTRA_ARGS="--dtype half"'),
    ("export EXTRA_ARGS='--swap-space 4 --dtype half'", "export EXTRA_ARGS='--dtype half'"),
    ('EXTRA_ARGS="\n  --swap-space 4\n  --dtype half\n"', 'EXTRA_ARGS="\n  --dtype half\n"'),
])
def test_a_string_of_options_is_read_where_it_is_written(assign, after):
    data, la = one(f"#!/bin/sh\n{assign}\nvllm serve m $EXTRA_ARGS --port 8000\n")
    assert texts(la) == ["m", "--swap-space", "4", "--dtype", "half", "--port", "8000"]
    assert not la.opaque
    swap = find_tok(la, "--swap-space")
    assert data[swap.span.start:swap.span.end] == b"--swap-space"
    i = texts(la).index("--swap-space")
    assert apply(data, la.delete_tokens(la.tokens[i:i + 2])) == data.replace(assign.encode(), after.encode())


@pytest.mark.parametrize("script", [
    'OPTS="--swap-space $N"\nvllm serve m $OPTS\n',  # an expansion in the value
    'OPTS="--swap-space 4 *"\nvllm serve m $OPTS\n',  # a glob character
    'OPTS="--swap-space 4"\nOPTS="--dtype half"\nvllm serve m $OPTS\n',  # assigned twice
    'OPTS="--swap-space 4"\nOPTS+=" --x"\nvllm serve m $OPTS\n',  # appended to
    'OPTS=(--swap-space 4)\nvllm serve m $OPTS\n',  # an array (its first element only)
    'OPTS="--swap-space 4"\nvllm serve m "$OPTS"\n',  # quoted: one word
    'vllm serve m $OPTS\nOPTS="--swap-space 4"\n',  # after the command
])
def test_a_string_the_script_does_not_say_for_certain_stays_as_it_was(script):
    _, la = one(script)
    assert "--swap-space" not in texts(la)


# ---- cloud deploy commands (commands.CLOUD_DEPLOYS)


def test_gcloud_run_deploy_args_list_items_are_words():
    from vllm_lint.frontends.commands import find_cloud_deploy

    words = ["gcloud", "--project=p", "run", "deploy", "svc", "--image", "vllm/vllm-openai:v0.8.5",
             "--args=--model,m,--enforce-eager", "--gpu", "2"]
    dep = find_cloud_deploy(words)
    assert dep.image == "vllm/vllm-openai:v0.8.5" and dep.gpus == "2"
    assert [words[p.word][p.start:p.end] for p in dep.args] == ["--model", "m", "--enforce-eager"]
    assert find_cloud_deploy(["gcloud", "run", "services", "list"]) is None
    assert find_cloud_deploy(["gcloud", "compute", "instances", "create", "--image=vllm"]) is None


def test_gcloud_deploy_launch_spans_and_list_deletions():
    from vllm_lint.frontends import shell as S

    data = b'gcloud run deploy s --image=vllm/vllm-openai:v0.8.5 --args=--model,m,--dtype,half --gpu=2\n'
    (la,) = S.extract(data, "deploy.sh").launches
    assert la.entry == "docker:vllm/vllm-openai:v0.8.5" and la.hardware.gpu_count == 2
    assert [data[t.span.start:t.span.end] for t in la.tokens] == [b"--model", b"m", b"--dtype", b"half"]
    assert la.version_hints[0].version == "v0.8.5" and la.container.image == "vllm/vllm-openai:v0.8.5"

    def cut(toks):
        edits = la.delete_tokens(toks)
        if edits is None:
            return None
        out = bytearray(data)
        for e in sorted(edits, key=lambda e: -e.span.start):
            out[e.span.start:e.span.end] = e.content.encode()
        return bytes(out)

    assert b"--args=--model,m --gpu" in cut(la.tokens[2:4])  # the list's end: the comma before goes
    assert b"--args=m,--dtype,half" in cut(la.tokens[:1])  # its start: the comma after goes
    assert cut(la.tokens) is None  # never the whole list


def test_gcloud_deploy_of_another_image_is_no_launch():
    from vllm_lint.frontends import shell as S

    data = b"gcloud run deploy s --image=gcr.io/p/app:1 --args=--port,8080\n"
    assert S.extract(data, "deploy.sh").launches == []


def test_gcloud_deploy_args_from_a_variable_are_a_splat():
    from vllm_lint.frontends import shell as S

    data = b'gcloud run deploy s --image=vllm/vllm-openai:v0.8.5 --args="--model,m,$EXTRA"\n'
    (la,) = S.extract(data, "deploy.sh").launches
    assert [(t.text, t.opaque, t.splat) for t in la.tokens] == [("--model", False, False), ("m", False, False),
                                                               ("$EXTRA", True, True)]
    assert la.opaque
