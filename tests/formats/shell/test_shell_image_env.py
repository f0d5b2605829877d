"""A script that is the process of an image a Dockerfile beside it builds (its ENTRYPOINT or CMD runs
the file a COPY puts in the image): the variables the script leaves to its environment have the
image's ENV defaults, as assumptions a finding on them names (``frontends/shell_values.py``,
``dockerfile_base.runs_script`` / ``final_env``)."""

from __future__ import annotations

import pytest

from vllm_lint import inputs
from vllm_lint.frontends import shell as S
from vllm_lint.frontends.dockerfile_base import final_env, runs_script

SCRIPT = '#!/bin/bash\nexec vllm serve "$MODEL" --max-model-len "${MAX_MODEL_LEN}" --max-num-seqs "${SEQS:-8}"\n'
DOCKERFILE = ('FROM vllm/vllm-openai:v0.10.0\nCOPY start.sh /usr/local/bin/start.sh\n'
              'ENV MODEL=org/m \\\n    MAX_MODEL_LEN=4096\nENTRYPOINT ["/usr/local/bin/start.sh"]\n')


def _launch(root, script: str = SCRIPT, dockerfile=DOCKERFILE, where: str = "start.sh"):
    (root / ".git").mkdir(parents=True, exist_ok=True)
    p = root / where
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(script)
    if dockerfile is not None:
        (root / "Dockerfile").write_text(dockerfile)
    with inputs.recording() as reads:
        (la,) = S.extract(p.read_bytes(), str(p)).launches
    return la, reads


def test_the_images_env_defaults_are_the_scripts_assumed_values(tmp_path):
    la, reads = _launch(tmp_path)
    words = [(t.text, t.opaque) for t in la.tokens]
    assert words[:3] == [("org/m", False), ("--max-model-len", False), ("4096", False)]
    assert la.tokens[2].assumed == ("`4096` is the default `ENV MAX_MODEL_LEN` of Dockerfile (line 4), the image "
                                    "that runs this script, used unless the container's environment sets it")
    assert la.tokens[4].opaque  # (SEQS: no ENV of the image sets it)
    assert str(tmp_path / "Dockerfile") in reads


def test_a_dockerfile_above_that_copies_the_folder(tmp_path):
    docker = "FROM python:3.12\nCOPY . /app\nWORKDIR /app\nENV MAX_MODEL_LEN=2048\nCMD [\"bash\", \"scripts/start.sh\"]\n"
    la, _ = _launch(tmp_path, dockerfile=docker, where="scripts/start.sh")
    assert la.tokens[2].text == "2048" and la.tokens[2].assumed


@pytest.mark.parametrize("dockerfile", [
    None,  # no image
    "FROM x\nCOPY start.sh /start.sh\nENV MAX_MODEL_LEN=4096\nENTRYPOINT [\"python\", \"app.py\"]\n",  # runs another
    "FROM x\nENV MAX_MODEL_LEN=4096\nENTRYPOINT [\"/start.sh\"]\n",  # a start.sh it does not copy
    "FROM x AS a\nENV MAX_MODEL_LEN=4096\nFROM y\nCOPY start.sh /start.sh\nENTRYPOINT [\"/start.sh\"]\n",  # another stage's
])
def test_no_image_that_runs_it_no_value(tmp_path, dockerfile):
    la, _ = _launch(tmp_path, dockerfile=dockerfile)
    assert la.tokens[2].opaque


def test_the_script_and_its_configuration_come_first(tmp_path):
    la, _ = _launch(tmp_path, '#!/bin/bash\nMAX_MODEL_LEN=1024\nvllm serve m --max-model-len "$MAX_MODEL_LEN"\n')
    assert la.tokens[2].text == "1024" and la.tokens[2].assumed is None


def test_env_forms():
    text = ('FROM a\nENV GONE=1\nFROM b\nENV A=1 B="x y" C=\'q\' D="$HOME/x"\nENV E "two words"\n'
            "ENV F=1 \\\n  G=2\n")
    assert final_env(text) == {"A": ("1", 4), "B": ("x y", 4), "C": ("q", 4), "E": ("two words", 5),
                               "F": ("1", 6), "G": ("2", 7)}


def test_runs_script_forms():
    assert runs_script("FROM x\nCOPY run.sh /run.sh\nENTRYPOINT /run.sh\n", "run.sh")  # shell form
    assert runs_script("FROM x\nCOPY run.sh /run.sh\nCMD [\"/run.sh\"]\n", "run.sh")
    # an ENTRYPOINT of its own: the CMD is its argument, not the process
    assert not runs_script("FROM x\nCOPY run.sh /run.sh\nENTRYPOINT [\"python\"]\nCMD [\"/run.sh\"]\n", "run.sh")
    assert runs_script("FROM x\nCOPY docker/ /opt/\nENTRYPOINT [\"bash\", \"/opt/run.sh\"]\n", "docker/run.sh")
