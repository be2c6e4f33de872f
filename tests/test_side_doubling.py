"""Doublings said by a player for his side after the contract (`for_side` announcements beside a
called partner: Schafkopf's Kontra and Re, Sheepshead's crack and re-crack, Skat's Kontra until a
defender's first card), the reply-only window (`before_card: 0`), and what they tell whom: the
announcer's side, never the hidden partner's by his silence."""
from __future__ import annotations

import random
from typing import Iterator

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState
from couillon_dsl.explain import explain
from couillon_dsl.model import Ruleset
from example_games import FOLDER
from honesty import twins_look_the_same, unplayed_called_card_twins

SCHAFKOPF = build_ruleset(str(FOLDER / "schafkopf.yaml"))
SHEEPSHEAD = build_ruleset(str(FOLDER / "sheepshead.yaml"))


def for_sides(state: GameState, seat: int) -> list[tuple[str, int]]:
    """The announcements made for a side (`for_side`: Kontra, Re, crack...) as ``seat`` sees them, with their
    sayers: not a knock, which every seat is asked during the deal and which tells no side."""
    sided = {a.id for a in state.ruleset.announcements if a.for_side}
    return [(a, s) for a, s in state.view(seat).announcements if a in sided]


def kontra_games(ruleset: Ruleset, seeds: int) -> Iterator[GameState]:
    """Hands of ``ruleset`` greedy plays until the first card after a doubling for a side was said, the
    called card still in play."""
    greedy = make_agent("greedy")
    for seed in range(seeds):
        state = GameState(ruleset, seed=seed)
        state.deal_shuffled(random.Random(seed))
        rng = random.Random(seed)
        while not state.is_terminal() and state.current_player() != CHANCE:
            said = bool(for_sides(state, 0))
            state.apply(greedy.act(state, state.legal_actions(), rng))
            if said and state.called is not None and state.called >= 0 and state.phase == "play":
                yield state
                break


def test_a_doubler_is_on_his_side_in_every_world_another_seat_samples() -> None:
    """Whoever said Kontra (crack) or Re (re-crack) is on that side in every world any other seat
    samples: the replay refuses the announcement where its sayer would hold the called card. (A
    Sheepshead picker who called a ten holds every fail ace, which the sampler learns only by replay,
    so it may find no world there in its attempts: those seats are not counted.)"""
    checked = 0
    for ruleset in (SCHAFKOPF, SHEEPSHEAD):
        for state in kontra_games(ruleset, 120):
            for seat in range(ruleset.players.count):
                worlds = Sampler().worlds(state, seat, 4, random.Random(seat))
                for world in worlds:
                    assert all(world.sides[s] == state.sides[s] for _, s in for_sides(state, seat))
                checked += bool(worlds)
    assert checked >= 20


def test_the_silent_partner_is_not_told_from_a_silent_defender() -> None:
    """After a doubling for a side, trading the unplayed called card between two other seats (the
    hidden partner, who may not say Kontra, and a defender who did not) changes neither the view of
    a third seat, the worlds it samples nor any search's choice: being left unasked tells nothing."""
    def cases() -> Iterator[tuple[GameState, int, int, int, int]]:
        for case in unplayed_called_card_twins(SHEEPSHEAD, caller=False, cards=3):
            if for_sides(case[0], case[3]):
                yield case
        for case in unplayed_called_card_twins(SCHAFKOPF, caller=True, cards=2):
            if for_sides(case[0], case[3]):
                yield case

    twins_look_the_same(cases(), wanted=2)


def test_a_reply_only_announcement_is_never_offered_on_its_own_and_reads_so() -> None:
    rs = build_ruleset(str(FOLDER / "skat.yaml"), {"kontra": True})
    assert rs.tables.side_deadlines[[a.id for a in rs.announcements].index("re")] == 0
    text = explain(SCHAFKOPF)
    assert "may announce Re only once Kontra was announced" in text
    assert "may announce Kontra on any of their turns until their first card is played" in text
