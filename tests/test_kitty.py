"""The kitty (tests/rulesets/kitty-shape.yaml): dealt to nobody, shown and taken per contract, the
declarer's discard under its rules, card points conserved, and who sees what.

Hidden information: a shown kitty is public; the discard is known to the declarer alone, except
the discards of a shown class (trumps). Permuting a hidden discard with a card another seat
holds unseen changes nothing a third seat observes: its view, and every agent's decision.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.kernel.eligible import ruleset_reason

RULESETS = Path(__file__).parent / "rulesets"
RS = build_ruleset(str(RULESETS / "kitty-shape.yaml"))
LAYOUT = RS.layout
AGENT_SPECS = ["random", "greedy", "pimc:samples=4", "ismcts:iterations=20:worlds=4"]


def mask(*names: str) -> int:
    return LAYOUT.parse_mask(list(names))


def dealt(seed: int, hands: dict[int, list[str]] | None = None, bid: str = "petite") -> GameState:
    """A game whose first deal gives ``hands`` (the rest at random), the elder bidding ``bid`` and
    the others passing: the elder declares."""
    rng = random.Random(seed)
    state = GameState(RS)
    plan = RS.tables.deal_plans[state.dealer]
    positions = {seat: list(p) for seat, p in plan[0][1]}
    pack = [-1] * LAYOUT.size
    chosen = {LAYOUT.parse(c) for cards in (hands or {}).values() for c in cards}
    for seat, cards in (hands or {}).items():
        for position, card in zip(positions[seat], cards):
            pack[position] = LAYOUT.parse(card)
    rest = [c for c in range(LAYOUT.size) if c not in chosen]
    rng.shuffle(rest)
    pack = [c if c >= 0 else rest.pop() for c in pack]
    for card in pack:
        state.apply(card)
    acts = state.actions
    state.apply(state.string_to_action(None, f"contract {bid}"))
    while state.view(0).phase == "auction":
        state.apply(acts.pass_)
    return state


def test_a_shown_and_taken_kitty_is_public_and_joins_the_declarers_hand():
    state = dealt(1)
    declarer = state.current_player()
    assert declarer == state.view(0).deciding_seat == (state.dealer + 1) % 4
    kitty = state.view(declarer).kitty
    assert kitty.bit_count() == 6 and state.hand_of(declarer).bit_count() == 24
    assert kitty & state.hand_of(declarer) == kitty
    assert all(state.view(seat).kitty == kitty for seat in range(4))
    assert state.view(declarer).phase == "discard"


def test_an_unseen_kitty_stays_unseen_and_counts_for_the_side_its_contract_names():
    for bid, owner in (("garde_sans", "declarer"), ("garde_contre", "opponents")):
        state = dealt(2, bid=bid)
        assert state.view(0).phase == "play"
        assert all(state.view(seat).kitty == 0 for seat in range(4))
        assert state.hand_of(state.current_player()).bit_count() == 18
        state.play_random(random.Random(2))
        hand = state.hands[0]
        team = hand.maker if owner == "declarer" else 1 - hand.maker
        aside = RS.layout.full_mask & ~sum(1 << c for _, cards, _ in hand.played_tricks for c in cards)
        assert aside.bit_count() == 6 and sum(hand.points) == 182  # 91 points, in half points
        ctx = RS.tables.context(RS.tables.fixed_trump, 0)
        assert hand.points[team] >= sum(ctx.points[c] for c in range(LAYOUT.size) if aside >> c & 1)


# the elder holds kings, bouts and trumps, and three other cards: 3 + 6 from the kitty may not be enough
STRONG = ["KS", "KH", "KD", "KC", "21T", "1T", "EX", "20T", "19T", "18T", "17T", "16T", "15T", "14T", "13T",
          "QS", "QH", "2S"]


def test_the_discard_never_takes_kings_or_bouts_and_trumps_only_when_unavoidable():
    state = dealt(3, {1: STRONG})
    declarer = state.current_player()
    assert declarer == 1
    acts = state.actions
    hand = state.hand_of(declarer)
    never = mask("KS", "KH", "KD", "KC", "21T", "1T", "EX")
    trumps = LAYOUT.suit_mask(LAYOUT.suits.index("T"))
    free = hand & ~never & ~trumps
    for _ in range(6):
        legal = sum(1 << (a - acts.discard0) for a in state.legal_actions())
        left = 6 - state.view(declarer).discarded.bit_count()
        assert not legal & never
        assert legal == (free if free.bit_count() >= left else hand & ~never)
        with pytest.raises(IllegalAction, match="KS may never be discarded"):
            state.apply(state.string_to_action(None, "discard KS"))
        if free.bit_count() >= left and hand & trumps & ~never:
            trump = next(c for c in range(LAYOUT.size) if (hand & trumps & ~never) >> c & 1)
            with pytest.raises(IllegalAction, match="only when the hand holds too few other cards"):
                state.apply(acts.discard0 + trump)
        card = max(c for c in range(LAYOUT.size) if legal >> c & 1)  # trumps last in the pack: shed them first
        state.apply(acts.discard0 + card)
        hand &= ~(1 << card)
        free &= ~(1 << card)
    view = state.view(declarer)
    assert view.phase == "play" and state.hand_of(declarer).bit_count() == 18
    shown = view.discarded & trumps
    for seat in range(4):
        seen = state.view(seat).discarded
        assert seen == (view.discarded if seat == declarer else shown)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_card_point_is_in_a_trick_the_kitty_or_the_discard(seed):
    """91 points in every hand played: the tricks' points plus the cards nobody played, which every
    contract of this ruleset gives to a side."""
    state = GameState(RS, seed=seed)
    state.play_random(random.Random(seed))
    played_hands = [h for h in state.hands if h.outcome != "passed_out"]
    for hand in played_hands:
        assert sum(hand.points) == 182
        assert sum(len(cards) for _, cards, _ in hand.played_tricks) == 72


def test_kernel_declines_the_kitty_and_the_discard_by_name():
    reason = ruleset_reason(RS)
    assert reason is not None and "`deal[6].kitty`" in reason and "`discard`" in reason


# ---------------------------------------------------------------------- hidden discards


def swapped(state: GameState, a: int, b: int) -> GameState | None:
    """The game again with cards ``a`` and ``b`` exchanged everywhere (draws, discards, plays)."""
    acts = state.actions
    swap = {a: b, b: a}
    twin = GameState(RS)
    try:
        for action in state.history():
            if action < acts.ncards:
                action = swap.get(action, action)
            elif acts.discard0 <= action < acts.discard0 + acts.ncards:
                action = acts.discard0 + swap.get(action - acts.discard0, action - acts.discard0)
            twin.apply(action)
    except IllegalAction:
        return None
    return twin


@pytest.mark.parametrize("seed", [5, 6])
def test_a_hidden_discard_cannot_be_told_from_a_card_in_another_hand(seed):
    rng = random.Random(seed)
    state = dealt(seed)
    declarer = state.current_player()
    greedy = make_agent("greedy")
    while state.view(0).phase == "discard":
        state.apply(greedy.act(state, state.legal_actions(), rng))
    for _ in range(5):  # a few cards into the first trick
        state.apply(greedy.act(state, state.legal_actions(), rng))
    seat = state.current_player()
    if seat == declarer:
        state.apply(greedy.act(state, state.legal_actions(), rng))
        seat = state.current_player()
    view = state.view(seat)
    hidden = state.view(declarer).discarded & ~view.discarded
    third = next(s for s in range(4) if s not in (seat, declarer))
    played = sum(1 << c for _, c in view.played)
    found = 0
    for a in (c for c in range(LAYOUT.size) if hidden >> c & 1):
        for b in (c for c in range(LAYOUT.size) if (state.hand_of(third) & ~played) >> c & 1):
            twin = swapped(state, a, b)
            if twin is None:
                continue
            assert twin.view(seat) == view
            legal = state.legal_actions()
            assert twin.legal_actions() == legal
            for spec in AGENT_SPECS:
                mine = make_agent(spec).act(state, legal, random.Random(seed))
                theirs = make_agent(spec).act(twin, legal, random.Random(seed))
                assert mine == theirs, f"{spec} decides differently when a hidden discard is moved"
            found += 1
            break
        if found:
            break
    assert found


def test_the_searching_agents_discard_and_play_against_a_hidden_discard():
    rng = random.Random(7)
    state = dealt(7)
    for spec in ("pimc:samples=3", "ismcts:iterations=12:worlds=3"):
        legal = state.legal_actions()
        assert make_agent(spec).act(state, legal, rng) in legal
    while state.current_player() != CHANCE and not state.hands:
        legal = state.legal_actions()
        spec = AGENT_SPECS[2 + len(state.history()) % 2] if state.view(0).phase == "play" and len(
            state.view(0).played) < 3 else "greedy"
        state.apply(make_agent(spec).act(state, legal, rng))
    assert state.hands and sum(state.hands[0].points) == 182
