"""French Tarot (tarot.yaml): the worlds PIMC and ISMCTS sample agree with what is public, and
learn nothing that is not.

Public: the chien shown in Petite and Garde; the trumps the taker had to discard (shown); a
poignée shown before its holder's first card (its cards, and the trumps it says he lacks).
Hidden: the chien of a Garde sans or a Garde contre, from every seat; the taker's other
discards, from the defenders. Every world a seat samples deals the public cards where the real
deal put them; moving a hidden card (a Garde-sans chien card, an unshown discard) to another
seat's unseen hand changes none of the worlds a defender samples.
"""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState
from honesty import same_worlds, swapped_game, world_pack, worlds_of
from packs import pack_dealing

RS = build_ruleset("tarot")
LAYOUT = RS.layout
ACTS = GameState(RS).actions
NCARDS = LAYOUT.size
DEALER = 0
KITTY = range(*RS.tables.kitty.positions[DEALER])
TRUMPS = LAYOUT.suit_mask(LAYOUT.suits.index("T"))
GREEDY = make_agent("greedy")


def names(*cards: str) -> list[int]:
    return [LAYOUT.parse(c) for c in cards]


def pack_with(seed: int, hands: dict[int, list[int]], kitty: list[int] = ()) -> list[int]:
    """A pack order dealing ``hands`` (seat -> some of its cards) and ``kitty``, the rest at random."""
    return pack_dealing(RS, DEALER, hands, kitty, seed)


def bid(pack: list[int], contract: str) -> GameState | None:
    """Deal ``pack`` (dealer 0), the elder (seat 1) bidding ``contract``, the others passing;
    None when the deal is annulled (petit sec)."""
    state = GameState(RS)
    state.apply(ACTS.dealer0 + DEALER)
    state.deal_pack(pack)
    if state.view(0).phase != "auction":
        return None
    state.apply(state.string_to_action(None, f"contract {contract}"))
    while state.view(0).phase == "auction":
        state.apply(ACTS.pass_)
    return state


def play_to(state: GameState, plays: int, rng: random.Random) -> None:
    """Greedy for every seat (a poignée always shown) until ``plays`` cards are on the table."""
    while state.current_player() != CHANCE and (state.view(0).phase == "discard" or len(state.view(0).played) < plays):
        state.apply(GREEDY.act(state, state.legal_actions(), rng))


def kitty_cards(pack: list[int]) -> set[int]:
    return {pack[p] for p in KITTY}


@pytest.mark.parametrize("seed", range(3))
def test_a_shown_chien_and_the_trumps_shown_in_the_discard_are_in_every_world(seed: int) -> None:
    """Garde: the chien is shown, so every seat's worlds deal the real chien; the taker had to
    discard a trump (he and the chien hold five cards he may discard beside trumps, kings and
    bouts), which is shown: every world's taker discarded it too."""
    taker_cards = names("21T", "20T", "19T", "18T", "17T", "16T", "15T", "14T", "13T", "12T", "11T", "10T", "1T",
                        "KS", "KH", "KD", "KC", "2S")
    pack = pack_with(seed, {1: taker_cards}, kitty=names("8T", "7T", "3H", "3D", "3C", "4S"))
    state = bid(pack, "garde")
    assert state is not None
    rng = random.Random(seed)
    play_to(state, 0, rng)  # the discard
    shown = state.view(0).discarded
    assert shown and shown == state.view(1).discarded & TRUMPS  # trumps had to go, and were shown
    play_to(state, 3 + seed * 5, rng)
    for seat in range(4):
        view = state.view(seat)
        for world in worlds_of(state, seat, seed):
            assert world.view(seat) == view
            assert kitty_cards(world_pack(world)) == kitty_cards(pack)
            assert world.view(1).discarded & shown == shown  # the world's taker discarded the shown trumps


@pytest.mark.parametrize("seed", range(3))
def test_a_shown_poignee_is_held_in_every_world_and_rules_out_the_trumps_it_lacks(seed: int) -> None:
    """Seat 3 holds eleven trumps and shows ten (a simple poignée, its lowest) before its first card:
    in every other seat's worlds it holds them until played, and no other trump."""
    eleven = names("20T", "19T", "17T", "15T", "12T", "10T", "9T", "8T", "6T", "4T", "2T")
    pack = pack_with(seed, {3: eleven + names("KS", "QS", "KH", "QH", "KD", "QD", "KC")})
    state = bid(pack, "garde_sans")
    assert state is not None
    rng = random.Random(seed)
    play_to(state, 2, rng)  # seat 3 (third to play from the elder, seat 1) is about to play: shows first
    assert state.current_player() == 3
    state.apply(next(a for a in state.legal_actions() if a >= NCARDS))  # declare the poignée
    [(_, _, holder, _, shown)] = state.view(0).melds
    assert holder == 3 and shown.bit_count() == 10
    play_to(state, 8 + 4 * seed, rng)
    played = sum(1 << c for _, c in state.view(0).played)
    top = min(LAYOUT.rank_of(c) for c in iter_cards(shown))  # rank 0 is the 21
    lacks = sum(1 << c for c in iter_cards(TRUMPS & ~shown) if LAYOUT.rank_of(c) > top)  # the lowest are shown
    for seat in (0, 1, 2):
        for world in worlds_of(state, seat, seed):
            hand = world.hand_of(3)
            assert hand & shown & ~played == shown & ~played
            assert not hand & lacks


@pytest.mark.parametrize("contract", ["garde_sans", "garde_contre"])
def test_a_defender_learns_nothing_of_an_unseen_chien(contract: str) -> None:
    """Moving a card of a Garde-sans (Garde-contre) chien into another defender's hand, for one of
    its cards, changes none of the worlds seat 2 samples nor any search's choice."""
    checked = 0
    for seed in range(12):
        state = bid(pack_with(seed, {}), contract)
        if state is None:
            continue
        play_to(state, 6, random.Random(seed))
        if state.current_player() != 2:
            continue
        pack = state.history()[1:1 + NCARDS]
        played = sum(1 << c for _, c in state.view(2).played)
        unplayed = [c for c in iter_cards(state.hand_of(3)) if not played >> c & 1]
        twin = swapped_game(state, pack[KITTY[0]], unplayed[0])
        if twin is None:
            continue
        assert kitty_cards(world_pack(twin)) != kitty_cards(pack)
        same_worlds(state, twin, 2, seed)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_a_defender_learns_nothing_of_the_takers_unshown_discard() -> None:
    """Garde: moving a card the taker discarded unseen into a defender's unseen hand changes none of
    the worlds another defender samples."""
    checked = 0
    for seed in range(12):
        state = bid(pack_with(seed, {}), "garde")
        if state is None:
            continue
        rng = random.Random(seed)
        play_to(state, 5, rng)
        while state.current_player() not in (0, 2):  # a defender other than seat 3, whose hand takes the discard
            state.apply(GREEDY.act(state, state.legal_actions(), rng))
        seat = state.current_player()
        hidden = state.view(1).discarded & ~state.view(seat).discarded
        played = sum(1 << c for _, c in state.view(seat).played)
        plain = [c for c in iter_cards(state.hand_of(3) & ~TRUMPS) if not played >> c & 1
                 and LAYOUT.rank_of(c) > 0 and LAYOUT.name(c) != "EX"]  # a card the taker could have discarded
        twin = swapped_game(state, iter_cards(hidden)[0], plain[-1]) if hidden and plain else None
        if twin is None:
            continue
        same_worlds(state, twin, seat, seed)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def iter_cards(mask: int) -> list[int]:
    return [c for c in range(NCARDS) if mask >> c & 1]


def test_a_takers_void_after_an_unseen_discard_still_shapes_the_defenders_worlds(monkeypatch) -> None:
    """Garde: the taker discarded a card unseen and has since shown he lacks its suit. He may have
    been dealt cards of that suit, as many as he discarded unseen, but holds none now: a
    defender's worlds keep his voids (with that allowance) and come from the first packs drawn,
    where giving him any number of the suit's cards had most packs fail to replay (seed 19: one
    world in 64 packs)."""
    from couillon_dsl.agents import sampler

    packs = []
    layout_pack = sampler._Layout.pack
    monkeypatch.setattr(sampler._Layout, "pack", lambda self, *args: packs.append(1) or layout_pack(self, *args))
    checked = 0
    for seed in range(60):
        state, rng = GameState(RS, seed=seed), random.Random(seed)
        while state.current_player() >= 0 or state.current_player() == CHANCE:
            if state.current_player() == CHANCE:
                state.deal_shuffled()
                continue
            seat, view = state.current_player(), state.view(state.current_player())
            if view.contract == "garde" and state.plays_a_card() and seat != view.deciding_seat:
                taker = view.deciding_seat
                unseen = state.view(taker).discarded & ~view.discarded
                tricks = [view.played[i:i + 4] for i in range(0, len(view.played) // 4 * 4, 4)]
                lacks = {LAYOUT.suit_of(t[0][1]) for t in tricks
                         for s, c in t[1:] if s == taker and LAYOUT.suit_of(c) != LAYOUT.suit_of(t[0][1])}
                if any(LAYOUT.suit_of(c) in lacks for c in iter_cards(unseen)):
                    packs.clear()
                    for world in worlds_of(state, seat, seed):
                        assert world.view(seat) == view
                        assert not any(LAYOUT.suit_of(c) in lacks for c in iter_cards(world.hand_of(taker)))
                    assert len(packs) <= 16, (seed, len(packs))
                    checked += 1
                    break
            if len(state.hands) == 1:
                break
            state.apply(GREEDY.act(state, state.legal_actions(), rng))
    assert checked >= 2
