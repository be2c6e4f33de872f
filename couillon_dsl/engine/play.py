"""The tricks of a hand: the first lead, each card played, each trick's end, and random play-outs.

Legality is the trump context's follow closure (:mod:`couillon_dsl.engine.follow`); a
refused card is explained by :mod:`couillon_dsl.engine.why` in the rule's own words.
Who plays a trick's i-th card is :func:`~couillon_dsl.engine.results.play_orders`' answer (the
hand's ``_order``), never ``(leader + i) % n``:
seats may sit a hand out (`sits_out`), and a trick then has fewer cards than there are seats.
"""
from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType
from typing import Any

from couillon_dsl.cards import Card, CardMask, iter_bits
from couillon_dsl.engine.actions import ANNOUNCE, PLAY
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.engine.follow import partner_frees
from couillon_dsl.engine.hand import cards_table, first_leader, random_tricks
from couillon_dsl.engine.roles import OPEN_LEAD, later_copy_wins, settle_trick, won_cards
from couillon_dsl.engine.why import legal_reasons
from couillon_dsl.expr.compile import HandFacts
from couillon_dsl.expr.parse import exact
from couillon_dsl.model import ExchangeTable, TrumpContext


class PlayPhase(StateFields):
    """Playing the tricks of a hand."""

    __slots__ = ()

    def _begin_play(self) -> None:
        rs = self._rs
        t = self._t
        if side_cards := self._hand_side_cards():  # the holders of the side card against the rest, hidden
            self._side_of = tuple(0 if hand & side_cards else 1 for hand in self._hands)
            self._maker = 0
        if self._trump < 0:
            no_card = self._path == "turned"  # `if_stock_empty`: nothing was turned, the hand has no trump
            if rs.trump.method != "none" and not no_card and (self._contract < 0 or t.contract_trump[self._contract] != -1):
                raise RuntimeError("the deal ended before trump was fixed")  # compile checks prevent this
            if self._contract < 0:
                self._trump = t.fixed_trump  # the deck's permanent trump suit, or none
        if self._contract >= 0:
            self._mult = t.contract_multipliers[self._contract][self._trump + 1]
            if t.partner_tricks and (seek := t.partner_tricks[self._contract]) and self._decider is not None:
                self._seek_until = seek[0]  # the declarer alone until another seat wins one of these tricks
        self._set_context()
        if not self._ask_call():  # a contract with a call: the declarer calls his partner's card first (engine.call)
            self._before_play()

    def _before_play(self) -> None:
        """The trump and the sides fixed: cards passed, bids, the declarer's announcements, the announcements
        for a side asked of every seat (`before_lead`), then the first lead."""
        rs = self._rs
        t = self._t
        if self._contract >= 0 and self._decider is not None:  # a contract played alone, or open (public)
            contract = rs.contracts[self._contract]
            if contract.sits_out == "partners":
                self._sit_out_partners(self._decider)
            if contract.shows_hand:
                for card in iter_bits(self._hands[self._decider]):
                    self._face_up[card] = self._decider
        if rs.passing is not None and self._begin_passing():  # cards are passed before any bid
            return
        if rs.bids is not None and not self._trick_bids:  # the tricks are bid before the first lead
            self._begin_bids()
            return
        offers: list[tuple[int, int]] = []
        if t.declarer_offers and self._decider is not None and self._maker is not None:
            # the declarer's announcements (and their answers) come before the first lead, each where its
            # `offered_when` holds
            when = t.offered_when or (None,) * len(t.holder_cards)
            offers = [(a, self._decider) for a in t.declarer_offers
                      if (offered := when[a]) is None or offered(self._settled())]
        if t.lead_asks and self._maker is not None:  # then every seat in turn from the elder, whatever its side
            offers += [(a, seat) for a in t.lead_asks for seat in self._order[t.next_seat[self._dealer]]]
        if offers:
            self._offers = offers
            self._phase = ANNOUNCE
            return
        self._before_first_lead()

    def _before_first_lead(self) -> None:
        """The declarer's announcements are settled: a contract fixed by a pairs auction may be doubled
        (`trump.auction.doubling`), then the first lead."""
        if self._t.doubling and not self._t.auction_suits and self._maker is not None:
            self._ask_doubling()
        else:
            self._lead_first_trick()

    def _settled(self) -> HandFacts:
        """What is settled now, before the first lead, as the facts read by an announcement's
        `offered_when` and a blind bid's `when` (the checks keep each to what it may read)."""
        side_of, dealer = self._side_of, self._dealer
        return HandFacts(maker=self._maker, dealer_team=side_of[dealer], elder_team=side_of[self._t.next_seat[dealer]],
                         contract=self._rs.contracts[self._contract].id if self._contract >= 0 else None,
                         multiplier=self._mult, trump=self._trump, kitty_taken=self._kitty_taken(),
                         bid_value=self._bid_value(), options=MappingProxyType(self._rs.option_values()),
                         tricks_per_hand=self._t.tricks_of(self._game_hands), scores=tuple(self._values),
                         seat_sides=side_of, tallies=self._counts, hand_number=self._game_hands + 1)

    def _stops_on_declaring(self, before: int) -> bool:
        """Whether `play.stop_when` holds once a card declared melds (``_melds`` had ``before``), a trick
        having been played: a meld declared on a lead may end the hand before its trick (Schnapsen's
        marriage that takes its player to 66)."""
        stop = self._t.stop_when
        return (stop is not None and len(self._melds) > before and bool(self._log)
                and bool(stop(self._trick_facts(self._log[-1][2]))))

    def _trick_facts(self, winner: int) -> HandFacts:
        """What the tricks so far have settled, beside the facts settled before the first lead: what
        `play.stop_when` reads after each trick (the checks keep it to these). The cards taken (`count()`)
        are those of the tricks so far, a kitty set aside not among them."""
        unit = self._t.point_unit
        # exact points, as the scoring sees them (HandFacts' int is a Fraction where the unit splits a point)
        points: tuple[Any, ...] = tuple(self._points) if unit == 1 else tuple(exact(Fraction(p, unit)) for p in self._points)
        declared = self._meld_points(self._log[0][0]) if self._t.declarations else ()
        won = (won_cards(self._t.roles, self._side_of, len(self._points), self._order, self._log, finished=False)[0]
               if self._t.stop_reads_won else ())
        return self._settled()._replace(points=points, tricks=tuple(self._tricks), declared=declared,
                                        last_trick_winner=self._side_of[winner], won=won)

    def _played_by_seat(self) -> list[CardMask]:
        """Seat -> the cards it has played this hand, the trick in progress included."""
        played = [0] * self._n
        for leader, cards, _ in self._log:
            for seat, card in zip(self._order[leader], cards):
                played[seat] |= 1 << card
        for seat, card in zip(self._order[self._leader], self._trick):
            played[seat] |= 1 << card
        return played

    def _lead_first_trick(self) -> None:
        """The first leader (the announcer of a `leads` announcement made, else `play.first_lead`) leads."""
        rs = self._rs
        t = self._t
        leader = next((seat for a, seat in self._made if a in t.leading), -1) if t.leading else -1
        if leader < 0 and t.first_lead_card >= 0:  # the holder of the opening card (every card is dealt) leads it
            leader = next(seat for seat, hand in enumerate(self._hands) if hand >> t.first_lead_card & 1)
            self._face_up[t.first_lead_card] = leader  # being asked to lead tells the table: public from now on
        if leader < 0:
            leader = first_leader(rs.play.first_lead, self._dealer, t.next_seat[self._dealer], self._maker,
                                  self._decider, self._asked, t.next_seat)
        leader = self._order[leader][0]  # a first leader sitting the hand out hands the lead to the next seat in play
        self._leader = self._turn = leader
        if rs.play.dummy and self._decider is not None and self._maker is not None:  # his partner's cards are his to play
            decider = self._decider
            self._dummy = next(s for s in self._order[decider][1:] if self._side_of[s] == self._side_of[decider])
        self._ntricks = self._hands[leader].bit_count()
        if t.draw:  # a card turned up from the stock and left on the table lies under it, drawn last
            self._stock.extend(card for card, holder in self._face_up.items() if holder is None)
            self._ntricks += len(self._stock) // len(self._order[leader])  # the checks make it divide evenly
        self._phase = PLAY
        if t.declarations:
            self._find_melds()
        if self._t.first_trick_offers or self._t.side_offers:
            self._offer_announcements()
        if t.lead_offers:
            self._offer_at_lead()

    def _set_context(self) -> None:
        self._ctx = self._t.contexts[self._cbase + (((self._trump + 1) << len(self._t.promotion_cards)) | self._promo)]

    @property
    def contract_index(self) -> int:
        """The contract fixed for the hand, an index into the ruleset's contracts; -1 while none is (public)."""
        return self._contract

    def lead_fixes_trump(self) -> bool:
        """Whether the card led next fixes trump (`contracts.<id>.trump: first_lead`): the hand's first
        lead, under such a contract (public)."""
        return self._trump < 0 and self._contract >= 0 and self._t.lead_trump[self._contract] and not self._log

    def _trump_led(self, card: Card) -> TrumpContext:
        """The suit of ``card``, the hand's first lead, becomes trump (as the plain order gives its suit):
        the contract's multiplier for it and its trump context are in force from this card on."""
        self._trump = self._ctx.card_suit[card]
        self._mult = self._t.contract_multipliers[self._contract][self._trump + 1]
        self._set_context()
        return self._ctx

    def declared_lead(self) -> CardMask:
        """The cards of the `when: led` combination the seat to lead has just declared by choice, one of which
        it leads now (public: the combination is shown); 0 otherwise."""
        return self._lead_from

    def barred_leads(self) -> CardMask:
        """The cards `play.lead_once_broken` keeps from being led now (none once one was played)."""
        return 0 if self._broken else self._t.unbroken

    def opening_card(self) -> Card:
        """The card the first trick must be opened with (`play.first_lead_card`), else -1."""
        card = self._t.first_lead_card
        return card if card >= 0 and self._trick_no == 0 and not self._trick and self._hands[self._turn] >> card & 1 else -1

    def _lead_mask(self, hand: CardMask) -> CardMask:
        """The cards of ``hand`` that may be led now: a card of the combination just declared to be led
        from, the opening card, or what is not held back."""
        if self._lead_from:
            return hand & self._lead_from
        card = self.opening_card()
        if card >= 0:
            return 1 << card
        return self._keep_off_first_trick(hand & ~self.barred_leads() or hand)  # unless the hand holds nothing else

    def first_trick_barred(self) -> CardMask:
        """The cards `play.not_on_first_trick` keeps off the trick now (none after the first trick)."""
        return 0 if self._trick_no else self._t.first_trick_barred

    def _keep_off_first_trick(self, legal: CardMask) -> CardMask:
        """``legal`` without the cards kept off the first trick, unless nothing else is legal."""
        return legal & ~self.first_trick_barred() or legal

    def partner_winning(self) -> bool:
        """Whether the card winning the trick in progress was played by a partner of the seat to play (public)."""
        return bool(self._trick) and self._side_of[self._wseat] == self._side_of[self._turn]

    def _freed(self, hand: CardMask) -> bool:
        """Whether `play.follow.when_partner_winning: free` lets ``hand``, the seat to play's, play any card now."""
        return self._t.partner_free and self.partner_winning() and partner_frees(self._ctx, hand, self._led)

    def _play(self, card: Card) -> None:
        """Play ``card`` for the seat to move (legality already checked)."""
        seat = self._turn
        stops = False
        if self._meld_watch >> card & 1:
            before = len(self._melds)
            self._declare_on_play(seat, card)
            stops = self._stops_on_declaring(before)
        self._may_announce = 0
        self._hands[seat] ^= 1 << card
        ctx = self._ctx
        trick = self._trick
        if trick:
            # the led card let the first card without such a role set the suit (card roles: a Jester after a Jester
            # leaves it open, and the first played of them still wins)
            if self._led == OPEN_LEAD and not ctx.open_lead >> card & 1:
                self._led = led = ctx.card_suit[card]
                self._st = ctx.strength[led]
                self._best = -1
            s = self._st[card]
            if s > self._best or s == self._best and later_copy_wins(ctx, card, self._win,
                                                                      self._trick_no + 1 == self._ntricks):
                self._best = s
                self._win = card
                self._wseat = seat
        else:
            if self._trump < 0 and self.lead_fixes_trump():  # the first test keeps a trump game's cost nil
                ctx = self._trump_led(card)
            led = ctx.card_suit[card]
            self._st = st = ctx.strength[led]
            self._led = OPEN_LEAD if ctx.open_lead >> card & 1 else led
            self._best = st[card]
            self._win = card
            self._wseat = seat
            if self._dummy >= 0 and not self._trick_no:  # the opening lead: the dummy lays his hand face up
                for shown in iter_bits(self._hands[self._dummy]):
                    self._face_up[shown] = self._dummy
        trick.append(card)
        self._tmask |= 1 << card
        self._tpoints += ctx.points[card]
        order = self._order[self._leader]  # every seat but those sitting the hand out
        played = len(trick)
        if stops:  # the hand stops on the meld just declared: this trick is not played out
            self._trick = []
            self._tmask = self._tpoints = 0
            self._end_hand()
        elif played == len(order):
            self._end_trick()
        else:
            self._turn = order[played]
            if self._trick_no == 0 and self._t.first_trick_offers or self._t.side_offers:
                self._offer_announcements()

    def _end_trick(self) -> None:
        winner = self._wseat
        t = self._t
        if t.roles is not None and self._tmask & t.roles.cards:
            winner, shares = settle_trick(t.roles, self._ctx.points, self._side_of, len(self._points), self._trick,
                                          self._order[self._leader], winner, self._trick_no + 1 == self._ntricks,
                                          self._tricks, self._trick_no)
            for team, share in enumerate(shares):
                self._points[team] += share
        else:
            if self._trick_no < self._seek_until and self._finds_partner(self._trick[0], winner):
                self._partner_found(winner)
            self._points[self._side_of[winner]] += self._tpoints
        if t.trick_melds:
            self._trick_melds(self._tmask, winner)
        self._tricks[self._side_of[winner]] += 1
        self._log.append((self._leader, tuple(self._trick), winner))
        if self._tmask & t.unbroken:
            self._broken = True
        self._trick_no += 1
        self._trick = []
        self._tmask = self._tpoints = 0
        self._leader = self._turn = winner
        if t.stop_when is not None and self._trick_no < self._ntricks and t.stop_when(self._trick_facts(winner)):
            self._end_hand()  # `play.stop_when`: the hand stops here, the cards not played count for nobody
            return
        if t.draw and self._stock and not self._closed:
            self._draw_after_trick(winner)
        if self._trick_no == self._ntricks:
            if not self._closed:  # a closed stock: not every card was played, and the last trick earns nothing
                self._points[self._side_of[winner]] += self._rs.play.last_trick_points * t.point_unit
            self._end_hand()
            return
        if t.side_offers:  # announcements for a side: offered on any turn before their deadline
            self._offer_announcements()
        if t.lead_offers:
            self._offer_at_lead()

    def _draw_after_trick(self, winner: int) -> None:
        """`play.draw`: each seat in play, the trick's winner first, draws from the stock's top; a face-up
        card drawn (the turned card, under the stock) stays known to every seat as its holder's."""
        stock, hands, face_up, drawn = self._stock, self._hands, self._face_up, self._drawn
        for seat in self._order[winner]:
            for _ in range(self._t.draw):
                card = stock.pop(0)
                hands[seat] |= 1 << card
                drawn.append((seat, card))
                if card in face_up:
                    face_up[card] = seat

    def exchange_card(self) -> Card:
        """The card the seat to lead may trade for the turned card under the stock now (`play.draw.exchange`),
        else -1: once a hand, before leading, while the stock holds enough cards and the turned card lies
        under it (public: what it asks is on the table, but for the seat's own hand)."""
        rule = self._exchange_rule()
        if rule is None or self._exchange is not None or self._trick or self._closed or len(self._stock) < rule.min_stock:
            return -1
        card = rule.cards[self._trump + 1]
        if card < 0 or not self._hands[self._turn] >> card & 1 \
                or rule.needs_trick and not self._has_won_a_trick(self._turn):
            return -1
        return card

    def _exchange_rule(self) -> ExchangeTable | None:
        """The trade `play.draw.exchange` offers for the card turned under the stock now: the first whose ranks
        take it (public), else None."""
        turned = self.turned_card()
        return next((rule for rule in self._t.exchanges if rule.turned >> turned & 1), None) if turned >= 0 else None

    def _has_won_a_trick(self, seat: int) -> bool:
        """Whether ``seat`` has won a trick in this hand (public)."""
        return any(winner == seat for _, _, winner in self._log)

    def turned_card(self) -> Card:
        """The card lying face up under the stock, drawn last (`play.draw`; public), else -1."""
        turned = self._stock[-1] if self._stock else -1
        return turned if self._face_up.get(turned, -1) is None else -1

    def _offer_at_lead(self) -> None:
        """Offer the seat to lead, beside its cards, what it may do before leading: the trade for the turned
        card (`play.draw.exchange`), the announcements of the leader (`by: leader`) not yet made, one that
        closes the stock while the stock holds enough cards."""
        if self.exchange_card() >= 0:
            self._may_announce |= self._exchange_bit()
        made = {a for a, _ in self._made}
        stock = len(self._stock) if not self._closed else 0
        for a, least in self._t.leader_offers:
            if a not in made and stock >= least:
                self._may_announce |= 1 << a
        if self._t.won_melds and self._log and self._log[-1][2] == self._turn and self._offer_won_melds():
            self._may_announce = 0  # the hand stops on the meld just declared (`play.stop_when`)
            self._end_hand()
            return
        if self._t.led_offered:
            self._offer_led_melds()

    def _close_stock(self) -> None:
        """An announcement closes the stock (`closes_stock`): nothing more is drawn, the follow rules bind
        from now on, and the hand ends when the hands are played out; the cards left in the stock are
        nobody's. Public: what is left to trade for or draw is gone."""
        self._closed = True
        self._ntricks = self._trick_no + self._hands[self._turn].bit_count()
        self._may_announce &= ~self._exchange_bit()

    def _exchange_turned(self) -> None:
        """The seat to lead trades its exchange card for the turned card, in every seat's sight: the card
        given lies face up under the stock, drawn last, and the card taken is known to be his."""
        seat, card = self._turn, self.exchange_card()
        turned = self._stock[-1]
        self._hands[seat] ^= 1 << card | 1 << turned
        self._stock[-1] = card
        self._face_up[turned] = seat
        self._face_up[card] = None
        self._exchange = (seat, card, turned)

    def free_play(self) -> bool:
        """Whether any card may be played now because cards are left to draw (`play.draw.follow_obligations:
        once_stock_empty`; public: the stock's size is)."""
        return self._t.free_while_stock and bool(self._stock) and not self._closed

    def draw_order(self) -> list[Card]:
        """The cards left to draw, in the order they will be drawn (`play.draw`). The engine's truth, hidden
        from the seats (their views give only how many): the sampler reads it from its probe, whose card ids
        are pack positions."""
        return self._stock.copy()

    def _finds_partner(self, led: Card, winner: int) -> bool:
        """Whether a trick led with ``led`` and won by ``winner`` makes him the declarer's partner
        (`partner_by_trick`, while its tricks last): another seat's, and of the kind it counts."""
        seek = self._t.partner_tricks[self._contract]
        kind = seek[1] if seek else "any"
        return winner != self._decider and (kind == "any" or (kind == "trump_led") == bool(self._ctx.trump_mask >> led & 1))

    def _partner_found(self, seat: int) -> None:
        """``seat`` joins the declarer's side, in every seat's sight; the search is over."""
        self._side_of = tuple(0 if s == seat else side for s, side in enumerate(self._side_of))
        self._seek_until = 0

    def _seek_in_played_out(self, first: int) -> None:
        """Random play-out (``_play_out``) credited each trick from ``first`` on by the sides as they
        stood: the trick that finds the declarer's partner, and his later ones, move to the declarer's side."""
        log = self._log
        found = next((w for i, (_, cards, w) in enumerate(log[first:], first)
                      if i < self._seek_until and self._finds_partner(cards[0], w)), None)
        if found is None:
            self._seek_until = 0
            return
        self._partner_found(found)
        points = self._ctx.points
        for _, cards, winner in log[first:]:
            if winner == found:
                won = sum(points[c] for c in cards)
                self._points[1] -= won
                self._points[0] += won
                self._tricks[1] -= 1
                self._tricks[0] += 1

    def _play_out(self, rnd: Any) -> None:
        """Play the rest of the hand, from a trick boundary, with uniformly random legal cards; every
        seat plays (random_tricks deals each trick to all seats): never while a seat sits the hand out."""
        melds = self._meld_watch
        if melds:
            self._declare_first()
        left = self._ntricks - self._trick_no
        first = len(self._log)
        self._leader = self._turn = random_tricks(
            self._ctx, self._t, cards_table(self._acts.ncards, left), self._hands, self._leader, left, rnd,
            self._history, self._log, self._points, self._tricks, self._side_of)
        self._hands = [0] * self._n
        if self._seek_until > self._trick_no:  # the declarer's partner may be found in the tricks played out
            self._seek_in_played_out(first)
        self._trick_no = self._ntricks
        self._points[self._side_of[self._leader]] += self._rs.play.last_trick_points * self._t.point_unit  # the last trick's winner leads on
        if melds:
            self._declare_rest()
        if self._t.trick_melds:
            self._trick_melds_from(first)
        self._end_hand()

    def _exchange_refusal(self) -> str:
        """Why the seat to move may not trade for the turned card now (`play.draw.exchange`)."""
        seat, layout = self._turn, self._rs.layout
        if self._exchange is not None:
            return "the turned card was already traded for in this hand"
        if self._closed:
            return "the stock is closed: the turned card is out of play"
        if self.turned_card() < 0:
            return "no card lies turned up under the stock"
        rule = self._exchange_rule()
        if rule is None:
            return f"no card is traded for a turned {layout.name(self.turned_card())}"
        card = rule.cards[self._trump + 1]
        if card < 0:
            return "there is no trump suit whose card could be traded for the turned card"
        name = layout.name(card)
        if self._trick:
            return f"{name} is traded for the turned card only by the player on lead, before he leads"
        if len(self._stock) < rule.min_stock:
            return (f"{name} is traded for the turned card only while the stock holds {rule.min_stock} cards "
                    f"or more, the turned card included; it holds {len(self._stock)}")
        if rule.needs_trick and not self._has_won_a_trick(seat):
            return f"{name} is traded for the turned card only by a player who has won a trick in this hand"
        return f"{name} is not in seat {seat}'s hand"

    def _play_refusal(self, action: int) -> str:
        seat = self._turn
        acts = self._acts
        if action == acts.exchange:
            return self._exchange_refusal()
        if acts.declare0 >= 0 and acts.declare0 <= action < acts.ends(acts.declare0) \
                and self._rs.declarations[action - acts.declare0].when in ("trick_won", "led"):
            return self._won_meld_refusal(action - acts.declare0)
        if self._t.side_offers and acts.announce0 <= action < acts.announce0 + acts.nannouncements \
                and self._t.side_deadlines[action - acts.announce0] >= 0:
            return self._side_refusal(seat, action - acts.announce0)
        if not 0 <= action < self._acts.ncards:
            return f"seat {seat} must play a card now, not {self._describe(action)}"
        name = self._rs.layout.name(action)
        if not self._hands[seat] >> action & 1:
            return f"{name} is not in seat {seat}'s hand"
        reason = next(r for c, ok, r in legal_reasons(self._rs, self._ctx, self._hands[seat], tuple(self._trick),
                                                      self.barred_leads(), self.opening_card(),
                                                      self.first_trick_barred(), self.partner_winning(),
                                                      self.called_card_due(), self.called_card_bars(),
                                                      self._trick_no + 1 == self._ntricks, self.free_play(),
                                                      self._lead_from)
                      if c == action)
        return f"{name} is illegal: {reason}"
