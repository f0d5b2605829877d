"""The result cache's survey (pipeline/cache.py): a warm run does not choose a cached file's release
again while nothing the release choices of the run that recorded it read has changed (the stat
signature of every file read and every folder listed, a missing file as missing); any change to one
of them (a sibling Dockerfile's FROM line, a Dockerfile made later, a kustomize env file, a
kustomization made later) changes the finding on the next warm run as on a cold one. The synthetic
database has 0.8.5, 0.10.0 and 0.27.1: ``--num-scheduler-steps`` was removed in 0.10.0."""

from __future__ import annotations

import json
import os

import pytest

from repo_tree import put

SERVE = "#!/bin/sh\nvllm serve m --num-scheduler-steps 8\n"
DOCKERFILE = 'FROM vllm/vllm-openai:{tag}\nCOPY serve.sh /serve.sh\nENTRYPOINT ["bash", "/serve.sh"]\n'


@pytest.fixture
def lint(synth_db_path, monkeypatch, tmp_path):
    """Lint paths with the result cache (in tmp_path/cache): (rule codes per shown path, sorted)."""
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))

    def run(*args):
        out = CliRunner().invoke(main, ["--select", "VL1", "--output-format", "json", *map(str, args)],
                                 catch_exceptions=False).stdout
        return sorted((os.path.basename(d["filename"]), d["code"]) for d in json.loads(out))

    return run


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


@pytest.fixture
def chosen(monkeypatch):
    """The files whose surroundings were read for a release (``Targeting.around``), in this process."""
    from vllm_lint.pipeline.targeting import Targeting

    seen: list[str] = []
    real = Targeting.around

    def spy(self, path):
        seen.append(os.path.basename(str(path)))
        return real(self, path)

    monkeypatch.setattr(Targeting, "around", spy)
    return seen


def _later(p):
    """Move ``p``'s mtime on (a file system's clock may not tick between two writes of a test)."""
    st = p.stat()
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


def test_a_warm_run_chooses_no_release_again(lint, repo, chosen):
    put(repo, "app/serve.sh", SERVE)
    put(repo, "app/Dockerfile", DOCKERFILE.format(tag="v0.10.0"))
    put(repo, "other/run.sh", "vllm serve m --num-scheduler-steps 4\n")
    first = lint(repo)
    assert first == [("run.sh", "VL101"), ("serve.sh", "VL101")]
    assert "serve.sh" in chosen
    chosen.clear()
    assert lint(repo) == first
    assert chosen == []  # nothing around them changed: their records' pins stand
    # what git writes in .git (a commit, an index) is no change around them
    put(repo, ".git/index", "x")
    assert lint(repo) == first
    assert chosen == []


def test_a_changed_from_line_of_a_sibling_dockerfile_changes_the_finding(lint, repo, chosen):
    put(repo, "app/serve.sh", SERVE)
    dockerfile = put(repo, "app/Dockerfile", DOCKERFILE.format(tag="v0.8.5"))
    assert lint(repo) == []  # 0.8.5 accepts it
    assert lint(repo) == []
    put(repo, "app/Dockerfile", DOCKERFILE.format(tag="v0.10.0"))
    _later(dockerfile)
    chosen.clear()
    assert lint(repo) == [("serve.sh", "VL101")]  # (serve.sh unchanged, its record cached)
    assert "serve.sh" in chosen
    assert lint(repo) == [("serve.sh", "VL101")]
    # the same, with the script alone named (a pre-commit run)
    put(repo, "app/Dockerfile", DOCKERFILE.format(tag="v0.8.5"))
    _later(dockerfile)
    _later(dockerfile)
    assert lint(repo / "app" / "serve.sh") == []


def test_a_sibling_dockerfile_made_later_changes_the_finding(lint, repo):
    put(repo, "app/serve.sh", SERVE)
    assert lint(repo) == [("serve.sh", "VL101")]  # no release named: the newest, 0.27.1
    assert lint(repo) == [("serve.sh", "VL101")]
    put(repo, "app/Dockerfile", DOCKERFILE.format(tag="v0.8.5"))  # (a file looked for and missing before)
    assert lint(repo / "app") == []
    assert lint(repo) == []
    (repo / "app" / "Dockerfile").unlink()
    assert lint(repo) == [("serve.sh", "VL101")]


RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: vllm-runtime
spec:
  containers:
    - name: kserve-container
      image: $(vllm-image)
      command: [python, -m, vllm.entrypoints.openai.api_server]
      args: [--port=8080, --model=/mnt/models, --num-scheduler-steps=8]
"""

KUSTOMIZATION = """configMapGenerator:
  - envs:
      - params.env
    name: parameters
replacements:
  - source:
      kind: ConfigMap
      name: parameters
      fieldPath: data.vllm-image
    targets:
      - select:
          kind: ServingRuntime
          name: vllm-runtime
        fieldPaths:
          - spec.containers.0.image
"""


def test_a_kustomize_env_file_or_a_kustomization_made_later_changes_the_finding(lint, repo):
    put(repo, "config/runtimes/runtime.yaml", RUNTIME)
    # (images of two releases elsewhere: the repository names no one release, the files around the
    # manifest none, so only the kustomization can name its release)
    put(repo, "a/Dockerfile", "FROM vllm/vllm-openai:v0.10.0\n")
    put(repo, "b/Dockerfile", "FROM vllm/vllm-openai:v0.27.1\n")
    assert lint(repo) == [("runtime.yaml", "VL101")]  # no kustomization: the newest
    assert lint(repo) == [("runtime.yaml", "VL101")]
    # a kustomization in another folder now sets the image: the manifest's record does not hold
    put(repo, "config/base/params.env", "vllm-image=vllm/vllm-openai:v0.8.5\n")
    put(repo, "config/base/kustomization.yaml", KUSTOMIZATION)
    assert lint(repo) == []
    assert lint(repo) == []
    env = put(repo, "config/base/params.env", "vllm-image=vllm/vllm-openai:v0.10.0\n")
    _later(env)
    assert lint(repo) == [("runtime.yaml", "VL101")]
    assert lint(repo) == [("runtime.yaml", "VL101")]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
def test_what_workers_read_is_in_the_survey(lint, repo, chosen, workers_only, monkeypatch):
    from vllm_lint.pipeline import parallel

    monkeypatch.setattr(parallel, "TASKS_PER_PROCESS", 3)
    for i in range(70):
        put(repo, f"f{i:02}/serve.sh", SERVE)
        put(repo, f"f{i:02}/Dockerfile", DOCKERFILE.format(tag="v0.8.5"))
    assert lint("-j", "2", repo) == []
    assert workers_only and chosen == []  # (all chosen in the worker)
    assert lint("-j", "2", repo) == []
    assert chosen == []  # its survey came back with its results: nothing chosen again
    dockerfile = put(repo, "f42/Dockerfile", DOCKERFILE.format(tag="v0.10.0"))
    _later(dockerfile)
    assert lint("-j", "1", repo) == [("serve.sh", "VL101")]


def test_a_record_without_a_survey_chooses_again(lint, repo, chosen, tmp_path, monkeypatch):
    """A record of a cache made before surveys (or whose survey was lost to a concurrent run) has
    its pin chosen again, as before, and is written again under the run's survey."""
    from vllm_lint.pipeline.engine import Linter

    put(repo, "app/serve.sh", SERVE)
    put(repo, "app/Dockerfile", DOCKERFILE.format(tag="v0.10.0"))
    real = Linter.__init__

    def without_survey(self, *a, **k):
        real(self, *a, **k)
        if self.cache is not None:
            self.cache.survey = None  # (its records are written without one)

    with monkeypatch.context() as m:
        m.setattr(Linter, "__init__", without_survey)
        assert lint(repo) == [("serve.sh", "VL101")]
    (index,) = (tmp_path / "cache").glob("v3/stat-*.json")
    body = json.loads(index.read_bytes().partition(b"\n")[2])
    assert "\0surveys" not in body and len(body[str(repo / "app" / "serve.sh")]) == 7  # (no survey named)
    chosen.clear()
    assert lint(repo) == [("serve.sh", "VL101")]
    assert chosen == ["Dockerfile", "serve.sh"]  # their pins chosen again, then written under this run's survey
    body = json.loads(index.read_bytes().partition(b"\n")[2])
    assert len(body[str(repo / "app" / "serve.sh")]) == 8 and len(body["\0surveys"]) == 1
    chosen.clear()
    assert lint(repo) == [("serve.sh", "VL101")]
    assert chosen == []


def test_the_survey_table_is_under_the_index_mac(lint, repo, tmp_path, monkeypatch):
    """A survey edited in the index file (a committed or planted cache, its signatures made to match
    other files) makes the whole index a miss: every file is linted again."""
    from vllm_lint.pipeline.engine import Linter

    put(repo, "app/serve.sh", SERVE)
    put(repo, "app/Dockerfile", DOCKERFILE.format(tag="v0.8.5"))
    assert lint(repo) == []
    (index,) = (tmp_path / "cache").glob("v3/stat-*.json")
    head, _, body = index.read_bytes().partition(b"\n")
    table = json.loads(body)["\0surveys"]
    (entries,) = table.values()
    assert [str(repo / "app" / "Dockerfile")] == [e[0] for e in entries if e[0].endswith("Dockerfile")]
    forged = body.replace(str(repo / "app" / "Dockerfile").encode(), str(repo / "app" / "Dockerfile.x").encode())
    assert forged != body
    index.write_bytes(head + b"\n" + forged)
    analysed: list[str] = []
    real = Linter.analyse
    monkeypatch.setattr(Linter, "analyse", lambda self, path, *a, **k: analysed.append(os.path.basename(str(path)))
                        or real(self, path, *a, **k))
    assert lint(repo) == []
    assert sorted(analysed) == ["Dockerfile", "serve.sh"]
