"""What the commands beside lint share: the one-line error that ends a click command with an exit
code, the database and the configuration for a command, and shell completion of releases and rule
codes. ``cli.app`` and every ``*_command`` module import these (none imports ``cli.app``)."""

from __future__ import annotations

from typing import Optional

import click

from .lint_command import EXIT_ERROR, Exit, fail


def error_exit(message: str, code: int = EXIT_ERROR) -> "click.exceptions.Exit":
    """Write ``vllm-lint: error: message``; the exception that ends the command with ``code``."""
    return click.exceptions.Exit(fail(message, code).code)


def load_database(db_path: Optional[str]):
    """The flag database (``--db``, else the user's, else the shipped one); a bad one ends the command."""
    from .lint_command import load_db

    try:
        return load_db(db_path)
    except Exit as e:
        raise click.exceptions.Exit(e.code)


def settings_and_db(config_path: Optional[str], paths, db_path: Optional[str]):
    """(settings, database) for a command over ``paths`` (``audit``, ``upgrade``): the
    configuration file that applies, and the database; a bad one is one line, exit 2."""
    from ..settings import ConfigError, for_run as settings_for_run

    try:
        settings = settings_for_run(config_path, paths)
    except ConfigError as e:
        raise error_exit(str(e))
    return settings, load_database(db_path)


def complete_releases(ctx, param, incomplete: str):
    """Shell completion of a vLLM release (``-t``, ``--version``, ``--from``): the database's."""
    try:
        from ..surface.db import Database

        versions = Database().versions
    except Exception:  # noqa: BLE001 - completion never fails loudly
        return []
    minors = list(dict.fromkeys(".".join(v.split(".")[:2]) for v in versions))
    return [v for v in [*minors, *versions] if v.startswith(incomplete)]


def complete_codes(ctx, param, incomplete: str):
    """Shell completion of rule codes, after the last comma of a code list (``--select VL1,VL2``)."""
    from ..rules.base import registry

    head, _, last = incomplete.rpartition(",")
    prefix = head + "," if head else ""
    return [prefix + code for code in registry() if code.startswith(last.upper())]
