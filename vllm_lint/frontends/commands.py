"""Recognise a vLLM start in an argv word list, shared by every front-end.

Front-ends turn their format into a list of decoded words (a shell command, a Kubernetes
``command`` + ``args`` list, a Dockerfile exec form) and ask :func:`find_vllm_command` whether
the words start vLLM's server, and where vLLM's own arguments begin. The recogniser knows the
launchers people put in front of vLLM, from one table (:data:`LAUNCHERS`: ``exec``, ``env``,
``timeout``, ``numactl``, ``srun``, ``mpirun``, ``systemd-run``, ``ray job submit --``,
``apptainer exec IMAGE``, ``kubectl exec POD --``, ``uv run`` ...; each row says which of its
options take a value, whether ``--`` ends them and how many words it eats before the program),
``docker run`` (whose image decides what runs), and reads through an unknown program whose
arguments are clearly options; it knows nothing about vLLM's options.

Everything here is pure string work on already-decoded words: no spans, no format knowledge.
"""

from __future__ import annotations

import re

from vllm_lint.images import (  # noqa: F401 - re-exported: the front-ends' one import of image facts
    UNNAMED_REVISION,
    _split_image,
    image_is_vllm,
    image_starts_vllm,
    image_takes_vllm_args,
    version_from_image,
)
from vllm_lint.foreign_launchers import (ForeignLauncher, launcher_of_script, launchers_of_module, launchers_of_program,
                                         launchers_shown_by_selection)
from vllm_lint.record import Record, lazy_re, screened_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional, Union

__all__ = [
    "VllmCommand",
    "find_vllm_command",
    "image_is_vllm",
    "image_starts_vllm",
    "image_takes_vllm_args",
    "version_from_image",
    "version_from_pip_install",
    "version_from_tool_run",
    "version_from_requirement",
    "split_env_word",
    "is_assignment",
    "docker_gpu_count",
    "docker_image_index",
]


class VllmCommand(Record):
    """Where vLLM starts in a word list.

    ``entry``: ``"vllm serve"``, ``"openai.api_server"``, ``"api_server"``, ``"dynamo.vllm"`` or
    ``"docker:<image>"``.
    ``args_start``: index of the first word that is vLLM's (after ``serve``, after the module of
    ``python -m``, after the image of ``docker run``); may equal ``len(words)``.
    ``env``: ``(word index, NAME, value)`` for environment set on the way (leading ``A=B``,
    ``env A=B``, ``docker -e A=B``); ``value`` is None for ``-e NAME`` pass-through. The word at
    ``index`` may carry a prefix before ``NAME`` (``--env=A=B``, ``-eA=B``): use
    :func:`split_env_word` to find where the name starts.
    ``image``: the container image when the words are a ``docker``/``podman`` run.
    ``gpu_count``: the GPUs a ``docker``/``podman`` run gives the container, when stated as a number
    or a device list (:func:`docker_gpu_count`).
    ``image_cmd_start``: for a vLLM image run without ``--entrypoint``, the index of the first word
    after the image: the words from there to ``args_start`` (``vllm serve``) are appended to the
    image's own entrypoint, not run instead of it.
    ``entry_start``: for ``vllm serve`` or ``python -m MODULE`` run directly (not as an image's
    arguments), the index of its first word: the words from there to ``args_start`` name the
    program.
    ``via``: how the words were read where that is not plain (an unknown wrapper read through, the
    interpreter in a variable, ``docker create``), for ``--verbose``; None otherwise.
    ``built_from``: ``image`` is the vLLM image a locally built image starts ``FROM`` (True), and
    ``"untagged"`` when that image installs vLLM again (the tag names no release).
    ``image_adds``: the image gives vLLM words these do not show (its Dockerfile's ``ENTRYPOINT``
    arguments, or its ``CMD`` when the run gives none), said where; None otherwise.
    """

    __slots__ = ("entry", "args_start", "env", "image", "gpu_count", "gpus_source", "image_cmd_start", "via",
                 "built_from", "entry_start", "image_adds")

    def __init__(self, entry: str, args_start: int, env: Optional[list[tuple[int, str, Optional[str]]]] = None,
                 image: Optional[str] = None, gpu_count: Optional[int] = None,
                 gpus_source: Optional[str] = None) -> None:
        self.entry = entry
        self.args_start = args_start
        self.env = [] if env is None else env
        self.image = image
        # GPUs the container gets: ``--gpus 2`` / ``--gpus '"device=0,1"'`` / podman ``--device
        # nvidia.com/gpu=0`` (``all`` is unknown: None); ``gpus_source`` names the option.
        self.gpu_count = gpu_count
        self.gpus_source = gpus_source
        self.image_cmd_start: Optional[int] = None
        self.entry_start: Optional[int] = None
        self.via: Optional[str] = None
        # set by a reader that knows ``image`` is the base of the image the words name (one built
        # from it): its tag is the Dockerfile's ``FROM``, not written in these words
        self.built_from = False
        self.image_adds: Optional[str] = None


_ASSIGN_RE = lazy_re(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON_RE = screened_re(r"^python(\d(\.\d+)?)?[mtw]?$")  # (screened: tried on every word)


def is_assignment(word: str) -> bool:
    """``NAME=value`` (a shell assignment word / an env entry)."""
    return "=" in word and _ASSIGN_RE.match(word) is not None  # (most words hold no `=`: no match tried)


def split_env_word(word: str) -> tuple[int, str, Optional[str]]:
    """Split an env-setting word into ``(prefix_len, NAME, value)``.

    ``"A=B"`` -> ``(0, "A", "B")``; ``"--env=A=B"`` -> ``(6, "A", "B")``; ``"-eA=B"`` ->
    ``(2, "A", "B")``; ``"A"`` -> ``(0, "A", None)``.
    """
    prefix = 0
    if word.startswith("--") and "=" in word:
        prefix = word.index("=") + 1
    elif word.startswith("-") and len(word) > 2:
        prefix = 2
    rest = word[prefix:]
    if "=" in rest:
        name, value = rest.split("=", 1)
        return prefix, name, value
    return prefix, rest, None


def _base(word: str) -> str:
    """A program word's base name: ``/opt/venv/bin/vllm`` -> ``vllm``; a Windows program
    (``vllm.exe``, ``python.exe``, PowerShell's paths read with ``/``) without its ``.exe``."""
    base = word.rsplit("/", 1)[-1]
    return base[:-4] if base[-4:].lower() == ".exe" else base


# --------------------------------------------------------------------------------------------
# images and versions


# (what an image reference names, and whether it holds vLLM: vllm_lint.images)


_NIGHTLY_INDEX = lazy_re(r"wheels\.vllm\.ai/(?:nightly\b|[0-9a-f]{7,40}\b)", re.I)
_PIP_VALUE_OPTS = {
    "-r", "--requirement", "-c", "--constraint", "-i", "--index-url", "--extra-index-url",
    "-f", "--find-links", "-e", "--editable", "-t", "--target", "--prefix", "--root",
    "--python", "-p", "--platform", "--python-version", "--implementation", "--abi",
    "--src", "--upgrade-strategy", "--progress-bar", "--trusted-host", "--cache-dir",
    "--index-strategy", "--torch-backend", "--extra", "--group", "--config-settings", "-C",
    "--only-binary", "--no-binary", "--proxy", "--timeout", "--retries", "--log",
}

_REQ_RE = lazy_re(
    r"^\s*vllm\s*(\[[^\]]*\])?\s*(?P<spec>(===|==|>=|<=|~=|!=|>|<)\s*[^;\s]+(\s*,\s*(===|==|>=|<=|~=|!=|>|<)\s*[^;,\s]+)*)?\s*(;.*)?$",
    re.IGNORECASE,
)
_WHEEL_RE = lazy_re(r"(?:^|/)vllm-(\d[^-/]*)-[^/]*\.whl$", re.IGNORECASE)


def version_from_requirement(req: str) -> Optional[str]:
    """The vLLM version one requirement pins (``vllm==0.8.5``, ``vllm[audio]>=0.9``, a wheel), as
    :func:`version_from_pip_install` gives it; None for another package or an unpinned ``vllm``."""
    m = _WHEEL_RE.search(req)
    if m:
        return m.group(1).replace("%2B", "+")
    if "@" in req:  # vllm @ url
        name, url = req.split("@", 1)
        if name.strip().lower().split("[")[0] == "vllm":
            m = _WHEEL_RE.search(url.strip())
            return m.group(1) if m else None
        return None
    m = _REQ_RE.match(req)
    if not m or not m.group("spec"):
        return None
    spec = re.sub(r"\s+", "", m.group("spec"))
    if "," not in spec:
        for op in ("===", "=="):
            if spec.startswith(op):
                return spec[len(op) :]
    return spec


def version_from_pip_install(words: list[str]) -> Optional[str]:
    """The vLLM version pinned by ``pip install vllm==0.8.5`` (also ``pip3``, ``python -m pip``,
    ``uv pip install``, ``uv add``, extras ``vllm[all]==x``, a ``vllm-X-....whl`` file).

    ``==X`` gives ``"X"``; any other specifier is returned as written without spaces
    (``">=0.9"``, ``">=0.8,<0.9"``); an unpinned ``vllm`` gives None.
    """
    n = len(words)
    start = None
    for i, w in enumerate(words):
        b = _base(w)
        if w == "install" and i > 0:
            prev = _base(words[i - 1])
            if prev.startswith("pip") or (i >= 2 and _base(words[i - 2]) == "uv" and prev == "pip"):
                start = i + 1
                break
        if b == "uv" and i + 1 < n and words[i + 1] == "add":
            start = i + 2
            break
        if b in ("pipx",) and i + 1 < n and words[i + 1] == "install":
            start = i + 2
            break
    if start is None:
        return None
    i = start
    nightly = unpinned = False
    while i < n:
        w = words[i]
        if w in ("&&", "||", ";", "|"):
            break
        if w.startswith("-"):
            opt, _eq, inline = w.partition("=")
            if opt in _PIP_VALUE_OPTS:
                url = inline or (words[i + 1] if i + 1 < n else "")
                nightly = nightly or ("-index-url" in opt or opt in ("-i", "-f", "--find-links")) and bool(
                    _NIGHTLY_INDEX.search(url))
                i += 1 if inline else 2
                continue
            i += 1
            continue
        v = version_from_requirement(w)
        if v is not None:
            return v
        unpinned = unpinned or w.lower().split("[", 1)[0] == "vllm"
        i += 1
    # an unpinned vllm from vLLM's nightly wheel index (wheels.vllm.ai/nightly, or a commit's
    # wheels.vllm.ai/<sha>): a build of main, no release
    return "nightly" if nightly and unpinned else None


# an environment module of vLLM as HPC sites name it (Lmod / Environment Modules, EasyBuild's
# `vLLM/0.11.0-foss-2024a-CUDA-12.6.0`, a site's `vllm/0.10.1`): the release is the version's head
_MODULE_RE = lazy_re(r"^vllm/v?(\d+\.\d+(?:\.\d+)*(?:\.post\d+)?)(?![\w.])", re.IGNORECASE)
_MODULE_VERBS = ("load", "add", "switch", "swap")


def version_from_module_load(words: list[str]) -> Optional[str]:
    """The vLLM release an HPC environment module names: ``module load vLLM/0.11.0`` (also
    ``module add``, ``switch``/``swap`` OLD NEW, ``ml vLLM/0.11.0``, several modules in one
    command, EasyBuild's ``vLLM/0.11.0-foss-2024a-CUDA-12.6.0``). The site built that release: a
    script that loads it runs it. None when no vLLM module with a version is loaded (``module
    load vllm`` takes the site's default, which the file does not name)."""
    if not words:
        return None
    b = _base(words[0])  # (the command's program: `echo module load ...` loads nothing)
    if b == "module" and len(words) > 1 and words[1] in _MODULE_VERBS:
        rest = words[2:]
    elif b == "ml":
        rest = words[1:]
    else:
        return None
    found = None
    for r in rest:  # (the last vLLM module: `switch OLD NEW` loads NEW, as does a later `load`)
        if r in ("&&", "||", ";", "|"):
            break
        m = _MODULE_RE.match(r)
        if m:
            found = m.group(1)
    return found


# --------------------------------------------------------------------------------------------
# the recogniser

_DOCKER_VALUE_OPTS = {
    "-e", "--env", "-v", "--volume", "-p", "--publish", "--name", "--gpus", "--ipc",
    "--shm-size", "--network", "--net", "--entrypoint", "-w", "--workdir", "--runtime",
    "--env-file", "--mount", "--device", "-u", "--user", "--ulimit", "-l", "--label",
    "--label-file", "-h", "--hostname", "-m", "--memory", "--memory-swap", "--memory-reservation",
    "-c", "--cpu-shares", "--cpus", "--cpuset-cpus", "--cpuset-mems", "--cap-add", "--cap-drop",
    "--security-opt", "--add-host", "--dns", "--dns-search", "--dns-option", "--log-driver",
    "--log-opt", "--restart", "--pid", "--uts", "--userns", "--cgroupns", "--cgroup-parent",
    "--platform", "--pull", "--stop-signal", "--stop-timeout", "--tmpfs", "--volumes-from",
    "-a", "--attach", "--link", "--ip", "--ip6", "--mac-address", "--expose", "--group-add",
    "--health-cmd", "--health-interval", "--health-retries", "--health-timeout",
    "--health-start-period", "--isolation", "--kernel-memory", "--network-alias", "--oom-score-adj",
    "--storage-opt", "--sysctl", "--blkio-weight", "--device-cgroup-rule", "--cidfile",
    "--detach-keys", "--annotation", "--device-read-bps", "--device-write-bps", "--pids-limit",
    "--memory-swappiness", "--cpu-period", "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime",
    "--domainname", "--gpus-all", "--hooks-dir", "--pod", "--arch", "--os", "--variant",
    "--secret", "--replace-env", "--env-merge", "--requires", "--sdnotify", "--timeout",
    "--tz", "--umask", "--uidmap", "--gidmap", "--subuidname", "--subgidname", "--chrootdirs",
    "--init-path", "--label", "--log-level", "--preserve-fds", "--rdt-class", "--seccomp-policy",
    "--personality", "--passwd-entry", "--group-entry", "--decryption-key", "--authfile",
    "--cert-dir", "--creds", "--conmon-pidfile", "--pidfile", "--cgroups", "--cgroup-conf",
}
_DOCKER_SHORT_VALUE = set("aceghlmpuvw")

_PY_VALUE_OPTS = {"-X", "-W", "-Q", "--check-hash-based-pycs"}

_OPENAI_MODULES = {
    "vllm.entrypoints.openai.api_server": "openai.api_server",
    "vllm.entrypoints.api_server": "api_server",
}

# vLLM's offline benchmarks, which read vLLM's engine options beside their own (wrapper_options):
# the `vllm bench` sub-commands, and the scripts of vLLM's `benchmarks/` folder that preceded them
# (often copied into other repositories and run from there)
_BENCH_COMMANDS = {"latency": "vllm bench latency", "throughput": "vllm bench throughput"}
_BENCH_SCRIPTS = {"benchmark_latency.py": "vllm benchmark_latency.py",
                  "benchmark_throughput.py": "vllm benchmark_throughput.py"}

# wrappers in front of vLLM: one table (``LAUNCHERS``), read by one function (``_through``)

# the options of ``uvx`` / ``uv tool run`` that take a value (``--from vllm==0.9.1``: the package
# the tool comes from, ``version_from_tool_run``)
_TOOL_RUN_VALUES = ("--from", "--with", "--with-requirements", "--python", "-p", "--index-url", "--index",
                    "--extra-index-url")


class Launcher(Record):
    """A program that runs another program given on its command line (``srun ... vllm serve``).

    ``names``: its program names (the base name of the first word); ``sub``: the words that must
    follow for it to run a program (``uv run``, ``ray job submit``, ``kubectl exec``), after its
    own options; ``values``: its options that take a separate value (``-n 2``), with the number
    of words they take (``--mca KEY VALUE``: 2) when not one; ``positionals``: the words it eats
    before the program (``timeout DURATION``, ``apptainer exec IMAGE``, ``kubectl exec POD``);
    ``dashdash``: ``--`` ends its options (and, ``"required"``, only there does the program
    start: ``ray job submit ... -- CMD``); ``env``: its options whose value is ``NAME=VALUE``
    for the program's environment (``docker exec -e``, ``apptainer --env``); ``assignments``:
    ``NAME=VALUE`` words before the program set its environment (``env``); ``splits``: its options
    whose value is a whole command string (``env -S "..."``), not read here; ``lookahead``: its
    options are too many to list, so a word that does not look like a program is taken for an
    option's value (``srun -N 2 vllm serve``); ``modules``: its options whose value is a Python
    module it runs (``uv run -m MODULE``); ``package``: its program word may name the package
    the program comes from, at a release (``uvx vllm@0.9.1``, ``pipx run vllm==0.8.5``:
    ``version_from_tool_run``); ``source``: where its options were read."""

    __slots__ = ("names", "sub", "values", "positionals", "dashdash", "env", "assignments", "splits",
                 "lookahead", "modules", "source", "image", "package")

    def __init__(self, names: tuple[str, ...], source: str, *, sub: tuple[str, ...] = (),
                 values: Union[tuple[str, ...], dict[str, int]] = (), positionals: int = 0,
                 dashdash: Union[bool, str] = True, env: tuple[str, ...] = (), assignments: bool = False,
                 splits: tuple[str, ...] = (), lookahead: bool = False, modules: tuple[str, ...] = (),
                 image: bool = False, package: bool = False) -> None:
        self.names = names
        self.package = package
        self.source = source
        self.sub = sub
        self.values = dict.fromkeys(values, 1) if isinstance(values, tuple) else values
        self.positionals = positionals
        self.dashdash = dashdash
        self.env = env
        self.assignments = assignments
        self.splits = splits
        self.lookahead = lookahead
        self.modules = modules
        self.image = image  # its positional is the container image the program runs in


LAUNCHERS: tuple[Launcher, ...] = (
    Launcher(("exec",), "bash(1) builtin exec", values=("-a",)),
    Launcher(("command", "builtin"), "bash(1) builtins"),
    Launcher(("nohup",), "coreutils nohup(1)"),
    Launcher(("time",), "GNU time(1)", values=("-f", "--format", "-o", "--output")),
    Launcher(("nice",), "coreutils nice(1)", values=("-n", "--adjustment")),
    Launcher(("ionice",), "util-linux ionice(1)",
             values=("-c", "-n", "-p", "-P", "-u", "--class", "--classdata")),
    Launcher(("stdbuf",), "coreutils stdbuf(1)", values=("-i", "-o", "-e", "--input", "--output", "--error")),
    Launcher(("sudo",), "sudo(8)", values=(
        "-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host", "--prompt",
        "--chdir", "--role", "--type", "--other-user", "--command-timeout", "--close-from")),
    Launcher(("doas",), "doas(1)", values=("-u", "-C")),
    Launcher(("timeout",), "coreutils timeout(1)", values=("-s", "-k", "--signal", "--kill-after"), positionals=1),
    Launcher(("numactl",), "numactl(8)", values=(
        "-N", "-m", "-C", "-i", "-p", "--cpunodebind", "--membind", "--physcpubind", "--interleave",
        "--preferred", "--preferred-many", "-P", "-w", "--weighted-interleave")),
    Launcher(("taskset",), "util-linux taskset(1)", positionals=1),
    Launcher(("chrt",), "util-linux chrt(1)", positionals=1),
    Launcher(("setsid",), "util-linux setsid(1)"),
    Launcher(("env",), "coreutils env(1)", values=("-u", "--unset", "-C", "--chdir"), assignments=True,
             splits=("-S", "--split-string")),
    Launcher(("srun",), "Slurm srun(1)", lookahead=True, values=(
        "-N", "--nodes", "-n", "--ntasks", "-c", "--cpus-per-task", "-p", "--partition", "-t", "--time", "-G",
        "--gpus", "-w", "--nodelist", "-J", "--job-name", "-A", "--account", "-o", "--output", "-e", "--error",
        "--gres", "--mem", "--ntasks-per-node", "--gpus-per-node", "--gpus-per-task", "-x", "--exclude",
        "--container-image", "--container-mounts", "--container-workdir", "--mpi", "--export", "-D", "--chdir",
        "-q", "--qos", "--jobid", "--het-group", "--overlap-nodes")),
    Launcher(("mpirun", "mpiexec", "orterun", "prterun"), "Open MPI mpirun(1), MPICH mpiexec", lookahead=True,
             values={"-np": 1, "-n": 1, "-c": 1, "-N": 1, "-H": 1, "--host": 1, "-host": 1, "--hostfile": 1,
                     "-hostfile": 1, "--map-by": 1, "--bind-to": 1, "--rank-by": 1, "-x": 1, "--mca": 2, "-mca": 2,
                     "-ppn": 1, "--npernode": 1, "-wdir": 1, "--wdir": 1, "-genv": 2, "-env": 2}),
    Launcher(("torchrun",), "PyTorch torchrun", lookahead=True),
    Launcher(("systemd-run",), "systemd-run(1)", env=("-E", "--setenv"), values=(
        "-u", "--unit", "-p", "--property", "-E", "--setenv", "--description", "--slice", "-M", "--machine",
        "--uid", "--gid", "--nice", "-H", "--host", "--working-directory", "--on-active", "--on-boot",
        "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--timer-property",
        "--path-property", "--socket-property", "--service-type", "--expand-environment")),
    Launcher(("ray",), "Ray jobs CLI (ray job submit ... -- ENTRYPOINT)", sub=("job", "submit"), dashdash="required"),
    Launcher(("apptainer", "singularity"), "Apptainer / SingularityCE exec", sub=("exec",), positionals=1, image=True,
             env=("--env",), values=(
                 "-B", "--bind", "--env", "--env-file", "-H", "--home", "--overlay", "-W", "--workdir", "--pwd",
                 "--mount", "--network", "--network-args", "--security", "--app", "-S", "--scratch",
                 "--apply-cgroups", "--hostname", "--dns", "--fusemount", "--drop-caps", "--add-caps")),
    Launcher(("docker", "podman", "nvidia-docker"), "docker exec", sub=("exec",), positionals=1,
             env=("-e", "--env"), values=("-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file",
                                          "--detach-keys")),
    Launcher(("kubectl", "oc"), "kubectl exec", sub=("exec",), positionals=1, values=(
        "-c", "--container", "-n", "--namespace", "--context", "--kubeconfig", "-f", "--filename", "--cluster",
        "--user", "-s", "--server", "--pod-running-timeout", "--as", "--token")),
    Launcher(("uv",), "uv run", sub=("run",), values=(
        "--with", "--with-requirements", "--with-editable", "--python", "-p", "--project", "--directory",
        "--package", "--extra", "--group", "--env-file", "--index", "--index-url", "--extra-index-url",
        "--from", "-w", "--only-group", "--no-group"), modules=("-m", "--module")),
    Launcher(("uvx",), "uvx (uv tool run)", values=_TOOL_RUN_VALUES, package=True),
    Launcher(("uv",), "uv tool run (uvx)", sub=("tool", "run"), values=_TOOL_RUN_VALUES, package=True),
    Launcher(("pipx",), "pipx run", sub=("run",), values=("--spec", "--python", "--index-url", "--pip-args"),
             package=True),
    Launcher(("conda", "mamba", "micromamba"), "conda run", sub=("run",), values=(
        "-n", "--name", "-p", "--prefix", "--cwd")),
    Launcher(("pixi",), "pixi run", sub=("run",), values=("-e", "--environment", "--manifest-path")),
    Launcher(("poetry", "pipenv", "pdm", "hatch", "rye"), "poetry/pipenv/pdm/hatch/rye run", sub=("run",),
             values=("-C", "--directory", "-P", "--project")),
    Launcher(("xargs", "caffeinate", "unbuffer", "ddtrace-run", "opentelemetry-instrument", "dumb-init", "tini",
              "catchsegv", "nsys"), "wrappers whose options are flags or too many to list", lookahead=True),
    Launcher(("gosu", "su-exec"), "gosu, su-exec: USER then the program", positionals=1),
    Launcher(("accelerate",), "Hugging Face accelerate launch (its options are too many to list)", sub=("launch",),
             lookahead=True, values=("--config_file", "--num_processes", "--num_machines", "--machine_rank",
                                     "--main_process_ip", "--main_process_port", "--mixed_precision",
                                     "--gpu_ids", "--deepspeed_config_file", "--dynamo_backend")),
    Launcher(("strace",), "strace(1)", values=("-o", "-e", "-p", "-s", "-u")),
)
# every row of a program name, in the table's order (``uv run``, ``uv tool run``): the first whose
# sub-command the words hold runs the program
_LAUNCHER_ROWS: dict[str, tuple[Launcher, ...]] = {}
for _row in LAUNCHERS:
    for _name in _row.names:
        _LAUNCHER_ROWS[_name] = (*_LAUNCHER_ROWS.get(_name, ()), _row)
_LAUNCHER_BY_NAME = {name: rows[0] for name, rows in _LAUNCHER_ROWS.items()}  # (a name's first row)

# programs that take words as data, never as a command to run (``echo vllm serve m``): no
# launcher, known or unknown
_NOT_LAUNCHERS = frozenset({
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "pgrep", "pkill", "killall", "ps", "which", "type",
    "whereis", "man", "git", "cat", "tee", "logger", "read", "test", "[", "[[", "alias", "hash", "history",
    "basename", "dirname", "curl", "wget", "sed", "awk", "cut", "head", "tail", "notify", "say", "log",
    "info", "warn", "error", "debug", "print", "export", "local", "declare", "readonly", "unset", "set",
    "source", ".", "return", "exit", "pip", "pip3", "help",
})

_EXPANDED_ASSIGNMENT = lazy_re(r"^\$(?:\{[A-Za-z_]\w*\}|[A-Za-z_]\w*)=")


def _looks_like_program(word: str) -> bool:
    b = _base(word)
    return (
        b == "vllm"
        or bool(_PYTHON_RE.match(b))
        or b in _LAUNCHER_BY_NAME
        or bool(launchers_of_program(b))
        or is_assignment(word)
    )


def _past_option(row, words: list[str], j: int, env: list) -> int:
    """The index after option ``words[j]`` of a runner (``row``: its options that take values and
    those that set a variable), and its variable appended to ``env`` (``--env=K=V``, ``-e K=V``)."""
    w = words[j]
    if w.startswith("--") and "=" in w:
        if w.split("=", 1)[0] in row.env:
            env.append((j, *split_env_word(w)[1:]))
        return j + 1
    count = row.values.get(w, 0)
    if count and w in row.env and j + 1 < len(words):
        _p, name, val = split_env_word(words[j + 1])
        env.append((j + 1, name, val))
    return j + 1 + count


def _through(words: list[str], i: int, row: Launcher, env: list, images: Optional[list] = None) -> Optional[int]:
    """The index of the program that launcher ``row`` runs, its name being ``words[i - 1]``; None
    when it runs none that the words show. Environment it sets is appended to ``env``; the image
    a container launcher runs the program in, to ``images``."""
    n = len(words)
    j = i
    if row.sub:
        while j < n and words[j].startswith("-") and words[j] != "--":  # its options before the sub-command
            j += 1 + (row.values.get(words[j], 0) if "=" not in words[j] else 0)
        if words[j:j + len(row.sub)] != list(row.sub):
            return None
        j += len(row.sub)
    positional = row.positionals
    while j < n:
        w = words[j]
        if w == "--" and row.dashdash:
            return j + 1 if j + 1 < n else None
        if row.dashdash == "required":
            j += 1
            continue
        if w.startswith("-") and len(w) > 1:
            if w in row.splits:
                return None  # a command string of its own (env -S "..."), not split here
            j = _past_option(row, words, j, env)
            continue
        if row.assignments:
            if is_assignment(w):
                name, value = w.split("=", 1)
                env.append((j, name, value))
                j += 1
                continue
            if _EXPANDED_ASSIGNMENT.match(w):
                j += 1  # env "$NAME=$VALUE": a variable whose name is unknown here
                continue
        if positional > 0:
            if row.image and images is not None:
                images.append(w)
            positional -= 1
            j += 1
            continue
        if row.lookahead and not _looks_like_program(w):
            j += 1  # an option value of a launcher whose options are not all listed (srun -N 2 vllm ...)
            continue
        return j
    return None


_PROGRAM_WORD = lazy_re(r"^[\w./+-]+$")
# a program named by a path or a script's suffix (``./launch-cluster.sh``, ``bin/in-container``):
# a file of the repository's own, run with the words after it
_SCRIPT_WORD = lazy_re(r"^(?:[\w.+-]*/[\w./+-]*|[\w.+-]+\.(?:sh|bash|zsh))$")
# the words by which a wrapper says "run this program" (``./launch-cluster.sh exec vllm serve``,
# ``tool run -- vllm serve``), its sub-command before the program
_RUN_VERBS = frozenset({"exec", "run", "--"})


def _read_through_unknown(words: list[str], i: int) -> Optional[int]:
    """An unknown program at ``i`` in front of vLLM's command, when its argument structure is
    clear: each word up to ``vllm`` / ``python`` an option, an option's value (the word after an
    option), an assignment or a run verb (``exec``, ``run``, ``--``: at most two), at most 16 of
    them, and at least one option or run verb, or a program named by its path (``./wrap.sh vllm
    serve m``; ``Dump vllm serve flags``, prose, has none of these). The index of vLLM's command
    word."""
    w = words[i]
    if _base(w) in _NOT_LAUNCHERS or not _PROGRAM_WORD.match(w):
        return None
    prev_option = clear = False
    verbs = 0
    for j in range(i + 1, min(len(words), i + 18)):
        x = words[j]
        b = _base(x)
        if b == "vllm" or _PYTHON_RE.match(b) or launchers_of_program(b):
            return j if clear or _SCRIPT_WORD.match(w) else None
        if x in _RUN_VERBS and not prev_option and verbs < 2:
            verbs += 1
            clear = True
            continue
        if x.startswith("-") and len(x) > 1 and x != "--":
            prev_option = "=" not in x
            clear = True
            continue
        if is_assignment(x) or prev_option:
            prev_option = False
            continue
        return None
    return None


_GPU_ID_RE = lazy_re(r"^(\d+|GPU-[0-9a-fA-F-]+|MIG-[\w/-]+)$")
_CDI_GPU_RE = lazy_re(r"^(?:nvidia\.com|amd\.com)/gpu=(.+)$")


def docker_gpu_count(value: str) -> Optional[int]:
    """GPUs given by ``docker run --gpus VALUE``: ``2`` -> 2, ``"device=0,1"`` / ``device=0,1``
    -> 2, ``count=4`` -> 4; ``all`` (the host's count, unknown here), ``count=all`` and anything
    unrecognised -> None."""
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        v = v[1:-1].strip()
    if v.isdigit():
        return int(v)
    m = re.match(r"^(device|count)=(.*)$", v)
    if not m:
        return None
    rest = m.group(2)
    if len(rest) >= 2 and rest[0] == rest[-1] and rest[0] in "\"'":
        rest = rest[1:-1]
    if m.group(1) == "count":
        return int(rest) if rest.isdigit() else None
    # device=0,1 (docker reads the value as CSV: capabilities=... may follow only when quoted)
    ids = [x.strip() for x in rest.split(",")]
    if not ids or not all(_GPU_ID_RE.match(x) for x in ids):
        return None
    return len(ids)


def _gpu_facts(gpus: list[str], cdi: list[str]) -> tuple[Optional[int], Optional[str]]:
    """``(count, source)`` from ``--gpus`` values (the last one wins, as in docker) and podman CDI
    ``--device nvidia.com/gpu=N`` values (one GPU each; ``=all`` unknown)."""
    if gpus:
        n = docker_gpu_count(gpus[-1])
        return (n, "docker --gpus") if n is not None else (None, None)
    if cdi:
        names: set[str] = set()
        for d in cdi:
            ident = _CDI_GPU_RE.match(d).group(1)  # type: ignore[union-attr]
            if not _GPU_ID_RE.match(ident):
                return None, None  # `all`, or a name we cannot count
            names.add(ident)
        return len(names), "podman --device nvidia.com/gpu"
    return None, None


def _parse_docker(words: list[str], i: int, env: list, depth: int) -> Optional[VllmCommand]:
    """``i`` is the index just after ``run``."""
    i, entrypoint, gpus, cdi = _docker_options(words, i, env)
    if i >= len(words):
        return None
    found = _parse_docker_image(words, i, env, depth, entrypoint)
    if found is not None:
        count, source = _gpu_facts(gpus, cdi)
        if count is not None:
            found.gpu_count, found.gpus_source = count, source
    return found


def _docker_options(words: list[str], i: int, env: list) -> tuple[int, Optional[str], list[str], list[str]]:
    """A ``docker run``'s options from ``i`` (just after ``run``): ``(the index of the image, the
    ``--entrypoint``, the ``--gpus`` values, the CDI GPU devices)``; the environment they set is
    appended to ``env`` (as :attr:`VllmCommand.env`)."""
    n = len(words)
    entrypoint: Optional[str] = None
    gpus: list[str] = []
    cdi: list[str] = []
    while i < n:
        w = words[i]
        if w == "--":
            i += 1
            break
        if not w.startswith("-") or w == "-":
            break
        if w.startswith("--"):
            if "=" in w:
                opt, val = w.split("=", 1)
                if opt == "--env":
                    env.append((i, *split_env_word(w)[1:]))
                elif opt == "--entrypoint":
                    entrypoint = val
                elif opt == "--gpus":
                    gpus.append(val)
                elif opt == "--device" and _CDI_GPU_RE.match(val):
                    cdi.append(val)
                i += 1
                continue
            if w in _DOCKER_VALUE_OPTS:
                if i + 1 < n:
                    if w == "--env":
                        _p, name, val = split_env_word(words[i + 1])
                        env.append((i + 1, name, val))
                    elif w == "--entrypoint":
                        entrypoint = words[i + 1]
                    elif w == "--gpus":
                        gpus.append(words[i + 1])
                    elif w == "--device" and _CDI_GPU_RE.match(words[i + 1]):
                        cdi.append(words[i + 1])
                i += 2
                continue
            i += 1
            continue
        # short options: -e X, -eX=1, -it, -p8000:8000
        letter = w[1]
        if letter in _DOCKER_SHORT_VALUE:
            if len(w) > 2:
                if letter == "e":
                    env.append((i, *split_env_word(w)[1:]))
                i += 1
                continue
            if i + 1 < n and letter == "e":
                _p, name, val = split_env_word(words[i + 1])
                env.append((i + 1, name, val))
            i += 2
            continue
        # a run of boolean letters, possibly ending in a value-taking one (-ite X)
        if w[-1] in _DOCKER_SHORT_VALUE:
            i += 2
        else:
            i += 1
    return i, entrypoint, gpus, cdi


def _parse_docker_image(words: list[str], i: int, env: list, depth: int,
                        entrypoint: Optional[str], rest: Optional[int] = None) -> Optional[VllmCommand]:
    """``words[i]`` is the image of a ``docker run``; what follows (from ``rest``) is its command."""
    n = len(words)
    image = container_image(words[i]) if rest is not None else words[i]
    rest = i + 1 if rest is None else rest
    if entrypoint is not None:
        ep = entrypoint.split()
        if ep and _base(ep[0]) == "vllm":
            if len(ep) > 1 and ep[1] == "serve":
                return VllmCommand("vllm serve", rest, env, image)
            if rest < n and words[rest] == "serve":
                return VllmCommand("vllm serve", rest + 1, env, image)
            return None
        if ep and _PYTHON_RE.match(_base(ep[0])):
            # python entrypoint: the command words are python's arguments
            found = _parse_python(words, rest)
            if found is not None:
                entry, start = found
                return VllmCommand(entry, start, env, image)
            return None
        sub = _find(words, rest, [], depth + 1)
        if sub is not None:
            sub.env = env + sub.env
            sub.image = image
        return sub
    if rest < n:
        sub = _find(words, rest, [], depth + 1)
        if sub is not None:
            sub.env = env + sub.env
            sub.image = image
            if image_starts_vllm(image) and sub.args_start > rest:  # (a shell image runs the words)
                sub.image_cmd_start = rest
            return sub
    if rest < n and _base(words[rest]) == _split_image(image.lower())[0].rsplit("/", 1)[-1]:
        return None  # the image's own program (vllm/vllm-router ... vllm-router): not vLLM's server
    if image_takes_vllm_args(image):
        return VllmCommand(f"docker:{image}", rest, env, image)
    return None


def _parse_python(words: list[str], i: int) -> Optional[tuple[str, int]]:
    """``i`` is the index just after the interpreter. Returns ``(entry, args_start)``."""
    n = len(words)
    while i < n:
        w = words[i]
        if w == "-m":
            if i + 1 >= n:
                return None
            return _module_entry(words, words[i + 1], i + 2)
        if w.startswith("-m") and len(w) > 2:
            return _module_entry(words, w[2:], i + 1)
        if w in _PY_VALUE_OPTS:
            i += 2
            continue
        if w.startswith("-") and len(w) > 1 and w != "-c":
            i += 1
            continue
        if w.endswith("vllm/entrypoints/openai/api_server.py"):
            return "openai.api_server", i + 1
        if w.endswith("vllm/entrypoints/api_server.py"):
            return "api_server", i + 1
        script = _BENCH_SCRIPTS.get(_base(w))
        if script is not None and any(x == "--model" or x.startswith("--model=") for x in words[i + 1:]):
            # (other projects ship a benchmark_throughput.py of their own, with other options:
            # vLLM's is run with the engine's --model)
            return script, i + 1
        row = launcher_of_script(w)
        if row is not None:
            return _foreign_entry(words, i + 1, row)
        return _selected_anywhere(words, i + 1)
    return None


def _selected_anywhere(words: list[str], i: int) -> Optional[tuple[str, int]]:
    """A Python program of the repository's own whose arguments select a row's vLLM back-end by a
    key only that tool has (``select_shows``: ``actor_rollout_ref.rollout.name=vllm``, verl's
    configuration, run by a trainer built on verl's: ``python -m sp3f.main_grpo ...``)."""
    for row in launchers_shown_by_selection():
        names, values = row.select or ((), frozenset())
        for w in words[i:]:
            if w in ("&&", "||", ";", "|"):
                break
            key, eq, value = w.partition("=")
            if eq and key.lstrip("+") in names and value in values:
                return row.entry, i
    return None


def _foreign_entry(words: list[str], i: int, row: ForeignLauncher, sub: bool = False) -> Optional[tuple[str, int]]:
    """``(entry, args_start)`` of another tool's launcher of vLLM (``foreign_launchers``) whose
    program ends at ``i``: its sub-command words follow (when ``sub``), then its arguments, among
    which the option that selects vLLM's back-end, for a tool that has several."""
    if sub:
        if words[i:i + len(row.sub)] != list(row.sub):
            return None
        i += len(row.sub)
    if row.select is not None:
        names, values = row.select
        n = len(words)
        chosen = row.select_default
        for j in range(i, n):
            w = words[j]
            if w in ("&&", "||", ";", "|"):
                break
            if w in names and j + 1 < n:
                chosen = words[j + 1]
            elif "=" in w and w.split("=", 1)[0].lstrip("+") in names:  # (Hydra: +key=v, ++key=v)
                chosen = w.split("=", 1)[1]
        if chosen is None or (chosen not in values if values else chosen.strip("'\"") in ("0", "")):
            return None
    return row.entry, i


def _module_entry(words: list[str], module: str, nxt: int) -> Optional[tuple[str, int]]:
    if module in _OPENAI_MODULES:
        return _OPENAI_MODULES[module], nxt
    for row, sub in launchers_of_module(module):
        found = _foreign_entry(words, nxt, row, sub=sub)
        if found is not None:
            return found
    if module == "dynamo.vllm":
        # NVIDIA Dynamo's vLLM worker: vLLM's engine arguments beside Dynamo's own
        # (vllm_lint/wrapper_options.py)
        return "dynamo.vllm", nxt
    if module in ("vllm.entrypoints.cli.main", "vllm"):
        if nxt < len(words) and words[nxt] == "serve":
            return "vllm serve", nxt + 1
        if nxt + 1 < len(words) and words[nxt] == "bench" and words[nxt + 1] in _BENCH_COMMANDS:
            return _BENCH_COMMANDS[words[nxt + 1]], nxt + 2
    return _selected_anywhere(words, nxt)


# the program in a variable: ``$VENV_PYTHON -m vllm.entrypoints.openai.api_server`` (``-m`` and a
# vLLM module, or the path of vLLM's server script, say it is an interpreter), ``"${VLLM_BIN}" serve`` (a name that says vllm)
# (screened: tried on every program word; most hold no `$`, no `vllm`)
_PROGRAM_VAR = screened_re(r"^\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\})$")
# a release as a tool runner's package spec names it (``0.9.1``, ``0.10.1.post1``, ``0.11.0rc2``)
_TOOL_RELEASE = r"\d+\.\d+(?:\.\d+)?(?:\.post\d+|rc\d+)?"
# the program word of a tool runner naming vLLM at a release (``vllm@0.9.1``, ``vllm@v0.9.1``,
# ``vllm==0.8.5``, ``vllm[audio]==0.9.1``): the release in group 1
_TOOL_PROGRAM = lazy_re(rf"^vllm(?:\[[\w,.-]*\])?(?:@v?|==)({_TOOL_RELEASE})$")


def version_from_tool_run(words: list[str], program: int) -> Optional[tuple[str, int]]:
    """The vLLM release a tool runner in front of the program ``words[program]`` installs for it:
    the program word itself (``uvx vllm@0.9.1 serve``, ``pipx run vllm==0.8.5 serve``) or the
    package an option names (``uvx --from vllm==0.10.0 vllm``, ``uv run --with vllm==0.11.0 vllm``,
    ``pipx run --spec vllm==0.9.0 vllm``); (the release, the index of the word naming it), or None."""
    m = _TOOL_PROGRAM.match(words[program]) if program < len(words) else None
    if m:
        return m.group(1), program
    for k in range(min(program, len(words)) - 1, -1, -1):  # (the last option naming vllm wins)
        w = words[k]
        opt, eq, inline = w.partition("=")
        if opt not in ("--from", "--with", "--spec"):
            continue
        value, at = (inline, k) if eq else ((words[k + 1], k + 1) if k + 1 < program else ("", k))
        if _REQ_RE.match(value) is None:  # (another package, a URL: not the vllm requirement read here)
            continue
        v = version_from_requirement(value)
        if v is not None and _PLAIN_RELEASE.fullmatch(v):
            return v, at
    return None


_PLAIN_RELEASE = lazy_re(_TOOL_RELEASE)  # (a range names no one release)

_VLLM_VAR = screened_re(r"^\$\{?[A-Za-z_]*vllm\w*\}?$", re.IGNORECASE)


def _find(words: list[str], i: int, env: list, depth: int) -> Optional[VllmCommand]:
    """The vLLM command of ``words`` from ``i`` (:func:`_find_command`), with the image a container
    launcher in front of it runs it in (``apptainer exec docker://vllm/vllm-openai:v0.8.5 vllm
    serve``) as its image."""
    images: list[str] = []
    found = _find_command(words, i, env, depth, images)
    if found is not None and found.image is None and images:
        found.image = container_image(images[-1])
    return found


def _runscript_image(words: list[str], i: int, env: list) -> Optional[tuple[int, int]]:
    """The index of the image of ``apptainer run`` / ``singularity run`` (also ``instance run IMAGE
    NAME``, whose arguments follow the instance's name) from ``i`` (after the program), its options
    read as ``exec``'s (the environment they set appended to ``env``): (the image's index, where its
    arguments start); None for another sub-command."""
    row = _LAUNCHER_BY_NAME["apptainer"]
    n = len(words)
    j = i
    while j < n and words[j].startswith("-") and words[j] != "--":
        j += 1 + (row.values.get(words[j], 0) if "=" not in words[j] else 0)
    instance = words[j:j + 2] == ["instance", "run"]
    if instance:
        j += 2
    elif words[j:j + 1] == ["run"]:
        j += 1
    else:
        return None
    while j < n:
        w = words[j]
        if w.startswith("-") and len(w) > 1:
            j = _past_option(row, words, j, env)
            continue
        break
    if j >= n or (instance and j + 1 >= n):
        return None
    return j, j + (2 if instance else 1)  # (an instance's name is between the image and its arguments)


# an image named by Apptainer's pull (`vllm-openai_v0.8.5.sif`: the repository's last part, `_`, the tag)
_SIF_NAME = lazy_re(r"^(?:.*/)?([\w.-]+?)_(v?\d[\w.+-]*)\.sif$")


def container_image(word: str) -> str:
    """The image reference a container launcher's image word names: ``docker://REF`` (also
    ``docker-daemon://``) is REF; a SIF file that Apptainer's pull named ``NAME_TAG.sif`` is
    ``NAME:TAG``; anything else as written."""
    for scheme in ("docker://", "docker-daemon://"):
        if word.startswith(scheme):
            return word[len(scheme):]
    m = _SIF_NAME.match(word)
    return f"{m.group(1)}:{m.group(2)}" if m else word


def _find_command(words: list[str], i: int, env: list, depth: int, images: list) -> Optional[VllmCommand]:
    n = len(words)
    if depth > 8:
        return None
    via: list[str] = []
    package = False  # (the word at ``i`` follows a runner that installs it: ``Launcher.package``)
    while i < n:
        w = words[i]
        tool = package and _TOOL_PROGRAM.match(w) is not None  # (`uvx vllm@0.9.1 serve`: the tool at a release)
        if is_assignment(w) and not tool:
            name, value = w.split("=", 1)
            env.append((i, name, value))
            i += 1
            continue
        b = "vllm" if tool else _base(w)
        if b == "vllm" or _VLLM_VAR.match(w):
            if i + 1 < n and words[i + 1] == "serve":
                cmd = _via(VllmCommand("vllm serve", i + 2, env), via, None if b == "vllm" else f"the program in `{w}`")
                cmd.entry_start = i
                return cmd
            if i + 2 < n and words[i + 1] == "bench" and words[i + 2] in _BENCH_COMMANDS:
                return _via(VllmCommand(_BENCH_COMMANDS[words[i + 2]], i + 3, env), via, None)
            return None
        rows = launchers_of_program(b)
        if rows:
            for row in rows:
                found = _foreign_entry(words, i + 1, row, sub=True)
                if found is not None:
                    return _via(VllmCommand(found[0], found[1], env), via, None)
            return None
        if _PYTHON_RE.match(b) or _PROGRAM_VAR.match(w):
            found = _parse_python(words, i + 1)  # (a variable: only when its words are python's)
            if found is None:
                return None
            cmd = _via(VllmCommand(found[0], found[1], env), via,
                       None if _PYTHON_RE.match(b) else f"the interpreter in `{w}`")
            cmd.entry_start = i
            return cmd
        if b in ("docker", "podman", "nvidia-docker"):
            j = i + 1
            # global options: docker --context x run / podman --log-level debug run
            while j < n and words[j].startswith("-"):
                j += 2 if "=" not in words[j] and words[j] in (
                    "--context", "-c", "--host", "-H", "--config", "--log-level", "-l",
                    "--root", "--runroot", "--url", "--connection", "--cgroup-manager") else 1
            if j < n and words[j] == "container" and j + 1 < n:
                j += 1
            if j < n and words[j] in ("run", "create"):  # (create: run's arguments, started later)
                return _via(_parse_docker(words, j + 1, env, depth), via,
                            f"`{b} create` (started later with these arguments)" if words[j] == "create" else None)
            if j < n and words[j] == "exec":
                k = _through(words, j, _LAUNCHER_BY_NAME[b], env)
                if k is None:
                    return None
                i = k
                continue
            return None
        if b in ("apptainer", "singularity"):
            at = _runscript_image(words, i + 1, env)
            if at is not None:  # `apptainer run IMAGE ARGS`: the image's runscript, as `docker run IMAGE ARGS`
                return _via(_parse_docker_image(words, at[0], env, depth, None, at[1]), via,
                            f"`{b} run` of the image's runscript")
        row = j = None
        for row in _LAUNCHER_ROWS.get(b, ()):
            j = _through(words, i + 1, row, env, images)
            if j is not None:
                break
        if row is not None:
            if j is None:
                return None
            if row.modules and words[j - 1] in row.modules:  # uv run -m MODULE: Python runs the module
                found = _module_entry(words, words[j], j + 1)
                return VllmCommand(found[0], found[1], env) if found is not None else None
            package = row.package
            i = j
            continue
        j = _read_through_unknown(words, i)
        if j is None:
            return None
        via.append(f"read through the wrapper `{w}`")
        i = j
    return None


def _via(found: Optional[VllmCommand], via: list[str], last: Optional[str]) -> Optional[VllmCommand]:
    """``found`` with how its words were read (``via``, then ``last``) in ``found.via``."""
    if found is not None and (via or last or found.via is not None):  # (else nothing to say: most launches)
        said = [*via, *([last] if last else []), *([found.via] if found.via else [])]
        found.via = "; ".join(dict.fromkeys(said)) or None
    return found


def docker_image_index(words: list[str]) -> Optional[int]:
    """The index of the image in ``words`` when they are a ``docker``/``podman`` ``run`` or
    ``create`` (behind the launchers and assignments :func:`find_vllm_command` reads through);
    None otherwise. For a reader that knows more about an image than its name (one built from a
    vLLM image in the same script)."""
    n = len(words)
    j = _docker_run_at(words)
    if j is None:
        return None
    while j < n:
        x = words[j]
        if x == "--":
            return j + 1 if j + 1 < n else None
        if not x.startswith("-") or x == "-":
            return j
        if x.startswith("--"):
            j += 2 if "=" not in x and x in _DOCKER_VALUE_OPTS else 1
        elif x[1] in _DOCKER_SHORT_VALUE:
            j += 1 if len(x) > 2 else 2
        else:
            j += 2 if x[-1] in _DOCKER_SHORT_VALUE else 1
    return None


def _docker_run_at(words: list[str]) -> Optional[int]:
    """The index after ``run`` / ``create`` when ``words`` are a ``docker``/``podman`` run (behind
    the launchers and assignments :func:`find_vllm_command` reads through), else None."""
    n = len(words)
    i = 0
    while i < n:
        w = words[i]
        if is_assignment(w):
            i += 1
            continue
        b = _base(w)
        if b in ("docker", "podman", "nvidia-docker"):
            j = i + 1
            while j < n and words[j].startswith("-"):
                j += 1
            if j < n and words[j] == "container":
                j += 1
            if j >= n or words[j] not in ("run", "create"):
                return None
            return j + 1
        row = _LAUNCHER_BY_NAME.get(b)
        if row is None:
            return None
        j = _through(words, i + 1, row, [])
        if j is None:
            return None
        i = j
    return None


def docker_run_env(words: list[str]) -> Optional[tuple[int, list[tuple[int, str, Optional[str]]], Optional[int],
                                                            Optional[str]]]:
    """A ``docker``/``podman`` run of an image with no command after it (whatever the image), as
    ``(the image's index, the environment its options set (as :attr:`VllmCommand.env`), the GPUs
    it gives the container, the option stating them)``; None for other words, an ``--entrypoint``,
    or words after the image (the container runs those, not its entrypoint)."""
    i = _docker_run_at(words)
    if i is None:
        return None
    env: list = []
    k, entrypoint, gpus, cdi = _docker_options(words, i, env)
    if k != len(words) - 1 or entrypoint is not None:
        return None
    return (k, env, *_gpu_facts(gpus, cdi))


def find_vllm_command(words: list[str]) -> Optional[VllmCommand]:
    """Recognise a command that starts vLLM's server; None otherwise.

    ``vllm serve`` (any path to ``vllm``, ``uv run``/``conda run``/``uvx``), ``python -m
    vllm.entrypoints.openai.api_server`` / ``vllm.entrypoints.api_server`` (any ``python3.x``,
    interpreter options before ``-m``), behind the launchers of :data:`LAUNCHERS` and leading
    ``NAME=value`` assignments, or an unknown program whose arguments are options
    (``_read_through_unknown``); ``docker``/``podman run`` of a vLLM image (arguments after the
    image are vLLM's) or of any image with a vLLM command after it. Not ``vllm
    bench|chat|complete``, nor a program that takes words as data (``echo vllm serve``).
    """
    if not words:
        return None
    try:
        return _find(list(words), 0, [], 0)
    except (IndexError, ValueError):  # pragma: no cover - defensive
        return None


# --------------------------------------------------------------------------------------------
# cloud deploy commands: a container's image, command, arguments and environment given as options
# of a deploy command, lists in one word each (``gcloud run deploy --image=IMG --args=a,b,c``)


class CloudDeploy(Record):
    """A deploy command (a row of :data:`CLOUD_DEPLOYS`) that states a container in its options.

    ``names``: its program names; ``subs``: the sub-command words that make it a deploy (any one
    of them, after the program's own options); ``image``, ``command``, ``args``, ``env``: the
    options holding each part (``--opt=VALUE`` or ``--opt VALUE``); a list value is split at commas,
    or at the delimiter a ``^D^`` prefix names (gcloud's escaping of list values holding commas);
    ``env`` values are ``NAME=VALUE`` items; ``gpus``: the option giving the GPU count,
    ``gpu_type`` the one giving their product; ``source``: where the options are documented."""

    __slots__ = ("names", "subs", "image", "command", "args", "env", "gpus", "gpu_type", "source")

    def __init__(self, names: tuple[str, ...], subs: tuple[tuple[str, ...], ...], *, image: tuple[str, ...],
                 command: tuple[str, ...], args: tuple[str, ...], env: tuple[str, ...] = (),
                 gpus: Optional[str] = None, gpu_type: Optional[str] = None, source: str = "") -> None:
        self.names = names
        self.subs = subs
        self.image = image
        self.command = command
        self.args = args
        self.env = env
        self.gpus = gpus
        self.gpu_type = gpu_type
        self.source = source


CLOUD_DEPLOYS: tuple[CloudDeploy, ...] = (
    CloudDeploy(("gcloud",), (("run", "deploy"), ("beta", "run", "deploy"), ("alpha", "run", "deploy"),
                              ("run", "jobs", "deploy"), ("run", "jobs", "create"), ("beta", "run", "jobs", "deploy"),
                              ("run", "services", "update"), ("beta", "run", "services", "update")),
                image=("--image",), command=("--command",), args=("--args",),
                env=("--set-env-vars", "--update-env-vars"), gpus="--gpu", gpu_type="--gpu-type",
                source="https://cloud.google.com/sdk/gcloud/reference/run/deploy (--args, --command: lists; "
                       "https://cloud.google.com/sdk/gcloud/reference/topic/escaping for ^D^)"),
    CloudDeploy(("gcloud",), (("ai", "models", "upload"), ("beta", "ai", "models", "upload")),
                image=("--container-image-uri",), command=("--container-command",), args=("--container-args",),
                env=("--container-env-vars",),
                source="https://cloud.google.com/sdk/gcloud/reference/ai/models/upload"),
)


class Piece(Record):
    """Part of a word: ``word`` (its index) and the characters ``[start, end)`` of its text."""

    __slots__ = ("word", "start", "end")

    def __init__(self, word: int, start: int, end: int) -> None:
        self.word = word
        self.start = start
        self.end = end


class CloudContainer(Record):
    """The container a :class:`CloudDeploy` command states: its ``row`` and ``name`` (the program and
    sub-command), ``image`` (None when not
    given) and where (a :class:`Piece`), the ``command`` and ``args`` items, the ``env`` items
    (``NAME=VALUE``), the GPU count and product as written."""

    __slots__ = ("row", "name", "image", "image_at", "command", "args", "env", "gpus", "gpu_type")

    def __init__(self, row: CloudDeploy, name: str) -> None:
        self.row = row
        self.name = name  # the program and sub-command as written (``gcloud run deploy``)
        self.image: Optional[str] = None
        self.image_at: Optional[Piece] = None
        self.command: list[Piece] = []
        self.args: list[Piece] = []
        self.env: list[Piece] = []
        self.gpus: Optional[str] = None
        self.gpu_type: Optional[str] = None


def _list_items(text: str, word: int, start: int) -> list[Piece]:
    """The items of a list value at ``text[start:]`` (word ``word``): comma-separated, or split at
    the delimiter of a ``^D^`` prefix."""
    sep = ","
    if text.startswith("^", start) and text.find("^", start + 1) > start + 1:
        close = text.find("^", start + 1)
        sep, start = text[start + 1:close], close + 1
    out, pos = [], start
    while pos <= len(text):
        nxt = text.find(sep, pos)
        end = len(text) if nxt < 0 else nxt
        if end > pos:
            out.append(Piece(word, pos, end))
        if nxt < 0:
            break
        pos = nxt + len(sep)
    return out


def find_cloud_deploy(words: list[str]) -> Optional[CloudContainer]:
    """The container a deploy command of :data:`CLOUD_DEPLOYS` states, or None."""
    if not words:
        return None
    name = _base(words[0])
    for row in CLOUD_DEPLOYS:
        if name not in row.names:
            continue
        j = 1
        while j < len(words) and words[j].startswith("-"):
            j += 1  # (the program's own flags before the sub-command: --project=P, --quiet)
        sub = next((sub for sub in row.subs if words[j:j + len(sub)] == list(sub)), None)
        if sub is None:
            continue
        found = CloudContainer(row, " ".join((name,) + sub))
        for k, w in enumerate(words):
            if not w.startswith("--"):
                continue
            opt, eq, value = w.partition("=")
            if eq:
                at, start = k, len(opt) + 1
            elif k + 1 < len(words):
                at, start, value = k + 1, 0, words[k + 1]
            else:
                continue
            if opt in row.image:
                found.image, found.image_at = value, Piece(at, start, len(words[at]))
            elif opt in row.command:
                found.command = _list_items(words[at], at, start)
            elif opt in row.args:
                found.args = _list_items(words[at], at, start)
            elif opt in row.env:
                found.env.extend(_list_items(words[at], at, start))
            elif opt == row.gpus:
                found.gpus = value
            elif opt == row.gpu_type:
                found.gpu_type = value
        return found if found.image is not None or found.command else None
    return None
