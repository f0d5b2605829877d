"""Replay real vLLM upgrade commits with ``vllm-lint upgrade`` (issue 32's benchmark).

Each row of ``replay.tsv`` is a commit of a public repository that moved the vLLM release one file
names (repository, commit, parent, path, release before, release after). For each, the file is
taken at the parent commit and at the commit (from the search tools' snapshots under --mirrors, as
`fetch` lays them out, or raw.githubusercontent.com), ``vllm-lint upgrade --to AFTER`` is run on
the parent's file alone, and the result is compared with what the people committed:

* **bumped**: the file names the new release wherever the people's commit does (each line of the
  commit naming AFTER has its counterpart in the upgraded file);
* **forced made**: every option or variable AFTER refuses in the parent's launches (an error of
  VL101-VL105 at AFTER) is gone or rewritten in the upgraded file;
* **undone**: an option the upgrade removed or renamed that the people kept and AFTER accepts
  unchanged (an edit they would have to undo);
* **left, accepted**: an item the upgrade left for a person about an option the people kept and
  AFTER accepts (the "left for a person" list should hold none).

The ``note`` column says which lines of the people's file that name AFTER are no bump the
release forced (``unforced=<line of the people's file>:<why>,...``): ``new-line``, a line they
wrote anew (a new comment, a new stage); ``other-image``, a base image replaced by another one;
``plugin``, a platform plugin's own release (``vllm-ascend==0.14.0rc1``), which the upgrade must
list for a person; ``other-image-tag``, another publisher's image whose tag names the vLLM release
(``verl:...-vllm0.8.3``), also listed for a person. Those lines leave the "bumped" figure; the
listed ones are counted apart ("named for a person").

With ``--real-parser``, each upgraded launch that vLLM's server parser reads (``vllm serve``,
the api_server module, a vLLM image's arguments) is fed to the REAL parser of AFTER where a
release environment of ``tools/crosscheck`` exists in ``--xc-work`` (``xc-venv-<AFTER>``, built by
``tools/crosscheck/run.py AFTER --work DIR --dump-only``), with ``validate_parsed_serve_args``;
otherwise the launch counts as "no parser for AFTER". The api_server module's words go to
``vllm serve`` with ``--model X`` as its positional model (the module builds the same parser,
without ``serve``'s checks of ``--model``). The file of ``--config FILE`` is taken from the
repository at the parent commit, beside the launch's file (a container mounts or copies it to
FILE), so the parser reads its options too; a file it cannot find stops the parser, counted apart.
Launches with words only the run knows (``$TP``, a splat) or with no words of their own are
counted apart, not parsed.

Nothing of the repositories is committed: the files go to a scratch folder.

    python benchmarks/upgrades/replay.py [--mirrors /work/.mirror] [--scratch DIR] [--list]
                                         [--real-parser [--xc-work /work/scratch/zeroday-xc]]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
sys.path.insert(0, str(REPO_ROOT))

FIELDS = ("repo", "commit", "parent", "path", "from", "to", "note")
REFUSALS = ("VL101", "VL102", "VL103", "VL104", "VL105", "VL110", "VL112", "VL201")


def rows() -> list[dict[str, str]]:
    out = []
    with open(HERE / "replay.tsv", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if line.strip():
                out.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    return out


def blob(mirrors: Path, repo: str, commit: str, path: str) -> bytes:
    gitdir = mirrors / repo.replace("/", "+", 1) / "repo"
    if (gitdir / "HEAD").exists():
        r = subprocess.run(["git", f"--git-dir={gitdir}", "show", f"{commit}:{path}"], capture_output=True)
        if r.returncode == 0:
            return r.stdout
    import requests

    url = f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"
    resp = requests.get(url, timeout=30)
    resp.raise_for_status()
    return resp.content


def lint_json(path: Path, to: str) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "vllm_lint", "--no-cache", "--isolated", "-t", to,
                        "--output-format", "json", "--exit-zero", str(path)], capture_output=True, text=True,
                       cwd=path.parent)
    try:
        return json.loads(r.stdout or "[]")
    except json.JSONDecodeError:
        return []


def options_of(data: bytes, name: str, to: str) -> list[str]:
    """The option and variable names the file's launches set, as written (in order)."""
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_layered
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    db = Database()
    linter = Linter(db, Settings().merged(target_version=to), select_layered([(None, [], [])]))
    checked = linter.check(name, data, "explicit")
    names = []
    for la in checked.analysis.launches:
        for a in la.args:
            if not a.positional and a.written:
                names.append(a.written.split("=", 1)[0])
        names.extend(e.name for e in la.launch.env)
    return names


def replay_one(row: dict[str, str], mirrors: Path, scratch: Path) -> dict:
    name = os.path.basename(row["path"])
    work = scratch / row["repo"].replace("/", "+") / row["commit"][:10]
    (work / "before").mkdir(parents=True, exist_ok=True)
    (work / "after").mkdir(parents=True, exist_ok=True)
    (work / "upgraded").mkdir(parents=True, exist_ok=True)
    before = blob(mirrors, row["repo"], row["parent"], row["path"])
    after = blob(mirrors, row["repo"], row["commit"], row["path"])
    (work / "before" / name).write_bytes(before)
    (work / "after" / name).write_bytes(after)
    up_path = work / "upgraded" / name
    up_path.write_bytes(before)
    to = row["to"]
    r = subprocess.run([sys.executable, "-m", "vllm_lint", "upgrade", "--to", to, str(up_path)],
                       capture_output=True, text=True)
    upgraded = up_path.read_bytes()
    result = {"row": row, "upgrade_exit": r.returncode, "account": r.stdout + r.stderr}
    # bumped: every line of the people's file naming `to` where the parent named another release
    to_re = re.compile(rf"(?<![0-9]){re.escape(to)}(?![0-9])")
    people = sum(1 for line in after.decode("utf-8", "replace").splitlines() if to_re.search(line))
    parent_had = sum(1 for line in before.decode("utf-8", "replace").splitlines() if to_re.search(line))
    tool = sum(1 for line in upgraded.decode("utf-8", "replace").splitlines() if to_re.search(line))
    unforced = unforced_lines(row)
    after_lines = after.decode("utf-8", "replace").splitlines()
    for line_no in unforced:
        if not (0 < line_no <= len(after_lines) and to_re.search(after_lines[line_no - 1])):
            raise SystemExit(f"replay.tsv: {row['repo']} {row['commit'][:10]}: line {line_no} of the people's "
                             f"file does not name {to}")
    result["unforced"] = unforced
    result["bump_needed"] = max(0, people - len(unforced) - parent_had)
    result["bump_made"] = min(result["bump_needed"], max(0, tool - parent_had))
    left_codes = [line.split(":", 1)[1].split()[0] for line in r.stdout.splitlines()
                  if line.strip().startswith("left ") and ":" in line]
    listed_wanted = [why for why in unforced.values() if why in FOR_A_PERSON]
    result["for_a_person"] = (sum(1 for why in listed_wanted if FOR_A_PERSON[why] in left_codes), len(listed_wanted))
    # forced: what `to` refuses in the parent's launches
    refused = {(d["code"], d.get("option") or "") for d in lint_json(work / "before" / name, to)
               if d["code"] in REFUSALS and d["severity"] == "error"}
    left_refused = {(d["code"], d.get("option") or "") for d in lint_json(up_path, to)
                    if d["code"] in REFUSALS and d["severity"] == "error"}
    result["forced"] = sorted(f"{c} {o}" for c, o in refused)
    result["forced_left"] = sorted(f"{c} {o}" for c, o in refused & left_refused)
    # undone: options the tool took out that the people kept
    opts_before = options_of(before, name, to)
    opts_after = set(options_of(after, name, to))
    opts_upgraded = set(options_of(upgraded, name, to))
    refused_names = {o for _, o in refused}
    result["undone"] = sorted({o for o in opts_before if o in opts_after and o not in opts_upgraded
                               and o not in refused_names})
    result["people_removed"] = sorted({o for o in opts_before if o not in opts_after})
    result["tool_removed"] = sorted({o for o in opts_before if o not in opts_upgraded})
    result["parser_launches"] = launches_for_parser(upgraded, name, to)
    result["parser_launches_before"] = launches_for_parser(before, name, to)
    left_lines = [line for line in result["account"].splitlines() if line.strip().startswith("left ")]
    result["left_accepted"] = [line.strip() for line in left_lines
                               if any(f"`{o}`" in line for o in opts_after) and not any(
                                   f"`{o}`" in line for o in refused_names)]
    return result


#: the reasons of the note column whose lines the upgrade must list for a person, with the code
#: of its "left" line
FOR_A_PERSON = {"plugin": "plugin", "other-image-tag": "tag"}
UNFORCED_WHY = ("new-line", "other-image", *FOR_A_PERSON)


def unforced_lines(row: dict[str, str]) -> dict[int, str]:
    """``{line of the people's file: why}`` from the note column (``unforced=46:new-line,...``)."""
    out: dict[int, str] = {}
    for part in (row.get("note") or "").split():
        if not part.startswith("unforced="):
            continue
        for item in part[len("unforced="):].split(","):
            line, _, why = item.partition(":")
            if why not in UNFORCED_WHY or not line.isdigit():
                raise SystemExit(f"replay.tsv: {row['repo']} {row['commit'][:10]}: bad note item {item!r}")
            out[int(line)] = why
    return out


# ----------------------------------------------------------------------------- real parser

#: the entries whose words vLLM's server parser reads (besides ``docker:<image>`` of a vLLM or
#: vendor server image)
PARSER_ENTRIES = ("vllm serve", "openai.api_server", "api_server")


def parser_argv(launch, surface) -> tuple[str, list[str] | None]:
    """(kind, the words to give after ``vllm serve``): kind is ``argv`` (checkable), ``not-vllm``
    (another program: a wrapper's own parser, a Python call), ``run-time`` (words only the run
    knows) or ``no-words``."""
    entry = launch.entry
    if launch.style != "argv" or not (entry in PARSER_ENTRIES or surface.image_program(entry) is not None):
        return "not-vllm", None
    if launch.opaque or any(t.opaque or t.splat for t in launch.tokens):
        return "run-time", None
    words = [t.text for t in launch.tokens]
    if not words:
        return "no-words", None
    if not surface.entry_has_positional_model(entry):  # the api_server module: --model X
        for i, w in enumerate(words):
            if w == "--model" and i + 1 < len(words):
                return "argv", [words[i + 1], *words[:i], *words[i + 2:]]
            if w.startswith("--model="):
                return "argv", [w.split("=", 1)[1], *words[:i], *words[i + 1:]]
    return "argv", words


def launches_for_parser(data: bytes, name: str, to: str) -> list[tuple[str, list[str] | None, int]]:
    """(kind, argv, line) of each launch of the upgraded file, read at ``to``."""
    from vllm_lint.launch import LineIndex
    from vllm_lint.pipeline.engine import Linter
    from vllm_lint.rules.base import select_layered
    from vllm_lint.settings import Settings
    from vllm_lint.surface.db import Database

    db = Database()
    linter = Linter(db, Settings().merged(target_version=to), select_layered([(None, [], [])]))
    checked = linter.check(name, data, "explicit")
    surface = db.surface(to)
    index = LineIndex(data)
    out = []
    for la in checked.analysis.launches:
        kind, argv = parser_argv(la.launch, surface)
        out.append((kind, argv, index.position(la.launch.span.start)[0]))
    return out


def with_repository_config(argv: list[str], row: dict[str, str], mirrors: Path, scratch: Path) -> list[str]:
    """``argv`` with the file of ``--config FILE`` taken from the repository at the parent commit
    (beside the launch's file: a container mounts or copies it to FILE) into the scratch folder,
    so that the parser reads the options it holds; as is when the repository has no such file."""
    out = list(argv)
    for i, w in enumerate(argv):
        value, at = (argv[i + 1], i + 1) if w == "--config" and i + 1 < len(argv) else (
            (w.split("=", 1)[1], i) if w.startswith("--config=") else (None, None))
        if not value:
            continue
        folder = os.path.dirname(row["path"])
        for candidate in dict.fromkeys([os.path.normpath(os.path.join(folder, value.lstrip("/"))),
                                        os.path.join(folder, os.path.basename(value))]):
            try:
                data = blob(mirrors, row["repo"], row["parent"], candidate)
            except Exception:  # noqa: BLE001 - not in the snapshot nor on GitHub: left as written
                continue
            local = scratch / row["repo"].replace("/", "+") / row["commit"][:10] / "config" / candidate.replace("/", "+")
            local.parent.mkdir(parents=True, exist_ok=True)
            local.write_bytes(data)
            out[at] = str(local) if at == i + 1 else f"--config={local}"
            break
    return out


def real_parser_check(results: list[dict], xc_work: Path, mirrors: Path, scratch: Path) -> dict[str, dict]:
    """Feed each checkable upgraded launch to the real parser of its release (``fixcheck``'s
    worker in ``xc-venv-<release>``); per release: launches, accepted, refusals."""
    sys.path.insert(0, str(REPO_ROOT / "tools" / "crosscheck"))
    import fixcheck  # tools/crosscheck/fixcheck.py: the release environments and their worker

    by_release: dict[str, list[tuple[dict, list[str], int]]] = {}
    before: dict[str, list[tuple[dict, list[str], int]]] = {}
    for r in results:
        for key, into in (("parser_launches", by_release), ("parser_launches_before", before)):
            for kind, argv, line in r[key]:
                if kind == "argv":
                    argv = with_repository_config(argv, r["row"], mirrors, scratch)
                    into.setdefault(r["row"]["to"], []).append((r, argv, line))
    out: dict[str, dict] = {}
    for release, jobs in sorted(by_release.items()):
        venv, src = xc_work / f"xc-venv-{release}", xc_work / f"xc-src-{release}"
        if not ((venv / ".xc-installed").exists() and (src / "vllm").is_dir()):
            out[release] = {"launches": len(jobs), "parser": False}
            continue
        parents = before.get(release, [])
        try:
            parsed = fixcheck.real_parse(release, [argv for _, argv, _ in jobs + parents], xc_work)
        except SystemExit as e:  # (a release environment that does not import: said, not counted)
            out[release] = {"launches": len(jobs), "parser": False, "error": str(e).strip().splitlines()[-1][:300]}
            continue
        refused, needs_file, parents_refused = [], [], 0
        for i, ((r, argv, line), res) in enumerate(zip(jobs + parents, parsed)):
            error = res.get("error") if not res.get("ok") else res.get("validate_error")
            missing = _missing_file(error, argv)
            if i >= len(jobs):
                parents_refused += bool(error) and not missing  # (the parent's launch as the people left it)
            elif error:
                x = {"repo": r["row"]["repo"], "commit": r["row"]["commit"][:10], "path": r["row"]["path"],
                     "line": line, "argv": argv, "error": error}
                (needs_file if missing else refused).append(x)
        out[release] = {"launches": len(jobs), "parser": True, "accepted": len(jobs) - len(refused) - len(needs_file),
                        "refused": refused, "needs_file": needs_file, "parent_launches": len(parents),
                        "parent_refused": parents_refused}
    return out


def _missing_file(error: str | None, argv: list[str]) -> bool:
    """Whether the parser stopped at a file the launch names that only its deployment has (``--config
    /app/config.yaml``: the parser reads it and takes its options): a fact of this machine, no verdict
    on the words."""
    m = re.search(r"No such file or directory: '([^']+)'", error or "")
    return m is not None and any(w == m.group(1) or w.endswith("=" + m.group(1)) for w in argv)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--scratch", type=Path, default=Path(os.environ.get("VLLM_LINT_SCRATCH", "/work/scratch"))
                    / "upgrades")
    ap.add_argument("--list", action="store_true", help="print every replay's outcome")
    ap.add_argument("--real-parser", action="store_true",
                    help="feed each upgraded launch to the real parser of the new release where one is built")
    ap.add_argument("--xc-work", type=Path, default=Path("/work/scratch/zeroday-xc"),
                    help="where tools/crosscheck/run.py built the release environments (xc-venv-<release>)")
    ap.add_argument("--json", type=Path, default=None, help="write every replay's outcome here")
    args = ap.parse_args()
    results = [replay_one(row, args.mirrors, args.scratch) for row in rows()]
    repos = {r["row"]["repo"] for r in results}
    need = sum(r["bump_needed"] for r in results)
    made = sum(r["bump_made"] for r in results)
    forced = sum(len(r["forced"]) for r in results)
    forced_left = sum(len(r["forced_left"]) for r in results)
    undone = sum(len(r["undone"]) for r in results)
    left_ok = sum(len(r["left_accepted"]) for r in results)
    unforced = sum(len(r["unforced"]) for r in results)
    listed = [sum(r["for_a_person"][i] for r in results) for i in (0, 1)]
    if args.list:
        for r in results:
            row = r["row"]
            print(f"{row['repo']} {row['commit'][:10]} {row['path']} {row['from']}->{row['to']}: "
                  f"bump {r['bump_made']}/{r['bump_needed']}, forced {len(r['forced']) - len(r['forced_left'])}/"
                  f"{len(r['forced'])} {r['forced_left'] or ''}, undone {r['undone'] or 0}, "
                  f"people removed {r['people_removed']}, tool removed {r['tool_removed']}, "
                  f"left-accepted {r['left_accepted'] or 0}")
    print(f"{len(results)} commits from {len(repos)} repositories")
    print(f"release bumped where the people bumped it: {made}/{need}")
    print(f"changes the new release forced, made: {forced - forced_left}/{forced}")
    print(f"edits the people would undo: {undone}")
    print(f"'left for a person' items about an option the new release accepts unchanged: {left_ok}")
    print(f"lines of the people naming the new release that are no forced bump: {unforced} "
          f"(plugin releases and other publishers' images named for a person: {listed[0]}/{listed[1]})")
    report: dict = {"results": results}
    if args.real_parser:
        kinds: dict[str, int] = {}
        for r in results:
            for kind, _, _ in r["parser_launches"]:
                kinds[kind] = kinds.get(kind, 0) + 1
        real = real_parser_check(results, args.xc_work, args.mirrors, args.scratch)
        report["real_parser"] = real
        checked = sum(v["launches"] for v in real.values() if v["parser"])
        accepted = sum(v.get("accepted", 0) for v in real.values())
        needs_file = [x for v in real.values() for x in v.get("needs_file", [])]
        no_parser = {k: v["launches"] for k, v in real.items() if not v["parser"]}
        for k, v in real.items():
            if v.get("error"):
                print(f"  the parser of {k} did not start: {v['error']}")
        print(f"launches of the upgraded files: {sum(kinds.values())} ({kinds.get('argv', 0)} for vLLM's server "
              f"parser, {kinds.get('not-vllm', 0)} for another program, {kinds.get('run-time', 0)} with words only "
              f"the run knows, {kinds.get('no-words', 0)} with no words of their own)")
        print(f"checked by the real parser of the new release: {checked}, accepted {accepted}, refused "
              f"{checked - accepted - len(needs_file)}, stopped at a file only the deployment has {len(needs_file)}; "
              "no parser for " + (", ".join(f"{k} ({n})" for k, n in no_parser.items()) or "none"))
        for x in needs_file:
            print(f"  needs a file at {x['repo']} {x['commit']} {x['path']}:{x['line']}: {x['error']}")
        print(f"the same launches before the upgrade, at the new release: "
              f"{sum(v.get('parent_refused', 0) for v in real.values())} of "
              f"{sum(v.get('parent_launches', 0) for v in real.values())} refused")
        for release, v in real.items():
            for x in v.get("refused", []):
                print(f"  refused at {release}: {x['repo']} {x['commit']} {x['path']}:{x['line']}: {x['error']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
