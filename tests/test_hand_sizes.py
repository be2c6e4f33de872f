"""A number of cards dealt that changes from deal to deal: a `packet` schedule (examples/oh-hell.yaml).

The game's k-th hand (from 0, again from 0 in each game) deals the schedule's entry k % len;
the tricks of the hand, the bids allowed and the hook follow that hand's size, the tables of a
ruleset without a schedule are the dealers' plans as before, and the kernel and the rollout
decline a schedule. A hand that deals the whole pack leaves no card to turn up for trump:
with `if_stock_empty: no_trump` it is played without trump; without it the deal is refused.
"""
from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl import api
from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.builtin import builtin_names
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.explain import deal_step_sentences, hand_sentence, schedule_text
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.model import Ruleset
from example_games import EXAMPLES
from variants import refused

OH_HELL = Path(__file__).resolve().parents[1] / "examples" / "oh-hell.yaml"
RS = api.load(OH_HELL)
UP_AND_DOWN = [*range(1, 11), *range(10, 0, -1)]
WHOLE_PACK = [*range(1, 14), *range(12, 0, -1)]


def check_game(rs: Ruleset, state: GameState, schedule: list[int]) -> None:
    """Every hand of a finished game: its seats each dealt the schedule's entry for the hand and
    played them all, no card twice, and no bid above the hand's tricks; a hand of the whole pack
    (nothing left to turn up) without trump, every other with the turned card's."""
    for k, hand in enumerate(state.hands):
        size = schedule[k % len(schedule)]
        assert rs.tables.tricks_of(k) == size
        assert len(hand.played_tricks) == size
        played = [card for _, cards, _ in hand.played_tricks for card in cards]
        assert len(played) == len(set(played)) == size * rs.players.count
        for seat in range(rs.players.count):  # a seat plays one card a trick: it was dealt ``size``
            assert sum(1 for leader, cards, _ in hand.played_tricks for i, _ in enumerate(cards)
                       if (leader + i) % rs.players.count == seat) == size
        assert all(0 <= bid <= size for bid in hand.bids)
        assert (hand.trump is None) == (size * rs.players.count == rs.layout.size)


@pytest.mark.parametrize("seed", range(4))
def test_a_game_is_one_pass_through_the_schedule(seed: int) -> None:
    state = GameState(RS)
    state.play_random(random.Random(seed))
    assert [h.number for h in state.hands] == list(range(1, 21)) and state.result is not None
    check_game(RS, state, UP_AND_DOWN)


def test_the_hand_size_is_public_and_read_as_the_game_goes() -> None:
    """Step by step: ``hand_tricks`` is each hand's entry from its first card to its last, and
    every seat is dealt that many cards."""
    state, rng, seen = GameState(RS), random.Random(5), []
    while state.result is None:
        if state.current_player() == CHANCE:
            state.deal_shuffled(rng)
            seen.append(state.hand_tricks)
            assert all(state.hand_of(seat).bit_count() == state.hand_tricks for seat in range(4))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert seen == UP_AND_DOWN


def test_a_bid_above_the_hands_tricks_is_refused_with_the_hand_size() -> None:
    state = GameState(RS, seed=1)
    state.deal_shuffled()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["bid 0", "bid 1"]
    for number in (2, 10):  # within bids.highest, above the hand's one trick
        with pytest.raises(IllegalAction, match="this hand has only 1 trick$"):
            state.apply(state.string_to_action(None, f"bid {number}"))


def test_fixed_sizes_keep_one_plan_per_dealer() -> None:
    """Without a schedule the plans are the dealers' (index = dealer), exactly as before."""
    for name in [*builtin_names(), *EXAMPLES]:
        rs = build_ruleset(name, {"schedule": "fixed"} if name == str(OH_HELL) else None)
        if any(isinstance(step.packet, tuple) for step in rs.deal):
            continue  # a schedule of its own (Wizard's)
        t = rs.tables
        assert t.deal_cycle == 1 and len(t.deal_plans) == len(t.deal_prefixes) == rs.players.count, name
        assert [t.plan_index(hand, dealer) for hand in (0, 7) for dealer in range(2)] == [0, 1, 0, 1]
        assert t.hand_tricks == (max(rs.tables.hand_tricks),)


def test_a_schedule_has_one_plan_per_hand_of_the_cycle_and_dealer() -> None:
    t = RS.tables
    assert t.deal_cycle == 20 and len(t.deal_plans) == 80 and t.hand_tricks == tuple(UP_AND_DOWN)
    assert t.plan_index(21, 3) == 1 * 4 + 3  # the next game's second hand, the fourth dealer
    assert RS.bids is not None and RS.bids.highest == 10  # left out: the largest hand's tricks
    assert api.load(OH_HELL, {"schedule": "down_and_up"}).tables.hand_tricks == tuple(reversed(UP_AND_DOWN[10:] + UP_AND_DOWN[:10]))


def test_the_kernel_and_the_rollout_decline_a_schedule() -> None:
    reason = ruleset_reason(RS)
    assert reason is not None and "a hand size that changes from deal to deal" in reason
    assert RS.rollout is None


def test_the_sampler_deals_worlds_of_the_hands_size() -> None:
    """Mid-bid in the fifth deal (five cards each), every world the sampler draws gives each seat
    five cards, the seat's own among them, and replays to the seat's view."""
    state, rng = GameState(RS), random.Random(2)
    while state.hand_number < 5 or state.current_player() == CHANCE:
        if state.current_player() == CHANCE:
            state.deal_shuffled(rng)
        else:
            state.apply(rng.choice(state.legal_actions()))
    state.apply(state.legal_actions()[0])  # the elder bids
    seat = state.current_player()
    worlds = Sampler().worlds(state, seat, 12, random.Random(3))
    assert len(worlds) == 12
    for world in worlds:
        assert world.hand_tricks == 5 and world.view(seat) == state.view(seat)
        assert all(world.hand_of(s).bit_count() == 5 for s in range(4))


def test_the_rulebook_reads_the_schedule() -> None:
    assert schedule_text(UP_AND_DOWN) == "1 up to 10, then 10 down to 1"
    assert schedule_text([1, 3, 2, 2, 7, 6, 5]) == "1, then 3, then 2, then 2, then 7 down to 5"
    assert hand_sentence(RS) == ("each player now holds the hand's N cards, from 1 to 10, so a hand has as many tricks; "
                                 "from 12 to 48 of the 52 cards are not played")
    assert hand_sentence(api.load(OH_HELL, {"schedule": "fixed", "cards": 7})) == (
        "each player now holds 7 cards, so a hand has 7 tricks; 24 of the 52 cards are not played")
    # the hand without trump is told only where a deal leaves no card to turn up
    assert deal_step_sentences(api.load(OH_HELL, {"schedule": "whole_pack"}))[2] == (
        "turn the top card of the stock face up; when the deal has left no card in the stock, none is turned "
        "and the hand is played without trump")
    assert deal_step_sentences(RS)[2] == "turn the top card of the stock face up"


def test_a_deal_of_the_whole_pack_is_played_without_trump() -> None:
    """schedule=whole_pack: the thirteenth deal gives every card, none is turned up, and each of
    its tricks goes to the highest card of the suit led, a trump-less hand."""
    rs = api.load(OH_HELL, {"schedule": "whole_pack"})
    state = GameState(rs)
    state.play_random(random.Random(4))
    assert len(state.hands) == 25
    check_game(rs, state, WHOLE_PACK)
    whole = state.hands[12]
    assert whole.trump is None and all(hand.trump is not None for hand in state.hands if hand is not whole)
    layout = rs.layout
    for leader, cards, winner in whole.played_tricks:
        led = [c for c in cards if layout.suit_of(c) == layout.suit_of(cards[0])]
        best = min(led, key=layout.rank_of)  # rank index 0 is the highest
        assert (leader + cards.index(best)) % 4 == winner


def test_the_searches_play_a_hand_without_trump() -> None:
    """The sampler's worlds of a trump-less hand replay to the seat's view, and a search plays it."""
    rs = api.load(OH_HELL, {"schedule": "fixed", "cards": 13, "deals": 1})
    state, rng = GameState(rs), random.Random(6)
    state.deal_shuffled(rng)
    while state.current_player() != CHANCE and state.result is None and not state.is_playing():
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player()
    assert state.context.trump_mask == 0
    worlds = Sampler().worlds(state, seat, 6, random.Random(3))
    assert len(worlds) == 6 and all(world.view(seat) == state.view(seat) for world in worlds)
    card = make_agent("ismcts:iterations=20").act(state, state.legal_actions(), random.Random(1))
    assert card in state.legal_actions()


def test_a_turn_up_needs_a_card_left_in_the_stock(tmp_path: Path) -> None:
    """Packets dealt from the stock may empty it: a turn-up after them is refused by validation,
    as by the compiler (before, it validated and the engine failed at the deal), unless the hand
    may be played without trump; that needs the turned card to be what fixes trump."""
    emptied = ("deal:\n  - {packet: 2, to: all}\n  - {stock: rest}\n  - {packet: 2, to: all}\n"
               "  - {packet: 2, to: all}\n  - {turn_up: stock_top%s}\n  - {decide: trump}\n"
               "trump: {method: turned, offer: null}\n")
    assert refused(tmp_path, "couillon", emptied % "") == ["turn-up-without-stock"]
    rs = api.load(OH_HELL, {"schedule": "fixed", "cards": 13})
    assert rs.tables.turns_nothing and not api.load(OH_HELL).tables.turns_nothing
    offered = emptied.replace("trump: {method: turned, offer: null}", "trump: {offer: {on_all_pass: redeal}}")
    assert refused(tmp_path, "couillon", offered % ", if_stock_empty: no_trump") == ["empty-turn-up-not-turned"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schedule=st.lists(st.integers(1, 13), min_size=1, max_size=5), deals=st.integers(1, 12),
       seed=st.integers(0, 2**16))
def test_any_schedule_deals_its_entries_hand_after_hand(schedule: list[int], deals: int, seed: int) -> None:
    """Whatever the schedule and the game's length (shorter than the schedule, or running round it
    again), each hand deals its entry and the game lasts its deals."""
    with tempfile.TemporaryDirectory() as folder:
        variant = Path(folder) / "schedule.yaml"
        variant.write_text(f"extends: {OH_HELL}\nid: schedule\nname: Schedule\noptions: null\n"
                           f"deal:\n  - {{packet: {schedule}, to: all}}\n  - {{stock: rest}}\n"
                           f"  - {{turn_up: stock_top, if_stock_empty: no_trump}}\n  - {{decide: trump}}\n"
                           f"scoresheet: {{deals: {deals}}}\n")
        rs = api.load(variant)
    state = GameState(rs)
    state.play_random(random.Random(seed))
    assert len(state.hands) == deals
    check_game(rs, state, schedule)
