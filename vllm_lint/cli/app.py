"""Command line: ``vllm-lint [OPTIONS] [PATHS]...`` lints; ``db``, ``flags``, ``rule`` and ``audit``
are subcommands beside it.

Exit codes: 0 nothing left to report, 1 findings left, 2 usage, configuration or internal error.
Heavy modules (libcst, requests, front-ends) are imported only when a command needs them.
"""

from __future__ import annotations

import sys
from typing import Optional

import click

from .. import __version__
from .common import complete_codes, complete_releases
from .lint_command import (EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, LINT_HELP, OPTIONS, OTHER_COMMANDS,
                           Exit, command_suggestion, execute)

__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_FINDINGS", "main", "run"]


class DefaultGroup(click.Group):
    """A group whose default command is ``lint``: ``vllm-lint --fix deploy/`` runs ``lint``.

    The other commands live in their own modules and are imported only when named (or listed), so
    a lint run neither imports nor builds them (start-up, benchmarks/README.md)."""

    LAZY = OTHER_COMMANDS

    def get_command(self, ctx: click.Context, cmd_name: str) -> Optional[click.Command]:
        if cmd_name not in self.commands and cmd_name in self.LAZY:
            import importlib

            module, attr = self.LAZY[cmd_name]
            try:
                cmd = getattr(importlib.import_module(f"vllm_lint.{module}"), attr)
            except ImportError:  # an optional command whose dependencies are missing
                return None
            self.add_command(cmd, cmd_name)
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.LAZY})

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] in ("--version",):
            return super().parse_args(ctx, args)
        if ctx.resilient_parsing and not args:
            return super().parse_args(ctx, args)  # completing the first word: commands, options, paths
        if args and args[0] not in self.commands and args[0] not in self.LAZY:
            meant = command_suggestion(args[0])
            if meant is not None:
                raise click.UsageError(f"no command and no file named {args[0]!r}; did you mean "
                                       f"`{ctx.command_path} {meant}`?", ctx)
        if not args or (args[0] not in self.commands and args[0] not in self.LAZY):
            args = ["lint", *args]
        return super().parse_args(ctx, args)

    def shell_complete(self, ctx: click.Context, incomplete: str):
        """The first word: a command, an option of the group or of lint, or a path to lint."""
        from click.shell_completion import CompletionItem

        items = list(super().shell_complete(ctx, incomplete))
        if incomplete.startswith("-"):
            lint = self.get_command(ctx, "lint")
            items += [CompletionItem(name) for p in lint.params for name in [*p.opts, *p.secondary_opts]
                      if name.startswith(incomplete)]
        else:
            items.append(CompletionItem(incomplete, type="file"))
        return items


def _db_range() -> str:
    try:
        from ..surface.db import Database

        db = Database()
        return f"vLLM {db.versions[0]} to {db.newest}, {len(db.versions)} releases"
    except Exception as e:  # noqa: BLE001 - shown, never raised
        return f"database unavailable: {e}"


def _print_version(ctx: click.Context, _param, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    click.echo(f"vllm-lint {__version__} (flag database: {_db_range()})")
    ctx.exit(0)


@click.group(cls=DefaultGroup, context_settings={"help_option_names": ["-h", "--help"]}, help=LINT_HELP)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version and the range of vLLM releases the database covers.")
def main() -> None:
    pass


_COMPLETIONS = {"target_version": complete_releases, "select": complete_codes, "extend_select": complete_codes,
                "ignore": complete_codes, "extend_ignore": complete_codes}


def _click_option(opt):
    """The click option for one entry of ``lint_command.OPTIONS``."""
    kw: dict = {"help": opt.help}
    if opt.name in _COMPLETIONS:
        kw["shell_complete"] = _COMPLETIONS[opt.name]
    if opt.metavar:
        kw["metavar"] = opt.metavar
    if opt.kind == "flag":
        kw.update(is_flag=True, default=opt.default)
    elif opt.kind == "pair":
        kw["default"] = opt.default
    elif opt.kind == "int":
        kw.update(type=int, default=opt.default)
    elif opt.kind == "choice":
        kw.update(type=click.Choice(list(opt.choices)), default=opt.default, show_default=opt.default is not None)
    elif opt.kind == "file":
        kw["type"] = click.Path(dir_okay=False, readable=False)
    elif opt.kind == "dir":
        kw["type"] = click.Path(file_okay=False, readable=False)
    if opt.envvar:
        kw["envvar"] = opt.envvar
    return click.option(*opt.decls, opt.name, **kw)


class _UnnamedContext(click.Context):
    """The default command's context: named as the program, so a usage error's hint reads
    ``Try 'vllm-lint --help'`` (the command the user typed), not ``vllm-lint lint --help``."""

    @property
    def command_path(self) -> str:
        if self.parent is not None:
            return self.parent.command_path
        return super().command_path


class LintCommand(click.Command):
    """The default command: its usage reads ``vllm-lint [OPTIONS] [PATHS]...`` (it runs without
    its name)."""

    context_class = _UnnamedContext

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        prog = ctx.parent.command_path if ctx.parent is not None else ctx.command_path
        formatter.write_usage(prog, "[OPTIONS] [PATHS]...")


def _lint_command():
    def lint_cmd(**values) -> None:
        try:
            code = execute(**values)
        except Exit as e:
            code = e.code
        raise click.exceptions.Exit(code)

    for opt in reversed(OPTIONS):  # decorators apply bottom-up; help lists the table's order
        lint_cmd = _click_option(opt)(lint_cmd)
    lint_cmd = click.argument("paths", nargs=-1, type=click.Path(readable=False))(lint_cmd)
    lint_cmd = click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
                            help="Show the version and the range of vLLM releases the database covers.")(lint_cmd)
    return click.command("lint", cls=LintCommand, help=LINT_HELP, context_settings={"help_option_names": ["-h", "--help"]})(lint_cmd)


main.add_command(_lint_command())


@click.command("version", help="Show the version and the range of vLLM releases the database covers.")
def version_cmd() -> None:
    click.echo(f"vllm-lint {__version__} (flag database: {_db_range()})")


def run() -> None:
    try:
        main(standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("vllm-lint: interrupted", err=True)
        sys.exit(EXIT_ERROR)


if __name__ == "__main__":  # pragma: no cover
    run()
