"""The deal: the pack drawn card by card (chance) or at once, and the deal script run over it.

The script is compiled into ops per dealer, and per hand of the game where a schedule changes
the hand size (:mod:`couillon_dsl.engine.tables`); its decision-free start is resolved at
compile time (``deal_prefixes``). The script stops at the decide step for the contract phase
and resumes after it.
"""
from __future__ import annotations

from typing import Any

from couillon_dsl.cards import Card, iter_bits
from couillon_dsl.engine.actions import ANNOUNCE, DRAW
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.engine.hand import shuffled
from couillon_dsl.engine.results import play_orders
from couillon_dsl.engine.tables import OP_ANNOUNCE, OP_DECIDE, OP_KITTY, OP_PACKET, OP_STOCK, OP_TURN_UP
from couillon_dsl.model import Team


class DealPhase(StateFields):
    """Dealing a hand by the ruleset's deal script."""

    __slots__ = ()

    def _shuffle_deal(self, rnd: Any) -> None:
        """Draw every undrawn card at once from ``rnd`` and run the deal script."""
        undrawn = self._undrawn
        rest = shuffled(range(self._acts.ncards) if undrawn == self._full else list(iter_bits(undrawn)), rnd)
        layout = self._rs.layout
        if layout.copies > 1:  # equal cards drawn in copy order, as a record's names replay them
            rest = layout.in_copy_order(rest, self._full & ~undrawn)
        self._history.extend(rest)
        if self._pack:
            self._pack.extend(rest)
        else:
            self._pack = rest  # the usual case, nothing drawn yet: no copy
        self._undrawn = 0
        self._run_deal()

    def _start_deal(self) -> None:
        """Reset the per-hand fields for a new deal.

        The trick fields (``_trick``, ``_tmask``, ``_tpoints``, ``_led``, ``_best``, ``_win``,
        ``_wseat``, ``_st``) and the announcement queue ``_offers`` are not reset here (set
        once in __init__): every hand ends with them clean, and a lead sets the rest before
        they are read. Fewer stores per hand (the random simulator deals ~10 per game).
        """
        t = self._t
        nsides = t.nsides
        self._phase = DRAW
        self._pack = []
        self._undrawn = self._full
        self._step = self._spk = self._round = self._may_announce = self._trick_no = self._ntricks = self._discards = 0
        self._hands = [0] * self._n
        self._face_up: dict[Card, int | None] = {}
        self._stock: list[Card] = []
        self._drawn: list[tuple[int, Card]] = []
        self._exchange: tuple[int, Card, Card] | None = None
        self._closed = False
        self._last_up = self._offered = self._trump = self._defer_seat = self._chooser = self._contract = self._asked = -1
        self._pushes = self._cbase = 0
        self._mult = 1
        self._bid = self._bidder = self._bid_suit = self._aside = -1
        self._doubled = 0
        self._namers: tuple[tuple[int, int], ...] = ()
        self._trick_bids = self._given = self._received = ()
        self._unseen = self._blind = 0
        self._speakers: tuple[int, ...] = ()
        self._promo = t.always_promoted  # promotions without an announcement, in force from the deal on
        self._ctx = t.contexts[0]
        self._maker: Team | None = None
        self._decider = self._discarder = None
        self._path = "none"
        self._decisions: list[tuple[int, str]] = []
        self._melds = []
        self._meld_first = self._meld_later = ()
        self._meld_watch = self._lead_from = 0
        self._made: list[tuple[int, int]] = []
        self._made_tricks: list[tuple[int, ...]] = []
        if self._rs.players.sit_out == "dealer":  # he deals and sits the hand out
            self._sitting_out = (self._dealer,)
            self._order = play_orders(self._n, self._sitting_out)
        else:
            self._sitting_out = ()
            self._order = t.rounds  # every seat plays, clockwise from the leader
        self._leader = self._turn = t.next_seat[self._dealer]
        self._dummy = -1
        self._side_of = t.start_sides
        self._called = -1
        self._seek_until = 0
        self._points = [0] * nsides
        self._tricks = [0] * nsides
        self._log: list[tuple[int, tuple[Card, ...], int]] = []
        self._broken = False

    def _draw(self, card: Card) -> None:
        self._pack.append(card)
        self._undrawn ^= 1 << card
        if not self._undrawn:
            self._run_deal()

    def _run_deal(self) -> None:
        """Run the deal script from where it stopped until a decision is needed or it ends."""
        t = self._t
        plan = t.plan_index(self._game_hands, self._dealer)
        # OP_SET_ASIDE needs nothing: those cards stay unread; packets to the declarer: his own plan
        ops = t.declarer_plans[plan][self._decider] if t.declarer_plans and self._decider is not None \
            else t.deal_plans[plan]
        i = self._step
        if i == len(ops):  # back from a decision that ended the script: straight to play
            self._begin_play()
            return
        pack = self._pack
        hands = self._hands
        bit = t.card_bit.__getitem__
        if not i:
            prefix = t.deal_prefixes[plan]
            if prefix is not None:  # the decision-free start of the script, resolved at compile time
                i = prefix.stop
                B = t.card_bit
                # four cards per iteration: a quarter of the loop overhead of one card at a time, and
                # cheaper than per-seat sum(map(...)) (measured)
                for seat, a, b, c, d in prefix.quads:
                    hands[seat] |= B[pack[a]] | B[pack[b]] | B[pack[c]] | B[pack[d]]
                if prefix.stock is not None:
                    self._stock = pack[prefix.stock[0]:prefix.stock[1]]
                if prefix.ups:
                    face_up = self._face_up
                    for pos, holder in prefix.ups:
                        face_up[pack[pos]] = holder
                    self._last_up = pack[prefix.ups[-1][0]]
        while i < len(ops):
            op = ops[i]
            i += 1
            code = op[0]
            if code == OP_PACKET:
                for seat, positions in op[1]:
                    hands[seat] |= sum(map(bit, map(pack.__getitem__, positions)))  # distinct bits: + is |
                if op[3] or self._defer_seat >= 0:
                    self._show_dealt(op[2], op[3])
            elif code == OP_STOCK:
                self._stock = pack[op[1]:op[2]]
            elif code == OP_TURN_UP:
                card = self._stock.pop() if op[1] else self._stock.pop(0)
                self._face_up[card] = None
                self._last_up = card
            elif code == OP_KITTY:  # face down, nobody's until the contract says (engine.kitty)
                self._kitty = sum(map(bit, pack[op[1]:op[2]]))
            elif code == OP_ANNOUNCE:  # every seat in turn from the elder, with the cards dealt so far
                self._step = i
                self._offers = [(op[1], seat) for seat in self._order[t.next_seat[self._dealer]]]
                self._phase = ANNOUNCE
                return
            elif code == OP_DECIDE:
                self._step = i
                if t.deal_checks and self._deal_annulled():
                    return
                if self._begin_trump():
                    return
        self._step = i
        if t.deal_checks and all(op[0] != OP_DECIDE for op in ops) and self._deal_annulled():
            return
        self._begin_play()

    def _deal_annulled(self) -> bool:
        """Throw the deal in when a dealt hand matches a deal check (before any decision)."""
        for hand in self._hands:
            for holds, lacks, counts in self._t.deal_checks:
                if hand & holds == holds and not hand & lacks and all(
                        least <= (hand & cards).bit_count() <= most for cards, least, most in counts):
                    self._pass_out("annulled")
                    return True
        return False

    def _show_dealt(self, deliveries: tuple[tuple[int, int, int], ...], up: bool) -> None:
        """Turn face up a face-up packet, or the deferred chooser's first card (it fixes trump)."""
        pack = self._pack
        for seat, start, stop in deliveries:
            if up:
                for c in pack[start:stop]:
                    self._face_up[c] = seat
                self._last_up = pack[stop - 1]
            if seat == self._defer_seat:  # on_defer: first card of the chooser's next packet
                self._face_up[pack[start]] = seat
                self._trump = self._rs.layout.suit_of(pack[start])
                self._defer_seat = -1
