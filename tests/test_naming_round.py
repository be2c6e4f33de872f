"""A second round naming trump (`offer.on_all_pass: name_other_suit`), as Euchre plays it.

The scenarios (tests/scenarios/euchre-*.yaml) check hand-made deals; these check the round
on random deals: what may be named, the dealer who must name, a deal thrown in, and the
searching agents' worlds after a suit was named.
"""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.api import load
from couillon_dsl.engine import GameState
from example_games import FOLDER

EUCHRE = str(FOLDER / "euchre.yaml")


def dealt(seed: int, stick: bool = False) -> GameState:
    """A new game of Euchre with its first deal made."""
    state = GameState(load(EUCHRE, {"stick_the_dealer": stick}), seed=seed)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


def all_pass(state: GameState) -> None:
    while state.phase == "offer":
        state.apply(state.actions.pass_)


@pytest.mark.parametrize("seed", range(5))
def test_the_second_round_offers_every_suit_but_the_refused_one(seed: int) -> None:
    state = dealt(seed)
    refused = state.ruleset.layout.suit_of(state.offered)  # type: ignore[arg-type]
    all_pass(state)
    acts = state.actions
    assert state.phase == "name" and state.current_player() == 1  # the elder speaks first again
    assert state.legal_actions() == [acts.pass_] + [acts.name0 + s for s in range(4) if s != refused]
    state.apply(acts.pass_)
    named = next(s for s in range(4) if s != refused)
    state.apply(acts.name0 + named)
    assert (state.phase, state.current_player()) == ("announce", 2)  # the maker may go alone
    state.apply(acts.decline)
    view = state.view(0)
    assert (view.trump, view.maker, view.phase) == (named, 0, "play")  # seat 2 named: team 0 makes
    assert view.decisions[-2:] == ((1, "pass"), (2, "name"))


def test_a_deal_refused_twice_is_thrown_in_and_the_next_dealer_deals() -> None:
    state = dealt(3)
    all_pass(state)
    for _ in range(4):
        state.apply(state.actions.pass_)
    assert state.hands[-1].trump_path == "redeal" and state.is_chance_node()
    assert state.dealer == 1


def test_a_dealer_who_must_name_cannot_pass() -> None:
    state = dealt(4, stick=True)
    all_pass(state)
    for _ in range(3):
        assert state.actions.pass_ in state.legal_actions()
        state.apply(state.actions.pass_)
    assert state.current_player() == state.dealer
    assert state.actions.pass_ not in state.legal_actions() and len(state.legal_actions()) == 3


@pytest.mark.parametrize("seed", range(8))
def test_worlds_after_a_suit_was_named_replay_the_real_decisions(seed: int) -> None:
    """The sampler's probe deals another pack, whose refused suit may be the one named: its
    worlds still replay every public decision, and keep the named trump and the maker."""
    state = dealt(seed)
    refused = state.ruleset.layout.suit_of(state.offered)  # type: ignore[arg-type]
    all_pass(state)
    named = (refused + 1 + seed % 3) % 4
    state.apply(state.actions.name0 + named)
    seat = state.current_player()
    worlds = Sampler().worlds(state, seat, 6, random.Random(seed))
    assert worlds
    for world in worlds:
        assert world.view(seat) == state.view(seat)
        assert world.view(seat).trump == named


def test_searching_agents_play_whole_games_through_the_second_round() -> None:
    rs = load(EUCHRE)
    agents = [make_agent("ismcts:iterations=20"), make_agent("pimc:samples=4")] * 2
    named = 0
    for seed in range(3):
        state, rng = GameState(rs, seed=seed), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            state.apply(agents[state.current_player()].act(state, legal, rng))
        named += sum(hand.trump_path == "named" for hand in state.hands)
    assert named  # the second round was reached and decided by the searches
