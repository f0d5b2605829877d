"""-O after 0.12: only an optimization level. Found by tools/crosscheck/fixcheck.py against the real
parsers of 0.13.0, 0.27.1 and 0.33.0: `-O.level=3` parses as `--optimization-level .level=3` (no
--compilation-config key) and `-O '{"level": 3}'` is rejected (`unrecognized arguments: -O ...`);
vllm-lint used to read the first as `-cc.level` and said nothing about the second."""

from __future__ import annotations

import json


def _findings(run_cli, path, target):
    r = run_cli("--output-format", "json", "-t", target, str(path))
    assert r.exit_code in (0, 1), r.output
    return [(d["code"], d["location"]["row"], d["option"]) for d in json.loads(r.output)]


def test_o_dotted_and_o_json_are_reported_after_0_12(run_cli, tmp_path):
    p = tmp_path / "serve.sh"
    p.write_text("vllm serve m -O.level=3\n"
                 "vllm serve m -O '{\"level\": 3}'\n"
                 "vllm serve m -O3\n"
                 "vllm serve m -O 2\n")
    got = _findings(run_cli, p, "0.27.1")
    assert ("VL101", 1, "-O") in got
    assert ("VL101", 2, "-O") in got
    assert not [f for f in got if f[1] in (3, 4)]
    # before 0.12 every spelling is the --compilation-config alias; before dotted keys (0.9)
    # `-O.level=3` gives `-O` the value `.level=3`, which CompilationConfig.from_cli refuses
    # (the real 0.8.5 parser: SyntaxError from ast.literal_eval; tools/crosscheck/difftest.py)
    old = [f for f in _findings(run_cli, p, "0.8.5") if f[0] in ("VL101", "VL103", "VL105")]
    assert old == [("VL105", 1, "--compilation-config")]
