"""The sampler finds worlds late in a hand too: a Tarot taker who buried six cards unseen and has
since played some of the chien's cards (a chien card he played is not one he buried: counted as
buried, the worlds left too few cards to bury and none replayed), and a Doppelkopf wedding (a
contract only the holder of both queens of clubs may bid, `bidder_holds`: every world deals them
to its bidder; dealt at random, one world in a few fitted)."""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.actions import CHANCE
from example_games import FOLDER


def greedy_game(rs_name: str, seed: int, plays: int) -> GameState:
    """A game seeded ``seed`` played by greedy until ``plays`` cards of the first deal are played."""
    state = GameState(build_ruleset(rs_name), seed=seed)
    greedy, rng = GreedyAgent(), random.Random(seed)
    for _ in range(3000):
        seat = state.current_player()
        if seat == CHANCE:
            state.deal_shuffled()
            continue
        if len(state.view(max(seat, 0)).played) == plays:
            return state
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else greedy.act(state, legal, rng))
    raise AssertionError("the position was not reached")


def worlds_of(state: GameState) -> tuple[int, list[GameState]]:
    seat = state.current_player()
    view = state.view(seat)
    worlds = Sampler().worlds(state, seat, 8, random.Random(0))
    for world in worlds:
        assert world.view(seat) == view and world.hand_of(seat) == view.hand
    return seat, worlds


@pytest.mark.parametrize("plays", [50, 54])
def test_a_defender_late_in_a_petite_finds_worlds_where_the_taker_buried_no_chien_card_he_played(plays: int) -> None:
    """Seed 0: the taker (seat 0) plays a Petite and buries six cards the defenders do not see; 50
    and 54 cards on, the sampler found no world before."""
    state = greedy_game("tarot", 0, plays)
    seat, worlds = worlds_of(state)
    view = state.view(seat)
    taker = view.discarding_seat
    assert view.contract == "petite" and taker is not None and taker != seat
    played = sum(1 << card for s, card in view.played if s == taker)
    assert view.kitty & played  # he has played some of the chien's cards
    assert len(worlds) == 8
    for world in worlds:
        buried = world.view(taker).discarded
        assert buried.bit_count() == 6 and not buried & played
        assert not buried & world.hand_of(taker)


@pytest.mark.parametrize(("seed", "plays"), [(13, 1), (3, 20)])
def test_the_worlds_of_a_wedding_deal_both_queens_of_clubs_to_its_bidder(seed: int, plays: int) -> None:
    """Seeded greedy games in which a seat announced a wedding; another seat, ``plays`` cards on,
    found two or three worlds of eight before."""
    state = greedy_game(str(FOLDER / "doppelkopf.yaml"), seed, plays)
    seat, worlds = worlds_of(state)
    view = state.view(seat)
    bidder = view.deciding_seat
    assert view.contract == "wedding" and bidder is not None and bidder != seat
    rs = state.ruleset
    queens = rs.layout.copies_mask(rs.layout.parse("QC"))
    assert len(list(iter_bits(queens))) == 2
    played = sum(1 << card for s, card in view.played if s == bidder)
    assert len(worlds) == 8
    for world in worlds:
        assert (world.hand_of(bidder) | played) & queens == queens
