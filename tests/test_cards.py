"""Card notation: names and Unicode forms round-trip, masks round-trip, bad names are refused."""
import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import couillon_dsl.cards
from couillon_dsl.builtin import builtin_names
from couillon_dsl.cards import CardNotationError, DeckLayout, iter_bits
from couillon_dsl.compile import build_ruleset

LAYOUTS = {name: build_ruleset(name).layout for name in builtin_names()}
DECK_32 = DeckLayout.standard(["A", "K", "Q", "J", "10", "9", "8", "7"])


def test_doctests() -> None:
    assert doctest.testmod(couillon_dsl.cards).failed == 0


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_card_of_every_shipped_deck_round_trips(name: str) -> None:
    layout = LAYOUTS[name]
    for card in range(layout.size):
        assert layout.parse(layout.name(card)) == card
        assert layout.parse(layout.pretty(card)) == card
        assert layout.parse(layout.name(card).lower()) == card


@given(st.integers(min_value=0, max_value=(1 << 32) - 1))
def test_masks_round_trip_through_text(mask: int) -> None:
    for pretty in (False, True):
        assert DECK_32.parse_mask(DECK_32.format_mask(mask, pretty=pretty)) == mask


@given(st.integers(min_value=0, max_value=(1 << 32) - 1))
def test_iter_bits_yields_each_set_bit_once_in_order(mask: int) -> None:
    cards = list(iter_bits(mask))
    assert cards == sorted(set(cards))
    assert sum(1 << c for c in cards) == mask


def test_suits_are_contiguous_runs_of_bits() -> None:
    masks = [DECK_32.suit_mask(s) for s in range(4)]
    assert sum(masks) == DECK_32.full_mask
    assert all(DECK_32.suit_of(c) == s for s, m in enumerate(masks) for c in iter_bits(m))


@pytest.mark.parametrize("text", ["", "1S", "AX", "10", "QQS", "♠Q"])
def test_bad_names_are_refused_with_an_example(text: str) -> None:
    with pytest.raises(CardNotationError, match="is not a card of this deck"):
        DECK_32.parse(text)
