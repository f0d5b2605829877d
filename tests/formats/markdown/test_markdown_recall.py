"""Markdown launches read where they live (issue 17): console blocks without prompts, blocks
indented in lists / admonitions / mkdocs tabs (dedented before parsing), untagged fences sniffed
by content, Markdown embedded in a YAML string, documentation placeholders as opaque words, and
broken continuations in `$ ` blocks. Findings at exact line and column; fixes as exact bytes."""

from __future__ import annotations

import json

from vllm_lint.frontends import markdown as M
from vllm_lint.frontends import doc_commands
from span_invariants import check_spans


def lint(run_cli, path, *extra):
    r = run_cli("--output-format", "json", "-t", "0.27.1", *extra, str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["location"]["column"]) for d in json.loads(r.stdout)]


def fixed(run_cli, path) -> bytes:
    r = run_cli("-t", "0.27.1", "--fix", str(path))
    assert r.exit_code in (0, 1), r.output
    return path.read_bytes()


def test_a_console_block_without_prompts_is_read_as_commands(run_cli, tmp_path):
    p = tmp_path / "a.md"
    p.write_text("```console\nvllm serve m --swap-space 4\n```\n")
    assert lint(run_cli, p) == [("VL101", 2, 14)]
    assert fixed(run_cli, p) == b"```console\nvllm serve m\n```\n"


def test_a_yaml_block_indented_in_an_admonition_is_dedented(run_cli, tmp_path):
    p = tmp_path / "a.md"
    p.write_text(
        "!!! note\n"
        "    ```yaml\n"
        "    ---\n"
        "    apiVersion: v1\n"
        "    kind: Pod\n"
        "    spec:\n"
        "      containers:\n"
        "        - name: vllm\n"
        "          image: vllm/vllm-openai:latest\n"
        "          args:\n"
        "            - --swap-space\n"
        "            - \"4\"\n"
        "            - --port\n"
        "            - \"8000\"\n"
        "    ```\n")
    assert lint(run_cli, p) == [("VL101", 11, 15)]  # was: "cannot parse" (the `---` indented)
    new = fixed(run_cli, p).decode()
    assert "          args:\n            - --port\n            - \"8000\"\n    ```\n" in new
    assert "swap-space" not in new


def test_blocks_in_list_items_and_mkdocs_tabs(run_cli, tmp_path):
    p = tmp_path / "a.md"
    p.write_text(
        "1. Start it:\n"
        "\n"
        "    ```bash\n"
        "    vllm serve m \\\n"
        "        --swap-space 4 \\\n"
        "        --port 8000\n"
        "    ```\n"
        "\n"
        "=== \"Docker\"\n"
        "\n"
        "    ```dockerfile\n"
        "    FROM vllm/vllm-openai:latest\n"
        "    CMD [\"--swap-space\", \"4\"]\n"
        "    ```\n")
    assert lint(run_cli, p) == [("VL101", 5, 9), ("VL101", 13, 10)]
    new = fixed(run_cli, p).decode()
    assert "    vllm serve m \\\n        --port 8000\n" in new


def test_untagged_fences_are_sniffed_by_content():
    data = (b"```\nFROM vllm/vllm-openai:v0.8.5\nCMD [\"--swap-space\", \"4\"]\n```\n\n"
            b"```\napiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai:v0.8.5\n"
            b"    args: [--port, \"8000\"]\n```\n\n"
            b"```text\nfrom vllm import LLM\nllm = LLM(model=\"m\", swap_space=4)\n```\n\n"
            b"```\n$ vllm serve m --port 1\nINFO: started\n```\n")
    ex = M.extract(data, "a.md")
    check_spans(data, ex)
    assert [la.entry for la in ex.launches] == ["docker:vllm/vllm-openai:v0.8.5", "docker:vllm/vllm-openai:v0.8.5",
                                                "LLM", "vllm serve"]
    assert [t.text for t in ex.launches[3].tokens] == ["m", "--port", "1"]


def test_placeholders_are_opaque_words_and_the_options_around_them_are_checked(run_cli, tmp_path):
    p = tmp_path / "a.md"
    p.write_text("```bash\n"
                 "vllm serve <model> --swap-space 4\n"
                 "vllm serve {{model}} [options] --swap-space 4\n"
                 "vllm serve m ... --swap-space 4 --model=<path/to/model>\n"
                 "```\n")
    assert lint(run_cli, p) == [("VL101", 2, 20), ("VL101", 3, 32), ("VL101", 4, 18)]
    ex = M.extract(p.read_bytes(), "a.md")
    first, second, third = ex.launches
    assert first.tokens[0].opaque and first.tokens[0].text_span is None and not first.tokens[0].splat
    assert [t.splat for t in second.tokens] == [False, True, False, False]
    assert third.tokens[1].splat and third.tokens[-1].opaque
    # a placeholder is never rewritten
    assert fixed(run_cli, p) == (b"```bash\nvllm serve <model>\nvllm serve {{model}} [options]\n"
                                 b"vllm serve m ... --model=<path/to/model>\n```\n")


def test_a_placeholder_value_in_a_yaml_block_is_opaque():
    data = b"```yaml\ncommand: [vllm, serve, <model>, --max-model-len, \"<len>\"]\n```\n"
    (la,) = M.extract(data, "a.md").launches
    assert [(t.text, t.opaque) for t in la.tokens][-3:] == [("<model>", True), ("--max-model-len", False),
                                                           ("<len>", True)]


def test_redirections_and_heredocs_are_no_placeholders():
    filled, regions = doc_commands.fill(b"cat <<EOF > config.yaml\nvllm serve m < in.txt 2>&1 >out.log\n")
    assert regions == []


def test_broken_continuations_in_prompt_blocks_are_reported(run_cli, tmp_path):
    p = tmp_path / "a.md"
    p.write_text("```console\n"
                 "$ vllm serve m \\ \n"
                 "    --swap-space 4\n"
                 "```\n\n"
                 "```console\n"
                 "$ vllm serve m \\\n"
                 "\n"
                 "    --port 8000\n"
                 "Serving on port 8000\n"
                 "```\n")
    assert lint(run_cli, p) == [("VL109", 3, 5), ("VL109", 9, 5)]


def test_a_blank_line_after_a_continuation_ends_the_command_in_a_shell_script(run_cli, tmp_path):
    p = tmp_path / "a.sh"
    p.write_text("vllm serve m \\\n\n  --port 8000\n")
    assert lint(run_cli, p) == [("VL109", 3, 3)]


def test_markdown_in_a_yaml_string_is_read(run_cli, tmp_path):
    p = tmp_path / "recipe.yaml"
    p.write_text("meta:\n"
                 "  title: demo\n"
                 "model:\n"
                 "  model_id: org/m\n"
                 "guide: |\n"
                 "  ## Serve\n"
                 "\n"
                 "  ```bash\n"
                 "  vllm serve org/m \\\n"
                 "    --swap-space 4 \\\n"
                 "    --port 8000\n"
                 "  ```\n")
    # named on the command line, a recipe is not read as a vLLM --config file (its model is a mapping)
    assert lint(run_cli, p) == [("VL101", 10, 5)]
    new = fixed(run_cli, p).decode()
    assert new.endswith("  vllm serve org/m \\\n    --port 8000\n  ```\n")


def test_commands_inline_in_the_prose_are_read_and_mentions_are_not(run_cli, tmp_path):
    p = tmp_path / "a.md"
    p.write_text("Serve it with `vllm serve org/m --swap-space 4` or `vllm serve <model> --port 1`.\n"
                 "See `vllm serve --help` and the `vllm serve` page.\n")
    assert [[t.text for t in la.tokens] for la in M.extract(p.read_bytes(), "a.md").launches] == [
        ["org/m", "--swap-space", "4"], ["_model_", "--port", "1"]]
    assert lint(run_cli, p) == [("VL101", 1, 33)]


def test_a_python_snippet_without_its_import_is_read():
    data = b"```python\nllm = LLM(model=\"m\", swap_space=4)\n```\n"
    (la,) = M.extract(data, "a.md").launches
    assert la.entry == "LLM" and [k.key for k in la.keyed] == ["model", "swap_space"]


def test_an_elided_manifest_parses():
    data = (b"```yaml\n...\nspec:\n  containers:\n    - image: vllm/vllm-openai:latest\n"
            b"      args: [--port, \"1\"]\n...\n```\n")
    ex = M.extract(data, "a.md")
    assert not ex.notes and [t.text for t in ex.launches[0].tokens] == ["--port", "1"]


def test_a_prose_command_line_is_read_a_sentence_is_not():
    data = (b"Run:\n\ndocker run --gpus all vllm/vllm-openai:v0.27.1 --model m --max-num-seqs 8\n\n"
            b"vllm serve is the command; pass --port to move it.\n\n"
            b"   $ vllm serve m --port 1\n\n"
            b"docker run --rm alpine echo --x\n\n"  # no vLLM: nothing
            b"Use `vllm serve m --port 2` inline.\n")
    ex = M.extract(data, "README.md")
    check_spans(data, ex)
    assert sorted([t.text for t in la.tokens] for la in ex.launches) == [
        ["--model", "m", "--max-num-seqs", "8"], ["m", "--port", "1"], ["m", "--port", "2"]]


def test_crlf_line_ends_of_a_document_do_not_break_its_continuations(run_cli, tmp_path):
    p = tmp_path / "guide.md"
    p.write_bytes(b"# Guide\r\n\r\n```bash\r\ndocker run --gpus all \\\r\n  vllm/vllm-openai:v0.27.1 \\\r\n"
                  b"  --model m --swap-space 4\r\n```\r\n")
    ex = M.extract(p.read_bytes(), str(p))
    (la,) = ex.launches
    assert [t.text for t in la.tokens] == ["--model", "m", "--swap-space", "4"]
    assert ("VL101", 6, 13) in lint(run_cli, p) and not any(c == "VL109" for c, _r, _c in lint(run_cli, p))


def test_an_image_one_block_builds_from_vllms_dockerfile_is_run_by_a_later_block():
    data = (b"Build:\n\n```bash\nnvidia-docker build . -f Dockerfile --target vllm-openai --tag vllm\n```\n\n"
            b"Run:\n\n```bash\nnvidia-docker run -d --gpus all --name vllm vllm \\\n    --model=m --max-model-len 2000\n```\n")
    ex = M.extract(data, "README.md")
    check_spans(data, ex)
    (la,) = ex.launches
    assert [t.text for t in la.tokens] == ["--model=m", "--max-model-len", "2000"]
    assert la.version_hints == [] and "`vllm-openai` stage of vLLM's own Dockerfile" in la.read_as


def test_prose_at_the_end_of_a_documented_command_stands_for_more_options():
    data = (b"```bash\ndocker run --rm vllm/vllm-openai:v0.27.1 \\\n    org/model \\\n    --dtype=bfloat16 \\\n"
            b"    other vLLM OpenAI server arguments\n```\n")
    (la,) = M.extract(data, "README.md").launches
    assert la.opaque and [t.text for t in la.tokens][:2] == ["org/model", "--dtype=bfloat16"]
    assert all(t.opaque and t.splat for t in la.tokens[2:])
