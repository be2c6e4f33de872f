"""Seats sitting a hand out (`sits_out: partners`: Euchre's going alone, examples/euchre.yaml).

Once the maker announces `alone` before the first lead, his partner keeps his cards, plays none
and is never the seat to act; tricks have three cards, the first lead passes over him, and the
hand ends when the players' hands are empty (his is not). Who played which card comes from
``play_orders``. His cards stay hidden: moving them between him and another hidden hand changes
neither another seat's view, nor its sampled worlds, nor a search's choice.
The scenarios tests/scenarios/euchre-alone*.yaml check hand-made deals.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.api import load
from couillon_dsl.cards import iter_bits
from couillon_dsl.engine import CHANCE, GameState, play_orders
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.validate import check
from honesty import same_worlds, swapped_game

EUCHRE = str(Path(__file__).resolve().parents[1] / "examples" / "euchre.yaml")
RS = load(EUCHRE)
LAYOUT = RS.layout
NCARDS = LAYOUT.size
ACTS = GameState(RS).actions
ALONE = ACTS.announce0 + [a.id for a in RS.announcements].index("alone")


def test_play_orders_skip_the_seats_sitting_out() -> None:
    assert play_orders(4) == RS.tables.rounds
    assert play_orders(4, (3,)) == ((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 1, 2))
    assert play_orders(4, (1,))[1] == (2, 3, 0)  # a leader sitting out hands the lead to the next seat in play


def choose(state: GameState, rng: random.Random, alone: bool) -> int:
    """A random legal action, but going alone whenever ``alone`` and it is offered."""
    legal = state.legal_actions()
    if alone and ALONE in legal:
        return ALONE
    return rng.choice(legal)


def play_checked_hand(state: GameState, rng: random.Random, alone: bool) -> None:
    """Play one hand (from its deal) at random, checking at every step what sitting out means."""
    hands_before = len(state.hands)
    sitting: tuple[int, ...] = ()
    sitters_cards = 0
    played = 0
    while len(state.hands) == hands_before:
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        seat = state.current_player()
        if state.sitting_out and not sitting:  # just announced, before the first lead
            sitting = state.sitting_out
            sitters_cards = sum(state.hand_of(s) for s in sitting)
            assert all(state.hand_of(s).bit_count() == 5 for s in sitting)
        assert seat not in sitting, "a seat sitting out was asked to act"
        action = choose(state, rng, alone)
        if state.is_playing() and action < NCARDS:
            assert not played >> action & 1, "a card played twice"
            played |= 1 << action
            maker_cards = [state.hand_of(s).bit_count() for s in range(4) if s not in sitting]
            last = sum(maker_cards) == 1
        state.apply(action)
    summary = state.hands[-1]
    assert summary.sitting_out == sitting
    if summary.outcome == "passed_out":
        return
    size = 4 - len(sitting)
    assert all(len(cards) == size for _, cards, _ in summary.played_tricks)
    assert len(summary.played_tricks) == 5 and played.bit_count() == 5 * size
    assert not played & sitters_cards, "a card of a seat sitting out was played"
    assert last, "the hand ended before every playing seat's hand was empty"
    for leader, cards, winner in summary.played_tricks:
        assert leader not in sitting and winner not in sitting
        assert winner in play_orders(4, sitting)[leader][:len(cards)]
    if sitting:
        maker_seat = summary.deciding_seat
        assert summary.announcements == (("alone", maker_seat),)
        assert sitting == tuple(s for s in range(4) if s != maker_seat and s % 2 == maker_seat % 2)
        assert sum(summary.tricks) == 5


@pytest.mark.parametrize("seed", range(12))
def test_random_hands_alone_and_not(seed: int) -> None:
    rng = random.Random(seed)
    state = GameState(RS, seed=seed)
    for hand in range(6):
        play_checked_hand(state, rng, alone=hand % 3 != 2)
        if state.is_terminal():
            break


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), alone=st.booleans())
def test_any_hand_keeps_every_card_once_and_the_sitter_out(seed: int, alone: bool) -> None:
    play_checked_hand(GameState(RS, seed=seed), random.Random(seed), alone)


def test_the_elder_sitting_out_hands_the_first_lead_to_the_next_seat() -> None:
    state = GameState(RS, seed=3)
    state.deal_shuffled(random.Random(3))
    state.apply(ACTS.pass_)  # the elder (1) passes, his partner (3) orders up
    state.apply(ACTS.pass_)
    state.apply(ACTS.accept)
    state.apply(ACTS.discard0 + next(iter_bits(state.hand_of(0))))  # the dealer takes the card, discards
    assert state.current_player() == 3 and sorted(state.legal_actions()) == sorted([ALONE, ACTS.decline])
    state.apply(ALONE)
    assert state.sitting_out == (1,)
    assert state.current_player() == 2 and state.current_trick() == (2, ())
    view = state.view(0)
    assert view.sitting_out == (1,) and view.leader == 2 and view.hand_sizes[1] == 5
    assert state.view(1).hand == state.hand_of(1)  # he sees his own cards; nobody else does
    assert all(not state.view(s).hand & state.hand_of(1) for s in (0, 2, 3))


def test_a_declined_alone_and_the_next_deal_have_every_seat_play() -> None:
    state = GameState(RS, seed=5)
    rng = random.Random(5)
    play_checked_hand(state, rng, alone=True)
    assert state.sitting_out == () or state.is_terminal()
    while state.is_chance_node():
        state.deal_shuffled(rng)
    assert state.view(0).sitting_out == ()


def test_random_play_out_plays_tricks_of_three_while_a_seat_sits_out() -> None:
    """The fast whole-hand play deals every trick to every seat: play_random must not use it then."""
    seen = 0
    for seed in range(40):
        state = GameState(RS, seed=seed)
        state.play_random(random.Random(seed))
        for summary in state.hands:
            size = 4 - len(summary.sitting_out)
            assert all(len(cards) == size for _, cards, _ in summary.played_tricks)
            seen += bool(summary.sitting_out)
    assert seen > 20


def test_a_march_alone_scores_four_and_a_march_with_the_partner_two() -> None:
    marches = {True: set(), False: set()}
    for seed in range(60):
        state = GameState(RS, seed=seed)
        state.play_random(random.Random(seed))
        for h in state.hands:
            if h.outcome != "passed_out" and h.winner == h.maker and h.tricks[h.maker] == 5:
                marches[bool(h.sitting_out)].add(h.deltas[h.maker])
    assert marches == {True: {4}, False: {2}}


def test_records_replay_games_with_hands_played_alone() -> None:
    for seed in range(3):
        state = GameState(RS, seed=seed)
        state.play_random(random.Random(seed))
        record = GameRecord.from_state(state, ruleset=EUCHRE, seed=seed)
        assert any(h.get("sitting_out") for h in record.outcome["hands"])
        assert replay(record, RS) is None


def test_the_kernel_declines_an_announcement_that_sends_seats_out() -> None:
    reason = ruleset_reason(RS)
    assert reason is not None and "by" in reason


# ---------------------------------------------------------------------- greedy


def offered_alone(hand: list[str]) -> GameState:
    """The elder holds ``hand``, orders up the 9D and is asked whether he goes alone."""
    probe = GameState(RS)
    probe.deal_pack(list(range(NCARDS)))
    spots = list(iter_bits(probe.hand_of(1)))
    pack = [-1] * NCARDS
    for position, card in zip(spots, hand):
        pack[position] = LAYOUT.parse(card)
    pack[probe.offered] = LAYOUT.parse("9D")  # type: ignore[index]
    rest = [c for c in range(NCARDS) if c not in pack]
    state = GameState(RS)
    state.deal_pack([c if c >= 0 else rest.pop() for c in pack])
    state.apply(ACTS.accept)
    state.apply(ACTS.discard0 + next(iter_bits(state.hand_of(0))))
    assert state.current_player() == 1 and ALONE in state.legal_actions()
    return state


def test_greedy_goes_alone_only_with_a_hand_that_cannot_lose_a_trick() -> None:
    greedy = GreedyAgent()
    sure = offered_alone(["JD", "JH", "AD", "KD", "QD"])  # both bowers and the next three trumps
    assert greedy.act(sure, sure.legal_actions(), random.Random(0)) == ALONE
    strong = offered_alone(["JD", "JH", "AD", "KD", "AS"])  # the queen of trumps is out
    assert greedy.act(strong, strong.legal_actions(), random.Random(0)) == ACTS.decline


def test_greedy_feeds_a_partner_only_when_the_partner_plays_to_the_trick() -> None:
    """With the maker's partner sitting out, the dealer's side's 'last to play' is the third card."""
    state = offered_alone(["JD", "JH", "AD", "KD", "QD"])
    state.apply(ALONE)
    assert state.play_order(1) == (1, 2, 0)
    greedy = GreedyAgent()
    rng = random.Random(1)
    while not state.hands:
        state.apply(greedy.act(state, state.legal_actions(), rng))
    summary = state.hands[-1]
    assert summary.sitting_out == (3,) and summary.tricks[1] == 5 and summary.deltas[1] == 4


# ---------------------------------------------------------------------- hidden information


def alone_in_play(seed: int, plays: int) -> GameState:
    """A deal where the elder's partner (seat 3) orders up and goes alone, so the elder sits out;
    then ``plays`` cards played by greedy."""
    rng = random.Random(seed)
    state = GameState(RS, seed=seed)
    state.deal_shuffled(rng)
    state.apply(ACTS.pass_)
    state.apply(ACTS.pass_)
    state.apply(ACTS.accept)
    greedy = GreedyAgent()
    state.apply(greedy.act(state, state.legal_actions(), rng))  # the dealer's discard
    state.apply(ALONE)
    while len(state.view(0).played) < plays:
        state.apply(greedy.act(state, state.legal_actions(), rng))
    return state


@pytest.mark.parametrize("plays", [0, 2, 4])
def test_moving_the_sitters_cards_changes_nothing_another_seat_sees_or_does(plays: int) -> None:
    checked = 0
    for seed in range(20):
        state = alone_in_play(seed, plays)
        seat = state.current_player()
        if state.hands or seat == CHANCE:
            continue
        view = state.view(seat)
        played = sum(1 << c for _, c in view.played) | sum(1 << c for c, _ in view.face_up)  # seen: not moved
        others = [s for s in (0, 2, 3) if s != seat]  # the hands ``seat`` cannot see, besides the sitter's
        for sitter_card in iter_bits(state.hand_of(1)):
            twin = next((t for s in others for c in iter_bits(state.hand_of(s) & ~played)
                         if (t := swapped_game(state, sitter_card, c)) is not None), None)
            if twin is not None:
                assert twin.hand_of(1) != state.hand_of(1) and twin.current_player() == seat
                same_worlds(state, twin, seat, seed)
                checked += 1
                break
        if checked == 2:
            break
    assert checked == 2


def test_every_world_keeps_the_sitter_out_with_five_unseen_cards() -> None:
    state = alone_in_play(4, 3)
    seat = state.current_player()
    view = state.view(seat)
    for world in Sampler().worlds(state, seat, 6, random.Random(4)):
        assert world.view(seat) == view and world.sitting_out == (1,)
        assert world.hand_of(1).bit_count() == 5 and not world.hand_of(1) & view.hand


def test_the_searches_play_hands_alone_to_the_end() -> None:
    rng = random.Random(7)
    for spec in ("pimc:samples=2", "ismcts:iterations=8:worlds=2"):
        state = alone_in_play(7, 0)
        agent = make_agent(spec)
        while not state.hands:
            assert state.current_player() != 1
            state.apply(agent.act(state, state.legal_actions(), rng))
        assert state.hands[-1].sitting_out == (1,)


def test_a_whole_game_between_searches_and_greedy() -> None:
    rng = random.Random(11)
    agents = [make_agent(s) for s in ("pimc:samples=2", "greedy", "ismcts:iterations=6:worlds=2", "greedy")]
    state = GameState(RS, seed=11)
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        seat = state.current_player()
        assert seat not in state.sitting_out
        legal = state.legal_actions()
        state.apply(ALONE if ALONE in legal and seat % 2 == 0 else agents[seat].act(state, legal, rng))
    assert state.result is not None and any(h.sitting_out for h in state.hands)


def test_a_card_that_must_open_the_first_trick_is_refused_beside_sitting_out(tmp_path: Path) -> None:
    """Its holder may be the seat sent out, which would leave the opening card unplayable."""
    variant = tmp_path / "opening.yaml"
    variant.write_text(f"extends: {EUCHRE}\nid: opening\nname: Opening\nplay:\n  first_lead_card: 9C\n",
                       encoding="utf-8")
    [found] = [d for d in check(load_ruleset(variant)) if d.code == "sits-out-unsupported"]
    assert "play.first_lead_card" in found.message and found.pointer == "/announcements/alone/sits_out"
