"""The hand functions both play paths share: what a scoring rule reads, remembered scores,
settling a game, the card tables random play draws from, follow rules as masks."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from couillon_dsl.compile import build_ruleset, compile_ruleset
from couillon_dsl.engine.follow import plain_masks
from couillon_dsl.engine.hand import (
    ABANDONED, NEXT_GAME, NEXT_HAND, SESSION_OVER, cards_table, make_settle, passes_after_pass_out,
)
from couillon_dsl.expr import facts_read
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Follow, Limits, Ruleset, Scoresheet, Session


def with_scoring(name: str, scoring: dict[str, Any]) -> Ruleset:
    document = load_ruleset(name)
    return compile_ruleset(dataclasses.replace(document, data={**document.data, "scoring": scoring}))


@pytest.mark.parametrize("text, fields", [
    ("decided and maker != none and loser == maker", {"decided", "maker", "loser"}),
    ("points(winner) - points(opponents(winner))", {"points", "winner"}),
    ("announced(\"mit\") or announcer(\"kontra\") == winner", {"announcers", "winner"}),
    ("option(\"lines\") * ties_pending", {"options", "ties_pending"}),
    ("tricks(winner) == tricks_per_hand and not tie", {"tricks", "winner", "tricks_per_hand", "tie"}),
    ("-1", set()),
])
def test_facts_read_names_every_hand_fact_an_expression_depends_on(text: str, fields: set[str]) -> None:
    assert facts_read(text) == fields


def test_the_compiler_records_what_each_scoring_rule_reads() -> None:
    rules = {rule.name: rule for rule in build_ruleset("kwajongen").scoring}
    assert rules["maker_loss"].reads == {"decided", "loser", "maker"}
    assert "passes_pending" in rules["pass_bonus"].reads


def test_a_score_that_reads_the_points_is_worked_out_for_each_points_split() -> None:
    """The memo's key holds every fact a rule reads: two splits, two deltas, also on a second call."""
    rs = with_scoring("couillon", {"win": {"when": "decided", "team": "winner", "delta": "0 - points(winner)"}})
    score = rs.tables.score_hand
    for _ in range(2):
        first = score((30, 10), (3, 1), None, 0, 4, 0, 0, [100, 100], ())
        second = score((25, 15), (2, 2), None, 0, 4, 0, 0, [100, 100], ())
        assert (first.deltas, first.values) == ((-30, 0), (70, 100))
        assert (second.deltas, second.values) == ((-25, 0), (75, 100))


def test_a_tie_scaled_score_follows_the_ties_pending() -> None:
    score = build_ruleset("couillon", {"tie_carry": "cumulative_double"}).tables.score_hand
    assert score((20, 10), (2, 2), 0, 0, 4, 0, 0, [5, 5], ()).deltas == (-1, 0)
    assert score((20, 10), (2, 2), 0, 0, 4, 0, 2, [5, 5], ()).deltas == (-4, 0)
    tie = score((15, 15), (2, 2), 0, 0, 4, 0, 1, [5, 5], ())
    assert (tie.outcome, tie.deltas, tie.ties) == ("tie", (0, 0), 2)


@pytest.mark.parametrize("carry, before, after", [("none", 3, 3), ("single", 3, 1), ("cumulative", 3, 4)])
def test_a_pass_out_carries_as_the_scoresheet_says(carry: str, before: int, after: int) -> None:
    assert passes_after_pass_out(Scoresheet(start=5, goal=0, direction="down", pass_carry=carry), before) == after


def test_settle_goes_on_ends_games_and_sessions_and_abandons_at_the_limit() -> None:
    down = make_settle(Scoresheet(start=5, goal=0, direction="down"), Session(games_to_win=2), Limits(max_hands=9))
    won = [0, 0]
    assert down([2, 1], 0, 3, won) == (NEXT_HAND, None)
    assert down([2, 1], 0, 9, won) == (ABANDONED, None)
    assert down([2, 0], 1, 4, won) == (NEXT_GAME, 1) and won == [0, 1]
    assert down([-1, 0], 1, 4, won) == (NEXT_GAME, 0) and won == [1, 1]  # furthest past the goal
    assert down([0, 0], 1, 4, won) == (SESSION_OVER, 1) and won == [1, 2]  # level: the hand's winner
    up = make_settle(Scoresheet(start=0, goal=10, direction="up"), Session(), Limits())
    assert up([10, 10, 9], None, 4, [0, 0, 0]) == (SESSION_OVER, 0)  # level, no hand winner: the lower team


def test_card_tables_list_the_cards_of_a_mask_in_order() -> None:
    small = cards_table(24, 4)
    assert type(small) is dict and len(small) == 1 + 24 + 276 + 2024 + 10626  # complete: a plain dict
    assert small[0b1010_0000_0000_0000_0000_0110] == (1, 2, 21, 23)
    big = cards_table(52, 13)  # too many masks to list: filled on use
    assert type(big) is not dict
    assert big[(1 << 51) | (1 << 7) | 1] == (0, 7, 51)
    assert cards_table(24, 4) is small


def test_only_rules_without_raising_duties_or_exempt_cards_reduce_to_masks() -> None:
    suits = (0b0011, 0b1100)
    masks = plain_masks(Follow(led_suit="must_follow", when_void="must_trump"), suits, 0b1100, 0)
    assert masks == ((0b0011, 0b1100), (0b0011, 0b1100), 0b1100)
    assert plain_masks(Follow(), suits, 0b1100, 0).allowed == (0b1111, 0b1100)  # follow or trump
    assert plain_masks(Follow(overtrump="when_able"), suits, 0b1100, 0) is None
    assert plain_masks(Follow(head="when_able"), suits, 0b1100, 0) is None
    assert plain_masks(Follow(), suits, 0b1100, 0b0100) is None
