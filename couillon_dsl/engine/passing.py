"""Cards passed before play (the `passing` section): once trump is fixed, before any bids and the first lead.

Each seat in turn from the elder gives `cards` cards, one at a time (actions ``pass CARD``),
to the seat the hand's entry of `to` names; a given card leaves the giver's hand at once
but reaches the receiver only when every seat has given, so nobody chooses knowing what it
will receive. Who gives to whom is public; the cards are seen by their giver and their
receiver alone (:meth:`PassPhase._pass_view`), and seat views, the sampler of hidden cards
and the leak tests all read that from the view.
"""
from __future__ import annotations

from couillon_dsl.cards import Card, CardMask
from couillon_dsl.engine.actions import PASS
from couillon_dsl.engine.fields import StateFields


class PassPhase(StateFields):
    """Passing cards, seat by seat, then the exchange."""

    __slots__ = ()

    def passing_offset(self) -> int:
        """How many seats on each seat passes to in this hand (0: nobody passes)."""
        passing = self._rs.passing
        return 0 if passing is None else passing.offset(self._game_hands, self._n)

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
        if given[seat].bit_count() < self._rs.passing.cards:  # type: ignore[union-attr]
            return
        self._spk += 1
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
        """(passed, received) as ``seat`` sees them: the cards it gave, and once the exchange is
        done the cards it was given; never the cards two other seats passed between them."""
        if not self._given:
            return 0, 0
        return self._given[seat], self._received[seat]
