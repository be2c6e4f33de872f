"""A contract played alone or open (`contracts.<id>.sits_out: partners`, `shows_hand`): Five
Hundred's misère, the declarer's partner sitting the hand out, and open misère, his cards face up
for everyone before the first lead (examples/five-hundred.yaml). The hand-checked case is
tests/scenarios/five-hundred-seven-hearts.yaml (an 8 misère played alone).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.api import load
from couillon_dsl.engine import CHANCE, GameState

RS = load(str(Path(__file__).resolve().parents[1] / "examples" / "five-hundred.yaml"))


def declared(bid: str, seed: int) -> GameState:
    """A deal whose first speaker bids ``bid``, the others passing; the declarer's discards at random."""
    rng = random.Random(seed)
    state = GameState(RS, seed=seed)
    state.deal_shuffled(rng)
    state.apply(state.string_to_action(state.current_player(), bid))
    for _ in range(3):
        state.apply(state.string_to_action(state.current_player(), "pass"))
    while not state.is_playing():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize(("bid", "alone", "open_"), [
    ("bid 8 misere", True, False), ("bid 10 open_misere", True, True), ("bid 6 spades", False, False)])
def test_misere_is_played_alone_and_open_misere_face_up(bid: str, alone: bool, open_: bool) -> None:
    for seed in range(3):
        state = declared(bid, seed)
        assert state.current_player() != CHANCE
        declarer = state.current_player()  # the declarer leads (`first_lead: maker`)
        assert state.sitting_out == (((declarer + 2) % 4,) if alone else ())
        held = {card for card in range(RS.layout.size) if state.hand_of(declarer) >> card & 1}
        for seat in range(4):
            shown = {card for card, holder in state.view(seat).face_up if holder == declarer}
            assert shown == (held if open_ else set())
        state.apply(state.legal_actions()[0])  # a card played leaves the others shown
        if open_:
            left = {card for card, holder in state.view(1 - declarer % 2).face_up if holder == declarer}
            assert left == held - {state.current_trick()[1][0]}
