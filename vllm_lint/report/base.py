"""The output formats of findings, as data: one ``Reporter`` per ``--output-format`` name, the
module that renders it and what it can carry. The command line's choices, ``--statistics`` and
``--diff``'s checks and the dispatch of ``report.render`` read this table; adding an output format
is its module and one row here (and its snapshot, ``tests/integrations/reporters/``)."""

from __future__ import annotations

from ..record import Record

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Optional


class Reporter(Record):
    """``name``: the ``--output-format`` value; ``module`` and ``function``: what renders it
    (``function(results, ctx) -> str``, in ``vllm_lint.report.<module>``); ``aliases``: other
    names for it (ruff's ``full`` is the text output); ``statistics``: ``--statistics`` prints in
    it; ``human``: text for a person, which carries its own summary (the note of what was not
    read) and prints beside ``--diff``; the machine formats keep their shape; ``every_file``: it
    lists every linted file, clean ones too (a run keeps every file's result for it, where the
    others are given the results of files with something to report: ``pipeline.results``);
    ``chunks``: a function of the module that gives the same text in pieces, written as each is
    made (a run's report is then never one string), or None."""

    __slots__ = ("name", "module", "function", "aliases", "statistics", "human", "every_file", "chunks")

    def __init__(self, name: str, module: str, function: str = "render", aliases: tuple[str, ...] = (),
                 statistics: bool = False, human: bool = False, every_file: bool = False,
                 chunks: Optional[str] = None) -> None:
        self.name = name
        self.module = module
        self.function = function
        self.aliases = aliases
        self.statistics = statistics
        self.human = human
        self.every_file = every_file
        self.chunks = chunks


REPORTERS = (
    Reporter("text", "text", aliases=("full",), statistics=True, human=True, chunks="render_chunks"),
    Reporter("concise", "text", "render_concise", statistics=True, human=True, chunks="render_concise_chunks"),
    Reporter("json", "json_report", statistics=True),
    Reporter("json-lines", "json_report", "render_lines", statistics=True),
    Reporter("github", "github"),
    Reporter("gitlab", "gitlab"),
    Reporter("sarif", "sarif"),
    Reporter("junit", "junit", every_file=True),
    Reporter("rdjson", "rdjson"),
    Reporter("checkstyle", "checkstyle"),
)

_BY_NAME = {spelled: r for r in REPORTERS for spelled in (r.name, *r.aliases)}


def names() -> tuple[str, ...]:
    """Every ``--output-format`` spelling, in the table's order (each reporter's name, then its aliases)."""
    return tuple(spelled for r in REPORTERS for spelled in (r.name, *r.aliases))


def get(name: str) -> Optional[Reporter]:
    """The reporter a name or alias spells, or None."""
    return _BY_NAME.get(name)
