"""TypeScript / JavaScript front-end: containers as object literals (Pulumi, cdk8s, the AWS CDK),
each string of their arrays a word at its bytes, names bound once in the file read as their string,
comments skipped."""

from __future__ import annotations

from pathlib import Path

from span_invariants import check_spans

from vllm_lint.frontends import javascript as J

HERE = Path(__file__).resolve().parent


def test_pulumi_container_object():
    data = (HERE / "pulumi.ts").read_bytes()
    ex = J.extract(data, "pulumi.ts")
    check_spans(data, ex)
    (la,) = ex.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.27.1"
    assert [t.text for t in la.tokens] == ["--model", "facebook/opt-125m", "--swap-space=4", "--max-model-len=4096"]
    assert not la.tokens[1].opaque and data[la.tokens[1].span.start:la.tokens[1].span.end] == b"'facebook/opt-125m'"
    assert [(e.name, e.value) for e in la.env] == [("VLLM_USE_V1", "1")]


def test_cdk_image_call_and_environment_map():
    data = (HERE / "ecs-cdk.js").read_bytes()
    (la,) = J.extract(data, "ecs-cdk.js").launches
    assert la.image == "vllm/vllm-openai:v0.27.1"
    assert [t.text for t in la.tokens] == ["--max-model-len", "2048", "--gpu-memory-utilization", "0.9"]
    assert [(e.name, e.value) for e in la.env] == [("HF_HOME", "/data/hf")]


def test_unknown_values_are_opaque_and_other_objects_are_no_container():
    data = (b"const a = { image: 'vllm/vllm-openai:latest', tag: 'x' };\n"
            b"const b = { image: img, args: [`--model=${m}`, ...extra, '--max-model-len', String(n)] };\n"
            b"const c = { image: 'vllm/vllm-openai:latest', args: ['--max-model-len', '4096'] };\n")
    ex = J.extract(data, "x.ts")
    (la,) = ex.launches  # a: no command or args; b: an image no string names
    assert la.image == "vllm/vllm-openai:latest" and [t.text for t in la.tokens] == ["--max-model-len", "4096"]
    la_b = J._array(data, J._code_map(data), {}, data.index(b"[`"), data.index(b")]") + 2)
    assert [(t.opaque, t.splat) for t, _r in la_b] == [(True, False), (True, True), (False, False), (True, False)]


def test_a_pulumi_docker_container_runs_docker_s_command_as_arguments():
    data = (b"import * as docker from '@pulumi/docker';\n"
            b"new docker.Container('vllm', {\n  image: 'vllm/vllm-openai:v0.27.1',\n  gpus: 'all',\n"
            b"  envs: ['VLLM_USE_V1=1'],\n  command: ['--model', 'org/m', '--swap-space', '4'],\n});\n")
    (la,) = J.extract(data, "index.ts").launches
    assert la.entry == "docker:vllm/vllm-openai:v0.27.1"
    assert [t.text for t in la.tokens] == ["--model", "org/m", "--swap-space", "4"]
    (env,) = la.env
    assert (env.name, env.value, data[env.name_span.start:env.name_span.end]) == ("VLLM_USE_V1", "1", b"VLLM_USE_V1")


def test_the_gpus_a_container_object_requests():
    k8s = (b"const c = { name: 'vllm', image: 'vllm/vllm-openai:v0.8.5', args: ['--model', 'm'],\n"
           b"  resources: { requests: { cpu: '4' }, limits: { \"nvidia.com/gpu\": '2', memory: '32Gi' } } };\n")
    (la,) = J.extract(k8s, "k8s.ts").launches
    assert (la.hardware.gpu_count, la.hardware.source) == (2, "resources.limits.nvidia.com/gpu")
    assert la.container.hardware is la.hardware
    ecs = b"t.addContainer('v', { image: 'vllm/vllm-openai:v0.8.5', command: ['--model', 'm'], gpuCount: 4 });\n"
    (la,) = J.extract(ecs, "ecs.ts").launches
    assert (la.hardware.gpu_count, la.hardware.source) == (4, "gpuCount")
    none = b"const c = { image: 'vllm/vllm-openai:v0.8.5', args: ['--model', 'm'], resources: { limits: { cpu: 2 } } };\n"
    (la,) = J.extract(none, "none.ts").launches
    assert la.hardware.gpu_count is None
