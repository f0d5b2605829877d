"""``vllm-lint server``: loaded only when named (``cli.DefaultGroup``)."""

from __future__ import annotations

import click

from .app import _fail


@click.command("server")
@click.option("--debounce", type=click.FloatRange(min=0), default=0.25, show_default=True,
              help="Seconds to wait after a change before linting the buffer.")
@click.option("--db", "db_path", type=click.Path(file_okay=False), envvar="VLLM_LINT_DB", hidden=True)
def server_cmd(debounce, db_path) -> None:
    """Run the language server over stdio (for editors: see the README's editor section)."""
    try:
        from ..server.protocol import serve
    except ImportError as e:  # pygls missing from an odd install
        raise _fail(f"the language server needs pygls ({e}); install vllm-lint with its dependencies")
    serve(db_path, debounce)
