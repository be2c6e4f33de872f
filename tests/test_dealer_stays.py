"""The dealer who deals again after some hands (`dealer.stays_when`), as Hokm keeps its hakem while his
side wins (examples/hokm.yaml; the hand-checked hand is tests/scenarios/hokm-kot.yaml)."""
from __future__ import annotations

import random
from pathlib import Path

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.rollout import rolls_out_language_v1
from couillon_dsl.explain import explain
from couillon_dsl.simulation import play_game
from example_games import FOLDER
from variants import codes_of

HOKM = FOLDER / "hokm.yaml"
RS = build_ruleset(str(HOKM))


def test_the_dealer_stays_after_a_hand_his_hakem_s_side_won_and_else_the_deal_passes() -> None:
    stayed = passed = 0
    for seed in range(6):
        state = GameState(RS, seed=seed)
        play_game(state, [make_agent("greedy")] * 4, random.Random(seed))
        assert state.is_terminal()
        for before, after in zip(state.hands, state.hands[1:]):
            if before.game != after.game:
                continue
            if before.winner == before.maker:
                assert after.dealer == before.dealer
                stayed += 1
            else:
                assert after.dealer == RS.tables.next_seat[before.dealer]
                passed += 1
    assert stayed and passed  # both happen in these games


def test_explain_says_when_the_dealer_deals_again() -> None:
    assert ("after each hand the deal passes to the right, except after a hand where the maker wins the hand: "
            "then the same player deals again") in explain(RS)


def test_a_dealer_who_stays_is_played_by_the_engine_not_the_rollout() -> None:
    assert not rolls_out_language_v1(RS)
    assert RS.rollout is None


def test_stays_when_is_read_as_a_condition_and_needs_a_deal_that_passes(tmp_path: Path) -> None:
    text = HOKM.read_text(encoding="utf-8")
    assert codes_of(tmp_path / "hokm.yaml", text) == []
    same = text.replace("rotation: next", "rotation: same")
    assert "unused-setting" in codes_of(tmp_path / "same.yaml", same)
    team = text.replace("stays_when: winner == maker", "stays_when: maker")
    assert "expr-type" in codes_of(tmp_path / "team.yaml", team)
