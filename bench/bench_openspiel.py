#!/usr/bin/env python3
"""Our ismcts against OpenSpiel's ISMCTS bot at equal iterations, hand by hand (needs the rl extra).

Each pair is one deal of a single hand (seeded, from the start of a game) played twice, our
agent holding the first team's seats in one and the second team's in the other; the bot
searches the OpenSpiel game ``python_couillon_dsl`` (``hands=1``: returns are each team's
chance to win the game from the scoresheet reached, the value our agents use too) with
random rollouts. Both get the same number of iterations per decision (a decision that is not
a card: ``DECISION_BUDGET`` times as many, as ours takes). Figures: our share of the hands
won and our mean scoresheet gain per hand, each with a 95% t interval over the pairs.

    .venv/bin/python bench/bench_openspiel.py --pairs 12 --iterations 100
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Sequence

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import couillon_dsl.interop.openspiel  # noqa: E402,F401  (registers the game)
from couillon_dsl.agents.ismcts import IsmctsAgent  # noqa: E402
from couillon_dsl.agents.playout import budget_scale  # noqa: E402
from couillon_dsl.engine import GameState  # noqa: E402
from couillon_dsl.simulation import game_seed  # noqa: E402
from couillon_dsl.stats import mean_t  # noqa: E402


class OpenSpielIsmcts:
    """OpenSpiel's Python ISMCTS bot as one of our agents: our state's history replayed into the game."""

    def __init__(self, game: pyspiel.Game, iterations: int, seed: int) -> None:
        self.game, self.iterations, self.seed = game, iterations, seed

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        spiel_state = self.game.new_initial_state()
        for action in state.history():
            spiel_state.apply_action(action)
        sims = budget_scale(legal, state.actions) * self.iterations
        generator = np.random.RandomState(rng.getrandbits(32))
        bot = ismcts.ISMCTSBot(self.game, mcts.RandomRolloutEvaluator(1, generator), 2.0, sims,
                               random_state=generator)
        return int(bot.step(spiel_state))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="couillon")
    parser.add_argument("--pairs", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": args.ruleset, "hands": 1})
    rs = game.setup().ruleset
    ours = IsmctsAgent(iterations=args.iterations)
    theirs = OpenSpielIsmcts(game, args.iterations, args.seed)
    sign = 1 if rs.scoresheet.direction == "down" else -1
    wins: list[float] = []
    gains: list[float] = []
    began = time.perf_counter()
    for index in range(args.pairs):
        seed = game_seed(args.seed, index)
        pair_win = pair_gain = 0.0
        for our_team in (0, 1):
            state = GameState(rs, seed=seed)
            rng = random.Random(seed)
            while not state.hands and not state.is_terminal():
                seat = state.current_player()
                if seat < 0:
                    state.deal_shuffled()
                    continue
                legal = state.legal_actions()
                agent = ours if rs.tables.team_of[seat] == our_team else theirs
                state.apply(legal[0] if len(legal) == 1 else agent.act(state, legal, rng))
            hand = state.hands[0]
            pair_win += 0.5 * (hand.winner == our_team)
            pair_gain += 0.5 * sign * (hand.deltas[1 - our_team] - hand.deltas[our_team])
        wins.append(pair_win)
        gains.append(pair_gain)
        print(json.dumps({"pair": index, "win": pair_win, "gain": pair_gain}), flush=True)
    print(json.dumps({"ruleset": args.ruleset, "iterations": args.iterations, "pairs": args.pairs,
                      "hands": 2 * args.pairs, "hand_win": mean_t(wins).to_dict(),
                      "gain_per_hand": mean_t(gains).to_dict(), "seconds": time.perf_counter() - began}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
