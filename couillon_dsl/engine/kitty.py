"""The kitty and the discard: cards dealt face down to nobody, which the contract shows, hands
to the declarer, or leaves unseen; and the cards a seat discards for the ones it took.

The deal's `kitty` step puts cards aside as the kitty (``_kitty``). Once the contract is
fixed, its `kitty` keys say what happens, before the deal script goes on:

* ``shown``: the kitty is public from then on (every seat's view lists it);
* ``taken``: the declarer adds it to his hand, then discards as many cards, one at a time
  (phase ``discard``, actions ``discard CARD``).

An offered card taken (`trump.offer.taken_by`, engine.contract) is paid for the same
way: its taker discards one card. The seat that discards is ``_discarder`` (the declarer, or
the taker). The legal discards are computed per discard from the hand by
:func:`legal_discards`: never a `never` card; a `last_resort` card only when the hand holds
fewer other cards it may discard than discards remain; and should even that not be enough,
any card, so the phase always ends.

Discarded cards leave the hand and are never played, so at the hand's end they count, like
a kitty nobody took, for whom the contract's `aside_counts_for` says (they are among the
cards nobody played). Who sees what is declared here once (:meth:`KittyPhase._kitty_view`):
a shown kitty everyone, a taken kitty the declarer; a discard of a `shown` class everyone,
any other discard the discarder alone. Seat views, the sampler of hidden cards and the
leak tests all read it from the view.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from couillon_dsl.cards import Card, CardMask, DeckLayout
from couillon_dsl.engine.actions import CALL, DISCARD
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.model import Contract, Deck, Discard


@dataclass(frozen=True, slots=True)
class KittyTables:
    """A ruleset's kitty compiled: per contract what happens to it, and the discard rules as masks."""

    shown: tuple[bool, ...]  # contract index -> the kitty is shown to everyone
    taken: tuple[bool, ...]  # contract index -> the declarer takes it and discards as many cards
    never: CardMask  # cards never discarded
    last_resort: CardMask  # cards discarded only when too few others may be
    face_up: CardMask  # discards everyone sees
    positions: tuple[tuple[int, int], ...]  # plan index (Tables.plan_index) -> the kitty's (start, stop) in the pack


def class_mask(layout: DeckLayout, deck: Deck, classes: Sequence[tuple[str, str]]) -> CardMask:
    """The cards of a list of card classes: (rank, id) every card of that rank in the suits that have it,
    (suit, id), (set, name) from deck.card_sets, (card, name)."""
    mask = 0
    for kind, key in classes:
        if kind == "rank":
            for suit in range(len(layout.suits)):
                ranks = layout.ranks_of(suit)
                if key in ranks:
                    mask |= 1 << layout.card(suit, ranks.index(key))
        elif kind == "suit":
            mask |= layout.suit_mask(layout.suits.index(key))
        elif kind == "set":
            mask |= layout.parse_mask(list(deck.card_sets[key]))
        else:
            mask |= 1 << layout.parse(key)
    return layout.with_copies(mask)  # a class covers every copy (`deck.copies`)


def build_kitty_tables(contracts: Sequence[Contract], discard: Discard | None, layout: DeckLayout, deck: Deck,
                       plans: Sequence[Sequence[tuple[object, ...]]], op_kitty: int) -> KittyTables:
    """The kitty tables; ``plans`` are the deal plans (``Tables.plan_index``), whose ``op_kitty`` op gives the positions."""
    rules = discard or Discard()
    positions = tuple(next(((int(op[1]), int(op[2])) for op in plan if op[0] == op_kitty), (0, 0))  # type: ignore[call-overload]
                      for plan in plans)
    return KittyTables(
        shown=tuple(c.kitty.shown for c in contracts), taken=tuple(c.kitty.taken for c in contracts),
        never=class_mask(layout, deck, rules.never), last_resort=class_mask(layout, deck, rules.last_resort),
        face_up=class_mask(layout, deck, rules.shown), positions=positions)


def legal_discards(kitty: KittyTables, hand: CardMask, left: int) -> CardMask:
    """The cards ``hand`` may discard with ``left`` discards to go: the free ones; the last-resort
    ones too when the free ones are too few; any card when even those are too few."""
    free = hand & ~(kitty.never | kitty.last_resort)
    if free.bit_count() >= left:
        return free
    allowed = hand & ~kitty.never
    return allowed if allowed.bit_count() >= left else hand


def discard_reason(kitty: KittyTables, hand: CardMask, left: int, card: Card, name: str) -> str:
    """Why ``card`` may not be discarded now (it is in ``hand`` and not among the legal discards)."""
    if kitty.never >> card & 1:
        return f"{name} may never be discarded"
    free = (hand & ~(kitty.never | kitty.last_resort)).bit_count()
    return (f"{name} may be discarded only when the hand holds too few other cards it may discard "
            f"({free} others, {left} to discard)")


class KittyPhase(StateFields):
    """The kitty once the contract is fixed (shown, taken), and the discard that follows a taking."""

    __slots__ = ()

    def _begin_exchange(self) -> bool:
        """Hand a taken kitty to the declarer; True when he must now discard."""
        k = self._t.kitty
        if self._contract < 0 or not k.taken[self._contract] or not self._kitty:
            return False
        self._hands[self._decider] |= self._kitty  # type: ignore[index]
        self._begin_discard(self._decider, self._kitty.bit_count())  # type: ignore[arg-type]
        return True

    def _begin_discard(self, seat: int, count: int) -> None:
        """``seat`` took cards and now discards ``count`` of them, one at a time (phase ``discard``)."""
        self._discarder = seat
        self._to_discard = count
        self._phase = DISCARD

    def discard_mask(self) -> CardMask:
        """The cards the discarder may discard now (discard phase only)."""
        return legal_discards(self._t.kitty, self._hands[self._discarder], self._to_discard)  # type: ignore[index]

    def _discard(self, card: Card) -> None:
        """The discarder discards ``card`` (legality already checked); after the last, the deal goes on."""
        self._hands[self._discarder] ^= 1 << card  # type: ignore[index]
        self._discards |= 1 << card
        self._to_discard -= 1
        if not self._to_discard:
            self._after_discard()

    def _discard_refusal(self, action: int) -> str:
        seat = self._discarder
        card = action - self._acts.discard0
        if not 0 <= card < self._acts.ncards:
            return f"seat {seat} must discard a card now, not {self._describe(action)}"
        name = self._rs.layout.name(card)
        hand = self._hands[seat]  # type: ignore[index]
        if not hand >> card & 1:
            return f"{name} is not in seat {seat}'s hand"
        return discard_reason(self._t.kitty, hand, self._to_discard, card, name)

    def _kitty_view(self, seat: int) -> tuple[CardMask, CardMask]:
        """(kitty, discards) as ``seat`` sees them: the kitty once shown (or taken by this seat), every
        discard to the discarder and the discards of a shown class to everyone."""
        k = self._t.kitty
        c = self._contract
        if self._phase == CALL and self._t.calls[c].before_kitty:
            return 0, 0  # a call before the kitty: nobody has seen it yet (engine.call)
        mine = seat == self._discarder
        # the discarder saw the kitty if he took it: by his contract, or by his decision before one
        kitty = self._kitty if (c >= 0 and k.shown[c]) or (mine and (c >= 0 and k.taken[c] or self._t.kitty_choice)) \
            else 0
        return kitty, self._discards if mine else self._discards & k.face_up
