"""Any ruleset as a PettingZoo AEC environment.

    from couillon_dsl.interop.pettingzoo import env
    e = env("couillon", lines=7)   # a built-in name or a path; keyword arguments are ruleset options
    e.reset(seed=1)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else int(mask.nonzero()[0][0]))

Agents are ``seat_0 .. seat_{n-1}``. An observation is a dict: ``observation`` (the seat's
view as floats, :mod:`~couillon_dsl.interop.encoding`) and ``action_mask`` (1 for each legal
action of the engine's numbering). Chance (the deal) is resolved inside the environment
from the seed given to ``reset``. Rewards come from the scoresheet: when a hand is scored,
each seat receives its team's progress towards the goal less the other teams' mean
progress. The episode ends with the game (or session); ``max_hands`` (0: none) truncates
it earlier.
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState
from couillon_dsl.interop.encoding import ViewEncoder


def env(ruleset: str = "couillon", *, max_hands: int = 0, render_mode: str | None = None,
        **options: Any) -> CouillonEnv:
    """The AEC environment of ``ruleset`` with ruleset options ``options``."""
    return CouillonEnv(ruleset, {k: str(v) for k, v in options.items()}, max_hands=max_hands, render_mode=render_mode)


class CouillonEnv(AECEnv):
    """A PettingZoo AEC environment over the engine's GameState."""

    metadata = {"name": "couillon_dsl_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset: str, options: dict[str, str], *, max_hands: int = 0,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.ruleset = rs = build_ruleset(ruleset, options)
        self.encoder = ViewEncoder(rs)
        self.max_hands = max_hands
        self.render_mode = render_mode
        n = rs.players.count
        acts = GameState(rs).actions  # the ruleset's numbering: contracts, pushes, discards, declarations
        self.nactions = acts.dealer0 + n
        self.possible_agents = [f"seat_{seat}" for seat in range(n)]
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.nactions,), np.int8),
        }) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.nactions) for agent in self.possible_agents}
        self.sign = 1 if rs.scoresheet.direction == "up" else -1  # progress = sign * delta
        self.state = GameState(rs)
        self._rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self.state = GameState(self.ruleset, seed=self._rng.getrandbits(64))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._deal()
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def _deal(self) -> None:
        while self.state.current_player() == CHANCE:
            self.state.deal_shuffled()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.nactions, np.int8)
        if self.state.current_player() == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": np.asarray(self.encoder.encode(self.state.view(seat)), np.float32),
                "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        if action is None or action not in state.legal_actions():
            raise ValueError(f"{agent}: action {action!r} is not legal now (see the action mask)")
        self._cumulative_rewards[agent] = 0.0
        scored = len(state.hands)
        state.apply(int(action))
        self._deal()
        self.rewards = {a: 0.0 for a in self.agents}
        team_of = self.ruleset.tables.team_of
        for hand in state.hands[scored:]:
            for seat, name in enumerate(self.possible_agents):
                own = hand.deltas[team_of[seat]]
                others = [d for t, d in enumerate(hand.deltas) if t != team_of[seat]]
                self.rewards[name] += float(self.sign * (own - sum(others) / len(others)))
        self._accumulate_rewards()
        if state.is_terminal():
            self.terminations = {a: True for a in self.agents}
        elif self.max_hands and len(state.hands) >= self.max_hands:
            self.truncations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        if self.render_mode == "ansi":
            print(self.render())

    def render(self) -> str:
        state = self.state
        return f"scores {list(state.scores)}, hands {len(state.hands)}, " + \
            (f"seat {state.current_player()} to act" if not state.is_terminal() else "over")

    def close(self) -> None:
        pass
