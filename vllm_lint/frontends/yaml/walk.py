"""The walk of one YAML document: which ecosystem reads which part of it.

A document, and within it a collection, is walked only if its bytes mention one of the
pre-filter's words (:class:`_Walk` says when that is sound). Our walks are iterative with a
visited set, so alias bombs (billion laughs) cost one visit per distinct node. String scalars
left over that mention vllm are read as shell command lines (or Markdown with fenced blocks).
"""

from __future__ import annotations

from vllm_lint import container as platforms
from vllm_lint.frontends.yaml import engine_blocks, kubeai, values
from vllm_lint.frontends.yaml.containers import container, idle_image, image_of, image_version, release_node
from vllm_lint.frontends.yaml.hardware import HW_KEYS, hardware_here, hw_merge
from vllm_lint.frontends.yaml.helm import image_from_values, production_stack
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import get, keys, text
from vllm_lint.frontends.yaml.prefilter import mentions
from vllm_lint.frontends.yaml.text import YamlText, stated_env
from vllm_lint.launch import Hardware
from vllm_lint.record import replace

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_CONTAINER_LISTS = ("containers", "initContainers")
_KUBERNETES, _COMPOSE = platforms.platform("kubernetes"), platforms.platform("compose")
# keys only a compose service has (no Kubernetes container, chart value or platform config uses them)
_COMPOSE_ONLY_KEYS = frozenset({"container_name", "restart", "ipc", "shm_size", "depends_on", "runtime",
                                "healthcheck", "deploy", "ulimits", "network_mode"})
_VALUES_ROWS = tuple(p for p in platforms.PLATFORMS if p.found == "values")
# the readers of one platform's parts, imported when a document holds their marker (a Deployment
# or a compose file holds none): KServe's LLMInferenceService by its kind (:mod:`.llmisvc`), a
# RayService's serveConfigV2 (YAML inside a string) by its key and ray.serve.llm's engine_kwargs
# by its bytes (:mod:`.ray`), a LeaderWorkerSet's group size by its `size` key (:mod:`.lws`)
_LLMISVC_KIND = "LLMInferenceService"
_RAY_SERVE_CONFIG = "serveConfigV2"
# and the readers of a whole document known by its root's keys, imported for a document with one:
# a task runner's (:mod:`.tasks`: SkyPilot's `run` / `setup`, dstack's `commands`), a recipe's
# (:mod:`.recipes`: a `model` mapping), cloud-init's (:mod:`.cloud_init`: its command lists)
_TASK_KEYS = frozenset(("run", "setup", "commands"))
_CLOUD_INIT_KEYS = ("runcmd", "bootcmd")
# CI files' readers (:mod:`.ci`): GitHub Actions' by a root's `jobs`, GitLab CI's by a root without
# a `kind` (a Kubernetes object is no pipeline); a container configured by variables
# (:mod:`.env_options`, SageMaker's SM_VLLM_*) by a key of its block (env_options.ENV_KEYS)
_ENV_OPTION_KEYS = frozenset(k for row in platforms.ENV_OPTIONS for k in row.env_keys)


def walk_document(t: YamlText, root: Any) -> None:
    """Record the launches of document ``root`` of ``t``."""
    s0 = t.pos(root.start_mark.index)
    e0 = t.pos(root.end_mark.index)
    if not mentions(t.as_written()[1], s0, max(e0, s0 + 1)) and not (t.regions and t.values) \
            and not t.holds(b"argoproj.io"):
        return  # nothing in this document mentions vLLM (a chart's template: its values may; an Argo CD Application: its chart)
    if not isinstance(root, MappingNode):
        if isinstance(root, SequenceNode):
            walk = _Walk(t, None, None)
            walk.run(root, Hardware())
            _blocks(t, walk, {})
        return
    top = keys(root)  # the root's keys as get finds them (the first of duplicates)
    kind = text(top.get("kind"))
    if kind == "Application" and "spec" in top:  # (Argo CD's: the charts of its repository it renders)
        from vllm_lint.frontends.yaml import argocd

        if argocd.is_application(top) and argocd.read(t, root):
            return
    start = len(t.out.launches)
    doc_hw, doc_env = Hardware(), []
    if _TASK_KEYS.intersection(top):
        from vllm_lint.frontends.yaml import tasks

        doc_hw, doc_env = tasks.task_context(t, top)
    scopes = len(t.env_scopes)
    whole = t.node_span(root)
    if doc_env and whole is not None:  # a task's `envs` / `env`: the environment of its scripts
        # (dstack's `commands` run in one shell, each line read on its own: a name a line assigns
        # is not the stated value in the lines after it)
        commands = top.get("commands")
        drop = frozenset()
        if isinstance(commands, SequenceNode):
            from vllm_lint.frontends.yaml import ci

            drop = ci.assigned_names(t, commands)
        t.env_scopes.append((whole.start, whole.end, stated_env(doc_env, drop)))
    github = False
    if "jobs" in top:
        from vllm_lint.frontends.yaml import ci

        github = ci.is_github_workflow(top)
    if not github and t.holds(b"variables"):  # (GitLab's stated environment: its `variables`)
        from vllm_lint.frontends.yaml import ci

        ci.gitlab_scopes(t, root)
    # production-stack values
    pse = top.get("servingEngineSpec")
    if isinstance(pse, MappingNode):
        production_stack(t, pse)
    if kind == _LLMISVC_KIND:
        from vllm_lint.frontends.yaml import llmisvc

        llmisvc.read(t, root)
    if "model" in top:
        from vllm_lint.frontends.yaml import recipes

        if recipes.is_recipe(top):
            recipes.read(t, top)
    # the platforms whose document is one container, known by a key of its root (a truss config.yaml)
    for row in platforms.PLATFORMS:
        if row.found == "root" and isinstance(top.get(row.marker), MappingNode):
            container(t, root, Hardware(), row, kind=kind)
    # GitHub Actions: env of workflow/job/step for each run
    if github:
        ci.github(t, root, top.get("jobs"))
    if any(k in top for k in _CLOUD_INIT_KEYS):
        from vllm_lint.frontends.yaml import cloud_init

        if cloud_init.is_cloud_config(top):
            cloud_init.read(t, top)
    if t.holds(b"ServingRuntime"):  # (a runtime, or a Template's: ``kserve`` reads the kinds)
        from vllm_lint.frontends.yaml import kserve

        t.vllm_runtimes.update(kserve.vllm_runtime_containers(root))
    walk = _Walk(t, kind, top.get("services"))
    walk.run(root, Hardware())
    if t.holds(b"engine_kwargs"):
        from vllm_lint.frontends.yaml import ray

        ray.serve_llm(t, root, Hardware())
    _blocks(t, walk, top)
    if not github and "kind" not in top and len(t.out.launches) > start:
        from vllm_lint.frontends.yaml import ci

        ci.gitlab(t, root, start)
    del t.env_scopes[scopes:]
    # a SkyPilot task's container: the image its run and setup scripts run in
    task = None
    if doc_hw.source == "skypilot" or ("run" in top and "resources" in top):
        from vllm_lint.frontends.yaml import tasks

        task = tasks.task_container(t, top, doc_hw, doc_env)
    if len(t.out.launches) > start and t.holds(b"runtime-version"):
        from vllm_lint.frontends.yaml import kserve

        kserve.runtime_versions(t, root, t.out.launches[start:])
    for la in t.out.launches[start:]:
        if doc_hw.source:
            la.hardware = hw_merge(doc_hw, la.hardware)
        if doc_env:
            la.env = list(doc_env) + la.env
        if task is not None and la.container is None and la.image is None and task.holds(la.span.start):
            # (a `docker run` in the script runs its own image: only the task's own commands run in it)
            box = task.container
            la.container = box
            la.version_hints = list(box.version_hints) + la.version_hints
            la.take_context({"image": box.run_image, "script_span": box.span})


def _blocks(t: YamlText, walk: "_Walk", top: dict[str, Any]) -> None:
    """The launches of the blocks of vLLM options a walk met that no other reader took (``top``:
    the document root's keys)."""
    entry = engine_blocks.runner_entry(top)
    operator = engine_blocks.custom_resource(top)
    # a launcher's recipe names its image once, elsewhere in the document (`model.container`)
    only = {n.value for n in walk.images}
    doc_versions = image_version(t, walk.images[0].value, walk.images[0], False) if len(only) == 1 else []
    for key, node, parent_km, beside, versions, hw in walk.blocks:
        for la in engine_blocks.block_launches(t, key, node, parent_km, beside, versions or doc_versions, entry,
                                               operator):
            la.hardware = hw_merge(hw, la.hardware)
            t.out.launches.append(la)


class _Walk:
    """One walk of a node tree: containers, compose services, command mappings, hardware and
    image tags inherited downwards, strings that mention vllm.

    A collection whose bytes (as written: template text included) mention none of the
    pre-filter's words holds no launch: every launch needs one (see
    :func:`~.prefilter.might_contain_launch`), and what the walk takes from a collection
    (hardware, image tag) only reaches launches inside it. This holds when every node lies
    within its parent's bytes, i.e. without aliases (a ``*``), and when values are spelled as
    written: a backslash (an escape in a double-quoted string) may spell anything.
    """

    def __init__(self, t: YamlText, kind: Optional[str], compose_root: Any):
        self.t = t
        self.kind = kind
        self.compose_root = compose_root
        self.seen: set[int] = set()
        # (node, inherited hardware, parent key, inherited version hints, the nearest enclosing
        # mapping that sets an image: a chart's values set it once for the component below)
        self.stack: list[tuple[Any, Hardware, Optional[str], list, Any]] = []
        self.strings: list[tuple[Any, Hardware, list]] = []
        # mappings that may be another tool's block of vLLM options (engine_blocks), read last
        self.blocks: list[tuple[Optional[str], Any, dict, bool, list, Hardware]] = []
        self.images: list[Any] = []  # the vLLM images the document names as strings at a launcher's image keys
        # (a chart template rendered from its values may name vLLM where its bytes do not)
        self.prune = not t.holds(b"*") and not (t.regions and t.values)
        self.raw, self.low = t.as_written()

    def holds_none(self, n: Any) -> bool:
        """Whether node ``n`` can be skipped (see the class)."""
        if not self.prune:
            return False
        pos = self.t.pos
        s, e = pos(n.start_mark.index), pos(n.end_mark.index)
        return not mentions(self.low, s, e) and self.raw.find(b"\\", s, e) < 0

    def run(self, root: Any, hw0: Hardware) -> None:
        self.stack.append((root, hw0, None, [], None))
        stack, seen = self.stack, self.seen
        while stack:
            node, hw, pkey, vers, holder = stack.pop()
            if id(node) in seen:
                continue
            seen.add(id(node))
            if isinstance(node, ScalarNode):
                if node.tag == "tag:yaml.org,2002:str" and "vllm" in node.value:
                    self.strings.append((node, hw, vers))
                continue
            if holder is None and self.holds_none(node):
                continue  # (below a vLLM image, a chart's arguments need not mention vLLM)
            if isinstance(node, SequenceNode):
                self._sequence(node, hw, pkey, vers, holder)
            elif isinstance(node, MappingNode):
                self._mapping(node, hw, pkey, vers, holder)
        self._strings()

    def _sequence(self, node: Any, hw: Hardware, pkey: Optional[str], vers: list, holder: Any) -> None:
        if pkey in _CONTAINER_LISTS:
            for item in node.value:
                if isinstance(item, MappingNode) and id(item) not in self.seen:
                    self.seen.add(id(item))
                    if self.holds_none(item):
                        continue
                    if id(item) not in self.t.consumed:  # (read already: KServe's LLMInferenceService)
                        container(self.t, item, hw, _KUBERNETES, kind=self.kind)
                    img = get(item, "image")
                    if isinstance(img, ScalarNode) and values.holds_vllm(img.value):
                        self.images.append(img)  # (what runs a block of options beside it: an operator's)
                    for _k, v in item.value:
                        self.stack.append((v, hw, None, vers, None))
            return
        for item in node.value:
            self.stack.append((item, hw, pkey, vers, holder))

    def _mapping(self, node: Any, hw: Hardware, pkey: Optional[str], vers: list, holder: Any) -> None:
        t = self.t
        km = {k.value: v for k, v in node.value if isinstance(k, ScalarNode)}
        hw2 = _hardware(node, km, hw) if HW_KEYS.intersection(km) else hw
        if self.compose_root is not None and node is self.compose_root:
            self._compose_services(node, hw2, vers)
            return
        if _ENV_OPTION_KEYS.intersection(km):  # (a container configured by variables: SM_VLLM_*)
            from vllm_lint.frontends.yaml import env_options

            env_options.read(t, km)
        sc = km.get(_RAY_SERVE_CONFIG)  # YAML inside a string
        if isinstance(sc, ScalarNode):
            from vllm_lint.frontends.yaml import ray

            ray.serve_config(t, sc, hw2, walk_document)
        if "image" in km or "repository" in km:  # (an image of another program ends the inheritance)
            holder = node if _VALUES_ROWS and values.runs_vllm(image_of(node, _VALUES_ROWS[0])[0]) else None
        found = False
        if pkey not in _CONTAINER_LISTS and "image" in km and ("command" in km or "entrypoint" in km) \
                and _COMPOSE_ONLY_KEYS.intersection(km) and not (pkey or "").startswith("x-") \
                and not self._in_services(node):
            # a compose service shown without its file's `services:` (a guide's fragment): compose's
            # keys say whose `command` it is (the image's arguments, not its program)
            found = container(t, node, hw2, _COMPOSE)
        if not found and pkey not in _CONTAINER_LISTS and ("command" in km or "args" in km or kubeai.is_vllm_model(km)):
            found = container(t, node, hw2, _KUBERNETES, kind=self.kind)
        if not found and pkey not in _CONTAINER_LISTS and "command" not in km:
            for row in _VALUES_ROWS:  # a chart's values: a vLLM image, and arguments for it
                key = values.args_key(row, km)
                if key is None and holder is not None:
                    key = values.default_args_key(row, km, keys(holder))
                if key is not None and not values.read_already(t, km[key]):
                    container(t, node, hw2, replace(row, args=(key,)), kind=self.kind, image_holder=holder)
                    break
        img = km.get("image")
        if isinstance(img, ScalarNode) and pkey not in _CONTAINER_LISTS:
            # an untagged image with its tag beside it (KServe's values: image: ..., tag: ...; llmaz's
            # BackendRuntime: image: ..., version: v0.6.0)
            where = release_node(node, img, img.value)
            vers = image_version(t, img.value, where, "${" in img.value) or vers
            idle_image(t, img.value, where, "${" in img.value)
        elif isinstance(img, MappingNode) and pkey not in _CONTAINER_LISTS:
            idle_image(t, image_from_values(img), img, False)  # Helm values: image: {repository, tag}
            # (its release, for the blocks of settings beside it: a chart's camelCase engine values)
            vers = image_version(t, image_from_values(img), img, False) or vers
        sibling_image = engine_blocks.sibling_image(km)  # (`container: vllm/vllm-openai:...` beside a block)
        if sibling_image is not None and values.holds_vllm(sibling_image.value):
            self.images.append(sibling_image)
        for k, v in node.value:
            key = text(k)
            if isinstance(v, MappingNode) and pkey not in _CONTAINER_LISTS:
                # another tool's block of vLLM options (a benchmark's `vllm_config:`, `engine_args:`)
                own, own_node = image_of(v, _VALUES_ROWS[0]) if _VALUES_ROWS and "image" in keys(v) else (None, None)
                # (the block's tool runs vLLM in the image by its own command: an image that holds
                # vLLM, whatever its entrypoint starts, NGC's and ROCm's included)
                own_vllm = values.holds_vllm(own)
                if not own_vllm and sibling_image is not None:
                    own, own_node = sibling_image.value, sibling_image
                    own_vllm = values.holds_vllm(own)
                block_vers = (image_version(t, own, own_node, False) if own_vllm else None) or vers
                # (read after the document's own readers, which may know the block: Ray's engine_kwargs)
                self.blocks.append((key, v, km, holder is not None or own_vllm, block_vers, hw2))
            if key is not None and key.endswith(".py") and isinstance(v, ScalarNode) and "vllm" in v.value:
                for la in t.python_launches(v):  # a ConfigMap's Python file (a Ray Serve app)
                    la.hardware = hw_merge(hw2, la.hardware)
                continue
            self.stack.append((k, hw2, None, vers, holder))
            self.stack.append((v, hw2, key, vers, holder))

    def _in_services(self, node: Any) -> bool:
        """Whether ``node`` is one of the document's compose services (read there already)."""
        services = self.compose_root
        return isinstance(services, MappingNode) and any(v is node for _k, v in services.value)

    def _compose_services(self, node: Any, hw: Hardware, vers: list) -> None:
        for _k, svc in node.value:
            if isinstance(svc, MappingNode) and id(svc) not in self.seen:
                self.seen.add(id(svc))
                if self.holds_none(svc):
                    continue
                container(self.t, svc, hw, _COMPOSE)
                for _k2, v in svc.value:
                    self.stack.append((v, hw, None, vers, None))

    def _strings(self) -> None:
        t = self.t
        for s, hw, vers in self.strings:
            if id(s) in t.consumed:
                continue
            for la in t.string_launches(s):
                la.hardware = hw_merge(hw, la.hardware)
                if vers:
                    la.version_hints = list(vers) + la.version_hints


def _hardware(node: Any, km: dict[str, Any], hw: Hardware) -> Hardware:
    """The hardware a mapping (its keys ``km``) states, over the inherited ``hw``."""
    here = hardware_here(node)
    if "size" in km:
        from vllm_lint.frontends.yaml import lws

        size = lws.group_size(km)
        if size is not None:
            here.nodes = size
    kubeai.resource_profile(here, text(km.get("resourceProfile")))
    return hw_merge(hw, here)
