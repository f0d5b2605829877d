"""Structural start-up checks (issue 7): what the CLI imports, never how long it takes.

A pre-commit run pays for every module imported; heavy ones must stay behind the commands and
files that need them (benchmarks/README.md has the timings)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("requests", "libcst", "yaml", "tree_sitter", "packaging", "tomllib", "importlib.resources",
         "tempfile", "difflib", "pathspec", "concurrent.futures", "jinja2", "markdown_it")


def _imported_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint(' '.join(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True).stdout.split()
    return set(out)


def test_cli_import_is_light():
    mods = _imported_after("import vllm_lint.cli.app")
    assert not [m for m in HEAVY if m in mods]


def test_lint_of_a_shell_file_imports_no_yaml_libcst_or_requests(tmp_path, synth_db_path):
    f = tmp_path / "run.sh"
    f.write_text("vllm serve m --swap-space 4\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.app import main\n"
            f"try:\n    main(['--no-cache', {str(f)!r}], standalone_mode=False)\nexcept SystemExit:\n    pass\n")
    mods = _imported_after(code)
    assert "vllm_lint.frontends.shell" in mods  # the lint did run
    assert not [m for m in ("requests", "libcst", "yaml", "packaging", "pathspec", "importlib.resources",
                            "concurrent.futures") if m in mods]
    # records are plain classes (vllm_lint/record.py) and the model table is split by hand
    assert not [m for m in ("dataclasses", "csv") if m in mods]


def test_lint_run_builds_no_other_command(tmp_path, synth_db_path):
    """``db``, ``audit``, ``flags`` and ``rule`` are imported only when named (cli.DefaultGroup)."""
    f = tmp_path / "run.sh"
    f.write_text("vllm serve m --swap-space 4\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.app import main\n"
            f"try:\n    main(['--no-cache', {str(f)!r}], standalone_mode=False)\nexcept SystemExit:\n    pass\n")
    mods = _imported_after(code)
    assert "vllm_lint.frontends.shell" in mods
    assert not {"vllm_lint.cli.db_command", "vllm_lint.cli.audit_command", "vllm_lint.cli.flags_command", "vllm_lint.cli.site_command",
                "jinja2", "markdown_it"} & mods


def test_lazy_commands_are_listed_and_run(synth_db_path, monkeypatch):
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    assert {"lint", "db", "audit", "flags", "rule", "site"} <= set(main.list_commands(None))
    r = CliRunner().invoke(main, ["flags", "show", "--swap-space"])
    assert r.exit_code == 0 and "--swap-space" in r.output
    r = CliRunner().invoke(main, ["rule", "VL101"])
    assert r.exit_code == 0 and "VL101" in r.output


def test_program_flushes_its_output_before_the_fast_exit(tmp_path, synth_db_path):
    """``python -m vllm_lint`` (and the console script) end with os._exit: everything written must
    still arrive, with the exit code."""
    import os

    f = tmp_path / "run.sh"
    f.write_text("".join(f"vllm serve m --swap-space {i}\n" for i in range(300)))
    env = dict(os.environ, VLLM_LINT_DB=str(synth_db_path))
    out = subprocess.run([sys.executable, "-m", "vllm_lint", "--no-cache", "-t", "0.27.1", str(f)],
                         capture_output=True, text=True, env=env)
    assert out.returncode == 1, out.stderr
    assert out.stdout.count("VL101") == 300 and "Found 300 problems" in out.stdout


def test_yaml_with_only_one_word_vllm_strings_loads_no_shell_grammar(tmp_path, synth_db_path):
    """A container name or an image mentioning vllm is no command line: no tree-sitter."""
    f = tmp_path / "deploy.yaml"
    f.write_text("apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n"
                 "        - name: vllm\n          image: vllm/vllm-openai:v0.8.5\n"
                 "          args: [\"--model\", \"m\", \"--swap-space\", \"4\"]\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.app import main\n"
            f"try:\n    main(['--no-cache', {str(f)!r}], standalone_mode=False)\nexcept SystemExit:\n    pass\n")
    mods = _imported_after(code)
    assert "vllm_lint.frontends.yaml" in mods
    assert not {"vllm_lint.frontends.shell", "tree_sitter"} & mods
    # no compose service built from a Dockerfile: neither reader is imported (issue 31)
    assert not {"vllm_lint.frontends.yaml.compose_build", "vllm_lint.frontends.dockerfile_base"} & mods


def test_cached_lint_loads_no_openssl(tmp_path, synth_db_path):
    """The cache's hashes come from the BLAKE2 module: ``hashlib`` loads OpenSSL's bindings first."""
    f = tmp_path / "run.sh"
    f.write_text("vllm serve m --swap-space 4\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            f"os.environ['VLLM_LINT_CACHE_DIR'] = {str(tmp_path / 'cache')!r}\n"
            "os.environ.pop('VLLM_LINT_NO_CACHE', None)\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run([{str(f)!r}])\nexcept SystemExit:\n    pass\n")
    mods = _imported_after(code)
    assert "vllm_lint.pipeline.cache" in mods and list((tmp_path / "cache").rglob("stat-*.json"))
    assert not {"hashlib", "_hashlib"} & mods


def test_a_repository_run_forks_without_multiprocessing(tmp_path, synth_db_path):
    """Workers are forked directly (vllm_lint.pipeline.parallel): no multiprocessing or concurrent.futures,
    whose import, start-up and exit cost ~30 ms."""
    import os

    for i in range(80):
        (tmp_path / f"s{i}.sh").write_text(f"vllm serve m --swap-space {i}\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "forks = []\nreal = os.fork\nos.fork = lambda: forks.append(1) or real()\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', '-j', '2', {str(tmp_path)!r}])\nexcept SystemExit:\n    pass\n"
            "assert forks, 'no worker was forked'\n")
    if not hasattr(os, "fork"):
        return
    mods = _imported_after(code)
    assert not {"multiprocessing", "concurrent.futures"} & mods




def test_pyyaml_imports_without_compiling_its_expressions():
    """The C loader never uses ``yaml.reader.Reader.NON_PRINTABLE`` (about a third of PyYAML's
    import) nor the constructor's timestamp expression: PyYAML is imported (vllm_lint.libyaml)
    with the expressions its modules compile left to compile at first use, and ``re.compile`` is
    itself again afterwards. The pure-Python loader, the resolver's implicit tags and timestamps
    still work."""
    code = ("import re\nreal = re.compile\nimport vllm_lint.frontends.yaml\nimport yaml, yaml.reader\n"
            "from vllm_lint.record import LazyPattern\n"
            "assert re.compile is real\n"
            "p = yaml.reader.Reader.NON_PRINTABLE\n"
            "assert isinstance(p, LazyPattern), type(p)\n"
            "assert isinstance(yaml.constructor.SafeConstructor.timestamp_regexp, LazyPattern)\n"
            "assert all(isinstance(r, LazyPattern) for rs in yaml.resolver.Resolver.yaml_implicit_resolvers.values()\n"
            "           for _, r in rs)\n"
            "try:\n    yaml.load('a: \\x01', Loader=yaml.SafeLoader)\n    raise SystemExit('accepted')\n"
            "except yaml.reader.ReaderError as e:\n    assert '#x0001' in str(e)\n"
            "assert yaml.safe_load('a: [1, b]') == {'a': [1, 'b']}\n"
            "assert yaml.load('a: [1, b]', Loader=yaml.CSafeLoader) == {'a': [1, 'b']}\n"
            "got = yaml.load('a: [0x1f, 1.5e+3, yes, ~, 2001-12-14, x]', Loader=yaml.CSafeLoader)\n"
            "assert got == {'a': [31, 1500.0, True, None, __import__('datetime').date(2001, 12, 14), 'x']}, got\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_yaml_lint_runs_only_the_pyyaml_modules_the_c_parser_needs(tmp_path, synth_db_path):
    """A YAML lint composes with libyaml (vllm_lint.libyaml): PyYAML's loaders and dumpers
    (``yaml.loader``, ``yaml.dumper``, ``yaml.cyaml``) are not imported and the package's
    ``__init__`` has not run (benchmarks/README.md, issue 31's seventh pass)."""
    f = tmp_path / "deploy.yaml"
    f.write_text("containers:\n- name: v\n  image: vllm/vllm-openai:v0.10.1\n  args: [--model, m, --swap-space, '4']\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(f)!r}])\nexcept SystemExit:\n    pass\n"
            "import sys\nyaml = sys.modules['yaml']\nassert 'safe_load' not in vars(yaml)\n"
            "assert not {'yaml.loader', 'yaml.dumper', 'yaml.cyaml'} & set(sys.modules)\n"
            "try:\n    yaml.no_such_name\n    raise SystemExit('found')\nexcept AttributeError:\n    pass\n"
            "assert 'safe_load' in vars(yaml)\n")
    mods = _imported_after(code)
    assert {"vllm_lint.frontends.yaml.walk", "yaml._yaml"} <= mods  # the lint did run, with libyaml


_WHOLE_PACKAGE = (
    "import yaml\n"
    "assert yaml.safe_load('a: [1, b]') == {'a': [1, 'b']}\n"
    "assert yaml.load('a: 0x1f', Loader=yaml.CSafeLoader) == {'a': 31} and yaml.__with_libyaml__\n"
    "assert yaml.dump({'a': [1]}, Dumper=yaml.CSafeDumper) == 'a:\\n- 1\\n'\n"
    "assert 'safe_load' in dir(yaml) and yaml.__version__\n"
    "ns = {}\nexec('from yaml import *', ns)\nassert 'YAMLObject' in ns and 'CSafeLoader' in ns\n"
    "import yaml.cyaml, yaml.loader\n"
    "assert yaml.CSafeLoader is yaml.cyaml.CSafeLoader and yaml.SafeLoader is yaml.loader.SafeLoader\n"
    "from vllm_lint import libyaml\n"
    "assert sys.modules['yaml'] is yaml\n"
    "assert (libyaml.YAMLError, libyaml.ScalarNode, libyaml.Resolver) == (yaml.YAMLError, yaml.ScalarNode, yaml.resolver.Resolver)\n"
    "for bad in ('a: [', 'a: b: c', '\\x01'):\n"
    "    for load in (libyaml.load, yaml.safe_load, lambda s: yaml.load(s, Loader=yaml.CSafeLoader)):\n"
    "        try:\n            load(bad)\n            raise SystemExit(bad)\n"
    "        except yaml.YAMLError as e:\n            assert type(e).__module__.startswith('yaml.'), e\n"
    "doc = 'a: [1, 1.5, yes, ~, 2001-12-14, x]\\n'\n"
    "assert libyaml.load(doc) == yaml.load(doc, Loader=yaml.CSafeLoader)\n"
    "assert list(libyaml.load_all(doc + '---\\nb\\n')) == list(yaml.safe_load_all(doc + '---\\nb\\n'))\n"
    "assert [type(t) for t in libyaml.scan(doc)] == [type(t) for t in yaml.scan(doc, Loader=yaml.CSafeLoader)]\n"
)


def test_import_yaml_after_a_lint_gets_the_whole_package(tmp_path, synth_db_path):
    """After a lint (PyYAML's ``__init__`` not run), ``import yaml`` anywhere in the process (the
    language server, the API's caller, a plugin) gets the whole package, ``__init__`` run in the
    module the lint used, whose classes are the ones libyaml's parser raises and builds."""
    f = tmp_path / "deploy.yaml"
    f.write_text("containers:\n- name: v\n  image: vllm/vllm-openai:v0.10.1\n  args: [--model, m]\n")
    code = (f"import os, sys\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(f)!r}])\nexcept SystemExit:\n    pass\n"
            "package = sys.modules['yaml']\n" + _WHOLE_PACKAGE + "assert yaml is package\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_libyaml_uses_a_pyyaml_imported_before(tmp_path, synth_db_path):
    """A process that imported PyYAML first (whole): vllm_lint.libyaml uses that package, and a
    lint reads YAML as ever."""
    f = tmp_path / "deploy.yaml"
    f.write_text("containers:\n- name: v\n  image: vllm/vllm-openai:v0.10.1\n  args: [--model, m, --swap-space, '4']\n")
    code = (f"import os, sys\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "import yaml\nfirst = yaml\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(f)!r}])\nexcept SystemExit as e:\n    assert e.code in (0, 1), e.code\n"
            "from vllm_lint.frontends import yaml as Y\n"
            f"(la,) = Y.extract(open({str(f)!r}, 'rb').read(), 'deploy.yaml').launches\n"
            "assert la.image == 'vllm/vllm-openai:v0.10.1', la.image\n"
            + _WHOLE_PACKAGE + "assert yaml is first\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_release_finding_reads_sibling_yaml_with_the_same_pyyaml_import(tmp_path, synth_db_path):
    """A shell launch beside a workflow that names vLLM's inputs: the release finding loads the
    workflow with PyYAML, imported as the YAML front-end imports it (NON_PRINTABLE not compiled)."""
    (tmp_path / "run.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "action.yml").write_text("inputs:\n  v:\n    default: v0.8.5\nruns:\n  steps:\n"
                                         "    - run: pip install vllm==${{ inputs.v }}\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(tmp_path / 'run.sh')!r}])\nexcept SystemExit:\n    pass\n"
            "import sys\nassert 'yaml' in sys.modules\n"
            "from vllm_lint.record import LazyPattern\n"
            "assert isinstance(sys.modules['yaml.reader'].Reader.NON_PRINTABLE, LazyPattern)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_release_clue_expressions_compile_only_when_used(tmp_path, synth_db_path):
    """The release-finding modules (sibling files, comments naming a release), the batch
    scheduler's directives and the ``$VLLM_*`` expansion finder (files with a ``$`` only) keep their expressions uncompiled until a file needs them: a shell file
    with no siblings and no release comment compiles only the one that matches folder entries."""
    f = tmp_path / "run.sh"
    f.write_text("vllm serve m --swap-space 4\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.app import main\n"
            "from vllm_lint.pipeline import surroundings, targeting\n"
            "from vllm_lint.frontends import scheduler\n"
            "from vllm_lint import reach\n"
            "from vllm_lint.record import LazyPattern\n"
            "lazy = {m.__name__ + '.' + k for m in (surroundings, targeting, scheduler, reach)\n"
            "        for k, v in vars(m).items() if isinstance(v, LazyPattern)}\n"
            "assert len(lazy) >= 13, lazy\n"
            "import re\n"
            "assert not [k for m in (surroundings, targeting, scheduler, reach) for k, v in vars(m).items()\n"
            "            if isinstance(v, re.Pattern)]\n"
            f"try:\n    main(['--no-cache', {str(f)!r}], standalone_mode=False)\nexcept SystemExit:\n    pass\n"
            "used = {m.__name__ + '.' + k for m in (surroundings, targeting, scheduler, reach)\n"
            "        for k, v in vars(m).items() if isinstance(v, LazyPattern) and 'match' in vars(v)}\n"
            "assert used <= {'vllm_lint.pipeline.surroundings._DOCKERFILE'}, used  # names in the folder\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_workflow_naming_no_vllm_source_is_not_loaded(tmp_path, synth_db_path):
    """A shell launch beside a repository's own action (inputs, no vLLM checkout nor a pin filled
    from an input): the release finding screens its text and imports no PyYAML (issue 31)."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "run.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "action.yml").write_text("inputs:\n  python:\n    default: python3\nruns:\n  using: composite\n"
                                         "  steps:\n    - run: ${{ inputs.python }} -m pip install vllm-lint\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(tmp_path / 'run.sh')!r}])\nexcept SystemExit:\n    pass\n")
    mods = _imported_after(code)
    assert "vllm_lint.frontends.shell" in mods and "vllm_lint.pipeline.surroundings" in mods
    assert not {"yaml", "packaging", "packaging.version"} & mods


def test_a_dockerfile_with_a_vllm_image_imports_no_packaging(tmp_path, synth_db_path):
    """An image tag is read with the lint's own PEP 440 versions (surface.version), not packaging's."""
    f = tmp_path / "Dockerfile"
    f.write_text('FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "m", "--swap-space", "4"]\n')
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(f)!r}])\nexcept SystemExit:\n    pass\n")
    mods = _imported_after(code)
    assert "vllm_lint.knowledge.image_tags" in mods
    assert not {"packaging", "packaging.version", "yaml"} & mods
    # no shell in it (no RUN naming vLLM, an exec-form CMD): the shell front-end is not imported (issue 31)
    assert not {"vllm_lint.frontends.shell", "vllm_lint.frontends.image_builds", "vllm_lint.frontends.scheduler"} & mods


def test_one_file_lints_import_no_datetime_and_compile_no_unused_knowledge_patterns(tmp_path, synth_db_path):
    """The release-date table's ``datetime`` is imported when a tag carries a date; the fork, tag
    scheme, plugin and suppression expressions compile at first use (issue 31: ~6 % of a
    one-file run together)."""
    (tmp_path / "run.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "m", "--swap-space", "4"]\n')
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"for f in ({str(tmp_path / 'run.sh')!r}, {str(tmp_path / 'Dockerfile')!r}):\n"
            "    try:\n        _run(['--no-cache', f])\n    except SystemExit:\n        pass\n"
            "import re, sys\n"
            "from vllm_lint.knowledge import forks, image_tags, plugin_targets, release_dates\n"
            "from vllm_lint.pipeline import suppress\n"
            "from vllm_lint.frontends import commands, dockerfile\n"
            "mods = (forks, image_tags, plugin_targets, release_dates, suppress, commands, dockerfile)\n"
            "compiled = [m.__name__ + '.' + k for m in mods for k, v in vars(m).items() if isinstance(v, re.Pattern)]\n"
            "assert not compiled, compiled\n"
            "assert not [f.repo for f in forks.FORKS if isinstance(f.image, re.Pattern)]\n")
    mods = _imported_after(code)
    assert "vllm_lint.knowledge.release_dates" in mods and "vllm_lint.frontends.shell" in mods
    assert "datetime" not in mods


def test_one_file_lints_call_no_compile(tmp_path, synth_db_path):
    """No ``compile()`` on the lint path of a shell, Dockerfile or YAML file: its first call in a
    process builds the ast module's ~120 node classes (~10 M instructions, ~4 % of a one-file
    lint, issue 31). typing compiles every string it turns into a forward reference: a
    ``TypeVar``'s bound given by name, a string in a ``Union``, the annotations of a
    ``NamedTuple`` class under ``from __future__ import annotations``. (Imports from source compile
    too; those come from importlib and are not counted.)"""
    (tmp_path / "run.sh").write_text("docker build -t me/x .\nvllm serve m --swap-space 4\n")
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "m", "--swap-space", "4"]\n')
    (tmp_path / "compose.yaml").write_text("services:\n  vllm:\n    build: .\n    environment: [VLLM_LOGGING_LEVEL=DEBUG]\n"
                                           "    command: [\"--model\", \"m\", \"--swap-space\", \"4\"]\n")
    code = (f"import os, sys, builtins\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "calls = []\nreal = builtins.compile\n"
            "def compile(*a, **k):\n"
            "    if 'importlib' not in sys._getframe(1).f_code.co_filename:\n"
            "        calls.append(repr(a[0])[:40])\n"
            "    return real(*a, **k)\n"
            "builtins.compile = compile\n"
            "from vllm_lint.cli.program import _run\n"
            f"for f in ('run.sh', 'Dockerfile', 'compose.yaml'):\n"
            f"    try:\n        _run(['--no-cache', os.path.join({str(tmp_path)!r}, f)])\n"
            "    except SystemExit:\n        pass\n"
            "assert not calls, calls\n"
            "assert {'vllm_lint.frontends.image_builds', 'vllm_lint.frontends.dockerfile_base',\n"
            "        'vllm_lint.frontends.yaml.compose_build'} <= set(sys.modules)  # (the service is built: read)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_one_file_lints_leave_unused_knowledge_unimported(tmp_path, synth_db_path):
    """Modules a launch needs only in some cases are imported then (issue 31, ~0.4 M instructions
    each): the dates of dated tags, a comment naming a release, VL407's computed defaults and
    parameter widths (a model and GPUs known), the findings of a release known only by its bounds."""
    (tmp_path / "run.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "Dockerfile").write_text('FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "m", "--swap-space", "4"]\n')
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"for f in ({str(tmp_path / 'run.sh')!r}, {str(tmp_path / 'Dockerfile')!r}):\n"
            "    try:\n        _run(['--no-cache', f])\n    except SystemExit:\n        pass\n")
    mods = _imported_after(code)
    assert {"vllm_lint.knowledge.image_tags", "vllm_lint.rules.vl407_model_does_not_fit"} <= mods
    assert not {"vllm_lint.knowledge.release_dates", "vllm_lint.knowledge.stated", "vllm_lint.knowledge.params",
                "vllm_lint.knowledge.computed_defaults", "vllm_lint.pipeline.unknown_release"} & mods


def _console_code(db, argv, tail: str = "", head: str = "") -> str:
    """A console run (``cli.program.console``, as the installed script runs it) of ``argv``: ``head``
    run just before it, ``tail`` at its fast exit (``_exit_now``), whose output it may print."""
    return (f"import os, sys, gc\nos.environ['VLLM_LINT_DB'] = {str(db)!r}\n"
            "sys.modules.setdefault('coverage', None)  # (a normal exit: the report below prints)\n"
            "from vllm_lint.cli import program\n" + head +
            "real_exit = program._exit_now\n"
            "def at_exit(code):\n"
            + "".join(f"    {line}\n" for line in (tail or "pass").splitlines()) +
            "    sys.stdout.flush()\n"
            "    real_exit(code)\n"
            "program._exit_now = at_exit\n"
            f"sys.argv = ['vllm-lint', *{list(argv)!r}]\n"
            "program.console()\n")


def test_a_one_file_lint_runs_no_garbage_collection(tmp_path, synth_db_path):
    """Start-up runs no young collection (the console's threshold, ``record.START_YOUNG``, until
    ``record.settle_collections``): what it allocates lives to the end (issue 31's eighth pass, 2 %
    of a one-file lint); the lint of the file itself (frozen before it, as every lint) none either.
    After start-up the young threshold is ``record.YOUNG`` again, what start-up made frozen."""
    (tmp_path / "run.sh").write_text("vllm serve m --swap-space 4\n")
    (tmp_path / "deploy.yaml").write_text("containers:\n- name: v\n  image: vllm/vllm-openai:v0.10.1\n"
                                          "  args: [--model, m, --swap-space, '4']\n")
    for name in ("run.sh", "deploy.yaml"):
        code = _console_code(synth_db_path, ["--no-cache", name],
                             "print('RUNS', len(runs), 'THRESHOLD', gc.get_threshold()[0], 'FROZEN', gc.get_freeze_count() > 0)",
                             "from vllm_lint import record  # (imported, maybe compiled, before the console raises the threshold)\n"
                             "runs = []\ngc.callbacks.append(lambda phase, info: runs.append(phase))\n")
        for _ in range(2):  # (the first may compile a module edited since its .pyc, before the console starts)
            out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True).stdout
        assert "RUNS 0 THRESHOLD 10000 FROZEN False" in out, (name, out)


def test_settle_collections_undoes_only_the_console_threshold():
    code = ("import gc\nfrom vllm_lint import record\n"
            "gc.set_threshold(700, 10, 10)\nrecord.settle_collections()\n"
            "assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0  # an API caller's\n"
            "record.fewer_young_collections()\nassert gc.get_threshold()[0] == record.START_YOUNG\n"
            "record.settle_collections()\n"
            "assert gc.get_threshold() == (record.YOUNG, 10, 10) and gc.get_freeze_count() > 0\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_one_file_lints_import_none_of_the_standard_modules_they_do_without(tmp_path, synth_db_path):
    """A one-file lint imports no ``json`` package (the database is decoded by ``_json``'s scanner:
    ``record.json_loads``), no ``contextlib``, ``importlib`` or ``warnings`` (``record.import_module``,
    ``inputs.recording``, the shell grammar's bindings loaded by the import system's own functions),
    no ``array`` (the run's results) and, for a shell file without batch directives, no ``shlex``:
    ~10 M instructions together (issue 31's eighth pass). A Python file imports ``contextlib``
    (through ``ast``) and ``warnings``. (An editable install's finder imports some at start-up: they are forgotten
    first, and any import of them seen.)"""
    watched = ("json", "json.decoder", "contextlib", "importlib", "importlib.util", "warnings", "array", "shlex")
    head = ("class Watch:\n    seen = []\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            f"        if name in {watched!r}:\n            self.seen.append(name)\n"
            f"for n in {watched!r}:\n    sys.modules.pop(n, None)\n"
            "sys.meta_path.insert(0, Watch())\n")
    tail = "print('MODULES', *sorted(sys.modules))\nprint('ASKED', *Watch.seen)"

    def asked(name: str) -> set[str]:
        code = _console_code(synth_db_path, ["--no-cache", name], tail, head)
        out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True).stdout
        mods = set(out.split("MODULES ", 1)[1].split("\n", 1)[0].split())
        assert "vllm_lint.pipeline.engine" in mods and "_json" in mods, name  # (the lint ran, read the database)
        return set(out.split("ASKED", 1)[1].split("\n", 1)[0].split())

    files = {"run.sh": "vllm serve m --swap-space 4\n",
             "Dockerfile": 'FROM vllm/vllm-openai:v0.10.1\nCMD ["--model", "m", "--swap-space", "4"]\n',
             "deploy.yaml": "containers:\n- name: v\n  image: vllm/vllm-openai:v0.10.1\n  args: [--model, m, --swap-space, '4']\n",
             "serve.py": "from vllm import LLM\nLLM(model='m', swap_space=4)\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        got = asked(name)
        # (a Python file's parse: ast imports contextlib, its SyntaxWarnings are silenced with warnings)
        assert got <= ({"contextlib", "warnings"} if name == "serve.py" else set()), (name, got)
    (tmp_path / "job.sh").write_text("#!/bin/bash\n#SBATCH --gres=gpu:4\nvllm serve m -tp 4\n")
    assert "shlex" in asked("job.sh")  # (the directives are read)


def test_one_file_lints_leave_rare_words_and_expressions_alone(tmp_path, synth_db_path):
    """VL112's environment-variable combinations (``knowledge.launch_env``) and VL101's fix wording (``surface.wording``) are imported when used; the GPU product and
    plugin-install expressions compile at first use (issue 31's eighth pass)."""
    (tmp_path / "run.sh").write_text("vllm serve m --max-model-len 4096\n")
    code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
            "from vllm_lint.cli.program import _run\n"
            f"try:\n    _run(['--no-cache', {str(tmp_path / 'run.sh')!r}])\nexcept SystemExit:\n    pass\n"
            "from vllm_lint.knowledge import hardware\nfrom vllm_lint.surface import plugins\n"
            "lazy = [hardware._RTX_AMPERE, hardware._RTX_NUMBER, plugins._INSTALL]\n"
            "assert not [p for p in lazy if 'search' in vars(p)], lazy\n")
    mods = _imported_after(code)
    assert "vllm_lint.rules.vl112_refused_option_combination" in mods and "vllm_lint.frontends.shell" in mods
    assert not {"vllm_lint.knowledge.launch_env", "vllm_lint.surface.wording"} & mods


def test_one_file_lints_leave_the_front_end_readers_they_do_not_need_unimported(tmp_path, synth_db_path):
    """The Python front-end's readers of process calls, wrappers, the environment, other tools'
    calls and containers configured by variables, and the shell's reader of ``docker build`` lines,
    are imported by the first file that needs them (issue 31's ninth pass, ~2.6 M instructions); so
    are the environment rules' helpers (``rules._env_status``) by a launch that sets a variable."""
    readers = {"vllm_lint.frontends.python.processes", "vllm_lint.frontends.python.wrappers",
               "vllm_lint.frontends.python.environ", "vllm_lint.frontends.python.foreign",
               "vllm_lint.frontends.python.env_launches", "vllm_lint.frontends.image_builds",
               "vllm_lint.rules._env_status"}
    files = {"serve.py": "from vllm import LLM\nLLM(model='m', tensor_parallel_size=2, swap_space=4)\n",
             "run.sh": "vllm serve m --swap-space 4\n",
             "proc.py": "import os, subprocess\nos.environ['VLLM_USE_V1'] = '1'\n"
                        "subprocess.run(['vllm', 'serve', 'm', '--swap-space', '4'])\n",
             "build.sh": "docker build -t my/vllm .\ndocker run my/vllm --model m\n"}

    def imported(name: str) -> set[str]:
        code = (f"import os\nos.environ['VLLM_LINT_DB'] = {str(synth_db_path)!r}\n"
                "from vllm_lint.cli.program import _run\n"
                f"try:\n    _run(['--no-cache', {str(tmp_path / name)!r}])\nexcept SystemExit:\n    pass\n")
        return _imported_after(code)

    for name, text in files.items():
        (tmp_path / name).write_text(text)
    mods = imported("serve.py")
    assert "vllm_lint.frontends.python.engine_args" in mods  # (the lint read the call)
    assert not readers & mods, readers & mods
    mods = imported("run.sh")
    assert "vllm_lint.frontends.shell" in mods and not readers & mods, readers & mods
    # (the files that need them import them)
    assert {"vllm_lint.frontends.python.processes", "vllm_lint.frontends.python.environ",
            "vllm_lint.rules._env_status"} <= imported("proc.py")
    assert "vllm_lint.frontends.image_builds" in imported("build.sh")
