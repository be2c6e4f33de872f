"""Bids of a number of tricks (the `bids` section): once trump is fixed, before the first lead.

Each seat in turn from the elder says how many tricks it will take, from `lowest` to
`highest`, and never more than the hand's tricks (a schedule of hand sizes deals fewer cards
in some hands than `highest` allows). With `may_total_tricks: false` the last bidder may not say the number that
would make the bids add up to the tricks of the hand (the hook), unless it is the
only bid left. The bids are public; the scoring reads them as ``bid(team)``.

With `blind`, the seats its `when` allows at the start of the hand have not looked at their
cards (``_unseen``: their views show no hand): at its turn such a seat first bids the blind
number (ACCEPT) or looks at its cards (PASS) and then bids as any other. Whether a seat bid
blind is public; the scoring reads it as ``seat_blind(seat)``.
"""
from __future__ import annotations

from typing import Sequence

from couillon_dsl.engine.actions import BID
from couillon_dsl.engine.fields import StateFields


def side_bids(bids: Sequence[int], side_of: Sequence[int], nsides: int) -> tuple[int, ...]:
    """Side -> the tricks its seats bid (``bids`` per seat, -1 not yet): what ``bid(team)`` reads."""
    return tuple(sum(bid for seat, bid in enumerate(bids) if side_of[seat] == side and bid > 0) for side in range(nsides))


class BidPhase(StateFields):
    """Bidding tricks, seat by seat."""

    __slots__ = ()

    def _begin_bids(self) -> None:
        self._speakers = self._order[self._t.next_seat[self._dealer]]
        self._spk = 0
        self._trick_bids = (-1,) * self._n
        self._phase = BID
        if self._rs.bids.blind >= 0:  # type: ignore[union-attr]
            self._unseen = self._may_bid_blind()

    def _may_bid_blind(self) -> int:
        """The mask of the seats `blind.when` lets bid blind, read from what is settled before the
        deal is looked at (the scoresheet, the options, the dealer)."""
        when = self._rs.bids.blind_when_fn  # type: ignore[union-attr]
        if when is None:
            return (1 << self._n) - 1
        side_of, settled = self._side_of, self._settled()
        return sum(1 << seat for seat in range(self._n)
                   if when(settled._replace(each_seat=seat, each_team=side_of[seat])))

    def bids_allowed(self) -> list[int]:
        """The numbers of tricks the seat to bid may bid."""
        bids = self._rs.bids
        assert bids is not None
        tricks = self._t.tricks_of(self._game_hands)
        allowed = list(range(bids.lowest, min(bids.highest, tricks) + 1))
        if not bids.may_total_tricks and self._spk == len(self._speakers) - 1 and len(allowed) > 1:
            hook = tricks - sum(b for b in self._trick_bids if b > 0)
            if hook in allowed:
                allowed.remove(hook)
        return allowed

    def _bid_tricks(self, action: int) -> None:
        """The seat to bid bids ``action - bid0`` tricks, or the blind number (ACCEPT), or looks at
        its cards (PASS) and is asked again; after the last bid, play begins."""
        seat = self._speakers[self._spk]
        if self._unseen >> seat & 1:
            self._unseen &= ~(1 << seat)
            if action == self._acts.pass_:
                return
            self._blind |= 1 << seat
            action = self._acts.bid0 + self._rs.bids.blind  # type: ignore[union-attr]
        bids = list(self._trick_bids)
        bids[seat] = action - self._acts.bid0
        self._trick_bids = tuple(bids)
        self._spk += 1
        if self._spk == len(self._speakers):
            self._begin_play()

    def _bid_refusal(self, action: int) -> str:
        """Why a bid is refused: out of range, or the last bid that would make the bids add up to the tricks."""
        bids = self._rs.bids
        assert bids is not None
        number = action - self._acts.bid0
        if self._unseen >> self._speakers[self._spk] & 1:
            return f"bid {number} is not allowed yet: first bid blind or look at your cards"
        tricks = self._t.tricks_of(self._game_hands)
        if bids.lowest <= number <= min(bids.highest, tricks):
            return (f"bid {number} is not allowed: the last bidder may not make the bids add up to the "
                    f"{tricks} trick{'' if tricks == 1 else 's'} of the hand")
        if bids.lowest <= number <= bids.highest:
            return f"bid {number} is not allowed: this hand has only {tricks} trick{'' if tricks == 1 else 's'}"
        return f"bid {number} is not allowed: bids go from {bids.lowest} to {bids.highest}"
