"""Announcements (the Mit, Kontra, Re, a declarer's chelem, a knock...): offers, answers, and the promotions they trigger.

A card's holder announces in trick 1, beside his cards; answers (`after`) are asked in turn.
An announcement made by a seat for its side (`for_side`) is offered beside its cards on each of
its turns, while the seat has played fewer cards than its deadline (`before_card`; one card
later than an announcement of the other side it replies to, `reply_to`): only to a seat of that
side, so making it tells the table the announcer's side (``GameState.sides_known_to``).
The declarer's announcements (`by: declarer`) are put to him once the contract is fixed and
any kitty exchanged, before the first lead (``_ntricks`` is still 0 then), and play begins
when they and their answers are settled; then an announcement for a side asked before the lead
(`before_lead`) is put to every seat in turn from the elder, a seat not of its side answering only no,
so the question tells nothing. An announcement a deal step asks (`announce`) is put to every
seat in turn from the elder, each answer counted, and the deal goes on once all have answered.
"""
from __future__ import annotations

from couillon_dsl.cards import iter_bits
from couillon_dsl.engine.actions import ANNOUNCE, PLAY
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.engine.results import play_orders
from couillon_dsl.engine.roles import later_copy_wins


class AnnouncePhase(StateFields):
    """Offering and making announcements."""

    __slots__ = ()

    def _offer_announcements(self) -> None:
        """At its turn in trick 1 a seat may announce what its cards allow, before playing a card; on any
        turn, what its side allows (`for_side`) before its deadline.

        The announcement is offered next to the seat's cards in the play phase, not as a
        question: declining is just playing a card, so a silent holder cannot be told from a
        seat without the card, by anyone or from any record.
        """
        hand = self._hands[self._turn]
        may = 0
        if self._trick_no == 0:
            for a, card in enumerate(self._t.holder_cards):
                if card >= 0 and hand >> card & 1:
                    may |= 1 << a
            if self._meld_offers:  # optional declarations, offered the same way (bits after the announcements)
                may |= self._declarations_offered(self._turn) << len(self._t.holder_cards)
        if self._t.side_offers:  # on any turn: announcements for the seat's side, before their deadline
            may |= self._side_offers_to(self._turn)
        self._may_announce = may

    def _side_offers_to(self, seat: int) -> int:
        """The announcements for its side (`for_side`) ``seat`` may make now, as bits: its side's, not yet
        made, before its deadline (cards it has played < `before_card`, or one more than the deadline of
        an announcement of the other side it replies to, once that one was made)."""
        maker = self._maker
        if maker is None:
            return 0
        made = 0
        for a, _ in self._made:
            made |= 1 << a
        side = 0 if self._side_of[seat] == maker else 1
        played = self._cards_played(seat)
        deadline_of = self._t.side_deadlines
        may = 0
        later_only = self._t.after_declarer_only
        for a, a_side, before, replies, _ in self._t.side_offers:
            if a_side != side or made >> a & 1 or later_only >> a & 1 and not self._after_declarer(seat):
                continue
            for r in replies:
                if made >> r & 1:
                    before = max(before, deadline_of[r] + 1)
            if played < before:
                may |= 1 << a
        return may

    def _cards_played(self, seat: int) -> int:
        """How many cards ``seat`` has played this hand: a card a trick (and the one it put on the trick under
        way), the tricks less the cards it holds where hands are not refilled; with `play.draw` the hand holds
        as many cards after every trick, so the tricks are counted."""
        if not self._t.draw:
            return self._ntricks - self._hands[seat].bit_count()
        return self._trick_no + (seat in self._order[self._leader][:len(self._trick)])

    def _side_may(self, seat: int, a: int) -> bool:
        """Whether ``seat`` is of the side announcement ``a`` (`for_side`) is made for; the hand has a maker."""
        side = 0 if self._side_of[seat] == self._maker else 1
        if self._t.after_declarer_only >> a & 1 and not self._after_declarer(seat):
            return False
        return any(entry[0] == a and entry[1] == side for entry in self._t.side_offers)

    def _after_declarer(self, seat: int) -> bool:
        """Whether ``seat`` comes after the declarer in the order from the elder (`after_declarer`): the
        auction never asked it before his bid."""
        if self._decider is None:
            return False
        order = self._order[self._t.next_seat[self._dealer]]
        return seat in order and self._decider in order and order.index(seat) > order.index(self._decider)

    def _side_refusal(self, seat: int, a: int) -> str:
        """Why ``seat`` may not make announcement ``a`` for its side now (it is not offered)."""
        rs = self._rs
        name = rs.announcements[a].name
        if any(m == a for m, _ in self._made):
            return f"{name} was already announced in this hand"
        if self._maker is None or (0 if self._side_of[seat] == self._maker else 1) != self._t.side_offers[
                next(i for i, entry in enumerate(self._t.side_offers) if entry[0] == a)][1]:
            return f"only a seat of the side it is made for may announce {name}"
        if self._t.after_declarer_only >> a & 1 and not self._after_declarer(seat):
            return f"only a seat after the declarer in the auction's order may announce {name}"
        if a in self._t.lead_asks:
            return f"{name} is asked of every seat before the first lead, and only then"
        played = self._cards_played(seat)
        return f"{name} is announced before the announcer's card {self._t.side_deadlines[a]} at the latest (or one " \
               f"card after an announcement it replies to), and seat {seat} has played {played}"

    def _offered_actions(self) -> list[int]:
        """The actions the seat to move may take beside its cards: ANNOUNCE a, DECLARE k, EXCHANGE (the bit
        after the declarations', :meth:`_exchange_bit`)."""
        acts = self._acts
        n = acts.nannouncements
        exchange = self._exchange_bit().bit_length() - 1
        return [acts.exchange if a == exchange else acts.announce0 + a if a < n else acts.declare0 + a - n
                for a in iter_bits(self._may_announce)]

    def _exchange_bit(self) -> int:
        """The bit of ``_may_announce`` that offers the trade for the turned card (`play.draw.exchange`):
        after the announcements' and the optional declarations'."""
        return 1 << (self._acts.nannouncements + (len(self._rs.declarations) if self._acts.declare0 >= 0 else 0))

    def _take_offer(self, action: int) -> None:
        """The seat to move announces, declares or trades for the turned card what it was offered; it still
        plays a card."""
        acts = self._acts
        if action == acts.exchange:
            self._may_announce &= ~self._exchange_bit()
            self._exchange_turned()
            if self._t.led_offered and not self._lead_from:  # the card taken may complete a combination
                self._offer_led_melds()
        elif action >= acts.declare0 >= 0:
            self._may_announce &= ~(1 << (action - acts.declare0 + acts.nannouncements))
            before = len(self._melds)
            self._declare_offered(self._turn, action - acts.declare0)
            if self._stops_on_declaring(before):  # `play.stop_when`: the meld ends the hand before the lead
                self._may_announce = 0
                self._end_hand()
        else:
            self._announce_own(action - acts.announce0)

    def _announce_own(self, a: int) -> None:
        """The seat to move announces ``a`` (its card or its side allows it); it still plays a card after any
        follow-ups. An announcement for its side makes the ones it implies (`implies`) first, where not made."""
        implied = self._t.side_implies
        if implied and implied[a] >= 0:
            chain = []
            b = implied[a]
            while b >= 0 and all(b != m for m, _ in self._made):
                chain.append(b)
                b = implied[b]
            for b in reversed(chain):
                self._may_announce &= ~(1 << b)
                self._make(b, self._turn)
        self._may_announce &= ~(1 << a)
        self._make(a, self._turn)
        if self._t.hand_enders >> a & 1:  # a claim (`ends_hand`): the hand ends before the lead, the scoring judges it
            self._may_announce = 0
            self._offers.clear()
            self._end_hand()
        elif self._offers:
            self._phase = ANNOUNCE

    def _announce(self, action: int) -> None:
        """An answer to an offer: a follow-up, where every eligible seat is asked, so the question tells
        nothing; before the first lead (no trick under way yet), the declarer's own announcement; or during
        the deal, a question every seat answers in turn (`by: each_seat`), each yes counted."""
        a, seat = self._offers.pop(0)
        in_deal = self._t.asked_in_deal[a]
        if action != self._acts.decline:
            while not in_deal and self._offers and self._offers[0][0] == a:  # first yes ends this round
                self._offers.pop(0)
            self._make(a, seat)
        if not self._offers:
            if self._ntricks:
                self._phase = PLAY
            elif in_deal:  # every seat has answered: the deal goes on
                self._run_deal()
            else:  # the answers before the first lead are in: play begins
                self._before_first_lead()

    def _make(self, a: int, seat: int) -> None:
        """Record announcement ``a`` by ``seat``, send out the seats it sends out, queue its follow-ups
        first (to the seats still in play), apply its promotions."""
        self._made.append((a, seat))
        self._made_tricks.append(tuple(self._tricks))  # `tricks_at`: the tricks as they stood when it was made
        if self._t.stock_closers >> a & 1:
            self._close_stock()
        if a in self._t.sends_partners_out:
            self._sit_out_partners(seat)
        if a in self._t.shows_hand:  # his cards are public from now on, each until he plays it
            for card in iter_bits(self._hands[seat]):
                self._face_up[card] = seat
        follow = []
        rs = self._rs
        team_of = self._side_of
        for b in self._t.followups[a]:
            partners = rs.announcements[b].by == "partners"
            for other in self._order[seat][1:]:
                if (team_of[other] == team_of[seat]) == partners:
                    follow.append((b, other))
        self._offers[:0] = follow
        self._promote(a)

    def _sit_out_partners(self, seat: int) -> None:
        """``seat``'s partners sit the rest of the hand out (`sits_out: partners`): they keep their
        cards and play none, so the tricks go round the other seats (public: the table sees it)."""
        side = self._side_of[seat]
        partners = {s for s in range(self._n) if s != seat and self._side_of[s] == side}
        self._sitting_out = tuple(sorted(partners.union(self._sitting_out)))
        self._order = play_orders(self._n, self._sitting_out)

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
            for seat, card in zip(self._order[self._leader], self._trick):
                self._tpoints += ctx.points[card]
                if self._st[card] > self._best or self._st[card] == self._best and later_copy_wins(
                        ctx, card, self._win, self._trick_no + 1 == self._ntricks):
                    self._best, self._win, self._wseat = self._st[card], card, seat
