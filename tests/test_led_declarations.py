"""Declarations made on a lead (`when: led`), shown by Schnapsen's marriages: found in the hand as it
stands at the lead (cards drawn since the deal included), only for the led card's combinations, the
rest shown and kept in every sampled world; the checks; random play and replay agreeing."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check
from example_games import FOLDER
from packs import declaration_errors, say, stacked
from test_declarations import hands_with_melds_replayed

SCHNAPSEN = str(FOLDER / "schnapsen.yaml")
RS = build_ruleset(SCHNAPSEN)
LAYOUT = RS.layout
L, D = 1, 0  # dealer 0: the elder (L) leads



def declared(state: GameState) -> list[tuple[int, str, int]]:
    return [(seat, label, value) for _, label, seat, value, _ in state.view(L).melds]


# L holds KS QS; D is dealt QD and draws KD after the second trick; hearts are trumps (JH turned)
SPEC = {"L": "KS QS KH JD JC", "D": "AS 10S AC 10C QD", "stock": "JH QH 10D KD AD AH 10H KC QC JS"}


def test_a_king_led_with_its_queen_held_declares_the_marriage_and_shows_the_queen() -> None:
    state = stacked(RS, SPEC)
    say(state, "KS")
    assert declared(state) == [(L, "marriage in spades", 20)]
    qs = LAYOUT.parse("QS")
    for seat in (L, D):  # the queen stays in L's hand, in everyone's sight
        assert (qs, L) in state.view(seat).face_up
    assert state.hand_of(L) >> qs & 1


def test_a_card_drawn_since_the_deal_completes_a_marriage_and_following_declares_nothing() -> None:
    state = stacked(RS, SPEC)
    say(state, "KS", "AS")  # D wins and draws QH, L draws 10D
    say(state, "AC", "JC")  # D wins and draws KD (with the QD he was dealt), L draws AD
    assert state.hand_of(D) & LAYOUT.parse_mask("KD QD") == LAYOUT.parse_mask("KD QD")
    say(state, "QH")  # the trump queen led without its king: nothing
    say(state, "KH")  # L follows with the trump king (the queen is on the table): nothing
    assert declared(state) == [(L, "marriage in spades", 20)]
    say(state, "JD", "QD")  # L leads; D follows with the queen of his marriage: following declares nothing
    assert declared(state) == [(L, "marriage in spades", 20)]


def test_a_marriage_in_trumps_is_worth_40() -> None:
    state = stacked(RS, {"L": "KH QH AS 10S JC", "D": "AC 10C KC QC JS", "stock": "JH"})
    say(state, "QH")
    assert declared(state) == [(L, "royal marriage", 40)]


def test_the_drawn_king_led_with_the_dealt_queen_declares_the_marriage() -> None:
    state = stacked(RS, SPEC)
    say(state, "KS", "AS", "AC", "JC")  # D on lead, holding KD (drawn) and QD (dealt)
    say(state, "KD")
    assert declared(state)[-1] == (D, "marriage in diamonds", 20)


def test_every_sampled_world_gives_the_shown_queen_to_its_holder() -> None:
    state = stacked(RS, SPEC)
    say(state, "KS")
    qs = LAYOUT.parse("QS")
    worlds = Sampler().worlds(state, D, 16, random.Random(3))
    assert len(worlds) == 16
    assert all(world.hand_of(L) >> qs & 1 and world.view(D) == state.view(D) for world in worlds)


def test_random_play_and_replay_declare_the_same_marriages() -> None:
    assert hands_with_melds_replayed(RS, 8)


def test_without_a_stock_led_melds_are_declared_in_random_play_and_replay(tmp_path: Path) -> None:
    """Couillon with a led trump marriage: hands played card by card, never at once (the fast play-out
    reads no lead), so a random game declares and replays the same melds."""
    path = tmp_path / "married.yaml"
    path.write_text("extends: couillon\nid: married\nname: Married\ndeclarations:\n  marriage:\n    name: Marriage\n"
                    "    when: led\n    shown: true\n    patterns:\n      - {cards: [KT, QT], value: 40}\n", encoding="utf-8")
    rs = build_ruleset(str(path))
    assert rs.tables.led_melds and not [d for d in check(load_ruleset(path)) if d.severity == "error"]
    assert hands_with_melds_replayed(rs, 20)


@pytest.mark.parametrize(("declaration", "codes"), [
    ("when: led\n    shown: true\n    patterns: [{cards: [KT, QT], value: 20}]", set()),
    # the option claiming=by_choice makes the marriage optional, which a first_play declaration cannot be
    ("when: first_play\n    shown: true\n    patterns: [{cards: [KT, QT], value: 20}]",
     {"draw-not-combined", "declaration-optional-when"}),
])
def test_drawing_combines_with_led_declarations_only(tmp_path: Path, declaration: str, codes: set[str]) -> None:
    assert declaration_errors(tmp_path, SCHNAPSEN, declaration) == codes


def test_greedy_leads_its_best_marriage_by_its_cheaper_card() -> None:
    state = stacked(RS, {"L": "KH QH KS QS JC", "D": "AC 10C KC QC JS", "stock": "JH"})  # hearts are trumps
    card = make_agent("greedy").act(state, state.legal_actions(), random.Random(0))
    assert card == LAYOUT.parse("QH")  # the royal marriage (40), by its queen (3 points, not 4)
    state.apply(card)
    assert declared(state) == [(L, "royal marriage", 40)]
