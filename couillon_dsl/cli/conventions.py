"""What every `couillon` command does alike: colour only for a terminal and never under
NO_COLOR, shell completion of built-in ruleset names, Markdown rendered only for a terminal.

Kept free of heavy imports: `cli/lint.py` loads it on the way to `validate`.
"""
from __future__ import annotations

import os
import sys
from typing import IO, TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from click.shell_completion import CompletionItem

    from couillon_dsl.diagnostics import Diagnostic
    from couillon_dsl.model import Ruleset


def use_color(stream: IO[str]) -> bool:
    """Colour for a terminal, unless NO_COLOR is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Built-in ruleset names that start with what was typed, then the shell's own file completion."""
    from click.shell_completion import CompletionItem

    from couillon_dsl.builtin import builtin_names

    names = [CompletionItem(name) for name in builtin_names() if name.startswith(incomplete)]
    return [*names, CompletionItem(incomplete, type="file")]


def echo_markdown(text: str) -> None:
    """Markdown as is when piped (or under NO_COLOR), rendered by rich for a terminal."""
    stdout = sys.stdout
    if not stdout.isatty():
        click.echo(text, nl=False)
        return
    from rich.markdown import Markdown

    console(no_color=bool(os.environ.get("NO_COLOR"))).print(Markdown(text))


def console(**settings: Any) -> Any:
    """A rich Console for command output. rich ends the process with exit 1 when the reader
    goes away; this one lets the BrokenPipeError through, so the command ends quietly (exit 0)."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return _Console(**settings)


class InvalidInput(click.ClickException):
    """Input that was understood but cannot be used: exit 1, with diagnostics when there are some."""

    exit_code = 1

    def __init__(self, message: str, diagnostics: tuple[Diagnostic, ...] = ()) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics

    def show(self, file: Any = None) -> None:
        """Diagnostics compiler-style, with source lines, instead of click's one-line ``Error:``."""
        from couillon_dsl.diagnostics import render_text

        stderr = sys.stderr
        text = render_text(self.diagnostics, color=use_color(stderr)) if self.diagnostics else f"error: {self.message}"
        click.echo(text, err=True)


OPTION_CODES = {"unknown-option", "bad-option-value", "option-overridden"}  # a mistyped --option is a usage error


def parse_options(values: tuple[str, ...], flag: str = "--option") -> dict[str, str]:
    """``("lines=7",)`` -> ``{"lines": "7"}``; the compiler coerces the strings."""
    options: dict[str, str] = {}
    for value in values:
        name, sep, text = value.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"wants NAME=VALUE, got '{value}'", param_hint=f"'{flag}'")
        options[name.strip()] = text.strip()
    return options


def build(argument: str, options: dict[str, str], flag: str = "--option") -> Ruleset:
    """Load, check and compile a ruleset named on the command line. A ruleset that names nothing
    and an option the ruleset does not offer are usage errors (exit 2) blamed on their argument
    or ``flag``; a ruleset with errors exits 1 with its diagnostics."""
    from couillon_dsl.builtin import builtin_names, resolve_ruleset
    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.diagnostics import RulesetError, did_you_mean

    if resolve_ruleset(argument) is None:
        hint = did_you_mean(argument, builtin_names()) or f"built-in rulesets: {', '.join(builtin_names())}"
        raise click.UsageError(f"no ruleset file or built-in ruleset named '{argument}'; {hint}")
    try:
        return build_ruleset(argument, options)
    except RulesetError as exc:
        if {d.code for d in exc.diagnostics} <= OPTION_CODES:
            said = "; ".join(f"{d.message} [{d.code}]" + (f" ({d.hint})" if d.hint else "") for d in exc.diagnostics)
            raise click.BadParameter(said, param_hint=f"'{flag}'") from None
        raise InvalidInput(str(exc), exc.diagnostics) from None
