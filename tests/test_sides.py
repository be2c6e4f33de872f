"""Sides per hand (`players.sides: declarer_alone`): fixed with the contract, scores kept per seat,
a side's change paid to each of its seats; and the outcome decided by `outcome.maker_wins`."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check


def errors(tmp_path: Path, parent: str, body: str) -> list:
    """The errors of the document itself (an option's patched form repeats them with a prefix)."""
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {parent}\nid: r\nname: R\n{body}", encoding="utf-8")
    return [d for d in check(load_ruleset(path)) if d.is_error and not d.message.startswith("with option")]


@pytest.fixture(scope="module")
def tarot():
    return build_ruleset("tarot")


def test_fixed_teams_are_refused_beside_sides_per_hand(tmp_path):
    [d] = errors(tmp_path, "tarot", "players: {teams: [[0, 2], [1, 3]]}\n")
    assert d.code == "teams-with-sides" and d.pointer == "/players/teams"
    assert d.span.line == 4 and "leave teams out" in d.hint


def test_fixed_sides_need_teams(tmp_path):
    [d] = errors(tmp_path, "tarot", "players: {sides: teams}\n")
    assert d.code == "teams-missing" and d.pointer == "/players" and "sides: declarer_alone" in d.hint


def test_a_hand_without_a_declarer_is_refused(tmp_path):
    # Couillon's bottom-card fallback makes trump with no maker: nobody would play alone
    [d] = errors(tmp_path, "couillon", "players: {sides: declarer_alone, teams: null}\n")
    assert d.code == "sides-without-declarer" and d.pointer == "/trump/maker_after_fallback"
    assert "maker_after_fallback: elder_team" in d.hint
    assert errors(tmp_path, "couillon", "players: {sides: declarer_alone, teams: null}\n"
                                        "trump: {maker_after_fallback: elder_team}\n") == []
    none, chelem = errors(tmp_path, "tarot", "trump: {method: none, auction: null}\ncontracts: null\n"
                                             "deal:\n  - {packet: 6, to: all}\n  - {packet: 12, to: all}\n"
                                             "  - {set_aside: rest}\n")
    assert none.code == "sides-without-declarer" and "trump.method none" in none.message
    assert chelem.code == "announcement-without-declarer"  # nor would anyone be asked for a chelem


def test_pushing_to_a_partner_needs_a_partner(tmp_path):
    body = ("players: {sides: declarer_alone, teams: null}\n"
            "trump: {method: choose, choose: {by: elder, delegate: {to: partner}}, offer: null}\n"
            "deal:\n  - {packet: 3, to: all}\n  - {packet: 3, to: all}\n  - {stock: rest}\n  - {decide: trump}\n")
    [d] = errors(tmp_path, "couillon", body)
    assert d.code == "delegate-needs-partner" and d.hint.startswith("use to: next")


def test_the_outcome_may_not_read_what_it_decides(tmp_path):
    [d] = errors(tmp_path, "tarot", "define: {made: 'decided and pts >= target'}\n")
    assert d.code == "outcome-reads-outcome" and "decided" in d.message and d.pointer == "/outcome/maker_wins"


def test_sides_are_fixed_with_the_contract_and_public(tarot):
    state = GameState(tarot, seed=3)
    state.deal_shuffled()
    while state.current_player() >= 0 and state.view(0).phase == "auction":
        seat = state.current_player()
        assert state.view(seat).sides is None  # nobody has declared yet
        bid = any(word != "pass" for _, word in state.view(seat).decisions)
        state.apply(state.legal_actions()[0 if bid else 1])  # the first seat bids Petite, the others pass
    [declarer] = [seat for seat, word in state.view(0).decisions if word == "petite"]
    for seat in range(4):
        assert state.view(seat).sides == tuple(0 if s == declarer else 1 for s in range(4))
    assert state.view(0).maker == 0


def test_each_defender_pays_the_taker_what_the_taker_gets_three_times(tarot):
    played = 0
    for seed in range(6):
        state = GameState(tarot, seed=seed)
        state.play_random(random.Random(seed))
        assert len(state.scores) == 4 and state.result is not None and state.result.winner in range(4)
        for hand in state.hands:
            assert sum(hand.deltas) == 0
            if hand.outcome == "passed_out":
                assert hand.sides == () and hand.deltas == (0, 0, 0, 0)
                continue
            played += 1
            taker = hand.deciding_seat
            assert hand.sides == tuple(0 if s == taker else 1 for s in range(4)) and hand.maker == 0
            paid = [hand.deltas[s] for s in range(4) if s != taker]
            assert len(set(paid)) == 1 and hand.deltas[taker] == -3 * paid[0]
            if not hand.announcements:  # an announced chelem he fails costs him 200 even on a made contract
                assert (hand.winner == 0) == (hand.deltas[taker] > 0)  # the taker wins exactly when he is paid
    assert played >= 12


def test_the_rulebook_speaks_of_the_declarer_and_the_defence(tarot):
    """With sides per hand the prose names the declarer, the defence and each defender, not teams."""
    from couillon_dsl.explain import explain

    text = explain(tarot)
    assert "else the defence wins it; a hand without a declarer scores nothing" in text
    assert "the declarer changes their score by `3 * t`" in text and "each defender changes their score" in text
    assert "the maker's" not in text and "the team that took" not in text
