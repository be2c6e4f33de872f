"""Mutants of the pack catalogue, card roles, deal checks, auction, definitions and trick-fact
keys (tests/rulesets/tarot-shape.yaml): validation never raises, every diagnostic is placed
and registered, and every mutant that validates compiles and plays a hand."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.loader import load_ruleset
from mutants import WORDS
from test_mutation import mutant_checked_and_played

SHAPE = load_ruleset(Path(__file__).parent / "rulesets" / "tarot-shape.yaml")
KEYS = ("/deck", "/card_roles", "/deal_checks", "/contracts", "/trump/auction", "/define", "/scoring",
        "/scoresheet/deals")
MORE_WORDS = WORDS + ["EX", "1T", "21T", "T", "bouts", "petit", "never", "never_except_sweep", "next_card_sets_suit",
                      "changes_sides", "to_trick_winner", "garde", 'count("bouts", maker)', 'in_last_trick("petit")',
                      "last_trick_winner", "4.5", "default", "pts / 2"]
SCALARS = st.one_of(st.sampled_from(MORE_WORDS), st.integers(-2, 30), st.sampled_from([0.5, 4.5, 1e9, -1.5]))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3), st.data())
def test_mutants_of_the_new_keys_are_diagnosed_or_play(count, data):
    mutant_checked_and_played(SHAPE, KEYS, count, data.draw, SCALARS, MORE_WORDS)


def test_the_tarot_shaped_ruleset_scores_zero_sum_and_keeps_every_card_point():
    """Its score formula pays the declarer what the opponents lose, and with the chien counted
    for a side (Garde sans, Garde contre) the 91 points of the pack are all accounted for."""
    import random

    from couillon_dsl.compile import compile_ruleset
    from couillon_dsl.engine import GameState

    rs = compile_ruleset(SHAPE)
    ctx = rs.tables.context(rs.tables.fixed_trump, 0)
    for seed in range(25):
        state = GameState(rs)
        state.play_random(random.Random(seed))
        for hand in state.hands:
            assert sum(hand.deltas) == 0
            if hand.outcome == "passed_out":
                continue
            played = sum(ctx.points[c] for _, cards, _ in hand.played_tricks for c in cards)
            bid = [d for _, d in hand.decisions if d != "pass"][-1]
            assert sum(hand.points) == (182 if bid in ("garde_sans", "garde_contre") else played)
