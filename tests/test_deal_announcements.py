"""Announcements asked of every seat during the deal (`by: each_seat` and a deal step `{announce: ID}`):
Schafkopf's Klopfen, asked after the first four cards, each knock counted by `times_announced`."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine.actions import IllegalAction
from couillon_dsl.engine.state import GameState
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.simulation import play_game
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

from packs import pack_dealing, say

SCHAFKOPF = Path(__file__).parent.parent / "examples" / "schafkopf.yaml"
RS = build_ruleset(str(SCHAFKOPF))
DEALER = 3  # seat 0 is forehand


def dealt(first_four: dict[int, str]) -> GameState:
    """A Schafkopf game dealt by seat 3, each listed seat's first packet given, stopped at the first knock."""
    state = GameState(RS)
    state.apply(state.actions.dealer0 + DEALER)
    ids = {seat: [RS.layout.parse(n) for n in names.split()] for seat, names in first_four.items()}
    state.deal_pack(pack_dealing(RS, DEALER, ids, seed=1))
    return state


def test_every_seat_is_asked_in_turn_with_only_its_first_packet() -> None:
    state = dealt({0: "QC QS JC JH"})
    asked = []
    while state.asked_in_deal:
        seat = state.current_player()
        asked.append(seat)
        assert state.hand_of(seat).bit_count() == 4
        assert [state.action_to_string(a) for a in state.legal_actions()] == ["no", "announce knock"]
        say(state, "announce knock" if seat in (0, 3) else "no")
    assert asked == [0, 1, 2, 3]
    assert state.phase == "auction" and all(state.hand_of(s).bit_count() == 8 for s in range(4))
    with pytest.raises(IllegalAction):
        say(state, "announce knock")  # the deal is over: nobody may knock any more


def test_each_knock_doubles_the_value_again() -> None:
    """Any run of hands: a decided game pays each winner the doubled value times 2 per knock."""
    state = GameState(RS, seed=3)
    play_game(state, [make_agent("greedy")] * 4, random.Random(3))
    knocked = [h for h in state.hands if any(a == "knock" for a, _ in h.announcements) and h.contract != "ramsch"]
    assert knocked
    for hand in knocked:
        knocks = sum(a == "knock" for a, _ in hand.announcements)
        others = sum(a != "knock" for a, _ in hand.announcements)  # Kontra, Re
        assert all(abs(d) % (2 ** (knocks + others) * 10) == 0 for d in hand.deltas)


def test_the_kernel_declines_a_deal_that_asks_every_seat() -> None:
    reason = ruleset_reason(RS)
    assert reason is not None and "deal[1].announce" in reason and "by: each_seat" in reason


def test_checks_name_the_place(tmp_path: Path) -> None:
    def codes(body: str) -> list[tuple[str, str]]:
        path = tmp_path / "r.yaml"
        path.write_text(f"extends: couillon\nid: r\nname: R\n{body}", encoding="utf-8")
        return [(d.code, d.pointer) for d in check(load_ruleset(path)) if d.is_error]

    deal = ("deal:\n  - {packet: 2, to: all}\n  - {announce: knock}\n  - {packet: 2, to: all}\n  - {stock: rest}\n"
            "  - {turn_up: stock_top}\n  - {decide: trump}\n")
    assert codes(deal + "announcements:\n  knock: {name: Knock, holder_of: QS}\n") == [
        ("deal-announcement-reference", "/deal/1/announce")]
    assert codes(deal.replace("  - {stock", "  - {announce: knock}\n  - {stock")
                 + "announcements:\n  knock: {name: Knock, by: each_seat}\n") == [
        ("deal-announcement-repeated", "/deal/3/announce")]
    assert codes("announcements:\n  knock: {name: Knock, by: each_seat}\n") == [
        ("each-seat-announcement-unasked", "/announcements/knock/by")]
    assert codes(deal + "announcements:\n  knock: {name: Knock, by: each_seat, after: mit}\n  mit: {name: Mit, holder_of: QS}\n") == [
        ("each-seat-announcement-shape", "/announcements/knock/after")]
    assert codes(deal + "announcements:\n  knock: {name: Knock, by: each_seat}\n"
                 "scoring:\n  knocks: {team: winner, delta: 'times_announced(\"knock\")'}\n") == []
