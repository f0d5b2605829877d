"""What is not read is said: the summary counts the files that held no vLLM launch, --verbose names
them with the reason, machine formats keep their shape (the note goes to stderr), a file named
explicitly of an unsupported kind gets a warning, and a run that read no launch never says
"All checks passed!"."""

from __future__ import annotations

import json

LAUNCH = "vllm serve m --tensor-parallel-size 2\n"
TEMPLATED = """apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
        - name: vllm
          image: "vllm/vllm-openai:{{ .Values.tag }}"
          command: {{ toYaml .Values.command | nindent 12 }}
"""


def _tree(tmp_path):
    (tmp_path / "serve.sh").write_text(LAUNCH)
    (tmp_path / "other.sh").write_text("echo hello\n")
    (tmp_path / "Jenkinsfile").write_text("sh 'vllm serve m'\n")  # no format claims it: read as plain text
    (tmp_path / "runs.csv").write_text("1,vllm serve m\n")  # data: a launch no format reads
    (tmp_path / "LICENSE").write_text("MIT\n")  # of no format and no mention of vLLM: no candidate
    (tmp_path / "chart").mkdir()
    (tmp_path / "chart" / "deploy.yaml").write_text(TEMPLATED)
    return tmp_path


def test_the_summary_counts_files_without_a_launch_and_the_exit_status_is_unchanged(run_cli, tmp_path):
    _tree(tmp_path)
    r = run_cli("-t", "0.27.1", str(tmp_path))
    assert r.exit_code == 0
    assert r.stdout.splitlines() == [
        "All checks passed!",
        "3 files held no vLLM launch. Run with --verbose to see which and why.",
    ]


def test_verbose_names_each_unread_file_and_why(run_cli, tmp_path):
    _tree(tmp_path)
    r = run_cli("-t", "0.27.1", "--verbose", str(tmp_path))
    assert r.exit_code == 0
    unread = sorted(line for line in r.stderr.splitlines() if ": not read: " in line)
    assert unread == sorted([
        f"{tmp_path / 'other.sh'}: not read: no launch found",
        f"{tmp_path / 'runs.csv'}: not read: format not supported",
        f"{tmp_path / 'chart' / 'deploy.yaml'}: not read: template value unknown",
    ])
    assert r.stdout.splitlines()[-1] == "3 files held no vLLM launch."


def test_a_run_that_reads_no_launch_never_says_all_checks_passed(run_cli, tmp_path):
    (tmp_path / "a.sh").write_text("echo a\n")
    (tmp_path / "b.py").write_text("print('b')\n")
    r = run_cli("-t", "0.27.1", str(tmp_path))
    assert r.exit_code == 0
    assert "All checks passed!" not in r.output
    assert r.stdout.splitlines() == ["No vLLM launch found in 2 files. Run with --verbose to see which and why."]
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run_cli("-t", "0.27.1", str(empty))
    assert r.exit_code == 0
    assert r.stdout.splitlines() == ["No vLLM launch found: no file to read."]


def test_findings_and_the_note_together(run_cli, tmp_path):
    (tmp_path / "a.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "b.sh").write_text("echo b\n")
    r = run_cli("-t", "0.27.1", str(tmp_path))
    assert r.exit_code == 1
    assert r.stdout.splitlines()[-3:] == [
        "Found 1 problem (1 error).",
        "[*] 1 fixable with the `--fix` option.",
        "1 file held no vLLM launch. Run with --verbose to see which and why.",
    ]


def test_machine_formats_keep_their_shape_and_the_note_goes_to_stderr(run_cli, tmp_path):
    _tree(tmp_path)
    for fmt in ("json", "sarif", "junit", "github"):
        r = run_cli("-t", "0.27.1", "--output-format", fmt, str(tmp_path))
        assert r.exit_code == 0, fmt
        assert "held no vLLM launch" not in r.stdout, fmt
        assert "3 files held no vLLM launch." in r.stderr, fmt
    r = run_cli("-t", "0.27.1", "--output-format", "json", str(tmp_path))
    assert json.loads(r.stdout) == []


def test_quiet_says_nothing_more(run_cli, tmp_path):
    _tree(tmp_path)
    r = run_cli("-t", "0.27.1", "-q", str(tmp_path), str(tmp_path / "LICENSE"))
    assert r.exit_code == 0
    assert r.output == ""


def test_an_explicit_file_of_an_unsupported_kind_gets_a_warning(run_cli, tmp_path):
    notes = tmp_path / "notes.csv"
    notes.write_text("run,vllm serve m\n")
    (tmp_path / "serve.sh").write_text(LAUNCH)
    r = run_cli("-t", "0.27.1", str(notes), str(tmp_path / "serve.sh"))
    assert r.exit_code == 0
    assert f"warning: {notes}: format not supported, file not read" in r.stderr.splitlines()
    assert r.stdout.splitlines() == [
        "All checks passed!",
        "1 file held no vLLM launch. Run with --verbose to see which and why.",
    ]
    # found by a directory walk, a file whose name gives no format is no warning
    r = run_cli("-t", "0.27.1", str(tmp_path))
    assert "warning" not in r.stderr


def test_a_file_that_does_not_parse_is_unread_and_its_error_stays(run_cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("command: [vllm, serve\n")
    r = run_cli("-t", "0.27.1", "--verbose", str(bad))
    assert r.exit_code == 1
    assert "VL001" in r.stdout
    assert f"{bad}: not read: could not be parsed" in r.stderr.splitlines()
    assert "All checks passed!" not in r.stdout


def test_the_cache_keeps_what_was_read(run_cli, monkeypatch, tmp_path):
    """A second run answered from the cache's stat index says the same as the first."""
    (tmp_path / "tree").mkdir()
    tree = _tree(tmp_path / "tree")
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    first = run_cli("-t", "0.27.1", str(tree))
    second = run_cli("-t", "0.27.1", str(tree))
    assert (tmp_path / "cache").is_dir()
    assert second.stdout == first.stdout
    assert "3 files held no vLLM launch." in second.stdout
    (tree / "serve.sh").write_text("echo no launch now\n")
    (tree / "Jenkinsfile").write_text("sh 'make'\n")  # no launch marker now: no candidate
    third = run_cli("-t", "0.27.1", str(tree))
    assert third.stdout.splitlines()[0] == "No vLLM launch found in 4 files. Run with --verbose to see which and why."


def test_a_file_no_format_reads_is_named_for_every_kind_of_launch_marker(run_cli, tmp_path):
    # code of a language with no reader, a note: an argv list, a vendor's vLLM image, Dynamo's
    # worker were silent in a folder walk (not read, not named)
    (tmp_path / "launch.go").write_text('cmd := exec.Command("vllm", "serve", model)\n')
    (tmp_path / "spawn.rb").write_text("spawn('vllm' , 'serve')\n")
    (tmp_path / "notes.txt").write_text("docker pull rocm/vllm:latest\n")
    (tmp_path / "ngc.toml").write_text('image = "nvcr.io/nvidia/vllm:25.09-py3"\n')
    (tmp_path / "tpu.cfg").write_text("image = vllm/vllm-tpu:nightly\n")
    (tmp_path / "worker.conf").write_text("command = python3 -m dynamo.vllm --model m\n")
    (tmp_path / "other.go").write_text('fmt.Println("vllm is a server")\n')  # a word, no marker
    r = run_cli("-t", "0.27.1", "--verbose", str(tmp_path))
    named = sorted(line.split(tmp_path.name + "/", 1)[1] for line in r.stderr.splitlines() if ": not read: " in line)
    assert named == [f"{n}: not read: format not supported" for n in
                     ("launch.go", "ngc.toml", "notes.txt", "spawn.rb", "tpu.cfg", "worker.conf")]
