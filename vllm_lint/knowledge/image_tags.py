"""The vLLM release a version hint names: an image tag of any known scheme, or a version as
written (``v0.8.5``, ``0.9.2``), read against the database (:func:`read_hint`).

Image tag schemes are data (:data:`SCHEMES`): each row says which repositories it is about, the
tag's pattern, how the vLLM version is read from it (``read``) and the ``source`` that maps it.
Vendor images whose tag is not a vLLM version (NVIDIA's NGC ``YY.MM-py3``, Red Hat AI Inference
Server's own version) map through a table of rows, each with the release notes that name the
vLLM release; a tag of such a scheme missing from its table names no release here (said so),
never a guessed one. Rows that could not be sourced are left out: see ``README`` "Which release
is checked".

A reading is one of (``HintReading.status``):

* ``release``: a release of the database (``version``);
* ``series``: not a release of the database, an older one of a series it has (``v0.8.6``, which
  PyPI never had): the newest of that series (today's behaviour), said in ``note``;
* ``newer``: newer than the newest release in the database (``named``): checked against the
  newest, and VL004 says so with the command that brings it in;
* ``older``: older than every release in the database (``v0.2.2``): checked against the oldest it
  has, the nearest, said in ``note`` (never the newest in silence);
* ``build``: a nightly or commit build of vLLM's main branch, no release: checked against the
  newest, said in ``note``;
* ``dated``: a build whose tag carries its date (``rocm/vllm-dev:open-mi300-08052025``,
  ``nightly-20251024``): the release current that day (``knowledge/release_dates``), "about 0.10.x",
  and the next (``high``): a build of main between them may hold changes of either;
* ``unknown``: a vendor's image or a fork whose vLLM release is not published (Red Hat OpenShift
  AI's ``quay.io/modh/vllm:rhoai-2.20-cuda``, Intel Gaudi's images), or a tag outside an ordered
  table (Triton ``24.02``: older than its first row): ``low`` / ``high`` bound it where the table
  does; the engine then raises only the findings that hold at both ends (``pipeline.unknown_release``);
* ``unmapped``: a vendor tag whose vLLM release this table does not know; ``none``: no version.
"""

from __future__ import annotations

import re

from ..images import UNNAMED_REVISION, _split_image
from ..record import Record, lazy_re, screened_re
from ..surface.version import InvalidVersion, Version  # (PEP 440 without importing packaging for vLLM's numbers)

TYPE_CHECKING = False  # (typing is not imported at run time: issue 31's sixth pass)
if TYPE_CHECKING:
    from typing import Any, Optional

_NGC_NOTES = "https://docs.nvidia.com/deeplearning/frameworks/vllm-release-notes/rel-{}.html"
_ROCM_HISTORY = ("https://rocm.docs.amd.com/en/docs-7.1.0/how-to/rocm-for-ai/inference/benchmark-docker/"
                 "previous-versions/vllm-history.html")
_RHAIIS_30 = ("https://docs.redhat.com/zh-cn/documentation/red_hat_ai_inference_server/3.0/html/"
              "supported_product_and_hardware_configurations/rhaiis-product-and-version-compatibility_supported-configurations")
# Red Hat's "Distributed Inference with llm-d: Release Components Version" table: its rows give the
# vLLM release of each RHAIIS version (3.4 and 3.3: v0.13.0; 3.2.2: v0.10.1)
_RHAIIS_LLMD = "https://access.redhat.com/articles/7136620"
_AWS_DLC = "https://github.com/huggingface/deep-learning-containers (README: \"Released v0.15.1 vLLM DLCs\", vllm:0.15-gpu-py312-ec2)"
_VLLM_HUB = "https://hub.docker.com/r/vllm/vllm-openai/tags (vLLM's own image; nightly tags are builds of main)"
# Triton's "Release Compatibility Matrix", table "Container Name: vllm-python-py3": the vLLM
# version of each YY.MM-vllm-python-py3 container (24.04 to 26.07 at this commit)
_TRITON_MATRIX = ("https://github.com/triton-inference-server/server/blob/4b54459107911180d3c3b24cea1c5bc832563c0a/"
                  "docs/introduction/compatibility.md (Container Name: vllm-python-py3)")
_NEURON_DLC = ("https://github.com/aws-neuron/deep-learning-containers (docker/vllm/inference/<vLLM version>/"
               "Dockerfile.neuronx); https://awsdocs-neuron.readthedocs-hosted.com/en/latest/release-notes/"
               "components/vllm-neuron.html (vLLM Neuron versions v<vLLM release>.<plugin version>)")
_ROCM_DEV = ("https://hub.docker.com/r/rocm/vllm-dev/tags (AMD's development builds of ROCm's vLLM; a tag's "
             "trailing MMDDYYYY or YYYYMMDD is its build date)")
_VERTEX = ("https://github.com/GoogleCloudPlatform/vertex-ai-samples (notebooks/community/model_garden: the "
           "VLLM_DOCKER_URI of each notebook, tagged YYYYMMDD_HHMM_RCnn: the day Google built its vLLM image)")
_RHOAI = ("https://github.com/opendatahub-io/odh-model-controller (config/runtimes/vllm: the ServingRuntime "
          "templates take quay.io/modh/vllm images, built from Red Hat's vLLM branch of each OpenShift AI "
          "release; its release notes do not name the upstream vLLM release)")
_GAUDI = ("https://github.com/opea-project/GenAIComps (opea/vllm-gaudi, built from HabanaAI's vLLM fork at a "
          "ref its tags do not name)")
# Intel's support matrix of each Gaudi software version names the official vLLM release its vLLM fork
# is forked from ("vLLM: Forked from v0.7.2 of the official vLLM"); the vllm-installer images of
# vault.habana.ai/gaudi-docker/<version>/ hold that version's vLLM
_GAUDI_MATRIX = "https://docs.habana.ai/en/latest/Support_Matrix/Support_Matrix_v{}.html"
_GAUDI_INSTALLER = ("https://docs.habana.ai/en/latest/Support_Matrix/ (one page per Gaudi software version: "
                    "the vLLM fork's base); https://github.com/HabanaAI/vllm-fork (README: the vllm-installer "
                    "images of vault.habana.ai)")


def _ngc(tag: str, vllm: str) -> dict[str, str]:
    return {"tag": tag, "vllm": vllm, "source": _NGC_NOTES.format(tag.replace(".", "-"))}


def _triton(tag: str, vllm: str, written: str = "") -> dict[str, Any]:
    """A row of Triton's matrix: ``written``, the vLLM version as the matrix spells it when it is
    not the release (``0.9.0rc1``, ``0.5.0 post1``), which the row's ``evidence`` looks for."""
    cell = re.escape(written or vllm)
    return {"tag": tag, "vllm": vllm, "source": _TRITON_MATRIX,
            "evidence": [rf"{re.escape(tag)}-vllm-python-py3\W+Python [\d.]+\W+{cell}(?![\d.])"]}


#: The image tag schemes. ``repository``: a regular expression on the image's repository path
#: (registry included, lower case); ``repository_text``: the texts one of which every repository it
#: matches holds (what ``record.required_text`` reads from the expression, kept here: read at the first
#: image of a run, ~3 M instructions; the tests check the two agree); ``tag``: on the tag; ``tag_alone``: the tag pattern names the
#: scheme without its repository (a hint whose image is unknown, a Helm ``tag:``);
#: ``read``: "embedded" (the tag's ``version`` group is the vLLM version; ``minor``: only X.Y),
#: "table" (``rows``: tag key -> vLLM release, each with its own source), "nightly" (a build of
#: main: the ``date`` group, when present, dates it); ``examples``: tags with what they read as,
#: checked by the tests against the rows' sources.
SCHEMES: list[dict[str, Any]] = [
    {
        "name": "NVIDIA NGC vLLM container",
        "repository": r"(^|/)nvcr\.io/nvidia/vllm$|^nvidia/vllm$",
        "repository_text": ('nvcr.io/nvidia/vllm', 'nvidia/vllm'),
        "tag": r"^(?P<key>\d{2}\.\d{2})(?:\.\d+)?-py3$",
        "tag_alone": True,
        "read": "table",
        "rows": [
            _ngc("25.10", "0.10.2"),
            _ngc("26.01", "0.11.1"),
            _ngc("26.03", "0.17.1"),
            _ngc("26.05", "0.20.1"),
            _ngc("26.10", "0.31.0"),
        ],
        "source": "https://docs.nvidia.com/deeplearning/frameworks/vllm-release-notes/ (one page per YY.MM)",
    },
    {
        "name": "NVIDIA Triton Inference Server vLLM container",
        "repository": r"(^|/)nvcr\.io/nvidia/tritonserver$|^nvidia/tritonserver$",
        "repository_text": ('nvcr.io/nvidia/tritonserver', 'nvidia/tritonserver'),
        "tag": r"^(?P<key>\d{2}\.\d{2})-vllm-python-py3$",
        "tag_alone": True,
        "read": "table",
        # NVIDIA's monthly containers never went back to an older vLLM: a month outside the rows
        # lies between its neighbours' releases (before the first row: at most its release)
        "ordered": True,
        "rows": [
            _triton("24.04", "0.4.0.post1", "0.4.0 post1"),
            _triton("24.05", "0.4.0.post1", "0.4.0 post1"),
            _triton("24.06", "0.4.3"),
            _triton("24.07", "0.5.0.post1", "0.5.0 post1"),
            _triton("24.08", "0.5.0.post1", "0.5.0 post1"),
            _triton("24.09", "0.5.3.post1"),
            _triton("24.10", "0.5.5"),
            _triton("24.11", "0.5.5"),
            _triton("24.12", "0.5.5"),
            _triton("25.01", "0.6.3.post1"),
            _triton("25.02", "0.7.0"),
            _triton("25.03", "0.7.3"),
            _triton("25.04", "0.8.1"),
            _triton("25.05", "0.8.4"),
            _triton("25.06", "0.9.0", "0.9.0rc1"),  # (a release candidate of 0.9.0)
            _triton("25.07", "0.9.0", "0.9.0rc1"),  # (a release candidate of 0.9.0)
            _triton("25.08", "0.9.2"),
            _triton("25.09", "0.10.1.1"),
            _triton("25.10", "0.10.2"),
            _triton("25.11", "0.11.0"),
            _triton("25.12", "0.11.1"),
            _triton("26.01", "0.13.0"),
            _triton("26.02", "0.15.1"),
            _triton("26.03", "0.17.1"),
            _triton("26.04", "0.19.0"),
            _triton("26.05", "0.19.0"),
            _triton("26.06", "0.22.1"),
            _triton("26.07", "0.24.0"),
        ],
        "source": _TRITON_MATRIX,
    },
    {
        "name": "AWS Neuron vLLM deep learning container",
        "repository": r"(^|/)(?:neuron/)?pytorch-inference-vllm-neuronx$",
        "repository_text": ('pytorch-inference-vllm-neuronx',),
        # 0.9.1-neuronx-py311-sdk2.26.1-ubuntu22.04; 0.24.0.1.1.0-neuronx-... (vLLM Neuron v0.24.0.1.1.0:
        # vLLM 0.24.0 with the plugin's 1.1.0)
        "tag": r"^(?P<version>\d+\.\d+\.\d+)(?:\.\d+\.\d+\.\d+)?-neuronx-",
        "tag_alone": True,
        "read": "embedded",
        "examples": {"0.9.1-neuronx-py311-sdk2.26.1-ubuntu22.04": "0.9.1",
                     "0.24.0.1.1.0-neuronx-py313-sdk2.32.0-ubuntu24.04": "0.24.0"},
        "source": _NEURON_DLC,
    },
    {
        "name": "AMD ROCm vLLM image",
        "repository": r"(^|/)rocm/vllm(-dev)?$",
        "repository_text": ('rocm/vllm',),
        # rocm6.4.1_vllm_0.9.1_20250715, rocm6.3.1_instinct_vllm0.8.3_20250415
        "tag": r"^rocm[\d.]+_(?:[a-z0-9]+_)?vllm_?(?P<version>\d+\.\d+\.\d+(?:\.\d+)?(?:\.post\d+)?)(?:_(?P<date>\d{8}))?",
        "tag_alone": True,
        "read": "embedded",
        "examples": {
            "rocm7.0.0_vllm_0.11.1_20251024": "0.11.1",
            "rocm6.4.1_vllm_0.10.1_20250909": "0.10.1",
            "rocm6.4.1_vllm_0.9.1_20250715": "0.9.1",
            "rocm6.4.1_vllm_0.9.0.1_20250605": "0.9.0.1",
            "rocm6.3.1_instinct_vllm0.8.3_20250415": "0.8.3",
        },
        "source": _ROCM_HISTORY,
    },
    {
        "name": "AMD ROCm vLLM development build",
        "repository": r"(^|/)rocm/vllm(-dev)?$",
        "repository_text": ('rocm/vllm',),
        # open-mi300-08052025, nightly_main_20250805: the build's date, no release
        "tag": r"^(?=.*\d{8}).+$",
        "tag_alone": False,
        "read": "dated",
        "examples": {"open-mi300-08052025": "2025-08-05", "nightly_main_20250805": "2025-08-05"},
        "source": _ROCM_DEV,
    },
    {
        "name": "Google Vertex AI Model Garden vLLM image",
        "repository": r"(^|/)vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve$",
        "repository_text": ('vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve',),
        # 20241030_0916_RC00, 20241016_0916_RC00_maas: Google's build of that day, of a vLLM it does not
        # name (no newer than the release after that day); gemma4 (a model's own build): unknown
        "tag": r"^.+$",
        "tag_alone": False,
        "read": "unknown",
        "dated_bound": True,
        "examples": {"20241030_0916_RC00": "2024-10-30", "20241107_0917_tpu_experimental_RC01": "2024-11-07"},
        "source": _VERTEX,
    },
    {
        "name": "Red Hat OpenShift AI vLLM runtime",
        "repository": r"(^|/)quay\.io/modh/vllm$|(^|/)quay\.io/opendatahub/vllm$|(^|/)registry\.redhat\.io/rhoai/odh-vllm-[a-z0-9-]+$",
        "repository_text": ('quay.io/modh/vllm', 'quay.io/opendatahub/vllm', 'registry.redhat.io/rhoai/odh-vllm-'),
        # rhoai-2.20-cuda, fast-gaudi: unknown; rhoai-2.15-20241107: a build of that day, no newer than
        # the release after it
        "tag": r"^.+$",
        "tag_alone": False,
        "read": "unknown",
        "dated_bound": True,
        "source": _RHOAI,
    },
    {
        "name": "Intel Gaudi vllm-installer image",
        # vault.habana.ai/gaudi-docker/1.21.0/ubuntu22.04/habanalabs/vllm-installer-2.6.0:latest: the
        # Gaudi software version is in the path (its key), any tag
        "repository": r"(^|/)vault\.habana\.ai/gaudi-docker/(?P<key>\d+\.\d+\.\d+)/(?:[^/]+/)?habanalabs/vllm-installer-[\w.-]+$",
        "repository_text": ('vault.habana.ai/gaudi-docker/',),
        "tag": r"^.+$",
        "tag_alone": False,
        "read": "table",
        "key_in": "repository",
        # the Gaudi software versions go forward in vLLM: a version without a row lies between its
        # neighbours' releases (1.20.0: the fork's own tag says v0.6.6.post1, between 0.6.4 and 0.7.2)
        "ordered": True,
        "rows": [
            {"tag": "1.19.0", "vllm": "0.6.4.post2", "source": _GAUDI_MATRIX.format("1.19.0"),
             "evidence": [r"vLLM\W+Forked from v0\.6\.4\.post2 of the official vLLM"]},
            {"tag": "1.21.0", "vllm": "0.7.2", "source": _GAUDI_MATRIX.format("1.21.0"),
             "evidence": [r"vLLM\W+Forked from v0\.7\.2 of the official vLLM"]},
        ],
        "source": _GAUDI_INSTALLER,
    },
    {
        "name": "OPEA vLLM Gaudi image",
        "repository": r"(^|/)opea/vllm-gaudi$",
        "repository_text": ('opea/vllm-gaudi',),
        "tag": r"^.+$",
        "tag_alone": False,
        "read": "unknown",
        "source": _GAUDI,
    },
    {
        "name": "Red Hat AI Inference Server",
        "repository": r"(^|/)registry\.redhat\.io/rhaiis/vllm-[a-z0-9-]+$|(^|/)rhaiis/vllm-[a-z0-9-]+$",
        "repository_text": ('registry.redhat.io/rhaiis/vllm-', 'rhaiis/vllm-'),
        # 3.0, 3.3.0, 3.3.0-1771898916 (a build of 3.3.0), 3.2.0-1754088865-hotfix-1; a row for X.Y.Z
        # first, else X.Y
        "tag": r"^(?P<key>\d+\.\d+)(?P<patch>\.\d+)?(?:-\d+)?(?:-[a-z][\w.-]*)?$",
        "tag_alone": False,
        "read": "table",
        # Red Hat's versions go forward in vLLM: a version without a row (3.1, 3.2.1) lies between its
        # neighbours' releases (3.2.1: between 3.0's 0.8.4 and 3.2.2's 0.10.1)
        "ordered": True,
        "rows": [
            {"tag": "3.0", "vllm": "0.8.4", "source": _RHAIIS_30},
            {"tag": "3.2.2", "vllm": "0.10.1", "source": _RHAIIS_LLMD, "evidence": [r"RHAIIS 3\.2\.2", r"v0\.10\.1"]},
            {"tag": "3.3", "vllm": "0.13.0", "source": _RHAIIS_LLMD, "evidence": [r"RHAIIS 3\.3\b", r"v0\.13\.0"]},
            {"tag": "3.4", "vllm": "0.13.0", "source": _RHAIIS_LLMD, "evidence": [r"RHAIIS 3\.4\b", r"v0\.13\.0"]},
        ],
        "source": "https://docs.redhat.com/en/documentation/red_hat_ai_inference_server/ (supported product and "
                  "hardware configurations, per version)",
    },
    {
        "name": "AWS / Hugging Face vLLM deep learning container",
        "repository": r"(^|/)deep-learning-containers/vllm$",
        "repository_text": ('deep-learning-containers/vllm',),
        "tag": r"^(?P<version>\d+\.\d+)-gpu-py\d+",
        "tag_alone": False,
        "read": "embedded",
        "minor": True,
        "examples": {"0.15-gpu-py312-ec2": "0.15"},
        "source": _AWS_DLC,
    },
    {
        "name": "vLLM nightly build",
        "repository": r".*",
        "repository_text": (),
        # nightly, nightly-<commit>, cu130-nightly, nightly-20251024, nightly-2025-10-24, <commit>;
        # vllm/vllm-tpu's nightly-20260701-6af3d12-9969466 (date, commit, build)
        "tag": r"^(?:(?:cu\d+|rocm|cpu|tpu|xpu)-)?nightly(?:-(?:(?P<date>\d{8}|\d{4}-\d\d-\d\d)(?:-[0-9a-f]{7,40})?(?:-\d+)?"
               r"|(?P<commit>[0-9a-f]{7,40})))?$"
               r"|^(?P<sha>[0-9a-f]{40})$",
        "tag_alone": True,
        "read": "nightly",
        "source": _VLLM_HUB,
    },
]

_compiled: Optional[list[tuple[dict[str, Any], "re.Pattern[str]", "re.Pattern[str]"]]] = None


def _schemes() -> list[tuple[dict[str, Any], "re.Pattern[str]", "re.Pattern[str]"]]:
    global _compiled
    if _compiled is None:
        # (each tag's expression compiled when an image of its repository is read: one a run, mostly;
        # a repository's, when the image names its literal text: none for vllm/vllm-openai but the
        # catch-all's, where compiling them all was ~7 M instructions)
        # (the repository's screen is the scheme's ``repository_text``, which the tests check against
        # ``record.required_text``: reading it from the expressions at the first image read cost ~3 M
        # instructions of every lint reading one, benchmarks/README.md, issue 31's ninth pass)
        _compiled = [(s, screened_re(s["repository"], need=(s["repository_text"], False)), lazy_re(s["tag"]))
                     for s in SCHEMES]
    return _compiled


def repository_of(image: str) -> str:
    """The repository path of an image reference, lower case, without tag or digest."""
    return _split_image(image.strip().lower())[0]


class HintReading(Record):
    """What one version hint names (module docstring): ``status``, the database release to check
    against (``version``, None for "unmapped" / "none"), the release as the hint names it
    (``named``), the tag scheme it was read by (``scheme``, with its ``source``), ``note``: the
    words --verbose shows for the choice; for "unknown", ``low`` / ``high``: the database releases
    that bound it, where known (None: unbounded)."""

    __slots__ = ("status", "version", "named", "scheme", "source", "note", "low", "high")

    def __init__(self, status: str, version: Optional[str] = None, named: Optional[str] = None,
                 scheme: Optional[str] = None, source: Optional[str] = None, note: str = "",
                 low: Optional[str] = None, high: Optional[str] = None) -> None:
        self.status = status
        self.version = version
        self.named = named
        self.scheme = scheme
        self.source = source
        self.note = note
        self.low = low
        self.high = high


def scheme_reading(tag: str, image: Optional[str]) -> Optional[tuple[dict[str, Any], Optional[str], "re.Match[str]"]]:
    """(scheme, the vLLM version it names or None, the tag's match) for a tag of a known scheme,
    else None. Without ``image`` only the schemes whose tag names them (``tag_alone``) apply."""
    repo = repository_of(image) if image else None
    t = tag.strip()
    for scheme, repo_re, tag_re in _schemes():
        if repo is None and not scheme["tag_alone"]:
            continue
        rm = repo_re.search(repo) if repo is not None else None
        if repo is not None and not rm:
            continue
        if scheme["read"] == "nightly":
            low = t.lower()
            # (a nightly tag names `nightly` or is a commit's 40 hex digits: any other tag, the usual
            # v0.10.1 among them, is not matched, nor the expression compiled for it, ~1.8 M instructions)
            m = tag_re.match(low) if "nightly" in low or len(low) in (40, 41) else None
        else:
            m = tag_re.match(t)
        if not m:
            continue
        if scheme["read"] == "dated" and _date_in(t) is None:
            continue
        if scheme["read"] == "embedded":
            return scheme, m.group("version"), m
        if scheme["read"] == "table":
            if scheme.get("key_in") == "repository":  # (the key is in the image's path: Gaudi's software version)
                if rm is None:
                    continue
                m = rm
            row = _row(scheme, m)
            return scheme, (row["vllm"] if row else None), m
        return scheme, None, m
    return None


def _row(scheme: dict[str, Any], m: "re.Match[str]") -> Optional[dict[str, str]]:
    key = m.group("key")
    patch = (m.groupdict().get("patch") or "") if "patch" in m.re.groupindex else ""
    row = next((r for r in scheme["rows"] if r["tag"] == key + patch), None) if patch else None
    return row or next((r for r in scheme["rows"] if r["tag"] == key), None)


def vendor_scheme(image: str) -> Optional[dict[str, Any]]:
    """The scheme of a vendor's image named by its repository (not the catch-all nightly scheme),
    for an image that is no vLLM image by its name (Triton's, Neuron's, Red Hat OpenShift AI's),
    or None."""
    repo = repository_of(image)
    for scheme, repo_re, _tag_re in _schemes():
        if scheme["repository"] != r".*" and repo_re.search(repo):
            return scheme
    return None


def read_image(db: Any, image: str) -> Optional[HintReading]:
    """What a launch's own image says of its vLLM release when the image is a vendor's of a known
    scheme (:func:`vendor_scheme`): its tag read as a hint (an untagged one is "latest", a digest
    alone names none: "unknown"); None for other images, and for a tag the scheme does not read
    (Triton's ``24.02-py3`` holds no vLLM)."""
    if not image or "$" in image or "{" in image:
        return None
    scheme = vendor_scheme(image)
    if scheme is None:
        return None
    from ..images import version_from_image

    tag = version_from_image(image)
    if tag is None:
        return HintReading("unknown", scheme=scheme["name"], source=scheme["source"],
                           note=f"{scheme['name']} by digest: its vLLM release is unknown")
    found = scheme_reading(tag, image)
    if found is None or found[0]["repository"] == r".*":  # (Triton's image without vLLM, 24.02-py3: none of vLLM's)
        return None
    return read_hint(db, tag, image)


def read_hint(db: Any, text: str, image: Optional[str] = None) -> HintReading:
    """What the hint ``text`` (a tag or a version as written; ``image``: the image it is the tag
    of, when known) names, read against the database ``db`` (``surface.db.Database``)."""
    t = text.strip()
    if t == UNNAMED_REVISION:  # (vLLM built from its source at a revision nobody names: any release)
        return HintReading("unknown", note="a release between the database's oldest and newest")
    scheme = vendor_scheme(image) if image else None
    if t.lower() in ("latest", "main", "stable") and not (scheme and scheme.get("key_in") == "repository"):
        # (a key in the image's path names the release whatever the tag: Gaudi's software version)
        if scheme is not None and scheme["read"] in ("unknown", "table", "dated"):  # (a vendor's floating tag)
            return HintReading("unknown", scheme=scheme["name"], source=scheme["source"],
                               note=f"{scheme['name']} '{t}': a floating tag whose vLLM release is unknown")
        return HintReading("build", db.newest, note=f"'{t}' names no release ({db.newest}, the newest in the database)")
    found = scheme_reading(t, image)
    if found is not None:
        scheme, version, m = found
        if scheme["read"] == "nightly":
            if m.group("date"):
                return dated(db, t, scheme)
            what = f"commit {m.group('commit') or m.group('sha')}" if (m.group("commit") or m.group("sha")) else ""
            return HintReading("build", db.newest, scheme=scheme["name"], source=scheme["source"],
                               note=f"a nightly build of vLLM's main branch{' (' + what + ')' if what else ''}, no "
                                    f"release: checked against the newest in the database, {db.newest}")
        if scheme["read"] == "dated":
            return dated(db, t, scheme)
        if scheme["read"] == "unknown":
            day = _date_in(t) if scheme.get("dated_bound") else None
            if day is not None:  # (a vendor's build of that day: of some release up to the one after it)
                d = dated(db, t, scheme)
                high = d.high or d.version
                return HintReading("unknown", high, scheme=scheme["name"], source=scheme["source"], high=high,
                                   note=f"{scheme['name']} '{t}': a build of {day.isoformat()} of a vLLM release the "
                                        f"vendor does not name, no newer than {high}")
            return HintReading("unknown", scheme=scheme["name"], source=scheme["source"],
                               note=f"{scheme['name']} '{t}': the vendor does not name the vLLM release its tags hold")
        if version is None:
            if scheme.get("ordered"):
                return _between(db, t, scheme, m)
            return HintReading("unmapped", scheme=scheme["name"], source=scheme["source"],
                               note=f"{scheme['name']} '{t}': the vLLM release it holds is not in vllm-lint's table "
                                    "of that scheme")
        reading = _read_version(db, version)
        if scheme.get("minor") and reading.status == "release":  # (X.Y: a tag that follows the series)
            reading.version = db.resolve_version(version)
        reading.scheme, reading.source = scheme["name"], scheme["source"]
        reading.note = f"{scheme['name']}: vLLM {version}" + (f"; {reading.note}" if reading.note else "")
        return reading
    if scheme is not None and scheme["read"] == "table":
        # a vendor's image whose tags are its own product's versions (Red Hat AI Inference Server's
        # 3.2.0, NGC's 25.09): a tag outside its pattern is no vLLM version either
        return HintReading("unmapped", scheme=scheme["name"], source=scheme["source"],
                           note=f"{scheme['name']} '{t}': a tag of the vendor's own versions, whose vLLM release "
                                "vllm-lint's table of that scheme does not know")
    return _read_version(db, t)


def _date_in(text: str) -> Any:
    """``release_dates.date_in``, its module imported when a tag may carry a date (most tags
    read in a run are not of a dated scheme: ~0.4 M instructions a one-file run; benchmarks/README.md)."""
    from .release_dates import date_in

    return date_in(text)


def dated(db: Any, text: str, scheme: Optional[dict[str, Any]] = None) -> HintReading:
    """A build whose tag or branch ``text`` carries its date: the release current that day (the
    newest in the database at or before it), "about X.Y.x (dated tag)"; "none" without a date."""
    from .release_dates import current_at

    day = _date_in(text)
    current = current_at(day) if day is not None else None
    name, source = (scheme["name"], scheme["source"]) if scheme else (None, None)
    if day is None:
        return HintReading("none", note=f"'{text}' names no vLLM release")
    if current is None:
        oldest = db.versions[0]
        return HintReading("older", oldest, scheme=name, source=source,
                           note=f"a build of {day.isoformat()}, before every release dated here: checked against the "
                                f"oldest in the database, {oldest}")
    at = _at_or_before(db, current)
    if at is None:
        at = db.versions[0]
    later = [v for v in db.versions if _newer(v, at)]
    nxt = later[0] if later else None
    series = ".".join(current.split(".")[:2])
    return HintReading("dated", at, named=current, scheme=name, source=source, low=at, high=nxt,
                       note=f"about {series}.x (dated tag: built {day.isoformat()}, when the newest release was "
                            f"{current}" + (f"; checked against {at}" if at != current else "")
                            + (f", and against {nxt}, the next, whose changes a build of main may hold" if nxt else "")
                            + ")")


def _newer(a: str, b: str) -> bool:
    pa = Version(a)
    return pa > Version(b) and not (pa.is_devrelease or pa.local)


def _at_or_before(db: Any, version: str) -> Optional[str]:
    """The newest release of the database at or before ``version``."""
    want = Version(version)
    found = None
    for v in db.versions:
        if Version(v) <= want:
            found = v
    return found


def _between(db: Any, text: str, scheme: dict[str, Any], m: "re.Match[str]") -> HintReading:
    """A key of an ordered table that has no row: between the releases of the rows around it."""
    def order(tag: str) -> Any:
        try:
            return Version(tag)
        except InvalidVersion:
            return Version("0")

    key = m.group("key") + (m.groupdict().get("patch") or "")  # (3.2.5 after 3.2.2, not at 3.2)
    rows = sorted(scheme["rows"], key=lambda r: order(r["tag"]))
    before = [r for r in rows if order(r["tag"]) < order(key)]
    after = [r for r in rows if order(r["tag"]) > order(key)]
    low = _at_or_before(db, before[-1]["vllm"]) if before else None
    high = _at_or_before(db, after[0]["vllm"]) if after else None
    if high is not None and Version(high) < Version(db.versions[0]):
        high = None
    said = (f"between vLLM {before[-1]['vllm']} ({before[-1]['tag']}) and {after[0]['vllm']} ({after[0]['tag']})"
            if before and after else f"vLLM {after[0]['vllm']} ({after[0]['tag']}) or older" if after
            else f"vLLM {before[-1]['vllm']} ({before[-1]['tag']}) or newer")
    label = key if scheme.get("key_in") == "repository" else text
    return HintReading("unknown", high, scheme=scheme["name"], source=scheme["source"], low=low, high=high,
                       note=f"{scheme['name']} '{label}': not in the table; its neighbours say {said}")


_LEADING = lazy_re(r"v?(\d+\.\d+(?:\.\d+)?(?:\.\d+)?(?:\.?post\d+)?)(?=[.+_-]|$)")


def _read_version(db: Any, text: str) -> HintReading:
    """A version as written (``v0.8.5``, ``0.9``, ``0.9.2-cu124``, ``v0.7.3.self.post1``)."""
    v = db.floor_version(text)
    if v is None:  # a local suffix on the release (v0.7.3.self.post1): the release it names
        m = _LEADING.match(text.strip())
        if m is None:
            return HintReading("none", note=f"'{text}' names no vLLM release")
        text = m.group(1)
        v = db.floor_version(text)
    named = text.strip().lstrip("vV").split("-")[0].split("+")[0]
    try:
        want = Version(named)
    except InvalidVersion:
        return HintReading("none", note=f"'{text}' names no vLLM release")
    newest = Version(db.newest)
    if want > newest and not (len(want.release) == 2 and v is not None):
        # (0.33 names the series, whose newest the database has: not newer)
        return HintReading("newer", db.newest, named=named,
                           note=f"vLLM {named} is newer than the database, whose newest is {db.newest}: checked "
                                f"against {db.newest}; `vllm-lint db update` adds it")
    if v is None:  # (older than the database: its oldest release is the nearest, and the note says so)
        oldest = db.versions[0]
        return HintReading("older", oldest, named=named,
                           note=f"vLLM {named} is older than every release in the database: checked against its "
                                f"oldest, {oldest}, the nearest")
    if Version(v) != want and len(want.release) > 2:
        return HintReading("series", v, named=named,
                           note=f"vLLM {named} is not a release in the database: the newest of its series, {v}")
    return HintReading("release", v, named=named)
