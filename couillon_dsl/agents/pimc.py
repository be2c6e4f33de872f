"""Perfect-information Monte Carlo: deal the unseen cards many ways, play each out, pick the best.

The worlds come from :class:`~couillon_dsl.agents.sampler.Sampler` (the rule-derived sampler
the searching agents share): whole games that agree with everything the seat knows. Every
legal action is played out in every world (:func:`~couillon_dsl.agents.playout.playout`),
and the action with the best total chance of winning the game wins; at a decision that is not
a card, only when it beats greedy's choice by ``evidence`` standard errors of the paired
differences (:class:`~couillon_dsl.agents.playout.SearchAgent`). The budget is a number
of worlds (a seeded run repeats exactly on any machine) or, with ``ms``, a time per decision;
each world is drawn when its turn comes, so a time budget pays only for the worlds it searches.
"""
from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Sequence

from couillon_dsl.agents.playout import EVIDENCE, SearchAgent, explore_share, outlook_of, paired_gain, whole_count, worth

if TYPE_CHECKING:
    from couillon_dsl.engine import GameState


class PimcAgent(SearchAgent):
    """Samples ``samples`` worlds (or as many as ``ms`` milliseconds allow) and plays every legal
    action out in each with a cheap policy."""

    name = "pimc"

    def __init__(self, samples: int = 24, ms: float = 0, evidence: float = EVIDENCE) -> None:
        whole_count("samples", samples)
        super().__init__(ms, evidence)
        self.samples = samples

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        scale, deadline = self.deadline(state, legal)
        seat = state.current_player()
        outlook = self._outlook = outlook_of(state.ruleset, self._outlook)
        team = state.ruleset.tables.team_of[seat]
        explore = explore_share(scale)
        values: list[list[float]] = []  # per world searched, each action's value
        while True:  # with ``ms``, batches of worlds until the time is up; each world drawn when reached
            searched = len(values)
            for world in self._sampler.draw(state, seat, scale * self.samples, rng):
                values.append([worth(world, action, team, outlook, rng, self._greedy, explore) for action in legal])
                if self.ms and time.perf_counter() > deadline:
                    break
            if len(values) == searched or not self.ms or time.perf_counter() > deadline:
                break
        if not values:
            return self._greedy.act(state, legal, rng)
        totals = [sum(column) for column in zip(*values)]
        best = max(range(len(legal)), key=totals.__getitem__)
        return self.settle(state, legal, rng, scale, legal[best], lambda base: paired_gain(values, best, legal.index(base)))

    def worlds(self, state: GameState, seat: int, rng: random.Random) -> list[GameState]:
        """Up to ``samples`` states that agree with ``seat``'s view, hidden cards drawn at random."""
        return self._sampler.worlds(state, seat, self.samples, rng)

