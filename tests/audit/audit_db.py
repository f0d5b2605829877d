"""A synthetic four-release flag database for the upgrade audit, in the schema of
flag_db/README.md, with the drift cases the audit must handle:

* ``--gpu-memory-utilization``: default 0.9 at 0.8.5, 0.92 from 0.9.0 (constant drift);
* ``--max-num-seqs``: default 256 at 0.8.5, computed at run time from 0.10.0 (not statically known);
* ``--cuda-graph-sizes`` (default [512]) renamed ``--cudagraph-capture-sizes`` (default [1, 2, 4, 8]
  at 0.27.1): drift through a rename;
* ``--max-model-len``: computed on both sides (never reported);
* ``--reasoning-parser``: default None at 0.8.5, "" from 0.9.0 (drift between empty values);
* ``--model``: default facebook/opt-125m until 0.10.0, Qwen/Qwen3-0.6B at 0.27.1 (drift only for a
  launch that names no model: a chart's ``modelURL`` names one).

Breaks at 0.27.1 for a 0.8.5 launch: ``--swap-space`` (removed, no-op: fixable),
``--num-scheduler-steps`` (removed at 0.9.0, no successor), ``--cuda-graph-sizes`` (renamed, safe
fix), ``--guided-decoding-backend`` (moved into ``--structured-outputs-config.backend``),
``--dtype half`` (choice dropped at 0.27.1), ``--enable-prefix-caching`` (a switch at 0.8.5, takes
a value at 0.27.1), ``VLLM_LEGACY_MODE`` (no longer read, and 0.27.1 refuses to start with it). Ignored
at 0.27.1: ``VLLM_USE_V1`` (no longer read). Deprecated on the way:
``--disable-log-requests`` (0.10.0, still accepted), ``VLLM_OLD_KNOB`` (0.27.1).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from synthetic_db import _record, env, opt  # noqa: E402

from vllm_lint.surface.db import compile_index, write_json  # noqa: E402

DTYPES = ["auto", "bfloat16", "float16", "half"]


def common(gmu: float, max_num_seqs: dict, dtypes: list[str], model: str = "facebook/opt-125m") -> list[dict]:
    return [
        opt("--model", default=model),
        opt("--tensor-parallel-size", ["-tp"], type="int", default=1),
        opt("--dtype", choices=dtypes, default="auto"),
        opt("--enforce-eager", kind="switch", type=None, default=False),
        opt("--max-model-len", type="human_int_or_auto", optional=True, default_computed=True),
        opt("--max-num-seqs", type="int", optional=True, **max_num_seqs),
        opt("--gpu-memory-utilization", type="float", default=gmu),
        opt("--port", type="int", default=8000),
        opt("--served-model-name", nargs="+"),
    ]


def releases() -> dict[str, dict]:
    v085 = common(0.9, {"default": 256}, DTYPES) + [
        opt("--swap-space", type="float", default=4),
        opt("--num-scheduler-steps", type="int", default=1),
        opt("--cuda-graph-sizes", type="int", nargs="+", default=[512]),
        opt("--compilation-config", ["-O"], kind="json", type="json"),
        opt("--guided-decoding-backend", default="xgrammar"),
        opt("--disable-log-requests", kind="switch", type=None, default=False),
        opt("--enable-prefix-caching", kind="switch", type=None, default=False),
        opt("--reasoning-parser", default=None),
    ]
    v090 = common(0.92, {"default": 256}, DTYPES) + [
        opt("--reasoning-parser", default=""),
        opt("--swap-space", type="float", default=4),
        opt("--cuda-graph-sizes", type="int", nargs="+", default=[512]),
        opt("--compilation-config", ["-O"], kind="json", type="json"),
        opt("--guided-decoding-backend", default="xgrammar"),
        opt("--disable-log-requests", kind="switch", type=None, default=False),
        opt("--enable-prefix-caching", kind="switch", type=None, default=False),
    ]
    v0100 = common(0.92, {"default_computed": True}, DTYPES) + [
        opt("--reasoning-parser", default=""),
        opt("--swap-space", type="float", default=4),
        opt("--cuda-graph-sizes", type="int", nargs="+", default=[512],
            deprecated={"how": "argparse", "successor": "--cudagraph-capture-sizes"}),
        opt("--cudagraph-capture-sizes", type="int", nargs="+", default=[512]),
        opt("--compilation-config", ["-O"], kind="json", type="json"),
        opt("--structured-outputs-config", kind="json", type="json"),
        opt("--guided-decoding-backend", deprecated={"how": "help", "successor": None}),
        opt("--disable-log-requests", kind="switch", type=None, default=False,
            deprecated={"how": "help", "successor": None}),
        opt("--enable-prefix-caching", kind="switch", type=None, default=False),
    ]
    v0271 = common(0.92, {"default_computed": True}, ["auto", "bfloat16", "float16"], model="Qwen/Qwen3-0.6B") + [
        opt("--reasoning-parser", default=""),
        opt("--cudagraph-capture-sizes", type="int", nargs="+", default=[1, 2, 4, 8]),
        opt("--compilation-config", ["-cc"], kind="json", type="json"),
        opt("--optimization-level", type="int", default=2),
        opt("--structured-outputs-config", kind="json", type="json"),
        opt("--disable-log-requests", kind="switch", type=None, default=False,
            deprecated={"how": "help", "successor": None}),
        opt("--enable-prefix-caching", kind="bool_value", type="bool", default=None),
    ]
    base_env = ("VLLM_HOST_IP", "VLLM_OLD_KNOB")
    old_env = ("VLLM_USE_V1", "VLLM_LEGACY_MODE")
    v0271_record = _record("0.27.1", v0271, env(*base_env, deprecated=("VLLM_OLD_KNOB",)))
    v0271_record["env_refused"] = {"VLLM_LEGACY_MODE": {"refused": "any"}}
    return {
        "0.8.5": _record("0.8.5", v085, env(*old_env, *base_env)),
        "0.9.0": _record("0.9.0", v090, env(*old_env, *base_env)),
        "0.10.0": _record("0.10.0", v0100, env(*old_env, *base_env)),
        "0.27.1": v0271_record,
    }


OVERLAY = {
    "options": {
        "--cuda-graph-sizes": {"successor": "--cudagraph-capture-sizes", "safe": True, "evidence": "test"},
        "--swap-space": {"successor": None, "noop_at_removal": True, "evidence": "test"},
        "--guided-decoding-backend": {"successor": "--structured-outputs-config.backend", "safe": True,
                                      "evidence": "test"},
    },
    "env": {"VLLM_USE_V1": {"successor": None, "note": "the V0 engine was removed", "evidence": "test"}},
}


def build(path: Path) -> Path:
    rel = path / "releases"
    rel.mkdir(parents=True, exist_ok=True)
    for v, rec in releases().items():
        write_json(rel / f"{v}.json", rec)
    (path / "overlays").mkdir(exist_ok=True)
    write_json(path / "overlays" / "renames.json", OVERLAY)
    compile_index(path)
    return path
