"""`couillon validate`, `couillon rulesets` and `couillon schema`: the language's command line.

Exit codes as linters use them: 0 every ruleset valid (warnings allowed), 1 a ruleset is
invalid (bad YAML included), 2 usage (e.g. a file that does not exist). Bad input never
shows a traceback. Heavy modules (jsonschema, lark) are imported only by the stages that
need them, to keep start-up fast.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from couillon_dsl.diagnostics import Diagnostic


@dataclass
class Result:
    """The outcome of validating one argument."""

    argument: str
    path: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


def validate_one(argument: str) -> Result:
    """Load and check one ruleset; loading problems become its diagnostics."""
    from couillon_dsl.diagnostics import RulesetError, sort_key
    from couillon_dsl.load import display_path, load_ruleset
    from couillon_dsl.validate import check

    try:
        document = load_ruleset(argument)
    except RulesetError as exc:
        return Result(argument, None, sorted(exc.diagnostics, key=sort_key))
    path = display_path(document.path) if document.path else None
    return Result(argument, path, sorted(check(document), key=sort_key))


def _summary(results: list[Result]) -> str:
    errors = sum(1 for r in results for d in r.diagnostics if d.is_error)
    warnings = sum(1 for r in results for d in r.diagnostics if not d.is_error)
    valid = sum(r.valid for r in results)
    plural = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"
    return (f"{plural(len(results), 'ruleset')} checked: {valid} valid, "
            f"{plural(errors, 'error')}, {plural(warnings, 'warning')}")


@click.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="PATH_OR_NAME...")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text for people, json for tools.")
def validate(rulesets: tuple[str, ...], output: str) -> None:
    """Check rulesets (files or built-in names) against the language and its semantic rules."""
    from couillon_dsl.builtin import builtin_names, resolve_ruleset
    from couillon_dsl.diagnostics import did_you_mean, render_text

    for argument in rulesets:
        if resolve_ruleset(argument) is None:
            hint = did_you_mean(argument, builtin_names())
            raise click.UsageError(f"no ruleset file or built-in ruleset named '{argument}'" + (f"; {hint}" if hint else ""))
    results = [validate_one(argument) for argument in rulesets]
    if output == "json":
        payload = {"valid": all(r.valid for r in results),
                   "rulesets": [{"input": r.argument, "path": r.path, "valid": r.valid,
                                 "diagnostics": [d.to_dict() for d in r.diagnostics]} for r in results]}
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        for result in results:
            if result.diagnostics:
                click.echo(render_text(result.diagnostics, color=color))
            elif len(results) > 1:
                click.echo(f"{result.path}: ok")
        click.echo(_summary(results), err=True)
    sys.exit(0 if all(r.valid for r in results) else 1)


@click.command()
def rulesets() -> None:
    """List the built-in rulesets: name, title and file."""
    from couillon_dsl.builtin import builtin_names, find_builtin
    from couillon_dsl.diagnostics import RulesetError
    from couillon_dsl.load import display_path, load_ruleset

    rows = []
    for name in builtin_names():
        path = find_builtin(name)
        try:
            title = str(load_ruleset(name).data.get("name", ""))
        except RulesetError as exc:
            title = f"(cannot be loaded: {exc.diagnostics[0].code})"
        rows.append((name, title, display_path(path) if path else ""))
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(2)]
    for name, title, shown_path in rows:
        click.echo(f"{name:<{widths[0]}}  {title:<{widths[1]}}  {shown_path}")


@click.command()
def schema() -> None:
    """Print the ruleset JSON Schema (2020-12), e.g. for an editor."""
    from couillon_dsl.schema import SCHEMA_PATH

    click.echo(SCHEMA_PATH.read_text(encoding="utf-8"), nl=False)
