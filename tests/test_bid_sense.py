"""Contract bids where the agents were known to be poor (docs/agents.md, *Decisions that are not
cards*): greedy opened an open auction on any hand whose best strain beat a pass, so no deal was
passed out."""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import AgentSpecError, make_agent
from couillon_dsl.agents.greedy import OPENING_PROMISE, PARTNER_NAMED, hand_value, strain_context
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from example_games import FOLDER
from packs import dealt, played_hands, say

BRIDGE = build_ruleset(str(FOLDER / "bridge.yaml"))
# eight high-card points, six spades to the king-queen: no opening at a real table, an overcall at 1
SIX_SPADES = ("KS", "QS", "9S", "7S", "5S", "3S", "QH", "4H", "3H", "8D", "6D", "8C", "2C")


def cards(*names: str) -> list[int]:
    suits, ranks = BRIDGE.layout.suits, BRIDGE.layout.ranks_of(0)
    return [BRIDGE.layout.card(suits.index(name[-1]), ranks.index(name[:-1])) for name in names]


def says(spec: str, state: GameState) -> str:
    return state.action_to_string(make_agent(spec).act(state, state.legal_actions(), random.Random(0)))


def test_the_hand_falls_short_of_what_an_opening_bid_promises() -> None:
    # hand_value by hand: in spades KS and QS are beaten by one unseen card each (a half), every
    # spade counts a half more (3), the queen of hearts is beaten by two (0): 4 tricks; a fair
    # share of 13 tricks among four is 3.25, and an opening promises 0.75 of a tenth more (4.225)
    mask = sum(1 << c for c in cards(*SIX_SPADES))
    spades = BRIDGE.layout.suits.index("S")
    strain = next(i for i, (_, trump) in enumerate(BRIDGE.tables.auction_strains) if trump == spades)
    assert hand_value(strain_context(BRIDGE.tables, strain), mask) == 4.0
    assert 4.0 < 13 / 4 + OPENING_PROMISE * PARTNER_NAMED * 13


def test_greedy_passes_a_weak_hand_first_to_speak_that_it_used_to_open() -> None:
    assert says("greedy", dealt(BRIDGE, 0, {0: cards(*SIX_SPADES)})) == "pass"
    assert says("greedy:promise=0", dealt(BRIDGE, 0, {0: cards(*SIX_SPADES)})) == "bid 1 spades"


def test_once_someone_has_bid_the_weak_hand_competes_as_before() -> None:
    # passing no longer throws the deal in but leaves the contract to the opponents
    for spec in ("greedy", "greedy:promise=0"):
        state = dealt(BRIDGE, 0, {1: cards(*SIX_SPADES)})
        say(state, "bid 1 hearts")
        assert says(spec, state) == "bid 1 spades"


def test_some_deals_are_passed_out_and_most_are_bid() -> None:
    hands = played_hands(BRIDGE, range(4), make_agent("greedy"), random.Random(3))  # four games of 16 boards
    thrown = sum(hand.outcome == "passed_out" for hand in hands)
    assert 0 < thrown < len(hands) / 8


def test_greedy_refuses_a_promise_setting_other_than_0_or_1() -> None:
    with pytest.raises(AgentSpecError, match="promise must be 1"):
        make_agent("greedy:promise=2")
