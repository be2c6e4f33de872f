"""Cards as small integers and card sets as int bitmasks, with a printable notation.

A deck is laid out suit-major: card = suit_index * len(ranks) + rank_index, where
rank_index follows the ruleset's plain rank order (0 is the highest rank). Each suit is
therefore one contiguous run of bits, so `suit_mask[s]` is a shifted run of ones.

Notation: rank id followed by suit id, e.g. ``AS``, ``10H``, ``QS``; case-insensitive on
input. Unicode suit symbols are accepted on input and used by :meth:`DeckLayout.pretty`.

>>> deck = DeckLayout.standard(["A", "K", "Q", "J", "10", "9"])
>>> deck.parse("10h")
10
>>> deck.name(10), deck.pretty(10)
('10H', '10♥')
>>> deck.format_mask(deck.parse_mask("AS QS 9C"))
'AS QS 9C'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

Card = int
CardMask = int

STANDARD_SUITS: dict[str, tuple[str, str]] = {
    "S": ("spades", "♠"),
    "H": ("hearts", "♥"),
    "D": ("diamonds", "♦"),
    "C": ("clubs", "♣"),
}


class CardNotationError(ValueError):
    """A card name that does not name a card of this deck."""


def iter_bits(mask: CardMask) -> Iterator[Card]:
    """Yield the cards of a mask in ascending order (lowest-bit loop)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class DeckLayout:
    """Suits and ranks of a deck, and the names of its cards."""

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    suit_names: tuple[str, ...] = ()
    suit_symbols: tuple[str, ...] = ()
    _by_name: dict[str, Card] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.suit_names:
            object.__setattr__(self, "suit_names", tuple(STANDARD_SUITS.get(s, (s, s))[0] for s in self.suits))
        if not self.suit_symbols:
            object.__setattr__(self, "suit_symbols", tuple(STANDARD_SUITS.get(s, (s, s))[1] for s in self.suits))
        for card in range(self.size):
            self._by_name[self.name(card).upper()] = card
            self._by_name[self.pretty(card).upper()] = card

    @classmethod
    def standard(cls, ranks: Sequence[str], suits: Sequence[str] = ("S", "H", "D", "C")) -> "DeckLayout":
        return cls(tuple(suits), tuple(ranks))

    @property
    def size(self) -> int:
        return len(self.suits) * len(self.ranks)

    @property
    def full_mask(self) -> CardMask:
        return (1 << self.size) - 1

    def card(self, suit: int, rank: int) -> Card:
        return suit * len(self.ranks) + rank

    def suit_of(self, card: Card) -> int:
        return card // len(self.ranks)

    def rank_of(self, card: Card) -> int:
        return card % len(self.ranks)

    def suit_mask(self, suit: int) -> CardMask:
        n = len(self.ranks)
        return ((1 << n) - 1) << (suit * n)

    def name(self, card: Card) -> str:
        return self.ranks[self.rank_of(card)] + self.suits[self.suit_of(card)]

    def pretty(self, card: Card) -> str:
        return self.ranks[self.rank_of(card)] + self.suit_symbols[self.suit_of(card)]

    def suit_first(self, card: Card) -> str:
        """``♥J``: how explanations write a card, the suit symbol first as in a sentence."""
        return self.suit_symbols[self.suit_of(card)] + self.ranks[self.rank_of(card)]

    def parse(self, text: str) -> Card:
        """Parse one card name (``AS``, ``10h``, ``Q♠``); raises CardNotationError."""
        card = self._by_name.get(text.strip().upper())
        if card is None:
            raise CardNotationError(f"{text!r} is not a card of this deck (cards are written like {self.name(0)!r})")
        return card

    def parse_mask(self, text: str | Sequence[str]) -> CardMask:
        """Parse space- or comma-separated card names (or a list of names) into a mask."""
        names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        mask = 0
        for name in names:
            mask |= 1 << self.parse(str(name))
        return mask

    def format_mask(self, mask: CardMask, pretty: bool = False) -> str:
        show = self.pretty if pretty else self.name
        return " ".join(show(c) for c in iter_bits(mask))
