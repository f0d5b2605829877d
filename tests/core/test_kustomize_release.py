"""The image a kustomization puts in place of a manifest's placeholder image (pipeline/kustomize.py):
replacements and vars copying a field of a generated ConfigMap (env file or literals) into the
container's image decide the release. The synthetic database has 0.8.5, 0.10.0 and 0.27.1."""

from __future__ import annotations

from vllm_lint.pipeline.kustomize import objects_of, read_kustomization
from vllm_lint.pipeline.targeting import Targeting
from vllm_lint.settings import Settings

from repo_tree import put, repo  # noqa: F401  (the fixture and the helper)

RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  labels:
    app: x
  name: vllm-runtime
spec:
  containers:
    - name: kserve-container
      image: $(vllm-image)
      command: [python, -m, vllm.entrypoints.openai.api_server]
      args: [--port=8080, --model=/mnt/models]
"""

BASE = """configMapGenerator:
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

PARAMS = "other-image=vllm/vllm-openai:v0.10.0\nvllm-image=vllm/vllm-openai:v0.8.5\n"


def choose(db, path, image="$(vllm-image)"):
    data = path.read_bytes()
    return Targeting(db, Settings()).choose(path, [], data, data.index(b"image:"), image)


def test_a_replacement_sets_the_image_of_the_object_it_selects(synth_db, repo):
    put(repo, "config/base/kustomization.yaml", BASE)
    put(repo, "config/base/params.env", PARAMS)
    c = choose(synth_db, put(repo, "config/runtimes/runtime.yaml", RUNTIME))
    assert (c.release, c.kind) == ("0.8.5", "named")
    assert c.why.startswith("image $(vllm-image): vllm/vllm-openai:v0.8.5 at config/base/params.env:2, set by a "
                            "kustomize replacement in config/base/kustomization.yaml (data.vllm-image of ConfigMap parameters)")


def test_a_replacement_for_another_object_sets_nothing(synth_db, repo):
    put(repo, "config/base/kustomization.yaml", BASE.replace("name: vllm-runtime", "name: other-runtime"))
    put(repo, "config/base/params.env", PARAMS)
    c = choose(synth_db, put(repo, "config/runtimes/runtime.yaml", RUNTIME))
    assert c.release == "0.27.1" and "kustomize" not in c.why  # (the repository names two releases: none)


def test_a_var_and_literals(synth_db, repo):
    put(repo, "k/kustomization.yaml", """configMapGenerator:
- name: params
  literals:
  - vllm-image=vllm/vllm-openai:v0.10.0
vars:
- name: VLLM_IMAGE
  objref: {kind: ConfigMap, name: params, apiVersion: v1}
  fieldref: {fieldpath: data.vllm-image}
""")
    put(repo, "values.yaml", "image: vllm/vllm-openai:v0.8.5\n")
    c = choose(synth_db, put(repo, "k/runtime.yaml", RUNTIME.replace("$(vllm-image)", "$(VLLM_IMAGE)")),
               image="$(VLLM_IMAGE)")
    assert (c.release, c.kind) == ("0.10.0", "named")
    assert c.why == ("image $(VLLM_IMAGE): vllm/vllm-openai:v0.10.0 at k/kustomization.yaml (literal vllm-image), set by "
                     "the kustomize var $(VLLM_IMAGE) of k/kustomization.yaml (data.vllm-image of ConfigMap params)")


def test_overlays_setting_different_images_choose_none_and_say_so(synth_db, repo):
    put(repo, "config/base/kustomization.yaml", BASE)
    put(repo, "config/base/params.env", PARAMS)
    put(repo, "config/fast/kustomization.yaml", BASE)
    put(repo, "config/fast/params.env", "vllm-image=vllm/vllm-openai:v0.10.0\n")
    p = put(repo, "config/runtimes/runtime.yaml", RUNTIME)
    t = Targeting(synth_db, Settings())
    data = p.read_bytes()
    c = t.choose(p, [], data, data.index(b"image:"), "$(vllm-image)")
    assert "kustomize" not in c.why
    assert "kustomizations set several images for it" in t.note_for(p)


def test_an_env_file_outside_the_repository_is_not_read(synth_db, repo):
    put(repo.parent, "outside.env", "vllm-image=vllm/vllm-openai:v0.8.5\n")
    put(repo, "config/base/kustomization.yaml", BASE.replace("- params.env", "- ../../../outside.env"))
    c = choose(synth_db, put(repo, "config/runtimes/runtime.yaml", RUNTIME))
    assert "kustomize" not in c.why


def test_the_readers():
    assert objects_of(RUNTIME + "---\nkind: Template\nmetadata:\n  name: t\n") == {
        ("ServingRuntime", "vllm-runtime"), ("Template", "t")}
    assert read_kustomization("resources: [a.yaml]\n", "/r", "kustomization.yaml") is None
    assert read_kustomization("replacements: [\n", "/r", "kustomization.yaml") is None  # (malformed: nothing)
    k = read_kustomization(BASE, "/r", "kustomization.yaml")
    assert k.generators == {"parameters": (["params.env"], [])}
    assert [(s.config, s.key, sorted(s.targets)) for s in k.sources] == [
        ("parameters", "vllm-image", [("ServingRuntime", "vllm-runtime")])]


def test_a_changed_env_file_or_kustomization_changes_a_cached_result(synth_db_path, repo, monkeypatch):
    import json

    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(repo / "cache"))
    put(repo, "config/base/kustomization.yaml", BASE)
    put(repo, "config/base/params.env", PARAMS)
    runtime = put(repo, "config/runtimes/runtime.yaml", RUNTIME.replace("--port=8080", "--num-scheduler-steps=8"))

    def codes():
        out = CliRunner().invoke(main, ["--select", "VL1", "--output-format", "json", str(runtime)],
                                 catch_exceptions=False).stdout
        return [d["code"] for d in json.loads(out)]

    assert codes() == []  # 0.8.5 accepts it
    put(repo, "config/base/params.env", "old-image=vllm/vllm-openai:v0.8.5\nvllm-image=vllm/vllm-openai:v0.10.0\n")
    assert codes() == ["VL101"]  # (cached, yet the env file changed)
    put(repo, "config/base/kustomization.yaml", BASE.replace("data.vllm-image", "data.old-image"))
    assert codes() == []  # (cached, yet the kustomization changed which key it copies)
