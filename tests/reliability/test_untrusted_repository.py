"""Trust nothing a repository brings (issue 34): one test per probe.

A repository is input, whatever it holds: a committed ``.vllm-lint-cache/`` (made elsewhere, or
edited), links leading out of the tree, FIFOs and devices, file names with control characters,
secrets in the linted text, a database with path-hostile names. Each probe ends in correct
findings (nothing hidden), no write outside the tree named, one line where something is refused,
and never a hang or a traceback. Bounds are structural (sizes, counts), never wall-clock
thresholds; a subprocess's timeout only turns a hang into a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from reliability_support import cli_env

BAD = b"vllm serve m --swap-space 4 --cuda-graph-sizes 8\n"  # two errors at 0.27.1, both fixable
FIXED = b"vllm serve m --cudagraph-capture-sizes 8\n"
HANG = 120  # seconds before a subprocess that should take one is called hung (never a threshold)


@contextlib.contextmanager
def memory_cap(extra: int = 1 << 30):
    """At most ``extra`` more bytes of address space for this process inside the block (Linux): an
    unbounded read fails with a MemoryError instead of filling the shared machine's memory."""
    try:
        import resource

        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        cap = used + extra if hard == resource.RLIM_INFINITY else min(hard, used + extra)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, OSError, ValueError):
        yield
        return
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


@contextlib.contextmanager
def no_hang(seconds: int = HANG):
    """A blocking call inside the block (opening a FIFO that has no writer) fails the test after
    ``seconds`` instead of hanging the run (a hang detector, never a timing threshold)."""
    import signal

    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def hung(*_):
        raise TimeoutError(f"blocked for {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def findings(r) -> list[tuple[str, int]]:
    return [(d["code"], d["location"]["row"]) for d in json.loads(r.stdout)]


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A repository as the working directory, the result cache on (in the repository, where the
    user's runs put it), the user cache folder (the secret) of this test."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "serve.sh").write_bytes(BAD)
    monkeypatch.chdir(root)
    monkeypatch.delenv("VLLM_LINT_NO_CACHE", raising=False)
    monkeypatch.delenv("VLLM_LINT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return root


@pytest.fixture
def caches(monkeypatch):
    """Every result cache the in-process runs make."""
    from vllm_lint.pipeline import cache

    made: list = []
    real = cache.Cache.__init__

    def spy(self, *a, **k):
        real(self, *a, **k)
        made.append(self)

    monkeypatch.setattr(cache.Cache, "__init__", spy)
    return made


def index_file(root: Path) -> Path:
    (p,) = (root / ".vllm-lint-cache" / "v3").glob("stat-*.json")
    return p


def records(p: Path) -> dict:
    return json.loads(p.read_bytes().partition(b"\n")[2])


def write_signed(cache, index: dict) -> None:
    """``index`` written as ``cache`` writes its file (with a valid MAC): what only this user's
    vllm-lint can make. Used to check that records are validated even then."""
    cache._path.write_bytes(cache._encode(index))


def lint_json(run_cli, *args):
    r = run_cli("--output-format", "json", "-t", "0.27.1", *args)
    assert r.exit_code in (0, 1) and "Traceback" not in r.output, r.output
    return r


# ----------------------------------------------------------------------------- the cache


def test_a_cache_made_by_another_user_or_machine_never_matches(run_cli, repo, tmp_path, monkeypatch, caches):
    """A cache committed to the repository, made with another secret and with its findings emptied,
    does not hide them: not as they are, not after ``touch``, and --fix fixes the file."""
    first = findings(lint_json(run_cli, "serve.sh"))
    assert first == [("VL101", 1), ("VL102", 1)]
    theirs = caches[-1]
    rec = records(index_file(repo))["serve.sh"]
    rec[3] = []  # "no findings", signed with their key: a perfectly valid cache of theirs
    write_signed(theirs, {"serve.sh": rec})
    assert findings(lint_json(run_cli, "serve.sh")) == []  # (their own run trusts their own cache)
    committed = {p.relative_to(repo): p.read_bytes() for p in (repo / ".vllm-lint-cache").rglob("*") if p.is_file()}

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "my-user-cache"))  # another user, another machine
    for p, data in committed.items():
        (repo / p).write_bytes(data)
    assert findings(lint_json(run_cli, "serve.sh")) == first
    os.utime(repo / "serve.sh")
    assert findings(lint_json(run_cli, "serve.sh")) == first
    run_cli("-t", "0.27.1", "--fix", "serve.sh")
    assert (repo / "serve.sh").read_bytes() == FIXED


def test_an_edited_index_is_a_miss_as_a_whole(run_cli, repo):
    first = findings(lint_json(run_cli, "serve.sh"))
    p = index_file(repo)
    head, _, body = p.read_bytes().partition(b"\n")
    index = json.loads(body)
    index["serve.sh"][3] = []
    for data in (head + b"\n" + json.dumps(index).encode(),  # the records edited, the MAC kept
                 json.dumps(index).encode(),  # a v2-style index with no MAC
                 head[:-4] + b"0000\n" + body,  # the MAC edited
                 b"", b"\n", head, b"\xff" * 100):
        p.write_bytes(data)
        os.utime(repo / "serve.sh")
        assert findings(lint_json(run_cli, "serve.sh")) == first


def test_the_fingerprint_follows_the_databases_content_not_its_mtime(tmp_path, synth_db_path, monkeypatch):
    import shutil

    from vllm_lint.pipeline.cache import Cache
    from vllm_lint.settings import Settings

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    db = tmp_path / "db"
    shutil.copytree(synth_db_path, db)
    before = Cache.fingerprint_of(db, Settings(), ["VL101"], False)
    index = db / "index.json"
    st = index.stat()
    data = index.read_bytes()
    index.write_bytes(data.replace(b"0.27.1", b"0.27.2"))  # same size, same mtime, other content
    os.utime(index, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert index.stat().st_size == st.st_size and Cache.fingerprint_of(db, Settings(), ["VL101"], False) != before
    index.write_bytes(data)
    os.utime(index, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # content back, only the mtime moved
    assert Cache.fingerprint_of(db, Settings(), ["VL101"], False) == before


@pytest.mark.parametrize("forged", [
    {"code": "VL999"},  # no such rule
    {"message": "\x1b[2J\x1b[31mpwned"},  # escape sequences for the terminal
    {"message": "ok\n::warning file=x::injected"},  # a workflow command on a line of its own
    {"severity": "fatal"},
    {"pos": [10**9, 1, 1, 1]},  # rows beyond the file
    {"pos": [1, -1, 1, 1]},
    {"pos": [True, 1, 1, 1]},
    {"span": [0, 10**9]},
    {"fix": {"applicability": "safe", "message": "x", "edits": [[0, 10**9, "x"]]}},
    {"option": "\x07"},
    {"code": None},
])
def test_a_record_that_does_not_validate_is_a_miss(run_cli, repo, caches, forged):
    """Even a record in a correctly signed index (only the user's own vllm-lint can make one) is
    checked before use: a finding with an invented code, control characters, a bad severity or
    positions outside the file is not printed; the file is linted again."""
    first = lint_json(run_cli, "serve.sh").stdout
    mine = caches[-1]
    index = records(index_file(repo))
    index["serve.sh"][3][0].update(forged)
    write_signed(mine, index)
    again = lint_json(run_cli, "serve.sh")
    assert again.stdout == first and "pwned" not in again.output and "VL999" not in again.output


@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "directory", "huge"])
def test_a_records_reads_are_keyed_only_as_bounded_regular_files(run_cli, repo, caches, kind, tmp_path):
    """A record's ``reads`` (other files its analysis read) naming ``/dev/zero`` or a FIFO is
    keyed without reading it (no 3.7 GB, no hang): a miss."""
    from vllm_lint import inputs

    first = lint_json(run_cli, "serve.sh").stdout
    if kind == "dev-zero":
        target = "/dev/zero"
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("POSIX FIFOs")
        target = str(tmp_path / "pipe")
        os.mkfifo(target)
    elif kind == "directory":
        target = str(tmp_path)
    else:
        big = tmp_path / "big.json"
        with open(big, "wb") as f:
            f.truncate(inputs.READ_LIMIT + 1)  # sparse
        target = str(big)
    with memory_cap(), no_hang():
        assert inputs.content_key(target) == inputs.MISSING
        index = records(index_file(repo))
        rec = index["serve.sh"]
        rec[3] = []
        rec.append([[target, inputs.key_of(b"")]])  # the key of the empty bytes a FIFO would give
        write_signed(caches[-1], index)
        assert lint_json(run_cli, "serve.sh").stdout == first


def test_a_cache_folder_that_is_a_link_is_not_used(run_cli, repo, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / ".vllm-lint-cache").symlink_to(outside)
    first = findings(lint_json(run_cli, "serve.sh"))
    assert first == [("VL101", 1), ("VL102", 1)]
    assert list(outside.iterdir()) == []  # nothing written through the link
    # nor a link at v3/
    (repo / ".vllm-lint-cache").unlink()
    (repo / ".vllm-lint-cache").mkdir()
    (repo / ".vllm-lint-cache" / "v3").symlink_to(outside)
    assert findings(lint_json(run_cli, "serve.sh")) == first
    assert list(outside.iterdir()) == []


def test_links_planted_in_the_cache_folder_are_never_written_through(run_cli, repo, tmp_path):
    """A dangling ``.gitignore`` link, a ``CACHEDIR.TAG`` link to an outside file, and links at the
    temporary names of a range of PIDs (the old writer's names): no outside file is created or
    changed."""
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    cache = repo / ".vllm-lint-cache"
    (cache / "v3").mkdir(parents=True)
    (cache / ".gitignore").symlink_to(tmp_path / "created-outside")
    (cache / "CACHEDIR.TAG").symlink_to(victim)
    pid = os.getpid()
    for p in range(max(1, pid - 50), pid + 50):
        for fp in ("0" * 8, "f" * 8):
            (cache / "v3" / f".tmp-stat-{p}-{fp}").symlink_to(victim)
    assert findings(lint_json(run_cli, "serve.sh")) == [("VL101", 1), ("VL102", 1)]
    assert victim.read_bytes() == b"precious\n"
    assert not (tmp_path / "created-outside").exists()
    assert records(index_file(repo))["serve.sh"]  # the cache itself was written, beside the links


# ----------------------------------------------------------------------------- writes


@pytest.mark.parametrize("how", ["relative", "absolute"])
def test_fix_of_a_tree_never_writes_through_a_link_out_of_it(run_cli, repo, tmp_path, how):
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    (outside / "victim.sh").write_bytes(BAD)
    (outside / "sub" / "deep.sh").write_bytes(BAD)

    def target(p: Path) -> str:
        return str(p) if how == "absolute" else os.path.relpath(p, repo)

    (repo / "file-link.sh").symlink_to(target(outside / "victim.sh"))
    (repo / "dir-link").symlink_to(target(outside / "sub"))
    r = run_cli("-t", "0.27.1", "--fix", ".")
    assert "Traceback" not in r.output
    assert (outside / "victim.sh").read_bytes() == BAD and (outside / "sub" / "deep.sh").read_bytes() == BAD
    assert (repo / "serve.sh").read_bytes() == FIXED  # the tree itself is fixed
    assert (repo / "file-link.sh").is_symlink() and (repo / "dir-link").is_symlink()


def test_fix_never_writes_a_config_file_a_launch_names_outside_the_tree(run_cli, repo, tmp_path):
    """``vllm serve --config ../victim.yaml``: the config file is linted at the launch's release,
    but --fix (and --add-noqa) write only inside the tree being linted (the working directory, the
    folders named, the folders of the files named)."""
    victim = tmp_path / "victim.yaml"
    victim.write_bytes(b"swap-space: 4\nmodel: m\n")
    (repo / "run.sh").write_bytes(b"vllm serve --config ../victim.yaml --port 1\n")
    for args in (["--fix", "."], ["--add-noqa", "."]):
        r = run_cli("-t", "0.27.1", *args)
        assert "Traceback" not in r.output
        assert victim.read_bytes() == b"swap-space: 4\nmodel: m\n", args
    r = run_cli("-t", "0.27.1", "--fix", ".")
    assert "victim.yaml: outside the tree being linted; not fixed" in r.stderr
    assert "VL101" in r.stdout  # reported as it is
    run_cli("-t", "0.27.1", "--fix", ".", str(victim))  # named: inside what the user chose
    assert victim.read_bytes() == b"model: m\n"


def test_write_baseline_never_writes_through_a_link_at_its_temporary_name(run_cli, repo, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    (repo / "baseline.json.tmp").symlink_to(victim)  # the old writer's temporary name
    r = run_cli("-t", "0.27.1", "--baseline", "baseline.json", "--write-baseline", ".")
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    assert victim.read_bytes() == b"precious\n"
    assert json.loads((repo / "baseline.json").read_text())["findings"]
    assert not [p.name for p in repo.iterdir() if p.name.startswith(".baseline.json.")]


def test_fix_leaves_a_read_only_file_alone_and_says_so(run_cli, repo):
    p = repo / "serve.sh"
    p.chmod(0o444)
    r = run_cli("-t", "0.27.1", "--fix", "serve.sh")
    assert r.exit_code == 1 and "Traceback" not in r.output
    (line,) = [ln for ln in r.stderr.splitlines() if "serve.sh" in ln]
    assert "read-only; not fixed" in line
    assert p.read_bytes() == BAD and (p.stat().st_mode & 0o777) == 0o444
    assert "VL101" in r.stdout and "VL102" in r.stdout  # reported as it is


def test_a_file_edited_during_the_fix_run_is_not_overwritten(run_cli, repo, monkeypatch):
    """The user saves the file after vllm-lint read it and before the fix is written: the fix of
    the old content is not written over the edit."""
    import vllm_lint.pipeline.fix as fixmod

    p = repo / "serve.sh"
    edit = BAD + b"# the user's edit, saved while the run was under way\n"
    real = fixmod.write_atomic

    def user_saves_first(path, data, **kw):
        Path(path).write_bytes(edit)
        return real(path, data, **kw)

    monkeypatch.setattr(fixmod, "write_atomic", user_saves_first)
    r = run_cli("-t", "0.27.1", "--fix", "serve.sh")
    assert r.exit_code == 1 and "Traceback" not in r.output
    (line,) = [ln for ln in r.stderr.splitlines() if "serve.sh" in ln]
    assert line.endswith("changed during the run; not fixed")
    assert p.read_bytes() == edit
    assert not [q.name for q in repo.iterdir() if q.name.endswith(".vllm-lint.tmp")]


# ----------------------------------------------------------------------------- special files


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX FIFOs")
@pytest.mark.parametrize("fix", [False, True], ids=["lint", "fix"])
def test_a_fifo_named_on_the_command_line_does_not_hang(synth_db_path, tmp_path, fix):
    os.mkfifo(tmp_path / "pipe.sh")
    (tmp_path / "good.sh").write_bytes(BAD)
    args = [sys.executable, "-m", "vllm_lint", "-t", "0.27.1", *(["--fix"] if fix else []),
            str(tmp_path / "pipe.sh"), str(tmp_path / "good.sh")]
    out = subprocess.run(args, env=cli_env(synth_db_path), capture_output=True, text=True, timeout=HANG)
    assert out.returncode in (0, 1) and "Traceback" not in out.stderr, out.stderr
    assert (tmp_path / "good.sh").read_bytes() == (FIXED if fix else BAD)
    assert stat_is_fifo(tmp_path / "pipe.sh")


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="POSIX FIFOs, /dev/zero")
def test_the_audit_reads_no_device_and_waits_for_no_fifo(synth_db_path, tmp_path):
    os.mkfifo(tmp_path / "pipe.sh")
    args = [sys.executable, "-m", "vllm_lint", "audit", "--from", "0.8.5", "--to", "0.27.1", "/dev/zero",
            str(tmp_path / "pipe.sh")]
    out = subprocess.run(args, env=cli_env(synth_db_path), capture_output=True, text=True, timeout=HANG)
    assert "Traceback" not in out.stderr, out.stderr
    assert "/dev/zero: error: cannot read file: not a regular file (character device)" in out.stdout


def stat_is_fifo(p: Path) -> bool:
    import stat

    return stat.S_ISFIFO(os.lstat(p).st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_named_or_on_stdin_is_one_line_not_gigabytes(synth_db_path):
    """Named: a VL001 finding (a character device is not read). On standard input: at most the
    10 MiB input limit and one byte are read, then one line, exit 2. The subprocess's address
    space is capped at 1 GiB, so an unbounded read fails the test with a MemoryError."""
    cap = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
    run = "import runpy, sys; sys.argv = ['vllm_lint'] + sys.argv[1:]; runpy.run_module('vllm_lint', run_name='__main__')"
    code = (cap if sys.platform.startswith("linux") else "") + run
    named = subprocess.run([sys.executable, "-c", code, "-t", "0.27.1", "--output-format", "json", "/dev/zero"],
                           env=cli_env(synth_db_path), capture_output=True, text=True, timeout=HANG)
    assert named.returncode == 1 and "Traceback" not in named.stderr, named.stderr
    (d,) = json.loads(named.stdout)
    assert d["code"] == "VL001" and "character device" in d["message"]
    with open("/dev/zero", "rb") as zero:
        piped = subprocess.run([sys.executable, "-c", code, "--stdin-filename", "x.sh", "-"], stdin=zero,
                               env=cli_env(synth_db_path), capture_output=True, text=True, timeout=HANG)
    assert piped.returncode == 2 and "Traceback" not in piped.stderr, piped.stderr
    lines = piped.stderr.splitlines()
    assert len(lines) == 1 and "standard input is larger than the 10 MiB input limit" in lines[0]
    assert piped.stdout == ""


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("link", ["requirements.txt", "pyproject.toml", "chart/values.yaml", "compose",
                                  "model/config.json"])
def test_a_file_the_analysis_reads_beside_the_linted_one_may_be_a_link_to_dev_zero(synth_db_path, tmp_path, link):
    """Git stores links: a project pin file, a configuration, a chart's values, a compose build's
    Dockerfile or a local model's config.json may lead to ``/dev/zero``. None is read (the run's
    address space is capped at 1 GiB: an unbounded read fails the test); the rest is linted."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "serve.sh").write_bytes(BAD)
    if link == "chart/values.yaml":
        (root / "chart" / "templates").mkdir(parents=True)
        (root / "chart" / "Chart.yaml").write_text("name: c\n")
        (root / "chart" / "templates" / "d.yaml").write_text(
            "image: vllm/vllm-openai:{{ .Values.tag }}\nargs: [--swap-space, '4']\n")
    elif link == "compose":
        (root / "compose.yaml").write_text("services:\n  vllm:\n    build: .\n    command: [--swap-space, '4']\n")
        link = "Dockerfile"
    elif link == "model/config.json":
        (root / "model").mkdir()
        (root / "run.sh").write_text("vllm serve ./model --tensor-parallel-size 3\n")
    (root / link).symlink_to("/dev/zero")
    cap = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); " \
        if sys.platform.startswith("linux") else ""
    code = cap + "import runpy, sys; sys.argv = ['vllm_lint'] + sys.argv[1:]; runpy.run_module('vllm_lint', run_name='__main__')"
    out = subprocess.run([sys.executable, "-c", code, "--output-format", "concise", "."], cwd=root,
                         env=cli_env(synth_db_path), capture_output=True, text=True, timeout=HANG)
    assert "Traceback" not in out.stderr and "MemoryError" not in out.stderr, out.stderr
    assert out.returncode == 1 and "serve.sh:1:14: VL101" in out.stdout


def test_stdin_at_the_limit_is_linted_and_one_byte_over_is_refused(run_cli, monkeypatch):
    from vllm_lint.pipeline import engine

    monkeypatch.setattr(engine, "MAX_FILE_BYTES", 4096)  # the limit's logic, without 10 MiB to lint
    MAX_FILE_BYTES = engine.MAX_FILE_BYTES
    line = b"vllm serve m --swap-space 4\n"
    at = line + b"#" * (MAX_FILE_BYTES - len(line) - 1) + b"\n"
    assert len(at) == MAX_FILE_BYTES
    ok = run_cli("--output-format", "json", "-t", "0.27.1", "--stdin-filename", "x.sh", "-", input=at)
    assert [d["code"] for d in json.loads(ok.stdout)] == ["VL101"]
    over = run_cli("-t", "0.27.1", "--stdin-filename", "x.sh", "-", input=at + b"#")
    assert over.exit_code == 2 and "input limit" in over.stderr


# ----------------------------------------------------------------------------- output


SECRET_TOKEN = "hf_Zq8wYp3Lr6Tn2Vb5Xc9Md1Kf4Hg7Js0A"
SECRET_KEY = "sk-live-9c4e1f27b3a84d6c"


@pytest.mark.parametrize("fmt", ["text", "concise", "json", "sarif", "github", "gitlab", "junit", "rdjson",
                                 "checkstyle", "json-lines"])
def test_no_output_format_prints_a_secret_vl501_reports(run_cli, tmp_path, fmt):
    p = tmp_path / "serve.sh"
    # the secrets on the finding's line and on the lines around another finding's
    p.write_text(f"export HF_TOKEN={SECRET_TOKEN}\nvllm serve m --api-key {SECRET_KEY} \\\n  --swap-space 4\n")
    r = run_cli("--output-format", fmt, "-t", "0.27.1", str(p))
    assert r.exit_code == 1
    assert SECRET_TOKEN not in r.output and SECRET_KEY not in r.output
    if fmt == "text":
        assert "VL501" in r.stdout and "*" * len(SECRET_TOKEN) in r.stdout and "*" * len(SECRET_KEY) in r.stdout


def test_the_masked_snippet_keeps_its_carets_in_place(run_cli, tmp_path):
    p = tmp_path / "serve.sh"
    p.write_text(f"vllm serve m --api-key {SECRET_KEY} --swap-space 4\n")
    out = run_cli("-t", "0.27.1", "--select", "VL501", str(p)).stdout.splitlines()
    (src,) = [ln for ln in out if ln.startswith("1 |")]
    carets = out[out.index(src) + 1]
    start = src.index("*")
    assert carets.index("^") == start and carets.count("^") == len(SECRET_KEY) == src.count("*")


@pytest.mark.parametrize("fmt", ["text", "concise", "github"])
def test_file_names_are_printed_with_control_characters_escaped(run_cli, tmp_path, monkeypatch, fmt):
    """A file name carrying a line break and ``::warning``, or an escape sequence: no output line
    starts a workflow command it did not mean, no escape byte reaches the terminal."""
    monkeypatch.chdir(tmp_path)
    names = ["a\n::warning file=x.sh,line=1::injected.sh", "b\x1b[2J\x1b[31mred.sh", "c\u202eevil.sh"]
    for n in names:
        (tmp_path / n).write_bytes(b"vllm serve m --swap-space 4\n")
    r = run_cli("--output-format", fmt, "-t", "0.27.1", ".")
    assert r.exit_code == 1
    assert "\x1b" not in r.output and "\u202e" not in r.output
    lines = r.stdout.splitlines()
    starts = [ln for ln in lines if ln.startswith("::")]
    if fmt == "github":
        assert len(starts) == 3 and all(ln.startswith("::error ") for ln in starts)
    else:
        assert starts == []
    shown = "a%0A%3A%3Awarning file=x.sh%2Cline=1%3A%3Ainjected.sh" if fmt == "github" else \
        "a\\n::warning file=x.sh,line=1::injected.sh"
    assert any(shown in ln for ln in lines) and any("\\x1b[2J" in ln for ln in lines)


def test_the_fix_refusal_line_escapes_the_name(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = "ro\x1b[31m.sh"
    (tmp_path / name).write_bytes(BAD)
    (tmp_path / name).chmod(0o444)
    r = run_cli("-t", "0.27.1", "--fix", name)
    assert "\x1b" not in r.stderr and "ro\\x1b[31m.sh: read-only; not fixed" in r.stderr


# ----------------------------------------------------------------------------- site build


def test_site_build_escapes_or_skips_path_hostile_option_names(tmp_path, synth_db_path):
    import copy
    import shutil

    from vllm_lint.site.build import build_site
    from vllm_lint.surface.db import Database, compile_index, write_json

    db_dir = tmp_path / "db"
    shutil.copytree(synth_db_path, db_dir)
    newest = sorted((db_dir / "releases").glob("*.json"))[-1]
    rec = json.loads(newest.read_text())
    hostile = ["--a/b", "--../../../escaped", "--x?y#z", "--sp ace", "/", "plain"]
    for i, name in enumerate(hostile):
        o = copy.deepcopy(rec["options"][0])
        o.update(name=name, aliases=[], dest=f"hostile_{i}")
        rec["options"].append(o)
    write_json(newest, rec)
    compile_index(db_dir)
    warnings: list[str] = []
    out = tmp_path / "site" / "out"
    build_site(out, Database(db_dir), warn=warnings.append)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert all(out in p.parents or db_dir in p.parents for p in written)  # nothing escaped its folder
    pages = {p.parent.name for p in (out / "options").glob("*/index.html")}
    assert {"a~2Fb", "~2E~2E~2F~2E~2E~2F~2E~2E~2Fescaped", "x~3Fy~23z", "sp~20ace"} <= pages
    assert not (out / "options" / "a").exists()
    # names no query reads back have no history to tell: skipped, one line each
    assert len(warnings) == 2 and all("no page" in w and "\n" not in w for w in warnings)
    assert any("'/'" in w for w in warnings) and any("'plain'" in w for w in warnings)


# ----------------------------------------------------------------------------- cache fuzzing
# The property tests' fuzzing, extended to the result cache: an index file's bytes mutated (what a
# repository can bring without the user's secret) must never crash a run nor hide a finding; a
# record mutated inside a correctly signed index (what only the user's own vllm-lint makes) must
# never crash a run, and a record that fails validation is a miss.

from hypothesis import given, strategies as st  # noqa: E402

FUZZ_FILES = {
    "serve.sh": BAD,
    "k.yaml": b"services:\n  vllm:\n    image: vllm/vllm-openai:v0.27.1\n    command: [--swap-space, '4']\n",
    "notes.md": b"# notes\n\nnothing to launch here\n",
    "ok.sh": b"vllm serve m --port 8000\n",
}


class FuzzBed:
    """A repository of FUZZ_FILES, a cache index made for it by a real run, and the findings a run
    without a cache gives (the truth every cached run must equal, where the cache is not trusted)."""

    def __init__(self, root: Path, db_path: Path) -> None:
        from vllm_lint.pipeline.cache import Cache
        from vllm_lint.pipeline.discovery import Target
        from vllm_lint.rules.base import select_layered
        from vllm_lint.settings import Settings, rule_layers
        from vllm_lint.surface.db import Database

        self.root = root
        for name, data in FUZZ_FILES.items():
            (root / name).write_bytes(data)
        self.stats = {name: (root / name).stat() for name in FUZZ_FILES}
        self.db = Database(db_path)
        self.settings = Settings().merged(target_version="0.27.1")
        self.rules = select_layered(rule_layers(self.settings), preview=False)
        self.targets = [Target(str(root / name), True) for name in sorted(FUZZ_FILES)]
        self.cache_dir = root / ".cache"
        self.fingerprint = "ab" * 32
        self.Cache = Cache
        self.truth = self.run(None)
        self.run(Cache(self.cache_dir, self.fingerprint), record=True)
        (self.index,) = (self.cache_dir / "v3").glob("stat-*.json")
        self.good = self.index.read_bytes()

    def run(self, cache, record: bool = False, fix: bool = False) -> list:
        from vllm_lint.pipeline.engine import Linter

        linter = Linter(self.db, self.settings, self.rules, cache=cache)
        out = []
        for t in self.targets:
            r = linter.lint_file(t, fix=fix)
            if record and r.verdict and r.stat_key:
                cache.note_result(r.path, r.stat_key, r.verdict, r.diagnostics, r.reads)
            out.append((r.path, [(d.code, d.severity, d.row, d.column, d.message) for d in r.diagnostics],
                        r.fixed))
        if record:
            cache.flush()
        return out

    def restore(self, touched: bool) -> None:
        for name, st0 in self.stats.items():
            shift = 10**9 if touched else 0  # touched: the stat lookup misses, the content lookup runs
            os.utime(self.root / name, ns=(st0.st_atime_ns, st0.st_mtime_ns + shift))

    def cached(self, touched: bool, fix: bool = False) -> list:
        self.restore(touched)
        try:
            return self.run(self.Cache(self.cache_dir, self.fingerprint), fix=fix)
        finally:
            self.restore(False)


@pytest.fixture(scope="module")
def bed(tmp_path_factory, synth_db_path):
    return FuzzBed(tmp_path_factory.mktemp("fuzz"), synth_db_path)


def test_the_fuzz_bed_is_answered_by_its_cache(bed):
    """The fuzzing below means something: unmutated, the index answers every file (nothing is
    analysed again), with the truth's findings."""
    from vllm_lint.pipeline.engine import Linter

    analysed: list = []
    real = Linter.analyse
    Linter.analyse = lambda self, path, *a, **k: analysed.append(path) or real(self, path, *a, **k)
    try:
        assert bed.cached(touched=False) == bed.truth and bed.cached(touched=True) == bed.truth
    finally:
        Linter.analyse = real
    assert analysed == []
    assert any(findings for _, findings, _ in bed.truth)


byte_edits = st.lists(st.tuples(st.integers(min_value=0), st.binary(min_size=0, max_size=8)), min_size=1, max_size=6)


@given(edits=byte_edits, cut=st.none() | st.integers(min_value=0), touched=st.booleans())
def test_a_mutated_index_file_never_crashes_a_run_nor_hides_a_finding(bed, edits, cut, touched):
    data = bytearray(bed.good)
    for pos, chunk in edits:
        pos %= len(data) + 1
        data[pos:pos + len(chunk)] = chunk
    if cut is not None:
        del data[cut % (len(data) + 1):]
    if bytes(data) == bed.good:
        return
    bed.index.write_bytes(bytes(data))
    try:
        assert bed.cached(touched) == bed.truth
        assert bed.cached(touched, fix=True) == bed.run(None, fix=True)
    finally:
        bed.index.write_bytes(bed.good)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**63, max_value=2**63) | st.floats(allow_nan=False)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
    | st.sampled_from(["VL101", "error", "safe", "\x1b[31m", "/dev/zero", "clean|None", "none"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@given(data=st.data(), touched=st.booleans())
def test_a_mutated_record_in_a_signed_index_never_crashes_and_is_a_miss_unless_valid(bed, data, touched):
    from vllm_lint.pipeline.cache import _valid_record
    from vllm_lint.rules.base import registry

    cache = bed.Cache(bed.cache_dir, bed.fingerprint)
    index = cache._decode(bed.good)
    path = data.draw(st.sampled_from(sorted(index)))
    rec = index[path]
    # a field of the record, or of one of its findings, replaced (or a finding's key removed)
    spots = [("rec", i) for i in range(len(rec))]
    if len(rec) > 3:
        spots += [("finding", (j, key)) for j, f in enumerate(rec[3]) for key in f]
    where, at = data.draw(st.sampled_from(spots))
    value = data.draw(json_values)
    if where == "rec":
        rec[at] = value
    else:
        j, key = at
        if data.draw(st.booleans()):
            rec[3][j][key] = value
        else:
            del rec[3][j][key]
    bed.index.write_bytes(cache._encode(index))
    try:
        got = bed.cached(touched)
        codes = set(registry())
        if not _valid_record(rec, codes):
            assert got == bed.truth
        for _, found, _ in got:  # whatever was answered: printable, known codes
            assert all(code in codes and message.isprintable() for code, _, _, _, message in found)
    finally:
        bed.index.write_bytes(bed.good)


@pytest.mark.skipif(not __import__("shutil").which("node"), reason="no node to run compare.js's escaping")
def test_compare_js_escapes_names_as_the_site_does():
    """The compare page builds option links in the browser: its ``segment`` must name the folders
    ``path_segment`` wrote."""
    import re

    from vllm_lint.site.model import path_segment

    js = (Path(__file__).resolve().parents[2] / "vllm_lint" / "site" / "static" / "compare.js").read_text()
    fn = re.search(r"^  function segment\(s\) \{.*?^  \}$", js, re.M | re.S).group()
    names = ["swap-space", "a/b", "../x", "sp ace", "x?y#z", "é", "", "-tp", "\U0001F600", "~2F"]
    out = subprocess.run(["node", "-e", fn + f"\nfor (const n of {json.dumps(names)}) console.log(segment(n));"],
                         capture_output=True, text=True, timeout=HANG)
    assert out.stdout.splitlines() == [path_segment(n) for n in names]
