"""The trump contexts of a deck's promotions (`deck.promotions`), as the compiler shares them.

A context is looked up by the trump suit and the promotions announced so far; a promotion
without an announcement is in force from the deal on. The compiler builds one context per set of
promoted cards in force and shares it among the announcement sets that lead to it, so a deck of
many promotions (Schafkopf's eight Obers and Unters) compiles in milliseconds, not seconds.
"""
from __future__ import annotations

import pytest

from couillon_dsl.builtin import builtin_names
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine.tables import promoted_card
from example_games import EXAMPLES

WITH_PROMOTIONS = [name for name in (*builtin_names(), *EXAMPLES) if build_ruleset(name).deck.promotions]


def test_rulesets_with_promotions_are_found() -> None:
    assert any("schafkopf" in name for name in WITH_PROMOTIONS)
    assert any("doppelkopf" in name for name in WITH_PROMOTIONS)


@pytest.mark.parametrize("name", WITH_PROMOTIONS)
def test_each_context_promotes_the_cards_of_the_promotions_in_force(name: str) -> None:
    rs = build_ruleset(name)
    t, layout, promotions = rs.tables, rs.layout, rs.deck.promotions
    always = t.always_promoted
    for trump in range(len(layout.suits)):
        cards = [promoted_card(rs.deck, layout, p, trump) for p in promotions]
        for bits in range(1 << len(promotions)):
            ctx = t.context(trump, bits)
            in_force = bits | always
            assert ctx is t.context(trump, in_force)  # the unannounced promotions whatever was announced
            wanted = {layout.first_copy(c) for i, c in enumerate(cards) if in_force >> i & 1}
            promoted = {layout.first_copy(c) for c in range(layout.size) if ctx.promoted >> c & 1}
            assert promoted == wanted, (trump, bin(bits))
            assert all(ctx.card_suit[c] == trump for c in wanted)


def test_schafkopf_shares_one_context_per_trump_suit_and_promoted_set() -> None:
    rs = build_ruleset(next(name for name in WITH_PROMOTIONS if "schafkopf" in name))
    t = rs.tables
    main_family = t.contexts[: (len(rs.layout.suits) + 1) << len(t.promotion_cards)]
    distinct = {id(ctx) for ctx in main_family}
    by_content = {(ctx.trump, ctx.promoted) for ctx in main_family}
    assert len(distinct) == len(by_content)  # equal promoted sets share one object
    assert len(distinct) < len(main_family)
