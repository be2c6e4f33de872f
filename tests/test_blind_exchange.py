"""The blind bidders' exchange (`bids.blind_exchange`, Spades' blind nil exchange as many play it):
after the bids a seat that bid blind and its partner across the table give each other cards, the
partner first, each receiving at once; who sees which cards, what the sampler draws for the
seats that did not see them, greedy's cards, and the checks."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.passing import exchange_givers
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset
from couillon_dsl.validate import check
from example_games import FOLDER
from honesty import same_worlds, swapped_game, worlds_of

SPADES = str(FOLDER / "spades.yaml")
RS = build_ruleset(SPADES)
GREEDY = make_agent("greedy")


def blind_nil_bid(rs: Ruleset = RS, seed: int = 3) -> GameState:
    """A first hand dealt by seat 0 with seats 0 and 2 150 behind: seat 1 bids 3, seat 2 looks and bids
    3, seat 3 bids 3 and seat 0 bids blind nil."""
    state = GameState(rs, seed=seed)
    state.set_scoresheet([0, 150])
    state.deal_shuffled(random.Random(seed))
    acts = state.actions
    for action in (acts.bid0 + 3, acts.pass_, acts.bid0 + 3, acts.bid0 + 3, acts.accept):
        state.apply(action)
    assert state.blind_bids == 0b0001
    return state


def cards_of(mask: int) -> list[int]:
    return list(iter_bits(mask))


def give(state: GameState, *cards: int) -> None:
    for card in cards:
        state.apply(state.actions.give0 + card)


def test_the_partner_gives_first_and_the_blind_bidder_gives_back_knowing_what_he_got() -> None:
    state = blind_nil_bid()
    assert state.phase == "pass" and state.current_player() == 2
    partner = cards_of(state.hand_of(2))[:2]
    give(state, *partner)
    assert state.current_player() == 0 and state.view(0).received == sum(1 << c for c in partner)
    assert state.hand_of(0).bit_count() == 15 and state.view(1).received == 0 and state.view(1).passed == 0
    back = cards_of(state.hand_of(0))[-2:]
    give(state, *back)
    assert state.phase == "play" and state.view(2).received == sum(1 << c for c in back)
    assert all(state.hand_of(seat).bit_count() == 13 for seat in range(4))
    assert state.view(3).passed == state.view(3).received == 0  # the opponents see no card of it


def test_without_a_blind_bid_nobody_exchanges_and_the_option_off_or_bidder_first() -> None:
    state = GameState(RS, seed=1)
    state.deal_shuffled(random.Random(1))
    for _ in range(4):
        state.apply(state.actions.bid0 + 3)
    assert state.phase == "play" and state.view(0).passed == 0
    assert blind_nil_bid(build_ruleset(SPADES, {"blind_exchange": False})).phase == "play"
    assert exchange_givers(0b0001, (1, 2, 3, 0), "partner") == (2, 0)
    assert exchange_givers(0b0101, (1, 2, 3, 0), "bidder") == (2, 0)  # both blind: the first to bid is the bidder
    assert exchange_givers(0b0011, (1, 2, 3, 0), "partner") == (3, 1, 2, 0)


def test_a_variant_has_the_blind_bidder_give_first(tmp_path: Path) -> None:
    path = tmp_path / "bidder.yaml"
    path.write_text(f"extends: {SPADES}\nid: bidder\nname: Bidder first\n"
                    "bids:\n  blind_exchange: {cards: 2, first: bidder}\n")
    state = blind_nil_bid(build_ruleset(path))
    assert state.phase == "pass" and state.current_player() == 0


def test_the_blind_bidder_chooses_without_a_leak_and_the_sampler_draws_what_it_cannot_see(tmp_path: Path) -> None:
    """Mid-exchange, the blind bidder (to give back) cannot tell two opponents' cards apart, and its
    worlds hold the cards it was given where it holds them; an opponent after the exchange cannot
    tell a card the partner passed from one of the other opponent's. (Blind nil open to every seat:
    a twin and a sampled world replay the game from its start, the scoresheet set by no action.)"""
    path = tmp_path / "anyone.yaml"
    path.write_text(f"extends: {SPADES}\nid: anyone\nname: Anyone\nbids:\n  blind: {{bid: 0, when: 'true'}}\n")
    state = GameState(build_ruleset(path), seed=3)
    state.deal_shuffled(random.Random(3))
    acts = state.actions
    for action in (acts.pass_, acts.bid0 + 3) * 3 + (acts.accept,):  # seats 1, 2, 3 look and bid 3; seat 0 blind
        state.apply(action)
    give(state, *cards_of(state.hand_of(2))[:2])
    a, b = cards_of(state.hand_of(1))[0], cards_of(state.hand_of(3))[0]
    twin = swapped_game(state, a, b)
    assert twin is not None
    same_worlds(state, twin, 0, 3)
    assert all(w.hand_of(0) == state.hand_of(0) for w in worlds_of(state, 0, 3))
    give(state, *cards_of(state.hand_of(0))[-2:])
    assert state.current_player() == 1  # the elder leads
    passed = cards_of(state.view(2).passed)[0]  # now in seat 0's hand, unseen by seat 1
    twin = swapped_game(state, passed, cards_of(state.hand_of(3))[0])
    assert twin is not None and twin.view(1) == state.view(1)
    same_worlds(state, twin, 1, 3)
    rng = random.Random(3)
    for seat in (0, 2):  # the two who exchanged find worlds too, their own cards as they know them
        while state.current_player() != seat:
            state.apply(GREEDY.act(state, state.legal_actions(), rng))
        assert all(w.view(seat) == state.view(seat) for w in worlds_of(state, seat, 3))


def test_greedy_the_partner_gives_low_plain_cards_and_the_nil_bidder_gives_back_its_highest() -> None:
    state = blind_nil_bid()
    layout = RS.layout
    for giver in (2, 0):
        held = state.hand_of(giver)
        given = []
        for _ in range(2):
            action = GREEDY.act(state, state.legal_actions(), random.Random(0))
            given.append(action - state.actions.give0)
            state.apply(action)
        above = {c: state.context.above[c].bit_count() for c in cards_of(held)}
        if giver == 2:  # plain cards with more cards above them than any plain card kept
            plain = [c for c in cards_of(held) if layout.suit_of(c) != 0]
            kept = [above[c] for c in plain if c not in given]
            assert all(layout.suit_of(c) != 0 and above[c] >= max(kept) for c in given)
        else:  # the cards likeliest to win: none kept has fewer cards above it
            assert all(above[c] <= min(above[k] for k in cards_of(state.hand_of(0))) for c in given)


@pytest.mark.parametrize("teams, cards, words", [
    ("[[0, 1], [2, 3]]", 2, "seated opposite"),
    ("[[0, 2], [1, 3]]", 13, "fewer cards"),
])
def test_an_exchange_needs_partners_across_and_fewer_cards_than_a_hand(tmp_path: Path, teams: str, cards: int,
                                                                       words: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"extends: {SPADES}\nid: bad\nname: Bad\nplayers: {{teams: {teams}}}\n"
                    f"bids:\n  blind_exchange: {{cards: {cards}}}\n")
    found = [d for d in check(load_ruleset(path)) if d.code == "blind-exchange-invalid"]
    assert found and (words in found[0].message or words in (found[0].hint or ""))


def test_the_kernel_and_the_rollout_decline_it() -> None:
    assert "`bids`" in (ruleset_reason(RS) or "") and RS.rollout is None


def test_the_rulebook_reads_the_exchange() -> None:
    text = explain(RS)
    assert "each player who bid blind and their partner exchange 2 cards: the blind bidder's partner passes" in text
