"""YAML front-end: what the issue-7 fast paths (loader, garbage collector, lazy work) must keep."""

from __future__ import annotations

import gc

import pytest
import yaml as pyyaml

from vllm_lint.frontends import yaml as Y
from vllm_lint.frontends.yaml import loader as L, nodes as N, prefilter as P
from vllm_lint.frontends.yaml.text import YamlText
from vllm_lint.launch import ParseError
from span_invariants import check_spans

# ---------------------------------------------------------------------------------------------
# the loader: the same nodes and tags as PyYAML's safe loader


_SCALARS = [
    "", "~", "null", "Null", "NULL", "nul", "true", "True", "TRUE", "tRUE", "yes", "No", "on", "OFF", "y", "n",
    "0", "-0", "+12", "012", "0o17", "0x1F", "0b101", "1_000", "0.", "-1.5e3", "1e3", "6.8523015e+5",
    "190:20:30", "190:20:30.15", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
    "=", "<<", "a", "vllm serve m", "--tensor-parallel-size", "v0.8.5", "0.8.5", "1.0", "8000", "caf\u00e9",
    "x" * 100, "1" * 100, "true" + " " * 70 + "x",
]


def _tags(node):
    out = [(type(node).__name__, node.tag, node.value if isinstance(node, pyyaml.ScalarNode) else None)]
    if isinstance(node, pyyaml.SequenceNode):
        for x in node.value:
            out += _tags(x)
    elif isinstance(node, pyyaml.MappingNode):
        for k, v in node.value:
            out += _tags(k) + _tags(v)
    return out


@pytest.mark.parametrize("style", ["{}", "'{}'", '"{}"', "!!str {}", "! {}", "!custom {}"])
def test_loader_tags_match_the_safe_loader(style):
    values = [style.format(s) for s in _SCALARS]
    src = "\n".join(f"k{i}: {v}" for i, v in enumerate(values))  # values ("k: " is an empty plain scalar)
    src += "\n---\n" + "\n".join(f"- {v}" for v in values)  # sequence items
    src += "\n---\n" + "\n".join(f"? {v}\n: x" for v in values if v)  # keys
    src += "\n"
    want = [_tags(d) for d in pyyaml.compose_all(src, Loader=pyyaml.CSafeLoader)]
    assert [_tags(d) for d in pyyaml.compose_all(src, Loader=L.Loader)] == want


def test_loader_leaves_pyyaml_alone():
    assert pyyaml.CSafeLoader.resolve is pyyaml.resolver.BaseResolver.resolve
    assert not L.Loader.yaml_path_resolvers
    assert pyyaml.compose("a: 1", Loader=pyyaml.CSafeLoader).value[0][1].tag == "tag:yaml.org,2002:int"


def test_node_tags_reach_the_launch():
    """null / bool / int / float / str come from the tags: a config file's values."""
    src = b"model: m\nseed: 0x10\nswap-space: 4.5\nenforce-eager: yes\ndownload-dir: ~\nport: '8000'\n"
    (la,) = Y.extract(src, "c.yaml", explicit=True).launches
    assert {k.key: k.value for k in la.keyed} == {
        "model": "m", "seed": 16, "swap-space": 4.5, "enforce-eager": True, "download-dir": None, "port": "8000"}


# ---------------------------------------------------------------------------------------------
# the garbage collector: off for the call, as found afterwards; no cycles left behind


_K8S = b"""\
apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.8.5
          args: ["--model", "m", "--swap-space", "4"]
          env:
            - {name: VLLM_USE_V1, value: "1"}
---
services:
  llm:
    image: vllm/vllm-openai:v0.9.0
    command: --model m --seed 1
"""


def test_garbage_collector_switched_back_on():
    enabled = gc.isenabled()
    try:
        gc.enable()
        Y.extract(_K8S, "t.yaml")
        assert gc.isenabled()
        with pytest.raises(ParseError):
            Y.extract(b"args: [\n", "t.yaml")
        assert gc.isenabled()
        gc.disable()
        Y.extract(_K8S, "t.yaml")
        assert not gc.isenabled()
    finally:
        if enabled:
            gc.enable()


def test_no_reference_cycles_left_behind():
    """The launches' delete_tokens keep the file object that found them; it no longer keeps the
    extraction, so the extraction is freed as soon as it is dropped."""
    serve_config = (b"kind: RayService\nspec:\n  serveConfigV2: |\n    applications:\n"
                    b"      - args:\n          containers:\n            - image: vllm/vllm-openai:v0.8.5\n"
                    b"              args: [--model, m]\n")
    gc.collect()
    enabled = gc.isenabled()
    gc.disable()
    try:
        for data in (_K8S, serve_config):
            ex = Y.extract(data, "t.yaml")
            assert ex.launches and all(la.delete_tokens for la in ex.launches)
            edits = ex.launches[0].delete_tokens(ex.launches[0].tokens[-1:])
            assert edits
            del ex
            assert gc.collect() == 0
    finally:
        if enabled:
            gc.enable()


def test_extraction_still_usable_after_the_call():
    data = _K8S
    ex = Y.extract(data, "t.yaml")
    check_spans(data, ex)
    k8s, compose = ex.launches
    assert [t.text for t in k8s.tokens] == ["--model", "m", "--swap-space", "4"]
    assert [e.name for e in k8s.env] == ["VLLM_USE_V1"]
    assert [t.text for t in compose.tokens] == ["--model", "m", "--seed", "1"]
    assert k8s.delete_tokens(k8s.tokens[2:]) and compose.delete_tokens(compose.tokens[2:])


# ---------------------------------------------------------------------------------------------
# the pre-filter: the case-insensitive regular expression, spelled as substring searches


@pytest.mark.parametrize("data, want", [
    (b"", False), (b"image: vllm/vllm-openai", True), (b"IMAGE: VLLM/VLLM-OPENAI", True), (b"x: vLlM", True),
    (b"modelFormat: {name: huggingface}", True), (b"MODELFORMAT: x", True), (b"model_format: x", False),
    (b"engine_kwargs: {}", True), (b"ENGINE_KWARGS: {}", True), (b"engine-kwargs: {}", False), (b"vl lm", False),
    (b"v\nllm", False), (b"\xc4\xb0vllm", True), (b"\xff\xfe v\xc4\xb0llm", False), (b"...vll", False), (b"llm", False),
])
def test_pre_filter(data, want):
    assert Y.might_contain_launch(data) is want
    assert (P.PREFILTER.search(data) is not None) is want


def test_pre_filter_matches_the_regular_expression():
    import random

    rnd = random.Random(3)
    alphabet = b"vVlLmMoOdDeEfFrRaAtTnNgGiIkKwWsS_ -\n\xc4\xb0"
    for _ in range(20000):
        data = bytes(rnd.choice(alphabet) for _ in range(rnd.randint(0, 20)))
        assert Y.might_contain_launch(data) == (P.PREFILTER.search(data) is not None), data
        s, e = rnd.randint(0, len(data)), rnd.randint(0, len(data))
        assert P.mentions(data.lower(), s, e) == (P.PREFILTER.search(data, s, e) is not None), (data, s, e)


def test_each_document_is_checked_on_its_own_bytes():
    """A document is walked only if its own bytes mention vLLM (any case): here the second."""
    data = (b"kind: Pod\nspec:\n  containers:\n    - image: example/server\n      args: [--model, m]\n"
            b"---\nkind: Pod\nspec:\n  containers:\n    - image: example/server\n      args: [--model, m]\n"
            b"      env:\n        - {name: VLLM_ADDITIONAL_ARGS, value: --seed 1}\n")
    (la,) = Y.extract(data, "t.yaml").launches
    assert la.entry == "env:VLLM_ADDITIONAL_ARGS" and [t.text for t in la.tokens] == ["--seed", "1"]
    assert la.span.start > data.index(b"---")


# ---------------------------------------------------------------------------------------------
# prepare: merge-conflict markers and template filling


@pytest.mark.parametrize("data, line", [
    (b"a: 1\n<<<<<<< HEAD\nb: 2\n", 2), (b"a: 1\r\n>>>>>>>\r\n", 2), (b"=======\n", 1), (b"a: 1\n======= \n", None),
    (b"a: '<<<<<<< x'\n", None), (b"a: 1\n<<<<<<<< eight\n", None), (b"a: 1\n <<<<<<< indented\n", None),
    (b"a: 1\n>>>>>>> feature\n", 2), (b"x: =======\n", None),
])
def test_merge_conflict_marker_lines(data, line):
    if line is None:
        assert L.prepare(data) == (data, [])
    else:
        with pytest.raises(ParseError) as ei:
            L.prepare(data)
        assert "conflict" in ei.value.message and ei.value.line == line


def test_template_filling_keeps_offsets_and_line_breaks():
    data = (b"image: vllm/vllm-openai:{{ .Values.tag }}\n{{- if .Values.x }}\n"
            b"args: [{{ .Values.a\r\n | quote }}, '--seed']\n  {{ end }}  \n")
    filled, regions = L.prepare(data)
    assert len(filled) == len(data)
    assert [data[s:e] for s, e in regions] == [b"{{ .Values.tag }}", b"{{- if .Values.x }}",
                                               b"{{ .Values.a\r\n | quote }}", b"{{ end }}"]
    assert filled == (b"image: vllm/vllm-openai:" + b"_" * 17 + b"\n" + b" " * 19 + b"\n"
                      b"args: [" + b"_" * 12 + b"\r\n" + b"_" * 11 + b", '--seed']\n" + b" " * 13 + b"\n")


# ---------------------------------------------------------------------------------------------
# the walk skips collections whose bytes mention none of the pre-filter's words: what it must
# still find (the document itself mentions vllm only in a label)

_LABEL = "metadata: {labels: {app: vllm}}\n"


def _launches(src: str, **kw):
    data = src.encode()
    ex = Y.extract(data, "t.yaml", **kw)
    check_spans(data, ex)
    return [(la.entry, [t.text for t in la.tokens]) for la in ex.launches], ex


@pytest.mark.parametrize("container, entry, words", [
    # a double-quoted escape spells vllm
    ('{name: a, image: example/x, command: ["\\x76llm", serve, m, --seed, "1"]}', "vllm serve", ["m", "--seed", "1"]),
    ('{name: a, image: example/x, command: [sh, -c, "\\x76llm serve m --seed 1"]}', "vllm serve", ["m", "--seed", "1"]),
    ('{name: a, image: "\\x76llm/vllm-openai:v0.8.5", args: [--model, m]}', "docker:vllm/vllm-openai:v0.8.5",
     ["--model", "m"]),
    ('{name: a, image: example/x, env: [{name: "\\x56LLM_ADDITIONAL_ARGS", value: --seed 1}]}',
     "env:VLLM_ADDITIONAL_ARGS", ["--seed", "1"]),
    # other case: the image, the carrier
    ("{name: a, image: VLLM/VLLM-OPENAI:v0.8.5, args: [--model, m]}", "docker:VLLM/VLLM-OPENAI:v0.8.5", ["--model", "m"]),
    ("{name: a, image: example/x, env: [{name: VLLM_ADDITIONAL_ARGS, value: --seed 1}]}", "env:VLLM_ADDITIONAL_ARGS",
     ["--seed", "1"]),
    # the image only in a template's default
    ("{name: a, image: '{{ .Values.image | default \"vllm/vllm-openai:v0.8.5\" }}', args: [--model, m]}",
     "docker:vllm/vllm-openai:v0.8.5", ["--model", "m"]),
])
def test_pruned_walk_still_finds_the_container(container, entry, words):
    got, _ = _launches(_LABEL + f"spec:\n  template:\n    spec:\n      containers:\n        - {container}\n")
    assert got == [(entry, words)]


def test_pruned_walk_follows_aliases():
    """The container's mapping is written elsewhere (under an anchor): a '*' turns skipping off."""
    src = (_LABEL + "defs:\n  c: &c {name: s, image: \"\\x76llm/vllm-openai:v0.8.5\", args: [--model, m]}\n"
           "spec:\n  template:\n    spec:\n      containers: [*c]\n")
    got, ex = _launches(src)
    assert got == [("docker:vllm/vllm-openai:v0.8.5", ["--model", "m"])]
    assert ex.launches[0].container.name == "s"


def test_pruned_walk_kserve_and_ray_words():
    got, _ = _launches(_LABEL + "kind: InferenceService\nspec:\n  predictor:\n    model:\n"
                       "      modelFormat: {name: huggingface}\n      args: [--model_name=m, --max-model-len=4096]\n")
    assert got == [("kserve:huggingfaceserver", ["--model_name=m", "--max-model-len=4096"])]
    got, _ = _launches(_LABEL + 'spec:\n  serveConfigV2: "applications:\\n- args: {llm_configs: '
                       '[{engine_kwargs: {max_model_len: 1}}]}"\n')
    assert got == [("ray.serve.llm", [])]


def test_pruned_walk_keeps_the_inherited_hardware_and_image_tag():
    src = (_LABEL + "spec:\n  nodeSelector: {nvidia.com/gpu.product: H100}\n  template:\n    image: vllm/vllm-openai:v0.9.0\n"
           "    other: {a: 1, b: [1, 2]}\n    jobs:\n      - run: vllm serve m --seed 1\n")
    _, ex = _launches(src)
    (la,) = ex.launches
    assert la.hardware.gpu_product == "H100" and [v.version for v in la.version_hints] == ["v0.9.0"]


# ---------------------------------------------------------------------------------------------
# a container's tokens, environment, hardware and versions are built only for a launch


def test_launches_of_one_container_share_its_facts():
    src = ("spec:\n  containers:\n    - name: s\n      image: vllm/vllm-openai:v0.8.5\n"
           "      command: [sh, -c, \"vllm serve m --seed 1\"]\n      env:\n"
           "        - {name: VLLM_ADDITIONAL_ARGS, value: \"--max-model-len 4096\"}\n        - {name: A, value: \"1\"}\n"
           "      resources: {limits: {nvidia.com/gpu: 2}}\n")
    got, ex = _launches(src)
    assert got == [("vllm serve", ["m", "--seed", "1"]), ("env:VLLM_ADDITIONAL_ARGS", ["--max-model-len", "4096"])]
    shell, carrier = ex.launches
    assert shell.context["shell"] and carrier.context["args_only"]
    for la in (shell, carrier):
        # (the carrier is the wrapper's variable, not vLLM's environment)
        assert [(e.name, e.value) for e in la.env] == [("A", "1")]
        assert la.hardware.gpu_count == 2 and [v.version for v in la.version_hints] == ["v0.8.5"]
    assert shell.env[0] is carrier.env[0] and shell.version_hints[0] is carrier.version_hints[0]


@pytest.mark.parametrize("service", [
    "{image: redis, command: redis-server --port 1}",
    "{image: example/x, entrypoint: [sh, -c, echo vllm], command: [a]}",
    "{image: example/x, command: 'vllm'}",
    "{image: rocm/vllm:latest}",
])
def test_compose_services_without_a_launch(service):
    got, _ = _launches(f"services:\n  a: {service}\n  llm:\n    image: vllm/vllm-openai:v0.8.5\n    command: --model m\n")
    assert got == [("docker:vllm/vllm-openai:v0.8.5", ["--model", "m"])]


def test_a_server_image_without_command_or_args_runs_its_entrypoint():
    # vLLM's image, or a vendor's that starts the server (container.SERVER_IMAGES): a launch with
    # no words; ROCm's starts a shell (above)
    got, _ = _launches("services:\n  a: {image: vllm/vllm-openai:v0.8.5}\n  b: {image: 'quay.io/modh/vllm:rhoai-2.20-cuda'}\n")
    assert got == [("docker:vllm/vllm-openai:v0.8.5", []), ("docker:quay.io/modh/vllm:rhoai-2.20-cuda", [])]


def test_env_items_take_the_first_of_duplicate_keys():
    src = ("spec:\n  containers:\n    - name: s\n      image: vllm/vllm-openai:v0.8.5\n      args: [--model, m]\n"
           "      env:\n        - {name: A, name: B, value: \"1\", value: \"2\"}\n")
    _, ex = _launches(src)
    (ea,) = ex.launches[0].env
    assert (ea.name, ea.value) == ("A", "1")


def test_github_env_of_workflow_job_and_step():
    src = ("on: push\nenv: {W: \"1\"}\njobs:\n  a:\n    env: {J: \"2\"}\n    steps:\n      - run: make\n        env: {S0: x}\n"
           "      - run: vllm serve m --seed 1\n        env: {S1: y}\n        name: serve\n  b:\n    steps:\n"
           "      - run: vllm serve n\n")
    got, ex = _launches(src)
    assert got == [("vllm serve", ["m", "--seed", "1"]), ("vllm serve", ["n"])]
    assert [e.name for e in ex.launches[0].env] == ["W", "J", "S1"] and ex.launches[0].context["step"] == "serve"
    assert [e.name for e in ex.launches[1].env] == ["W"]
    assert ex.launches[0].env[0] is ex.launches[1].env[0]


@pytest.mark.parametrize("src, path, env", [
    ("job:\n  script: [vllm serve m]\n  variables: {A: \"1\"}\n", "t.yaml", []),
    ("job:\n  script: [vllm serve m]\n  variables: {A: \"1\"}\n", ".gitlab-ci.yml", ["A"]),
    ("stages: [x]\njob:\n  script: [vllm serve m]\n  variables: {A: \"1\"}\n", "t.yaml", ["A"]),
    ("job:\n  stage: x\n  script: [vllm serve m]\n  variables: {A: \"1\"}\n", "t.yaml", ["A"]),
    ("other: {stage: x}\njob:\n  script: [vllm serve m]\n  variables: {A: \"1\"}\n", "t.yaml", []),
])
def test_gitlab_jobs_need_a_mark(src, path, env):
    ex = Y.extract(src.encode(), path)
    (la,) = ex.launches
    assert [e.name for e in la.env] == env


def test_root_keys_take_the_first_of_duplicates():
    got, ex = _launches("kind: Pod\nkind: Other\nservices:\n  x: {image: vllm/vllm-openai:v0.8.5, command: --model m}\n")
    assert got == [("docker:vllm/vllm-openai:v0.8.5", ["--model", "m"])] and ex.launches[0].context["kind"] == "compose"


# ---------------------------------------------------------------------------------------------
# scalar spans without building a map, and words of strings without quotes


_STYLED = [
    "plain", "two words", "caf\u00e9 \u2014 x", "'single'", "'it''s'", "''", "'caf\u00e9'", '"double"', '"a\\tb"',
    '"a\\"b"', '""', '"caf\u00e9"', '"\\x76llm"', "|\n    literal\n", ">\n    folded\n", "'multi\n    line'",
    '"multi\n    line"', "multi\n    line", "~", "", "'a\\b'", '"a\'b"',
]


@pytest.mark.parametrize("outer", [False, True])
def test_text_span_is_the_maps_whole_span(outer):
    body = "".join(f"k{i}: {v}\n" for i, v in enumerate(_STYLED))
    if outer:  # a YAML text in a scalar (serveConfigV2): spans go through the outer map
        body = "spec:\n  serveConfigV2: |\n" + "".join("    " + line + "\n" for line in body.splitlines())
    data = body.encode()
    f = YamlText(data, "t.yaml", None)
    (root,) = f.parse()
    if outer:
        sc = N.get(N.get(root, "spec"), "serveConfigV2")
        m = f.smap(sc)
        f = YamlText(m.text, "t.yaml", None, outer=m)
        (root,) = f.parse()
    nodes = [n for kv in root.value for n in kv]
    assert len(nodes) == 2 * len(_STYLED)
    for node in nodes:
        m = f.smap(node)
        want = m.span(0, len(m.text)) if m.complete else None
        assert f.text_span(node) == want, node
        tok = f.scalar_token(node)
        assert tok.text_span == want and tok.span == f.node_span(node) and tok.text == node.value


@pytest.mark.parametrize("s", ["", " ", "a", "  vllm serve m\t--seed\r\n1  ", "a\x0bb \x0cc", "caf\u00e9 x\u00a0y",
                               "a\u2028b", "--x=1 --y=2"])
def test_split_words_without_quotes_escapes_or_expansions(s):
    b = s.encode()
    words = Y.split_words(s)
    assert [w[0] for w in words] == [w.decode() for w in b.replace(b"\t", b" ").replace(b"\r", b" ").replace(b"\n", b" ").split(b" ") if w]
    for text, start, end, verbatim, opaque in words:
        assert b[start:end].decode() == text and verbatim == (start, end) and opaque is False


def test_a_deployment_compiles_no_chart_values_marker_nor_config_key_shape():
    """A Deployment's mappings hold no key with ``arg`` outside its containers (the values rows'
    marker is screened) and no vLLM option at its root (a config file's key shapes are not
    checked): neither expression is compiled (issue 31's seventh pass)."""
    import subprocess
    import sys

    deploy = ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n"
              "      containers:\n      - name: v\n        image: vllm/vllm-openai:v0.10.1\n"
              "        args: [--model, m]\n")
    code = ("import re\nfrom vllm_lint.frontends import yaml as Y\n"
            "compiled = []\nreal = re._compile\n"
            "re._compile = lambda p, f: compiled.append(str(p)) or real(p, f)\n"
            f"assert Y.extract({deploy.encode()!r}, 'd.yaml').launches\n"
            "assert not [p for p in compiled if 'arg' in p or '[a-z][a-z0-9]*([-_]' in p], compiled\n")
    subprocess.run([sys.executable, "-c", code], check=True)


_ON_DEMAND = ("llmisvc", "ray", "lws", "kserve", "llm_d", "format_fields", "chart_values", "suppression",
              "tasks", "recipes", "cloud_init", "env_options")


def test_a_deployment_imports_no_other_platforms_reader():
    """The readers of KServe, llm-d, LLMInferenceService, Ray and LeaderWorkerSet, a chart's values,
    a launcher's format fields, task runners, recipes, cloud-init, CI files and environment-configured
    containers, and the suppression hooks are
    imported when a document holds their marker (issue 31's seventh pass): a Deployment and a
    compose file hold none."""
    import subprocess
    import sys

    files = [b"apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
             b"      - name: v\n        image: vllm/vllm-openai:v0.10.1\n        args: [--model, m]\n"
             b"        resources: {limits: {nvidia.com/gpu: 2}}\n",
             b"services:\n  v:\n    image: vllm/vllm-openai:v0.10.1\n    command: --model m --port 80\n"]
    code = ("import sys\nfrom vllm_lint.frontends import yaml as Y\n"
            f"for data in {files!r}:\n    assert Y.extract(data, 'f.yaml', explicit=True).launches, data\n"
            f"    loaded = [m for m in {_ON_DEMAND!r} if 'vllm_lint.frontends.yaml.' + m in sys.modules]\n"
            "    assert not loaded and 'vllm_lint.frontends.delimited' not in sys.modules, loaded\n"
            "    if b'kind:' in data:  # (a document without a kind may be a GitLab pipeline)\n"
            "        assert 'vllm_lint.frontends.yaml.ci' not in sys.modules\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_on_demand_readers_are_found_by_their_markers():
    """walk.py names the markers of the readers it imports on demand; they are the readers' own."""
    from vllm_lint.frontends.yaml import llmisvc, suppression, walk

    from vllm_lint.frontends.yaml import cloud_init, tasks

    assert walk._LLMISVC_KIND == llmisvc.KIND
    assert walk._CLOUD_INIT_KEYS == cloud_init.COMMAND_KEYS
    from vllm_lint.frontends.yaml import env_options

    assert walk._ENV_OPTION_KEYS == env_options.ENV_KEYS
    assert {"run", "setup"} <= walk._TASK_KEYS and tasks._SCRIPTS == ("setup", "run")
    assert all(getattr(Y, name) is getattr(suppression, name) for name in Y._SUPPRESSION_HOOKS)
    with pytest.raises(AttributeError):
        Y.no_such_hook  # noqa: B018
    ray = (b"kind: RayService\nspec:\n  serveConfigV2: |\n    applications:\n    - args:\n"
           b"        llm_configs:\n        - model_loading_config: {model_id: m}\n"
           b"          engine_kwargs: {tensor_parallel_size: 2}\n")
    assert [la.entry for la in Y.extract(ray, "ray.yaml").launches]
    lws = (b"kind: LeaderWorkerSet\nspec:\n  leaderWorkerTemplate:\n    size: 2\n    leaderTemplate:\n"
           b"      spec:\n        containers:\n        - name: v\n          image: vllm/vllm-openai:v0.10.1\n"
           b"          command: [vllm, serve, m]\n    workerTemplate: {}\n")
    (la,) = Y.extract(lws, "lws.yaml").launches
    assert la.hardware.nodes == 2


def test_template_fill_tables_keep_line_breaks_only():
    from vllm_lint.frontends.yaml import templates as T

    assert T._BLANK_FILL == bytes(b if b in (0x0A, 0x0D) else 0x20 for b in range(256))
    assert T._INLINE_FILL == bytes(b if b in (0x0A, 0x0D) else 0x5F for b in range(256))
