"""Cross-check flag_db/releases/<v>.json against the REAL ``vllm serve`` parser of release v.

Maintainer tool; not part of the default tests. For each release:

1. take the release's sdist from the vllm-lint archive cache (downloading through the PyPI source
   when absent) and extract it to ``<work>/xc-src-<v>/`` (outside the repository);
2. make a throwaway venv ``<work>/xc-venv-<v>`` that sees a shared base venv holding a CPU torch
   (``<work>/xc-base``, created on first use with ``pip install torch==<TORCH>``) through a .pth
   file, and install the release's own common requirements into it, minus torch itself and GPU-only
   packages (xformers, flashinfer, triton pins, ...); a requirement that cannot be installed is
   skipped and its module stubbed;
3. run ``dump_parser.py`` in that venv: it builds the parser the way ``vllm serve m`` does and dumps
   every action (all option strings, hidden ones included; dest, default, choices, nargs, type);
   modules that still fail to import are stubbed one at a time and the dump retried;
4. compare with the database: option strings (the bar is full agreement), defaults where the DB
   has ``default_computed: false``, choices where the DB has non-null ``choices``.

    /work/venv/bin/python tools/crosscheck/run.py 0.8.5 0.10.2 [--db flag_db] [--work /tmp]
                                                 [--markdown out.md] [--json out.json]

vLLM's source is only extracted to the work directory; nothing from it enters the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TORCH = "2.13.0"

#: requirement names never installed: torch and friends come from the base venv; the rest are
#: GPU-only or pinned to other torch builds. Their modules are stubbed when imported.
SKIP_REQS = {
    "torch", "torchvision", "torchaudio", "xformers", "triton", "vllm-flash-attn", "vllm_flash_attn",
    "flashinfer", "flashinfer-python", "flashinfer-cubin", "flashinfer-jit-cache", "vllm-nccl-cu12",
    "vllm_nccl_cu12", "nvidia-ml-py", "pynvml", "cupy-cuda12x", "ray", "deep-gemm", "deep_gemm",
    "nixl", "pplx-kernels", "intel-extension-for-pytorch", "torch-xla", "nvidia-cutlass-dsl",
    "quack-kernels", "cuda-python", "apache-tvm-ffi", "flash-attn",
}


#: versions the newest releases of a requirement broke, installed after the release's own list:
#: 0.9.0 and 0.9.2 register an `aimv2` config that transformers 4.54+ has itself (ValueError at import)
RELEASE_PINS = {"0.9.0": ["transformers==4.53.3"], "0.9.2": ["transformers==4.53.3"]}

#: packages removed after the pins: the newest transformers pulls in `kernels`, whose newest
#: release needs a huggingface_hub newer than the pinned transformers allows, and transformers
#: 4.53 imports it whenever it is installed (ImportError: IncompleteSnapshotError)
RELEASE_REMOVE = {"0.9.0": ["kernels"], "0.9.2": ["kernels"]}


def log(msg: str) -> None:
    print(f"[xc {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def sh(cmd: list[str], timeout: int = 1800, env: Optional[dict] = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


# ----------------------------------------------------------------------------------------------
# environment


def base_venv(work: Path) -> Path:
    base = work / "xc-base"
    py = base / "bin" / "python"
    if not py.exists():
        log(f"creating base venv {base} with torch=={TORCH}")
        sh([sys.executable, "-m", "venv", str(base)])
        r = sh([str(py), "-m", "pip", "install", "-q", f"torch=={TORCH}", "numpy"])
        if r.returncode:
            raise SystemExit(f"cannot install torch into {base}: {r.stderr[-500:]}")
    return base


def site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def extract_sdist(version: str, work: Path) -> Path:
    sys.path.insert(0, str(REPO))
    from vllm_lint.scrape.sources import PYPI_JSON_URL, PyPISource

    dest = work / f"xc-src-{version}"
    if (dest / "vllm").is_dir():
        return dest
    src = PyPISource(url=os.environ.get("VLLM_LINT_PYPI_URL") or PYPI_JSON_URL)  # a mirror, as `db update`'s
    f = src.file_for(version)
    if f.get("packagetype") != "sdist":
        raise SystemExit(f"{version}: no sdist on PyPI (wheel only); cross-check needs an sdist")
    path, _ = src.download(version)
    tmp = work / f"xc-src-{version}.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    with tarfile.open(path) as tf:
        tf.extractall(tmp, filter="data")
    (top,) = [p for p in tmp.iterdir()]
    os.replace(top, dest)
    shutil.rmtree(tmp, ignore_errors=True)
    return dest


def requirement_lines(src: Path) -> list[str]:
    for rel in ("requirements/common.txt", "requirements-common.txt"):
        p = src / rel
        if p.is_file():
            break
    else:
        raise SystemExit(f"{src}: no common requirements file")
    out = []
    for line in p.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        name = re.split(r"[\s\[<>=!~;@]", line, 1)[0].strip().lower()
        if name in SKIP_REQS or name.replace("_", "-") in SKIP_REQS:
            continue
        out.append(line)
    return out


def release_venv(version: str, src: Path, work: Path, base: Path) -> tuple[Path, list[str]]:
    venv = work / f"xc-venv-{version}"
    py = venv / "bin" / "python"
    marker = venv / ".xc-installed"
    failed_file = venv / ".xc-failed"
    if marker.exists():
        return venv, json.loads(failed_file.read_text()) if failed_file.exists() else []
    if not (venv / "pyvenv.cfg").exists():
        # an interrupted build keeps its venv: pip install is idempotent, so it resumes
        shutil.rmtree(venv, ignore_errors=True)
        sh([sys.executable, "-m", "venv", str(venv)])
    (site_packages(venv) / "_xc_base.pth").write_text(str(site_packages(base)) + "\n")
    cons = work / "xc-constraints.txt"
    # recent pyarrow/datasets (pulled in by old outlines) refuse the numpy<2 that old releases pin
    cons.write_text(f"torch=={TORCH}\npyarrow<18\ndatasets<3\n")
    reqs = requirement_lines(src)
    req_file = venv / "xc-requirements.txt"
    req_file.write_text("\n".join(reqs) + "\n")
    pip = [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-c", str(cons)]
    log(f"{version}: installing {len(reqs)} requirements")
    try:
        bulk_failed = sh(pip + ["-r", str(req_file)]).returncode != 0
    except subprocess.TimeoutExpired:  # a resolver that backtracks for ever: one at a time
        bulk_failed = True
    failed: list[str] = []
    if bulk_failed:
        log(f"{version}: bulk install failed, installing one by one")
        for req in reqs:
            try:
                r1 = sh(pip + [req], timeout=900)
            except subprocess.TimeoutExpired:
                failed.append(req)
                log(f"{version}:   skipped {req}: timed out")
                continue
            if r1.returncode:
                failed.append(req)
                log(f"{version}:   skipped {req}: {r1.stderr.strip().splitlines()[-1][:160] if r1.stderr.strip() else '?'}")
    for pin in RELEASE_PINS.get(version, []):
        if sh(pip + [pin], timeout=900).returncode:
            failed.append(pin)
    if RELEASE_REMOVE.get(version):
        sh([str(py), "-m", "pip", "uninstall", "-y", "-q", *RELEASE_REMOVE[version]], timeout=900)
    failed_file.write_text(json.dumps(failed))
    marker.write_text("ok\n")
    return venv, failed


def fake_dist_info(version: str, venv: Path) -> None:
    """Metadata for a ``vllm <v>+cpu`` distribution, so that ``importlib.metadata.version("vllm")``
    works and vLLM's platform detection (which looks for "cpu" in that version) picks the CPU
    platform instead of failing to infer a device."""
    sp = site_packages(venv)
    for old in sp.glob("vllm-*.dist-info"):
        shutil.rmtree(old)
    d = sp / f"vllm-{version}+cpu.dist-info"
    d.mkdir()
    (d / "METADATA").write_text(f"Metadata-Version: 2.1\nName: vllm\nVersion: {version}+cpu\n")
    (d / "INSTALLER").write_text("xc\n")
    (d / "RECORD").write_text("")


def dump(version: str, src: Path, venv: Path, work: Path, max_stubs: int = 40) -> dict[str, Any]:
    out = work / f"xc-out-{version}.json"
    fake_dist_info(version, venv)
    # the sdist's own vllm.egg-info (first on sys.path) would shadow that metadata
    shutil.rmtree(src / "vllm.egg-info", ignore_errors=True)
    stubs: list[str] = []
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "VLLM_TARGET_DEVICE": "cpu", "TOKENIZERS_PARALLELISM": "false"}
    env.pop("PYTHONPATH", None)
    for _ in range(max_stubs):
        cmd = [str(venv / "bin" / "python"), str(HERE / "dump_parser.py"), str(src), str(out)]
        for s in stubs:
            cmd += ["--stub", s]
        r = sh(cmd, timeout=1800, env=env)
        try:
            doc = json.loads(out.read_text())
        except (OSError, ValueError):
            raise SystemExit(f"{version}: dump_parser produced nothing: {r.stderr[-1500:]}")
        if "actions" in doc:
            doc["extra_stubs"] = stubs
            out.write_text(json.dumps(doc, indent=1, sort_keys=True, default=str) + "\n")
            return doc
        missing = doc.get("missing_module")
        if missing and not missing.startswith("vllm.") or missing and missing.split(".")[1].startswith("_"):
            top = missing if missing.startswith("vllm.") else missing.split(".")[0]
            if top in stubs:
                raise SystemExit(f"{version}: stub for {top} did not help: {doc['traceback'][-1500:]}")
            log(f"{version}: stubbing missing module {top}")
            stubs.append(top)
            continue
        raise SystemExit(f"{version}: {doc.get('error')}\n{doc.get('traceback', '')[-2500:]}")
    raise SystemExit(f"{version}: too many missing modules: {stubs}")


# ----------------------------------------------------------------------------------------------
# comparison


def norm(v: Any) -> Any:
    """Normalise a default/choice for comparison: tuples are lists, dicts sorted."""
    if isinstance(v, (list, tuple)):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in sorted(v.items())}
    return v


#: the DB's (type, kvs_fallback) that each real ``type=`` name allows (names the dump gives; the
#: closures of ``parse_type`` fall back to KEY=VALUE only in 0.8.5-0.9.x, hence both)
EXPECTED_TYPE: dict[str, set] = {
    "loads": {("json", False)},
    "union_dict_and_str": {("dict_or_str", False)},
    "nullable_kvs": {("kvs", False)},
    "int": {("int", False)},
    "float": {("float", False)},
    "_parse_type(closure)": {("json", True), ("json", False), ("int", False), ("float", False), ("str", False)},
}


def accepted_choices(a: dict[str, Any]) -> Any:
    """The real choices as words the parser takes, where the dump probed them: Python ``None`` is
    the word ``None`` where it passes, and an entry refused as written (the string ``"None"``
    behind a type that turns the word into Python ``None``) is left out."""
    rc, p = a["choices"], a.get("choice_probe")
    if not p or rc is None:
        return rc
    out = []
    for c in rc:
        if c is None or c == "None":
            if p.get("none") and "None" not in out:
                out.append("None")
        elif not (isinstance(c, str) and c in p.get("refused_as_written", [])):
            out.append(c)
    return out


def probe_diff(o: dict[str, Any], probe: dict[str, Any]) -> list[str]:
    """Where the DB's choices and ``transform`` of option ``o`` judge the words of the real
    parser's ``choice_probe`` (dump_parser.py) differently: the word None, the empty word, the
    choices upper-case and with ``-`` for ``_``."""
    choices = [str(c) for c in o["choices"]]
    steps = [s[0] for s in o.get("transform") or []]
    db = {"none": "None" in choices,
          "empty": ("None" in choices) if o.get("optional") else "" in choices,
          "upper": "lower" in steps or "casefold" in steps,
          "dashed": "replace" in steps}
    out = [f"{k}: real {probe[k]}, db {db[k]}" for k in db if k in probe and probe[k] != db[k]]
    refused = [c for c in probe.get("refused_as_written", []) if c in choices]
    if refused:
        out.append(f"listed but refused as written: {refused}")
    return out


def compare(db: dict[str, Any], real: dict[str, Any]) -> dict[str, Any]:
    # the real parser is `vllm serve`'s: an option only the api_server module's parser has
    # (0.9.0's `--model`, `absent_from_serve`) is not in it
    serve_options = [o for o in db["options"] if not o.get("absent_from_serve")]
    actions = [a for a in real["actions"] if a["option_strings"]]
    real_strings: dict[str, dict] = {s: a for a in actions for s in a["option_strings"]}
    db_strings: dict[str, dict] = {}
    for o in serve_options:
        for s in [o["name"], *o.get("aliases", [])]:
            db_strings[s] = o
    only_real = sorted(set(real_strings) - set(db_strings))
    only_db = sorted(set(db_strings) - set(real_strings))
    both = set(real_strings) & set(db_strings)

    dest_mismatch = []
    defaults = {"checked": 0, "agree": 0, "diffs": []}
    choices = {"checked": 0, "agree": 0, "diffs": []}
    seen: set[str] = set()
    for o in serve_options:
        a = real_strings.get(o["name"]) or next((real_strings[s] for s in o.get("aliases", []) if s in real_strings), None)
        if a is None or o["name"] in seen:
            continue
        seen.add(o["name"])
        if o.get("dest") and o["dest"] != a["dest"]:
            dest_mismatch.append({"name": o["name"], "db": o["dest"], "real": a["dest"]})
        if not o.get("default_computed"):
            defaults["checked"] += 1
            rd = a["default"]
            if rd == "==SUPPRESS==":  # argparse.SUPPRESS: no attribute set, i.e. no default
                rd = None
            if a["action"] in ("_StoreTrueAction",) and rd is False and o.get("default") in (False, None):
                ok = o.get("default") is False or o.get("default") is None
            else:
                ok = norm(o.get("default")) == norm(rd)
            if ok:
                defaults["agree"] += 1
            else:
                defaults["diffs"].append({"name": o["name"], "db": o.get("default"), "real": rd, "action": a["action"]})
        if o.get("choices") is not None:
            choices["checked"] += 1
            rc = accepted_choices(a)
            dbc = o["choices"]
            ok = rc is not None and sorted(map(json.dumps, norm(dbc))) == sorted(map(json.dumps, norm(rc)))
            if not ok and rc is not None and o.get("choices_vary"):
                # the DB lists the union of the lists processes draw (0.8.5), marking the values
                # some lack: this dump's process drew one of them
                real_set = set(map(json.dumps, norm(rc)))
                extra = set(map(json.dumps, norm(dbc))) - real_set
                ok = real_set <= set(map(json.dumps, norm(dbc))) and \
                    extra <= set(map(json.dumps, norm(o["choices_vary"])))
            if ok:
                choices["agree"] += 1
            else:
                choices["diffs"].append({"name": o["name"], "db": dbc, "real": rc})
    # choices the real parser enforces but the DB does not record, with the real list
    missing_choices = {
        o["name"]: real_strings[o["name"]]["choices"] for o in serve_options
        if o.get("choices") is None and (real_strings.get(o["name"]) or {}).get("choices") is not None
    }
    probes = {"checked": 0, "agree": 0, "diffs": []}
    types = {"checked": 0, "agree": 0, "diffs": []}
    for o in serve_options:
        a = real_strings.get(o["name"])
        if a is None:
            continue
        if a.get("choice_probe") and o.get("choices") is not None:
            probes["checked"] += 1
            diff = probe_diff(o, a["choice_probe"])
            if diff:
                probes["diffs"].append({"name": o["name"], "diffs": diff})
            else:
                probes["agree"] += 1
        want = EXPECTED_TYPE.get(a.get("type"))
        if want is not None:
            types["checked"] += 1
            got = (o.get("type"), bool(o.get("kvs_fallback")))
            if got in want:
                types["agree"] += 1
            else:
                types["diffs"].append({"name": o["name"], "db": got, "real": a["type"]})
    # owners: each string the DB and the parser share belongs to the same action in both (the
    # spellings the DB groups as one option's name and aliases are one action's strings), and
    # a `--no-` string of a BooleanOptionalAction is a negation in the DB: what `flags show`
    # says a spelling is ("alias of", "negation of") at this release
    owners = {"checked": 0, "agree": 0, "diffs": []}
    for string in sorted(both):
        a, o = real_strings[string], db_strings[string]
        owners["checked"] += 1
        db_group = {s for s in [o["name"], *o.get("aliases", [])] if s in real_strings}
        real_group = {s for s in a["option_strings"] if s in db_strings}
        negation_real = a.get("action") == "BooleanOptionalAction" and string.startswith("--no-")
        negation_db = string in (o.get("negations") or [])
        if db_group == real_group and (negation_db == negation_real or a.get("action") != "BooleanOptionalAction"):
            owners["agree"] += 1
        else:
            owners["diffs"].append({"string": string, "db": sorted(db_group), "real": sorted(real_group),
                                    "negation": {"db": negation_db, "real": negation_real}})
    positionals = [a["dest"] for a in real["actions"] if not a["option_strings"]]
    return {
        "owners": owners,
        "strings": {"real": len(real_strings), "db": len(db_strings), "agree": len(both),
                    "only_real": only_real, "only_db": only_db},
        "dest_mismatch": dest_mismatch,
        "defaults": defaults,
        "choices": choices,
        "choices_missing_in_db": missing_choices,
        "choice_probes": probes,
        "types": types,
        "positionals": {"real": positionals, "db": [p.get("dest") for p in db.get("positionals", [])]},
        "entry": real.get("entry"),
        "stubs": real.get("stubs_used", []),
    }


def markdown(results: dict[str, dict[str, Any]]) -> str:
    rows = ["| release | parser from | option strings agree | defaults agree | choices agree | choice probes agree "
            "| types agree | choices only the parser has | positionals | spellings' owners agree |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for v, r in results.items():
        if "error" in r:
            rows.append(f"| {v} | - | error: {r['error'][:80]} | | | |")
            continue
        s, d, c = r["strings"], r["defaults"], r["choices"]
        total = len(set(s["only_real"]) | set(s["only_db"])) + s["agree"]
        pos = "agree" if r["positionals"]["real"] == r["positionals"]["db"] else f"real {r['positionals']['real']} / db {r['positionals']['db']}"
        pr, ty = r.get("choice_probes") or {}, r.get("types") or {}
        missing = ", ".join(f"`{n}`" for n in r.get("choices_missing_in_db") or {}) or "none"
        rows.append(f"| {v} | `{r['entry']}` | {s['agree']}/{total} | {d['agree']}/{d['checked']} | "
                    f"{c['agree']}/{c['checked']} | {pr.get('agree', '-')}/{pr.get('checked', '-')} | "
                    f"{ty.get('agree', '-')}/{ty.get('checked', '-')} | {missing} | {pos} | "
                    f"{(r.get('owners') or {}).get('agree', '-')}/{(r.get('owners') or {}).get('checked', '-')} |")
    return "\n".join(rows) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("versions", nargs="+")
    ap.add_argument("--db", type=Path, default=REPO / "flag_db")
    ap.add_argument("--work", type=Path, default=Path("/tmp"))
    ap.add_argument("--json", type=Path, default=None, help="write the full comparison here")
    ap.add_argument("--markdown", type=Path, default=None, help="write the agreement table here")
    ap.add_argument("--dump-only", action="store_true", help="only build and dump the real parser")
    ns = ap.parse_args()
    ns.work.mkdir(parents=True, exist_ok=True)
    base = base_venv(ns.work)
    results: dict[str, dict[str, Any]] = {}
    for v in ns.versions:
        t0 = time.time()
        try:
            src = extract_sdist(v, ns.work)
            venv, failed = release_venv(v, src, ns.work, base)
            real = dump(v, src, venv, ns.work)
            if ns.dump_only:
                log(f"{v}: {len(real['actions'])} actions dumped")
                continue
            dbfile = ns.db / "releases" / f"{v}.json"
            db = json.loads(dbfile.read_text())
            res = compare(db, real)
            res["requirements_skipped"] = failed
            res["extra_stubs"] = real.get("extra_stubs", [])
            results[v] = res
            s = res["strings"]
            log(f"{v}: strings {s['agree']} agree, only-real {s['only_real']}, only-db {s['only_db']}; "
                f"defaults {res['defaults']['agree']}/{res['defaults']['checked']}; "
                f"choices {res['choices']['agree']}/{res['choices']['checked']} ({time.time() - t0:.0f}s)")
        except SystemExit as e:
            results[v] = {"error": str(e)}
            log(f"{v}: FAILED {str(e)[:2000]}")
    if ns.json:
        ns.json.write_text(json.dumps(results, indent=1, sort_keys=True, default=str) + "\n")
    table = markdown(results)
    if ns.markdown:
        ns.markdown.write_text(table)
    print(table)
    return 0 if all("error" not in r for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
