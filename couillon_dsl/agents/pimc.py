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
from typing import TYPE_CHECKING, Sequence

from couillon_dsl.agents.playout import EVIDENCE, SearchAgent, explore_share, whole_count

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
        values = self.played_out(state, legal, rng, scale * self.samples, deadline, explore_share(scale))
        return self.best_played_out(state, legal, rng, scale, values)

    def worlds(self, state: GameState, seat: int, rng: random.Random) -> list[GameState]:
        """Up to ``samples`` states that agree with ``seat``'s view, hidden cards drawn at random."""
        return self._sampler.worlds(state, seat, self.samples, rng)

