"""The numbering of a game's actions and the phases a GameState passes through.

Cards come first (chance draws and plays), then the decisions; :class:`Actions` is the one
place that knows the numbering. The phase constants are shared by the phase modules
(``deal``, ``contract``, ``kitty``, ``passing``, ``bidding``, ``announce``, ``play``,
``scoring``) and the façade ``state``.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

CHANCE = -1
TERMINAL = -2

# phases; PHASE_NAMES gives the name a SeatView shows
DEALER, DRAW, OFFER, CHOOSE, ANNOUNCE, PLAY, OVER, AUCTION, DISCARD, BID, PASS, NAME, KITTY, TRUMP_DRAW, CALL = range(15)
PHASE_NAMES = ("choose_dealer", "deal", "offer", "choose", "announce", "play", "over", "auction", "discard", "bid",
               "pass", "name", "kitty", "draw_trump", "call")


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the message says why."""


class Actions(NamedTuple):
    """Action numbering: cards first (chance draws and plays), then decisions.

    NAME suit s is ``name0 + s``, SHOW card c ``show0 + c``, ANNOUNCE a ``announce0 + a``,
    PUSH (hand the trump choice on) ``push`` when the ruleset allows it (else -1), CONTRACT j
    (the j-th contract whose trump is not named) ``contract0 + j``, DISCARD card c (after
    taking the kitty or an offered card) ``discard0 + c`` when some seat may discard (else -1), DECLARE k (an
    optional declaration of kind k, offered on the holder's first turn) ``declare0 + k`` when
    the ruleset has optional declarations (else -1), BID n (tricks, with `bids`; or the n-th
    value of a numeric auction, `trump.auction.values`) ``bid0 + n`` (else -1), GIVE card c (passed before play, with `passing`; written ``pass c``) ``give0 +
    c`` (else -1), the chance draw of trump suit s (`trump.method: drawn`; written ``trump S``) ``drawn0 + s``
    (else -1), CALL card c (the declarer's partner, `contracts.<id>.call`; written ``call c``) ``call0 + c``
    (else -1), with ``call0 + ncards`` calling nobody (``call nobody``, `alone_by_choice`) when some contract
    allows it, EXCHANGE (the card `play.draw.exchange` names traded for the turned card under the stock;
    written ``exchange``) ``exchange`` (else -1), and the chance choice of a random first dealer s is ``dealer0 + s``.
    Rulesets without pushes, contracts, a kitty, optional declarations, bids or passing keep
    the numbering they always had.
    """

    ncards: int
    nsuits: int
    nannouncements: int
    accept: int
    pass_: int
    defer: int
    decline: int
    name0: int
    show0: int
    announce0: int
    dealer0: int
    push: int = -1
    contract0: int = -1
    discard0: int = -1
    declare0: int = -1
    bid0: int = -1
    give0: int = -1
    drawn0: int = -1
    call0: int = -1
    exchange: int = -1

    @classmethod
    @functools.cache  # immutable and asked for by every new game: build each numbering once
    def build(cls, ncards: int, nsuits: int, nannouncements: int, ncontracts: int = 0,
              pushes: bool = False, discards: bool = False, ndeclarations: int = 0, nbids: int = 0,
              gives: bool = False, drawn: bool = False, calls: bool = False, calls_nobody: bool = False,
              exchanges: bool = False) -> "Actions":
        name0 = ncards + 4
        show0 = name0 + nsuits
        announce0 = show0 + ncards
        push = announce0 + nannouncements if pushes else -1
        contract0 = announce0 + nannouncements + pushes
        discard0 = contract0 + ncontracts
        declare0 = discard0 + ncards * discards
        bid0 = declare0 + ndeclarations
        give0 = bid0 + nbids
        drawn0 = give0 + ncards * gives
        call0 = drawn0 + nsuits * drawn
        exchange = call0 + ncards * calls + calls_nobody
        return cls(ncards, nsuits, nannouncements, ncards, ncards + 1, ncards + 2, ncards + 3,
                   name0, show0, announce0, exchange + exchanges, push, contract0 if ncontracts else -1,
                   discard0 if discards else -1, declare0 if ndeclarations else -1, bid0 if nbids else -1,
                   give0 if gives else -1, drawn0 if drawn else -1, call0 if calls else -1, exchange if exchanges else -1)

    @property
    def contract_end(self) -> int:
        """One past the last CONTRACT action."""
        return min(x for x in (self.discard0, self.declare0, self.bid0, self.give0, self.drawn0, self.call0,
                               self.exchange, self.dealer0) if x >= 0)

    def ends(self, start: int) -> int:
        """One past the last action of the range that begins at ``start`` (the next range's start)."""
        return min(x for x in (self.declare0, self.bid0, self.give0, self.drawn0, self.call0, self.exchange, self.dealer0)
                   if x > start)

    def decode(self, action: int) -> tuple[str, int]:
        """``(kind, argument)``: ("card", c), ("accept"|"pass"|"defer"|"no", -1), ("name", suit),
        ("show", c), ("announce", index), ("push", -1), ("contract", j), ("discard", c),
        ("declare", k), ("bid", n), ("give", c), ("drawn", suit), ("call", c), ("exchange", -1), ("dealer", seat);
        one place that knows the numbering."""
        if 0 <= action < self.ncards:
            return "card", action
        if self.ncards <= action < self.name0:
            return ("accept", "pass", "defer", "no")[action - self.ncards], -1
        if self.name0 <= action < self.show0:
            return "name", action - self.name0
        if self.show0 <= action < self.announce0:
            return "show", action - self.show0
        if action == self.push:
            return "push", -1
        if self.contract0 >= 0 and self.contract0 <= action < self.contract_end:
            return "contract", action - self.contract0
        if action == self.exchange:
            return "exchange", -1
        if self.call0 >= 0 and self.call0 <= action < self.ends(self.call0):
            return "call", action - self.call0
        if self.drawn0 >= 0 and self.drawn0 <= action < self.ends(self.drawn0):
            return "drawn", action - self.drawn0
        if self.give0 >= 0 and self.give0 <= action < self.ends(self.give0):
            return "give", action - self.give0
        if self.bid0 >= 0 and self.bid0 <= action < self.ends(self.bid0):
            return "bid", action - self.bid0
        if self.declare0 >= 0 and self.declare0 <= action < self.ends(self.declare0):
            return "declare", action - self.declare0
        if self.discard0 >= 0 and self.discard0 <= action < self.ends(self.discard0):
            return "discard", action - self.discard0
        if self.announce0 <= action < self.announce0 + self.nannouncements:
            return "announce", action - self.announce0
        if action >= self.dealer0:  # the seat count is the caller's to check
            return "dealer", action - self.dealer0
        raise ValueError(f"{action!r} is not an action of this ruleset")

