"""vLLM built from its own source at a tag (knowledge/source_builds.py): the constructions read,
the variables a tag comes through, and what is not a release of vLLM (a fork, a branch, another
repository's checkout, two builds that disagree)."""

from __future__ import annotations

import pytest

from vllm_lint.knowledge.source_builds import source_build_hints, source_builds


@pytest.mark.parametrize("text,ref,held", [
    # a Dockerfile's global ARG, redeclared in the stage, then a checkout after the clone
    ("ARG VERSION=0.6.4.post1\nFROM ubuntu:22.04\nARG VERSION\nRUN git clone https://github.com/vllm-project/vllm.git && \\\n"
     "    cd vllm && git checkout v${VERSION} && pip install -e .\n", "v0.6.4.post1", "0.6.4.post1"),
    ("ARG VLLM_REF=v0.8.2\nRUN git clone https://github.com/vllm-project/vllm.git /vllm\nWORKDIR /vllm\n"
     "RUN git checkout ${VLLM_REF}\n", "v0.8.2", "v0.8.2"),
    ("RUN git clone --branch v0.10.0 https://github.com/vllm-project/vllm /opt/vllm\n", "v0.10.0", "v0.10.0"),
    ("git clone https://github.com/vllm-project/vllm.git -b v0.10.0 --depth 1\n", "v0.10.0", "v0.10.0"),
    ("git clone --depth=1 --branch=v0.7.3 git@github.com:vllm-project/vllm.git\n", "v0.7.3", "v0.7.3"),
    ("git clone https://github.com/vllm-project/vllm\ngit -C vllm checkout tags/v0.7.3\n", "v0.7.3", "v0.7.3"),
    ("pip install git+https://github.com/vllm-project/vllm@v0.9.1\n", "v0.9.1", "v0.9.1"),
    ('uv pip install "vllm@git+https://github.com/vllm-project/vllm.git@v0.9.1"\n', "v0.9.1", "v0.9.1"),
    ("vllm @ git+https://github.com/vllm-project/vllm.git@v0.9.1#egg=vllm\n", "v0.9.1", "v0.9.1"),
    ("export VLLM_TAG=v0.5.4\ngit clone -b $VLLM_TAG https://github.com/vllm-project/vllm\n", "v0.5.4", "v0.5.4"),
    ("git clone https://github.com/vllm-project/vllm -b ${VLLM_TAG:-v0.7.3}\n", "v0.7.3", "v0.7.3"),
    ("ENV VLLM_VERSION 0.8.5\nRUN git clone https://github.com/vllm-project/vllm && cd vllm && "
     "git checkout v$VLLM_VERSION\n", "v0.8.5", "0.8.5"),
    ("curl -L https://github.com/vllm-project/vllm/archive/refs/tags/v0.5.4.tar.gz | tar xz\n", "v0.5.4", "v0.5.4"),
    # an argv list in Python, a Dockerfile's RUN with set -x first
    ("subprocess.check_call([sys.executable, '-m', 'pip', 'install',\n"
     "    'git+https://github.com/vllm-project/vllm.git@v0.7.3'])\n", "v0.7.3", "v0.7.3"),
    ("RUN set -x \\\n&& pip install git+https://github.com/vllm-project/vllm.git@v0.5.4 --verbose\n", "v0.5.4", "v0.5.4"),
])
def test_a_build_of_vllms_source_at_a_tag(text, ref, held):
    data = text.encode()
    (b,) = source_builds(data)
    assert b.ref == ref
    assert data[b.start:b.end] == held.encode()  # (the text holding the version: where VL004 reports)


@pytest.mark.parametrize("text", [
    "git clone --branch v0.6.0 https://github.com/ROCm/vllm\n",  # a fork (knowledge/forks.py)
    "pip install git+https://github.com/HabanaAI/vllm-fork@v0.6.4\n",
    "git clone https://github.com/vllm-project/vllm\ncd vllm && git checkout main\n",  # a branch, no release
    "git clone https://github.com/vllm-project/vllm\ncd vllm && git checkout 1a2b3c4d\n",
    # the checkout is of another repository, cloned after vLLM's
    "git clone https://github.com/vllm-project/vllm\ngit clone https://github.com/foo/bar\ncd bar && git checkout v1.2.3\n",
    # two builds naming different releases name none
    "git clone -b v0.7.3 https://github.com/vllm-project/vllm\npip install git+https://github.com/vllm-project/vllm@v0.8.0\n",
    "# git clone -b v0.7.3 https://github.com/vllm-project/vllm\n",  # a comment
    "git clone -b $UNSET https://github.com/vllm-project/vllm\n",  # a variable the file never sets
    # a variable the file sets to two values
    "V=v0.7.3\nV=v0.8.0\ngit clone -b $V https://github.com/vllm-project/vllm\n",
    "See https://github.com/vllm-project/vllm/issues/123 for the checkout v0.8.0 bug\n",
    # a message telling the reader what to run by hand
    'echo "or run: pip install git+https://github.com/vllm-project/vllm.git@v0.10.1"\n',
    'Write-Host "pip install git+https://github.com/vllm-project/vllm.git@v0.10.1" -ForegroundColor Yellow\n',
])
def test_what_is_no_build_of_a_vllm_release(text):
    assert source_builds(text.encode()) == []


def test_the_hint_says_how_for_verbose():
    data = b"ARG VERSION=0.6.4.post1\nRUN git clone https://github.com/vllm-project/vllm && cd vllm && git checkout v${VERSION}\n"
    (h,) = source_build_hints(data)
    assert h.version == "v0.6.4.post1"
    assert h.source == ("vLLM built from its source (line 2: git checkout v${VERSION} with VERSION=0.6.4.post1 "
                        "(line 1) of vLLM's repository) at")


def test_a_long_file_is_read_in_linear_time():
    """(bounded work: a 20,000-line script of clones and checkouts answers, one pass per line)"""
    data = b"git clone https://github.com/vllm-project/vllm\n" + b"git checkout v0.8.5 && echo x | cat\n" * 20_000
    assert [b.ref for b in source_builds(data)] == ["v0.8.5"]
