"""French Tarot's invariants on random deals (hypothesis): the 91 card points of every deal are all
counted, tricks and chien together; the four scores of every deal sum to zero, each defender paying
the taker a third of what the taker gets; and every score is the digest's formula (§1.10, the poignée
unmultiplied to the side that wins; the chelem +400 announced and made, -200 announced and failed,
+200 made unannounced, by either side, never multiplied; the taker leads after announcing it; the
Petit au bout counted in the second-to-last trick of a slam completed by the Excuse) worked out
here from the tricks alone, with the card values, the Excuse's rules and the chien's owner written
out independently of the engine."""
from __future__ import annotations

import random
from fractions import Fraction
from math import floor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import GreedyAgent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState, HandSummary
from couillon_dsl.simulation import play_game

VALUES = {"K": Fraction(9, 2), "Q": Fraction(7, 2), "C": Fraction(5, 2), "J": Fraction(3, 2)}
BOUTS = {"21T", "1T", "EX"}
MULTIPLIER = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
TARGET = {0: 56, 1: 51, 2: 41, 3: 36}


@pytest.fixture(scope="module")
def tarot():
    return build_ruleset("tarot")


def value(name: str) -> Fraction:
    return Fraction(9, 2) if name in BOUTS else VALUES.get(name[:-1], Fraction(1, 2))


def expected_per_defender(rs, hand: HandSummary) -> tuple[Fraction, int, bool]:
    """(the taker's card points, T per defender, whether he made his contract) by the digest's rules,
    from the hand's tricks."""
    name = rs.layout.name
    taker = hand.deciding_seat
    n = rs.players.count
    taker_cards: set[str] = set()
    taker_points = Fraction(0)
    taker_tricks = 0
    last = len(hand.played_tricks) - 1
    played = set()
    for i, (leader, cards, winner) in enumerate(hand.played_tricks):
        won_by_taker = winner == taker
        taker_tricks += won_by_taker
        for k, card in enumerate(cards):
            seat, card_name = (leader + k) % n, name(card)
            played.add(card_name)
            to_taker = won_by_taker
            if card_name == "EX" and seat != winner:
                if i < last:  # kept by its owner's side, half a point to the trick's winners
                    to_taker = seat == taker
                    exchange = Fraction(1, 2) if won_by_taker and not to_taker else -Fraction(1, 2) \
                        if to_taker and not won_by_taker else 0
                    taker_points += exchange
                else:  # the last trick: it changes sides (A31, the default)
                    to_taker = seat != taker
            if to_taker:
                taker_cards.add(card_name)
                taker_points += value(card_name)
    chien = {name(c) for c in range(rs.layout.size)} - played
    if hand.contract != "garde_contre":  # the chien counts for the taker (the defence in Garde contre)
        taker_cards |= chien
        taker_points += sum(map(value, chien))
    target = TARGET[len(taker_cards & BOUTS)]
    s = 1 if taker_points >= target else -1
    leader, last_cards, last_winner = hand.played_tricks[-1]
    # the Petit au bout: in the last trick, or the one before when the Excuse completed a slam by taking the last
    excuse_took_it = last_cards[(last_winner - leader) % n] == rs.layout.parse("EX")
    _, pb_cards, pb_winner = hand.played_tricks[-2 if excuse_took_it else -1]
    pb = 0
    if rs.layout.parse("1T") in pb_cards:
        pb = 10 if pb_winner == taker else -10
    announced = ("chelem", taker) in hand.announcements
    assert (hand.played_tricks[0][0] == taker) if announced else (hand.played_tricks[0][0] == (hand.dealer + 1) % n)
    slam, lost_all = taker_tricks == len(hand.played_tricks), taker_tricks == 0  # lost_all: the defence's slam
    chelem = (400 if slam else -200) if announced else 200 if slam else -200 if lost_all else 0
    poignee = s * sum(value for kind, _, _, value, _ in hand.melds if kind == "poignee")  # to the side that wins
    amount = (s * (25 + abs(taker_points - target)) + pb) * MULTIPLIER[hand.contract] + poignee + chelem
    return taker_points, floor(amount + Fraction(1, 2)), s == 1


def check_deal(rs, hand: HandSummary) -> None:
    assert sum(hand.deltas) == 0, "the four scores of a deal sum to zero"
    if hand.outcome == "passed_out":
        assert hand.deltas == (0, 0, 0, 0)
        return
    assert sum(hand.points) == 91 * rs.tables.point_unit, "every card point is counted, chien included"
    taker = hand.deciding_seat
    points, t, made = expected_per_defender(rs, hand)
    assert Fraction(hand.points[hand.sides[taker]], rs.tables.point_unit) == points
    assert hand.deltas == tuple(3 * t if seat == taker else -t for seat in range(4))
    assert (hand.winner == hand.sides[taker]) == made  # the taker wins the hand exactly when he makes the contract


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_deals_keep_the_points_and_pay_by_the_formula(tarot, seed):
    state = GameState(tarot, seed=seed)
    state.play_random(random.Random(seed))
    for hand in state.hands:
        check_deal(tarot, hand)


def test_greedy_deals_keep_the_points_and_pay_by_the_formula(tarot):
    """Greedy players bid on their hands and play sensibly: Gardes made and lost, slams rarely."""
    for seed in range(3):
        state = play_game(GameState(tarot, seed=seed), [GreedyAgent()] * 4, random.Random(seed))
        for hand in state.hands:
            check_deal(tarot, hand)
