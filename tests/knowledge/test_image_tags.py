"""Issue 28: the image tag schemes (vllm_lint/knowledge/image_tags.py) and the releases a launch
that names none is accepted by (pipeline/targeting.py ``accepted_range``), against the shipped
database (0.4.0 to 0.33.0)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from vllm_lint.argv import ArgvParser
from vllm_lint.knowledge.image_tags import SCHEMES, read_hint, read_image, scheme_reading
from vllm_lint.knowledge.release_dates import current_at, date_in, release_dates
from vllm_lint.launch import EnvAssign, Launch, Span, Token
from vllm_lint.pipeline.targeting import accepted_range
from vllm_lint.surface.db import Database, default_db_path


@pytest.fixture(scope="module")
def db():
    return Database(default_db_path())


def _scheme(name):
    return next(s for s in SCHEMES if s["name"] == name)


# ----------------------------------------------------------------------------- the table


def test_every_scheme_and_row_has_a_source():
    for s in SCHEMES:
        assert s["source"].startswith("https://"), s["name"]
        assert s["read"] in ("embedded", "table", "nightly", "dated", "unknown")
        for row in s.get("rows", []):
            assert row["source"].startswith("https://") and re.fullmatch(r"\d+\.\d+\.\d+(\.\d+)?(\.post\d+)?",
                                                                          row["vllm"]), row


def test_ngc_rows_name_the_release_notes_of_their_own_month():
    for row in _scheme("NVIDIA NGC vLLM container")["rows"]:
        assert row["source"].endswith(f"/rel-{row['tag'].replace('.', '-')}.html"), row


@pytest.mark.parametrize("scheme", [s["name"] for s in SCHEMES if s.get("examples")])
def test_embedded_schemes_read_their_recorded_examples(scheme):
    s = _scheme(scheme)
    image = {"AMD ROCm vLLM image": "rocm/vllm", "AWS / Hugging Face vLLM deep learning container":
             "public.ecr.aws/deep-learning-containers/vllm", "AMD ROCm vLLM development build": "rocm/vllm-dev",
             "AWS Neuron vLLM deep learning container": "public.ecr.aws/neuron/pytorch-inference-vllm-neuronx",
             "Google Vertex AI Model Garden vLLM image":
             "us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve"}[scheme]
    for tag, version in s["examples"].items():
        found = scheme_reading(tag, f"{image}:{tag}")
        assert found is not None and found[0] is s, tag
        if s["read"] in ("dated", "unknown"):  # (the example gives the date the tag carries)
            assert date_in(tag).isoformat() == version, tag
        else:
            assert found[1] == version, tag


@pytest.mark.parametrize("image,release", [
    ("nvcr.io/nvidia/vllm:25.10-py3", "0.10.2"),
    ("nvcr.io/nvidia/vllm:26.01-py3", "0.11.1"),
    ("nvcr.io/nvidia/vllm:26.03-py3", "0.17.1"),
    ("nvcr.io/nvidia/vllm:26.05-py3", "0.20.1"),
    ("nvcr.io/nvidia/vllm:26.10-py3", "0.31.0"),
    ("rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715", "0.9.1"),
    ("rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250415", "0.8.3"),
    ("registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.0.0", "0.8.4"),
    ("registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.3.0-1771898916", "0.13.0"),
    ("registry.redhat.io/rhaiis/vllm-rocm-rhel9:3.2.2", "0.10.1"),
    ("registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.4", "0.13.0"),
    ("public.ecr.aws/deep-learning-containers/vllm:0.15-gpu-py312-ec2", "0.15.1"),
])
def test_vendor_tags_name_the_release_in_the_database(db, image, release):
    tag = image.rsplit(":", 1)[1]
    r = read_hint(db, tag, image)
    assert (r.status, r.version) == ("release", release), r.note


def test_a_red_hat_patch_row_before_its_minor(db):
    assert read_hint(db, "3.2.2", "registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.2.2").version == "0.10.1"
    # 3.2.5 has no row of its own, and no 3.2 row: never 3.2.2's release, but between its neighbours'
    # (Red Hat's versions go forward in vLLM): after 3.2.2 (0.10.1), before 3.3 (0.13.0)
    r = read_hint(db, "3.2.5", "registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.2.5")
    assert (r.status, r.low, r.high) == ("unknown", db.floor_version("0.10.1"), db.floor_version("0.13.0")), r.note
    # 3.2.1, 3.1: after 3.0 (0.8.4), before 3.2.2 (0.10.1)
    for tag in ("3.2.1", "3.1", "3.2.0-1754088865-hotfix-1"):
        r = read_hint(db, tag, f"registry.redhat.io/rhaiis/vllm-cuda-rhel9:{tag}")
        assert (r.status, r.low, r.high) == ("unknown", db.floor_version("0.8.4"), db.floor_version("0.10.1")), r.note


def test_a_vendor_tag_missing_from_its_table_names_no_release(db):
    r = read_hint(db, "25.09-py3", "nvcr.io/nvidia/vllm:25.09-py3")
    assert (r.status, r.version) == ("unmapped", None) and "not in vllm-lint's table" in r.note


def test_a_red_hat_version_is_not_read_as_a_vllm_version_without_its_image(db):
    # 3.0.0 alone would be a vLLM release newer than the database: only Red Hat's image maps it
    assert read_hint(db, "3.0.0").status == "newer"
    assert read_hint(db, "3.0.0", "registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.0.0").version == "0.8.4"


@pytest.mark.parametrize("tag", ["nightly-0123abcd", "cu130-nightly",
                                 "0123456789abcdef0123456789abcdef01234567"])
def test_nightly_builds(db, tag):
    r = read_hint(db, tag, f"vllm/vllm-openai:{tag}")
    assert (r.status, r.version) == ("build", db.newest) and "nightly build" in r.note


# ----------------------------------------------------------------------------- dated tags


@pytest.mark.parametrize("image,release,series", [
    ("vllm/vllm-openai:nightly-20251024", "0.11.0", "0.11"),            # 0.11.0 2025-10-04, 0.11.1 2025-11-19
    ("rocm/vllm-dev:open-mi300-08052025", "0.10.0", "0.10"),           # MMDDYYYY: 0.10.0 2025-07-25, 0.10.1 08-19
    ("rocm/vllm-dev:nightly_main_20250819", "0.10.1", "0.10"),         # the day 0.10.1 reached PyPI
    ("rocm/vllm-dev:nightly_main_20250818", "0.10.0", "0.10"),         # the day before
])
def test_a_dated_tag_is_the_release_current_that_day(db, image, release, series):
    tag = image.rsplit(":", 1)[1]
    r = read_hint(db, tag, image)
    assert (r.status, r.version) == ("dated", release), r.note
    assert r.note.startswith(f"about {series}.x (dated tag")


def test_a_tag_with_a_vllm_version_and_a_date_is_read_by_its_version(db):
    r = read_hint(db, "rocm6.4.1_vllm_0.9.1_20250715", "rocm/vllm-dev:rocm6.4.1_vllm_0.9.1_20250715")
    assert (r.status, r.version) == ("release", "0.9.1")


@pytest.mark.parametrize("text,day", [
    ("nightly-2025-08-05", "2025-08-05"), ("2025.08.05", "2025-08-05"), ("open-mi300-08052025", "2025-08-05"),
    ("nightly_main_20250805", "2025-08-05"), ("v0.9.1", None), ("build-12345678", None), ("sha-20251399", None),
])
def test_dates_in_names(text, day):
    got = date_in(text)
    assert (got.isoformat() if got else None) == day


def test_release_dates_are_in_release_order_and_cover_the_database(db):
    from packaging.version import Version

    rows = release_dates()
    assert [v for _d, v in rows] == sorted((v for _d, v in rows), key=Version)
    dated = {v for _d, v in rows}
    assert all(v in dated for v in db.versions if not Version(v).is_devrelease)
    first_day, first = rows[0]
    assert current_at(first_day) == first


# ----------------------------------------------------------------------------- vendor images


@pytest.mark.parametrize("image,release", [
    ("nvcr.io/nvidia/tritonserver:24.04-vllm-python-py3", "0.4.0.post1"),
    ("nvcr.io/nvidia/tritonserver:25.07-vllm-python-py3", "0.9.0"),    # 0.9.0rc1 in the matrix
    ("nvcr.io/nvidia/tritonserver:25.09-vllm-python-py3", "0.10.1.1"),
    ("nvcr.io/nvidia/tritonserver:26.07-vllm-python-py3", "0.24.0"),
    ("public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:0.9.1-neuronx-py311-sdk2.26.1-ubuntu22.04", "0.9.1"),
    ("public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:0.24.0.1.1.0-neuronx-py313-sdk2.32.0-ubuntu24.04", "0.24.0"),
])
def test_vendor_images_that_are_no_vllm_image_by_name(db, image, release):
    r = read_image(db, image)
    assert (r.status, r.version) == ("release", release), r.note


@pytest.mark.parametrize("version,status,release,low,high", [
    ("1.19.0", "series", "0.6.4.post1", None, None),   # "forked from v0.6.4.post2": not on PyPI, its series' newest
    ("1.21.0", "release", "0.7.2", None, None),
    ("1.20.0", "unknown", "0.7.2", "0.6.4.post1", "0.7.2"),  # between its neighbours
    ("1.23.0", "unknown", None, "0.7.2", None),
])
def test_a_gaudi_installer_image_by_the_software_version_in_its_path(db, version, status, release, low, high):
    r = read_image(db, f"vault.habana.ai/gaudi-docker/{version}/ubuntu22.04/habanalabs/vllm-installer-2.6.0:latest")
    assert (r.status, r.version, r.low, r.high) == (status, release, low, high), r.note
    # Intel's PyTorch images hold no vLLM
    assert read_image(db, f"vault.habana.ai/gaudi-docker/{version}/ubuntu22.04/habanalabs/pytorch-installer-2.6.0:latest") is None


def test_a_triton_month_outside_the_matrix_is_bounded_by_its_neighbours(db):
    before = read_image(db, "nvcr.io/nvidia/tritonserver:24.02-vllm-python-py3")
    assert (before.status, before.low, before.high) == ("unknown", None, "0.4.0.post1")
    after = read_image(db, "nvcr.io/nvidia/tritonserver:26.09-vllm-python-py3")
    assert (after.status, after.low, after.high) == ("unknown", "0.24.0", None)
    # Triton's images without vLLM hold none of it
    assert read_image(db, "nvcr.io/nvidia/tritonserver:24.02-py3") is None


@pytest.mark.parametrize("image", [
    "us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:gemma4",
    "quay.io/modh/vllm:rhoai-2.20-cuda", "quay.io/modh/vllm@sha256:" + "a" * 64, "quay.io/opendatahub/vllm:fast-gaudi",
    "opea/vllm-gaudi:1.2", "opea/vllm-gaudi:latest",
])
def test_vendor_images_whose_release_is_not_published_are_unknown(db, image):
    r = read_image(db, image)
    assert (r.status, r.version) == ("unknown", None) and "vLLM release" in r.note


@pytest.mark.parametrize("image,high", [
    ("us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:20241030_0916_RC00", "0.6.4"),
    ("quay.io/modh/vllm:rhoai-2.15-20241107", "0.6.4"),               # 0.6.3.post1 2024-10-17, 0.6.4 11-15
])
def test_a_vendor_build_of_a_day_is_no_newer_than_the_next_release(db, image, high):
    """A vendor's own build (Google's, Red Hat's) may lag upstream: its date bounds it from above only."""
    r = read_image(db, image)
    assert (r.status, r.version, r.low, r.high) == ("unknown", high, None, high), r.note


def test_other_images_are_not_read_as_a_vendor_s(db):
    assert read_image(db, "myorg/inference:1.2") is None
    assert read_image(db, "vllm/vllm-openai:v0.9.2") is None  # (vLLM's own image: a version hint already)


@pytest.mark.network
@pytest.mark.parametrize("row", [(s["name"], r) for s in SCHEMES for r in s.get("rows", [])],
                         ids=lambda x: f"{x[0]} {x[1]['tag']}")
def test_table_rows_against_their_sources(row):
    """Each row's source still names the vLLM release the row gives (NVIDIA: "vLLM: X"; Red Hat:
    the compatibility table's "vLLM core" row, or the llm-d components table's cells the row's
    ``evidence`` names)."""
    import requests

    _name, r = row
    text = re.sub(r"<[^>]+>", " ", requests.get(r["source"], timeout=30).text)
    if r.get("evidence"):
        assert all(re.search(e, text) for e in r["evidence"]), r
    else:
        assert re.search(rf"vLLM(?: core)?\W+{re.escape(r['vllm'])}\b", text), r


@pytest.mark.network
def test_embedded_examples_against_their_source():
    import requests

    s = _scheme("AMD ROCm vLLM image")
    text = requests.get(s["source"], timeout=30).text
    for tag in s["examples"]:
        assert tag in text, tag


# ----------------------------------------------------------------------------- the inferred range


def _launch(words, env=()):
    toks, pos = [], 0
    for w in words:
        toks.append(Token(w, Span(pos, pos + len(w))))
        pos += len(w) + 1
    return Launch("t.sh", "vllm serve", "argv", Span(0, pos), tokens=toks,
                  env=[EnvAssign(n, None, v) for n, v in env])


def _oracle(db, words, env):
    """The newest unbroken run of releases whose own surface accepts every option string and
    value, and whose environment table has every variable: release by release."""
    ok = []
    for v in db.versions:
        s = db.surface(v)
        args = ArgvParser(s, db, positional_model=s.entry_has_positional_model("vllm serve")).parse(_launch(words))
        good = all(n in s.env for n, _ in env)
        for a in args:
            if a.positional or not a.canonical.startswith("-"):
                continue
            if db.option_history(a.canonical) is None:
                continue
            o = s.lookup(a.canonical)
            if o is None or (o.choices and a.value is not None and str(a.value) not in [str(c) for c in o.choices]):
                good = False
        ok.append(good)
    last = max((i for i, g in enumerate(ok) if g), default=None)
    if last is None:
        return None
    first = last
    while first > 0 and ok[first - 1]:
        first -= 1
    return db.versions[first], db.versions[last]


@pytest.mark.parametrize("words,env", [
    (["m", "--swap-space", "4", "--max-num-partial-prefills", "2"], []),                       # 0.7-0.17 era
    (["m", "--num-scheduler-steps", "8", "--use-v2-block-manager"], []),                        # 0.5-0.6 era
    (["m", "--guided-decoding-backend", "outlines", "--preemption-mode", "swap"], []),           # 0.6-0.10 era
    (["m", "--cuda-graph-sizes", "8", "16"], [("VLLM_USE_V1", "1")]),                           # 0.9-0.12 era
    (["m", "--max-model-len", "4096", "--kv-cache-dtype", "fp8_e4m3"], []),
])
def test_the_range_ends_are_exact_against_the_database(db, words, env):
    s = db.surface(db.newest)
    args = ArgvParser(s, db, positional_model=True).parse(_launch(words, env))
    got = accepted_range(db, args, [n for n, _ in env])
    want = _oracle(db, words, env)
    if want == (db.versions[0], db.newest):
        want = None  # (every release accepts it: nothing to say)
    assert got == want


def test_a_launch_every_release_accepts_says_nothing(db):
    args = ArgvParser(db.surface(db.newest), db, positional_model=True).parse(_launch(["m", "--port", "8000"]))
    assert accepted_range(db, args, []) is None


def test_each_scheme_keeps_the_texts_its_repository_expression_requires():
    """``repository_text`` is the repository screen of :func:`image_tags._schemes`: it must be what
    ``record.required_text`` reads from the expression (a new scheme's is what this says)."""
    from vllm_lint.record import required_text

    for s in SCHEMES:
        assert (s["repository_text"], False) == required_text(s["repository"]), s["name"]


_NIGHTLY_WORDS = ["nightly", "NIGHTLY", "cu130-", "rocm-", "-", "2025", "10", "-24", "20251024", "0", "a", "f", "g",
                  "6af3d12", "0123456789abcdef0123456789abcdef01234567", "v0.10.1", "latest", "\n", " ", "\u0130"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_NIGHTLY_WORDS), max_size=8))
def test_the_nightly_screen_passes_every_tag_its_expression_matches(words):
    """scheme_reading tries the nightly expression only on a tag naming `nightly` or 40-41 characters
    long: every tag it matches is one of them."""
    import re

    tag = "".join(words)
    nightly = next(s for s in SCHEMES if s["read"] == "nightly")
    low = tag.strip().lower()
    if re.match(nightly["tag"], low):
        assert "nightly" in low or len(low) in (40, 41), tag
