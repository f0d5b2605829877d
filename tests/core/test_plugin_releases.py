"""Issue 33: a launch whose evidence is a platform plugin's release is checked at the vLLM release
that plugin release targets (README "Which release is checked"; knowledge/plugin_targets.py,
pipeline/plugin_evidence.py), and a vendor product's own version (Red Hat AI Inference Server's
chart appVersion) is never read as vLLM's. Every repository here is written for the test, against
the shipped database (its plugin index: optimum-neuron 0.4.5 pins vllm==0.11.0, vllm-spyre 1.9.0
allows >=0.11.0,<=0.16.0)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vllm_lint.knowledge.image_tags import read_hint
from vllm_lint.knowledge.plugin_targets import plugin_version, target_of
from vllm_lint.pipeline.engine import Linter
from vllm_lint.rules.base import select_rules
from vllm_lint.settings import Settings
from vllm_lint.surface.db import Database, default_db_path


@pytest.fixture(scope="module")
def db():
    return Database(default_db_path())


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()
    return tmp_path


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def choice(db, root: Path, rel: str, target: Optional[str] = None):
    p = root / rel
    linter = Linter(db, Settings(target_version=target), select_rules([], []))
    analysis = linter.analyse(p, p.read_bytes())
    assert analysis.launches, "the launch is read"
    return analysis.launches[0].choice


SERVE = "#!/bin/bash\nvllm serve Qwen/Qwen2.5-7B-Instruct --max-model-len 4096\n"


def k8s(image: str) -> str:
    return ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: llm\nspec:\n  template:\n    spec:\n"
            "      containers:\n      - name: server\n        image: " + image + "\n"
            "        command: [\"vllm\", \"serve\", \"Qwen/Qwen2.5-7B-Instruct\"]\n")


# ----------------------------------------------------------------------------- the launch's own evidence


def test_a_script_installing_a_plugin_release_runs_the_vllm_release_it_is_numbered_for(db, repo):
    write(repo, {"run.sh": "#!/bin/bash\npip install vllm-ascend==0.9.1\n"
                           "vllm serve Qwen/Qwen2.5-7B-Instruct --tensor-parallel-size 2\n"})
    c = choice(db, repo, "run.sh")
    assert (c.release, c.kind) == ("0.9.1", "named")
    assert c.why.startswith("vllm-ascend 0.9.1 (run.sh:2) targets vLLM 0.9.1 (its version scheme")


def test_a_release_candidate_pin_of_the_plugin(db, repo):
    write(repo, {"setup.sh": "#!/bin/bash\npip install torch==2.7.1\npip install vllm-ascend==0.11.0rc1\n"
                             + SERVE.split("\n", 1)[1]})
    c = choice(db, repo, "setup.sh")
    assert c.release == "0.11.0" and c.why.startswith("vllm-ascend 0.11.0rc1 (setup.sh:3) targets vLLM 0.11.0")


def test_a_file_pinning_two_releases_of_a_plugin_names_none(db, repo):
    write(repo, {"run.sh": "#!/bin/bash\npip install vllm-ascend==0.9.1 || pip install vllm-ascend==0.10.2\n"
                           + SERVE.split("\n", 1)[1]})
    assert choice(db, repo, "run.sh").kind == "default"


def test_a_plugin_image_tag_names_the_plugin_release_and_through_it_vllms(db, repo):
    write(repo, {"deploy.yaml": k8s("quay.io/ascend/vllm-ascend:v0.10.0rc1")})
    c = choice(db, repo, "deploy.yaml")
    assert c.release == "0.10.0"
    assert "vllm-ascend 0.10.0rc1 (image quay.io/ascend/vllm-ascend:v0.10.0rc1) targets vLLM 0.10.0" in c.why


def test_a_plugin_image_with_a_floating_tag_names_no_release(db, repo):
    write(repo, {"deploy.yaml": k8s("quay.io/ascend/vllm-ascend:latest")})
    assert choice(db, repo, "deploy.yaml").kind == "default"


def test_a_forks_image_named_like_a_plugin_is_not_the_plugins_release(db, repo):
    # (OPEA's opea/vllm-gaudi runs HabanaAI's fork; its tag is the Gaudi software version)
    write(repo, {"compose.yaml": "services:\n  llm:\n    image: opea/vllm-gaudi:1.22.0\n", "serve.sh": SERVE})
    assert choice(db, repo, "serve.sh").kind == "default"


def test_a_plugin_whose_release_names_no_vllm_bound_chooses_nothing(db, repo):
    write(repo, {"run.sh": "#!/bin/bash\npip install vllm-musa==0.1.1\n" + SERVE.split("\n", 1)[1]})
    assert choice(db, repo, "run.sh").kind == "default"


# ----------------------------------------------------------------------------- the files around it


def test_a_requirement_file_above_pinning_a_plugin_release_uses_its_own_vllm_pin(db, repo):
    write(repo, {"requirements.txt": "transformers\noptimum-neuron[vllm]==0.4.5\n", "scripts/serve.sh": SERVE})
    c = choice(db, repo, "scripts/serve.sh")
    assert c.release == "0.11.0"
    assert c.why.startswith("optimum-neuron 0.4.5 (requirements.txt:2) requires vllm==0.11.0, by its pyproject.toml")


def test_a_plugin_release_allowing_a_range_runs_the_newest_of_it_and_says_the_range(db, repo):
    write(repo, {"requirements.txt": "vllm-spyre==1.9.0\n", "serve.sh": SERVE})
    c = choice(db, repo, "serve.sh")
    assert c.release == "0.16.0"
    assert "allows vllm<=0.16.0,>=0.11.0" in c.why and "0.11.0 to 0.16.0 in the database" in c.why


def test_a_dockerfile_from_a_plugin_image_beside_the_script(db, repo):
    write(repo, {"Dockerfile": "FROM cr.metax-tech.com/public-ai-release/maca/vllm-metax:0.11.2-maca.ai3.2.1.7\n"
                               "COPY serve.sh /app/serve.sh\n",
                 "serve.sh": SERVE})
    c = choice(db, repo, "serve.sh")
    assert c.release == "0.11.2"
    assert c.why.startswith("vllm-metax 0.11.2 (Dockerfile (FROM cr.metax-tech.com/")


def test_a_folder_naming_two_releases_of_a_plugin_names_none(db, repo):
    write(repo, {"requirements.txt": "vllm-ascend==0.9.1\n", "requirements-dev.txt": "vllm-ascend==0.10.2\n",
                 "serve.sh": SERVE})
    assert choice(db, repo, "serve.sh").kind == "default"


# ----------------------------------------------------------------------------- what still wins


def test_a_vllm_pin_beside_the_plugin_pin_wins(db, repo):
    write(repo, {"requirements.txt": "vllm==0.8.5\nvllm-ascend==0.9.1\n", "serve.sh": SERVE})
    assert choice(db, repo, "serve.sh").release == "0.8.5"


def test_a_vllm_pin_in_the_launchs_own_file_wins(db, repo):
    write(repo, {"run.sh": "#!/bin/bash\npip install vllm==0.8.5 vllm-ascend==0.9.1\n" + SERVE.split("\n", 1)[1]})
    assert choice(db, repo, "run.sh").release == "0.8.5"


def test_the_launchs_own_plugin_pin_is_nearer_than_a_readme(db, repo):
    write(repo, {"README.md": "# x\n\n    pip install vllm==0.8.5\n",
                 "run.sh": "#!/bin/bash\npip install vllm-ascend==0.9.1\n" + SERVE.split("\n", 1)[1]})
    assert choice(db, repo, "run.sh").release == "0.9.1"


def test_target_version_wins(db, repo):
    write(repo, {"run.sh": "#!/bin/bash\npip install vllm-ascend==0.9.1\n" + SERVE.split("\n", 1)[1]})
    c = choice(db, repo, "run.sh", target="0.10.2")
    assert (c.release, c.kind) == ("0.10.2", "explicit")


# ----------------------------------------------------------------------------- the table itself


@pytest.mark.parametrize("written, version", [("v0.10.0rc1", "0.10.0rc1"), ("0.9.1", "0.9.1"),
                                              ("0.11.2-maca.ai3.2.1.7", "0.11.2"),
                                              ("v0.9.2rc1-openeuler", "0.9.2rc1"), ("0.13.0.post1", "0.13.0.post1"),
                                              ("latest", None), ("main", None)])
def test_plugin_version(written, version):
    assert plugin_version(written) == version


def test_a_local_label_on_a_plugins_pin_is_the_plugins_build_of_that_release(db):
    t = target_of(db, "vllm-rbln", "0.10.2")  # (its METADATA: vllm==0.13.0+cpu)
    assert t is not None and t.reading.version == "0.13.0"


def test_a_plugin_without_a_documented_scheme_targets_nothing(db):
    assert target_of(db, "tpu-inference", "0.32.0") is None
    assert target_of(db, "vllm-kunlun", "0.11.1") is None


# ----------------------------------------------------------------------------- vendor versions


RHAIIS_TEMPLATE = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: vllm\nspec:\n  template:\n"
                   "    spec:\n      containers:\n        - name: vllm\n          image: \"{{ .Values.image.registry }}/"
                   "{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}\"\n"
                   "          command: [\"vllm\", \"serve\", \"ibm-granite/granite-3.3-2b-instruct\"]\n")


def rhaiis_chart(repo: Path, app_version: str) -> None:
    write(repo, {"charts/vllm/Chart.yaml": f"apiVersion: v2\nname: vllm\nversion: 0.4.0\nappVersion: \"{app_version}\"\n",
                 "charts/vllm/values.yaml": "image:\n  registry: registry.redhat.io\n"
                                            "  repository: rhaiis/vllm-cuda-rhel9\n  tag: \"\"\n",
                 "charts/vllm/templates/deployment.yaml": RHAIIS_TEMPLATE})


def test_a_rhaiis_charts_app_version_is_not_read_as_a_vllm_release(db, repo):
    rhaiis_chart(repo, "3.2.0-1754088865-hotfix-1")
    c = choice(db, repo, "charts/vllm/templates/deployment.yaml")
    assert c.kind == "between" and c.named is None
    assert "Red Hat AI Inference Server '3.2.0-1754088865-hotfix-1'" in c.why and "newer" not in c.why


def test_a_rhaiis_charts_app_version_with_a_sourced_row_names_its_vllm_release(db, repo):
    rhaiis_chart(repo, "3.3.0")
    c = choice(db, repo, "charts/vllm/templates/deployment.yaml")
    assert (c.release, c.kind) == ("0.13.0", "named")


def test_a_vendor_tag_outside_its_scheme_is_no_vllm_version(db):
    r = read_hint(db, "25.09-py3-igpu", "nvcr.io/nvidia/vllm:25.09-py3-igpu")
    assert r.status == "unmapped"
    r = read_hint(db, "3.2.0-1754088865-hotfix-1", "registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.2.0-1754088865-hotfix-1")
    # (a Red Hat version without a row: between its neighbours' releases, never a vLLM version of its own)
    assert r.status == "unknown" and r.scheme == "Red Hat AI Inference Server" and "newer" not in r.note


# -- issue 31, tenth pass: the plugin evidence imported where a launch's image or file may name a plugin

_PLUGIN_TEXT = ["vllm-ascend==0.9.1", "VLLM-ASCEND==0.9.1", "optimum-neuron[vllm]==0.4.5", "vllm-gaudi.git@v0.24.0",
                "\u212aunlun", "vllm-kunlun==0.10.0", "vllm-tpu==0.11.0", " ", "\n", "pip install ", "x", "\u0130",
                "GAUD\u0130", "vllm==0.10.0", "tpu", "output"]
_PLUGIN_IMAGES = [None, "", "quay.io/ascend/vllm-ascend:v0.10.0rc1", "vllm/vllm-openai:v0.10.1", "x/${IMAGE}",
                  "rocm/vllm:latest", "vllm/vllm-tpu:v0.11.0", "$IMAGE"]


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(_PLUGIN_IMAGES), st.lists(st.sampled_from(_PLUGIN_TEXT), max_size=8))
def test_the_plugin_screen_passes_every_launch_the_plugin_evidence_reads(image, words):
    """``targeting._may_name_plugin`` is False only where ``plugin_evidence.own`` finds nothing: the
    module (and its tables) is not imported for such a launch."""
    from vllm_lint.pipeline import plugin_evidence, surroundings, targeting

    source = "".join(words).encode()
    plugin_evidence._OWN_MEMO[:] = [None, None]
    if plugin_evidence.own(image, source, "f.sh") is not None:
        assert targeting._may_name_plugin(image, source, surroundings.PLUGIN_WORDS), (image, source)


def test_the_survey_names_kustomizations_as_the_kustomize_module_does():
    from vllm_lint.pipeline import kustomize, repository

    assert repository._KUSTOMIZATIONS == kustomize.NAMES
