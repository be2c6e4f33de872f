"""The sampler reads what public decisions say a seat held: a card of a call's ``otherwise`` tier
(Sheepshead's fail ten, called by a picker holding the three fail aces) is callable only by a
declarer holding every card of the tiers before, so every world deals him those cards and keeps them
out of his unseen bury; an announcement only a card's holder may make (``holder_of``, the Mit) deals
that card to the announcer."""
from __future__ import annotations

import random

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.actions import CHANCE
from couillon_dsl.engine.call import needed_to_call
from example_games import FOLDER
from packs import pack_dealing, say

RS = build_ruleset(str(FOLDER / "sheepshead.yaml"), {"deals": 1})
LAYOUT = RS.layout
DEALER = 0  # seat 1 is the elder: he picks first and leads
ACES = LAYOUT.parse_mask(["AC", "AS", "AH"])
TEN = LAYOUT.parse("10C")


def ten_called(plays: int) -> GameState:
    """Seat 1 picks holding the three fail aces, buries 7D 8D, calls the ten of clubs (seat 3 holds it),
    and the first ``plays`` cards are played by greedy."""
    state = GameState(RS)
    state.apply(state.actions.dealer0 + DEALER)
    hands = {1: "AC AS AH QC QS 9C", 3: "10C"}
    ids = {seat: [LAYOUT.parse(name) for name in names.split()] for seat, names in hands.items()}
    state.deal_pack(pack_dealing(RS, DEALER, ids, [LAYOUT.parse("7D"), LAYOUT.parse("8D")], seed=4))
    say(state, "contract pick", "pass", "pass", "pass", "pass", "discard 7D", "discard 8D", "call 10C")
    greedy, rng = GreedyAgent(), random.Random(1)
    while len(state.view(1).played) < plays:
        legal = state.legal_actions()
        state.apply(greedy.act(state, legal, rng))
    return state


def test_a_ten_is_callable_only_holding_the_three_aces() -> None:
    table = RS.tables.calls[[c.id for c in RS.contracts].index("pick")]
    assert needed_to_call(table, TEN) == ACES
    assert needed_to_call(table, LAYOUT.parse("AC")) == 0


def test_the_worlds_of_a_ten_called_give_the_picker_the_three_aces() -> None:
    """Every defender, at every card of the first two tricks, finds worlds; in each the picker holds the
    three aces (or has played them), buried neither of them, the ten is with a seat other than the
    picker and partners him, and the seat's view is the real one (its cards, the cards played, the
    voids they showed)."""
    for plays in range(10):
        state = ten_called(plays)
        seat = state.current_player()
        if seat == 1:
            continue
        view = state.view(seat)
        worlds = Sampler().worlds(state, seat, 8, random.Random(plays))
        assert len(worlds) == 8, plays
        for world in worlds:
            played_by_picker = sum(1 << card for s, card in view.played if s == 1)
            assert (world.hand_of(1) | played_by_picker) & ACES == ACES
            assert world.view(seat) == view and world.hand_of(seat) == view.hand
            holder = next((s for s in range(5) if world.hand_of(s) >> TEN & 1), None)
            if holder is None:  # played: by the holder, as in the real game
                holder = next(s for s, card in view.played if card == TEN)
            assert holder != 1 and world.sides[holder] == world.sides[1]


MIT = build_ruleset("mit-8")
QS = MIT.layout.parse("QS")


def mit_announced() -> tuple[GameState, int]:
    """A Mit game for eight in which seat 4 holds the queen of spades and, at his turn in the first
    trick, announces the Mit; greedy decides everything else."""
    state = GameState(MIT)
    state.deal_pack(pack_dealing(MIT, state.view(0).dealer, {4: [QS]}, seed=2))
    greedy, rng = GreedyAgent(), random.Random(2)
    while not state.view(4).announcements:
        if state.current_player() == 4 and "announce mit" in [state.action_to_string(a) for a in state.legal_actions()]:
            say(state, "announce mit")
        else:
            state.apply(greedy.act(state, state.legal_actions(), rng))
    return state, 4


def test_the_worlds_after_the_mit_give_the_queen_of_spades_to_its_announcer() -> None:
    """Only the queen of spades' holder may announce the Mit: every other seat's worlds (each at its
    next decision) deal her to the announcer, and its own view comes out as it is."""
    state, announcer = mit_announced()
    greedy, rng = GreedyAgent(), random.Random(3)
    asked: set[int] = set()
    for _ in range(40):
        seat = state.current_player()
        if seat < 0:  # the hand is over
            break
        legal = state.legal_actions()
        if seat != announcer and seat not in asked and len(legal) > 1:
            asked.add(seat)
            worlds = Sampler().worlds(state, seat, 8, random.Random(seat))
            assert len(worlds) == 8, seat
            for world in worlds:
                played = sum(1 << card for s, card in state.view(seat).played if s == announcer)
                assert (world.hand_of(announcer) | played) >> QS & 1
                assert world.view(seat) == state.view(seat)
        state.apply(greedy.act(state, legal, rng))
    assert len(asked) >= 4


BELOTE = build_ruleset(str(FOLDER / "belote.yaml"))


def taken_then_meld_shown() -> tuple[GameState, int]:
    """A greedy Belote game (seeded) at the first decision of a seat other than the taker of the turned
    card after the taker has played it while one card of a meld he showed is still face up in his hand
    (as many as the turned card he took: the worlds once put the shown card where the turned card was
    dealt, and found none)."""
    greedy, rng = GreedyAgent(), random.Random(0)
    for game in range(40):
        state = GameState(BELOTE, seed=game)
        for _ in range(400):
            seat = state.current_player()
            if seat == CHANCE:
                state.deal_shuffled()
                continue
            if seat < 0:
                break
            view = state.view(seat)
            taker = next((s for s, card in view.played if card == view.taken), None)  # played the taken card
            if taker is not None and taker != seat and [h for _, h in view.face_up] == [taker]:
                return state, seat
            state.apply(greedy.act(state, state.legal_actions(), rng))
    raise AssertionError("no such position in 40 games")


def test_the_worlds_keep_the_taken_card_and_the_shown_meld_apart() -> None:
    """The turned card's taker played it and shows a meld card still in his hand: the worlds put the
    shown card in his hand, and the seat's view comes out as it is."""
    state, seat = taken_then_meld_shown()
    view = state.view(seat)
    worlds = Sampler().worlds(state, seat, 8, random.Random(1))
    assert len(worlds) == 8
    for world in worlds:
        assert world.view(seat) == view
        assert all(world.hand_of(holder) >> card & 1 for card, holder in view.face_up if holder is not None)
