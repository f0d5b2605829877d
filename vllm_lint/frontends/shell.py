"""Shell front-end: vLLM launches in shell scripts (and shell snippets nested in other formats).

Parsing uses tree-sitter-bash (error tolerant, byte offsets). Only subtrees whose bytes mention
``vllm``/``VLLM_`` are decoded, so large scripts cost little more than the parse.

Found:

* every command that starts vLLM (:func:`vllm_lint.frontends.commands.find_vllm_command`), wherever
  it sits (``&&``/``||``/``;`` chains, pipelines, subshells, functions, ``if``/``for`` bodies);
* ``sh -c "..."`` / ``bash -lc '...'`` strings, ``eval`` words (joined with spaces, as bash runs
  them) and ``bash <<EOF`` heredoc bodies, parsed as shell in turn with offsets mapped back through
  the quoting;
* a heredoc that writes a systemd unit (``cat > /etc/systemd/system/vllm.service <<EOF``, ``tee``,
  ``$(cat <<EOF ...)``; the body has a ``[Service]``-style header or the target is a ``.service``):
  each ``ExecStart=`` command line is a launch (offsets 1:1 into the body), with the unit's
  ``Environment=`` assignments as its environment and not the script's exports;
* a heredoc that writes a file of another format (``cat <<EOF > config.yaml``, ``| tee
  Dockerfile``, ``| kubectl apply -f -``): the body is read as that file, in the format of the
  target's name, else of its content (``_written_file``); with an unquoted delimiter, values
  holding ``$`` are opaque (the shell expands them). A heredoc only reached when it mentions vLLM
  (a config file written without naming vLLM is not seen);
* ``docker run --gpus N`` / a device list / podman ``--device nvidia.com/gpu=N`` ->
  ``Launch.hardware.gpu_count`` (``--gpus all`` stays unknown);
* ``export VLLM_X=...`` / bare ``VLLM_X=...`` (``Extraction.env``, also attached to later launches),
  ``VAR=value vllm serve`` prefixes, ``env A=B`` (``env "$NAME=$VALUE"`` is skipped: its name is unknown), ``docker run -e A=B`` (``Launch.env``);
* ``pip install vllm==X`` (``Extraction.version_hints``, source ``pip-install``), an HPC site's
  ``module load vLLM/X`` (source ``module-load``) and vLLM image
  tags (``Launch.version_hints``, source ``image-tag``);
* options cut off by a broken line continuation (``Launch.dropped``): a ``--`` line after a vLLM
  command whose last line lacks its ``\\``, ends in ``\\`` + spaces, ends in ``\\`` + CRLF, or is
  followed by a comment line inside the continuation (bash ends the command at the comment).

Word decoding follows bash quoting: ``'...'`` verbatim, ``"..."`` with ``\\$ \\` \\" \\\\`` escapes,
unquoted backslash escapes, ``$'...'`` ANSI-C strings. Words containing expansions are opaque;
a lone unquoted ``$ARGS``-like expansion, ``$(cmd)``, ``"$@"`` or ``"${A[@]}"`` is a splat. An
array the script assigns for certain before the command (``ARGS=(...)``, then ``ARGS+=(...)``) is
read in its place, as is a string of plain options (``OPTS="..."``, then ``$OPTS``): the words
are the launch's, at their offsets in the literal, so a fix edits the literal (``_splat_words``).
"""

from __future__ import annotations

import os
import posixpath
import re
from bisect import bisect_left, bisect_right, insort

from vllm_lint.foreign_launchers import FOREIGN_LAUNCHERS, launcher_module_words
from vllm_lint.frontends.commands import (
    UNNAMED_REVISION,
    VllmCommand,
    find_cloud_deploy,
    docker_image_index,
    docker_run_env,
    find_vllm_command,
    image_starts_vllm,
    image_takes_vllm_args,
    image_is_vllm,
    split_env_word,
    version_from_image,
    version_from_module_load,
    version_from_pip_install,
    version_from_tool_run,
)
from vllm_lint.frontends.base import ENV_RUN_BYTES
from vllm_lint.frontends.embedding import Embedding, rebase
from vllm_lint.frontends.scheduler import gpu_request
from vllm_lint.launch import (
    MAX_LAUNCH_WORDS,
    MAX_LAUNCHES,
    MAX_SCRIPT_NODES,
    MAX_SCRIPT_WORDS,
    Edit,
    EnvAssign,
    Extraction,
    Hardware,
    Launch,
    ParseError,
    Span,
    Token,
    TooLarge,
    VersionHint,
    check_launch_budget,
)
from vllm_lint.record import Record, lazy_re

FORMAT = "shell"

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth and seventh passes)
if TYPE_CHECKING:
    from typing import Callable, Optional, Union

    CutMap = Callable[[int, int], Optional[Span]]

_PARSER = None


def parser():
    """The tree-sitter parser for bash, made at first use."""
    global _PARSER
    if _PARSER is None:
        ts = _tree_sitter()
        _PARSER = ts.Parser(ts.Language(_bash_language()))
    return _PARSER


def _tree_sitter():
    """tree_sitter's compiled ``_binding`` (its ``Parser`` and ``Language``), loaded without running
    the package's ``__init__``: that imports ``typing`` for one ``Protocol`` class, ~13 M
    instructions of a shell file's lint (benchmarks/README.md, issue 31's seventh pass). It is
    registered as ``tree_sitter._binding``, which a later ``import tree_sitter`` takes as its own:
    the same classes. The package, when imported already, and any surprise: the ordinary import."""
    import sys

    mod = sys.modules.get("tree_sitter") or sys.modules.get("tree_sitter._binding")
    if mod is None:
        mod = _extension("tree_sitter")
    if mod is None:
        import tree_sitter

        mod = tree_sitter
    return mod


def _extension(package: str):
    """The compiled module ``_binding`` of the installed package ``package``, loaded by its file and
    registered as ``package._binding`` without importing the package; None when it is not where
    it should be or does not load. (The import system's own functions, which ``importlib.util`` and
    ``importlib.machinery`` re-export: those import ``contextlib`` and ``warnings``, ~4 M
    instructions; issue 31's eighth pass. The package is not imported here, so ``find_spec`` is the
    finders' search ``importlib.util.find_spec`` makes.)"""
    import sys

    try:
        import _frozen_importlib as bootstrap
        import _frozen_importlib_external as external
        import _imp
        import os

        name = package + "._binding"
        spec = bootstrap._find_spec(package, None)
        for suffix in _imp.extension_suffixes():
            path = os.path.join(list(spec.submodule_search_locations)[0], "_binding" + suffix)
            if os.path.isfile(path):
                loader = external.ExtensionFileLoader(name, path)
                mod = bootstrap.module_from_spec(external.spec_from_file_location(name, path, loader=loader))
                loader.exec_module(mod)
                sys.modules[name] = mod
                return mod
    except Exception:  # noqa: BLE001 - an unusual install: the ordinary import
        pass
    return None


def _bash_language():
    """The grammar from tree_sitter_bash's compiled ``_binding``, loaded without running the
    package's ``__init__``: that imports importlib.resources (and with it tempfile, shutil,
    random, bz2, lzma) for query files the linter never reads, ~4 ms of a pre-commit run's
    start-up (benchmarks/README.md). Any surprise falls back to the ordinary import."""
    import sys

    if "tree_sitter_bash" not in sys.modules:
        mod = sys.modules.get("tree_sitter_bash._binding") or _extension("tree_sitter_bash")
        if mod is not None:
            try:
                return mod.language()
            except Exception:  # noqa: BLE001 - an unusual install: the ordinary import below
                pass
    import tree_sitter_bash

    return tree_sitter_bash.language()


# Exported variables worth recording: vLLM's own, and the few others that rules read (secrets for
# VL501, NCCL and device settings for the VL3xx/VL4xx rules). Others are not decoded at all.
ENV_PREFIXES = (b"VLLM_", b"NCCL_", b"HF_TOKEN", b"HUGGING_FACE_HUB_TOKEN", b"CUDA_VISIBLE_DEVICES")


# the words whose offsets make a node worth decoding (``_Ctx.marks``): vLLM's, and the scripts of
# vLLM's benchmarks, often copied and run by name alone (``python3 benchmark_latency.py --model ...``)
_BENCH_SCRIPT_WORDS = (b"benchmark_latency", b"benchmark_throughput")
# and the modules of other tools' launchers whose command line may not say vllm (verl's trainer with
# its default rollout engine: foreign_launchers)
_TOOL_MODULE_WORDS = launcher_module_words()
# and an HPC site's module of vLLM as EasyBuild spells it (`module load vLLM/0.11.0-foss-2024a`)
_MODULE_WORDS = (b"vLLM/", b"VLLM/")
_MARK_WORDS = (b"vllm", *ENV_PREFIXES, *_BENCH_SCRIPT_WORDS, *_TOOL_MODULE_WORDS, *_MODULE_WORDS)


def might_contain_launch(data: bytes) -> bool:
    return b"vllm" in data or b"VLLM_" in data or any(w in data for w in _BENCH_SCRIPT_WORDS) \
        or any(w in data for w in _TOOL_MODULE_WORDS)


def extract(data: bytes, path: str) -> Extraction:
    out = extract_script(data, path)
    if out.launches:
        _job_gpus(data, out)
    return out


def _job_gpus(data: bytes, out: Extraction) -> None:
    """A batch job script's GPU request (``#SBATCH --gres=gpu:4``) is the hardware of the launches
    it runs that state none of their own (``frontends.scheduler``)."""
    request = gpu_request(data)
    if request is None:
        return
    for launch in out.launches:
        hw = launch.hardware
        if hw is None:
            launch.hardware = Hardware(gpu_count=request.gpus_per_node, nodes=request.nodes, source=request.source)
        elif hw.gpu_count is None:
            hw.gpu_count, hw.source = request.gpus_per_node, hw.source or request.source
            if hw.nodes is None:
                hw.nodes = request.nodes


# --------------------------------------------------------------------------------------------
# decoded words

_EXPANSIONS = frozenset(
    {"simple_expansion", "expansion", "command_substitution", "arithmetic_expansion",
     "process_substitution"}
)
# node types _Decoder.word decodes otherwise than as unquoted text
_NOT_PLAIN = _EXPANSIONS | {"raw_string", "string", "translated_string", "ansi_c_string", "concatenation"}
_SPLAT_NAME_RE = lazy_re(r"ARG|OPT|FLAG|PARAM|EXTRA|CMD|CLI|ADDITIONAL", re.IGNORECASE)
# (each name holds "sh" or is "busybox": _nested_shell screens a command's words for those first)
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "busybox"})
_SHELL_C_RE = lazy_re(r"^-[a-zA-Z]*c[a-zA-Z]*$")
_PY_RE = lazy_re(r"^python[\d.]*$")
_VAR_REF = lazy_re(r"\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})")
_ANSI_C = {
    "n": b"\n", "t": b"\t", "r": b"\r", "a": b"\a", "b": b"\b", "e": b"\x1b", "E": b"\x1b",
    "f": b"\f", "v": b"\v", "\\": b"\\", "'": b"'", '"': b'"', "?": b"?",
}


def _suffix_at(words: list, image: str) -> Optional[tuple[int, int]]:
    """The script range of ``image`` at the end of a word that names it with a scheme
    (``docker://vllm/vllm-openai:v0.8.5``), where the word spells it verbatim."""
    raw = image.encode("utf-8")
    for w in words:
        if w.text != image and w.text.endswith(image) and bytes(w.raw).endswith(raw):
            pos = w.pos[len(w.raw) - len(raw):]
            if pos and None not in pos and pos[-1] - pos[0] == len(pos) - 1:
                return pos[0], pos[-1] + 1
    return None


class _Word(Record):
    __slots__ = ("node", "start", "end", "raw", "pos", "opaque", "splat", "text")

    def __init__(self, node: object, start: int, end: int, raw: bytearray, pos: list, opaque: bool = False,
                 splat: bool = False, text: str = "") -> None:
        self.node = node
        self.start = start  # script offsets of the word as written
        self.end = end
        self.raw = raw  # decoded bytes
        self.pos = pos  # script offset of each decoded byte (None: synthesized)
        self.opaque = opaque
        self.splat = splat
        self.text = text

    def text_range(self, opaque_too: bool = False) -> Optional[tuple[int, int]]:
        """Script range spelling the decoded text verbatim, if any (with ``opaque_too``, also for a
        word whose expansions stand in its text as written: ``Token.verbatim``)."""
        if self.opaque and not opaque_too or not self.pos:
            return None
        pos = self.pos
        if pos.__class__ is range:  # a verbatim run (_Decoder.word's fast path)
            return pos.start, pos.stop
        first = pos[0]
        if first is None or pos[-1] != first + len(pos) - 1:
            return None
        if len(pos) > 2 and pos != list(range(first, first + len(pos))):
            return None
        return first, first + len(pos)


class _Decoder:
    def __init__(self, src: bytes):
        self.src = src

    def word(self, node, t: Optional[str] = None) -> _Word:
        # Fast path: a word that is one leaf spelled verbatim (``--tp``, ``2``, ``'a b'``, a command
        # name), most words of a launch. Its decoded bytes are a slice of the script and its
        # ``pos`` a range; otherwise the same as ``decode`` (tests/formats/shell/test_shell.py).
        # ``t``: the node's type, when the caller has it (each ``node.type`` makes a string)
        if t is None:
            t = node.type
        if t not in _NOT_PLAIN:
            n = node.child_count
            if n:
                if t != "command_name" or n != 1:
                    return self.decode(node)
                leaf = node.child(0)
                if leaf.child_count or leaf.type in _NOT_PLAIN:
                    return self.decode(node)
                s, e = leaf.start_byte, leaf.end_byte
                ws, we = node.start_byte, node.end_byte
            else:  # (the node is its own leaf)
                s = ws = node.start_byte
                e = we = node.end_byte
            src = self.src
            if src.find(b"\\", s, e) == -1:
                raw = src[s:e]
                return _Word(node, ws, we, raw, range(s, e), False, False, raw.decode("utf-8", "replace"))
        elif t == "raw_string" and not node.child_count:
            s, e = node.start_byte, node.end_byte
            if e - s >= 2:
                raw = self.src[s + 1:e - 1]
                return _Word(node, s, e, raw, range(s + 1, e - 1), False, False, raw.decode("utf-8", "replace"))
        return self.decode(node)

    def decode(self, node) -> _Word:
        """The word ``node`` spells, decoded node by node."""
        raw = bytearray()
        pos: list = []
        st = {"opaque": False}
        self._node(node, raw, pos, st)
        w = _Word(node, node.start_byte, node.end_byte, raw, pos, st["opaque"])
        w.splat = self._is_splat(node)
        if w.splat:
            w.opaque = True
        w.text = bytes(raw).decode("utf-8", "replace")
        return w

    def _is_splat(self, node) -> bool:
        t = node.type
        src = self.src
        if t in ("simple_expansion", "expansion"):
            body = src[node.start_byte : node.end_byte]
            if b"@" in body or b"*" in body:
                return True
            if body.startswith(b"${") and (b":" in body or b"-" in body or b"#" in body or b"/" in body):
                # ${X:-default} and friends: still a word-split unquoted expansion
                return bool(_SPLAT_NAME_RE.search(body.decode("utf-8", "replace")))
            return bool(_SPLAT_NAME_RE.search(body.decode("utf-8", "replace")))
        if t == "command_substitution":
            return True
        if t == "string":
            named = [c for c in node.named_children if c.type != "string_content" or c.end_byte > c.start_byte]
            if len(named) == 1 and named[0].type in ("simple_expansion", "expansion"):
                body = src[named[0].start_byte : named[0].end_byte]
                return body in (b"$@", b"${@}") or body.endswith(b"[@]}")
        return False

    def _verbatim(self, s: int, e: int, raw: bytearray, pos: list) -> None:
        raw += self.src[s:e]
        pos.extend(range(s, e))

    def _node(self, node, raw: bytearray, pos: list, st: dict) -> None:
        t = node.type
        s, e = node.start_byte, node.end_byte
        src = self.src
        if t in _EXPANSIONS:
            st["opaque"] = True
            self._verbatim(s, e, raw, pos)
        elif t == "raw_string":
            if e - s >= 2:
                self._verbatim(s + 1, e - 1, raw, pos)
        elif t in ("string", "translated_string"):
            qs = s + (2 if t == "translated_string" else 1)
            qe = e - 1 if e - qs >= 1 and src[e - 1 : e] == b'"' else e
            self._dquote(node, qs, qe, raw, pos, st)
        elif t == "ansi_c_string":
            self._ansi_c(s + 2, max(s + 2, e - 1), raw, pos)
        elif t == "concatenation":
            cur = s
            for c in node.children:
                if c.start_byte > cur:  # bytes not covered by a child (defensive)
                    self._unquoted(cur, c.start_byte, raw, pos)
                self._node(c, raw, pos, st)
                cur = max(cur, c.end_byte)
            if cur < e:
                self._unquoted(cur, e, raw, pos)
        elif t == "command_name":
            if node.child_count:
                for c in node.children:
                    self._node(c, raw, pos, st)
            else:
                self._unquoted(s, e, raw, pos)
        else:  # word, number, brace expressions, anything else: unquoted text
            if any(c.type in _EXPANSIONS for c in node.children):
                cur = s
                for c in node.children:
                    if c.type in _EXPANSIONS:
                        self._unquoted(cur, c.start_byte, raw, pos)
                        self._node(c, raw, pos, st)
                        cur = c.end_byte
                self._unquoted(cur, e, raw, pos)
            else:
                self._unquoted(s, e, raw, pos)

    def _unquoted(self, s: int, e: int, raw: bytearray, pos: list) -> None:
        src = self.src
        if src.find(b"\\", s, e) == -1:
            raw += src[s:e]
            pos.extend(range(s, e))
            return
        i = s
        while i < e:
            ch = src[i]
            if ch == 0x5C and i + 1 < e:  # backslash
                nxt = src[i + 1]
                if nxt == 0x0A:
                    i += 2
                    continue
                if nxt == 0x0D and i + 2 < e and src[i + 2] == 0x0A:
                    i += 3
                    continue
                raw.append(nxt)
                pos.append(i + 1)
                i += 2
                continue
            raw.append(ch)
            pos.append(i)
            i += 1

    def _dquote(self, node, s: int, e: int, raw: bytearray, pos: list, st: dict) -> None:
        src = self.src
        kids = [c for c in node.named_children if c.type in _EXPANSIONS]
        cur = s
        for c in kids:
            self._dq_text(cur, c.start_byte, raw, pos)
            st["opaque"] = True
            self._verbatim(c.start_byte, c.end_byte, raw, pos)
            cur = c.end_byte
        self._dq_text(cur, e, raw, pos)

    def _dq_text(self, s: int, e: int, raw: bytearray, pos: list) -> None:
        src = self.src
        if src.find(b"\\", s, e) == -1:
            raw += src[s:e]
            pos.extend(range(s, e))
            return
        i = s
        while i < e:
            ch = src[i]
            if ch == 0x5C and i + 1 < e:
                nxt = src[i + 1]
                if nxt in b'$`"\\':
                    raw.append(nxt)
                    pos.append(i + 1)
                    i += 2
                    continue
                if nxt == 0x0A:
                    i += 2
                    continue
            raw.append(ch)
            pos.append(i)
            i += 1

    def _ansi_c(self, s: int, e: int, raw: bytearray, pos: list) -> None:
        src = self.src
        i = s
        while i < e:
            ch = src[i]
            if ch == 0x5C and i + 1 < e:
                c = chr(src[i + 1])
                if c in _ANSI_C:
                    raw += _ANSI_C[c]
                    pos.append(None)
                    i += 2
                    continue
                m = re.match(rb"x([0-9a-fA-F]{1,2})|([0-7]{1,3})", src[i + 1 : i + 4])
                if m:
                    val = int(m.group(1), 16) if m.group(1) else int(m.group(2), 8)
                    raw.append(val & 0xFF)
                    pos.append(None)
                    i += 1 + len(m.group(0))
                    continue
            raw.append(ch)
            pos.append(i)
            i += 1


# --------------------------------------------------------------------------------------------
# the walk


class _Ctx(Record):
    __slots__ = ("src", "path", "emb", "depth", "out", "file_env", "marks", "image_vars", "root", "cut",
                 "command_vars", "config_names", "config_files", "literals", "local_images", "stated", "resolver",
                 "resolve")

    def __init__(self, src: bytes, path: str, emb: Optional[Embedding], depth: int, out: Optional[Extraction] = None,
                 file_env: Optional[list] = None, marks: Optional[list] = None,
                 image_vars: Optional[dict] = None) -> None:
        self.src = src
        self.path = path
        self.emb = emb  # where the script is in the file (None: the script is the file)
        self.depth = depth
        self.out = Extraction() if out is None else out
        self.file_env = [] if file_env is None else file_env  # (script offset, EnvAssign) of VLLM_ exports
        self.marks = [] if marks is None else marks  # sorted offsets of b"vllm" / b"VLLM_"
        # IMAGE=vllm/vllm-openai:vX: name -> (image, script offsets of the value), for `docker run $IMAGE`
        self.image_vars = {} if image_vars is None else image_vars
        # NAME=literal assignments seen so far (VLLM_VERSION="0.27.1"), to fill a later
        # IMAGE="vllm/vllm-openai:v${VLLM_VERSION}"
        self.literals: dict[str, str] = {}
        self.root = None  # the tree's root while the script is walked (for _splat_words), then None
        self.cut: Optional[CutMap] = None  # extract_script's cut_map
        # CMD="vllm serve ..." / CMD=(vllm serve ...): names of variables that hold a vLLM command
        # line, whose later `$CMD` / `"${CMD[@]}"` / `eval "$CMD"` / `sh -c "$CMD"` run it
        self.command_vars: set[str] = set()
        # the files the script's launches name with --config (as written), and the config-file
        # launches read from the heredocs that write them, by that name
        self.config_names: set[str] = set()
        self.config_files: list[tuple[str, Launch]] = []
        # images built from a vLLM image, or whose Dockerfile starts vLLM itself (_local_image):
        # name -> (vLLM image, how it was found, whether its tag names the release, the Dockerfile's
        # own entry or None); None until the script's `docker build` lines are read
        self.local_images: Optional[dict[str, Optional[tuple]]] = None
        # the environment the configuration that runs the script states (``extract_script``'s
        # ``stated``), and the reader of variables' values at a launch (made at first use)
        self.stated: Optional[dict] = None
        self.resolver = None
        self.resolve = True


def _find_all(data: bytes, needle: bytes) -> list[int]:
    out = []
    i = data.find(needle)
    while i != -1:
        out.append(i)
        i = data.find(needle, i + 1)
    return out


def extract_script(
    script: bytes, path: str, embedding: Optional[Embedding] = None, *, _depth: int = 0,
    cut_map: Optional[CutMap] = None, images: Optional[dict] = None, stated: Optional[dict] = None,
    resolve: bool = True,
) -> Extraction:
    """Extract launches from shell text ``script`` (UTF-8 bytes).

    ``embedding`` says where the bytes of ``script`` are in the containing file (its text has
    the script's length; it may differ from ``script`` where a reader filled placeholders); the
    script is the file when omitted. All spans in the result are in the containing file's
    coordinates. ``cut_map(s, e)``, where given, is the file span to delete for script bytes
    ``[s, e)`` that ``embedding`` does not map 1:1 (a YAML scalar's line folds), or None.
    ``images``: the images built from vLLM's by the scripts read before this one in the same
    file (a document's blocks), updated with this one's (``_built_images``).
    ``stated``: the environment the configuration that runs the script gives it (name ->
    (literal value or None, its span in the file)): a launch's ``$VAR`` the script does not set
    reads its value there (``shell_values``). ``resolve``: whether the script's own assignments
    may give a launch's words their values: not where the text is no one shell's run (a
    Makefile's recipe lines, a notebook's ``!`` lines: each line its own shell), nor in a script
    read out of another's words (``sh -c "..."``, a heredoc, ``eval``: the outer shell may have
    expanded them already).
    """
    if b"\x00" in script:
        raise ParseError("binary data (NUL byte) in shell script", offset=script.index(b"\x00"))
    ctx = _Ctx(script, path, embedding, _depth)
    ctx.cut = cut_map
    ctx.stated = stated
    ctx.resolve = resolve and _depth == 0
    if images:
        ctx.local_images = images
        for name in images:  # (their uses in this script)
            if images[name] is not None:
                ctx.marks.extend(_find_all(script, name.encode()))
    marks = ctx.marks
    for needle in _MARK_WORDS:
        i = script.find(needle)
        while i != -1:
            marks.append(i)
            i = script.find(needle, i + 1)
    if (b"$(cat " in script or b"`cat " in script or b"$(<" in script) and (b"docker" in script or b"podman" in script):
        for needle in (b"$(cat ", b"`cat ", b"$(<"):  # IMAGE="$(cat image.txt)": an image a file names (_image_var)
            marks.extend(_find_all(script, needle))
    if not marks and not (b" build" in script and b"docker" in script):
        return ctx.out
    if b"--config" in script and b"<<" in script:
        _config_heredocs(ctx)
    if b" build" in script and (b"docker" in script or b"podman" in script):
        _built_images(ctx)
    if images is not None and ctx.local_images is not None and ctx.local_images is not images:
        images.update((k, v) for k, v in ctx.local_images.items() if v is not None)
    marks.sort()  # (an offset twice would do no harm: _relevant and insort take duplicates)
    _check_script_words(script)
    tree = parser().parse(script)
    ctx.root = tree.root_node
    if ctx.root.descendant_count > MAX_SCRIPT_NODES:  # (kept in the tree: no walk to count them)
        raise TooLarge(f"more than {MAX_SCRIPT_NODES:,} parts of shell syntax (the per-file budget)")
    _walk(ctx, ctx.root)
    ctx.root = None
    if ctx.config_files:
        _config_releases(ctx)
    # the launches' delete_tokens keep the context (for its bytes and embedding): without its
    # reference to the extraction, that is no reference cycle and is freed once dropped
    out, ctx.out = ctx.out, None
    return out


def _check_script_words(script: bytes) -> None:
    """Raise :class:`TooLarge` for a script of more words than the parser's tree may hold (its time
    and memory grow with them: ~200 bytes a word). Counted a MiB at a time, so that the count's own
    list of words stays small."""
    if len(script) <= 2 * MAX_SCRIPT_WORDS:
        return  # (a word and the blank after it take two bytes at least: no list of its words made)
    words = 0
    step = 1 << 20
    for i in range(0, len(script), step):
        words += len(script[i:i + step].split())  # (a word cut at a chunk's end counts twice: close enough)
        if words > MAX_SCRIPT_WORDS:
            raise TooLarge(f"more than {MAX_SCRIPT_WORDS:,} words of shell (the per-file budget)")


def _add_launch(ctx: _Ctx, la: Launch) -> None:
    """Add ``la`` to the extraction, within the file's budget of launches (stopping at once, not
    after reading every launch of a file of tens of thousands)."""
    ctx.out.launches.append(la)
    if len(ctx.out.launches) > MAX_LAUNCHES:
        check_launch_budget(len(ctx.out.launches), 0)


def _relevant(ctx: _Ctx, node) -> bool:
    marks = ctx.marks
    k = bisect_left(marks, node.start_byte)
    return k < len(marks) and marks[k] < node.end_byte


def _walk(ctx: _Ctx, root) -> None:
    """Visit, in document order, the nodes that hold a mark (``_relevant``), down to the first
    command, declaration or assignment on each path.

    A node's children tile its bytes in order, so the children worth visiting are found from
    the marks (``_child_after``) rather than by testing every child: a script's top level has a
    statement per line, few of which mention vLLM, and listing a node's children costs ~0.4 us
    each (tree-sitter walks the hidden repetition nodes under them). The next mark is looked up
    only once the previous child is done, as marks are added on the way (``_image_var``: uses of
    ``$IMAGE`` after ``IMAGE=vllm/...``)."""
    marks = ctx.marks  # sorted; _image_var inserts into this very list
    if not _relevant(ctx, root):
        return
    # entries: a node that holds a mark, or (node, from byte, its end): the rest of the node's
    # children, from the first one that holds a mark at or after that byte
    stack: list = [root]
    while stack:
        node = stack.pop()
        if node.__class__ is tuple:
            parent, pos, end = node
            while True:
                k = bisect_left(marks, pos)
                if k == len(marks) or marks[k] >= end:
                    break
                m = marks[k]
                c = _child_after(parent, m)
                if c is None:
                    break
                pos = c.start_byte
                if pos <= m:  # it holds the mark
                    stack.append((parent, c.end_byte, end))
                    stack.append(c)
                    break
        else:
            t = node.type
            if t == "command":
                _command(ctx, node)
                continue
            if t == "declaration_command":
                _declaration(ctx, node)
                continue
            if t == "variable_assignment":
                _bare_assignment(ctx, node)
                continue
            if t == "redirected_statement":
                _heredocs(ctx, node)
            if t == "heredoc_redirect":
                continue  # bodies are handled by _heredocs
            stack.append((node, node.start_byte, node.end_byte))


def _child_after(parent, i: int):
    """The first child of ``parent`` that ends after byte ``i``, or None."""
    # tree-sitter's own search, taken when it lands on a child that holds the byte (that child
    # is then the first to end after it); a byte between children is settled by bisection
    cur = parent.walk()
    if cur.goto_first_child_for_byte(i) is not None and cur.depth == 1:
        c = cur.node
        if c.start_byte <= i < c.end_byte:
            return c
    kids = parent.children
    k = bisect_right([c.end_byte for c in kids], i)
    return kids[k] if k < len(kids) else None


# ---- coordinates


def _map_span(ctx: _Ctx, s: int, e: int) -> Optional[Span]:
    """Map a script range as written; approximate when the ends have no counterpart."""
    return Span(s, e) if ctx.emb is None else ctx.emb.hull(s, e)


def _map_exact(ctx: _Ctx, s: int, e: int) -> Optional[Span]:
    """Map a script range that must be 1:1 in the file (every byte, contiguously)."""
    return Span(s, e) if ctx.emb is None else ctx.emb.span(s, e)


def _token(ctx: _Ctx, w: _Word) -> Token:
    pos = w.pos
    # (``w.text_range()``, its verbatim run read here: most words of a launch)
    tr = (pos.start, pos.stop) if pos.__class__ is range and not w.opaque and pos else w.text_range()
    start, end = w.start, w.end
    if ctx.emb is None:
        span = Span(start, end)
        # a word spelled as written (no quotes, no escapes): one span object for both (immutable)
        text_span = None if tr is None else span if tr[0] == start and tr[1] == end else Span(tr[0], tr[1])
    else:
        text_span = _map_exact(ctx, *tr) if tr else None
        span = text_span if text_span is not None and tr[0] == start and tr[1] == end else _map_span(ctx, start, end)
    tok = Token(w.text, span, text_span, w.opaque, w.splat)
    if w.opaque and not w.splat:
        vr = w.text_range(opaque_too=True)
        if vr is not None:
            tok.verbatim = Span(*vr) if ctx.emb is None else _map_exact(ctx, *vr)
    return tok


# ---- commands


_WORD_SKIP_SUFFIX = ("redirect",)


def _command_words(ctx: _Ctx, node) -> tuple[list[_Word], list]:
    """Decoded words of a command (assignment prefixes included as ``NAME=value`` words)."""
    dec = _Decoder(ctx.src)
    words: list[_Word] = []
    assigns = []
    for c in node.children:
        t = c.type
        if t.endswith(_WORD_SKIP_SUFFIX) or t in ("comment", "ERROR") and not c.named_children:
            continue
        if not c.is_named:
            continue
        if t == "variable_assignment":
            w = _assignment_word(dec, c)
            assigns.append((len(words), c))
            words.append(w)
            continue
        if t == "subscript":
            continue
        words.append(dec.word(c, t))
    return words, assigns


def _assignment_word(dec: _Decoder, node) -> _Word:
    name = node.child_by_field_name("name")
    value = node.child_by_field_name("value")
    raw = bytearray()
    pos: list = []
    if name is not None:
        dec._verbatim(name.start_byte, name.end_byte, raw, pos)
        raw += b"="
        pos.append(name.end_byte)
    opaque = False
    if value is not None:
        vw = dec.word(value)
        raw += vw.raw
        pos += vw.pos
        opaque = vw.opaque or value.type == "array"
    w = _Word(node, node.start_byte, node.end_byte, raw, pos, opaque)
    w.text = bytes(raw).decode("utf-8", "replace")
    return w


def _command(ctx: _Ctx, node) -> None:
    if node.child_count > MAX_LAUNCH_WORDS:  # before a Python object is made for each of its words
        raise TooLarge(f"a command of more than {MAX_LAUNCH_WORDS:,} words (the per-file budget of launch words)")
    words, assigns = _command_words(ctx, node)
    if words and words[0].text in ("echo", "printf") and _echoed_script(ctx, node, words):
        return
    found, texts, image_at = _recognise(ctx, words)
    literal: frozenset = frozenset()
    if found is None and any(w.splat for w in words):
        words, literal, found, texts, image_at = _with_option_arrays(ctx, node, words)
    if found is not None:
        _launch(ctx, node, words, found, image_at, literal)
    elif _cloud_deploy(ctx, node, words, texts):
        return
    elif any(ctx.src.find(b, node.start_byte, node.end_byte) >= 0 for b in ENV_RUN_BYTES) \
            and _env_options_run(ctx, node, words, texts):
        return
    elif ctx.command_vars and _run_command_var(ctx, node, words):
        return
    else:
        if ctx.literals and "install" in texts:  # pip install .../vllm-${VLLM_VERSION}-cp38-...whl after VLLM_VERSION=0.5.4
            texts = [(_filled(t, ctx.literals) or t) if "$" in t else t for t in texts]
        v, source = version_from_pip_install(texts), "pip-install"
        if v is None:  # an HPC site's module of a release (`module load vLLM/0.11.0`)
            v, source = version_from_module_load(texts), "module-load"
        if v is not None:
            wi = next((w for w in words if "vllm" in w.text.lower() and not w.text.startswith("-")), None)
            span = _map_span(ctx, wi.start, wi.end) if wi is not None else _map_span(
                ctx, node.start_byte, node.end_byte)
            ctx.out.version_hints.append(VersionHint(v, source, span))
    _nested_shell(ctx, words)


def _piece(w: _Word, start: int, end: int) -> _Word:
    """The word made of characters ``[start, end)`` of word ``w``'s text (a list item)."""
    bs, be = len(w.text[:start].encode()), len(w.text[:end].encode())
    raw = w.raw[bs:be]
    pos = list(w.pos)[bs:be] if len(w.pos) == len(w.raw) else []
    known = [p for p in pos if p is not None]
    s, e = (known[0], known[-1] + 1) if known else (w.start, w.end)
    opaque = w.opaque and (b"$" in raw or b"`" in raw)
    # (a list item that is only a variable may be several items: `--args=$ARGS`)
    piece = _Word(w.node, s, e, bytearray(raw), pos, opaque, opaque and bool(_VAR_ONLY.fullmatch(bytes(raw))))
    piece.text = w.text[start:end]
    return piece


_VAR_ONLY = lazy_re(rb"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")


def _cloud_deploy(ctx: _Ctx, node, words: list[_Word], texts: list[str]) -> bool:
    """A deploy command that states a container in its options (``gcloud run deploy
    --image=vllm/vllm-openai:TAG --args=--model,M,...``, a row of
    :data:`~vllm_lint.frontends.commands.CLOUD_DEPLOYS`): the launch of its command and
    arguments, each list item a word at its own bytes, with the container's image, environment and
    GPUs. True when it started vLLM."""
    from vllm_lint.container import Container

    if not texts or texts[0].rsplit("/", 1)[-1] != "gcloud":
        return False  # (the table's one program: a cheap test before the table is read)
    dep = find_cloud_deploy(texts)
    if dep is None:
        return False
    def pieces(items):
        return [_piece(words[p.word], p.start, p.end) for p in items]
    cmd, args = pieces(dep.command), pieces(dep.args)
    found = find_vllm_command([w.text for w in cmd + args]) if cmd else None
    image = dep.image
    if found is None and not cmd and image and image_starts_vllm(image) and image_takes_vllm_args(image):
        found = VllmCommand(f"docker:{image}", 0, [], image)
    if found is None:
        return False
    found.image = image
    at = _piece(words[dep.image_at.word], dep.image_at.start, dep.image_at.end) if dep.image_at else None
    n = len(ctx.out.launches)
    _launch(ctx, node, cmd + args, found, (at.start, at.end) if at else None)
    if len(ctx.out.launches) == n:
        return False
    la = ctx.out.launches[-1]
    la.delete_tokens = _list_deleter(ctx, la.tokens, [cmd, args], found.args_start)
    for w in pieces(dep.env):
        name, _eq, value = w.text.partition("=")
        k = len(name.encode()) + 1
        name_span = _map_exact(ctx, w.start, w.start + len(name.encode())) if not w.opaque else None
        la.env.append(EnvAssign(name, name_span, value, value_text_span=(
            _map_exact(ctx, w.start + k, w.end) if not w.opaque and w.end > w.start + k else None),
            value_opaque=w.opaque))
    hw = Hardware()
    if dep.gpus and dep.gpus.isdigit():
        hw = Hardware(gpu_product=dep.gpu_type, gpu_count=int(dep.gpus), source=dep.row.gpus)
    la.hardware = hw
    la.container = Container(dep.name, la.span, image=image, image_span=_map_span(ctx, at.start, at.end) if at else None,
                             run_image=image, command=[w.text for w in cmd], args=[w.text for w in args],
                             env=list(la.env), hardware=hw, version_hints=list(la.version_hints))
    return True


def _env_options_run(ctx: _Ctx, node, words: list[_Word], texts: list[str]) -> bool:
    """A ``docker``/``podman run`` of an image whose entrypoint turns variables into vLLM's options
    (``-e SM_VLLM_MAX_MODEL_LEN=4096 ... IMAGE``, a row of :data:`vllm_lint.container.ENV_OPTIONS`;
    no command after the image): the launch of those variables, as an environment block of the same
    container in YAML or Python is (``container.env_launch``), each at its ``-e`` word; ``-e NAME``
    (the value from the caller's environment) an unknown value; the run's other variables its
    environment. True when it held such a variable. (``texts``: the words as ``_recognise`` read
    them, ``$IMAGE`` filled in.)"""
    from vllm_lint.container import env_keyed, env_launch, env_options
    from vllm_lint.launch import KeyedArg

    run = docker_run_env(texts)
    if run is None:
        return False
    k, stated, gpu_count, gpus_source = run
    row = next((r for _i, name, _v in stated for r in (env_options(name),) if r is not None), None)
    if row is None:
        return False
    keyed, env = [], [e for _o, e in ctx.file_env if env_options(e.name) is None]
    for idx, name, value in stated:
        ea = _env_from_word(ctx, words, idx, name, value)
        if env_options(name) is not row:
            env.append(ea)
            continue
        known = value is not None and not ea.value_opaque
        keyed.append(KeyedArg(name, ea.name_span, ea.value if known else None, value_span=ea.value_span,
                              value_text_span=ea.value_text_span if known else None, value_opaque=not known,
                              delete_span=ea.delete_span))
    keyed = env_keyed(row, keyed)
    if not keyed:
        return False
    image, iw = texts[k], words[k]
    release = row.release_of(image)
    at = ctx.src.rfind((":" + release).encode(), iw.start, iw.end) if release is not None else -1
    hw = Hardware(gpu_count=gpu_count, source=gpus_source) if gpu_count is not None else None
    _add_launch(ctx, env_launch(row, ctx.path, _map_span(ctx, node.start_byte, node.end_byte) or Span(0, 0), keyed,
                                env, image=image, image_span=_map_span(ctx, iw.start, iw.end), hardware=hw,
                                tag_span=_map_exact(ctx, at + 1, at + 1 + len(release)) if at >= 0 else None))
    return True


def _list_deleter(ctx: _Ctx, tokens: list[Token], lists: list[list[_Word]],
                  first: int) -> Callable[[list[Token]], Optional[list[Edit]]]:
    """``delete_tokens`` for items of comma lists (``--args=a,b,c``), the launch's ``tokens`` being
    the items from the ``first`` on: a run of items is cut with the separator after it, or before it
    when it ends the list; never a whole list."""
    placed = [(items, i) for items in lists for i in range(len(items))][first:]
    where = {id(t): hit for t, hit in zip(tokens, placed)} if len(placed) == len(tokens) else {}

    def delete_tokens(toks: list[Token]) -> Optional[list[Edit]]:
        chosen: dict[int, tuple[list[_Word], set[int]]] = {}
        for t in toks:
            hit = where.get(id(t))
            if hit is None:
                return None
            chosen.setdefault(id(hit[0]), (hit[0], set()))[1].add(hit[1])
        edits = []
        for items, idx in chosen.values():
            if len(idx) == len(items):
                return None  # (the option would be left with no value)
            i = 0
            while i < len(items):
                if i not in idx:
                    i += 1
                    continue
                j = i
                while j + 1 < len(items) and j + 1 in idx:
                    j += 1
                s, e = (items[i].start, items[j + 1].start) if j + 1 < len(items) else (items[i - 1].end, items[j].end)
                sp = _map_exact(ctx, s, e)
                if sp is None or (items[i].start if j + 1 < len(items) else items[i - 1].end) is None:
                    return None
                edits.append(Edit(sp, ""))
                i = j + 1
        return edits

    return delete_tokens
_ECHO_ESCAPES = {ord("n"): 10, ord("t"): 9, ord("\\"): 92}
_PRINTF_SPEC = lazy_re(rb"%(?:%|[-#0 +]*\d*(?:\.\d+)?[sdiuoxXfFeEgGcbq])")


def _echoed_script(ctx: _Ctx, node, words: list[_Word]) -> bool:
    """``echo '#!/bin/bash\\n... vllm serve ...' > /app/start.sh`` (or ``printf``): a script
    written by the command (a Dockerfile's ``RUN`` writes the image's start script so), read as
    shell where it is written, its ``\\n`` the line breaks it stands for (``printf``, and ``echo``
    of ``sh``, read them so). Whether it was one."""
    parent = node.parent
    if parent is None or parent.type != "redirected_statement" or ctx.depth >= 6:
        return False
    if not any(c.type == "file_redirect" and ctx.src[c.start_byte:c.end_byte].lstrip(b"0123456789")[:1] == b">"
               for c in parent.children):
        return False
    parts = [w for w in words[1:] if not (w.text.startswith("-") and len(w.text) <= 3 and w is words[1])]
    if words[0].text == "printf":
        parts = parts[:1]  # the format; its arguments fill %s
    body, pos = bytearray(), []
    for k, w in enumerate(parts):
        if k:
            body += b" "
            pos.append(None)
        raw, at = bytes(w.raw), list(w.pos) if len(w.pos) == len(w.raw) else [None] * len(w.raw)
        i = 0
        while i < len(raw):
            if raw[i] == 92 and raw[i + 1:i + 2] == b"\n":  # a line continuation (the inner shell's, or Docker's)
                i += 2
                continue
            if raw[i] == 92 and i + 1 < len(raw) and raw[i + 1] in _ECHO_ESCAPES:
                body.append(_ECHO_ESCAPES[raw[i + 1]])
                pos.append(None)
                i += 2
                continue
            body.append(raw[i])
            pos.append(at[i])
            i += 1
    if words[0].text == "printf":  # its conversions are filled by its arguments: unknown words (%% is %)
        filled, at = bytearray(), []
        k = 0
        for m in _PRINTF_SPEC.finditer(bytes(body)):
            filled += body[k:m.start()]
            at.extend(pos[k:m.start()])
            if m.group(0) == b"%%":
                filled += b"%"
                at.append(None)
            else:
                filled += b"${PRINTF_ARG}"
                at.extend([pos[m.start()]] + [None] * 11 + [pos[m.end() - 1]])
            k = m.end()
        body, pos = filled + body[k:], at + pos[k:]
    text = bytes(body)
    if b"vllm" not in text and b"VLLM_" not in text:
        return False
    try:
        sub = extract_script(text, ctx.path, _within(ctx, Embedding.from_positions(text, pos)), _depth=ctx.depth + 1)
    except ParseError:
        return False
    for la in sub.launches:
        la.read_as = "; ".join(x for x in ("a script written by `" + words[0].text + " ... >`", la.read_as) if x)
    _merge(ctx, sub)
    return bool(sub.launches)


def _recognise(ctx: _Ctx, words: list[_Word]) -> tuple:
    """``(find_vllm_command's answer, the texts it read, the image's script range)`` for a
    command's words, the images the script names standing in for what the words leave unknown:
    ``$IMAGE`` of ``IMAGE=vllm/...`` (``_image_var``), a default ``${IMAGE:-vllm/...}``, and an
    image built from a vLLM image (``_local_image``). How an image was found goes to ``via``."""
    texts = [w.text for w in words]
    image_at = None
    read_as = None
    tagged = True
    built_at = None  # the word naming an image built from a vLLM image
    own = None  # the entry of the Dockerfile that builds it, when it starts vLLM itself
    for k, w in enumerate(words):
        if not w.opaque:
            continue
        var = _VAR_REF.fullmatch(w.text)
        d = _DEFAULTED.fullmatch(w.text) if var is None else None
        name = (var.group(1) or var.group(2)) if var else d.group(1) if d else None
        if name in ctx.image_vars:
            texts[k], image_at, read_as, tagged, own = ctx.image_vars[name]
            if read_as:
                built_at = (w.start, w.end)
        elif d is not None:  # ${IMAGE_TAG:-vllm/vllm-openai:latest}: the image unless the environment says otherwise
            texts[k] = d.group(2)
            at = ctx.src.find(d.group(2).encode(), w.start, w.end)
            image_at = (at, at + len(d.group(2).encode())) if at != -1 else None
    found = find_vllm_command(texts)
    if found is None and any(t.rsplit("/", 1)[-1] in ("docker", "podman", "nvidia-docker") for t in texts):
        k = docker_image_index(texts)
        local = _local_image(ctx, texts[k]) if k is not None else None
        if local is not None:
            texts[k], read_as, tagged, own = local
            built_at = (words[k].start, words[k].end)
            found = find_vllm_command(texts)
    if found is not None and read_as:
        found.via = "; ".join(x for x in (read_as, found.via) if x)
        if built_at is not None:
            # (its tag is in the Dockerfile; "source": vLLM's own source at a revision nobody names)
            found.built_from = True if tagged is True else "source" if tagged == "source" else "untagged"
            image_at = built_at
            k = docker_image_index(texts)
            if k is not None and found.image is not None:
                _image_entry(found, own, k + 1, len(texts))
    return found, texts, image_at


def _image_entry(found, own: Optional[tuple], after: int, n: int) -> None:
    """A run of an image the repository builds: with ``own`` (the Dockerfile's ENTRYPOINT starts
    vLLM: ``(entry, what it adds of its own)``), the words after the image are appended to that
    entrypoint, whatever they are; with no words after the image, the Dockerfile's ``CMD`` gives
    vLLM its words (said in ``image_adds``: the launch shows part of its options)."""
    if own is not None:
        found.entry, found.args_start, found.image_cmd_start, found.entry_start = own[0], after, None, None
        found.image_adds = own[1]
        if not own[2]:
            found.image = None  # (built on no vLLM image: `vllm/vllm-openai` stood in for it only to read the run)
    if found.args_start >= n and found.image_adds is None:
        found.image_adds = "the image's own command (its Dockerfile's `CMD`, when it has one)"


def _with_option_arrays(ctx: _Ctx, node, words: list[_Word]) -> tuple:
    """A command whose program's own options come from arrays (``docker run "${flags[@]}" IMAGE
    ...``): each ``"${A[@]}"`` read as the words A is assigned, those of every branch (an ``if``
    / ``else`` that appends ``-d`` or ``--rm -it``: options of the wrapper either way), to find
    where vLLM's words begin. An array that reaches vLLM's own words is read there only as
    ``_splat_words`` reads it (the words every run has), else left opaque. ``(words, their
    literal ids, found, texts, image range)``; ``found`` None when no launch is seen."""
    spliced: list[_Word] = []
    origin: list[tuple[int, int, int, bool]] = []  # per array: (its index in words, first spliced index, count, strict)
    for k, w in enumerate(words):
        m = _ARRAY_SPLAT.fullmatch(w.text) if w.splat else None
        # (an unquoted string variable splits into its words too: GPUOPTION="--gpus all" in one
        # branch of a case, "" in another)
        v = _VAR_REF.fullmatch(w.text) if w.splat and m is None else None
        name, array = (m.group(1), True) if m else ((v.group(1) or v.group(2)), False) if v else (None, True)
        got = _variable_words(ctx, name, node.start_byte, array=array, every_branch=True) if name else None
        if not got:
            spliced.append(w)
            continue
        strict = _variable_words(ctx, name, node.start_byte, array=array) is not None
        origin.append((k, len(spliced), len(got), strict))
        spliced.extend(got)
    if not origin:
        return words, frozenset(), None, [], None
    found, texts, image_at = _recognise(ctx, spliced)
    if found is None:
        return words, frozenset(), None, [], None
    for k, first, count, strict in reversed(origin):
        if first >= found.args_start:  # vLLM's words: back to the one word (_launch reads it as every run has it)
            spliced[first:first + count] = [words[k]]
        elif first + count > found.args_start and not strict:
            return words, frozenset(), None, [], None  # an array of branches that reaches vLLM's words
    literal = frozenset(id(x) for x in spliced if x not in words)
    return spliced, literal, found, texts, image_at


def _nested_shell(ctx: _Ctx, words: list[_Word]) -> None:
    """``sh -c '...'`` (also behind docker ``--entrypoint bash``): parse the string as shell."""
    if ctx.depth >= 6:
        return
    if words and words[0].text == "eval" and len(words) > 1:
        _eval(ctx, words[1:])
        return
    if words and words[0].text.rsplit("/", 1)[-1] == "sbatch":
        # sbatch --wrap "CMD": Slurm runs CMD with sh as the job's script
        for k, w in enumerate(words):
            if w.text == "--wrap" and k + 1 < len(words):
                inner = words[k + 1]
            elif w.text.startswith("--wrap="):
                inner = _Word(w.node, w.start, w.end, w.raw[7:], list(w.pos)[7:], w.opaque)
            else:
                continue
            body = bytes(inner.raw)
            if b"vllm" in body and len(inner.pos) == len(body):
                try:
                    sub = extract_script(body, ctx.path, _within(ctx, Embedding.from_positions(body, list(inner.pos))),
                                         _depth=ctx.depth + 1)
                except ParseError:
                    return
                _merge(ctx, sub)
            return
    joined = " ".join([w.text for w in words])
    if "sh" not in joined and "busybox" not in joined:
        return  # (no word names a shell of _SHELLS: most commands, a launch among them)
    seen_shell = False
    for k, w in enumerate(words):
        t = w.text
        base = t.rsplit("/", 1)[-1]
        if base in _SHELLS or t.startswith("--entrypoint=") and t.split("=", 1)[1].rsplit("/", 1)[-1] in _SHELLS:
            seen_shell = True
            continue
        if seen_shell and _SHELL_C_RE.match(t) and k + 1 < len(words):
            # the command string is the first word that is no option (`bash -c -i "..."`)
            at = next((j for j in range(k + 1, len(words)) if not words[j].text.startswith(("-", "+"))
                       or words[j].text in ("-", "--")), None)
            if at is not None and words[at].text == "--":
                at += 1
            if at is None or at >= len(words):
                return
            inner = words[at]
            if ctx.command_vars and _run_command_var(ctx, None, [inner], whole=True):
                return
            body = bytes(inner.raw)
            if b"vllm" not in body and b"VLLM_" not in body:
                return
            sub = extract_script(body, ctx.path, _within(ctx, Embedding.from_positions(body, inner.pos)),
                                 _depth=ctx.depth + 1)
            _merge(ctx, sub)
            return


def _eval(ctx: _Ctx, words: list[_Word]) -> None:
    """``eval WORDS``: bash joins the words with spaces and runs the result as a command line, so
    it is parsed as shell again; each byte keeps the position its word gives it (the joining
    spaces have none)."""
    body = bytearray()
    pos: list[Optional[int]] = []
    for k, w in enumerate(words):
        if k:
            body += b" "
            pos.append(None)
        body += w.raw
        pos.extend(w.pos if len(w.pos) == len(w.raw) else [None] * len(w.raw))
    text = bytes(body)
    if b"vllm" not in text and b"VLLM_" not in text:
        return
    try:
        sub = extract_script(text, ctx.path, _within(ctx, Embedding.from_positions(text, pos)),
                             _depth=ctx.depth + 1)
    except ParseError:
        return
    _merge(ctx, sub)


# ---- commands built in a variable


def _command_var(ctx: _Ctx, node) -> None:
    """``CMD="vllm serve $M"`` / ``CMD=(vllm serve "$M")``: a variable that holds a vLLM command
    line. Its later uses become relevant (marks), to be read where they run it (``_run_command_var``)."""
    name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
    if name is None or value is None or b"vllm" not in ctx.src[value.start_byte:value.end_byte]:
        return
    if value.type == "array":
        first = next((c for c in value.named_children if c.type != "comment"), None)
        text = _Decoder(ctx.src).word(first).text if first is not None else ""
    else:
        text = _Decoder(ctx.src).word(value).text
    if not _COMMAND_START.match(text):
        return
    var = ctx.src[name.start_byte:name.end_byte].decode("utf-8", "replace")
    if var in ctx.command_vars:
        return
    ctx.command_vars.add(var)
    for needle in (b"$" + var.encode(), b"${" + var.encode()):
        for i in _find_all(ctx.src, needle):
            if i > node.end_byte:
                insort(ctx.marks, i)


# the start of a command line held in a variable: a program word (a path, launchers, the
# interpreter, assignments may precede vLLM's own)
_COMMAND_START = lazy_re(r"^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*[\w./{}$-]+")


def _run_command_var(ctx: _Ctx, node, words: list[_Word], whole: bool = False) -> bool:
    """A command that runs a variable holding a command line (``$CMD``, ``"${CMD[@]}"``, ``eval
    "$CMD"``; ``whole``: ``words`` is the one word of ``sh -c "$CMD"``): the command line it runs,
    the variable's value spliced in where it is written, read as shell. Whether it was one."""
    if not whole and words and words[0].text == "eval":
        if len(words) != 2:
            return False
        words, whole = words[1:], True  # eval parses the value as a command line
    for k, w in enumerate(words):
        if not w.opaque:
            continue
        m = _ARRAY_SPLAT.fullmatch(w.text)
        array = m is not None
        m = m or _VAR_REF.fullmatch(w.text)
        name = m and (m.group(1) or m.group(2) if not array else m.group(1))
        if not name or name not in ctx.command_vars:
            continue
        if array and not whole:  # its elements are words already: read in place, fixed in the literal
            elements = _variable_words(ctx, name, w.start, array=True)
            partial = False
            if not elements:
                # appends in branches that exclude each other (if: --max-num-seqs 4, else: 8): the
                # words every run has, the launch opaque (more words follow, which is not known)
                elements = _variable_words(ctx, name, w.start, array=True, every_branch="unconditional")
                partial = True
            if not elements:
                return False
            spliced = words[:k] + elements + words[k + 1:]
            found, _texts, image_at = _recognise(ctx, spliced)
            if found is None:
                return False
            _launch(ctx, node, spliced, found, image_at, literal=frozenset(id(x) for x in elements))
            if partial:
                la = ctx.out.launches[-1]
                la.opaque = True
                la.read_as = "; ".join(x for x in (la.read_as, f"the words `{name}` holds in every run (its "
                                                   "branches' appends unknown)") if x)
            return True
        value = _command_value(ctx, name, w.start, array, parsed=whole or array)
        if value is None:
            return False
        body, pos = bytearray(), []
        for j, x in enumerate(words):
            if j:
                body += b" "
                pos.append(None)
            if j == k:
                body += value[0]
                pos.extend(value[1])
            else:  # a word around it, as written (the shell reads it again)
                body += ctx.src[x.start:x.end]
                pos.extend(range(x.start, x.end))
        text = bytes(body)
        try:
            sub = extract_script(text, ctx.path, _within(ctx, Embedding.from_positions(text, pos)),
                                 _depth=ctx.depth + 1)
        except ParseError:
            return False
        _merge(ctx, sub)
        return bool(sub.launches)
    return False


_ASSIGNED = r"(?<![\w$-]){}(\[[^\]\n]*\])?(\+?)=(\(?)"


def _command_value(ctx: _Ctx, name: str, before: int, array: bool,
                   parsed: bool) -> Optional[tuple[bytes, list[Optional[int]]]]:
    """The command line variable ``name`` holds where it runs at ``before``, as shell text with
    the script offset of each byte (None: a joining blank). An array: its elements as written
    (``_variable_words``'s rules). A string: assigned once, then only extended, before the
    command (``CMD="$CMD --x 1"``, ``CMD+=" --x 1"``, conditional or not: an option added in a
    branch fails when the branch runs), never read into or unset; its unknown parts (``$M``)
    stay expansions, opaque. Unless the value is ``parsed`` again (``eval``, ``sh -c``), bash
    splits it at blanks without reading quotes: a value with quotes or escapes is not read."""
    src = ctx.src
    if array:
        ws = _variable_words(ctx, name, before, array=True)
        if not ws:
            return None
        body, pos = bytearray(), []
        for j, w in enumerate(ws):
            if j:
                body += b" "
                pos.append(None)
            body += src[w.start:w.end]
            pos.extend(range(w.start, w.end))
        return bytes(body), pos
    root = ctx.root
    if root is None:
        return None
    key = name.encode()
    assigns = []
    for m in re.finditer(_ASSIGNED.format(re.escape(name)).encode(), src):
        if m.start() >= before:
            break
        if m.group(1) or m.group(3):
            return None  # an element or an array
        assigns.append((m.start(), m.group(2) == b"+"))
    if not assigns or assigns[0][1]:
        return None
    for m in _READS_INTO.finditer(src, 0, before):
        if re.search(rb"(?<![\w$-])" + re.escape(key) + rb"\b", m.group(0)):
            return None
    dec = _Decoder(src)
    refs = (b"$" + key, b"${" + key + b"}")
    body, pos = bytearray(), []
    for n, (start, plus) in enumerate(assigns):
        node = root.descendant_for_byte_range(start, start + len(key))
        while node is not None and node.type != "variable_assignment":
            node = node.parent
        if node is None or node.start_byte != start:
            return None  # in a comment or a string, not an assignment
        value = node.child_by_field_name("value")
        if value is None:
            raw, at = b"", []
        else:
            w = dec.word(value)
            raw, at = bytes(w.raw), list(w.pos)
        if n and not plus:
            ref = next((r for r in refs if raw.startswith(r) and not raw[len(r):len(r) + 1].isalnum()
                        and raw[len(r):len(r) + 1] != b"_"), None)
            if ref is None:
                return None  # assigned anew: which value runs is not certain
            raw, at = raw[len(ref):], at[len(ref):]
        if any(r in raw for r in refs):
            return None  # the variable inside its own value elsewhere than at its start
        body += raw
        pos.extend(at)
    if not parsed and any(c in body for c in b"'\"\\"):
        return None
    return bytes(body), pos


def _within(ctx: _Ctx, emb: Embedding) -> Embedding:
    """``emb`` (into this script) as an embedding into the file."""
    return emb if ctx.emb is None else emb.compose(ctx.emb)


def _merge(ctx: _Ctx, sub: Extraction) -> None:
    for la in sub.launches:
        # file-level exports before this point apply to the nested launch too
        la.env = [e for _o, e in ctx.file_env] + la.env
        _add_launch(ctx, la)
    ctx.out.env.extend(sub.env)
    ctx.out.version_hints.extend(sub.version_hints)
    ctx.out.notes.extend(sub.notes)


def _heredocs(ctx: _Ctx, node) -> None:
    """``bash <<EOF ... EOF``: parse the body as shell (not for python/cat-to-non-script)."""
    if ctx.depth >= 6:
        return
    body_cmd = node.child_by_field_name("body")
    prog = ""
    if body_cmd is not None and body_cmd.type == "command":
        name = body_cmd.child_by_field_name("name")
        if name is not None:
            prog = ctx.src[name.start_byte : name.end_byte].decode("utf-8", "replace").rsplit("/", 1)[-1]
    if _PY_RE.match(prog):
        return
    for c in node.children:
        if c.type != "heredoc_redirect":
            continue
        for b in c.children:
            if b.type == "heredoc_body" and _relevant(ctx, b):
                s, e = b.start_byte, b.end_byte
                if _is_systemd_unit(ctx.src, node.start_byte, s, e):
                    _systemd_unit(ctx, s, e)
                    continue
                if _written_file(ctx, node, c, s, e):
                    continue
                body, emb = _heredoc_text(ctx.src, c, s, e)
                try:
                    sub = extract_script(body, ctx.path, _within(ctx, emb), _depth=ctx.depth + 1)
                except ParseError:
                    continue
                _merge(ctx, sub)


def _heredoc_text(src: bytes, redirect, s: int, e: int) -> tuple[bytes, Embedding]:
    """The text a heredoc body stands for, and its embedding into the script: with an unquoted
    delimiter (``<<EOF``) the writing shell removes the backslash of ``\\$``, ``\\` ``, ``\\\\``
    and of a line break, so ``"\\$@"`` in the body is ``"$@"`` in the script it writes or runs;
    a quoted delimiter (``<<'EOF'``, ``<<"EOF"``, ``<<\\EOF``) keeps the body verbatim."""
    body = src[s:e]
    start = next((x for x in redirect.children if x.type == "heredoc_start"), None)
    quoted = start is not None and any(q in src[start.start_byte:start.end_byte] for q in (b"'", b'"', b"\\"))
    if quoted or b"\\" not in body:
        return body, Embedding.identity(body, s)
    out = bytearray()
    pos: list[Optional[int]] = []
    i, n = 0, len(body)
    while i < n:
        ch = body[i]
        if ch == 0x5C and i + 1 < n and body[i + 1] in b"$`\\\n":
            if body[i + 1] != 0x0A:  # a backslash-newline joins the lines: both go
                out.append(body[i + 1])
                pos.append(s + i + 1)
            i += 2
            continue
        out.append(ch)
        pos.append(s + i)
        i += 1
    text = bytes(out)
    return text, Embedding.from_positions(text, pos)


_CONFIG_NAMED = lazy_re(rb"--config(?:[ \t]+|=)[\"']?([^\s\"';|&<>]+)")
_HEREDOC_LINE = lazy_re(rb"(?m)^[^\n]*<<-?[ \t]*[\"']?[A-Za-z_]\w*[^\n]*\n")


def _config_heredocs(ctx: _Ctx) -> None:
    """The heredocs that write a file a launch of the script names with ``--config``: relevant
    (marks at their line and body), whatever they mention, to be read as vLLM config files."""
    src = ctx.src
    ctx.config_names = {_file_key(m.group(1)) for m in _CONFIG_NAMED.finditer(src)}
    for m in _HEREDOC_LINE.finditer(src):
        target = _HEREDOC_TARGET.search(m.group(0))
        if target is not None and _file_key(target.group("name")) in ctx.config_names:
            ctx.marks.extend((m.start(), m.end()))


def _file_key(name: bytes) -> str:
    """A file name as written, the way two spellings of one file compare (``./a.yaml``, ``a.yaml``)."""
    return posixpath.normpath(name.decode("utf-8", "replace"))


def _config_releases(ctx: _Ctx) -> None:
    """A config file read from a heredoc is checked at the release of the launch naming it: that
    launch's version hints (its image's tag) go to the config launch too."""
    for name, cfg in ctx.config_files:
        for la in ctx.out.launches:
            if la is cfg or la.style != "argv":
                continue
            toks = [t.text for t in la.tokens]
            named = [b for a, b in zip(toks, toks[1:]) if a == "--config"]
            named += [t[len("--config="):] for t in toks if t.startswith("--config=")]
            if any(_file_key(n.encode()) == name for n in named):
                cfg.version_hints = list(la.version_hints) + cfg.version_hints
                break


_HEREDOC_TARGET = lazy_re(rb"(?:>>?|\btee(?:[ \t]+-a)?)[ \t]*(?P<q>[\"']?)(?P<name>[^\s\"'|;&<>]+)(?P=q)")
_KUBECTL_STDIN = lazy_re(rb"\b(?:kubectl|oc)\b[^\n|;&]*\b(?:apply|create|replace)\b[^\n|;&]*-f[ \t]*-(?![\w-])")
_SNIFF_MANIFEST = lazy_re(rb"^(?:apiVersion|kind|services):", re.M)
_SNIFF_FROM = lazy_re(rb"\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:ARG\s[^\n]*\n\s*)*FROM\s+\S")


def _written_file(ctx: _Ctx, node, redirect, s: int, e: int) -> bool:
    """A heredoc that writes a file of another format (``cat <<EOF > config.yaml``, ``| tee
    Dockerfile``, ``| kubectl apply -f -``): its body is read as that file, in the format its
    target's name says (else its content: a manifest, a Dockerfile), with offsets 1:1 into the
    body. An unquoted delimiter lets the shell expand ``$VAR`` in the body: such values are
    opaque. False when the body is no file of another format (it stays shell)."""
    from vllm_lint.frontends.base import get  # (the registry: those formats read shell in turn)

    src = ctx.src
    line_start = src.rfind(b"\n", 0, node.start_byte) + 1
    head = src[line_start:s]
    fmt = None
    m = _HEREDOC_TARGET.search(head)
    if m is not None:
        name = m.group("name").decode("utf-8", "replace").rsplit("/", 1)[-1].lower()
        if name.endswith((".yaml", ".yml", ".json")):
            fmt = "yaml"  # (JSON is YAML)
        elif name.endswith(".py"):
            fmt = "python"
        elif name.startswith(("dockerfile", "containerfile")) or name.endswith(".dockerfile"):
            fmt = "dockerfile"
        elif name.endswith((".sh", ".bash", ".service")):
            return False
    if fmt is None and _KUBECTL_STDIN.search(head):
        fmt = "yaml"
    body = src[s:e]
    if fmt is None and m is not None:  # a file with no telling name: its content
        if _SNIFF_MANIFEST.search(body):
            fmt = "yaml"
        elif _SNIFF_FROM.match(body):
            fmt = "dockerfile"
    if fmt is None:
        return False
    config_name = _file_key(m.group("name")) if m is not None and fmt == "yaml" else None
    if config_name not in ctx.config_names:
        config_name = None
    try:
        sub_fe = get(fmt).module
        if config_name is not None:  # the file a launch of this script names with --config
            sub = sub_fe.extract_in_mode(body, ctx.path, "config")
        elif fmt == "yaml":
            # a YAML file a script writes that looks like a vLLM config file is one (--config)
            sub = sub_fe.extract(body, ctx.path, explicit=True)
        else:
            sub = sub_fe.extract(body, ctx.path)
    except ParseError:
        return True  # not a file of that format after all: nothing to read, no shell either
    delimiter = redirect.child_by_field_name("delimiter") if hasattr(redirect, "child_by_field_name") else None
    quoted = delimiter is not None and src[delimiter.start_byte:delimiter.end_byte][:1] in (b"'", b'"', b"\\")
    if not quoted:
        for la in sub.launches:
            for t in la.tokens:
                if "$" in t.text:
                    t.opaque, t.text_span = True, None
            for k in la.keyed:
                if isinstance(k.value, str) and "$" in k.value:
                    k.value, k.value_opaque, k.value_text_span = None, True, None
            for ea in la.env:
                if ea.value and "$" in ea.value:
                    ea.value_opaque, ea.value_text_span = True, None
    start = len(ctx.out.launches)
    rebase(sub, _within(ctx, Embedding.identity(body, s)), ctx.out)
    for la in ctx.out.launches[start:]:
        la.context["heredoc_file"] = fmt
        if config_name is not None:
            ctx.config_files.append((config_name, la))
    return True


_UNIT_SECTION = lazy_re(rb"^[ \t]*\[(?:Unit|Service|Install)\][ \t]*\r?$", re.M)
_EXEC_START = lazy_re(rb"^[ \t]*ExecStart[ \t]*=[ \t]*", re.M)
_UNIT_ENV = lazy_re(rb"^[ \t]*Environment[ \t]*=[ \t]*", re.M)
_UNIT_ENV_WORD = lazy_re(rb'"([^"\\]*)"|\'([^\'\\]*)\'|([^\s"\']+)')
_ENV_NAME = lazy_re(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _is_systemd_unit(src: bytes, stmt_start: int, s: int, e: int) -> bool:
    """A heredoc that writes a systemd unit: ``cat > /etc/systemd/system/vllm.service <<EOF``
    (or ``tee``, or ``$(cat <<EOF ...)``) whose body has a ``[Service]``-style section header, or
    an ``ExecStart=`` line under a redirect to a ``.service`` file."""
    if _EXEC_START.search(src, s, e) is None:
        return False
    return _UNIT_SECTION.search(src, s, e) is not None or b".service" in src[stmt_start:s]


def _logical_line_end(src: bytes, i: int, e: int) -> int:
    """End of the unit-file line starting at or before ``i`` (``\\``-newline continues it)."""
    while True:
        nl = src.find(b"\n", i, e)
        if nl == -1:
            return e
        end = nl - 1 if nl > 0 and src[nl - 1 : nl] == b"\r" else nl
        if src[end - 1 : end] == b"\\":
            i = nl + 1
            continue
        return end


def _systemd_unit(ctx: _Ctx, s: int, e: int) -> None:
    """Lint the ``ExecStart=`` command lines of a unit file written by a heredoc, with the unit's
    ``Environment=`` assignments as their environment (not the script's exports: systemd starts
    the service with its own environment). Offsets map 1:1 into the body."""
    src = ctx.src
    env: list[EnvAssign] = []
    for m in _UNIT_ENV.finditer(src, s, e):
        vend = _logical_line_end(src, m.end(), e)
        words = list(_UNIT_ENV_WORD.finditer(src, m.end(), vend))
        for w in words:
            k = next(g for g in (1, 2, 3) if w.group(g) is not None)
            ws, we = w.start(k), w.end(k)
            text = src[ws:we].decode("utf-8", "replace")
            name, eq, value = text.partition("=")
            if not eq or not _ENV_NAME.match(name):
                continue
            nlen = len(name.encode())
            opaque = "$" in value  # an unquoted heredoc expands it
            ls, le = _line_bounds(src, m.start(), vend)
            env.append(EnvAssign(
                name=name,
                name_span=_map_exact(ctx, ws, ws + nlen),
                value=None if opaque else value,
                value_span=_map_span(ctx, w.start(), w.end()),
                value_text_span=None if opaque else _map_exact(ctx, ws + nlen + 1, we),
                value_opaque=opaque,
                delete_span=_map_exact(ctx, ls, le) if len(words) == 1 and le <= e else None,
            ))
    for m in _EXEC_START.finditer(src, s, e):
        vs = m.end()
        prefix = re.match(rb"[-@:+!]*", src[vs:vs + 4]).group(0)
        if b"@" in prefix:
            continue  # ExecStart=@path argv0 ...: the second word is not the program
        vs += len(prefix)
        ve = _logical_line_end(src, vs, e)
        if src.find(b"vllm", vs, ve) == -1:
            continue
        line = src[vs:ve]
        try:
            sub = extract_script(line, ctx.path, _within(ctx, Embedding.identity(line, vs)), _depth=ctx.depth + 1)
        except ParseError:
            continue
        for la in sub.launches:
            la.env = list(env) + la.env
            la.context["systemd"] = "ExecStart"
            _add_launch(ctx, la)
        ctx.out.version_hints.extend(sub.version_hints)
        ctx.out.notes.extend(sub.notes)


def extract_unit(data: bytes, path: str) -> Extraction:
    """The ``ExecStart=`` launches of a systemd unit file (:mod:`vllm_lint.frontends.systemd`),
    read as the heredoc-written units are (``_systemd_unit``)."""
    if b"\x00" in data:
        raise ParseError("binary data (NUL byte) in unit file", offset=data.index(b"\x00"))
    ctx = _Ctx(data, path, None, 0)
    _systemd_unit(ctx, 0, len(data))
    out, ctx.out = ctx.out, None
    return out


def _env_from_assign_node(ctx: _Ctx, dec: _Decoder, node, delete: Optional[Span]) -> Optional[EnvAssign]:
    name = node.child_by_field_name("name")
    if name is None:
        return None
    value = node.child_by_field_name("value")
    nm = ctx.src[name.start_byte : name.end_byte].decode("utf-8", "replace")
    if value is None:
        return EnvAssign(nm, _map_span(ctx, name.start_byte, name.end_byte), "",
                         delete_span=delete)
    vw = dec.word(value)
    tr = vw.text_range()
    opaque = vw.opaque or value.type == "array"
    return EnvAssign(
        name=nm,
        name_span=_map_exact(ctx, name.start_byte, name.end_byte),
        value=None if opaque else vw.text,
        value_span=_map_span(ctx, vw.start, vw.end),
        value_text_span=_map_exact(ctx, *tr) if tr and not opaque else None,
        value_opaque=opaque,
        delete_span=delete,
    )


def _line_bounds(src: bytes, s: int, e: int) -> tuple[int, int]:
    ls = src.rfind(b"\n", 0, s) + 1
    le = src.find(b"\n", e)
    le = len(src) if le == -1 else le + 1
    return ls, le


def _whole_line_span(ctx: _Ctx, s: int, e: int) -> Optional[Span]:
    """The statement's whole line when it is alone on it, else None."""
    src = ctx.src
    ls, le = _line_bounds(src, s, e)
    if src[ls:s].strip() or src[e:le].strip():
        return None
    return _map_exact(ctx, ls, le)


def _declaration(ctx: _Ctx, node) -> None:
    dec = _Decoder(ctx.src)
    assigns = [c for c in node.named_children if c.type == "variable_assignment"]
    for c in assigns:
        _image_var(ctx, c)
        _command_var(ctx, c)
        name = c.child_by_field_name("name")
        if name is None or not ctx.src[name.start_byte : name.end_byte].startswith(ENV_PREFIXES):
            continue
        delete = _whole_line_span(ctx, node.start_byte, node.end_byte) if len([x for x in node.named_children if x.type in ("variable_assignment", "variable_name")]) == 1 else None
        ea = _env_from_assign_node(ctx, dec, c, delete)
        if ea is not None:
            ctx.out.env.append(ea)
            ctx.file_env.append((c.start_byte, ea))
    # `export X=$(... vllm ...)`: nothing to launch; command substitutions with vllm inside
    for c in node.named_children:
        if c.type == "variable_assignment":
            v = c.child_by_field_name("value")
            if v is not None and _relevant(ctx, v):
                _walk(ctx, v)


_DEFAULT_ONLY = lazy_re(r"""["']?\$\{[A-Za-z_][A-Za-z0-9_]*:?-([^${}"'\s]+)\}["']?""")


_SIMPLE_REF = lazy_re(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _filled(text: str, literals: dict[str, str]) -> Optional[str]:
    """``text`` with its ``$NAME`` / ``${NAME}`` filled from literal assignments; None when one is
    unknown or the text holds any other expansion."""
    try:
        out = _SIMPLE_REF.sub(lambda m: literals[m.group(1) or m.group(2)], text)
    except KeyError:
        return None
    return None if "$" in out or "`" in out else out


def _image_var(ctx: _Ctx, node) -> None:
    """``IMAGE=vllm/vllm-openai:v0.27.1``: remember it, and make later ``$IMAGE`` words relevant."""
    name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
    if name is None or value is None or value.type not in ("word", "string", "raw_string", "command_substitution"):
        return
    w = _Decoder(ctx.src).word(value)
    text, at, read_as = w.text, (value.start_byte, value.end_byte), None
    var = ctx.src[name.start_byte : name.end_byte].decode("utf-8", "replace")
    if var in ctx.image_vars and _branches(node):
        return  # (`--cpu) IMAGE=...;;` in a case: the image set before it is the run's default)
    if not w.opaque:
        ctx.literals[var] = text
    else:  # IMAGE="${IMAGE:-vllm/vllm-openai:v0.10.0}": the default, unless the environment says otherwise
        d = _DEFAULTED.fullmatch(text)
        if d is not None:
            text = d.group(2)
            i = ctx.src.find(text.encode(), value.start_byte, value.end_byte)
            at = (i, i + len(text.encode())) if i != -1 else None
        else:  # IMAGE="vllm/vllm-openai:v${VLLM_VERSION}" after VLLM_VERSION="0.27.1"
            raw = ctx.src[value.start_byte : value.end_byte].decode("utf-8", "replace")
            filled = _filled(raw.strip("\"'") if raw[:1] in "\"'" and raw[-1:] == raw[:1] else raw, ctx.literals)
            if filled is None and (b"cat" in ctx.src[value.start_byte:value.end_byte]
                                   or b"$(<" in ctx.src[value.start_byte:value.end_byte]):
                known = _resolver(ctx).word(value, node)  # IMAGE="$(cat vllm_image.txt)": the file's text
                if known is not None:
                    filled, at = known.text, (value.start_byte, value.end_byte)
            if filled is None:
                return
            text = filled
    tagged, own = True, None
    if not image_is_vllm(text):
        local = _local_image(ctx, text)
        if local is None:
            return
        text, read_as, tagged, own = local
        at = None  # (the tag is in the Dockerfile)
    ctx.image_vars[var] = (text, at, read_as, tagged, own)
    # the file's release, for launches that do not run in ``$IMAGE`` themselves (a `vllm serve` in a
    # heredoc the instance created with that image runs): a file-level hint, after the launch's own
    tag = version_from_image(text) if read_as is None else None
    if tag and tag != "latest":
        k = ctx.src.rfind(tag.encode(), value.start_byte, value.end_byte)
        span = _map_span(ctx, k, k + len(tag.encode())) if k >= 0 else (
            _map_span(ctx, *at) if at is not None else None)  # (a file's text: at the command reading it)
        ctx.out.version_hints.append(VersionHint(tag, "image-variable", span, text))
    for needle in (b"$" + var.encode(), b"${" + var.encode()):
        for i in _find_all(ctx.src, needle):
            if i > node.end_byte:
                insort(ctx.marks, i)


# ``${NAME:-default}`` / ``${NAME-default}`` / ``${NAME:=default}`` with a literal default
_DEFAULTED = lazy_re(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=]([^}\s$`'\"\\]+)\}")
_DOCKERFILE_NAMES = ("Dockerfile", "Containerfile")


def _no_build_line(src: bytes) -> bool:
    """No ``docker build`` line in the script (``image_builds``, imported only here and where the
    builds are read: issue 31's ninth pass)."""
    from vllm_lint.frontends.image_builds import BUILD_LINE
    return BUILD_LINE.search(src) is None


def _built_images(ctx: _Ctx) -> None:
    """``docker build -t NAME [-f FILE] CONTEXT`` in the script: NAME's image is built from
    FILE (``CONTEXT/Dockerfile``; paths from the script's folder, where it is run from). Those
    whose final stage starts from a vLLM image (and keeps its entrypoint) are vLLM images under
    another name: later uses of NAME become relevant."""
    if ctx.local_images is None:
        ctx.local_images = {}
    # (one reading of `docker build`; imported when a script has one: issue 31's ninth pass)
    from vllm_lint.frontends.image_builds import BUILD_LINE, build_words, parse_build
    for m in BUILD_LINE.finditer(ctx.src):
        tags, dockerfile, context, target = parse_build(build_words(m.group(0)))
        named_file = dockerfile is not None
        context = _script_value(ctx, context) if context is not None else None
        dockerfile = _script_value(ctx, dockerfile) if named_file else None
        tag_vars = [v.group(1) or v.group(3) for v in map(_WORD_VAR.fullmatch, tags) if v is not None]
        tags = [t for t in (_script_value(ctx, t) for t in tags) if t is not None]
        if not tags or context is None or named_file and dockerfile is None or "://" in context:
            for tag in tags:  # built here from a Dockerfile not read: no guess from a name (_local_image)
                ctx.local_images.setdefault(tag, None)
            continue
        from vllm_lint.frontends.image_builds import moved_to

        moved = moved_to(ctx.src, m.start(), "")  # (`cd models/x && docker build -t x .`)
        context = posixpath.normpath(posixpath.join(moved, context)) if moved else context
        path = dockerfile if dockerfile is not None else posixpath.join(context, "Dockerfile")
        path = posixpath.normpath(posixpath.join(moved, path)) if moved and dockerfile is not None else path
        based = _dockerfile_base(ctx, path)
        source = based is None
        own = None
        if source:
            based = _vllm_source_build(ctx, m.start(), path, target)
        if based is None:
            own = _own_entry(ctx, _beside(ctx, path), _beside(ctx, context))
            if own is not None:
                based, source = own[:2], False
        if based is None:
            for tag in tags:  # (the files around the script may still say: pipeline/surroundings.py)
                ctx.local_images.setdefault(tag, None)
            continue
        base, tagged = based
        for tag in tags:
            if source and _CLONE_VLLM.search(ctx.src, 0, m.start()) is None:
                how = f"the image `{tag}` is vLLM's, built from the `{target}` stage of vLLM's own Dockerfile"
            elif source:
                how = (f"the image `{tag}` is vLLM's, built by `docker build` from `{path}` of the vLLM checkout the "
                       "script clones" + (f" ({base.rsplit(':', 1)[1]})" if tagged else " (a revision it does not name)"))
            elif own is not None:
                how = f"the image `{tag}` is built by `docker build` from `{path}`, whose ENTRYPOINT {own[3]}"
            else:
                how = (f"the image `{tag}` is built by `docker build` from `{path}`, FROM `{base}`"
                       + ("" if tagged else " (vLLM installed again over it: the tag names no release)"))
            found = (base, how, tagged, own[2] if own is not None else None)
            for name in {tag, tag[:-len(":latest")] if tag.endswith(":latest") else tag}:
                ctx.local_images[name] = found
                for i in _find_all(ctx.src, name.encode()):
                    if i > m.end():
                        ctx.marks.append(i)
        for var in tag_vars:  # docker build -t "$IMAGE": a later `docker run "$IMAGE"` runs it
            ctx.image_vars[var] = (base, None, found[1], tagged, found[3])
            for needle in (b"$" + var.encode(), b"${" + var.encode()):
                ctx.marks.extend(i for i in _find_all(ctx.src, needle) if i > m.end())


_CLONE_VLLM = lazy_re(rb"\bgit[ \t]+clone\b[^\n]*\bvllm-project/vllm(?:\.git)?\b[^\n]*")
_CHECKOUT = lazy_re(rb"\bgit[ \t]+checkout[ \t]+(?:tags/)?(\S+)")
_RELEASE_TAG = lazy_re(r"^v?\d+\.\d+\.\d+(?:\.post\d+)?$")


# the stage of vLLM's own Dockerfile that runs its OpenAI server
_VLLM_TARGETS = frozenset({"vllm-openai"})


def _vllm_source_build(ctx: _Ctx, at: int, path: str, target: Optional[str] = None) -> Optional[tuple[str, bool]]:
    """A ``docker build`` at ``at`` in a script that clones vLLM's own repository first (``git
    clone https://github.com/vllm-project/vllm.git``) and whose Dockerfile is not the script's
    (``Dockerfile.cpu``, ``docker/Dockerfile``: the checkout's): vLLM's image, built from source,
    whose final stage runs the OpenAI server. Its release is the tag checked out between the two
    (``git checkout v0.9.0``, ``tags/$VLLM_VER`` with ``VLLM_VER=v0.9.0``), else unnamed. A build of
    the ``vllm-openai`` target (vLLM's Dockerfile's server stage) is vLLM's image too, of an
    unnamed release."""
    clone = _CLONE_VLLM.search(ctx.src, 0, at)
    if clone is None:
        # `--target vllm-openai`: the stage of vLLM's Dockerfile (a checkout made elsewhere)
        return ("vllm/vllm-openai", False) if target in _VLLM_TARGETS else None
    if not posixpath.basename(path).lower().startswith(("dockerfile", "containerfile")):
        return None
    release = None
    branch = re.search(rb"(?:--branch|-b)[ \t=]+(\S+)", clone.group(0))  # git clone --branch v0.9.2 ...
    if branch is not None:
        ref = _script_value(ctx, branch.group(1).decode("utf-8", "replace").strip("\"'"))
        release = ref if ref is not None and _RELEASE_TAG.match(ref) else None
    for m in _CHECKOUT.finditer(ctx.src, clone.end(), at):
        ref = _script_value(ctx, m.group(1).decode("utf-8", "replace").strip("\"';&"))
        release = ref if ref is not None and _RELEASE_TAG.match(ref) else None
    if release is None:
        return "vllm/vllm-openai", False
    return "vllm/vllm-openai:" + (release if release.startswith("v") else "v" + release), True


_SCRIPT_DIR_VALUE = lazy_re(r"dirname[^\n]*(?:BASH_SOURCE|\$0|\$\{0\})")
_WORD_VAR = lazy_re(r"\$\{([A-Za-z_]\w*)(?::?[-=]([^}$]*))?\}|\$([A-Za-z_]\w*)")


def _script_value(ctx: _Ctx, word: str) -> Optional[str]:
    """``word`` of a ``docker build`` line with the variables the script sets once filled in: a
    literal value, a ``${VAR:-default}`` default, the script's own folder (``SCRIPT_DIR="$(cd
    "$(dirname "${BASH_SOURCE[0]}")" && pwd)"``: ``.``, as paths are taken from there). None when
    a variable stays unknown."""
    unknown = False

    def fill(m: "re.Match[str]", depth: int = 0) -> str:
        nonlocal unknown
        name, default = m.group(1) or m.group(3), m.group(2)
        values = re.findall(rb"(?m)^[ \t]*(?:export[ \t]+|local[ \t]+|readonly[ \t]+|declare[ \t]+)?"
                            + re.escape(name.encode()) + rb"=([^\n]*)", ctx.src)
        if len(values) == 1:
            value = values[0].decode("utf-8", "replace").strip()
            if _SCRIPT_DIR_VALUE.search(value):
                return "."
            value = value.strip("\"'")
            d = _DEFAULTED.fullmatch(value)
            value = d.group(2) if d is not None else value
            if value and "$" not in value and " " not in value:
                return value
        if default:
            return default
        unknown = True
        return ""

    out = _WORD_VAR.sub(fill, word)
    return None if unknown else out


def _local_image(ctx: _Ctx, image: str) -> Optional[tuple[str, str, bool, Optional[tuple]]]:
    """``(vLLM base image, how it was found, whether its tag names the vLLM that runs, the
    Dockerfile's own entry)`` when ``image`` is built from a vLLM image, or by a Dockerfile whose
    ``ENTRYPOINT`` starts vLLM (the entry: :func:`_own_entry`; else None): by a ``docker build -t``
    of the script (``_built_images``), or, for a name that says vllm (``vllm-spark:latest``) and
    has no registry, in a script that builds no image itself, by the ``Dockerfile`` /
    ``Containerfile`` in the script's folder, or by a build file of the folders above
    (``image_builds``): a Dockerfile of the repository, or the server stage of vLLM's own
    (``--target vllm-openai``, its checkout not in the repository: a submodule)."""
    if ctx.local_images is None:
        ctx.local_images = {}
    if image in ctx.local_images:
        return ctx.local_images[image]
    found = None
    repo = image.split("@", 1)[0].rsplit(":", 1)[0] if image.rfind(":") > image.rfind("/") else image.split("@", 1)[0]
    # (a script that builds images itself says which: no guess from a name; pipeline/surroundings.py
    # reads the Dockerfile such a build names when this reader cannot)
    if "vllm" in repo.rsplit("/", 1)[-1].lower() and "." not in repo.split("/", 1)[0] and "$" not in image \
            and _no_build_line(ctx.src):
        for name in _DOCKERFILE_NAMES:
            based = _dockerfile_base(ctx, name)
            if based is not None:
                base, tagged = based
                found = (base, f"the image `{image}` is taken for the one `{name}` beside the file builds, FROM `{base}`"
                         + ("" if tagged else " (vLLM installed again over it: the tag names no release)"), tagged, None)
                break
    if found is None and "$" not in image and ctx.path and ctx.path != "-":
        # built under this name by a Makefile, a script, a README or a workflow of the folders above
        from vllm_lint.frontends.image_builds import built_in_repository

        built = built_in_repository(ctx.path, image)
        based = _dockerfile_base(ctx, built.dockerfile) if built is not None else None
        here = os.path.dirname(os.path.abspath(ctx.path))
        if based is not None:
            base, tagged = based
            found = (base, f"the image `{image}` is built by `docker build` in `{os.path.relpath(built.source, here)}` "
                           f"from `{os.path.relpath(built.dockerfile, here)}`, FROM `{base}`"
                     + ("" if tagged else " (vLLM installed again over it: the tag names no release)"), tagged, None)
        elif built is not None and built.target in _VLLM_TARGETS and not os.path.isfile(built.dockerfile):
            # vLLM's own Dockerfile from a checkout the repository does not hold (a submodule)
            found = ("vllm/vllm-openai", f"the image `{image}` is vLLM's, built by `docker build` in "
                     f"`{os.path.relpath(built.source, here)}` from the `{built.target}` stage of "
                     f"`{os.path.relpath(built.dockerfile, here)}` (vLLM's own Dockerfile, not in the repository; "
                     "a revision it does not name)", "source", None)
        elif built is not None:
            own = _own_entry(ctx, built.dockerfile, built.context)
            if own is not None:
                found = (own[0], f"the image `{image}` is built by `docker build` in `{os.path.relpath(built.source, here)}` "
                                 f"from `{os.path.relpath(built.dockerfile, here)}`, whose ENTRYPOINT {own[3]}",
                         own[1], own[2])
    ctx.local_images[image] = found
    return found


def _beside(ctx: _Ctx, rel: str) -> str:
    """The absolute path of ``rel`` from the script's folder."""
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(ctx.path or ".")), rel))


def _own_entry(ctx: _Ctx, dockerfile: str, context: str) -> Optional[tuple[str, bool, tuple, str]]:
    """``(the vLLM image that stands for it, whether its tag names the vLLM that runs, (vLLM's
    entry, what the image adds to the run's words or None, whether it is built on that vLLM
    image), how)`` for the image the Dockerfile at ``dockerfile`` (absolute) builds when its own
    ``ENTRYPOINT`` starts vLLM's server, the run's words appended: in exec form (``["vllm",
    "serve"]``, ``["python3", "-m", "vllm.entrypoints.openai.api_server"]``), or a script it
    runs (``["/start.sh"]``, ``["bash", "/entrypoint.sh"]``) that a ``RUN`` heredoc of the
    Dockerfile writes or a ``COPY`` brings from the build context (``context``), whose vLLM
    command takes the script's arguments (``exec vllm serve "$@"``). None otherwise (a
    shell-form ENTRYPOINT ignores the run's words)."""
    from vllm_lint import inputs
    from vllm_lint.frontends.dockerfile_base import final_process

    if not ctx.path or ctx.path == "-" or ctx.depth >= 4:
        return None
    raw = inputs.read_other(dockerfile, _MAX_DOCKERFILE)
    proc = final_process(raw.decode("utf-8", "replace")) if raw is not None else None
    if proc is None or not proc.entrypoint:
        return None
    words = proc.entrypoint
    got = None
    found = find_vllm_command(words)
    if found is not None and not found.entry.startswith("docker:"):
        own = [w for w in words[found.args_start:]]
        got = (found.entry, own, f"`{' '.join(words)}` starts vLLM")
    else:
        script = words[-1] if len(words) == 1 or len(words) == 2 and words[0].rsplit("/", 1)[-1] in _SHELLS else None
        text = None
        if script is not None:
            key = posixpath.normpath(script)
            text = proc.scripts.get(key)
            if text is None and key in proc.copies:
                body = inputs.read_other(os.path.join(context, proc.copies[key]), _MAX_DOCKERFILE)
                text = body.decode("utf-8", "replace") if body is not None else None
        passed = script_passes_args(text.encode(), ctx.path, ctx.depth + 1) if text is not None else None
        if passed is not None:
            got = (*passed, f"`{script}` runs vLLM with the run's words (`\"$@\"`)")
    if got is None:
        return None
    entry, fixed, how = got
    adds = f"the arguments its ENTRYPOINT gives vLLM itself (`{' '.join(fixed)}`)" if fixed else None
    base = proc.base or ""
    on_vllm = image_is_vllm(base) and "$" not in base
    image, tagged = (base, raw is not None and not _REBUILDS_VLLM.search(raw)) if on_vllm else ("vllm/vllm-openai", False)
    return image, tagged, (entry, adds, on_vllm), how


def script_passes_args(script: bytes, path: str, _depth: int = 1) -> Optional[tuple[str, list[str]]]:
    """``(vLLM's entry, the words it gives vLLM before them)`` when the shell script ``script``
    (an image's entrypoint script, a container's command script) starts vLLM with the arguments
    it is given (``exec vllm serve --port 8000 "$@"``): the words its caller passes are vLLM's.
    None otherwise (no vLLM, or vLLM started without ``"$@"``)."""
    if b"vllm" not in script and b"VLLM" not in script or _depth >= 6:
        return None
    try:
        sub = extract_script(script, path, Embedding.unmapped(script), _depth=_depth)
    except ParseError:
        return None
    for la in sub.launches:
        at = next((i for i, t in enumerate(la.tokens) if t.splat and t.text.strip('"') in ("$@", "${@}")), None)
        if at is not None and la.style == "argv":
            return la.entry, [t.text for t in la.tokens[:at]]
    return None


def _dockerfile_base(ctx: _Ctx, rel: str) -> Optional[tuple[str, bool]]:
    """``(the vLLM image the Dockerfile at rel builds on, whether its tag names the vLLM that runs)``
    (``rel`` from the script's folder), when its final stage starts from one and sets no ENTRYPOINT
    of its own; None otherwise. A Dockerfile that installs or builds vLLM again over its base
    (``pip install vllm==...``, a clone of vLLM's repository) runs that vLLM, not the tag's. A file
    this analysis read (``inputs``)."""
    import os

    from vllm_lint import inputs
    from vllm_lint.frontends.dockerfile_base import final_base

    if not ctx.path or ctx.path == "-" or rel.startswith("-"):
        return None
    raw = inputs.read_other(os.path.join(os.path.dirname(os.path.abspath(ctx.path)), rel), _MAX_DOCKERFILE)
    if raw is None:
        return None
    base = final_base(raw.decode("utf-8", "replace"), {})
    if base is None or not base[1] or not image_is_vllm(base[0]):
        return None
    if _REBUILDS_VLLM.search(raw):
        return base[0], False
    return base[0], True


_MAX_DOCKERFILE = 1024 * 1024
_REBUILDS_VLLM = lazy_re(rb"(?i)pip3?[ \t]+install[^\n]*[ \t'\"]vllm\b|vllm-project/vllm\b|/vllm\.git\b|VLLM_(?:REPO|COMMIT|REF)\b")


def _bare_assignment(ctx: _Ctx, node) -> None:
    _image_var(ctx, node)
    _command_var(ctx, node)
    name = node.child_by_field_name("name")
    if name is not None and ctx.src[name.start_byte : name.end_byte].startswith(ENV_PREFIXES):
        ea = _env_from_assign_node(ctx, _Decoder(ctx.src), node,
                                   _whole_line_span(ctx, node.start_byte, node.end_byte))
        if ea is not None:
            ctx.out.env.append(ea)
            ctx.file_env.append((node.start_byte, ea))
    v = node.child_by_field_name("value")
    if v is not None and _relevant(ctx, v):
        _walk(ctx, v)


# ---- launches


def _plain_span(ctx: _Ctx, words: list[_Word]) -> Optional[Span]:
    """The file bytes of consecutive words written as themselves (no quotes, escapes or
    expansions), or None: what a fix may replace as a whole."""
    src = ctx.src
    for w in words:
        if w.opaque:
            return None
        if w.pos.__class__ is range:  # (_Decoder.word's fast path: its text is its bytes decoded)
            if src[w.start:w.end] != w.raw:
                return None
        elif src[w.start:w.end] != bytes(w.raw) or bytes(w.raw).decode("utf-8", "replace") != w.text:
            return None
    return _map_span(ctx, words[0].start, words[-1].end)


def _launch(ctx: _Ctx, node, words: list[_Word], found, image_at=None, literal: frozenset = frozenset()) -> None:
    src = ctx.src
    start = found.args_start
    arg_words = words[start:]
    dropped_words: list[_Word] = []
    # `\` + CRLF: bash sees an escaped CR and ends the command there
    cut = src.find(b"\\\r\n", node.start_byte, node.end_byte)
    if cut != -1:
        kept = [w for w in arg_words if w.start < cut]
        dropped_words = [w for w in arg_words if w.start >= cut]
        arg_words = kept
    # "${ARGS[@]}" of an array, $OPTS of a string, assigned before the command: their words,
    # where they are written (_splat_words); each word with its segment, 0 for the command, else
    # the start of the literal holding it (a fix cuts within one segment). ``literal``: the ids
    # of words that are already such (the array a command runs, ``_run_command_var``)
    segments: list[int] = []
    expanded: list[_Word] = []
    # another tool's launcher reads a `key=value` string: its literal pieces are read even where
    # the string holds an expansion (`lighteval vllm $MODEL_ARGS`)
    expansions = found.entry in FOREIGN_LAUNCHERS
    for w in arg_words:
        got = _splat_words(ctx, w, node.start_byte, expansions) if w.splat else None
        if got is None and expansions and w.opaque and not w.splat and _VAR_REF.fullmatch(w.text):
            # `"$MODEL_ARGS"`: one word, the string the script assigned (when it is one word)
            got = _splat_words(ctx, w, node.start_byte, expansions)
            got = got if got is not None and len(got) == 1 else None
        if got is None:
            expanded.append(w)
            segments.append(w.node.start_byte if id(w) in literal else 0)
        else:
            expanded.extend(got)
            segments.extend(x.node.start_byte for x in got)
    arg_words = expanded
    tokens = [_token(ctx, w) for w in arg_words]
    for k, (w, seg) in enumerate(zip(arg_words, segments)):
        if w.opaque and not w.splat and not seg and ctx.resolve and "$" in w.text \
                and not (expansions and not _VAR_REF.fullmatch(w.text)):
            # (another tool's `key=$VAR,...` string keeps its words as written: its reader places
            # the literal keys by their bytes)
            tokens[k] = _resolved(ctx, w, node, tokens[k])
    # each token's word's script range and segment. Ranges, not words: a word holds a
    # tree-sitter node, and with it the whole tree, for as long as the launch lives. By token
    # (``id``) only when a fix first asks (``delete_tokens``): most launches are never fixed.
    ranges = [(w.start, w.end, seg) for w, seg in zip(arg_words, segments)]
    env: list[EnvAssign] = [e for _o, e in ctx.file_env]
    for idx, name, value in found.env:
        env.append(_env_from_word(ctx, words, idx, name, value))
    hints: list[VersionHint] = []
    if found.built_from == "source":  # (a release between the database's oldest and newest)
        hints.append(VersionHint(UNNAMED_REVISION, "vLLM's own source", None, None))
    elif found.image and image_is_vllm(found.image) and found.built_from != "untagged":
        v = version_from_image(found.image)
        if v is not None:
            iw = None if found.built_from else next((w for w in words if w.text == found.image), None)
            at = (iw.start, iw.end) if iw else (_suffix_at(words, found.image) if not found.built_from else None) or image_at
            hints.append(VersionHint(v, "dockerfile-from" if found.built_from else "image-tag",
                                     _map_span(ctx, *at) if at else None, found.image))
    if not hints and found.entry_start is not None:  # (`uvx vllm@0.9.1 serve`, `uv run --with vllm==X vllm`)
        pinned = version_from_tool_run([w.text for w in words], found.entry_start)
        if pinned is not None:
            w = words[pinned[1]]
            hints.append(VersionHint(pinned[0], "tool-run", _map_span(ctx, w.start, w.end), None))
    if not dropped_words:
        dropped_words = _dropped_after(ctx, node)
    else:
        dropped_words += _dropped_after(ctx, node)
    span = _map_span(ctx, node.start_byte, node.end_byte) or Span(0, 0)
    la = Launch(
        path=ctx.path,
        entry=found.entry,
        style="argv",
        span=span,
        tokens=tokens,
        env=env,
        version_hints=hints,
        dropped=[_token(ctx, w) for w in dropped_words],
        # (the image adds words of its own: they are the Dockerfile's, read and reported there)
        opaque=any(t.splat for t in tokens) or found.image_adds is not None,
    )
    if found.image:
        la.image = found.image
    la.read_as = found.via if found.image_adds is None else \
        "; ".join(x for x in (found.via, "with " + found.image_adds) if x)
    if getattr(found, "image_cmd_start", None) is not None:
        # `docker run IMAGE vllm serve ...`: these words go after the image's entrypoint
        cmd_words = words[found.image_cmd_start:found.args_start]
        end = words[found.args_start].start if found.args_start < len(words) else cmd_words[-1].end
        la.image_cmd = [w.text for w in cmd_words]
        la.image_cmd_delete = None if any(w.opaque for w in cmd_words) else \
            _map_span(ctx, cmd_words[0].start, end)
    if found.gpu_count is not None:
        la.hardware = Hardware(gpu_count=found.gpu_count, source=found.gpus_source)
    if found.entry_start is not None and found.entry_start < found.args_start:
        entry_words = words[found.entry_start:found.args_start]
        la.entry_words = [w.text for w in entry_words]
        at = _plain_span(ctx, entry_words)
        if at is not None:
            la.replace_entry = lambda new, _at=at: [Edit(_at, " ".join(new))]

    word_of: dict[int, tuple] = {}

    def delete_tokens(toks: list[Token], _tokens=tokens, _word_of=word_of) -> Optional[list[Edit]]:
        if not _word_of and _tokens:
            _word_of.update(zip(map(id, _tokens), ranges))
        ws = []
        for t in toks:
            w = _word_of.get(id(t))
            if w is None:  # a copy: match by span
                w = next((_word_of[id(x)] for x in _tokens if x.span == t.span and t.span is not None), None)
            if w is None:
                return None
            ws.append(w)
        if not ws or len({w[2] for w in ws}) > 1:
            return None  # nothing, or words both in the command and in a literal it expands
        ws.sort(key=_first)
        rng = (_deletion_range if ws[0][2] == 0 else _literal_deletion_range)(ctx.src, ws[0][0], ws[-1][1])
        if rng is None:
            return None
        sp = _map_exact(ctx, *rng)
        if sp is None and ctx.cut is not None:
            sp = ctx.cut(*rng)
        if sp is None:
            return None
        return [Edit(sp, "")]

    la.delete_tokens = delete_tokens
    _add_launch(ctx, la)


def _resolver(ctx: _Ctx):
    """The script's :class:`~.shell_values.Resolver`, made at first use."""
    if ctx.resolver is None:
        from vllm_lint.frontends.shell_values import Resolver

        folder = None
        if ctx.path and ctx.path != "-" and (b"cat" in ctx.src or b"$(<" in ctx.src):  # (`$(cat FILE)`'s folder)
            folder = os.path.dirname(os.path.abspath(ctx.path))
        image_env = None
        if ctx.path and ctx.path != "-" and ctx.depth == 0 and ctx.emb is None and ctx.stated is None:
            path = ctx.path
            image_env = lambda: _image_env(path)  # noqa: E731  (asked for at the first variable left to the environment)
        ctx.resolver = Resolver(ctx.src, ctx.root, _Decoder(ctx.src), ctx.stated, folder, image_env)
    return ctx.resolver


_DOCKERFILE_NAME = lazy_re(r"(?i)^(?:Dockerfile|Containerfile)(?:[._-][\w.-]*)?$|^[\w.-]+\.(?:dockerfile|containerfile)$")
_IMAGE_ENV_UP = 3  # folders above the script's where a Dockerfile that runs it is looked for


def _image_env(path: str) -> Optional[dict]:
    """The ``ENV`` defaults of the image whose process the script at ``path`` is: a Dockerfile in
    its folder or up to three above (not above the checkout's root) whose ``ENTRYPOINT`` (or
    ``CMD``) runs the file a ``COPY`` puts in the image from the script (``dockerfile_base.runs_script``);
    name -> (value, the note a finding on it adds). None when no Dockerfile runs it, or two do."""
    from vllm_lint import inputs
    from vllm_lint.frontends.dockerfile_base import final_env, runs_script

    script = os.path.abspath(path)
    d = os.path.dirname(script)
    found = None
    for _ in range(_IMAGE_ENV_UP + 1):
        try:
            names = sorted(n for n in os.listdir(d) if _DOCKERFILE_NAME.match(n))
        except OSError:
            names = []
        for name in names:
            where = os.path.join(d, name)
            raw = inputs.read_other(where, _MAX_DOCKERFILE)
            if raw is None:
                continue
            text = raw.decode("utf-8", "replace")
            if runs_script(text, os.path.relpath(script, d).replace(os.sep, "/")):
                if found is not None:
                    return None  # (two images run it: whose ENV is not known)
                rel = os.path.relpath(where, os.path.dirname(script)).replace(os.sep, "/")
                found = {k: (v, f"`{v}` is the default `ENV {k}` of {rel} (line {row}), the image that runs this "
                                f"script, used unless the container's environment sets it")
                         for k, (v, row) in final_env(text).items()}
        if found is not None or os.path.isdir(os.path.join(d, ".git")):
            break
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    return found


def _resolved(ctx: _Ctx, w: _Word, command, tok: Token) -> Token:
    """``tok`` for a word with expansions whose values are known at the command (``$MODEL`` after
    ``MODEL=org/m``; :mod:`.shell_values`): its value, where each comes from, no text span (a fix
    never writes the value in the variable's place); else ``tok`` as it is."""
    known = _resolver(ctx).word(w.node, command)
    if known is None:
        return tok
    origin = []
    for name, where in known.origins:
        if where.__class__ is tuple:  # a range of the script
            where = _map_span(ctx, *where)
        origin.append((name, where))
    return Token(known.text, tok.span, None, origin=tuple(origin), assumed=known.assumed)


def _first(pair: tuple) -> int:
    return pair[0]


_ARRAY_SPLAT = lazy_re(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[@\]\}")  # (a splat; "${A[*]}" is one word)
_READS_INTO = lazy_re(rb"\b(?:read|mapfile|readarray|unset)\b[^\n;&|]*")


def _splat_words(ctx: _Ctx, w: _Word, before: int, expansions: bool = False) -> Optional[list[_Word]]:
    """The words a splat expands to when the script says them for certain (else None: it stays
    opaque): ``"${A[@]}"`` of an array, ``$OPTS`` of a string of plain words (split at blanks as
    bash does). Each word keeps its offsets where the script writes it, and as ``node`` the
    literal holding it (its segment: a fix cuts within one literal). With ``expansions``, a
    string's word may hold an expansion (``MODEL_ARGS="model_name=$MODEL,dtype=auto"``): that word
    is opaque, its text as written (another tool's ``key=value`` string, whose literal pieces are
    read)."""
    m = _ARRAY_SPLAT.fullmatch(w.text)
    if m is not None:
        return _variable_words(ctx, m.group(1), before, array=True)
    m = _VAR_REF.fullmatch(w.text)
    if m is not None:
        return _variable_words(ctx, m.group(1) or m.group(2), before, array=False, expansions=expansions)
    return None


def _variable_words(ctx: _Ctx, name: str, before: int, array: bool, expansions: bool = False,
                    every_branch: Union[bool, str] = False) -> Optional[list[_Word]]:
    """The words variable ``name`` holds for a command at ``before``: assigned once
    (``declare``/``local``/``export`` allowed), an array then only appended to with ``+=(...)``
    (the appended words count, conditional or not: a removed option in a branch fails when the
    branch runs); all before the command; no element assignment, other assignment, or
    ``read``/``mapfile``/``unset`` of it. A string's value must be plain words (no expansion, no
    glob character). ``every_branch``: the words of every assignment and append, in branches that
    exclude each other too (all that any run may hold, for a wrapper's options); ``"unconditional"``:
    only those outside any ``if`` / ``case`` (what every run holds)."""
    root = ctx.root
    src = ctx.src
    if root is None:
        return None
    key = name.encode()
    assigns = []
    for m in re.finditer(rb"(?<![\w$-])" + re.escape(key) + rb"(\[[^\]\n]*\])?(\+?)=(\(?)", src):
        if m.group(1) or bool(m.group(3)) != array or m.start() >= before:
            return None  # an element assigned, the other kind, or an assignment after the command
        assigns.append((m.start(), m.group(2) == b"+"))
    if not assigns or assigns[0][1] or sum(1 for _s, plus in assigns if not plus) != 1 and not every_branch \
            or (not array and len(assigns) > 1 and not every_branch):
        return None
    for m in _READS_INTO.finditer(src, 0, before):
        if re.search(rb"(?<![\w$-])" + re.escape(key) + rb"\b", m.group(0)):
            return None
    dec = _Decoder(src)
    words: list[_Word] = []
    branches: list[dict[int, int]] = []
    for start, _plus in assigns:
        node = root.descendant_for_byte_range(start, start + len(key))
        while node is not None and node.type != "variable_assignment":
            node = node.parent
        value = node.child_by_field_name("value") if node is not None else None
        if value is None or value.start_byte < start or (value.type == "array") != array:
            return None  # in a comment or a string, not an assignment
        here = _branches(node)
        if every_branch == "unconditional" and here:
            continue  # an assignment some runs skip
        if not every_branch and any(here.get(k, v) != v for seen in branches for k, v in seen.items()):
            return None  # appends in branches that exclude each other (if/else, case): not all run
        branches.append(here)
        if array:
            for c in value.named_children:
                if c.type != "comment":
                    w = dec.word(c)
                    w.node = value  # the segment: this array literal
                    words.append(w)
            continue
        whole = dec.word(value)
        raw, pos = bytes(whole.raw), whole.pos
        if every_branch and not raw.strip() and not whole.opaque:
            continue  # (a branch that leaves it empty: GPUOPTION="")
        if whole.opaque and not expansions and not (every_branch is True and _options_around_expansions(raw)) \
                or any(c in raw for c in b"*?[") or not raw.strip():
            return None
        for m in re.finditer(rb"[^ \t\n]+", raw):
            i, j = m.span()
            at = pos[i:j]
            if None in at or list(at) != list(range(at[0], at[0] + j - i)):
                return None  # spelled with escapes: no span to edit
            w = _Word(value, at[0], at[0] + j - i, bytearray(raw[i:j]), range(at[0], at[0] + j - i),
                      opaque=whole.opaque and (b"$" in raw[i:j] or b"`" in raw[i:j]))
            w.text = raw[i:j].decode("utf-8", "replace")
            words.append(w)
    return words


def _options_around_expansions(raw: bytes) -> bool:
    """A string of a wrapper's options whose expansions are inside its words, never one
    (``GPUOPTION="--gpus device=$2"``): its words are options and their values whatever the
    expansion holds, so where the wrapper's own words end is known."""
    words = raw.split()
    return bool(words) and words[0].startswith(b"-") and not any(w.startswith((b"$", b"`", b'"$')) for w in words)


_BRANCHING = frozenset({"if_statement", "case_statement"})
_BRANCH = frozenset({"elif_clause", "else_clause", "case_item"})


def _branches(node) -> dict[int, int]:
    """The branch ``node`` lies in, for each ``if`` / ``case`` around it: that statement's id ->
    the id of its clause holding ``node`` (-1: an ``if``'s own ``then`` part)."""
    out: dict[int, int] = {}
    child, parent = node, node.parent
    while parent is not None:
        if parent.type in _BRANCHING:
            out[parent.id] = child.id if child.type in _BRANCH else -1
        child, parent = parent, parent.parent
    return out


def _literal_deletion_range(src: bytes, s: int, e: int) -> Optional[tuple[int, int]]:
    """Bytes to cut to remove the words spanning ``[s, e)`` from an array literal ``(...)`` or a
    string of words: their whole line when they are alone on it, else the words and the blanks
    before (or after) them; None when they are all the literal holds."""
    ls = src.rfind(b"\n", 0, s) + 1
    le = src.find(b"\n", e)
    le = len(src) if le < 0 else le
    before, after = src[ls:s], src[e:le]
    if not before.strip() and not after.strip():
        return ls, min(le + 1, len(src))
    if before.strip() and not before.strip().endswith((b"(", b'"', b"'")):
        k = s
        while k > ls and src[k - 1] in b" \t":
            k -= 1
        return (k, e) if k < s else None
    j = e
    while j < le and src[j] in b" \t":
        j += 1
    return (s, j) if j > e and src[j:j + 1] not in (b")", b'"', b"'") else None


def _env_from_word(ctx: _Ctx, words: list[_Word], idx: int, name: str, value: Optional[str]) -> EnvAssign:
    w = words[idx]
    tr = w.text_range()
    prefix = 0 if w.node.type == "variable_assignment" else split_env_word(w.text)[0]
    name_span = value_span = value_text_span = None
    if tr is not None:
        a = tr[0] + prefix
        name_span = _map_exact(ctx, a, a + len(name.encode()))
        if value is not None:
            vs = a + len(name.encode()) + 1
            value_text_span = _map_exact(ctx, vs, tr[1])
            value_span = value_text_span
    else:
        value_span = _map_span(ctx, w.start, w.end)
    # `-e A=B`: delete the option word too
    s = w.start
    if idx > 0 and words[idx - 1].text in ("-e", "--env", "-u", "--unset"):
        s = words[idx - 1].start
    rng = _deletion_range(ctx.src, s, w.end)
    delete = _map_exact(ctx, *rng) if rng else None
    opaque = w.opaque
    return EnvAssign(
        name=name,
        name_span=name_span,
        value=None if opaque else value,
        value_span=value_span,
        value_text_span=value_text_span if not opaque else None,
        value_opaque=opaque,
        delete_span=delete,
    )


_CONT_END = lazy_re(rb"[ \t]*\\\r?\n")


def _deletion_range(src: bytes, s: int, e: int) -> Optional[tuple[int, int]]:
    """Bytes to cut to remove the words spanning ``[s, e)`` cleanly from a command line."""
    ls = src.rfind(b"\n", 0, s) + 1
    before = src[ls:s]
    m = _CONT_END.match(src, e)
    if not before.strip() and m:
        # alone on a continuation line: remove the whole line
        return ls, m.end()
    # trailing whitespace on the same line, up to the end of line
    j = e
    while j < len(src) and src[j] in b" \t":
        j += 1
    at_eol = j >= len(src) or src[j] in b"\r\n;&|#)" or src[j : j + 1] == b"}"
    if not before.strip() and at_eol and ls >= 2:
        # alone on the command's last line: cut from the previous line's ` \`
        prev_end = ls - 1
        if src[prev_end - 1 : prev_end] == b"\r":
            prev_end -= 1
        if src[prev_end - 1 : prev_end] == b"\\":
            k = prev_end - 1
            while k > 0 and src[k - 1] in b" \t":
                k -= 1
            return k, e
        return None
    if before.strip():
        # remove the whitespace that precedes the first word (same line)
        k = s
        while k > ls and src[k - 1] in b" \t":
            k -= 1
        if k == s:
            return None  # glued to something: unsafe
        return k, e
    # first on its line with more words after it: remove it and the whitespace after
    if j == e:
        return None
    return s, j


_DASH_LINE = lazy_re(rb"[ \t]*-(-|[A-Za-z])")
_COMMENT_LINE = lazy_re(rb"[ \t]*#[^\n]*\n")
_BLANK_LINE = lazy_re(rb"[ \t]*\r?\n")
_REST_NONE = re.compile(rb"[ \t]*\r?\n")
_REST_BS = lazy_re(rb"[ \t]*\\(\r?\n)")
_REST_BS_SPACE = lazy_re(rb"[ \t]*\\[ \t]+(#[^\n]*)?\r?\n")
# the bytes any of the three patterns above may start with (an empty rest matches none of them)
_REST_FIRST = (b" ", b"\t", b"\\", b"\r", b"\n")
# the bytes a line _DASH_LINE matches may start with
_DASH_FIRST = (b" ", b"\t", b"-")


def _dropped_after(ctx: _Ctx, node) -> list[_Word]:
    """Option lines cut off after the launch by a broken continuation."""
    src = ctx.src
    out: list[_Word] = []
    end = node.end_byte
    root = None  # (the tree's root: found when an option line follows, as for few launches)
    for _guard in range(10000):
        if src[end:end + 1] not in _REST_FIRST:  # (no pattern below can match: most launches)
            return out
        if src[end:end + 1] == b"\n" and src[end + 1:end + 2] not in _DASH_FIRST:
            return out  # (the line ends the command and the next starts no option: most others)
        m = _REST_BS_SPACE.match(src, end) or _REST_BS.match(src, end) or _REST_NONE.match(src, end)
        if not m:
            return out
        p = m.end()
        if m.re is not _REST_NONE:
            # the continuation was cut (`\ `, a comment line or a blank line): skip those lines
            while True:
                c = _COMMENT_LINE.match(src, p) or _BLANK_LINE.match(src, p)
                if not c:
                    break
                p = c.end()
        if not _DASH_LINE.match(src, p):
            return out
        q = p
        while src[q : q + 1] in (b" ", b"\t"):
            q += 1
        if root is None:
            root = node
            while root.parent is not None:
                root = root.parent
        cmd = root.descendant_for_byte_range(q, q + 1)
        while cmd is not None and cmd.type not in ("command", "variable_assignment"):
            cmd = cmd.parent
        if cmd is not None and cmd.type == "variable_assignment" and cmd.parent is not None:
            if cmd.parent.type == "command":
                cmd = cmd.parent  # `--a=1 vllm ...`: the assignment prefixes a command
            elif cmd.parent.type == "variable_assignments":
                cmd = cmd.parent  # `--a=1 --b=2`: a line of assignments only
        if cmd is None or cmd.start_byte != q:
            return out
        if cmd.type == "command":
            words, _a = _command_words(ctx, cmd)
        else:
            # `--opt=value` alone on its line reads as an assignment (`NAME=value`) to the grammar
            dec = _Decoder(ctx.src)
            parts = cmd.named_children if cmd.type == "variable_assignments" else [cmd]
            words = [_assignment_word(dec, a) for a in parts if a.type == "variable_assignment"]
        out.extend(words)
        end = cmd.end_byte
    return out


# ----------------------------------------------------------------------------- the format unit
# (the hooks of vllm_lint.frontends.base: the fixer's parse check, --add-noqa's equivalence check)


def parse_errors(data: bytes) -> int:
    """How many error or missing nodes tree-sitter's bash grammar finds in ``data``."""
    count = 0
    stack = [parser().parse(data).root_node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            count += 1
        if n.has_error:
            stack.extend(n.children)
    return count


def parse_check(before: bytes, after: bytes) -> Optional[str]:
    """Why the fixed script ``after`` parses worse than ``before`` did, or None."""
    try:
        if parse_errors(after) > parse_errors(before):
            return "the fixed script no longer parses as shell"
    except ImportError:  # pragma: no cover - no grammar, no check
        return None
    except Exception as e:
        return f"the fixed file would not parse ({type(e).__name__})"
    return None


def _leaves(data: bytes) -> list[tuple[str, bytes]]:
    """The script's leaf tokens (type, bytes), comments left out."""
    out = []
    stack = [parser().parse(data).root_node]
    while stack:
        n = stack.pop()
        if n.type == "comment":
            continue
        if n.child_count == 0:
            out.append((n.type, data[n.start_byte:n.end_byte]))
        else:
            stack.extend(reversed(n.children))
    return out


def same_meaning(before: bytes, after: bytes) -> Optional[str]:
    """None when ``after`` has the same shell words as ``before`` apart from comments."""
    try:
        return None if _leaves(before) == _leaves(after) else "the shell words would change"
    except ImportError:  # pragma: no cover
        return None


def warm_up() -> None:
    """Load the grammar before worker processes fork (each would load it again)."""
    parser()
