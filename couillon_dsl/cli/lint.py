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
from pathlib import Path
from typing import TYPE_CHECKING

import click

from couillon_dsl.cli.conventions import complete_ruleset, use_color

if TYPE_CHECKING:
    from couillon_dsl.diagnostics import Diagnostic


@dataclass
class Result:
    """The outcome of validating one argument."""

    argument: str
    path: str | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    found: bool = True  # False: the argument names no file, folder content or built-in ruleset

    @property
    def valid(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


STDIN = "-"


def validate_one(argument: str, text: str | None = None) -> Result:
    """Load and check one ruleset (``text``: what stdin gave for `-`); loading problems become its diagnostics."""
    from couillon_dsl.diagnostics import RulesetError, sort_key
    from couillon_dsl.loader import display_path, load_ruleset, load_ruleset_text
    from couillon_dsl.validate import check

    try:
        document = load_ruleset(argument) if text is None else load_ruleset_text(text, Path.cwd() / "<stdin>")
    except RulesetError as exc:
        return Result(argument, None, sorted(exc.diagnostics, key=sort_key))
    path = display_path(document.path) if document.path and text is None else "<stdin>" if text is not None else None
    return Result(argument, path, sorted(check(document), key=sort_key))


def expand(arguments: tuple[str, ...]) -> list[str]:
    """Directories become every *.yaml and *.yml file under them, sorted; other arguments stay."""
    out: list[str] = []
    for argument in arguments:
        if argument != STDIN and os.path.isdir(argument):  # os.path: False, not OSError, for a name too long
            found = sorted(p for p in Path(argument).rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
            out += [str(p) for p in found] or [argument]  # an empty folder is reported, not skipped
        else:
            out.append(argument)
    return out


def _missing(argument: str) -> Result:
    """A ruleset that cannot be found, reported with the others (the run goes on)."""
    from couillon_dsl.builtin import builtin_names
    from couillon_dsl.diagnostics import did_you_mean, error

    if os.path.isdir(argument):
        return Result(argument, None, [error("file-not-found", f"no *.yaml or *.yml file under the folder '{argument}'")],
                      found=False)
    hint = did_you_mean(argument, builtin_names()) or f"built-in rulesets: {', '.join(builtin_names())}"
    return Result(argument, None, [error("file-not-found", f"no ruleset file or built-in ruleset named '{argument}'",
                                         hint=hint)], found=False)


def _summary(results: list[Result]) -> str:
    errors = sum(1 for r in results for d in r.diagnostics if d.is_error)
    warnings = sum(1 for r in results for d in r.diagnostics if not d.is_error)
    valid = sum(r.valid for r in results)
    plural = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"
    return (f"{plural(len(results), 'ruleset')} checked: {valid} valid, "
            f"{plural(errors, 'error')}, {plural(warnings, 'warning')}")


@click.command()
@click.argument("rulesets", nargs=-1, required=True, metavar="PATH_OR_NAME...", shell_complete=complete_ruleset)
@click.option("--format", "output", type=click.Choice(["text", "json", "github"]), default="text", show_default=True,
              help="text for people, json for tools, github for GitHub Actions annotations.")
def validate(rulesets: tuple[str, ...], output: str) -> None:
    """Check rulesets against the language and its semantic rules.

    Each argument is a file, a built-in name, a folder (every *.yaml and *.yml under it)
    or - (standard input). Every argument is reported, even after one that is missing.
    Exit 0 all valid, 1 an invalid ruleset, 2 an argument that names nothing.
    """
    from couillon_dsl.builtin import resolve_ruleset
    from couillon_dsl.diagnostics import render_github, render_text

    results: list[Result] = []
    for argument in expand(rulesets):
        if argument == STDIN:
            results.append(validate_one(argument, sys.stdin.read()))
        elif resolve_ruleset(argument) is None:
            results.append(_missing(argument))
        else:
            results.append(validate_one(argument))
    if output == "json":
        payload = {"valid": all(r.valid for r in results),
                   "rulesets": [{"input": r.argument, "path": r.path, "valid": r.valid,
                                 "diagnostics": [d.to_dict() for d in r.diagnostics]} for r in results]}
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    elif output == "github":
        for result in results:
            if result.diagnostics:
                click.echo(render_github(result.diagnostics))
        click.echo(_summary(results), err=True)
    else:
        color = use_color(sys.stdout)
        for result in results:
            if result.diagnostics:
                click.echo(render_text(result.diagnostics, color=color))
            elif len(results) > 1:
                click.echo(f"{result.path}: ok")
        click.echo(_summary(results), err=True)
    sys.exit(2 if not all(r.found for r in results) else 0 if all(r.valid for r in results) else 1)


@click.command()
def rulesets() -> None:
    """List the built-in rulesets: name, title and file."""
    from couillon_dsl.builtin import builtin_names, find_builtin
    from couillon_dsl.diagnostics import RulesetError
    from couillon_dsl.loader import display_path, load_ruleset

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
@click.option("--variant", is_flag=True, help="The schema for a file that `extends:` another (a merge patch).")
@click.option("--write", "folder", metavar="DIR", type=click.Path(file_okay=False, path_type=Path),
              help="Copy both schemas into DIR (created if needed) for editors, and print their paths.")
def schema(variant: bool, folder: Path | None) -> None:
    """Print the ruleset JSON Schema (2020-12), or copy both schemas into a folder for an editor.

    A complete ruleset matches ruleset.schema.json; a file with `extends:` matches
    variant.schema.json (nothing the parent provides is required; `null` removes a key).
    """
    from couillon_dsl.schema import SCHEMA_PATH
    from couillon_dsl.schema_variant import VARIANT_FILE

    sources = [SCHEMA_PATH, SCHEMA_PATH.with_name(VARIANT_FILE)]
    if folder is None:
        click.echo(sources[variant].read_text(encoding="utf-8"), nl=False)
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for source in sources:
            (folder / source.name).write_bytes(source.read_bytes())
    except OSError as exc:
        raise click.FileError(str(folder), exc.strerror or str(exc)) from None
    for source in sources:
        click.echo((folder / source.name).resolve().as_posix())
