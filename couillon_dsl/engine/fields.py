"""The fields of a game in progress, shared by the phase modules that make up GameState.

:class:`~couillon_dsl.engine.state.GameState` is assembled from one class per phase of a
hand, each in its own module: ``deal`` (the deal script), ``contract`` (the decision that
fixes trump: offer or choice), ``kitty`` (the kitty and a discard), ``call`` (the declarer's
call of a partner's card), ``passing`` (cards passed
before play), ``bidding`` (bids of a number of tricks), ``announce`` (announcements in trick 1), ``play`` (tricks)
and ``scoring`` (the end of a hand and of a game). They all read and write the slots
declared here; the hand's flow between phases goes through the hooks declared at the
end of :class:`StateFields`, so each phase module imports none of the others.
"""
from __future__ import annotations

import random
from typing import Any

from couillon_dsl.cards import Card, CardMask
from couillon_dsl.engine.actions import Actions
from couillon_dsl.engine.results import FinishedGame, GameResult, HandSummary, SheetSet
from couillon_dsl.expr.compile import HandFacts
from couillon_dsl.model import Ruleset, Tables, Team, TrumpContext

FIELDS = (
    "_rs", "_t", "_n", "_acts", "_seed", "_rng", "_full", "_history", "_phase", "_dealer",
    # deal
    "_pack", "_undrawn", "_step", "_hands", "_face_up", "_stock", "_last_up", "_drawn", "_exchange", "_closed",
    # trump
    "_offered", "_speakers", "_spk", "_round", "_chooser", "_trump", "_promo", "_ctx", "_maker", "_decider",
    "_path", "_decisions", "_defer_seat", "_contract", "_asked", "_pushes", "_cbase", "_mult",
    "_bid", "_bidder", "_bid_suit", "_namers", "_doubled", "_aside", "_side_of",
    # call
    "_called",
    "_seek_until",
    # bids
    "_trick_bids", "_unseen", "_blind",
    # passing
    "_given", "_received",
    # kitty
    "_kitty", "_discards", "_to_discard", "_discarder",
    # announcements
    "_made", "_made_tricks", "_may_announce", "_offers", "_sitting_out", "_order",
    # declarations
    "_melds", "_meld_first", "_meld_later", "_meld_watch", "_meld_offers", "_lead_from",
    # play
    "_leader", "_turn", "_dummy", "_trick", "_tmask", "_led", "_st", "_best", "_win", "_wseat", "_tpoints",
    "_trick_no", "_ntricks", "_points", "_tricks", "_log", "_broken",
    # scoresheet and session
    "_values", "_counts", "_ties", "_passes", "_redeals", "_game_hands", "_game", "_games_won", "_games",
    "_summaries", "_result", "_sheet_set",
)


class StateFields:
    """The slots of a game in progress (one list: :data:`FIELDS`, which ``clone`` copies)."""

    __slots__ = FIELDS

    _rs: Ruleset
    _t: Tables
    _n: int
    _acts: Actions
    _seed: int | None
    _rng: random.Random | None
    _full: CardMask
    _history: list[int]
    _phase: int
    _dealer: int
    # deal
    _pack: list[Card]
    _undrawn: CardMask
    _step: int
    _hands: list[CardMask]
    _face_up: dict[Card, int | None]
    _stock: list[Card]
    _drawn: list[tuple[int, Card]]  # `play.draw`: (seat, card) per card drawn this hand, in order
    _exchange: tuple[int, Card, Card] | None  # `play.draw.exchange` made this hand: (seat, card given, card taken)
    _closed: bool  # an announcement closed the stock this hand (`closes_stock`): nothing more is drawn
    _last_up: Card
    # trump
    _offered: Card
    _speakers: tuple[int, ...]
    _spk: int
    _round: int
    _chooser: int
    _trump: int
    _promo: int
    _ctx: TrumpContext
    _maker: Team | None
    _decider: int | None
    _path: str
    _decisions: list[tuple[int, str]]
    _defer_seat: int
    _contract: int  # index into Ruleset.contracts, -1 without contracts (or none fixed yet)
    _asked: int  # the seat first asked to choose this hand (-1: none)
    _pushes: int  # hand-ons of the choice so far this hand
    _cbase: int  # offset of the contract's family of trump contexts (0: the deck's own order)
    _mult: int  # the contract's multiplier for the trump fixed
    _bid: int  # the auction's highest bid so far, as a ladder position (-1: none)
    _bidder: int  # the seat that made it (-1: none); in pairs, the seat holding (the survivor so far)
    _bid_suit: int  # procedure open: the trump suit the highest bid names (-1: none)
    _namers: tuple[tuple[int, int], ...]  # procedure open: (seat, strain), the first of each side to bid each strain
    _doubled: int  # procedure open: how many levels of `doubling` the last bid was raised (0: none)
    _aside: int  # procedure open, asking out of turn whether to double: where the bidding resumes (-1: not asking)
    _side_of: tuple[int, ...]  # seat -> its side this hand (fixed teams; or fixed with the declarer)
    # call (engine.call)
    _called: Card  # the card the declarer called this hand (`contracts.<id>.call`), -1 none, -2 nobody (call.NOBODY)
    # a partner found by play (`contracts.<id>.partner_by_trick`): the tricks before this one may find him (0: none)
    _seek_until: int
    # bids (engine.bidding)
    _trick_bids: tuple[int, ...]  # seat -> tricks bid this hand (-1: not yet); () before the bidding
    _unseen: int  # the mask of the seats that have not looked at their cards yet (`bids.blind`)
    _blind: int  # the mask of the seats that bid blind this hand
    # passing (engine.passing)
    _given: tuple[CardMask, ...]  # seat -> the cards it passed this hand; () before the passing
    _received: tuple[CardMask, ...]  # seat -> the cards passed to it (once every seat has passed)
    # kitty (engine.kitty)
    _kitty: CardMask  # the cards the deal's kitty step put aside this hand
    _discards: CardMask  # the discarder's discards so far this hand
    _to_discard: int  # discards still owed
    _discarder: int | None  # the seat that discards this hand: the declarer who took the kitty, or the
    # taker of an offered card (`trump.offer.taken_by`); None while nobody has to
    # announcements
    _made: list[tuple[int, int]]
    _made_tricks: list[tuple[int, ...]]  # per announcement of ``_made``: each side's tricks when it was made
    _may_announce: int  # announcements (bits) the seat to move may make instead of playing a card
    _offers: list[tuple[int, int]]
    _sitting_out: tuple[int, ...]  # the seats sitting this hand out (`sits_out`), ascending; public
    _order: tuple[tuple[int, ...], ...]  # leader -> the seats in play order of his trick (play_orders)
    # declarations (engine.declarations)
    _melds: list[Any]  # Meld: declared so far this hand, in order
    _meld_first: tuple[tuple[Any, ...], ...]  # seat -> its first-play melds not declared yet
    _meld_later: tuple[Any, ...]  # last-card-played melds not declared yet
    _meld_watch: CardMask  # cards whose play declares something
    _meld_offers: tuple[dict[int, Any], ...]  # seat -> {kind: its best optional meld not yet declared}; () without
    _lead_from: CardMask  # the cards of a `when: led` meld just declared by choice, one of which is led now; 0: none
    # play
    _leader: int
    _turn: int
    _dummy: int  # `play.dummy`: the declarer's partner, whose cards the declarer plays (-1: none)
    _trick: list[Card]
    _tmask: CardMask
    _led: int
    _st: tuple[int, ...]
    _best: int
    _win: Card
    _wseat: int
    _tpoints: int
    _trick_no: int
    _ntricks: int
    _points: list[int]
    _tricks: list[int]
    _log: list[tuple[int, tuple[Card, ...], int]]
    _broken: bool  # a card of `play.lead_once_broken` was played in this hand: they may be led
    # scoresheet and session
    _values: tuple[int, ...]
    _counts: tuple[tuple[int, ...], ...]  # per tally, each team's count; () without tallies
    _ties: int
    _passes: int
    _redeals: int
    _game_hands: int
    _game: int
    _games_won: list[int]
    _games: list[FinishedGame]
    _summaries: list[HandSummary]
    _result: GameResult | None
    # where set_scoresheet put the game (its history's length then, and what it set), for a replay to do the same
    _sheet_set: SheetSet | None

    # ---------------------------------------------------------- the hooks between phases
    # Each is implemented by one phase module; declaring them here lets every phase call
    # the next one without importing it.
    def _start_deal(self) -> None:  # deal: reset the per-hand fields for a new deal
        raise NotImplementedError

    def _run_deal(self) -> None:  # deal: run the deal script until a decision or its end
        raise NotImplementedError

    def _begin_trump(self) -> bool:  # contract: start the trump procedure at the decide step
        raise NotImplementedError

    def _begin_play(self) -> None:  # play: trump fixed, the first trick starts
        raise NotImplementedError

    def _begin_bids(self) -> None:  # bidding: trump fixed, each seat bids its tricks before the first lead
        raise NotImplementedError

    def _begin_passing(self) -> bool:  # passing: trump fixed, cards passed before any bid; True when they are
        raise NotImplementedError

    def _begin_blind_exchange(self) -> bool:  # passing: after the bids, a blind bidder's exchange; True when it starts
        raise NotImplementedError

    def _begin_exchange(self) -> bool:  # kitty: the contract is fixed; True when the declarer must discard
        raise NotImplementedError

    def _begin_discard(self, seat: int, count: int) -> None:  # kitty: ``seat`` now discards ``count`` cards
        raise NotImplementedError

    def _after_discard(self) -> None:  # contract: the discard is over (the contract's pick, or the rest of the deal)
        raise NotImplementedError

    def _ask_call(self, before_kitty: bool = False) -> bool:  # call: True when the declarer is asked for it now
        raise NotImplementedError

    def _continue_deal(self) -> None:  # contract: the contract fixed (and any call before the kitty made)
        raise NotImplementedError

    def _before_play(self) -> None:  # play: the trump and sides fixed, what the hand asks before the first lead
        raise NotImplementedError

    def called_card_due(self) -> Card:  # call: the called card its holder must play now, else -1
        raise NotImplementedError

    def called_card_bars(self) -> tuple[CardMask, str, int]:  # call: the cards its duties keep back now, the duty, runs_away_with
        raise NotImplementedError

    def _set_context(self) -> None:  # play: the trump context for the trump and promotions in force
        raise NotImplementedError

    def _exchange_bit(self) -> int:  # announce: the bit of ``_may_announce`` offering the trade for the turned card
        raise NotImplementedError

    def _exchange_turned(self) -> None:  # play: the seat to lead trades its exchange card for the turned card
        raise NotImplementedError

    def _close_stock(self) -> None:  # play: an announcement closes the stock
        raise NotImplementedError

    def _offer_announcements(self) -> None:  # announce: what the seat to move may announce before its card
        raise NotImplementedError

    def _side_refusal(self, seat: int, a: int) -> str:  # announce: why an announcement for a side is refused now
        raise NotImplementedError

    def _before_first_lead(self) -> None:  # play: the declarer's announcements settled, doubling, the first lead
        raise NotImplementedError

    def _ask_doubling(self) -> None:  # contract: the defenders asked to double a contract fixed in pairs
        raise NotImplementedError

    def _played_by_seat(self) -> list[CardMask]:  # play: seat -> the cards it played this hand
        raise NotImplementedError

    def _lead_first_trick(self) -> None:  # play: the declarer's announcements settled, the first lead
        raise NotImplementedError

    def _find_melds(self) -> None:  # declarations: every seat's melds, at the first lead
        raise NotImplementedError

    def _declare_on_play(self, seat: int, card: Card) -> None:  # declarations: a watched card is played
        raise NotImplementedError

    def _declare_first(self) -> None:  # declarations: a hand about to be played out at once
        raise NotImplementedError

    def _declare_rest(self) -> None:  # declarations: a hand played out at once
        raise NotImplementedError

    def _trick_melds(self, cards: CardMask, winner: int) -> None:  # declarations: a trick's melds, its winner's
        raise NotImplementedError

    def _trick_melds_from(self, first: int) -> None:  # declarations: the melds of tricks played out at once
        raise NotImplementedError

    def _declarations_offered(self, seat: int) -> int:  # declarations: optional kinds (bits) seat may declare now
        raise NotImplementedError

    def _offer_won_melds(self) -> bool:  # declarations: a trick winner's melds as he leads; whether the hand stops
        raise NotImplementedError

    def _offer_led_melds(self) -> None:  # declarations: the leader's `when: led` melds offered by choice
        raise NotImplementedError

    def _won_meld_refusal(self, kind: int) -> str:  # declarations: why a trick winner's meld is refused now
        raise NotImplementedError

    def _stops_on_declaring(self, before: int) -> bool:  # play: whether `play.stop_when` holds on melds just declared
        raise NotImplementedError

    @property
    def doubled(self) -> int:
        """The level the auction's last bid was doubled to (`trump.auction.doubling`; public): 1 undoubled,
        then 2, 4, ... as its levels say; scoring reads it as `doubled`."""
        return self._t.doubling[self._doubled - 1] if self._doubled else 1

    def _sides_fixed(self) -> bool:
        """Whether this hand's sides are known: fixed teams, a maker (sides fixed with the contract), or the
        contract everyone passed into (each seat a side of its own)."""
        return not self._t.sides_per_hand or self._maker is not None or self._path == "all_passed"

    def _hand_side_cards(self) -> CardMask:
        """The copies of the card whose holders play together this hand, hidden until revealed:
        `players.sides: card_holders`', or in the hand everyone passed into its `side_card`'s; 0: none."""
        t = self._t
        return t.side_cards or (t.all_pass_side_cards if self._path == "all_passed" else 0)

    def _declare_offered(self, seat: int, kind: int) -> None:  # declarations: seat declares its optional meld
        raise NotImplementedError

    def _meld_points(self, first_leader: int) -> tuple[tuple[int, ...], ...]:  # declarations: kept per kind and team
        raise NotImplementedError

    def _end_hand(self) -> None:  # scoring: score the finished hand and move the game on
        raise NotImplementedError

    def _sit_out_partners(self, seat: int) -> None:  # announcements: seat's partners sit the hand out
        raise NotImplementedError

    def _settled(self) -> HandFacts:  # play: what is settled before the first lead, as facts
        raise NotImplementedError

    def _bid_value(self) -> int:  # scoring: the value a numeric auction was won at (0: none)
        raise NotImplementedError

    def _kitty_taken(self) -> bool:  # scoring: the declarer took the kitty into his hand
        raise NotImplementedError

    def _pass_out(self, path: str = "redeal") -> None:  # scoring: a deal refused by everyone (or annulled)
        raise NotImplementedError

    def _next_hand(self, hand_winner: Team | None, same_dealer: bool,
                   first_to_goal: Team | None = None) -> None:  # scoring
        raise NotImplementedError

    def _describe(self, action: int) -> str:  # state: an action as the player would say it
        raise NotImplementedError

