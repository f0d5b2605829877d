"""Issue 28, three more sources of the release a launch runs on (README "Which release is
checked"): vLLM built from its own source at a tag (knowledge/source_builds.py), the file's own
install before the launch in every form a guide, notebook or script writes it, and the scripts
of the repository that run a script after installing a release (pipeline/callers.py). The
synthetic database has 0.8.5, 0.10.0 and 0.27.1 (the newest)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vllm_lint.pipeline.engine import Linter
from vllm_lint.pipeline.targeting import Targeting
from vllm_lint.settings import Settings


from repo_tree import put, repo  # noqa: E402,F401  (the fixture and the helper)


def targets(db, p: Path) -> list[tuple[str, str]]:
    return [(la.target, la.target_source) for la in Linter(db, Settings(), []).analyse(p, p.read_bytes()).launches]


SCRIPT = "#!/bin/sh\nvllm serve m --max-model-len 4096\n"


# ----------------------------------------------------------------------------- built from source


def test_a_dockerfile_that_builds_vllm_at_a_tag_runs_that_release(synth_db, repo):
    p = put(repo, "Dockerfile.cpu", "ARG VERSION=0.8.5\nFROM ubuntu:22.04\nARG VERSION\n"
                                    "RUN git clone https://github.com/vllm-project/vllm.git && \\\n"
                                    "    cd vllm && git checkout v${VERSION} && pip install -e .\n"
                                    'ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n')
    ((release, why),) = targets(synth_db, p)
    assert release == "0.8.5"
    assert why == ("vLLM built from its source (line 5: git checkout v${VERSION} with VERSION=0.8.5 (line 1) "
                   "of vLLM's repository) at v0.8.5")


@pytest.mark.parametrize("build", [
    "git clone --branch v0.10.0 https://github.com/vllm-project/vllm && pip install -e vllm",
    "pip install git+https://github.com/vllm-project/vllm@v0.10.0",
    'uv pip install "vllm@git+https://github.com/vllm-project/vllm.git@v0.10.0"',
])
def test_a_script_that_builds_vllm_at_a_tag_before_its_launch(synth_db, repo, build):
    p = put(repo, "run.sh", f"#!/bin/bash\n{build}\nvllm serve m --max-model-len 4096\n")
    ((release, why),) = targets(synth_db, p)
    assert release == "0.10.0" and why.startswith("vLLM built from its source (line 2: ")


def test_a_fork_built_from_source_is_not_read_as_vllms_own_build(synth_db, repo):
    # (a fork's tag that names an upstream release is read by knowledge/forks.py, said as the fork's build)
    p = put(repo, "run.sh", "#!/bin/bash\ngit clone --branch v0.8.5 https://github.com/ROCm/vllm\nvllm serve m\n")
    ((release, why),) = targets(synth_db, p)
    assert release == "0.8.5" and "vLLM built from its source" not in why and "fork ROCm/vllm" in why


def test_the_files_own_pin_comes_before_its_source_build(synth_db, repo):
    p = put(repo, "run.sh", "#!/bin/bash\npip install vllm==0.8.5\n"
                            "git clone -b v0.10.0 https://github.com/vllm-project/vllm\nvllm serve m\n")
    assert targets(synth_db, p) == [("0.8.5", "pip-install 0.8.5")]


def test_a_sibling_dockerfile_or_requirement_that_builds_vllm_at_a_tag(synth_db, repo):
    put(repo, "a/Dockerfile", "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04\nARG VLLM_REF=v0.8.5\n"
                              "RUN git clone https://github.com/vllm-project/vllm /src && cd /src && git checkout ${VLLM_REF}\n")
    c = Targeting(synth_db, Settings()).choose(put(repo, "a/serve.sh", SCRIPT), [])
    assert c.release == "0.8.5" and c.why.startswith("Dockerfile (vLLM built from its source at line 3: git checkout")
    put(repo, "b/requirements.txt", "torch\nvllm @ git+https://github.com/vllm-project/vllm.git@v0.10.0\n")
    c = Targeting(synth_db, Settings()).choose(put(repo, "b/serve.sh", SCRIPT), [])
    assert (c.release, c.why) == ("0.10.0", "requirements.txt (vLLM built from its source at line 2: "
                                            "pip install git+...vllm@v0.10.0)")


def test_a_tag_newer_than_the_database_is_said_and_reported_where_it_is_written(synth_db_path, repo, run_cli):
    p = put(repo, "Dockerfile", "ARG VLLM_VERSION=0.34.0\nFROM ubuntu:22.04\nARG VLLM_VERSION\n"
                                "RUN git clone -b v${VLLM_VERSION} https://github.com/vllm-project/vllm\n"
                                'CMD ["vllm", "serve", "m"]\n')
    r = run_cli("--output-format", "json", "--select", "VL004", str(p))
    (d,) = json.loads(r.stdout)
    assert (d["code"], d["location"]["row"], d["target_version"]) == ("VL004", 1, "0.27.1")
    assert "0.34.0" in d["message"]


# ----------------------------------------------------------------------------- the file's own install


def test_a_guides_install_in_an_untagged_block_before_its_launch(synth_db, repo):
    """An mkdocs tab's untagged block that installs vllm (no launch in it) names the guide's release."""
    p = put(repo, "docs/guide.md", "1. Create an environment.\n\n    === \"8B\"\n\n         ```\n"
                                   "         python3 -m venv env\n"
                                   "         python3 -m pip install vllm==0.8.5 huggingface-hub==0.23.2\n"
                                   "         ```\n\n1. Start the server.\n\n    ```\n"
                                   "    python3 -m vllm.entrypoints.openai.api_server --model=m --port=8000\n    ```\n")
    assert targets(synth_db, p) == [("0.8.5", "pip-install 0.8.5")]


@pytest.mark.parametrize("install", [
    "pip install vllm==0.8.5", "pip3 install -U vllm==0.8.5", "python -m pip install 'vllm==0.8.5'",
    "uv pip install vllm==0.8.5", "/opt/venv/bin/pip install vllm[all]==0.8.5", "$ pip install vllm==0.8.5",
])
def test_an_untagged_install_block_in_every_spelling(synth_db, repo, install):
    p = put(repo, "README.md", f"# Serve\n\n```\n{install}\n```\n\nThen:\n\n```bash\nvllm serve m\n```\n")
    assert [r for r, _ in targets(synth_db, p)] == ["0.8.5"]


def test_an_untagged_block_that_mentions_vllm_without_installing_it_says_nothing(synth_db, repo):
    p = put(repo, "README.md", "# Serve\n\n```\npip install vllm-client==0.8.5\n```\n\n```bash\nvllm serve m\n```\n")
    assert [r for r, _ in targets(synth_db, p)] == ["0.27.1"]


def test_an_install_shown_inline_in_the_prose_before_the_launch(synth_db, repo):
    p = put(repo, "guide.md", "# Guide\n\n## Install\n\nRun `pip install vllm==0.8.5` in a fresh environment.\n\n"
                              "## Configure\n\n```bash\nexport HF_TOKEN=x\n```\n\n## Serve\n\n```bash\n"
                              "vllm serve m --max-model-len 4096\n```\n")
    assert targets(synth_db, p) == [("0.8.5", "pip-install 0.8.5")]
    data = p.read_bytes()
    la = Linter(synth_db, Settings(), []).analyse(p, data).launches[0]
    assert data[la.choice.hint.span.start:la.choice.hint.span.end] == b"0.8.5"


@pytest.mark.parametrize("prose", [
    "If it fails, downgrade with `pip install vllm==0.8.5`.",  # after the launch: advice, not what it runs
    "A range says less: `pip install \"vllm>=0.8.5\"`.",
    "Our client: `pip install vllm-client==0.8.5`.",
])
def test_what_an_inline_install_does_not_name(synth_db, repo, prose):
    before, after = (prose, "") if "downgrade" not in prose else ("", prose)
    p = put(repo, "guide.md", f"# Guide\n\n{before}\n\n```bash\nvllm serve m\n```\n\n{after}\n")
    assert [r for r, _ in targets(synth_db, p)] == ["0.27.1"]


def test_a_notebooks_install_cell_before_its_launch(synth_db, repo):
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": [src]}
             for src in ("!pip install -q vllm==0.8.5\n", "!vllm serve m --max-model-len 4096\n")]
    p = put(repo, "serve.ipynb", json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    assert [r for r, _ in targets(synth_db, p)] == ["0.8.5"]


@pytest.mark.parametrize("line", [
    "module load vllm/0.8.5",
    "module purge && module load NRIS/GPU vLLM/0.8.5-foss-2024a-CUDA-12.6.0",
    "ml vllm/v0.8.5",
    "module switch vllm/0.10.0 vllm/0.8.5",
])
def test_an_hpc_module_the_script_loads(synth_db, repo, line):
    p = put(repo, "jobs/serve.sbatch", f"#!/bin/bash\n#SBATCH --gpus=1\n{line}\nvllm serve m\n")
    assert targets(synth_db, p) == [("0.8.5", "module-load 0.8.5")]


@pytest.mark.parametrize("line", ["module load vllm", "module load vllm-tools/0.8.5", "# module load vllm/0.8.5",
                                  "echo module load vllm/0.8.5", "module avail vllm/0.8.5"])
def test_what_names_no_module_release(synth_db, repo, line):
    p = put(repo, "jobs/serve.sbatch", f"#!/bin/bash\n{line}\nvllm serve m\n")
    assert [r for r, _ in targets(synth_db, p)] == ["0.27.1"]


def test_a_scripts_own_install_is_stronger_than_a_readme_elsewhere(synth_db, repo):
    put(repo, "README.md", "# x\n\n    $ pip install vllm==0.10.0\n")
    p = put(repo, "s/run.sh", "#!/bin/bash\nsudo /usr/bin/python3 -m pip install vllm==0.8.5\nvllm serve m\n")
    assert targets(synth_db, p) == [("0.8.5", "pip-install 0.8.5")]


# ----------------------------------------------------------------------------- the scripts that run it


def test_the_runner_that_installs_a_release_then_runs_the_script(synth_db, repo):
    put(repo, "experiment_runners/run_pythia.sh", "#!/bin/bash\npip install vllm==0.8.5\nbash model_scripts/pythia.sh\n")
    put(repo, "experiment_runners/run_all.sh", "#!/bin/bash\npython -m pip install vllm==0.8.5\n"
                                               "./model_scripts/qwen.sh\nsource ../model_scripts/pythia.sh\n")
    t = Targeting(synth_db, Settings())
    c = t.choose(put(repo, "model_scripts/pythia.sh", SCRIPT), [])
    assert (c.release, c.why) == ("0.8.5", "run by experiment_runners/run_all.sh (line 2: installs vllm==0.8.5); "
                                           "experiment_runners/run_pythia.sh (line 2: installs vllm==0.8.5)")
    assert t.choose(put(repo, "model_scripts/qwen.sh", SCRIPT), []).release == "0.8.5"
    assert t.choose(put(repo, "model_scripts/other.sh", SCRIPT), []).kind == "default"  # (no caller names it)


def test_callers_installing_different_releases_give_a_range_said_so(synth_db, repo):
    put(repo, "runners/a.sh", "#!/bin/bash\npip install vllm==0.8.5\nbash scripts/job.sh\n")
    put(repo, "runners/b.sh", "#!/bin/bash\npip install vllm==0.10.0\nbash scripts/job.sh\n")
    c = Targeting(synth_db, Settings()).choose(put(repo, "scripts/job.sh", SCRIPT), [])
    assert c.release == "0.10.0"
    assert c.why == ("run by scripts installing different releases (runners/a.sh (line 2: installs vllm==0.8.5); "
                     "runners/b.sh (line 2: installs vllm==0.10.0)): the newest release it allows, 0.10.0")


def test_what_is_not_a_caller(synth_db, repo):
    # a bare name names the script beside the caller only
    put(repo, "x/run.sh", "#!/bin/bash\npip install vllm==0.8.5\nbash job.sh\n")
    # the install after the call is not what the script runs on; a comment runs nothing
    put(repo, "y/run.sh", "#!/bin/bash\nbash ../jobs/job.sh\npip install vllm==0.8.5\n")
    put(repo, "z/run.sh", "#!/bin/bash\npip install vllm==0.8.5\n# bash jobs/job.sh\n")
    assert Targeting(synth_db, Settings()).choose(put(repo, "jobs/job.sh", SCRIPT), []).kind == "default"
    assert Targeting(synth_db, Settings()).choose(put(repo, "x/job.sh", SCRIPT), []).release == "0.8.5"


def test_a_caller_that_builds_vllm_from_source(synth_db, repo):
    put(repo, "setup/run.sh", "#!/bin/bash\ngit clone -b v0.8.5 https://github.com/vllm-project/vllm\n"
                              "pip install -e vllm\nsbatch ${ROOT}/jobs/serve.slurm\n")
    c = Targeting(synth_db, Settings()).choose(put(repo, "jobs/serve.slurm", SCRIPT), [])
    assert c.release == "0.8.5" and "vLLM built from its source" in c.why


def test_outside_a_repository_only_callers_beside_the_script(synth_db, tmp_path):
    put(tmp_path, "runners/a.sh", "#!/bin/bash\npip install vllm==0.8.5\nbash scripts/job.sh\n")
    assert Targeting(synth_db, Settings()).choose(put(tmp_path, "scripts/job.sh", SCRIPT), []).kind == "default"
    put(tmp_path, "scripts/go.sh", "#!/bin/bash\npip install vllm==0.8.5\nbash job.sh\n")
    assert Targeting(synth_db, Settings()).choose(tmp_path / "scripts/job.sh", []).release == "0.8.5"


def test_the_repository_is_walked_once_per_run(synth_db, repo, monkeypatch):
    """(bounded work: 40 scripts asking for their callers walk the repository once)"""
    import os

    from vllm_lint.pipeline import callers

    for i in range(40):
        put(repo, f"jobs/j{i}.sh", SCRIPT)
    put(repo, "run.sh", "#!/bin/bash\npip install vllm==0.8.5\n" + "".join(f"bash jobs/j{i}.sh\n" for i in range(40)))
    walks = []
    real_scandir = os.scandir

    def scandir(d):  # (os is shared: count the callers' listings of the root, not the survey's)
        if sys._getframe(1).f_globals.get("__name__") == callers.__name__ and os.fspath(d) == str(repo):
            walks.append(d)
        return real_scandir(d)

    monkeypatch.setattr(callers.os, "scandir", scandir)
    t = Targeting(synth_db, Settings())
    assert {t.choose(repo / f"jobs/j{i}.sh", []).release for i in range(40)} == {"0.8.5"}
    assert len(walks) == 1


def test_one_script_asked_parses_only_the_scripts_that_may_name_it(synth_db, repo, monkeypatch):
    """A one-file run asks for one script's callers: only the scripts whose text holds its name
    (or a glob) are read as callers; a second script asked indexes them all, with the same answers."""
    from vllm_lint.pipeline import callers

    put(repo, "run.sh", "#!/bin/bash\npip install vllm==0.8.5\nbash jobs/a.sh\n")
    put(repo, "other.sh", "#!/bin/bash\npip install vllm==0.9.2\nbash jobs/b.sh\n")
    put(repo, "globs.sh", "#!/bin/bash\npip install vllm==0.8.5\nfor s in jobs/a*.sh; do bash $s; done\n")
    put(repo, "silent.sh", "#!/bin/bash\necho vllm is great\nbash jobs/a.sh\n")  # (no install: never parsed)
    parsed = []
    real = callers._read_caller
    monkeypatch.setattr(callers, "_read_caller", lambda text, folder: parsed.append(text.split("\n")[2]) or real(text, folder))
    t = Targeting(synth_db, Settings())
    c = t.choose(put(repo, "jobs/a.sh", SCRIPT), [])
    assert c.release == "0.8.5" and "run.sh" in c.why and "globs.sh" in c.why
    assert sorted(parsed) == ["bash jobs/a.sh", "for s in jobs/a*.sh; do bash $s; done"]
    assert t.choose(put(repo, "jobs/b.sh", SCRIPT), []).why.startswith("run by other.sh")
    assert sorted(parsed) == ["bash jobs/a.sh", "bash jobs/b.sh", "for s in jobs/a*.sh; do bash $s; done"]


def test_a_file_no_caller_runs_is_never_a_callers_walk(synth_db, repo, monkeypatch):
    """Callers name scripts (.sh, .bash, .slurm, .sbatch) and the Python files they run: another
    file's release (a YAML manifest's) is not looked for in the repository's scripts, which are not
    walked."""
    from vllm_lint.pipeline import callers

    put(repo, "run.sh", "#!/bin/bash\npip install vllm==0.8.5\nkubectl apply -f serve.yaml\n")
    monkeypatch.setattr(callers.Callers, "_walk", lambda *a: (_ for _ in ()).throw(AssertionError("walked")))
    assert Targeting(synth_db, Settings()).choose(put(repo, "serve.yaml", "image: vllm/vllm-openai\n"), []) is not None


def test_the_python_file_a_caller_runs(synth_db, repo):
    put(repo, "run.sh", "#!/bin/bash\npip install vllm==0.8.5\npython serve.py\n")
    c = Targeting(synth_db, Settings()).choose(put(repo, "serve.py", "from vllm import LLM\nLLM('m')\n"), [])
    assert (c.release, c.why) == ("0.8.5", "run by run.sh (line 2: installs vllm==0.8.5)")


def test_an_hpc_module_of_a_release_in_the_job_that_runs_the_recipe(synth_db, repo):
    """Sigma2's and other sites' jobs load the site's build of a release (Lmod, EasyBuild names),
    then run the repository's Python recipe, named by a path under the checkout on the cluster."""
    put(repo, "jobs/serve.slurm", "#!/bin/bash\n#SBATCH --gpus=4\nmodule load NRIS/GPU CUDA/12.9.1 vLLM/0.8.5-foss-2024a-CUDA-12.6.0\n"
                                  'WD="/cluster/work/$USER/checkout"\nPY="${WD}/recipes/infer.py"\nsrun python "$PY" --tp 4\n')
    c = Targeting(synth_db, Settings()).choose(put(repo, "recipes/infer.py", "from vllm import LLM\nLLM('m')\n"), [])
    assert (c.release, c.why) == ("0.8.5", "run by jobs/serve.slurm (line 3: loads the module vllm/0.8.5)")
    # a module without a version is the site's default: no release named
    put(repo, "jobs/serve.slurm", "#!/bin/bash\nmodule load vllm\nsrun python recipes/infer.py\n")
    assert Targeting(synth_db, Settings()).choose(repo / "recipes/infer.py", []).kind == "default"


@pytest.mark.parametrize("call", [
    'for s in model_scripts/*.sh; do bash "$s"; done',
    'bash "$(dirname "$0")/../model_scripts/job.sh"',
    'SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)\nbash "${SCRIPT_DIR}/../model_scripts/job.sh"',
    "cd ../model_scripts\n./job.sh",
    "cd model_scripts && bash job.sh",
])
def test_the_ways_a_runner_names_the_script(synth_db, repo, call):
    put(repo, "runners/run.sh", f"#!/bin/bash\npip install -q vllm==0.8.5\n{call}\n")
    assert Targeting(synth_db, Settings()).choose(put(repo, "model_scripts/job.sh", SCRIPT), []).release == "0.8.5"


def test_a_glob_names_only_the_scripts_it_matches(synth_db, repo):
    put(repo, "runners/run.sh", "#!/bin/bash\npip install vllm==0.8.5\nfor s in jobs/qwen_*.sh; do bash $s; done\n")
    t = Targeting(synth_db, Settings())
    assert t.choose(put(repo, "jobs/qwen_7b.sh", SCRIPT), []).release == "0.8.5"
    assert t.choose(put(repo, "jobs/llama_8b.sh", SCRIPT), []).kind == "default"



def test_a_variable_in_a_script_name_names_every_script_of_that_folder(synth_db, repo):
    # a loop over model names: `../model_scripts/${model}.sh` may be any script of model_scripts/
    put(repo, "runners/run.sh", "#!/bin/bash\npip install vllm==0.8.5\nmodels=(a b)\n"
        "for model in \"${models[@]}\"; do ../model_scripts/$model.sh; bash \"../model_scripts/${model}_tp.sh\"; done\n")
    t = Targeting(synth_db, Settings())
    assert t.choose(put(repo, "model_scripts/pythia_1b.sh", SCRIPT), []).release == "0.8.5"
    assert t.choose(put(repo, "model_scripts/qwen_tp.sh", SCRIPT), []).release == "0.8.5"
    assert t.choose(put(repo, "jobs/pythia_1b.sh", SCRIPT), []).kind == "default"  # (another folder)

@pytest.mark.parametrize("runner", [
    # the path in a variable set before the install, the call after it
    'MODEL_SCRIPT="../model_scripts/job.sh"\npip install vllm==0.8.5\nbash "$MODEL_SCRIPT"',
    'SCRIPTS=(model_scripts/job.sh model_scripts/other.sh)\npip install vllm==0.8.5\nfor s in "${SCRIPTS[@]}"; do bash "$s"; done',
    # the install inside a condition, from a venv's pip
    'if ! /opt/venv/bin/pip install -q "vllm==0.8.5"; then exit 1; fi\nbash model_scripts/job.sh',
    'python3 -m venv v && v/bin/python -m pip install vllm==0.8.5 && bash model_scripts/job.sh',
])
def test_a_runners_install_and_call_in_the_forms_scripts_write(synth_db, repo, runner):
    put(repo, "runners/run.sh", f"#!/bin/bash\n{runner}\n")
    assert Targeting(synth_db, Settings()).choose(put(repo, "model_scripts/job.sh", SCRIPT), []).release == "0.8.5"


def test_a_message_that_names_an_install_installs_nothing(synth_db, repo):
    put(repo, "runners/run.sh", "#!/bin/bash\necho 'first: pip install vllm==0.8.5'\nbash model_scripts/job.sh\n")
    assert Targeting(synth_db, Settings()).choose(put(repo, "model_scripts/job.sh", SCRIPT), []).kind == "default"


@pytest.mark.parametrize("runner", [
    'SCRIPTS_DIR="../model_scripts"\npip install vllm==0.8.5\nbash $SCRIPTS_DIR/job.sh',
    'ROOT=..\nDIR=$ROOT/model_scripts\npip install vllm==0.8.5\nbash "${DIR}/job.sh"',
    'DIR=../model_scripts\npip install vllm==0.8.5\ncd $DIR\nbash job.sh',
])
def test_a_runner_that_names_the_scripts_folder_in_a_variable(synth_db, repo, runner):
    put(repo, "runners/run.sh", f"#!/bin/bash\n{runner}\n")
    t = Targeting(synth_db, Settings())
    assert t.choose(put(repo, "model_scripts/job.sh", SCRIPT), []).release == "0.8.5"
    assert t.choose(put(repo, "elsewhere/job.sh", SCRIPT), []).kind == "default"


# ----------------------------------------------------------------------------- a one-file run's lookup (issue 31, tenth pass)


def test_a_one_file_lookup_screens_only_the_scripts_that_may_name_the_file(synth_db, repo, monkeypatch):
    """The first script asked about in a repository gives the byte screen (``_may_call``) only to
    the scripts whose bytes hold its name, a ``$`` or a ``*`` (a ref, a glob's ``*`` or a variable
    in a name is written so), and compiles the glob expression only for a script with a line
    holding a ``$`` or ``*`` and a script's ending; a second script asked screens the rest, with the
    answers an index of every caller gives."""
    import re

    from vllm_lint.pipeline import callers

    for i in range(30):  # (they install a release and name other scripts: callers, of other files)
        put(repo, f"runners/r{i:02}.sh", f"#!/bin/bash\npip install vllm==0.8.5\nbash jobs/other{i}.sh\n")
    put(repo, "runners/vars.sh", "#!/bin/bash\npip install vllm==0.10.0\nPORT=${PORT:-8000}\nbash jobs/b.sh\n")
    put(repo, "runners/run.sh", "#!/bin/bash\npip install vllm==0.10.0\nbash jobs/a.sh\n")
    compiled = []
    real_compile = re._compile
    monkeypatch.setattr(re, "_compile", lambda p, f: compiled.append(p) or real_compile(p, f))
    t = Targeting(synth_db, Settings())
    c = t.choose(put(repo, "jobs/a.sh", SCRIPT), [])
    assert (c.release, c.why) == ("0.10.0", "run by runners/run.sh (line 2: installs vllm==0.10.0)")
    walker = t.callers
    assert walker.reads == 33 and walker.screens == 2 and walker.screened == 2  # (run.sh, and vars.sh's `$`)
    assert callers._GLOB_NAME._source[0] not in compiled  # (vars.sh's `$` is on no line naming a script)
    assert t.choose(put(repo, "jobs/other7.sh", SCRIPT), []).release == "0.8.5"  # (the second: the index)
    assert walker.screens == 33 and walker.screened == 32  # (jobs/a.sh installs nothing)


_WORDS = ["pip install vllm==0.8.5\n", "bash jobs/a.sh\n", "bash a.sh\n", "for s in jobs/*.sh; do bash $s; done\n",
          "bash jobs/${m}.sh\n", "echo $HOME\n", "x=*.txt\n", "# a.sh\n", "vllm serve m\n", "cd jobs\n",
          "module load vLLM/0.10.0\n", "bash jobs/ä.sh\n", "\udcff", "bash jobs/\ufffd.sh\n"]


@pytest.mark.parametrize("seed", range(6))
def test_a_one_file_lookup_answers_as_the_index_does(synth_db, tmp_path, seed):
    """The one-file lookup (its screens) and the index of every caller (a second script's) give
    each script the same callers, over trees of scripts written from the words callers hold."""
    import random

    from vllm_lint.pipeline import callers, surroundings

    rnd = random.Random(seed)
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    names = ["a.sh", "b.sh", "ä.sh", "c.py"]
    for i in range(25):
        folder = rnd.choice(["", "jobs/", "runners/", "runners/deep/"])
        text = "#!/bin/bash\n" + "".join(rnd.choice(_WORDS) for _ in range(rnd.randint(1, 5)))
        p = root / f"{folder}s{i}.sh"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode("utf-8", "surrogateescape"))
    real = os.path.realpath(root)
    for folder in ("", "jobs"):
        for name in names:
            indexed = callers.Callers(surroundings.Surroundings())
            indexed.index(real)
            alone = callers.Callers(surroundings.Surroundings())
            d = os.path.join(real, folder) if folder else real
            got, want = alone.caller_for(d, name), indexed.caller_for(d, name)
            held = callers.Callers(surroundings.Surroundings())  # (past its bound: screened as read)
            bound = callers.HELD_BYTES
            callers.HELD_BYTES = 40
            try:
                dropped = held.caller_for(d, name)
            finally:
                callers.HELD_BYTES = bound
            assert (dropped and (dropped.text, dropped.why, dropped.read)) == (want and (want.text, want.why, want.read))
            assert held.screens > alone.screens or alone.screens == alone.reads
            assert (got and (got.text, got.why, got.spec, got.read)) == (want and (want.text, want.why, want.spec, want.read))
            assert alone.reads == indexed.reads


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["$", "*", "${x}", "a", ".sh", ".py", ".bash", ".slurm", ".sbatch", "\n", " ", "/",
                                 "-", ".", "é", "{", "}", "_", "x.s", "h"]), max_size=25))
def test_the_glob_screen_passes_every_text_the_expression_matches(words):
    from vllm_lint.pipeline import callers

    text = "".join(words)
    if callers._GLOB_NAME.search(text):
        assert callers._may_glob(text), text


def test_the_ignored_folders_are_asked_only_for_the_names_their_rules_hold(tmp_path, monkeypatch):
    """The callers' walk asks ``IgnoredFolders.ignored`` only for a folder whose name a rule above
    it holds (``names_ruled``), and leaves out the same folders."""
    from vllm_lint.pipeline import callers, ignored_folders, surroundings

    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / ".gitignore").write_text("build/\n/gen/out\n")
    for rel in ("a/b/c/x.sh", "build/x.sh", "gen/out/x.sh", "gen/keep/x.sh", "a/out/x.sh", "d/build/x.sh", "e/x.sh"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text("pip install vllm==0.8.5\nbash job.sh\n")
    asked = []
    real = ignored_folders.IgnoredFolders.ignored
    monkeypatch.setattr(ignored_folders.IgnoredFolders, "ignored",
                        lambda self, path, above: asked.append(os.path.basename(path)) or real(self, path, above))
    got = [x[0] for x in callers.Callers(surroundings.Surroundings())._scan(os.path.realpath(root))]
    assert got == ["a/b/c/x.sh", "a/out/x.sh", "e/x.sh", "gen/keep/x.sh"]
    assert sorted(asked) == ["build", "build", "out", "out"]
