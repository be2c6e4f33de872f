"""Trick facts for scoring: how many cards of a named set a team's tricks took (the Excuse
counted for its owner's side), the last trick's winner and cards, and any trick's cards, winner
and winning card counted from the first (1) or back from the last (-1)."""
from __future__ import annotations

import random
from pathlib import Path

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.roles import won_cards
from couillon_dsl.expr import ExprNames, HandFacts, check_expression, compile_expression
from couillon_dsl.explain import explain

BIG = Path(__file__).parent / "rulesets" / "big-pack.yaml"
EXTRA = """card_roles:
  excuse:
    cards: [EX]
    play_anytime: true
    wins: never_except_sweep
    when_led: next_card_sets_suit
    kept_by_owner: {compensation: 0.5, on_last_trick: changes_sides}
"""
SCORING = """  bouts: {for_each: team, when: 'count("bouts", team) >= 2', delta: 1}
  small_end: {when: 'in_last_trick("petit")', team: last_trick_winner, delta: 1}
"""


def ruleset(tmp_path):
    text = BIG.read_text(encoding="utf-8").replace("card_sets: {bouts: [21T, 1T, EX]}",
                                                   "card_sets: {bouts: [21T, 1T, EX], petit: [1T]}")
    text = text.replace("  win: {when: decided, team: winner, delta: 1}\n",
                        "  win: {when: decided, team: winner, delta: 1}\n" + SCORING)
    path = tmp_path / "facts.yaml"
    path.write_text(text + EXTRA, encoding="utf-8")
    return build_ruleset(path)


def test_the_facts_are_checked():
    names = ExprNames(card_sets={"bouts": 0b111})
    assert not check_expression('count("bouts", maker) == 3', "bool", names)
    assert [d.code for d in check_expression('count("bout", maker)', "int", names)] == ["unknown-card-set"]
    assert [d.code for d in check_expression("count(maker)", "int", names)] == ["expr-arity"]
    assert [d.code for d in check_expression("in_last_trick(maker)", "bool", names)] == ["expr-type"]
    fn = compile_expression('count("bouts", winner) + if(in_last_trick("bouts"), 10, 0)', "int", names)
    assert fn(HandFacts(winner=1, won=(0b001, 0b110), last_trick_cards=0b100)) == 12
    assert fn(HandFacts(winner=None, won=(0b001, 0b110))) == 0


def test_won_cards_follow_the_tricks_and_the_roles(tmp_path):
    rs = ruleset(tmp_path)
    t = rs.tables
    assert t.reads_tricks and rs.rollout is None
    for seed in range(3):
        state = GameState(rs)
        state.play_random(random.Random(seed))
        for hand in state.hands:
            won, (last_team, last_cards, log) = won_cards(t.roles, t.team_of, 2, t.rounds, hand.played_tricks)
            played = sum(1 << c for _, cards, _ in hand.played_tricks for c in cards)
            assert won[0] | won[1] == played and not won[0] & won[1]
            ctx = t.context(t.fixed_trump, 0)
            for team in (0, 1):  # the points follow the cards, but for the Excuse's half-point exchange
                points = sum(ctx.points[c] for c in range(rs.layout.size) if won[team] >> c & 1)
                assert abs(points - hand.points[team]) <= 1
            leader, cards, winner = hand.played_tricks[-1]
            assert last_team == t.team_of[winner] and last_cards == sum(1 << c for c in cards)
            assert len(log) == len(hand.played_tricks) and log[-1][:2] == (last_cards, last_team)
            for (leader, cards, winner), (mask, team, card) in zip(hand.played_tricks, log):
                assert mask == sum(1 << c for c in cards) and team == t.team_of[winner]
                assert card == cards[(winner - leader) % len(cards)]  # the card its winner played


def test_explain_words_the_facts(tmp_path):
    text = explain(ruleset(tmp_path))
    assert "the number of bouts in the tricks of that team is at least 2" in text
    assert "If a card of the petit is in the last trick, the team that took the last trick scores one point" in text


LOG = ((0b0011, 0, 0), (0b1100, 1, 3), (0b110000, 1, 5))  # three tricks: (cards, team that took it, its card)


def test_any_trick_is_read_from_either_end():
    names = ExprNames(card_sets={"low": 0b0001, "high": 0b1000, "five": 0b100000})
    facts = HandFacts(trick_log=LOG)

    def value(text: str, kind: str = "bool"):
        return compile_expression(text, kind, names)(facts)

    assert value('in_trick(1, "low")') and value('in_trick(-3, "low")') and not value('in_trick(2, "low")')
    assert value("trick_winner(1)", "team") == 0 and value("trick_winner(-1)", "team") == 1
    assert value('taken_with(2, "high")') and value('taken_with(-1, "five")') and not value('taken_with(1, "high")')
    assert value("trick_winner(4)", "team") is None and not value('in_trick(-4, "low")')  # no such trick
    assert value('in_trick(if(taken_with(-1, "five"), -2, -1), "high")')  # a computed trick number
    assert [d.code for d in check_expression('in_trick(0, "low")', "bool", names)] == ["expr-trick-number"]
    assert [d.code for d in check_expression("trick_winner(-0)", "team", names)] == ["expr-trick-number"]
    assert [d.code for d in check_expression('in_trick(1, "lo")', "bool", names)] == ["unknown-card-set"]
    assert [d.code for d in check_expression('in_trick(1, low)', "bool", names)] == ["expr-type"]
    assert [d.code for d in check_expression('taken_with(maker, "low")', "bool", names)] == ["expr-type"]
    assert [d.code for d in check_expression("trick_winner()", "team", names)] == ["expr-arity"]


def test_explain_words_the_trick_facts():
    text = explain(build_ruleset("tarot"))
    assert ("`pb_before` is 0 unless a card of the petit is in the second-to-last trick, in which case 10 if the "
            "declarer took the second-to-last trick, else minus 10.") in text
    assert "`pb` is `pb_before` if the last trick was taken with a card of the excuse, else `pb_last`." in text
