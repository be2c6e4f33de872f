"""A `when: led` declaration made by choice (`optional`): Schnapsen's marriage announced or kept
quiet (examples/schnapsen.yaml, option marriage_by_choice).

The player on lead is offered the best marriage he holds beside his cards; announcing it shows it
and binds his lead to one of its cards; leading without announcing declares nothing, even with a
card of the marriage. The hand-checked case is tests/scenarios/schnapsen-marriage-by-choice.yaml.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.api import load
from couillon_dsl.engine import GameState
from packs import agents_game, assert_replays, decisions
from test_agents import assert_blind_to_hidden_cards

SCHNAPSEN = str(Path(__file__).resolve().parents[1] / "examples" / "schnapsen.yaml")
RS = load(SCHNAPSEN, {"marriage_by_choice": True})


def marriages_held(state: GameState, seat: int) -> list[int]:
    """The masks of the king-and-queen pairs ``seat`` holds that were not declared before."""
    declared = {cards for *_, cards in state.view(seat).melds}  # the marriages are shown
    return [m.cards for m in RS.tables.led_offered[0].melds(state.hand_of(seat), state.meld_trump, seat)
            if m.cards not in declared]


def test_the_marriage_is_offered_on_lead_only_and_binds_the_lead_once_announced() -> None:
    offered = announced = quiet = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = GameState(RS, seed=seed)
        for seat in decisions(state, rng):
            legal = state.legal_actions()
            if state.is_playing():
                declare = state.string_to_action(seat, "declare marriage")
                held = marriages_held(state, seat)
                leading = not state.current_trick()[1]
                assert (declare in legal) == (leading and bool(held) and not state.declared_lead())
                if declare in legal:
                    offered += 1
                    if rng.random() < 0.5:
                        hands = len(state.hands)
                        state.apply(declare)
                        announced += 1
                        if len(state.hands) > hands:  # the marriage took its player to 66: the hand stopped
                            continue
                        shown = state.view(seat).melds[-1][-1]
                        assert shown in held and state.legal_mask() == shown & state.hand_of(seat)
                        continue
                    quiet += 1
                    before = state.view(seat).melds
                    state.apply(rng.choice([a for a in legal if a < RS.layout.size]))
                    assert state.view(seat).melds == before  # led without announcing: nothing declared
                    continue
            state.apply(rng.choice(legal))
    assert offered and announced and quiet


@pytest.mark.parametrize("agent", ["random", "greedy", "pimc:samples=4", "ismcts:iterations=40"])
def test_agents_play_whole_games_that_replay(agent: str) -> None:
    state = agents_game(RS, [make_agent(agent) for _ in range(2)], random.Random(3))
    assert_replays(state)


def test_the_searches_decide_the_same_when_hidden_cards_are_permuted() -> None:
    """A quiet marriage leaks nothing: the worlds and the choices are those of any hidden deal the
    seat cannot tell from the true one."""
    assert_blind_to_hidden_cards(RS)
