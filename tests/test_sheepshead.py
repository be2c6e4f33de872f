"""Sheepshead for five (examples/sheepshead.yaml): a picker found by an offer round (a ladder of one
contract bid once round), who takes the blind, buries two and calls a fail ace; a picker left with
nothing to call plays alone (`call.if_none: alone`); a Leaster when everyone passes, won by the fewest
card points among the players who took a trick (`fewest_points_with_tricks`).
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.simulation import play_game
from example_games import FOLDER
from honesty import twins_look_the_same, unplayed_called_card_twins
from packs import pack_dealing, paid_by_role_shares, random_hands, say

PATH = str(FOLDER / "sheepshead.yaml")
RS = build_ruleset(PATH, {"deals": 1})
LAYOUT = RS.layout
ACTS = GameState(RS).actions
DEALER = 0  # seat 1 is the elder, who speaks first


def deal(hands: dict[int, str], kitty: str = "", seed: int = 0, rs=RS) -> GameState:  # type: ignore[no-untyped-def]
    """A game dealt by seat 0: ``hands`` (seat -> some of its cards, by name) and the ``kitty``, the rest
    at random."""
    state = GameState(rs)
    state.apply(state.actions.dealer0 + DEALER)
    ids = {seat: [rs.layout.parse(name) for name in names.split()] for seat, names in hands.items()}
    state.deal_pack(pack_dealing(rs, DEALER, ids, [rs.layout.parse(n) for n in kitty.split()], seed=seed))
    return state


def legal(state: GameState) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def test_the_first_to_pick_is_the_picker_and_the_others_only_pass() -> None:
    state = deal({1: "QC QS JC AD 9C 7S"})
    assert legal(state) == ["contract pick", "pass"]
    say(state, "contract pick")
    assert legal(state) == ["pass"]


def test_a_seat_without_a_fail_card_may_pick_and_plays_alone_when_it_has_nothing_to_call() -> None:
    """`if_none: alone`: an all-trump hand may pick (Schafkopf's Sauspiel refuses it, test_called_partner);
    having buried nothing but trumps... he still holds no fail card, so he is not asked to call."""
    state = deal({1: "QC QS QH JC AD 10D"}, kitty="KD 9D")
    assert "contract pick" in legal(state)
    say(state, "contract pick", "pass", "pass", "pass", "pass", "discard KD", "discard 9D")
    assert state.phase == "play" and state.current_player() == 1 and state.called == -1
    assert state.sides == (1, 0, 1, 1, 1) and state.view(3).sides == (1, 0, 1, 1, 1)


def test_the_call_follows_the_bury() -> None:
    """The hold card is judged after the bury: burying his only heart leaves the heart ace uncallable."""
    state = deal({1: "QC QS JC 9C 7S 8H", 0: "AS"}, kitty="AD 10D")
    say(state, "contract pick", "pass", "pass", "pass", "pass", "discard 8H", "discard 7S")
    assert legal(state) == ["call AC", "call nobody"]


def test_holding_the_three_fail_aces_he_calls_a_ten_of_a_suit_he_holds() -> None:
    state = deal({1: "AC AS AH QC QS 9C"}, kitty="7D 8D")
    say(state, "contract pick", "pass", "pass", "pass", "pass", "discard 7D", "discard 8D")
    assert legal(state) == ["call 10C", "call 10H", "call 10S", "call nobody"]


def test_the_picker_may_call_nobody_and_play_alone_which_everyone_learns_at_once() -> None:
    """`alone_by_choice`: "call nobody" is offered beside the aces he may call; the sides are public
    at once (no card hides them), and he is paid four shares alone (the scenario
    sheepshead-alone-by-choice.yaml scores a whole hand)."""
    state = deal({1: "QC QS QH JC 9S 7H"}, kitty="7S 8S")
    say(state, "contract pick", "pass", "pass", "pass", "pass", "discard 7S", "discard 8S")
    assert legal(state) == ["call AH", "call AS", "call nobody"]
    say(state, "call nobody")
    assert state.phase == "play" and state.called == -2
    assert all(state.view(seat).sides == (1, 0, 1, 1, 1) for seat in range(5))
    with pytest.raises(IllegalAction):
        say(state, "call AH")  # the call is made: not asked again


def test_calling_up_the_picker_holding_the_jack_of_diamonds_calls_the_next_jack_he_lacks() -> None:
    """partner=jack_of_diamonds_call_up: `otherwise` as a ladder [[JH], [JS], [JC]] with `own: forbidden`;
    a picker holding all four jacks has nothing to call and plays alone (`if_none: alone`)."""
    rs = build_ruleset(PATH, {"deals": 1, "partner": "jack_of_diamonds_call_up"})
    without = deal({1: "QC QS JC AD 9C 7S"}, kitty="8H 7H", rs=rs)
    say(without, "contract pick", "pass", "pass", "pass", "pass", "discard 8H", "discard 7H")
    assert legal(without) == ["call JD", "call nobody"]
    up = deal({1: "QC QS JD JH 9C 7S", 2: "JS"}, kitty="8H 7H", rs=rs)
    say(up, "contract pick", "pass", "pass", "pass", "pass", "discard 8H", "discard 7H")
    assert legal(up) == ["call JS", "call nobody"]
    say(up, "call JS")
    assert up.sides == (1, 0, 0, 1, 1) and up.view(0).sides == (1, 0, -1, -1, -1)
    every = deal({1: "JC JS JH JD 9C 7S"}, kitty="8H 7H", rs=rs)
    say(every, "contract pick", "pass", "pass", "pass", "pass", "discard 8H", "discard 7H")
    assert every.phase == "play" and every.sides == (1, 0, 1, 1, 1)


def test_the_jack_of_diamonds_option_calls_it_and_its_holder_is_the_partner() -> None:
    rs = build_ruleset(PATH, {"deals": 1, "partner": "jack_of_diamonds"})
    state = deal({1: "QC QS JC AD 9C 7S", 3: "JD"}, kitty="8H 7H", rs=rs)
    say(state, "contract pick", "pass", "pass", "pass", "pass", "discard 8H", "discard 7H")
    assert legal(state) == ["call JD", "call nobody"]
    say(state, "call JD")
    assert state.sides == (1, 0, 1, 0, 1) and state.view(0).sides == (1, 0, -1, -1, -1)
    alone = deal({1: "QC QS JC JD 9C 7S"}, kitty="8H 7H", rs=rs)
    say(alone, "contract pick", "pass", "pass", "pass", "pass", "discard 8H", "discard 7H", "call JD")
    assert alone.sides == (1, 0, 1, 1, 1) and alone.view(0).sides == (1, 0, -1, -1, -1)  # alone, unknown


@pytest.mark.parametrize("caller", [False, True])
def test_nobody_learns_where_an_unplayed_called_ace_is(caller: bool) -> None:
    twins_look_the_same(unplayed_called_card_twins(build_ruleset(PATH), caller, cards=2 if caller else 3))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_hands_conserve_120_points_and_are_zero_sum(seed: int) -> None:
    """Every card dealt once (six each, two to the blind), six tricks and 120 card points a hand (the
    bury for the picker, the blind to a Leaster's last trick); a picker's side is two seats or him
    alone; each defender pays or is paid the same (1, 2 or 3 units, doubled by each crack and by a blitz), the picker
    two shares beside a partner (the partner one) or four alone, the five summing to zero; a Leaster's winner is paid one by each other player
    (several tied for the fewest each win as if alone)."""
    rs = build_ruleset(PATH, {"deals": 4})
    for event, state in random_hands(GameState(rs, seed=seed), random.Random(seed), 4):
        if event == "deal":
            dealt = [state.hand_of(s) for s in range(5)]
            assert all(h.bit_count() == 6 for h in dealt) and (sum(dealt) ^ rs.layout.full_mask).bit_count() == 2
        elif event == "decide" and state.phase == "call":
            assert legal(state)
        elif event == "hand":
            hand = state.hands[-1]
            assert sum(hand.points) == 120 and sum(hand.tricks) == 6
            if hand.contract == "leaster":
                fewest = min(p for p, n in zip(hand.points, hand.tricks) if n)
                winners = [s for s in range(5) if hand.tricks[s] and hand.points[s] == fewest]
                assert all(hand.deltas[s] == (4 if s in winners else -1) for s in range(5))
                assert len(winners) > 1 or sum(hand.deltas) == 0
                continue
            blitzed = any(meld[0] == "blitz" for meld in hand.melds)
            doubling = 2 ** (len(hand.announcements) + blitzed)  # a crack, a re-crack, a blitz: each doubles
            assert abs(paid_by_role_shares(hand, 5)) in (doubling, 2 * doubling, 3 * doubling)


@pytest.mark.parametrize("agent", ["greedy", "pimc:samples=2", "ismcts:iterations=8:worlds=2"])
def test_the_agents_play_a_deal(agent: str) -> None:
    state = GameState(RS, seed=5)
    play_game(state, [make_agent(agent)] * 5, random.Random(5))
    assert state.is_terminal() and sum(state.result.scores) == 0  # type: ignore[union-attr]
