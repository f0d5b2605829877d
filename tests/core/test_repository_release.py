"""Issue 28: the release read from the whole repository (pipeline/repository.py): the model server
a catalog or resource names, linked to the image the repository configures for it elsewhere, and
the one release every vLLM image or pin of the repository names. The synthetic database has 0.8.5,
0.10.0 and 0.27.1 (the newest)."""

from __future__ import annotations

import sys

import pytest

from vllm_lint.pipeline import repository as repository_module
from vllm_lint.pipeline.engine import Linter
from vllm_lint.pipeline.targeting import Targeting
from vllm_lint.settings import Settings


from repo_tree import put, repo  # noqa: E402,F401  (the fixture and the helper)


def choose(db, path, data=None, at=None, **settings):
    return Targeting(db, Settings(**settings)).choose(path, [], data, at)


SCRIPT = "#!/bin/sh\nvllm serve m --max-model-len 4096\n"
PLATFORM_VALUES = ("# the platform's chart\nreplicas: 1\nserver:\n  image:\n    repository: vllm/vllm-openai\n"
                   "    tag: v0.8.5\n")


# ----------------------------------------------------------------------------- one release


def test_the_one_release_the_repository_names(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    c = choose(synth_db, put(repo, "catalog/run.sh", SCRIPT))
    assert (c.release, c.kind, c.weak) == ("0.8.5", "named", True)
    assert c.why == ("repository: charts/platform/values.yaml:5 vllm/vllm-openai:v0.8.5 (the one release the "
                     "repository names; nothing nearer names one)")


def test_the_files_own_words_and_target_version_come_first(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    data = b"#!/bin/sh\n# tested with vLLM 0.10.0\nvllm serve m\n"
    p = put(repo, "catalog/run.sh", data.decode())
    assert choose(synth_db, p, data, data.index(b"vllm serve")).release == "0.10.0"
    c = choose(synth_db, p, target_version="0.27")
    assert (c.release, c.kind) == ("0.27.1", "explicit")


def test_a_nearer_source_comes_first(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    put(repo, "catalog/requirements.txt", "vllm==0.10.0\n")
    assert choose(synth_db, put(repo, "catalog/run.sh", SCRIPT)).why == "requirements.txt pins vllm==0.10.0"


def test_several_releases_name_none_and_say_which(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    put(repo, "config/base/params.env", "vllm-image=quay.io/org/vllm-openai:v0.10.0\nother=x\n")
    c = choose(synth_db, put(repo, "catalog/run.sh", SCRIPT))
    assert c.kind == "default" and c.release == "0.27.1"
    assert ("the repository names several vLLM releases (charts/platform/values.yaml:5 vllm/vllm-openai:v0.8.5; "
            "config/base/params.env:1 quay.io/org/vllm-openai:v0.10.0): none chosen") in c.why


@pytest.mark.parametrize("other", [
    "Dockerfile.dev:FROM python:3.12\nRUN pip install vllm torch\n",  # (an unpinned install: the newest)
    "deploy/compose.yaml:services:\n  v:\n    image: vllm/vllm-openai:latest\n",
    "deploy/Dockerfile:FROM vllm/vllm-openai:v0.10.0\n",
    # (a device profile whose base floats beside another that pins one: the newest is a second
    # release, not a spelling of the pinned one; the profiles run different releases)
    "devices/w7900.env:VLLM_BASE=rocm/vllm:latest\n",
])
def test_what_counts_as_another_release(synth_db, repo, other):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    rel, text = other.split(":", 1)
    put(repo, rel, text)
    assert choose(synth_db, put(repo, "catalog/run.sh", SCRIPT)).kind == "default"


def test_tests_comments_and_other_images_do_not_count(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES + "# image: vllm/vllm-openai:v0.10.0\n")
    put(repo, "tests/fixtures/deploy.yaml", "image: vllm/vllm-openai:v0.10.0\n")
    put(repo, "node_modules/x/compose.yaml", "image: vllm/vllm-openai:v0.10.0\n")
    put(repo, "proxy/compose.yaml", "services:\n  p:\n    image: myorg/vllm-proxy:v1.2\n")  # (not vLLM's server)
    put(repo, "docs/guide.md", "docker run vllm/vllm-openai:v0.10.0\n")  # (prose: its own launches say theirs)
    assert choose(synth_db, put(repo, "catalog/run.sh", SCRIPT)).release == "0.8.5"


def test_a_file_that_installs_vllm_unpinned_keeps_the_newest(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    p = put(repo, "guide/README.md", "# Guide\r\n\r\n```bash\r\npip install vllm\r\nvllm serve m\r\n```\r\n")
    assert choose(synth_db, p).kind == "default"


def test_outside_a_repository_nothing_is_surveyed(synth_db, tmp_path):
    put(tmp_path, "charts/platform/values.yaml", PLATFORM_VALUES)
    assert choose(synth_db, put(tmp_path, "catalog/run.sh", SCRIPT)).kind == "default"


def test_a_repository_larger_than_the_bound_is_not_surveyed(synth_db, repo, monkeypatch):
    monkeypatch.setattr(repository_module, "MAX_FOLDERS", 3)
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    for i in range(5):
        put(repo, f"more/d{i}/x.txt", "x\n")
    c = choose(synth_db, put(repo, "catalog/run.sh", SCRIPT))
    assert c.kind == "default" and "the repository is larger than a survey reads" in c.why


def test_the_survey_walks_each_folder_once_per_run(synth_db, repo, monkeypatch):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    paths = [put(repo, f"catalog/m{i}/run.sh", SCRIPT) for i in range(30)]
    walked = []
    real = repository_module.os.scandir

    def scandir(d):  # (os is shared: count the survey's walks, not those of pipeline.callers)
        if sys._getframe(1).f_globals.get("__name__") == repository_module.__name__:
            walked.append(d)
        return real(d)

    monkeypatch.setattr(repository_module.os, "scandir", scandir)
    t = Targeting(synth_db, Settings())
    assert {t.choose(p, []).release for p in paths} == {"0.8.5"}
    assert len(walked) == len(set(walked)) == 34  # (root, charts, platform, catalog, its 30 folders)


def test_the_release_and_its_source_in_the_analysis(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    p = put(repo, "catalog/run.sh", SCRIPT)
    la = Linter(synth_db, Settings(), []).analyse(p, p.read_bytes()).launches[0]
    assert la.target == "0.8.5" and la.target_source.startswith("repository: charts/platform/values.yaml:5")


# ----------------------------------------------------------------------------- a server named by name

SERVING_RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: vllm-runtime
spec:
  containers:
    - name: kserve-container
      image: quay.io/org/vllm-openai:v0.8.5
      args: ["--port=8080"]
---
apiVersion: serving.kserve.io/v1alpha1
kind: ClusterServingRuntime
metadata:
  name: vllm-next
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.10.0
"""

ISVC = """apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: m
spec:
  predictor:
    model:
      modelFormat:
        name: vLLM
      runtime: {runtime}
      args:
        - --max-model-len=4096
"""


@pytest.mark.parametrize("runtime, release", [("vllm-runtime", "0.8.5"), ("vllm-next", "0.10.0")])
def test_an_inference_service_runs_the_serving_runtime_it_names(synth_db, repo, runtime, release):
    put(repo, "runtimes/vllm.yaml", SERVING_RUNTIME)
    c = choose(synth_db, put(repo, "models/isvc.yaml", ISVC.format(runtime=runtime)))
    assert (c.release, c.kind, c.weak) == (release, "named", False)
    assert f"(the image of the model server it names, runtime: {runtime})" in c.why and "runtimes/vllm.yaml:" in c.why


def test_a_serving_runtime_inside_an_openshift_template(synth_db, repo):
    indented = "".join("    " + ln + "\n" if ln else "\n" for ln in SERVING_RUNTIME.split("---")[0].splitlines())
    put(repo, "templates/vllm-template.yaml", "apiVersion: template.openshift.io/v1\nkind: Template\n"
                                              "metadata:\n  name: t\nobjects:\n  - " + indented.lstrip())
    put(repo, "other/compose.yaml", "services:\n  v:\n    image: vllm/vllm-openai:v0.10.0\n")
    c = choose(synth_db, put(repo, "models/isvc.yaml", ISVC.format(runtime="vllm-runtime")))
    assert c.release == "0.8.5" and "templates/vllm-template.yaml:" in c.why


def test_an_unknown_server_name_links_nothing(synth_db, repo):
    put(repo, "runtimes/vllm.yaml", SERVING_RUNTIME)
    c = choose(synth_db, put(repo, "models/isvc.yaml", ISVC.format(runtime="tgis-runtime")))
    assert c.kind == "default" and "the repository names several vLLM releases" in c.why


def test_a_file_naming_servers_of_two_releases_names_none(synth_db, repo):
    put(repo, "runtimes/vllm.yaml", SERVING_RUNTIME)
    text = ISVC.format(runtime="vllm-runtime") + "---\n" + ISVC.format(runtime="vllm-next")
    c = choose(synth_db, put(repo, "models/isvc.yaml", text))
    assert c.kind == "default" and "the model servers it names run several releases" in c.why


def test_a_model_catalog_names_its_engine(synth_db, repo):
    """KubeAI: the operator's values set each engine's images; the catalog's models say `engine: VLLM`."""
    put(repo, "deploy/operator/values.yaml", "modelServers:\n  VLLM:\n    images:\n      gpu: vllm/vllm-openai:v0.10.0\n"
                                             "      default: \"vllm/vllm-openai:v0.8.5\"\n  Other:\n    images:\n"
                                             "      default: other/server:1.0\n")
    c = choose(synth_db, put(repo, "manifests/models/m.yaml", "kind: Model\nspec:\n  engine: VLLM\n  args:\n"
                                                             "    - --max-model-len=4096\n"))
    assert (c.release, c.why) == ("0.8.5", "deploy/operator/values.yaml:5 vllm/vllm-openai:v0.8.5 (the image of the "
                                           "model server it names, engine: VLLM)")


def test_a_backend_runtime_with_its_version_beside_the_image(synth_db, repo):
    """llmaz: a BackendRuntime sets `image:` and `version:`; a Playground names it by `backendName:`."""
    put(repo, "config/backends/vllm.yaml", "apiVersion: inference.llmaz.io/v1alpha1\nkind: BackendRuntime\n"
                                           "metadata:\n  name: vllm\nspec:\n  image: vllm/vllm-openai\n"
                                           "  version: v0.10.0\n")
    put(repo, "config/backends/old.yaml", "kind: BackendRuntime\nmetadata:\n  name: vllm-old\nspec:\n"
                                          "  image: vllm/vllm-openai\n  version: v0.8.5\n")
    c = choose(synth_db, put(repo, "examples/playground.yaml", "kind: Playground\nspec:\n  backendRuntimeConfig:\n"
                                                              "    backendName: vllm\n    args:\n      - --enforce-eager\n"))
    assert c.release == "0.10.0" and "config/backends/vllm.yaml:6 vllm/vllm-openai:v0.10.0" in c.why


@pytest.mark.parametrize("install, note", [
    ("RUN git clone https://github.com/someone/vllm.git && cd vllm && git checkout 94ad145\n", "of its own"),
    ("RUN pip install -v git+https://github.com/HabanaAI/vllm-fork.git@v0.6.6 --extra-index-url x\n", "of its own"),
    # (an unpinned install in a Dockerfile is itself a second release the repository names)
    ("RUN pip install vllm transformers\n", "the repository names several vLLM releases"),
])
def test_a_file_that_builds_its_own_vllm_takes_no_release_of_the_repository(synth_db, repo, install, note):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    p = put(repo, "servers/cpu/Containerfile", "FROM registry.example/ubi9/python-311\n" + install +
            "ENTRYPOINT [\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]\n")
    c = choose(synth_db, p)
    assert c.kind == "default" and note in c.why


def test_images_spelled_with_variables_are_filled_as_compose_fills_them(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    put(repo, "deploy/compose.yaml", "services:\n  v:\n    image: vllm/vllm-openai:v${VLLM_VERSION:-0.8.5}\n")
    assert choose(synth_db, put(repo, "catalog/run.sh", SCRIPT)).release == "0.8.5"  # (the default: the same)
    put(repo, "deploy/.env", "VLLM_VERSION=0.10.0\n")  # (the folder's env file sets another)
    c = Targeting(synth_db, Settings()).choose(repo / "catalog/run.sh", [])
    assert c.kind == "default" and "deploy/compose.yaml:3 vllm/vllm-openai:v0.10.0" in c.why


def test_a_tag_nothing_defines_is_a_release_nobody_names(synth_db, repo):
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    put(repo, "deploy/compose.yaml", "services:\n  v:\n    image: vllm/vllm-openai:${TAG}\n")
    assert choose(synth_db, put(repo, "catalog/run.sh", SCRIPT)).kind == "default"


def test_a_dockerfile_from_a_vllm_image_of_its_own_build_takes_none(synth_db, repo):
    put(repo, "Dockerfile", "FROM vllm/vllm-openai:v0.8.5\n")
    p = put(repo, "images/pr-release.Dockerfile", "ARG BASE_IMAGE=vllm-gb10:pr41834-d64074e6f\nFROM ${BASE_IMAGE}\n"
                                                   "LABEL x=y\n")
    c = choose(synth_db, p)
    assert c.kind == "default" and "the file installs a vLLM of its own" in c.why
    # (a base that is vLLM's image with a release is no build of its own: the repository's applies)
    p = put(repo, "images/ok.Dockerfile", "FROM python:3.12\nRUN echo\n")
    assert choose(synth_db, p).why.startswith("repository: Dockerfile:1")


# ----------------------------------------------------------------------------- a Triton Python backend model


TRITON_MODEL = ("import triton_python_backend_utils as pb_utils\nfrom vllm.engine.arg_utils import AsyncEngineArgs\n"
                "class TritonPythonModel:\n    def initialize(self, args):\n"
                "        self.e = AsyncEngineArgs(model='m', disable_log_requests=True)\n")
TRITON_TF = ('module "triton" {\n  source = "x"\n  values = [\n    <<-EOT\n    image:\n      repository: '
             'nvcr.io/nvidia/tritonserver\n      tag: "25.10-vllm-python-py3"\n    modelRepositoryPath: s3://b/model_repository\n'
             '    EOT\n  ]\n}\nresource "null_resource" "sync" {\n  provisioner "local-exec" {\n'
             '    command = "aws s3 sync ../../blueprints/triton/ s3://b"\n  }\n}\n')
# (25.05 holds vLLM 0.8.4, which the synthetic database reads as its nearest, 0.8.5)
OTHER_TRITON = "containers:\n  - name: t\n    image: nvcr.io/nvidia/tritonserver:25.05-vllm-python-py3\n"


def test_a_triton_model_runs_in_the_server_that_syncs_its_model_repository(synth_db, repo):
    """A Triton Python backend model is served by the Triton server whose configuration names its
    model repository's folder (a Terraform file syncing it to the server's bucket), wherever it is."""
    model = put(repo, "blueprints/triton/model_repository/m/1/model.py", TRITON_MODEL)
    put(repo, "infra/triton/main.tf", TRITON_TF)
    put(repo, "other/serve.yaml", OTHER_TRITON)  # (another Triton server, which names no such folder)
    c = choose(synth_db, model)
    assert c.release == "0.10.0" and c.why.startswith(
        "infra/triton/main.tf:6 nvcr.io/nvidia/tritonserver:25.10-vllm-python-py3 (the Triton server that serves "
        "this model; its image is set in the file that names its model repository's folder)"), c.why
    analysis = Linter(synth_db, Settings(), []).analyse(model, model.read_bytes())
    assert [la.target for la in analysis.launches] == ["0.10.0"]


def test_a_triton_model_runs_in_the_server_configured_above_it_else_the_repositorys_one(synth_db, repo):
    model = put(repo, "blueprints/triton/model_repository/m/1/model.py", TRITON_MODEL)
    put(repo, "other/serve.yaml", OTHER_TRITON)
    c = choose(synth_db, model)
    assert c.release == "0.8.5" and "set in the repository" in c.why  # (the repository's one Triton server)
    put(repo, "blueprints/triton/deploy.yaml", "image: nvcr.io/nvidia/tritonserver:25.10-vllm-python-py3\n")
    c = Targeting(synth_db, Settings()).choose(model, [])
    assert c.release == "0.10.0" and "a folder above its model repository" in c.why


def test_triton_servers_of_several_releases_name_none(synth_db, repo):
    model = put(repo, "blueprints/triton/model_repository/m/1/model.py", TRITON_MODEL)
    put(repo, "other/serve.yaml", OTHER_TRITON)
    put(repo, "else/serve.yaml", "image: nvcr.io/nvidia/tritonserver:25.10-vllm-python-py3\n")
    c = choose(synth_db, model)
    assert c.kind == "default" and "the Triton servers configured in the repository run several releases" in c.why


def test_only_a_triton_model_takes_a_triton_servers_release(synth_db, repo):
    put(repo, "blueprints/triton/deploy.yaml", "image: nvcr.io/nvidia/tritonserver:25.10-vllm-python-py3\n")
    p = put(repo, "blueprints/triton/model_repository/m/1/serve.py", "from vllm import LLM\nLLM(model='m')\n")
    assert choose(synth_db, p).kind == "default"


def test_terraform_is_read_for_triton_servers_only(synth_db, repo):
    """(A vLLM image in a Terraform file is the file's own launch; the repository's one release is
    read from its YAML, Dockerfiles and env files as before.)"""
    put(repo, "charts/platform/values.yaml", PLATFORM_VALUES)
    put(repo, "infra/main.tf", 'resource "x" "y" {\n  image = "vllm/vllm-openai:v0.10.0"\n}\n')
    assert choose(synth_db, put(repo, "catalog/run.sh", SCRIPT)).release == "0.8.5"
