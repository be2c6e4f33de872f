"""Mutants of the kitty and optional-declaration keys (tests/rulesets/kitty-shape.yaml: the deal's
kitty step, the contracts' kitty handling, the discard rules, the optional poignée): validation never raises, every diagnostic is
placed and registered, and every mutant that validates compiles and plays a hand."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.loader import load_ruleset
from mutants import WORDS
from test_mutation import mutant_checked_and_played

SHAPE = load_ruleset(Path(__file__).parent / "rulesets" / "kitty-shape.yaml")
KEYS = ("/deal", "/contracts", "/discard", "/declarations")
MORE_WORDS = WORDS + ["kitty", "shown", "taken", "never", "last_resort", "rank", "suit", "set", "card", "T", "EX",
                      "bouts", "K", "declarer", "opponents", "nobody", "rest", "garde_sans", "before_first_play",
                      "first_play", "optional", "stand_in", "of", "at_least", "trump"]
SCALARS = st.one_of(st.sampled_from(MORE_WORDS), st.booleans(), st.integers(-2, 30),
                    st.sampled_from([{"rank": "K"}, {"suit": "T"}, {"set": "bouts"}, {"card": "EX"},
                                     {"shown": True, "taken": True}, {"taken": True}, {"kitty": 6}, ["EX"],
                                     ["trump", "EX"], {"of": ["trump"], "at_least": 3, "value": 5}]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3), st.data())
def test_mutants_of_the_kitty_keys_are_diagnosed_or_play(count, data):
    mutant_checked_and_played(SHAPE, KEYS, count, data.draw, SCALARS, MORE_WORDS)
