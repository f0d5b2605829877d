"""The shared vLLM command recogniser."""

from __future__ import annotations

import shlex

import pytest

from vllm_lint.frontends.commands import (
    docker_gpu_count,
    find_vllm_command,
    image_is_vllm,
    split_env_word,
    version_from_image,
    version_from_pip_install,
    version_from_tool_run,
)


def find(cmd: str):
    return find_vllm_command(shlex.split(cmd))


def rest(cmd: str) -> list[str] | None:
    words = shlex.split(cmd)
    found = find_vllm_command(words)
    return None if found is None else words[found.args_start :]


@pytest.mark.parametrize(
    "cmd, entry, args",
    [
        ("vllm serve m --tp 2", "vllm serve", ["m", "--tp", "2"]),
        ("/usr/local/bin/vllm serve m", "vllm serve", ["m"]),
        ("vllm serve", "vllm serve", []),
        ("uv run vllm serve m", "vllm serve", ["m"]),
        ("uv run --with vllm==0.9 vllm serve m", "vllm serve", ["m"]),
        ("uvx --from vllm vllm serve m", "vllm serve", ["m"]),
        ("uvx vllm@0.9.1 serve m", "vllm serve", ["m"]),
        ("uvx --python 3.12 vllm@v0.9.1 serve m", "vllm serve", ["m"]),
        ("uv tool run vllm==0.8.5 serve m", "vllm serve", ["m"]),
        ("pipx run vllm==0.9.0 serve m", "vllm serve", ["m"]),
        ("pipx run --spec vllm==0.9.0 vllm serve m", "vllm serve", ["m"]),
        ("python -m vllm.entrypoints.openai.api_server --model m", "openai.api_server", ["--model", "m"]),
        ("python3 -m vllm.entrypoints.openai.api_server --model m", "openai.api_server", ["--model", "m"]),
        ("python3.11 -u -m vllm.entrypoints.openai.api_server --x", "openai.api_server", ["--x"]),
        ("/opt/venv/bin/python3 -X dev -m vllm.entrypoints.api_server --x", "api_server", ["--x"]),
        ("python -mvllm.entrypoints.openai.api_server --x", "openai.api_server", ["--x"]),
        ("python -m vllm.entrypoints.cli.main serve m", "vllm serve", ["m"]),
        ("python3 -m dynamo.vllm --model m --connector nixl", "dynamo.vllm", ["--model", "m", "--connector", "nixl"]),
        ("CUDA_VISIBLE_DEVICES=1 python -m dynamo.vllm --model m", "dynamo.vllm", ["--model", "m"]),
        ("exec vllm serve m", "vllm serve", ["m"]),
        ("exec -a name vllm serve m", "vllm serve", ["m"]),
        ("nohup vllm serve m", "vllm serve", ["m"]),
        ("nohup python -m vllm.entrypoints.openai.api_server --model m", "openai.api_server", ["--model", "m"]),
        ("env -u X A=B vllm serve m", "vllm serve", ["m"]),
        ("timeout 600 vllm serve m", "vllm serve", ["m"]),
        ("timeout -s KILL --preserve-status 10m vllm serve m", "vllm serve", ["m"]),
        ("numactl --cpunodebind=0 --membind=0 vllm serve m", "vllm serve", ["m"]),
        ("numactl -N 0 -m 0 vllm serve m", "vllm serve", ["m"]),
        ("taskset -c 0-15 vllm serve m", "vllm serve", ["m"]),
        ("taskset 0xff vllm serve m", "vllm serve", ["m"]),
        ("srun -N 1 --gres gpu:8 --ntasks-per-node=1 vllm serve m", "vllm serve", ["m"]),
        ("stdbuf -oL -eL vllm serve m", "vllm serve", ["m"]),
        ("nice -n 10 vllm serve m", "vllm serve", ["m"]),
        ("sudo -E vllm serve m", "vllm serve", ["m"]),
        ("sudo -u svc -E env A=1 vllm serve m", "vllm serve", ["m"]),
        ("time vllm serve m", "vllm serve", ["m"]),
        ("CUDA_VISIBLE_DEVICES=0,1 vllm serve m", "vllm serve", ["m"]),
        ("conda run -n vllm vllm serve m", "vllm serve", ["m"]),
        ("docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.8.5 --model m", "docker:vllm/vllm-openai:v0.8.5", ["--model", "m"]),
        ("docker run -it --rm --ipc=host vllm/vllm-openai --model m", "docker:vllm/vllm-openai", ["--model", "m"]),
        ("docker run -d --name x -v a:b --shm-size 10g --runtime nvidia docker.io/vllm/vllm-openai:latest m", "docker:docker.io/vllm/vllm-openai:latest", ["m"]),
        ("podman run --device nvidia.com/gpu=all vllm/vllm-openai:v0.9.0 --model m", "docker:vllm/vllm-openai:v0.9.0", ["--model", "m"]),
        ("docker container run rocm/vllm:latest --model m", "docker:rocm/vllm:latest", ["--model", "m"]),
        ("docker run nvidia/cuda:12.4 vllm serve m", "vllm serve", ["m"]),
        ("docker run --entrypoint vllm vllm/vllm-openai:v0.9 serve m --tp 2", "vllm serve", ["m", "--tp", "2"]),
        ("docker run --entrypoint python3 vllm/vllm-openai -m vllm.entrypoints.openai.api_server --model m", "openai.api_server", ["--model", "m"]),
        ("docker exec -it c vllm serve m", "vllm serve", ["m"]),
        # issue 27: the launcher table (commands.LAUNCHERS)
        ("systemd-run --user -p MemoryMax=64G -E VLLM_X=1 -- vllm serve m", "vllm serve", ["m"]),
        ("systemd-run --unit vllm --setenv=A=1 vllm serve m", "vllm serve", ["m"]),
        ("ray job submit --address http://h:8265 --working-dir . -- vllm serve m --tp 2", "vllm serve",
         ["m", "--tp", "2"]),
        ("ray job submit --runtime-env-json '{\"pip\": [\"vllm\"]}' -- python -m vllm.entrypoints.openai.api_server "
         "--model m", "openai.api_server", ["--model", "m"]),
        ("apptainer exec --nv -B /data:/data vllm.sif vllm serve m", "vllm serve", ["m"]),
        ("singularity exec --nv --env HF_HOME=/h docker://vllm/vllm-openai:v0.9.0 python3 -m "
         "vllm.entrypoints.openai.api_server --model m", "openai.api_server", ["--model", "m"]),
        ("kubectl exec -n ml -it pod-0 -c vllm -- vllm serve m", "vllm serve", ["m"]),
        ("kubectl -n ml exec deploy/vllm -- python3 -m vllm.entrypoints.openai.api_server --x", "openai.api_server",
         ["--x"]),
        ("pixi run -e cuda vllm serve m", "vllm serve", ["m"]),
        ("poetry run vllm serve m", "vllm serve", ["m"]),
        ("uv run --project svc -- vllm serve m", "vllm serve", ["m"]),
        ("setsid -f vllm serve m", "vllm serve", ["m"]),
        ("mpirun -np 1 --mca btl ^openib -x VLLM_X=1 vllm serve m", "vllm serve", ["m"]),
        ("srun -J vllm --gres=gpu:4 vllm serve m", "vllm serve", ["m"]),  # -J takes a value
        ("nohup timeout 1h numactl -N 0 taskset -c 0-7 nice -n 5 stdbuf -oL vllm serve m", "vllm serve", ["m"]),
        # an unknown launcher, its arguments clearly options and their values
        ("gpu-pin --slots 0,1 -q vllm serve m", "vllm serve", ["m"]),
        ("/opt/tools/with-proxy --host=h A=1 python3 -m vllm.entrypoints.openai.api_server --x",
         "openai.api_server", ["--x"]),
        # a script of the repository whose sub-command says it runs the rest
        ("./launch-cluster.sh exec vllm serve m", "vllm serve", ["m"]),
        ("scripts/cluster.sh -n 2 run vllm serve m", "vllm serve", ["m"]),
        ("accelerate launch --num_processes 2 vllm serve m", "vllm serve", ["m"]),
    ],
)
def test_recognised(cmd, entry, args):
    found = find(cmd)
    assert found is not None, cmd
    assert found.entry == entry
    assert rest(cmd) == args


@pytest.mark.parametrize(
    "cmd",
    [
        "vllm bench serve --model m",
        "vllm chat",
        "vllm complete",
        "vllm --version",
        "pip install vllm",
        "python -m pip install vllm",
        "python -c 'import vllm'",
        "python serve.py",
        "python -m dynamo.frontend --http-port 8000",
        "docker run myorg/vllm-proxy --model m",
        "docker run ubuntu bash",
        "docker pull vllm/vllm-openai",
        "echo vllm serve",
        "",
        "env",
        "timeout 10",
        "docker run",
        "docker run -e",
        "echo Starting vllm serve m",
        "pgrep -f vllm serve",
        "log_info starting vllm serve m",  # a bare word before vLLM: no clear argument structure
        "Dump vllm serve flags from the image",  # no option before vLLM: prose, not a launcher
        "my-wrapper vllm serve m",
        "./x.sh start vllm serve m",  # a sub-command that does not say it runs the rest
        "ray job submit --address h vllm serve m",  # ray's entrypoint follows `--` only
        "ray start --head",
        "kubectl exec pod -- cat /etc/hosts",
        "apptainer exec img.sif",
        "env -S 'vllm serve m'",
    ],
)
def test_not_recognised(cmd):
    assert find(cmd) is None


@pytest.mark.parametrize(
    "value, count",
    [
        ("2", 2), ("all", None), ('"device=0,1"', 2), ("device=0,1", 2), ("'device=3'", 1),
        ("device=GPU-3a23c669-1f69-c64e-cf85-44e9b07e7a2a", 1), ("count=4", 4), ("count=all", None),
        ("all,capabilities=utility", None), ("device=0,x", None), ("", None), ("nvidia", None),
    ],
)
def test_docker_gpu_count(value, count):
    assert docker_gpu_count(value) == count


@pytest.mark.parametrize(
    "cmd, count, source",
    [
        ("docker run --gpus 2 vllm/vllm-openai:v0.8.5 --model m", 2, "docker --gpus"),
        ("docker run --gpus=4 --rm vllm/vllm-openai:v0.8.5 --model m", 4, "docker --gpus"),
        ("docker run --gpus '\"device=0,1\"' vllm/vllm-openai:v0.8.5 m", 2, "docker --gpus"),
        ("docker run --gpus device=0,1,2 vllm/vllm-openai:v0.8.5 m", 3, "docker --gpus"),
        ("docker run --gpus all vllm/vllm-openai:v0.8.5 m", None, None),
        ("docker run --gpus 1 --gpus 2 vllm/vllm-openai:v0.8.5 m", 2, "docker --gpus"),  # last wins
        ("docker run --runtime nvidia vllm/vllm-openai:v0.8.5 m", None, None),
        ("docker run --gpus 2 img vllm serve m", 2, "docker --gpus"),
        ("podman run --device nvidia.com/gpu=all vllm/vllm-openai:v0.8.5 m", None, None),
        ("podman run --device nvidia.com/gpu=0 --device=nvidia.com/gpu=1 vllm/vllm-openai:v0.8.5 m",
         2, "podman --device nvidia.com/gpu"),
        ("podman run --device /dev/fuse vllm/vllm-openai:v0.8.5 m", None, None),
        ("vllm serve m", None, None),
    ],
)
def test_docker_gpus_recorded(cmd, count, source):
    found = find(cmd)
    assert found is not None
    assert (found.gpu_count, found.gpus_source) == (count, source)


def test_env_prefix_and_env_wrapper():
    words = shlex.split("A=1 env -u Z B=2 vllm serve m")
    found = find_vllm_command(words)
    assert found.env == [(0, "A", "1"), (4, "B", "2")]


def test_docker_env():
    words = shlex.split(
        "docker run -e VLLM_A=1 --env VLLM_B=2 --env=VLLM_C=3 -eVLLM_D=4 -e HF_TOKEN vllm/vllm-openai:v0.8.5 m"
    )
    found = find_vllm_command(words)
    assert found.image == "vllm/vllm-openai:v0.8.5"
    assert [(n, v) for _i, n, v in found.env] == [
        ("VLLM_A", "1"), ("VLLM_B", "2"), ("VLLM_C", "3"), ("VLLM_D", "4"), ("HF_TOKEN", None)
    ]
    for idx, name, _v in found.env:
        prefix, n2, _ = split_env_word(words[idx])
        assert words[idx][prefix:].startswith(name) and n2 == name


@pytest.mark.parametrize(
    "image, ok",
    [
        ("vllm/vllm-openai", True),
        ("vllm/vllm-openai:v0.8.5", True),
        ("docker.io/vllm/vllm-openai:latest", True),
        ("registry.example.com:5000/mirror/vllm/vllm-openai:v0.9.0", True),
        ("vllm/vllm-openai@sha256:" + "a" * 64, True),
        ("rocm/vllm:latest", True),
        ("rocm/vllm-dev:main", True),
        ("lmcache/vllm-openai:2025-01", True),
        ("vllm/vllm-tpu:nightly", True),
        ("public.ecr.aws/q9t5s3a7/vllm-ci-postmerge-repo:abc", True),
        ("myorg/vllm-proxy", False),
        ("ubuntu:22.04", False),
        ("nvidia/cuda:12.4.0-devel-ubuntu22.04", False),
        ("${IMAGE}", False),
        ("", False),
    ],
)
def test_image_is_vllm(image, ok):
    assert image_is_vllm(image) is ok


@pytest.mark.parametrize(
    "image, version",
    [
        ("vllm/vllm-openai:v0.8.5", "v0.8.5"),
        ("vllm/vllm-openai:latest", "latest"),
        ("vllm/vllm-openai", "latest"),
        ("vllm/vllm-openai:v0.10.1.1", "v0.10.1.1"),
        ("vllm/vllm-openai:0.9.2-cu124", "0.9.2-cu124"),
        ("registry:5000/vllm/vllm-openai:v0.9.0", "v0.9.0"),
        ("registry:5000/vllm/vllm-openai", "latest"),
        ("vllm/vllm-openai@sha256:" + "a" * 64, None),
        ("vllm/vllm-openai:v0.9.0@sha256:" + "a" * 64, "v0.9.0"),
        ("vllm/vllm-openai:${TAG}", None),
    ],
)
def test_version_from_image(image, version):
    assert version_from_image(image) == version


@pytest.mark.parametrize(
    "cmd, version",
    [
        ("pip install vllm==0.8.5", "0.8.5"),
        ("pip3 install -U vllm==0.8.5 transformers", "0.8.5"),
        ("pip install 'vllm>=0.9'", ">=0.9"),
        ("pip install 'vllm[all]==0.6.3'", "0.6.3"),
        ("python -m pip install --no-cache-dir vllm==0.7.2", "0.7.2"),
        ("uv pip install --system vllm==0.9.1 --torch-backend=auto", "0.9.1"),
        ("uv pip install --index-url https://x vllm==0.9.1", "0.9.1"),
        ("uv add vllm==0.10.0", "0.10.0"),
        ("pip install 'vllm>=0.8,<0.9'", ">=0.8,<0.9"),
        ("pip install vllm-0.8.5-cp38-abi3-manylinux1_x86_64.whl", "0.8.5"),
        ("pip install vllm==${VLLM_VERSION}", "${VLLM_VERSION}"),
        ("pip install vllm", None),
        ("pip install vllm-flash-attn==2.5", None),
        ("pip install torch==2.3", None),
        ("pip install -r requirements.txt", None),
        ("vllm serve m", None),
    ],
)
def test_version_from_pip_install(cmd, version):
    assert version_from_pip_install(shlex.split(cmd)) == version


def test_launchers_give_their_environment_to_the_program():
    words = shlex.split("apptainer exec --env VLLM_A=1 --env=VLLM_B=2 img.sif env VLLM_C=3 vllm serve m")
    found = find_vllm_command(words)
    assert [(name, value) for _i, name, value in found.env] == [("VLLM_A", "1"), ("VLLM_B", "2"), ("VLLM_C", "3")]
    for i, name, _v in found.env:
        assert name in words[i]


def test_the_launcher_table_is_one_row_per_program_and_sub_command():
    from vllm_lint.frontends.commands import LAUNCHERS

    names = [(n, row.sub) for row in LAUNCHERS for n in row.names]
    assert len(names) == len(set(names))
    # a program with several rows is told apart by its sub-command (`uv run`, `uv tool run`)
    assert all(sub for n, sub in names if sum(m == n for m, _s in names) > 1)
    assert all(row.source for row in LAUNCHERS)


@pytest.mark.parametrize(
    "cmd, entry, args, via",
    [
        # an unknown wrapper whose argument structure is clear: a run verb, options, or a script path
        ("./launch-cluster.sh exec vllm serve m --port 8000", "vllm serve", ["m", "--port", "8000"],
         "read through the wrapper `./launch-cluster.sh`"),
        ("./launch-cluster.sh --apply-mod ./mods/fix exec vllm serve m", "vllm serve", ["m"],
         "read through the wrapper `./launch-cluster.sh`"),
        ("scripts/in-container.sh vllm serve m", "vllm serve", ["m"], "read through the wrapper `scripts/in-container.sh`"),
        ("with-gpu run -- vllm serve m", "vllm serve", ["m"], "read through the wrapper `with-gpu`"),
        # the program in a variable
        ("$VENV_PYTHON -m vllm.entrypoints.openai.api_server --model m", "openai.api_server", ["--model", "m"],
         "the interpreter in `$VENV_PYTHON`"),
        ("${PY} -u -m vllm.entrypoints.api_server --model m", "api_server", ["--model", "m"],
         "the interpreter in `${PY}`"),
        ("${VLLM_BIN} serve m --tp 2", "vllm serve", ["m", "--tp", "2"], "the program in `${VLLM_BIN}`"),
        # docker create takes run's arguments
        ("docker create --gpus all vllm/vllm-openai:v0.9.0 --model m", "docker:vllm/vllm-openai:v0.9.0",
         ["--model", "m"], "`docker create` (started later with these arguments)"),
        ("vllm serve m", "vllm serve", ["m"], None),
    ],
)
def test_wrappers_read_through_say_how(cmd, entry, args, via):
    found = find(cmd)
    assert found is not None, cmd
    assert (found.entry, rest(cmd), found.via) == (entry, args, via)


@pytest.mark.parametrize(
    "cmd",
    [
        "my-wrapper vllm serve m",  # a bare name, no option or run verb: not clear
        "note: start vllm serve m",
        "$RUNNER vllm serve m",  # a variable that is not shown to be vLLM or an interpreter
        "$PY script.py -m vllm.entrypoints.openai.api_server",
        "$PY -m mypkg.server --model m",
        "./wrap.sh exec exec exec vllm serve m",  # more run verbs than a wrapper takes
        "docker create --name x busybox",
    ],
)
def test_wrappers_not_read_through(cmd):
    assert find(cmd) is None


@pytest.mark.parametrize("cmd, pinned", [
    ("uvx vllm@0.9.1 serve m", ("0.9.1", 1)),
    ("uvx vllm@v0.9.1 serve m", ("0.9.1", 1)),
    ("uv tool run vllm[audio]==0.8.5 serve m", ("0.8.5", 3)),
    ("uvx --from vllm==0.10.0 vllm serve m", ("0.10.0", 2)),
    ("uvx --from=vllm==0.10.0 vllm serve m", ("0.10.0", 1)),
    ("uv run --with vllm==0.11.0 vllm serve m", ("0.11.0", 3)),
    ("pipx run --spec vllm==0.9.0 vllm serve m", ("0.9.0", 3)),
    ("uv run --with vllm>=0.9 vllm serve m", None),  # (a range: no one release)
    ("uv run --with torch==2.5 vllm serve m", None),  # (another package)
    ("uvx vllm@latest serve m", None),
    ("uvx vllm serve m", None),
    ("vllm serve m", None),
])
def test_the_release_a_tool_runner_installs(cmd, pinned):
    words = shlex.split(cmd)
    found = find_vllm_command(words)
    if found is None:
        assert pinned is None
        return
    assert version_from_tool_run(words, found.entry_start) == pinned


@pytest.mark.parametrize("cmd", ["vllm==0.9.1 serve m", "srun vllm==0.9.1 serve m", "uv run vllm==0.9.1 serve m"])
def test_a_pinned_program_word_is_a_program_only_after_a_runner_that_installs_it(cmd):
    assert find(cmd) is None
