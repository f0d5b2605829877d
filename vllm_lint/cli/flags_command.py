"""``vllm-lint rule`` and ``vllm-lint flags list|show|diff``: loaded only when named (the lint
path does not pay for building them; ``cli.DefaultGroup``)."""

from __future__ import annotations

import json

import click

from .common import error_exit, load_database
from .lint_command import EXIT_FINDINGS


def _complete_rule(ctx, param, incomplete: str):
    from .common import complete_codes

    return complete_codes(ctx, param, incomplete)


def _complete_release(ctx, param, incomplete: str):
    from .common import complete_releases

    return complete_releases(ctx, param, incomplete)


def _complete_flag_name(ctx, param, incomplete: str):
    """Shell completion for ``flags show``: every option and environment variable of the database."""
    try:
        from ..surface.db import Database

        index = Database().index
    except Exception:  # noqa: BLE001 - completion never fails loudly
        return []
    bare = incomplete.lstrip("-")
    names = [o[2:] if o.startswith("--") else o for o in index.get("options", {})] + list(index.get("env", {}))
    return sorted(n for n in set(names) if n.startswith(bare) or n.lower().startswith(bare.lower()))


@click.command("rule")
@click.argument("code", required=False, shell_complete=_complete_rule)
@click.option("--all", "show_all", is_flag=True, help="Every rule.")
@click.option("--format", "output_format", type=click.Choice(["text", "markdown", "json"]),
              default="text", show_default=True)
def rule_cmd(code, show_all, output_format) -> None:
    """Print a rule's documentation (what, why, example, fix safety, evidence)."""
    from ..rules.base import registry
    from ..docs import render_rules

    reg = registry()
    if show_all:
        chosen = list(reg.values())
    elif code:
        c = code.upper()
        if c not in reg:
            by_name = [r for r in reg.values() if r.name == code.lower()]
            if not by_name:
                raise error_exit(f"unknown rule '{code}' (known: {', '.join(reg)})")
            c = by_name[0].code
        chosen = [reg[c]]
    else:
        raise error_exit("name a rule code (vllm-lint rule VL102) or pass --all")
    click.echo(render_rules(chosen, output_format), nl=False)


# --------------------------------------------------------------------------------- flags


@click.group("flags")
def flags_group() -> None:
    """Query the flag database: list a release's options, show an option's history, diff releases."""


def _resolve(db, version: str) -> str:
    from ..surface.db import UnknownVersion

    try:
        return db.resolve_version(version)
    except UnknownVersion as e:
        raise error_exit(str(e))


@flags_group.command("list")
@click.option("--version", "version", required=True, help="vLLM release (0.27 = newest 0.27.x).",
              shell_complete=_complete_release)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True)
@click.option("--env", "env", is_flag=True, help="List the environment variables instead.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def flags_list(version, output_format, env, db_path) -> None:
    """Every option (or environment variable) one release accepts."""
    db = load_database(db_path)
    s = db.surface(_resolve(db, version))
    if env:
        rows = [{"name": n, "default": r.get("default"), "deprecated": bool(r.get("deprecated")),
                 "type": r.get("type"), "choices": r.get("choices"),
                 "default_computed": bool(r.get("default_computed"))} for n, r in sorted(s.env.items())]
        if output_format == "json":
            click.echo(json.dumps(rows, indent=2))
        else:
            for r in rows:
                dep = "  [deprecated]" if r["deprecated"] else ""
                default = "(computed)" if r["default_computed"] else json.dumps(r["default"])
                click.echo(f"{r['name']} = {default}{dep}")
        return
    rows = []
    for o in sorted(s.options, key=lambda o: o.name):
        rows.append({"name": o.name, "aliases": o.aliases, "kind": o.kind, "type": o.type, "nargs": o.nargs,
                     "choices": o.choices, "default": o.default, "default_computed": o.default_computed,
                     "deprecated": o.deprecated, "group": o.group, "dest": o.dest})
    if output_format == "json":
        click.echo(json.dumps(rows, indent=2))
        return
    from ..surface.wording import option_words

    click.echo(f"vLLM {s.version}: {len(rows)} options")
    for o in sorted(s.options, key=lambda o: o.name):
        names = [o.name, *(a for a in o.aliases if a not in o.negations)]  # (the words name the negation)
        click.echo(f"  {', '.join(names)}: {option_words(o)}")


def _show_plugin_variable(db, name: str, output_format: str) -> bool:
    """``flags show`` of a variable no vLLM release reads but a platform plugin does
    (``flag_db/plugins/``): the plugin releases reading it, marked as the plugin's. False when no
    plugin reads ``name``."""
    index = db.plugins
    readers = index.readers(name)
    if not readers:
        return False
    rows = []
    for dist in readers:
        info = index.plugins[dist]
        read_by = info.get("env", {}).get(name, [])
        rows.append({"plugin": dist, "releases": read_by, "all_releases": info.get("releases", []),
                     "vllm": {v: info.get("vllm", {}).get(v) for v in read_by}})
    if output_format == "json":
        click.echo(json.dumps({"name": name, "kind": "plugin-env", "plugins": rows}, indent=2))
        return True
    click.echo(f"{name} (environment variable of a platform plugin; no vLLM release reads it)")
    for row in rows:
        releases, every = row["releases"], row["all_releases"]
        span = releases[0] if len(releases) == 1 else f"{releases[0]} .. {releases[-1]}"
        click.echo(f"  {row['plugin']}: read by {span} ({len(releases)} of the {len(every)} releases in the database)")
        for release in releases:  # the vLLM releases each plugin release declares it works with
            pin = row["vllm"].get(release)
            if isinstance(pin, dict) and pin.get("specifier"):
                click.echo(f"    {release}: vllm{pin['specifier']} ({pin.get('from', 'its metadata')})")
    return True


@flags_group.command("show", context_settings={"ignore_unknown_options": True})
@click.argument("name", shell_complete=_complete_flag_name)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True)
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def flags_show(name, output_format, db_path) -> None:
    """An option's or environment variable's history: accepted ranges, removal, successor, changes."""
    import difflib

    from ..surface.timeline import canonical_query, story

    db = load_database(db_path)
    st = story(db, name)
    if st is None and _show_plugin_variable(db, name.strip(), output_format):
        return
    if st is None:
        kind, canon = canonical_query(name)
        pool = db.all_env_names if kind == "env" else db.all_option_strings
        close = difflib.get_close_matches(canon, pool, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise error_exit(f"'{name}' is not an option or variable of any vLLM release in the database{hint}",
                    EXIT_FINDINGS)
    if output_format == "json":
        click.echo(json.dumps(st.to_json(), indent=2))
        return
    from ..surface.timeline import describe_change
    from ..surface.wording import history_lines

    label = "environment variable" if st.kind == "env" else "option"
    now = st.roles[-1][2] if st.roles else (f"alias of {st.canonical}" if st.canonical else "")
    click.echo(f"{st.name} ({label}{', ' + now if now else ''})")
    for what, text in history_lines(st, db.newest):
        click.echo(f"  {what + ':':<12} {text}" if what else f"  {text}")
    for c in st.changes:
        click.echo(f"  {c.version}: {describe_change(c.what, c.old, c.new)}")
    if st.kind != "env":
        for v in st.removed_in:  # the name gone from `vllm serve` only (0.9.0's `--model`)
            if any(st.name in o.strings for o in db.surface(v).absent_from_serve):
                click.echo(f"  {v}: not in `vllm serve`'s parser; the api_server module's "
                           "(python -m vllm.entrypoints.openai.api_server) still takes it")


@flags_group.command("diff")
@click.argument("old")
@click.argument("new")
@click.option("--format", "output_format", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True)
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def flags_diff(old, new, output_format, db_path) -> None:
    """Options and environment variables added, removed, renamed, deprecated or changed between two releases."""
    from ..surface.timeline import describe_change, describe_refusal, diff

    db = load_database(db_path)
    d = diff(db, _resolve(db, old), _resolve(db, new))
    if output_format == "json":
        click.echo(json.dumps(d.to_json(), indent=2))
        return
    md = output_format == "markdown"
    out = [f"## vLLM {d.old} -> {d.new}" if md else f"vLLM {d.old} -> {d.new}"]

    def section(title, items):
        if not items:
            return
        out.append(f"\n### {title} ({len(items)})" if md else f"\n{title} ({len(items)}):")
        for it in items:
            out.append(f"- {it}" if md else f"  {it}")

    q = (lambda s: f"`{s}`") if md else (lambda s: s)
    section("Removed options", [q(s) for s in d.removed])
    section("Renamed options", [f"{q(a)} -> {q(b)}" for a, b, _ in d.renamed])
    section("Added options", [q(s) for s in d.added])
    section("Newly deprecated options", [q(s) for s in d.deprecated])
    section("Newly deprecated values", [f"{q(o)} {q(v)}" + (f" -> {q(su)}" if su else "")
                                        for o, v, su in d.deprecated_values])
    section("Changed options", [f"{q(o)}: {describe_change(w, a, b)}" for o, w, a, b in d.changed])
    section("Removed environment variables", [q(s) for s in d.env_removed])
    section("Renamed environment variables", [f"{q(a)} -> {q(b)}" for a, b, _ in d.env_renamed])
    section("Added environment variables", [q(s) for s in d.env_added])
    section("Newly deprecated environment variables", [q(s) for s in d.env_deprecated])
    section("Changed environment variables", [f"{q(o)}: {describe_change(w, a, b)}" for o, w, a, b in d.env_changed])
    section("Environment variables refused at start", [f"{q(n)}: {describe_refusal(e)}" for n, e in d.env_refused])
    click.echo("\n".join(out))
