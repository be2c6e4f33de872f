"""The highest or lowest card of a set, and whose it was: `holder_of_highest` and its kin, and a
suit's own trump order (`deck.suits[].trump_ranks`).

Forty-fives (examples/forty-fives.yaml) is the game that needs both: every suit puts its five,
its jack and the ace of hearts on top as trump, then the rest highest in red and lowest in black,
and the trick holding the highest trump played is worth 5 more (`taker_of_highest("trumps")`).
The property replays random hands and scores each by the sources' rules, written here again
without the engine. The hand-checked case is tests/scenarios/forty-fives-highest-trump.yaml.
"""
from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.api import load
from couillon_dsl.diagnostics import RulesetError
from couillon_dsl.engine import GameState
from couillon_dsl.expr.compile import ExprNames, HandFacts, compile_expression
from packs import random_hands

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RS = load(str(EXAMPLES / "forty-fives.yaml"))
TEAM_OF = {seat: team for team, seats in enumerate(RS.players.teams) for seat in seats}
RED_LOW = ["10", "9", "8", "7", "6", "4", "3", "2"]  # below the king and queen of a red trump suit


def trump_order(trump: str) -> list[str]:
    """Forty-fives' trumps high to low, as pagat and bicycle list them."""
    low = RED_LOW if trump in "HD" else RED_LOW[::-1]
    order = ["5" + trump, "J" + trump, "AH"] + ([] if trump == "H" else ["A" + trump]) + ["K" + trump, "Q" + trump]
    return order + [rank + trump for rank in low]


def test_each_suit_has_its_own_trump_order() -> None:
    for suit in "SHDC":
        ctx = RS.tables.context(RS.layout.suits.index(suit), 0)
        trumps = sorted((c for c in range(RS.layout.size) if ctx.trump_mask >> c & 1),
                        key=lambda c: -ctx.strength[ctx.card_suit[c]][c])
        assert [RS.layout.name(c) for c in trumps] == trump_order(suit)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_the_highest_trump_played_earns_its_taker_five(seed: int) -> None:
    state = GameState(RS, seed=seed)
    rng = random.Random(seed)
    for event, played in random_hands(state, rng, 4):
        if event != "hand" or played.hands[-1].outcome == "passed_out":
            continue
        hand = played.hands[-1]
        bid = int(next(word for _, word in reversed(hand.decisions) if word.isdigit()))
        order = trump_order(hand.trump or "")
        cards = [(RS.layout.name(card), winner) for _, trick, winner in hand.played_tricks for card in trick]
        trumps = [(order.index(name), winner) for name, winner in cards if name in order]
        bonus = TEAM_OF[min(trumps)[1]] if trumps else None  # the highest trump wins its trick
        maker = hand.maker
        taken = [5 * hand.tricks[team] + (5 if bonus == team else 0) for team in (0, 1)]
        assert sum(taken) == 25 + (5 if trumps else 0)
        made = taken[maker] >= bid
        assert hand.deltas[maker] == ((60 if bid == 30 else taken[maker]) if made else -bid)
        assert hand.deltas[1 - maker] == taken[1 - maker]


def names(*sets: str) -> ExprNames:
    return ExprNames(card_sets={name: 0b1111 for name in sets})


def value(text: str, **facts: object) -> object:
    return compile_expression(text, "team", names("trumps"))(HandFacts(**facts))  # type: ignore[arg-type]


def test_the_extremes_of_a_set_go_to_whoever_held_or_took_them() -> None:
    keys = (30, 10, 20, 5, 99)  # card 4 is outside the set
    held, won = (0b0101, 0b1010), (0b0011, 0b1100)
    assert value('holder_of_highest("trumps")', held=held, card_keys=keys) == 0  # card 0: key 30
    assert value('holder_of_lowest("trumps")', held=held, card_keys=keys) == 1  # card 3: key 5
    assert value('taker_of_highest("trumps")', won=won, card_keys=keys) == 0
    assert value('taker_of_lowest("trumps")', won=won, card_keys=keys) == 1
    assert value('taker_of_lowest("trumps")', won=(0b0001, 0b10000), card_keys=keys) == 0  # only card 0 taken
    assert value('taker_of_highest("trumps")', won=(0, 0b10000), card_keys=keys) is None  # none of the set taken
    assert value('holder_of_highest("trumps")', held=held) is None  # a hand valued without the cards


def test_equal_keys_go_to_the_card_first_in_the_pack() -> None:
    keys = (7, 7, 7, 7)  # copies, or alike cards of two suits
    assert value('holder_of_highest("trumps")', held=(0b0100, 0b0010), card_keys=keys) == 1
    assert value('holder_of_lowest("trumps")', held=(0b0100, 0b0010), card_keys=keys) == 1


def test_a_set_name_is_required(tmp_path: Path) -> None:
    text = (EXAMPLES / "forty-fives.yaml").read_text().replace('taker_of_highest("trumps")', "taker_of_highest(maker)")
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    try:
        load(str(path))
    except RulesetError as problem:
        assert any(d.code == "expr-type" and "quoted card set name" in d.message for d in problem.diagnostics)
    else:
        raise AssertionError("a team where a card set belongs validated")


def test_a_suit_trump_order_must_list_its_ranks(tmp_path: Path) -> None:
    text = (EXAMPLES / "forty-fives.yaml").read_text().replace(
        'trump_ranks: ["5", J, A, K, Q, "10", "9", "8", "7", "6", "4", "3", "2"]}',
        'trump_ranks: ["5", J, A, K, Q, "10", "9", "8", "7", "6", "4", "3"]}', 1)
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    try:
        load(str(path))
    except RulesetError as problem:
        assert [d.code for d in problem.diagnostics if d.severity == "error"] == ["trump-ranks-not-permutation"]
        assert "leaves out 2" in problem.diagnostics[0].message
    else:
        raise AssertionError("a trump order without the two validated")


def test_a_ladder_of_named_trump_contracts_points_to_a_numeric_auction(tmp_path: Path) -> None:
    text = (EXAMPLES / "forty-fives.yaml").read_text().replace(
        "    values: [5, 10, 15, 20, 25, 30]\n", "    ladder: [trumps]\n")
    path = tmp_path / "ladder.yaml"
    path.write_text(text)
    try:
        load(str(path))
    except RulesetError as problem:
        ladder = [d for d in problem.diagnostics if d.code == "auction-ladder-invalid"]
        assert ladder and "numeric auction" in (ladder[0].hint or "")  # not "did you mean 'trumps'?"
    else:
        raise AssertionError("a ladder bidding a named-trump contract validated")
