"""`couillon explain`, `couillon diff` and `couillon new`: rulesets read back as rulebooks.

Exit codes as everywhere in the CLI: 0 done, 1 invalid input (a ruleset with errors, a
file that `new` would overwrite), 2 usage (a ruleset that names no file and no built-in, a
malformed, unknown or out-of-range ``--option``). Bad input never shows a traceback.
"""
from __future__ import annotations

import re
from pathlib import Path


import click

from couillon_dsl.cli.conventions import InvalidInput, build, complete_ruleset, echo_markdown, parse_options


option_flag = click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                           help="Override an option of the ruleset (repeatable).")


@click.command()
@click.argument("ruleset", metavar="PATH_OR_NAME", shell_complete=complete_ruleset)
@click.option("--format", "fmt", type=click.Choice(["markdown", "text"]), default=None,
              help="markdown for documents, text for plain wrapped text [default: Markdown, rendered when "
                   "printing to a terminal].")
@option_flag
def explain(ruleset: str, fmt: str | None, options: tuple[str, ...]) -> None:
    """Print a ruleset as a rulebook: players, cards, deal, trump, play, scoring, options, sources."""
    from couillon_dsl.explain import explain as render

    rules = build(ruleset, parse_options(options))
    if fmt is None:
        echo_markdown(render(rules, "markdown"))
    else:
        click.echo(render(rules, fmt), nl=False)


@click.command()
@click.argument("base", metavar="A", shell_complete=complete_ruleset)
@click.argument("other", metavar="B", shell_complete=complete_ruleset)
@click.option("--base-option", "base_options", multiple=True, metavar="NAME=VALUE",
              help="Override an option of A (repeatable).")
@option_flag
@click.option("--exit-code", is_flag=True, help="Exit 1 when the rules differ, 0 when they do not (as git diff).")
def diff(base: str, other: str, base_options: tuple[str, ...], options: tuple[str, ...], exit_code: bool) -> None:
    """Say in rule sentences what B changes relative to A (after extends and options).

    --option applies to B, so `couillon diff A A -o NAME=VALUE` shows what one option
    changes.
    """
    from couillon_dsl.diff import diff_text, differences

    a = build(base, parse_options(base_options, "--base-option"), "--base-option")
    b = build(other, parse_options(options))
    click.echo(diff_text(a, b), nl=False)
    if exit_code and differences(a, b):
        raise SystemExit(1)


_ID = re.compile(r"^[a-z][a-z0-9-]*$")


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--from", "parent", required=True, metavar="PARENT", shell_complete=complete_ruleset,
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
