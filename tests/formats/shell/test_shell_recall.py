"""Shell launches read where they live (issue 17): ``env "$X=$Y" vllm serve``, and files written
by a heredoc (``| kubectl apply -f -``, ``> Dockerfile``, ``| tee x.yaml``) read as the file they
become, at exact positions, with fixes in the heredoc's body. (A blank line after a trailing
backslash is in test_markdown_recall.py, beside the Markdown prompt blocks.)"""

from __future__ import annotations

import json

import pytest

from vllm_lint.frontends import shell as S
from span_invariants import check_spans


def lint(run_cli, path, *extra):
    r = run_cli("--output-format", "json", "-t", "0.27.1", *extra, str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]


def test_env_with_an_expanded_assignment_still_launches_vllm():
    data = b'env "$AFFINITY_ENV=$GPU" vllm serve "$MODEL" --port 8000\nenv ${X}=1 A=2 vllm serve m\n'
    ex = S.extract(data, "a.sh")
    check_spans(data, ex)
    assert [la.entry for la in ex.launches] == ["vllm serve", "vllm serve"]
    assert [t.text for t in ex.launches[0].tokens][-2:] == ["--port", "8000"]
    assert [e.name for e in ex.launches[1].env] == ["A"]


HEREDOCS = """#!/bin/bash
cat <<EOF | kubectl apply -f -
apiVersion: v1
kind: Pod
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.27.1
      args: ["--swap-space", "4", "--model", "$MODEL"]
EOF
cat > Dockerfile <<'EOF'
FROM vllm/vllm-openai:v0.27.1
CMD ["--swap-space", "4"]
EOF
tee deploy/pod.yml <<EOF >/dev/null
apiVersion: v1
kind: Pod
spec:
  containers:
    - image: vllm/vllm-openai:v0.27.1
      command: ["vllm", "serve", "m", "--port", "8000"]
EOF
"""


def test_heredoc_files_are_read_as_the_file_they_become(run_cli, tmp_path):
    p = tmp_path / "deploy.sh"
    p.write_text(HEREDOCS)
    data = p.read_bytes()
    ex = S.extract(data, str(p))
    check_spans(data, ex)
    assert [la.context.get("heredoc_file") for la in ex.launches] == ["yaml", "dockerfile", "yaml"]
    # an unquoted delimiter lets the shell expand $MODEL: unknown
    assert [(t.text, t.opaque) for t in ex.launches[0].tokens][-1] == ("$MODEL", True)
    # `--model` to the image's `vllm serve` is deprecated (VL106): its fix leaves the model positional
    assert lint(run_cli, p) == [("VL101", 9, 14), ("VL106", 9, 35), ("VL101", 13, 6)]
    r = run_cli("-t", "0.27.1", "--fix", str(p))
    assert r.exit_code == 0
    new = p.read_text()
    assert '      args: ["$MODEL"]\n' in new
    assert "CMD []\n" in new


def test_a_heredoc_writing_a_script_stays_shell():
    data = b"cat > run.sh <<'EOF'\nvllm serve m --port 1\nEOF\n"
    (la,) = S.extract(data, "a.sh").launches
    assert la.entry == "vllm serve" and "heredoc_file" not in la.context


# ---- commands built in a variable, then run (issue 27)

def _built(script: str):
    data = script.encode()
    ex = S.extract(data, "b.sh")
    check_spans(data, ex)
    return [(la.entry, [t.text for t in la.tokens]) for la in ex.launches]


def test_a_string_extended_then_run_is_read_with_its_unknown_pieces_opaque():
    data = b'CMD="vllm serve $M"\nCMD="$CMD --port 1"\nCMD+=" --tp $TP"\neval "$CMD"\n'
    (la,) = S.extract(data, "b.sh").launches
    assert [(t.text, t.opaque) for t in la.tokens] == [
        ("$M", True), ("--port", False), ("1", False), ("--tp", False), ("$TP", True)]
    port = la.tokens[1]
    assert data[port.span.start:port.span.end] == b"--port" and data.index(b"--port") == port.span.start


def test_every_way_of_running_the_variable():
    runs = ['$C', '"$C"', '${C}', 'eval "$C"', "eval $C", 'bash -c "$C"', 'nohup $C &', 'srun -N 1 $C',
            'exec $C']
    for run in runs:
        assert _built(f'C="vllm serve m --port 1"\n{run}\n') == [("vllm serve", ["m", "--port", "1"])], run
    arrays = ['"${C[@]}"', 'nohup "${C[@]}" &', 'exec "${C[@]}" --x 2']
    for run in arrays:
        got = _built(f'C=(vllm serve "m" --port 1)\n{run}\n')
        assert got and got[0][1][:3] == ["m", "--port", "1"], run


def test_what_is_not_certain_is_not_read():
    assert _built('C="vllm serve a"\nif x; then C="vllm serve b"; fi\n$C\n') == []  # assigned anew
    assert _built('$C\nC="vllm serve m"\n') == []  # assigned after it runs
    assert _built('C="vllm serve m"\nread -r C\n$C\n') == []  # read into
    assert _built("C=\"vllm serve m --chat-template '{a b}'\"\n$C\n") == []  # quotes bash would not read
    assert _built("C=\"vllm serve m --chat-template '{a b}'\"\neval \"$C\"\n") == [
        ("vllm serve", ["m", "--chat-template", "{a b}"])]  # eval reads them
    assert _built('C="vllm serve m"\necho $C\nprintf "%s" "$C"\n') == []
    assert _built('C="vllm serve m"\nC="--x $C"\n$C\n') == []  # itself elsewhere than at its start


def test_fixes_land_in_the_piece_that_wrote_the_option(run_cli, tmp_path):
    p = tmp_path / "b.sh"
    p.write_text('C="vllm serve m"\nC="$C --swap-space 4 --port 1"\neval "$C"\n'
                 'A=(\n  vllm serve m\n  --swap-space 4\n)\n"${A[@]}"\n')
    assert lint(run_cli, p) == [("VL101", 2, 7), ("VL101", 6, 3)]
    run_cli("-t", "0.27.1", "--fix", str(p))
    assert p.read_text() == 'C="vllm serve m"\nC="$C --port 1"\neval "$C"\nA=(\n  vllm serve m\n)\n"${A[@]}"\n'


def test_a_config_written_by_a_heredoc_is_read_at_the_release_of_the_launch_naming_it():
    script = (b"cat > /etc/vllm/c.yaml <<EOF\nswap-space: 4\nport: $PORT\nEOF\n"
              b"cat > other.yaml <<EOF\nswap-space: 4\nEOF\n"
              b"docker run vllm/vllm-openai:v0.8.5 --config=/etc/vllm/c.yaml\n")
    ex = S.extract(script, "s.sh")
    check_spans(script, ex)
    config = [la for la in ex.launches if la.style == "config"]
    assert len(config) == 1  # other.yaml is named by no --config (and mentions no vLLM)
    keys = {k.key: k for k in config[0].keyed}
    assert keys["swap-space"].value == 4 and keys["port"].value_opaque  # an unquoted EOF expands $PORT
    assert [h.version for h in config[0].version_hints] == ["v0.8.5"]
    assert script[keys["swap-space"].key_span.start:keys["swap-space"].key_span.end] == b"swap-space"


def test_appends_in_branches_that_exclude_each_other_leave_the_array_opaque():
    script = ("A=(--port 1)\nif x; then\n  A+=(--max-num-seqs 8)\nelif z; then\n  A+=(--max-num-seqs 16)\nfi\n"
              "case $m in a) A+=(--dtype half);; b) A+=(--dtype float16);; esac\n"
              'vllm serve m "${A[@]}"\n'
              'B=(--port 1)\nif y; then B+=(--max-num-seqs 2); fi\nif w; then B+=(--dtype half); fi\nvllm serve m "${B[@]}"\n')
    first, second = S.extract(script.encode(), "a.sh").launches
    assert first.opaque and [t.text for t in first.tokens] == ["m", '${A[@]}']
    assert [t.text for t in second.tokens] == ["m", "--port", "1", "--max-num-seqs", "2", "--dtype", "half"]


def test_sbatch_wrap_runs_its_string_as_a_script():
    data = (b'sbatch --gres=gpu:4 --wrap "vllm serve m --swap-space 4"\n'
            b"sbatch -N 1 --wrap='srun vllm serve m --port 1'\n")
    ex = S.extract(data, "submit.sh")
    check_spans(data, ex)
    assert [[t.text for t in la.tokens] for la in ex.launches] == [["m", "--swap-space", "4"], ["m", "--port", "1"]]
    sw = ex.launches[0].tokens[1]
    assert data[sw.span.start:sw.span.end] == b"--swap-space"


def test_shell_c_with_options_after_it():
    # bash reads all its options before the command string: `bash -c -i "..."` runs the string
    data = b'docker run --gpus all -it vllm-node bash -c -i "vllm serve m \\\n  --port 8000"\n'
    ex = S.extract(data, "a.sh")
    check_spans(data, ex)
    (la,) = ex.launches
    assert la.entry == "vllm serve" and [t.text for t in la.tokens] == ["m", "--port", "8000"]
# ---- issue 27: images that are vLLM's without saying so, wrappers read through


DOCKERFILE = "ARG BASE=vllm/vllm-openai:v0.10.0\nFROM ${BASE}\nRUN pip install extra\n"


def test_an_image_built_from_a_vllm_image_beside_the_script_is_vllm(tmp_path):
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    data = (b'#!/bin/bash\nIMAGE="${IMAGE:-vllm-spark:latest}"\n'
            b'exec docker run --gpus all \\\n  "$IMAGE" \\\n  "$MODEL" --max-num-seqs 8\n')
    ex = S.extract(data, str(tmp_path / "run.sh"))
    check_spans(data, ex)
    (la,) = ex.launches
    assert la.image == "vllm/vllm-openai:v0.10.0"
    assert [t.text for t in la.tokens][1:] == ["--max-num-seqs", "8"] and la.tokens[0].opaque
    (hint,) = la.version_hints  # the Dockerfile's FROM, reported at the name of the image built from it
    assert (hint.version, hint.source, data[hint.span.start:hint.span.end]) == ("v0.10.0", "dockerfile-from", b'"$IMAGE"')
    assert "vllm-spark:latest" in la.read_as and "Dockerfile" in la.read_as


def test_an_image_built_by_the_script_is_vllm_when_its_dockerfile_says_so(tmp_path):
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile.serve").write_text(DOCKERFILE)
    (tmp_path / "Dockerfile").write_text("FROM python:3.12\nCMD [\"python\", \"app.py\"]\n")
    data = (b"#!/bin/bash\n# vllm\ndocker build -t my-server:dev -f docker/Dockerfile.serve .\n"
            b"docker run --rm my-server:dev --model m --max-num-seqs 8\n"
            b"docker build -t other .\ndocker run --rm other --model m\n")
    ex = S.extract(data, str(tmp_path / "build.sh"))
    check_spans(data, ex)
    (la,) = ex.launches  # `other` is built from python: its words are not vLLM's
    assert la.image == "vllm/vllm-openai:v0.10.0"
    assert [t.text for t in la.tokens] == ["--model", "m", "--max-num-seqs", "8"]
    assert "docker build" in la.read_as


def test_an_unknown_image_without_a_vllm_dockerfile_is_not_vllm(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.10.0\nENTRYPOINT [\"/start.sh\"]\n")
    data = b"docker run --rm vllm-proxy:latest --model m\ndocker run --rm myorg/vllm-x --model m\n"
    assert S.extract(data, str(tmp_path / "run.sh")).launches == []  # its own ENTRYPOINT / a registry image
    assert S.extract(data, str(tmp_path / "elsewhere" / "run.sh")).launches == []  # no Dockerfile beside


def test_wrappers_and_variables_are_named_in_verbose(run_cli, tmp_path):
    p = tmp_path / "go.sh"
    p.write_text("./launch-cluster.sh exec vllm serve m --port 8000\n"
                 "$VENV_PYTHON -m vllm.entrypoints.openai.api_server --model m\n")
    r = run_cli("--verbose", "-t", "0.27.1", str(p))
    assert "the launch at line 1: read through the wrapper `./launch-cluster.sh`" in r.output
    assert "the launch at line 2: the interpreter in `$VENV_PYTHON`" in r.output


def test_option_arrays_of_exclusive_branches_reaching_vllm_words_stay_unread():
    data = (b'a=(--gpus all)\nif [ -n "$X" ]; then a+=(vllm/vllm-openai:v0.10.0); else a+=(--rm); fi\n'
            b'docker run "${a[@]}" vllm/vllm-openai:v0.27.1 --model m\n')
    ex = S.extract(data, "a.sh")
    # the array may hold the image: where vLLM's words begin is not certain, and no word is taken for vLLM's
    assert all(t.text != "--rm" for la in ex.launches for t in la.tokens)


def test_a_script_written_by_echo_or_printf_is_read_where_it_is_written():
    data = (b"echo '#!/bin/bash\\nexec vllm serve m --port 8000\\n' > /app/start.sh\n"
            b"printf 'vllm serve %s --x 1\\n' \"$M\" >> run.sh\n"
            b"echo 'vllm serve m --port 1'\n"  # printed, not written
            b"echo 'vllm serve m --port 1' | tee log\n")
    ex = S.extract(data, "build.sh")
    check_spans(data, ex)
    assert [[t.text for t in la.tokens] for la in ex.launches] == [["m", "--port", "8000"],
                                                                   ["${PRINTF_ARG}", "--x", "1"]]
    assert ex.launches[1].tokens[0].opaque  # printf fills %s with its argument
    assert all("a script written by" in la.read_as for la in ex.launches)
    port = ex.launches[0].tokens[1]
    assert data[port.span.start:port.span.end] == b"--port"


def test_an_image_that_installs_vllm_again_over_its_base_names_no_release(tmp_path):
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:nightly\nARG VLLM_COMMIT=abc\n"
                                         "RUN git clone https://github.com/vllm-project/vllm.git && pip install -e vllm\n")
    data = b"docker run --gpus all vllm-src:latest --max-num-seqs 8\n"
    (la,) = S.extract(data, str(tmp_path / "run.sh")).launches
    assert [t.text for t in la.tokens] == ["--max-num-seqs", "8"]
    assert la.version_hints == [] and "names no release" in la.read_as


def test_a_build_named_through_the_scripts_variables_is_followed(tmp_path):
    (tmp_path / "Dockerfile").write_text(DOCKERFILE)
    data = (b'#!/bin/bash\nSCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"\n'
            b'IMAGE="${SERVE_IMAGE:-my-server}"\n'
            b'docker build -t "${IMAGE}" -f "${SCRIPT_DIR}/Dockerfile" "${SCRIPT_DIR}"\n'
            b'docker run --rm --gpus all "${IMAGE}" --model m --max-num-seqs 8\n')
    (la,) = S.extract(data, str(tmp_path / "serve.sh")).launches
    assert la.image == "vllm/vllm-openai:v0.10.0"
    assert [t.text for t in la.tokens] == ["--model", "m", "--max-num-seqs", "8"]
    assert "`my-server` is built by `docker build` from `./Dockerfile`" in la.read_as


def test_an_image_built_from_a_vllm_checkout_the_script_clones_is_vllm_at_the_tag_checked_out(tmp_path):
    data = (b"git clone https://github.com/vllm-project/vllm.git\ncd vllm\nVLLM_VER=v0.10.0\n"
            b"git checkout tags/${VLLM_VER}\n"
            b"docker build -f Dockerfile.cpu -t vllm-cpu-env --shm-size=100g .\n"
            b"docker run -d --rm -p 8084:80 vllm-cpu-env --model m --port 80\n")
    (la,) = S.extract(data, str(tmp_path / "test_vllm.sh")).launches
    assert [t.text for t in la.tokens] == ["--model", "m", "--port", "80"]
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.10.0", "dockerfile-from")]
    assert "vLLM checkout the script clones (v0.10.0)" in la.read_as
    # no clone of vLLM: an unreadable Dockerfile names no image
    assert S.extract(data.split(b"\n", 1)[1], str(tmp_path / "t.sh")).launches == []


def test_the_branch_a_vllm_clone_takes_is_its_release(tmp_path):
    data = (b"git clone --branch v0.10.0 --depth 1 https://github.com/vllm-project/vllm.git vllm_source\n"
            b"docker build -f vllm_source/docker/Dockerfile.cpu -t vllm-cpu-env .\n"
            b"docker run vllm-cpu-env --model m\n")
    (la,) = S.extract(data, str(tmp_path / "build.sh")).launches
    assert [h.version for h in la.version_hints] == ["v0.10.0"]


def test_a_command_array_grown_differently_per_branch_reads_the_words_every_run_has():
    data = (b'cmd=(docker run --rm --entrypoint vllm vllm/vllm-openai:v0.10.0 serve m --port 8000)\n'
            b'if [ -n "$BIG" ]; then cmd+=(--max-num-seqs 256); else cmd+=(--max-num-seqs 8); fi\n'
            b'"${cmd[@]}"\n')
    ex = S.extract(data, "run.sh")
    check_spans(data, ex)
    (la,) = ex.launches
    assert [t.text for t in la.tokens] == ["m", "--port", "8000"] and la.opaque
    assert "every run" in la.read_as


CASE_VARIABLES = """#!/bin/bash
case "$1" in
  --cpu)
    IMAGE_NAME=vllm-cpu-env
    GPUOPTION=""
    ;;
  *)
    IMAGE_NAME=vllm/vllm-openai:v0.10.0
    GPUOPTION="--gpus all"
    ;;
esac
OPTIONS="--max-model-len 4096"
docker run --rm ${GPUOPTION} -p 8000:8000 ${IMAGE_NAME} --model m ${OPTIONS} --swap-space 4
"""


def test_docker_run_with_its_options_and_image_in_variables_set_in_a_case():
    # GPUOPTION holds docker's words in one branch and none in the other: docker's options
    # either way; IMAGE_NAME is vLLM's image in one branch (the local image of the other is not)
    data = CASE_VARIABLES.encode()
    ex = S.extract(data, "run_vllm.sh")
    check_spans(data, ex)
    (la,) = ex.launches
    words = [(t.text, t.opaque) for t in la.tokens]
    assert words[:2] == [("--model", False), ("m", False)] and words[-2:] == [("--swap-space", False), ("4", False)]
    assert [w for w, _o in words[2:4]] == ["--max-model-len", "4096"]  # ${OPTIONS}, set once: its words
    assert la.image == "vllm/vllm-openai:v0.10.0"
    k = data.index(b"--swap-space")
    assert la.tokens[-2].span.start == k


def test_a_string_variable_of_every_branch_that_reaches_vllms_words_stays_unread():
    # the image itself in a variable set differently per branch, both unknown: no launch is seen
    data = b'if [ -n "$A" ]; then RUN="--rm"; else RUN="-d"; fi\ndocker run $RUN $IMG --model m\n'
    assert S.extract(data, "a.sh").launches == []


def _repository(tmp_path, build_file: str, build_line: str):
    (tmp_path / ".git").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.10.0\nRUN pip install flash-attn\n")
    where = tmp_path / build_file
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(build_line)
    (tmp_path / "scripts").mkdir()
    run = tmp_path / "scripts" / "run.sh"
    run.write_text("#!/bin/bash\ndocker run --gpus all my-vllm:latest --model m --swap-space 4\n")
    return run


@pytest.mark.parametrize("build_file, build_line", [
    ("Makefile", "build:\n\tdocker build -t my-vllm:latest -f docker/Dockerfile .\n"),
    ("README.md", "Build it:\n\n```bash\ndocker build -t my-vllm -f docker/Dockerfile .\n```\n"),
    (".github/workflows/image.yml", "jobs:\n  b:\n    steps:\n      - run: docker build --tag my-vllm docker\n"),
])
def test_an_image_the_repository_builds_elsewhere_runs_its_dockerfiles_vllm(tmp_path, build_file, build_line):
    from vllm_lint.frontends import image_builds

    image_builds._FOLDERS.clear()
    run = _repository(tmp_path, build_file, build_line)
    data = run.read_bytes()
    (la,) = S.extract(data, str(run)).launches
    assert [t.text for t in la.tokens] == ["--model", "m", "--swap-space", "4"]
    assert [(v.version, v.source) for v in la.version_hints] == [("v0.10.0", "dockerfile-from")]
    assert "built by `docker build`" in la.read_as


def test_an_image_built_from_another_base_or_outside_the_repository_is_not_vllm(tmp_path):
    from vllm_lint.frontends import image_builds

    image_builds._FOLDERS.clear()
    run = _repository(tmp_path, "Makefile", "build:\n\tdocker build -t my-vllm -f docker/Dockerfile .\n")
    (tmp_path / "docker" / "Dockerfile").write_text("FROM python:3.12\n")
    assert S.extract(run.read_bytes(), str(run)).launches == []
    # a build line above the repository's root (its .git) is another repository's
    image_builds._FOLDERS.clear()
    inner = tmp_path / "sub"
    (inner / "scripts").mkdir(parents=True)
    (inner / ".git").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.10.0\n")
    moved = inner / "scripts" / "run.sh"
    moved.write_text(run.read_text())
    assert S.extract(moved.read_bytes(), str(moved)).launches == []
