"""The container a launch runs in, whatever platform's configuration describes it, and the table
of platforms whose configurations hold containers.

A Kubernetes container, a compose service and a Baseten truss ``config.yaml`` say the same things
under different keys: the image, the command and its arguments, the environment and the GPUs. A
front-end reads them into one :class:`Container` (``Launch.container``), and fills the launch's
typed fields from it (``Launch.image``, ``.env``, ``.hardware``, ``.version_hints``), which is
what the rules and the targeting read. :data:`PLATFORMS` says, per platform, which keys hold each
part: a new platform of the same shape is one row (docs/architecture.md, "Adding a platform").
"""

from __future__ import annotations

import re

from .launch import EnvAssign, Hardware, KeyedArg, Span, VersionHint
from .record import Record

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional

Path = tuple[str, ...]  # keys from the container's mapping down to a value


class Container(Record):
    """One container as its platform's configuration states it.

    ``platform``: the :data:`PLATFORMS` row (or the front-end's own platform name) it was read
    by; ``name``: the container's or service's name, if any. ``image`` as written and where
    (``image_span``); ``run_image``: the image that runs the command (a compose default or a Helm
    expression's default filled in; None when a local build's own entrypoint runs it).
    ``command`` and ``args``: the words of each, as written, and where each is written
    (``command_span``, ``args_span``). ``env``: the variables it sets; ``hardware``: the GPUs it
    requests (count, product and where that is stated: ``Hardware.source``) and the nodes it
    spans (``Hardware.nodes``: a LeaderWorkerSet's group size); ``partial_layout``: why the
    platform starts more of the process than this container shows (KServe's worker pods, a
    production-stack Ray cluster), else None; ``version_hints``: the release its image (or its
    build's ``FROM``) names. ``span``: the mapping that holds the command. ``env_complete``: the
    file states the container's whole environment (a Kubernetes container or compose service
    with no ``envFrom`` / ``env_file`` and no template), so a variable it does not set is absent
    unless the image sets it (``knowledge.launch_env``)."""

    __slots__ = ("platform", "name", "image", "image_span", "run_image", "command", "command_span", "args",
                 "args_span", "env", "hardware", "partial_layout", "version_hints", "span", "env_complete")

    def __init__(self, platform: str, span: Span, *, name: Optional[str] = None, image: Optional[str] = None,
                 image_span: Optional[Span] = None, run_image: Optional[str] = None,
                 command: Optional[list[str]] = None, command_span: Optional[Span] = None,
                 args: Optional[list[str]] = None, args_span: Optional[Span] = None,
                 env: Optional[list[EnvAssign]] = None, hardware: Optional[Hardware] = None,
                 partial_layout: Optional[str] = None, version_hints: Optional[list[VersionHint]] = None,
                 env_complete: bool = False) -> None:
        self.platform = platform
        self.env_complete = env_complete
        self.name = name
        self.image = image
        self.image_span = image_span
        self.run_image = run_image
        self.command = [] if command is None else command
        self.command_span = command_span
        self.args = [] if args is None else args
        self.args_span = args_span
        self.env = [] if env is None else env
        self.hardware = Hardware() if hardware is None else hardware
        self.partial_layout = partial_layout
        self.version_hints = [] if version_hints is None else version_hints
        self.span = span

    @property
    def shown_image(self) -> Optional[str]:
        """The image as ``--verbose`` names it: as written, unless what is written is a template's
        filler (a chart's ``{{ ... }}`` read as ``____``, or blanked), where the image its values
        render (``run_image``) is shown instead."""
        image = self.image
        if image and self.run_image and ("__" in image or image.strip() != image):
            return self.run_image
        return image


class Platform(Record):
    """Where one platform's configuration holds a container's parts (a row of :data:`PLATFORMS`).

    ``found``: where a document holds its containers: "containers" (the items of a
    ``containers``/``initContainers`` list, and any mapping with a command or arguments key),
    "services" (the values of the root's ``services`` mapping), "root" (the document itself, when
    its root has the key ``marker``), "task" (a task runner's document whose ``marker`` key holds the
    shell script the container runs: SkyPilot; read by ``frontends/yaml/tasks.py``), "values" (any mapping, outside a containers list, with a key
    that ``marker``, a regular expression, matches in full and whose value reads as arguments: a
    list or string of words starting with an option, or a mapping of option names; the image may
    be set in an enclosing mapping; ``args`` is then that key). ``image``, ``command``, ``args``, ``env``: the key paths from
    the container's mapping (``args`` None: the command is the whole command line). ``env_form``:
    "list" (``[{name, value}]``; a mapping is read as one too) or "map" (``NAME: value``, or a
    list of ``NAME=value``). ``gpus``: the structures stating GPUs the container's mapping may
    hold, read in this order: "resources" (Kubernetes ``resources`` limits and requests,
    ``nodeSelector``, node affinity), "devices" (compose ``deploy.resources.reservations.devices``
    and ``gpus``); ``accelerator``: the key path of an accelerator string (``"H100:2"``).
    ``interpolates``: the platform fills ``${VAR}`` / ``$VAR`` in the values before the launch (compose,
    from the environment and ``.env``): a word with one is opaque. ``string_command``: what runs a command written as one string: "words" (the platform splits it
    into words itself, as compose does, no shell) or "shell" (a shell runs it: a ``\\``-newline
    continues the line); only read when the string holds a continuation. ``image_vars``: the image may spell compose's ``${VAR:-default}`` (its default is the tag; no
    Helm expression is rendered); ``build``: the key of a local build whose Dockerfile's ``FROM``
    runs the command. ``kind``: the workload name the launches carry (default: the document's
    ``kind``). ``model``: key paths of the model's name (a chart renders it into the command line
    itself). ``source``: where the keys are documented. ``env_sources``: the keys that add variables
    the container's own list does not name (Kubernetes' ``envFrom``, compose's ``env_file``), and
    ``env_kinds`` the workloads whose containers the platform starts with no other variable (None:
    any); None where the platform never states a whole environment (``Container.env_complete``)."""

    __slots__ = ("name", "found", "marker", "image", "command", "args", "env", "env_form", "gpus", "accelerator",
                 "image_vars", "build", "kind", "string_command", "interpolates", "model", "source", "env_sources",
                 "env_kinds")

    def __init__(self, name: str, found: str, *, image: Path, command: Path, args: Optional[Path], env: Path,
                 env_form: str, marker: Optional[str] = None, gpus: tuple[str, ...] = (),
                 accelerator: Optional[Path] = None, image_vars: bool = False, build: Optional[str] = None,
                 kind: Optional[str] = None, string_command: str = "words", interpolates: bool = False,
                 model: tuple[Path, ...] = (), source: str = "", env_sources: Optional[tuple[str, ...]] = None,
                 env_kinds: Optional[frozenset[str]] = None) -> None:
        self.env_sources = env_sources
        self.env_kinds = env_kinds
        self.name = name
        self.found = found
        self.marker = marker
        self.image = image
        self.command = command
        self.args = args
        self.env = env
        self.env_form = env_form
        self.gpus = gpus
        self.accelerator = accelerator
        self.image_vars = image_vars
        self.build = build
        self.kind = kind
        self.string_command = string_command
        self.interpolates = interpolates
        self.model = model
        self.source = source


PLATFORMS: tuple[Platform, ...] = (
    # also any mapping with `command`/`args`: Helm values, KubeAI's Model, KServe's predictor, a
    # launcher's own schema (a recipe runner's `command: |`). Kubernetes takes a list; a command
    # written as one string is a launcher's, which hands it to a shell (`bash -c`, shell=True).
    Platform("kubernetes", "containers", image=("image",), command=("command",), args=("args",), env=("env",),
             env_form="list", gpus=("resources",), string_command="shell",
             env_sources=("envFrom",),
             env_kinds=frozenset({"Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"}),
             source="https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#Container"),
    Platform("compose", "services", image=("image",), command=("entrypoint",), args=("command",),
             env=("environment",), env_form="map", gpus=("resources", "devices"), image_vars=True, interpolates=True,
             build="build", kind="compose", env_sources=("env_file",),
             source="https://docs.docker.com/reference/compose-file/services/"),
    # a chart's values that configure the vLLM container: an image (here or in an enclosing
    # mapping: `image: {repository, tag}`) beside arguments the chart's template appends to the
    # image's entrypoint, under whatever name the chart gives them (extraArgs, vllmArgs, serverArgs,
    # args, extra_args, ...), and the model the template puts on the command line
    Platform("helm-values", "values", marker=r"(?i)[a-z0-9_-]*?arg(?:ument)?s", image=("image",),
             command=("command",), args=None, env=("env",), env_form="list", gpus=("resources",),
             model=(("model",), ("modelName",), ("modelId",), ("model_name",), ("model_id",), ("modelReference",),
                    ("modelRef",), ("modelPath",), ("model", "name"), ("model", "id"),
                    # (Hugging Face's name for a model's id: `model: {repoId: org/name, revision: ...}`)
                    ("model", "repoId"), ("model", "repo_id")),
             source="https://helm.sh/docs/chart_template_guide/values_files/ (the values a chart's "
                    "template renders into the container; `extraArgs`: the common name of its extra arguments)"),
    # a SkyPilot task: `run:` (and `setup:`) are shell scripts run in the container `resources.image_id`
    # names (`docker:<image>`; a value without the prefix is a VM image), per entry of
    # `resources.any_of` / `ordered` too; `envs:` their environment; `accelerators: H100:8` their GPUs
    # (read by frontends/yaml/tasks.py: the run script's launches get the container)
    Platform("skypilot", "task", marker="run", image=("resources", "image_id"), command=("run",), args=None,
             env=("envs",), env_form="map", accelerator=("resources", "accelerators"), string_command="shell",
             source="https://docs.skypilot.co/en/latest/reference/yaml-spec.html (resources.image_id: "
                    "docker:<image>, resources.any_of / ordered, envs, run, setup)"),
    Platform("truss", "root", marker="docker_server", image=("base_image", "image"),
             command=("docker_server", "start_command"), args=None, env=("environment_variables",),
             env_form="map", accelerator=("resources", "accelerator"),
             source="https://docs.baseten.co/development/model/custom-server (Baseten truss config.yaml)"),
)


class ServerImage(Record):
    """A vendor's image, not named like vLLM's own (``vllm/vllm-openai``: ``frontends.commands``),
    whose entrypoint starts vLLM's OpenAI server, so that a container's ``args`` (or none) are
    vLLM's arguments: ``repository`` (registry and path, no tag; any tag and digest match),
    ``runs`` (what its entrypoint runs, in words), ``program`` (the vLLM program that reads the
    arguments, as ``Surface.image_runs`` names it: "vllm serve" or "openai.api_server"; what
    ``vllm serve`` alone does, such as warning about ``--model``, does not happen under the
    api_server module), ``source`` (where that is stated)."""

    __slots__ = ("repository", "runs", "program", "source")

    def __init__(self, repository: str, runs: str, program: str, source: str) -> None:
        self.repository = repository
        self.runs = runs
        self.program = program
        self.source = source


SERVER_IMAGES: tuple[ServerImage, ...] = (
    # Red Hat OpenShift AI's vLLM ServingRuntime image (quay.io/modh/vllm:rhoai-2.20-cuda, ...)
    ServerImage("quay.io/modh/vllm", "python3 -m vllm.entrypoints.openai.api_server (vllm_tgis_adapter in its "
                "gRPC build, which takes the same arguments)", program="openai.api_server",
                source="https://github.com/opendatahub-io/vllm/blob/main/Dockerfile.ubi (ENTRYPOINT of the "
                       "vllm-openai and vllm-grpc-adapter stages)"),
    # OPEA's Gaudi vLLM image (opea/vllm-gaudi:1.22.0, ...), which OPEA's GenAIComps builds from Intel
    # Habana's fork of vLLM (`docker build -f Dockerfile.hpu -t opea/vllm-gaudi ...` in a clone of
    # HabanaAI/vllm-fork; its GenAIExamples' compose files give it vLLM's arguments as `command:`)
    ServerImage("opea/vllm-gaudi", "python3 -m vllm.entrypoints.openai.api_server", program="openai.api_server",
                source="https://github.com/HabanaAI/vllm-fork/blob/habana_main/docker/Dockerfile.hpu (ENTRYPOINT "
                       "[\"python3\", \"-m\", \"vllm.entrypoints.openai.api_server\"]); the image's `docker ps` "
                       "command, \"python3 -m vllm.ent...\", in OPEA GenAIExamples' guides"),
)


class EnvOptions(Record):
    """A container whose entrypoint turns environment variables into vLLM's options, so that a
    platform's environment block is the launch (a row of :data:`ENV_OPTIONS`): each variable named
    ``prefix`` + ``NAME`` becomes the option ``--name`` (lower case, ``_`` to ``-``), ``true`` the bare
    flag, ``false`` left out (``booleans``), the model's option among them; ``program``: the vLLM
    program that reads them (as :class:`ServerImage`); ``release_tag``: how the container's image
    tag starts with the vLLM release it holds (a regular expression whose first group is the
    release), else None; ``image_keys``: the keys beside the environment block that name the
    container's image (a SageMaker ``PrimaryContainer``'s ``Image``, the SDK's ``image_uri``);
    ``env_keys``: the keys that hold the environment block; ``source``: where that is stated."""

    __slots__ = ("prefix", "platform", "program", "release_tag", "image_keys", "env_keys", "source")

    def __init__(self, prefix: str, platform: str, program: str, release_tag: Optional[str],
                 image_keys: tuple[str, ...], env_keys: tuple[str, ...], source: str) -> None:
        self.prefix = prefix
        self.platform = platform
        self.program = program
        self.release_tag = release_tag
        self.image_keys = image_keys
        self.env_keys = env_keys
        self.source = source

    def option(self, name: str) -> Optional[str]:
        """The option a variable named ``name`` becomes, or None (not this row's)."""
        if not name.startswith(self.prefix) or len(name) == len(self.prefix):
            return None
        return "--" + name[len(self.prefix):].lower().replace("_", "-")

    def release_of(self, image: str) -> Optional[str]:
        """The vLLM release the container's image tag starts with (``release_tag``), or None (no
        tag, a tag left to a template's field)."""
        last = image.rsplit("/", 1)[-1]
        tag = last.partition(":")[2].partition("@")[0]
        if not tag or self.release_tag is None or "{" in tag or "$" in tag:
            return None
        m = re.match(self.release_tag, tag)
        return m.group(1) if m else None

    @staticmethod
    def flag(value: object) -> object:
        """A variable's value as the entrypoint passes it: ``"true"`` (or an empty value) is the bare
        flag (True), ``"false"`` leaves the option out (False), else the value."""
        if isinstance(value, str) and value.strip().lower() in ("true", "false", ""):
            return value.strip().lower() != "false"
        return value


ENV_OPTIONS: tuple[EnvOptions, ...] = (
    # AWS's vLLM deep learning container for SageMaker (and vLLM's own example entrypoint for it):
    # `SM_VLLM_MAX_MODEL_LEN=4096` -> `--max-model-len 4096`, set in `create_model(PrimaryContainer=
    # {'Image': ..., 'Environment': {...}})`, the SDK's `Model(image_uri=..., env={...})`, a
    # CloudFormation `AWS::SageMaker::Model` or a Terraform `aws_sagemaker_model` `primary_container`
    EnvOptions("SM_VLLM_", "sagemaker", program="openai.api_server",
               release_tag=r"^v?(\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)(?:-|$)",
               image_keys=("Image", "image", "image_uri", "ImageUri"),
               env_keys=("Environment", "environment", "env", "Env"),
               source="https://github.com/aws/model-hosting-container-standards/blob/main/docs/sagemaker/"
                      "01_quickstart.md (SM_VLLM_* variables converted to CLI arguments); "
                      "https://github.com/aws/deep-learning-containers vllm/build_artifacts/sagemaker_entrypoint.sh "
                      "(the prefix cut, lower case, `_` to `-`, then `python3 -m vllm.entrypoints.openai.api_server`); "
                      "its configuration page: `true` is the bare flag, `false` leaves it out; "
                      "vllm-project/vllm examples/online_serving/sagemaker-entrypoint.sh"),
)


def env_keyed(row: EnvOptions, keyed: list[KeyedArg]) -> list[KeyedArg]:
    """The arguments of ``keyed`` (an environment block's variables as keyed arguments) that are
    ``row``'s options as its entrypoint passes them: spelled as variables (``key_style`` "env"), the
    value through :meth:`EnvOptions.flag`, ``false`` left out."""
    ours = []
    for ka in keyed:
        if env_options(ka.key) is not row:
            continue
        ka.key_style = "env"
        ka.value = row.flag(ka.value)
        if ka.value is not False:  # (`false`: the entrypoint leaves the option out)
            ours.append(ka)
    return ours


def env_launch(row: EnvOptions, path: str, span: Span, keyed: list[KeyedArg], env: list[EnvAssign], *,
               image: Optional[str] = None, image_span: Optional[Span] = None, data: Optional[bytes] = None,
               tag_in: Optional[Span] = None, hardware: Optional[Hardware] = None, opaque: bool = False,
               container_span: Optional[Span] = None, tag_span: Optional[Span] = None) -> Launch:
    """The launch of a container's environment block holding ``row``'s variables (``keyed``, from
    :func:`env_keyed`), its other variables ``env``, run in ``image`` (written at ``image_span``;
    None: not named), whatever front-end read it: the release its tag starts with
    (:meth:`EnvOptions.release_of`) is an ``image-tag`` hint at the release's bytes where ``data``
    holds ``:RELEASE`` within ``tag_in`` (the image written 1:1), or at ``tag_span`` (a front-end
    that found them itself), else at ``image_span``; the
    ``MODEL`` variable is the model; ``span``: the block (or command) stating them;
    ``container_span``: the container's own, when it is larger (a Terraform ``primary_container``)."""
    from .launch import Launch

    hints = []
    release = row.release_of(image) if image else None
    if release is not None:
        at = tag_span
        if data is not None and tag_in is not None:
            k = data.rfind((":" + release).encode(), tag_in.start, tag_in.end)
            if k >= 0:
                at = Span(k + 1, k + 1 + len(release))
        hints.append(VersionHint(release, "image-tag", at or image_span))
    model = next((ka.value for ka in keyed if ka.key == row.prefix + "MODEL" and isinstance(ka.value, str)), None)
    box = Container(row.platform, container_span or span, image=image, image_span=image_span, run_image=image, env=env,
                    hardware=hardware, version_hints=hints)
    return Launch(path=path, entry=row.program, style="config", span=span, keyed=keyed, env=list(env),
                  version_hints=list(hints), hardware=hardware, opaque=opaque, container=box, model=model,
                  read_as=f"the {row.platform} container's `{row.prefix}*` variables, which its entrypoint turns "
                          f"into `{row.program}` options")


def env_options(name: str) -> Optional[EnvOptions]:
    """The :data:`ENV_OPTIONS` row whose prefix starts the variable ``name``, or None."""
    return next((row for row in ENV_OPTIONS if row.option(name) is not None), None)


def server_image(image: str) -> Optional[ServerImage]:
    """The :data:`SERVER_IMAGES` row of ``image`` (``repo[:tag][@digest]``), or None."""
    repo = image.strip().lower().split("@", 1)[0]
    if repo.rfind(":") > repo.rfind("/"):
        repo = repo[:repo.rfind(":")]
    return next((row for row in SERVER_IMAGES if row.repository == repo), None)


def platform(name: str) -> Platform:
    """The :data:`PLATFORMS` row named ``name``."""
    return next(p for p in PLATFORMS if p.name == name)
