"""Issue 28: the release a launch runs on, from everything the repository says (README "Which
release is checked"): the launch's own hints, the files around it (pipeline/surroundings.py), a
version a comment states, and what names a release the database does not have. The synthetic
database has 0.8.5, 0.10.0 and 0.27.1 (the newest)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from vllm_lint.launch import VersionHint
from vllm_lint.pipeline import surroundings as surroundings_module
from vllm_lint.pipeline.engine import Linter
from vllm_lint.pipeline.targeting import NEWEST_SOURCE, Targeting
from vllm_lint.settings import Settings


from repo_tree import put, repo  # noqa: E402,F401  (the fixture and the helper)


def choose(db, path, hints=(), data=None, at=None, **settings):
    return Targeting(db, Settings(**settings)).choose(path, list(hints), data, at)


SCRIPT = "#!/bin/sh\nvllm serve m --max-model-len 4096\n"


# ----------------------------------------------------------------------------- the launch's own


def test_the_launchs_own_hint_comes_first(synth_db, repo):
    put(repo, "Dockerfile", "FROM vllm/vllm-openai:v0.10.0\n")
    c = choose(synth_db, put(repo, "serve.sh", SCRIPT), [VersionHint("v0.8.5", "image-tag")])
    assert (c.release, c.kind, c.why) == ("0.8.5", "named", "image-tag v0.8.5")


def test_target_version_still_wins(synth_db, repo):
    c = choose(synth_db, put(repo, "serve.sh", SCRIPT), [VersionHint("v0.34.0", "image-tag")], target_version="0.8")
    assert (c.release, c.kind) == ("0.8.5", "explicit")


def test_a_release_that_never_existed_is_the_newest_of_its_series_said_so(synth_db, repo):
    c = choose(synth_db, put(repo, "serve.sh", SCRIPT), [VersionHint("v0.8.6", "image-tag")])
    assert (c.release, c.kind) == ("0.8.5", "named")
    assert "0.8.6 is not a release in the database: the newest of its series, 0.8.5" in c.why


@pytest.mark.parametrize("tag", ["v0.2.2", "0.3.0", "v0.8.4"])
def test_a_release_older_than_the_database_is_checked_at_its_oldest_said_so(synth_db, repo, tag):
    """(the synthetic database starts at 0.8.5): the nearest release, never the newest in silence"""
    c = choose(synth_db, put(repo, "serve.sh", SCRIPT), [VersionHint(tag, "image-tag")])
    named = tag.lstrip("v")
    assert (c.release, c.kind, c.named) == ("0.8.5", "named", named)
    assert f"vLLM {named} is older than every release in the database: checked against its oldest, 0.8.5" in c.why


@pytest.mark.parametrize("tag", ["v0.34.0", "0.30.0", "v0.27.5", "0.28"])
def test_a_release_newer_than_the_database_is_named_not_replaced(synth_db, repo, tag):
    c = choose(synth_db, put(repo, "serve.sh", SCRIPT), [VersionHint(tag, "image-tag")])
    named = tag.lstrip("v")
    assert (c.release, c.kind, c.named) == ("0.27.1", "newer", named)
    assert f"vLLM {named} is newer than the database" in c.why and "vllm-lint db update" in c.why


@pytest.mark.parametrize("tag", ["nightly-0123abcd", "cu130-nightly", "nightly", "latest",
                                 "0123456789abcdef0123456789abcdef01234567"])
def test_nightly_and_floating_tags_are_builds_checked_at_the_newest(synth_db, repo, tag):
    c = choose(synth_db, put(repo, "serve.sh", SCRIPT), [VersionHint(tag, "image-tag", image=f"vllm/vllm-openai:{tag}")])
    assert (c.release, c.kind) == ("0.27.1", "build")
    assert c.why != NEWEST_SOURCE  # (not counted as naming nothing)


# ----------------------------------------------------------------------------- files around it


def test_a_sibling_dockerfile_names_the_scripts_release(synth_db, repo):
    put(repo, "app/Dockerfile", "FROM vllm/vllm-openai:v0.10.0\nCOPY serve.sh /app/serve.sh\n")
    c = choose(synth_db, put(repo, "app/serve.sh", SCRIPT))
    assert (c.release, c.kind) == ("0.10.0", "named") and "Dockerfile (FROM vllm/vllm-openai:v0.10.0)" in c.why


def test_two_releases_beside_a_script_name_none_unless_one_runs_it(synth_db, repo):
    put(repo, "app/Dockerfile", "FROM vllm/vllm-openai:v0.10.0\n")
    put(repo, "app/Dockerfile.old", "FROM vllm/vllm-openai:v0.8.5\n")
    assert choose(synth_db, put(repo, "app/serve.sh", SCRIPT)).kind == "default"
    put(repo, "app/Dockerfile.old", 'FROM vllm/vllm-openai:v0.8.5\nENTRYPOINT ["/app/serve.sh"]\n')
    c = Targeting(synth_db, Settings()).choose(repo / "app/serve.sh", [])
    assert c.release == "0.8.5" and "Dockerfile.old" in c.why


def test_a_dockerfile_above_names_the_script_it_copies(synth_db, repo):
    put(repo, "Dockerfile", "FROM vllm/vllm-openai:v0.8.5\nCOPY scripts/serve.sh /app/\n")
    assert choose(synth_db, put(repo, "scripts/serve.sh", SCRIPT)).release == "0.8.5"
    # a script it does not name, in a folder below: not its runner; the one release the repository
    # names, a weak source (pipeline/repository.py)
    c = choose(synth_db, put(repo, "scripts/other.sh", SCRIPT))
    assert c.why.startswith("repository: Dockerfile:1 vllm/vllm-openai:v0.8.5") and c.weak


def test_compose_and_kubernetes_files_beside_the_script(synth_db, repo):
    put(repo, "c/compose.yaml", "services:\n  vllm:\n    image: vllm/vllm-openai:v0.8.5\n"
                                "    command: [\"/app/serve.sh\"]\n")
    assert choose(synth_db, put(repo, "c/serve.sh", SCRIPT)).release == "0.8.5"
    put(repo, "k/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
                               "      containers:\n        - image: \"vllm/vllm-openai:v0.10.0\"\n")
    assert choose(synth_db, put(repo, "k/serve.sh", SCRIPT)).release == "0.10.0"


def test_a_truss_config_beside_the_launch(synth_db, repo):
    put(repo, "truss/config.yaml", "base_image:\n  image: vllm/vllm-openai:v0.10.0\nmodel_name: m\n")
    below = choose(synth_db, put(repo, "truss/model/model.py", "import vllm\n"))  # (below: the repository's)
    assert below.why.startswith("repository: truss/config.yaml:2") and below.weak
    c = choose(synth_db, put(repo, "truss/start.sh", SCRIPT))
    assert c.release == "0.10.0" and "config.yaml (image vllm/vllm-openai:v0.10.0)" in c.why
    put(repo, "t2/config.yaml", "requirements:\n  - vllm==0.8.5\nmodel_name: m\n")
    assert choose(synth_db, put(repo, "t2/start.sh", SCRIPT)).release == "0.8.5"


def test_a_charts_app_version_when_its_template_takes_the_tag_from_it(synth_db, repo):
    put(repo, "chart/Chart.yaml", "apiVersion: v2\nname: x\nappVersion: \"v0.10.0\"\n")
    put(repo, "chart/values.yaml", "image:\n  repository: vllm/vllm-openai\n")
    put(repo, "chart/templates/deployment.yaml",
        "image: \"{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}\"\n")
    assert choose(synth_db, repo / "chart/values.yaml").release == "0.10.0"
    assert choose(synth_db, repo / "chart/templates/deployment.yaml").release == "0.10.0"
    put(repo, "chart/templates/deployment.yaml", "image: \"{{ .Values.image.repository }}:v1\"\n")
    assert choose(synth_db, repo / "chart/values.yaml").kind == "default"


def test_a_kustomization_images_override(synth_db, repo):
    put(repo, "k/kustomization.yaml", "resources: [deploy.yaml]\nimages:\n  - name: vllm/vllm-openai\n"
                                      "    newTag: v0.8.5\n")
    c = choose(synth_db, put(repo, "k/deploy.yaml", "kind: Deployment\n"))
    assert c.release == "0.8.5" and "newTag v0.8.5" in c.why


@pytest.mark.parametrize("name,text,release", [
    ("uv.lock", 'version = 1\n[[package]]\nname = "vllm"\nversion = "0.10.0"\nsource = { registry = "x" }\n', "0.10.0"),
    ("poetry.lock", '[[package]]\nname = "vllm"\nversion = "0.8.5"\ndescription = ""\n', "0.8.5"),
    ("pdm.lock", '[[package]]\nname = "vllm"\nversion = "0.10.0"\n', "0.10.0"),
    ("Pipfile.lock", json.dumps({"default": {"vllm": {"version": "==0.8.5"}}}), "0.8.5"),
    ("pixi.lock", "version: 6\npackages:\n- pypi: https://files.pythonhosted.org/x/vllm-0.10.0-cp38-abi3-any.whl\n"
                  "  name: vllm\n  version: 0.10.0\n  sha256: 00\n", "0.10.0"),
    ("environment.yml", "dependencies:\n  - python=3.12\n  - pip:\n    - vllm==0.10.0\n", "0.10.0"),
    ("requirements-gpu.txt", "# vllm==0.8.5 (old)\nvllm>=0.8,<0.11\n", "0.10.0"),
    ("pyproject.toml", '[project]\ndependencies = ["vllm>=0.9"]\n', "0.27.1"),
])
def test_lock_and_requirement_files(synth_db, repo, name, text, release):
    put(repo, f"p/{name}", text)
    c = choose(synth_db, put(repo, "p/sub/serve.sh", SCRIPT))
    assert (c.release, c.kind) == (release, "named"), c.why
    if name.startswith(("requirements", "pyproject")):
        assert f"the newest release it allows, {release}" in c.why


def test_a_release_newer_than_the_database_beside_the_script(synth_db, repo):
    put(repo, "a/Dockerfile", "FROM vllm/vllm-openai:v0.34.0\n")
    c = choose(synth_db, put(repo, "a/serve.sh", SCRIPT))
    assert (c.release, c.kind, c.named, c.hint) == ("0.27.1", "newer", "0.34.0", None)


# ----------------------------------------------------------------------------- words


@pytest.mark.parametrize("comment,release", [
    ("# tested with vLLM 0.10.0", "0.10.0"),
    ("# runs on vllm==0.8.5", "0.8.5"),
    ("# image: vllm/vllm-openai:v0.10.0", "0.10.0"),
    ("# needs vLLM 0.10.0 or later", None),
    ("# written for vLLM 0.8.5, now deployed on a newer image", None),
    ("# migrated from vLLM 0.8.5", None),
    ("# Setting this is broken in vllm 0.8.5", None),
    ("# vLLM 0.10.0+ only", None),
    ("echo 'vLLM 0.10.0'", None),  # not a comment
    # a minimum, a feature's first release, a bug reference: not the release the launch runs
    ("# requires vLLM 0.10.0", None),
    ("# minimum vllm version: 0.8.5", None),
    ("# --enable-prefix-caching was added in vLLM 0.8.5", None),
    ("# vllm >= 0.8.5", None),
    ("# see github.com/vllm-project/vllm/issues/1234 (vllm 0.8.5)", None),
    ("# deployed with vllm 0.10.0 (image pinned below)", "0.10.0"),
    ("# tested with vLLM 0.10.1rc1", "0.10.0"),  # (a release candidate of 0.10.1: the newest of its series)
])
def test_a_version_a_comment_states(synth_db, repo, comment, release):
    data = f"#!/bin/sh\n{comment}\nexport X=1\nvllm serve m\n".encode()
    p = put(repo, "w/serve.sh", data.decode())
    c = choose(synth_db, p, data=data, at=data.index(b"vllm serve"))
    assert (c.release if c.kind != "default" else None) == release, c.why


def test_a_comment_far_above_the_launch_is_not_read(synth_db, repo):
    data = ("# tested with vLLM 0.10.0\n" + "true\n" * 60 + "vllm serve m\n").encode()
    p = put(repo, "w/far.sh", data.decode())
    assert choose(synth_db, p, data=data, at=data.index(b"vllm serve")).kind == "default"


def test_files_around_come_before_words(synth_db, repo):
    put(repo, "x/Dockerfile", "FROM vllm/vllm-openai:v0.8.5\n")
    data = b"# tested with vLLM 0.10.0\nvllm serve m\n"
    p = put(repo, "x/serve.sh", data.decode())
    assert choose(synth_db, p, data=data, at=data.index(b"vllm serve")).release == "0.8.5"


# ----------------------------------------------------------------------------- bounded, cached


def test_each_folder_is_read_once_per_run(synth_db, repo, monkeypatch):
    for i in range(30):
        put(repo, f"svc/s{i}/run.sh", SCRIPT)
    put(repo, "svc/requirements.txt", "vllm==0.8.5\n")
    runners, pins = [], []
    cls = surroundings_module.Surroundings
    read_runners, read_pin = cls._read_runners, cls._pin
    monkeypatch.setattr(cls, "_read_runners", lambda self, f, d: runners.append(d) or read_runners(self, f, d))
    monkeypatch.setattr(cls, "_pin", lambda self, f, d, names: pins.append(d) or read_pin(self, f, d, names))
    t = Targeting(synth_db, Settings())
    for i in range(30):
        for _ in range(3):
            assert t.choose(repo / f"svc/s{i}/run.sh", []).release == "0.8.5"
    assert len(runners) == len(set(runners)) == 30 + 2  # each s<i>, svc and the root: once
    assert len(pins) == len(set(pins)) == 30 + 1  # each s<i>, then svc's pin


def test_outside_a_repository_only_the_files_own_folder_is_read_for_runners(synth_db, tmp_path):
    put(tmp_path, "Dockerfile", "FROM vllm/vllm-openai:v0.8.5\nCOPY sub/run.sh /app/\n")
    assert choose(synth_db, put(tmp_path, "sub/run.sh", SCRIPT)).kind == "default"


def test_a_changed_dockerfile_beside_a_cached_script_changes_its_release(synth_db_path, repo, monkeypatch):
    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(repo / "cache"))
    put(repo, "a/Dockerfile", "FROM vllm/vllm-openai:v0.8.5\n")
    script = put(repo, "a/serve.sh", "vllm serve m --num-scheduler-steps 8\n")

    def run():
        return CliRunner().invoke(main, ["--select", "VL1", "--output-format", "json", str(script)],
                                  catch_exceptions=False).stdout

    assert json.loads(run()) == []  # 0.8.5 accepts it
    put(repo, "a/Dockerfile", "FROM vllm/vllm-openai:v0.10.0\n")
    assert [d["code"] for d in json.loads(run())] == ["VL101"]  # (cached, yet the Dockerfile changed)


def test_the_summary_counts_newer_releases_apart(synth_db_path, repo, monkeypatch):
    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(repo / "cache"))
    a = put(repo, "a/serve.sh", SCRIPT)
    b = put(repo, "b/serve.sh", "docker run vllm/vllm-openai:v0.34.0 --model m\n")
    for _ in range(2):  # (the second from the cache)
        out = CliRunner().invoke(main, [str(a), str(b)], catch_exceptions=False).output
        assert "1 file named a vLLM release newer than the database" in out
        assert "checked against its newest, 0.27.1 (`vllm-lint db update` adds newer releases)" in out
        assert "1 file named no vLLM release" in out


def test_a_linter_marks_what_it_chose(synth_db, repo):
    p = put(repo, "n/serve.sh", "docker run vllm/vllm-openai:v0.34.0 --model m\n")
    linter = Linter(synth_db, Settings(), [])
    res = linter.lint_file(__import__("vllm_lint.pipeline.discovery", fromlist=["Target"]).Target(str(p), True))
    assert res.newer == ["0.34.0"] and not res.defaulted


def test_only_the_file_that_names_the_release_is_recorded(synth_db, repo):
    """The result cache keeps a result while the files its analysis read are unchanged
    (vllm_lint.inputs): the file that named the release is one; the folder's other files are not
    (the verdict, recomputed each run, covers them), so a record stays small in a big folder."""
    dockerfile = put(repo, "a/Dockerfile", "FROM vllm/vllm-openai:v0.10.0\n")
    for i in range(20):
        put(repo, f"a/m{i}.yaml", "kind: ConfigMap\ndata:\n  note: vllm\n")
    p = put(repo, "a/serve.sh", SCRIPT)
    linter = Linter(synth_db, Settings(), [])
    for _ in range(2):  # (the second from the per-file memo)
        analysis = linter.analyse(p, p.read_bytes())
        assert analysis.launches[0].target == "0.10.0"
        assert [r[0] for r in analysis.reads] == [str(dockerfile.resolve())]


def test_large_files_around_are_read_in_linear_time(synth_db, repo):
    """A kubeconfig's base64 line beside a manifest took a minute at 6 kB (a path pattern that
    backtracked); these sizes would take hours read that way, and milliseconds read in one pass."""
    token = "QUJD/" * 60_000  # 300 kB of base64-like word characters and slashes
    put(repo, "k/kubeconfig.yaml", f"# vllm cluster\nusers:\n  - user:\n      token: {token}\n")
    put(repo, "k/Dockerfile", "\n" * 200_000 + "FROM vllm/vllm-openai:v0.8.5\n" + " " * 200_000 + "\n")
    put(repo, "k/environment.yml", "\n" * 200_000 + "dependencies:\n  - vllm=0.10.0\n")
    c = choose(synth_db, put(repo, "k/serve.sh", SCRIPT))
    assert c.release == "0.8.5" and "Dockerfile" in c.why


# ----------------------------------------------------------------------------- pins: ranges, bounds, conda, poetry


@pytest.mark.parametrize("name,text,release,why", [
    # a conda environment's pip section, a post release, quoted, a variant file name
    ("environment.yml", "name: x\ndependencies:\n  - pip\n  - pip:\n    - \"vllm==0.8.5.post1\"\n", "0.8.5",
     "environment.yml pins vllm 0.8.5.post1"),
    ("conda-gpu.yaml", "dependencies:\n  - pip:\n      - vllm>=0.8,<0.10\n", "0.8.5", "the newest release it allows"),
    # upper bounds only: the newest release allowed runs
    ("setup.py", 'setup(\n    extras_require={\n        # "vllm==0.8.5",\n        "serve": ["vllm<=0.10.0"],\n    },\n)\n',
     "0.10.0", "setup.py allows vllm<=0.10.0: the newest release it allows, 0.10.0"),
    ("requirements.txt", "vllm<0.27\n", "0.10.0", "the newest release it allows, 0.10.0"),
    ("requirements.txt", "vllm~=0.8.0\n", "0.8.5", "allows vllm~=0.8.0"),
    ("requirements.txt", "vllm==0.8.*\n", "0.8.5", "allows vllm==0.8.*"),
    ("setup.cfg", "[options]\ninstall_requires =\n    vllm >= 0.8, < 0.9\n", "0.8.5", "setup.cfg allows"),
    # Poetry's constraints
    ("pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.11"\nvllm = "^0.8.1"\n', "0.8.5",
     'allows vllm = "^0.8.1" (>=0.8.1,<0.9)'),
    ("pyproject.toml", '[tool.poetry.dependencies]\nvllm = { version = "0.10.0", extras = ["x"] }\n', "0.10.0",
     'pins vllm = "0.10.0"'),
])
def test_ranges_bounds_and_environments(synth_db, repo, name, text, release, why):
    put(repo, f"p/{name}", text)
    c = choose(synth_db, put(repo, "p/serve.sh", SCRIPT))
    assert (c.release, c.kind) == (release, "named") and why in c.why, c.why


def test_the_main_requirements_file_before_its_variants(synth_db, repo):
    put(repo, "a/requirements-cpu.txt", "vllm==0.8.5\n")
    put(repo, "a/requirements.txt", "vllm==0.10.0\n")
    assert choose(synth_db, put(repo, "a/entrypoint.sh", SCRIPT)).release == "0.10.0"


def test_an_exact_pin_beats_a_range_of_the_same_project(synth_db, repo):
    # the lock beside the pyproject: what `uv sync` installs
    put(repo, "a/pyproject.toml", '[project]\ndependencies = ["vllm>=0.8"]\n')
    put(repo, "a/uv.lock", '[[package]]\nname = "vllm"\nversion = "0.10.0"\n')
    c = choose(synth_db, put(repo, "a/serve.sh", SCRIPT))
    assert (c.release, c.why) == ("0.10.0", "uv.lock locks vllm 0.10.0")
    # a workspace member's range, its lock at the root
    put(repo, "uv.lock", '[[package]]\nname = "vllm"\nversion = "0.8.5"\n')
    put(repo, "b/pyproject.toml", '[project]\ndependencies = ["vllm>=0.8,<0.9"]\n')
    assert choose(synth_db, put(repo, "b/serve.sh", SCRIPT)).release == "0.8.5"
    # an exact pin the range does not allow is another project's: the range
    put(repo, "c/requirements.txt", "vllm>=0.10\n")
    c = choose(synth_db, put(repo, "c/serve.sh", SCRIPT))
    assert c.release == "0.27.1" and "the newest release it allows" in c.why


def test_a_pixi_lock_naming_two_releases_names_none(synth_db, repo):
    entry = "- pypi: https://files.pythonhosted.org/x/vllm-{0}-cp38-abi3-any.whl\n  name: vllm\n  version: {0}\n"
    put(repo, "p/pixi.lock", "packages:\n" + entry.format("0.8.5") + entry.format("0.10.0"))
    assert choose(synth_db, put(repo, "p/serve.sh", SCRIPT)).kind == "default"


SKY = ("resources:\n  accelerators: L4:1\nfile_mounts:\n  ~/work/pixi.lock: pod/pixi.lock\n"
       "  /data:\n    source: s3://bucket\nsetup: pixi install\nrun: |\n  vllm serve m --port 8080\n")


def test_a_lock_file_a_skypilot_task_uploads(synth_db, repo):
    # the lock sits beside the task's folder, not above it: the task's file_mounts name it
    put(repo, "pod/pixi.lock", "packages:\n- pypi: https://x/vllm-0.8.5-py3-none-any.whl\n  name: vllm\n"
                               "  version: 0.8.5\n")
    put(repo, "requirements.txt", "vllm==0.10.0\n")
    task = put(repo, "sky/task.yaml", SKY)
    c = choose(synth_db, task, data=task.read_bytes(), at=0)
    assert c.release == "0.8.5" and "pod/pixi.lock, which the task uploads" in c.why, c.why
    # relative to the task's own folder first; a source outside the repository, a bucket: not read
    put(repo, "sky/pod/pixi.lock", "packages:\n- conda: https://x/vllm-0.10.0-h0.conda\n  name: vllm\n  version: 0.10.0\n")
    assert choose(synth_db, task, data=task.read_bytes(), at=0).release == "0.10.0"
    other = put(repo, "t/task.yaml", SKY.replace("pod/pixi.lock", "../../elsewhere/pixi.lock"))
    assert choose(synth_db, other, data=other.read_bytes(), at=0).release == "0.10.0"  # (the root's pin)


# ----------------------------------------------------------------------------- env files, variables, keys


def test_an_image_tag_from_an_env_file(synth_db, repo):
    put(repo, "d/default.env", "# config\nVLLM_VERSION='0.8.5'   # the current one\nVLLM_PORT=8000\n")
    put(repo, "d/docker-compose.yml", "services:\n  vllm:\n    image: vllm/vllm-openai:v${VLLM_VERSION}\n"
                                      "    command: [\"--model\", \"m\"]\n")
    c = choose(synth_db, repo / "d/docker-compose.yml")
    assert c.release == "0.8.5" and "VLLM_VERSION=0.8.5 in default.env" in c.why, c.why
    assert choose(synth_db, put(repo, "d/README.md", "x\n")).release == "0.8.5"  # (the folder's one release)
    # two env files that disagree name nothing; a default in the reference is used when unset
    put(repo, "e/.env", "TAG=v0.8.5\n")
    put(repo, "e/.env.example", "TAG=v0.10.0\n")
    put(repo, "e/compose.yaml", "services:\n  s:\n    image: vllm/vllm-openai:${TAG}\n")
    assert choose(synth_db, repo / "e/compose.yaml").kind == "default"
    put(repo, "e/compose.yaml", "services:\n  s:\n    image: vllm/vllm-openai:${OTHER:-v0.10.0}\n")
    assert choose(synth_db, repo / "e/compose.yaml").release == "0.10.0"


def test_an_env_file_that_names_a_vllm_image(synth_db, repo):
    put(repo, "r/mi300.env", "VLLM_IMAGE=rocm/vllm:rocm6.4.1_vllm_0.10.0_20250909\nMODEL=m\n")
    c = choose(synth_db, put(repo, "r/run.sh", SCRIPT))
    assert c.release == "0.10.0" and "mi300.env (VLLM_IMAGE=rocm/vllm:" in c.why


@pytest.mark.parametrize("assign", ['DEFAULT_IMAGE="vllm/vllm-openai:v0.8.5"',
                                    'DEFAULT_IMAGE="${DEFAULT_IMAGE:-vllm/vllm-openai:v0.8.5}"',
                                    'VLLM_VERSION="0.8.5"\nDEFAULT_IMAGE="vllm/vllm-openai:v${VLLM_VERSION}"'])
def test_a_shell_image_variable_names_the_files_release(synth_db, repo, assign):
    p = put(repo, "s/deploy.sh", f"#!/bin/bash\n{assign}\nvastai create instance --image \"$DEFAULT_IMAGE\"\n"
                                 "cat <<EOF\nvllm serve m --max-model-len 4096\nEOF\n")
    linter = Linter(synth_db, Settings(), [])
    analysis = linter.analyse(p, p.read_bytes())
    assert [la.target for la in analysis.launches] == ["0.8.5"]
    assert "image-variable v0.8.5" in analysis.launches[0].target_source


def test_an_image_with_its_release_in_a_key_beside_it(synth_db, repo):
    p = put(repo, "k/backend.yaml", "kind: BackendRuntime\nspec:\n  commands: [python3, -m, "
                                    "vllm.entrypoints.openai.api_server]\n  image: vllm/vllm-openai\n"
                                    "  version: v0.8.5\n  args: [--model, m]\n")
    analysis = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes())
    assert [la.target for la in analysis.launches] == ["0.8.5"]


@pytest.mark.parametrize("key", ["version", "tag", "imageTag"])
def test_argument_lists_below_an_image_with_its_release_beside_it_take_that_release(synth_db, repo, key):
    """The argument lists a mapping holds below its untagged image (llmaz's `recommendedConfigs`)
    run that image: the release in the key beside it, not `latest`."""
    p = put(repo, "k/backend.yaml", "kind: BackendRuntime\nspec:\n  command: [python3, -m, "
                                    "vllm.entrypoints.openai.api_server]\n  image: vllm/vllm-openai\n"
                                    f"  {key}: v0.8.5\n  recommendedConfigs:\n    - name: default\n"
                                    "      args: [--model, m]\n    - name: draft\n"
                                    "      args: [--model, m, --speculative-model, d]\n")
    analysis = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes())
    assert [la.target for la in analysis.launches] == ["0.8.5"] * 3
    assert {la.target_source for la in analysis.launches} == {"image-tag v0.8.5"}


def test_an_untagged_image_without_a_release_beside_it_stays_latest(synth_db, repo):
    p = put(repo, "k/values.yaml", "image: vllm/vllm-openai\nversion: 2\nengine:\n  extraArgs: [--enforce-eager]\n")
    analysis = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes())
    assert [la.target for la in analysis.launches] == ["0.27.1"]


# ----------------------------------------------------------------------------- builds, workflows, Ray, README


@pytest.mark.parametrize("install", [
    "pip install -U vllm --pre --extra-index-url https://wheels.vllm.ai/nightly",
    "uv pip install vllm --extra-index-url=https://wheels.vllm.ai/0123abcd0123abcd --system",
])
def test_a_nightly_wheel_index_is_a_build_even_beside_a_pin(synth_db, repo, install):
    put(repo, "n/requirements.txt", "vllm==0.8.5\n")  # (another image's pin)
    p = put(repo, "n/run.sh", f"#!/bin/sh\n{install}\nvllm serve m\n")
    analysis = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes())
    la = analysis.launches[0]
    assert la.target == "0.27.1" and la.choice.kind == "build" and "nightly build" in la.target_source


def test_a_nightly_index_with_a_pinned_release_is_that_release():
    from vllm_lint.frontends.commands import version_from_pip_install

    assert version_from_pip_install("pip install vllm==0.10.1+gptoss --extra-index-url https://wheels.vllm.ai/gpt-oss/".split()) == "0.10.1+gptoss"
    assert version_from_pip_install("pip install vllm --extra-index-url https://download.pytorch.org/whl/cu128".split()) is None


def test_a_composite_actions_input_default(synth_db, repo):
    put(repo, "action.yml", "name: x\ninputs:\n  vllm_version:\n    description: tag\n    default: \"v0.8.5\"\n"
                            "runs:\n  using: composite\n  steps:\n    - uses: actions/checkout@v4\n      with:\n"
                            "        repository: vllm-project/vllm\n        ref: ${{ inputs.vllm_version }}\n"
                            "    - shell: bash\n      run: vllm serve m &\n")
    c = choose(synth_db, repo / "action.yml")
    assert c.release == "0.8.5" and "source checked out at v0.8.5, the default of its input" in c.why
    put(repo, "w/.keep", "")
    put(repo, "w/ci.yml", "on:\n  workflow_dispatch:\n    inputs:\n      v:\n        default: '0.10.0'\njobs:\n  t:\n"
                          "    steps:\n      - run: pip install vllm==${{ inputs.v }}\n")
    assert choose(synth_db, put(repo, "w/serve.sh", SCRIPT)).release == "0.10.0"


def test_a_ray_runtime_env_pin_for_the_module_it_imports(synth_db, repo):
    put(repo, "r/ray-service.yaml", "kind: RayService\nspec:\n  serveConfigV2: |\n    applications:\n"
                                    "    - import_path: samples.r.serve:app\n      runtime_env:\n"
                                    "        pip: [\"vllm==0.8.5\"]\n")
    put(repo, "r/ray-service.tpu.yaml", "kind: RayService\nspec:\n  serveConfigV2: |\n    applications:\n"
                                        "    - import_path: samples.r.serve_tpu:app\n      runtime_env:\n"
                                        "        pip: [\"vllm==0.10.0\"]\n")
    assert choose(synth_db, put(repo, "r/serve.py", "from vllm import LLM\n")).release == "0.8.5"
    assert choose(synth_db, put(repo, "r/serve_tpu.py", "from vllm import LLM\n")).release == "0.10.0"


def test_the_readme_install_instruction_is_the_weakest_source(synth_db, repo):
    put(repo, "README.md", "# tool\n\n```\nuv pip install \"vllm==0.8.5\"\n```\n")
    c = choose(synth_db, put(repo, "a/b/serve.sh", SCRIPT))
    assert c.release == "0.8.5" and "README.md:4, the repository's install instruction" in c.why
    data = b"# tested with vLLM 0.10.0\nvllm serve m\n"
    p = put(repo, "a/c/serve.sh", data.decode())
    assert choose(synth_db, p, data=data, at=data.index(b"vllm serve")).release == "0.10.0"  # (its own words first)
    put(repo, "a/b/requirements.txt", "vllm==0.10.0\n")
    assert Targeting(synth_db, Settings()).choose(repo / "a/b/serve.sh", []).release == "0.10.0"


@pytest.mark.parametrize("prose, release", [
    ("Production-grade, OpenAI-compatible server using **vLLM v0.8.5**. Deploy any model.\n", "0.8.5"),
    ("Tested with vllm 0.10.0 on an A100.\n", "0.10.0"),
    ("Serves `vllm/vllm-openai:v0.8.5` on GKE.\n", "0.8.5"),
    ("Requires vLLM 0.8.5 or later.\n", None),  # a minimum
    ("Works with vLLM 0.8.5; upgraded to vLLM 0.10.0 since.\n", None),  # an upgrade: that sentence states nothing
    ("Tested with vLLM 0.8.5.\n\nAlso tested with vLLM 0.10.0.\n", None),  # two releases: none
])
def test_the_readme_prose_states_a_release_after_its_install_instruction(synth_db, repo, prose, release):
    put(repo, "README.md", "# A server\n\n" + prose)
    c = choose(synth_db, put(repo, "a/serve.sh", SCRIPT))
    if release is None:
        assert c.kind == "default", c.why
    else:
        assert c.release == release and "README.md:3, the release the repository's README states" in c.why, c.why


def test_the_readme_prose_is_never_over_a_pin_nor_an_install_instruction(synth_db, repo):
    put(repo, "README.md", "Using vLLM 0.10.0.\n\n```\npip install vllm==0.8.5\n```\n")
    assert choose(synth_db, put(repo, "a/serve.sh", SCRIPT)).why.startswith("README.md:4, the repository's install")
    put(repo, "b/requirements.txt", "vllm==0.27.1\n")
    assert choose(synth_db, put(repo, "b/serve.sh", SCRIPT)).release == "0.27.1"
    assert choose(synth_db, put(repo, "c/serve.sh", SCRIPT), [VersionHint("v0.8.5", "image-tag")]).release == "0.8.5"


def test_no_readme_outside_a_repository(synth_db, tmp_path):
    put(tmp_path, "README.md", "pip install vllm==0.8.5\n")
    assert choose(synth_db, put(tmp_path, "serve.sh", SCRIPT)).kind == "default"


def test_a_values_image_with_its_tag_beside_it(synth_db, repo):
    put(repo, "c/Chart.yaml", "apiVersion: v2\nname: c\nappVersion: \"1.0\"\n")
    p = put(repo, "c/values.yaml", "image:\n  # -- the image\n  image: 'vllm/vllm-openai'\n\n  # -- its tag\n"
                                   "  tag: v0.8.5\n  pullPolicy: Always\nmodel:\n  args: []\n")
    c = choose(synth_db, p)
    assert c.release == "0.8.5" and "vllm/vllm-openai:v0.8.5" in c.why, c.why
    # a tag key of another mapping (less indented, after the image's mapping ended) is not its tag
    put(repo, "d/values.yaml", "image:\n  repository: vllm/vllm-openai\nother:\n  tag: v0.10.0\n")
    assert choose(synth_db, put(repo, "d/run.sh", SCRIPT)).why.startswith("repository: c/values.yaml")


def test_a_sibling_chart_configures_the_model_server_image(synth_db, repo):
    put(repo, "charts/op/Chart.yaml", "apiVersion: v2\nname: op\n")
    put(repo, "charts/op/values.yaml", "modelServers:\n  VLLM:\n    images:\n      default: \"vllm/vllm-openai:v0.8.5\"\n"
                                       "      arm: \"vllm/vllm-openai:v0.10.0\"\n      cpu: other/vllm:v0.6.3-cpu\n")
    put(repo, "charts/models/Chart.yaml", "apiVersion: v2\nname: models\n")
    c = choose(synth_db, put(repo, "charts/models/values.yaml", "catalog:\n  m:\n    args: []\n"))
    assert c.release == "0.8.5" and "a sibling chart configures, default: vllm/vllm-openai:v0.8.5" in c.why
    # not for a file outside a chart (the repository names two releases), nor for two sibling charts that disagree
    c = choose(synth_db, put(repo, "charts/run.sh", SCRIPT))
    assert c.kind == "default" and "the repository names several vLLM releases" in c.why
    put(repo, "charts/op2/Chart.yaml", "apiVersion: v2\nname: op2\n")
    put(repo, "charts/op2/values.yaml", "image: vllm/vllm-openai:v0.10.0\n")
    assert Targeting(synth_db, Settings()).choose(repo / "charts/models/values.yaml", []).kind == "default"
    # the catalog that names its server (engine: VLLM) is linked to it, whatever the other charts say
    c = choose(synth_db, put(repo, "charts/models/values.yaml", "catalog:\n  m:\n    engine: VLLM\n"))
    assert (c.release, c.why) == ("0.8.5", "charts/op/values.yaml:4 vllm/vllm-openai:v0.8.5 (the image of the model "
                                           "server it names, engine: VLLM)")


def test_a_guide_that_prints_the_provided_vllm_version(synth_db, repo):
    p = put(repo, "docs/vllm.md", "# vLLM\n\nLoad the module, then:\n\n```python\n>>> import vllm\n"
                                  ">>> print(vllm.__version__)\n'0.8.5'\n```\n\n## Serve\n\n```bash\n"
                                  "vllm serve m --max-model-len 4096\n```\n")
    analysis = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes())
    assert [(la.target, la.target_source) for la in analysis.launches] == [("0.8.5", "printed vllm.__version__ 0.8.5")]


@pytest.mark.parametrize("build", ["docker build -t $IMAGE_NAME -f docker/Dockerfile .",
                                   "docker build --tag \"$IMAGE_NAME\" \\\n  ./docker",
                                   "podman build --file=docker/Dockerfile -t x ."])
def test_the_image_a_script_builds_itself(synth_db, repo, build):
    put(repo, "docker/Dockerfile", "FROM vllm/vllm-openai:v0.8.5\nRUN pip install x\n")
    put(repo, "scripts/Dockerfile", "FROM vllm/vllm-openai:v0.10.0\n")  # (not the one it builds)
    p = put(repo, "scripts/run.sh", f"#!/bin/bash\nIMAGE_NAME=my-vllm\n{build}\n"
                                    "docker run --gpus all $IMAGE_NAME vllm serve m\n")
    analysis = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes())
    la = analysis.launches[0]
    assert la.target == "0.8.5" and "the image this script builds: Dockerfile (FROM vllm/vllm-openai:v0.8.5)" in la.target_source


@pytest.mark.parametrize("image,kind,release", [
    ('bentoml.images.Image(python_version="3.11").run("uv pip install --system vllm '
     '--extra-index-url https://wheels.vllm.ai/nightly")', "build", "0.27.1"),
    ('modal.Image.debian_slim().pip_install("vllm", extra_index_url="https://wheels.vllm.ai/nightly")', "build", "0.27.1"),
    ('modal.Image.debian_slim().run_commands("apt-get update && pip install vllm==0.8.5")', "named", "0.8.5"),
])
def test_a_python_images_build_commands(synth_db, repo, image, kind, release):
    put(repo, "b/requirements.txt", "vllm==0.10.0\n")  # (another image's pin)
    p = put(repo, "b/service.py", f"import bentoml, modal, subprocess\nimage = {image}\n\n"
                                  "def serve():\n    subprocess.run([\"vllm\", \"serve\", \"m\"])\n")
    la = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes()).launches[0]
    assert (la.target, la.choice.kind) == (release, kind), la.target_source


def test_subprocess_run_is_still_a_launch_with_run_read_for_pins(synth_db, repo):
    p = put(repo, "c/job.py", "import subprocess\nsubprocess.run(\"pip install vllm==0.8.5\", shell=True)\n"
                              "subprocess.run([\"vllm\", \"serve\", \"m\", \"--max-model-len\", \"4096\"])\n")
    analysis = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes())
    assert [la.target for la in analysis.launches] == ["0.8.5"]


def test_a_guide_whose_env_block_sets_a_later_blocks_image_tag(synth_db, repo):
    p = put(repo, "docs/guide.md", "1. Create `.env`:\n\n```bash\nVLLM_IMAGE_VERSION=v0.8.5 # stable\nMODEL=m\n```\n\n"
                                   "2. Create `docker-compose.yml`:\n\n```yaml\nservices:\n  vllm:\n"
                                   "    image: vllm/vllm-openai:${VLLM_IMAGE_VERSION}\n    command: --model ${MODEL}\n```\n")
    la = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes()).launches[0]
    assert (la.target, la.target_source) == ("0.8.5", "image-tag v0.8.5")
    data = p.read_bytes()
    span = la.choice.hint.span
    assert data[span.start:span.end] == b"v0.8.5" and data.index(b"v0.8.5") == span.start  # (the .env block's value)


def test_a_readme_mention_in_prose_is_no_install_instruction(synth_db, repo):
    put(repo, "README.md", "# tool\n\nIt reads a `pip install vllm==0.8.5` in your script.\n")
    assert choose(synth_db, put(repo, "s/serve.sh", SCRIPT)).kind == "default"
    put(repo, "README.md", "# tool\n\n    $ pip install -U vllm==0.8.5\n")
    assert Targeting(synth_db, Settings()).choose(repo / "s/serve.sh", []).release == "0.8.5"


def test_a_setup_script_that_installs_the_environment(synth_db, repo):
    put(repo, "setup_vllm.sh", "#!/bin/bash\npython3 -m venv venv\nsource venv/bin/activate\npip3 install vllm==0.8.5\n")
    c = choose(synth_db, put(repo, "scripts/serve.sh", SCRIPT))
    assert c.release == "0.8.5" and c.why == "setup_vllm.sh installs vllm==0.8.5"
    put(repo, "requirements.txt", "vllm==0.10.0\n")  # (the requirement file first)
    assert Targeting(synth_db, Settings()).choose(repo / "scripts/serve.sh", []).release == "0.10.0"


def test_a_wheel_url_built_from_a_variable_of_the_script(synth_db, repo):
    p = put(repo, "w/setup.sh", "#!/bin/bash\nexport VLLM_VERSION=0.8.5\n"
                                "pip3 install https://example.org/wheels/vllm-${VLLM_VERSION}-cp38-abi3-manylinux1_x86_64.whl\n"
                                "vllm serve m\n")
    assert [la.target for la in Linter(synth_db, Settings(), []).analyse(p, p.read_bytes()).launches] == ["0.8.5"]


def test_a_dockerfile_above_names_a_script_by_its_path_in_the_image(synth_db, repo):
    put(repo, "Dockerfile", "FROM python:3.12\nRUN pip install vllm==0.8.5\nCOPY scripts/ /app/scripts/\n"
                            "CMD [\"python\", \"/app/scripts/launcher.py\"]\n")
    assert choose(synth_db, put(repo, "scripts/launcher.py", "import vllm\n")).release == "0.8.5"
    c = choose(synth_db, put(repo, "other/launcher.py", "import vllm\n"))  # (not its runner: the repository's)
    assert c.why.startswith("repository: Dockerfile:2 vllm==0.8.5") and c.weak


def test_a_dockerfile_that_also_installs_vllm_unpinned_names_no_release(synth_db, repo):
    put(repo, "d/Dockerfile", "FROM python:3.12\nARG KIND=standard\nRUN if [ \"$KIND\" = \"special\" ]; then \\\n"
                              "  pip install vllm==0.8.5+special; \\\nelse \\\n  pip install \\\n  vllm \"transformers>=4\"; \\\nfi\n"
                              "USER vllm\n")
    assert choose(synth_db, put(repo, "d/run.sh", SCRIPT)).kind == "default"
    put(repo, "e/Dockerfile", "FROM python:3.12\nRUN pip install vllm==0.8.5\nUSER vllm\n"
                              "RUN pip install -r r.txt && chown vllm /x\n")
    assert choose(synth_db, put(repo, "e/run.sh", SCRIPT)).release == "0.8.5"


VENDOR_BASE = "FROM registry.example/vertex/pytorch-vllm-serve:gemma\n"


@pytest.mark.parametrize("statement, release", [
    ("# Base image includes: vLLM 0.10.0 (the vendor's build)\n", "0.10.0"),
    ("# The base image ships the vendor's vLLM 0.10.1rc1.dev133\n", "0.10.0"),  # (a build before 0.10.1: its series)
    ("ENV VLLM_VERSION=0.8.5\n", "0.8.5"),
    ('LABEL vllm.version="v0.8.5"\n', "0.8.5"),
    # both stating the same release (a development build and its release candidate)
    ("# vLLM 0.10.1rc1.dev133 inside\n# its chat template crashes in vLLM 0.10.1rc1's sandbox\n", "0.10.0"),
    # nothing stated, or two releases, or a release the base does not run: none
    ("# the vendor's vLLM image\n", None),
    ("# vLLM 0.10.0 inside\n# vLLM 0.8.5 inside\n", None),
    ("# needs vLLM 0.10.0 or later\n", None),
    ("# incompatible with PyPI vLLM 0.10.0 (which requires transformers<5)\n", None),
])
def test_a_dockerfile_states_the_vllm_release_of_its_vendor_base(synth_db, repo, statement, release):
    """A Dockerfile built on a vendor's vLLM image whose tag names no release (Vertex's
    `pytorch-vllm-serve:gemma4`) says in words which vLLM that image holds: its runners take it."""
    put(repo, "c/Dockerfile", "# serving image\n" + statement + VENDOR_BASE + "RUN pip install bitsandbytes\n"
                              "COPY entrypoint.sh /entrypoint.sh\nENTRYPOINT [\"/entrypoint.sh\"]\n")
    c = choose(synth_db, put(repo, "c/entrypoint.sh", "#!/bin/sh\nexec python -m vllm.entrypoints.openai.api_server --model m\n"))
    assert (c.release if c.kind != "default" else None) == release, c.why
    if release:
        assert "Dockerfile (FROM registry.example/vertex/pytorch-vllm-serve:gemma, whose vLLM release line 2 states" in c.why


@pytest.mark.parametrize("dockerfile", [
    "# Base image includes: vLLM 0.10.0\nFROM python:3.12\n",  # (a base that names no vLLM: a mention only)
    "# Base image includes: vLLM 0.10.0\n" + VENDOR_BASE + "RUN pip install -U vllm\n",  # (its own install)
    "# Base image includes: vLLM 0.10.0\n" + VENDOR_BASE + "RUN pip install git+https://github.com/me/vllm.git\n",
    "# Base image includes: vLLM 0.10.0\n" + VENDOR_BASE + "FROM python:3.12\n",  # (the last stage runs)
])
def test_words_about_a_base_that_does_not_run_name_no_release(synth_db, repo, dockerfile):
    put(repo, "c/Dockerfile", dockerfile + "COPY entrypoint.sh /entrypoint.sh\n")
    c = choose(synth_db, put(repo, "c/entrypoint.sh", SCRIPT))
    assert c.release != "0.10.0" and "states" not in c.why, c.why  # (an unpinned install: the newest, a build)


def test_the_last_stage_follows_its_alias_to_the_vendor_base(synth_db, repo):
    put(repo, "c/Dockerfile", "# vLLM 0.8.5 inside the vendor image\n" + VENDOR_BASE.strip() + " AS base\n"
                              "FROM base\nCOPY entrypoint.sh /entrypoint.sh\n")
    assert choose(synth_db, put(repo, "c/entrypoint.sh", SCRIPT)).release == "0.8.5"


@pytest.mark.parametrize("values", ["image:\n  repository: vllm/vllm-openai\n  tag: v0.10.0\n",
                                    "server:\n  image: vllm/vllm-openai:v0.10.0\n",
                                    "image:\n  image: 'vllm/vllm-openai'\n  # the tag\n  tag: v0.10.0\n"])
def test_a_chart_template_takes_the_release_of_its_own_values_image(synth_db, repo, values):
    """A template whose image its own words do not name (``{{ include "c.image" . }}``) renders the
    chart's values by default."""
    put(repo, "charts/c/Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n")
    put(repo, "charts/c/values.yaml", values)
    p = put(repo, "charts/c/templates/deploy.yaml", "x: 1\n")
    c = choose(synth_db, p)
    assert c.release == "0.10.0" and "c/values.yaml (the image the chart's templates render by default" in c.why
    # two releases in the values, or a file outside templates/: not decided here
    put(repo, "two/e/Chart.yaml", "apiVersion: v2\nname: e\nversion: 0.1.0\n")
    put(repo, "two/e/values.yaml", values + "other:\n  image: vllm/vllm-openai:v0.8.5\n")
    assert choose(synth_db, put(repo, "two/e/templates/b.yaml", "x: 1\n")).kind == "default"
    put(repo, "one/d/Chart.yaml", "apiVersion: v2\nname: d\nversion: 0.1.0\n")
    put(repo, "one/d/values.yaml", values)
    assert choose(synth_db, put(repo, "one/d/notes/x.yaml", "x: 1\n")).kind == "default"


def test_a_chart_template_takes_the_release_of_a_values_file_beside_values_yaml(synth_db, repo):
    """llmaz's chart keeps its images in values.global.yaml (merged into values.yaml when packaged,
    passed with -f when installed): read when values.yaml names no vLLM image."""
    put(repo, "chart/Chart.yaml", "apiVersion: v2\nname: c\nversion: 0.1.0\n")
    put(repo, "chart/values.yaml", "globalConfig:\n  x: 1\n")
    put(repo, "chart/values.global.yaml", "backendRuntime:\n  vllm:\n    image:\n      repository: vllm/vllm-openai\n"
                                          "      tag: v0.10.0\n")
    p = put(repo, "chart/templates/backends/vllm.yaml", "spec:\n  image: {{ .Values.backendRuntime.vllm.image.repository }}\n")
    c = choose(synth_db, p)
    assert c.release == "0.10.0" and c.why.startswith("chart/values.global.yaml (the image the chart's templates")
    # values.yaml naming its own image decides; variants naming several releases name none
    put(repo, "two/Chart.yaml", "apiVersion: v2\nname: t\nversion: 0.1.0\n")
    put(repo, "two/values.yaml", "x: 1\n")
    put(repo, "two/values-a.yaml", "image: vllm/vllm-openai:v0.10.0\n")
    put(repo, "two/values-b.yaml", "image: vllm/vllm-openai:v0.8.5\n")
    assert choose(synth_db, put(repo, "two/templates/d.yaml", "x: 1\n")).kind == "default"
    put(repo, "one/Chart.yaml", "apiVersion: v2\nname: o\nversion: 0.1.0\n")
    put(repo, "one/values.yaml", "image: vllm/vllm-openai:v0.8.5\n")
    put(repo, "one/values-a.yaml", "image: vllm/vllm-openai:v0.10.0\n")
    assert choose(synth_db, put(repo, "one/templates/d.yaml", "x: 1\n")).release == "0.8.5"


@pytest.mark.parametrize("text", [
    # found: a checkout of vLLM's source, a pin filled from an input, and both spelt with escapes
    "inputs:\n  v:\n    default: v0.8.5\nruns:\n  steps:\n    - with:\n        repository: vllm-project/vllm\n        ref: ${{ inputs.v }}\n",
    "inputs:\n  v:\n    default: v0.8.5\nruns:\n  steps:\n    - with:\n        repository: VLLM-Project/vLLM\n        ref: ${{ inputs.v }}\n",
    "inputs:\n  v:\n    default: v0.8.5\nruns:\n  steps:\n    - with:\n        repository: \"vllm-\\\nproject/vllm\"\n        ref: ${{ inputs.v }}\n",
    "inputs:\n  v:\n    default: '0.8.5'\nruns:\n  steps:\n    - run: pip install vllm==${{ inputs.v }}\n",
    "inputs:\n  v:\n    default: '~=0.8.5'\nruns:\n  steps:\n    - run: pip install vllm${{ inputs.v }}\n",
    "inputs:\n  v:\n    default: \"\\x3D=0.8.5\"\nruns:\n  steps:\n    - run: pip install vllm${{ inputs.v }}\n",
    "inputs:\n  v:\n    default: '0.8.5'\nruns:\n  steps:\n    - run: \"pip install vllm=\\x3D\\x24{{ inputs.v }}\"\n",
    # not found: inputs and vLLM named otherwise, a pin not filled from an input
    "inputs:\n  python:\n    default: python3\nruns:\n  steps:\n    - run: $PY -m pip install vllm-lint ${{ inputs.python }}\n",
    "inputs:\n  v:\n    default: 'x'\nruns:\n  steps:\n    - run: pip install vllm\n    - run: echo ${{ inputs.v }}\n",
    "inputs: [\nruns: {\n",
])
def test_a_workflow_screened_before_pyyaml_agrees_with_the_loader(text):
    """``_workflow_release`` returns None without loading a file that can name neither source (no
    escapes, no vLLM repository, no ``${{`` beside a pin operator): what loading it says too."""
    from vllm_lint.pipeline import surroundings as s

    got, loaded = s._workflow_release(text, "action.yml"), s._workflow_loaded(text, "action.yml")
    assert repr(got) == repr(loaded)
    assert (got is not None) == ("v0.8.5" in text or "'0.8.5'" in text or "=0.8.5" in text)


@pytest.mark.parametrize("name", ["Dockerfile-Nvidia", "Dockerfile_gpu", "gpu.Dockerfile", "cuda-dockerfile"])
def test_a_dockerfile_named_with_a_suffix_names_the_repositorys_release(synth_db, repo, name):
    """A Dockerfile is known by the names the format registry claims (a name starting with
    `Dockerfile`, `Dockerfile-Nvidia` as `Dockerfile.nvidia`): the release its RUN line pins, in a
    `bash -c` string too, is the one the repository names."""
    put(repo, name, 'FROM ubuntu:22.04\nRUN bash -c "source ~/conda/bin/activate infra && pip install vllm==0.8.5 -i https://mirror"\n')
    c = choose(synth_db, put(repo, "scripts/run.sh", SCRIPT))
    assert c.release == "0.8.5" and c.why.startswith(f"repository: {name}:2 vllm==0.8.5")


def test_a_python_file_named_dockerfile_is_not_a_dockerfile(synth_db, repo):
    """A file whose suffix another format claims is that format, as when linting: a generator
    of Dockerfiles (`dockerfile.py`) pins nothing the repository deploys."""
    from vllm_lint.frontends.base import builds_image_by_name

    assert [n for n in ("dockerfile.py", "Dockerfile.md", "Dockerfile.yaml", "dockerfiles.sh", "Dockerfile",
                        "Dockerfile.j2", "Containerfile", "x_containerfile") if builds_image_by_name(n)] \
        == ["Dockerfile", "Dockerfile.j2", "Containerfile", "x_containerfile"]
    put(repo, "tools/dockerfile.py", 'BODY = """FROM ubuntu:22.04\nRUN pip install vllm==0.8.5\n"""\n')
    assert choose(synth_db, put(repo, "scripts/run.sh", SCRIPT)).kind == "default"


@pytest.mark.parametrize("line", [
    "INFO 07-04 18:51:13 [api_server.py:1287] vLLM API server version 0.8.5",
    "(APIServer pid=1) INFO 07-05 13:56:14 [api_utils.py:339]  \u2584\u2584 \u2584\u2588 \u2588     \u2588  version 0.8.5",
    "INFO 07-04 18:51:30 [core.py:70] Initializing a V1 LLM engine (v0.8.5) with config: model='m'",
])
def test_a_server_log_beside_the_script_names_what_ran(synth_db, repo, line):
    put(repo, "serve/nohup.out", f"nohup: ignoring input\n{line}\nINFO ... Started server process\n")
    c = choose(synth_db, put(repo, "serve/serve.sh", SCRIPT))
    assert c.release == "0.8.5" and c.why.startswith("nohup.out:2, the log of a server run beside it (vLLM 0.8.5")


def test_what_a_log_does_not_name(synth_db, repo):
    # a development build names no release; two logs naming two releases name none; a pin is nearer
    put(repo, "a/server.log", "vLLM API server version 0.11.0rc2.dev147+g1a2b3c\n")
    assert choose(synth_db, put(repo, "a/serve.sh", SCRIPT)).kind == "default"
    put(repo, "b/old.log", "vLLM API server version 0.8.5\n")
    put(repo, "b/new.log", "vLLM API server version 0.10.0\n")
    assert choose(synth_db, put(repo, "b/serve.sh", SCRIPT)).kind == "default"
    put(repo, "c/run.log", "vLLM API server version 0.8.5\n")
    put(repo, "c/requirements.txt", "vllm==0.10.0\n")
    assert choose(synth_db, put(repo, "c/serve.sh", SCRIPT)).release == "0.10.0"


def test_a_long_log_is_read_from_its_start(synth_db, repo):
    put(repo, "serve/vllm.log", "vLLM API server version 0.8.5\n" + "INFO request done\n" * 150_000)
    assert choose(synth_db, put(repo, "serve/serve.sh", SCRIPT)).release == "0.8.5"


@pytest.mark.parametrize("prose, release", [
    ("Using vLLM v0.17.0.", "0.17.0"),
    ("Served by vllm/vllm-openai:v0.9.2 here", "0.9.2"),
    ("vLLM version: 0.9.2", "0.9.2"),
    ("vLLM release is 0.10.1.1, on GKE", "0.10.1.1"),
    ("Built on vllm 0.17.2rc1.dev133", "0.17.2rc1.dev133"),
    ("vllm==0.9.2", None),  # a specifier
    ("myvllm 0.9.2", None),
    ("vllm 0.9.2+", None),
    ("vllm 0.9.2 or later", None),
    ("vllm 0.9.2.x", None),
    ("An OpenAI-compatible server on vLLM 0.9.2", "0.9.2"),
    ("Fixes a bug in vLLM 0.9.2", None),
])
def test_how_a_readme_states_a_release(prose, release):
    from vllm_lint.pipeline.surroundings import _readme_statement

    got = _readme_statement(prose)
    assert (got[1] if got else None) == release
