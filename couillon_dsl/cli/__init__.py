"""The `couillon` command: a thin click group whose sub-commands are imported lazily.

Start-up time matters (`couillon validate` must answer in well under 250 ms), so each
sub-command lives in its own module and is imported only when it is invoked.
Exit codes, as linters use them: 0 ok, 1 invalid input or failed check, 2 usage error,
3 internal error (a bug: one line and the file holding the traceback, never the traceback).
"""
from __future__ import annotations

import importlib
import os
import sys

import click

INTERNAL_ERROR = 3

# command name -> "module:attribute" below couillon_dsl.cli
COMMANDS: dict[str, str] = {
    "validate": "lint:validate",
    "rulesets": "lint:rulesets",
    "schema": "lint:schema",
    "scenario": "play:scenario",
    "replay": "play:replay",
    "play": "play:play",
    "simulate": "sim:simulate",
    "compare": "sim:compare",
    "explain": "docs:explain",
    "diff": "docs:diff",
    "new": "docs:new",
}


class LazyGroup(click.Group):
    """A click group that imports a sub-command's module only when it is used."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        """As click does, plus a did-you-mean for a mistyped command."""
        if args and args[0] not in COMMANDS and not args[0].startswith("-"):
            from couillon_dsl.diagnostics import did_you_mean

            hint = did_you_mean(args[0], COMMANDS) or f"commands: {', '.join(sorted(COMMANDS))}"
            raise click.UsageError(f"no command '{args[0]}'; {hint}", ctx)
        return super().resolve_command(ctx, args)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        module = importlib.import_module(f"couillon_dsl.cli.{module_name}")
        return getattr(module, attribute)

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; an exception that is not click's own is a bug, reported as one (exit 3)."""
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            close_quietly()
            raise SystemExit(0) from None
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except Exception as exc:
            report_internal_error(exc)
            raise SystemExit(INTERNAL_ERROR) from None


def close_quietly() -> None:
    """The reader went away (`couillon compare ... | head`): that is not an error. Point stdout
    at the null device so that the interpreter's last flush does not complain either."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def report_internal_error(exc: BaseException) -> None:
    """One line on stderr naming the failure, and the whole traceback in a file for the report."""
    import tempfile  # only here: it is slow to import, and start-up matters
    import traceback

    last_line = traceback.format_exception_only(type(exc), exc)[-1].strip()
    try:
        with tempfile.NamedTemporaryFile("w", prefix="couillon-crash-", suffix=".txt", delete=False,
                                         encoding="utf-8") as out:
            out.write("".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
        where = f"full traceback written to {out.name}"
    except OSError as error:
        where = f"the traceback could not be written: {error}"
    click.echo(f"internal error — please report: {last_line}\n{where}", err=True)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="couillon-dsl")
def main() -> None:
    """Trick-taking card games as data: validate, explain, simulate, play and replay rulesets."""
