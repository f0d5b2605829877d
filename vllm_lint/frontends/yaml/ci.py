"""CI systems: GitHub Actions ``jobs.*.steps[].run`` (with workflow, job and step ``env``) and
GitLab CI ``script`` lists (with global and job ``variables``, the job's or ``default`` image).
GitLab ``extends`` / ``!reference`` are not followed (a job's inherited ``variables`` are not
seen)."""

from __future__ import annotations

from vllm_lint.frontends.yaml.containers import image_version
from vllm_lint.frontends.yaml.env import compose_env
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode
from vllm_lint.frontends.yaml.nodes import get, seq, text
from vllm_lint.frontends.yaml.text import YamlText, stated_env
from vllm_lint.launch import EnvAssign
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

# top-level GitLab CI keywords that are not jobs
_GITLAB_GLOBAL = frozenset({"stages", "variables", "default", "include", "workflow", "image",
                            "services", "before_script", "after_script", "cache", "types"})
# keys only GitLab CI jobs (or the file) carry, to tell a CI file from other YAML with `script`
_GITLAB_MARKS = frozenset({"stage", "extends", "rules", "only", "except", "needs", "artifacts",
                           "tags", "when", "allow_failure", "dependencies", "interruptible", "trigger"})


def is_github_workflow(top: dict[str, Any]) -> bool:
    """Whether a document's top-level keys are a GitHub Actions workflow's."""
    return isinstance(top.get("jobs"), MappingNode) and top.get("on") is not None


def github(t: YamlText, root: Any, jobs: Any) -> None:
    """The launches of a workflow's ``run`` steps, with the environment each step sees."""
    wf_env = compose_env(t, get(root, "env"))
    for _k, job in jobs.value:
        job_env = compose_env(t, get(job, "env"))
        for step in seq(get(job, "steps")):
            run = get(step, "run")
            if not isinstance(run, ScalarNode) or id(run) in t.consumed:
                continue
            env = wf_env + job_env + compose_env(t, get(step, "env"))
            launches = t.string_launches(run, stated_env(env, _set_at_run(t, job)))
            for la in launches:
                la.env = env + la.env
                la.context.setdefault("step", text(get(step, "name")) or "")


def _set_at_run(t: YamlText, node: Any) -> frozenset:
    """The names a job's steps may set for the steps after them (``echo "NAME=..." >>
    "$GITHUB_ENV"``): written ``NAME=`` in a job that mentions that file. Their stated values are
    not the values a later script sees."""
    body = t.data[t.pos(node.start_mark.index):t.pos(node.end_mark.index)]
    if b"GITHUB_ENV" not in body:
        return frozenset()
    return frozenset(m.group(1).decode() for m in _NAME_SET.finditer(body))


class _Everything(frozenset):
    def __contains__(self, item: object) -> bool:
        return True


_ALL = _Everything()
_NAME_SET = lazy_re(rb"([A-Za-z_][A-Za-z0-9_]*)=")


def gitlab_scopes(t: YamlText, root: Any) -> None:
    """A GitLab CI document's job scripts see the global ``variables`` and the job's own (a job
    that ``extends`` another sees the other's over the global ones: its own only); a dotenv report
    (``artifacts: reports: dotenv``) may set any of them for later jobs."""
    jobs = _gitlab_jobs(root, t.path)
    if jobs is None:
        return
    dotenv = t.holds(b"dotenv")
    glob_env = gitlab_env(t, get(root, "variables"))
    # (a job's script lines run in one shell, each read on its own: a name one of them, or the
    # file's default `before_script`, assigns is not the stated value in the lines after it)
    shared = assigned_names(t, get(root, "before_script")) | assigned_names(t, get(root, "after_script")) \
        | assigned_names(t, get(root, "default"))
    for job in jobs:
        sp = t.node_span(job)
        if sp is None:
            continue
        env = ([] if get(job, "extends") is not None else list(glob_env)) + gitlab_env(t, get(job, "variables"))
        if env:
            drop = _ALL if dotenv else shared | assigned_names(t, job)
            t.env_scopes.append((sp.start, sp.end, stated_env(env, drop)))


def assigned_names(t: YamlText, node: Any) -> frozenset:
    """The names written ``NAME=`` in a node's bytes (the lines of a command list, which one shell
    runs one after the other)."""
    if node is None:
        return frozenset()
    body = t.data[t.pos(node.start_mark.index):t.pos(node.end_mark.index)]
    return frozenset(m.group(1).decode() for m in _NAME_SET.finditer(body))


def gitlab(t: YamlText, root: Any, start: int) -> None:
    """GitLab CI: global ``variables`` and each job's own ``variables`` are the environment of
    the launches in its ``script`` / ``before_script`` / ``after_script``; a job's image given
    as ``image: {name: ...}`` or inherited from ``default: image`` names the release."""
    if len(t.out.launches) == start:
        return
    jobs = _gitlab_jobs(root, t.path)
    if jobs is None:
        return
    glob_env = gitlab_env(t, get(root, "variables"))
    default_image = get(get(root, "default"), "image") or get(root, "image")
    ranges = []
    for job in jobs:
        sp = t.node_span(job)
        if sp is not None:
            ranges.append((sp, job))
    for la in t.out.launches[start:]:
        job = next((j for sp, j in ranges if sp.start <= la.span.start < sp.end), None)
        env = list(glob_env)
        if job is not None:
            env += gitlab_env(t, get(job, "variables"))
            if not la.version_hints:
                img = get(job, "image") or default_image
                name = get(img, "name") if isinstance(img, MappingNode) else img
                if isinstance(name, ScalarNode):
                    la.version_hints = image_version(t, name.value, name, False)
        if env:
            la.env = env + la.env


def gitlab_env(t: YamlText, node: Any) -> list[EnvAssign]:
    """GitLab ``variables``: ``NAME: value`` or ``NAME: {value: ..., description: ...}``."""
    if not isinstance(node, MappingNode):
        return []
    out: list[EnvAssign] = []
    for k, v in node.value:
        if isinstance(v, MappingNode):
            val = get(v, "value")
            if not isinstance(val, ScalarNode):
                continue
            one = compose_env(t, MappingNode("tag:yaml.org,2002:map", [(k, val)]))
            for ea in one:
                ea.delete_span = None  # the key's mapping holds more than the value
            out.extend(one)
        else:
            out.extend(compose_env(t, MappingNode("tag:yaml.org,2002:map", [(k, v)])))
    return out


def _gitlab_jobs(root: Any, path: str) -> Optional[list]:
    """The job mappings of a GitLab CI document, or None when it does not look like one."""
    if not isinstance(root, MappingNode) or get(root, "kind") is not None:
        return None
    jobs = []
    marked = "gitlab-ci" in path.rsplit("/", 1)[-1].lower() or any(
        get(root, k) is not None for k in ("stages", "workflow", "include"))
    for k, v in root.value:
        key = text(k)
        if not key or key in _GITLAB_GLOBAL or not isinstance(v, MappingNode):
            continue
        keys = {text(kk) for kk, _v in v.value}
        if keys & {"script", "before_script", "after_script"}:
            jobs.append(v)
            marked = marked or bool(keys & _GITLAB_MARKS)
    return jobs if jobs and marked else None
