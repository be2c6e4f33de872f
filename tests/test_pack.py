"""The pack catalogue: suits of different lengths, a permanent trump suit, a card of no suit,
exact half points, named card sets (tests/rulesets/big-pack.yaml has Tarot's 78-card shape)."""
from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.explain import explain
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

BIG = Path(__file__).parent / "rulesets" / "big-pack.yaml"


@pytest.fixture(scope="module")
def big():
    return build_ruleset(BIG)


def test_the_layout_numbers_suits_of_different_lengths_then_the_extras(big):
    layout = big.layout
    assert layout.size == 78
    assert [bin(layout.suit_mask(s)).count("1") for s in range(6)] == [14, 14, 14, 14, 21, 1]
    assert layout.name(0) == "KS" and layout.name(56) == "21T" and layout.name(76) == "1T" and layout.name(77) == "EX"
    assert layout.parse("cc") == layout.card(3, 2)  # the knight of clubs: rank C, suit C
    assert layout.is_extra(77) and not layout.is_extra(76)
    assert layout.suit_of(77) == 5 and layout.format_mask(layout.suit_mask(5)) == "EX"
    assert sum(layout.suit_mask(s) for s in range(6)) == layout.full_mask


def test_points_are_kept_in_halves_and_the_pack_holds_91(big):
    t = big.tables
    assert t.point_unit == 2
    ctx = t.context(t.fixed_trump, 0)
    assert sum(ctx.points) == 182
    named = {big.layout.name(c): ctx.points[c] for c in range(78)}
    assert (named["KS"], named["QH"], named["CD"], named["JC"], named["10S"]) == (9, 7, 5, 3, 1)
    assert (named["21T"], named["1T"], named["EX"], named["20T"]) == (9, 9, 9, 1)
    assert all(isinstance(p, int) for p in ctx.points)


def test_the_permanent_trump_suit_and_the_card_sets(big):
    t = big.tables
    assert t.fixed_trump == 4
    assert big.layout.format_mask(t.card_sets["bouts"]) == "21T 1T EX"


def legal(rs, hand: str, trick: list[str]) -> str:
    """The cards of ``hand`` that may be played to ``trick`` (cards in play order)."""
    layout, ctx = rs.layout, rs.tables.context(rs.tables.fixed_trump, 0)
    cards = [layout.parse(c) for c in trick]
    led = ctx.card_suit[cards[0]]
    win = max(cards, key=lambda c: ctx.strength[led][c])
    mask = sum(1 << c for c in cards)
    return layout.format_mask(ctx.legal(layout.parse_mask(hand), led, win, mask))


@pytest.mark.parametrize(("hand", "trick", "allowed"), [
    ("KS 2S 5T 15T EX", ["3S"], "KS 2S"),                      # must follow
    ("KH 5T 15T EX", ["3S"], "15T 5T"),                       # void: must trump
    ("KH 5T 15T EX", ["3S", "10T"], "15T"),                   # must overtrump
    ("KH 5T 7T EX", ["3S", "10T"], "7T 5T"),                  # cannot: any trump (undertrump)
    ("KH 2H EX", ["3S", "10T"], "KH 2H EX"),                  # neither suit nor trump: anything
    ("KH 5T 15T EX", ["10T"], "15T"),                         # trumps led: a higher trump
    ("KH 5T", ["EX"], "5T"),                                  # a card of no suit led: nobody follows it
])
def test_follow_rules_with_the_trump_suit_as_its_own_suit(big, hand, trick, allowed):
    assert legal(big, hand, trick) == allowed


def test_the_trick_goes_to_the_highest_trump_else_the_highest_of_the_suit_led(big):
    layout, ctx = big.layout, big.tables.context(big.tables.fixed_trump, 0)
    spades = ctx.card_suit[layout.parse("3S")]
    best = max((layout.parse(c) for c in ("3S", "KS", "EX", "1T")), key=lambda c: ctx.strength[spades][c])
    assert layout.name(best) == "1T"
    best = max((layout.parse(c) for c in ("3S", "KS", "EX", "KH")), key=lambda c: ctx.strength[spades][c])
    assert layout.name(best) == "KS"


def test_random_games_conserve_the_card_points(big):
    aside_points = []
    for seed in range(3):
        state = GameState(big)
        state.play_random(random.Random(seed))
        assert state.is_terminal()
        for hand in state.hands:
            assert len(hand.played_tricks) == 18
            won = [0, 0]
            ctx = big.tables.context(big.tables.fixed_trump, 0)
            for _, cards, winner in hand.played_tricks:
                won[big.tables.team_of[winner]] += sum(ctx.points[c] for c in cards)
            assert tuple(won) == hand.points
            aside_points.append(182 - sum(hand.points))
    assert all(0 <= a <= 6 * 9 for a in aside_points)


def test_expressions_see_exact_game_points(big):
    [half] = big.definitions
    assert half.kind == "number"
    score = big.tables.score_hand((101, 75), (10, 8), None, 0, 18, 0, 0, (0, 0), ())
    assert score.winner == 0 and score.deltas == (1, 0)


def test_whole_deltas_are_required_when_points_have_halves(tmp_path):
    text = BIG.read_text(encoding="utf-8") + "  extra: {when: decided, team: winner, delta: 'points(winner)'}\n"
    text = text.replace("define:\n  half_share: 'points(winner) / 2'\n", "")
    path = tmp_path / "r.yaml"
    path.write_text(text.replace("scoring:\n  win:", "scoring:\n  win:", 1), encoding="utf-8")
    [problem] = [d for d in check(load_ruleset(path)) if d.is_error]
    assert problem.code == "expr-type" and problem.hint == "wrap it in floor(), ceil() or round()"


@pytest.mark.parametrize(("edit", "code", "words"), [
    (("card_sets: {bouts: [21T, 1T, EX]}", "card_sets: {bouts: [22T, 1T, EX]}"), "unknown-rank", "suit T"),
    (("points: {K: 4.5, Q: 3.5, C: 2.5, J: 1.5, default: 0.5}", "points: {K: 4.5, Q: 3.5, C: 2.5, J: 1.5}"),
     "rank-without-points", "'10'"),
    (("trump: {method: none}", "trump: {method: choose}"), "trump-suit-and-method", "trump in every hand"),
    (("trump_suit: T", "trump_suit: X"), "unknown-suit", "'X'"),
    (("extras: [{id: EX,", "extras: [{id: KS,"), "duplicate-suit", "'KS'"),
])
def test_pack_mistakes_are_diagnosed(tmp_path, edit, code, words):
    text = BIG.read_text(encoding="utf-8").replace(*edit)
    if edit[0].startswith("extras"):
        text = text.replace("EX]}", "KS]}").replace("EX: 4.5", "KS: 4.5")
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    found = [d for d in check(load_ruleset(path)) if d.is_error]
    assert found[0].code == code and words in found[0].message
    assert all(d.code == "decide-step-count" for d in found[1:])  # a trump procedure also wants a decide step


def test_explain_reads_the_pack(big):
    text = explain(big)
    assert "The game uses 78 cards" in text and "the Excuse (★), which belongs to no suit" in text
    assert "21 trumps (T) numbered 21 20" in text
    assert "The pack holds 91 points" in text and "any other card 0.5" in text
    assert "The bouts are 21T, 1T and Excuse." in text
    assert "is trump in every hand" in text


def test_cards_in_a_mask_come_out_in_id_order(big):
    layout = big.layout
    mask = layout.parse_mask("EX 1T KS")
    assert [layout.name(c) for c in iter_bits(mask)] == ["KS", "1T", "EX"]
    assert Fraction(layout.size, 2) == 39
