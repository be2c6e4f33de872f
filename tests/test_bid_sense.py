"""Contract bids where the agents were known to be poor (docs/agents.md, *Decisions that are not
cards*): greedy opened an open auction on any hand whose best strain beat a pass, so no deal was
passed out; the searches overruled greedy's contract choice on the best of several noisy gains,
each asked for one standard error as if it were the only one (`family=1` asks the family's;
off by default, measured in docs/agents.md)."""
from __future__ import annotations

import math
import random

import pytest

from couillon_dsl.agents import AgentSpecError, make_agent
from couillon_dsl.agents.greedy import OPENING_PROMISE, PARTNER_NAMED, hand_value, strain_context
from couillon_dsl.agents.pimc import PimcAgent
from couillon_dsl.agents.playout import family_z
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from example_games import FOLDER
from packs import dealt, say

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
    rng = random.Random(3)
    agent = make_agent("greedy")
    hands = []
    for seed in range(4):  # four games of 16 boards
        state = GameState(BRIDGE, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(rng.choice(state.legal_actions()))
            else:
                state.apply(agent.act(state, state.legal_actions(), rng))
        hands += state.hands
    thrown = sum(hand.outcome == "passed_out" for hand in hands)
    assert 0 < thrown < len(hands) / 8


def test_greedy_refuses_a_promise_setting_other_than_0_or_1() -> None:
    with pytest.raises(AgentSpecError, match="promise must be 1"):
        make_agent("greedy:promise=2")


def test_the_evidence_grows_with_the_alternatives_to_greedys_choice() -> None:
    assert family_z(1.0, 1) == 1.0  # one alternative: one comparison
    # Bonferroni: P(Z > 1) = 0.1587 split among seven alternatives, 0.0227: z = 2.00
    assert family_z(1.0, 7) == pytest.approx(2.0, abs=0.005)
    assert family_z(1.0, 7) < family_z(1.0, 35)
    one, family = PimcAgent(samples=8), PimcAgent(samples=8, family=1)  # the default: one comparison
    gain, variance = 0.015, 0.01 ** 2  # 1.5 standard errors
    assert one.overrules(gain, variance, 7)  # the best of seven gains, each judged alone
    assert not family.overrules(gain, variance, 7)
    assert family.overrules(gain, variance, 1)
    assert family.overrules(2.1 * math.sqrt(variance), variance, 7)
    assert PimcAgent(samples=8, evidence=0).overrules(1e-9, variance, 7)  # evidence 0: any gain


def test_with_family_a_contract_choice_needs_the_familys_evidence_to_overrule_greedy() -> None:
    """The reservation of examples/doppelkopf.yaml: a pass (greedy's) and seven solos. Played-out
    values in which the last solo beats the pass by 1.5 standard errors in the paired worlds: it
    overrules greedy judged alone, not as the best of seven."""
    rs = build_ruleset(str(FOLDER / "doppelkopf.yaml"))
    state = GameState(rs, seed=1)
    while state.current_player() < 0:
        state.deal_shuffled()
    legal = state.legal_actions()
    agent = PimcAgent(samples=16, family=1)
    base = agent._greedy.act(state, legal, random.Random(0))
    assert state.action_to_string(base) == "pass"
    solo = legal[-1]
    worlds = 16
    gains = [0.03 if w % 2 else -0.03 for w in range(worlds)]  # mean 0, spread 0.031: its standard error 0.0077
    shift = 1.5 * math.sqrt(sum(g * g for g in gains) / (worlds - 1) / worlds)
    values = [[0.5 + (shift + gains[w] if a == solo else 0.0) for a in legal] for w in range(worlds)]
    for family, chosen in ((1, base), (0, solo)):
        agent = PimcAgent(samples=16, family=family)
        assert agent.best_played_out(state, legal, random.Random(0), 2, values) == chosen
