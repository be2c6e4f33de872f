"""An announcement a card allows (the Mit) leaks nothing when it is not made.

At a real table a silent holder of the Mit cannot be told from the card lying unseen among
the cards set aside. So for every other seat, moving the card between a silent seat's hand
and the unseen cards (swapping it with an unseen card there: one set aside, or where nothing
is set aside, one in another hand) must change nothing it can
observe: its view, the game's public actions (the history without this deal's pack
draws, which is what records, replays and agents read), and the decision of every agent.
"""
from __future__ import annotations

import random
from typing import Iterator

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.model import Ruleset

RULESETS = ["kujong", "mit", "mit-6", "mit-8"]
AGENT_SPECS = ["random", "greedy", "pimc:samples=6", "ismcts:iterations=30:worlds=6"]
POSITIONS = 4  # per ruleset


def unseen_by_everyone(state: GameState) -> int:
    """Cards in no hand, not played and not face up: the cards set aside (or not yet dealt)."""
    rs = state.ruleset
    held = 0
    for seat in range(rs.players.count):
        held |= state.hand_of(seat)
    view = state.view(0)
    for _, card in view.played:
        held |= 1 << card
    for card, _ in view.face_up:
        held |= 1 << card
    return rs.layout.full_mask & ~held


def replayed(rs: Ruleset, history: list[int], deal_start: int, a: int, b: int) -> GameState | None:
    """The game again with cards ``a`` and ``b`` swapped in this deal, the holder staying silent.

    Should the engine ask a seat whether to announce (a question the other game did not
    ask, or did), the answer is "no" and the other game's "no" is skipped: the silent
    holder's play is the same either way. None if an action became illegal.
    """
    state = GameState(rs)
    decline = state.actions.decline
    swap = {a: b, b: a}
    try:
        for i, action in enumerate(history):
            if i < deal_start:
                state.apply(action)
                continue
            while action != decline and decline in state.legal_actions():
                state.apply(decline)
            if action == decline and decline not in state.legal_actions():
                continue
            state.apply(swap.get(action, action))
    except IllegalAction:
        return None
    return state


def twins(rs: Ruleset, seed: int) -> Iterator[tuple[int, int, GameState, GameState]]:
    """(seat to move, start of this deal, the game, the game with the announcement card moved elsewhere
    unseen: into the cards set aside, or another hand) at play decisions after a first trick without announcement."""
    card = next(c for c in rs.tables.holder_cards if c >= 0)
    rng = random.Random(seed)
    state = GameState(rs)
    deal_start = 0
    was_chance = False
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            if not was_chance:
                deal_start = len(state.history())
            was_chance = True
            state.apply(rng.choice(state.chance_outcomes())[0])
            continue
        was_chance = False
        view = state.view(seat)
        silent = len(view.played) >= rs.players.count and not view.announcements  # trick 1 over, nothing announced
        if view.phase == "play" and silent and not view.hand >> card & 1:
            pool = unseen_by_everyone(state)
            where = {c: s for s in range(rs.players.count) for c in range(rs.layout.size) if state.hand_of(s) >> c & 1}
            where.update({c: -1 for c in range(rs.layout.size) if pool >> c & 1})
            # every card this seat cannot see, elsewhere than the announcement card: set aside first
            others = sorted((c for c, place in where.items() if place not in (seat, where.get(card))),
                            key=lambda c: (where[c] != -1, c)) if where.get(card, seat) != seat else []
            for other in others:
                twin = replayed(rs, state.history(), deal_start, card, other)
                if twin is not None:
                    yield seat, deal_start, state, twin
                    break
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", RULESETS)
def test_a_silent_holder_cannot_be_told_from_the_unseen_cards(name: str) -> None:
    rs = build_ruleset(name)
    ncards = rs.layout.size
    found = 0
    for seed in range(40):
        for seat, deal_start, state, twin in twins(rs, seed):
            assert twin.view(seat) == state.view(seat)
            draws = slice(deal_start, deal_start + ncards)
            public, twin_public = state.history(), twin.history()
            del public[draws], twin_public[draws]
            assert [state.action_to_string(a) for a in public] == [twin.action_to_string(a) for a in twin_public]
            for spec in AGENT_SPECS:
                legal = state.legal_actions()
                assert twin.legal_actions() == legal
                mine = make_agent(spec).act(state, legal, random.Random(seed))
                theirs = make_agent(spec).act(twin, legal, random.Random(seed))
                assert mine == theirs, f"{spec} decides differently when the card is moved"
            found += 1
            if found == POSITIONS:
                return
    raise AssertionError(f"only {found} positions found")
