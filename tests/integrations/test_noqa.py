"""--add-noqa: every finding gets a suppression comment in its format's syntax, the files keep
their meaning, and a second run reports nothing."""

from __future__ import annotations

import ast
import shutil
import subprocess

import pytest
import yaml

from integration_data import PROJECT

FILES = list(PROJECT)


def lint(run_cli, *args):
    return run_cli("-t", "0.27.1", *args)


def test_add_noqa_then_nothing_is_reported(run_cli, project):
    before = {n: (project / n).read_text() for n in FILES}
    r = lint(run_cli, "--add-noqa", ".")
    assert r.exit_code == 0, r.output
    assert "Added " in r.stderr
    after = {n: (project / n).read_text() for n in FILES}
    assert after["clean.sh"] == before["clean.sh"]
    again = lint(run_cli, "--extend-select", "VL003", "--output-format", "concise", ".")
    assert again.exit_code == 0, again.output
    assert "All checks passed!" in again.stdout  # no finding, no VL001, no unused suppression
    # idempotent
    r2 = lint(run_cli, "--add-noqa", ".")
    assert r2.exit_code == 0 and "Added 0 suppression comments" in r2.stderr
    assert {n: (project / n).read_text() for n in FILES} == after

    sh = after["deploy.sh"].splitlines()
    assert sh[1] == "export VLLM_USE_V1=1  # vllm-lint: ignore[VL201]"
    # a continued command takes one comment line above its first line
    assert sh[2] == "# vllm-lint: ignore[VL101,VL102,VL105]" and sh[3].startswith("vllm serve meta-llama")
    assert sh[-1] == "vllm serve m --swap-space 4  # start the server  # vllm-lint: ignore[VL101]"
    if shutil.which("bash"):
        subprocess.run(["bash", "-n", str(project / "deploy.sh")], check=True)

    # YAML: the data is the same; the block scalar's comment sits on its header line
    assert list(yaml.safe_load_all(after["k8s/deployment.yaml"])) == list(yaml.safe_load_all(before["k8s/deployment.yaml"]))
    assert "            - |  # vllm-lint: ignore[VL101,VL105]\n" in after["k8s/deployment.yaml"]
    assert '            - --swap-space  # vllm-lint: ignore[VL101]\n' in after["k8s/deployment.yaml"]

    # Dockerfile: comments only on their own lines; the JSON CMD is untouched
    df = after["Dockerfile"].splitlines()
    assert df == ["# vllm-lint: ignore[VL406]", "FROM vllm/vllm-openai:latest", "# vllm-lint: ignore[VL201]", "ENV VLLM_USE_V1=1",
                  "# vllm-lint: ignore[VL101]", 'CMD ["m", \\', '     "--swap-space", "4"]']

    # Python: same AST
    assert ast.dump(ast.parse(after["offline.py"])) == ast.dump(ast.parse(before["offline.py"]))
    assert "    swap_space=4,  # vllm-lint: ignore[VL101]\n" in after["offline.py"]

    # Markdown: comments inside the fenced blocks, the prose untouched
    md = after["README.md"]
    assert "  --swap-space 4  # vllm-lint: ignore[VL101]\n```" in md
    assert 'llm = LLM("m", swap_space=4)  # vllm-lint: ignore[VL101]\n' in md
    assert md.replace("  # vllm-lint: ignore[VL101]", "") == before["README.md"]


def test_existing_comments_are_extended(run_cli, project):
    p = project / "x.sh"
    p.write_text("vllm serve m --swap-space 4 --dtype fp16  # vllm-lint: ignore[VL105]\n"
                 "vllm serve m --swap-space 4  # keep this note\n")
    r = lint(run_cli, "--add-noqa", "x.sh")
    assert r.exit_code == 0, r.output
    assert p.read_text() == ("vllm serve m --swap-space 4 --dtype fp16  # vllm-lint: ignore[VL101,VL105]\n"
                             "vllm serve m --swap-space 4  # keep this note  # vllm-lint: ignore[VL101]\n")


def test_crlf_is_kept(run_cli, project):
    p = project / "w.sh"
    p.write_bytes(b"export VLLM_USE_V1=1\r\nvllm serve m --swap-space 4\r\n")
    assert lint(run_cli, "--add-noqa", "w.sh").exit_code == 0
    assert p.read_bytes() == (b"export VLLM_USE_V1=1  # vllm-lint: ignore[VL201]\r\n"
                              b"vllm serve m --swap-space 4  # vllm-lint: ignore[VL101]\r\n")
    assert lint(run_cli, "w.sh").exit_code == 0
    d = project / "Dockerfile.crlf"
    d.write_bytes(b"FROM vllm/vllm-openai:latest\r\nCMD [\"m\", \"--swap-space\", \"4\"]\r\n")
    assert lint(run_cli, "--add-noqa", "Dockerfile.crlf").exit_code == 0
    assert d.read_bytes() == (b"# vllm-lint: ignore[VL406]\r\nFROM vllm/vllm-openai:latest\r\n# vllm-lint: ignore[VL101]\r\n"
                              b"CMD [\"m\", \"--swap-space\", \"4\"]\r\n")


def test_yaml_literal_block_takes_the_comment_on_its_header(run_cli, project):
    p = project / "c.yaml"
    text = ("services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    entrypoint: [\"/bin/bash\", \"-c\"]\n"
            "    command:\n      - |-\n        echo start\n        vllm serve m --swap-space 4 --port 8000\n")
    p.write_text(text)
    first = lint(run_cli, "--output-format", "concise", "c.yaml")
    assert "VL101" in first.stdout
    assert lint(run_cli, "--add-noqa", "c.yaml").exit_code == 0
    new = p.read_text()
    assert "      - |-  # vllm-lint: ignore[VL101]\n" in new
    assert yaml.safe_load(new) == yaml.safe_load(text)
    assert lint(run_cli, "c.yaml").exit_code == 0


def test_a_line_that_cannot_take_a_comment_is_reported_and_left_alone(run_cli, project):
    """The middle line of a triple-quoted shell string: a comment there or above it would be
    part of the string."""
    p = project / "launch.py"
    text = 'import subprocess\n\nsubprocess.run("""\nvllm serve m --swap-space 4\necho done\n""", shell=True)\n'
    p.write_text(text)
    first = lint(run_cli, "--output-format", "concise", "launch.py")
    assert "launch.py:4:" in first.stdout and "VL101" in first.stdout
    r = lint(run_cli, "--add-noqa", "launch.py")
    assert r.exit_code == 1
    assert "launch.py:4: no suppression comment added for VL101: the Python code would change" in r.stderr
    assert p.read_text() == text


def test_parse_errors_are_not_touched(run_cli, project):
    p = project / "bad.yaml"
    p.write_text("args: [\"--model\", \"vllm\"\n")
    r = lint(run_cli, "--add-noqa", "bad.yaml")
    assert r.exit_code == 1 and "cannot be suppressed" in r.stderr
    assert p.read_text() == "args: [\"--model\", \"vllm\"\n"


def test_usage_errors(run_cli, project):
    assert lint(run_cli, "--add-noqa", "--fix", ".").exit_code == 2
    assert lint(run_cli, "--write-baseline", ".").exit_code == 2


def test_fix_leaves_a_suppressed_finding_alone(run_cli, tmp_path):
    """As ruff: a finding switched off by a suppression comment (or per-file-ignores) is not fixed."""
    f = tmp_path / "run.sh"
    text = ("vllm serve m --cuda-graph-sizes 8  # vllm-lint: ignore[VL102]\n"
            "vllm serve m --cuda-graph-sizes 8\n")
    f.write_text(text)
    r = lint(run_cli, "--fix", str(f))
    assert f.read_text() == ("vllm serve m --cuda-graph-sizes 8  # vllm-lint: ignore[VL102]\n"
                             "vllm serve m --cudagraph-capture-sizes 8\n")
    assert r.exit_code == 0, r.output
