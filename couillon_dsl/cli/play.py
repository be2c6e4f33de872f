"""`couillon scenario`, `couillon replay` and `couillon play`: scenarios, game records, a game at the table.

Exit codes: 0 every scenario held / every record replayed identically; 1 an expectation
failed, a record differed, or a file was bad (damaged, truncated, not a scenario); 2 usage
(e.g. a file that does not exist). A bad file is reported in one clear message, never as
a traceback.
"""
from __future__ import annotations

import sys

import click

from couillon_dsl.cli.conventions import complete_ruleset


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


@click.command()
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@click.option("--seat", type=click.IntRange(min=0), default=0, show_default=True, help="Your seat.")
@click.option("--agents", "-a", default="greedy", show_default=True,
              help="The bots: random, greedy or pimc, one for every seat, one per team or one per seat "
                   "(your own seat's entry is ignored).")
@click.option("--seed", "-s", type=int, default=None,
              help="Seed of the deals and the bots [default: a fresh one, printed so the game can be replayed].")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
              help="Set a ruleset option (repeatable).")
@click.option("--record", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the finished game as a JSON-lines record (replay with `couillon replay`).")
def play(ruleset: str, seat: int, agents: str, seed: int | None, option_pairs: tuple[str, ...],
         record: str | None) -> None:
    """Play one whole game of RULESET at --seat against bots, in the terminal.

    Answer each decision with the number of a choice or its name (AS, 10h, accept, pass,
    name H, announce ID, no); a bid of tricks with the number of tricks. 'why' explains
    which cards you may play, 'quit' stops.
    """
    import random

    from couillon_dsl.agents import make_agent
    from couillon_dsl.cli.sim import build, check_writable, make_job, parse_options
    from couillon_dsl.play import Quit
    from couillon_dsl.play import play as play_game
    from couillon_dsl.records import GameRecord, write_records

    options = parse_options(option_pairs)
    rs = build(ruleset, options)
    if seat >= rs.players.count:
        raise click.BadParameter(f"{rs.name} has seats 0 to {rs.players.count - 1}", param_hint="--seat")
    check_writable(record, "--record")
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    job = make_job(ruleset, rs, options, seed, agents)
    specs = tuple("human" if s == seat else spec for s, spec in enumerate(job.agents))
    bots = [None if s == seat else make_agent(spec) for s, spec in enumerate(specs)]
    click.echo(f"Seed {seed} (play this game again with --seed {seed}).")
    stdin = sys.stdin  # the terminal, or what a test runner feeds
    try:
        state = play_game(rs, seat=seat, agents=bots, seed=seed, inp=stdin, agent_names=specs,
                          echo_input=not stdin.isatty())
    except Quit as stop:
        click.echo("Input ended: game stopped." if str(stop) == "end of input" else "Game stopped.")
        if record:
            click.echo(f"The game was not finished: nothing written to {record}.")
        return
    if record:
        try:
            write_records(record, [GameRecord.from_state(state, ruleset=job.ruleset, seed=seed, agents=specs)])
        except OSError as exc:
            raise click.ClickException(f"cannot write {exc.filename}: {exc.strerror}") from None
        click.echo(f"Recorded to {record} (check it with `couillon replay {record}`).")
