"""The one-file start-up path (issue 31, sixth pass; benchmarks/README.md): the console loads
vllm_lint's own modules through ``cli.program._OwnModules`` (the ``.pyc`` the install wrote, checked
as the import system checks it), and a lint with no configuration file, no excludes and nothing to
write imports no ``pathlib`` (whose ``urllib.parse`` and ``ipaddress`` are ~16 M instructions) and
no ``typing`` (~13 M: the lint path's modules import it under ``if TYPE_CHECKING:``, a module-level
``TYPE_CHECKING = False``; a shell file's parser is tree_sitter's compiled binding, loaded without
the package's ``__init__``, which imports it). Structure only: never how long it takes."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vllm_lint.fsutil import path_is, path_str

_CONSOLE = ("import os, sys\n"
            "sys.modules.setdefault('coverage', None)  # (a normal exit: the report below prints)\n"
            "class Watch:  # (an editable install's finder imports pathlib at start-up: imported again if asked)\n"
            "    seen = []\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name in ('pathlib', 'urllib.parse', 'ipaddress', 'typing'):\n"
            "            self.seen.append(name)\n"
            "for n in ('pathlib', 'urllib.parse', 'ipaddress', 'typing'):\n"
            "    sys.modules.pop(n, None)\n"
            "sys.meta_path.insert(0, Watch())\n"
            "from vllm_lint.cli.program import console\n"
            "sys.argv = ['vllm-lint', *{argv!r}]\n"
            "try:\n    console()\nexcept SystemExit:\n    pass\n"
            "from vllm_lint.cli.program import _Loader\n"
            "own = sorted(k for k, m in list(sys.modules.items()) if k.startswith('vllm_lint.'))\n"
            "fast = [k for k in own if isinstance(getattr(sys.modules[k], '__loader__', None), _Loader)]\n"
            "print('MODULES', ' '.join(sorted(sys.modules)))\n"
            "print('ASKED', *Watch.seen)\n"
            "print('OWN', len(own), 'FAST', len(fast))\n")


def _console(argv: list[str], cwd, env_db) -> tuple[set[str], set[str], int, int]:
    env = {**os.environ, "VLLM_LINT_DB": str(env_db)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    out = subprocess.run([sys.executable, "-c", _CONSOLE.format(argv=argv)], cwd=cwd, env=env,
                         capture_output=True, text=True, check=True).stdout
    mods = set(out.split("MODULES ", 1)[1].split("\n", 1)[0].split())
    asked = set(out.split("ASKED", 1)[1].split("\n", 1)[0].split())
    counts = out.rsplit("OWN ", 1)[1].split()
    return mods, asked, int(counts[0]), int(counts[2])


@pytest.mark.parametrize("name, text", [
    ("run.sh", "vllm serve m --swap-space 4\n"),
    ("Dockerfile", 'FROM vllm/vllm-openai:v0.10.1\nCMD ["--model", "m", "--swap-space", "4"]\n'),
    ("deploy.yaml", "containers:\n- name: v\n  image: vllm/vllm-openai:v0.10.1\n  args: [--model, m, --swap-space, '4']\n"),
    ("serve.py", "from vllm import LLM\nLLM(model='m', swap_space=4)\n"),
])
def test_a_one_file_lint_imports_no_pathlib_and_loads_its_modules_itself(tmp_path, synth_db_path, name, text):
    (tmp_path / name).write_text(text)
    for argv in (["--no-cache", name], ["--no-cache", "--force-exclude", f"./{name}"]):
        mods, asked, own, fast = _console(argv, tmp_path, synth_db_path)
        assert "vllm_lint.pipeline.engine" in mods  # the lint did run
        assert not asked and not {"pathlib", "urllib.parse", "ipaddress"} & mods, (argv, asked)
        # the database is decoded by json's C scanner without the json package (record.json_loads)
        assert "_json" in mods and not {"json", "json.decoder", "json.scanner", "json.encoder"} & mods, argv
        # the scripts that run a file are walked for a file a caller may name, a script or a Python
        # file (pipeline.callers, imported then), never for a Dockerfile or YAML
        assert ("vllm_lint.pipeline.callers" in mods) == name.endswith((".sh", ".py")), argv
        # the release finding's tables of plugins, forks, kustomizations and source builds are
        # imported for a file or folder that names one only (issue 31, tenth pass), and the plugin
        # evidence of the folders around a file only when nothing of the file names its release
        assert not {"vllm_lint.surface.plugins", "vllm_lint.knowledge.plugin_targets", "vllm_lint.knowledge.forks",
                    "vllm_lint.pipeline.kustomize", "vllm_lint.knowledge.source_builds"} & mods, argv
        assert ("vllm_lint.pipeline.plugin_evidence" in mods) == name.endswith((".sh", ".py")), argv
        # nor the repository's survey and the rules of what its walks leave out (a file outside a
        # repository: no survey; a launch naming its release: no walk at all)
        assert not {"vllm_lint.pipeline.repository", "vllm_lint.pipeline.ignored_folders"} & mods, argv
        # and the files around a launch are read (their module imported) only for a launch that names no release
        assert ("vllm_lint.pipeline.surroundings" in mods) == name.endswith((".sh", ".py")), argv
        # every module after the console started, i.e. all but the package, cli and program
        assert own >= 40 and fast >= own - 2, (own, fast)


def test_tree_sitter_imported_after_the_shell_parser_is_the_same():
    """The shell front-end loads tree_sitter's binding without its package; a later ``import
    tree_sitter`` (other code of the same process) gets the whole package, with the same classes,
    and parses; imported first, the package is used as it is."""
    code = ("import sys\n"
            "from vllm_lint.frontends import shell\n"
            "p = shell.parser()\n"
            "print('PACKAGE', 'tree_sitter' in sys.modules, 'typing' in sys.modules)\n"
            "import tree_sitter\n"
            "t = tree_sitter.Parser(tree_sitter.Language(shell._bash_language())).parse(b'vllm serve m\\n')\n"
            "print('SAME', type(p) is tree_sitter.Parser, t.root_node.type, hasattr(tree_sitter, 'QueryPredicate'))\n")
    env = {**os.environ}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert "PACKAGE False" in out and "SAME True program True" in out, out
    first = "import tree_sitter\n" + code
    out = subprocess.run([sys.executable, "-c", first], env=env, capture_output=True, text=True, check=True).stdout
    assert "PACKAGE True" in out and "SAME True program True" in out, out


def test_a_configuration_file_is_still_a_path(tmp_path):
    """A run that finds a configuration keeps its ``source`` a ``Path`` (excludes are relative to
    its folder); a pyproject.toml without a ``[tool.vllm-lint]`` table is passed over as before."""
    from vllm_lint import settings

    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "run.sh").write_text("vllm serve m\n")
    assert settings.discover(str(tmp_path / "sub" / "run.sh")).source is None
    (tmp_path / ".vllm-lint.toml").write_text("ignore = ['VL4']\n")
    s = settings.discover(str(tmp_path / "sub" / "run.sh"))
    assert s.source == tmp_path.resolve() / ".vllm-lint.toml" and isinstance(s.source, Path)
    assert settings.discover(Path(tmp_path / "sub")) == s  # a folder, a Path
    assert settings.discover(str(tmp_path / "missing" / "x.sh")) == s  # not there: from its folder
    assert isinstance(settings.SCHEMA_FILE, Path) and settings.SCHEMA_FILE.is_file()


def test_a_stale_or_missing_pyc_is_compiled_as_the_import_system_does(tmp_path):
    """``_Loader.get_code`` reads a ``.pyc`` only when its header says it was compiled from the
    source as it is now; an edited source (or no ``.pyc``) is compiled, and its ``.pyc`` written."""
    from vllm_lint.cli.program import _OwnModules

    pkg = tmp_path / "vllm_lint_fixture_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    src = pkg / "mod.py"
    src.write_text("VALUE = 1\n")
    code = ("import sys, importlib\n"
            f"sys.path.insert(0, {str(tmp_path)!r})\n"
            "import vllm_lint.cli.program as program\n"
            "program._PACKAGES = frozenset(['vllm_lint_fixture_pkg'])\n"
            "sys.meta_path.insert(0, program._OwnModules())\n"
            "import vllm_lint_fixture_pkg.mod as m\n"
            "print(m.VALUE, type(m.__loader__).__name__, m.__cached__ is not None)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def value() -> str:
        return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              check=True).stdout.strip()

    assert value() == "1 _Loader True"  # no .pyc: compiled, and written
    pyc = pkg / "__pycache__" / f"mod.{sys.implementation.cache_tag}.pyc"
    assert pyc.is_file()
    assert value() == "1 _Loader True"  # read from the .pyc
    st_before = os.stat(src)
    src.write_text("VALUE = 22\n")  # a different size
    os.utime(src, ns=(st_before.st_atime_ns, st_before.st_mtime_ns))  # the same mtime
    assert value() == "22 _Loader True"
    src.write_text("VALUE = 33\n")  # the same size, another mtime
    os.utime(src, ns=(st_before.st_atime_ns, st_before.st_mtime_ns + 5 * 10**9))
    assert value() == "33 _Loader True"
    assert _OwnModules().find_spec("vllm_lint_other.x") is None


def test_a_module_loaded_by_the_own_finder_has_the_import_systems_attributes(tmp_path):
    """``_Loader.create_module`` makes the module with the ``__file__`` and ``__cached__`` the
    import system gives it (so that it does not ask for them on a new module, a dropped
    ``AttributeError`` each): a package and a module have the same attributes either way."""
    pkg = tmp_path / "vllm_lint_fixture_attrs"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("VALUE = 1\n")
    (pkg / "sub").mkdir()
    (pkg / "sub" / "__init__.py").write_text("")
    code = ("import sys\n"
            f"sys.path.insert(0, {str(tmp_path)!r})\n"
            "import vllm_lint.cli.program as program\n"
            "if sys.argv[1] == 'own':\n"
            "    program._PACKAGES = frozenset(['vllm_lint_fixture_attrs'])\n"
            "    sys.meta_path.insert(0, program._OwnModules())\n"
            "import vllm_lint_fixture_attrs.mod as m, vllm_lint_fixture_attrs.sub as sub\n"
            "for x in (sys.modules['vllm_lint_fixture_attrs'], m, sub):\n"
            "    print(sorted(k for k in vars(x) if k != '__builtins__'), x.__name__, x.__file__, x.__cached__,\n"
            "          x.__package__, x.__spec__.name, x.__spec__.origin, getattr(x, '__path__', None),\n"
            "          type(x.__loader__).__name__)\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    got = {how: subprocess.run([sys.executable, "-c", code, how], env=env, capture_output=True, text=True,
                               check=True).stdout for how in ("own", "import")}
    assert got["own"].count("_Loader") == 2  # (a module and a package: a top-level package is the import system's)
    assert got["own"].replace("_Loader", "SourceFileLoader") == got["import"]


_PATHS = st.lists(st.sampled_from(["", ".", "..", "a", "b.sh", "/", "//", "x y", "é"]), max_size=6).map("/".join)


@settings(max_examples=300, deadline=None)
@given(_PATHS)
def test_path_str_spells_a_path_as_pathlib_does(p):
    assert path_str(p) == str(Path(p))


def test_path_is_answers_as_pathlib(tmp_path):
    (tmp_path / "f").write_text("x")
    (tmp_path / "d").mkdir()
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for name in ("f", "d", "loop", "missing", "f/under", "d/../f", "bad\x00name"):
        p = str(tmp_path / name)
        assert path_is(p) == Path(p).exists(), name
        assert path_is(p, stat.S_ISREG) == Path(p).is_file(), name
        assert path_is(p, stat.S_ISDIR) == Path(p).is_dir(), name


def test_an_extension_module_or_an_unknown_package_is_left_to_the_import_system(tmp_path, monkeypatch):
    import types

    from vllm_lint.cli import program

    (tmp_path / "both.py").write_text("")
    (tmp_path / f"both{'.cpython-311-x86_64-linux-gnu'}.so").write_bytes(b"")
    (tmp_path / "plain.py").write_text("")
    fake = types.ModuleType("fixture_parent")
    fake.__path__ = [str(tmp_path)]
    monkeypatch.setitem(sys.modules, "fixture_parent", fake)
    monkeypatch.setattr(program, "_PACKAGES", frozenset(["fixture_parent"]))
    finder = program._OwnModules()
    assert finder.find_spec("fixture_parent.both") is None  # (the import system loads the .so first)
    assert finder.find_spec("fixture_parent.missing") is None
    spec = finder.find_spec("fixture_parent.plain")
    assert spec is not None and spec.origin == str(tmp_path / "plain.py")
    assert finder.find_spec("other_parent.plain") is None


def test_json_imported_with_its_expressions_left_lazy_still_works():
    code = ("from vllm_lint.record import import_json\n"
            "json = import_json()\n"
            "import json.decoder, json.encoder, json.scanner, re\n"
            "assert type(json.scanner.NUMBER_RE).__name__ == 'LazyPattern'\n"
            "assert json.loads('{\"a\": [1, 2.5e3, \"\\\\u00e9\", null]}') == {'a': [1, 2500.0, '\\u00e9', None]}\n"
            "assert json.dumps({'b': '\\u00e9', 'a': 1}, sort_keys=True) == '{\"a\": 1, \"b\": \"\\\\u00e9\"}'\n"
            "assert json.encoder.py_encode_basestring_ascii('\\u00e9') == '\"\\\\u00e9\"'\n"
            "assert json.scanner.py_make_scanner(json.JSONDecoder())('12.5', 0) == (12.5, 4)\n"
            "assert json.decoder.py_scanstring('ab\"', 0) == ('ab', 3)\n"
            "assert re.compile('x').match('x')\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "ok", out.stderr


_JSON_TEXTS = ['{"a": [1, 2.5e3, "\\u00e9", null, true, false]}', ' 1 ', '\n[1,2]\n\r\t', '', ' ', 'NaN', '-Infinity',
               'Infinity', '[1] x', '{"a":1}{', '"\\ud800"', '\ufeff1', '1e400', '-0', '"\x01"', '[' * 50000, '  \t',
               '{"a": 1,}', '"\\x"', '[1, 2', '{"b": {"c": [{}]}}', '\u00e9', '1 2', "'a'"]


def _same_as_json(text) -> None:
    import json

    from vllm_lint.record import json_loads

    def outcome(f):
        try:
            return "value", repr(f(text)), type(f(text))
        except Exception as e:  # noqa: BLE001 (the exception itself is what must agree)
            return "error", type(e), str(e)

    assert outcome(json_loads) == outcome(json.loads), text


@pytest.mark.parametrize("text", _JSON_TEXTS)
def test_json_loads_gives_what_json_loads_gives(text):
    """``record.json_loads`` (json's C scanner without the json package) agrees with ``json.loads``
    on values and on errors, for str, UTF-8 bytes, a BOM, UTF-16 and UTF-32 bytes."""
    _same_as_json(text)
    for encoding in ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-32-be"):
        try:
            _same_as_json(text.encode(encoding))
        except UnicodeEncodeError:  # (a lone surrogate)
            pass
    _same_as_json(bytearray(text.encode("utf-8", "surrogatepass")))
    for other in (b"\xff\xfe", b"\x80", b"\x00", b"\xe9", None, 12):
        _same_as_json(other)


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.floats(allow_nan=False) | st.integers() | st.text(),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=4),
                    max_leaves=12), st.sampled_from(["", " ", "\n", "\t\r", " x", "]"]))
def test_json_loads_agrees_on_any_document(value, around):
    import json

    _same_as_json(json.dumps(value) + around)
    _same_as_json(around + json.dumps(value, ensure_ascii=False, indent=2))
    _same_as_json((json.dumps(value, ensure_ascii=False) + around).encode("utf-8", "surrogatepass"))


def _by_expression(s: str):
    from vllm_lint.surface import version

    m = version._SIMPLE.fullmatch(s)
    if m is None:
        return None
    return tuple(int(x) for x in m.group(1).split(".")), (m.group(2), m.group(3), m.group(4), m.group(5))


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="v0123456789.postrcabdev\u0661\uff11", max_size=14)
       | st.from_regex(r"v?\d+(\.\d+)*(\.post\d+)?", fullmatch=True))
def test_a_plain_release_number_is_read_as_the_expression_reads_it(s):
    """``surface.version._plain`` (digits and dots, ``.postN``, without compiling ``_SIMPLE``: issue
    31's eighth pass) answers only where the expression reads no pre- or dev-release, and then
    with the expression's release and post."""
    from vllm_lint.surface.version import _plain

    got, want = _plain(s), _by_expression(s)
    if got is not None:
        release, post = got
        assert want is not None and want[0] == release, (s, got, want)
        pre, _pre_n, post_digits, dev = want[1]
        assert pre is None and dev is None and (None if post_digits is None else int(post_digits)) == post, (s, got)
    elif want is not None:  # left to the expression: a pre- or dev-release, or digits that are not ASCII
        assert want[1][0] is not None or want[1][3] is not None or not s.isascii(), (s, want)


def test_a_one_file_lint_compiles_no_version_expression(tmp_path, synth_db_path):
    (tmp_path / "run.sh").write_text("vllm serve m --max-model-len 4096\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(tmp_path / 'run.sh')!r}])\nexcept SystemExit:\n    pass\n"
            "from vllm_lint.surface import version\n"
            "assert 'fullmatch' not in vars(version._SIMPLE)\n"
            "assert version.Version('0.11.0rc1').pre == ('rc', 1) and 'fullmatch' in vars(version._SIMPLE)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_constants_targeting_keeps_are_their_modules():
    """Targeting keeps its own copy of what the modules it imports lazily define, so that no import
    statement runs per file (a ``from`` import of a module asks it for ``__path__`` each time)."""
    from vllm_lint.pipeline import repository, surroundings, targeting

    assert targeting._TRITON_MODEL_MARK == repository.TRITON_MODEL_MARK
    assert surroundings.Surroundings.called_suffixes == surroundings.CALLED_SUFFIXES
    assert surroundings.Surroundings.unpinned_install("pip install vllm\n") is surroundings._unpinned_install("pip install vllm\n")
