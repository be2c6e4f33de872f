"""What binds while cards are left to draw (`play.draw.while_stock`), shown by two-handed Tute
(`--option players=2`): suit followed but the trick neither headed nor trumped while the stock lasts,
`play.follow` after; the refusals and explanations say which; the property walker's plain checker
agrees at every card (tests/scenarios/tute-two-handed.yaml plays a hand-checked deal)."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import IllegalAction
from couillon_dsl.engine.why import explain_legal
from example_games import FOLDER
from packs import say, stacked
from test_engine_props import play_and_check

TUTE = str(FOLDER / "tute.yaml")
D = 0


TWO = build_ruleset(TUTE, options={"players": 2})
TWO_SPEC = {"L": "7H 6H AS 3S KS QS 7C 7D", "D": "AH 2H 4D KD 6S 5S 4S 2S", "stock": "3D 5H 6D JC 4H"}


def test_while_the_stock_lasts_only_suit_is_followed_and_the_refusal_says_so() -> None:
    state = stacked(TWO, TWO_SPEC)
    say(state, "7H")
    with pytest.raises(IllegalAction, match="while cards are left to draw: .*follow suit"):
        say(state, "KD")
    reasons = {TWO.layout.name(c): (ok, why) for c, ok, why in explain_legal(state, D)}
    assert reasons["2H"][0] and reasons["AH"][0] and not reasons["KD"][0]  # the seven need not be beaten


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_two_handed_tute_keeps_every_invariant(seed: int) -> None:
    """The property walker (tests/test_engine_props.py): every legal set re-derived by the plain checker,
    `while_stock` while cards are left to draw and `play.follow` after, cards dealt, drawn and played once."""
    play_and_check(TWO, seed)
