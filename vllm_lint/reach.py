"""What reaches vLLM: the one decision between extraction and rules.

Front-ends report every launch and every ``VLLM_*`` assignment they find, with what they know of
where it goes (``EnvAssign.origin``). This module decides, once per file, which of them reach a
vLLM server or engine process and how, so that rules only see what does:

* **Build-only variables.** An assignment whose origin is ``"build"`` (a Dockerfile ``ENV`` in a
  stage that the final image does not inherit, an ``export`` inside a ``RUN``) never reaches a
  container's vLLM: dropped.
* **The file's own variables.** A ``VLLM_*`` name that no vLLM release reads (neither ``envs.py``
  nor a direct ``os.getenv`` under ``vllm/`` nor its build, per the database) and that the file
  itself expands (``${VLLM_VERSION}`` in a URL, ``$VLLM_COMMIT`` in a ``pip install``, a heredoc's
  ``${VLLM_IMAGE}``, a workflow's ``${{ env.VLLM_MODEL }}``) is a variable of the file, exported
  or not: dropped. Names some release
  reads stay, expanded or not: they do reach vLLM. The file's own use also counts where it hands
  the name on: ``docker build --build-arg VLLM_REF`` (the build takes it from the environment), a
  script the file runs that expands it (``./build.sh``, ``bash scripts/build.sh``), or a
  Dockerfile that declares ``ARG VLLM_REF`` (beside the file, in a folder above it up to the
  repository root, or named by ``-f``): :class:`_Neighbours`, read only for such names.
* **Documentation's settings listings.** In documentation (Markdown, a notebook), a variable
  assigned where no launch takes it (a block that lists a ``.env`` file's lines or the settings
  of the repository's own launcher: ``VLLM_MODEL=...``, ``VLLM_STRATEGY=...``) reaches vLLM only
  under a name some release reads: the others are the launcher's, dropped. (A misspelt vLLM
  name in such a listing is dropped with them.)
* **Help requests.** ``vllm serve --help[=keyword]`` prints and exits; it is no launch.
* **Partial layouts.** :func:`layout_is_partial` says when one process does not own the whole
  parallel layout (external or hybrid data parallelism, multi-node launches), for VL402.

Severity of what is left is the rules' business (an unknown name that reaches vLLM is a warning
when it is close to a real one, else information: VL202).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .launch import EnvAssign, Extraction, Launch, Span
from .record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_EXPANSION = lazy_re(rb"\$[{(]?(VLLM_[A-Za-z0-9_]*)")  # (`$(VLLM_X)`: make's reference)
# a GitHub Actions workflow's `${{ env.VLLM_X }}` (looked for only in a file that holds `${{`)
_WORKFLOW_EXPANSION = lazy_re(rb"\$\{\{[ \t]*env\.(VLLM_[A-Za-z0-9_]*)")
# `--build-arg VLLM_REF` with no value: docker takes the value from the environment
_BARE_BUILD_ARG = lazy_re(rb"--build-arg(?:[ \t]+|=)[\"']?(VLLM_[A-Za-z0-9_]*)(?![\w=])")


def decide(extraction: Extraction, data: bytes, db: Any, documentation: bool = False,
           path: Optional[str] = None, folders: Optional[dict] = None) -> Extraction:
    """``extraction`` with what does not reach vLLM removed (in place; returned for chaining);
    ``documentation``: the file is documentation (its format's ``documentation``); ``path``: the
    file on disk, whose neighbours (scripts it runs, Dockerfiles) may use its variables;
    ``folders``: where the folders' listings are kept for the files after this one (one run's, or
    one analysis's: ``_Neighbours``)."""
    expanded = _expansions(data, extraction)
    keep = _Keep(db, expanded, _Neighbours(path, data, folders) if path is not None and not documentation else None)
    extraction.env = [e for e in extraction.env if keep(e)]
    if documentation and extraction.env:
        taken = {e.name_span for la in extraction.launches for e in la.env if e.name_span is not None}
        extraction.env = [e for e in extraction.env
                          if e.name_span is None or e.name_span in taken or keep.read_by_vllm(e.name)]
    launches = []
    for la in extraction.launches:
        if _is_help_request(la):
            continue
        la.env = [e for e in la.env if keep(e)]
        launches.append(la)
    extraction.launches = launches
    return extraction


class _Keep:
    def __init__(self, db: Any, expanded: set[str], neighbours: Optional["_Neighbours"] = None) -> None:
        self.db = db
        self.expanded = expanded
        self.neighbours = neighbours
        self.known: dict[str, bool] = {}

    def __call__(self, e: EnvAssign) -> bool:
        if e.origin == "build":
            return False
        if e.name in self.expanded and not self.read_by_vllm(e.name):
            return False
        if (self.neighbours is not None and e.name.startswith("VLLM_") and not self.read_by_vllm(e.name)
                and self.neighbours.uses(e.name)):
            return False
        return True

    def read_by_vllm(self, name: str) -> bool:
        if name not in self.known:
            self.known[name] = (self.db.env_history(name) is not None
                                or _build_history(self.db, name) is not None)
        return self.known[name]


def _build_history(db: Any, name: str) -> Optional[Any]:
    look = getattr(db, "build_env_history", None)
    return look(name) if look is not None else None


def _expansions(data: bytes, extraction: Extraction) -> set[str]:
    """``VLLM_*`` names the file expands itself (``$NAME``, ``${NAME...}``), not counting an
    assignment's own value (``ENV VLLM_X=$VLLM_X`` passes an ``ARG`` on; it consumes nothing), and
    the names a bare ``--build-arg NAME`` hands to a build."""
    out: set[str] = {m.group(1).decode() for m in _BARE_BUILD_ARG.finditer(data)} if b"--build-arg" in data else set()
    if b"$" not in data:
        return out
    own: list[tuple[str, Span]] = []
    for e in _all_env(extraction):
        if e.value_span is not None:
            own.append((e.name, e.value_span))
    for pattern in (_EXPANSION, _WORKFLOW_EXPANSION) if b"${{" in data else (_EXPANSION,):
        for m in pattern.finditer(data):
            name = m.group(1).decode()
            if any(n == name and s.start <= m.start() < s.end for n, s in own):
                continue
            out.add(name)
    return out


# a script the file runs (`./build.sh`, `bash scripts/build.sh`, `source env.sh`), as written
_RUN_SCRIPT = lazy_re(rb"(?m)(?:^|[\s;&|(`'\"])(?:(?:ba|z)?sh[ \t]+|source[ \t]+|\.[ \t]+)?"
                      rb"((?:\.{1,2}/|/)?[\w.-]+(?:/[\w.-]+)*\.(?:sh|bash))(?=$|[\s;&|)`'\"])")
# a Dockerfile named by `docker build -f FILE` / `--file FILE`
_DOCKERFILE_FLAG = lazy_re(rb"(?:\s-f|--file)(?:[ \t]+|=)[\"']?([\w./-]+)")
_NEIGHBOUR_LIMIT = 1 << 20  # the most of a neighbour read (a script, a Dockerfile)
_MAX_NEIGHBOURS = 24  # scripts and Dockerfiles read per file, at most


_USES: dict = {}  # a variable's name -> (its ARG line, its expansion): ``_Neighbours.uses``


class _Neighbours:
    """The files beside a linted file that may use its ``VLLM_*`` variables: the scripts it runs
    (one level), the Dockerfiles of its folder, of the folders above it up to the repository
    root (the folder holding ``.git``; without one, its own folder only) and those it names with
    ``-f``, and the Compose files of those folders (``image: ${VLLM_IMAGE:-...}`` is Compose's own
    substitution, fed by the ``.env`` beside it: a variable it passes on to vLLM is reported on the
    Compose file's launch). Read once, on the first name asked about; each read is noted for the
    result cache (``vllm_lint.inputs``)."""

    def __init__(self, path: str, data: bytes, folders: Optional[dict] = None) -> None:
        self.path = path
        self.data = data
        self.texts: Optional[list[tuple[bytes, bool]]] = None  # (text, is a Dockerfile)
        # what the files of one run (the linter's) share: the folders up to the repository root from
        # a folder, and each folder's Dockerfiles and Compose files by name (listed once, not for
        # each file of the folder); the files themselves are read for each file, noted as its inputs
        self.folders = folders if folders is not None else {}

    def uses(self, name: str) -> bool:
        if self.texts is None:
            self.texts = self._read()
        raw = name.encode()
        holding = [(text, dockerfile) for text, dockerfile in self.texts if raw in text]
        if not holding:  # (most names: no neighbour spells them, no expression to compile)
            return False
        got = _USES.get(raw)
        if got is None:  # (once per name and process, not per file)
            got = _USES[raw] = (re.compile(rb"(?m)^[ \t]*ARG[ \t]+" + re.escape(raw) + rb"(?!\w)"),
                                re.compile(rb"\$\{?" + re.escape(raw) + rb"(?!\w)"))
        arg, expand = got
        return any((arg if dockerfile else expand).search(text) is not None for text, dockerfile in holding)

    def _read(self) -> list[tuple[bytes, bool]]:
        import os

        from .inputs import read_other

        here = os.path.dirname(os.path.abspath(self.path))
        wanted: list[tuple[str, bool]] = []
        for m in _RUN_SCRIPT.finditer(self.data):
            rel = m.group(1).decode("utf-8", "replace")
            if not rel.startswith("/"):
                wanted.append((os.path.normpath(os.path.join(here, rel)), False))
        for m in _DOCKERFILE_FLAG.finditer(self.data):
            rel = m.group(1).decode("utf-8", "replace")
            if not rel.startswith("/") and _is_dockerfile_name(os.path.basename(rel)):
                wanted.append((os.path.normpath(os.path.join(here, rel)), True))
        memo = self.folders
        up = memo.get(here)
        if up is None:
            up = memo[here] = _folders_up(here)
        for folder in up:
            listed = memo.get(("listed", folder))
            if listed is None:
                try:
                    names = sorted(os.listdir(folder))
                except OSError:
                    names = None
                listed = memo[("listed", folder)] = (
                    [] if names is None else [(os.path.join(folder, n), True) for n in names if _is_dockerfile_name(n)]
                    + [(os.path.join(folder, n), False) for n in names if _is_compose_name(n)])
            wanted += listed
        out: list[tuple[bytes, bool]] = []
        seen = {os.path.abspath(self.path)}
        for where, dockerfile in wanted:
            if where in seen or len(seen) > _MAX_NEIGHBOURS:
                continue
            seen.add(where)
            text = read_other(where, _NEIGHBOUR_LIMIT)
            if text is not None:
                out.append((text, dockerfile))
        return out


def _is_dockerfile_name(name: str) -> bool:
    low = name.lower()
    return low in ("dockerfile", "containerfile") or low.startswith("dockerfile.") or low.endswith(".dockerfile")


def _is_compose_name(name: str) -> bool:
    low = name.lower()
    return (low.startswith(("docker-compose", "compose")) and low.endswith((".yml", ".yaml")))


def _folders_up(here: str) -> list[str]:
    """``here`` and the folders above it up to the repository root (the one holding ``.git``);
    ``here`` alone outside a repository."""
    from .fsutil import folders_to_root

    out, in_repository = folders_to_root(here)
    return out if in_repository else [here]


def _all_env(extraction: Extraction):
    yield from extraction.env
    for la in extraction.launches:
        yield from la.env


def _is_help_request(la: Launch) -> bool:
    """``--help``/``--help=keyword``/``-h`` among a command line's words: vLLM prints help and exits."""
    if la.style != "argv":
        return False
    for t in la.tokens:
        text = t.text
        if text[:1] != "-" or t.opaque:  # (most words: a value, the model)
            continue
        if text == "--" or text == "-h" or text == "--help" or text.startswith("--help="):
            return text != "--"
    return False


#: Options that say one process holds only part of the data-parallel ranks.
_PARTIAL_DP = ("data_parallel_rank", "data_parallel_start_rank", "data_parallel_rank_local")
#: What in a deployment file starts the other nodes of one vLLM instance.
_MULTI_NODE_MARKERS = (b"multi-node-serving.sh", b"ray start", b"run_cluster.sh", b"LWS_LEADER_ADDRESS")


def layout_is_partial(launch: Launch, by_dest: dict[str, Any], data: bytes, nodes_known: bool = False) -> Optional[str]:
    """Why the launch's words are not its process's whole parallel layout, or ``None``: an external
    or hybrid data-parallel rank, pods a wrapper starts (a production-stack Ray cluster, KServe
    leader and worker pods: ``Launch.partial_layout``), or a file that starts the other nodes
    of a multi-node instance.
    The file's markers of other nodes count only while the number of nodes is unknown (``nodes_known``: a LeaderWorkerSet ``size``)."""
    if launch.partial_layout:  # what the front-end knows of a wrapper's pods
        return launch.partial_layout
    for dest in _PARTIAL_DP:
        if dest in by_dest:
            return f"--{dest.replace('_', '-')} runs part of the data-parallel ranks in this process"
    marker = None if nodes_known else _multi_node_marker(data)  # a known node count (LWS size) is checked as such
    if marker is not None:
        return f"the file starts a multi-node instance ({marker.decode()})"
    return None


@lru_cache(maxsize=1)
def _multi_node_marker(data: bytes) -> Optional[bytes]:
    """The first of ``_MULTI_NODE_MARKERS`` that ``data`` holds: the file is searched once, not once
    per launch (a file of many launches stays linear)."""
    return next((marker for marker in _MULTI_NODE_MARKERS if marker in data), None)
