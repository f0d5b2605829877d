"""The work a lint of a tree does, counted (issue 31, the tree targets): each piece of per-file
work runs once per file, and what belongs to a folder or the repository once per folder or
repository, however many files ask. Counts, never wall-clock times."""

from __future__ import annotations

import contextlib
import io
import os


def _tree(root) -> list[str]:
    """A small repository: scripts, manifests, Python, a Dockerfile, files of no format, a README."""
    (root / ".git").mkdir()
    names = []
    for i in range(6):
        d = root / f"svc{i % 3}"
        d.mkdir(exist_ok=True)
        (d / f"run{i}.sh").write_text(f"#!/bin/sh\nvllm serve facebook/opt-125m --max-model-len {1024 * (i + 1)}\n")
        (d / f"k{i}.yaml").write_text(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n    - name: vllm\n"
            f"      image: vllm/vllm-openai:latest\n      args: [\"--model\", \"m\", \"--swap-space\", \"{i}\"]\n")
        (d / f"other{i}.yaml").write_text("kind: ConfigMap\ndata:\n  a: b\n")
        (d / f"tool{i}.py").write_text("import os\nprint(os.getcwd())\n")
        (d / f"notes{i}.txt").write_text("nothing here\n")
        (d / f"plain{i}").write_text("#!/bin/sh\necho hi\n")
        names += [f"svc{i % 3}/{n}" for n in (f"run{i}.sh", f"k{i}.yaml", f"other{i}.yaml", f"tool{i}.py",
                                               f"notes{i}.txt", f"plain{i}")]
    (root / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.6.0\nCMD [\"vllm\", \"serve\", \"m\"]\n")
    (root / "README.md").write_text("# a repo\n")
    return names + ["Dockerfile", "README.md"]


def test_a_file_name_is_read_for_its_format_once(synth_db_path, tmp_path, monkeypatch):
    """Discovery finds the format a file's name says; screening, the cache's verdicts and the
    warm-up before forking read it from the target rather than from the name again (the second
    pass measured two to three detections per file)."""
    from vllm_lint.cli.lint_command import execute, parse_argv
    from vllm_lint.frontends import base
    from vllm_lint.pipeline import discovery

    files = _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    calls: list[str] = []
    real = base.format_by_filename

    def counted(name):
        calls.append(name)
        return real(name)

    monkeypatch.setattr(discovery, "format_by_filename", counted)
    values = parse_argv(["--no-cache", "-j", "1", "--exit-zero", "--output-format", "json", "."])
    assert values is not None
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            execute(**values)
        except SystemExit:
            pass
    assert sorted(calls) == sorted(os.path.basename(f) for f in files)


def test_a_sibling_file_is_read_once_for_the_runners_and_the_plugin_evidence(synth_db_path, tmp_path, monkeypatch):
    """The release finding reads a launch's folder for its runners (``surroundings``) and for a
    platform plugin's release (``plugin_evidence``): a file whose bytes hold no plugin word is read
    by the first only; a file that names a plugin is read by both."""
    from vllm_lint.pipeline import plugin_evidence, surroundings
    from vllm_lint.pipeline.discovery import Target
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    (tmp_path / ".git").mkdir()
    (tmp_path / "run.sh").write_text("#!/bin/sh\nvllm serve facebook/opt-125m --swap-space 4\n")
    for i in range(5):
        (tmp_path / f"cm{i}.yaml").write_text(f"kind: ConfigMap\ndata:\n  k: v{i}\n")
    (tmp_path / "Dockerfile").write_text("FROM python:3.11\nRUN echo hi\n")
    (tmp_path / "npu.yaml").write_text("kind: Pod\nspec:\n  containers:\n  - image: quay.io/ascend/vllm-ascend:v0.9.1\n")
    reads: list[str] = []
    for module in (surroundings, plugin_evidence):
        real = module.read_regular
        monkeypatch.setattr(module, "read_regular", lambda p, n, real=real: reads.append(os.path.basename(p)) or real(p, n))
    linter = Linter(Database(synth_db_path), Settings(), select_rules([], []))
    res = linter.lint_file(Target(str(tmp_path / "run.sh"), True))
    assert res.read
    assert sorted(n for n in set(reads) if reads.count(n) > 1) == ["npu.yaml"]
    assert {f"cm{i}.yaml" for i in range(5)} | {"Dockerfile"} <= set(reads)


def test_the_files_after_a_folders_first_launch_are_read_once(synth_db_path, tmp_path, monkeypatch, capsys):
    """The runners' reading of a launch's folder reads its manifests when the folder's first launch
    asks; the linter takes the bytes of those that come after that launch in the walk rather than
    reading them again, and reads the others itself (its own, and those before the launch). What is read ahead is dropped when the walk leaves the folder, and the
    output is the one of a run that reads every file itself."""
    from vllm_lint.cli.lint_command import execute, parse_argv
    from vllm_lint import fsutil
    from vllm_lint.pipeline import surroundings

    (tmp_path / ".git").mkdir()
    for d in ("svc", "svc/sub", "zz"):
        (tmp_path / d).mkdir(exist_ok=True)
    (tmp_path / "svc" / "0-before.yaml").write_text("kind: ConfigMap\ndata:\n  k: v\n")
    (tmp_path / "svc" / "a-run.sh").write_text("#!/bin/sh\nvllm serve facebook/opt-125m --swap-space 4\n")
    for i in range(6):
        (tmp_path / "svc" / f"cm{i}.yaml").write_text(f"kind: ConfigMap\ndata:\n  k: v{i}\n")
    (tmp_path / "svc" / "pod.yaml").write_text(
        "kind: Pod\nspec:\n  containers:\n    - name: vllm\n      image: vllm/vllm-openai:v0.6.0\n"
        "      args: [\"--model\", \"m\", \"--swap-space\", \"2\"]\n")
    (tmp_path / "svc" / "skipped.yaml").write_text("kind: ConfigMap\n")
    (tmp_path / ".gitignore").write_text("skipped.yaml\n")  # (read ahead, never linted: dropped)
    (tmp_path / "svc" / "sub" / "run.sh").write_text("#!/bin/sh\nvllm serve facebook/opt-125m --swap-space 8\n")
    (tmp_path / "zz" / "other.yaml").write_text("kind: ConfigMap\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    opened: list[str] = []
    real_open = os.open

    def counted_open(path, *a, **k):
        fd = real_open(path, *a, **k)
        opened.append(os.path.relpath(path, tmp_path) if os.path.isabs(path) else os.path.normpath(path))
        return fd

    def lint() -> str:
        values = parse_argv(["--no-cache", "-j", "1", "--exit-zero", "--output-format", "json", "."])
        assert values is not None
        opened.clear()
        monkeypatch.setattr(fsutil.os, "open", counted_open)
        try:
            execute(**values)
        except SystemExit:
            pass
        finally:
            monkeypatch.setattr(fsutil.os, "open", real_open)
        return capsys.readouterr().out

    made: list = []
    real_init = surroundings.Surroundings.__init__
    monkeypatch.setattr(surroundings.Surroundings, "__init__",
                        lambda self, *a, **k: made.append(self) or real_init(self, *a, **k))
    out = lint()
    once = [f"svc/cm{i}.yaml" for i in range(6)] + ["svc/pod.yaml"]
    assert [n for n in once if opened.count(n) != 1] == []
    assert opened.count("svc/0-before.yaml") == 2  # (linted before the folder's first launch asked)
    assert made[-1].ahead == {}  # (svc/skipped.yaml, read ahead and never linted, went with its folder)
    monkeypatch.setattr(surroundings, "AHEAD_BYTES", 0)  # nothing read ahead: every file read twice
    assert lint() == out
    assert [n for n in once if opened.count(n) != 2] == []
    # a linter given the bytes it checks (the language server, the API) reads nothing ahead
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    monkeypatch.setattr(surroundings, "AHEAD_BYTES", 1 << 20)
    linter = Linter(Database(synth_db_path), Settings(), select_rules([], []))
    run = tmp_path / "svc" / "a-run.sh"
    assert linter.check(str(run), run.read_bytes(), "auto").analysis.launches
    assert linter.targeting.surroundings.ahead == {}


def test_a_tag_is_read_once_per_run(synth_db_path, tmp_path, monkeypatch):
    """Many launches naming the same image tag (a tree of manifests) read it against the database
    once: ``Targeting`` keeps each (tag, image) reading for the run."""
    from vllm_lint.pipeline import targeting
    from vllm_lint.pipeline.discovery import Target
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    for i in range(8):
        (tmp_path / f"k{i}.yaml").write_text(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n    - name: vllm\n"
            f"      image: vllm/vllm-openai:v0.6.0\n      args: [\"--model\", \"m\", \"--swap-space\", \"{i}\"]\n")
    asked: list[tuple] = []
    real = targeting.read_hint
    monkeypatch.setattr(targeting, "read_hint", lambda db, text, image=None: asked.append((text, image)) or real(db, text, image))
    linter = Linter(Database(synth_db_path), Settings(), select_rules([], []))
    results = [linter.lint_file(Target(str(tmp_path / f"k{i}.yaml"), True)) for i in range(8)]
    assert all(r.read for r in results)
    assert asked and len(asked) == len(set(asked))


def _names(refs, rel: str) -> bool:
    """Whether a runner's words name the file at ``rel`` (the test each runner was put to)."""
    for ref in refs:
        r = ref[2:] if ref.startswith("./") else ref
        if r == rel or (r.startswith("/") and (r.rsplit("/", 1)[-1] == rel if "/" not in rel else r.endswith("/" + rel))):
            return True
    return False


def test_a_folders_runners_are_looked_up_by_the_paths_they_name_as_each_was_tested():
    """The runner that names a file is found in the folder's index (built once), and it is the
    runner a test of every runner in turn finds (first in the folder's order; a chart's for a
    folder above)."""
    import random

    from vllm_lint.pipeline.surroundings import Named, _Runner, _RunnerIndex

    rng = random.Random(7)
    words = ["serve.sh", "./serve.sh", "/app/serve.sh", "scripts/serve.sh", "./scripts/serve.sh",
             "/opt/x/scripts/serve.sh", "/serve.sh", "run.py", "/app/run.py", "sub/run.py", "/a/sub/run.py",
             "other.yaml", "*chart*", ".//app/serve.sh"]
    rels = ["serve.sh", "scripts/serve.sh", "run.py", "sub/run.py", "x/sub/run.py", "other.yaml", "none.sh"]
    for _ in range(300):
        runners = [_Runner(Named(rng.choice(["0.8.5", "0.9.2"]), "why"), frozenset(rng.sample(words, rng.randint(0, 4))))
                   for _ in range(rng.randint(0, 8))]
        index = _RunnerIndex(runners)
        for rel in rels:
            for chart in (False, True):
                expected = next((k for k, r in enumerate(runners)
                                 if (chart and "*chart*" in r.refs) or _names(r.refs, rel)), None)
                assert index.first_naming(rel, chart=chart) == expected, (rel, chart, [sorted(r.refs) for r in runners])
        texts = {r.named.text for r in runners}
        assert index.only == (next(r.named for r in reversed(runners)) if len(texts) == 1 else None)


def test_a_launch_below_a_folder_of_runners_does_not_test_each_runner(synth_db_path, tmp_path, monkeypatch):
    """Scripts below a folder of manifests: each script's lookup in the folder above costs the
    same whatever the number of manifests there (the folder's index, made once), where every
    manifest's words were tested for every script."""
    from vllm_lint.pipeline import surroundings
    from vllm_lint.pipeline.discovery import Target
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    made: list[int] = []
    real = surroundings._RunnerIndex.__init__

    def counting(self, runners):
        made.append(len(runners))
        real(self, runners)

    monkeypatch.setattr(surroundings._RunnerIndex, "__init__", counting)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "deploy" / "scripts").mkdir(parents=True)
    for i in range(40):
        run = "scripts/s7.sh" if i == 0 else f"/app/run{i}.sh"
        (root / "deploy" / f"m{i}.yaml").write_text(
            f"kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: a\n"
            f"          image: vllm/vllm-openai:v0.{6 + i % 4}.0\n          command: [\"{run}\"]\n")
        (root / "deploy" / "scripts" / f"s{i}.sh").write_text("#!/bin/sh\nvllm serve facebook/opt-125m\n")
    linter = Linter(Database(synth_db_path), Settings(), select_rules([], []))
    for i in range(40):
        linter.lint_file(Target(str(root / "deploy" / "scripts" / f"s{i}.sh"), True))
    # every folder indexed once (deploy/scripts, deploy and the root), however many scripts asked
    assert sorted(made) == [0, 0, 40]
    pinned = linter.targeting.pin_for(str(root / "deploy" / "scripts" / "s7.sh"))
    assert pinned is not None and "m0.yaml (image vllm/vllm-openai:v0.6.0)" in pinned[1]
    assert linter.targeting.pin_for(str(root / "deploy" / "scripts" / "s8.sh")) is None


def test_the_image_a_script_builds_is_read_once_per_file_not_per_launch(synth_db_path, tmp_path, monkeypatch):
    """A script that builds its image (``docker build -f Dockerfile``) and starts many launches:
    the Dockerfile it builds is found from the script's text once, not once per launch (each
    decoded and scanned the whole text again)."""
    from vllm_lint.pipeline import surroundings
    from vllm_lint.pipeline.discovery import Target
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_rules
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    (tmp_path / ".git").mkdir()
    (tmp_path / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.8.5\n")
    lines = ["#!/bin/bash", "docker build -t img -f Dockerfile ."]
    lines += [f"vllm serve facebook/opt-125m --port {8000 + i}" for i in range(12)]
    (tmp_path / "many.sh").write_text("\n".join(lines) + "\n")
    asked: list[str] = []
    real = surroundings.Surroundings.built_for
    monkeypatch.setattr(surroundings.Surroundings, "built_for",
                        lambda self, d, text: asked.append(d) or real(self, d, text))
    linter = Linter(Database(synth_db_path), Settings(), select_rules([], []))
    res = linter.lint_file(Target(str(tmp_path / "many.sh"), True))
    assert res.read and len(asked) == 1


def test_a_walked_file_without_a_launch_makes_no_result(synth_db_path, tmp_path, monkeypatch, capsys):
    """A walked file the pre-filter says holds no launch (most of a repository) is read, screened
    and counted without a ``FileResult`` made for it when the run keeps only its counts; the output
    is the one of a run that makes a result for every file. With ``--verbose`` (which names such
    files) each file has its result."""
    from vllm_lint.cli.lint_command import execute, parse_argv
    from vllm_lint.pipeline import engine
    from vllm_lint.pipeline.results import RunResults

    _tree(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VLLM_LINT_DB", str(synth_db_path))
    made: list[str] = []
    real = engine.FileResult.__init__

    def counted(self, path, *a, **k):
        made.append(path)
        real(self, path, *a, **k)

    def lint(*extra) -> str:
        values = parse_argv(["--no-cache", "-j", "1", "--exit-zero", *extra, "."])
        assert values is not None
        try:
            execute(**values)
        except SystemExit:
            pass
        return capsys.readouterr().out

    monkeypatch.setattr(engine.FileResult, "__init__", counted)
    light = lint()
    assert sorted(made) == sorted([f"svc{i % 3}/run{i}.sh" for i in range(6)] + [f"svc{i % 3}/k{i}.yaml" for i in range(6)]
                                  + [f"svc{i % 3}/notes{i}.txt" for i in range(6)] + ["Dockerfile"])
    made.clear()
    lint("--verbose")
    assert len(made) == 6 * 6 + 2
    monkeypatch.setattr(RunResults, "unread_counts", lambda self: None)  # a result for every file
    made.clear()
    assert lint() == light
    assert len(made) == 6 * 6 + 2


def test_the_callers_expressions_run_on_the_lines_that_can_hold_a_match():
    """The callers' index reads a script's paths and ``cd`` folders on the lines that hold a script
    ending or ``cd`` / ``pushd`` only (``callers._on_lines``): the same matches, offsets and groups
    as the expressions over the whole text, on random texts of the words they match."""
    import random

    from vllm_lint.pipeline import callers

    rng = random.Random(31)
    words = ["cd ", "pushd ", "\n", "\r\n", " ", "x.sh", ".sh", "./a/b.bash", "$D/", "${X}", "*", "/", "run.slurm",
             "q.sbatch", "then", "do", ";", "&&", "(", "'", '"', "é", "\t", "..", "a", "-", "cd\n", "x.shy", "\u2028",
             "builtin ", "#", "=", "DIR=jobs\n"]
    for _ in range(5000):
        text = "".join(rng.choice(words) for _ in range(rng.randint(0, 40)))
        for pattern, held in ((callers._PATH_WORD, callers._SCRIPT_ENDINGS), (callers._CD, callers._CD_WORDS)):
            whole = [(m.span(), m.groups()) for m in pattern.finditer(text)]
            assert [(m.span(), m.groups()) for m in callers._on_lines(pattern, text, held)] == whole, text
