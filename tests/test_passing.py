"""Cards passed before play (the `passing` section; examples/hearts.yaml passes three).

Who passes when and to whom, hand by hand; that a passed card leaves at once and arrives
only when everyone has passed; what each seat sees of it (its own passes and what it
received, never two other seats' passes); the worlds the searches draw (they agree with
what the seat gave and got, and vary what it cannot know); greedy's passes; and what the
checks refuse.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl import api
from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.cards import iter_bits
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.kernel.eligible import ruleset_reason
from tests.example_games import FOLDER
from variants import refused

HEARTS = api.load(FOLDER / "hearts.yaml")


def passing(seed: int = 1) -> GameState:
    """A game of Hearts dealt at random and waiting for the first card to be passed."""
    state = api.new_game(HEARTS, seed=seed)
    state.deal_shuffled(random.Random(seed))
    assert state.view(0).phase == "pass"
    return state


def give(state: GameState, card: int) -> None:
    state.apply(state.actions.give0 + card)


def pass_all(state: GameState) -> dict[int, int]:
    """Every seat passes its three highest cards (the lowest card ids); what each gave."""
    gave: dict[int, int] = {}
    while state.view(0).phase == "pass":
        seat = state.current_player()
        card = min(iter_bits(state.hand_of(seat)))
        gave[seat] = gave.get(seat, 0) | 1 << card
        give(state, card)
    return gave


def test_each_seat_passes_three_cards_in_turn_from_the_elder_and_receives_them_after_everyone():
    state = passing()
    elder = (state.dealer + 1) % 4
    dealt = [state.hand_of(s) for s in range(4)]
    order = []
    while state.view(0).phase == "pass":
        seat = state.current_player()
        order.append(seat)
        card = min(iter_bits(state.hand_of(seat)))
        give(state, card)
        assert not state.hand_of(seat) >> card & 1  # gone at once
        if state.view(0).phase == "pass":
            assert all(state.hand_of(s) & ~dealt[s] == 0 for s in range(4))  # nothing arrives before the end
    assert order == [(elder + k // 3) % 4 for k in range(12)]
    for seat in range(4):  # the first hand passes to the next seat in the order of play (the left)
        view = state.view((seat + 1) % 4)
        assert view.received == state.view(seat).passed and view.received.bit_count() == 3
        assert state.hand_of((seat + 1) % 4) & view.received == view.received
    assert state.view(0).phase == "play" and all(state.hand_of(s).bit_count() == 13 for s in range(4))


def test_the_two_of_clubs_is_led_by_whoever_holds_it_after_the_exchange():
    state = passing(seed=4)
    two = HEARTS.layout.parse("2C")
    holder = next(s for s in range(4) if state.hand_of(s) >> two & 1)
    while state.view(0).phase == "pass":  # the holder passes the two of clubs, the others their lowest ids
        seat = state.current_player()
        has = state.hand_of(seat) >> two & 1
        give(state, two if has and seat == holder else min(iter_bits(state.hand_of(seat) & ~(1 << two))))
    assert state.current_player() == (holder + 1) % 4
    assert state.legal_actions() == [two]


@pytest.mark.parametrize("hand, offset", [(0, 1), (1, 3), (2, 2), (3, 0), (4, 1)])
def test_the_direction_follows_the_hand_number(hand: int, offset: int):
    """Left, right, across, no pass, then left again (pagat)."""
    assert HEARTS.passing is not None and HEARTS.passing.offset(hand, 4) == offset


def test_a_hand_without_passing_goes_straight_to_play():
    state = api.new_game(HEARTS, seed=2)
    state._game_hands = 3  # a test's own shortcut to the fourth hand of the game
    state.deal_shuffled(random.Random(2))
    assert state.view(0).phase == "play" and state.view(0).passed == 0


def test_a_refused_pass_says_why():
    state = passing()
    seat = state.current_player()
    other = min(iter_bits(state.hand_of((seat + 1) % 4)))
    with pytest.raises(IllegalAction, match=f"{HEARTS.layout.name(other)} is not in seat {seat}'s hand"):
        give(state, other)
    with pytest.raises(IllegalAction, match="must pass a card now"):
        state.apply(min(iter_bits(state.hand_of(seat))))  # a card played, not passed
    assert state.action_to_string(state.actions.give0 + other) == f"pass {HEARTS.layout.name(other)}"
    assert state.string_to_action(None, f"pass {HEARTS.layout.name(other)}") == state.actions.give0 + other


def test_a_seat_sees_its_own_passes_and_what_it_received_never_two_others_passes():
    state = passing(seed=3)
    gave = pass_all(state)
    for seat in range(4):
        view = state.view(seat)
        assert view.passed == gave[seat] and view.received == gave[(seat - 1) % 4]
    while not state.hands:
        state.apply(state.legal_actions()[0])
    summary = state.hands[0]
    assert summary.passed == tuple(gave[s] for s in range(4))


def test_the_sampler_puts_the_cards_passed_with_their_receiver_and_varies_the_rest():
    """After the exchange every world has the seat's passed cards in the receiver's hand (or
    played by him) and its received cards in its own; the other seats' hands differ from world
    to world. While seats are still passing, the worlds agree with the seat's view too."""
    state = passing(seed=5)
    greedy = make_agent("greedy")
    rng = random.Random(5)
    mid = None
    while state.view(0).phase == "pass":
        if mid is None and state.view(0).passed:  # seat 0 has passed a card, not yet received any
            mid = state.clone()
        state.apply(greedy.act(state, state.legal_actions(), rng))
    for _ in range(6):  # a few cards into the first trick
        state.apply(greedy.act(state, state.legal_actions(), rng))
    seat = 0
    view = state.view(seat)
    worlds = Sampler().worlds(state, seat, 12, random.Random(1))
    assert len(worlds) == 12
    played = {s: sum(1 << c for p, c in view.played if p == s) for s in range(4)}
    for world in worlds:
        assert world.view(seat) == view
        assert view.passed & ~(world.hand_of(1) | played[1]) == 0
    assert len({tuple(w.hand_of(s) for s in (1, 2, 3)) for w in worlds}) > 6
    assert mid is not None
    early = Sampler().worlds(mid, 0, 8, random.Random(2))
    assert early and all(w.view(0) == mid.view(0) for w in early)


def test_greedy_passes_the_worst_cards_to_hold_where_tricks_cost():
    """Hearts: the queen of spades first, then the highest hearts."""
    state = passing(seed=6)
    seat = state.current_player()
    layout = HEARTS.layout
    mine = [layout.parse(c) for c in ("QS", "AH", "2H", "KC", "3D")]
    state._hands[seat] = sum(1 << c for c in mine) | (state._hands[seat] & ~sum(1 << c for c in mine))  # test deal
    chosen = make_agent("greedy").act(state, state.legal_actions(), random.Random(0))
    assert layout.name(chosen - state.actions.give0) == "QS"


@pytest.mark.parametrize("spec", ["pimc:samples=4", "ismcts:iterations=40"])
def test_the_searches_play_hands_with_passing(spec: str):
    state = api.new_game(HEARTS, seed=7)
    agents = [make_agent(spec), make_agent("greedy"), make_agent("greedy"), make_agent("greedy")]
    rng = random.Random(7)
    while not state.hands:
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        seat = state.current_player()
        state.apply(agents[seat].act(state, state.legal_actions(), rng))
    assert state.hands[0].passed[0].bit_count() == 3


def test_the_checks_refuse_more_cards_than_a_hand_or_across_an_odd_table(tmp_path: Path):
    assert refused(tmp_path, FOLDER / "hearts.yaml", "passing: {cards: 14, to: [across]}\n") == ["passing-out-of-range"]


def test_the_kernel_declines_passing_and_the_option_removes_it():
    assert "`passing`" in (ruleset_reason(HEARTS) or "")
    plain = api.load(FOLDER / "hearts.yaml", {"passing": False})
    assert plain.passing is None


def test_what_two_other_seats_passed_does_not_reach_a_seats_worlds_or_choices():
    """Two games alike but for the cards a seat passed to another (neither of them seat 0): seat
    0's view is the same, and so are its worlds and the searches' choices."""
    two = HEARTS.layout.parse("2C")
    states = []
    for variant in (0, 1):
        state = passing(seed=8)
        while state.view(0).phase == "pass":
            seat = state.current_player()
            cards = sorted(iter_bits(state.hand_of(seat) & ~(1 << two)))
            # seat 2 gives seat 3 its lowest card ids in one game, its highest in the other
            pick = cards[-1] if seat == 2 and variant else cards[0]
            give(state, pick)
        states.append(state)
    assert states[0].hand_of(3) != states[1].hand_of(3)
    assert states[0].view(0) == states[1].view(0)
    worlds = [Sampler().worlds(s, 0, 6, random.Random(3)) for s in states]
    assert [[w.hand_of(x) for x in range(4)] for w in worlds[0]] == [[w.hand_of(x) for x in range(4)] for w in worlds[1]]
    while states[0].current_player() != 0:  # the same cards played in both up to seat 0's turn
        action = states[0].legal_actions()[0]
        for state in states:
            state.apply(action)
    legal = states[0].legal_actions()
    for spec in ("pimc:samples=6", "ismcts:iterations=40:worlds=6"):
        assert len({make_agent(spec).act(s, legal, random.Random(4)) for s in states}) == 1, spec


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), hand=st.integers(0, 3))
def test_the_exchange_moves_exactly_the_cards_passed(seed: int, hand: int):
    """Whatever is passed, in any hand of the cycle: after the exchange each seat holds what it
    was dealt, less what it gave, plus what its giver gave; nothing arrives before."""
    state = api.new_game(HEARTS, seed=seed)
    state._game_hands = hand  # a test's own shortcut to a later hand of the cycle
    rng = random.Random(seed)
    state.deal_shuffled(rng)
    dealt = [state.hand_of(s) for s in range(4)]
    offset = HEARTS.passing.offset(hand, 4)  # type: ignore[union-attr]
    while state.view(0).phase == "pass":
        state.apply(rng.choice(state.legal_actions()))
        assert all(state.hand_of(s) & ~dealt[s] == 0 for s in range(4) if state.view(0).phase == "pass")
    given = [state.view(s).passed for s in range(4)]
    assert all(g.bit_count() == (3 if offset else 0) for g in given)
    for s in range(4):
        assert state.hand_of(s) == dealt[s] & ~given[s] | given[(s - offset) % 4]
        assert state.view(s).received == (given[(s - offset) % 4] if offset else 0)
