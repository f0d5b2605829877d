"""The release finding's screens (issue 31, seventh pass): a line screen before an expression, a
slice for a relative path. Each may only skip what the expression (or the function it stands for)
would not find: checked here against it."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import given, settings, strategies as st

from vllm_lint.pipeline import surroundings as s

_WORDS = ["vllm", "VLLM", "vLLM", "pip", "PIP", "p\u0131p", "P\u0130P", "uv", "uv pip", "install", "add", "sudo",
          "\u017fudo", "python", "PYTHON", "pretrained=",
          "python3 -m", "$", ">", "==", "===", "~=", "=", "0.8.5", "v0.9.1", "[", "]", "[audio]", "`", "-",
          " ", "\t", "\n", "\n", "x", "\u0130", "#", "\""]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=40))
def test_install_pins_are_finditers(words):
    text = "".join(words)
    want = [(m.span(), m.groups()) for m in s._INSTALL_PIN.finditer(text)]
    assert [(m.span(), m.groups()) for m in s._install_pins(text)] == want


def test_install_pins_on_lines():
    text = ("# Install\nRun `pip install vllm==0.1.0` here.\n  $ pip install vllm[audio,\nvideo]==0.8.5\n"
            "pip install -U vllm~=0.9.0 && pip install vllm==0.9.1\n\u017fudo pip install VLLM==0.10.0\n")
    got = [m.group(0) for m in s._install_pins(text)]
    assert got == [m.group(0) for m in s._INSTALL_PIN.finditer(text)]
    assert len(got) == 3


def test_the_screens_letters_are_the_expressions():
    """Ignoring case, the letters of sudo, python, pip, uv and vllm match only themselves and their
    upper case, but s (U+017F) and i (U+0131, U+0130: which lower-cases to two characters, read
    without the screen)."""
    extra = {"s": {"\u017f"}, "i": {"\u0131", "\u0130"}}
    for ch in "sudopythnivlm":
        got = {chr(c) for c in range(0x110000) if re.match("(?i)" + ch, chr(c))}
        assert got == {ch, ch.upper()} | extra.get(ch, set()), ch
        assert all(x.lower().translate(s._FOLD) == ch for x in got - {"\u0130"})
    assert len("\u0130".lower()) == 2


# -- the callers' walk (pipeline/callers.py): the scripts it reads, as the walk before this pass read them


def _reference_walk(surroundings, root):
    """The callers' walk as it was written before the seventh pass (os.path.join, every file
    sorted, relpath for .gitignore's anchored folders): the order and the scripts to keep."""
    from vllm_lint.fsutil import TooLarge, read_regular
    from vllm_lint.pipeline.callers import _SUFFIXES, MAX_BYTES

    ignores = surroundings.ignored_folders
    stack = [(root, ignores.root_rules(root))]
    while stack:
        d, above = stack.pop()
        dirs, files, links = [], [], set()
        try:
            it = os.scandir(d)
        except OSError:
            continue
        with it:
            for e in it:
                if not e.is_dir():
                    files.append(e.name)
                elif not e.name.startswith(".") and e.name != "node_modules":
                    dirs.append(e.name)
                    if e.is_symlink():
                        links.add(e.name)
        for fname in sorted(files):
            if fname.endswith(_SUFFIXES):
                try:
                    data = read_regular(os.path.join(d, fname), MAX_BYTES)
                except (OSError, TooLarge):
                    continue
                if b"vllm" in data and (b"==" in data or b"vllm-project/vllm" in data):
                    yield os.path.relpath(os.path.join(d, fname), root), d
        dirs.sort()
        if d != root and ".gitignore" in files:
            rules = ignores.rules(d)
            if rules is not None:
                above = above + [(d, rules)]
        for x in reversed(dirs):
            path = os.path.join(d, x)
            if x not in links and not (above and _relpath_ignored(path, above)):
                stack.append((path, above))


def _relpath_ignored(path, above):
    name = os.path.basename(path)
    return any(rules is not None and (name in rules[0] or (rules[1] and os.path.relpath(path, folder) in rules[1]))
               for folder, rules in above)


_NAMES = st.sampled_from(["a", "b", "run.sh", "job.slurm", "x.bash", ".hidden", "node_modules", "build", "c.sh",
                          ".gitignore", "README.md", "deep"])
_CALLER = "pip install vllm==0.8.5\nbash run.sh\n"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.lists(_NAMES, min_size=1, max_size=4), st.sampled_from(["caller", "other", "dir", "ignore"])),
                max_size=14), st.sampled_from(["", "build\n", "/a/b\n", "deep\nc.sh\n", "!x\n"]))
def test_the_callers_walk_reads_what_the_walk_before_it_read(tmp_path_factory, entries, root_ignore):
    from vllm_lint.pipeline.callers import Callers

    root = tmp_path_factory.mktemp("repo")
    (root / ".git").mkdir()
    (root / ".gitignore").write_text(root_ignore)
    for parts, kind in entries:
        p = root.joinpath(*parts)
        try:
            if kind == "dir":
                p.mkdir(parents=True, exist_ok=True)
                continue
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text({"caller": _CALLER, "other": "echo hi\n", "ignore": "b\n/deep/a\n"}[kind])
        except OSError:  # (a file where a folder is wanted, or the other way round)
            continue
    if (root / "a").is_dir() and not (root / "linked").exists():
        (root / "linked").symlink_to(root / "a", target_is_directory=True)
    real = os.path.realpath(root)
    sur = s.Surroundings()
    got = [(x[0], x[1]) for x in Callers(sur)._scan(real)]
    want = [(rel.replace(os.sep, "/"), d) for rel, d in _reference_walk(s.Surroundings(), real)]
    assert got == want


def test_the_callers_walk_on_a_fixed_tree(tmp_path):
    from vllm_lint.pipeline.callers import Callers

    root = tmp_path / "repo"
    files = {".gitignore": "build\n/gen/out\n", "z.sh": _CALLER, "a.sh": _CALLER, "m.bash": _CALLER,
             "notes.txt": _CALLER, "x.sh/inner.sh": _CALLER, "build/b.sh": _CALLER, "gen/out/o.sh": _CALLER,
             "gen/keep/k.sh": _CALLER, "gen/.gitignore": "skip\n", "gen/skip/s.sh": _CALLER,
             ".hidden/h.sh": _CALLER, "node_modules/n.sh": _CALLER, "sub/dir/d2.slurm": _CALLER,
             "sub/dir/d1.sbatch": _CALLER, "sub/other.sh": "echo\n", "sub/c.sh": _CALLER}
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    (root / ".git").mkdir()
    (root / "link").symlink_to(root / "sub", target_is_directory=True)
    real = os.path.realpath(root)
    got = [x[0] for x in Callers(s.Surroundings())._scan(real)]
    assert got == [rel.replace(os.sep, "/") for rel, _d in _reference_walk(s.Surroundings(), real)]
    assert got == ["a.sh", "m.bash", "z.sh", "gen/keep/k.sh", "sub/c.sh", "sub/dir/d1.sbatch", "sub/dir/d2.slurm",
                   "x.sh/inner.sh"]


# -- the callers' byte screen (callers._may_call): the module's expression on the scripts that may hold a match

_SCREEN_WORDS = [b"vllm", b"VLLM", b"vLLM", b"vllm/", b"VLLM/", b"Vllm/", b"/", b"v", b"V", b"0", b"9", b".11",
                 b"==", b"=", b"vllm-project/vllm", b"module load ", b"ml ", b"\n", b" ", b"\xc4\xb0", b"\xff",
                 b"llm", b"x"]


def _screen_before(data: bytes) -> bool:
    """The callers' byte screen as it was before the eighth pass (the module's expression on every script)."""
    import re

    return not ((b"vllm" not in data or (b"==" not in data and b"vllm-project/vllm" not in data))
                and re.search(rb"(?i)vllm/v?\d", data) is None)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_SCREEN_WORDS), max_size=30))
def test_the_callers_screen_keeps_what_it_kept(words):
    from vllm_lint.pipeline.callers import _may_call

    data = b"".join(words)
    assert _may_call(data) == _screen_before(data), data


def test_the_callers_screen_compiles_no_expression(tmp_path, monkeypatch):
    """A repository of 40 scripts, of which 3 hold ``vllm/`` (two of them module loads of a
    release): the two are kept and the module is found with no expression compiled (the
    expression ignoring case stepped every byte of each script it searched)."""
    import re

    from vllm_lint.pipeline import callers

    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    for i in range(37):
        (root / f"s{i:02}.sh").write_text(f"echo {i}\npython train.py --epochs {i}\n")
    (root / "job1.slurm").write_text("module load NRIS/GPU vLLM/0.11.0\nsrun python serve.py\n")
    (root / "job2.sbatch").write_text("ml vllm/v0.10.1\nbash run.sh\n")
    (root / "docs.sh").write_text("# see github.com/vllm-project/VLLM/issues\n")
    c = callers.Callers(s.Surroundings())
    real = os.path.realpath(root)
    c.surroundings.root_of(real)
    compiled = []
    real_compile = re._compile
    monkeypatch.setattr(re, "_compile", lambda p, f: compiled.append(p) or real_compile(p, f))
    got = [x[0] for x in c._scan(real)]
    assert got == ["job1.slurm", "job2.sbatch"]
    assert c.reads == 40 and c.screened == 2
    assert compiled == []


# -- requirement pins: _SPEC and _POETRY are compiled only for a text that may match

_PIN_WORDS = ["vllm", "VLLM", "vllm-lint", "vllm_x", "[", "]", "[audio]", "==", "=", ">=", "<", "~=", "!=", "0.8.5",
              " ", "\t", "\n", "\u00a0", "\u2003", "\"", "'", "#", ",", "x", "version", "{", "}", "\u0130"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_PIN_WORDS), max_size=30))
def test_the_pin_screens_pass_every_text_the_expressions_match(words):
    text = "".join(words)
    if s._SPEC.search(text):
        assert s._may_spec(text)
    if s._POETRY.search(text):
        assert s._may_poetry(text)


def test_the_pin_screens_on_files():
    assert not s._may_spec("[project]\nname = \"vllm-lint\"\n[tool.vllm-lint]\nx = 1\n")
    assert not s._may_poetry("[project]\nname = \"vllm-lint\"\n")
    assert s._may_spec("vllm[audio,\nvideo] \u00a0>= 0.8\n") and s._may_spec("VLLM==0.8.5")
    assert s._may_poetry('  "vllm" = "^0.5.1"\n')
    pyproject = "[project]\nname = \"vllm-lint\"\ndependencies = [\"vllm>=0.8\"]\n"
    assert s._requirement_pin(pyproject, "pyproject.toml").text == ">=0.8"


def test_whitespace_is_the_expressions():
    """``\\s`` of a str expression is ``str.isspace``: the screen skips blanks as the expression does."""
    assert all(bool(re.match(r"\s", chr(c))) == chr(c).isspace() for c in range(0x110000))


# -- fsutil.read_regular: a file read whole in one read when its first read gives the size fstat counted


def test_a_regular_file_is_read_in_one_read(tmp_path, monkeypatch):
    from vllm_lint import fsutil

    reads = []
    real_read = os.read
    monkeypatch.setattr(fsutil.os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    p = tmp_path / "run.sh"
    p.write_bytes(b"vllm serve m\n" * 10)
    assert fsutil.read_regular(str(p), 1 << 20) == b"vllm serve m\n" * 10
    assert reads == [131]  # (its size + 1: nothing more to read)
    reads.clear()
    p.write_bytes(b"")
    assert fsutil.read_regular(str(p), 100) == b"" and reads == [101]  # (an empty file: up to the limit)
    (tmp_path / "big").write_bytes(b"x" * 10)
    with pytest.raises(fsutil.TooLarge):
        fsutil.read_regular(str(tmp_path / "big"), 3)


def test_a_short_or_grown_first_read_reads_on(tmp_path, monkeypatch):
    """A first read short of the size fstat counted reads on to the end, and one that gives more (the
    file grew) reads on to the limit, as before."""
    from vllm_lint import fsutil

    p = tmp_path / "x"
    p.write_bytes(b"abcdefgh")
    real_read = os.read
    calls = []

    def short(fd, n):  # (the first read gives 3 bytes)
        calls.append(n)
        return real_read(fd, 3 if len(calls) == 1 else n)

    monkeypatch.setattr(fsutil.os, "read", short)
    assert fsutil.read_regular(str(p), 100) == b"abcdefgh" and calls[0] == 9
    monkeypatch.setattr(fsutil.os, "read", real_read)
    real_fstat = os.fstat

    class Smaller:  # (fstat saw 4 bytes: the file grew since)
        def __init__(self, st):
            self.st_mode, self.st_size, self.st_mtime_ns, self.st_ino = st.st_mode, 4, st.st_mtime_ns, st.st_ino

    monkeypatch.setattr(fsutil.os, "fstat", lambda fd: Smaller(real_fstat(fd)))
    assert fsutil.read_regular(str(p), 100) == b"abcdefgh"
    with pytest.raises(fsutil.TooLarge):
        fsutil.read_regular(str(p), 6)


# -- the survey's image screen (repository._may_tag): the tagged-image expression on the lines that may hold a match

_IMAGE_WORDS = ["vllm", "VLLM", "vLLM", "vllm-openai", "vllm/vllm-openai", "rocm/", "quay.io/x/", ":", ":v0.9.1",
                "v0.8.5", "0.10", "-", ".", "_", "/", "$", "{", "#", " ", "\t", "\n", "image: ", "tag: ", "\u00e9",
                "\u0130", "x", "lint", "@sha256", "latest", "\u212a"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_IMAGE_WORDS), max_size=12))
def test_the_image_screen_skips_only_lines_without_a_tagged_vllm_image(words):
    # (at most 12 words: the expression, unscreened, backtracks polynomially over a long run of name characters)
    from vllm_lint.pipeline import repository

    text = "".join(words)
    got = repository._images(text)
    real = repository._may_tag
    try:
        repository._may_tag = lambda *a: True
        want = repository._images(text)
    finally:
        repository._may_tag = real
    assert got == want, text


def test_the_image_screen_passes_over_a_path_naming_vllm_lint():
    from vllm_lint.pipeline import repository

    text = 'run: "$RUNNER_TEMP/vllm-lint-venv/bin/python" -m pip install x\nimage: vllm/vllm-openai:v0.9.1\n'
    low = text.lower()
    assert not repository._may_tag(text, low, low.find("vllm"), text.find("\n"))
    assert repository._may_tag(text, low, low.find("vllm/"), len(text) - 1)
    assert [t for _a, t, _i in repository._images(text)] == ["v0.9.1"]


# -- fsutil.read_listed: a file its listing says is regular, read without its fstat


@pytest.mark.parametrize("size", [0, 1, 100, (1 << 16) - 1, 1 << 16, (1 << 16) + 1, 3 * (1 << 16) + 5])
def test_a_listed_file_reads_as_read_regular(tmp_path, size):
    from vllm_lint import fsutil

    p = tmp_path / "run.sh"
    p.write_bytes(bytes(i % 251 for i in range(size)))
    for limit in (0, 5, (1 << 16) - 1, 1 << 16, 1 << 20):
        try:
            want = fsutil.read_regular(str(p), limit)
        except fsutil.TooLarge:
            want = fsutil.TooLarge
        try:
            got = fsutil.read_listed(str(p), limit)
        except fsutil.TooLarge:
            got = fsutil.TooLarge
        assert got == want, (size, limit)


def test_a_listed_file_is_read_without_fstat_unless_signatures_are_recorded(tmp_path, monkeypatch):
    from vllm_lint import fsutil

    p = tmp_path / "run.sh"
    p.write_bytes(b"pip install vllm==0.8.5\n")
    stats = []
    real_fstat = os.fstat
    monkeypatch.setattr(fsutil.os, "fstat", lambda fd: stats.append(fd) or real_fstat(fd))
    assert fsutil.read_listed(str(p), 1 << 20) == b"pip install vllm==0.8.5\n" and stats == []
    seen: dict = {}
    before = fsutil.watching(seen)
    try:
        assert fsutil.read_listed(str(p), 1 << 20) == b"pip install vllm==0.8.5\n"
    finally:
        fsutil.watching(before)
    assert len(stats) == 1 and os.path.abspath(str(p)) in seen  # (the signature of the bytes read)


def test_the_callers_walk_reads_a_linked_script_as_before(tmp_path):
    """A script that is a link (to a script, to a FIFO) is read as read_regular reads it: the link's
    target when regular, nothing for a FIFO; a listed regular script without its fstat."""
    from vllm_lint.pipeline.callers import Callers

    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "a.sh").write_text(_CALLER)
    (root / "b.sh").symlink_to(root / "a.sh")
    os.mkfifo(root / "c.sh")
    (root / "d.sh").symlink_to(root / "c.sh")
    got = [x[0] for x in Callers(s.Surroundings())._scan(os.path.realpath(root))]
    assert got == ["a.sh", "b.sh"]


# -- settings._may_configure: the three expressions, read by hand around each vllm-lint and tool

_PYPROJECT_WORDS = [b"tool", b"TOOL", b"vllm-lint", b".", b"[", b"]", b"=", b"\"", b"'", b" ", b"\t", b"\n", b"\r",
                    b"\x0b", b"x", b"[tool]", b"tool.", b"mytool", b"{", b"#"]


def _configures_before(raw: bytes) -> bool:
    if b"vllm-lint" not in raw:
        return False
    return bool(re.search(rb"tool\s*\.\s*[\"']?vllm-lint", raw) or re.search(rb"(?m)^\s*\[\s*tool\s*\]", raw)
                or re.search(rb"(?m)^\s*tool\s*=", raw))


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PYPROJECT_WORDS), max_size=25))
def test_the_pyproject_screen_is_its_expressions(words):
    from vllm_lint.settings import _may_configure

    raw = b"".join(words)
    assert _may_configure(raw) == _configures_before(raw), raw


def test_the_pyproject_screen_on_fixed_texts():
    from vllm_lint.settings import _may_configure

    for raw, want in [(b"[tool.vllm-lint]\n", True), (b'[tool."vllm-lint"]\n', True), (b"[tool]\nvllm-lint = {}\n", True),
                      (b"tool = {vllm-lint = {}}\n", True), (b"x[\ntool]\nvllm-lint\n", False),
                      (b'[project]\ndependencies = ["vllm-lint"]\n', False), (b"  \n [ tool ] \nvllm-lint", True)]:
        assert _may_configure(raw) == want == _configures_before(raw), raw


def test_the_images_of_a_text_whose_lower_case_is_longer():
    # `İ` lower-cases to two characters: the search for vllm keeps the text's offsets (it looped forever)
    from vllm_lint.pipeline import repository

    assert repository._images("İ\tİ image: {vllm/vllm-openai\nİ-İvLLM") == []
    text = "İ image: vllm/vllm-openai:v0.9.1\nİ-İvLLM\nimage: VLLM/vllm-openai:v0.8.5"
    assert [(t, i) for _a, t, i in repository._images(text)] == [("v0.9.1", "vllm/vllm-openai:v0.9.1"),
                                                                 ("v0.8.5", "VLLM/vllm-openai:v0.8.5")]


# -- issue 31, tenth pass: the survey's and the plugin evidence's expressions compiled only for a text that may match

_UNTAGGED_WORDS = ["image", "repository", "images", "- ", "-", " ", "\t", ":", ": ", "\"", "'", "#", "vllm",
                   "vllm/vllm-openai", "vllm-lint", "vllm-openai", "quay.io:5000/", "x/", "/", ".", "_", ":v0.9.1",
                   "\n", "\r", "\u00e9", "\u0130", "tag: 0.9.1", "# a comment", "x", "image: ", "repository: "]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_UNTAGGED_WORDS), max_size=16))
def test_the_untagged_image_screen_passes_every_text_the_expression_matches(words):
    from vllm_lint.pipeline import repository

    text = "".join(words)
    if repository._UNTAGGED.search(text):
        assert repository._may_untagged(text), text


def test_the_untagged_image_screen_on_fixed_texts(monkeypatch):
    import re

    from vllm_lint.pipeline import repository

    for text, want in [("image: vllm/vllm-openai\ntag: v0.9.1\n", True), ("  - repository: 'quay.io/x/vllm'  # x\n", True),
                       ("image: vllm/vllm-openai:v0.9.1\n", False),
                       ("# install vllm-lint from this repository: the action's ref\n", False),
                       ("images: vllm/vllm-openai\n", False), ("run: image: vllm\n", False)]:
        assert repository._may_untagged(text) == want == bool(repository._UNTAGGED.search(text)), text
    # a repository naming only tagged images compiles neither expression it does not need
    compiled = []
    real_compile = re._compile
    monkeypatch.setattr(re, "_compile", lambda p, f: compiled.append(p) or real_compile(p, f))
    fresh = type(repository._UNTAGGED)(repository._UNTAGGED._source[0])
    monkeypatch.setattr(repository, "_UNTAGGED", fresh)
    got = repository._images("# vllm-lint, from this repository\nimage: vllm/vllm-openai:v0.9.1\n")
    assert [t for _a, t, _i in got] == ["v0.9.1"] and fresh._source[0] not in compiled


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([".env", ".", "env", "x", "-", "_", "é", ".envrc", "a.env", ".github", "prod"]),
                min_size=1, max_size=5))
def test_an_env_file_name_holds_dot_env(words):
    from vllm_lint.pipeline import surroundings

    name = "".join(words)
    if surroundings._ENV_FILE.match(name):
        assert ".env" in name


def test_a_manifest_naming_no_image_is_read_for_plugins_without_an_expression(tmp_path, monkeypatch):
    """The plugin evidence of a folder reads a manifest's ``image:`` keys only when it names an
    image (a GitHub action naming `output`, which holds a plugin word): no expression compiled."""
    import re

    from vllm_lint.pipeline import plugin_evidence

    (tmp_path / "action.yml").write_text("outputs:\n  result:\n    value: x\n")
    (tmp_path / "deploy.yaml").write_text("image: quay.io/ascend/vllm-ascend:v0.10.0rc1\n")
    fresh = type(plugin_evidence._IMAGE)(plugin_evidence._IMAGE._source[0])
    monkeypatch.setattr(plugin_evidence, "_IMAGE", fresh)
    compiled = []
    real_compile = re._compile
    monkeypatch.setattr(re, "_compile", lambda p, f: compiled.append(p) or real_compile(p, f))
    p = plugin_evidence.PluginSurroundings(lambda d: None, lambda d: ["action.yml"])
    assert p.for_dir(str(tmp_path)) is None and fresh._source[0] not in compiled
    p = plugin_evidence.PluginSurroundings(lambda d: None, lambda d: ["action.yml", "deploy.yaml"])
    found = p.for_dir(str(tmp_path))
    assert found is not None and found.dist == "vllm-ascend" and fresh._source[0] in compiled


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(["vllm", "vllm-openai", "-", "_", ".", "x", "\n", "rocm", "é", "openai", "/"]),
                max_size=6))
def test_an_image_name_is_read_as_the_name_expressions_read_it(words):
    """``images._named`` (vLLM's image names read without an expression) is ``re.match`` of the
    two expressions it stands for."""
    import re

    from vllm_lint import images

    last = "".join(words)
    for name in ("vllm-openai", "vllm"):
        if last.startswith(name):
            assert images._named(last, len(name)) == bool(re.match("^" + re.escape(name) + r"([-_.].*)?$", last)), last
