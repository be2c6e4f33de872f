"""`couillon simulate` and `couillon compare`: play many seeded games and report with intervals.

Exit codes: 0 done; 1 the ruleset is invalid or an output file cannot be written; 2 usage
(unknown ruleset, bad agent spec, unknown option or bad option value). Bad input is one
clear message, never a traceback.
"""
from __future__ import annotations

import dataclasses
import json
import os
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

import click

from couillon_dsl.cli.conventions import build, complete_ruleset, console, parse_options

if TYPE_CHECKING:
    from couillon_dsl.model import Ruleset
    from couillon_dsl.simulation import Job, Simulation


def make_job(ruleset_arg: str, rs: Ruleset, options: dict[str, str], seed: int, agents: str, **extra: Any) -> Job:
    from couillon_dsl.agents import AgentSpecError, seat_specs
    from couillon_dsl.simulation import Job, ruleset_reference

    try:
        specs = seat_specs(agents, rs)
    except AgentSpecError as exc:
        raise click.BadParameter(str(exc), param_hint="--agents") from None
    return Job(ruleset_reference(ruleset_arg), tuple(sorted(options.items())), seed, specs, **extra)


def with_engine(job: Job, rs: Ruleset, requested: str) -> Job:
    """``job`` on the engine ``--engine`` asks for; auto falls back to Python with a one-line note saying why."""
    from couillon_dsl.simulation import select_engine

    try:
        engine, note = select_engine(rs, job.agents, requested)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None
    if note:
        click.echo(f"note: {rs.id} plays on the Python engine: {note}", err=True)
    return dataclasses.replace(job, engine=engine)


def check_writable(path: str | None, flag: str) -> None:
    """Refuse an output file whose folder cannot be written before the run, not after it."""
    if path:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.access(folder, os.W_OK):
            raise click.BadParameter(f"cannot write into {folder}", param_hint=flag)


@contextmanager
def progress_bar(total: int, label: str) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.advance(task, done)


def run(rs: Ruleset, job: Job, games: int, workers: int | None, label: str) -> Simulation:
    from couillon_dsl.simulation import run as simulate

    with progress_bar(games, label) as advance:
        return simulate(rs, job, games, workers, advance)


def run_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The options simulate and compare share."""
    options = [
        click.option("--games", "-n", type=click.IntRange(min=1), default=2000, show_default=True,
                     help="Games to play."),
        click.option("--seed", "-s", type=int, default=1, show_default=True,
                     help="Run seed; game i is played from a seed derived from (seed, i)."),
        click.option("--agents", "-a", default="random", show_default=True,
                     help="random, greedy or pimc: one for every seat, one per team or one per seat, "
                          "comma-separated; settings as name:key=value (pimc:samples=16)."),
        click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
                     help="Worker processes [default: the number of CPUs]."),
        click.option("--option", "-o", "option_pairs", multiple=True, metavar="NAME=VALUE",
                     help="Set a ruleset option (repeatable)."),
        click.option("--engine", type=click.Choice(["auto", "python", "compiled"]), default="auto", show_default=True,
                     help="compiled: the Numba kernel (the `fast` extra); python: the reference engine; "
                          "auto: the kernel when installed and able to play the run, else Python."),
        click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
                     help="text for people, json for tools."),
    ]
    for option in reversed(options):
        f = option(f)
    return f


@click.command()
@click.argument("ruleset", metavar="RULESET", shell_complete=complete_ruleset)
@run_options
@click.option("--record", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write every game as a JSON-lines record (replay with `couillon replay`).")
@click.option("--plot", type=click.Path(dir_okay=False), default=None,
              help="Write a PNG: game lengths and scoresheet trajectories (needs matplotlib).")
def simulate(ruleset: str, games: int, seed: int, agents: str, workers: int | None, option_pairs: tuple[str, ...],
             engine: str, output: str, record: str | None, plot: str | None) -> None:
    """Play GAMES whole games of RULESET (a built-in name or a path) and report statistics."""

    from couillon_dsl import report
    from couillon_dsl.records import write_records

    options = parse_options(option_pairs)
    rs = build(ruleset, options)
    job = make_job(ruleset, rs, options, seed, agents, record=bool(record), trajectories=report.PLOT_GAMES if plot else 0)
    job = with_engine(job, rs, engine)
    check_writable(record, "--record")
    check_writable(plot, "--plot")
    if plot:
        try:
            report.pyplot()
        except report.PlotUnavailable as exc:
            raise click.ClickException(str(exc)) from None
    sim = run(rs, job, games, workers, f"simulating {rs.id}")
    try:
        if record:
            write_records(record, sim.tally.records)
        if plot:
            report.write_plot(sim, plot)
    except OSError as exc:
        raise click.ClickException(f"cannot write {exc.filename}: {exc.strerror}") from None
    if output == "json":
        click.echo(json.dumps(report.simulation_json(sim), indent=2))
    else:
        report.print_simulation(sim, console(width=max(100, _terminal_width())))


@click.command()
@click.argument("ruleset_a", metavar="A", shell_complete=complete_ruleset)
@click.argument("ruleset_b", metavar="B", shell_complete=complete_ruleset)
@run_options
def compare(ruleset_a: str, ruleset_b: str, games: int, seed: int, agents: str, workers: int | None,
            option_pairs: tuple[str, ...], engine: str, output: str) -> None:
    """Play rulesets A and B on the same deals (where their decks match) and report B - A.

    An --option applies to each ruleset that declares it.
    """

    from couillon_dsl import report

    options = parse_options(option_pairs)
    default_a, default_b = build(ruleset_a, {}), build(ruleset_b, {})
    unknown = sorted(name for name in options if name not in default_a.options and name not in default_b.options)
    if unknown:
        raise click.BadParameter(f"neither ruleset has an option {', '.join(map(repr, unknown))}", param_hint="--option")
    options_a = {name: value for name, value in options.items() if name in default_a.options}
    options_b = {name: value for name, value in options.items() if name in default_b.options}
    # rebuild only a ruleset whose options change: building validates the whole file again
    rs_a = build(ruleset_a, options_a) if options_a else default_a
    rs_b = build(ruleset_b, options_b) if options_b else default_b
    job_a = with_engine(make_job(ruleset_a, rs_a, options_a, seed, agents, paired=True), rs_a, engine)
    job_b = with_engine(make_job(ruleset_b, rs_b, options_b, seed, agents, paired=True), rs_b, engine)
    if job_a.engine != job_b.engine:  # each engine deals from its own generator: one engine for both
        job_a, job_b = (dataclasses.replace(job, engine="python") for job in (job_a, job_b))
        click.echo("note: both rulesets play on the Python engine, so that they see the same deals", err=True)
    sim_a = run(rs_a, job_a, games, workers, f"simulating A ({rs_a.id})")
    sim_b = run(rs_b, job_b, games, workers, f"simulating B ({rs_b.id})")
    same_deals = rs_a.layout.suits == rs_b.layout.suits and rs_a.layout.ranks == rs_b.layout.ranks
    if output == "json":
        click.echo(json.dumps(report.comparison_json(sim_a, sim_b, same_deals), indent=2))
    else:
        report.print_comparison(sim_a, sim_b, same_deals, console(width=max(100, _terminal_width())))


def _terminal_width() -> int:
    try:
        return os.get_terminal_size().columns
    except OSError:
        return 120  # piped: wide enough that a figure stays on one line
