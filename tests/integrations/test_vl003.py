"""VL003 unused-suppression: opt-in; reports comments and codes that suppress nothing; the
suppression forms --add-noqa writes are honoured and counted as used."""

from __future__ import annotations


def codes(run_cli, path, *extra):
    r = run_cli("-t", "0.27.1", "--output-format", "concise", *extra, str(path))
    # "path:row:col: CODE [*] severity: message" -> "CODE [*] message"
    out = []
    for line in r.stdout.splitlines():
        if ": VL" in line:
            head, message = line.split(": ", 1)[1].split(": ", 1)
            out.append(f"{head.rsplit(' ', 1)[0]} {message}")
    return out


def test_off_by_default(run_cli, project):
    p = project / "a.sh"
    p.write_text("vllm serve m --port 1  # vllm-lint: ignore[VL101]\n")
    assert codes(run_cli, p) == []
    assert codes(run_cli, p, "--extend-select", "VL003") == ["VL003 unused suppression comment (unused: VL101)"]
    assert codes(run_cli, p, "--select", "VL1,VL003") == ["VL003 unused suppression comment (unused: VL101)"]
    assert codes(run_cli, p, "--select", "VL003") == [], "VL101 is not selected: its suppression may be needed"


def test_unused_blanket_partial_and_unknown(run_cli, project):
    p = project / "a.sh"
    p.write_text("vllm serve m --swap-space 4  # vllm-lint: ignore[VL101]\n"
                 "vllm serve m --swap-space 4  # vllm-lint: ignore[VL101,VL105]\n"
                 "vllm serve m --port 2  # vllm-lint: ignore\n"
                 "vllm serve m --port 3  # vllm-lint: ignore[VL999]\n"
                 "vllm serve m --port 4  # vllm-lint: ignore[VL2]\n")
    r = run_cli("-t", "0.27.1", "--output-format", "json", "--extend-select", "VL003", str(p))
    import json

    got = [(d["code"], d["location"]["row"], d["message"], d["severity"]) for d in json.loads(r.stdout)]
    assert got == [
        ("VL003", 2, "suppression comment names codes it does not need (unused: VL105)", "warning"),
        ("VL003", 3, "unused suppression comment (it suppresses nothing)", "warning"),
        ("VL003", 4, "unused suppression comment (unknown: VL999)", "warning"),
        ("VL003", 5, "unused suppression comment (unused: VL2)", "warning"),
    ]
    # the location is the comment itself
    assert json.loads(r.stdout)[0]["location"]["column"] == 30


def test_codes_of_rules_not_selected_are_left_alone(run_cli, project):
    p = project / "a.sh"
    p.write_text("vllm serve m --port 1  # vllm-lint: ignore[VL201]\n")
    assert codes(run_cli, p, "--select", "VL1,VL003") == []
    assert codes(run_cli, p, "--extend-select", "VL003") == ["VL003 unused suppression comment (unused: VL201)"]


def test_continued_commands_and_block_scalars(run_cli, project):
    p = project / "a.sh"
    p.write_text("# vllm-lint: ignore[VL101]\nvllm serve m \\\n  --port 1 \\\n  --swap-space 4\n"
                 "# vllm-lint: ignore[VL105]\nvllm serve m \\\n  --swap-space 4\n")
    assert codes(run_cli, p, "--extend-select", "VL003") == [
        "VL003 unused suppression comment (unused: VL105)",
        "VL101 [*] `--swap-space` was removed in vLLM 0.27.1 (last accepted by 0.10.0); 0.27.1 rejects it",
    ]
    y = project / "d.yaml"
    y.write_text("apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - image: vllm/vllm-openai:v0.27.1\n"
                 "      command: [sh, -c]\n      args:\n        - |  # vllm-lint: ignore[VL101]\n"
                 "          echo hi\n          vllm serve m \\\n            --swap-space 4\n")
    assert codes(run_cli, y, "--extend-select", "VL003") == []


def test_per_file_ignores_do_not_mark_comments_used(run_cli, project):
    (project / ".vllm-lint.toml").write_text('[per-file-ignores]\n"a.sh" = ["VL101"]\n')
    p = project / "a.sh"
    p.write_text("vllm serve m --swap-space 4  # vllm-lint: ignore[VL101]\n")
    assert codes(run_cli, p) == []
    assert codes(run_cli, p, "--extend-select", "VL003") == ["VL003 unused suppression comment (unused: VL101)"]
