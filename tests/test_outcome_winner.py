"""`outcome.winner`: an expression naming the team that wins the hand (`none`: a tie), for games no
comparison of points or tricks decides; its checks; the rollout declining it."""
from __future__ import annotations

import random
from pathlib import Path

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check


def variant(tmp_path: Path, winner: str) -> Path:
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: couillon\nid: variant\nname: Variant\noutcome:\n  winner: '{winner}'\n", encoding="utf-8")
    return path


def test_the_team_the_expression_names_wins_every_hand(tmp_path: Path) -> None:
    rs = build_ruleset(str(variant(tmp_path, "last_trick_winner")))
    assert rs.rollout is None  # the rollout compares points: it declines an outcome expression
    state = GameState(rs, seed=5)
    state.play_random(random.Random(5))
    played = [hand for hand in state.hands if hand.outcome != "passed_out"]
    assert played
    for hand in played:
        last_winner = rs.tables.team_of[hand.played_tricks[-1][2]]
        assert hand.winner == last_winner and hand.outcome != "tie"


def test_none_is_a_tie(tmp_path: Path) -> None:
    rs = build_ruleset(str(variant(tmp_path, "none")))
    state = GameState(rs, seed=2)
    state.play_random(random.Random(2))
    assert all(hand.winner is None for hand in state.hands)
    assert any(hand.outcome == "tie" for hand in state.hands)


def test_the_winner_expression_names_a_team_and_does_not_read_the_outcome(tmp_path: Path) -> None:
    for text, code in (("winner", "outcome-reads-outcome"), ("points(maker) > 30", "expr-type")):
        codes = {d.code for d in check(load_ruleset(variant(tmp_path, text))) if d.severity == "error"}
        assert code in codes, (text, codes)
