"""The compiled ruleset: frozen dataclasses that mirror the language, plus the engine's tables.

Everything after `compile` reads this model and never the YAML: `explain` and `diff` render
prose from the section dataclasses (whose field names are the YAML keys and whose enum-like
values are the YAML strings), and the engine reads the precomputed :class:`Tables`. One
:class:`TrumpContext` exists per (trump suit or none, set of promoted cards), so the play
loop only indexes tuples and masks.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from couillon_dsl.cards import Card, CardMask, DeckLayout
from couillon_dsl.expr.compile import Definition

Team = int
NAMED_TRUMP = -2  # Tables.contract_trump: the chooser names the suit


@dataclass(frozen=True, slots=True)
class Source:
    key: str
    title: str
    url: str | None = None
    sections: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Reading:
    """A rule that is the ruleset's own reading where its sources are silent: the setting, its value, why."""

    setting: str  # JSON pointer
    value: Any
    note: str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A documented knob; ``value`` is what this compiled ruleset uses (default or override)."""

    name: str
    description: str
    default: Any
    value: Any
    choices: tuple[Any, ...] | None = None
    type: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    sets: tuple[str, ...] = ()
    patches: tuple[tuple[Any, Mapping[str, Any]], ...] = ()  # (value, merge patch)


@dataclass(frozen=True, slots=True)
class Players:
    """The seats, and who plays together. ``teams`` keep the scoresheet: the fixed partnerships,
    or with ``sides`` other than ``teams`` one team per seat (each seat keeps its own score
    while the sides of a hand are fixed with its contract)."""

    count: int
    teams: tuple[tuple[int, ...], ...]
    direction: str = "clockwise"
    sides: str = "teams"  # teams | declarer_alone | card_holders
    side_card: str | None = None  # card_holders: the card whose holders play together
    sit_out: str | None = None  # dealer: the dealer sits every hand out; None: every seat plays

    @property
    def nsides(self) -> int:
        """How many sides a hand is played by: the teams, or the declarer's side and the rest."""
        return len(self.teams) if self.sides == "teams" else 2

    @property
    def in_play(self) -> int:
        """How many seats are dealt cards and play a hand: all, or all but a dealer sitting out."""
        return self.count - (self.sit_out == "dealer")


@dataclass(frozen=True, slots=True)
class Dealer:
    first: int | str  # a seat, or "random"
    rotation: str = "next"
    stays_when: str | None = None  # after a hand, the same dealer deals again where this holds (rotation next)


@dataclass(frozen=True, slots=True)
class Suit:
    id: str
    name: str
    symbol: str
    ranks: tuple[str, ...] | None = None  # its own ranks, high to low (None: the deck's ranks)
    colour: str | None = None  # red, black or any name; suits of one colour pair up (a same_colour promotion)
    trump_ranks: tuple[str, ...] | None = None  # its own order when trump (None: the deck's trump order)


@dataclass(frozen=True, slots=True)
class Extra:
    """A card of no suit (an Excuse, a joker), named by its id."""

    id: str
    name: str
    symbol: str


@dataclass(frozen=True, slots=True)
class Promotion:
    """A card promoted into trump: ``card``, or (``card`` None) the ``rank`` of the suit ``suit``
    names relative to trump (``same_colour``: the other suit of the trump's colour); placed
    directly ``below`` a trump rank, or (``below`` None) at the ``top``, above the trump suit."""

    card: str | None
    name: str
    by_announcement: str | None
    below: str | None
    rank: str | None = None
    suit: str | None = None
    top: bool = False  # above every card of the trump suit, the top promotions in their written order


@dataclass(frozen=True, slots=True)
class Deck:
    """The pack. Points are exact (ints, Fractions for half points): ``points`` by rank (the key
    ``default`` covers unlisted ranks), ``card_points`` by card, overriding both tables."""

    suits: tuple[Suit, ...]
    ranks: tuple[str, ...]
    points: Mapping[str, int | Fraction]
    trump_ranks: tuple[str, ...] | None = None
    trump_points: Mapping[str, int | Fraction] | None = None
    promotions: tuple[Promotion, ...] = ()
    extras: tuple[Extra, ...] = ()
    trump_suit: str | None = None  # a suit that is trump in every hand
    card_points: Mapping[str, int | Fraction] = field(default_factory=dict)
    card_sets: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # name -> card names
    copies: int = 1  # how many times the pack holds each card (Doppelkopf: 2)


@dataclass(frozen=True, slots=True)
class DealStep:
    """One step of the deal script; exactly one of the kind keys is set, as in the YAML. A
    ``packet`` may be a schedule, one number per hand of the game (:func:`hand_script`)."""

    packet: int | tuple[int, ...] | None = None
    to: str | tuple[int, ...] | None = None
    face: str = "down"
    stock: str | None = None
    turn_up: str | None = None
    if_stock_empty: str | None = None  # a turn-up from an empty stock: "no_trump" (else the deal always leaves one)
    # cards that fix no trump suit when turned up: (cards, "none" | "named_by_dealer") per entry (`if_turned`)
    if_turned: tuple[tuple[tuple[str, ...], str], ...] = ()
    set_aside: int | str | None = None
    decide: str | None = None
    kitty: int | str | None = None  # cards face down to the kitty (a number or "rest")
    announce: str | None = None  # an announcement asked of every seat in turn at this point of the deal

    @property
    def kind(self) -> str:
        for key in ("packet", "stock", "turn_up", "set_aside", "kitty", "decide", "announce"):
            if getattr(self, key) is not None:
                return key
        raise ValueError("empty deal step")


def deal_cycle(steps: Sequence[DealStep]) -> int:
    """Hands after which a deal script repeats: 1 with fixed packets, else the least common
    multiple of its schedules' lengths."""
    return math.lcm(*(len(step.packet) for step in steps if isinstance(step.packet, tuple)))


def hand_script(steps: Sequence[DealStep], hand: int) -> tuple[DealStep, ...]:
    """The deal script of the game's ``hand``-th hand (from 0): each schedule replaced by its
    entry ``hand % len``, so every packet is a number."""
    return tuple(replace(step, packet=step.packet[hand % len(step.packet)]) if isinstance(step.packet, tuple) else step
                 for step in steps)


@dataclass(frozen=True, slots=True)
class Offer:
    on_all_pass: str = "bottom_card"
    reoffer_first_speaker: str = "elder"
    when_stock_exhausted: str = "redeal"
    dealer_must_name: bool = False  # with on_all_pass name_other_suit: the dealer, last, may not pass
    # dealer | acceptor | declarer (the acceptor, or the namer in a second round): adds the offered card to his
    # hand and discards one (unless taker_discards is false); None: nobody
    taken_by: str | None = None
    taker_discards: bool = True


@dataclass(frozen=True, slots=True)
class FirstHand:
    """Who chooses on a game's first hand instead of `by`: the holder of a card."""

    holder_of: str


@dataclass(frozen=True, slots=True)
class Delegate:
    """The chooser may hand the choice on (`push`), ``times`` hand-ons per hand in all."""

    to: str = "partner"  # partner | next
    times: int = 1


@dataclass(frozen=True, slots=True)
class Choose:
    by: str = "elder"
    ways: tuple[str, ...] = ("name",)
    on_defer: str | None = None
    first_hand: FirstHand | None = None
    delegate: Delegate | None = None


@dataclass(frozen=True, slots=True)
class Kitty:
    """What a contract does with the kitty: shown to everyone, taken into the declarer's hand
    (who then discards as many cards). Neither: it stays unseen."""

    shown: bool = False
    taken: bool = False


@dataclass(frozen=True, slots=True)
class PartnerCall:
    """The card a contract's declarer calls to find his partner (`contracts.<id>.call`): one of
    ``cards`` (card names, or a set of `deck.card_sets`), or of an ``otherwise`` tier (a ladder of
    fallbacks) when he holds every card of ``cards`` and of the tiers before it; ``must_hold_suit``: only while he holds a card of its suit that is not a
    trump; ``own``: calling a card he holds is ``forbidden``, or he plays ``alone``. Its duties in the
    play, each until a trick of its suit has been led: ``plays_when_led``, its holder must play it to
    a trick whose led suit is its suit; ``leads_it_first``, he leads no other card of its suit before
    it, unless he holds ``runs_away_with`` cards of the suit or more (0: never); ``kept_until_led``, he
    does not discard it on a trick of another suit; ``caller_keeps_suit``, the declarer does not discard
    a card of its suit on a trick of another suit (each bar lifted when it would leave no card).
    ``when``: the call is made once the kitty is dealt with (``after_kitty``) or as soon as the
    contract is fixed (``before_kitty``). ``if_none``: a seat with no card to call may not bid the
    contract (``may_not_bid``), or may, and plays alone (``alone``); a declarer left with nothing to
    call when the call comes plays alone either way. ``alone_by_choice``: he may also call nobody and
    play alone, which everyone learns then."""

    cards: tuple[str, ...] | str
    must_hold_suit: bool = False
    own: str = "forbidden"  # forbidden | alone
    otherwise: tuple[tuple[str, ...] | str, ...] = ()  # the fallback tiers, in order
    plays_when_led: bool = False
    leads_it_first: bool = False
    runs_away_with: int = 0
    kept_until_led: bool = False
    caller_keeps_suit: bool = False
    when: str = "after_kitty"  # after_kitty | before_kitty
    if_none: str = "may_not_bid"  # may_not_bid | alone
    alone_by_choice: bool = False

    @property
    def bars(self) -> bool:
        """Whether a duty keeps a card back until the called suit is led (all but `plays_when_led`)."""
        return self.leads_it_first or self.kept_until_led or self.caller_keeps_suit


@dataclass(frozen=True, slots=True)
class Discard:
    """What the declarer may discard after taking the kitty, as card classes ((kind, id) pairs,
    kind rank | suit | set | card): never, only as a last resort, and which discards are shown."""

    never: tuple[tuple[str, str], ...] = ()
    last_resort: tuple[tuple[str, str], ...] = ()
    shown: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PartnerByTrick:
    """A declarer's partner found by play: the first other seat to win one of the first ``within``
    tricks (any, ``trump_led`` or ``plain_led``) joins him; none: he plays alone."""

    within: int
    tricks: str = "any"  # any | trump_led | plain_led


@dataclass(frozen=True, slots=True)
class Contract:
    """What a trump choice picks: a trump (``named`` by the chooser, ``none``, ``promoted``: only the
    promoted cards, ``all_suits``: every suit played as the trump suit is, or a suit id), the card
    order and points under it, and the multiplier the hand counts with."""

    id: str
    name: str
    trump: str = "named"
    enabled: bool = True
    ranks: tuple[str, ...] | None = None  # plain order high to low; None: deck.ranks
    points: Mapping[str, int] | None = None  # merged over deck.points
    trump_points: Mapping[str, int] | None = None  # merged over deck.trump_points (or deck.points)
    multiplier: int | Mapping[str, int] = 1  # a number, or per trump suit id (absent suits: 1)
    aside_counts_for: str = "nobody"  # nobody | declarer | opponents | last_trick: the cards nobody plays
    kitty: Kitty = Kitty()  # what happens to the kitty once this contract is fixed
    call: PartnerCall | None = None  # the declarer calls a card whose holder partners him
    promoted: tuple[str, ...] | None = None  # the deck's promoted cards that are top trumps here, in order; None: all
    bidder_holds: tuple[str, ...] = ()  # bid only by a seat dealt every copy of these cards
    partner_by_trick: PartnerByTrick | None = None  # the first other seat to win an early trick partners him
    offered_when: str | None = None  # the declarer may pick it (in a trump he names) only where this holds
    sits_out: str | None = None  # partners: the declarer's partners sit the hand out (a contract played alone)
    bid_values: tuple[int, ...] = ()  # procedure open: the values it may be bid at (); () every value
    shows_hand: bool = False  # the declarer's cards lie face up for everyone, each until played

    def multiplier_for(self, suit: str | None) -> int:
        """The multiplier when ``suit`` is trump (None: no trump)."""
        if isinstance(self.multiplier, int):
            return self.multiplier
        return self.multiplier.get(suit, 1) if suit is not None else 1


@dataclass(frozen=True, slots=True)
class Auction:
    """Bidding for a contract: each seat once, from `first`, a contract of `ladder` above the last bid
    (procedure ``once``); or numbers of ``values`` bid two players at a time (``pairs``), the survivor
    declaring at the last value and then picking the contract, after taking or leaving the kitty when
    ``kitty`` is ``declarer_decides``; or numbers bid round the table by the seats still in (``rounds``),
    a pass leaving the bidding for good, the last seat left declaring as in pairs; or round and round
    (``open``), each bid a value with a trump suit, until all the others pass after the last bid, which
    ``doubling`` lets its opponents double."""

    ladder: tuple[str, ...] = ()
    # the rung of each ladder contract, lowest 0: a bid must be on a higher rung than the last (equal
    # contracts share a rung, written as a list in the ladder); () with no ladder
    rungs: tuple[int, ...] = ()
    first: str = "elder"
    procedure: str = "once"  # once | pairs | rounds | open
    values: tuple[int, ...] = ()  # pairs, rounds, open: the numbers that may be bid, lowest first
    doubling: tuple[int, ...] = ()  # open, pairs, rounds: the levels the last bid may be doubled to, in order (2, 4)
    kitty: str = "by_contract"  # by_contract | declarer_decides (pairs, rounds)
    double_out_of_turn: bool = False  # open: the last bid's opponents are asked to double after each call too
    outbid: str = "value"  # open: a bid names a higher value (value), or the same value in a higher strain too
    double_ends_bidding: bool = True  # open: a double closes the bidding (else it is a call, the bidding goes on)
    pass_is_final: bool = False  # open: a seat that passes is out of the bidding for good
    laps: int = 0  # rounds: the most times a seat speaks (the bidding then ends); 0: as often as needed
    dealer_holds: bool = False  # rounds: the dealer may bid the standing value again, taking the bid over
    declarer: str = "last_bidder"  # open: last_bidder | first_to_name_strain (of the last bidder's side)
    # on_all_pass: {contract: id}: the contract played, with no declarer and every seat for itself, when every
    # seat passes; None (on_all_pass: redeal): the deal is thrown in
    all_pass_contract: str | None = None
    # on_all_pass: {side_card: card}: the holders of that card play together in it, hidden until revealed,
    # against the rest (as players.sides: card_holders); None: every seat for itself
    all_pass_side_card: str | None = None
    # on_all_pass: last_seat_declares (procedure rounds): every seat before the last passed without a bid, so
    # the last is not asked and declares at the lowest value ("stick the dealer")
    last_seat_declares: bool = False


@dataclass(frozen=True, slots=True)
class Trump:
    method: str
    offer: Offer | None = None
    choose: Choose | None = None
    maker_after_fallback: str = "none"
    auction: Auction | None = None
    drawn: tuple[str, ...] = ()  # method drawn: the suits the draw may give, each equally likely (ids)


@dataclass(frozen=True, slots=True)
class Follow:
    led_suit: str = "follow_or_trump"
    when_void: str = "any"
    head: str = "never"
    head_when_trumped: bool = False
    overtrump: str = "never"
    undertrump: str = "allowed"
    exempt: tuple[str, ...] = ()
    when_partner_winning: str = "as_usual"  # free: a void player under a partner's winning card plays any card


@dataclass(frozen=True, slots=True)
class EqualCards:
    """Which of two equal cards (copies, `deck.copies`) in one trick wins (`play.equal_cards`):
    ``wins`` first or second (each later copy overtaking the one before), for ``cards`` (empty:
    every card; the others: the first played), and ``last_trick`` the same in the hand's last trick."""

    wins: str = "first"
    cards: tuple[str, ...] = ()
    last_trick: str = "first"


@dataclass(frozen=True, slots=True)
class Play:
    first_lead: str
    follow: Follow
    trick_winner: str = "highest_trump"
    last_trick_points: int = 0
    lead_once_broken: tuple[tuple[str, str], ...] = ()  # card classes led only once one was played, or alone held
    first_lead_card: str | None = None  # its holder leads it to the first trick
    not_on_first_trick: tuple[tuple[str, str], ...] = ()  # card classes kept off the first trick while others may go
    no_called_suit_first_lead: str | None = None  # everyone | declarer: whose first lead may not open the called suit
    equal_cards: EqualCards | None = None  # which of two equal cards wins a trick; None: the first played
    dummy: str | None = None  # declarer_partner: the declarer plays his partner's cards, shown after the opening lead
    draw: Draw | None = None  # hands refilled from the stock after each trick (`play.draw`); None: no drawing
    stop_when: str | None = None  # read after each trick: when it holds, the hand stops there (`play.stop_when`)


@dataclass(frozen=True, slots=True)
class Draw:
    """Drawing from the stock after each trick (`play.draw`): while cards are left to draw, each seat in
    play, the trick's winner first, takes ``cards`` from the stock's top; the card turned up from the
    stock and left on the table lies under it, drawn last. ``follow_obligations``: ``always`` (the
    `play.follow` rules bind every trick) or ``once_stock_empty`` (any card may be played while cards
    are left to draw)."""

    cards: int = 1
    order: str = "trick_winner_first"
    follow_obligations: str = "always"
    exchange: tuple[DrawExchange, ...] = ()  # trades for the turned card under the stock, by its rank; (): none
    while_stock: Follow | None = None  # with once_stock_empty, what binds while cards are left to draw; None: nothing


@dataclass(frozen=True, slots=True)
class DrawExchange:
    """`play.draw.exchange`: the holder of ``card`` (a card name, or rank + ``T`` for the trump suit's) may,
    on his turn to lead, trade it for the turned card under the stock while the stock holds at least
    ``min_stock`` cards, the turned card included."""

    card: str
    min_stock: int = 2
    needs_trick: bool = False  # only a player who has won a trick in the hand may trade
    turned: tuple[str, ...] = ()  # the turned card's ranks it is offered for; (): any


@dataclass(frozen=True, slots=True)
class ExchangeTable:
    """One trade of `play.draw.exchange` compiled: trump + 1 -> the card traded (-1: none under that trump),
    the turned cards it is offered for (a mask), the fewest cards the stock must hold, and whether only a
    seat that has won a trick may trade."""

    cards: tuple[Card, ...]
    turned: CardMask
    min_stock: int
    needs_trick: bool


@dataclass(frozen=True, slots=True)
class Bids:
    """Bids of a number of tricks (the `bids` section): each seat in turn from the elder, once
    trump is fixed and before the first lead; ``highest`` left out in the YAML is resolved at
    compile time to the tricks of a hand."""

    highest: int
    lowest: int = 0
    may_total_tricks: bool = True  # False: the last bidder may not make the bids add up to the tricks
    blind: int = -1  # `blind.bid`: the tricks a bid made before looking at one's cards says (-1: no blind bid)
    blind_when: str | None = None  # `blind.when`: which seats may bid blind (None: every seat)
    # `blind.when` compiled, read with the seat and its team bound (None: every seat may)
    blind_when_fn: Callable[[Any], object] | None = field(default=None, compare=False, repr=False)
    exchange: int = 0  # `blind_exchange.cards`: a blind bidder and his partner exchange this many cards (0: none)
    exchange_first: str = "partner"  # `blind_exchange.first`: partner | bidder, who gives first


@dataclass(frozen=True, slots=True)
class Passing:
    """Cards passed before play (the `passing` section): each seat gives ``cards`` cards to the
    seat ``to`` names for the hand (``to[hand % len(to)]``: next, previous, across or none)."""

    cards: int
    to: tuple[str, ...] = ("next",)

    def offset(self, hand: int, nseats: int) -> int:
        """How many seats on, in the order of play, each seat passes to in the game's ``hand``-th
        hand (counted from 0); 0: nobody passes."""
        way = self.to[hand % len(self.to)]
        return 1 if way == "next" else nseats - 1 if way == "previous" else nseats // 2 if way == "across" else 0


@dataclass(frozen=True, slots=True)
class DealCheck:
    """A dealt hand that annuls the deal: holding all of ``holds``, none of ``lacks``, and per
    ``counts`` entry (a suit id or a card-set name, min, max) that many of those cards."""

    id: str
    name: str
    holds: tuple[str, ...] = ()
    lacks: tuple[str, ...] = ()
    counts: tuple[tuple[str, str, int, int | None], ...] = ()  # ("suit" | "set", id, min, max)


@dataclass(frozen=True, slots=True)
class CardRole:
    """Cards that play by rules of their own (the `card_roles` section)."""

    id: str
    cards: tuple[str, ...]
    play_anytime: bool = False
    wins: str = "normally"  # normally | never | never_except_sweep | always (above every card; the first played of such)
    when_led: str = "normal"  # normal | next_card_sets_suit
    kept_by_owner: bool = False
    compensation: int | Fraction = 0
    on_last_trick: str = "kept"  # changes_sides | to_trick_winner | kept


@dataclass(frozen=True, slots=True)
class Announcement:
    """One announcement: in trick 1 by a card's holder (``holder_of``), in answer to another
    (``after``, ``by`` opponents or partners), or by the declarer before the first lead (``by:
    declarer``, which with ``leads`` gives him the first lead when made, and with ``sits_out:
    partners`` sends his partners out of the hand's play)."""

    id: str
    name: str
    holder_of: str | None = None
    after: str | None = None
    by: str | None = None
    leads: bool = False
    sits_out: str | None = None  # partners: once made, the announcer's partners sit the rest of the hand out
    shows_hand: bool = False  # once made, the announcer's cards are face up for everyone until played
    offered_when: str | None = None  # a declarer's announcement is put to him only when this expression holds
    # made by a seat for its side (maker: the maker's side; opponents: the other), on any of its turns beside
    # its card; it tells the table the announcer's side
    for_side: str | None = None
    before_card: int | None = None  # with for_side: offered only before the announcer plays this card (1 = his first;
    # 0: only in reply to one of reply_to)
    reply_to: tuple[str, ...] = ()  # with for_side: once one of these (the other side's) was made, one card later than it
    before_lead: bool = False  # with for_side: asked of every seat once, before the first lead, not beside the cards
    after_declarer: bool = False  # with for_side: only a seat after the declarer in the auction's order from the elder
    implies: str | None = None  # with for_side: making it makes this one (of its side) too, when not yet made
    # with by: leader: once made no more cards are drawn (`play.draw`), the follow rules binding at once;
    # offered only while the stock holds at least min_stock cards (the turned card included)
    closes_stock: bool = False
    min_stock: int = 1
    # with by: leader: once made the hand ends at once, the cards not played counting for nobody; the scoring
    # judges it (a claim: Schnapsen's going out, a false claim losing)
    ends_hand: bool = False


@dataclass(frozen=True, slots=True)
class DeclarationPattern:
    """One pattern of a declaration as written: a run, N of a rank, given cards, or N cards of a set.

    Exactly one shape is set: ``run`` (that many cards in sequence in one suit), ``same_rank``
    (``count`` cards of one of these ranks), ``cards`` (all of these cards; ``KT`` is the
    trump king) or ``of`` (``at_least`` cards of this set; ``trump`` stands for the trump suit).
    """

    value: int
    run: int | None = None
    same_rank: tuple[str, ...] = ()
    count: int | None = None
    cards: tuple[str, ...] = ()
    of: tuple[str, ...] = ()
    at_least: int | None = None
    name: str | None = None
    stand_in: tuple[str, ...] = ()  # with `of`, declared before the first play: cards counted only when needed
    copies: int = 1  # with `cards` or `same_rank` in a pack of copies: copies of each card needed (double pinochle: 2)

    @property
    def shape(self) -> str:
        """run, same_rank, cards or of: the key that says what the pattern matches."""
        if self.run is not None:
            return "run"
        if self.same_rank:
            return "same_rank"
        if self.cards:
            return "cards"
        return "of"


@dataclass(frozen=True, slots=True)
class Declaration:
    """A kind of declaration (meld): its patterns, when it is made, who keeps its points."""

    id: str
    name: str
    patterns: tuple[DeclarationPattern, ...]
    description: str = ""
    when: str = "first_play"
    optional: bool = False  # the holder decides (offered beside his cards: on his first turn, or on a lead after a trick won)
    shown: bool = False
    run_order: tuple[str, ...] | None = None
    disjoint: bool = True
    award: str = "always"
    compare: tuple[str, ...] = ("value", "length", "top", "trump")
    tie: str = "earliest_seat"
    void_if_opponents_take_all: bool = False
    scope: str = "hand"  # hand: a seat's own cards; trick: each trick's cards, kept by its winner's side


@dataclass(frozen=True, slots=True)
class Outcome:
    compare: str = "points"
    maker_needs: int | None = None
    gap: str = "no_score"
    maker_wins: str | None = None  # an expression: the maker's side wins when it holds, else the opponents
    winner: str | None = None  # an expression naming the team that wins the hand (`none`: a tie)


@dataclass(frozen=True, slots=True)
class Scoresheet:
    start: int
    goal: int
    direction: str
    display: str = "numbers"
    tie_carry: str = "none"
    tie_mark: bool = False
    tie_next_dealer: str = "next"
    pass_carry: str = "none"
    when_both_reach: str = "furthest_past"  # or first_by_rule_order
    at_goal: str = "wins"  # or ends_game: reaching the goal ends the game, the team furthest from it winning
    deals: int | None = None  # a game of this many deals, the best total winning (no race to the goal)
    ends_when: str = ""  # an expression: the game also ends after a hand where it holds, the best total winning
    won_by: str = ""  # with ends_when: a team expression, the game's winner when ends_when ends it (else the best total)
    passed_out_deals: str = "counted"  # or redealt: the same dealer deals again, and the deal is not one of the game's

    def lower_is_better(self) -> bool:
        """Whether a team is better off with a lower value: counting down (to a goal, or the best total
        of a number of deals), or counting up to a goal that ends the game for the furthest from it."""
        return (self.direction == "down") != (self.at_goal == "ends_game" and not self.races_to_no_goal())

    def races_to_no_goal(self) -> bool:
        """Whether the game ends by its number of deals or by `ends_when`, the best total winning,
        rather than at the goal."""
        return bool(self.deals or self.ends_when)


@dataclass(frozen=True, slots=True)
class ScoringRule:
    """One scoring rule as written, with its expressions compiled to closures over HandFacts."""

    name: str
    when: str
    team: str
    delta: int | str
    tie_scaled: bool
    when_fn: Callable[[Any], object] = field(compare=False, repr=False)
    team_fn: Callable[[Any], object] = field(compare=False, repr=False)
    delta_fn: Callable[[Any], object] = field(compare=False, repr=False)
    reads: frozenset[str] = field(default=frozenset(), compare=False)  # HandFacts fields the expressions read
    for_each: str = ""  # "team" / "seat": applied to every team / seat in turn (its expressions name it `team` / `seat`)


@dataclass(frozen=True)
class Tally:
    """A running count each team keeps beside its score (the `tallies` section): after a hand's
    scoring rules every team's tally grows by ``adds`` (a `for_each: team` expression). Then
    either each time it reaches ``every`` it drops by ``every`` and ``delta`` goes to the team's
    score, or (a pot, ``to`` set) after a hand where ``when`` holds every team's tally goes to
    the score of the team ``to`` names, and all start again from 0, or (neither) it pays nothing
    and is a count the expressions read (`tally(team, "name")`). After a hand where
    ``clears_when`` holds every team's count goes back to 0."""

    name: str
    description: str
    adds: int | str
    every: int  # 0 for a pot
    delta: int
    adds_fn: Callable[[Any], object] = field(compare=False, repr=False)
    reads: frozenset[str] = field(default=frozenset(), compare=False)  # HandFacts fields the expressions read
    to: str = ""  # a pot's payee (a team expression); "" for a tally paying every so many
    when: str | bool = "decided"
    pays: ScoringRule | None = field(default=None, compare=False, repr=False)  # `when` and `to` compiled as a rule's
    clears_when: str | bool = False
    clears: ScoringRule | None = field(default=None, compare=False, repr=False)  # `clears_when` compiled as a rule's `when`

    @property
    def is_pot(self) -> bool:
        return bool(self.to)


@dataclass(frozen=True, slots=True)
class Session:
    games_to_win: int = 1
    game_name: str = "game"  # what players call a won game (e.g. "cow"), for the rulebook


@dataclass(frozen=True, slots=True)
class Limits:
    max_hands: int = 500
    max_games: int = 100  # per session
    max_redeals_in_a_row: int = 50


@dataclass(frozen=True, slots=True)
class TrumpContext:
    """Card facts under one trump suit (``trump`` -1: none) and one set of promoted cards.

    Promoted cards are moved into the trump suit: ``suit_mask``/``card_suit`` say which
    suit a card *counts as* for following and winning. ``strength[led][card]`` orders a
    trick (trumps above the led suit above 0 for the rest); ``above[card]`` is the mask of
    cards of the same effective suit that beat it (heading and overtrumping are one ``&``).
    ``legal`` is the follow rule specialised for this context (see engine.follow).
    """

    trump: int
    promoted: CardMask
    suit_mask: tuple[CardMask, ...]
    trump_mask: CardMask
    card_suit: tuple[int, ...]
    strength: tuple[tuple[int, ...], ...]
    above: tuple[CardMask, ...]
    points: tuple[int, ...]
    exempt: CardMask
    follow_masks: tuple[Any, ...] | None  # engine.follow.FollowMasks when the rule is masks alone, else None
    legal: Callable[[int, int, int, int], int] = field(compare=False, repr=False)
    open_lead: CardMask = 0  # led, these cards let the next card set the suit (card roles)
    all_suits: bool = False  # no trump suit, every suit played as trumps (`trump: all_suits`): led, followed as trumps
    # `play.equal_cards`: card -> the copies of it it beats played after them (empty: the first of equals wins),
    # in every trick but the last, and in the last
    later_beats: tuple[CardMask, ...] = ()
    later_beats_last: tuple[CardMask, ...] = ()
    # `play.draw.while_stock` specialised for this context (engine.follow), what binds while cards are left to
    # draw; None: any card then
    legal_while_stock: Callable[[int, int, int, int], int] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class DealPrefix:
    """The decision-free start of one dealer's deal plan, resolved to pack positions.

    Each ``quads`` entry (seat, a, b, c, d) gives that seat the cards at pack positions a, b,
    c and d (a seat's positions four at a time, the last group padded by repeating a
    position: a card's bit or-ed twice is still one card); ``ups`` lists the positions shown
    face up, in order, with their holder (a seat, or None for a card turned up from the
    stock); ``stock`` is the stock's (start, stop) slice of the pack once its turned-up
    cards left it; ``stop`` is the index of the first op left for the interpreter.
    """

    stop: int
    quads: tuple[tuple[int, int, int, int, int], ...]
    stock: tuple[int, int] | None
    ups: tuple[tuple[int, int | None], ...]


@dataclass(frozen=True, slots=True)
class Tables:
    """Everything the engine precomputes once per compiled ruleset."""

    contexts: tuple[TrumpContext, ...]  # index: (trump + 1) << len(promotion_cards) | promoted bits
    promotion_cards: tuple[Card, ...]  # bit i of a context's promotion set promotes this card (-1: one that depends on trump)
    promotion_by: tuple[int, ...]  # announcement index that sets bit i, or -1 (always promoted)
    card_bit: tuple[CardMask, ...]  # card -> its mask bit
    team_of: tuple[Team, ...]  # seat -> team (its scoresheet value; the side it plays on with fixed teams)
    next_seat: tuple[int, ...]  # seat -> the seat that plays after it
    rounds: tuple[tuple[int, ...], ...]  # seat -> every seat in play order, starting with it
    # plan_index(hand, dealer) -> deal ops with seats resolved (the dealer alone with fixed hand sizes)
    deal_plans: tuple[tuple[tuple[Any, ...], ...], ...]
    holder_cards: tuple[Card, ...]  # announcement index -> card its holder must hold, or -1
    asked_in_deal: tuple[bool, ...]  # announcement index -> asked of every seat by a deal step (`announce`)
    followups: tuple[tuple[int, ...], ...]  # announcement index -> announcements offered after it
    followers: tuple[tuple[int, ...], ...]  # seat -> the other seats in play order after it
    suit_of: tuple[int, ...]  # card -> its printed suit
    always_promoted: int  # promotion bits in force from the deal on (promotions without an announcement)
    deal_prefixes: tuple[DealPrefix | None, ...]  # plan index -> the decision-free start of its deal plan
    deal_suffixes: tuple[DealPrefix | None, ...]  # plan index -> the rest after the prefix's decision, when static
    # packets to the declarer (`to: declarer`): plan index -> declarer seat -> the whole plan for him; empty without
    declarer_plans: tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...]
    static_deals: bool  # every deal plan is static: its prefix, then at most one decision and a static rest
    # card points inside the engine are counted in 1/point_unit of a point (2 for half points), always ints
    point_unit: int
    fixed_trump: int  # the deck's permanent trump suit, or -1
    card_sets: Mapping[str, CardMask]  # deck.card_sets as masks (those naming trump cards, `AT`, left out)
    roles: Any  # engine.roles.RoleTables, or None without card roles
    reads_tricks: bool  # scoring reads the cards won or the tricks (count, in_last_trick, last_trick_winner, in_trick...)
    reads_seats: bool  # scoring reads a seat (`for_each: seat`, seat_tricks, seat_bid, team_of)
    reads_held: bool  # scoring reads the cards the sides or seats held at the start of play (held, seat_held)
    reads_top_runs: bool  # scoring reads the sides' runs of top trumps (top_run)
    reads_card_keys: bool  # scoring reads the hand's card order (holder_of_highest and its kin)
    # deal checks as (holds, lacks, ((mask, min, max), ...)) masks; a hand matching one annuls the deal
    deal_checks: tuple[tuple[CardMask, CardMask, tuple[tuple[CardMask, int, int], ...]], ...]
    # the outcome and scoring sections as one closure (engine.hand.make_score_hand)
    score_hand: Callable[..., Any] = field(compare=False, repr=False)
    # what follows a scored hand: the next hand or game, the session's end, a limit (engine.hand.make_settle)
    settle: Callable[..., Any] = field(compare=False, repr=False)
    # declaration index -> engine.declarations.DeclarationTable (pattern masks, run lookups, award rule)
    declarations: tuple[Any, ...] = ()
    trick_melds: tuple[Any, ...] = ()  # the declarations of `scope: trick`: searched in each trick as it ends
    led_melds: tuple[Any, ...] = ()  # the declarations of `when: led`: searched in the leader's hand at each lead
    led_watch: tuple[CardMask, ...] = ()  # trump + 1 (engine.declarations.meld_trump) -> the cards of led melds
    won_melds: tuple[Any, ...] = ()  # the declarations of `when: trick_won`: searched in a trick winner's hand as he leads
    led_offered: tuple[Any, ...] = ()  # the optional declarations of `when: led`: offered to the leader beside his cards
    # `play.stop_when` compiled: read on the facts after each trick, the hand stopping where it holds
    stop_when: Callable[[Any], object] | None = field(default=None, compare=False, repr=False)
    stop_reads_won: bool = False  # `play.stop_when` reads the cards taken so far (count())

    # contracts (all empty/-1 without a `contracts` section: one family of contexts, multiplier 1)
    contract_base: tuple[int, ...] = ()  # contract index -> offset of its family of contexts
    # contract index -> its fixed trump suit, -1 none (until the first lead under trump: first_lead), NAMED_TRUMP named
    contract_trump: tuple[int, ...] = ()
    contract_multipliers: tuple[tuple[int, ...], ...] = ()  # contract index -> multiplier by trump + 1
    named_contract: int = -1  # the enabled contract whose trump the chooser names (name actions), or -1
    fixed_contracts: tuple[int, ...] = ()  # contract action j -> contract index (enabled, trump not named)
    # the contract played when every seat passes the auction (trump.auction.on_all_pass), or -1: never offered
    # to a declarer, so neither named_contract nor among fixed_contracts
    all_pass_contract: int = -1
    auction_ladder: tuple[int, ...] = ()  # trump.auction's ladder, lowest first, as contract action offsets j
    auction_rungs: tuple[int, ...] = ()  # ladder position -> its rung (equal contracts share one; a bid climbs)
    auction_values: tuple[int, ...] = ()  # trump.auction's values (procedures pairs, rounds, open), BID n the n-th
    auction_rounds: bool = False  # procedure rounds: the values bid round the table, a pass out for good
    kitty_choice: bool = False  # trump.auction.kitty: declarer_decides (take or leave it before the contract)
    auction_suits: int = 0  # procedure open: the strains a bid names (BID n*auction_suits + s); 0 otherwise
    # procedure open: strain s -> (contract index or -1 without contracts, its trump suit or -1): the suits
    # first (under the contract of trump: named), then the other enabled contracts
    auction_strains: tuple[tuple[int, int], ...] = ()
    open_barred: frozenset[int] = frozenset()  # procedure open: the bids (value * strains + strain) not allowed
    all_suits: tuple[bool, ...] = ()  # contract index -> trump: all_suits (every suit played as trumps)
    lead_trump: tuple[bool, ...] = ()  # contract index -> trump: first_lead (no trump until the first card led fixes it)
    doubling: tuple[int, ...] = ()  # the levels a bid may be doubled to (DOUBLE: the last BID action, double_offset)
    first_hand_card: int = -1  # whose holder chooses on a game's first hand, or -1
    # sides per hand (players.sides other than teams): declarer seat -> seat -> side (0: the declarer's);
    # empty with fixed teams, whose sides are team_of
    declarer_sides: tuple[tuple[int, ...], ...] = ()
    nsides: int = 2  # sides a hand is played by (points and tricks are counted per side)
    start_sides: tuple[int, ...] = ()  # seat -> side when a deal starts (team_of, or any declarer's sides)
    # players.sides: card_holders: the copies of the side card (its holders are side 0, the maker's); 0 otherwise.
    # Those sides are hidden: a seat's view shows another seat's side only once it is known (GameState.sides_known_to)
    side_cards: CardMask = 0
    # trump.auction.on_all_pass: {side_card}: the same, in the hand everyone passed into (0: each seat for itself)
    all_pass_side_cards: CardMask = 0
    # contract index -> (within, tricks) of its partner_by_trick, None without; () when no contract has one
    partner_tricks: tuple[tuple[int, str] | None, ...] = ()
    # contract index -> the cards (every copy) a seat must hold to bid it, 0 for none; () when no contract says
    bidder_holds: tuple[CardMask, ...] = ()
    # contract index -> engine.call.CallTable of its `call` (None without one); () when no contract has a call.
    # The called card's holder joins the declarer, hidden until it is played (GameState.sides_known_to)
    calls: tuple[Any, ...] = ()
    reads_trick_values: bool = False  # the scoring reads `captured` or `tricks_worth` (each trick's takers and points)
    # announcements or optional declarations: a seat may be offered one beside its cards in trick 1
    first_trick_offers: bool = False
    declarer_offers: tuple[int, ...] = ()  # announcements (`by: declarer`) put to the declarer before the first lead
    leading: tuple[int, ...] = ()  # announcements whose announcer leads the first trick (`leads`)
    sends_partners_out: tuple[int, ...] = ()  # announcements whose announcer's partners sit the hand out (`sits_out`)
    shows_hand: tuple[int, ...] = ()  # announcements whose announcer lays his cards face up (`shows_hand`)
    # announcement index -> `offered_when` compiled (a closure over HandFacts), or None; () when none has one
    offered_when: tuple[Callable[[Any], object] | None, ...] = ()
    # contract index -> its `offered_when` compiled (a closure over HandFacts), or None; () when none has one
    contract_offered: tuple[Callable[[Any], object] | None, ...] = ()
    # announcements made by a seat for its side (`for_side`): (index, side relative to the maker (0 his, 1
    # the other), last card count before which it is offered (before_card, a large number without, 0 only in reply),
    # reply_to indices, implied index or -1); () without any
    side_offers: tuple[tuple[int, int, int, tuple[int, ...], int], ...] = ()
    side_deadlines: tuple[int, ...] = ()  # announcement index -> its before_card with for_side (else -1); () without
    side_implies: tuple[int, ...] = ()  # announcement index -> the one it implies, or -1; () without
    # announcements for a side asked of every seat before the first lead (`before_lead`), by index; () without
    lead_asks: tuple[int, ...] = ()
    # announcements the seat to lead may make beside its cards before any lead (`by: leader`): (index, the fewest
    # cards the stock must hold: 0 for one that does not close it); () without any
    leader_offers: tuple[tuple[int, int], ...] = ()
    stock_closers: int = 0  # bit a: announcement a closes the stock (`closes_stock`)
    hand_enders: int = 0  # bit a: announcement a ends the hand once made (`ends_hand`: a claim)
    # cards that, turned up (`if_turned` of a turn_up step), leave the hand without trump, or let the dealer name it
    turned_no_trump: int = 0
    turned_named: int = 0
    # the hand's score reads only what every seat sees by its end (no cards held, no top run, no hidden melds,
    # kitty or sides): what judges a claim when it is made, so greedy may judge one on the state itself
    scored_in_sight: bool = True
    # whether anything may be offered to the seat about to lead (the trade for the turned card, the leader's
    # announcements, a trick winner's declarations): the one test the end of a trick pays
    lead_offers: bool = False
    after_declarer_only: int = 0  # bit a: announcement a only for a seat after the declarer (`after_declarer`)
    # engine.kitty.KittyTables (per contract shown/taken, discard masks), None when nobody ever discards
    # (no kitty step, no offered card taken)
    kitty: Any = None
    unbroken: CardMask = 0  # play.lead_once_broken: led only once one of them was played in the hand, or alone held
    first_lead_card: Card = -1  # play.first_lead_card: its holder leads it to the first trick
    first_trick_barred: CardMask = 0  # play.not_on_first_trick: not played to the first trick while another card may be
    # follow.when_partner_winning: free: a void player plays any card while a partner's card wins a plain-suit trick
    partner_free: bool = False
    play_rules: bool = False  # any of the four above: the legal cards are not the follow closure's alone
    # `play.draw`: cards each seat draws from the stock after a trick (0: no drawing), and whether any card
    # may be played while cards are left to draw (`follow_obligations: once_stock_empty`)
    draw: int = 0
    free_while_stock: bool = False
    # `play.draw.exchange`: the trades for the turned card, in order (the first whose `turned` ranks take the
    # turned card is offered); () without one
    exchanges: tuple[ExchangeTable, ...] = ()

    # a schedule of hand sizes (a packet that changes from hand to hand): the deal plans repeat every
    # deal_cycle hands of a game; hand_tricks gives each of those hands' tricks (the cards a seat is dealt)
    deal_cycle: int = 1
    hand_tricks: tuple[int, ...] = (0,)
    # a turn-up that some hand's deal leaves no card for (`if_stock_empty: no_trump`): that hand has no trump
    turns_nothing: bool = False

    def plan_index(self, hand: int, dealer: int) -> int:
        """Where the game's ``hand``-th hand (from 0) dealt by ``dealer`` finds its deal plan, prefix and suffix."""
        return dealer if self.deal_cycle == 1 else hand % self.deal_cycle * len(self.next_seat) + dealer

    @property
    def sides_per_hand(self) -> bool:
        """Whether the sides change from hand to hand (a declarer against the rest, or the holders of a
        card against the rest), each seat keeping its own score."""
        return bool(self.declarer_sides or self.side_cards)

    @property
    def double_offset(self) -> int:
        """Where DOUBLE sits in the BID range (`trump.auction.doubling`): after every value (and suit) bid."""
        return len(self.auction_values) * (self.auction_suits or 1)

    def tricks_of(self, hand: int) -> int:
        """The tricks of the game's ``hand``-th hand (from 0): the cards each seat is dealt."""
        return self.hand_tricks[hand % self.deal_cycle]

    def context(self, trump: int, promoted_bits: int, contract_base: int = 0) -> TrumpContext:
        return self.contexts[contract_base + (((trump + 1) << len(self.promotion_cards)) | promoted_bits)]


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name: str
    description: str
    sources: tuple[Source, ...]
    options: Mapping[str, OptionSpec]
    players: Players
    dealer: Dealer
    deck: Deck
    deal: tuple[DealStep, ...]
    trump: Trump
    play: Play
    announcements: tuple[Announcement, ...]
    outcome: Outcome
    scoresheet: Scoresheet
    scoring: tuple[ScoringRule, ...]
    session: Session
    limits: Limits
    layout: DeckLayout = field(repr=False)
    tables: Tables = field(repr=False, compare=False)
    declarations: tuple[Declaration, ...] = ()
    # whole random games in one closure (engine.rollout.make_rollout), None when not eligible
    rollout: Callable[..., Any] | None = field(default=None, repr=False, compare=False)
    contracts: tuple[Contract, ...] = ()
    # the `define` section in evaluation order (each after the definitions it uses)
    definitions: tuple[Definition, ...] = ()
    card_roles: tuple[CardRole, ...] = ()
    deal_checks: tuple[DealCheck, ...] = ()
    readings: tuple[Reading, ...] = ()
    discard: Discard | None = None  # the `discard` section (rulesets with a kitty)
    bids: Bids | None = None  # the `bids` section: each seat bids a number of tricks before play
    tallies: tuple[Tally, ...] = ()  # the `tallies` section: running counts paying out every so many
    passing: Passing | None = None  # the `passing` section: cards passed before play

    @property
    def pass_cards(self) -> int:
        """How many cards a seat that passes gives: `passing.cards`, or a blind bid's exchange
        (`bids.blind_exchange.cards`); 0 where nobody passes."""
        if self.passing is not None:
            return self.passing.cards
        return self.bids.exchange if self.bids is not None else 0

    def pass_offset(self, hand: int) -> int:
        """How many seats on, in the order of play, a seat that passes gives to in the game's ``hand``-th
        hand (from 0): `passing.to`'s, or across the table to the partner for a blind bid's exchange
        (whoever takes part in it); 0 where nobody passes."""
        n = self.players.count
        if self.passing is not None:
            return self.passing.offset(hand, n)
        return n // 2 if self.pass_cards else 0

    def option_values(self) -> dict[str, Any]:
        """Effective option values by name (what `option(name)` sees)."""
        return {name: spec.value for name, spec in self.options.items()}
