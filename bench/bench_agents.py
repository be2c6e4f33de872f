#!/usr/bin/env python3
"""Strength table: agent A against agent B on every shipped ruleset, paired deals with seats swapped.

Each pair is one game per team from one seed (the same deals, hand after hand): A holds the
first team's seats in one and the second team's in the other (with more teams, French Tarot's
one seat each, A holds each team's seats once and B all the others, so A's fair share of the
wins is one in that many). Per pair the figures are A's share of its games won and A's mean
scoresheet gain per hand (the opponents' mean change less A's team's, in the ruleset's
winning direction: positive is good for A); the intervals are
Student's t over the pairs, so the deal's luck cancels out of each pair. Milliseconds per
decision are A's wall time per choice among two or more actions (mean and 99th percentile),
and its CPU time (the process's), which a loaded machine disturbs less.

    .venv/bin/python bench/bench_agents.py --pairs 20 --matchup ismcts:ms=30,greedy
    .venv/bin/python bench/bench_agents.py --pairs 10 --rulesets couillon,mit --markdown
    .venv/bin/python bench/bench_agents.py --table cells.jsonl   # the table of saved cells
    .venv/bin/python bench/bench_agents.py --table cells.jsonl --pooled   # and each matchup over its rulesets

A spec ``trumps=SPEC`` plays A's decisions (trump, contract, announcements) with SPEC and
its cards with greedy (the split test: whose trump decisions are better); ``bids=SPEC`` only
the decisions with no card among them (an announcement made with a card is greedy's: cheaper
where announcements come with every card); ``cards=SPEC`` the other way round. ``oracle=SPEC`` is the search SPEC shown every card: each world it searches
is the true deal. No player can be that, so it is a ceiling, not an agent: how far ahead of B
a search could get on a ruleset if it knew the hidden cards. The split specs may wrap it:
``trumps=oracle=SPEC`` is the ceiling of the decisions alone.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from couillon_dsl.agents import Agent, AgentSpecError, make_agent  # noqa: E402
from couillon_dsl.agents.playout import SearchAgent  # noqa: E402
from couillon_dsl.agents.sampler import Sampler  # noqa: E402
from couillon_dsl.builtin import builtin_names  # noqa: E402
from couillon_dsl.compile import build_ruleset  # noqa: E402
from couillon_dsl.engine import GameState  # noqa: E402
from couillon_dsl.model import Ruleset  # noqa: E402
from couillon_dsl.simulation import AGENTS_SALT, game_seed, play_game  # noqa: E402
from couillon_dsl.stats import Z95, mean_t, t_quantile  # noqa: E402

DEFAULT_MATCHUPS = "ismcts:ms=30,greedy;pimc:ms=30,greedy;ismcts:ms=30,pimc:ms=30;greedy,random"


class Timed:
    """Wraps an agent and records the wall time of each decision it is asked for."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.times: list[float] = []
        self.cpu: list[float] = []  # the process's CPU time: what a decision costs on a loaded machine too

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        began, cpu = time.perf_counter(), time.process_time()
        action = self.agent.act(state, legal, rng)
        self.times.append(time.perf_counter() - began)
        self.cpu.append(time.process_time() - cpu)
        return action


class SplitAgent:
    """Decisions (anything but a card) by one agent, cards by another; with ``before_play`` only
    the decisions with no card among them (an announcement made with a card is the player's)."""

    def __init__(self, decider: Agent, player: Agent, before_play: bool = False) -> None:
        self.decider, self.player, self.before_play = decider, player, before_play

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        ncards = state.actions.ncards
        card = legal[0] < ncards if self.before_play else legal[-1] < ncards
        return (self.player if card else self.decider).act(state, legal, rng)


class TrueDeal(Sampler):
    """A sampler whose every world is the true deal (``oracle=SPEC``): it reads every seat's cards."""

    def draw(self, state: GameState, seat: int, count: int, rng: random.Random) -> Iterator[GameState]:
        for _ in range(count):
            yield state.clone()


def agent_of(spec: str) -> Agent:
    if spec.startswith("oracle="):
        agent = make_agent(spec[len("oracle="):])
        if not isinstance(agent, SearchAgent):
            raise AgentSpecError(f"{spec!r}: only a search (pimc, ismcts) can be shown the true deal")
        agent._sampler = TrueDeal()
        return agent
    if spec.startswith("trumps="):
        return SplitAgent(agent_of(spec[len("trumps="):]), make_agent("greedy"))
    if spec.startswith("bids="):
        return SplitAgent(agent_of(spec[len("bids="):]), make_agent("greedy"), before_play=True)
    if spec.startswith("cards="):
        return SplitAgent(make_agent("greedy"), agent_of(spec[len("cards="):]))
    return make_agent(spec)


def gain_per_hand(ruleset: Ruleset, state: GameState, team: int) -> float:
    """A team's mean scoresheet gain per hand against the other teams (positive: towards winning)."""
    hands = state.hands
    sign = 1 if ruleset.scoresheet.lower_is_better() else -1
    total = 0.0
    for hand in hands:
        others = [d for t, d in enumerate(hand.deltas) if t != team]
        total += sign * (sum(others) / len(others) - hand.deltas[team])
    return total / max(1, len(hands))


def matchup(ruleset: Ruleset, spec_a: str, spec_b: str, pairs: int, seed: int) -> dict[str, Any]:
    """Play ``pairs`` seat-swapped pairs of games of A against B; A's figures."""
    teams = ruleset.players.teams
    a, b = Timed(agent_of(spec_a)), agent_of(spec_b)
    wins: list[float] = []
    gains: list[float] = []
    abandoned = 0
    began = time.perf_counter()
    for index in range(pairs):
        deal_seed = game_seed(seed, index)
        pair_wins = pair_gain = 0.0
        for a_team in range(len(teams)):
            seats: list[Agent] = [b] * ruleset.players.count
            for seat in teams[a_team]:
                seats[seat] = a
            state = play_game(GameState(ruleset, seed=deal_seed), seats, random.Random(deal_seed ^ AGENTS_SALT))
            result = state.result
            assert result is not None
            abandoned += result.abandoned
            pair_wins += (result.winner == a_team) / len(teams)
            pair_gain += gain_per_hand(ruleset, state, a_team) / len(teams)
        wins.append(pair_wins)
        gains.append(pair_gain)
    times = sorted(a.times)
    cpu = sorted(a.cpu)
    return {
        "ruleset": ruleset.id, "a": spec_a, "b": spec_b, "pairs": pairs, "games": len(teams) * pairs,
        "fair_share": 1 / len(teams),
        "win": mean_t(wins).to_dict(), "gain_per_hand": mean_t(gains).to_dict(),
        "ms_mean": 1000 * statistics.fmean(times) if times else None,
        "ms_p99": 1000 * times[min(len(times) - 1, int(0.99 * len(times)))] if times else None,
        "cpu_ms_mean": 1000 * statistics.fmean(cpu) if cpu else None,
        "cpu_ms_p99": 1000 * cpu[min(len(cpu) - 1, int(0.99 * len(cpu)))] if cpu else None,
        "decisions": len(times), "abandoned": abandoned, "seconds": time.perf_counter() - began,
    }


def interval(e: dict[str, Any], percent: bool) -> str:
    if e["value"] is None:
        return "n/a"
    if e["low"] is None:
        return f"{100 * e['value']:.0f}%" if percent else f"{e['value']:+.3f}"
    if percent:  # a rate: the t interval clipped to [0, 100%]
        return f"{100 * e['value']:.0f}% [{max(0.0, 100 * e['low']):.0f}, {min(100.0, 100 * e['high']):.0f}]"
    return f"{e['value']:+.3f} [{e['low']:+.3f}, {e['high']:+.3f}]"


def pooled(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per matchup played on two or more rulesets of two teams, one row of A's mean win rate over
    those rulesets: the cells are independent, so the variance of the mean is the sum of their
    variances (each read off its t interval) over the count squared. A cell of 32 pairs has an
    interval of about 10 points either way; ten of them pooled, about 3. Gains per hand are in
    each ruleset's own units and are not pooled."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in rows:
        if r.get("fair_share", 0.5) == 0.5 and r["win"]["low"] is not None:
            groups.setdefault((r["a"], r["b"]), []).append(r)
    result = []
    for (a, b), cells in groups.items():
        if len({c["ruleset"] for c in cells}) < 2:
            continue
        k = len(cells)
        mean = statistics.fmean(c["win"]["value"] for c in cells)
        variance = sum(((c["win"]["high"] - c["win"]["low"]) / (2 * t_quantile(0.975, c["win"]["n"] - 1))) ** 2
                       for c in cells) / k ** 2
        half = Z95 * variance ** 0.5
        n = sum(c["pairs"] for c in cells)
        result.append({
            "ruleset": f"{k} rulesets pooled", "a": a, "b": b, "pairs": n, "games": sum(c["games"] for c in cells),
            "fair_share": 0.5, "win": {"value": mean, "low": mean - half, "high": mean + half, "n": n, "method": "pooled"},
            "gain_per_hand": {"value": None, "low": None, "high": None, "n": n, "method": "pooled"},
            "ms_mean": None, "ms_p99": None,
        })
    return result


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| ruleset | A | B | A's game win rate (95% CI) | A's scoresheet gain per hand (95% CI) | pairs (games) "
             "| A ms/decision mean, p99 (wall; CPU) |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        ms = f"{r['ms_mean']:.0f}, {r['ms_p99']:.0f}" if r["ms_mean"] is not None else "n/a"
        if r.get("cpu_ms_mean") is not None:
            ms += f" ({r['cpu_ms_mean']:.0f}, {r['cpu_ms_p99']:.0f})"
        fair = r.get("fair_share", 0.5)
        share = "" if fair == 0.5 else f" (fair share {100 * fair:.0f}%)"
        lines.append(f"| {r['ruleset']} | {r['a']} | {r['b']} | {interval(r['win'], True)}{share} "
                     f"| {interval(r['gain_per_hand'], False)} | {r['pairs']} ({r['games']}) | {ms} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default=",".join(builtin_names()), help="comma-separated (default: all shipped)")
    parser.add_argument("--matchup", action="append",
                        help=f"A,B (repeatable; default {DEFAULT_MATCHUPS.replace(';', ' and ')})")
    parser.add_argument("--pairs", type=int, default=20, help="seat-swapped pairs of games per cell")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a ruleset option for every ruleset run (repeatable), e.g. deals=4")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table at the end")
    parser.add_argument("--out", type=Path, help="append one JSON line per cell to this file")
    parser.add_argument("--table", type=Path, nargs="+", metavar="FILE",
                        help="only print the Markdown table of cells saved with --out")
    parser.add_argument("--pooled", action="store_true",
                        help="with --table or --markdown: add per matchup A's win rate pooled over its two-team rulesets")
    args = parser.parse_args(argv)
    if args.table:
        cells = [json.loads(line) for path in args.table for line in path.read_text().splitlines() if line]
        print(markdown(cells + pooled(cells) if args.pooled else cells))
        return 0
    # a spec may hold commas only between the two agents; ':' separates settings
    matchups = [tuple(s.strip() for s in pair.split(",", 1)) for pair in args.matchup or DEFAULT_MATCHUPS.split(";")]
    try:
        for spec in (spec for specs in matchups for spec in specs):
            agent_of(spec)
    except AgentSpecError as exc:
        parser.error(str(exc))
    if any(len(specs) != 2 for specs in matchups):
        parser.error("a matchup is two agents, A,B")
    if any("=" not in o for o in args.option):
        parser.error("an --option is NAME=VALUE")
    rows = []
    for name in args.rulesets.split(","):
        ruleset = build_ruleset(name, dict(o.split("=", 1) for o in args.option))
        for spec_a, spec_b in matchups:
            row = matchup(ruleset, spec_a, spec_b, args.pairs, args.seed)
            rows.append(row)
            print(json.dumps(row), flush=True)
            if args.out:
                with args.out.open("a") as f:
                    f.write(json.dumps(row) + "\n")
    if args.markdown:
        print(markdown(rows + pooled(rows) if args.pooled else rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
