"""Melds in a pack of copies (`deck.copies`), and melds laid down by everyone before the first lead.

examples/pinochle.yaml holds every card twice: a card named in a pattern is either copy, each copy
serves once (two marriages of one suit are two melds), `same_rank` counts suits (an ace of each
suit is 100 aces), and a pattern with `copies: 2` takes both copies of each card as one meld
(double pinochle, 1000 aces). Its melds are `when: before_first_lead`: every seat's, in turn from
the leader, shown before the first card is led.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.api import load
from couillon_dsl.explain import explain
from packs import agents_game, assert_replays, declaration_errors, stacked

ROOT = Path(__file__).resolve().parents[1]
PINOCHLE = str(ROOT / "examples" / "pinochle.yaml")
RS = load(PINOCHLE)
KINDS = {table.id: table for table in RS.tables.declarations}
# tests/scenarios/pinochle-melds-and-bid.yaml's deal: L holds 340 of melds in spades, the others two marriages each
DEAL = {"L": "AS 10S KS KS QS QS JS 9S AH AD AC JD", "P": "AH 10H 10H KH KH QH QH JH JH 9H 9H AS",
        "R": "AD 10D 10D KD KD QD QD JD 9D 9D 10S JS", "D": "AC 10C 10C KC KC QC QC JC JC 9C 9C 9S"}


def hand(*names: str) -> int:
    """A hand as written: a card named twice is both copies."""
    layout, mask = RS.layout, 0
    for name in names:
        free = layout.copies_mask(layout.parse(name)) & ~mask
        assert free, f"{name} is written more often than the pack holds it"
        mask |= free & -free
    return mask


def found(kind: str, cards: str, trump: str = "S") -> list[tuple[str, int, int]]:
    """The melds of ``kind`` in ``cards`` with ``trump``: (pattern name, value, number of cards), sorted."""
    table = KINDS[kind]
    suit = RS.layout.suits.index(trump)
    return sorted((table.labels[m.pattern], m.value, m.cards.bit_count())
                  for m in table.melds(hand(*cards.split()), suit, 0))


def test_a_second_copy_makes_a_second_meld_but_not_from_cards_already_used() -> None:
    # the flush's king and queen cannot be a royal marriage too; the second pair can; two nines, two dix
    assert found("sequences", "AS 10S KS KS QS QS JS 9S 9S KH QH KH QH") == [
        ("dix", 10, 1), ("dix", 10, 1), ("flush", 150, 5), ("marriage", 20, 2), ("marriage", 20, 2),
        ("royal marriage", 40, 2)]
    assert found("sequences", "AS 10S KS QS JS 9H") == [("flush", 150, 5)]
    assert found("sequences", "KS QS KS QS") == [("royal marriage", 40, 2), ("royal marriage", 40, 2)]
    assert found("sequences", "KS QS KS", trump="H") == [("marriage", 20, 2)]


def test_same_rank_counts_suits_and_copies_two_takes_both() -> None:
    assert found("arounds", "AS AS AH AH AD AD AC") == [("100 aces", 100, 4)]
    assert found("arounds", "AS AS AH AH AD AD") == []  # two suits twice is not an ace of each suit
    assert found("arounds", "AS AS AH AH AD AD AC AC") == [("1000 aces", 1000, 8)]
    assert found("arounds", "KS KH KD KC QS QH QD QC") == [("60 queens", 60, 4), ("80 kings", 80, 4)]
    assert found("pinochle", "QS QS JD") == [("pinochle", 40, 2)]
    assert found("pinochle", "QS QS JD JD") == [("double pinochle", 300, 4)]


def test_a_card_serves_in_melds_of_different_kinds() -> None:
    cards = "AS 10S KS QS JS AH AD AC JD"
    assert found("sequences", cards) == [("flush", 150, 5)]
    assert found("arounds", cards) == [("100 aces", 100, 4)]
    assert found("pinochle", cards) == [("pinochle", 40, 2)]


def test_every_seat_lays_its_melds_down_before_the_first_lead() -> None:
    state = stacked(RS, DEAL)
    for word in ("bid 200", "pass", "pass", "pass", "name S"):
        state.apply(state.string_to_action(None, word))
    view = state.view(3)  # the leader's right-hand opponent, before the first card is led
    assert view.phase == "play" and view.current_player == 1 and not view.played
    melds = {(seat, pattern) for _, pattern, seat, _, _ in view.melds}
    assert {(1, "flush"), (1, "royal marriage"), (1, "100 aces"), (1, "pinochle"), (2, "marriage"), (0, "dix")} <= melds
    shown = dict(view.face_up)
    for _, _, seat, _, cards in view.melds:
        assert cards and all(shown.get(card) == seat for card in range(RS.layout.size) if cards >> card & 1)


def test_explain_says_how_copies_serve() -> None:
    text = explain(RS)
    assert "Before the first card of the hand is led, every player holding one declares their Sequence" in text
    assert "four aces, one of each suit, 100 aces (100)" in text
    assert "two of each of the Q♠ and J♦, double pinochle (300)" in text
    assert "Each copy of a card serves once" in text


@pytest.mark.parametrize("declaration, code", [
    ("patterns: [{cards: [QS, JD], copies: 3, value: 5}]", "declaration-unreachable"),
    ("patterns: [{run: 3, copies: 2, value: 5}]", "declaration-pattern-shape"),
    ("when: last_card_played\n    patterns: [{cards: [KT, QT], value: 5}]", "declaration-copies-when"),
    ("when: led\n    shown: true\n    patterns: [{cards: [KT, QT], value: 5}]", "declaration-copies-when"),
])
def test_checks(tmp_path: Path, declaration: str, code: str) -> None:
    assert code in declaration_errors(tmp_path, PINOCHLE, declaration)


def test_copies_two_and_one_are_different_patterns(tmp_path: Path) -> None:
    assert not declaration_errors(tmp_path, PINOCHLE, "patterns: [{cards: [QS, JD], value: 4}, "
                                                      "{cards: [QS, JD], copies: 2, value: 30}]")


@pytest.mark.parametrize("agent", ["random", "greedy", "pimc:samples=4", "ismcts:iterations=40"])
def test_agents_play_whole_games_that_replay(agent: str) -> None:
    rs = load(PINOCHLE, {"target": 500})
    rng = random.Random(7)
    players = [make_agent(agent) for _ in range(4)]
    state = agents_game(rs, players, rng)
    assert_replays(state)


def test_greedy_counts_the_melds_it_holds_towards_its_bid() -> None:
    from couillon_dsl.agents.greedy import GreedyAgent, own_melds

    spades = RS.layout.suits.index("S")
    assert own_melds(RS, hand(*DEAL["L"].split()), 0, spades) == ((200, 0), (100, 0), (40, 0))
    state = stacked(RS, DEAL)
    for word in ("bid 100", "bid 290", "pass", "pass"):
        state.apply(state.string_to_action(None, word))
    action = GreedyAgent().act(state, state.legal_actions(), random.Random(0))
    assert state.action_to_string(action) == "bid 300"  # 340 of melds and a trump suit
    weak = stacked(RS, {"L": "9S 9S 9H 9D 9C JS JH JC 10S 10H QD QC"})  # two dix at most, no long suit
    for word in ("bid 100", "bid 290", "pass", "pass"):
        weak.apply(weak.string_to_action(None, word))
    assert weak.action_to_string(GreedyAgent().act(weak, weak.legal_actions(), random.Random(0))) == "pass"


@settings(max_examples=200, deadline=None)
@given(st.permutations(range(RS.layout.size)), st.integers(0, 3))
def test_melds_use_each_copy_once_and_leave_no_combination_unclaimed(order: list[int], trump: int) -> None:
    """In any hand, a kind's melds are held, share no card, are as long as their pattern asks, and no
    further combination of the kind could be formed from the cards they leave."""
    cards = sum(1 << c for c in order[:12])
    for table in RS.tables.declarations:
        melds = table.melds(cards, trump, 0)
        used = 0
        for meld in melds:
            assert meld.cards & cards == meld.cards and not meld.cards & used
            used |= meld.cards
            pattern = RS.declarations[table.index].patterns[meld.pattern]
            size = len(pattern.cards) * pattern.copies if pattern.cards else (pattern.count or 4) * pattern.copies
            assert meld.cards.bit_count() == size and meld.value == pattern.value
        assert not table.melds(cards & ~used, trump, 0)  # what is left forms nothing more
