"""The GPUs a batch scheduler gives a job script: Slurm's ``#SBATCH`` and PBS's ``#PBS`` directives.

A job script's launches run inside the allocation its directives request, so the GPUs per node
they state are the launch's GPU request (``Launch.hardware``), as a pod's ``nvidia.com/gpu`` is.
Slurm reads directives only up to the first line that is neither a comment nor blank (sbatch(1),
"the batch script may contain options preceded with #SBATCH before any executable commands");
PBS likewise. Only counts stated as numbers are read; a count per task (``--gpus-per-task``)
needs the task count per node and is left unknown.
"""

from __future__ import annotations

import re

from ..record import lazy_re

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth and seventh passes)
if TYPE_CHECKING:
    from typing import Optional

_DIRECTIVE = lazy_re(rb"^[ \t]*#(SBATCH|PBS)[ \t]+(.*)$")
# Slurm GRES and GPU counts: gpu:4, gpu:a100:4, a100:4 (--gpus takes [type:]count)
_GRES_GPU = lazy_re(r"(?:^|,)gpu(?::[\w.-]+)?:(\d+)(?:\(|,|$)")
_TYPED_COUNT = lazy_re(r"^(?:[\w.-]+:)?(\d+)$")
# PBS resources: select=2:ngpus=4, nodes=1:ppn=8:gpus=4, ngpus=4
_PBS_GPUS = lazy_re(r"(?:^|[:,])n?gpus=(\d+)")
_PBS_NODES = lazy_re(r"(?:^|,)(?:select|nodes)=(\d+)")


class GpuRequest:
    """``gpus_per_node`` GPUs on each of ``nodes`` nodes (None: not stated); ``source`` the
    directive, as written, for the messages."""

    __slots__ = ("gpus_per_node", "nodes", "source")

    def __init__(self, gpus_per_node: int, nodes: Optional[int], source: str) -> None:
        self.gpus_per_node = gpus_per_node
        self.nodes = nodes
        self.source = source


def gpu_request(data: bytes) -> Optional[GpuRequest]:
    """The GPUs per node the job script ``data`` requests, or None when it states none."""
    if b"#SBATCH" not in data and b"#PBS" not in data:
        return None
    import shlex  # (a job script's: ~1 M instructions a shell file without directives need not pay)

    per_node = total = nodes = None
    source = ""
    for raw in data.splitlines()[:2000]:  # directives head a script: a bound, not a scan of it all
        line = raw.strip()
        if not line:
            continue
        if not line.startswith(b"#"):
            break  # the first command ends the directives
        m = _DIRECTIVE.match(raw)
        if m is None:
            continue
        kind = m.group(1).decode()
        text = m.group(2).decode("utf-8", "replace").split(" #")[0]
        try:
            words = shlex.split(text, comments=False)
        except ValueError:
            continue
        for name, value in _pairs(words):
            if kind == "SBATCH":
                if name == "--gres":
                    g = _GRES_GPU.search(value)
                    if g:
                        per_node, source = int(g.group(1)), f"#SBATCH --gres={value}"
                elif name == "--gpus-per-node":
                    g = _TYPED_COUNT.match(value)
                    if g:
                        per_node, source = int(g.group(1)), f"#SBATCH --gpus-per-node={value}"
                elif name in ("--gpus", "-G"):
                    g = _TYPED_COUNT.match(value)
                    if g:
                        total, total_source = int(g.group(1)), f"#SBATCH {name}={value}"
                elif name in ("--nodes", "-N"):
                    n = re.match(r"^(\d+)(?:-(\d+))?$", value)
                    if n and (n.group(2) is None or n.group(2) == n.group(1)):
                        nodes = int(n.group(1))
            elif kind == "PBS" and name == "-l":
                g = _PBS_GPUS.search(value)
                if g:
                    per_node, source = int(g.group(1)), f"#PBS -l {value}"
                n = _PBS_NODES.search(value)
                if n:
                    nodes = int(n.group(1))
    if per_node is None and total is not None:
        n = nodes or 1
        if total % n:
            return None
        per_node, source = total // n, total_source
    if per_node is None:
        return None
    return GpuRequest(per_node, nodes, source)


def _pairs(words: list[str]):
    """(option, value) of directive words: ``--x=v``, ``--x v``, ``-x v``."""
    i = 0
    while i < len(words):
        w = words[i]
        if w.startswith("--") and "=" in w:
            name, _, value = w.partition("=")
            yield name, value
        elif w.startswith("-") and i + 1 < len(words) and not words[i + 1].startswith("-"):
            yield w, words[i + 1]
            i += 1
        i += 1
