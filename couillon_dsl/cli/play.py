"""`couillon scenario` and `couillon replay`: check hand-written scenarios and game records.

Exit codes: 0 every scenario held / every record replayed identically; 1 an expectation
failed, a record differed, or a file was bad (damaged, truncated, not a scenario); 2 usage
(e.g. a file that does not exist). A bad file is reported in one clear message, never as
a traceback.
"""
from __future__ import annotations

import click


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False), metavar="FILE...")
@click.option("-q", "--quiet", is_flag=True, help="Print only the scenarios that fail.")
def scenario(files: tuple[str, ...], quiet: bool) -> None:
    """Run scenario files and report every expectation that does not hold."""
    from couillon_dsl.scenario import run_scenario

    failed = 0
    for path in files:
        result = run_scenario(path)
        if not result.ok:
            failed += 1
        if not result.ok or not quiet:
            click.echo(result.render())
    click.echo(f"{len(files)} scenario{'s' if len(files) != 1 else ''}: {len(files) - failed} passed, {failed} failed",
               err=True)
    raise SystemExit(1 if failed else 0)


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
def replay(file: str) -> None:
    """Replay every game of a records file; stop at the first action or outcome that differs."""
    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.diagnostics import RulesetError
    from couillon_dsl.records import RecordError, replay_file

    try:
        checked, mismatch = replay_file(file, build_ruleset)
    except RecordError as exc:
        raise click.ClickException(str(exc)) from None
    except RulesetError as exc:
        raise click.ClickException(f"{file}: the recorded ruleset cannot be built: {exc}") from None
    if mismatch:
        click.echo(f"{file}: {mismatch}", err=True)
        raise SystemExit(1)
    click.echo(f"{file}: {checked} game{'s' if checked != 1 else ''} replayed, all identical")
