"""Pure parts of tools/crosscheck/fixcheck.py (no vLLM, no venvs, no network)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("fixcheck", ROOT / "tools" / "crosscheck" / "fixcheck.py")
fc = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fc)


def test_case_meta_and_argv():
    text = ("#!/bin/sh\n# fixcheck: origin=0.8.5 note=x\n# a comment with vllm serve in it\n"
            "vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n  --max-model-len=8192 \\\n"
            "  --speculative-config '{\"model\": \"a b\"}'  # trailing comment\n")
    assert fc.case_meta(text) == {"origin": "0.8.5", "note": "x"}
    assert fc.serve_argv(text) == ["meta-llama/Llama-3.1-8B-Instruct", "--max-model-len=8192",
                                   "--speculative-config", '{"model": "a b"}']
    assert fc.serve_argv("echo hi\n") is None
    assert fc.serve_argv("/opt/venv/bin/vllm serve m -tp 2\n") == ["m", "-tp", "2"]


def test_every_shipped_case_has_an_origin_and_a_command():
    cases = sorted(fc.CASES.glob("*.sh"))
    assert len(cases) >= 40
    for p in cases:
        text = p.read_text()
        assert fc.case_meta(text).get("origin"), p.name
        argv = fc.serve_argv(text)
        assert argv and not argv[0].startswith("-"), p.name


def test_flatten_config_objects_and_json():
    ns = {
        "max_model_len": 8192,
        "compilation_config": {"__config__": "CompilationConfig", "level": 3, "splitting_ops": [],
                               "__defaults__": ["splitting_ops"]},
        "speculative_config": {"model": "d", "num_speculative_tokens": 5},
        "port": 8000,
    }
    given = {"max_model_len": ["--max-model-len"], "compilation_config": ["-O"],
             "speculative_config": ["--speculative-config"]}
    # level is folded into the derived compilation mode
    assert fc.flatten(ns, given) == {"max_model_len": 8192, "compilation_config.mode": 3,
                                     "speculative_config.model": "d",
                                     "speculative_config.num_speculative_tokens": 5}
    full = fc.flatten(ns, given, explicit_only=False)
    assert full["compilation_config.splitting_ops"] == []
    assert "port" not in full  # not given on the command line


@pytest.mark.parametrize("settings, mode", [
    ({"compilation_config.level": 3}, 3),
    ({"compilation_config.level": 1, "compilation_config.mode": 3}, 3),
    ({"optimization_level": "3"}, 3),
    ({"optimization_level": "1"}, 3),
    ({"optimization_level": "0"}, 0),
    ({"optimization_level": ".level=3"}, None),
])
def test_derive_compilation_mode(settings, mode):
    assert fc.derive(settings).get("compilation_config.mode") == mode


def test_translate_follows_chains_and_dest_prefixes():
    aliases = {"guided_decoding_backend": "structured_outputs_config.backend",
               "a": "b", "b": "c.x", "override_pooler_config": "pooler_config"}
    assert fc.translate("guided_decoding_backend", aliases) == "structured_outputs_config.backend"
    assert fc.translate("a", aliases) == "c.x"
    assert fc.translate("override_pooler_config.pooling_type", aliases) == "pooler_config.pooling_type"
    assert fc.translate("max_model_len", aliases) == "max_model_len"
    assert fc.translate("x", {"x": "y", "y": "x"}) in ("x", "y")  # a cycle terminates


def test_option_words_and_deletions():
    assert fc.option_words(["m", "--max_model_len=1", "-O3", "-O.level=3", "--compilation-config.level",
                            "3", "-1", "-tp"]) == ["", "--max-model-len", "-O", "-O", "--compilation-config",
                                                   "", "", "-tp"]
    orig = ["m", "--swap-space", "16", "--use-v2-block-manager", "--max-model", "8192"]
    fixed = ["m", "--swap-space", "16", "--max-model-len", "8192"]
    assert fc.deleted_words(orig, fixed) == {"--use-v2-block-manager"}
    # a rename is not a deletion
    assert fc.deleted_words(["m", "--a", "1"], ["m", "--b.c", "1"]) == set()
    given = {"use_v2_block_manager": ["--use-v2-block-manager"], "max_model_len": ["--max-model-len"],
             "swap_space": ["--swap-space"]}
    assert fc.dropped_dests(orig, fixed, given) == {"use_v2_block_manager"}
    # an abbreviation that was deleted still names its option
    assert fc.dropped_dests(["m", "--swap", "4"], ["m"], {"swap_space": ["--swap-space"]}) == {"swap_space"}


def test_compare_settings_classes():
    aliases = {"guided_decoding_backend": "structured_outputs_config.backend"}
    origin = {"guided_decoding_backend": "xgrammar", "max_model_len": 8192, "use_v2_block_manager": True,
              "compilation_config.mode": 3, "swap_space": 16.0}
    target = {"structured_outputs_config.backend": "xgrammar", "max_model_len": 4096,
              "optimization_level": "3", "structured_outputs_config.disable_fallback": False}
    r = fc.compare_settings(origin, target, aliases, {"use_v2_block_manager"},
                            {"structured_outputs_config.backend": "xgrammar", "max_model_len": 4096})
    assert r["agree"] == ["guided_decoding_backend"]
    assert [d["key"] for d in r["differ"]] == ["max_model_len"]
    assert r["dropped"] == ["use_v2_block_manager"]
    assert sorted(x["key"] for x in r["lost"]) == ["compilation_config.mode", "swap_space"]
    assert r["extra"] == []
    assert fc.norm((1, 2)) == [1, 2]
    assert fc.norm({"__config__": "X", "a": (1,)}) == {"a": [1]}


def test_classify():
    assert fc.classify(True, [{"severity": "error"}]) == "accepted"
    assert fc.classify(False, [{"severity": "error", "code": "VL101"}]) == "reported"
    assert fc.classify(False, [{"severity": "warning"}]) == "bug"
    assert fc.classify(False, []) == "bug"


def test_aliases_from_db(tmp_path):
    (tmp_path / "releases").mkdir()
    (tmp_path / "overlays").mkdir()
    rel = {"options": [
        {"name": "--guided-decoding-backend", "aliases": [], "dest": "guided_decoding_backend",
         "deprecated": {"how": "argparse", "successor": "--structured-outputs-config.backend"}},
        {"name": "--structured-outputs-config", "aliases": ["-so"], "dest": "structured_outputs_config"},
        {"name": "--override-pooler-config", "aliases": [], "dest": "override_pooler_config", "deprecated": None},
        {"name": "--pooler-config", "aliases": [], "dest": "pooler_config"},
        {"name": "--swap-space", "aliases": [], "dest": "swap_space",
         "deprecated": {"how": "help", "successor": "--nothing"}},
    ]}
    (tmp_path / "releases" / "0.11.0.json").write_text(json.dumps(rel))
    (tmp_path / "overlays" / "renames.json").write_text(json.dumps({"options": {
        "--override-pooler-config": {"successor": "--pooler-config", "safe": True},
        "--swap-space": {"successor": None, "noop_at_removal": True},
    }}))
    a = fc.aliases_from_db(tmp_path)
    assert a == {"guided_decoding_backend": "structured_outputs_config.backend",
                 "override_pooler_config": "pooler_config"}


def test_summary_and_markdown():
    report = {"cases": {
        "a.sh": {"origin_ok": True, "targets": {"0.13.0": {
            "changed": True, "class": "accepted", "errors_left": 0,
            "settings": {"agree": ["x"], "differ": [], "dropped": ["y"], "lost": []}}}},
        "b.sh": {"origin_ok": True, "targets": {"0.13.0": {"changed": False, "class": "reported",
                                                             "errors_left": 1, "attributed": True}}},
        "c.sh": {"origin_ok": False, "targets": {}},
    }}
    s = fc.summarise(report)["0.13.0"]
    assert (s["cases"], s["changed"], s["accepted"], s["reported"], s["bug"]) == (2, 1, 1, 1, 0)
    assert (s["meaning_kept"], s["compared"], s["settings_agree"], s["settings_dropped"]) == (1, 1, 1, 1)
    md = fc.markdown(report)
    assert "| 0.13.0 | 2 | 1 | 1 (0) | 1 (1) | 0 | 1/1 |" in md
    assert "rejected at origin: c.sh" in md


def test_compare_prefers_the_same_key_when_the_target_still_has_it():
    aliases = {"guided_decoding_backend": "structured_outputs_config.backend"}
    r = fc.compare_settings({"guided_decoding_backend": "xgrammar"}, {"guided_decoding_backend": "xgrammar"},
                            aliases, set())
    assert r["agree"] == ["guided_decoding_backend"] and not r["lost"]


def test_disable_enable_inversion():
    r = fc.compare_settings({"disable_log_requests": True}, {"enable_log_requests": False}, {}, set())
    assert r["agree"] == ["disable_log_requests"] and not r["lost"] and r["extra"] == []
    r = fc.compare_settings({"disable_log_requests": False}, {"enable_log_requests": False}, {}, set())
    assert [d["target_key"] for d in r["differ"]] == ["enable_log_requests"]


def test_error_line():
    assert fc._error_line("usage: vllm serve ...\nvllm: error: unrecognized arguments: --x\n") == \
        "vllm: error: unrecognized arguments: --x"
    assert fc._error_line("ValidationError: 1 validation error for CompilationConfig\nlevel\n  Unexpected keyword "
                          "argument\n    For further information visit https://x") == \
        "ValidationError: 1 validation error for CompilationConfig | level | Unexpected keyword argument"


def test_attributed():
    f = [{"severity": "error", "option": "--task", "message": "`--task` was removed in vLLM 0.13.0"}]
    assert fc.attributed("vllm: error: unrecognized arguments: --task embed", f)
    assert not fc.attributed("vllm: error: unrecognized arguments: --other", f)
    g = [{"severity": "error", "option": "--compilation-config",
          "message": "unknown key `level` in `--compilation-config` at vLLM 0.27.1"}]
    assert fc.attributed("1 validation error for CompilationConfig\nlevel\n  Unexpected keyword argument", g)
    assert not fc.attributed("anything", [{"severity": "warning", "option": "anything", "message": ""}])
