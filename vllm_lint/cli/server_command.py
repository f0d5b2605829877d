"""``vllm-lint server``: loaded only when named (``cli.DefaultGroup``)."""

from __future__ import annotations

import click

from .common import error_exit


@click.command("server")
@click.option("--debounce", type=click.FloatRange(min=0), default=0.25, show_default=True,
              help="Seconds to wait after a change before linting the buffer.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def server_cmd(debounce, db_path) -> None:
    """Run the language server over stdio (for editors: see the README's editor section)."""
    from importlib.util import find_spec

    if find_spec("pygls") is None or find_spec("lsprotocol") is None:  # an odd install
        raise error_exit("the language server needs pygls; install vllm-lint with its dependencies")
    from ..server.transport import serve

    serve(db_path, debounce)
