"""Render simulation results: rich tables for people, JSON for tools, a PNG for the eye.

The JSON object carries every figure under a stable key with its interval, so scripts can
compare runs; the text table shows the same figures grouped as a reader asks about them.
"""
from __future__ import annotations

import random
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from couillon_dsl import __version__
from couillon_dsl.simulation import Figure, Simulation, figures, team_label
from couillon_dsl.stats import Estimate, bootstrap_diff, diff_means, diff_rates

GROUPS = {
    "games": "Games",
    "length": "Game length (hands, passed-out deals included)",
    "hands": "Hands",
    "trump": "Trump procedure (share of deals)",
    "decisions": "Trump decisions by seat (share of times asked)",
    "announcements": "Announcements (share of played hands)",
    "contracts": "Contracts (share of played hands)",
    "points": "Scores per played hand",
    "maker points": "The maker's card points per played hand",
    "card sets": "Card sets in the maker's tricks (share of played hands)",
    "declarations": "Declarations (share of played hands with at least one)",
    "bids": "Bids (share of each side's played hands)",
}


def header(sim: Simulation) -> dict[str, Any]:
    """What was run: ruleset, options, seed, size, agents, time."""
    return {
        "ruleset": sim.ruleset.id,
        "ruleset_name": sim.ruleset.name,
        "source": sim.job.ruleset,
        "options": sim.ruleset.option_values(),
        "seed": sim.job.seed,
        "games": sim.games,
        "hands": sim.tally.hands,
        "engine": sim.engine,
        "seconds": round(sim.seconds, 4),
        "compile_seconds": round(sim.compile_seconds, 4),
        "hands_per_second": round(sim.tally.hands / sim.seconds, 1) if sim.seconds > 0 else None,
        "workers": sim.workers,
        "agents": list(sim.job.agents),
        "version": __version__,
    }


def figure_dict(figure: Figure) -> dict[str, Any]:
    return {"label": figure.label, **figure.estimate.to_dict()}


def simulation_json(sim: Simulation) -> dict[str, Any]:
    return {**header(sim), "figures": {f.key: figure_dict(f) for f in figures(sim)}}


def difference(fa: Figure, fb: Figure, seed: int) -> Estimate:
    """B - A for one figure, with the interval that suits its kind.

    The intervals treat A and B as independent samples; on paired deals that is conservative.
    """
    method = fa.estimate.method
    if method == "wilson":
        return diff_rates(fb.estimate, fa.estimate)
    if method == "t":
        return diff_means(fb.data, fa.data)
    if method == "order-statistics" and fa.q is not None:
        return bootstrap_diff(fb.data, fa.data, fa.q, random.Random(seed))
    value = None if fa.estimate.value is None or fb.estimate.value is None else fb.estimate.value - fa.estimate.value
    return Estimate(value, None, None, min(fa.estimate.n, fb.estimate.n), "observed")


def paired_figures(a: Simulation, b: Simulation) -> list[tuple[Figure | None, Figure | None, Estimate | None]]:
    """Figures of A and B side by side (A's order, then B's extras) with B - A where both have it."""
    fa = {f.key: f for f in figures(a)}
    fb = {f.key: f for f in figures(b)}
    keys = list(fa) + [k for k in fb if k not in fa]
    return [(fa.get(k), fb.get(k), difference(fa[k], fb[k], a.job.seed) if k in fa and k in fb else None) for k in keys]


def comparison_json(a: Simulation, b: Simulation, same_deals: bool) -> dict[str, Any]:
    rows = paired_figures(a, b)
    return {
        "a": simulation_json(a),
        "b": simulation_json(b),
        "same_deals": same_deals,
        "seed": a.job.seed,
        "games": a.games,
        "agents": list(a.job.agents),
        "version": __version__,
        "differences": {
            (fa or fb).key: {"label": (fa or fb).label, **d.to_dict()}  # type: ignore[union-attr]
            for fa, fb, d in rows if d is not None
        },
    }


def _value(figure: Figure | None) -> str:
    if figure is None:
        return "-"
    e = figure.estimate
    if e.value is None:
        return "n/a"
    return f"{e.value * 100:.1f}%" if figure.percent else f"{e.value:.2f}"


def _interval(figure: Figure | None, e: Estimate | None = None, signed: bool = False) -> str:
    e = e if e is not None else (figure.estimate if figure else None)
    if e is None or e.low is None or e.high is None:
        return ""
    percent = figure.percent if figure else False
    sign = "+" if signed else ""
    if percent:
        return f"{e.low * 100:{sign}.1f}% .. {e.high * 100:{sign}.1f}%"
    return f"{e.low:{sign}.2f} .. {e.high:{sign}.2f}"


def agents_text(sim: Simulation) -> str:
    """``greedy`` for everyone, ``team 0 pimc, team 1 greedy``, or one per seat."""
    specs = sim.job.agents
    if len(set(specs)) == 1:
        return specs[0]
    teams = sim.ruleset.players.teams
    if all(len({specs[seat] for seat in members}) == 1 for members in teams):
        return ", ".join(f"team {t} {specs[members[0]]}" for t, members in enumerate(teams))
    return ", ".join(f"seat {seat} {spec}" for seat, spec in enumerate(specs))


def _run_line(sim: Simulation) -> str:
    rate = sim.tally.hands / sim.seconds if sim.seconds > 0 else float("nan")
    return (f"[bold]{sim.ruleset.name}[/] ({sim.ruleset.id}): {sim.games:,} games, {sim.tally.hands:,} hands, "
            f"seed {sim.job.seed}, agents {agents_text(sim)}; {sim.workers} worker{'s' if sim.workers != 1 else ''}, "
            f"{sim.seconds:.2f} s ({rate:,.0f} hands/s)")


def _engine_line(sim: Simulation) -> str:
    if sim.engine == "compiled":
        return f"played on the compiled engine (compiled or loaded from its cache in {sim.compile_seconds:.2f} s)"
    return "played on the Python engine"


def _table(group: str, columns: list[str]) -> Table:
    table = Table(title=GROUPS[group], title_justify="left", title_style="bold", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(columns[0])
    for name in columns[1:]:
        table.add_column(name, justify="right")
    return table


def print_simulation(sim: Simulation, console: Console) -> None:
    """One table per group; rates in percent, every interval at 95%."""
    console.print(_run_line(sim))
    console.print(_engine_line(sim))
    by_group: dict[str, list[Figure]] = {}
    for figure in figures(sim):
        by_group.setdefault(figure.group, []).append(figure)
    for group, rows in by_group.items():
        table = _table(group, ["figure", "value", "95% interval", "n"])
        for figure in rows:
            table.add_row(figure.label, _value(figure), _interval(figure), str(figure.estimate.n))
        console.print(table)


def print_comparison(a: Simulation, b: Simulation, same_deals: bool, console: Console) -> None:
    console.print(f"A: {_run_line(a)}")
    console.print(f"B: {_run_line(b)}")
    console.print("A and B played the same deals (same pack orders)" if same_deals
                  else "different decks: A and B played from the same seeds, not the same deals")
    console.print(_engine_line(a))
    by_group: dict[str, list[tuple[Figure | None, Figure | None, Estimate | None]]] = {}
    for row in paired_figures(a, b):
        by_group.setdefault((row[0] or row[1]).group, []).append(row)  # type: ignore[union-attr]
    for group, rows in by_group.items():
        table = _table(group, ["figure", "A", "B", "B - A", "95% interval"])
        for fa, fb, d in rows:
            shown = fa or fb
            assert shown is not None
            if d is None or d.value is None:
                delta = "-"
            else:
                delta = f"{d.value * 100:+.1f}%" if shown.percent else f"{d.value:+.2f}"
            table.add_row(shown.label, _value(fa), _value(fb), delta, _interval(shown, d, signed=True))
        console.print(table)


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed (it is the optional `plot` extra)."""


def pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend; raises PlotUnavailable without matplotlib."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotUnavailable("--plot needs matplotlib: pip install 'couillon-dsl[plot]'") from None
    return plt


PLOT_GAMES = 200  # games whose scoresheet after every hand the plot summarises


def _quantile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def write_plot(sim: Simulation, path: str) -> None:
    """A PNG a designer can read: how long games last, and how each team's scoresheet moves
    (median and middle half of the games still running after each hand, with the goal)."""
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator

    rs = sim.ruleset
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    fig.suptitle(f"{rs.name} ({rs.id}): {sim.games} games, seed {sim.job.seed}, agents {', '.join(dict.fromkeys(sim.job.agents))}",
                 fontweight="bold")
    lengths = sim.tally.hands_per_game
    left.hist(lengths, bins=range(min(lengths), max(lengths) + 2), color="#4c72b0", edgecolor="white", align="left")
    left.set_title("How long a game lasts")
    left.set_xlabel("hands in the game (deals thrown in included)")
    left.set_ylabel("games")
    left.xaxis.set_major_locator(MaxNLocator(integer=True))
    colours = ["#c44e52", "#4c72b0", "#55a868", "#8172b2", "#ccb974", "#64b5cd"]
    trajectories = sim.tally.trajectories
    longest = max((len(t) for t in trajectories), default=1)
    for team in range(len(rs.players.teams)):
        colour = colours[team % len(colours)]
        hands, low, middle, high = [], [], [], []
        for hand in range(longest):
            values = [t[hand][team] for t in trajectories if hand < len(t)]
            if len(values) < max(3, len(trajectories) // 20):  # too few games still running to summarise
                break
            hands.append(hand)
            low.append(_quantile(values, 0.25))
            middle.append(_quantile(values, 0.5))
            high.append(_quantile(values, 0.75))
        right.fill_between(hands, low, high, color=colour, alpha=0.2, step="mid", linewidth=0)
        right.step(hands, middle, where="mid", color=colour, linewidth=2, label=f"{team_label(rs, team)}: median")
    right.axhline(rs.scoresheet.goal, color="black", linewidth=1, linestyle="--", label=f"goal ({rs.scoresheet.goal})")
    right.set_title(f"Scoresheet after each hand (first {len(trajectories)} games; band: middle half)")
    right.set_xlabel("hand")
    right.set_ylabel(f"scoresheet value (starts at {rs.scoresheet.start}, counts {rs.scoresheet.direction})")
    right.xaxis.set_major_locator(MaxNLocator(integer=True))
    right.yaxis.set_major_locator(MaxNLocator(integer=True))
    right.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
