#!/usr/bin/env python3
"""Which contracts each seat's agent announces, and how they fare: the check that an agent's
bids look like a player's (how often it plays alone, passes a deal out, stops low).

Plays ``--games`` seeded games (game i from the same seed as ``couillon simulate``'s, so two
agents are compared on the same deals) and, per seat, counts the hands in which that seat
made the contract (by the contract's id, and by the last bid it made in rulesets with
numbered bids), how many of those its side won and its mean scoresheet change in them, and
the hands passed out. Seat specs as for bench_agents.py (``trumps=SPEC``: SPEC's decisions,
greedy's cards: the cheap way to measure a search's bids).

    .venv/bin/python bench/bench_contracts.py examples/doppelkopf.yaml --games 8 -o deals=8 \\
        --agents trumps=pimc:samples=16,greedy,greedy,greedy
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_agents import agent_of  # noqa: E402

from couillon_dsl.compile import build_ruleset  # noqa: E402
from couillon_dsl.engine import GameState  # noqa: E402
from couillon_dsl.simulation import AGENTS_SALT, game_seed, play_game  # noqa: E402


def tally(ruleset: Any, games: int, specs: list[str], seed: int) -> dict[str, Any]:
    """Per seat: hands, contracts made (count, won, mean change of the seat's team); hands passed out."""
    agents = [agent_of(spec) for spec in specs]
    seats = ruleset.players.count
    hands = 0
    passed_out = 0
    first_passes = 0
    made: list[collections.Counter[str]] = [collections.Counter() for _ in range(seats)]
    won: list[collections.Counter[str]] = [collections.Counter() for _ in range(seats)]
    change: list[collections.Counter[str]] = [collections.Counter() for _ in range(seats)]
    team_of = ruleset.tables.team_of
    for index in range(games):
        deal_seed = game_seed(seed, index)
        state = play_game(GameState(ruleset, seed=deal_seed), agents, random.Random(deal_seed ^ AGENTS_SALT))
        for hand in state.hands:
            hands += 1
            first_passes += bool(hand.decisions) and hand.decisions[0][1] == "pass"
            if hand.outcome == "passed_out":
                passed_out += 1
                continue
            maker_seat = maker_of(hand)
            if maker_seat is None:
                continue
            bids = [action for _, action in hand.decisions if action != "pass" and not action.startswith("double")]
            label = bids[-1] if bids and bids[-1][:1].isdigit() else hand.contract or "-"
            side = hand.sides[maker_seat] if hand.sides else team_of[maker_seat]
            made[maker_seat][label] += 1
            won[maker_seat][label] += hand.winner == side
            change[maker_seat][label] += hand.deltas[team_of[maker_seat]]
    return {"hands": hands, "passed_out": passed_out, "first_passes": first_passes,
            "seats": [{"agent": specs[s], "made": {k: [n, won[s][k], change[s][k] / n] for k, n in sorted(made[s].items())}}
                      for s in range(seats)]}


def maker_of(hand: Any) -> int | None:
    """The seat that made the hand's contract: the last seat that bid (anything but a pass), else
    the maker side's only seat (None where no one seat made it). A double is no bid."""
    bidders = [seat for seat, action in hand.decisions if action != "pass" and not action.startswith("double")]
    if bidders:
        return bidders[-1]
    if hand.sides and hand.maker is not None and list(hand.sides).count(hand.maker) == 1:
        return list(hand.sides).index(hand.maker)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--agents", required=True, help="one spec per seat, comma-separated")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], help="NAME=VALUE, repeatable")
    args = parser.parse_args(argv)
    options = dict(o.split("=", 1) for o in args.option)
    ruleset = build_ruleset(args.ruleset, options)
    specs = args.agents.split(",")
    if len(specs) != ruleset.players.count:
        parser.error(f"{ruleset.players.count} seats need {ruleset.players.count} agents")
    result = tally(ruleset, args.games, specs, args.seed)
    print(json.dumps(result))
    hands = result["hands"]
    print(f"{hands} hands, {result['passed_out']} passed out ({100 * result['passed_out'] / max(1, hands):.1f}%), "
          f"the first seat to speak passes in {100 * result['first_passes'] / max(1, hands):.1f}%")
    levels: collections.Counter[str] = collections.Counter()
    made: collections.Counter[str] = collections.Counter()
    for row in result["seats"]:
        for label, (n, wins, _) in row["made"].items():
            level = label.split()[0] if label[:1].isdigit() else label
            levels[level] += n
            made[level] += wins
    print("by level or contract (all seats): " + ", ".join(
        f"{k}: {n} ({100 * n / max(1, hands):.1f}%, won {100 * made[k] / n:.0f}%)" for k, n in sorted(levels.items())))
    for seat, row in enumerate(result["seats"]):
        for label, (n, wins, mean) in row["made"].items():
            print(f"seat {seat} {row['agent']}: {label}: {n} ({100 * n / hands:.1f}% of hands), won {wins}, "
                  f"mean change {mean:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
