"""Cards as small integers and card sets as int bitmasks, with a printable notation.

A deck is laid out suit-major: card = offset[suit] + rank_index, where rank_index follows
the suit's plain rank order (0 is the highest rank). Suits may have ranks of their own and
so differ in length (a trump suit of 21 beside suits of 14); each suit is still one
contiguous run of bits, so `suit_mask[s]` is a shifted run of ones. Cards that belong to no
suit (extras, such as an Excuse or a joker) come last, named by their id; for the tables
they form one pseudo-suit numbered ``len(suits)``, which no rule makes anyone follow.
78 cards still fit comfortably in a Python int mask.

A deck of ``copies`` n (Doppelkopf's two packs in one) holds every card n times: each copy is
its own card id, the copies of a card adjacent (card = offset[suit] + rank_index * n + copy),
so that hands stay bitmasks. Copies share their name: ``QC`` parses to the first copy,
:meth:`DeckLayout.parse_mask` gives a name written twice its second copy, and
:meth:`DeckLayout.copies_mask` lists a card's copies.

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
SUIT_COLOURS = {"S": "black", "H": "red", "D": "red", "C": "black"}  # of the standard suits


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
    """Suits and ranks of a deck, its extras, and the names of its cards.

    ``ranks`` is the default rank list; ``suit_ranks`` (when given) the ranks of each suit,
    high to low; ``extras`` the ids of the cards outside every suit.
    """

    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    suit_names: tuple[str, ...] = ()
    suit_symbols: tuple[str, ...] = ()
    suit_ranks: tuple[tuple[str, ...], ...] = ()
    extras: tuple[str, ...] = ()
    extra_symbols: tuple[str, ...] = ()
    copies: int = 1
    _by_name: dict[str, Card] = field(default_factory=dict, compare=False, repr=False)
    # card -> (suit index, rank index within the suit); suit -> its first card
    _place: list[tuple[int, int]] = field(default_factory=list, compare=False, repr=False)
    _offsets: list[int] = field(default_factory=list, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.suit_names:
            object.__setattr__(self, "suit_names", tuple(STANDARD_SUITS.get(s, (s, s))[0] for s in self.suits))
        if not self.suit_symbols:
            object.__setattr__(self, "suit_symbols", tuple(STANDARD_SUITS.get(s, (s, s))[1] for s in self.suits))
        if not self.suit_ranks:
            object.__setattr__(self, "suit_ranks", tuple(self.ranks for _ in self.suits))
        if not self.extra_symbols:
            object.__setattr__(self, "extra_symbols", self.extras)
        for suit, ranks in enumerate((*self.suit_ranks, self.extras)):
            self._offsets.append(len(self._place))
            self._place.extend((suit, rank) for rank in range(len(ranks)) for _ in range(self.copies))
        for card in reversed(range(self.size)):  # a name parses to the first copy
            self._by_name[self.name(card).upper()] = card
            self._by_name[self.pretty(card).upper()] = card

    @classmethod
    def standard(cls, ranks: Sequence[str], suits: Sequence[str] = ("S", "H", "D", "C")) -> "DeckLayout":
        return cls(tuple(suits), tuple(ranks))

    @property
    def size(self) -> int:
        return len(self._place)

    @property
    def full_mask(self) -> CardMask:
        return (1 << self.size) - 1

    @property
    def longest_suit(self) -> int:
        return max(len(ranks) for ranks in (*self.suit_ranks, self.extras))

    def ranks_of(self, suit: int) -> tuple[str, ...]:
        """The ranks of a suit, high to low (the extras' ids for the pseudo-suit ``len(suits)``)."""
        return self.extras if suit == len(self.suits) else self.suit_ranks[suit]

    def card(self, suit: int, rank: int) -> Card:
        """The card of a suit and rank (its first copy)."""
        return self._offsets[suit] + rank * self.copies

    def first_copy(self, card: Card) -> Card:
        """The first copy of ``card`` (the card itself in a deck of one copy)."""
        suit, rank = self._place[card]
        return self._offsets[suit] + rank * self.copies

    def copies_mask(self, card: Card) -> CardMask:
        """Every copy of ``card``, as a mask."""
        return ((1 << self.copies) - 1) << self.first_copy(card)

    def with_copies(self, mask: CardMask) -> CardMask:
        """``mask`` with every copy of each card it holds: what a rule naming those cards covers."""
        if self.copies == 1:
            return mask
        out = 0
        for card in iter_bits(mask):
            out |= self.copies_mask(card)
        return out

    def in_copy_order(self, order: Sequence[Card], drawn: CardMask = 0) -> list[Card]:
        """``order`` with each card replaced by its lowest copy not ``drawn`` nor earlier in the
        order: the same deal of equal cards, written as drawing each card's name would write it."""
        out = []
        for card in order:
            free = self.copies_mask(card) & ~drawn
            low = free & -free
            drawn |= low
            out.append(low.bit_length() - 1)
        return out

    def lowest_copies(self, mask: CardMask) -> CardMask:
        """``mask`` with one copy of each card it holds, the lowest: equal cards as one choice."""
        if self.copies == 1:
            return mask
        out = 0
        while mask:
            low = mask & -mask
            out |= low
            mask &= ~self.copies_mask(low.bit_length() - 1)
        return out

    def suit_of(self, card: Card) -> int:
        """The card's suit; ``len(suits)`` for an extra."""
        return self._place[card][0]

    def rank_of(self, card: Card) -> int:
        return self._place[card][1]

    def is_extra(self, card: Card) -> bool:
        return self._place[card][0] == len(self.suits)

    def rank_name(self, card: Card) -> str:
        suit, rank = self._place[card]
        return self.ranks_of(suit)[rank]

    def suit_symbol(self, suit: int) -> str:
        """How a suit is printed; the extras' pseudo-suit as the words "no suit"."""
        return self.suit_symbols[suit] if suit < len(self.suits) else "no suit"

    def suit_mask(self, suit: int) -> CardMask:
        n = len(self.ranks_of(suit)) * self.copies
        return ((1 << n) - 1) << self._offsets[suit]

    def name(self, card: Card) -> str:
        suit, rank = self._place[card]
        if suit == len(self.suits):
            return self.extras[rank]
        return self.suit_ranks[suit][rank] + self.suits[suit]

    def pretty(self, card: Card) -> str:
        suit, rank = self._place[card]
        if suit == len(self.suits):
            return self.extra_symbols[rank]
        return self.suit_ranks[suit][rank] + self.suit_symbols[suit]

    def suit_first(self, card: Card) -> str:
        """``♥J``: how explanations write a card, the suit symbol first as in a sentence."""
        suit, rank = self._place[card]
        if suit == len(self.suits):
            return self.extra_symbols[rank]
        return self.suit_symbols[suit] + self.suit_ranks[suit][rank]

    def parse(self, text: str) -> Card:
        """Parse one card name (``AS``, ``10h``, ``Q♠``); raises CardNotationError."""
        card = self._by_name.get(text.strip().upper())
        if card is None:
            raise CardNotationError(f"{text!r} is not a card of this deck (cards are written like {self.name(0)!r})")
        return card

    def parse_mask(self, text: str | Sequence[str]) -> CardMask:
        """Parse space- or comma-separated card names (or a list of names) into a mask; a name
        written again (in a deck of copies) is its next copy, and more often than it has copies
        raises CardNotationError."""
        names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        mask = 0
        for name in names:
            card = self.parse(str(name))
            free = self.copies_mask(card) & ~mask
            if not free and self.copies > 1:
                raise CardNotationError(f"{name!r} is written more often than the deck's {self.copies} copies")
            mask |= free & -free if free else 1 << card
        return mask

    def format_mask(self, mask: CardMask, pretty: bool = False) -> str:
        show = self.pretty if pretty else self.name
        return " ".join(show(c) for c in iter_bits(mask))
