"""What the honesty tests share: a game's twin in which two cards trade places, and the check
that a seat sees, samples and chooses the same in both (nothing hidden leaks into its worlds)."""
from __future__ import annotations

import random
from typing import Callable, Iterable, Iterator

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.cards import iter_bits
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.model import Ruleset

SEARCHES = ("greedy", "pimc:samples=2", "ismcts:iterations=8:worlds=2")


def world_pack(world: GameState) -> list[int]:
    """The first deal's pack order (after a random first dealer's draw, if any)."""
    history, ncards = world.history(), world.actions.ncards
    start = next(i for i, action in enumerate(history) if action < ncards)
    return history[start:start + ncards]


def worlds_of(state: GameState, seat: int, seed: int, count: int = 8) -> list[GameState]:
    worlds = Sampler().worlds(state, seat, count, random.Random(seed))
    assert worlds, "the sampler found no world"
    return worlds


def swapped_game(state: GameState, a: int, b: int) -> GameState | None:
    """``state``'s game with cards ``a`` and ``b`` trading places everywhere (deal, discards,
    cards passed, plays); None when its actions are no longer all legal."""
    swap = {a: b, b: a}
    acts = state.actions
    twin = GameState(state.ruleset)
    try:
        for action in state.history():
            if action < acts.ncards:
                action = swap.get(action, action)
            elif 0 <= acts.discard0 <= action < acts.discard0 + acts.ncards:
                action = acts.discard0 + swap.get(action - acts.discard0, action - acts.discard0)
            elif 0 <= acts.give0 <= action < acts.give0 + acts.ncards:  # a card passed
                action = acts.give0 + swap.get(action - acts.give0, action - acts.give0)
            twin.apply(action)
    except IllegalAction:
        return None
    return twin


def same_worlds(state: GameState, twin: GameState, seat: int, seed: int) -> None:
    """``seat`` cannot tell ``state`` from ``twin``: the same view, worlds and choices."""
    assert twin.view(seat) == state.view(seat)
    assert [world_pack(w) for w in worlds_of(state, seat, seed)] == [world_pack(w) for w in worlds_of(twin, seat, seed)]
    legal = state.legal_actions()
    assert twin.legal_actions() == legal
    for spec in SEARCHES:
        assert make_agent(spec).act(state, legal, random.Random(seed)) == \
            make_agent(spec).act(twin, legal, random.Random(seed)), spec


def twins_look_the_same(cases: Iterable[tuple[GameState, int, int, int, int]], wanted: int = 2) -> None:
    """For ``wanted`` of ``cases`` (a game, two cards to trade, the seat, the seed) whose twin is still
    legal, the seat cannot tell the game from its twin (:func:`same_worlds`)."""
    checked = 0
    for state, a, b, seat, seed in cases:
        twin = swapped_game(state, a, b)
        if twin is not None:
            same_worlds(state, twin, seat, seed)
            checked += 1
            if checked == wanted:
                return
    raise AssertionError(f"fewer than {wanted} games to check")


def called_hand_in_play(ruleset: Ruleset, seed: int, cards: int) -> GameState | None:
    """Greedy plays a random deal of ``ruleset`` until ``cards`` cards are played, or None when the game
    ends first or the hand has no called card (`contracts.<id>.call`)."""
    state = GameState(ruleset, seed=seed)
    state.deal_shuffled(random.Random(seed))
    greedy = make_agent("greedy")
    rng = random.Random(seed)
    while len(state.view(0).played) < cards or state.current_player() == CHANCE:
        if state.current_player() == CHANCE or state.is_terminal():
            return None
        state.apply(greedy.act(state, state.legal_actions(), rng))
    return state if state.called is not None and state.called >= 0 else None


def unplayed_called_card_twins(ruleset: Ruleset, caller: bool, cards: int = 4,
                               tradable: Callable[[int], bool] = lambda card: True
                               ) -> Iterator[tuple[GameState, int, int, int, int]]:
    """Cases for :func:`twins_look_the_same`: games in play whose called card another seat holds
    unplayed (not the caller), the seat to play being the caller (``caller``) or a seat neither caller
    nor holder; the called card is traded for a ``tradable`` plain card, of another suit, of a third seat."""
    layout = ruleset.layout
    seats = ruleset.players.count
    for seed in range(300):
        state = called_hand_in_play(ruleset, seed, cards)
        if state is None:
            continue
        seat, called = state.current_player(), state.called
        assert called is not None
        declarer = state.view(seat).deciding_seat
        played = sum(1 << c for _, c in state.view(seat).played)
        holder = next((s for s in range(seats) if state.hand_of(s) >> called & 1), -1) if not played >> called & 1 else -1
        if holder < 0 or holder == declarer or seat == holder or (seat == declarer) != caller:
            continue
        for other in (s for s in range(seats) if s not in (seat, declarer, holder)):
            plain = [c for c in iter_bits(state.hand_of(other) & ~played & ~state.context.trump_mask)
                     if layout.suit_of(c) != layout.suit_of(called) and tradable(c)]
            if plain:
                yield state, called, plain[0], seat, seed
                break
