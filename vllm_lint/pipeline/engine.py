"""The engine: a file's bytes -> format -> front-end -> launches -> target -> rules -> diagnostics.

The files come from ``vllm_lint.pipeline.discovery``, the release each launch is checked against
from ``vllm_lint.pipeline.targeting``. The engine's one product is ``Linter.analyse(path, data)
-> FileAnalysis``, and its one call for consumers ``Linter.check(path, data, mode, fix=...) ->
Checked`` (screen, analyse, fix loop, finish): lint, --fix, --add-noqa, the API, the audit and the
language server call it. The engine names no format: it asks the registry (``vllm_lint.frontends.base``).
Also the fix loop (``Linter.fix_loop``): apply non-overlapping edits (``vllm_lint.pipeline.fix``),
analyse again, repeat (bounded); a pass is kept only if the result still parses in its format
(``Format.parse_check``). Suppression comments: ``vllm_lint.pipeline.suppress``. The layers and
the data flow of one run: ``docs/architecture.md``.
"""

from __future__ import annotations

import os
import stat
from functools import lru_cache

from . import suppress
from .. import inputs, reach
from ..argv import ArgvParser
from .discovery import NAME_UNREAD, Target, format_by_name
from .targeting import NEWEST_SOURCE, Choice, Targeting, accepted_range, never_accepted, never_accepted_note
from ..frontends.base import Mode, format_by_content, mentions_launch
from ..frontends.base import get as format_unit
from ..fsutil import MAX_FILE_BYTES, AnyPath, NotRegularFile, TooLarge, open_regular, read_at_most, read_if_regular
from ..foreign_launchers import FOREIGN_LAUNCHERS
from ..knowledge.layout import dest_of
from ..launch import Edit, Extraction, Launch, LineIndex, ParseError, Span, TooLarge, check_launch_budget
from ..record import Record, lazy_re
from ..rules._facts import FACTS, facts_of
from ..rules._status import states_named
from ..rules.base import OPTION_STATES, VLLM_VARIABLES, Diagnostic, LintContext, Rule, option_state, registry
from ..settings import Settings
from ..surface.db import Database, DatabaseError, UnknownVersion

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional, Sequence, Union
    from pathlib import Path

MAX_FIX_PASSES = 10


# ----------------------------------------------------------------------------- file linting


class FileResult(Record):
    """One file's outcome. ``fixed``: the new content when --fix changed something; ``related``:
    config files reached via --config; ``stat_key``: (size, mtime_ns) when read; ``verdict``: why
    the result holds while the file is unchanged: "none" (no launch), "clean|<pin>" (and, for YAML, how
    it was named: ``_mode_tag``);
    ``content_key``: (content key, the findings before suppression had a fix) for the result cache,
    brought back from worker processes with the result; ``reads``: the other files the analysis
    read, (path, content key) each (``FileAnalysis.reads``); ``mode`` and ``forced``: how the file
    was read (``Linter.analyse``), for what consumes the result and analyses the file again
    (--add-noqa). ``read``: a vLLM launch was read in the file; ``unread``: why none was, for a
    file that could have held one (``NO_LAUNCH``...), else None (a walked file of no format that
    does not mention vLLM is no candidate); ``defaulted``: a launch named no release and was checked
    against the newest in the database (``targeting.NEWEST_SOURCE``); ``newer``: the releases newer than
    the database that launches named (checked against the newest; from a cached verdict, ``["?"]``)."""

    __slots__ = ("path", "diagnostics", "fixed", "original", "format", "fix_note", "fixed_count", "verbose",
                 "related", "stat_key", "verdict", "content_key", "reads", "mode", "forced", "read", "unread",
                 "defaulted", "newer")

    def __init__(self, path: str, diagnostics: Optional[list[Diagnostic]] = None, fixed: Optional[bytes] = None,
                 original: Optional[bytes] = None, format: Optional[str] = None, fix_note: Optional[str] = None,
                 fixed_count: int = 0, verbose: Optional[list[str]] = None,
                 related: Optional[list["FileResult"]] = None, stat_key: Optional[tuple[int, int]] = None,
                 verdict: Optional[str] = None) -> None:
        self.path = path
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.fixed = fixed
        self.original = original
        self.format = format
        self.fix_note = fix_note
        self.fixed_count = fixed_count
        self.verbose = [] if verbose is None else verbose
        self.related = () if related is None else related  # (a list once a --config file is linted)
        self.stat_key = stat_key
        self.verdict = verdict
        self.content_key: Optional[tuple[str, int]] = None
        self.reads: tuple[tuple[str, str], ...] = ()
        self.mode: Optional[str] = None
        self.forced: Optional[tuple[str, str]] = None
        self.read = False
        self.unread: Optional[str] = None
        self.defaulted = False
        self.newer: Sequence[str] = ()  # (no list per file: a worker sends many results back)


class LaunchAnalysis(Record):
    """One launch of a file as the lint sees it: the release it is checked against (``target``,
    and why: ``target_source``), that release's ``surface`` and the arguments as that release's
    parser reads them (``args``); ``choice``: how the release was chosen (``targeting.Choice``);
    ``written_for``: for a launch that names no release, the (first, last) releases that accept it
    as written (``targeting.accepted_range``), else None."""

    __slots__ = ("launch", "target", "target_source", "surface", "args", "choice", "written_for")

    def __init__(self, launch: Launch, target: str, target_source: str, surface: Any, args: list,
                 choice: Optional[Choice] = None) -> None:
        self.launch = launch
        self.target = target
        self.target_source = target_source
        self.surface = surface
        self.args = args
        self.choice = choice
        self.written_for: Optional[tuple[str, str]] = None


class FileAnalysis(Record):
    """The engine's one product for one file's bytes (``Linter.analyse``): its ``format``, how it
    was named (``mode``), the release it was forced to (``forced``: a ``--config`` file is checked
    at the release of the launch naming it), what its front-end found (``extraction``; None when the file was not
    read as a format or did not parse), each launch with its release and parsed arguments
    (``launches``), the findings before positions and suppression (``diagnostics``; their fixes
    carry the ``edits``), and the other files the analysis read (``reads``: (path, content key)
    each, ``vllm_lint.inputs``). ``skipped``: why the bytes were not linted ("no-format",
    "binary", "no-launch" (the pre-filter), "ignore-file"), else None. ``loose_env``: the
    extraction's environment variables that belong to no launch (a ConfigMap, an ``export`` far
    from any launch), which the rules see in one launch-less context."""

    __slots__ = ("path", "format", "mode", "forced", "extraction", "launches", "diagnostics", "reads", "skipped",
                 "loose_env")

    def __init__(self, path: str, format: Optional[str], mode: str, forced: Optional[tuple[str, str]] = None,
                 extraction: Optional[Extraction] = None, launches: Optional[list[LaunchAnalysis]] = None,
                 diagnostics: Optional[list[Diagnostic]] = None, reads: tuple[tuple[str, str], ...] = (),
                 skipped: Optional[str] = None) -> None:
        self.path = path
        self.format = format
        self.mode = mode
        self.forced = forced
        self.extraction = extraction
        self.launches = [] if launches is None else launches
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.reads = reads
        self.skipped = skipped
        self.loose_env: list = []

    @property
    def edits(self) -> list[Edit]:
        """The edits of every fix the findings carry."""
        return [e for d in self.diagnostics if d.fix is not None for e in d.fix.edits]


def frontend(fmt: str):
    """The front-end module of a format, imported at first use (``frontends.base``)."""
    return format_unit(fmt).module


def _source_build_hints(data: bytes) -> list:
    """``knowledge.source_builds.source_build_hints``, its module imported for a file naming vLLM's
    repository only (``vllm-project/vllm``: every build it reads names it; most files do not)."""
    if data.find(b"vllm-project/vllm") < 0:
        return []
    from ..knowledge.source_builds import source_build_hints

    return source_build_hints(data)


def _on_disk(path: AnyPath) -> Optional[str]:
    """The path of a linted file that is a file on disk (not standard input), else None."""
    try:
        where = os.fspath(path)
    except TypeError:
        return None
    return where if isinstance(where, str) and where != "-" and os.path.isfile(where) else None


@lru_cache(maxsize=None)  # (asked for every file of a warm run; a few names and modes)
def _mode_tag(named: Optional[str], mode: str) -> str:
    """The part of a cached verdict that says how the file was named, for the files whose outcome
    depends on it: YAML (and files whose format is sniffed from content) skips the pre-filter when
    named explicitly or matched by ``config-files``, so a file without a launch in a directory
    walk may hold one when named. ``named``: the format the file's name says (``Target.named``)."""
    return f"|{mode}" if named is None or format_unit(named).mode_matters() else ""


def _no_launch(named: Optional[str], mode: str) -> str:
    """The verdict of a file found to hold no launch (``named``: the format its name says)."""
    return _unread_verdict("none", named, mode)


@lru_cache(maxsize=None)
def _unread_verdict(state: str, named: Optional[str], mode: str) -> str:
    """``state`` + ``_mode_tag``: one string for all the files of a run that share it (most of a
    repository's files have one of a few such verdicts, noted in the result cache for each)."""
    return state + _mode_tag(named, mode)


# Why a file yields no launch (``FileResult.unread``), and the verdict state that keeps it in the
# cache. A verdict is "none..." when no release was involved, else "<state>|<pin>..." (_verdict).
NO_LAUNCH, NOT_SUPPORTED, TEMPLATE_UNKNOWN, NOT_PARSED, IGNORED = (
    "no launch found", "format not supported", "template value unknown", "could not be parsed",
    "ignore-file comment")
_STATE_UNREAD = {"nolaunch": NO_LAUNCH, "template": TEMPLATE_UNKNOWN}
# a launch was read: "clean", or "newest" when one named no release (``FileResult.defaulted``), or
# "newer" when one named a release newer than the database (``FileResult.newer``)
_STATE_READ = ("clean", "newest", "newer")
_NONE_UNREAD = {"none": NO_LAUNCH, "none-unsupported": NOT_SUPPORTED, "none-format": None}


def _apply_verdict(res: "FileResult") -> None:
    """``res.read`` / ``res.unread`` from a cached verdict."""
    state = res.verdict.split("|", 1)[0] if res.verdict else ""
    res.read = state in _STATE_READ
    res.defaulted = state == "newest"
    res.newer = ["?"] if state == "newer" else []
    res.unread = _STATE_UNREAD.get(state) if state in _STATE_UNREAD else _NONE_UNREAD.get(state)


def _stat_of(path: str) -> Optional[os.stat_result]:
    """``os.stat(path)``, or None when it fails (the file went since its bytes were read)."""
    try:
        return os.stat(path)
    except OSError:
        return None


class Linter:
    """One run's lint of files: ``rules`` against ``db`` under ``settings``. ``targeting`` chooses
    the release each launch is checked against; ``cache`` (optional) answers unchanged files.
    ``analyse`` is the one analysis of a file's bytes, ``fix_loop`` fixes them, ``finish`` places
    and suppresses findings; ``check`` runs them in that order (after ``screen``) for every
    consumer, and ``lint_file`` checks a file on disk (with the result cache and the ``--config``
    files its launches name). ``notes``: whether the analysis writes its per-launch notes for
    ``--verbose`` (the release each launch is checked against, why a rule stayed silent, the releases
    that accept a launch naming none); a plain lint, which shows none, leaves them unbuilt."""

    #: whether a rule that declares ``triggers`` is called only for a context naming one of them
    index_rules = True

    def __init__(self, db: Database, settings: Settings, rules: list[Rule], *, unsafe_fixes: bool = False,
                 cache=None, notes: bool = True):
        self.db = db
        self.notes = notes
        self.cache = cache  # vllm_lint.pipeline.cache.Cache or None
        self.settings = settings
        self.rules = rules  # (its setter lists their check functions once: ``_checks``)
        self.unsafe_fixes = unsafe_fixes
        self.verbose: list[str] = []  # per-file notes for --verbose, collected by lint_file
        self.references: list[tuple[Path, tuple[str, str]]] = []  # --config files launches name
        self._linted_refs: set[str] = set()
        self.targeting = Targeting(db, settings)  # the release each launch is checked against
        self._folders: dict = {}  # the folders reach's neighbours of a file list, for the run (reach.decide)
        if cache is not None:  # what the release choices read: the run's survey, for the cache
            self.targeting.watched = cache.survey = {}

    @property
    def rules(self) -> list[Rule]:
        return self._rules

    @rules.setter
    def rules(self, rules: list[Rule]) -> None:
        self._rules = rules
        # (rule, its check, its triggers or None) for the rules that have one, looked up once, not
        # per context and rule; without ``index_rules`` every check is called (the triggers' test)
        self._checks = tuple((r, r._check, r.triggers if self.index_rules else None)
                             for r in rules if r._check is not None)
        # whether a rule's triggers name an option's timeline state: only then are the launch's
        # options looked up in the release's tables before the rules (else the first rule asking does)
        self._states = any(t is not None and not t.isdisjoint(_STATE_TRIGGERS) for _, _, t in self._checks)
        # the facts of a context (``rules._facts``) that the rules' triggers name: none, no fact is
        # looked for; no GPU fact, the GPUs are not looked up for them
        self._facts = FACTS.intersection(x for _, _, t in self._checks if t is not None for x in t)
        # the places in ``_checks`` of the rules called for every context, and of those a trigger
        # calls (by trigger): a context visits only the rules it may call, in their order
        self._always = tuple(k for k, (_, _, t) in enumerate(self._checks) if t is None)
        by_trigger: dict[str, list[int]] = {}
        for k, (_, _, t) in enumerate(self._checks):
            for name in t or ():
                by_trigger.setdefault(name, []).append(k)
        self._by_trigger = by_trigger

    # -- one file
    def screen(self, path: AnyPath, data: bytes, mode: str,
               fmt: Optional[str] = None, named: Optional[str] = NAME_UNREAD) -> tuple[Optional[str], Optional[str]]:
        """(format, why the bytes are not linted or None): the format (``fmt``, else what the name
        says: ``named`` when the caller knows it, else the content), then the checks that need no
        parse (NUL bytes, the format's pre-filter, which a file named explicitly as YAML or matched
        by ``config-files`` skips, an ``ignore-file`` comment). ``FileAnalysis.skipped`` lists the
        reasons."""
        fmt = fmt or (format_by_name(path) if named is NAME_UNREAD else named) \
            or format_by_content(data, os.path.basename(path))
        if fmt is None:
            return None, "no-format"
        if data.find(b"\x00", 0, 8192) >= 0:
            return fmt, "binary"
        unit = format_unit(fmt)
        if not (unit.skips_prefilter(mode) or unit.might_contain_launch(data)
                or unit.might_contain_launch_at(data, path)):
            return fmt, "no-launch"
        if suppress.skips_file(data, unit) and not getattr(self.settings, "ignore_noqa", False):
            return fmt, "ignore-file"
        return fmt, None

    def check(self, path: AnyPath, data: bytes, mode: str = "explicit", *, fmt: Optional[str] = None,
              screened: bool = False, forced: Optional[tuple[str, str]] = None, fix: bool = False) -> "Checked":
        """Check ``data`` as the file at ``path`` (which is not read) the way every consumer does:
        ``screen`` -> ``analyse`` -> (with ``fix``) ``fix_loop`` -> ``finish``. The command line, the
        Python API, the language server, ``--add-noqa`` and the audit call this. ``mode`` and
        ``forced``: as ``analyse``; ``fmt``: the format when the caller knows it (an editor's
        language), still screened; with ``screened`` the caller has screened the bytes already and
        ``fmt`` is the format ``screen`` gave (the lint of a file on disk, which screens before its
        cache lookup; ``--add-noqa`` on the bytes of a linted file)."""
        if screened:
            skipped = None
        else:
            fmt, skipped = self.screen(path, data, mode, fmt)
        if fmt is None or skipped is not None:
            return Checked(fmt, FileAnalysis(str(path), fmt, mode, forced, skipped=skipped or "no-format"), data)
        analysis = self.analyse(path, data, mode=mode, fmt=fmt, forced=forced)
        out = Checked(fmt, analysis, data)
        out.notes = list(self.verbose)
        diags = analysis.diagnostics
        if fix:
            outcome = out.outcome = self.fix_loop(path, data, analysis)
            diags = outcome.diagnostics
            if outcome.data != data:
                out.fixed = out.data = outcome.data
        # the findings left after fixing are positioned in (and suppressed by) the fixed bytes
        out.diagnostics = self.finish(out.data, diags, str(path), fmt)
        return out

    def analyse(self, path: AnyPath, data: bytes, *, mode: str = "explicit", fmt: Optional[str] = None,
                forced: Optional[tuple[str, str]] = None) -> FileAnalysis:
        """Analyse ``data`` (the bytes of the file at ``path``, which is not read: an editor's unsaved
        buffer will do). ``mode``: "auto" (found by a directory walk), "explicit" (named on the
        command line) or "config" (a vLLM ``--config`` YAML); ``fmt``: the format, when the caller
        has screened the bytes already (``screen``), else it is screened here; ``forced``:
        (release, reason) to check against, for a config file reached through a launch's
        ``--config``. The launches' ``--config`` files are queued in ``references``."""
        shown = str(path)
        if fmt is None:
            fmt, skipped = self.screen(path, data, mode)
            if skipped is not None:
                return FileAnalysis(shown, fmt, mode, forced, skipped=skipped)
        with inputs.recording() as reads:
            analysis = self._analyse(path, shown, data, fmt, mode, forced)
        analysis.reads = tuple(sorted(reads.items()))
        return analysis

    def _analyse(self, path: AnyPath, shown: str, data: bytes, fmt: str, mode: str,
                 forced: Optional[tuple[str, str]]) -> FileAnalysis:
        analysis = FileAnalysis(shown, fmt, mode, forced)
        unit = format_unit(fmt)
        try:
            extraction: Extraction = unit.extract(data, shown, mode)
            check_launch_budget(len(extraction.launches), sum(len(la.tokens) for la in extraction.launches))
        except TooLarge as e:  # a per-file budget (launch.py): said as such, not as a syntax error
            analysis.diagnostics = [Diagnostic("VL001", f"file is too large to read: {e.message}", shown, None, line=1)]
            return analysis
        except ParseError as e:
            why = e.message
            if why.lower().startswith(f"invalid {fmt}: "):  # "cannot parse yaml: invalid YAML: ..." said it twice
                why = why[len(fmt) + 10:]
            d = Diagnostic("VL001", f"cannot parse {fmt}: {why}", shown, None, line=e.line)
            if e.offset is not None:
                d.span = Span(e.offset, e.offset)
            analysis.diagnostics = [d]
            return analysis
        except RecursionError:
            analysis.diagnostics = [Diagnostic("VL001", f"cannot parse {fmt}: nesting too deep", shown, None, line=1)]
            return analysis
        reach.decide(extraction, data, self.db, documentation=unit.documentation,
                     path=shown if shown == self.targeting.regular else _on_disk(path),
                     folders=self._folders)
        analysis.extraction = extraction
        if unit.last_resort:
            self.verbose.append("read as plain text (no format claims the file: its command lines only)")
        diags: list[Diagnostic] = []
        seen_env: set[tuple[int, int]] = set()
        words = None if unit.documentation else data  # (documentation: the front-end reads its prose)
        built = _source_build_hints(data)  # (vLLM built from its source at a tag: after the file's own pins)
        for launch in extraction.launches:
            hints = list(launch.version_hints) + list(extraction.version_hints) + built
            image = launch.image or (launch.container.image if launch.container is not None else None)
            choice = (Choice(forced[0], forced[1], "forced") if forced
                      else self.targeting.choose(path, hints, words, launch.span.start, image, data))
            target, source = choice.release, choice.why
            surface = self.db.surface(target)
            args = ArgvParser(surface, self.db,
                              positional_model=surface.entry_has_positional_model(launch.entry)).parse(launch)
            analysis.launches.append(LaunchAnalysis(launch, target, source, surface, args, choice))
            foreign = FOREIGN_LAUNCHERS.get(launch.entry) if self.notes else None
            if foreign is not None:
                self.verbose.append(f"read as {foreign.tool}'s launcher of vLLM (`{foreign.entry}`) at line "
                                    f"{_line(data, launch.span.start)}: the keys it hands to vLLM are checked as "
                                    f"vLLM's engine arguments, its own keys are left to it")
            self._note_config_reference(path, args, target, source)
            for e in launch.env:
                if e.name_span:
                    seen_env.add((e.name_span.start, e.name_span.end))
            ctx = LintContext(shown, launch, args, list(launch.env), surface, self.db, target, source,
                              self.settings, data, extraction=extraction, file_format=unit)
            ctx.target_choice = choice
            ctx.notes = self.notes
            found = self._run(ctx)
            if choice.kind == "default":
                self._written_for(analysis.launches[-1], found, data)
            elif choice.kind == "between":  # (findings true at both ends of what it may run: pipeline.unknown_release)
                from .unknown_release import hold_at_both_ends

                found = hold_at_both_ends(ctx, choice, found, self._run, self.verbose, _line(data, launch.span.start))
            diags.extend(found)
        loose = analysis.loose_env = [e for e in extraction.env
                                      if not e.name_span or (e.name_span.start, e.name_span.end) not in seen_env]
        # a file without a launch still gets one context: the rules about a file's text (an image
        # tag, an install line) need no launch (rules/_file_scope.py)
        if loose or not extraction.launches:
            choice = (Choice(forced[0], forced[1], "forced") if forced
                      else self.targeting.choose(path, list(extraction.version_hints) + built))
            target, source = choice.release, choice.why
            ctx = LintContext(shown, None, [], loose, self.db.surface(target), self.db, target, source,
                              self.settings, data, extraction=extraction, file_format=unit)
            ctx.target_choice = choice
            ctx.notes = self.notes
            diags.extend(self._run(ctx))
        for note in extraction.notes:
            if any(r.code == note.code for r in self.rules):
                diags.append(Diagnostic(note.code, note.message, shown, note.span, severity=note.severity))
        analysis.diagnostics = _dedupe(diags)
        return analysis

    def _written_for(self, la: "LaunchAnalysis", found: list[Diagnostic], data: bytes) -> None:
        """A launch that names no release, checked against the newest: the releases that accept it
        as written (``targeting.accepted_range``), in --verbose and in the findings of the launch's
        options and variables that the newest refuses or changed: not computed when neither reads it
        (no notes, no such finding)."""
        if not self.notes and not any(d.code[:3] in ("VL1", "VL2") and d.code not in ("VL108", "VL109")
                                      for d in found):
            return
        env_names = [e.name for e in la.launch.env]
        la.written_for = accepted_range(self.db, la.args, env_names)
        if la.written_for is None:
            return
        first, last = la.written_for
        if not self.notes and last == self.db.newest:
            return
        # (the range leaves out what no release has: then it is true of the launch's other words only)
        unknown = never_accepted(self.db, la.args, env_names)
        but = f", but for {', '.join(f'`{u}`' for u in unknown)}," if unknown else ""
        if self.notes:
            self.verbose.append(f"no release named at line {_line(data, la.launch.span.start)}: this launch"
                                f"{never_accepted_note(unknown)} is accepted as written by {first} - {last}")
        if last == self.db.newest:
            return
        reads = f"this launch{but} reads"
        for d in found:
            if d.code[:3] in ("VL1", "VL2") and d.code not in ("VL108", "VL109") and d.option not in unknown:
                d.message += (f" (no release named: checked at {self.db.newest}, the newest; {reads} as "
                              f"written for {first} - {last})")

    def _note_config_reference(self, path: AnyPath, args, target: str, source: str) -> None:
        """A launch's ``--config FILE``: lint FILE as a vLLM config file at this launch's release."""
        for a in args:
            if a.option is None or a.option.dest != "config" or not a.value or a.value_opaque:
                continue
            from pathlib import Path  # (a launch naming a config file: not on a plain lint's path)

            ref = Path(a.value)
            for cand in ([ref] if ref.is_absolute() else [Path(path).parent / ref, Path.cwd() / ref]):
                named = format_by_name(cand)
                if cand.is_file() and named is not None and Mode.CONFIG in format_unit(named).modes:
                    self.references.append((cand, (target, f"{source}, via --config in {path}")))
                    break

    def _run(self, ctx: LintContext) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        if self.notes and (ctx.launch is not None or ctx.env):  # (a file's launch-less context checks no launch)
            self.verbose.append(f"checked against vLLM {ctx.target} ({ctx.target_source})"
                                + (f" at line {_line(ctx.data, ctx.launch.span.start)}" if ctx.launch else ""))
            box = ctx.launch.container if ctx.launch is not None else None
            if box is not None:  # (what the launch was read from: a platform's container)
                image = box.shown_image
                self.verbose.append(f"line {_line(ctx.data, ctx.launch.span.start)}: the container of a {box.platform}"
                                    + (f" configuration, image {image}" if image else " configuration"))
            if ctx.launch is not None and ctx.launch.read_as:
                self.verbose.append(f"the launch at line {_line(ctx.data, ctx.launch.span.start)}: {ctx.launch.read_as}")
        checks = self._checks
        order: Any = self._always
        by_trigger = self._by_trigger
        if by_trigger:  # the rules a name of the context triggers (``Rule.triggers``), with the others
            picked = None
            for name in _named(ctx, self._states, self._facts):  # (options, variables, states, facts)
                ks = by_trigger.get(name)
                if ks is not None:
                    if picked is None:
                        picked = set(order)
                    picked.update(ks)
            if picked is not None:
                order = sorted(picked)
        for k in order:  # (``Rule.run`` without its call: ~150,000 calls in a launch-dense tree)
            rule, check, _triggers = checks[k]
            try:
                out.extend(check(ctx))
            except (DatabaseError, UnknownVersion):
                raise
            except Exception as e:  # a rule bug must not lose the other findings
                out.append(Diagnostic("VL001", f"internal error in {rule.code}: {type(e).__name__}: {e}",
                                      ctx.path, ctx.launch.span if ctx.launch else None, line=1))
        if self.notes:
            self.verbose.extend(ctx.skipped)
        return out

    def lint_file(self, target: Target, fix: bool = False, mode: Optional[str] = None,
                  forced: Optional[tuple[str, str]] = None, unread: Any = None) -> FileResult:
        """The result of the file ``target`` names (read here; the result cache answers an
        unchanged one). ``unread``: what to give instead of a result for a file found by a walk
        whose bytes the pre-filter says hold no launch, read and screened before any object is
        made for it: what the run keeps of such a result (``results.RunResults.unread_counts``: its
        counts), most of a repository's files; None: a result for every file."""
        self.targeting.read_ahead()  # (the files of its folders are read here: Surroundings.ahead)
        try:
            res = self._lint_one(target, fix, mode, forced, unread)
        finally:
            self.targeting.regular = None  # (what it said of this file: not of a later analysis)
        if res is unread:
            return res
        # config files named by --config in this file's launches, at those launches' releases
        while self.references:
            ref, ref_target = self.references.pop(0)
            key = os.path.realpath(ref)
            if key in self._linted_refs:
                continue
            self._linted_refs.add(key)
            try:
                res.related = [*res.related, self._lint_one(Target(str(ref), True), fix, "config", ref_target)]
            finally:
                self.targeting.regular = None
        for r in [res, *res.related]:
            for d in r.diagnostics:  # file-level findings (unreadable, binary, too large) skip finish()
                if d.row == 0:
                    _place(d, LineIndex(b""))
        return res

    def mode_of(self, target: Target) -> str:
        """How the file was named: "explicit", "auto" (found by a directory walk) or "config" (matched
        by the ``config-files`` setting: read as a vLLM config file)."""
        mode = "explicit" if target.explicit else "auto"
        named = target.named if self.settings.config_files else None
        if named is not None and Mode.CONFIG in format_unit(named).modes:
            import fnmatch
            from pathlib import Path

            path = Path(target.path)
            posix = path.resolve().as_posix()
            if any(fnmatch.fnmatch(posix, g) or fnmatch.fnmatch(posix, "*/" + g) or fnmatch.fnmatch(path.name, g)
                   for g in self.settings.config_files):
                mode = "config"
        return mode

    def _stat_answer(self, path: str, mode: str, st: os.stat_result, named: Optional[str]) -> Optional[FileResult]:
        """The result the cache's stat index holds for ``path`` (stat ``st``) when the file is
        unchanged since its record and the record's verdict still holds, else None."""
        if not stat.S_ISREG(st.st_mode):
            return None
        stat_key = (st.st_size, st.st_mtime_ns)
        known = self.cache.stat_result(path, stat_key)
        if known is None:
            return None
        state = known[0].split("|", 1)[0]
        tag = _mode_tag(named, mode)
        if state in _NONE_UNREAD:
            if known[0] != state + tag:
                return None
        elif state not in (*_STATE_READ, *_STATE_UNREAD):
            return None
        elif self.cache.survey_holds(known[3]):
            # nothing the release choices read when the record was made has changed (its survey):
            # the pin in its verdict is what choosing it again would give; only the naming is checked
            # (a pin is shown as its tuple or None, a naming tag after it)
            if not (known[0].endswith(tag) if tag else known[0].endswith((")", "None"))):
                return None
        elif known[0] != self._verdict(path, mode, state, named):
            return None
        else:
            self.cache.restamp(path)  # (its pin chosen again: written again under this run's survey)
        res = FileResult(path, stat_key=stat_key)
        res.verdict, res.diagnostics, res.reads = known[:3]
        res.mode = mode
        _apply_verdict(res)
        return res

    def cached_result(self, target: Target) -> Optional[FileResult]:
        """The result of an unchanged file from the cache's stat index, without reading the file;
        None when it must be linted (``vllm_lint.pipeline.parallel`` asks this before sharing out files)."""
        try:
            st = os.stat(target.path)
        except OSError:
            return None
        return self._stat_answer(os.fspath(target.path), self.mode_of(target), st, target.named)

    def _lint_one(self, target: Target, fix: bool, mode: Optional[str], forced: Optional[tuple[str, str]],
                  unread: Any = None) -> FileResult:
        path = shown = os.fspath(target.path)
        self.references = []
        if mode is None:
            mode = self.mode_of(target)
        data = None
        if unread is not None and mode == Mode.AUTO and forced is None and not target.explicit:
            # (a walked file: its bytes screened first, no result made for one without a launch;
            # what is not a readable regular file within the size limit takes the way below)
            ahead = self.targeting.take_ahead(path)
            if ahead is not None:
                got = (ahead, len(ahead), None)
            else:
                try:
                    got = read_if_regular(path, MAX_FILE_BYTES)
                except OSError:
                    got = None
            if got is not None and got[0] is not None:
                data, _size, st = got
                self.targeting.regular = path  # (read as a regular file: no other test of it, ``_on_disk``)
                fmt, skipped = self.screen(path, data, mode, named=target.named)
                if skipped == "no-launch":
                    return unread
        res = FileResult(shown)
        res.mode, res.forced = mode, forced
        if data is None:
            got = self._read(target, res, lookup=self.cache is not None and not fix and forced is None
                             and self.cache.has_records())
            if isinstance(got, FileResult):
                return got
            data = got
            fmt, skipped = self.screen(path, data, mode, named=target.named)
        else:
            if st is None:  # (bytes read ahead: no stat made with them)
                st = _stat_of(path)
            res.stat_key = (st.st_size, st.st_mtime_ns) if st is not None else None
        res.format = fmt
        if skipped is not None:
            self._note_skipped(res, target, data, skipped)
            return res
        self.verbose = []
        key = None
        if self.cache is not None and self.cache.has_content(shown):
            # the same bytes as at this path's last record (only its mtime changed): its findings.
            # (Without such a record the key waits for the verdict, which needs the project pin.)
            key = self._content_key(path, data, fmt, mode, forced)
            if self._answer_from_content(res, key, fix):
                return res
        fixable = self._analyse_into(res, data, fmt, fix)
        if self.cache is not None and not self.references and forced is None and res.fixed is None:
            # (the verdict needs the project pin, which a launch with an image tag never looked up)
            state = (("newer" if res.newer else "newest" if res.defaulted else "clean") if res.read
                     else "template" if res.unread == TEMPLATE_UNKNOWN else "nolaunch")
            res.verdict = self._verdict(path, mode, state, target.named)
            res.content_key = (key or self._content_key(path, data, fmt, mode, forced), 1 if fixable else 0)
            self.cache.note_key(shown, res.content_key)
        return res

    def _read(self, target: Target, res: FileResult, lookup: bool) -> Union[bytes, FileResult]:
        """The bytes of the file, or the result that stands for them: with ``lookup``, the cache's
        answer for a file unchanged since its record (the file is not read); else ``res`` with a
        file-level VL001 finding where one is due (too large, a directory named explicitly,
        missing, unreadable)."""
        path = shown = res.path
        try:
            st = None
            if lookup:
                st = os.stat(path)
                known = self._stat_answer(shown, res.mode, st, target.named)
                if known is not None:
                    return known
            ahead = self.targeting.take_ahead(path)
            if ahead is not None and (st is None or stat.S_ISREG(st.st_mode)):
                if st is None:
                    st = os.stat(path)
                res.stat_key = (st.st_size, st.st_mtime_ns)
                self.targeting.regular = path
                return ahead
            got = read_if_regular(path, MAX_FILE_BYTES, st)  # (a regular file: on its descriptor)
            if got is not None:
                data, size, opened = got
                if st is None:
                    st = opened  # no second lookup of the path
                res.stat_key = (st.st_size, st.st_mtime_ns)
                if data is not None:
                    self.targeting.regular = path  # (read as a regular file: ``_on_disk``)
                    return data
                if target.explicit or target.named:
                    res.diagnostics.append(Diagnostic("VL001", f"file is too large to lint ({size // 1048576} MiB; "
                                                      f"limit {MAX_FILE_BYTES // 1048576} MiB)", shown, None, line=1))
                return res
            # (a directory: IsADirectoryError; a device or a socket: NotRegularFile; a pipe is read,
            # bounded, and a FIFO without a writer reads as empty: never a hang)
            with open_regular(path, st, pipes=True) as f:
                if st is None:
                    st = os.fstat(f.fileno())  # no second lookup of the path
                size = st.st_size
                res.stat_key = (size, st.st_mtime_ns)
                if size <= MAX_FILE_BYTES:
                    try:
                        return read_at_most(f, MAX_FILE_BYTES)
                    except TooLarge as e:  # it grew since its stat
                        size = e.size
                if target.explicit or target.named:
                    res.diagnostics.append(Diagnostic("VL001", f"file is too large to lint ({size // 1048576} MiB; "
                                                      f"limit {MAX_FILE_BYTES // 1048576} MiB)", shown, None, line=1))
                return res
        except NotRegularFile as e:
            res.stat_key = None
            res.diagnostics.append(Diagnostic("VL001", f"{e.strerror or e}: not read", shown, None, line=1))
            return res
        except IsADirectoryError:
            res.stat_key = None
            if target.explicit:
                res.diagnostics.append(Diagnostic("VL001", "is a directory, not a file", shown, None, line=1))
            return res
        except FileNotFoundError:
            why = ("broken symbolic link (its target does not exist)" if os.path.islink(path)
                   else "file disappeared while linting")
            res.diagnostics.append(Diagnostic("VL001", why, shown, None, line=1))
            return res
        except OSError as e:
            res.diagnostics.append(Diagnostic("VL001", f"cannot read file: {e.strerror or e}", shown, None, line=1))
            return res

    @staticmethod
    def _note_skipped(res: FileResult, target: Target, data: bytes, skipped: str) -> None:
        """``res`` for bytes that ``screen`` says are not linted (``FileAnalysis.skipped``)."""
        if skipped == "no-format":
            # a walked file of no format is no candidate unless it mentions a launch
            state = "none-unsupported" if target.explicit or (
                data.find(b"\x00", 0, 8192) < 0 and mentions_launch(data)) else "none-format"
            res.verdict = _unread_verdict(state, target.named, res.mode)
            res.unread = _NONE_UNREAD[state]
        elif skipped == "no-launch":
            if not format_unit(res.format).depends_on_others(data):  # (else no record: read again)
                res.verdict = _no_launch(target.named, res.mode)
            res.unread = NO_LAUNCH
        elif skipped == "ignore-file":
            res.unread = IGNORED
        elif skipped == "binary" and target.explicit:
            res.diagnostics.append(Diagnostic("VL001", _binary_reason(data), res.path, None, line=1))
            res.unread = NOT_PARSED

    def _answer_from_content(self, res: FileResult, key: str, fix: bool) -> bool:
        """Whether the cache holds the findings of these bytes (content ``key``); if so they are
        in ``res``."""
        known = self.cache.content_result(res.path, key, fix)
        if known is None:
            return False
        res.verdict, res.diagnostics = known[0], known[1]
        _apply_verdict(res)
        res.content_key = (key, known[2])
        res.reads = known[3]
        self.cache.note_key(res.path, res.content_key)
        return True

    def _analyse_into(self, res: FileResult, data: bytes, fmt: str, fix: bool) -> bool:
        """Check the file's bytes (screened as ``fmt``; and, with ``fix``, fix them) into ``res``:
        whether the findings before fixing had a fix."""
        checked = self.check(res.path, data, res.mode, fmt=fmt, screened=True, forced=res.forced, fix=fix)
        analysis = checked.analysis
        res.reads = analysis.reads
        if analysis.extraction is None:
            res.unread = NOT_PARSED
        elif analysis.extraction.launches:
            res.read = True
            res.defaulted = any(la.choice is not None and la.choice.kind == "default" for la in analysis.launches)
            res.newer = sorted({la.choice.named for la in analysis.launches
                                if la.choice is not None and la.choice.kind == "newer"})
        else:
            res.unread = TEMPLATE_UNKNOWN if _template_hid_launch(data, analysis.extraction) else NO_LAUNCH
        res.verbose = list(dict.fromkeys(checked.notes))
        if checked.outcome is not None:
            if checked.fixed is not None:
                res.fixed, res.original, res.fixed_count = checked.fixed, data, checked.outcome.count
            res.fix_note = checked.outcome.note
        res.diagnostics = checked.diagnostics
        return checked.fixable

    def _verdict(self, path: AnyPath, mode: str, state: str, named: Optional[str]) -> str:
        """A file's findings hold while its bytes, the project pin near it and (where it matters)
        the way it was named stay the same. ``state``: "clean" when a launch was read, else
        "nolaunch" / "template" (``_STATE_UNREAD``)."""
        return f"{state}|{self.targeting.pin_for(path)}{_mode_tag(named, mode)}"

    def _content_key(self, path: AnyPath, data: bytes, fmt: str, mode: str, forced: Optional[tuple[str, str]]) -> str:
        pin = self.targeting.pin_for(path)
        return self.cache.key(str(path), data, f"{fmt}|{pin}|{mode}|{forced}")

    def finish(self, data: bytes, diags: list[Diagnostic], path: Optional[str] = None,
               fmt: Optional[str] = None) -> list[Diagnostic]:
        """Positions, suppression comments, per-file-ignores; and, when VL003 is selected, a
        finding for each suppression comment (or code in one) that suppressed nothing
        (``vllm_lint.pipeline.suppress``). ``fmt``: the file's format (default: what its name says)."""
        if not diags and b"vllm-lint" not in data:
            return []  # nothing to place or suppress, no suppression comment to report
        shown = path if path is not None else (diags[0].path if diags else "")
        unit = self._unit(fmt, shown)
        index = _line_index(data)  # (the one the --verbose notes of the analysis built: no second count)
        used: set[tuple[int, Optional[str]]] = set()  # (row0 of the comment, code or None if blanket)
        out = self._placed_unsuppressed(diags, index, unit, used)
        vl003 = next((r for r in self.rules if r.code == "VL003"), None) if b"vllm-lint" in data else None
        if vl003 is not None:
            for d in suppress.unused_suppressions(index, used, {r.code for r in self.rules}, registry(), shown,
                                                  vl003.code, vl003.severity, unit):
                _place(d, index)
                if not suppress.suppressed(d, index, unit, self.settings.per_file_ignores, **self._suppression()):
                    out.append(d)
        return sorted(out, key=lambda d: (d.row, d.column, d.code))

    def unsuppressed(self, data: bytes, diags: list[Diagnostic], fmt: Optional[str] = None) -> list[Diagnostic]:
        """The findings that no suppression comment or per-file-ignore switches off: those --fix
        may fix (as ruff, a suppressed finding is left alone, fix included)."""
        if not diags or (b"vllm-lint" not in data and not self.settings.per_file_ignores):
            return diags
        return self._placed_unsuppressed(diags, LineIndex(data), self._unit(fmt, diags[0].path))

    def _suppression(self) -> dict:
        """How this run suppresses: per-file-ignores relative to the configuration file's folder,
        and comments unless ``--ignore-noqa``."""
        src = self.settings.source
        return {"base": str(src.parent) if src else None, "comments": not getattr(self.settings, "ignore_noqa", False)}

    @staticmethod
    def _unit(fmt: Optional[str], path: str):
        """The format unit of a file (``fmt``, else what the name ``path`` says), or None."""
        fmt = fmt or (format_by_name(path) if path else None)
        return format_unit(fmt) if fmt else None

    def _placed_unsuppressed(self, diags: list[Diagnostic], index: LineIndex, unit,
                             used: Optional[set[tuple[int, Optional[str]]]] = None) -> list[Diagnostic]:
        """``diags`` positioned, without those a suppression switches off (``suppress.suppressed``)."""
        out = []
        for d in diags:
            _place(d, index)
            if not suppress.suppressed(d, index, unit, self.settings.per_file_ignores, used, **self._suppression()):
                out.append(d)
        return out

    # -- the fix loop
    def fix_loop(self, path: AnyPath, data: bytes, analysis: FileAnalysis) -> "FixOutcome":
        """Apply fixes until nothing changes (at most MAX_FIX_PASSES), re-analysing after each
        pass; a pass whose result the format's parse check refuses is not applied, and the findings
        with fixes say why (``fix_blocked``)."""
        from .fix import FixConflict, apply_edits, select_edits

        unit = format_unit(analysis.format)
        current, last = data, analysis
        note = None
        applied = 0
        diags = analysis.diagnostics
        for _ in range(MAX_FIX_PASSES):
            edits, count = select_edits(self.unsuppressed(current, diags, analysis.format), self.unsafe_fixes)
            if not edits:
                break
            try:
                candidate = apply_edits(current, edits)
            except FixConflict as e:
                note = str(e)
                break
            problem = unit.parse_check(current, candidate)
            if problem:
                note = problem
                for d in diags:
                    if d.fix is not None:
                        d.fix_blocked = problem
                break
            if candidate == current:
                break
            last = self.analyse(path, candidate, mode=analysis.mode, fmt=analysis.format, forced=analysis.forced)
            current, diags = candidate, last.diagnostics
            applied += count
        return FixOutcome(current, last, diags, note, applied)


class FixOutcome(Record):
    """What ``Linter.fix_loop`` made: the fixed bytes (``data``; the input when nothing changed),
    the analysis of those bytes (``analysis``), the findings left (``diagnostics``), why a fix
    was refused (``note``) and how many fixes were applied (``count``)."""

    __slots__ = ("data", "analysis", "diagnostics", "note", "count")

    def __init__(self, data: bytes, analysis: FileAnalysis, diagnostics: list[Diagnostic], note: Optional[str],
                 count: int) -> None:
        self.data = data
        self.analysis = analysis
        self.diagnostics = diagnostics
        self.note = note
        self.count = count


class Checked(Record):
    """What ``Linter.check`` made of one file's bytes: the ``format`` (None when neither name nor
    content gives one), the ``analysis`` of the bytes as given (its ``skipped`` says why they were
    not linted), the fix loop's ``outcome`` (with ``fix``, else None), the ``fixed`` bytes (None
    when nothing changed), ``data`` (the bytes the findings are placed in: the fixed ones, else the
    input), the ``diagnostics`` left, positioned and suppressed, and the engine's ``notes`` for
    ``--verbose`` (the releases checked against) made by the analysis before fixing."""

    __slots__ = ("format", "analysis", "outcome", "fixed", "data", "diagnostics", "notes")

    def __init__(self, format: Optional[str], analysis: FileAnalysis, data: bytes) -> None:
        self.format = format
        self.analysis = analysis
        self.outcome: Optional[FixOutcome] = None
        self.fixed: Optional[bytes] = None
        self.data = data
        self.diagnostics: list[Diagnostic] = []
        self.notes: list[str] = []

    @property
    def skipped(self) -> Optional[str]:
        return self.analysis.skipped

    @property
    def fixable(self) -> bool:
        """Whether a finding before fixing had a fix."""
        return any(d.fix is not None for d in self.analysis.diagnostics)

    @property
    def count(self) -> int:
        """The fixes applied."""
        return self.outcome.count if self.outcome is not None else 0


# an expression on one line: `{{`, then no `}`, line break or second `{{` (so that a search from
# each `{{` stops at the next one: linear on a line of many `{{`), then `}}`
_TEMPLATE_LAUNCH = lazy_re(rb"\{\{(?:[^{}\n]|\{(?!\{))*\}\}")


def _template_hid_launch(data: bytes, extraction: Extraction) -> bool:
    """Whether a template expression may hide the launch of a file that yielded none: the file is
    templated and one of its lines names vLLM beside an expression (``command: {{ .Values.cmd }}``,
    ``image: vllm/vllm-openai:{{ .Values.tag }}``), or its front-end said so in a note."""
    if b"{{" not in data:
        return False
    if any("template expression" in n.message for n in extraction.notes):
        return True
    for line in data.splitlines():
        if b"{{" in line and b"vllm" in line.lower() and _TEMPLATE_LAUNCH.search(line):
            return True
    return False


def _binary_reason(data: bytes) -> str:
    """Why a file with NUL bytes is not linted: UTF-16 or UTF-32 text (a byte order mark, or NULs in
    every other byte) is named as such, with the way out."""
    head = data[:4096]
    if head.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32 text: vllm-lint reads UTF-8 (convert it: iconv -f UTF-32 -t UTF-8)"
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(head) >= 8 and (
            head[1::2].count(0) > len(head) // 4 or head[0::2].count(0) > len(head) // 4)):
        return "UTF-16 text: vllm-lint reads UTF-8 (convert it: iconv -f UTF-16 -t UTF-8)"
    return "binary file (contains NUL bytes)"


def _line(data: bytes, offset: int) -> int:
    return _line_index(data).position(offset)[0]


_line_index = lru_cache(maxsize=1)(LineIndex)  # one index for a file's launches, not a count from 0 each


def _place(d: Diagnostic, index: LineIndex) -> None:
    if d.span is not None:
        d.row, d.column = index.position(d.span.start)
        d.end_row, d.end_column = index.position(d.span.end)
    else:
        d.row = d.line or 1
        d.column = 1
        d.end_row, d.end_column = d.row, 1


def _dedupe(diags: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    out = []
    for d in diags:
        key = (d.code, d.span.start if d.span else None, d.span.end if d.span else None, d.message)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    return out


_STATE_TRIGGERS = frozenset(option_state(s) for s in OPTION_STATES)


def _named(ctx: LintContext, states: bool = True, facts: frozenset = FACTS) -> set:
    """What a rule's ``triggers`` are matched against: the ``dest`` of each option the launch sets
    (``knowledge.layout.dest_of``: "model" for its positional model), the names of the variables
    in the launch's and the file's environment, with ``VLLM_VARIABLES`` when one is a ``VLLM_``
    variable, and with ``states`` the timeline states its options have at the target
    (``rules.base.option_state``; ``rules._status.states_named``: each option looked up once, the
    rules read the result), and the ``facts`` of the context that hold (``rules._facts``: its GPUs, its
    image, whether it is the file's first, ...; each found once, before the rules)."""
    named = {a.option.dest if a.option is not None and not a.positional else dest_of(a) for a in ctx.args}
    ex = ctx.extraction
    for env in (ctx.env, ex.env) if ex is not None else (ctx.env,):
        for e in env:
            named.add(e.name)
            if e.name.startswith("VLLM_"):
                named.add(VLLM_VARIABLES)
    if states and ctx.args:
        try:
            found = states_named(ctx)
        except (DatabaseError, UnknownVersion):
            raise
        except Exception:  # (a bug of the status: the rules that read it are called, and say so)
            found = OPTION_STATES
        for s in found:  # (most launches: none)
            named.add(option_state(s))
    if facts:
        try:
            named.update(facts_of(ctx, facts))
        except (DatabaseError, UnknownVersion):
            raise
        except Exception:  # (as for the states: the rules that read them are called, and say so)
            named.update(facts)
    return named
