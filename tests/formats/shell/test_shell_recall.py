"""Shell launches read where they live (issue 17): ``env "$X=$Y" vllm serve``, and files written
by a heredoc (``| kubectl apply -f -``, ``> Dockerfile``, ``| tee x.yaml``) read as the file they
become, at exact positions, with fixes in the heredoc's body. (A blank line after a trailing
backslash is in test_markdown_recall.py, beside the Markdown prompt blocks.)"""

from __future__ import annotations

import json

from vllm_lint.frontends import shell as S
from span_invariants import check_spans


def lint(run_cli, path, *extra):
    r = run_cli("--output-format", "json", "-t", "0.27.1", *extra, str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]


def test_env_with_an_expanded_assignment_still_launches_vllm():
    data = b'env "$AFFINITY_ENV=$GPU" vllm serve "$MODEL" --port 8000\nenv ${X}=1 A=2 vllm serve m\n'
    ex = S.extract(data, "a.sh")
    check_spans(data, ex)
    assert [la.entry for la in ex.launches] == ["vllm serve", "vllm serve"]
    assert [t.text for t in ex.launches[0].tokens][-2:] == ["--port", "8000"]
    assert [e.name for e in ex.launches[1].env] == ["A"]


HEREDOCS = """#!/bin/bash
cat <<EOF | kubectl apply -f -
apiVersion: v1
kind: Pod
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.27.1
      args: ["--swap-space", "4", "--model", "$MODEL"]
EOF
cat > Dockerfile <<'EOF'
FROM vllm/vllm-openai:v0.27.1
CMD ["--swap-space", "4"]
EOF
tee deploy/pod.yml <<EOF >/dev/null
apiVersion: v1
kind: Pod
spec:
  containers:
    - image: vllm/vllm-openai:v0.27.1
      command: ["vllm", "serve", "m", "--port", "8000"]
EOF
"""


def test_heredoc_files_are_read_as_the_file_they_become(run_cli, tmp_path):
    p = tmp_path / "deploy.sh"
    p.write_text(HEREDOCS)
    data = p.read_bytes()
    ex = S.extract(data, str(p))
    check_spans(data, ex)
    assert [la.context.get("heredoc_file") for la in ex.launches] == ["yaml", "dockerfile", "yaml"]
    # an unquoted delimiter lets the shell expand $MODEL: unknown
    assert [(t.text, t.opaque) for t in ex.launches[0].tokens][-1] == ("$MODEL", True)
    # `--model` to the image's `vllm serve` is deprecated (VL106): its fix leaves the model positional
    assert lint(run_cli, p) == [("VL101", 9, 14), ("VL106", 9, 35), ("VL101", 13, 6)]
    r = run_cli("-t", "0.27.1", "--fix", str(p))
    assert r.exit_code == 0
    new = p.read_text()
    assert '      args: ["$MODEL"]\n' in new
    assert "CMD []\n" in new


def test_a_heredoc_writing_a_script_stays_shell():
    data = b"cat > run.sh <<'EOF'\nvllm serve m --port 1\nEOF\n"
    (la,) = S.extract(data, "a.sh").launches
    assert la.entry == "vllm serve" and "heredoc_file" not in la.context
