"""The real-world benchmark of issues 27 and 28: recall and release detection on files written by
others, split by repository into a development and a test half.

``bench-manifest.tsv`` names each file by repository, commit and path (``role`` ``file``: a file
measured; ``context``: a sibling Dockerfile, chart, requirements or lock file laid out beside it
so that release detection sees what the repository holds), with its format, the kind of user and
its ``set`` (``dev`` or ``test``: the parity of sha256(repository), fixed before any tuning).
Nothing of the files is committed: ``layout`` writes them to
``<scratch>/bench/<set>/<owner>+<name>/<path>`` (each ``<owner>+<name>`` folder marked as the
checkout's root by an empty ``.git`` folder) from the local snapshots (``--mirrors``, default
``/work/.mirror``: ``<owner>+<name>/repo`` git directories) at the recorded commit, or from
``raw.githubusercontent.com`` when no snapshot is there.

``measure`` lints the set's folder as a user would (``vllm-lint --verbose`` on the folder, no
target: each file's own tags and pins decide; JSON findings) and compares with the judgements:

* ``bench-launches.tsv``: every launch a person recognises in each file (first and last line,
  kind), or one ``none`` row for a file that holds no launch. A judged launch counts as read when
  the tool reports a launch (``checked against vLLM X ... at line N``) with N inside its lines
  (``SLACK`` lines either side: a YAML container's launch is reported at its first key); each
  reported launch reads one row, the nearest. A second figure also counts, per file, the judged
  launches left over against the reported launches left over (read, but reported away from their
  lines: at the ``Popen`` that runs an argv list, at a document's first key).
* files with a launch: read, named unread (``not read: <reason>``) or silent (the account never
  names them: the folder walk did not open them); files without a launch but with a launch marker
  (``MARKER``) that are silent.
* ``bench-release.tsv``: the release each file's repository really deploys, with the evidence.
  The release is right when the judged one is among those the tool chose for the file's launches
  (``newest`` and ``nightly``: the newest release in the database); ``?`` and ``-`` are not counted.

Findings are written to ``<scratch>/findings-bench-<set>.jsonl`` (only the measured files) for
``judge.py bench-dev`` / ``bench-test`` (rows in ``bench-findings.tsv``).

    python benchmarks/realworld/bench.py layout  [--set dev|test|all]
    python benchmarks/realworld/bench.py measure [--set dev|test|all] [--list]
    python benchmarks/realworld/bench.py candidates --set dev   # marker lines, to help judging
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from common import relative, run_cli, write_findings  # noqa: E402

SLACK = 2
MARKER = re.compile(
    r"vllm\s+serve\b|vllm\.entrypoints\.(?:openai\.)?api_server|vllm/vllm-openai|vllm/vllm-tpu|nvcr\.io/nvidia/vllm|"
    r"rocm/vllm|(?<![\w.])(?:LLM|AsyncEngineArgs|EngineArgs)\(|[\"']vllm[\"']\s*,\s*[\"']serve[\"']|dynamo\.vllm",
    re.I)
_CHECKED = re.compile(r"^(?P<path>.+?): checked against vLLM (?P<release>\S+) \((?P<source>.*)\) at line (?P<line>\d+)$")
_NOT_READ = re.compile(r"^(?P<path>.+?): not read: (?P<reason>.+)$")
_NAMED = re.compile(r"^(?P<path>[^\s:][^:]*?): (?P<what>.+)$")


def _tsv(name: str) -> list[dict]:
    path = HERE / name
    if not path.exists():
        return []
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader((ln for ln in fh if not ln.startswith("#")), delimiter="\t"))


def manifest(which: str) -> list[dict]:
    return [r for r in _tsv("bench-manifest.tsv") if which in ("all", r["set"])]


def local(row: dict) -> str:
    return f"{row['repo'].replace('/', '+')}/{row['path']}"


def layout(rows: list[dict], scratch: Path, mirrors: Path) -> None:
    for row in rows:
        # each repository's folder is marked as its checkout's root (an empty .git folder), as a
        # user's checkout is: the tool reads the files of the repository up to its root
        (scratch / "bench" / row["set"] / row["repo"].replace("/", "+") / ".git").mkdir(parents=True, exist_ok=True)
        dest = scratch / "bench" / row["set"] / local(row)
        if dest.exists():
            continue
        git_dir = mirrors / row["repo"].replace("/", "+") / "repo"
        data = None
        if git_dir.exists():
            proc = subprocess.run(["git", "-C", str(git_dir), "show", f"{row['commit']}:{row['path']}"],
                                  capture_output=True)
            data = proc.stdout if proc.returncode == 0 else None  # a newer snapshot: fetch at the commit
        if data is None:
            import requests

            url = f"https://raw.githubusercontent.com/{row['repo']}/{row['commit']}/{row['path']}"
            resp = requests.get(url, timeout=30)
            if not resp.ok:
                raise SystemExit(f"{row['repo']}@{row['commit'][:12]}:{row['path']}: not in {git_dir} "
                                 f"and {url} answered {resp.status_code}")
            data = resp.content
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)
    for (repo, commit, which) in sorted({(r["repo"], r["commit"], r["set"]) for r in rows}):
        _repository_context(repo, commit, scratch / "bench" / which / repo.replace("/", "+"), mirrors)


# the files the tool reads around a launch to find its release: the repository survey's
# (vllm_lint/pipeline/repository.py: YAML, Helm templates, Dockerfiles, env files, Terraform for the
# Triton servers it configures), the scripts that may call it (pipeline/callers.py: .sh, .bash,
# .slurm, .sbatch), the pin and lock files and READMEs of its folders (pipeline/surroundings.py)
_SURVEYED = re.compile(r"(?:\.(?:ya?ml|tpl|tf|sh|bash|slurm|sbatch)"
                       r"|(?:^|/)(?:Dockerfile[^/]*|[^/]*\.[Dd]ockerfile|Containerfile[^/]*|\.env[^/]*|[^/]*\.env"
                       r"|(?:requirements|constraints)[^/]*\.(?:txt|in)|pyproject\.toml|setup\.py"
                       r"|(?:uv|poetry|pdm)\.lock|Pipfile\.lock|README(?:\.(?:md|rst|txt))?))$", re.I)


def _repository_context(repo: str, commit: str, folder: Path, mirrors: Path) -> None:
    """Every file of the repository at ``commit`` that the tool's repository survey reads and that
    names vllm, laid out beside the measured files (not measured themselves): the release a
    repository names is read from the whole repository, so the measurement must hold all of it."""
    git_dir = mirrors / repo.replace("/", "+") / "repo"
    if not git_dir.exists():
        return
    listed = subprocess.run(["git", "-C", str(git_dir), "ls-tree", "-r", "-z", commit], capture_output=True)
    if listed.returncode != 0:
        return
    wanted = []
    for entry in listed.stdout.decode("utf-8", "replace").split("\0"):
        meta, _, path = entry.partition("\t")
        if path and meta.split()[1:2] == ["blob"] and _SURVEYED.search(path) and not (folder / path).exists():
            wanted.append((meta.split()[2], path))
    if not wanted:
        return
    proc = subprocess.run(["git", "-C", str(git_dir), "cat-file", "--batch"], input="".join(f"{o}\n" for o, _ in wanted).encode(),
                          capture_output=True)
    out, pos = proc.stdout, 0
    for _oid, path in wanted:
        header_end = out.index(b"\n", pos)
        header = out[pos:header_end].split()
        if len(header) < 3:  # (`<oid> missing`: a shallow snapshot)
            pos = header_end + 1
            continue
        size = int(header[2])
        data = out[header_end + 1:header_end + 1 + size]
        pos = header_end + 1 + size + 1
        if re.search(rb"(?i)vllm", data) and size <= (1 << 20):
            dest = folder / path
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)


def lint(folder: Path) -> tuple[list[dict], str]:
    """(findings, verbose account) of one ``vllm-lint --verbose`` run on the folder, as a user runs it."""
    found, stderr = run_cli(folder, ["--verbose", "."])
    out = []
    for d in found:
        rel = relative(folder, d["filename"])
        out.append({"path": rel, "repo": rel.split("/", 1)[0].replace("+", "/"), "line": d["location"]["row"],
                    "code": d["code"], "option": d.get("option") or "", "severity": d.get("severity", ""),
                    "message": d["message"], "target_version": d.get("target_version") or ""})
    out.sort(key=lambda f: (f["path"], f["line"], f["code"], f["option"]))
    return out, stderr


def account(stderr: str, folder: Path) -> tuple[dict, dict, set]:
    """{path: [(line, release, source)]} of launches read, {path: reason} of files named unread, and
    every path the account names at all."""
    read: dict[str, list] = defaultdict(list)
    unread: dict[str, str] = {}
    named: set[str] = set()
    root = folder.resolve()

    def rel(p: str) -> str | None:
        q = Path(p)
        q = (q if q.is_absolute() else folder / q).resolve()
        return q.relative_to(root).as_posix() if q.is_relative_to(root) else None

    for line in stderr.splitlines():
        m = _CHECKED.match(line)
        if m and (p := rel(m["path"])):
            read[p].append((int(m["line"]), m["release"], m["source"]))
            named.add(p)
            continue
        m = _NOT_READ.match(line)
        if m and (p := rel(m["path"])):
            unread[p] = m["reason"]
            named.add(p)
            continue
        m = _NAMED.match(line)
        if m and (p := rel(m["path"])) and (folder / p).is_file():
            named.add(p)
    return read, unread, named


def match(judged: list[dict], reported: list[tuple]) -> list[tuple[dict, bool]]:
    """Each judged launch with whether a reported launch starts inside its lines (SLACK either side);
    the nearest free one is taken, so two judged launches never share one."""
    free = sorted(r[0] for r in reported)
    out = []
    for row in sorted(judged, key=lambda r: int(r["first"])):
        lo, hi = int(row["first"]) - SLACK, int(row["last"]) + SLACK
        near = [x for x in free if lo <= x <= hi]
        if near:
            best = min(near, key=lambda x: (abs(x - int(row["first"])), x))
            free.remove(best)
        out.append((row, bool(near)))
    return out


def _markers(path: Path) -> bool:
    try:
        return bool(MARKER.search(path.read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return False


_UNJUDGED = ("?", "-", "")


def _expected(rel: dict | None) -> str:
    return (rel or {}).get("expected", "") or "?"


def chosen_release(reported: list[tuple]) -> str:
    rels = sorted({r[1] for r in reported})
    return ",".join(rels) if rels else "-"


def release_right(expected: str, reported: list[tuple], newest: str, oldest: str = "") -> bool | None:
    """Whether the judged release is among those the tool chose for the file's launches (None: no
    launch read, or no release to judge). ``newest`` and ``nightly`` are right as the newest release
    in the database (a nightly is newer than every release); a release outside the database is
    right as the nearest it has (the newest for a newer one, the oldest for an older one: the
    closest check there is, which the tool says it made)."""
    if not reported or expected in _UNJUDGED:
        return None
    rels = {r[1] for r in reported}
    want = newest if expected in ("newest", "nightly") else expected
    try:
        from packaging.version import Version

        if oldest and Version(want) < Version(oldest):
            want = oldest
        elif Version(want) > Version(newest):
            want = newest
    except ValueError:  # ("?"-like words, compared as written)
        pass
    return want in rels


def measure(which: str, scratch: Path, show: bool) -> dict:
    rows = [r for r in manifest(which) if r["role"] == "file"]
    launches = defaultdict(list)
    for r in _tsv("bench-launches.tsv"):
        launches[(r["repo"], r["path"])].append(r)
    releases = {(r["repo"], r["path"]): r for r in _tsv("bench-release.tsv")}
    newest, oldest = _newest(), _oldest()
    totals: dict[str, Counter] = {}
    listing: list[str] = []
    kinds: dict[str, Counter] = defaultdict(Counter)
    users: dict[str, Counter] = defaultdict(Counter)
    for s in sorted({r["set"] for r in rows}):
        folder = scratch / "bench" / s
        if not folder.is_dir():
            raise SystemExit(f"{folder}: not laid out; run `bench.py layout --set {s}` first")
        found, stderr = lint(folder)
        read, unread, named = account(stderr, folder)
        mine = {local(r) for r in rows if r["set"] == s}
        write_findings(scratch / f"findings-bench-{s}.jsonl", [f for f in found if f["path"] in mine])
        c = totals.setdefault(s, Counter())
        for r in rows:
            if r["set"] != s:
                continue
            p = local(r)
            key = (r["repo"], r["path"])
            c["files"] += 1
            if key not in launches:
                c["files unjudged"] += 1
            judged = [x for x in launches.get(key, []) if x["kind"] != "none"]
            rep = read.get(p, [])
            got = match(judged, rep)
            strict = sum(ok for _, ok in got)
            # a launch read but reported away from the judged lines (at the call that runs an argv
            # list, at a YAML document's first key): one per reported launch left over
            elsewhere = min(len(got) - strict, max(0, len(rep) - strict))
            c["launches judged"] += len(got)
            c["launches read"] += strict
            c["launches read elsewhere in the file"] += elsewhere
            if judged:
                c["files with a launch"] += 1
                state = "read" if rep else ("named unread" if p in unread else
                                             "named" if p in named else "silent")
                c[f"launch files {state}"] += 1
            elif _markers(folder / p):
                c["files without a launch, with a marker"] += 1
                c["files without a launch, silent"] += p not in named
            left = elsewhere
            users[s][r["user"]] += len(got)
            users[s][r["user"] + " read"] += strict + elsewhere
            for row, ok in got:
                kinds[s][row["kind"]] += 1
                if ok:
                    kinds[s][row["kind"] + " read"] += 1
                    continue
                if left:
                    left -= 1
                    kinds[s][row["kind"] + " read"] += 1
                    continue
                why = unread.get(p) or ("silent" if p not in named else "named, launches read elsewhere")
                listing.append(f"unread  [{s}] {p}:{row['first']}-{row['last']}  {row['kind']}  ({why})  {row['note']}")
            exp = _expected(releases.get(key))
            if judged and exp not in _UNJUDGED:
                c["release judged"] += 1
                ok = release_right(exp, rep, newest, oldest)
                c["release " + ("no launch read" if ok is None else "right" if ok else "wrong")] += 1
                if ok is False:
                    listing.append(f"release [{s}] {p}: chose {chosen_release(rep)} "
                                   f"({'; '.join(sorted({x[2] for x in rep}))}), judged {exp}: "
                                   f"{releases[key]['evidence']}")
    if show:
        print("\n".join(listing) + "\n")
        for s, k in kinds.items():
            print(f"[{s}] launches read / judged by kind: " + ", ".join(
                f"{kind} {k[kind + ' read']}/{n}" for kind, n in k.most_common() if not kind.endswith(" read")))
        for s, k in users.items():
            print(f"[{s}] launches read (at their lines or elsewhere in the file) / judged by kind of user: " + ", ".join(
                f"{u} {k[u + ' read']}/{n}" for u, n in k.most_common() if not u.endswith(" read") and n))
        print()
    for s, c in totals.items():
        lr, le, lj = c["launches read"], c["launches read elsewhere in the file"], c["launches judged"]
        rr, rj = c["release right"], c["release judged"]
        print(f"[{s}] {c['files']} files ({c['files unjudged']} unjudged), {c['files with a launch']} with a launch "
              f"(read {c['launch files read']}, named unread {c['launch files named unread']}, "
              f"silent {c['launch files silent']}); launches read {lr}/{lj} ({_pct(lr, lj)}), "
              f"{lr + le}/{lj} ({_pct(lr + le, lj)}) counting those reported elsewhere in their file; "
              f"files without a launch but with a marker {c['files without a launch, with a marker']} "
              f"(silent {c['files without a launch, silent']}); release right {rr}/{rj} ({_pct(rr, rj)}), "
              f"wrong {c['release wrong']}, no launch read {c['release no launch read']}")
    return {"totals": totals, "kinds": kinds, "users": users}


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.1f} %" if d else "-"


def _newest() -> str:
    vers = _db_range()
    return vers[-1] if vers else "?"


def _oldest() -> str:
    vers = _db_range()
    return vers[0] if vers else ""


def _db_range() -> list[str]:
    """The database's oldest and newest release, from ``vllm-lint --version``."""
    out = subprocess.run([sys.executable, "-m", "vllm_lint", "--version"], capture_output=True, text=True).stdout
    m = re.search(r"vLLM (\S+) to (\S+?),", out)
    return [m.group(1), m.group(2)] if m else re.findall(r"\d+\.\d+\.\d+(?:\.post\d+)?", out)[-1:]


def candidates(which: str, scratch: Path) -> None:
    for r in manifest(which):
        if r["role"] != "file":
            continue
        p = scratch / "bench" / r["set"] / local(r)
        text = p.read_text(encoding="utf-8", errors="replace").splitlines()
        hits = [i for i, ln in enumerate(text, 1) if MARKER.search(ln)]
        print(f"== {r['repo']}\t{r['path']}\t{r['format']}\t{len(text)} lines")
        for i in hits:
            print(f"   {i}: {text[i - 1].strip()[:140]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=["layout", "measure", "candidates"])
    ap.add_argument("--set", default="all", choices=["dev", "test", "all"])
    ap.add_argument("--scratch", default=os.environ.get("VLLM_LINT_SCRATCH", "/work/scratch/realworld"))
    ap.add_argument("--mirrors", default="/work/.mirror", help="folder of <owner>+<name>/repo git snapshots")
    ap.add_argument("--list", action="store_true", help="measure: name every unread launch and wrong release")
    a = ap.parse_args(argv)
    scratch = Path(a.scratch)
    if a.command == "layout":
        layout(manifest(a.set), scratch, Path(a.mirrors))
        print(f"laid out {len(manifest(a.set))} files under {scratch / 'bench'}")
    elif a.command == "candidates":
        candidates(a.set, scratch)
    else:
        measure(a.set, scratch, a.list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
