"""The uniform random player: a baseline, and the policy the engine's fast path reproduces."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:
    from couillon_dsl.engine import GameState


class RandomAgent:
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        return legal[int(rng.random() * len(legal))]
