"""The rulesets as OpenSpiel games and PettingZoo environments (the ``rl`` extra; skipped without it)."""
from __future__ import annotations

import random

import pytest

from couillon_dsl.engine import GameState

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402  (comes with the extra)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import couillon_dsl.interop.openspiel  # noqa: E402,F401  (registers the game)
from couillon_dsl.interop.encoding import ViewEncoder  # noqa: E402
from couillon_dsl.interop.pettingzoo import env  # noqa: E402


def dealt(game, seed: int):
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


@pytest.mark.parametrize("name", ["couillon", "mit"])
def test_openspiel_consistency_checks_pass_on_one_hand(name: str) -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": name, "hands": 1})
    assert game.num_players() == 4
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_plays_a_whole_game_by_default() -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "couillon"})
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()) if not state.is_chance_node()
                           else rng.choice([a for a, _ in state.chance_outcomes()]))
    returns = state.returns()
    assert sorted(returns) == [-1.0, -1.0, 1.0, 1.0]
    assert returns[0] == returns[2] and returns[1] == returns[3]  # partners share the result


def test_openspiel_strings_and_tensors_come_from_the_seat_view_only() -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "couillon", "hands": 1})
    state = dealt(game, 4)
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    # another deal of the hidden cards: the seat cannot tell, the others can
    assert any(other.engine.hand_of(s) != state.engine.hand_of(s) for s in range(4) if s != seat)
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.observation_tensor(seat) == state.observation_tensor(seat)
    assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert len(state.observation_tensor(seat)) == ViewEncoder(game.setup().ruleset).size


def test_openspiel_ismcts_bot_plays_the_game() -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "couillon", "hands": 1})
    state = dealt(game, 1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(5)), 2.0, 20,
                           random_state=np.random.RandomState(5))
    assert bot.step(state) in state.legal_actions()


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # dict observations with masks, as PettingZoo's classic games
@pytest.mark.parametrize("name", ["couillon", "kwajongen", "couillon-force"])
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(env(name), num_cycles=200, verbose_progress=False)


def test_pettingzoo_rewards_follow_the_scoresheet_and_masks_the_legal_actions() -> None:
    e = env("couillon", lines=7)
    e.reset(seed=5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        mask = observation["action_mask"]
        assert list(mask.nonzero()[0]) == e.state.legal_actions()
        e.step(int(random.Random(len(e.state.history())).choice(mask.nonzero()[0])))
    state: GameState = e.state
    assert state.result is not None
    winner = state.result.winner
    final = state.scores
    # each seat's rewards add up to its team's progress from 7 lines, less the other team's
    for seat, agent in enumerate(e.possible_agents):
        team = state.ruleset.tables.team_of[seat]
        assert totals[agent] == pytest.approx((7 - final[team]) - (7 - final[1 - team]))
    assert totals[f"seat_{state.ruleset.players.teams[winner][0]}"] > 0


def test_pettingzoo_observations_are_the_seat_view() -> None:
    e = env("couillon")
    e.reset(seed=1)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    observation = e.observe(agent)["observation"]
    assert list(observation) == pytest.approx(ViewEncoder(e.ruleset).encode(e.state.view(seat)))
    other = e.possible_agents[(seat + 1) % 4]
    assert not e.observe(other)["action_mask"].any()  # not its turn: nothing legal
