"""A platform plugin's release read from its sdist (``scrape/plugins.py``) and the plugin index
(``surface/plugins.py``): synthetic archives written here, never a plugin's real files."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from vllm_lint.scrape.plugins import build_plugin, extract_plugin_release, plugin_wanted, vllm_requirement
from vllm_lint.scrape.sources import ArchiveError, read_archive
from vllm_lint.scrape.tree import DictTree
from vllm_lint.surface.plugins import PLUGIN_BY_DIST, PluginIndex, plugins_of_launch

SPYRE = PLUGIN_BY_DIST["vllm-spyre"]
ASCEND = PLUGIN_BY_DIST["vllm-ascend"]

SPYRE_ENVS = b'''import os
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    VLLM_SPYRE_USE_CB: bool = False
    VLLM_SPYRE_NUM_CPUS: int = 0

environment_variables: dict[str, Callable[[], Any]] = {
    "VLLM_SPYRE_USE_CB": lambda: bool(int(os.getenv("VLLM_SPYRE_USE_CB", "0"))),
    "VLLM_SPYRE_NUM_CPUS": lambda: int(os.getenv("VLLM_SPYRE_NUM_CPUS", "0")),
    "VLLM_SPYRE_BACKEND": lambda: os.getenv("VLLM_SPYRE_BACKEND", "sendnn"),
}
'''
ASCEND_ENVS = b'''import os

env_variables = {
    "VLLM_ASCEND_ENABLE_X": lambda: bool(int(os.getenv("VLLM_ASCEND_ENABLE_X", "1"))),
    "MAX_JOBS": lambda: os.getenv("MAX_JOBS", None),
}
'''
PYPROJECT = b'''[project]
name = "vllm-spyre"
dependencies = ["torch", "vllm>=0.17.0,<0.18.1"]
[project.optional-dependencies]
dev = ["vllm ; platform_machine != 's390x'"]
'''


def _sdist(path, top: str, files: dict) -> str:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return str(path)


def test_spyre_release_env_types_defaults_and_vllm_pin(tmp_path):
    arc = _sdist(tmp_path / "vllm_spyre-1.10.0.tar.gz", "vllm_spyre-1.10.0",
                 {"vllm_spyre/__init__.py": b"", "vllm_spyre/envs.py": SPYRE_ENVS, "pyproject.toml": PYPROJECT,
                  "tests/test_x.py": b"x = 1\n"})
    tree = read_archive(arc, "vllm_spyre-1.10.0.tar.gz", want=plugin_wanted(SPYRE), package=SPYRE.package)
    assert tree.read("tests/test_x.py") is None  # only the package and its metadata are read
    rec = extract_plugin_release(tree, SPYRE, "1.10.0", {"kind": "sdist"})
    assert rec["plugin"] == "vllm-spyre" and rec["envs_module"] == "vllm_spyre/envs.py"
    env = rec["env"]
    assert sorted(env) == ["VLLM_SPYRE_BACKEND", "VLLM_SPYRE_NUM_CPUS", "VLLM_SPYRE_USE_CB"]
    assert (env["VLLM_SPYRE_USE_CB"]["type"], env["VLLM_SPYRE_USE_CB"]["default"]) == ("bool", False)
    assert (env["VLLM_SPYRE_NUM_CPUS"]["type"], env["VLLM_SPYRE_NUM_CPUS"]["default"]) == ("int", 0)
    assert env["VLLM_SPYRE_BACKEND"]["default"] == "sendnn"
    # the unconditional dependency, not the optional one with a marker
    assert rec["vllm"] == {"specifier": "<0.18.1,>=0.17.0", "from": "pyproject.toml"}


def test_ascend_dict_name_and_no_vllm_pin(tmp_path):
    arc = _sdist(tmp_path / "a.tar.gz", "vllm_ascend-0.23.0",
                 {"vllm_ascend/envs.py": ASCEND_ENVS, "requirements.txt": b"torch\nnumpy<2\n"})
    tree = read_archive(arc, "a.tar.gz", want=plugin_wanted(ASCEND), package=ASCEND.package)
    rec = extract_plugin_release(tree, ASCEND, "0.23.0", {})
    assert rec["env"]["VLLM_ASCEND_ENABLE_X"]["default"] is True
    assert rec["vllm"] is None


def test_requirements_txt_pin_and_missing_module():
    assert vllm_requirement(DictTree({"requirements.txt": b"# pinned\nvllm==0.9.1  # the base\n"})) == \
        {"specifier": "==0.9.1", "from": "requirements.txt"}
    with pytest.raises(ValueError, match="no vllm_spyre.envs module"):
        extract_plugin_release(DictTree({"vllm_spyre/__init__.py": b""}), SPYRE, "1.0.0", {})


def test_archive_without_the_plugin_package_is_refused(tmp_path):
    arc = _sdist(tmp_path / "x.tar.gz", "other-1.0", {"other/envs.py": b"x = 1\n"})
    with pytest.raises(ArchiveError, match="no vllm_spyre/ package"):
        read_archive(arc, "x.tar.gz", want=plugin_wanted(SPYRE), package=SPYRE.package)


class _Source:
    """A PyPI stand-in over local archives: the newest final release is the default."""

    def __init__(self, archives: dict):
        self.archives = archives

    def versions(self):
        return list(self.archives)

    def fetch(self, version):
        path = self.archives[version]
        return read_archive(path, "s.tar.gz", want=plugin_wanted(SPYRE), package=SPYRE.package), {"kind": "sdist"}


def test_build_writes_one_file_per_release_and_the_index(tmp_path):
    good = _sdist(tmp_path / "g.tar.gz", "vllm_spyre-1.9.0", {"vllm_spyre/envs.py": SPYRE_ENVS})
    bad = _sdist(tmp_path / "b.tar.gz", "vllm_spyre-1.10.0", {"vllm_spyre/__init__.py": b""})
    src = _Source({"1.9.0": good, "1.10.0": bad, "2.0.0rc1": good})
    db = tmp_path / "db"
    results = build_plugin(src, SPYRE, db)  # default: the newest final release only
    assert [(r.version, r.ok) for r in results] == [("1.10.0", False)]
    results = build_plugin(src, SPYRE, db, "1.9.0,1.10.0")
    assert [(r.version, r.ok) for r in results] == [("1.9.0", True), ("1.10.0", False)]
    rec = json.loads((db / "plugins" / "vllm-spyre" / "1.9.0.json").read_text())
    assert rec["version"] == "1.9.0" and "VLLM_SPYRE_USE_CB" in rec["env"]
    index = PluginIndex.load(db)
    assert index.readers("VLLM_SPYRE_USE_CB") == ["vllm-spyre"]
    assert index.readers("VLLM_HOST_IP") == []
    assert PluginIndex.load(tmp_path / "nowhere").plugins == {}


@pytest.mark.parametrize("image,text,expected", [
    ("quay.io/ascend/vllm-ascend:v0.23.0", "", {"vllm-ascend"}),
    ("quay.io/ibm-aiu/vllm-spyre:1.10.0", "", {"vllm-spyre"}),
    ("vllm/vllm-openai:v0.10.0", "", set()),
    ("vllm/vllm-tpu:v0.32.0", "", {"tpu-inference"}),  # vLLM's TPU image carries tpu-inference
    (None, "pip install vllm-tpu==0.32.0\n", set()),  # the wheel, not the plugin's package: by image only
    (None, "tpu-inference==0.32.0\n", {"tpu-inference"}),
    (None, "RUN pip install vllm==0.10.0 vllm_spyre==1.10.0\n", {"vllm-spyre"}),
    (None, "uv pip install 'vllm-ascend'\n", {"vllm-ascend"}),
    (None, "vllm-spyre>=1.9\nvllm==0.17.0\n", {"vllm-spyre"}),  # a requirements line
    (None, "RUN pip install 'optimum-neuron[vllm]==0.4.5'\n", {"optimum-neuron"}),
    (None, "pip install vllm-musa\n", {"vllm-musa"}),
    ("registry.example.com/maca/vllm-metax:0.22.0-maca.ai3.3.0", "", {"vllm-metax"}),
    # mentions that install or pin nothing
    (None, "# see https://github.com/vllm-project/vllm-spyre/ for details\n", set()),
    (None, "pip install vllm-spyre-tools\n", set()),
])
def test_plugins_of_launch(image, text, expected):
    assert plugins_of_launch(image, text) == expected


class _Resp:
    def __init__(self, data: bytes):
        self.data = data

    def json(self):
        return json.loads(self.data)

    def iter_content(self, chunk_size=1):
        yield self.data

    def close(self):
        pass


class _Http:
    """PyPI's JSON API for one plugin and its sdist, from memory: the requests asked are recorded."""

    def __init__(self, files: dict):
        self.files = files
        self.asked: list[str] = []

    def get(self, url, stream=False):
        self.asked.append(url)
        return _Resp(self.files[url])


def test_pypi_source_downloads_checks_and_reads_the_plugin_sdist(tmp_path):
    import hashlib

    from vllm_lint.scrape.plugins import PluginPyPISource

    sdist = open(_sdist(tmp_path / "s.tar.gz", "vllm_spyre-1.10.0",
                        {"vllm_spyre/envs.py": SPYRE_ENVS, "pyproject.toml": PYPROJECT}), "rb").read()
    doc = {"releases": {"1.10.0": [{"filename": "vllm_spyre-1.10.0.tar.gz", "packagetype": "sdist",
                                    "url": "../../packages/vllm_spyre-1.10.0.tar.gz", "size": len(sdist),
                                    "digests": {"sha256": hashlib.sha256(sdist).hexdigest()}}]}}
    http = _Http({"https://pypi.org/pypi/vllm-spyre/json": json.dumps(doc).encode(),
                  "https://pypi.org/packages/vllm_spyre-1.10.0.tar.gz": sdist})
    src = PluginPyPISource(SPYRE, cache_dir=tmp_path / "cache", http=http)
    results = build_plugin(src, SPYRE, tmp_path / "db")
    assert [(r.version, r.ok) for r in results] == [("1.10.0", True)], results
    rec = json.loads((tmp_path / "db" / "plugins" / "vllm-spyre" / "1.10.0.json").read_text())
    assert rec["source"] == {"kind": "sdist", "archive": "vllm_spyre-1.10.0.tar.gz",
                             "sha256": hashlib.sha256(sdist).hexdigest()}
    assert rec["vllm"]["specifier"] == "<0.18.1,>=0.17.0"
    assert http.asked[0] == "https://pypi.org/pypi/vllm-spyre/json"  # the plugin's index, not vllm's


def test_a_user_database_adds_plugins_to_the_shipped_ones(tmp_path):
    from vllm_lint.scrape.plugins import write_plugin_index

    for root, dist, version, name in [(tmp_path / "user", "vllm-spyre", "2.0.0", "VLLM_SPYRE_NEW"),
                                      (tmp_path / "shipped", "vllm-spyre", "1.10.0", "VLLM_SPYRE_OLD"),
                                      (tmp_path / "shipped", "vllm-ascend", "0.23.0", "VLLM_ASCEND_X")]:
        folder = root / "plugins" / dist
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{version}.json").write_text(json.dumps({"version": version, "env": {name: {}}}))
        write_plugin_index(root / "plugins")
    index = PluginIndex.load(tmp_path / "user", tmp_path / "shipped")
    assert index.readers("VLLM_SPYRE_NEW") == ["vllm-spyre"]   # the user database's release
    assert index.readers("VLLM_SPYRE_OLD") == ["vllm-spyre"]   # and the shipped one's both count
    assert index.readers("VLLM_ASCEND_X") == ["vllm-ascend"]
    assert sorted(index.plugins["vllm-spyre"]["releases"]) == ["1.10.0", "2.0.0"]


def test_the_shipped_plugins_are_rows_with_their_releases():
    """Each row of PLUGINS has releases in the shipped database, and a variable of each plugin is
    read by that plugin only (tpu-inference's releases follow vLLM's numbers)."""
    import importlib.resources

    from vllm_lint.surface.plugins import PLUGINS

    index = PluginIndex.load(Path(str(importlib.resources.files("vllm_lint.flag_db"))))
    assert {p.dist for p in PLUGINS} <= set(index.plugins)
    assert index.readers("VLLM_TPU_PATCH_MM_EMBEDDINGS") == ["tpu-inference"]
    assert index.readers("VLLM_KUNLUN_ENABLE_INT8_BMM") == ["vllm-kunlun"]
    assert "0.32.0" in index.plugins["tpu-inference"]["releases"]
    # issue 33: MetaX from its release tags, MUSA and optimum-neuron from PyPI
    assert index.readers("MACA_VLLM_ENABLE_MCTLASS_FUSED_MOE") == ["vllm-metax"]
    assert index.readers("MUSA_VISIBLE_DEVICES") == ["vllm-musa"]
    assert index.plugins["optimum-neuron"]["vllm"]["0.4.5"]["specifier"] == "==0.11.0"


GAUDI = PLUGIN_BY_DIST["vllm-gaudi"]
GAUDI_ENVS = b'''import os
environment_variables = {
    "VLLM_HPU_FORCE_CHANNEL_FP8": lambda: os.environ.get("VLLM_HPU_FORCE_CHANNEL_FP8", "true").lower() in ("1", "true"),
}
'''
GAUDI_FEATURES = b'''from vllm_gaudi.extension.config import Env, Value, ValueFromList

def flags():
    return [Env('VLLM_PROMPT_BS_BUCKET_MIN', int), Env('PT_HPU_SDPA_BC_FACTOR', int),
            Value('skip_warmup', False),
            Value('use_contiguous_pa', True, env_var='VLLM_CONTIGUOUS_PA'),
            ValueFromList('prompt_attn_impl', ['a', 'b'])]
'''
GAUDI_RUNNER = b'''import os
lazy = os.getenv("PT_HPU_LAZY_MODE", "1")
token = os.environ.get("HF_TOKEN")
if "VLLM_USE_FAKE_HPU" in os.environ:
    pass
name = f"VLLM_{phase}_BUCKET_MIN"  # built at run time: not read
os.environ["VLLM_SET_HERE"] = "1"  # an assignment, not a read
'''


def test_gaudi_reads_outside_its_envs_module_and_through_its_helpers():
    tree = DictTree({"vllm_gaudi/envs.py": GAUDI_ENVS, "vllm_gaudi/extension/features.py": GAUDI_FEATURES,
                     "vllm_gaudi/v1/worker/runner.py": GAUDI_RUNNER,
                     "tests/test_x.py": b'import os\nos.getenv("VLLM_IN_TESTS")\n'})
    rec = extract_plugin_release(tree, GAUDI, "0.26.0", {"kind": "git"})
    env = rec["env"]
    assert env["VLLM_HPU_FORCE_CHANNEL_FP8"]["default"] is True  # the module's own entry, typed
    assert env["VLLM_PROMPT_BS_BUCKET_MIN"] == {"read_in": "vllm_gaudi/extension/features.py"}
    assert env["VLLM_PROMPT_ATTN_IMPL"] == {"read_in": "vllm_gaudi/extension/features.py"}
    for name in ("VLLM_SKIP_WARMUP", "VLLM_CONTIGUOUS_PA", "PT_HPU_SDPA_BC_FACTOR", "PT_HPU_LAZY_MODE",
                 "VLLM_USE_FAKE_HPU"):
        assert name in env, name
    # not the plugin's prefixes, not its package, a name built at run time, an assignment, a
    # Value whose env_var replaces its derived name
    for name in ("HF_TOKEN", "VLLM_IN_TESTS", "VLLM_SET_HERE", "VLLM_USE_CONTIGUOUS_PA"):
        assert name not in env, name


def test_a_plugin_without_helpers_reads_only_its_envs_module():
    tree = DictTree({"vllm_spyre/envs.py": SPYRE_ENVS, "vllm_spyre/x.py": b'import os\nos.getenv("VLLM_SPYRE_OTHER")\n'})
    assert "VLLM_SPYRE_OTHER" not in extract_plugin_release(tree, SPYRE, "1.10.0", {})["env"]


def test_plugin_releases_from_the_tags_of_a_git_directory(tmp_path):
    import subprocess

    from vllm_lint.scrape.plugins import PluginGitSource

    repo = tmp_path / "vllm-gaudi"
    (repo / "vllm_gaudi" / "extension").mkdir(parents=True)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "vllm_gaudi" / "envs.py").write_bytes(GAUDI_ENVS)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "one"], check=True)
    subprocess.run(git + ["tag", "v0.24.0"], check=True)
    (repo / "vllm_gaudi" / "extension" / "features.py").write_bytes(GAUDI_FEATURES)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "two"], check=True)
    subprocess.run(git + ["tag", "v0.26.0"], check=True)
    subprocess.run(git + ["tag", "v0.27.0rc0"], check=True)
    src = PluginGitSource(GAUDI, str(repo))
    assert src.versions() == ["0.24.0", "0.26.0"]  # a pre-release tag is no release
    db = tmp_path / "db"
    assert [(r.version, r.ok) for r in build_plugin(src, GAUDI, db, ">=0.24.0")] == [("0.24.0", True), ("0.26.0", True)]
    rec = json.loads((db / "plugins" / "vllm-gaudi" / "0.26.0.json").read_text())
    head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    assert rec["source"] == {"kind": "git", "ref": "v0.26.0", "repo": "https://github.com/vllm-project/vllm-gaudi",
                             "commit": head}
    index = PluginIndex.load(db).plugins["vllm-gaudi"]
    # the timeline: the switch appeared with the extension in 0.26.0
    assert index["env"]["VLLM_SKIP_WARMUP"] == ["0.26.0"]
    assert index["env"]["VLLM_HPU_FORCE_CHANNEL_FP8"] == ["0.24.0", "0.26.0"]


def test_gaudi_images_run_the_gaudi_plugin():
    assert "vllm-gaudi" in plugins_of_launch("opea/vllm-gaudi:1.22.0", "")
    assert "vllm-gaudi" in plugins_of_launch("quay.io/modh/vllm:rhoai-2.20-gaudi", "")
    assert "vllm-gaudi" not in plugins_of_launch("vllm/vllm-openai:v0.26.0", "")


RBLN = PLUGIN_BY_DIST["vllm-rbln"]
RBLN_ENVS = b'''import os
environment_variables = {
    "VLLM_RBLN_SAMPLER": lambda: os.environ.get("VLLM_RBLN_SAMPLER", "True").lower() in ("true", "1"),
}
'''
WHEEL_METADATA = (b"Metadata-Version: 2.4\nName: vllm-rbln\nVersion: 0.12.0\nRequires-Dist: torch\n"
                  b"Requires-Dist: vllm==0.30.0+cpu\nRequires-Dist: vllm[audio]; extra == \"audio\"\n\n"
                  b"Requires-Dist: vllm==9.9.9 (a line of the description, not a header)\n")


def _wheel(path, files: dict) -> str:
    import zipfile

    with zipfile.ZipFile(path, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return str(path)


def test_a_wheel_only_plugin_is_read_as_an_sdist_is_with_its_metadata_pin(tmp_path):
    whl = _wheel(tmp_path / "vllm_rbln-0.12.0-py3-none-any.whl",
                 {"vllm_rbln/__init__.py": b"", "vllm_rbln/envs.py": RBLN_ENVS,
                  "vllm_rbln-0.12.0.dist-info/METADATA": WHEEL_METADATA})
    tree = read_archive(whl, "vllm_rbln-0.12.0-py3-none-any.whl", want=plugin_wanted(RBLN), package=RBLN.package)
    rec = extract_plugin_release(tree, RBLN, "0.12.0", {"kind": "wheel"})
    assert rec["env"]["VLLM_RBLN_SAMPLER"]["default"] is True
    # the unconditional Requires-Dist header, not the extra's nor the description's
    assert rec["vllm"] == {"specifier": "==0.30.0+cpu", "from": "METADATA"}


def test_an_older_release_names_its_environment_module_as_it_did(tmp_path):
    whl = _wheel(tmp_path / "vllm_rbln-0.11.0-py3-none-any.whl",
                 {"vllm_rbln/__init__.py": b"", "vllm_rbln/rbln_envs.py": RBLN_ENVS})
    tree = read_archive(whl, "vllm_rbln-0.11.0-py3-none-any.whl", want=plugin_wanted(RBLN), package=RBLN.package)
    rec = extract_plugin_release(tree, RBLN, "0.11.0", {"kind": "wheel"})
    assert rec["envs_module"] == "vllm_rbln/rbln_envs.py" and "VLLM_RBLN_SAMPLER" in rec["env"]


MUSA = PLUGIN_BY_DIST["vllm-musa"]
NEURON = PLUGIN_BY_DIST["optimum-neuron"]
MUSA_PLATFORM = b'''import os
from vllm.platforms.interface import Platform

class MusaPlatform(Platform):
    device_name: str = "musa"
    device_control_env_var: str = "MUSA_VISIBLE_DEVICES"

    def order(self):
        return os.environ.get("MUSA_DEVICE_ORDER") == "PCI_BUS_ID"
'''
NEURON_PLATFORM = b'''class NeuronPlatform:
    device_control_env_var = "NEURON_RT_VISIBLE_CORES"
'''
NEURON_UTILS = b'''import os
cores = os.environ.get("NEURON_RT_NUM_CORES")
home = os.environ.get("HOME")
'''
NEURON_METADATA = (b"Metadata-Version: 2.4\nName: optimum-neuron\nVersion: 9.9.0\nRequires-Dist: transformers\n"
                   b"Provides-Extra: vllm\nRequires-Dist: vllm==0.11.0; extra == \"vllm\"\n"
                   b"Requires-Dist: vllm==9.9.9; extra == \"tests\"\n\n")


def test_a_plugin_without_an_environment_module_is_known_by_its_reads_and_its_device_variable(tmp_path):
    """vllm-musa has no envs.py: what its modules read and the variable its platform class names
    for device control are its variables; an unbounded `Requires-Dist: vllm` is its (open) pin."""
    whl = _wheel(tmp_path / "vllm_musa-9.9.0-py3-none-any.whl",
                 {"vllm_musa_platform/__init__.py": b"", "vllm_musa_platform/musa.py": MUSA_PLATFORM,
                  "vllm_musa-9.9.0.dist-info/METADATA": b"Metadata-Version: 2.4\nName: vllm-musa\n"
                                                         b"Requires-Dist: vllm\n\n"})
    tree = read_archive(whl, "vllm_musa-9.9.0-py3-none-any.whl", want=plugin_wanted(MUSA), package=MUSA.package_path)
    rec = extract_plugin_release(tree, MUSA, "9.9.0", {"kind": "wheel"})
    assert rec["envs_module"] is None
    assert rec["env"] == {"MUSA_DEVICE_ORDER": {"read_in": "vllm_musa_platform/musa.py"},
                          "MUSA_VISIBLE_DEVICES": {"device_control": "vllm_musa_platform/musa.py"}}
    assert rec["vllm"] == {"specifier": "", "from": "METADATA"}


def test_a_subpackage_plugin_pins_vllm_in_its_extra(tmp_path):
    """optimum-neuron's vLLM platform lives in optimum/neuron/vllm/; the vLLM it targets is the pin
    of its extra named vllm (no other extra's)."""
    whl = _wheel(tmp_path / "optimum_neuron-9.9.0-py3-none-any.whl",
                 {"optimum/__init__.py": b"", "optimum/commands/env.py": b"import os\nos.environ.get('NEURON_X')\n",
                  "optimum/neuron/vllm/platform.py": NEURON_PLATFORM, "optimum/neuron/utils.py": NEURON_UTILS,
                  "optimum_neuron-9.9.0.dist-info/METADATA": NEURON_METADATA})
    tree = read_archive(whl, "optimum_neuron-9.9.0-py3-none-any.whl", want=plugin_wanted(NEURON),
                        package=NEURON.package_path)
    assert tree.read("optimum/commands/env.py") is None  # outside the plugin's subpackage
    rec = extract_plugin_release(tree, NEURON, "9.9.0", {"kind": "wheel"})
    assert sorted(rec["env"]) == ["NEURON_RT_NUM_CORES", "NEURON_RT_VISIBLE_CORES"]
    assert rec["vllm"] == {"specifier": "==0.11.0", "from": "METADATA (extra vllm)"}


def test_a_plugin_package_reading_nothing_is_refused():
    with pytest.raises(ValueError, match="reads no variable"):
        extract_plugin_release(DictTree({"vllm_musa_platform/__init__.py": b"x = 1\n"}), MUSA, "1.0", {})


def test_a_pyproject_pins_vllm_in_its_extra_named_vllm():
    tree = DictTree({"pyproject.toml": b'[project]\nname = "optimum-neuron"\ndependencies = ["transformers"]\n'
                                       b'[project.optional-dependencies]\nvllm = ["vllm == 0.11.0"]\n'
                                       b'tests = ["vllm == 9.9.9"]\n'})
    assert vllm_requirement(tree) == {"specifier": "==0.11.0", "from": "pyproject.toml (extra vllm)"}


@pytest.mark.parametrize("text,expected", [
    ("RUN pip install 'optimum-neuron[vllm]==0.4.5'\n", {"optimum-neuron": "0.4.5"}),
    ("vllm-musa==0.1.1\n", {"vllm-musa": "0.1.1"}),
    ("pip install git+https://github.com/MetaX-MACA/vLLM-metax.git@v0.22.0\n", {"vllm-metax": "0.22.0"}),
])
def test_plugin_pins_of_the_new_platforms(text, expected):
    from vllm_lint.surface.plugins import plugin_pins

    assert plugin_pins(text) == expected


def _expressions_only(text: str) -> tuple[set, dict]:
    """``plugins_of_text`` and ``plugin_pins`` by their expressions alone, every plugin searched."""
    import re

    from vllm_lint.surface.plugins import _INSTALL, PLUGINS, _name_pattern

    installs = " ".join(m.group(0).lower() for m in _INSTALL.finditer(text))
    found, pins = set(), {}
    for p in PLUGINS:
        name = _name_pattern(p.dist)
        if (re.search(r"(?<![\w./-])" + name + r"(?![\w/-])", installs, re.IGNORECASE)
                or re.search(r"^\s*" + name + r"\s*(?:$|[=<>!~;\[])", text, re.IGNORECASE | re.MULTILINE)):
            found.add(p.dist)
        m = re.search(r"(?<![\w.-])" + name + r"(?:\[[\w,\s-]*\])?(?:\.git)?\s*(?:===?\s*|@\s*v?)([0-9]+(?:\.[0-9]+)+(?:\.post[0-9]+)?)(?![\w.])",
                      text, re.IGNORECASE)
        if m:
            pins[p.dist] = m.group(1)
    return found, pins


@pytest.mark.parametrize("text", [
    "", "vllm serve m\n", "RUN pip install VLLM_Spyre==1.2\n", "pip install vllm-ascend\nvllm serve m\n",
    "git+https://github.com/x/vllm-gaudi.git@v0.24.0\n", "TPU-Inference>=0.1\n", "vllm-kunlun\n",
    "pip install vllm-\u017fpyre\n",  # a long s: Unicode case folding matches it to s
    "# caf\u00e9\npip install vllm-rbln==0.9.1\n", "pip install vllm\n" * 2000,
])
def test_plugin_text_screen_changes_no_answer(text):
    """A text naming no plugin is answered before the per-plugin expressions run; the answers are
    theirs on every text."""
    from vllm_lint.surface.plugins import plugin_pins, plugins_of_text

    assert (plugins_of_text(text), plugin_pins(text)) == _expressions_only(text)
