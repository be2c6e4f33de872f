"""Melds of a trick (`declarations.<id>.scope: trick`): combinations formed by the cards of one
trick, whoever played them, kept by the trick's winner's side (Klaverjas' roem).

The scenarios (tests/scenarios/klaverjas-*.yaml) check hand-made deals; here the tables are
held to hand-counted tricks, whole random games (stepped card by card, and played out at once)
to a plain recount of every trick and of Klaverjas' nat, and the rest of the system to the
concept: what it refuses, the kernel and rollout declining it, the sampler's honesty, the
rulebook and `diff`.
"""
from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.builtin import builtin_names
from couillon_dsl.compile import build_ruleset
from couillon_dsl.diff import differences
from couillon_dsl.engine import GameState
from couillon_dsl.explain import declaration_sentences
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.model import Ruleset
from honesty import same_worlds, swapped_game
from variants import refused

ROOT = Path(__file__).resolve().parents[1]
KLAVERJAS = str(ROOT / "examples" / "klaverjas.yaml")
RUN_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7"]
FOURS = {"A": 100, "10": 100, "K": 100, "Q": 100, "J": 100}


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return build_ruleset(KLAVERJAS)


def roem(rs: Ruleset, cards: str, trump: str) -> list[tuple[str, int]]:
    """The engine's melds of one trick of ``cards`` under ``trump``: (pattern, value) each."""
    layout = rs.layout
    table = rs.tables.trick_melds[0]
    found = table.melds(layout.parse_mask(cards.split()), layout.suits.index(trump), 0)
    return sorted((table.labels[m.pattern], m.value) for m in found)


@pytest.mark.parametrize("cards, trump, expected", [
    ("KH QH JH 10H", "H", [("run of 4", 50), ("stuk", 20)]),          # a sequence of four with stuk: 70
    ("KH QH JH 7S", "H", [("run of 3", 20), ("stuk", 20)]),           # K Q J of trumps: 40
    ("KS QS JS 7H", "H", [("run of 3", 20)]),                         # the same in a plain suit: no stuk
    ("KH QH 8S 7S", "H", [("stuk", 20)]),                              # stuk alone
    ("AC KC QC JC", "H", [("run of 4", 50)]),                          # a sequence counts once, by its length
    ("JH 10H 9H 8H", "H", [("run of 4", 50)]),                         # runs follow A K Q J 10 9 8 7, not trump order
    ("AS 10S KS 9S", "H", []),                                         # A 10 K: not a sequence in the run order
    ("JS JH JD JC", "H", [("4 × J", 100)]),
    ("QS QH QD QC", "C", [("4 × A/10/K/Q", 100)]),
    ("7S 7H 7D 7C", "C", []),                                          # sevens, eights and nines are no four of a kind
    ("AS KS QS AH", "D", [("run of 3", 20)]),
])
def test_a_tricks_roem(rs: Ruleset, cards: str, trump: str, expected: list[tuple[str, int]]) -> None:
    assert roem(rs, cards, trump) == sorted(expected)


def test_four_jacks_is_an_option() -> None:
    assert roem(build_ruleset(KLAVERJAS, options={"four_jacks": 200}), "JS JH JD JC", "S") == [("4 × J", 200)]


# ---------------------------------------------------------------------- a plain recount
def recount(rs: Ruleset, cards: tuple[int, ...], trump: int) -> int:
    """Klaverjas' roem of one trick, counted the way a player does: runs along the run order,
    stuk, four of a kind (written apart from the engine's tables)."""
    layout = rs.layout
    names = [layout.name(c) for c in cards]
    ranks = [layout.ranks[c % len(layout.ranks)] for c in cards]
    suits = [layout.suit_of(c) for c in cards]
    total = 0
    for suit in set(suits):
        places = sorted(RUN_ORDER.index(r) for r, s in zip(ranks, suits) if s == suit)
        longest = run = 1
        for a, b in zip(places, places[1:]):
            run = run + 1 if b == a + 1 else 1
            longest = max(longest, run)
        total += {3: 20, 4: 50}.get(longest, 0)
    trump_suit = layout.suits[trump]
    if f"K{trump_suit}" in names and f"Q{trump_suit}" in names:
        total += 20
    if len(set(ranks)) == 1:
        total += FOURS.get(ranks[0], 0)
    return total


def check_hand(rs: Ruleset, hand) -> None:
    """A finished hand's roem per side, by trick winner, and its scores by Klaverjas' rules."""
    trump = rs.layout.suits.index(hand.trump)
    team_of = rs.tables.team_of
    roem_of = [0, 0]
    for _, cards, winner in hand.played_tricks:
        roem_of[team_of[winner]] += recount(rs, cards, trump)
    assert list(hand.declared[0]) == roem_of
    assert all(team_of[seat] == team_of[next(w for _, c, w in hand.played_tricks if cards & sum(1 << x for x in c))]
               for _, _, seat, _, cards in hand.melds)  # each meld is a trick winner's, its cards that trick's
    maker, other = hand.maker, 1 - hand.maker
    pit = [100 if tricks == 8 else 0 for tricks in hand.tricks]
    if hand.points[maker] + roem_of[maker] + pit[maker] > hand.points[other] + roem_of[other] + pit[other]:
        expected = [hand.points[t] + roem_of[t] + pit[t] for t in (0, 1)]
    else:  # nat
        expected = [0, 0]
        expected[other] = 162 + roem_of[0] + roem_of[1] + pit[other]
    assert list(hand.deltas) == expected


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("style", ["rotterdam", "amsterdam"])
def test_random_games_score_every_tricks_roem(style: str, seed: int) -> None:
    """Played out at once (GameState.play_random's whole hands) and card by card (apply)."""
    rs = build_ruleset(KLAVERJAS, options={"style": style})
    fast = GameState(rs)
    fast.play_random(random.Random(seed))
    stepped = GameState(rs)
    rng = random.Random(seed)
    while not stepped.is_terminal():
        if stepped.is_chance_node():
            stepped.deal_shuffled(rng)
        else:
            stepped.apply(rng.choice(stepped.legal_actions()))
    for state in (fast, stepped):
        assert len(state.hands) == 16
        for hand in state.hands:
            check_hand(rs, hand)
    assert any(hand.declared[0] != (0, 0) for hand in fast.hands)


def test_declared_points_grow_trick_by_trick(rs: Ruleset) -> None:
    """During play the side that won a trick holds its roem at once (public, as the trick was)."""
    rng = random.Random(4)
    state = GameState(rs)
    state.deal_shuffled(rng)
    seen = 0
    while not state.hands:
        before = state.declared_points().get("roem", (0, 0))
        tricks_before = state.view(0).tricks
        state.apply(rng.choice(state.legal_actions()))
        view = state.view(0)
        if state.hands or view.tricks == tricks_before:
            continue
        team = next(t for t, (a, b) in enumerate(zip(view.tricks, tricks_before)) if a > b)
        gained = recount(rs, tuple(card for _, card in view.played[-4:]), view.trump)
        after = state.declared_points()["roem"]
        assert (after[team] - before[team], after[1 - team] - before[1 - team]) == (gained, 0)
        seen += gained
    assert seen and seen == sum(state.hands[0].declared[0])

def test_greedy_gives_roem_to_its_side_and_keeps_it_from_the_other(rs: Ruleset) -> None:
    """The last card of a trick: whatever greedy plays, if its side takes the trick the trick holds
    the most roem it can, and if the other side takes it, the least."""
    agent, rng = GreedyAgent(), random.Random(3)
    checked = 0
    for _ in range(30):
        state = GameState(rs)
        state.deal_shuffled(rng)
        while not state.hands:
            legal = state.legal_actions()
            if len(state.current_trick()[1]) == 3 and len(legal) > 1:
                seat = state.current_player()
                trump = state.trump
                outcome = {}
                for card in legal:
                    after = state.clone()
                    before = after.view(seat).tricks
                    after.apply(card)
                    won = next(t for t, (a, b) in enumerate(zip(after.view(seat).tricks, before)) if a > b)
                    outcome[card] = (won, recount(rs, state.current_trick()[1] + (card,), trump))
                sides = {won for won, _ in outcome.values()}
                if len(sides) == 1:
                    worth = [value for _, value in outcome.values()]
                    chosen = outcome[agent.act(state, legal, rng)][1]
                    assert chosen == (max(worth) if sides == {rs.tables.team_of[seat]} else min(worth))
                    checked += max(worth) != min(worth)
            state.apply(agent.act(state, legal, rng) if legal[0] < rs.layout.size else rng.choice(legal))
    assert checked >= 5


# ---------------------------------------------------------------------- the rest of the system
def test_the_kernel_and_the_rollout_decline_it(rs: Ruleset) -> None:
    assert "declarations" in (ruleset_reason(rs) or "")
    assert rs.rollout is None


def test_rulesets_without_trick_melds_compile_none() -> None:
    for name in builtin_names():
        assert build_ruleset(name).tables.trick_melds == ()


def test_the_samplers_worlds_are_honest(rs: Ruleset) -> None:
    """Three tricks in: a seat cannot tell its game from one where two cards it cannot see
    traded places (the roem it saw was formed by public cards)."""
    rng = random.Random(11)
    state = GameState(rs)
    state.deal_shuffled(rng)
    while sum(state.view(0).tricks) < 3 or state.view(0).trick:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player()
    view = state.view(seat)
    assert all(cards for _, _, _, _, cards in view.melds)  # a trick's melds show their cards
    played = {card for _, card in view.played}
    hidden = [c for c in range(rs.layout.size) if not view.hand >> c & 1 and c not in played]
    checked = 0
    for a, b in combinations(hidden, 2):
        twin = swapped_game(state, a, b)
        if twin is not None and twin.view(seat) == view:
            same_worlds(state, twin, seat, 5)
            checked += 1
            if checked == 2:
                break
    assert checked


def test_keys_about_declaring_a_hand_are_refused(tmp_path: Path) -> None:
    assert refused(tmp_path, KLAVERJAS, "declarations: {roem: {shown: true}}") == ["declaration-scope-key"]
    assert refused(tmp_path, KLAVERJAS, "declarations: {roem: {optional: true}}") == ["declaration-scope-key"]


@pytest.mark.parametrize("pattern", ["{run: 5, value: 100}", "{of: [trump], at_least: 5, value: 100}"])
def test_a_pattern_bigger_than_a_trick_is_unreachable(tmp_path: Path, pattern: str) -> None:
    """Five cards in a trick of four (the other patterns stay: the option four_jacks sets the fifth)."""
    patterns = [pattern, "{run: 4, value: 50}", "{cards: [KT, QT], value: 20}",
                "{same_rank: [A], count: 4, value: 100}", "{same_rank: [J], count: 4, value: 100}"]
    body = f"declarations: {{roem: {{patterns: [{', '.join(patterns)}]}}}}"
    assert refused(tmp_path, KLAVERJAS, body) == ["declaration-unreachable"]


def test_the_rulebook_and_diff_say_whose_cards(rs: Ruleset, tmp_path: Path) -> None:
    roem_kind = rs.declarations[0]
    text = " ".join(declaration_sentences(rs, roem_kind))
    assert "the Roem its cards form, whoever played them" in text
    assert "scores for the side that won its trick" in text
    assert "declares their Roem" not in text and "not the cards" not in text
    hand = tmp_path / "hand.yaml"
    hand.write_text(f"id: hand\nname: Hand melds\nextends: {KLAVERJAS}\n"
                    "declarations: {roem: {scope: hand}}\n", encoding="utf-8")
    lines = differences(rs, build_ruleset(str(hand)))
    assert any(line.startswith("Declaration Roem: each player declares their Roem with their first card")
               for line in lines), lines
