"""Container-like mappings: Kubernetes ``containers``/``initContainers`` items, compose services,
any mapping with ``command``/``args`` (Helm values, KubeAI ``Model``, KServe predictors) and the
other platforms of :data:`vllm_lint.container.PLATFORMS` (a Baseten truss ``config.yaml``), read
at the keys their row names into a :class:`vllm_lint.container.Container` (``Launch.container``),
from which the launch's image, environment, hardware and version hints are filled.

A container's ``command`` + ``args`` are matched with :func:`commands.find_vllm_command`;
``sh -c``/``bash -c`` scripts go to the shell front-end through the scalar's embedding; a vLLM
image with ``args`` and no ``command`` gives ``entry="docker:<image>"``, and the wrappers that run
vLLM with a container's ``args`` (:mod:`.llm_d`, :mod:`.kubeai`, :mod:`.kserve`) give theirs.
``$(VAR)`` words are opaque. The image tag is a ``VersionHint("image-tag")`` (compose
``${VAR:-default}`` tags use the default, Helm expressions their literal ``default``); the tag of a
vLLM image that starts no launch is kept in ``YamlText.idle_images``. A ``sh -c`` launch's
``Launch.script_span`` is where its script is written.
"""

from __future__ import annotations

import re

from vllm_lint.frontends.embedding import Embedding
from vllm_lint.frontends.yaml import kubeai, values
from vllm_lint.frontends.yaml.deleters import make_deleter
from vllm_lint.frontends.yaml.env import ENV_ARG_CARRIERS, compose_env, k8s_env
from vllm_lint.container import Container, Platform, server_image
from vllm_lint.record import import_module
from vllm_lint.frontends.yaml.hardware import accelerator_hw, compose_hw, hardware_here, hw_merge
from vllm_lint.frontends.yaml.helm import helm_default, image_from_values
from vllm_lint.frontends.yaml.loader import MappingNode, ScalarNode, SequenceNode
from vllm_lint.frontends.yaml.nodes import get, seq, text
from vllm_lint.frontends.yaml.text import K8S_VAR, YamlText, stated_env
from vllm_lint.frontends.yaml.words import may_be_command, split_value, word_texts
from vllm_lint.images import TAG_KEYS
from vllm_lint.launch import EnvAssign, Hardware, Launch, Span, Token, VersionHint, word_replacer
from vllm_lint.record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_SHELLS = {"sh", "bash", "zsh", "dash", "ash", "ksh"}
_INTERPOLATED = lazy_re(r"\$[{A-Za-z_]")
_COMPOSE_VAR_DEFAULT = lazy_re(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::?-([^}]*))?\}")
# the wrappers that run vLLM with a container's `args` (no `command`), in the order they are tried:
# their modules under frontends/yaml/, each with its `args_entry`, imported when a container is
# tried (a vLLM image's container, the common case, is its entrypoint's: none is)
_ARGS_ENTRIES = ("llm_d", "kubeai", "kserve")


_TAG_LIKE = lazy_re(r"^v?\d+\.\d+(?:\.\d+)*(?:[.+_-][\w.+-]*)?$|^(?:latest|nightly)$")


def sibling_tag(node: Any, image: Optional[str]) -> Optional[ScalarNode]:
    """The tag written beside an untagged image in the same mapping (:data:`TAG_KEYS`): a scalar
    that reads as a release (``v0.6.0``, ``0.9.2``) or ``latest``; None otherwise."""
    if not image or not isinstance(node, MappingNode) or ":" in image.rsplit("/", 1)[-1] or "@" in image:
        return None
    for key in TAG_KEYS:
        v = get(node, key)
        if isinstance(v, ScalarNode) and isinstance(v.value, str) and _TAG_LIKE.match(v.value.strip()):
            return v
    return None


def release_node(holder: Any, image_node: Any, image: Optional[str]) -> Any:
    """Where the release of the image ``holder`` names at ``image_node`` is read: ``holder`` itself
    when the image is an untagged scalar of that mapping with its tag in a sibling key (llmaz's
    ``image: vllm/vllm-openai`` + ``version: v0.6.0``: :func:`image_version` reads the mapping as it
    reads Helm values' ``{repository, tag}``), else ``image_node``. The one place every reader of a
    mapping's image (a container, the values' arguments below an image, an idle image) asks."""
    if (isinstance(image_node, ScalarNode) and isinstance(holder, MappingNode)
            and any(v is image_node for _k, v in holder.value) and sibling_tag(holder, image) is not None):
        return holder
    return image_node


def compose_default(image: str) -> str:
    """``vllm/vllm-openai:${TAG:-v0.8.5}`` -> ``vllm/vllm-openai:v0.8.5``."""
    if "$" not in image:
        return image
    return _COMPOSE_VAR_DEFAULT.sub(lambda m: m.group(1) or "", image)


def container(t: YamlText, node: Any, hw: Hardware, platform: Platform, *, kind: Optional[str] = None,
              image_holder: Any = None) -> bool:
    """Launches of one container-like mapping, its parts at the keys ``platform`` names (a row of
    :data:`vllm_lint.container.PLATFORMS`). True when it held a vLLM launch. ``image_holder``: the
    mapping whose image runs the container when ``node`` names none (a chart's values: the image
    set once, above the component's arguments)."""
    return _Container(t, node, hw, platform, platform.kind or kind, image_holder).read()


def image_of(node: Any, platform: Platform) -> tuple[Optional[str], Any]:
    """The image a container-like mapping names at its row's key (a string, or a chart's
    ``{registry, repository, tag}``, also as keys of the mapping itself), and where it is written."""
    image_node = at(node, platform.image)
    image = text(image_node)
    if image is None and isinstance(image_node, MappingNode):
        image = image_from_values(image_node)
    if image is None and get(node, "repository") is not None:
        image = image_from_values(node)
        image_node = node
    return image, image_node


def at(node: Any, path: Optional[tuple[str, ...]]) -> Any:
    """The value at the key ``path`` below mapping ``node`` (None where a key is missing)."""
    if path is None:
        return None
    for key in path:
        node = get(node, key)
        if node is None:
            return None
    return node


class _Container:
    """One container-like mapping being read. The words' texts decide whether it starts vLLM; the
    :class:`~vllm_lint.container.Container` (tokens, environment, hardware, version hints, span)
    is built only for a launch (most containers of a manifest or services of a compose file hold
    none)."""

    def __init__(self, t: YamlText, node: Any, hw: Hardware, platform: Platform, kind: Optional[str],
                 image_holder: Any = None):
        self.t, self.node, self.hw, self.platform = t, node, hw, platform
        compose = self.compose = platform.image_vars
        image, image_node = image_of(node, platform)
        source = node
        if image is None and image_holder is not None:
            image, image_node = image_of(image_holder, platform)
            source = image_holder
        # a service built from a local Dockerfile runs what that Dockerfile starts FROM
        build = get(node, platform.build) if platform.build else None
        self.build = None
        # (with a build, `image:` names the build's result: a local name, no release of its own)
        self.builds = build is not None
        if build is not None:  # (its reader, and the Dockerfile reader's, imported for such a service only)
            from vllm_lint.frontends.yaml.compose_build import build_base

            self.build = build_base(t, build)
        if self.build is not None:
            image, image_node = self.build.image, None
        self.image, self.image_node = image, image_node
        # where the release is read: the mapping that names the image (the container's own, or the one
        # above the values' arguments), for `image: vllm/vllm-openai` with `version: v0.6.0` beside it
        self.version_node = release_node(at(source, platform.image[:-1]) if platform.image and len(platform.image) > 1
                                         else source, image_node, image)
        eff_image = compose_default(image) if (compose and image) else image
        if self.build is not None and not self.build.entrypoint_kept:
            eff_image = None  # (its own ENTRYPOINT: what runs the command is not the image's)
        if not compose and isinstance(image_node, ScalarNode) and t.regions:
            rendered = helm_default(t, image_node)  # "{{ .Values.x | default "vllm/..." }}"
            if rendered is not None:
                eff_image = rendered[0]
        self.eff_image = eff_image
        self.cmd_node = at(node, platform.command)
        self.args_node = at(node, platform.args)
        self.env_node = at(node, platform.env)
        self.cmd_split = split_value(self.cmd_node)
        self.args_split = split_value(self.args_node)
        self.cmd_texts = word_texts(self.cmd_node, self.cmd_split)
        self.arg_texts = word_texts(self.args_node, self.args_split)
        self.texts = self.cmd_texts + self.arg_texts
        ctx: dict[str, Any] = {}
        if kind:
            ctx["kind"] = kind
        if eff_image:
            ctx["image"] = eff_image
        if t.vllm_runtimes and id(node) in t.vllm_runtimes:  # (a container of a ServingRuntime that says vLLM)
            ctx["kserve_runtime"] = "vllm"
        for path in platform.model:  # the model a chart's template puts on the command line
            model = text(at(node, path))
            if model is None and image_holder is not None:
                model = text(at(image_holder, path))
            if model and not model.isspace():
                ctx["model"] = model
                break
        self.ctx = ctx
        self.built: list = []  # [words, Container], on first use
        self.params_from = 0  # the first word after a `sh -c` script (its $0), when there is one
        self.env: Optional[list[EnvAssign]] = None  # (_env, on first use)

    def read(self) -> bool:
        found = self._build_entry() or self._script() or self._shell()
        if not found:
            found = self._vllm_command() or self._args_entry() or self._args_map() or self._command_script()
        found = self._env_carriers() or found
        if not found and self.image and not (self.builds and self.build is None):
            idle_image(self.t, self.image, self.version_node, self.compose)
        if found:
            for n in (self.cmd_node, self.args_node):
                if isinstance(n, SequenceNode):
                    self.t.consumed.update(id(item) for item in n.value)
                elif isinstance(n, ScalarNode):
                    self.t.consumed.add(id(n))
        return found

    def facts(self) -> tuple[list, Container]:
        """(the launch's words, the container), made once."""
        if not self.built:
            t, node, platform = self.t, self.node, self.platform
            cmd_words = t.words_from(self.cmd_node, self.cmd_split)
            words = cmd_words + t.words_from(self.args_node, self.args_split)
            if platform.interpolates:  # compose fills ${VAR} in list items too ($$ is a literal $)
                for tok, _h in words:
                    if not tok.opaque and _INTERPOLATED.search(tok.text.replace("$$", "")):
                        tok.opaque = True
            env = self._env()
            if platform.env_form == "list" and any(tok.opaque for tok, _h in words):
                words = [(_k8s_filled(tok, self._stated()), h) for tok, h in words]
            hw2 = self.hw
            for structure in platform.gpus:
                hw2 = hw_merge(hw2, _GPU_READERS[structure](node))
            if platform.accelerator is not None:
                hw2 = hw_merge(hw2, accelerator_hw(self._rendered(at(node, platform.accelerator)),
                                                   ".".join(platform.accelerator)))
            versions = [] if self.builds and self.build is None else image_version(
                t, self.image, self.version_node, self.compose)
            if self.build is not None:
                versions = [VersionHint(v.version, "dockerfile-from", self.build.span) for v in versions]
                if not versions and self.build.pin:  # (a base without vLLM: the release the build installs)
                    versions = [VersionHint(self.build.pin, "pip-install", self.build.span)]
            holder = (at(node, platform.command[:-1]) if len(platform.command) > 1 else None) or node
            span = t.content_span(holder) or Span(0, 0)
            model = Container(
                platform.name, span, name=text(get(node, "name")), image=self.image,
                image_span=t.node_span(self.image_node) if isinstance(self.image_node, ScalarNode) else None,
                run_image=self.eff_image, command=self.cmd_texts, command_span=_span_of(t, self.cmd_node),
                args=self.arg_texts, args_span=_span_of(t, self.args_node), env=env, hardware=hw2,
                version_hints=versions, env_complete=self._env_complete())
            self.built.extend((words, model))
        return self.built[0], self.built[1]

    def _env(self) -> list[EnvAssign]:
        """The container's environment as its configuration states it."""
        if self.env is None:
            env_node = self.env_node
            # a map of NAME: value: compose, and wrappers' specs (KubeAI Model `spec.env`)
            env = (compose_env(self.t, env_node) if self.platform.env_form == "map"
                   or isinstance(env_node, MappingNode) else k8s_env(self.t, env_node))
            # a variable that carries arguments is the wrapper's, read by its script, not by vLLM
            self.env = [e for e in env if e.name not in ENV_ARG_CARRIERS]
        return self.env

    def _stated(self) -> dict:
        """The container's environment for the values of its words' variables
        (:func:`~.text.stated_env`): what the file states overrides the image's and anything an
        ``envFrom`` / ``env_file`` adds; a name it does not state stays unknown."""
        return stated_env(self._env())

    def _env_complete(self) -> bool:
        """The container's whole environment is written here: a platform that can state one
        (``Platform.env_sources``), a workload it starts with no other variable, no key that adds
        variables from elsewhere, no template region in the file (a chart may render more), and
        the variables a list or mapping of entries."""
        p = self.platform
        if p.env_sources is None or self.t.regions or not isinstance(self.node, MappingNode):
            return False
        if p.env_kinds is not None and self.ctx.get("kind") not in p.env_kinds:
            return False
        if any(get(self.node, k) is not None for k in p.env_sources):
            return False
        return self.env_node is None or isinstance(self.env_node, (SequenceNode, MappingNode))

    def _rendered(self, node: Any) -> Optional[str]:
        """A scalar's text as it renders: a template expression's known default, None for an
        expression of unknown value (the parse sees it filled in), else the text."""
        t = self.t
        if isinstance(node, ScalarNode) and t.regions:
            s, e = t.pos(node.start_mark.index), t.pos(node.end_mark.index)
            if any(a < e and b > s for a, b in t.regions):
                rendered = helm_default(t, node)
                return rendered[0] if rendered is not None else None
        return text(node)

    def _shell(self) -> bool:
        """``sh -c SCRIPT`` among the first words: the script's launches."""
        texts = self.texts
        for i, w in enumerate(texts[:4]):
            base = w.rsplit("/", 1)[-1]
            if base in _SHELLS and i + 1 < len(texts):
                j = i + 1
                while j < len(texts) and texts[j].startswith("-") and "c" not in texts[j][1:]:
                    j += 1
                if j < len(texts) and re.match(r"^-[a-zA-Z]*c[a-zA-Z]*$", texts[j]):
                    if j + 1 < len(texts):
                        self.params_from = j + 2  # `sh -c SCRIPT a b`: a is the script's $0, b its $1
                        return self._shell_word(j + 1)
                break
        return False

    def _shell_word(self, j: int) -> bool:
        """A ``sh -c`` script, word ``j`` of the command + args: run the shell front-end on it."""
        t = self.t
        ncmd = len(self.cmd_texts)
        node, split, k = (self.cmd_node, self.cmd_split, j) if j < ncmd else (
            self.args_node, self.args_split, j - ncmd)
        if isinstance(node, SequenceNode):
            item = node.value[k]
            return isinstance(item, ScalarNode) and self._scalar_script(item)
        assert split is not None
        word, rs, re_, verb, _op = split[k]
        script = word.encode("utf-8", "surrogatepass")
        if not may_be_command(script):
            return False
        m = t.smap(node)
        cut = None
        if verb is not None:
            # a word spelled verbatim is that part of the scalar
            base = verb[0]
            emb = m.window(base, base + len(script))
            whole = t.cutter(node, m)
            if whole is not None:
                cut = lambda s, e, whole=whole, base=base: whole(base + s, base + e)  # noqa: E731
        else:
            emb = Embedding.unmapped(script)  # (no bytes of its own)
        return self._adopt(t.shell_launches(script, emb, t.content_span(node), cut,
                                            {} if self.platform.interpolates else self._stated()), node)

    def _script(self) -> bool:
        """A command written as one string that holds a shell line continuation, on a platform
        whose string command a shell runs (``Platform.string_command``): the shell front-end
        reads the whole string (a split into words would take each ``\\``-newline for a word)."""
        node = self.cmd_node
        if (self.platform.string_command != "shell" or not isinstance(node, ScalarNode)
                or node.tag != "tag:yaml.org,2002:str" or self.arg_texts or "\\\n" not in node.value):
            return False
        return self._scalar_script(node)

    def _scalar_script(self, item: Any) -> bool:
        """A scalar that is a whole shell script (a ``sh -c`` item, a string command): its
        launches, a launcher's ``str.format`` fields opaque (:mod:`.format_fields`)."""
        from vllm_lint.frontends.yaml import format_fields

        t = self.t
        if not may_be_command(item.value.encode("utf-8", "surrogatepass")):
            return False  # (shell_launches would find nothing: no map needed)
        m = t.smap(item)
        template = format_fields.template_of(t, item, m, self.node)
        script = m.text if template is None else template.text
        emb, cut, stated = m, t.cutter(item, m), self._stated()
        if self.platform.interpolates and b"$" in script and template is None:
            if _INTERPOLATED.search(script.replace(b"$$", b"").decode("utf-8", "replace")):
                stated = {}  # (compose fills `$VAR` from the host's environment: none of the container's)
            elif b"$$" in script:  # `$$VAR`: compose writes `$VAR`, which the container's shell reads
                script, emb = _unescaped(script, m)
                cut = None
        launches = t.shell_launches(script, emb, t.content_span(item), cut, stated)
        if template is not None:
            template.apply(launches, m)
        return self._adopt(launches, item)

    def _adopt(self, launches: list, outer: Any) -> bool:
        """The container's facts on the launches of its script (``outer``: the scalar)."""
        t = self.t
        if launches:
            words, c = self.facts()
            if 0 < self.params_from < len(words):
                for la in launches:
                    _positional(t, la, words[self.params_from:])
            for la in launches:
                la.container = c
                la.env = list(c.env) + la.env
                la.version_hints = list(c.version_hints) + la.version_hints
                la.hardware = hw_merge(c.hardware, la.hardware)
                la.take_context(self.ctx)
                la.context["shell"] = True
                # the script's bytes in the file, where the image's other steps are
                la.script_span = t.content_span(outer)
        return bool(launches)

    def _starts_server(self) -> bool:
        """Whether the image that runs is known to start vLLM's server by its entrypoint, so that
        its ``args`` are vLLM's: vLLM's own (not ROCm's, which starts a shell, nor the vendors'
        whose words after the image are a command: ``images.image_takes_vllm_args``), or a
        vendor's row of :data:`vllm_lint.container.SERVER_IMAGES`."""
        from vllm_lint.frontends.commands import image_starts_vllm, image_takes_vllm_args

        image = self.eff_image
        return bool(image) and ((image_starts_vllm(image) and image_takes_vllm_args(image))
                                or server_image(image) is not None)

    def _vllm_command(self) -> bool:
        """The command + args name a vLLM entry point: its launch."""
        from vllm_lint.frontends.commands import find_vllm_command, image_starts_vllm

        texts = self.texts
        vc = find_vllm_command(texts) if texts else None
        if vc is None:
            return False
        if not self.cmd_texts and self.eff_image and image_starts_vllm(self.eff_image) and vc.args_start > 0:
            # compose `command:` / Kubernetes `args:` are appended to the image's entrypoint
            self.ctx["image_cmd"] = texts[:vc.args_start]
        words, c = self.facts()
        launch = self.t.argv_launch(vc.entry, words[vc.args_start:], c.span, c.env, c.version_hints, c.hardware,
                                    self.ctx, wrapped_env=[(words[k], nm, v) for k, nm, v in vc.env])
        launch.container = c
        if vc.entry_start is not None:
            entry = words[vc.entry_start:vc.args_start]
            launch.entry_words = [t.text for t, _h in entry]
            launch.replace_entry = word_replacer([t for t, _h in entry],
                                                 make_deleter(self.t, {id(t): h for t, h in entry}))
        return True

    def _args_entry(self) -> bool:
        """Only ``args`` (or nothing), run by a vLLM image's entrypoint or by a wrapper: their
        launch. An image known to start the server (:meth:`_starts_server`) with neither command
        nor args runs its entrypoint with no arguments: a launch, whose environment and GPUs are
        checked, unless a wrapper's variable carries its arguments."""
        if self.cmd_texts:
            return False
        entry = None
        if not self.arg_texts:
            entry = kubeai.args_entry(self.node, self.ctx)  # a KubeAI Model runs vLLM without args too
            # (a chart's values with their arguments left empty run the image with the model alone)
            no_args = self.args_node is None or (self.platform.found == "values" and values.empty(self.args_node))
            if (not entry and self.cmd_node is None and no_args and self._starts_server()
                    and not any(text(get(item, "name")) in ENV_ARG_CARRIERS for item in seq(self.env_node))):
                entry = f"docker:{self.eff_image}"
        elif self._starts_server():
            entry = f"docker:{self.eff_image}"
        else:
            for name in _ARGS_ENTRIES:
                entry = import_module(f"{__package__}.{name}").args_entry(self.node, self.ctx)
                if entry:
                    break
        if not entry:
            return False
        words, c = self.facts()
        self.t.argv_launch(entry, words, c.span, c.env, c.version_hints, c.hardware,
                           self.ctx).container = c  # no command words
        return True

    def _build_entry(self) -> bool:
        """A compose service built from a Dockerfile whose own ``ENTRYPOINT`` starts vLLM's server
        (:attr:`.compose_build.BuildBase.entry`), no ``entrypoint:`` of its own: its ``command``
        words are vLLM's (Docker appends them to the ENTRYPOINT)."""
        build = self.build
        if build is None or build.entry is None or self.cmd_node is not None:
            return False
        entry, own, how = build.entry
        words, c = self.facts()
        launch = self.t.argv_launch(entry, words, c.span, c.env, c.version_hints, c.hardware, self.ctx)
        launch.container = c
        launch.read_as = f"the service's build runs vLLM: {how}" + (
            f", with its own words (`{' '.join(own)}`, read there)" if own else "")
        if own:
            launch.opaque = True  # (its own words are the Dockerfile's, read in its file)
        return True

    def _command_script(self) -> bool:
        """A command that runs a script a ConfigMap beside the file holds, which starts vLLM with
        its arguments (:mod:`.command_scripts`): the container's ``args`` are vLLM's words."""
        from vllm_lint.frontends.yaml.command_scripts import configmap_script_entry, script_of_command

        t = self.t
        script = script_of_command(self.cmd_texts) if self.cmd_texts else None
        if script is None or not t.path or t.path == "-":
            return False
        found = configmap_script_entry(t.path, script, t.values)
        if found is None:
            return False
        entry, own, where = found
        words, c = self.facts()
        launch = t.argv_launch(entry, words[len(self.cmd_texts):], c.span, c.env, c.version_hints, c.hardware,
                               self.ctx)
        launch.container = c
        launch.read_as = (f"`{script}` is the script a ConfigMap of `{where}` holds, which runs vLLM with the "
                          "container's arguments (`\"$@\"`)"
                          + (f", after its own (`{_TEMPLATE_FILLER.sub('{{ ... }}', ' '.join(own))}`, read there)"
                             if own else ""))
        if own:
            launch.opaque = True  # (its own words are the script's, read in its file)
        return True

    def _args_map(self) -> bool:
        """A chart's arguments written as a mapping of option names (``max-model-len: 4096``) for
        a vLLM image's entrypoint: a launch of keyed arguments, read as a ``--config`` file's keys
        (:mod:`.values`)."""
        node = self.args_node
        if self.cmd_texts or not isinstance(node, MappingNode) or not self._starts_server():
            return False
        if not values.argument_like(node):
            return False
        t = self.t
        _words, c = self.facts()
        launch = Launch(path=t.path, entry=f"docker:{self.eff_image}", style="config", span=c.span,
                        keyed=t.keyed_args(node, style_of=values.key_style), env=c.env,
                        version_hints=list(c.version_hints), hardware=c.hardware, container=c)
        launch.take_context(self.ctx)
        t.out.launches.append(launch)
        t.consumed.add(id(node))
        return True

    def _env_carriers(self) -> bool:
        """Options carried in an environment variable by a known wrapper: their launches."""
        t = self.t
        found = False
        for item in seq(self.env_node):
            nm = text(get(item, "name"))
            val = get(item, "value")
            if nm in ENV_ARG_CARRIERS and isinstance(val, ScalarNode) and id(val) not in t.consumed:
                _words, c = self.facts()
                toks = t.string_words(val)
                c2 = dict(self.ctx, args_only=True)
                t.argv_launch(f"env:{nm}", toks, t.content_span(item) or c.span, c.env,
                              c.version_hints, c.hardware, c2).container = c
                t.consumed.add(id(val))
                found = True
        return found


def _unescaped(script: bytes, m: Embedding) -> tuple[bytes, Embedding]:
    """A compose string's text as the container receives it (``$$`` is one ``$``), with its map
    into the file."""
    out = bytearray()
    at: list = []
    i = 0
    while i < len(script):
        if script[i:i + 2] == b"$$":
            out += b"$"
            at.append(m.host(i + 1))
            i += 2
            continue
        out.append(script[i])
        at.append(m.host(i))
        i += 1
    text = bytes(out)
    return text, Embedding.from_positions(text, at)


def _k8s_filled(tok: Token, stated: dict) -> Token:
    """A Kubernetes word with ``$(VAR)`` references, each filled from the container's
    environment where it states the variable literally (Kubernetes expands them before the
    process starts; ``$$(VAR)`` is written as is); else the word as it was."""
    if not tok.opaque or tok.splat or "$$(" in tok.text:
        return tok
    origin = []

    def fill(m: "re.Match[str]") -> str:
        name = m.group(0)[2:-1]
        value, where = stated.get(name, (None, None))
        if value is None:
            raise KeyError(name)
        origin.append((name, where))
        return value

    try:
        text = K8S_VAR.sub(fill, tok.text)
    except KeyError:
        return tok
    if "$(" in text or not origin:
        return tok
    return Token(text, tok.span, None, origin=tuple(origin))


_TEMPLATE_FILLER = lazy_re(r"_{4,}")  # (a template expression's filler in a filled chart template)
_PARAM = lazy_re(r"\$(?:([0-9])|\{([0-9]+)\}|([@*])|\{([@*])\})")


def _positional(t: YamlText, la: Launch, params: list) -> None:
    """``sh -c SCRIPT a b c``: the script's ``$0`` is a, ``$1`` b, ``"$@"`` and ``$*`` are b c.
    A launch word that is only such a parameter is replaced by the container's words it stands
    for, each with its own span and a deleter that cuts it from the container's list."""
    out, handles, changed = [], {}, False
    for tok in la.tokens:
        m = _PARAM.fullmatch(tok.text) if tok.opaque else None
        if m is None:
            out.append(tok)
            continue
        number = m.group(1) or m.group(2)
        chosen = params[int(number):int(number) + 1] if number is not None else params[1:]
        if number is not None and not chosen:
            out.append(tok)  # (a parameter the container does not pass: empty, left opaque)
            continue
        for word, handle in chosen:
            out.append(word)
            handles[id(word)] = handle
        changed = True
    if not changed:
        return
    la.tokens = out
    script_delete, args_delete = la.delete_tokens, make_deleter(t, handles)

    def delete_tokens(tokens: list) -> Optional[list]:
        mine = [x for x in tokens if id(x) in handles]
        rest = [x for x in tokens if id(x) not in handles]
        first = args_delete(mine) if mine else []
        second = (script_delete(rest) if script_delete is not None else None) if rest else []
        return None if first is None or second is None else first + second

    la.delete_tokens = delete_tokens


def _span_of(t: YamlText, node: Any) -> Optional[Span]:
    """Where a command or args value is written (None when it is not)."""
    return t.node_span(node) if isinstance(node, (ScalarNode, SequenceNode)) else None


# the readers of the GPU structures a platform's row names (Platform.gpus)
_GPU_READERS = {"resources": hardware_here, "devices": compose_hw}


def idle_image(t: YamlText, image: Optional[str], image_node: Any, compose: bool) -> None:
    """Note a vLLM image that starts no launch here (a base image in values, a container without
    a command): ``YamlText.idle_images``."""
    if image and id(image_node) not in t.idle_images:
        hints = image_version(t, image, image_node, compose)
        if hints:
            t.idle_images[id(image_node)] = hints


def image_version(t: YamlText, image: Optional[str], image_node: Any, compose: bool) -> list[VersionHint]:
    """The release an image names (``image_node``: where it is written)."""
    from vllm_lint.frontends.commands import image_is_vllm, version_from_image

    if not image:
        return []
    if isinstance(image_node, ScalarNode) and not compose:
        rendered = helm_default(t, image_node)
        if rendered is not None:
            v = version_from_image(rendered[0]) if image_is_vllm(rendered[0]) else None
            return [VersionHint(v, rendered[2], rendered[1], rendered[0])] if v else []
    eff = compose_default(image) if compose else image
    if not image_is_vllm(eff):
        return []
    if isinstance(image_node, MappingNode):
        tag_node = get(image_node, "tag")
        if tag_node is None and text(get(image_node, "repository")) is None:  # (an image beside its tag)
            tag_node = sibling_tag(image_node, image)
        v = text(tag_node)
        rendered = helm_default(t, tag_node)
        if rendered is not None:
            return [VersionHint(rendered[0], rendered[2], rendered[1])] if rendered[0] else []
        if v:
            return [VersionHint(v, "image-tag", t.node_span(tag_node),
                                text(get(image_node, "repository")) or text(get(image_node, "name")))]
        return []
    v = version_from_image(eff)
    if not v:
        return []
    span = None
    if isinstance(image_node, ScalarNode):
        m = t.smap(image_node)
        raw = image_node.value.encode()
        k = raw.rfind(v.encode())
        if k >= 0:
            span = m.span(k, k + len(v.encode()))
        if span is None:
            span = t.node_span(image_node)
    return [VersionHint(v, "image-tag", span, eff)]
