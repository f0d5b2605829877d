"""A compose service built from a local Dockerfile: the final stage's FROM names the release and,
unless the Dockerfile sets its own ENTRYPOINT, the program that takes the service's command."""

from __future__ import annotations

import json

from vllm_lint.frontends import yaml as Y

COMPOSE = """\
services:
  vllm:
    build:
      context: ./server
      args:
        VLLM_TAG: v0.10.2
    command: ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "8192"]
    environment: [VLLM_LOGGING_LEVEL=DEBUG]
"""
DOCKERFILE = """\
ARG VLLM_TAG=v0.8.5
FROM vllm/vllm-openai:${VLLM_TAG} AS base
RUN pip install --no-cache-dir flashinfer-python
FROM base
COPY chat_template.jinja /templates/
"""


def _project(tmp_path, compose=COMPOSE, dockerfile=DOCKERFILE):
    (tmp_path / "server").mkdir(exist_ok=True)
    (tmp_path / "server" / "Dockerfile").write_text(dockerfile)
    c = tmp_path / "docker-compose.yml"
    c.write_text(compose)
    return c


def test_the_final_stage_base_names_the_release_and_runs_the_command(tmp_path):
    c = _project(tmp_path)
    data = c.read_bytes()
    (la,) = Y.extract(data, str(c)).launches
    assert la.entry == "docker:vllm/vllm-openai:v0.10.2"  # build.args win over the ARG default
    (vh,) = la.version_hints
    assert (vh.version, vh.source) == ("v0.10.2", "dockerfile-from")
    assert data[vh.span.start:vh.span.end].startswith(b"context: ./server")
    assert [t.text for t in la.tokens] == ["--model", "Qwen/Qwen2.5-7B-Instruct", "--max-model-len", "8192"]


def test_an_entrypoint_of_its_own_keeps_the_release_but_not_the_program(tmp_path):
    c = _project(tmp_path, compose=COMPOSE.replace("command: [", "command: [vllm, serve, "),
                 dockerfile=DOCKERFILE + 'ENTRYPOINT ["/entrypoint.sh"]\n')
    (la,) = Y.extract(c.read_bytes(), str(c)).launches
    assert la.entry == "vllm serve" and "image" not in la.context
    assert [v.version for v in la.version_hints] == ["v0.10.2"]


def test_inline_dockerfile_and_a_missing_one(tmp_path):
    inline = COMPOSE.replace("      context: ./server\n", "      dockerfile_inline: |\n"
                             "        FROM vllm/vllm-openai:v0.9.2\n")
    c = tmp_path / "docker-compose.yml"
    c.write_text(inline)
    (la,) = Y.extract(c.read_bytes(), str(c)).launches
    assert [v.version for v in la.version_hints] == ["v0.9.2"]
    c.write_text(COMPOSE.replace("command: [", "command: [vllm, serve, "))  # no ./server/Dockerfile
    (la,) = Y.extract(c.read_bytes(), str(c)).launches
    assert la.version_hints == [] and la.entry == "vllm serve"


def test_the_cache_follows_the_dockerfile(run_cli, tmp_path, monkeypatch):
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.setenv("VLLM_LINT_CACHE_DIR", str(tmp_path / "cache"))
    c = _project(tmp_path, compose=COMPOSE.replace("v0.10.2", "v0.27.1").replace('"8192"]', '"8192", "--swap-space", "4"]'))

    def codes():
        out = run_cli("--output-format", "json", "--select", "VL101", str(c)).output
        return sorted(d["code"] for d in json.loads(out))

    assert codes() == ["VL101"]
    assert codes() == ["VL101"]  # answered by the cache
    (tmp_path / "server" / "Dockerfile").write_text(DOCKERFILE.replace("FROM base", "FROM vllm/vllm-openai:v0.8.5"))
    assert codes() == []  # the compose file is unchanged; the release it runs is not
