"""Packets dealt to the declarer after the decision, and an offered card kept without a discard
(`to: declarer` / `all_but_declarer`, `offer.taken_by: declarer` with `taker_discards: false`),
as examples/belote.yaml uses them: the taker keeps the turned card and receives two more, the
others three, whether he took the card or named another suit.
"""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.api import load
from couillon_dsl.cards import iter_bits
from couillon_dsl.engine import GameState
from couillon_dsl.kernel.eligible import ruleset_reason
from example_games import FOLDER
from honesty import same_worlds, swapped_game, worlds_of

BELOTE = load(str(FOLDER / "belote.yaml"))
ACTS = GameState(BELOTE).actions
GREEDY = make_agent("greedy")


def decided(seed: int, second_round: bool) -> tuple[GameState, int, int]:
    """A first deal whose trump is fixed by the ``seed % 4``-th seat to speak: taking the turned
    card in the first round, or (all four passing it) naming another suit in the second;
    (state, taker, turned card)."""
    state = GameState(BELOTE, seed=seed)
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply(rng.choice([a for a, _ in state.chance_outcomes()]))
    turned = state.offered
    assert turned is not None
    for _ in range(4 if second_round else 0):
        state.apply(ACTS.pass_)
    for _ in range(seed % 4):
        state.apply(ACTS.pass_)
    taker = state.current_player()
    state.apply(next(a for a in state.legal_actions() if a != ACTS.pass_) if second_round else ACTS.accept)
    return state, taker, turned


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("second_round", [False, True])
def test_the_taker_keeps_the_turned_card_and_everyone_ends_with_eight(seed: int, second_round: bool) -> None:
    state, taker, turned = decided(seed, second_round)
    assert state.phase == "play" and state.view(0).decisions[-1] == (taker, "name" if second_round else "accept")
    assert state.hand_of(taker) >> turned & 1
    assert [state.hand_of(s).bit_count() for s in range(4)] == [8] * 4
    union = 0
    for s in range(4):
        assert not union & state.hand_of(s)
        union |= state.hand_of(s)
    assert union == BELOTE.layout.full_mask  # all 32 dealt once: the stock is used up
    assert state.view((taker + 1) % 4).taken == turned  # public: everyone saw it go to the taker


@pytest.mark.parametrize("seed", range(4))
def test_every_world_gives_the_taker_the_turned_card_and_honours_what_is_hidden(seed: int) -> None:
    state, taker, turned = decided(seed, second_round=bool(seed % 2))
    rng = random.Random(seed)
    for _ in range(3 + seed):  # a few cards into the first trick
        state.apply(GREEDY.act(state, state.legal_actions(), rng))
    seat = state.current_player()
    played = {card for _, card in state.view(seat).played}
    for world in worlds_of(state, seat, seed):
        assert world.view(seat) == state.view(seat)
        assert world.hand_of(taker) >> turned & 1 or turned in played
        assert [world.hand_of(s).bit_count() for s in range(4)] == [state.hand_of(s).bit_count() for s in range(4)]
    # two other seats' hidden cards trade places: where that leaves the seat's view as it was (no
    # meld shown or card played differs), nothing it samples or chooses may change
    others = [s for s in range(4) if s != seat]
    pairs = [(a, b) for a in iter_bits(state.hand_of(others[0])) for b in iter_bits(state.hand_of(others[1]))
             if turned not in (a, b)]
    twins = [twin for a, b in pairs[:12] if (twin := swapped_game(state, a, b)) is not None
             and twin.view(seat) == state.view(seat)]
    assert twins
    same_worlds(state, twins[0], seat, seed)


def test_the_fast_paths_decline_packets_by_declarer() -> None:
    assert BELOTE.rollout is None
    assert ruleset_reason(BELOTE) is not None
