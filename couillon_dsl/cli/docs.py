"""`couillon explain`, `couillon diff` and `couillon new`: rulesets read back as rulebooks.

Exit codes as everywhere in the CLI: 0 done, 1 invalid input (a ruleset with errors, a
file that `new` would overwrite), 2 usage (a ruleset that names no file and no built-in, a
malformed, unknown or out-of-range ``--option``). Bad input never shows a traceback.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from couillon_dsl.diagnostics import Diagnostic
    from couillon_dsl.model import Ruleset


class InvalidInput(click.ClickException):
    """Input that was understood but cannot be used: exit 1, with diagnostics when there are some."""

    exit_code = 1

    def __init__(self, message: str, diagnostics: tuple["Diagnostic", ...] = ()) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics

    def show(self, file: Any = None) -> None:
        """Diagnostics compiler-style, with source lines, instead of click's one-line ``Error:``."""
        from couillon_dsl.diagnostics import render_text

        click.echo(render_text(self.diagnostics) if self.diagnostics else f"error: {self.message}", err=True)


class BadOptionValue(InvalidInput):
    """An ``--option`` value the ruleset does not offer: a usage error (exit 2)."""

    exit_code = 2


def parse_options(values: tuple[str, ...], flag: str = "--option") -> dict[str, str]:
    """``("lines=7",)`` -> ``{"lines": "7"}``; the compiler coerces the strings."""
    options: dict[str, str] = {}
    for value in values:
        name, sep, text = value.partition("=")
        if not sep or not name.strip():
            raise click.UsageError(f"{flag} wants NAME=VALUE, got '{value}'")
        options[name.strip()] = text.strip()
    return options


def build(argument: str, options: dict[str, str]) -> "Ruleset":
    """Load, check and compile a ruleset named on the command line, or fail with exit 1 or 2."""
    from couillon_dsl.builtin import builtin_names, resolve_ruleset
    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.diagnostics import RulesetError, did_you_mean

    if resolve_ruleset(argument) is None:
        hint = did_you_mean(argument, builtin_names()) or f"built-in rulesets: {', '.join(builtin_names())}"
        raise click.UsageError(f"no ruleset file or built-in ruleset named '{argument}'; {hint}")
    try:
        return build_ruleset(argument, options)
    except RulesetError as exc:
        typed_wrong = {d.code for d in exc.diagnostics} <= OPTION_CODES
        raise (BadOptionValue if typed_wrong else InvalidInput)(str(exc), exc.diagnostics) from None


OPTION_CODES = {"unknown-option", "bad-option-value"}  # a mistyped --option is a usage error

option_flag = click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                           help="Override an option of the ruleset (repeatable).")


@click.command()
@click.argument("ruleset", metavar="PATH_OR_NAME")
@click.option("--format", "fmt", type=click.Choice(["markdown", "text"]), default="markdown", show_default=True,
              help="markdown for documents, text for a terminal.")
@option_flag
def explain(ruleset: str, fmt: str, options: tuple[str, ...]) -> None:
    """Print a ruleset as a rulebook: players, cards, deal, trump, play, scoring, options, sources."""
    from couillon_dsl.explain import explain as render

    click.echo(render(build(ruleset, parse_options(options)), fmt), nl=False)


@click.command()
@click.argument("base", metavar="A")
@click.argument("other", metavar="B")
@click.option("--base-option", "base_options", multiple=True, metavar="NAME=VALUE",
              help="Override an option of A (repeatable).")
@option_flag
def diff(base: str, other: str, base_options: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Say in rule sentences what B changes relative to A (after extends and options).

    --option applies to B, so `couillon diff A A -o NAME=VALUE` shows what one option
    changes.
    """
    from couillon_dsl.diff import diff_text

    a = build(base, parse_options(base_options, "--base-option"))
    b = build(other, parse_options(options))
    click.echo(diff_text(a, b), nl=False)


_ID = re.compile(r"^[a-z][a-z0-9-]*$")


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--from", "parent", required=True, metavar="PARENT",
              help="The ruleset to extend: a built-in name or a file.")
@click.option("--id", "new_id", metavar="ID", help="The variant's id (default: from the file name).")
@click.option("--name", "new_name", metavar="NAME", help="The variant's name (default: from the id).")
def new(path: Path, parent: str, new_id: str | None, new_name: str | None) -> None:
    """Write a new variant file at PATH that extends PARENT, with PARENT's rules as comments."""
    from couillon_dsl.builtin import builtin_names, resolve_ruleset
    from couillon_dsl.diagnostics import RulesetError, did_you_mean
    from couillon_dsl.scaffold import ScaffoldError, write_variant

    if new_id is not None and not _ID.match(new_id):
        raise click.BadParameter("an id is lower case: a letter, then letters, digits or '-'", param_hint="--id")
    if resolve_ruleset(parent) is None:
        hint = did_you_mean(parent, builtin_names()) or f"built-in rulesets: {', '.join(builtin_names())}"
        raise click.BadParameter(f"no ruleset file or built-in ruleset named '{parent}'; {hint}", param_hint="--from")
    try:
        written = write_variant(path, parent, id=new_id, name=new_name)
    except ScaffoldError as exc:
        raise InvalidInput(str(exc)) from None
    except RulesetError as exc:
        raise InvalidInput(str(exc), exc.diagnostics) from None
    click.echo(f"wrote {written}, a variant of {parent}")
    click.echo(f"next: edit it, then `couillon validate {written}` and `couillon explain {written}`")
