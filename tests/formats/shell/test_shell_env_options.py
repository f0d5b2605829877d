"""A ``docker run`` / ``podman run`` of an image whose entrypoint turns variables into vLLM's options
(``container.ENV_OPTIONS``: SageMaker's ``SM_VLLM_*``): its ``-e`` variables are the launch, built
as the YAML, Python and HCL readers build one (``container.env_launch``)."""

from __future__ import annotations

from vllm_lint.frontends import shell as S
from vllm_lint.frontends.python import extract as extract_python

RUN = (b"docker run --gpus 2 --env-file ./sm.env -e HF_TOKEN \\\n"
       b"  -e SM_VLLM_MODEL=acme/chat-7b --env SM_VLLM_MAX_MODEL_LEN=4096 \\\n"
       b"  --env=SM_VLLM_ENFORCE_EAGER=true -e SM_VLLM_DISABLE_LOG_STATS=false -e SM_VLLM_SWAP_SPACE \\\n"
       b"  1.dkr.ecr.us-east-1.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker\n")


def _one(data: bytes):
    (la,) = S.extract(data, "run.sh").launches
    return la


def test_the_variables_are_the_launch_at_their_words():
    la = _one(RUN)
    assert (la.entry, la.style, la.model) == ("openai.api_server", "config", "acme/chat-7b")
    got = [(k.key, k.value, k.value_opaque, k.key_style, RUN[k.key_span.start:k.key_span.end].decode())
           for k in la.keyed]
    assert got == [
        ("SM_VLLM_MODEL", "acme/chat-7b", False, "env", "SM_VLLM_MODEL"),
        ("SM_VLLM_MAX_MODEL_LEN", "4096", False, "env", "SM_VLLM_MAX_MODEL_LEN"),
        ("SM_VLLM_ENFORCE_EAGER", True, False, "env", "SM_VLLM_ENFORCE_EAGER"),  # (the bare flag)
        ("SM_VLLM_SWAP_SPACE", None, True, "env", "SM_VLLM_SWAP_SPACE"),  # (`-e NAME`: the caller's value)
    ]  # (`false`: left out, as the entrypoint does; --env-file: not read)
    assert [e.name for e in la.env] == ["HF_TOKEN"]
    assert [(h.version, h.source) for h in la.version_hints] == [("0.10.0", "image-tag")]
    hint = la.version_hints[0].span
    assert RUN[hint.start:hint.end] == b"0.10.0"
    assert la.hardware.gpu_count == 2
    assert la.container.platform == "sagemaker" and la.container.image.endswith("sagemaker")
    cut = la.keyed[1].delete_span
    assert RUN[cut.start:cut.end].strip() == b"--env SM_VLLM_MAX_MODEL_LEN=4096"


def test_it_is_the_launch_the_python_reader_makes_of_the_same_block():
    py = (b"import boto3\nboto3.client('sagemaker').create_model(ModelName='m', PrimaryContainer={\n"
          b"    'Image': '1.dkr.ecr.us-east-1.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker',\n"
          b"    'Environment': {'HF_TOKEN': 'x', 'SM_VLLM_MODEL': 'acme/chat-7b', 'SM_VLLM_MAX_MODEL_LEN': '4096'}})\n")
    (p,) = extract_python(py, "deploy.py").launches
    s = _one(b"docker run -e HF_TOKEN=x -e SM_VLLM_MODEL=acme/chat-7b -e SM_VLLM_MAX_MODEL_LEN=4096 "
             b"1.dkr.ecr.us-east-1.amazonaws.com/vllm:0.10.0-gpu-py312-sagemaker\n")

    def shape(la):
        return (la.entry, la.style, la.model, [(k.key, k.value, k.key_style) for k in la.keyed],
                [e.name for e in la.env], [h.version for h in la.version_hints], la.container.platform,
                la.container.run_image)

    assert shape(s) == shape(p)
    assert p.read_as.startswith(s.read_as)


def test_other_runs_are_no_such_launch():
    # a command after the image runs instead of the entrypoint; a prefix alone names no option;
    # podman and `container run` read as docker
    assert S.extract(b"docker run -e SM_VLLM_MODEL=m img env\n", "a.sh").launches == []
    assert S.extract(b"docker run -e SM_VLLM_=1 -e VLLM_X=1 img\n", "a.sh").launches == []
    assert S.extract(b"docker run --entrypoint bash -e SM_VLLM_MODEL=m img\n", "a.sh").launches == []
    assert len(S.extract(b"podman container run -e SM_VLLM_MODEL=m img\n", "a.sh").launches) == 1


def test_the_registrys_marker_names_every_prefix_of_the_table():
    # (frontends/base.py imports no reader: its marker spells the prefixes of container.ENV_OPTIONS)
    import re

    from vllm_lint.container import ENV_OPTIONS
    from vllm_lint.frontends.base import ENV_RUN_BYTES, ENV_RUN_MARKER

    assert sorted(ENV_RUN_BYTES) == sorted(row.prefix.encode() for row in ENV_OPTIONS)
    for row in ENV_OPTIONS:
        assert re.search(ENV_RUN_MARKER, b"docker run -e " + row.prefix.encode() + b"MODEL=m img")
        assert re.search(ENV_RUN_MARKER, b"docker run --env=" + row.prefix.encode() + b"MODEL=m img")
        assert not re.search(ENV_RUN_MARKER, b"Set " + row.prefix.encode() + b"MODEL=m in the environment")
