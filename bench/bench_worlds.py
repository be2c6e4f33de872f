#!/usr/bin/env python3
"""Do the sampled worlds tell a decision's worth honestly? A check of the searches' sampler.

Greedy plays whole games. At every decision that is not a card (trump, contract,
announcement) each alternative to greedy's choice is played out, with the searches' own
playout and valuation (:func:`~couillon_dsl.agents.playout.worth`, greedy's leads), in
``--worlds`` worlds the sampler draws for the deciding seat and in the true deal. The
alternative's gain over greedy's choice in the worlds, less its gain in the true deal, is
the sampler's bias: zero on average when the worlds are drawn as the true deals fall. Where
the worlds favour the alternative, its true gain says whether a search that follows them
gains (the searches overrule greedy only there, and by more than the noise).

    .venv/bin/python bench/bench_worlds.py --rulesets couillon,couillon-ardennes --games 100
    .venv/bin/python bench/bench_worlds.py --reading 0   # the worlds without the soft reading
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from couillon_dsl.agents.greedy import GreedyAgent  # noqa: E402
from couillon_dsl.agents.playout import DECISION_EXPLORE, Outlook, worth  # noqa: E402
from couillon_dsl.agents.sampler import READING, Sampler  # noqa: E402
from couillon_dsl.compile import build_ruleset  # noqa: E402
from couillon_dsl.engine import GameState  # noqa: E402
from couillon_dsl.engine.actions import CHANCE  # noqa: E402
from couillon_dsl.model import Ruleset  # noqa: E402
from couillon_dsl.simulation import game_seed  # noqa: E402
from couillon_dsl.stats import mean_t  # noqa: E402

MAX_STEPS = 5000  # actions per game before it is reported as unfinished


def check(ruleset: Ruleset, games: int, worlds: int, reading: float, seed: int) -> dict[str, Any]:
    greedy, sampler, outlook = GreedyAgent(), Sampler(reading), Outlook(ruleset)
    rng = random.Random(seed)
    ncards = ruleset.layout.size
    team_of = ruleset.tables.team_of
    sampled, true = [], []  # per alternative: its gain over greedy's choice in the worlds, in the true deal
    unfinished = 0

    def value(world: GameState, action: int, team: int) -> float:
        return worth(world, action, team, outlook, rng, greedy, DECISION_EXPLORE)

    for game in range(games):
        state = GameState(ruleset, seed=game_seed(seed, game))
        for _ in range(MAX_STEPS):
            seat = state.current_player()
            if seat == CHANCE:
                state.deal_shuffled()
                continue
            if seat < 0:
                break
            legal = state.legal_actions()
            base = legal[0] if len(legal) == 1 else greedy.act(state, legal, rng)
            if len(legal) > 1 and legal[0] >= ncards:
                team = team_of[seat]
                drawn = sampler.worlds(state, seat, worlds, rng)
                if drawn:  # greedy's choice played out once per world and in the true deal, then each alternative
                    base_sampled = [value(w, base, team) for w in drawn]
                    base_true = value(state, base, team)
                    for alternative in legal:
                        if alternative != base:
                            sampled.append(statistics.fmean(value(w, alternative, team) - b
                                                            for w, b in zip(drawn, base_sampled)))
                            true.append(value(state, alternative, team) - base_true)
            state.apply(base)
        else:
            unfinished += 1
    favoured = [t for s, t in zip(sampled, true) if s > 0]
    return {"ruleset": ruleset.id, "games": games, "worlds": worlds, "reading": reading, "seed": seed,
            "alternatives": len(sampled), "unfinished": unfinished,
            "bias": mean_t([s - t for s, t in zip(sampled, true)]).to_dict(),
            "sampled_gain": statistics.fmean(sampled) if sampled else None,
            "true_gain": statistics.fmean(true) if true else None,
            "favoured": len(favoured), "favoured_true_gain": mean_t(favoured).to_dict()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default="couillon", help="comma-separated ruleset names or files")
    parser.add_argument("--games", type=int, default=100, help="greedy games per ruleset")
    parser.add_argument("--worlds", type=int, default=100, help="worlds drawn per decision")
    parser.add_argument("--reading", type=float, default=READING, help="the sampler's reading strength (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.rulesets.split(","):
        row = check(build_ruleset(name), args.games, args.worlds, args.reading, args.seed)
        print(json.dumps(row), flush=True)
        bias, favoured = row["bias"], row["favoured_true_gain"]
        if bias["n"] > 1:
            print(f"  {row['ruleset']}: {row['alternatives']} alternatives to greedy's decisions; the worlds' bias "
                  f"{bias['value']:+.4f} [{bias['low']:+.4f}, {bias['high']:+.4f}] of a session chance; "
                  f"{row['favoured']} favoured by the worlds, their true gain "
                  f"{favoured['value'] if favoured['value'] is not None else float('nan'):+.4f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
