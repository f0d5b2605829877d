"""Reading a vLLM command line the way the target release's parser reads it.

One place for vLLM's argv semantics (DESIGN.md): ``--a_b`` equals ``--a-b`` (0.5.1+),
``--opt=value`` and ``--opt value``, negated switches, ``-O3`` / ``-O 3`` / ``-O.mode`` (an alias of
``--compilation-config`` until 0.11, a rewrite to ``--optimization-level`` from 0.12), dotted JSON
options (``--compilation-config.mode 3``, 0.9+), the positional model of ``vllm serve``, and
argparse's unique-prefix abbreviations. Keyword-style launches (``LLM(...)``, ``--config`` YAML,
Helm values) are mapped onto the same ``ParsedArg`` shape so that rules see one model.
"""

from __future__ import annotations

from .launch import KeyedArg, Launch, Span, Token
from .record import Record, lazy_re
from .container import env_options
from .foreign_launchers import FOREIGN_LAUNCHERS, ForeignLauncher
from .surface.db import Database, Option, Surface
from .wrapper_options import WRAPPERS

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_NEGATIVE_NUMBER = lazy_re(r"^-\d+$|^-\d*\.\d+$")


class ParsedArg(Record):
    """One option occurrence (or the positional model) in a launch.

    * ``written``: the option as written, without "=value" ("--max_num_seqs", "-tp", "swap_space");
      ``canonical``: the normalised option string before resolution ("--max-num-seqs").
    * ``tokens`` (argv): the option token and its value tokens; ``keyed``: kwargs / config style.
    * ``name_span``: the exact bytes of the written option name, when editable.
    * ``value``: str for argv values (joined for nargs), the Python value for keyed args.
    * ``inline_value``: "--opt=value"; ``json_path``: the dotted JSON key ("mode" in
      --compilation-config.mode).
    * ``option``: resolved in the target surface; ``resolved_string``: the target's option string
      it resolved to; ``how``: exact | underscore | abbrev | negation | dotted | o-rewrite | kwarg |
      key | unknown | positional | stray; ``ambiguous``: abbreviation candidates when ambiguous.
    * ``style``: argv | kwargs | config.
    * ``structure``: what is wrong with the shape of the command line at this argument, as the
      target's parser reads it: "missing-value" (an option that takes a value is followed by
      another option or ends the line), "stray" (a word no option or positional takes:
      ``positional`` is true, ``how`` is "stray", ``after_switch`` names the switch it follows),
      "model-option" (``--model`` given to ``vllm serve``); None when nothing is.
    """

    __slots__ = ("written", "canonical", "tokens", "keyed", "name_span", "value", "value_tokens", "value_opaque",
                 "inline_value", "json_path", "option", "resolved_string", "how", "ambiguous", "positional", "style",
                 "key_style", "structure", "after_switch", "model_moved_away")

    def __init__(self, written: str, canonical: str, tokens: Optional[list[Token]] = None,
                 keyed: Optional[KeyedArg] = None, name_span: Optional[Span] = None, value: Any = None,
                 value_tokens: Optional[list[Token]] = None, value_opaque: bool = False, inline_value: bool = False,
                 json_path: Optional[str] = None, option: Optional[Option] = None,
                 resolved_string: Optional[str] = None, how: str = "unknown", ambiguous: Optional[list[str]] = None,
                 positional: bool = False, style: str = "argv", key_style: str = "cli") -> None:
        self.written = written
        self.canonical = canonical
        self.tokens = [] if tokens is None else tokens
        self.keyed = keyed
        self.name_span = name_span
        self.value = value
        self.value_tokens = [] if value_tokens is None else value_tokens
        self.value_opaque = value_opaque
        self.inline_value = inline_value
        self.json_path = json_path
        self.option = option
        self.resolved_string = resolved_string
        self.how = how
        self.ambiguous = [] if ambiguous is None else ambiguous
        self.positional = positional
        self.style = style
        self.key_style = key_style
        self.structure: Optional[str] = None
        self.after_switch: Optional[str] = None
        # `vllm serve --model --port 1` (0.11.1+): parse_args drops the first `--model` and reads
        # the option word after it as that option; this `--model` names no model
        self.model_moved_away = False

    @property
    def span(self) -> Optional[Span]:
        spans = [t.span for t in self.tokens if t.span] if self.tokens else []
        if spans:
            return Span(min(s.start for s in spans), max(s.end for s in spans))
        if self.keyed is not None:
            return self.keyed.key_span or self.keyed.value_span
        return None

    @property
    def report_span(self) -> Optional[Span]:
        """Where a finding about this option points: the option name."""
        if self.tokens and self.tokens[0].span:
            return self.tokens[0].span
        if self.keyed is not None:
            return self.keyed.key_span or self.keyed.value_span
        return None

    @property
    def o_shorthand(self) -> bool:
        """Written as vLLM's ``-O`` shorthand, in any spelling (``-O3``, ``-O 3``, ``-O.mode=3``,
        ``-O '{...}'``), whatever the release makes of it."""
        return self.canonical.startswith("-O")

    @property
    def bare_level_allowed(self) -> bool:
        """Written as an option for which vLLM's parser reads a bare integer as the compilation
        level rather than as JSON (``-O3``, ``--compilation-config 3``)."""
        return self.written in ("-O", "--compilation-config")


# a value that is one template placeholder a runner fills before the launch: Python's
# ``str.format`` field (``{port}``, ``{0}``, ``{cfg.port}``, ``{args[tp]}``, ``{port:d}``) or a
# Jinja / Mustache variable (``{{ port }}``); never JSON (``{"a": 1}``) nor a brace expansion
# (``{a,b}``), and not ``{}`` (an empty JSON object, a real value of a JSON option)
_FORMAT_PLACEHOLDER = lazy_re(r"^(?:\{[A-Za-z_\d][\w.]*(?:\[[\w.-]+\])*(?:![rsa])?(?::[^{}\s\"',]*)?\}"
                              r"|\{\{-?\s*\.?[A-Za-z_][\w.]*(?:\s*\|\s*\w+)*\s*-?\}\})$")


def is_placeholder(text: str, option: Optional[Option] = None) -> bool:
    """Whether an option's whole value is one template placeholder filled before the launch
    (``--port {port}`` in a recipe its runner formats), not a value as written. For an option that
    takes JSON, only ``{{ name }}``: ``'{bad}'`` there is a JSON object the parser refuses."""
    if "{" not in text or not _FORMAT_PLACEHOLDER.match(text):
        return False
    json_option = option is not None and (option.kind == "json" or option.type in ("json", "dict_or_str"))
    return not json_option or text.startswith("{{")


def looks_like_option(text: str) -> bool:
    if text[:1] != "-" or len(text) < 2:
        return False
    c = text[1]
    # "--x" and "-tp" cannot be negative numbers: the pattern only for the rest ("-1", "-.5")
    return c == "-" or c.isalpha() or not _NEGATIVE_NUMBER.match(text)


def normalise_long(name: str, surface: Optional[Surface]) -> str:
    """``--max_num_seqs`` -> ``--max-num-seqs`` where the release rewrites underscores (only the
    part before the first ``.``, as vLLM's FlexibleArgumentParser does)."""
    if not name.startswith("--"):
        return name
    if surface is not None and not surface.underscores_normalised:
        return name
    head, dot, tail = name.partition(".")
    return head.replace("_", "-") + dot + tail


def _positional_model(tok: Token) -> ParsedArg:
    """The word argparse gives the positional model slot."""
    return ParsedArg(written="<model>", canonical="<model>", tokens=[tok], value=tok.text,
                     value_opaque=tok.opaque, positional=True, how="positional")


def _stray(tok: Token) -> ParsedArg:
    """A word no option or positional takes: argparse's "unrecognized arguments"."""
    stray = ParsedArg(written=tok.text, canonical="<stray>", tokens=[tok], value=tok.text,
                      positional=True, how="stray")
    stray.structure = "stray"
    return stray


def _name_span(tok: Token, length_bytes: int) -> Optional[Span]:
    if tok.text_span is None or tok.opaque:
        return None
    return Span(tok.text_span.start, tok.text_span.start + length_bytes)


class ArgvParser:
    """Parses a launch's tokens against one release surface."""

    def __init__(self, surface: Surface, db: Optional[Database] = None, positional_model: bool = True):
        self.surface = surface
        self.db = db
        self.positional_model = positional_model
        self._model_moved = False  # parse_args has moved the first `--model` (0.11.1+)
        self._model_given = False  # a chart gave the model before the words

    def _shape_takes_value(self, string: str) -> Optional[bool]:
        if self.db is None:
            return None
        shape = self.db.option_shape(string)
        return None if shape is None else bool(shape.get("takes_value"))

    def resolve(self, written: str) -> tuple[str, Optional[Option], Optional[str], str, Optional[str], list[str]]:
        """-> (canonical, option, resolved string, how, json_path, ambiguous candidates).

        A pure function of the surface and the word, memoised per surface: a repository writes
        the same options in launch after launch."""
        memo = self.surface.__dict__.setdefault("_resolved", {})
        r = memo.get(written)
        if r is None:
            r = memo[written] = self._resolve(written)
        return r[0], r[1], r[2], r[3], r[4], list(r[5])  # the caller owns its list

    def _resolve(self, written: str) -> tuple[str, Optional[Option], Optional[str], str, Optional[str], list[str]]:
        s = self.surface
        canonical = normalise_long(written, s)
        how = "exact" if canonical == written else "underscore"
        json_path = None
        base = canonical
        if canonical.startswith("--") and "." in canonical and s.dotted_json:
            base, _, json_path = canonical.partition(".")
            if s.dotted_keys_dashed:
                json_path = json_path.replace("_", "-")  # 0.9.0: the keys are rewritten too
        elif canonical.startswith("-O") and not canonical.startswith("--"):
            # -O forms (handled before exact lookup for the 0.12+ rewrite)
            if s.o_flag == "optimization-level" and "--optimization-level" in s.by_string:
                if canonical.startswith("-O.") and s.o_dotted_is_cc and s.lookup("-cc") is not None:
                    base, json_path = "-cc", canonical[3:]  # 0.12.x: `-cc.<key>`, deprecated (VL106)
                else:
                    if canonical.startswith("-O."):
                        # 0.13+ rewrites every word starting with -O (but a bare -O) to
                        # `--optimization-level <rest>`: `-O.mode=3` is the level ".mode=3", not a
                        # --compilation-config key (the -O alias of it is gone; checked against the
                        # real parsers of 0.13.0, 0.27.1 and 0.33.0 by tools/crosscheck/fixcheck.py)
                        return canonical, None, None, "unknown", canonical[3:], []
                    return canonical, s.by_string["--optimization-level"], "--optimization-level", "o-rewrite", None, []
            if s.o_flag == "alias" and canonical.startswith("-O.") and s.dotted_json_short:
                base, json_path = "-O", canonical[3:]
        elif canonical.startswith("-") and not canonical.startswith("--") and "." in canonical and s.dotted_json_short:
            base, _, json_path = canonical.partition(".")
        opt = s.lookup(base)
        if opt is not None:
            if json_path is not None:
                how = "dotted"
            elif base in opt.negations:
                how = "negation"
            return canonical, opt, base, how, json_path, []
        if base.startswith("--") and len(base) > 2:
            cands = s.prefix_matches(base)
            distinct = {s.by_string[c].dest for c in cands}
            if len(distinct) == 1 and cands:
                # argparse picks the unique action; prefer the canonical name among its strings
                target = s.by_string[cands[0]]
                chosen = target.name if target.name in cands else cands[0]
                return canonical, target, chosen, "abbrev", json_path, []
            if len(distinct) > 1:
                return canonical, None, None, "ambiguous", json_path, sorted(cands)
        elif base.startswith("-") and not base.startswith("--") and len(base) >= 2 and json_path is None:
            # argparse matches prefixes of single-dash options too: `-t 2` is `-tp 2`
            cands = sorted(c for c in s.by_string if c.startswith(base) and c != base and not c.startswith("--"))
            distinct = {s.by_string[c].dest for c in cands}
            if len(distinct) == 1:
                return canonical, s.by_string[cands[0]], cands[0], "abbrev", None, []
            if len(distinct) > 1:
                return canonical, None, None, "ambiguous", None, cands
        return canonical, None, None, "unknown", json_path, []

    def parse(self, launch: Launch) -> list[ParsedArg]:
        foreign = FOREIGN_LAUNCHERS.get(launch.entry)
        if foreign is not None:
            return self._parse_foreign(launch, foreign)
        read_by = self.surface.read_by(launch.entry)
        if read_by is not self.surface:
            # a wrapper that skips vLLM's argv rewriting reads the words without it
            return ArgvParser(read_by, self.db, self.positional_model).parse(launch)
        if launch.style == "argv":
            return self._parse_words(launch)
        out = self.parse_keyed(launch)
        if launch.tokens:
            # a chart renders its keys and a list of words (production-stack's vllmConfig and
            # extraArgs) into one command line, the words after the model
            out += self._parse_words(launch, model_given=True)
        return out

    def _parse_words(self, launch: Launch, model_given: bool = False) -> list[ParsedArg]:
        """The launch's words as argparse reads them, one ParsedArg per option occurrence, the
        positional model and each stray word; the steps are the methods below, in word order."""
        self._model_moved = False
        self._model_given = model_given
        out: list[ParsedArg] = []
        toks = launch.tokens
        is_opt = self._option_word
        i = 0
        seen_positional = model_given
        # options the launch's program parses itself (a wrapper's: Dynamo's, KServe's
        # huggingfaceserver's): skipped with their values, never vLLM's to judge
        wrapper = WRAPPERS.get(launch.entry)
        own = wrapper.options if wrapper is not None else {}
        vllm_spellings = wrapper.vllm_spellings if wrapper is not None else {}
        while i < len(toks):
            tok = toks[i]
            if tok.splat:
                i += 1
                continue
            text = tok.text
            if tok.opaque and not is_opt(text):
                seen_positional = self._opaque_word(tok, out, seen_positional)
                i += 1
                continue
            if text == "--":
                out += self._after_end_of_options(toks, i, out, seen_positional)
                break
            if not is_opt(text):
                seen_positional = self._non_option_word(toks, i, out, seen_positional)
                i += 1
                continue
            written, eq, inline = text.partition("=")
            shape = own.get(written)
            if shape is None and own and "_" in written and written.startswith("--") and wrapper.vllm_preprocessing:
                # (vLLM's FlexibleArgumentParser rewrites `--dataset_path` to `--dataset-path` first)
                shape = own.get("--" + written[2:].replace("_", "-"))
            if shape is not None:
                i = self._skip_wrapper_option(toks, i + 1, bool(eq), shape)
                continue
            written, eq, inline, attached = self._attached_value(text, written, eq, inline)
            pa, names_model = self._occurrence(toks, i, written, eq, attached, vllm_spellings)
            seen_positional = seen_positional or names_model
            i += 1
            if written.startswith("-O.") and self.surface.o_flag == "optimization-level" and not self.surface.o_dotted_is_cc:
                # 0.13+: the whole word is `--optimization-level <rest>`, so it takes no next word
                # (`-O.mode 3`: the `3` is a positional, left over after the model)
                attached = text[2:]
            if eq or attached is not None:
                pa.inline_value = True
                pa.value = inline if eq else attached
                pa.value_opaque = tok.opaque or is_placeholder(pa.value, pa.option)
                out.append(pa)
                continue
            i = self._take_values(pa, toks, i)
            out.append(pa)
        return out

    def _opaque_word(self, tok: Token, out: list[ParsedArg], seen_positional: bool) -> bool:
        """An opaque word in option position: the value of nothing we know, skipped; the first one
        may be the positional model (no claim about its value). Returns ``seen_positional``."""
        if not seen_positional and self.positional_model and self.surface.has_serve:
            out.append(ParsedArg(written="<model>", canonical="<model>", tokens=[tok],
                                 value=None, value_opaque=True, positional=True))
            return True
        return seen_positional

    def _non_option_word(self, toks: list, i: int, out: list[ParsedArg], seen_positional: bool) -> bool:
        """A word no option takes: the positional model, else a stray word (argparse's
        "unrecognized arguments"; a wrapper that parses with parse_known_args drops it instead:
        VL110 says so), noted when it follows a switch. Returns ``seen_positional``."""
        tok = toks[i]
        if self.positional_model and not seen_positional and self.surface.has_serve:
            out.append(_positional_model(tok))
            return True
        stray = _stray(tok)
        prev = out[-1] if out else None
        if prev is not None and prev.tokens and prev.tokens[-1] is toks[i - 1] and \
                prev.option is not None and not prev.value_tokens and not prev.inline_value and \
                not prev.option.takes_value(prev.resolved_string or prev.written):
            stray.after_switch = prev.written
        out.append(stray)
        return seen_positional

    def _skip_wrapper_option(self, toks: list, i: int, eq: bool, shape: str) -> int:
        """The index after a wrapper's own option (at ``i - 1``) and the words it takes."""
        if not eq and shape != "flag":
            while i < len(toks) and not toks[i].splat and not self._option_word(toks[i].text):
                i += 1
                if shape == "value":
                    break
        return i

    def _attached_value(self, text: str, written: str, eq: str, inline: str) -> tuple[str, str, str, Optional[str]]:
        """(written, eq, inline, attached): an argparse short option with its value attached
        (``-O3``, ``-qawq``) split into the option and the value."""
        attached = None
        if text.startswith("-O.") and self.surface.o_flag == "alias" and not self.surface.dotted_json_short:
            # before dotted keys, argparse gives `-O` the rest of the word (`.level=3`)
            written, eq, inline, attached = "-O", "", "", text[2:]
        if attached is None and not eq and not written.startswith("--") and len(written) > 2 \
                and ("." not in written or not self.surface.dotted_json_short):
            # (a `.` makes the word a dotted key only where vLLM reads dotted short options, 0.9.2+:
            # before, argparse gives `-O` the rest of `-O{"compilation_time": 1.0}`)
            head = written[:2]
            if head == "-O" and self.surface.o_flag != "none":
                attached = written[2:]
                written = head
            elif self.surface.lookup(written) is None and self.surface.lookup(head) is not None:
                attached = written[2:]
                written = head
        return written, eq, inline, attached

    def _occurrence(self, toks: list, i: int, written: str, eq: str, attached: Optional[str],
                    vllm_spellings: dict) -> tuple[ParsedArg, bool]:
        """The option occurrence the word at ``i`` starts, resolved at this release (``-O``'s
        rewrites by era), and whether it names the positional model (``vllm serve --model X``)
        so that no later word does."""
        tok = toks[i]
        canonical, opt, resolved, how, json_path, ambiguous = self.resolve(vllm_spellings.get(written, written))
        level_key = self.surface.o_level_key
        if level_key and written == "-O" and opt is not None and (
                eq or attached is not None or i + 1 < len(toks) and toks[i + 1].text in ("0", "1", "2", "3")):
            # 0.9.2-0.11: `-O<x>`, `-O=<x>` and `-O <0-3>` become the dotted key `-O.level`
            canonical, how, json_path = f"-O.{level_key}", "dotted", level_key
        if how == "o-rewrite" and written == "-O" and not eq and attached is None and not (
                i + 1 < len(toks) and (toks[i + 1].text in ("0", "1", "2", "3") or toks[i + 1].opaque)):
            # a bare -O becomes --optimization-level only before a level 0-3; otherwise the
            # parser keeps "-O", which it no longer knows (`-O '{"mode": 3}'` is rejected)
            opt, resolved, how = None, None, "unknown"
        pa = ParsedArg(written=written, canonical=canonical, tokens=[tok], option=opt,
                       resolved_string=resolved, how=how, json_path=json_path, ambiguous=ambiguous)
        pa.name_span = _name_span(tok, len(written.encode("utf-8")))
        names_model = False
        if canonical == "--model" and self.positional_model and self.surface.has_serve and not (
                eq and opt is None):
            # (0.9.0's `vllm serve` has no `--model`: parse_args passes `--model=X`, which
            # argparse then refuses as an ambiguous abbreviation, VL107)
            # `vllm serve --model X`: it names the model whatever the release then does with
            # it (accepts it, refuses it, or moves it to the positional slot: see
            # Surface.serve_model_option and VL110)
            pa.positional, pa.how, pa.ambiguous = True, "positional", []
            pa.structure = "model-option"
            # `--model X` is refused (0.8.3-0.11.0) or moved to the positional slot (0.11.1+);
            # from 0.11.1 `--model=X` is split first and moved as well, while before it the
            # option takes it as usual and a later word is still the positional model
            mode = self.surface.serve_model_option
            if mode == "moved" and not eq and not self._model_moved and i + 1 < len(toks) \
                    and self._option_word(toks[i + 1].text) and not toks[i + 1].opaque:
                # 0.11.1+: parse_args moves the word after the first `--model` to the front
                # (`serve <word> ...`) and drops `--model`; an option word there is then read as
                # that option, and the model slot stays open for a later positional
                pa.model_moved_away = True
            elif mode == "moved" or not eq and mode == "refused":
                names_model = True
            if mode == "moved":
                self._model_moved = True
        return pa, names_model

    def _value_shape(self, pa: ParsedArg, toks: list, i: int) -> tuple[bool, Any]:
        """(whether the occurrence takes a value, its nargs): the option's at this release, else
        its shape in any release, else a guess from the next word."""
        opt, json_path = pa.option, pa.json_path
        takes: Optional[bool]
        nargs: Any = None
        if opt is not None:
            takes = json_path is not None or opt.takes_value(pa.resolved_string or pa.written)
            nargs = opt.nargs if json_path is None else None
            if pa.how == "o-rewrite" and pa.resolved_string == "--optimization-level":
                takes = True
        else:
            takes = self._shape_takes_value(pa.canonical.partition(".")[0])
            if takes is None:
                # unknown to every release: a following non-option word is most likely its value
                takes = i < len(toks) and not self._option_word(toks[i].text) and not toks[i].splat
            if json_path is not None:
                takes = True
            shape = self.db.option_shape(pa.canonical) if self.db else None
            nargs = shape.get("nargs") if shape else None
        return takes, nargs

    def _take_values(self, pa: ParsedArg, toks: list, i: int) -> int:
        """The words from ``i`` that the occurrence takes as its value (by its nargs), a missing
        value noted; returns the index after them."""
        is_opt = self._option_word
        takes, nargs = self._value_shape(pa, toks, i)
        if not takes or pa.model_moved_away:
            return i
        if nargs in ("+", "*"):
            vals = []
            while i < len(toks) and not is_opt(toks[i].text) and not toks[i].splat:
                vals.append(toks[i])
                i += 1
        elif nargs == "?":
            vals = []
            if i < len(toks) and not is_opt(toks[i].text) and not toks[i].splat:
                vals.append(toks[i])
                i += 1
        elif isinstance(nargs, int) and nargs > 1:
            vals = toks[i:i + nargs]
            i += len(vals)
        else:
            vals = []
            if i < len(toks) and not toks[i].splat and (
                    not is_opt(toks[i].text) or _NEGATIVE_NUMBER.match(toks[i].text)):
                vals.append(toks[i])
                i += 1
        pa.value_tokens = vals
        pa.tokens = [pa.tokens[0], *vals]
        if not vals and nargs not in ("?", "*") and (pa.option is not None or pa.json_path is not None or (
                self._shape_takes_value(pa.canonical.partition(".")[0]) is True)) and (
                i >= len(toks) or is_opt(toks[i].text) and not toks[i].splat
                and not toks[i].opaque):
            pa.structure = "missing-value"
        if vals:
            pa.value = " ".join(v.text for v in vals) if len(vals) > 1 else vals[0].text
            pa.value_opaque = any(v.opaque or is_placeholder(v.text, pa.option) for v in vals)
        return i

    def _option_word(self, text: str) -> bool:
        """Whether argparse reads the word as an option. A word with a space before any `=` names
        no option string (none has a space) and is a positional (`'-sc{"a": 1}'` is the model),
        unless a single-dash option is its first two characters (`-O{"a": 1}` is `-O` with a
        value); Python 3.10-3.13 alike."""
        if not looks_like_option(text):
            return False
        if " " not in text.partition("=")[0]:
            return True
        s = self.surface
        return text[1] != "-" and (text[:2] == "-O" and s.o_flag != "none" or s.lookup(text[:2]) is not None)

    def _after_end_of_options(self, toks: list, i: int, out: list[ParsedArg], seen_positional: bool) -> list[ParsedArg]:
        """The words from ``toks[i]`` (a ``--``) on, as argparse reads them: positionals only, the
        first the model where none was given, the rest left over. The ``--`` itself goes with the
        positional it ends (the model, given just before it or as the next word); anywhere else it
        is left over too (``m --port 1 --``: "unrecognized arguments: --"; the same from Python
        3.10 to 3.13)."""
        dash, rest = toks[i], [t for t in toks[i + 1:] if not t.splat]
        prev = out[-1] if out else None
        model_open = self.positional_model and not seen_positional and self.surface.has_serve
        follows_model = prev is not None and prev.how == "positional" and prev.canonical == "<model>" \
            and bool(prev.tokens) and prev.tokens[-1] is toks[i - 1]
        if not follows_model and prev is not None and len(out) == 1 and not self._model_given \
                and prev.structure == "model-option" and self.surface.serve_model_option == "moved" \
                and not prev.model_moved_away and bool(prev.tokens) and prev.tokens[0] is toks[0] \
                and prev.tokens[-1] is toks[i - 1]:
            # 0.11.1+: `serve --model m -- ...` is read as `serve m -- ...` (the model moved to
            # the front), so the `--` ends the positional model there too
            follows_model = True
        words: list[ParsedArg] = []
        if not (model_open or follows_model):
            words.append(_stray(dash))
        if model_open and rest:
            tok = rest.pop(0)
            words.append(_positional_model(tok))
        # a word the shell expands may expand to nothing: not certainly left over
        words += [_stray(t) for t in rest if not t.opaque]
        return words

    def parse_keyed(self, launch: Launch) -> list[ParsedArg]:
        s = self.surface
        out: list[ParsedArg] = []
        # a wrapper's own options among the keys (a recipe's block run by Dynamo's worker): its own
        wrapper = WRAPPERS.get(launch.entry)
        own = wrapper.options if wrapper is not None else {}
        for ka in launch.keyed:
            if own and ("--" + ka.key.lstrip("-").replace("_", "-")) in own:
                continue
            if ka.key_style == "cli":
                written = ka.key
                canonical, opt, resolved, how, json_path, amb = self.resolve(written)
                pa = ParsedArg(written=written, canonical=canonical, keyed=ka, option=opt,
                               resolved_string=resolved, how=how, json_path=json_path, ambiguous=amb,
                               value=ka.value, value_opaque=ka.value_opaque, style=launch.style,
                               key_style="cli", name_span=_keyed_name_span(ka))
                out.append(pa)
                continue
            field_name = _key_to_field(ka.key, ka.key_style)
            if launch.style == "kwargs":
                # keyword arguments of LLM(...) / EngineArgs(...): EngineArgs fields, not argv
                opt = s.by_dest.get(field_name)
                pa = ParsedArg(written=ka.key, canonical=field_name, keyed=ka, option=opt,
                               resolved_string=opt.name if opt else None,
                               how="kwarg" if field_name in s.engine_args or field_name in s.llm_params else "unknown",
                               value=ka.value, value_opaque=ka.value_opaque, style="kwargs",
                               key_style=ka.key_style, name_span=_keyed_name_span(ka))
                out.append(pa)
                continue
            # config file / chart keys: "--" + key, read by the parser as a long option
            if field_name == "model":
                out.append(ParsedArg(written=ka.key, canonical="<model>", keyed=ka, value=ka.value,
                                     value_opaque=ka.value_opaque, positional=True, style="config",
                                     key_style=ka.key_style, how="positional"))
                continue
            # a chart key renders as the option the chart says (production-stack enableLoRA ->
            # --enable-lora), whatever its spelling; other keys as "--" + key
            rendered = (launch.option_for_key or {}).get(ka.key)
            written = rendered or "--" + field_name.replace("_", "-")
            canonical, opt, resolved, how, json_path, amb = self.resolve(written)
            if how == "exact":
                how = "key"
            out.append(ParsedArg(written=ka.key, canonical=canonical, keyed=ka, option=opt,
                                 resolved_string=resolved, how=how, json_path=json_path, ambiguous=amb,
                                 value=ka.value, value_opaque=ka.value_opaque, style="config",
                                 key_style=ka.key_style, name_span=_keyed_name_span(ka)))
        return out


    # ---- other tools' launchers (foreign_launchers): their keys as vLLM's engine options

    def _parse_foreign(self, launch: Launch, row: ForeignLauncher) -> list[ParsedArg]:
        """The words of another tool's launcher, as the engine options they set: each key the tool
        maps (``row.keys``) checked as the vLLM option of that field (its value as written on a
        command line; its name the tool's, so never renamed nor called removed), the model as the
        model, a key the tool hands to ``LLM(**kwargs)`` unchanged (``row.passes_unknown``) as a
        keyword argument, every other key left to the tool. A key or string the file leaves to the
        run makes the launch opaque."""
        pairs: list[tuple[KeyedArg, bool]] = []
        if launch.style == "kwargs":  # a Python call: its keywords and a holder's mapping, as written
            pairs = [(ka, ka.key_span is not None) for ka in launch.keyed]
        elif row.form == "options":
            pairs = _option_pairs(launch)
        elif row.form == "overrides":
            pairs = _override_pairs(launch)
        else:
            for tok in _holder_tokens(launch, row):
                if tok.opaque and not tok.verbatim or tok.splat:
                    launch.opaque = True  # the whole string is left to the run (`--model_args "$ARGS"`)
                    continue
                if tok.text.rstrip().endswith((".yaml", ".yml")):
                    launch.opaque = True  # lighteval's configuration file: read on its own, if at all
                    continue
                pairs += _key_value_pairs(tok, launch)
        out: list[ParsedArg] = []
        for ka, exact in pairs:
            key = ka.key
            if "$" in key or "`" in key:
                launch.opaque = True
                continue
            if key in row.model:
                out.append(ParsedArg(written=key, canonical="<model>", keyed=ka, value=ka.value,
                                     value_opaque=ka.value_opaque, positional=True, style="kwargs",
                                     key_style="cli", how="positional"))
                continue
            under = next((p for p in row.passes_under if key.startswith(p) and len(key) > len(p)), None)
            if under is not None:  # handed to vLLM under vLLM's own name (verl's engine_kwargs.vllm.*)
                ka.key = key[len(under):]
                if ka.key_span is not None and exact:
                    ka.key_span = Span(ka.key_span.start + len(under.encode()), ka.key_span.end)
                if row.typed and isinstance(ka.value, str):
                    ka.value = literal_value(ka.value)
                ka.key_style = "snake"
                out.append(self._kwarg(ka, exact))
                continue
            field_name = row.keys.get(key)
            if field_name is None:
                if row.passes_unknown and key not in row.own:
                    if row.typed and isinstance(ka.value, str):
                        ka.value = literal_value(ka.value)
                    ka.key_style = "snake"
                    out.append(self._kwarg(ka, exact))
                continue
            opt = self.surface.by_dest.get(field_name)
            if opt is None:
                continue  # a field the target lacks: the tool's release passes it or not, not the user
            if ka.key_style != "cli":  # a Python value, as a keyword argument of LLM(...) has it
                out.append(ParsedArg(written=key, canonical=field_name, keyed=ka, option=opt,
                                     resolved_string=opt.name, how="mapped", value=ka.value,
                                     value_opaque=ka.value_opaque, style="kwargs", key_style="snake"))
                continue
            value = ka.value if not isinstance(ka.value, bool) else str(ka.value).lower()
            out.append(ParsedArg(written=key, canonical=opt.name, keyed=ka, option=opt, resolved_string=opt.name,
                                 how="mapped", value=value, value_opaque=ka.value_opaque, style="kwargs",
                                 key_style="cli"))
        return out

    def _kwarg(self, ka: KeyedArg, exact: bool = True) -> ParsedArg:
        """A keyword argument of ``LLM(...)`` / ``EngineArgs(...)`` (``exact``: its key's span spells
        it, so a fix may rename it)."""
        s = self.surface
        field_name = _key_to_field(ka.key, ka.key_style)
        opt = s.by_dest.get(field_name)
        return ParsedArg(written=ka.key, canonical=field_name, keyed=ka, option=opt,
                         resolved_string=opt.name if opt else None,
                         how="kwarg" if field_name in s.engine_args or field_name in s.llm_params else "unknown",
                         value=ka.value, value_opaque=ka.value_opaque, style="kwargs",
                         key_style=ka.key_style, name_span=_keyed_name_span(ka) if exact else None)


def _keyed_name_span(ka: KeyedArg) -> Optional[Span]:
    return ka.key_span


def _sub_span(tok: Token, text: str, start: int, end: int) -> tuple[Optional[Span], bool]:
    """The bytes of ``text[start:end]`` (``text`` being ``tok.text``) in the file, and whether they
    are exact; the whole word where its text is not spelled verbatim."""
    base = tok.text_span or tok.verbatim
    if base is None:
        return tok.span, False
    a = len(text[:start].encode("utf-8"))
    b = a + len(text[start:end].encode("utf-8"))
    return Span(base.start + a, base.start + b), True


def _option_pairs(launch: Launch) -> list[tuple[KeyedArg, bool]]:
    """``--key value``, ``--key=value`` and a bare ``--flag`` (``HfArgumentParser``: ``_`` or ``-``,
    a boolean's value optional) of a dataclass-reading launcher."""
    toks = launch.tokens
    out: list[tuple[KeyedArg, bool]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        i += 1
        if tok.splat:
            launch.opaque = True
            continue
        text = tok.text
        if not text.startswith("--") or len(text) < 3:
            continue
        name, eq, inline = text.partition("=")
        key = name[2:].replace("-", "_")
        key_span, key_exact = _sub_span(tok, text, 0, len(name))
        if eq:
            vspan, exact = _sub_span(tok, text, len(name) + 1, len(text))
            opaque = tok.opaque and "$" in inline
            out.append((KeyedArg(key, key_span, None if opaque else inline, vspan,
                                 vspan if exact and not opaque else None, value_opaque=opaque, key_style="cli"),
                        key_exact))
            continue
        nxt = toks[i] if i < len(toks) else None
        if nxt is not None and not nxt.splat and not looks_like_option(nxt.text):
            i += 1
            out.append((KeyedArg(key, key_span, None if nxt.opaque else nxt.text, nxt.span,
                                 None if nxt.opaque else nxt.text_span, value_opaque=nxt.opaque, key_style="cli"),
                        key_exact))
        else:
            out.append((KeyedArg(key, key_span, True, None, key_style="cli"), key_exact))
    return out


def _override_pairs(launch: Launch) -> list[tuple[KeyedArg, bool]]:
    """Hydra's ``dotted.key=value`` words (``+key=value`` adds a key, ``++key=value`` adds or sets
    it); options (``--config-name x``) and deletions (``~key``) are the tool's. ``true`` is a
    switch given; ``null`` and ``false`` unset the key: the tool then hands vLLM no word for it."""
    out: list[tuple[KeyedArg, bool]] = []
    for tok in launch.tokens:
        if tok.splat:
            launch.opaque = True
            continue
        text = tok.text
        if text.startswith(("-", "~")) or "=" not in text:
            continue
        a = len(text) - len(text.lstrip("+"))
        key, _eq, value = text[a:].partition("=")
        if not key or not all(part.isidentifier() for part in key.split(".")):
            if "$" in key or "`" in key:
                launch.opaque = True  # a key the file leaves to the run
            continue
        low = value.strip().lower()
        if low in ("null", "false"):
            continue  # (verl hands vLLM no word for None or False)
        key_span, key_exact = _sub_span(tok, text, a, a + len(key))
        vstart = a + len(key) + 1
        vspan, exact = _sub_span(tok, text, vstart, len(text))
        opaque = tok.opaque and ("$" in value or "`" in value) or "${" in value  # (Hydra's ${...} too)
        typed: Any = True if low == "true" else value
        out.append((KeyedArg(key, key_span, None if opaque else typed, vspan,
                             vspan if exact and not opaque else None, value_opaque=opaque, key_style="cli"),
                    key_exact))
    return out


def _holder_tokens(launch: Launch, row: ForeignLauncher) -> list[Token]:
    """The words holding a ``key-values`` launcher's string: the values of its ``holders`` options
    (each word up to the next option: ``nargs="+"``; ``--holder=value``), else its first
    positional word."""
    toks = launch.tokens
    out: list[Token] = []
    if not row.holders:
        for tok in toks:
            if tok.splat:
                launch.opaque = True
                return out
            if not looks_like_option(tok.text):
                return [tok]
        return out
    i = 0
    while i < len(toks):
        tok = toks[i]
        i += 1
        name, eq, _value = tok.text.partition("=")
        if name not in row.holders:
            continue
        if eq:
            out.append(tok)  # (its pieces are placed after the `=`: _key_value_pairs skips the name)
            continue
        while i < len(toks) and (toks[i].splat or not looks_like_option(toks[i].text)):
            out.append(toks[i])
            i += 1
    return out


def _split_pieces(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of each ``,``-separated piece of ``text``, a ``{...}`` group kept whole
    (lighteval's ``generation_parameters={temperature:0.6,top_p:0.95}``)."""
    out: list[tuple[int, int]] = []
    depth = 0
    start = 0
    for i, c in enumerate(text):
        if c == "{":
            depth += 1
        elif c == "}" and depth:
            depth -= 1
        elif c == "," and depth == 0:
            out.append((start, i))
            start = i + 1
    out.append((start, len(text)))
    return [(a, b) for a, b in out if text[a:b].strip()]


def _key_value_pairs(tok: Token, launch: Launch) -> list[tuple[KeyedArg, bool]]:
    """The ``key=value`` pieces of one word (after ``--holder=``, when the word is that), each key and
    value placed in the file; a bare ``key`` is ``True`` (lighteval)."""
    text = tok.text
    offset = 0
    if text.startswith("-") and "=" in text:
        offset = text.index("=") + 1
    out: list[tuple[KeyedArg, bool]] = []
    body = text[offset:]
    if body.lstrip().startswith("{"):
        import json

        try:
            obj = json.loads(body)
        except ValueError:
            obj = None
        if isinstance(obj, dict):  # lm-evaluation-harness also takes one JSON object
            for key, value in obj.items():
                at = text.find(f'"{key}"', offset)
                kspan, exact = _sub_span(tok, text, at + 1, at + 1 + len(key)) if at >= 0 else (tok.span, False)
                out.append((KeyedArg(str(key), kspan, value, kspan, None, key_style="snake"), exact))
            return out
    for a, b in _split_pieces(body):
        a, b = a + offset, b + offset
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        a += lead
        piece = text[a:b].rstrip()
        b = a + len(piece)
        key, eq, value = piece.partition("=")
        key_span, key_exact = _sub_span(tok, text, a, a + len(key.rstrip()))
        if not eq:
            if "$" in key or "`" in key:
                launch.opaque = True
                continue
            out.append((KeyedArg(key.strip(), key_span, True, None, key_style="cli"), key_exact))
            continue
        vstart = a + len(key) + 1
        vspan, exact = _sub_span(tok, text, vstart, b)
        opaque = tok.opaque and ("$" in value or "`" in value) or is_placeholder(value.strip())
        out.append((KeyedArg(key.strip(), key_span, None if opaque else value, vspan,
                             vspan if exact and not opaque else None, value_opaque=opaque, key_style="cli"),
                    key_exact))
    return out


def literal_value(text: str) -> Any:
    """A ``key=value`` value as lm-evaluation-harness's ``handle_arg_string`` turns it into a
    Python value: quoted text stays text, ``true`` / ``false`` / ``none`` (any case), an integer,
    a float, else the text."""
    v = text.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
        return v[1:-1]
    low = v.lower()
    if low in ("true", "false"):
        return low == "true"
    if low == "none":
        return None
    try:
        return int(v)
    except ValueError:
        pass
    try:
        return float(v)
    except ValueError:
        return v


_CAMEL = lazy_re(r"(?<=[a-z0-9])([A-Z])")


def _key_to_field(key: str, style: str) -> str:
    if style == "camel":
        return _CAMEL.sub(r"_\1", key).lower()
    if style == "env":  # a container's variable its entrypoint turns into the option (SM_VLLM_MAX_MODEL_LEN)
        row = env_options(key)
        return (key[len(row.prefix):] if row is not None else key).lower()
    return key.lstrip("-").replace("-", "_")


def spell_like(new_option: str, arg: ParsedArg) -> str:
    """Spell ``new_option`` (``--new-name`` or ``--cfg.key``) the way ``arg`` is written."""
    if arg.style == "argv" or arg.key_style == "cli":
        written = arg.written
        if written.startswith("--") and "_" in written.partition(".")[0] and "-" not in written[2:].partition(".")[0]:
            head, dot, tail = new_option.partition(".")
            return "--" + head[2:].replace("-", "_") + dot + tail
        return new_option
    bare = new_option.lstrip("-")
    if arg.key_style == "env":
        if "." in bare:  # (no variable spells a nested key: the option as the command line writes it)
            return new_option
        row = env_options(arg.written)
        return (row.prefix if row is not None else "") + bare.replace("-", "_").replace(".", "_").upper()
    if arg.key_style == "camel":
        parts = bare.replace("_", "-").split("-")
        return parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])
    if arg.key_style == "dash":
        return bare.replace("_", "-")
    return bare.replace("-", "_")
