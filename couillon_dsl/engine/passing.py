"""Cards passed before play: the `passing` section, or a blind bid's exchange (`bids.blind.exchange`).

`passing`: once trump is fixed, before any bids and the first lead, each seat in turn from the
elder gives `cards` cards, one at a time (actions ``pass CARD``), to the seat the hand's entry
of `to` names; a given card leaves the giver's hand at once but reaches the receiver only when
every seat has given, so nobody chooses knowing what it will receive.

A blind bid's exchange: after the bids, each seat that bid blind and its partner across the
table give each other `cards` cards in turn (:func:`exchange_givers`), each receiving at once, so
the second chooses what to give back knowing what it was given.

Who gives to whom is public; the cards are seen by their giver and their receiver alone
(:meth:`PassPhase._pass_view`), and seat views, the sampler of hidden cards and the leak tests
all read that from the view.
"""
from __future__ import annotations

from typing import Sequence

from couillon_dsl.cards import Card, CardMask
from couillon_dsl.engine.actions import PASS
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.model import Ruleset


def exchange_givers(blind: int, order: Sequence[int], first: str) -> tuple[int, ...]:
    """The seats that give in a blind bid's exchange, in turn: for each seat that bid blind (the
    ``blind`` mask), in the bidding ``order``, whose partner across the table has not already
    exchanged with a blind bidder, the partner then the bidder (``first``: partner), or the
    bidder then the partner (bidder)."""
    n = len(order)
    out: list[int] = []
    for seat in order:
        partner = (seat + n // 2) % n
        if blind >> seat & 1 and seat not in out:
            out.extend((partner, seat) if first == "partner" else (seat, partner))
    return tuple(out)


def pass_givers(rs: Ruleset, order: Sequence[int], blind: int) -> tuple[int, ...]:
    """The seats that give cards in a hand whose seats in play, from the elder, are ``order``, in turn:
    with `passing` every one of them; with a blind bid's exchange the seats :func:`exchange_givers`
    names for the seats that bid blind (the ``blind`` mask, public); else none."""
    if rs.passing is not None:
        return tuple(order)
    if rs.bids is not None and rs.bids.exchange:
        return exchange_givers(blind, order, rs.bids.exchange_first)
    return ()


class PassPhase(StateFields):
    """Passing cards, seat by seat, then the exchange."""

    __slots__ = ()

    def passing_offset(self) -> int:
        """How many seats on each seat that passes gives to in this hand (0: nobody passes)."""
        if self._rs.passing is None and not self._given:  # a blind bid's exchange: only once it takes place
            return 0
        return self._rs.pass_offset(self._game_hands)

    def _begin_blind_exchange(self) -> bool:
        """After the bids: enter a blind bid's exchange when some seat bid blind; True when it did."""
        bids = self._rs.bids
        if bids is None or not bids.exchange or not self._blind or self._given:
            return False
        self._speakers = pass_givers(self._rs, self._order[self._t.next_seat[self._dealer]], self._blind)
        self._spk = 0
        self._given = self._received = (0,) * self._n
        self._phase = PASS
        return True

    def _begin_passing(self) -> bool:
        """Enter the passing phase when this hand passes and has not yet; True when it did."""
        if self._given or not self.passing_offset():
            return False
        self._speakers = self._order[self._t.next_seat[self._dealer]]
        self._spk = 0
        self._given = self._received = (0,) * self._n
        self._phase = PASS
        return True

    def _give(self, card: Card) -> None:
        """The seat to pass gives ``card`` (legality already checked); after the last card of the
        last seat, every seat receives what was given to it and the hand goes on to play."""
        seat = self._speakers[self._spk]
        self._hands[seat] ^= 1 << card
        given = list(self._given)
        given[seat] |= 1 << card
        self._given = tuple(given)
        if given[seat].bit_count() < self._rs.pass_cards:
            return
        self._spk += 1
        if self._rs.passing is None:  # an exchange: the receiver takes the cards at once
            receiver = (seat + self.passing_offset()) % self._n
            self._hands[receiver] |= given[seat]
            received = list(self._received)
            received[receiver] = given[seat]
            self._received = tuple(received)
            if self._spk == len(self._speakers):
                self._begin_play()
            return
        if self._spk < self._n:
            return
        offset = self.passing_offset()
        received = [0] * self._n
        for giver, cards in enumerate(given):
            receiver = (giver + offset) % self._n
            self._hands[receiver] |= cards
            received[receiver] = cards
        self._received = tuple(received)
        self._begin_play()

    def _give_refusal(self, action: int) -> str:
        seat = self._speakers[self._spk]
        card = action - self._acts.give0
        if not 0 <= card < self._acts.ncards:
            return f"seat {seat} must pass a card now, not {self._describe(action)}"
        return f"{self._rs.layout.name(card)} is not in seat {seat}'s hand"

    def _pass_view(self, seat: int) -> tuple[CardMask, CardMask]:
        """(passed, received) as ``seat`` sees them: the cards it gave, and once they reached it (when
        every seat has given; in an exchange, when its partner has) the cards it was given; never the
        cards two other seats passed between them."""
        if not self._given:
            return 0, 0
        return self._given[seat], self._received[seat]
