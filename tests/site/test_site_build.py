"""``vllm-lint site build``: pages for everything in the database, deterministic output, size
limits, links that resolve from disk and no external requests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from site_helpers import text_of

PAGE_LIMIT = 300_000
SITE_LIMIT = 50_000_000


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_same_database_gives_byte_identical_sites(tmp_path, synth_db):
    from vllm_lint.site.build import build_site

    build_site(tmp_path / "a", synth_db)
    build_site(tmp_path / "b", synth_db)
    a, b = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert a.keys() == b.keys() and len(a) > 20
    assert [k for k in a if a[k] != b[k]] == []


def test_a_rebuild_over_a_previous_build_is_identical(tmp_path, synth_db):
    from vllm_lint.site.build import build_site

    build_site(tmp_path / "a", synth_db)
    first = _files(tmp_path / "a")
    (tmp_path / "a" / "options" / "stale.html").write_text("left from an older build")
    build_site(tmp_path / "a", synth_db)
    assert _files(tmp_path / "a") == first


def test_a_failed_rebuild_leaves_the_previous_site_whole_and_no_temporary_folder(tmp_path, synth_db, monkeypatch):
    from vllm_lint.site import build

    build.build_site(tmp_path / "a", synth_db)
    first = _files(tmp_path / "a")

    def fail(self, base):
        (Path(base) / "half.html").write_text("half a site")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(build.Builder, "_write_tree", fail)
    with pytest.raises(OSError):
        build.build_site(tmp_path / "a", synth_db)
    assert _files(tmp_path / "a") == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a"]


def test_a_symlinked_outdir_keeps_its_link_and_a_folder_that_cannot_move_is_rebuilt_in_place(
        tmp_path, synth_db, monkeypatch):
    import os

    from vllm_lint.site import build

    build.build_site(tmp_path / "real", synth_db)
    first = _files(tmp_path / "real")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "stale.html").write_text("old")
    build.build_site(tmp_path / "link", synth_db)
    assert (tmp_path / "link").is_symlink() and _files(tmp_path / "real") == first

    rename = os.rename

    def busy(src, dst):  # a mount point cannot be renamed
        if os.path.realpath(src) == str((tmp_path / "real").resolve()):
            raise OSError(16, "Device or resource busy")
        return rename(src, dst)

    monkeypatch.setattr(build.os, "rename", busy)
    (tmp_path / "real" / "stale.html").write_text("old")
    build.build_site(tmp_path / "real", synth_db)
    assert _files(tmp_path / "real") == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real"]


def test_a_new_site_gets_the_usual_folder_mode(tmp_path, synth_db):
    import os
    import stat

    from vllm_lint.site.build import build_site

    mask = os.umask(0o022)
    try:
        build_site(tmp_path / "new" / "site", synth_db)
    finally:
        os.umask(mask)
    out = tmp_path / "new" / "site"
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "index.html").stat().st_mode) == 0o644
    assert sorted(p.name for p in (tmp_path / "new").iterdir()) == ["site"]


def test_rule_docs_rendered_once_are_read_back_from_the_cache(tmp_path, monkeypatch):
    import platformdirs

    from vllm_lint.site import build

    monkeypatch.setattr(platformdirs, "user_cache_dir", lambda name: str(tmp_path / name))
    docs = ["## Why\n\nBecause `x` < y.", "| a | b |\n|---|---|\n| 1 | 2 |"]
    first = build.render_docs(docs)
    assert first[0].startswith("<h2>Why</h2>") and "<table>" in first[1]

    def no_markdown():
        raise AssertionError("rendered again")

    monkeypatch.setattr(build, "_md", no_markdown)
    assert build.render_docs(docs) == first
    with pytest.raises(AssertionError, match="rendered again"):
        build.render_docs(docs + ["new"])


def test_a_folder_that_is_not_a_site_is_refused(run_cli, tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    r = run_cli("site", "build", str(tmp_path))
    assert r.exit_code == 2 and "not a site built by vllm-lint" in r.output
    assert (tmp_path / "mine.txt").read_text() == "keep me" and len(list(tmp_path.iterdir())) == 1


def test_the_command_builds_and_says_where(run_cli, tmp_path):
    r = run_cli("site", "build", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    assert "Built " in r.output and str(tmp_path / "out" / "index.html") in r.output
    assert (tmp_path / "out" / "options" / "swap-space" / "index.html").is_file()


def test_every_option_variable_release_and_rule_has_its_page(site_dir, shipped_db):
    from vllm_lint.rules.base import registry
    from vllm_lint.site.model import env_url, option_url, release_url

    missing = [u for u in
               [option_url(s) for s in shipped_db.all_option_strings]
               + [env_url(n) for n in shipped_db.all_env_names]
               + [release_url(v) for v in shipped_db.versions]
               + [f"rules/{code}/index.html" for code in registry()]
               + ["reference/configuration/index.html", "reference/audit-schema/index.html",
                  "compare/index.html", "compare/0.26.0...0.27.0/index.html"]
               if not (site_dir / u).is_file()]
    assert missing == []
    assert (site_dir / "options" / "swap-space" / "index.html").is_file()
    assert (site_dir / "env" / "VLLM_USE_V1" / "index.html").is_file()
    assert (site_dir / "releases" / "0.27.0" / "index.html").is_file()
    assert (site_dir / "rules" / "VL101" / "index.html").is_file()


def test_sizes(site_dir):
    files = _files(site_dir)
    too_big = {k: len(v) for k, v in files.items() if len(v) > PAGE_LIMIT}
    assert too_big == {}
    assert sum(map(len, files.values())) < SITE_LIMIT


_REF = re.compile(r'<(\w+)\b[^>]*?\s(?:href|src)="([^"]*)"')
_ID = re.compile(r'\sid="([^"]*)"')


def test_every_internal_link_resolves_from_disk_and_nothing_is_fetched_from_elsewhere(site_dir):
    """Every href/src of every page names a file of the site (``index.html``, never a folder,
    which ``file://`` shows as a listing), every ``#fragment`` an id of its page, and nothing is
    loaded from another host (the only absolute URLs are links to vLLM's documentation)."""
    import html
    import posixpath

    files = {p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*") if p.is_file()}
    pages = {f: (site_dir / f).read_text(encoding="utf-8") for f in sorted(files) if f.endswith(".html")}
    ids = {f: set(_ID.findall(text)) for f, text in pages.items()}
    broken, external_loads, untitled, checked = [], [], [], 0
    for f, text in pages.items():
        if "<title>" not in text or '<meta name="description" content="' not in text:
            untitled.append(f)
        here = posixpath.dirname(f)
        for tag, value in _REF.findall(text):
            value = html.unescape(value)
            parts = urlsplit(value)
            if parts.scheme or value.startswith("//"):
                if tag != "a" or parts.scheme != "https":
                    external_loads.append((f, value))
                continue
            target = posixpath.normpath(posixpath.join(here, unquote(parts.path))) if parts.path else f
            checked += 1
            if target not in files or (parts.fragment and target in ids and parts.fragment not in ids[target]):
                broken.append((f, value))
    assert broken == [] and external_loads == [] and untitled == []
    assert checked > 10 * len(pages)


def test_external_links_are_vllm_docs_only(site_dir):
    page = (site_dir / "options" / "swap-space" / "index.html").read_text()
    links = re.findall(r'href="(https://[^"]+)"', page)
    assert links and all(u.startswith("https://docs.vllm.ai/en/v") for u in links)
    assert "https://docs.vllm.ai/en/v0.8.5/serving/engine_args.html" in links
    assert "https://docs.vllm.ai/en/v0.17.1/configuration/engine_args/" in links  # folder URLs from 0.11.1


@pytest.mark.parametrize("version, which, url", [
    ("0.4.0", 0, None),  # no versioned docs
    ("0.4.0.post1", 0, "https://docs.vllm.ai/en/v0.4.0.post1/models/engine_args.html"),
    ("0.6.1.post2", 1, None),
    ("0.6.2", 1, "https://docs.vllm.ai/en/v0.6.2/serving/env_vars.html"),
    ("0.6.5", 0, "https://docs.vllm.ai/en/v0.6.5/usage/engine_args.html"),
    ("0.8.5.post1", 1, "https://docs.vllm.ai/en/v0.8.5.post1/serving/env_vars.html"),
    ("0.9.0.1", 0, "https://docs.vllm.ai/en/v0.9.0.1/configuration/engine_args.html"),
    ("0.11.0", 1, "https://docs.vllm.ai/en/v0.11.0/configuration/env_vars.html"),
    ("0.11.1", 0, "https://docs.vllm.ai/en/v0.11.1/configuration/engine_args/"),
    ("0.15.0", 1, "https://docs.vllm.ai/en/v0.15.0/configuration/env_vars/"),
])
def test_each_release_links_its_own_docs_where_the_page_is(version, which, url):
    from vllm_lint.site.model import doc_url

    assert doc_url(version, which) == url


def test_every_release_but_0_4_0_links_its_engine_arguments_page_and_the_gaps_are_explained(site_dir, shipped_db):
    from vllm_lint.site.model import doc_url

    assert [v for v in shipped_db.versions if doc_url(v, 0) is None] == ["0.4.0"]
    page = text_of((site_dir / "options" / "swap-space" / "index.html").read_text())
    assert "No link for 0.4.0: no documentation of its own on docs.vllm.ai (its versions start at 0.4.0.post1)." in page
    env = text_of((site_dir / "env" / "VLLM_HOST_IP" / "index.html").read_text())
    assert ("No link for 0.4.2 .. 0.6.1.post2: no environment-variables page is known in the documentation of "
            "releases before 0.6.2.") in env


def test_swap_space_page_says_when_it_went(site_dir, shipped_db):
    from vllm_lint.surface.timeline import story

    st = story(shipped_db, "--swap-space")
    last, removed = st.ranges[-1][1], st.removed_in[-1]
    text = text_of((site_dir / "options" / "swap-space" / "index.html").read_text())
    assert f"Last accepted by {last}" in text and f"Removed in {removed}" in text
    page = (site_dir / "options" / "swap-space" / "index.html").read_text()
    assert "<svg" in page and f"removed in {removed}" in page
    assert "vllm-lint flags show --swap-space" in text
    assert "CacheConfig.swap_space" in text


def test_the_changes_table_is_what_flags_show_reports(site_dir, shipped_db, run_cli, monkeypatch):
    from click.testing import CliRunner

    from vllm_lint.cli.app import main

    monkeypatch.setenv("VLLM_LINT_DB", str(shipped_db.path))
    for name, path in (("--max-num-batched-tokens", "options/max-num-batched-tokens"),
                       ("VLLM_USE_V1", "env/VLLM_USE_V1"), ("--quantization", "options/quantization")):
        shown = json.loads(CliRunner().invoke(main, ["flags", "show", name, "--format", "json"]).output)
        rows = re.findall(r"<tr><td><a [^>]+>([^<]+)</a></td><td>(\w+)</td><td><code>",
                          (site_dir / path / "index.html").read_text().split("<h2>Changes</h2>")[1].split("</table>")[0])
        assert rows == [(c["version"], c["what"]) for c in shown["changes"]], name


def test_a_renamed_option_links_its_successor(site_dir):
    page = (site_dir / "options" / "cuda-graph-sizes" / "index.html").read_text()
    assert 'href="../../options/cudagraph-capture-sizes/index.html"' in page
    assert "renamed to --cudagraph-capture-sizes" in page  # the timeline's label


def test_a_spelling_that_meant_different_options_leads_to_each(site_dir, shipped_db):
    page = text_of((site_dir / "options" / "disable-log-requests" / "index.html").read_text())
    owners = {shipped_db.surface(v).lookup("--disable-log-requests").name
              for v in shipped_db.versions if shipped_db.surface(v).lookup("--disable-log-requests")}
    assert len(owners) > 1  # the database's own fact: the spelling changed meaning
    for o in owners - {"--disable-log-requests"}:
        assert f"as an alias of {o}" in page


def test_json_options_list_their_keys_with_histories(site_dir, shipped_db):
    page = (site_dir / "options" / "compilation-config" / "index.html").read_text()
    fields = shipped_db.surface(shipped_db.newest).json_configs["compilation_config"]["fields"]
    for key in fields:
        assert f'id="key-{key}"' in page


def test_search_index_covers_every_name(site_dir, shipped_db):
    raw = (site_dir / "search-index.js").read_text()
    rows = json.loads(raw[raw.index("=") + 1:].rstrip().rstrip(";"))
    names = {r[0] for r in rows}
    assert set(shipped_db.all_option_strings) <= names and set(shipped_db.all_env_names) <= names
    assert set(shipped_db.versions) <= names and "VL101" in names
    assert all((site_dir / r[2]).is_file() for r in rows)


def test_build_time_variables_are_told_apart_when_the_database_has_them(tmp_path, synth_db_path):
    """A database with a ``build_env`` table (or ``scope: build`` entries) gets build-time pages;
    one without them is unaffected (the shipped database has none yet)."""
    import shutil

    from vllm_lint.site.build import build_site
    from vllm_lint.surface.db import Database, compile_index, write_json

    db_dir = tmp_path / "db"
    shutil.copytree(synth_db_path, db_dir)
    newest = sorted((db_dir / "releases").glob("*.json"))[-1]
    rec = json.loads(newest.read_text())
    rec["build_env"] = {"VLLM_TARGET_DEVICE": {"type": "str", "default": "cuda", "default_computed": False,
                                               "choices": None, "deprecated": None}}
    first = next(iter(rec["env"]))
    rec["env"][first] = dict(rec["env"][first], scope="build")
    write_json(newest, rec)
    compile_index(db_dir)
    build_site(tmp_path / "out", Database(db_dir))
    page = text_of((tmp_path / "out" / "env" / "VLLM_TARGET_DEVICE" / "index.html").read_text())
    assert "build variable" in page and "runtime variable" not in page
    assert "build" in text_of((tmp_path / "out" / "env" / first / "index.html").read_text())
    index = text_of((tmp_path / "out" / "env" / "index.html").read_text())
    assert "build-time variables are read by the release's build" in index


def test_every_setting_is_documented():
    from vllm_lint import settings
    from vllm_lint.site.reference import configuration

    assert set(settings.DESCRIPTIONS) == set(settings.SETTINGS) and all(settings.DESCRIPTIONS.values())
    assert [s["key"] for s in configuration()] == list(settings.SETTINGS)


def test_rule_pages_render_their_docs(site_dir):
    page = (site_dir / "rules" / "VL101" / "index.html").read_text()
    assert "<h3>What it does</h3>" in page and "<pre><code" in page and "removed-option" in page


def test_o_leads_to_the_option_it_meant_in_each_era(site_dir, shipped_db):
    page = text_of((site_dir / "options" / "-O" / "index.html").read_text())
    first_rewrite = next(v for v in shipped_db.versions if shipped_db.surface(v).o_flag == "optimization-level")
    assert "--compilation-config" in page and f"{first_rewrite} .. {shipped_db.newest} --optimization-level" in page


# ---------------------------------------------------------------------- the upgrade guide
def _guide(db, old, new):
    from vllm_lint.site.model import migration_guide
    from vllm_lint.surface.timeline import diff

    return {sec.id: {it.names[0]: it for it in sec.items} for sec in migration_guide(db, diff(db, old, new))}


def test_the_compare_guide_says_what_to_do_with_each_removed_option(shipped_db):
    g = _guide(shipped_db, "0.8.5", "0.33.0")
    removed = g["removed"]
    assert removed["--swap-space"].text == "it had no effect by then: delete it"  # the overlay's noop_at_removal
    assert "--async-scheduling" in removed["--num-scheduler-steps"].text  # the overlay's advice
    assert removed["--device"].plain() == "--device \u2014 no replacement: delete it"
    assert removed["-O"].text.startswith("still accepted")  # rewritten to --optimization-level, not gone
    assert g["renamed"]["--guided-decoding-backend"].plain() == (
        "--guided-decoding-backend \u2192 --structured-outputs-config.backend"
        " \u2014 now the key backend of --structured-outputs-config's JSON")
    assert g["renamed"]["--override-pooler-config"].plain() == "--override-pooler-config \u2192 --pooler-config"
    assert g["env-removed"]["VLLM_ATTENTION_BACKEND"].text == "use `--attention-backend` instead"
    assert g["env-removed"]["VLLM_USE_V1"].text.startswith("the V0 engine was removed")
    assert g["changed"] and all(" -> " in it.text or it.text.startswith("choices ") for it in g["changed"].values())


def test_a_negatable_pair_is_one_entry(shipped_db):
    g = _guide(shipped_db, "0.26.0", "0.27.0")
    assert g["added"]["--enable-fault-tolerance"].names == ("--enable-fault-tolerance", "--no-enable-fault-tolerance")
    assert "--no-enable-fault-tolerance" not in g["added"]
    assert g["added"]["--cohere-format"].names == ("--cohere-format",)
    assert _guide(shipped_db, "0.8.5", "0.33.0")["removed"]["--enable-lora-bias"].plain() == (
        "--enable-lora-bias / --no-enable-lora-bias \u2014 no replacement: delete it")


def test_negatable_groups_pair_only_spellings_of_the_same_option():
    from vllm_lint.site.model import negatable_groups

    owner = {"--x": "--x", "--no-x": "--x", "--y": "--y", "--no-y": "--other", "--no-z": "--no-z"}
    assert negatable_groups(["--no-x", "--no-y", "--no-z", "--x", "--y"], owner) == [
        ("--no-y",), ("--no-z",), ("--x", "--no-x"), ("--y",)]


def test_the_compare_page_is_a_guide_with_its_todo_in_the_page(site_dir, shipped_db):
    page = text_of((site_dir / "compare" / "0.26.0...0.27.0" / "index.html").read_text(encoding="utf-8"))
    assert "Removed options: what to do (2)" in page
    assert "--max-num-partial-prefills \u2014 no replacement: delete it" in page
    assert "--enable-fault-tolerance / --no-enable-fault-tolerance" in page
    assert "vllm-lint upgrade --to 0.27.0 --dry-run DIR" in page


def test_the_index_installs_vllm_lint_as_the_readme_does(site_dir):
    page = (site_dir / "index.html").read_text(encoding="utf-8")
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    assert "not on PyPI" in readme and "not on PyPI" in page
    assert "pip install vllm-lint" not in page and ".venv/bin/pip install ." in readme
    assert ".venv/bin/pip install ." in page


def test_the_compare_data_tells_values_apart_that_print_alike(tmp_path):
    """Consecutive releases share most of the compare data's fragments, each encoded once: what
    keys a fragment tells the number ``1`` from the string ``"1"``, and ``True`` from ``1``, as the
    JSON text does (a shared fragment would show the first release's value for the second)."""
    from synthetic_db import _record, build_releases, env, opt

    from vllm_lint.site.build import build_site
    from vllm_lint.surface.db import Database

    def release(version, port, flag):
        return _record(version, [opt("--model"), opt("--port", type="int", default=port),
                                 opt("--flag", type=None, default=flag)], env("VLLM_HOST_IP"))

    db_dir = build_releases(tmp_path / "db", {"0.8.5": release("0.8.5", "1", 1),
                                              "0.10.0": release("0.10.0", 1, True)})
    build_site(tmp_path / "out", Database(db_dir))

    def actions(version):
        text = (tmp_path / "out" / "data" / "releases" / f"{version}.js").read_text(encoding="utf-8")
        return json.loads(text.partition("]=")[2].rstrip().rstrip(";"))["actions"]

    old, new = actions("0.8.5"), actions("0.10.0")
    assert old["--port"][0] == '"1"' and new["--port"][0] == "1"
    assert old["--flag"][0] == "1" and new["--flag"][0] == ["true", "1"]


def _plain_runs(values):
    """Runs of consecutive positions holding equal values, ``[(first, last, value)]``, the
    straightforward way (the oracle of the model's one-pass loops)."""
    out = []
    for i in sorted(values):
        if out and out[-1][1] == i - 1 and out[-1][2] == values[i]:
            out[-1][1] = i
        else:
            out.append([i, i, values[i]])
    return [tuple(r) for r in out]


def _eras(eras, with_value=True):
    return [(e.a, e.b, e.value) if with_value else (e.a, e.b) for e in eras]


@pytest.mark.parametrize("which", ["shipped", "synthetic"])
def test_the_model_runs_are_the_plain_runs_of_each_release(which, shipped_db, synth_db):
    """The model reads each option's and variable's runs (who owned a spelling, config field,
    kind, aliases, categories, deprecation, field changes) in one pass over its releases: the same
    as each run computed on its own from the releases' tables."""
    from vllm_lint.site.model import SiteModel, env_tables, rewrites_o
    from vllm_lint.surface.timeline import describe_change

    db = shipped_db if which == "shipped" else synth_db
    mdl = SiteModel(db)
    surfaces = [db.surface(v) for v in db.versions]
    owners: dict = {}
    actions: dict = {}
    for i, s in enumerate(surfaces):
        for string, o in s.by_string.items():
            owners.setdefault(string, {})[i] = o.name
        for o in s.options:
            actions.setdefault(o.name, {})[i] = o
        if rewrites_o(s):
            owners.setdefault("-O", {})[i] = "--optimization-level"
    assert set(mdl.options) <= set(owners)
    for string, page in mdl.options.items():
        assert page.accepted == sorted(owners[string]), string
        assert _eras(page.spelling_eras) == _plain_runs(owners[string]), string
        per = actions.get(string)
        if not per:
            assert not page.canonical
            continue
        assert page.canonical == sorted(per) and page.latest is per[max(per)]
        assert _eras(page.config_eras) == _plain_runs({i: o.config for i, o in per.items()}), string
        assert _eras(page.kind_eras) == _plain_runs({i: (o.kind, o.type) for i, o in per.items()}), string
        assert _eras(page.alias_eras) == _plain_runs({i: tuple(o.aliases) for i, o in per.items()}), string
        dep = db.deprecated_history(string)
        assert _eras(page.deprecated_eras, False) == [
            (a, b) for a, b, _ in _plain_runs({i: 1 for i in (dep.indices if dep else set()) & set(per)})], string
    records: dict = {}
    cats: dict = {}
    for i, s in enumerate(surfaces):
        rt, bd = env_tables(s)
        for name, rec in rt.items():
            records.setdefault(name, {})[i] = rec
        for name, rec in bd.items():
            records.setdefault(name, {}).setdefault(i, rec)
        for name in rt.keys() | bd.keys():
            cats.setdefault(name, {})[i] = ("runtime and build" if name in bd else "runtime") if name in rt else "build"
    assert set(mdl.env) == set(records)
    for name, page in mdl.env.items():
        recs = records[name]
        assert _eras(page.eras, False) == [(a, b) for a, b, _ in _plain_runs({i: 1 for i in recs})], name
        assert _eras(page.category_eras) == _plain_runs(cats[name]), name
        assert _eras(page.deprecated_eras, False) == [
            (a, b) for a, b, _ in _plain_runs({i: 1 for i, r in recs.items() if r.get("deprecated")})], name
        changes = []
        for i in sorted(recs):
            if i - 1 in recs:
                old, new = recs[i - 1], recs[i]
                view = [{"default": "(computed)" if r.get("default_computed") else r.get("default"),
                         "choices": r.get("choices"), "type": r.get("type")} for r in (old, new)]
                changes += [(db.versions[i], k, view[0][k], view[1][k], describe_change(k, view[0][k], view[1][k]))
                            for k in view[1] if view[1][k] != view[0][k]]
        assert [(c.version, c.what, c.old, c.new, c.text) for c in page.changes] == changes, name
