"""The `couillon` command: a thin click group whose sub-commands are imported lazily.

Start-up time matters (`couillon validate` must answer in well under 250 ms), so each
sub-command lives in its own module and is imported only when it is invoked.
Exit codes, as linters use them: 0 ok, 1 invalid input or failed check, 2 usage error.
"""
from __future__ import annotations

import importlib

import click

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

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        module = importlib.import_module(f"couillon_dsl.cli.{module_name}")
        return getattr(module, attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="couillon-dsl")
def main() -> None:
    """Trick-taking card games as data: validate, explain, simulate, play and replay rulesets."""
