"""GameState: one whole game (or session of games) of any compiled ruleset, OpenSpiel-shaped.

The state is small and mutable: hands are int masks, the trick is a few ints, and the
ruleset's precomputed :class:`~couillon_dsl.model.TrumpContext` answers every card
question. Chance is explicit: before each deal the pack order is drawn one card at a time
(action = card id), so a game, deal included, replays exactly from :meth:`history`.
Decisions (accept/pass, name/show/defer, announce/decline) and plays are actions too; see
:class:`Actions` for their numbering. The engine never knows which variant it plays: every
branch below is taken on a value of the language (design §2).
"""
from __future__ import annotations

import random
from math import floor
from typing import Any, Mapping, Sequence

from couillon_dsl.cards import Card, CardMask, iter_bits
from couillon_dsl.engine.actions import (
    ANNOUNCE, AUCTION, BID, CALL, CHANCE, CHOOSE, DEALER, DISCARD, DRAW, KITTY, NAME, OFFER, OVER, PASS, PHASE_NAMES, PLAY,
    TERMINAL,
    TRUMP_DRAW,
    Actions,
    IllegalAction,
)
from couillon_dsl.engine.announce import AnnouncePhase
from couillon_dsl.engine.bidding import BidPhase
from couillon_dsl.engine.call import CallPhase
from couillon_dsl.engine.contract import ContractPhase
from couillon_dsl.engine.deal import DealPhase
from couillon_dsl.engine.declarations import DeclarePhase, meld_trump
from couillon_dsl.engine.hand import cards_table
from couillon_dsl.engine.kitty import KittyPhase
from couillon_dsl.engine.passing import PassPhase
from couillon_dsl.engine.play import PlayPhase
from couillon_dsl.engine.results import FinishedGame, GameResult, HandSummary, SeatView, SheetSet
from couillon_dsl.engine.scoring import ScoringPhase, fresh_counts
from couillon_dsl.model import Choose, Ruleset, TrumpContext

AFTER_AUCTION = Choose()  # a numeric auction's declarer picks a contract, or names a suit for the named one

__all__ = ["CHANCE", "TERMINAL", "Actions", "FinishedGame", "GameResult", "GameState", "HandSummary",
           "IllegalAction", "SeatView", "play_random_game"]


class GameState(DealPhase, ContractPhase, KittyPhase, CallPhase, BidPhase, PassPhase, AnnouncePhase, DeclarePhase, PlayPhase,
                ScoringPhase):
    """A whole game, or a session of games, of one compiled ruleset (design §3).

    The façade agents and tools use: the public methods below. Each phase of a hand is a
    base class in its own module (``deal``, ``contract``, ``kitty``, ``call``, ``passing``, ``bidding``,
    ``announce``, ``declarations``, ``play``, ``scoring``) working on the slots of :class:`~couillon_dsl.engine.fields.StateFields`.
    """

    __slots__ = ()

    def __init__(self, ruleset: Ruleset, *, seed: int | None = None) -> None:
        rs = ruleset
        self._rs = rs
        self._t = rs.tables
        self._n = rs.players.count
        _, self._acts, self._full, self._values, self._dealer = _game_start(rs)
        self._counts = fresh_counts(rs)
        self._seed = seed
        self._rng: random.Random | None = None  # made on first use: seeding costs more than a hand
        self._history: list[int] = []
        self._ties = self._passes = self._redeals = self._game_hands = self._game = 0
        self._games_won = [0] * len(self._values)
        self._games: list[FinishedGame] = []
        self._summaries: list[HandSummary] = []
        self._result: GameResult | None = None
        self._sheet_set: SheetSet | None = None
        # trick fields: set here only, because every hand leaves them clean (_end_trick) or untouched
        self._trick: list[Card] = []
        self._offers: list[tuple[int, int]] = []
        self._tmask = self._tpoints = 0
        self._led = self._best = self._win = self._wseat = -1
        self._st: tuple[int, ...] = ()
        self._kitty = self._to_discard = 0  # set by the deal's kitty step, or a discard, where there is one
        self._meld_offers: tuple[dict[int, Any], ...] = ()  # set when play begins, in rulesets with declarations
        self._start_deal()
        if rs.dealer.first == "random":
            self._phase = DEALER

    # ------------------------------------------------------------------ public API
    def current_player(self) -> int:
        """The seat to act, CHANCE or TERMINAL."""
        phase = self._phase
        if phase == PLAY:  # the dummy's cards are played by its declarer
            return self._turn if self._turn != self._dummy else self._decider  # type: ignore[return-value]
        if phase <= DRAW or phase == TRUMP_DRAW:
            return CHANCE
        if phase == OFFER or phase == AUCTION or phase == BID or phase == PASS or phase == NAME:
            return self._speakers[self._spk]
        if phase == CHOOSE:
            return self._chooser
        if phase == KITTY:
            return self._decider  # type: ignore[return-value]
        if phase == ANNOUNCE:
            return self._offers[0][1]
        if phase == DISCARD:
            return self._discarder  # type: ignore[return-value]
        if phase == CALL:
            return self._decider  # type: ignore[return-value]
        return TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def is_playing(self) -> bool:
        """True in the play phase (a card is asked of the seat to move)."""
        return self._phase == PLAY

    def is_chance_node(self) -> bool:
        return self._phase <= DRAW or self._phase == TRUMP_DRAW

    def legal_actions(self) -> list[int]:
        """Legal actions in ascending order; empty only when the game is over."""
        phase = self._phase
        acts = self._acts
        if phase == PLAY:  # equal cards (`deck.copies`) are one choice: the lowest copy held
            cards = list(iter_bits(self._rs.layout.lowest_copies(self.legal_mask())))
            if self._may_announce:  # trick 1: what this seat's cards allow it to announce or declare
                cards += self._offered_actions()
            return cards
        if phase == DRAW:
            return list(iter_bits(self._rs.layout.lowest_copies(self._undrawn)))
        if phase == OFFER:
            return [acts.accept, acts.pass_]
        if phase == AUCTION:  # pass, or a contract above the last bid; or a number, in pairs or open
            if self._t.auction_suits or self._path == "bid":  # an open auction, or doubling a contract fixed
                return self.open_allowed()
            if self._t.auction_rounds:
                return self.rounds_allowed()
            if self._t.auction_values:
                return self.pairs_allowed()
            seat, fixed, rungs = self._speakers[self._spk], self._t.fixed_contracts, self._t.auction_rungs
            last = rungs[self._bid] if self._bid >= 0 else -1  # a bid climbs to a higher rung: no equal over equal
            holds, hand = self._t.bidder_holds, self._hands[seat]
            return [acts.pass_, *sorted(acts.contract0 + j for i, j in enumerate(self._t.auction_ladder)
                                        if rungs[i] > last and self.may_call(seat, fixed[j])
                                        and (not holds or hand & holds[fixed[j]] == holds[fixed[j]]))]
        if phase == KITTY:  # the declarer takes the kitty (accept) or leaves it unseen (pass)
            return [acts.accept, acts.pass_]
        if phase == CHOOSE:
            out = self._choices()
            # contracts offered only where their `offered_when` holds (after a numeric auction or a choice)
            return self._offered_choices(out) if self._t.contract_offered else out
        if phase == ANNOUNCE:
            a, seat = self._offers[0]
            if self._t.lead_asks and a in self._t.lead_asks and not self._side_may(seat, a):
                return [acts.decline]  # asked of every seat before the lead: only its side may say yes
            return [acts.decline, acts.announce0 + a]
        if phase == DEALER:
            return [acts.dealer0 + s for s in range(self._n)]
        if phase == TRUMP_DRAW:
            return [acts.drawn0 + s for s in sorted(self._drawable_suits())]
        if phase == BID:
            if self._unseen >> self._speakers[self._spk] & 1:  # bid blind (accept), or look at one's cards (pass)
                return [acts.accept, acts.pass_]
            return [acts.bid0 + n for n in self.bids_allowed()]
        if phase == DISCARD:
            return [acts.discard0 + c for c in iter_bits(self.discard_mask())]
        if phase == PASS:
            return [acts.give0 + c for c in iter_bits(self._hands[self._speakers[self._spk]])]
        if phase == NAME:
            return self.names_allowed()
        if phase == CALL:
            nobody = [acts.call0 + acts.ncards] if self._t.calls[self._contract].nobody else []
            return [acts.call0 + c for c in iter_bits(self.call_mask())] + nobody
        return []

    def plays_a_card(self) -> bool:
        """True when the seat to move may only play a card, one of :meth:`legal_mask` (play phase,
        nothing to announce or declare beside it): a playout's cheap test before the mask."""
        return self._phase == PLAY and not self._may_announce

    def legal_mask(self) -> CardMask:
        """The cards the player to move may play (play phase only), as a mask."""
        h = self._hands[self._turn]
        if not self._trick:
            return self._keep_back_called(self._lead_mask(h)) if self._t.play_rules else h
        if self._t.play_rules:  # rules beyond the follow closure: a partner's trick, the first trick, a called card
            if self.free_play():  # `follow_obligations: once_stock_empty`: what binds while the stock lasts
                stock_rule = self._ctx.legal_while_stock
                return h if stock_rule is None else stock_rule(h, self._led, self._win, self._tmask)
            due = self.called_card_due()
            if due >= 0:
                return 1 << due
            legal = h if self._freed(h) else self._ctx.legal(h, self._led, self._win, self._tmask)
            return self._keep_back_called(self._keep_off_first_trick(legal))
        return self._ctx.legal(h, self._led, self._win, self._tmask)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs at a chance node: every undrawn card is equally likely, and so is
        every suit a trump draw may give, and every first dealer."""
        if self._phase == DRAW:  # equal cards (`deck.copies`): the lowest copy, as likely as its undrawn copies
            layout, undrawn = self._rs.layout, self._undrawn
            total = undrawn.bit_count()
            return [(c, (layout.copies_mask(c) & undrawn).bit_count() / total)
                    for c in iter_bits(layout.lowest_copies(undrawn))]
        if self._phase == TRUMP_DRAW:
            suits = self.legal_actions()
            return [(action, 1.0 / len(suits)) for action in suits]
        if self._phase != DEALER:
            return []
        return [(self._acts.dealer0 + s, 1.0 / self._n) for s in range(self._n)]

    def apply(self, action: int) -> None:
        """Apply one action; raises IllegalAction with the reason when it is not legal."""
        phase = self._phase
        if phase == PLAY:
            if not 0 <= action < self._acts.ncards or not self.legal_mask() >> action & 1:
                if self._may_announce and action in self._offered_actions():
                    self._history.append(action)
                    self._take_offer(action)
                    return
                raise IllegalAction(self._play_refusal(action))
            self._history.append(action)
            self._play(action)
            return
        if not self._allows(action):
            if phase == BID and self._acts.bid0 <= action < self._acts.ends(self._acts.bid0):
                raise IllegalAction(self._bid_refusal(action))
            if phase == PASS:
                raise IllegalAction(self._give_refusal(action))
            raise IllegalAction(self._discard_refusal(action) if phase == DISCARD else self._refusal(action))
        self._history.append(action)
        if phase == DRAW:
            self._draw(action)
        elif phase == DEALER:
            self._dealer = action - self._acts.dealer0
            self._start_deal()
        else:
            self._choose(phase, action)

    def _choose(self, phase: int, action: int) -> None:
        """Carry out a seat's choice outside the play (already checked and in the history): the phase's own step."""
        if phase == ANNOUNCE:
            self._announce(action)
        elif phase == DISCARD:
            self._discard(action - self._acts.discard0)
        elif phase == BID:
            self._bid_tricks(action)
        elif phase == PASS:
            self._give(action - self._acts.give0)
        elif phase == CALL:
            self._call(action - self._acts.call0)
        else:
            self._decide(action)

    def play_card(self, card: Card) -> None:
        """Play ``card`` for the seat to move, a card the caller took from :meth:`legal_mask` in the
        play phase: :meth:`apply` without the legality check, for a search that plays thousands of
        cards a decision. Nothing is checked: an illegal card leaves the state corrupt."""
        self._history.append(card)
        self._play(card)

    def _choices(self) -> list[int]:
        """The chooser's ways to fix the contract before any contract's `offered_when` is read: defer,
        name a suit, show a card, push, or pick a contract."""
        acts = self._acts
        choose = self._rs.trump.choose or AFTER_AUCTION  # a numeric auction's declarer names or picks
        t = self._t
        # the ways name a trump suit: only when the named-trump contract is on (or there are no contracts)
        ways = choose.ways if t.named_contract >= 0 or not self._rs.contracts else ()
        out = []
        if "defer" in ways:
            out.append(acts.defer)
        if "name" in ways:
            out.extend(acts.name0 + s for s in range(acts.nsuits))
        if "show" in ways:
            out.extend(acts.show0 + c for c in iter_bits(self._hands[self._chooser]))
        if acts.push >= 0 and self._pushes < choose.delegate.times:  # type: ignore[union-attr]
            out.append(acts.push)
        if acts.contract0 >= 0:
            out.extend(range(acts.contract0, acts.contract_end))
        return out

    def _allows(self, action: int) -> bool:
        """Whether ``action`` is legal outside the play phase; a draw or a discard is one mask test,
        not a list of every undrawn card (a sampled world draws a whole pack)."""
        phase = self._phase
        if phase == DRAW:
            return 0 <= action < self._acts.ncards and bool(self._undrawn >> action & 1)
        if phase == DISCARD:
            card = action - self._acts.discard0
            return 0 <= card < self._acts.ncards and bool(self.discard_mask() >> card & 1)
        if phase == PASS:
            card = action - self._acts.give0
            return 0 <= card < self._acts.ncards and bool(self._hands[self._speakers[self._spk]] >> card & 1)
        return action in self.legal_actions()

    def deal_pack(self, order: list[int]) -> None:
        """Draw the rest of the pack in ``order`` at once (a sampled world's deal): the same as
        applying each draw in turn, without a legality list per card."""
        if self._phase != DRAW or sum(map((1).__lshift__, set(order))) != self._undrawn or len(order) != len(set(order)):
            raise IllegalAction("deal_pack: the order is not the undrawn cards of a deal waiting to be drawn")
        self._history.extend(order)
        self._pack.extend(order)
        self._undrawn = 0
        self._run_deal()

    def deal_shuffled(self, rng: random.Random | None = None) -> None:
        """Resolve the pending chance node(s) of one deal at once from ``rng`` (fast path): the first
        dealer, the pack, and a trump drawn after the pack (`trump.method: drawn`) when the deal
        reaches that draw.

        Equivalent to drawing every remaining card uniformly one at a time, then the suit; what
        is drawn is appended to the history, so the game still replays exactly.
        """
        if rng is None:
            if self._rng is None:
                self._rng = random.Random(self._seed)
            rng = self._rng
        if self._phase == DEALER:
            self.apply(self._acts.dealer0 + rng.randrange(self._n))
        if self._phase == DRAW:
            self._shuffle_deal(rng.random)
        elif self._phase != TRUMP_DRAW:
            raise IllegalAction("deal_shuffled: the game is not waiting for a deal")
        if self._phase == TRUMP_DRAW:
            suits = self.legal_actions()
            self.apply(suits[floor(rng.random() * len(suits))])


    def history(self) -> list[int]:
        return list(self._history)

    def clone(self) -> "GameState":
        """An independent copy. The lists and the dict a move changes in place are copied; ints,
        tuples and the ruleset's immutable tables are shared. Written out field by field, in the
        order of :data:`~couillon_dsl.engine.fields.FIELDS`: a loop over that list costs six
        times as much, and a searching agent clones a world per iteration
        (``tests/test_engine_rules.py`` checks that every field is covered)."""
        other = object.__new__(GameState)
        other._rs = self._rs
        other._t = self._t
        other._n = self._n
        other._acts = self._acts
        other._seed = self._seed
        other._full = self._full
        other._history = self._history.copy()
        other._phase = self._phase
        other._dealer = self._dealer
        # deal
        other._pack = self._pack.copy()
        other._undrawn = self._undrawn
        other._step = self._step
        other._hands = self._hands.copy()
        other._face_up = self._face_up.copy()
        other._stock = self._stock.copy()
        other._drawn = self._drawn.copy()
        other._exchange = self._exchange
        other._closed = self._closed
        other._last_up = self._last_up
        # trump
        other._offered = self._offered
        other._speakers = self._speakers
        other._spk = self._spk
        other._round = self._round
        other._chooser = self._chooser
        other._trump = self._trump
        other._promo = self._promo
        other._ctx = self._ctx
        other._maker = self._maker
        other._decider = self._decider
        other._path = self._path
        other._decisions = self._decisions.copy()
        other._defer_seat = self._defer_seat
        other._contract = self._contract
        other._asked = self._asked
        other._pushes = self._pushes
        other._cbase = self._cbase
        other._mult = self._mult
        other._bid = self._bid
        other._bidder = self._bidder
        other._bid_suit = self._bid_suit
        other._namers = self._namers
        other._doubled = self._doubled
        other._aside = self._aside
        other._side_of = self._side_of
        # call
        other._called = self._called
        other._seek_until = self._seek_until
        # bids
        other._trick_bids = self._trick_bids
        other._unseen = self._unseen
        other._blind = self._blind
        # passing
        other._given = self._given
        other._received = self._received
        # kitty
        other._kitty = self._kitty
        other._discards = self._discards
        other._to_discard = self._to_discard
        other._discarder = self._discarder
        # announcements
        other._made = self._made.copy()
        other._made_tricks = self._made_tricks.copy()
        other._may_announce = self._may_announce
        other._offers = self._offers.copy()
        other._sitting_out = self._sitting_out
        other._order = self._order
        # declarations
        other._melds = self._melds.copy()
        other._meld_first = self._meld_first
        other._meld_later = self._meld_later
        other._meld_watch = self._meld_watch
        other._meld_offers = self._meld_offers
        other._lead_from = self._lead_from
        # play
        other._leader = self._leader
        other._turn = self._turn
        other._dummy = self._dummy
        other._trick = self._trick.copy()
        other._tmask = self._tmask
        other._led = self._led
        other._st = self._st
        other._best = self._best
        other._win = self._win
        other._wseat = self._wseat
        other._tpoints = self._tpoints
        other._trick_no = self._trick_no
        other._ntricks = self._ntricks
        other._points = self._points.copy()
        other._tricks = self._tricks.copy()
        other._log = self._log.copy()
        other._broken = self._broken
        # scoresheet and session
        other._values = self._values
        other._counts = self._counts
        other._ties = self._ties
        other._passes = self._passes
        other._redeals = self._redeals
        other._game_hands = self._game_hands
        other._game = self._game
        other._games_won = self._games_won.copy()
        other._games = self._games.copy()
        other._summaries = self._summaries.copy()
        other._result = self._result
        other._sheet_set = self._sheet_set
        other._rng = None
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        return other

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with uniformly random legal actions (the simulator's fast path).

        A game not yet under way goes to the ruleset's rollout when it has one
        (:mod:`couillon_dsl.engine.rollout`: the whole game in one closure, same draws,
        same result). Otherwise decisions and announcements go through the same methods as
        :meth:`apply` and whole hands are played by :meth:`_play_out`. Either way the
        history stays complete, so the game replays exactly.
        """
        rnd = rng.random
        if self._rs.rollout is not None and self._phase == DRAW and not self._history:
            self._adopt(self._rs.rollout(rnd, self._dealer, self._values, self._ties, self._passes))
            return
        announcing = self._t.first_trick_offers
        # random_tricks knows no roles, leads any card, knows no seats (play_rules: the lead rules, a
        # partner's trick), deals each trick to every seat, looks at no lead (led melds, the leader's announcements)
        # and never stops early
        whole_hands = (self._t.roles is None and not self._t.play_rules and not self._t.led_melds
                       and self._t.stop_when is None and not self._t.leader_offers and not self._t.won_melds)
        history = self._history
        while True:
            phase = self._phase
            if phase == PLAY:
                if self._may_announce:  # a card, or an announcement this seat's cards allow
                    legal = self.legal_actions()
                    self.apply(legal[floor(rnd() * len(legal))])
                elif (self._trick or (announcing and self._trick_no == 0) or not whole_hands or self._sitting_out
                      or self._t.side_offers or self.lead_fixes_trump()):
                    cards = cards_table(self._acts.ncards, self._ntricks)[self.legal_mask()]
                    card = cards[floor(rnd() * len(cards))] if len(cards) > 1 else cards[0]
                    history.append(card)
                    self._play(card)
                else:
                    self._play_out(rnd)
            elif phase == OFFER:
                # an offer's legal actions are always [accept, pass]: legal[int(rnd() * 2)] without
                # building the list (int(x * 2) == 0 exactly when x < 0.5)
                if rnd() < 0.5:
                    history.append(self._acts.accept)
                    self._accept()
                else:
                    history.append(self._acts.pass_)
                    self._pass()
            elif phase == DRAW:
                self._shuffle_deal(rnd)
            elif phase == OVER:
                return
            elif phase == DEALER:
                self.deal_shuffled(rng)
            else:
                legal = self.legal_actions()
                action = legal[floor(rnd() * len(legal))]  # = int(): non-negative
                history.append(action)
                self._choose(phase, action)

    def _adopt(self, game: Any) -> None:
        """Take over a finished game from the ruleset's rollout (a RolledGame)."""
        self._history = game.history
        self._summaries = game.hands
        self._result = game.result
        self._games = game.games
        self._games_won = game.games_won
        self._values = game.values
        self._ties, self._passes, self._redeals = game.ties, game.passes, 0
        self._game, self._game_hands, self._dealer = game.game, game.game_hands, game.dealer
        self._phase = OVER

    @property
    def ruleset(self) -> Ruleset:
        return self._rs

    @property
    def actions(self) -> Actions:
        return self._acts

    @property
    def hands(self) -> list[HandSummary]:
        """One summary per finished or passed-out hand, oldest first."""
        return self._summaries

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def sheet_set(self) -> SheetSet | None:
        """The scoresheet :meth:`set_scoresheet` gave this game, and where in its history (None: never set)."""
        return self._sheet_set

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def phase(self) -> str:
        """The phase's name, as the seat views show it (public)."""
        return PHASE_NAMES[self._phase]

    @property
    def asked_in_deal(self) -> bool:
        """True while every seat is asked an announcement a deal step puts (`announce`): the deal waits."""
        return self._phase == ANNOUNCE and bool(self._offers) and self._t.asked_in_deal[self._offers[0][0]]

    @property
    def offered(self) -> Card | None:
        """The turned-up card the seat to speak may accept (public; the seat view's ``offered``),
        None outside an offer."""
        return self._offered if self._phase == OFFER else None

    @property
    def ties_pending(self) -> int:
        """Tied hands whose carry (`scoresheet.tie_carry`) the next decided hand pays (public)."""
        return self._ties

    @property
    def passes_pending(self) -> int:
        """The points passed-out deals owe the next decided hand's winner (`scoresheet.pass_carry`, public)."""
        return self._passes

    @property
    def games_won(self) -> tuple[int, ...]:
        """Games won so far in the session, per team (public; the seat view's ``games_won``)."""
        return tuple(self._games_won)

    @property
    def hand_number(self) -> int:
        """The hand being played in the current game, from 1 (public; the seat view's ``hand_number``)."""
        return self._game_hands + 1

    @property
    def hand_tricks(self) -> int:
        """The tricks of the hand being played: the cards each seat is dealt, which a schedule of
        hand sizes changes from hand to hand (public: it follows from the hand number)."""
        return self._t.tricks_of(self._game_hands)

    @property
    def trump(self) -> int | None:
        """The trump suit index, or None when not (yet) fixed or the ruleset has no trump."""
        return self._trump if self._trump >= 0 else None

    @property
    def meld_trump(self) -> int:
        """The trump the declarations read (public once the contract is fixed): the trump suit, -1 none,
        or past the last suit under a contract of `trump: all_suits` (engine.declarations.meld_trump)."""
        return meld_trump(self._rs, self._contract, self._trump)

    @property
    def asked_out_of_turn(self) -> bool:
        """Whether the seat to act is asked out of turn whether to double the last bid of an open auction
        (`double_out_of_turn`; public: who is asked follows from the calls)."""
        return self._aside >= 0

    @property
    def auction_value(self) -> int | None:
        """The highest value bid so far in a numeric auction (`trump.auction.values`; public), the value
        the hand is played at once it is won; None before any bid and in other rulesets."""
        return self._t.auction_values[self._bid] if self._t.auction_values and self._bid >= 0 else None

    @property
    def auction_bidder(self) -> int | None:
        """The seat holding the highest bid so far in a numeric auction (public; in pairs, the holder, then the
        declarer); None before any bid and elsewhere."""
        return self._bidder if self._t.auction_values and self._bid >= 0 else None

    @property
    def auction_strain(self) -> int:
        """What the highest bid of an open auction names beside its value (public): an index into
        ``tables.auction_strains`` (a suit, or a contract); -1 before any bid and elsewhere."""
        return self._bid_suit

    @property
    def strain_namers(self) -> tuple[tuple[int, int], ...]:
        """An open auction's (seat, strain) pairs: the first seat of each side to bid each strain, in
        the order bid (public: the bids are)."""
        return self._namers

    @property
    def kitty_size(self) -> int:
        """How many cards the deal put in the kitty this hand (public: the deal script says)."""
        return self._kitty.bit_count()

    @property
    def bids(self) -> tuple[int, ...]:
        """Seat -> the tricks it bid this hand, -1 before its bid (public; the seat view's ``bids``);
        () in rulesets without bids and before the bidding."""
        return self._trick_bids

    @property
    def blind_bids(self) -> int:
        """The mask of the seats that bid before looking at their cards this hand (public; `bids.blind`)."""
        return self._blind

    @property
    def trick_counts(self) -> tuple[int, ...]:
        """Side -> the tricks it took so far this hand (the seat view's ``tricks``: public, but for
        sides hidden until revealed, `card_holders`)."""
        return tuple(self._tricks)

    @property
    def side_points(self) -> tuple[int, ...]:
        """Side -> the card points it took so far this hand, in 1/``point_unit`` of a point (the seat
        view's ``points``: public, but for sides hidden until revealed, `card_holders`)."""
        return tuple(self._points)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._values)

    @property
    def tallies(self) -> dict[str, tuple[int, ...]]:
        """Per tally (the `tallies` section), each team's count now (public, as the scores are)."""
        return {tally.name: counts for tally, counts in zip(self._rs.tallies, self._counts)}

    @property
    def sides(self) -> tuple[int, ...]:
        """Seat -> the side it plays on in this hand: the fixed teams, or with sides fixed per hand
        (`players.sides`) the declarer's side 0 against side 1, from the contract on (before it they
        are a placeholder; the seat view then says None). Public, except sides by who holds a card
        (`card_holders`), which a seat learns as they are revealed: an agent reads
        :meth:`sides_known_to`."""
        return self._side_of

    def sides_known_to(self, seat: int) -> tuple[int, ...]:
        """Seat -> its side in this hand as ``seat`` knows it, -1 where it does not: every side with
        public sides; with sides by who holds a card (`players.sides: card_holders`) its own (from its
        cards), a seat's that played a copy of the card (the holders' side, 0), and every other seat's
        once every copy has been seen (the others' side, 1). A called card this seat saw in the kitty
        (shown, or taken by it) was dealt to nobody: the declarer plays alone, which it then knows."""
        cards = self._hidden_side_cards()
        if not cards or self._maker is None:
            return self._side_of
        played = self._played_by_seat()
        seen = (self._hands[seat] | played[seat] | sum(played)) & cards
        if self._called >= 0 and self._t.kitty is not None:
            seen |= self._kitty_view(seat)[0] & cards
        # a caller's side is public, his partner's not
        declarer = self._decider if self._called >= 0 and self._decider is not None else -1
        told = 0  # seats whose announcement for their side (`for_side`) told the table that side
        if self._t.side_offers:
            deadlines = self._t.side_deadlines
            for a, s in self._made:
                if deadlines[a] >= 0:
                    told |= 1 << s
        known = [s in (seat, declarer) or bool(played[s] & cards) or bool(told >> s & 1) for s in range(self._n)]
        if told and seen != cards:
            seen_all = self._all_sides_follow(seat, known, played, cards, declarer)
        else:
            seen_all = seen == cards
        return tuple(side if known[s] or seen_all else -1 for s, side in enumerate(self._side_of))

    def _all_sides_follow(self, seat: int, known: list[bool], played: list[CardMask], cards: CardMask,
                          declarer: int) -> bool:
        """Whether ``seat`` can tell every side from the sides it knows: the copies of the side card the
        known holders must hold (its own, each played one, one at least for another known holder, but the
        caller, on his side without holding the card he called) are all the copies, or every seat but one
        is known to be on the other side (the last holds a copy)."""
        copies = ((self._hands[seat] | played[seat]) & cards).bit_count()
        others = 0
        for s, side in enumerate(self._side_of):  # the holders are side 0
            if s != seat and known[s]:
                if side == 0:
                    held = (played[s] & cards).bit_count()
                    copies += held if s == declarer else max(1, held)
                else:
                    others += 1
        return copies >= cards.bit_count() or others + (self._side_of[seat] != 0) >= self._n - 1

    @property
    def context(self) -> TrumpContext:
        """The trump context in force (trump suit and promoted cards)."""
        return self._ctx

    def claim_deltas(self, action: int) -> tuple[int, ...]:
        """Per team, the scoresheet change the hand would bring if the seat to move made the claim ``action``
        (an announcement that `ends_hand`, offered now) and the hand ended: the scoring read on the hand as it
        stands, the state left as it was (omniscient: a caller judges it only where the score reads nothing
        hidden, `Tables.scored_in_sight`)."""
        self._made.append((action - self._acts.announce0, self._turn))
        self._made_tricks.append(tuple(self._tricks))
        try:
            return self._hand_score()[0].deltas
        finally:
            self._made.pop()
            self._made_tricks.pop()

    def declared_points(self) -> dict[str, tuple[int, ...]]:
        """Per declaration id, the points each team keeps from this hand's declarations so far
        (omniscient only in that it is asked now; every declaration is public)."""
        if not self._t.declarations or self._phase != PLAY:
            return {}
        leader = self._log[0][0] if self._log else self._leader
        return {table.id: points for table, points in zip(self._t.declarations, self._meld_points(leader))}

    @property
    def playing_seat(self) -> int:
        """The seat whose card the trick asks for now: the seat to act, or the dummy (`play.dummy`), whose
        cards, face up, its declarer plays (public)."""
        return self._turn

    def hand_of(self, seat: int) -> CardMask:
        """The cards seat holds now (omniscient: an agent asks for its own seat's only; tests, scenarios and
        explanations for any)."""
        return self._hands[seat]

    def current_trick(self) -> tuple[int, tuple[Card, ...]]:
        """(leader, cards in play order) of the trick being played."""
        return self._leader, tuple(self._trick)

    def in_last_trick(self, index: int | None = None) -> bool:
        """Whether the trick being played (else this hand's finished trick ``index``) is the hand's
        last (public; `play.equal_cards` may let another of equal cards win it)."""
        return self._ntricks > 0 and (self._trick_no if index is None else index) + 1 == self._ntricks

    @property
    def all_passed(self) -> bool:
        """Whether this hand is played in the contract everyone passed into (`trump.auction.on_all_pass`),
        with no maker and each seat a side of its own (public)."""
        return self._path == "all_passed"

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats sitting this hand out (`sits_out`; public, the seat view's ``sitting_out``)."""
        return self._sitting_out

    def play_order(self, leader: int) -> tuple[int, ...]:
        """The seats in the order they play to a trick ``leader`` leads in this hand (those sitting it
        out left out): the i-th card of :meth:`current_trick` or of a finished trick is played by
        ``play_order(leader)[i]``."""
        return self._order[leader]

    def finished_tricks(self) -> tuple[tuple[int, tuple[Card, ...], int], ...]:
        """(leader, cards in play order, winning seat) of this hand's finished tricks."""
        return tuple(self._log)

    def set_scoresheet(self, values: list[int] | tuple[int, ...], *, ties: int = 0, passes: int = 0,
                       tallies: Mapping[str, Sequence[int]] | None = None, hand: int | None = None) -> None:
        """Start from a given scoresheet (scenarios that begin mid-game): values per team,
        ties and passed-out deals pending, the counts of the tallies named (per team), and
        with ``hand`` the number of the hand about to be dealt in the game (from 1; before its
        first card)."""
        if len(values) != len(self._values):
            raise ValueError(f"this ruleset has {len(self._values)} teams, not {len(values)}")
        if ties < 0 or passes < 0 or hand is not None and hand < 1:
            raise ValueError("ties and passes pending are counts (0 or more), and hands are counted from 1")
        names = [tally.name for tally in self._rs.tallies]
        counts = [list(row) for row in self._counts]
        for name, row in (tallies or {}).items():
            if name not in names:
                raise ValueError(f"this ruleset has no tally {name!r}" + (f" (its tallies: {', '.join(names)})"
                                                                         if names else ""))
            if len(row) != len(self._values):
                raise ValueError(f"tally {name!r} needs a count for each of the {len(self._values)} teams")
            counts[names.index(name)] = list(row)
        self._set_sheet(SheetSet(len(self._history), tuple(values), tuple(map(tuple, counts)), ties, passes,
                                 self._game_hands if hand is None else hand - 1))

    def _set_sheet(self, sheet: SheetSet) -> None:
        self._values, self._counts, self._ties, self._passes = sheet.values, sheet.counts, sheet.ties, sheet.passes
        self._game_hands = sheet.game_hands
        self._sheet_set = sheet

    def replay_onto(self, target: GameState, begin: int, end: int) -> None:
        """Apply this game's actions ``begin`` to ``end`` to ``target`` (a replay of this game standing
        after action ``begin``), and the scoresheet :meth:`set_scoresheet` gave this game where it
        gave it: so a replay of the history stands where the game did (a sampler's worlds too)."""
        sheet = self._sheet_set
        for index in range(begin, end):
            if sheet is not None and sheet.at == index:
                target._set_sheet(sheet)
            target.apply(self._history[index])
        if sheet is not None and sheet.at == end:
            target._set_sheet(sheet)

    def action_to_string(self, action: int) -> str:
        kind, arg = self._acts.decode(action)
        layout = self._rs.layout
        if kind == "dealer" and arg >= self._n:
            raise ValueError(f"{action!r} is not an action of this ruleset")
        if kind == "card":
            return layout.name(arg)
        if kind == "name":
            return f"name {layout.suits[arg]}"
        if kind == "show":
            return f"show {layout.name(arg)}"
        if kind == "announce":
            return f"announce {self._rs.announcements[arg].id}"
        if kind == "contract":
            return f"contract {self._rs.contracts[self._t.fixed_contracts[arg]].id}"
        if kind == "dealer":
            return f"dealer {arg}"
        if kind == "drawn":
            return f"trump {layout.suits[arg]}"
        if kind == "discard":
            return f"discard {layout.name(arg)}"
        if kind == "declare":
            return f"declare {self._rs.declarations[arg].id}"
        if kind in ("accept", "pass") and self._phase == BID:  # the blind decision
            return "blind" if kind == "accept" else "look"
        if kind == "bid" and self._t.doubling and arg == self._t.double_offset:
            return "double"
        if kind == "bid" and self._t.auction_suits:  # a value and a suit (or a contract)
            value, strain = divmod(arg, self._t.auction_suits)
            return f"bid {self._t.auction_values[value]} {self.strain_id(strain)}"
        if kind == "bid":
            return f"bid {self._t.auction_values[arg] if self._t.auction_values else arg}"
        if kind == "give":
            return f"pass {layout.name(arg)}"
        if kind == "call":
            return "call nobody" if arg == layout.size else f"call {layout.name(arg)}"
        return kind

    def string_to_action(self, seat: int | None, text: str) -> int:
        """Parse what :meth:`action_to_string` prints (``seat`` is accepted for API symmetry)."""
        acts = self._acts
        layout = self._rs.layout
        words = text.strip().split()
        if not words:
            raise ValueError("empty action")
        head = words[0].lower()
        fixed = {"accept": acts.accept, "pass": acts.pass_, "defer": acts.defer, "no": acts.decline,
                 "decline": acts.decline, "blind": acts.accept, "look": acts.pass_}
        if len(words) == 1 and head in fixed:
            return fixed[head]
        if len(words) == 1 and head == "push" and acts.push >= 0:
            return acts.push
        if len(words) == 1 and head == "exchange" and acts.exchange >= 0:
            return acts.exchange
        t = self._t
        if len(words) == 1 and head == "double" and t.doubling:
            return acts.bid0 + t.double_offset
        if len(words) == 3 and head == "bid" and t.auction_suits:
            ids = [self.strain_id(strain).upper() for strain in range(t.auction_suits)]
            if not (words[1].isdigit() and int(words[1]) in t.auction_values and words[2].upper() in ids):
                raise ValueError(f"{' '.join(words[1:])!r} is not a value of the auction "
                                 f"({', '.join(map(str, t.auction_values))}) and a suit or contract "
                                 f"({', '.join(map(self.strain_id, range(t.auction_suits)))})")
            return acts.bid0 + t.auction_values.index(int(words[1])) * t.auction_suits + ids.index(words[2].upper())
        if len(words) == 2:
            arg = words[1]
            if head == "name" or head == "trump" and acts.drawn0 >= 0:
                ids = [s.upper() for s in layout.suits]
                symbols = list(layout.suit_symbols)
                first = acts.name0 if head == "name" else acts.drawn0
                if arg.upper() in ids:
                    return first + ids.index(arg.upper())
                if arg in symbols:
                    return first + symbols.index(arg)
                raise ValueError(f"{arg!r} is not a suit of this deck")
            if head == "show":
                return acts.show0 + self._copy_of(layout.parse(arg))
            if head == "discard" and acts.discard0 >= 0:
                return acts.discard0 + self._copy_of(layout.parse(arg))
            if head in ("pass", "give") and acts.give0 >= 0:
                return acts.give0 + self._copy_of(layout.parse(arg))
            if head == "call" and acts.call0 >= 0:
                return acts.call0 + (acts.ncards if arg == "nobody" else layout.parse(arg))
            if head == "declare" and acts.declare0 >= 0:
                ids = [d.id for d in self._rs.declarations]
                if arg in ids:
                    return acts.declare0 + ids.index(arg)
                raise ValueError(f"{arg!r} is not a declaration of this ruleset")
            if head == "announce":
                ids = [a.id for a in self._rs.announcements]
                if arg in ids:
                    return acts.announce0 + ids.index(arg)
                raise ValueError(f"{arg!r} is not an announcement of this ruleset")
            if head == "contract":
                ids = [self._rs.contracts[c].id for c in self._t.fixed_contracts]
                if arg in ids:
                    return acts.contract0 + ids.index(arg)
                raise ValueError(f"{arg!r} is not a contract to pick (contracts whose trump is named are picked "
                                 f"with `name SUIT`)")
            values = self._t.auction_values
            if head == "bid" and values:
                if arg.isdigit() and int(arg) in values:
                    return acts.bid0 + values.index(int(arg))
                raise ValueError(f"{arg!r} is not a value of the auction ({', '.join(map(str, values))})")
            if head == "bid" and acts.bid0 >= 0:
                if arg.isdigit() and acts.bid0 + int(arg) < acts.ends(acts.bid0):
                    return acts.bid0 + int(arg)
                raise ValueError(f"{arg!r} is not a number of tricks one may bid")
            if head == "dealer" and arg.isdigit() and int(arg) < self._n:
                return acts.dealer0 + int(arg)
        if len(words) == 1:
            return self._copy_of(layout.parse(words[0]))
        raise ValueError(f"cannot read action {text!r}")

    def _copy_of(self, card: Card) -> Card:
        """The copy a card's name stands for (`deck.copies`): the lowest undrawn in a deal, else the
        lowest held by the seat to move; the first copy when neither holds one."""
        layout = self._rs.layout
        if layout.copies == 1:
            return card
        source = self._undrawn if self._phase == DRAW else self._hands[self.current_player()] \
            if self.current_player() >= 0 else 0
        left = layout.copies_mask(card) & source
        return (left & -left).bit_length() - 1 if left else card

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now; nothing hidden from it leaks into the view."""
        order = self._order
        played = tuple(pair for leader, cards, _ in self._log for pair in zip(order[leader], cards))
        trick = tuple(zip(order[self._leader], self._trick)) if self._phase in (PLAY, ANNOUNCE) else ()
        hand_phase = self._phase >= OFFER and self._phase != OVER
        kitty, discarded = self._kitty_view(seat) if self._t.kitty is not None and hand_phase else (0, 0)
        unseen_discards = self._discards & ~discarded
        passed, received = self._pass_view(seat) if hand_phase else (0, 0)
        # hidden sides (card_holders, a called card) unknown to this seat: its view has no points or tricks per side
        hidden = bool(self._hidden_side_cards()) and hand_phase and -1 in self.sides_known_to(seat)
        return SeatView(
            seat=seat,
            phase=PHASE_NAMES[self._phase],
            current_player=self.current_player(),
            dealer=self._dealer,
            hand=self._hands[seat] if hand_phase and not self._unseen >> seat & 1 else 0,
            hand_sizes=tuple(h.bit_count() for h in self._hands) if hand_phase else (0,) * self._n,
            face_up=tuple((c, s) for c, s in self._face_up.items() if self._visible_face_up(c, s, unseen_discards))
            if hand_phase else (),
            offered=self._offered if self._phase == OFFER else None,
            decisions=tuple(self._decisions) if hand_phase else (),
            trump=self._trump if self._trump >= 0 and hand_phase else None,
            maker=self._maker if hand_phase else None,
            deciding_seat=self._decider if hand_phase else None,
            announcements=tuple((self._rs.announcements[a].id, s) for a, s in self._made) if hand_phase else (),
            leader=self._leader if self._phase in (PLAY, ANNOUNCE) and self._ntricks else None,  # 0: not led yet
            trick=trick,
            played=played + trick if hand_phase else (),
            points=tuple(self._points) if hand_phase and not hidden else (),
            tricks=tuple(self._tricks) if hand_phase and not hidden else (),
            scores=tuple(self._values),
            ties_pending=self._ties,
            passes_pending=self._passes,
            games_won=tuple(self._games_won),
            game=self._game,
            hand_number=self._game_hands + 1,
            melds=self._meld_record(public=True) if self._melds and hand_phase else (),
            contract=self._rs.contracts[self._contract].id if self._contract >= 0 and hand_phase else None,
            sides=self.sides_known_to(seat) if hand_phase and self._sides_fixed() else None,
            kitty=kitty,
            discarded=discarded,
            discarding_seat=self._discarder if hand_phase else None,
            taken=self._taken_card() if hand_phase else None,
            sitting_out=self._sitting_out if hand_phase else (),
            bids=self._trick_bids if hand_phase else (),
            unseen=self._unseen,
            blind=self._blind if hand_phase else 0,
            doubled=self.doubled if hand_phase else 1,
            called=self._called if hand_phase and self._called >= 0 else None,
            tallies=self._counts,
            passed=passed,
            received=received,
            **(self._draw_view(seat) if self._t.draw and hand_phase else {}),
        )

    def _draw_view(self, seat: int) -> dict[str, Any]:
        """The view's `play.draw` fields: how many cards are left to draw, and who drew what so far, the
        cards another seat drew hidden but for the face-up card every seat saw turned, the last one drawn (a
        card traded for it, `play.draw.exchange`, is face up only from the trade on: drawn before, it was hidden)."""
        face_up, last = self._face_up, len(self._drawn) + len(self._stock) - 1
        return {"stock": len(self._stock),
                "drawn": tuple((s, c if s == seat or k == last and c in face_up else -1)
                               for k, (s, c) in enumerate(self._drawn)),
                "exchanged": self._exchange}

    # ------------------------------------------------------------------ refusals
    def _visible_face_up(self, card: Card, holder: int | None, unseen_discards: CardMask) -> bool:
        """A face-up card stays visible while on the table or in its holder's hand, and to a seat that
        did not see him discard it (``unseen_discards``) for the rest of the hand: for that seat he
        may still hold it."""
        return holder is None or bool((self._hands[holder] | unseen_discards) >> card & 1)


    def _refusal(self, action: int) -> str:
        phase = PHASE_NAMES[self._phase]
        if self._phase == OVER:
            return "the game is over"
        if self._phase == DRAW and 0 <= action < self._acts.ncards:
            return f"{self._rs.layout.name(action)} was already drawn in this deal"
        if self._phase == ANNOUNCE and action == self._acts.announce0 + self._offers[0][0]:  # asked, not his to make
            return self._side_refusal(self._offers[0][1], self._offers[0][0])
        legal = ", ".join(self.action_to_string(a) for a in self.legal_actions())
        if self._phase == CHOOSE and self._t.contract_offered and action in self._choices():
            return (f"{self._describe(action)} is not offered now: its contract's offered_when does not hold; "
                    f"legal: {legal}")
        return f"{self._describe(action)} is not legal in phase {phase}; legal: {legal}"

    def _describe(self, action: int) -> str:
        try:
            return repr(self.action_to_string(action))
        except ValueError:
            return repr(action)


_GameStart = tuple[Ruleset, Actions, CardMask, tuple[int, ...], int]
_game_starts: dict[int, _GameStart] = {}  # id(ruleset) -> (the ruleset, kept alive, and what a new game starts from)


def _game_start(rs: Ruleset) -> _GameStart:
    """What every new game of ``rs`` starts from: the action numbering, the full pack's mask,
    the scoresheet and the first dealer; worked out once per ruleset object (a simulation
    makes a GameState per game)."""
    found = _game_starts.get(id(rs))
    if found is not None and found[0] is rs:
        return found
    if len(_game_starts) >= 16:
        _game_starts.clear()
    t = rs.tables
    acts = Actions.build(rs.layout.size, len(rs.layout.suits), len(rs.announcements), len(t.fixed_contracts),
                         rs.trump.choose is not None and rs.trump.choose.delegate is not None, t.kitty is not None,
                         len(rs.declarations) if any(d.optional for d in rs.declarations) else 0,
                         rs.bids.highest + 1 if rs.bids is not None
                         else len(t.auction_values) * (t.auction_suits or 1) + bool(t.doubling), rs.pass_cards > 0,
                         rs.trump.method == "drawn", bool(t.calls),
                         any(c is not None and c.nobody for c in t.calls), bool(t.exchanges))
    start = (rs, acts, rs.layout.full_mask, (rs.scoresheet.start,) * len(rs.players.teams),
             0 if rs.dealer.first == "random" else int(rs.dealer.first))
    _game_starts[id(rs)] = start
    return start


def play_random_game(ruleset: Ruleset, rng: random.Random) -> GameState:
    """A whole game (or session) played by uniformly random players; returns the final state."""
    state = GameState(ruleset)
    state.play_random(rng)
    return state
