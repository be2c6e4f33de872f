"""`play.follow.when_partner_winning`: a void player under a partner's winning card may play any card.

The positions are hand-checked (tests/scenarios/partner-free-*.yaml play the same rule through
the scenario runner); here every other place that asks whether a card was legal is held to
the same answer: the refusal and the explanations, the random fast paths, the rollout and the
kernel (which decline the key), the sampler's inferred voids, greedy's play and the rulebook.
"""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.pimc import PimcAgent
from couillon_dsl.agents.sampler import voids
from couillon_dsl.builtin import builtin_names
from couillon_dsl.compile import build_ruleset, compile_ruleset
from couillon_dsl.diff import differences
from couillon_dsl.engine import GameState, IllegalAction, explain_legal
from couillon_dsl.engine.rollout import rolls_out_language_v1
from couillon_dsl.explain import follow_clauses
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset
from couillon_dsl.scenario import stack_pack

FREE = str(Path(__file__).resolve().parent / "rulesets" / "partner-free.yaml")  # couillon-ardennes, free
BASE = "couillon-ardennes"  # must follow and head, must trump and overtrump when void
STOCK = ["JH", "AH", "KH", "QH", "9H", "10D", "9D", "QC"]  # ♥J turned up: hearts are trumps


@pytest.fixture(scope="module")
def free() -> Ruleset:
    return build_ruleset(FREE)


@pytest.fixture(scope="module")
def base() -> Ruleset:
    return build_ruleset(BASE)


def position(rs: Ruleset, hands: dict[str, list[str]], plays: str, stock: list[str] = STOCK) -> GameState:
    """Dealer 0 deals ``hands`` (L P R D); L accepts trump ♥ and leads; ``plays`` are played in turn."""
    state = GameState(rs)
    for card in stack_pack(rs, 0, {**hands, "stock": stock}):
        state.apply(card)
    state.apply(state.string_to_action(None, "accept"))
    for name in plays.split():
        state.apply(rs.layout.parse(name))
    return state


def names(rs: Ruleset, mask: int) -> set[str]:
    return set(rs.layout.format_mask(mask).split())


# Trick 1 (AD KD QD JD) brings the hands to three cards; L (seat 1) and R (seat 3) are partners.
UNDER_PARTNER = ({"L": ["AD", "AS", "AC", "JS"], "P": ["KD", "QS", "JC", "10C"], "R": ["QD", "10H", "KC", "9C"],
                  "D": ["JD", "KS", "10S", "9S"]}, "AD KD QD JD AS QS")  # L's ♠A wins; R void in ♠
UNDER_OPPONENT = ({"L": ["AD", "QS", "AC", "JS"], "P": ["KD", "AS", "JC", "10C"], "R": ["QD", "10H", "KC", "9C"],
                   "D": ["JD", "KS", "10S", "9S"]}, "AD KD QD JD QS AS")  # P's ♠A wins; R void in ♠


# ---------------------------------------------------------------------- the key and its flag
def test_every_shipped_ruleset_keeps_the_usual_rule_and_its_fast_paths() -> None:
    for name in builtin_names():
        rs = build_ruleset(name)
        assert rs.play.follow.when_partner_winning == "as_usual" and not rs.tables.partner_free


def test_free_is_compiled_in_as_a_play_rule_that_the_rollout_and_the_kernel_decline(free: Ruleset,
                                                                                      base: Ruleset) -> None:
    assert free.tables.partner_free and free.tables.play_rules
    assert rolls_out_language_v1(base) and not rolls_out_language_v1(free) and free.rollout is None
    assert ruleset_reason(free) == "`play.follow.when_partner_winning` is not in the kernel yet"
    assert ruleset_reason(base) is None


def test_as_usual_written_out_is_the_default_everywhere(base: Ruleset) -> None:
    document = load_ruleset(BASE)
    play = dict(document.data["play"])
    play["follow"] = {**play["follow"], "when_partner_winning": "as_usual"}
    usual = compile_ruleset(dataclasses.replace(document, data={**document.data, "play": play}))
    assert not usual.tables.partner_free and not usual.tables.play_rules
    assert usual.rollout is not None and ruleset_reason(usual) is None  # the kernel takes a new key at its default


# ---------------------------------------------------------------------- hand-checked positions
def test_void_under_a_winning_partner_may_play_any_card(free: Ruleset, base: Ruleset) -> None:
    state = position(free, *UNDER_PARTNER)
    assert state.partner_winning()
    assert names(free, state.legal_mask()) == {"10H", "KC", "9C"}  # a low trump, or a discard
    assert names(base, position(base, *UNDER_PARTNER).legal_mask()) == {"10H"}  # the usual rule: must trump
    reasons = {free.layout.name(c): (ok, why) for c, ok, why in explain_legal(state, state.current_player())}
    assert reasons["9C"] == (True, "void in ♠ while a partner's card wins the trick: any card may be played")


def test_void_under_a_winning_opponent_must_trump(free: Ruleset) -> None:
    state = position(free, *UNDER_OPPONENT)
    assert not state.partner_winning()
    assert names(free, state.legal_mask()) == {"10H"}
    with pytest.raises(IllegalAction, match="9C is illegal: void in ♠: must trump"):
        state.apply(free.layout.parse("9C"))


def test_a_trump_lead_is_followed_as_usual_under_a_winning_partner(free: Ruleset) -> None:
    hands = {"L": ["AD", "QH", "AC", "JS"], "P": ["KD", "9H", "JC", "10C"], "R": ["QD", "KH", "10H", "KC"],
             "D": ["JD", "KS", "10S", "9S"]}
    state = position(free, hands, "AD KD QD JD QH 9H", ["JH", "AH", "AS", "QS", "9C", "QC", "10D", "9D"])
    assert state.partner_winning() and names(free, state.legal_mask()) == {"KH"}
    with pytest.raises(IllegalAction, match="must overtrump ♥Q"):
        state.apply(free.layout.parse("10H"))


def test_a_player_holding_the_led_suit_still_follows_and_heads(free: Ruleset) -> None:
    hands = {"L": ["AD", "QS", "AC", "JC"], "P": ["KD", "9S", "10C", "9C"], "R": ["QD", "KS", "10S", "10H"],
             "D": ["JD", "JS", "KC", "QC"]}
    state = position(free, hands, "AD KD QD JD QS 9S", ["JH", "AH", "KH", "QH", "9H", "10D", "9D", "AS"])
    assert state.partner_winning() and names(free, state.legal_mask()) == {"KS"}
    with pytest.raises(IllegalAction, match="must follow suit"):
        state.apply(free.layout.parse("10H"))


def test_no_duty_to_overtrump_a_partners_trump(free: Ruleset) -> None:
    hands = {"L": ["AD", "AS", "AC", "JC"], "P": ["KD", "QH", "10C", "9C"], "R": ["QD", "KS", "10S", "10H"],
             "D": ["JD", "KH", "9H", "KC"]}
    state = position(free, hands, "AD KD QD JD AS QH 10S", ["JH", "AH", "QS", "JS", "9S", "QC", "10D", "9D"])
    assert names(free, state.legal_mask()) == {"KH", "9H", "KC"}


# ---------------------------------------------------------------------- the random paths
def test_random_play_uses_the_freedom(free: Ruleset, base: Ruleset) -> None:
    """Random games of the free ruleset replay through apply, and some of them only under the
    freedom: the same actions are refused by the ruleset without it (no fast path ignores it)."""
    refused = 0
    for seed in range(30):
        state = GameState(free)
        state.play_random(random.Random(seed))
        replay, usual = GameState(free), GameState(base)
        for action in state.history():
            replay.apply(action)
        try:
            for action in state.history():
                usual.apply(action)
        except IllegalAction as exc:
            refused += "must trump" in str(exc) or "overtrump" in str(exc) or "undertrump" in str(exc)
        assert replay.is_terminal() and replay.result == state.result
    assert refused >= 10


# ---------------------------------------------------------------------- hidden information
NO_TRUMPS = ({"L": ["AD", "AS", "AC", "JS"], "P": ["KD", "QS", "JC", "10C"], "R": ["QD", "KC", "9C", "QC"],
              "D": ["JD", "KS", "10S", "9S"]}, "AD KD QD JD AS QS 9C", ["JH", "AH", "KH", "QH", "9H", "10H", "10D", "9D"])


def unseen_by(state: GameState, seat: int) -> int:
    view = state.view(seat)
    seen = view.hand
    for card in [c for _, c in view.played] + [c for c, _ in view.face_up]:
        seen |= 1 << card
    return state.ruleset.layout.full_mask & ~seen


def test_a_discard_under_a_winning_partner_says_nothing_of_trumps(free: Ruleset, base: Ruleset) -> None:
    """R discards ♣9 under L's ♠A, holding no trump: in the free ruleset the discard was legal
    whatever R held but a ♠, so D infers only that R has no ♠; without the freedom the same
    play also tells D that R has no trump (the inference is unchanged there)."""
    hands, plays, stock = NO_TRUMPS
    D = 0
    spades, hearts = free.layout.suit_mask(0), free.layout.suit_mask(1)
    for rs, lacks in ((free, spades), (base, spades | hearts)):
        state = position(rs, hands, plays, stock)
        unseen = unseen_by(state, D)
        found = voids(state.context, state.view(D), 4, unseen, partner_free=rs.tables.partner_free)
        assert found[3] == lacks & unseen, rs.id
    state = position(free, hands, plays, stock)
    usual = voids(state.context, state.view(D), 4, unseen_by(state, D))  # what the freedom must not let through
    assert usual[3] & hearts


def test_a_discard_under_a_winning_opponent_still_shows_a_void_in_trumps(free: Ruleset) -> None:
    hands = {"L": ["AD", "QS", "AC", "JS"], "P": ["KD", "AS", "JC", "10C"], "R": ["QD", "KC", "9C", "QC"],
             "D": ["JD", "KS", "10S", "9S"]}
    state = position(free, hands, "AD KD QD JD QS AS 9C", NO_TRUMPS[2])
    unseen = unseen_by(state, 0)
    found = voids(state.context, state.view(0), 4, unseen, partner_free=True)
    assert found[3] == (free.layout.suit_mask(0) | free.layout.suit_mask(1)) & unseen


def test_the_worlds_of_a_searching_agent_let_the_discarder_hold_trumps(free: Ruleset) -> None:
    """After ♣9 under L's winning ♠A, D's sampled worlds give R trumps in some worlds: the discard
    rules nothing out but spades (and every world replays the real plays)."""
    hands, plays, stock = NO_TRUMPS
    state = position(free, hands, plays, stock)
    state.apply(free.layout.parse("9S"))  # D completes the trick; L leads next
    worlds = PimcAgent(samples=24).worlds(state, 0, random.Random(1))
    hearts = free.layout.suit_mask(1)
    assert worlds and all(world.view(0) == state.view(0) for world in worlds)
    assert any(world.hand_of(3) & hearts for world in worlds)
    assert not any(world.hand_of(3) & free.layout.suit_mask(0) for world in worlds)


# ---------------------------------------------------------------------- greedy and the rulebook
def test_greedy_does_not_trump_its_winning_partner(free: Ruleset) -> None:
    state = position(free, *UNDER_PARTNER)
    card = GreedyAgent().act(state, state.legal_actions(), random.Random(0))
    assert not state.context.trump_mask >> card & 1  # it sheds a club rather than trump L's ace


def test_the_rulebook_states_the_freedom(free: Ruleset, base: Ruleset) -> None:
    sentence = ("if your partner is winning the trick and you cannot follow suit, you may play any card: "
                "you need not trump or overtrump (a trump lead is followed as usual)")
    assert sentence in follow_clauses(free) and sentence not in follow_clauses(base)
    assert any("partner is winning the trick" in line for line in differences(free, base))
