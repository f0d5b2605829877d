"""A variable whose value a command substitution reads from a file of the repository
(``IMAGE_REF="$(cat vllm_image.txt)"``, ``MODEL=$(< model.txt)``): the file's text, where the file
is a small one-line regular file beside the script, named by a relative path known at the word;
read as an input of the result, so the result cache follows it (``frontends/shell_values.py``)."""

from __future__ import annotations

import pytest

from vllm_lint import inputs
from vllm_lint.frontends import shell as S

DOCKER = '#!/bin/bash\nIMAGE_REF="$(cat vllm_image.txt)"\ndocker run --gpus all "${IMAGE_REF}" --model org/m --swap-space 4\n'


def _one(tmp_path, script: str, files: dict):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    p = tmp_path / "run.sh"
    p.write_text(script)
    with inputs.recording() as reads:
        out = S.extract(p.read_bytes(), str(p))
    return out, reads


def test_an_image_read_from_a_file_beside_the_script(tmp_path):
    out, reads = _one(tmp_path, DOCKER, {"vllm_image.txt": "vllm/vllm-openai:v0.8.5\n"})
    (la,) = out.launches
    assert la.entry == "docker:vllm/vllm-openai:v0.8.5"
    assert [h.version for h in la.version_hints] == ["v0.8.5"]
    span = la.version_hints[0].span  # (at the command that reads it)
    assert DOCKER.encode()[span.start:span.end] == b'"$(cat vllm_image.txt)"'
    assert str(tmp_path / "vllm_image.txt") in reads  # (the result rests on it)


@pytest.mark.parametrize("assign", ["M=$(cat model.txt)", 'M="$(cat model.txt)"', "M=`cat model.txt`",
                                    "M=$(< model.txt)", 'D=.; M="$(cat "$D/model.txt")"'])
def test_a_model_read_from_a_file(tmp_path, assign):
    out, _ = _one(tmp_path, f'#!/bin/sh\n{assign}\nvllm serve "$M" --max-model-len 4096\n', {"model.txt": "org/m\n"})
    (la,) = out.launches
    assert la.tokens[0].text == "org/m" and not la.tokens[0].opaque


@pytest.mark.parametrize("assign, files", [
    ("M=$(cat model.txt)", {}),  # missing
    ("M=$(cat model.txt)", {"model.txt": "org/m\norg/n\n"}),  # two lines
    ("M=$(cat model.txt)", {"model.txt": "x" * 5000}),  # too large
    ("M=$(cat model.txt other.txt)", {"model.txt": "org/m\n", "other.txt": "x\n"}),  # two files
    ("M=$(cat /etc/model.txt)", {}),  # the machine's, not the repository's
    ("M=$(cat ../model.txt)", {}),  # (outside the script's folder)
    ("M=$(cat $F)", {"model.txt": "org/m\n"}),  # a path the environment gives
    ("M=$(cat model.txt | head -1)", {"model.txt": "org/m\n"}),  # a pipeline
    ("M=$(cat model.txt 2>/dev/null || true)", {"model.txt": "org/m\n"}),  # may print nothing
])
def test_what_stays_unknown(tmp_path, assign, files):
    out, _ = _one(tmp_path, f'#!/bin/sh\n{assign}\nvllm serve "$M" --max-model-len 4096\n', files)
    (la,) = out.launches
    assert la.tokens[0].opaque


def test_an_unquoted_file_text_of_two_words_stays_unknown(tmp_path):
    out, _ = _one(tmp_path, "#!/bin/sh\nvllm serve $(cat model.txt) --max-model-len 4096\n", {"model.txt": "org/m x\n"})
    (la,) = out.launches
    assert la.tokens[0].opaque


def test_the_cache_follows_the_file(run_cli, tmp_path, monkeypatch):
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    repo = tmp_path / "r"
    repo.mkdir()
    (repo / "vllm_image.txt").write_text("vllm/vllm-openai:v0.8.5\n")
    (repo / "run.sh").write_text(DOCKER)

    def releases():
        out = run_cli("--output-format", "json", "--verbose", str(repo / "run.sh"))
        return [line for line in out.stderr.splitlines() if "checked against" in line]

    assert "0.8.5" in releases()[0]
    assert "0.8.5" in releases()[0]  # answered by the cache
    (repo / "vllm_image.txt").write_text("vllm/vllm-openai:v0.10.0\n")  # the script is unchanged
    assert "0.10.0" in releases()[0]
