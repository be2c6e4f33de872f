"""Announcements in trick 1 (the Mit, Kontra, Re...): offers, answers, and the promotions they trigger."""
from __future__ import annotations

from couillon_dsl.engine.actions import ANNOUNCE, PLAY
from couillon_dsl.engine.fields import StateFields


class AnnouncePhase(StateFields):
    """Offering and making announcements."""

    __slots__ = ()

    def _offer_announcements(self) -> None:
        """Queue the announcements the seat to move may make on its turn in trick 1."""
        seat = self._turn
        hand = self._hands[seat]
        for a, card in enumerate(self._t.holder_cards):
            if card >= 0 and hand >> card & 1 and not self._ann_offered >> a & 1:
                self._ann_offered |= 1 << a
                self._offers.append((a, seat))
        if self._offers:
            self._phase = ANNOUNCE

    def _announce(self, action: int) -> None:
        a, seat = self._offers[0]
        if action == self._acts.decline:
            self._offers.pop(0)
        else:
            self._made.append((a, seat))
            while self._offers and self._offers[0][0] == a:  # first yes ends this round
                self._offers.pop(0)
            follow = []
            rs = self._rs
            team_of = self._t.team_of
            for b in self._t.followups[a]:
                partners = rs.announcements[b].by == "partners"
                for k in range(1, self._n):
                    other = (seat + k) % self._n
                    if (team_of[other] == team_of[seat]) == partners:
                        follow.append((b, other))
            self._offers[:0] = follow
            self._promote(a)
        if not self._offers:
            self._phase = PLAY

    def _promote(self, a: int) -> None:
        """Apply the promotions announcement ``a`` triggers; re-rank the trick in progress."""
        for i, by in enumerate(self._t.promotion_by):
            if by == a:
                self._promo |= 1 << i
        self._set_context()
        ctx = self._ctx
        if self._trick:
            self._led = ctx.card_suit[self._trick[0]]
            self._st = ctx.strength[self._led]
            self._best = -1
            self._tpoints = 0
            for i, card in enumerate(self._trick):
                self._tpoints += ctx.points[card]
                if self._st[card] > self._best:
                    self._best, self._win, self._wseat = self._st[card], card, (self._leader + i) % self._n
