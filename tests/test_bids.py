"""Bids of a number of tricks (the `bids` section; examples/oh-hell.yaml and examples/spades.yaml).

Who bids when, which bids are allowed (the hook), what every seat sees of them, how the
scoring reads them (``bid(team)``, a partnership's two bids added), and greedy's bids and
play: it bids what its hand is worth to its side and, once its side has its bid, stops
taking tricks where the scoring makes one too many cost.
"""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from couillon_dsl import api
from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import over_bid_costs, wants_tricks
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.kernel.eligible import ruleset_reason
from tests.example_games import FOLDER

OH_HELL = api.load(FOLDER / "oh-hell.yaml", {"schedule": "fixed"})  # ten cards every deal
SPADES = api.load(FOLDER / "spades.yaml")


def bidding(rs, seed: int = 1) -> GameState:
    """A game of ``rs`` dealt at random and waiting for the first bid."""
    state = api.new_game(rs, seed=seed)
    state.deal_shuffled(random.Random(seed))
    assert state.view(0).phase == "bid"
    return state


def bid(state: GameState, number: int) -> None:
    state.apply(state.string_to_action(None, f"bid {number}"))


def test_every_seat_bids_once_from_the_elder_before_the_first_lead():
    state = bidding(OH_HELL)
    elder = (state.dealer + 1) % 4
    order = []
    for number in (2, 3, 1, 0):
        order.append(state.current_player())
        bid(state, number)
    assert order == [elder, (elder + 1) % 4, (elder + 2) % 4, state.dealer]
    view = state.view(2)
    assert view.phase == "play" and view.current_player == elder
    expected = [0] * 4
    for seat, number in zip(order, (2, 3, 1, 0)):
        expected[seat] = number
    assert view.bids == tuple(expected) == state.bids


def test_the_hook_bars_only_the_last_bid_that_makes_the_total():
    state = bidding(OH_HELL)
    for number in (2, 3, 1):
        assert [state.action_to_string(a) for a in state.legal_actions()] == [f"bid {n}" for n in range(11)]
        bid(state, number)
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert "bid 4" not in legal and len(legal) == 10  # 2 + 3 + 1 + 4 would be the ten tricks
    with pytest.raises(IllegalAction, match="may not make the bids add up to the 10 tricks"):
        bid(state, 4)
    bid(state, 5)
    assert state.view(0).phase == "play"


def test_without_the_hook_the_last_bidder_may_bid_anything():
    state = bidding(api.load(FOLDER / "oh-hell.yaml", {"hook": False, "schedule": "fixed"}))
    for number in (2, 3, 1):
        bid(state, number)
    assert len(state.legal_actions()) == 11
    bid(state, 4)


def test_bids_outside_the_range_are_refused_with_the_range(tmp_path):
    variant = tmp_path / "from-one.yaml"
    variant.write_text(f"extends: {FOLDER / 'oh-hell.yaml'}\nid: from-one\nname: From one\nbids: {{lowest: 1}}\n")
    state = bidding(api.load(variant, {"schedule": "fixed"}))
    assert [state.action_to_string(a) for a in state.legal_actions()] == [f"bid {n}" for n in range(1, 11)]
    with pytest.raises(IllegalAction, match="bids go from 1 to 10"):
        bid(state, 0)
    with pytest.raises(ValueError, match="'11' is not a number of tricks one may bid"):
        bid(state, 11)


def test_bids_are_public_as_they_are_made():
    state = bidding(OH_HELL)
    first = state.current_player()
    bid(state, 3)
    for seat in range(4):
        view = state.view(seat)
        assert view.bids[first] == 3 and view.bids.count(-1) == 3
        assert view.current_player == (first + 1) % 4


def spades_hand(seed: int, numbers: tuple[int, ...]):
    """The summary of a Spades hand whose seats bid ``numbers`` in turn from the elder and then
    play random legal cards."""
    state = bidding(SPADES, seed=seed)
    for number in numbers:
        bid(state, number)
    rng = random.Random(seed)
    while len(state.hands) < 1:
        state.apply(rng.choice(state.legal_actions()))
    return state.hands[0]


def contract_score(hand, team: int) -> int:
    """The partnership contract as the rule text scores it: ten a trick bid and one an overtrick, or ten a trick bid lost."""
    side_bid = sum(b for seat, b in enumerate(hand.bids) if SPADES.tables.team_of[seat] == team)
    taken = hand.tricks[team]
    return 10 * side_bid + taken - side_bid if taken >= side_bid else -10 * side_bid


def test_a_partnership_scores_on_the_sum_of_its_two_bids():
    """Spades: a side that takes at least its two bids added scores ten a bid and one an overtrick."""
    hand = spades_hand(3, (4, 2, 3, 1))  # the elder's side bids 4 + 3 = 7, the dealer's 2 + 1 = 3
    elder = (hand.dealer + 1) % 4
    assert [hand.bids[(elder + i) % 4] for i in range(4)] == [4, 2, 3, 1]
    assert hand.deltas == (contract_score(hand, 0), contract_score(hand, 1))


def test_bids_are_actions_a_record_replays():
    rng = random.Random(5)
    state = api.new_game(OH_HELL, seed=5)
    agent = make_agent("greedy")
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal_shuffled(rng)
        else:
            state.apply(agent.act(state, state.legal_actions(), rng))
    replay = GameState(OH_HELL)
    for action in state.history():
        replay.apply(action)
    assert replay.hands == state.hands and replay.result == state.result


def test_rulesets_with_bids_are_not_in_the_kernel_and_have_no_rollout():
    assert "bids" in (ruleset_reason(OH_HELL) or "")
    assert OH_HELL.rollout is None and SPADES.rollout is None


def test_greedy_bids_more_on_a_stronger_hand():
    """The same seat, the same trump and bids before it: a hand of the top cards bids more than a
    hand of low cards, and never outside the legal bids."""
    agent = make_agent("greedy")
    state = bidding(OH_HELL, seed=7)
    seat = state.current_player()
    trump = state.context.trump_mask
    layout = OH_HELL.layout
    high = sorted(range(layout.size), key=lambda c: layout.rank_of(c))[:10]  # aces, kings, queens ...
    low = sorted(range(layout.size), key=lambda c: -layout.rank_of(c))
    low = [c for c in low if not trump >> c & 1][:10]
    bids = []
    for cards in (high, low):
        world = state.clone()
        world._hands[seat] = sum(1 << c for c in cards)  # a test's own deal of the seat's cards
        legal = world.legal_actions()
        bids.append(agent.act(world, legal, random.Random(0)) - world.actions.bid0)
    assert bids[0] > bids[1] >= 0


def test_greedy_stops_taking_tricks_once_an_exact_bid_is_made():
    """Oh Hell pays only an exact bid: a trick over it costs (Spades' overtrick, a point and a
    bag: tests/test_tallies.py)."""
    assert over_bid_costs(OH_HELL, 10, (2, 3, 1, 5), 0)
    state = bidding(OH_HELL, seed=2)
    for number in (0, 0, 0, 0):
        bid(state, number)
    assert not any(wants_tricks(state, seat) for seat in range(4))  # each has its 0 tricks already


@pytest.mark.parametrize("rs", [OH_HELL, SPADES], ids=["oh-hell", "spades"])
def test_greedy_beats_random_players(rs):
    """Greedy's bids and play against random ones: far more than a fair share of the games."""
    seats = "greedy,random,random,random" if rs is OH_HELL else "greedy,random"
    sim = api.simulate(rs, games=60, seed=4, agents=seats)
    assert sim.tally.team_wins[0] >= 40


def test_a_search_overrules_greedy_only_on_enough_worlds():
    """Three worlds that agree exactly are no evidence: a dozen bids played out over a long hand
    get that few in a decision's time, and chance then overruled greedy's bid."""
    from couillon_dsl.agents.playout import EVIDENCE_WORLDS, paired_gain

    agreeing = [[0.5, 0.6]] * 3
    assert paired_gain(agreeing, 1, 0) == (pytest.approx(0.1), float("inf"))
    enough = [[0.5, 0.6 + 0.01 * (i % 2)] for i in range(EVIDENCE_WORLDS)]
    gain, variance = paired_gain(enough, 1, 0)
    assert gain == pytest.approx(0.105) and 0 < variance < 1e-4
    assert not make_agent("pimc").overrules(*paired_gain(agreeing, 1, 0))


def test_the_sampler_reads_a_bid_as_an_estimate_within_one_trick():
    """A world is kept when greedy, holding its cards, would have bid within one trick of the bid
    made (strength 1: a world further off is always dropped)."""
    from couillon_dsl.agents.sampler import BID_SLACK, Reading

    state = bidding(OH_HELL, seed=9)
    bidder = state.current_player()
    reading = Reading((bidder + 1) % 4, 1.0, random.Random(0))
    legal = state.legal_actions()
    model = make_agent("greedy").act(state, legal, random.Random(0))
    for action in legal:
        assert reading.believes(state, action) == (abs(action - model) <= BID_SLACK)


def test_seat_names_each_player_only_in_a_rule_for_each_seat():
    """`seat` is bound by `for_each: seat`; the seat functions take a seat, not a team."""
    from couillon_dsl.expr import EACH_SEAT, ExprNames, check_expression

    inside = ExprNames(bound=frozenset({EACH_SEAT}))
    assert check_expression("seat_bid(seat) == 0 and seat_tricks(seat) > 0", "bool", inside) == []
    assert check_expression("team_of(seat) == winner", "bool", inside) == []
    outside = check_expression("seat_tricks(seat) == 0", "bool", ExprNames())
    assert [d.code for d in outside] == ["expr-unknown-name"] and "for_each: seat" in (outside[0].hint or "")
    assert [d.code for d in check_expression("seat_tricks(winner) == 0", "bool", inside)] == ["expr-type"]
    assert [d.code for d in check_expression("seat_bid(seat) == 0", "bool", replace(inside, bids=False))] \
        == ["bid-without-bids"]


def test_a_nil_is_its_bidders_own_within_the_partnership():
    """Spades' nil rule, per seat: +100 to the team of a nil bidder who took nothing, -100 if he took any."""
    hand = spades_hand(11, (0, 3, 4, 0))
    team_of = SPADES.tables.team_of
    taken = [sum(winner == seat for _, _, winner in hand.played_tricks) for seat in range(4)]
    for team in (0, 1):
        nil = sum(100 if taken[seat] == 0 else -100 for seat in range(4) if team_of[seat] == team and hand.bids[seat] == 0)
        assert hand.deltas[team] == contract_score(hand, team) + nil


def test_greedy_never_plays_to_take_a_trick_after_bidding_nothing_scored_apart():
    """Spades' nil is the bidder's own: greedy ducks with it even while its partner is short."""
    state = bidding(SPADES, seed=12)
    first = state.current_player()
    for number in (0, 3, 4, 2):
        bid(state, number)
    partner = (first + 2) % 4
    assert not wants_tricks(state, first) and wants_tricks(state, partner)


def test_a_search_out_of_time_drops_the_world_it_could_not_finish_and_bids_as_greedy():
    """A Spades bid, fourteen numbers each played out over a whole hand, cannot finish one world in
    a millisecond: the world is dropped at the deadline (not finished long after it), and with no
    world greedy's bid stands."""
    from couillon_dsl.agents.pimc import PimcAgent

    state = bidding(SPADES, seed=3)
    legal = state.legal_actions()
    agent = PimcAgent(ms=1)
    scale, deadline = agent.deadline(state, legal)
    assert agent.played_out(state, legal, random.Random(0), scale * agent.samples, deadline, 0.0) == []
    assert agent.act(state, legal, random.Random(0)) == make_agent("greedy").act(state, legal, random.Random(0))


def test_bidders_tricks_keeps_a_nil_bidders_tricks_apart():
    """``bidders_tricks(team)``: the team's tricks less those of its seats that bid nothing; a seat
    the facts say nothing of (an agent's estimate) counts as a bidder."""
    from couillon_dsl.expr import ExprNames, HandFacts, compile_expression, facts_read

    fn = compile_expression("bidders_tricks(team)", "int", ExprNames(bound=frozenset({"team"})))
    facts = HandFacts(tricks=(5, 8), seat_tricks=(3, 2, 2, 6), seat_bids=(0, 1, 4, 2), seat_sides=(0, 1, 0, 1))
    assert [fn(facts._replace(each_team=t)) for t in (0, 1)] == [2, 8]
    assert fn(HandFacts(tricks=(5, 8), seat_sides=(0, 1, 0, 1), each_team=0)) == 5
    assert {"tricks", "seat_tricks", "seat_bids", "seat_sides"} <= facts_read("bidders_tricks(winner)")


def test_pagats_own_nil_reading_leaves_greedy_playing_for_the_partners_bid():
    """With nil_tricks=apart the nil bidder still ducks, and his partner still plays for tricks."""
    rs = api.load(FOLDER / "spades.yaml", {"nil_tricks": "apart"})
    state = bidding(rs, seed=2)
    elder = (state.dealer + 1) % 4
    for number in (0, 3, 4, 3):  # the elder bids nil, its partner 4
        bid(state, number)
    assert not wants_tricks(state, elder)
    assert wants_tricks(state, (elder + 2) % 4)
