"""Deal checks (a dealt hand that annuls the deal: Tarot's petit sec) and games of a fixed
number of deals (A33), on the 78-card test pack."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from packs import seat_positions
from couillon_dsl.explain import explain
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

BIG = Path(__file__).parent / "rulesets" / "big-pack.yaml"
EXTRA = """deal_checks:
  petit_sec: {name: Petit sec, holds: [1T], lacks: [EX], counts: [{suit: T, max: 1}]}
"""


def variant(tmp_path: Path, deals: int = 3, extra: str = EXTRA) -> Path:
    text = BIG.read_text(encoding="utf-8").replace("scoresheet: {start: 0, goal: 3, direction: up}",
                                                   f"scoresheet: {{start: 0, direction: up, deals: {deals}}}")
    path = tmp_path / "checked.yaml"
    path.write_text(text + extra, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    return build_ruleset(variant(tmp_path_factory.mktemp("checks")))


def petit_sec_pack(rs, dealer: int) -> list[int]:
    """A pack order that deals the elder the trump 1 as its only trump, and no Excuse."""
    layout = rs.layout
    trumps = layout.suit_mask(layout.suits.index("T"))
    petit, excuse = layout.parse("1T"), layout.parse("EX")
    others = [c for c in range(layout.size) if not trumps >> c & 1 and c != excuse]
    elder = rs.tables.next_seat[dealer]
    mine = seat_positions(rs, dealer)[elder]
    pack: list[int | None] = [None] * layout.size
    pack[mine[0]] = petit
    for position, card in zip(mine[1:], others):
        pack[position] = card
    rest = [c for c in range(layout.size) if c not in pack]
    random.Random(1).shuffle(rest)
    return [c if c is not None else rest.pop() for c in pack]


def test_a_petit_sec_annuls_the_deal_and_the_next_dealer_deals(checked):
    state = GameState(checked)
    dealer = state.dealer
    for card in petit_sec_pack(checked, dealer):
        state.apply(card)
    [summary] = state.hands
    assert summary.trump_path == "annulled" and summary.outcome == "passed_out" and summary.deltas == (0, 0)
    assert state.current_player() < 0  # the next deal's pack is drawn


def test_ordinary_deals_are_played(checked):
    state = GameState(checked)
    state.play_random(random.Random(2))
    played = [h for h in state.hands if h.outcome != "passed_out"]
    assert played and all(sum(h.tricks) == 18 for h in played)


@pytest.mark.parametrize("deals", [1, 3])
def test_a_game_of_n_deals_goes_to_the_best_total(tmp_path, deals):
    rs = build_ruleset(variant(tmp_path, deals))
    for seed in range(3):
        state = GameState(rs)
        state.play_random(random.Random(seed))
        result = state.result
        assert result is not None and not result.abandoned
        [game] = result.games
        assert game.hands == deals == len(state.hands)
        best = max(game.scores)
        assert game.scores[game.winner] == best
        if game.scores.count(best) == 1:
            assert game.winner == game.scores.index(best)


def test_mistakes_in_deal_checks_are_placed(tmp_path):
    path = variant(tmp_path, extra="deal_checks:\n  bad: {holds: [22T], counts: [{set: bout, max: 1}, {suit: X}]}\n")
    found = [(d.code, d.span.line) for d in check(load_ruleset(path)) if d.is_error]
    line = path.read_text(encoding="utf-8").splitlines().index(
        "  bad: {holds: [22T], counts: [{set: bout, max: 1}, {suit: X}]}") + 1
    assert sorted(found) == [("unknown-card-set", line), ("unknown-rank", line), ("unknown-suit", line)]


def test_explain_reads_the_check_and_the_game_length(checked):
    text = explain(checked)
    assert ("A player holding 1T, without Excuse and with at most 1 trumps (Petit sec) must say so at once: "
            "the deal is thrown in") in text
    assert "A game is 3 deals, thrown-in deals included; after the last one the highest total wins" in text
