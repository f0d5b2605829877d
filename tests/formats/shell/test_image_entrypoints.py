"""``docker run`` of an image the repository builds itself (issue 27): the process is what its
Dockerfile's final stage runs, with the run's words. An image built on a vLLM image that keeps its
entrypoint is in test_shell_recall.py; here the Dockerfile's own ``ENTRYPOINT`` starts vLLM (in
exec form, or a script a ``RUN`` heredoc writes or a ``COPY`` brings in, whose vLLM command takes
``"$@"``), the server stage of vLLM's own Dockerfile from a checkout the repository does not hold,
and builds that a ``cd`` before them moves. The run's words are read where they are written; the
Dockerfile's own words are read (and reported) in the Dockerfile."""

from __future__ import annotations

import pytest

from vllm_lint.frontends import image_builds
from vllm_lint.frontends.commands import UNNAMED_REVISION
from vllm_lint.frontends import shell as S
from span_invariants import check_spans

RUN = "#!/bin/bash\ndocker run --gpus all {image} {args}\n"


@pytest.fixture(autouse=True)
def _fresh_index():
    image_builds._FOLDERS.clear()
    yield
    image_builds._FOLDERS.clear()


def _repo(tmp_path, dockerfile: str, build: str, args: str = "--model m --swap-space 4",
          image: str = "my-vllm-server", extra: dict | None = None):
    (tmp_path / ".git").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text(dockerfile)
    for name, text in (extra or {}).items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "Makefile").write_text(f"image:\n\t{build}\n")
    (tmp_path / "scripts").mkdir()
    run = tmp_path / "scripts" / "run.sh"
    run.write_text(RUN.format(image=image, args=args))
    return run


def _launches(run):
    data = run.read_bytes()
    ex = S.extract(data, str(run))
    check_spans(data, ex)
    return ex.launches


def test_an_exec_form_entrypoint_that_starts_vllm_takes_the_runs_words(tmp_path):
    run = _repo(tmp_path, 'FROM ubuntu:22.04\nRUN pip install vllm==0.10.0\n'
                          'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n',
                "docker build -t my-vllm-server -f docker/Dockerfile .")
    (la,) = _launches(run)
    assert la.entry == "openai.api_server"
    assert [t.text for t in la.tokens] == ["--model", "m", "--swap-space", "4"]
    data = run.read_bytes()
    assert la.tokens[2].span.start == data.index(b"--swap-space")  # (the run's own words, where written)
    assert la.image is None and not la.opaque  # (built on no vLLM image: no tag names its release)
    assert "whose ENTRYPOINT `python3 -m vllm.entrypoints.openai.api_server` starts vLLM" in la.read_as
    assert la.hardware.gpu_count is None  # (--gpus all)


def test_an_entrypoint_with_words_of_its_own_leaves_the_launch_open(tmp_path):
    run = _repo(tmp_path, 'FROM vllm/vllm-openai:v0.10.0\n'
                          'ENTRYPOINT ["vllm", "serve", "org/model", "--port", "8000"]\n',
                "docker build -t my-vllm-server docker", args="--swap-space 4")
    (la,) = _launches(run)
    assert la.entry == "vllm serve" and [t.text for t in la.tokens] == ["--swap-space", "4"]
    assert la.opaque  # (the model and --port are the Dockerfile's: not absent)
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.10.0", "dockerfile-from")]
    assert "ENTRYPOINT gives vLLM itself (`org/model --port 8000`)" in la.read_as


def test_an_entrypoint_script_written_by_a_run_heredoc_passes_the_runs_words(tmp_path):
    dockerfile = ('FROM vllm/vllm-openai:v0.10.0\n'
                  'RUN cat <<EOF >/start.sh\n#!/bin/bash\nset -e\necho "starting"\n'
                  'exec python3 -m vllm.entrypoints.openai.api_server "\\$@"\nEOF\n'
                  'RUN chmod +x /start.sh\nENTRYPOINT ["/start.sh"]\nCMD ["--model", "/model"]\n')
    run = _repo(tmp_path, dockerfile, "docker build -t my-vllm-server:latest docker", args="")
    (la,) = _launches(run)
    assert la.entry == "openai.api_server" and la.tokens == []
    assert la.opaque  # (no words after the image: the Dockerfile's CMD gives vLLM its words)
    assert "`/start.sh` runs vLLM with the run's words" in la.read_as and "`CMD`" in la.read_as
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.10.0", "dockerfile-from")]


def test_an_entrypoint_script_copied_from_the_build_context(tmp_path):
    run = _repo(tmp_path, 'FROM vllm/vllm-openai:v0.10.0\nCOPY entrypoint.sh /app/\n'
                          'ENTRYPOINT ["bash", "/app/entrypoint.sh"]\n',
                "docker build -t my-vllm-server docker",
                extra={"docker/entrypoint.sh": '#!/bin/bash\nvllm serve "$MODEL" --port 8000 "$@"\n'})
    (la,) = _launches(run)
    assert la.entry == "vllm serve" and [t.text for t in la.tokens] == ["--model", "m", "--swap-space", "4"]
    assert la.opaque and "ENTRYPOINT gives vLLM itself (`$MODEL --port 8000`)" in la.read_as


@pytest.mark.parametrize("dockerfile, extra", [
    # a shell-form ENTRYPOINT ignores the run's words
    ('FROM ubuntu:22.04\nENTRYPOINT vllm serve org/model\n', {}),
    # a script that starts vLLM without the run's words, or starts something else with them
    ('FROM ubuntu:22.04\nCOPY serve.sh /serve.sh\nENTRYPOINT ["/serve.sh"]\n',
     {"docker/serve.sh": "#!/bin/sh\nexec vllm serve org/model\n"}),
    ('FROM ubuntu:22.04\nCOPY serve.sh /serve.sh\nENTRYPOINT ["/serve.sh"]\n',
     {"docker/serve.sh": '#!/bin/sh\nexec my-router --backend vllm "$@"\n'}),
    # an entrypoint that is no vLLM at all, and a script the Dockerfile does not say where it comes from
    ('FROM python:3.12\nENTRYPOINT ["python", "app.py"]\n', {}),
    ('FROM python:3.12\nENTRYPOINT ["/docker-entrypoint.sh"]\n', {}),
])
def test_an_image_whose_entrypoint_does_not_take_the_runs_words_to_vllm_is_no_launch(tmp_path, dockerfile, extra):
    run = _repo(tmp_path, dockerfile, "docker build -t my-vllm-server docker", extra=extra)
    assert _launches(run) == []


def test_the_server_stage_of_vllms_own_dockerfile_from_a_checkout_not_in_the_repository(tmp_path):
    # (a git submodule, not checked out: the Dockerfile is not there to read)
    (tmp_path / ".git").mkdir()
    (tmp_path / "README.md").write_text(
        "## CPU\n\n```\ncd vllm\ndocker build -f docker/Dockerfile.cpu --tag vllm-cpu-env --target vllm-openai .\n"
        "cd ..\n```\n")
    (tmp_path / "scripts").mkdir()
    run = tmp_path / "scripts" / "run_cpu.sh"
    run.write_text(RUN.format(image="vllm-cpu-env", args="--model m --swap-space 4"))
    (la,) = _launches(run)
    assert la.entry == "docker:vllm/vllm-openai" and [t.text for t in la.tokens][-2:] == ["--swap-space", "4"]
    # (a revision the repository does not name: any release, checked at both ends)
    assert [(h.version, h.source) for h in la.version_hints] == [(UNNAMED_REVISION, "vLLM's own source")]
    from vllm_lint.knowledge.image_tags import read_hint
    from vllm_lint.surface.db import Database, default_db_path

    assert read_hint(Database(default_db_path()), UNNAMED_REVISION).status == "unknown"
    assert "the `vllm-openai` stage of `../vllm/docker/Dockerfile.cpu`" in la.read_as
    # another stage of it is not vLLM's server
    image_builds._FOLDERS.clear()
    (tmp_path / "README.md").write_text("```\ncd vllm\ndocker build -f docker/Dockerfile.cpu --tag vllm-cpu-env "
                                        "--target vllm-test .\n```\n")
    assert _launches(run) == []


def test_a_build_after_a_cd_takes_its_dockerfile_from_that_folder(tmp_path):
    (tmp_path / ".git").mkdir()
    for name, tag in (("a", "v0.10.0"), ("b", "v0.27.1")):
        (tmp_path / "models" / name).mkdir(parents=True)
        (tmp_path / "models" / name / "Dockerfile").write_text(f"FROM vllm/vllm-openai:{tag}\n")
    readme = tmp_path / "README.md"
    readme.write_text("# Build\n\n```bash\ncd models/a\ndocker build -t serve-a:latest .\n\n"
                      "cd models/b\ndocker build -t serve-b:latest .\n```\n\n"
                      "# Run\n\n```bash\ndocker run --gpus all serve-b:latest --model m\n```\n")
    data = readme.read_bytes()
    (la,) = [la for la in S.extract(data, str(readme)).launches]
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.27.1", "dockerfile-from")]
    # a script's own build: `cd` then build, and the run after it
    image_builds._FOLDERS.clear()
    script = tmp_path / "build_and_run.sh"
    script.write_text("#!/bin/bash\ncd models/a && docker build -t serve-a .\ncd ..\n"
                      "docker run --gpus all serve-a --model m\n")
    (la,) = S.extract(script.read_bytes(), str(script)).launches
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.10.0", "dockerfile-from")]


def test_an_image_a_case_branch_picks_does_not_replace_the_runs_default(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "README.md").write_text("```\ncd vllm\ndocker build -f docker/Dockerfile.cpu --tag vllm-cpu-env "
                                        "--target vllm-openai .\n```\n")
    run = tmp_path / "run.sh"
    run.write_text('#!/bin/bash\nIMAGE=vllm/vllm-openai:v0.10.0\ncase $1 in\n  --cpu) IMAGE="vllm-cpu-env";;\nesac\n'
                   'docker run --gpus all ${IMAGE} --model m\n')
    (la,) = _launches(run)
    assert [(h.version, h.source) for h in la.version_hints] == [("v0.10.0", "image-tag")]


def test_a_build_file_added_later_is_listed(tmp_path):
    """The build files of a folder are listed once while the folder's entries stay the same
    (``image_builds._build_files``); a Makefile, a script or a workflow added (or a folder's file
    removed) is seen at the next lookup, as before the listing was kept."""
    import os

    (tmp_path / ".git").mkdir()
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.10.0\n")
    (tmp_path / "scripts").mkdir()
    run = tmp_path / "scripts" / "run.sh"
    run.write_text(RUN.format(image="my-vllm-server", args="--model m"))
    assert image_builds.built_in_repository(str(run), "my-vllm-server") is None
    assert _launches(run) == []
    (tmp_path / "Makefile").write_text("image:\n\tdocker build -t my-vllm-server docker\n")
    os.utime(tmp_path, ns=(1, 1))  # (an mtime the listing was not made at, on any file system's clock)
    built = image_builds.built_in_repository(str(run), "my-vllm-server")
    assert built is not None and built.source == str(tmp_path / "Makefile")
    assert [la.entry for la in _launches(run)] == ["docker:vllm/vllm-openai:v0.10.0"]
    (tmp_path / "Makefile").unlink()
    os.utime(tmp_path, ns=(2, 2))
    assert image_builds.built_in_repository(str(run), "my-vllm-server") is None
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "image.yml").write_text("jobs:\n  b:\n    steps:\n      - run: docker build -t my-vllm-server docker\n")
    os.utime(workflows, ns=(3, 3))
    built = image_builds.built_in_repository(str(run), "my-vllm-server")
    assert built is not None and built.source == str(workflows / "image.yml")


def test_a_folder_is_listed_once_while_its_entries_stay(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "Makefile").write_text("image:\n\tdocker build -t other docker\n")
    run = tmp_path / "run.sh"
    run.write_text(RUN.format(image="my-vllm-server", args="--model m"))
    listed: list = []
    real = image_builds.os.listdir
    monkeypatch.setattr(image_builds.os, "listdir", lambda p: listed.append(p) or real(p))
    for _ in range(3):
        assert image_builds.built_in_repository(str(run), "my-vllm-server") is None
    assert listed.count(str(tmp_path)) == 1
