"""The one table of wrappers' own options (vllm_lint/wrapper_options.py)."""

from __future__ import annotations

import re

from vllm_lint.wrapper_options import WRAPPERS, own_options

_COMMIT = re.compile(r"\b[0-9a-f]{40}\b")


def test_every_wrapper_records_where_its_options_were_read():
    for entry, w in WRAPPERS.items():
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", w.repository), entry
        assert w.read, entry
        for path, commits in w.read:
            assert not path.startswith("/") and "." in path.rsplit("/", 1)[-1], (entry, path)
            assert _COMMIT.search(commits), (entry, path)


def test_shapes_and_names():
    for entry, w in WRAPPERS.items():
        assert w.options, entry
        for name, shape in w.options.items():
            assert name.startswith("--") and " " not in name and "=" not in name, (entry, name)
            assert shape in ("flag", "value", "values"), (entry, name, shape)


def test_own_options_by_entry():
    assert own_options("vllm serve") == {}
    assert own_options("kserve:huggingfaceserver")["--model_name"] == "value"
    assert own_options("kserve:huggingfaceserver")["--disable_log_requests"] == "flag"
    # KServe's options whose value reaches vLLM's own field are vLLM's to judge
    assert "--max_model_len" not in own_options("kserve:huggingfaceserver")
    assert own_options("dynamo.vllm")["--connector"] == "values"


def test_wrappers_take_no_positional_model(synth_db):
    surface = synth_db.surface("0.27.1")
    for entry in WRAPPERS:
        assert not surface.entry_has_positional_model(entry), entry
    assert surface.entry_has_positional_model("vllm serve")
