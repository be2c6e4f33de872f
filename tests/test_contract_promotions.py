"""A contract's own top trumps (`contracts.<id>.promoted`), through Schafkopf's Wenz and Geier
(examples/schafkopf.yaml): of the deck's promoted cards (the Obers, then the Unters) a contract
keeps some as its only top trumps, and the others rank as plain cards of their suits.
"""
from __future__ import annotations

import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.model import Ruleset, TrumpContext
from example_games import FOLDER
from packs import no_knocks, pack_dealing, say

RS = build_ruleset(str(FOLDER / "schafkopf.yaml"))
LAYOUT = RS.layout
DEALER = 3  # seat 0 is forehand


def context(rs: Ruleset, contract: str) -> TrumpContext:
    """The trump context a contract is played under (from the deal on)."""
    i = next(i for i, c in enumerate(rs.contracts) if c.id == contract)
    t = rs.tables
    return t.context(t.contract_trump[i], t.always_promoted, t.contract_base[i])


def order(ctx: TrumpContext, cards: int, led: int) -> list[str]:
    """``cards`` (a mask) from the strongest to the weakest when suit ``led`` is led."""
    held = [c for c in range(LAYOUT.size) if cards >> c & 1]
    return [LAYOUT.name(c) for c in sorted(held, key=lambda c: -ctx.strength[led][c])]


def suit(name: str) -> int:
    return LAYOUT.suits.index(name)


def test_the_wenz_has_the_unters_alone_for_trumps_and_the_obers_in_their_suits() -> None:
    ctx = context(RS, "wenz")
    assert order(ctx, ctx.trump_mask, suit("C")) == ["JC", "JS", "JH", "JD"]
    assert order(ctx, ctx.suit_mask[suit("C")], suit("C")) == ["AC", "10C", "KC", "QC", "9C", "8C", "7C"]
    assert ctx.points[LAYOUT.parse("QC")] == 3 and ctx.points[LAYOUT.parse("JC")] == 2


def test_the_geier_has_the_obers_alone_for_trumps_and_the_unters_in_their_suits() -> None:
    ctx = context(RS, "geier")
    assert order(ctx, ctx.trump_mask, suit("H")) == ["QC", "QS", "QH", "QD"]
    assert order(ctx, ctx.suit_mask[suit("H")], suit("H")) == ["AH", "10H", "KH", "JH", "9H", "8H", "7H"]


def test_a_contract_without_its_own_set_keeps_every_promotion() -> None:
    ctx = context(RS, "solo_c")
    assert order(ctx, ctx.trump_mask, suit("C")) == ["QC", "QS", "QH", "QD", "JC", "JS", "JH", "JD",
                                                     "AC", "10C", "KC", "9C", "8C", "7C"]


def test_a_suit_contract_keeps_its_promoted_cards_in_its_own_order(tmp_path: Path) -> None:
    """A Farbwenz's shape: hearts trumps under the Unters, written from the bell Unter up; the heart
    Ober is a heart again, ranking in the trump suit's order."""
    path = tmp_path / "farbwenz.yaml"
    path.write_text(f"extends: {FOLDER / 'schafkopf.yaml'}\nid: farbwenz\nname: Farbwenz\ncontracts:\n"
                    "  solo_h: {promoted: [JD, JH, JS, JC]}\n", encoding="utf-8")
    ctx = context(build_ruleset(path), "solo_h")
    assert order(ctx, ctx.trump_mask, suit("H")) == ["JD", "JH", "JS", "JC", "AH", "10H", "KH", "QH",
                                                     "9H", "8H", "7H"]
    assert not ctx.trump_mask >> LAYOUT.parse("QC") & 1


def deal(hands: dict[int, str], seed: int = 0) -> GameState:
    """A game dealt by seat 3: ``hands`` (seat -> its cards, by name), the rest at random."""
    state = GameState(RS)
    state.apply(state.actions.dealer0 + DEALER)
    ids = {seat: [LAYOUT.parse(name) for name in names.split()] for seat, names in hands.items()}
    state.deal_pack(pack_dealing(RS, DEALER, ids, seed=seed))
    return no_knocks(state)


def test_in_the_wenz_an_ober_follows_its_suit_and_an_unter_takes_the_trick() -> None:
    state = deal({0: "KC AC 10C 9C JC JS JH 7D", 1: "QC AH 9H 8H 7H KH 10H 9D",
                  2: "JD AS 10S KS QS 9S 8S 7S", 3: "8C 7C QH AD 10D KD QD 8D"})
    say(state, "contract wenz", "pass", "pass", "pass", "KC")
    # the acorn Ober is a club (and Kontra is offered beside it, before his first card)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["QC", "announce kontra"]
    say(state, "QC", "JD")  # seat 2 has no club: the bell Unter, the lowest trump
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"8C", "7C", "announce kontra"}
    say(state, "8C")
    assert state.current_player() == 2 and state.view(2).points[1] == 9  # the defence: J 2 + K 4 + Q 3


def test_the_kernel_declines_a_contract_with_its_own_promotions() -> None:
    assert "`contracts`" in (ruleset_reason(RS) or "")


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_wenz_hands_conserve_120_points_and_the_scores(seed: int) -> None:
    """Forehand plays a Wenz on a random deal, everyone plays random legal cards: 120 card points in
    eight tricks, and what the soloist wins the three others lose."""
    rng = random.Random(seed)
    state = GameState(RS, seed=seed)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_shuffled(rng)
    if state.string_to_action(None, "contract wenz") not in state.legal_actions():
        return
    say(state, "contract wenz", "pass", "pass", "pass")
    hands = len(state.hands)
    while len(state.hands) == hands:
        assert state.current_player() != CHANCE
        state.apply(rng.choice(state.legal_actions()))
    summary = state.hands[-1]
    assert summary.contract == "wenz" and sum(summary.points) == 120 and sum(summary.tricks) == 8
    assert sum(summary.deltas) == 0 and sorted(summary.sides) == [0, 1, 1, 1]


def test_each_colour_games_value_keeps_its_games_and_the_farbgeier_ranks_the_obers_over_its_suit():
    """Each value of Schafkopf's `colour_games` makes a valid ruleset (its patch removes contracts another
    value's ladder names: the option values are checked without re-applying their patches) with the games
    it names; in an acorn Farbgeier the Obers head the clubs, the acorn Unter a club between king and nine."""
    kinds = {"both": {"farbwenz", "farbgeier"}, "farbwenz": {"farbwenz"}, "farbgeier": {"farbgeier"}, "none": set()}
    for value, games in kinds.items():
        rs = build_ruleset(str(FOLDER / "schafkopf.yaml"), {"colour_games": value})
        ids = {c.id for c in rs.contracts}
        for kind in ("farbwenz", "farbgeier"):
            made = {f"{kind}_{s}" for s in "dhsc"} | {f"tout_{kind}_{s}" for s in "dhsc"}
            assert (made <= ids) == (kind in games) and (not made & ids) == (kind not in games), (value, kind)
        assert "sie" in ids
    clubs = LAYOUT.parse_mask(["QC", "QS", "QH", "QD", "AC", "10C", "KC", "JC", "9C"])
    assert order(context(RS, "farbgeier_c"), clubs, suit("C")) == ["QC", "QS", "QH", "QD", "AC", "10C", "KC", "JC", "9C"]
    spades = LAYOUT.parse_mask(["AS", "KS", "JS", "9S"])  # the leaf Unter: a spade between king and nine
    assert order(context(RS, "farbgeier_c"), spades, suit("S")) == ["AS", "KS", "JS", "9S"]
