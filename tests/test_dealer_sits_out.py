"""A dealer who sits every hand out (`players.sit_out: dealer`; four at Skat: examples/skat.yaml
with `--option table=four`).

He is dealt no card, is never the seat to act (bidding, declaring, doubling, playing), every
trick has a card from each of the other three, forehand is the seat after him, and he keeps his
place on the scoresheet. What he cannot see stays hidden from him and from the others as for any
seat: trading two hidden cards changes no seat's view, worlds or choices.
tests/scenarios/skat-four-players.yaml plays a hand-made deal.
"""
from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.rollout import rolls_out_language_v1
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.records import GameRecord, replay
from honesty import twins_look_the_same

SKAT = str(Path(__file__).resolve().parents[1] / "examples" / "skat.yaml")
RS = build_ruleset(SKAT, {"table": "four"})


def play_checked(state: GameState, agents: list[str], rng: random.Random, hands: int) -> None:
    """Play ``hands`` hands, checking at every step that the dealer takes no part."""
    players = [make_agent(spec) for spec in agents]
    while len(state.hands) < hands and not state.is_terminal():
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        dealer, seat = state.dealer, state.current_player()
        assert seat != dealer, f"the dealer sitting out was asked to act ({state.phase})"
        assert state.hand_of(dealer) == 0 and state.sitting_out == (dealer,)
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else players[seat].act(state, legal, rng))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), agents=st.sampled_from([["random"] * 4, ["greedy"] * 4]))
def test_the_dealer_is_dealt_nothing_asked_nothing_and_plays_nothing(seed: int, agents: list[str]) -> None:
    state = GameState(RS, seed=seed)
    play_checked(state, agents, random.Random(seed), 3)
    for hand in state.hands:
        dealer = hand.dealer
        assert hand.sitting_out == (dealer,)
        if hand.outcome == "passed_out":
            continue
        cards = [card for _, trick, _ in hand.played_tricks for card in trick]
        assert len(hand.played_tricks) == 10 and all(len(trick) == 3 for _, trick, _ in hand.played_tricks)
        assert len(set(cards)) == 30  # every card once, the skat's two aside
        assert all(dealer not in (leader, winner) for leader, _, winner in hand.played_tricks)
        assert hand.played_tricks[0][0] == (dealer + 1) % 4  # forehand, on the dealer's left, leads
        assert hand.deltas[dealer] == 0  # only the declarer scores in Skat: nothing reaches the dealer


def test_a_whole_game_between_searches_and_greedy_replays() -> None:
    short = build_ruleset(SKAT, {"table": "four", "deals": 4})  # each seat deals once
    state = GameState(short, seed=4)
    play_checked(state, ["pimc:samples=2", "greedy", "ismcts:iterations=6:worlds=2", "random"], random.Random(4), 4)
    assert state.is_terminal() and len(state.hands) == 4
    assert replay(GameRecord.from_state(state, ruleset=SKAT, seed=4), short) is None


def test_the_dealer_watches_the_hand_as_anyone_who_holds_no_card() -> None:
    state = GameState(RS, seed=9)
    state.deal_shuffled(random.Random(9))
    dealer = state.dealer
    view = state.view(dealer)
    assert view.hand == 0 and view.sitting_out == (dealer,)
    assert all(not state.view(s).hand & state.hand_of(t) for s in range(4) for t in range(4) if s != t)


def test_trading_two_hidden_cards_changes_nothing_a_seat_sees() -> None:
    def cases():
        for seed in range(30):
            state = GameState(RS, seed=seed)
            play_checked(state, ["greedy"] * 4, random.Random(seed), 0)
            while state.is_chance_node():
                state.deal_shuffled(random.Random(seed))
            seat = state.current_player()
            others = [s for s in range(4) if s not in (seat, state.dealer)]
            a, b = (min(iter_bits(state.hand_of(s))) for s in others)
            yield state, a, b, seat, seed

    twins_look_the_same(cases())


def test_the_kernel_and_the_rollout_decline_a_dealer_sitting_out() -> None:
    reason = ruleset_reason(RS)
    assert reason is not None and "players.sit_out" in reason
    assert not rolls_out_language_v1(RS) and RS.rollout is None


def test_the_rulebook_says_the_dealer_sits_out() -> None:
    text = " ".join(explain(RS, "text").split())
    assert "the dealer deals to the other 3 and sits each hand out" in text
    assert "plays alone against the other 2" in text
