"""Mutants of French Tarot's own keys (sides per hand, the outcome by an expression, the formula's
definitions and per-side scoring, the game of N deals, the contracts and auction, the declarer's
announced chelem): validation never
raises, every diagnostic is placed and registered, and every mutant that validates compiles and plays."""
from __future__ import annotations


from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.loader import load_ruleset
from mutants import WORDS
from test_mutation import mutant_checked_and_played

TAROT = load_ruleset("tarot")
KEYS = ("/players", "/outcome", "/define", "/scoring", "/scoresheet", "/contracts", "/trump", "/card_roles",
        "/options", "/announcements")
MORE_WORDS = WORDS + ["declarer_alone", "teams", "made", "pts >= target", "decided", "winner == maker",
                      "opponents(maker)", "3 * t", "-t", "round(t)", "declarer", "opponents", "nobody", "auction",
                      "garde", "petite", "elder_team", "changes_sides", "to_trick_winner", 'count("bouts", maker)',
                      "tricks(maker) == tricks_per_hand", "points(maker) / 2", "partners", "chelem", "leads",
                      'announced("chelem")', 'announcer("chelem")', 'in_trick(-2, "petit")', "trick_winner(1)",
                      'taken_with(-1, "excuse")', "trick_winner(0)"]
SCALARS = st.one_of(st.sampled_from(MORE_WORDS), st.integers(-2, 30), st.booleans(),  # fresh team lists: mutants edit them in place
                    st.builds(lambda: [[0, 2], [1, 3]]), st.builds(lambda: [[0], [1, 2, 3]]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3), st.data())
def test_mutants_of_the_tarot_keys_are_diagnosed_or_play(count, data):
    mutant_checked_and_played(TAROT, KEYS, count, data.draw, SCALARS, MORE_WORDS)
