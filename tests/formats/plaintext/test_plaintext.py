"""The reader of last resort (issue 27): discovery by content, the command lines of a file no
format claims, and the account of every text file that mentions a launch but is not read."""

from __future__ import annotations

import json

import pytest
from read_and_fix import check_read_and_fixed, lint
from span_invariants import check_spans

from vllm_lint.frontends import plaintext
from vllm_lint.frontends.base import format_by_content


@pytest.mark.parametrize("name, data, fmt", [
    ("job.slurm", b"#!/bin/bash\n#SBATCH -N 1\nsrun vllm serve m\n", "shell"),  # a shebang: shell, any name
    ("job.pbs", b"#!/usr/bin/env -S bash -l\nvllm serve m\n", "shell"),
    ("run.sbatch", b"#SBATCH -N 1\nsrun vllm serve m\n", "plaintext"),
    ("run.pl", b"#!/usr/bin/perl\nsystem('vllm serve m');\n", "plaintext"),  # a shebang no format claims
    ("Procfile", b"web: vllm serve m\n", "plaintext"),
    ("user-data", b"#cloud-boothook\n" + b"echo x\n" * 1000 + b"vllm serve m\n", "plaintext"),  # past the head
    ("x.conf", b"command=python3 -m vllm.entrypoints.openai.api_server --model m\n", "plaintext"),
    ("rows.csv", b"id,cmd\n1,vllm serve m\n", None),  # data: refused, named as not read
    ("notes.txt", b"llm = LLM(model='m')\n", None),  # a marker no command line: not read
    ("notes.txt", b"hello\n", None),
    ("app.go", b"run(\"vllm serve m --port 1\")\n", None),  # code of a language with no reader: named, not read
    ("deploy.yaml.tftpl", b"kind: Pod\nimage: vllm/vllm-openai:v0.9.0\n", "plaintext"),  # no YAML claim by content
    ("user-data", b"#cloud-config\nruncmd: [[vllm, serve, m]]\n", "yaml"),  # a name without a suffix: claims apply
])
def test_claims_by_content(name, data, fmt):
    assert format_by_content(data, name) == fmt


def test_a_job_file_is_read_and_fixed(run_cli, tmp_path):
    check_read_and_fixed(run_cli, tmp_path, "serve.sbatch",
                         "#SBATCH --gres=gpu:1\nsrun -N 1 vllm serve m \\\n  --swap-space 4 \\\n  --port 8000\n",
                         [("VL101", 3, 3)], "srun -N 1 vllm serve m \\\n  --port 8000\n")


@pytest.mark.parametrize("line, words", [
    (b"srun --ntasks=1 vllm serve m --port 1", ["m", "--port", "1"]),
    (b"web: vllm serve m --port 1", ["m", "--port", "1"]),
    (b'command="vllm serve m --port 1"', ["m", "--port", "1"]),
    (b"  - 'vllm serve m --port 1' # a list item", ["m", "--port", "1"]),
    (b"Run `vllm serve m --port 1` then wait.", ["m", "--port", "1"]),
    (b"exec = nohup /opt/bin/python3 -u -m vllm.entrypoints.openai.api_server --port 1", ["--port", "1"]),
    (b"my-launcher --slots 2 A=1 vllm serve m --port 1", ["m", "--port", "1"]),
    (b"{{ bin }}/vllm serve {{ model }} --port {{ port }}", ["___model___", "--port", "___port___"]),
    (b"vllm serve {model} --port {port} {eager_flag} --tp {cfg.tp}", ["_______", "--port", "______",
                                                                      "____________", "--tp", "________"]),
])
def test_the_command_is_read_from_where_it_starts(line, words):
    data = b"# a file\n" + line + b"\n"
    ex = plaintext.extract(data, "f.txt")
    (la,) = ex.launches
    assert [t.text for t in la.tokens] == words
    check_spans(data, ex)


def test_format_fields_are_opaque_and_a_lone_one_may_be_any_words():
    (la,) = plaintext.extract(b"vllm serve {model} --port {port} {eager_flag}\n", "cmd.txt").launches
    assert [(t.opaque, t.splat) for t in la.tokens] == [(True, True), (False, False), (True, False), (True, True)]
    assert la.opaque


@pytest.mark.parametrize("line", [
    b"// (python3 -m vllm.entrypoints.openai.api_server), which the default image runs",
    b"It's what vllm serve does when the model's config is missing",
    b"Dump vllm serve flags from the pinned base image",
])
def test_prose_is_no_command_line(line):
    assert plaintext.extract(line + b"\n", "notes.txt").launches == []


def test_a_template_statement_is_no_word_and_no_fix_crosses_it():
    data = b"vllm serve m {% if q %}--quantization awq{% endif %} --port 1\n"
    (la,) = plaintext.extract(data, "t.j2").launches
    assert [t.text for t in la.tokens] == ["m", "--quantization", "awq", "--port", "1"]
    assert la.opaque  # a conditional: no option may be claimed absent
    q = la.tokens[1]
    assert data[q.span.start:q.span.end] == b"--quantization"


def test_walk_reads_by_content_and_names_every_file_with_a_launch_not_read(run_cli, tmp_path):
    (tmp_path / "job.sbatch").write_text("srun vllm serve m --swap-space 4\n")
    (tmp_path / "job.slurm").write_text("#!/bin/bash\nvllm serve m --swap-space 4\n")
    (tmp_path / "rows.csv").write_text("1,vllm serve m --swap-space 4\n")
    (tmp_path / "notes.txt").write_text("llm = LLM(model='m')\n")
    (tmp_path / "about.txt").write_text("vllm is fast\n")  # mentions vLLM, no launch marker
    (tmp_path / "weights.bin").write_bytes(b"vllm serve m --swap-space 4\n")  # a binary suffix: never read
    (tmp_path / "blob").write_bytes(b"\x00\x01vllm serve m --swap-space 4\n")  # binary content
    r = run_cli("--output-format", "json", "-t", "0.27.1", "--verbose", str(tmp_path))
    found = sorted((d["filename"].rsplit("/", 1)[-1], d["code"]) for d in json.loads(r.stdout))
    assert found == [("job.sbatch", "VL101"), ("job.slurm", "VL101")]
    assert f"{tmp_path / 'job.sbatch'}: read as plain text" in r.stderr
    assert f"{tmp_path / 'job.slurm'}: read as plain text" not in r.stderr
    notread = sorted(line.rsplit("/", 1)[-1] for line in r.stderr.splitlines() if ": not read: " in line)
    assert notread == ["notes.txt: not read: format not supported", "rows.csv: not read: format not supported"]
    assert "2 files held no vLLM launch." in r.stderr


def test_a_file_with_a_marker_but_no_command_line_says_so(run_cli, tmp_path):
    p = tmp_path / "readme.txt"
    p.write_text("see the vllm/vllm-openai image's docs\n")
    r = run_cli("-t", "0.27.1", "--verbose", str(p))
    assert f"{p}: read as plain text" in r.stderr and f"{p}: not read: no launch found" in r.stderr


def test_many_marker_lines_are_read_once_each():
    """A logical line is read once however many markers it holds, and each line at most three
    times (its candidate starts): the work is linear in the file."""
    line = b"vllm serve m --port 1 # vllm serve again\n"
    ex = plaintext.extract(line * 2000, "big.txt")
    assert len(ex.launches) == 2000
    assert len(plaintext.command_lines(line * 2000)) == 2000


def test_show_files_lists_the_files_a_format_claims_by_name_or_content(run_cli, tmp_path, monkeypatch):
    (tmp_path / "job.sbatch").write_text("srun vllm serve m\n")
    (tmp_path / "run").write_text("#!/bin/sh\necho\n")
    (tmp_path / "LICENSE").write_text("MIT\n")
    (tmp_path / "notes.txt").write_text("nothing to launch\n")
    (tmp_path / "a.sh").write_text("echo\n")
    monkeypatch.chdir(tmp_path)
    r = run_cli("--show-files", ".")
    assert r.stdout.split() == ["a.sh", "job.sbatch", "run"]


def test_a_long_continued_line_is_found_once(monkeypatch):
    """Markers on every line of one ``\\``-continued command line: the line is looked up once,
    not once per marker (which walks back over every line before it: quadratic)."""
    calls = []
    real = plaintext._logical_line
    monkeypatch.setattr(plaintext, "_logical_line", lambda d, p: calls.append(p) or real(d, p))
    data = b"srun vllm serve m \\\n" + b"  --x vllm serve \\\n" * 5000 + b"  --port 1\n"
    assert len(plaintext.command_lines(data)) == 1 and len(calls) == 1


def test_a_jinja_launcher_reads_the_branches_its_roles_variables_decide(tmp_path):
    role = tmp_path / "role"
    (role / "templates").mkdir(parents=True)
    (role / "defaults").mkdir()
    (role / "defaults" / "main.yml").write_text("TP: 1\nLOCAL_ONLY: false\nHOST: 0.0.0.0\n")
    data = (b"#!/bin/bash\n"
            b"vllm serve {{ MODEL }} \\\n"
            b"{% if TP > 1 %}\n"
            b"    --tensor-parallel-size {{ TP }} \\\n"
            b"{% endif %}\n"
            b"{% if LOCAL_ONLY|bool %}\n"
            b"    --host 127.0.0.1 \\\n"
            b"{% else %}\n"
            b"    --host {{ HOST }} \\\n"
            b"{% endif %}\n"
            b"    --port 8000\n")
    path = role / "templates" / "start.sh.j2"
    path.write_bytes(data)
    (la,) = plaintext.extract(data, str(path)).launches
    texts = [t.text for t in la.tokens]
    assert "--tensor-parallel-size" not in texts and "127.0.0.1" not in texts
    assert "--host" in texts and "--port" in texts  # (the `else` branch, and the command goes on)
    (la,) = plaintext.extract(data, "start.sh.j2").launches  # no role: the first branch
    texts = [t.text for t in la.tokens]
    assert "--tensor-parallel-size" in texts and "127.0.0.1" in texts


def test_a_jinja_launcher_reads_its_roles_values_as_assumptions(tmp_path):
    role = tmp_path / "role"
    (role / "templates").mkdir(parents=True)
    (role / "defaults").mkdir()
    (role / "defaults" / "main.yml").write_text(
        "MAX_LEN: 8192\nPORT: '8000'\nHOST: \"{{ other }}\"\nFLAGS: --a --b\n")
    data = (b"vllm serve {{ MODEL }} --max-model-len {{ MAX_LEN }} --port \"{{ PORT | int }}\" "
            b"--host {{ HOST }} {{ FLAGS }}\n")
    path = role / "templates" / "start.sh.j2"
    path.write_bytes(data)
    (la,) = plaintext.extract(data, str(path)).launches
    got = {t.text: (t.opaque, t.assumed is not None) for t in la.tokens}
    assert got["8192"] == (False, True) and got["8000"] == (False, True)
    # (a variable the role does not set, one templated from others, several words: unknown as before)
    assert sum(1 for t in la.tokens if t.opaque) == 3
    (la,) = plaintext.extract(data, "start.sh.j2").launches  # no role: every expression unknown
    assert sum(1 for t in la.tokens if t.opaque) == 5
