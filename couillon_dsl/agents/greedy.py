"""A rule-of-thumb player that works for any ruleset, from the trump context's tables alone.

Cards: win the trick as cheaply as possible when the opponents hold it, shed the least
valuable card otherwise, give points to a partner who is sure to win, and lead a master
card (one no unseen card of its suit beats) when holding one. Where the scoring makes tricks
and card points cost their taker (:func:`avoids_tricks`: penalty cards), the reverse: duck
under the winning card, shed the costliest card on another's trick, lead the card most likely
to lose. Where the seats bid tricks (`bids`), greedy bids what its hand's trick value makes
best for its side by the scoring (:func:`bid_for`) and plays to win tricks until its side has
its bid, then to lose them if the scoring makes a trick over the bid cost (:func:`wants_tricks`).
A bid before looking at its cards (`bids.blind`) is weighed from the view alone (:func:`blind_or_look`).
Where a trick's cards form melds (`scope: trick`), the last card to a trick gives its side's
trick the most of them and an opponent's the least, before the card points.
After taking a kitty, discard by the same measure, from short suits first. A declarer's
undertaking (`by: declarer`, a chelem) is announced only with a hand that cannot lose a trick:
its payoff is the ruleset's scoring, which greedy does not weigh, so it takes on only what
cannot fail; the same holds for one that sends the partners out (`sits_out`, going alone): the
hand alone must be sure to take every trick, where the scoring pays most for it and a partner
adds nothing. An announcement for its side (`for_side`, and the chain of higher ones after it) is
made when the side's estimated card points (:func:`side_announcement`: the hand's trick value, the
partners' fair share of the rest, an estimate that runs high) clear half the points in play by a
fifth of them for the first announcement of a chain, and by another fifth for each announcement it
implies: measured where the sides are hidden until their cards are played (the example of a pack of copies),
about a quarter of the seats announce the first of a chain, and win about two hands in three, a sixth
more than the others.

Trump: a turned-up card is taken when the side's chance of making the hand clears the
break-even the ruleset's own scoring sets (:class:`MakerBar`: a made hand's gain against a
beaten maker's loss). The chance comes from the hand's trick value (:func:`trick_value`:
trumps, and cards at most one unseen card beats) and the side's fair share of what the
unseen cards take, as a normal approximation of the tricks won; a card a seat will take
into its hand (`offer.taken_by`) counts for that seat's side (:func:`offered_value`). Trump is named (or shown)
in the suit in which the hand is strongest, or left to a deferral when that strength falls
short of half the hand. With `contracts` or a push allowed, every choice is valued in its
own trump context (:func:`hand_value`): the best one is picked, or the choice is pushed
when even the best is weak; an auction bid needs the same value, a trick more per rung.
An open auction's bid (`procedure: open`) is the one of best expected outcome by the compiled scoring
(:func:`bid_worth_most`), when it beats passing: the break-even of a made bid's gain against a failed
one's cost, a partner's bid of a strain read as strength in it.
A contract that may be doubled (`trump.auction.doubling`) is doubled when the points the
doubler's hand is sure of leave its makers short of what it needs, and redoubled when its
side's estimate clears that by a margin: what it needs is read from the compiled outcome
(:func:`points_needed`), which makes it the bid where an auction's values are card points and
the outcome's own count where they are what the game is worth.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from couillon_dsl.cards import iter_bits
from couillon_dsl.engine.bidding import side_bids
from couillon_dsl.engine.declarations import meld_trump
from couillon_dsl.engine.roles import OPEN_LEAD, later_copy_wins, led_and_winner
from couillon_dsl.engine.scoring import card_keys, top_run
from couillon_dsl.kernel.eligible import hand_size
from couillon_dsl.model import NAMED_TRUMP

if TYPE_CHECKING:
    from couillon_dsl.engine import GameState
    from couillon_dsl.engine.hand import HandScore
    from couillon_dsl.engine.roles import RoleTables
    from couillon_dsl.model import Ruleset, Tables, TrumpContext


def suit_strength(ruleset: Ruleset, hand: int, suit: int) -> float:
    """Cards of ``suit`` in ``hand``, plus half a card for each of the top third of the ranks: the suit to name."""
    layout = ruleset.layout
    honours = max(1, len(layout.ranks) // 3)
    mask = hand & layout.suit_mask(suit)
    return sum(1.0 + (0.5 if layout.rank_of(c) < honours else 0.0) for c in iter_bits(mask))


def shed_key(ctx: TrumpContext, card: int) -> tuple[bool, int, int]:
    """Least valuable first: non-trumps, then fewer points, then lower in its suit."""
    return (bool(ctx.trump_mask >> card & 1), ctx.points[card], ctx.strength[ctx.card_suit[card]][card])


def dense_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Each key's place among the distinct keys, ascending: comparing places is comparing keys,
    equal keys included (so ``min``/``max`` pick the same card either way)."""
    order = {key: place for place, key in enumerate(sorted(set(keys)))}
    return tuple(order[key] for key in keys)


class CardOrders(NamedTuple):
    """Greedy's card preferences under one trump context, each a card -> rank table, so a choice
    is one ``min``/``max`` over the legal cards with a tuple's ``__getitem__`` as key."""

    shed: tuple[int, ...]  # shed_key's order
    worth: tuple[int, ...]  # the order of (trump, points): shed_key without the strength
    cheap_win: tuple[tuple[int, ...], ...]  # led suit -> the order of (strength, points): the cheapest winner
    feed: tuple[tuple[int, ...], ...]  # led suit -> the order of (not trump, points, -strength): most to give


_ORDERS: dict[int, tuple[TrumpContext, CardOrders]] = {}  # id(context) -> (the context, kept alive; its orders)


def orders_of(ctx: TrumpContext) -> CardOrders:
    """The card orders of ``ctx``, built on first use (contexts are immutable and few per ruleset)."""
    known = _ORDERS.get(id(ctx))
    if known is not None and known[0] is ctx:
        return known[1]
    cards = range(len(ctx.points))
    points = ctx.points
    trump = [bool(ctx.trump_mask >> c & 1) for c in cards]
    orders = CardOrders(
        dense_ranks([shed_key(ctx, c) for c in cards]),
        dense_ranks([(trump[c], points[c]) for c in cards]),
        tuple(dense_ranks([(st[c], points[c]) for c in cards]) for st in ctx.strength),
        tuple(dense_ranks([(not trump[c], points[c], -st[c]) for c in cards]) for st in ctx.strength))
    _ORDERS[id(ctx)] = (ctx, orders)
    return orders


def follow(ctx: TrumpContext, side_of: Sequence[int], seat: int, order: Sequence[int], cards: Sequence[int],
           legal: Sequence[int], melds: Callable[[int], int] | None = None, last_trick: bool = False) -> int:
    """The card to add to the trick, ``cards`` so far in play order, ``order`` the seats that play to
    it (seats sitting the hand out left out): cheapest winner, else cheapest card. ``side_of`` gives
    each seat's side in this hand (who is a partner). ``melds`` (the last card of a trick whose
    cards form melds, `scope: trick`): what the trick's melds are worth with each card; the seat
    gives the most to its side's trick (a partner's, or its own with any winning card) and the
    least to an opponent's, before anything else. ``last_trick``: the hand's last (`play.equal_cards`)."""
    orders = orders_of(ctx)
    led, best_card = led_and_winner(ctx, cards, last_trick)
    suit = ctx.card_suit[best_card] if led == OPEN_LEAD else led  # after an open lead: any
    strength = ctx.strength[suit]
    if side_of[order[cards.index(best_card)]] == side_of[seat]:
        if len(cards) == len(order) - 1:  # the partner wins: give it the most points a non-trump can add
            feed = orders.feed[suit]
            return max(legal, key=(lambda c: (melds(c), feed[c])) if melds else feed.__getitem__)
        return min(legal, key=orders.shed.__getitem__)
    best = strength[best_card]
    winners = [c for c in legal if strength[c] > best or later_copy_wins(ctx, c, best_card, last_trick)]
    if winners:
        cheap = orders.cheap_win[suit]
        return min(winners, key=(lambda c: (-melds(c), cheap[c])) if melds else cheap.__getitem__)
    shed = orders.shed
    return min(legal, key=(lambda c: (melds(c), shed[c])) if melds else shed.__getitem__)


def trick_melds_worth(state: GameState, cards: Sequence[int]) -> Callable[[int], int] | None:
    """What the melds of the trick (`scope: trick`) would be worth with each card added as its
    last, or None when the ruleset has none or the trick will have more cards."""
    tables = state.ruleset.tables.trick_melds
    if not tables or len(cards) != len(state.play_order(state.current_trick()[0])) - 1:
        return None
    trump = state.meld_trump
    trick = sum(1 << card for card in cards)
    return lambda card: sum(m.value for table in tables for m in table.melds(trick | 1 << card, trump, 0))


def led_melds_worth(state: GameState, hand: int) -> Callable[[int], int] | None:
    """What leading each card of ``hand`` declares (`when: led` melds), or None when it declares nothing."""
    tables = state.ruleset.tables.led_melds
    if not tables:
        return None
    trump = state.meld_trump
    found = [m for table in tables for m in table.melds(hand, trump, 0)]
    return (lambda card: sum(m.value for m in found if m.cards >> card & 1)) if found else None


def duck(ctx: TrumpContext, side_of: Sequence[int], seat: int, order: Sequence[int], cards: Sequence[int],
         legal: Sequence[int], last_trick: bool = False) -> int:
    """``follow`` where tricks cost their taker: the costliest card that loses the trick (the most
    points, then the highest: the top card under the winner, or the worst card to hold when it
    cannot follow); when the seat's side takes the trick whatever it plays, the cheapest; when
    every card wins, the lowest if a later seat may still overtake it, else the highest without
    points."""
    orders = orders_of(ctx)
    led, best_card = led_and_winner(ctx, cards)
    suit = ctx.card_suit[best_card] if led == OPEN_LEAD else led
    strength = ctx.strength[suit]
    last = len(cards) == len(order) - 1
    if last and side_of[order[cards.index(best_card)]] == side_of[seat]:
        return min(legal, key=orders.shed.__getitem__)
    best = strength[best_card]
    losers = [c for c in legal if strength[c] <= best and not later_copy_wins(ctx, c, best_card, last_trick)]
    if losers:
        return max(losers, key=orders.shed.__getitem__)
    if not last:
        return min(legal, key=orders.cheap_win[suit].__getitem__)
    points = ctx.points
    return max(legal, key=lambda c: (-points[c], strength[c]))


def lead_low(ctx: TrumpContext, legal: Sequence[int], elsewhere: int) -> int:
    """``lead`` where tricks cost their taker: the card most unseen cards beat (``elsewhere``), then
    the fewest points, then the lowest."""
    above, points = ctx.above, ctx.points
    shed = orders_of(ctx).shed
    return max(legal, key=lambda c: ((above[c] & elsewhere).bit_count(), -points[c], -shed[c]))


def lead(ctx: TrumpContext, legal: Sequence[int], elsewhere: int) -> int:
    """The card to lead: a master (no card in ``elsewhere`` beats it), plain before trump, else the cheapest."""
    above = ctx.above
    masters = [c for c in legal if not above[c] & elsewhere]
    if masters:
        trumps = ctx.trump_mask
        plain = [c for c in masters if not trumps >> c & 1]
        # the best-scoring plain master; else a master trump, which draws the opponents' trumps
        return max(plain or masters, key=ctx.points.__getitem__)
    return min(legal, key=orders_of(ctx).shed.__getitem__)


def discard(ctx: TrumpContext, hand: int, legal: Sequence[int]) -> int:
    """The card to discard after taking the kitty: a non-trump before a trump, then the fewest
    points, then from the shortest suit (voids to trump in later), then the lowest."""
    suit_mask = ctx.suit_mask
    card_suit = ctx.card_suit
    orders = orders_of(ctx)
    worth, shed = orders.worth, orders.shed

    def key(card: int) -> tuple[int, int, int]:  # shed_key with the suit's length before the strength
        return worth[card], (hand & suit_mask[card_suit[card]]).bit_count(), shed[card]
    return min(legal, key=key)


def give(ctx: TrumpContext, hand: int, legal: Sequence[int], avoiding: bool) -> int:
    """The card to pass before play: where tricks cost their taker, the worst card to hold (the
    most points, then the highest); else the card it would discard (:func:`discard`)."""
    if avoiding:
        return max(legal, key=orders_of(ctx).shed.__getitem__)
    return discard(ctx, hand, legal)


def call(ctx: TrumpContext, hand: int, legal: Sequence[int]) -> int:
    """The card to call for a partner (`contracts.<id>.call`): one it does not hold (calling its own card
    plays alone, `own: alone`), of the suit the hand is shortest in, counting its plain cards (the
    partner's card then wins that suit's lead early), then the lowest."""
    def length(card: int) -> tuple[int, int, int]:
        return hand >> card & 1, (hand & ctx.suit_mask[ctx.card_suit[card]] & ~ctx.trump_mask).bit_count(), card
    return min(legal, key=length)


def nil_exchange(ctx: TrumpContext, legal: Sequence[int], nil: bool) -> int:
    """A card passed between a seat that bid nothing and its partner (a blind bid's exchange): the nil
    bidder gives the card likeliest to take a trick (the fewest cards of its suit above it, a trump
    first); its partner the one least likely to (the most cards above it, a plain card first), which
    the nil bidder can hold safely."""
    trumps, above = ctx.trump_mask, ctx.above
    if nil:
        return min(legal, key=lambda c: (above[c].bit_count(), not trumps >> c & 1, c))
    return max(legal, key=lambda c: (not trumps >> c & 1, above[c].bit_count(), c))


STRONG_START = 0.75  # an announcement asked during the deal (a knock): the share of top cards among those dealt


def strong_start(rs: Ruleset, hand: int) -> bool:
    """Whether the cards dealt so far are strong enough to double the stakes before the contract is known
    (`by: each_seat`): at least ``STRONG_START`` of them promoted cards or the top card of their suit, which
    rank high in any contract (three such cards among a first packet of four)."""
    layout = rs.layout
    top = sum(1 << c for c in rs.tables.promotion_cards if c >= 0)
    top |= sum(1 << c for c in iter_bits(hand) if layout.rank_of(c) == 0)
    return (hand & top).bit_count() >= STRONG_START * hand.bit_count()


def cannot_lose_a_trick(ctx: TrumpContext, hand: int, roles: RoleTables | None) -> bool:
    """Whether no card outside ``hand`` can beat any card of it: each card is the best left of its
    suit, a plain card only when no trump is outside (nobody can trump it), and a card that never
    wins only if it may complete a sweep (one such card, kept for the last trick). Leading from
    such a hand takes every trick, so a declarer undertakes to (a chelem, a Schwarz) only then."""
    outside = ~hand
    trumps_out = ctx.trump_mask & outside
    never = roles.never_wins if roles is not None else 0
    sweepers = hand & roles.sweep if roles is not None else 0
    if sweepers.bit_count() > 1 or hand & never & ~sweepers:
        return False
    return all(not ctx.above[card] & outside and (ctx.trump_mask >> card & 1 or not trumps_out)
               for card in iter_bits(hand & ~never))


def played_cards(state: GameState) -> int:
    """The cards played so far in this deal, as a mask (public: every seat saw them)."""
    played = 0
    for _, cards, _ in state.finished_tricks():
        for card in cards:
            played |= 1 << card
    for card in state.current_trick()[1]:
        played |= 1 << card
    return played


def trades_up(state: GameState) -> bool:
    """Whether the seat to lead gains by trading its exchange card for the turned card (`play.draw.exchange`):
    the turned card beats it in a trick of its suit, or counts more."""
    ctx, card, turned = state.context, state.exchange_card(), state.turned_card()
    strength = ctx.strength[ctx.card_suit[card]]
    return (strength[turned], ctx.points[turned]) > (strength[card], ctx.points[card])


def play(state: GameState, legal: Sequence[int], played: int | None = None) -> int:
    """Greedy's card for the seat to move, from its hand and the cards on the table (``played``:
    this deal's played cards when the caller keeps them, else counted here): no seat view built."""
    ctx = state.context
    seat = state.playing_seat  # a dummy's cards are played as its own, by its declarer
    leader, cards = state.current_trick()
    avoid = avoids_tricks(state.ruleset, state.all_passed) if not state.bids else not wants_tricks(state, seat)
    if cards:
        if avoid:
            return duck(ctx, state.sides_known_to(seat), seat, state.play_order(leader), cards, legal, state.in_last_trick())
        return follow(ctx, state.sides_known_to(seat), seat, state.play_order(leader), cards, legal, trick_melds_worth(state, cards),
                      state.in_last_trick())
    hand = state.hand_of(seat)
    if state.lead_fixes_trump():  # the lead names trump: the top card of the suit worth most as trumps
        best = led_trump_context(state.ruleset, state.contract_index, hand)
        suit = best.trump
        return max((c for c in legal if best.trump_mask >> c & 1), key=best.strength[suit].__getitem__,
                   default=legal[0])
    declares = None if avoid else led_melds_worth(state, hand)
    if declares is not None:  # a meld declared by its lead: the most it is worth, by its cheapest card
        card = max(legal, key=lambda c: (declares(c), -ctx.points[c]))
        if declares(card):
            return card
    gone = hand | (played_cards(state) if played is None else played)  # cards no opponent holds
    return (lead_low if avoid else lead)(ctx, legal, ~gone)


# A hand's trick value for making trump: one pair of weights for every ruleset, multiples of 1/8
# so that a value is exact (the compiled kernel sums them to the same bit). Fitted on 160,000
# forced makes of four rulesets of the Couillon family (the maker's side winning, by maximum
# likelihood, its chance read as MakerBar reads it): about 0.6 a trump, 0.27 more for a
# master, 0.1 to 0.2 for a card beaten once; then chosen among nearby multiples of 1/8 by
# paired matches against the previous greedy on the three shipped rulesets that offer a card.
TRUMP_TRICK = 0.75  # a trump, whatever its rank: it can win a trick by ruffing or by length
HIGH_TRICK = 0.25  # more for a card at most one unseen card of its suit beats (an ace, a guarded king)
BREAK_EVEN_SPAN = (0.05, 0.95)  # the break-even chance is kept inside this span (a hand never or always made)


def trick_value(ctx: TrumpContext, hand: int, unseen: int) -> float:
    """The tricks ``hand`` may take under one trump context, ``unseen`` the cards the seat has not seen."""
    trumps = ctx.trump_mask
    value = 0.0
    for card in iter_bits(hand):
        if trumps >> card & 1:
            value += TRUMP_TRICK
        if (ctx.above[card] & unseen).bit_count() <= 1:
            value += HIGH_TRICK
    return value


def maker_hand(rs: Ruleset, tricks: int, points: int, won: int, dealt: int, contract: int = -1, trump: int = -1,
               each_alone: bool = False, **facts: Any) -> HandScore:
    """The compiled scoring of a hand of ``tricks`` tricks from a fresh scoresheet, seat 0 declaring
    against the others: the maker's side takes ``won`` tricks and ``points`` of the ``dealt`` card
    points, the other sides share the rest evenly; ``contract``, ``trump``, ``each_alone`` and
    ``facts`` as for :func:`maker_stakes`."""
    t = rs.tables
    if contract >= 0:
        fixed = t.contract_trump[contract]
        column = fixed + 1 if fixed != NAMED_TRUMP else trump + 1 if trump >= 0 else 1
        facts.update(contract=rs.contracts[contract].id, contract_multiplier=t.contract_multipliers[contract][column])
    n = rs.players.count
    sides = n if each_alone else rs.players.nsides
    values = (rs.scoresheet.start,) * len(rs.players.teams)
    # sides fixed per hand: seat 0 declares against the others, each seat keeping its own score
    side_of = tuple(range(n)) if each_alone else None if rs.players.sides == "teams" \
        else tuple(min(seat, 1) for seat in range(n))
    maker = None if each_alone else 0
    return t.score_hand(shared(points, dealt, sides), shared(won, tricks, sides), maker, n - 1, tricks, 0, 0,
                        values, (), side_of=side_of, declarer=maker, trump=trump, **facts)


def maker_stakes(rs: Ruleset, tricks: int, contract: int = -1, trump: int = -1, each_alone: bool = False,
                 **facts: Any) -> tuple[float, float]:
    """What making trump stands to gain and to lose, by the ruleset's compiled scoring, in a hand
    of ``tricks`` tricks: the maker's side's scoresheet change against the other sides' (towards
    winning: positive) in a hand it wins with two thirds of the tricks and the card points, and
    minus that in a hand it loses with one third (the other sides sharing the rest evenly),
    scored from a fresh scoresheet, under ``contract`` (an index into `contracts`; -1: none named)
    played in ``trump`` where the contract names it (-1: its first suit), with ``facts`` the
    scoring may also read (a numeric auction's `bid_value`, `kitty_taken`, `top_runs`).
    Towards winning is towards the goal, or away from it where reaching the goal ends the game for
    the furthest from it to win (`at_goal: ends_game`). ``each_alone``: a hand with no maker, each seat
    a side of its own (`on_all_pass: {contract}`), seat 0 standing for the maker's side."""
    t = rs.tables
    dealt = sum(t.contexts[0].points) * rs.players.in_play * tricks // rs.layout.size  # card points in play (units)
    sign = 1 if rs.scoresheet.lower_is_better() else -1
    changes = []
    for share in (2 / 3, 1 / 3):
        won = min(max(round(tricks * share), 1), tricks - 1) if tricks > 1 else round(share)
        deltas = maker_hand(rs, tricks, round(dealt * share), won, dealt, contract, trump, each_alone, **facts).deltas
        others = [d for team, d in enumerate(deltas) if team != 0]
        changes.append(sign * (sum(others) / len(others) - deltas[0]))
    return changes[0], -changes[1]


_PAYS: dict[tuple[int, int, int], tuple[Ruleset, bool]] = {}  # (id(ruleset), tricks, contract) -> tricks_pay


def tricks_pay(rs: Ruleset, tricks: int, contract: int) -> bool:
    """Whether the maker's tricks and points are worth more than nothing under ``contract``, by the
    compiled scoring (:func:`maker_stakes` gains more with two thirds than it loses with one third):
    a contract won by losing every trick is not one greedy's play can make."""
    key = (id(rs), tricks, contract)
    known = _PAYS.get(key)
    if known is None or known[0] is not rs:
        if len(_PAYS) > 1024:
            _PAYS.clear()
        known = _PAYS[key] = (rs, sum(maker_stakes(rs, tricks, contract)) > 0)
    return known[1]


def shared(first: int, total: int, sides: int) -> tuple[int, ...]:
    """``first`` of ``total`` to the first side, the rest shared as evenly as whole numbers allow."""
    rest, left = divmod(total - first, sides - 1)
    return (first, *(rest + (side < left) for side in range(sides - 1)))


_MISSING = object()


class RulesetMemo:
    """What greedy works out from a ruleset's compiled scoring, remembered per ruleset and arguments:
    an entry keeps its ruleset alive, so the ruleset's id in the key is never another's while it is
    remembered; at ``limit`` entries the memo starts over."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self._known: dict[tuple[Any, ...], tuple[Ruleset, Any]] = {}

    def get(self, rs: Ruleset, key: tuple[Any, ...]) -> Any:
        """The value remembered for ``rs`` and ``key``, or ``_MISSING``."""
        known = self._known.get((id(rs), *key))
        return known[1] if known is not None and known[0] is rs else _MISSING

    def put(self, rs: Ruleset, key: tuple[Any, ...], value: Any) -> Any:
        """Remember ``value`` for ``rs`` and ``key``; ``value``."""
        if len(self._known) >= self.limit:
            self._known.clear()
        self._known[(id(rs), *key)] = (rs, value)
        return value


_AVOIDS = RulesetMemo()  # (each seat alone) -> avoids_tricks
_CHANGE = RulesetMemo(65536)  # see side_change
_OVER = RulesetMemo()  # (tricks, bids, side) -> over_bid_costs
_MELDS = RulesetMemo(65536)  # (cards, contract, trump) -> own_melds: a seat's hand is asked of at every bid


def wants_tricks(state: GameState, seat: int) -> bool:
    """Whether ``seat`` plays to win tricks in a game of bids: never where the scoring makes a
    trick of its own cost more than its partner's (a bid of nothing scored apart); else while
    its side has fewer than it bid, and after that only if the scoring pays for a trick over the
    bid (public facts only)."""
    sides = state.sides_known_to(seat)
    side = sides[seat]
    bids = state.bids
    per_side = side_bids(bids, sides, max(sides) + 1)
    rs, tricks = state.ruleset, state.hand_tricks
    if rs.tables.reads_seats:
        mine = sum(winner == seat for _, _, winner in state.finished_tricks())
        made = max(per_side[side], state.trick_counts[side])
        won = min(made + 1, tricks)  # the side's next trick: taken by this seat, or by a partner
        blind = bool(state.blind_bids >> seat & 1)
        if side_change(rs, tricks, per_side, side, won, seat, bids[seat], mine + 1, blind) \
                < side_change(rs, tricks, per_side, side, won, seat, bids[seat], mine, blind):
            return False
    if state.trick_counts[side] < per_side[side]:
        return True
    return not over_bid_costs(rs, tricks, per_side, side)


def over_bid_costs(rs: Ruleset, tricks: int, bids: tuple[int, ...], side: int) -> bool:
    """Whether, by the compiled scoring, ``side`` ends a hand of ``tricks`` tricks worse off taking
    one trick more than its bid than taking its bid (the other sides sharing the rest), from a
    fresh scoresheet."""
    if bids[side] >= tricks:
        return False
    key = (tricks, bids, side)
    known = _OVER.get(rs, key)
    if known is not _MISSING:
        return bool(known)
    return bool(_OVER.put(rs, key, side_change(rs, tricks, bids, side, bids[side] + 1)
                          < side_change(rs, tricks, bids, side, bids[side])))


def side_change(rs: Ruleset, tricks: int, bids: tuple[int, ...], side: int, won: int, seat: int = -1,
                seat_bid: int = -1, seat_won: int = 0, blind: bool = False) -> float:
    """``side``'s scoresheet change towards winning, from a fresh scoresheet, in a hand of ``tricks``
    tricks it ends with ``won`` of them (the other sides sharing the rest) and the sides' ``bids``; with ``seat``
    (one of the side's, fixed teams), that seat bid ``seat_bid`` (``blind``: before looking at its cards) and
    took ``seat_won`` of them,
    for scoring that reads a seat. Remembered: a bid weighs a dozen numbers by a dozen outcomes,
    and the sampler asks for greedy's bids in every world it reads. A tally's count is priced at
    its payout's share (Spades' bag at -100 / 10), whatever the count already stands at; a pot's
    is not (a later hand says whose it is)."""
    key = (tricks, bids, side, won, seat, seat_bid, seat_won, blind)
    known = _CHANGE.get(rs, key)
    if known is not _MISSING:
        return float(known)
    n, nsides = rs.players.count, len(bids)
    share = list(shared(won, tricks, nsides))
    share.insert(side, share.pop(0))
    side_of = None if rs.players.sides == "teams" else tuple(min(s, 1) for s in range(n))
    seats = range(n) if seat >= 0 and side_of is None else range(0)
    score = rs.tables.score_hand((0,) * nsides, tuple(share), None, n - 1, tricks, 0, 0,
                                 (rs.scoresheet.start,) * len(rs.players.teams), (), side_of=side_of, bids=bids,
                                 seat_tricks=tuple(seat_won if s == seat else 0 for s in seats),
                                 seat_bids=tuple(seat_bid if s == seat else -1 for s in seats),
                                 seat_blinds=tuple(blind and s == seat for s in seats) if blind else ())
    counted = sum(counts[side] * tally.delta / tally.every  # a pot, going to a later hand's team, is not priced
                  for tally, counts in zip(rs.tallies, score.tallies) if tally.every)
    change = (-1 if rs.scoresheet.lower_is_better() else 1) * (score.deltas[side] + counted)
    return float(_CHANGE.put(rs, key, change))


_FAIR: dict[tuple[int, int, int], tuple[Ruleset, float]] = {}  # (id(ruleset), id(context), tricks) -> tricks per unit of value


def bid_for(state: GameState, hand: int, legal: Sequence[int]) -> int:
    """The bid of the best expected scoresheet change for the side, by the compiled scoring, when
    the seat's tricks follow a binomial law whose mean is its hand's trick value, scaled so that
    a dealt hand's mean value is a seat's fair share of the tricks; its partners count as taking
    what they bid (those still to bid, nothing either way)."""
    acts = state.actions
    rs, ctx = state.ruleset, state.context
    full, size = rs.layout.full_mask, state.hand_tricks
    key = (id(rs), id(ctx), size)
    known = _FAIR.get(key)
    if known is None or known[0] is not rs:  # the mean value of 256 hands dealt from a shuffled pack (seeded: repeatable)
        cards, draw = list(iter_bits(full)), random.Random(0)
        mean = sum(trick_value(ctx, sum(1 << c for c in hand_cards), full & ~sum(1 << c for c in hand_cards))
                   for hand_cards in (draw.sample(cards, size) for _ in range(256))) / 256
        if len(_FAIR) > 256:
            _FAIR.clear()
        known = _FAIR[key] = (rs, size / rs.players.in_play / mean if mean else 0.0)
    chance = min(1.0, trick_value(ctx, hand, full & ~hand) * known[1] / size)
    expected = bid_values(state, chance)
    return max(legal, key=lambda a: (expected(a - acts.bid0), -a))


def bid_values(state: GameState, chance: float, blind: bool = False) -> Callable[[int], float]:
    """A bid's expected scoresheet change for the side of the seat to bid (``blind``: a bid made before
    looking), by the compiled scoring, when the seat's tricks follow a binomial law of ``chance``
    a trick; its partners count as taking what they bid (those still to bid, nothing either way)."""
    rs, size = state.ruleset, state.hand_tricks
    seat = state.current_player()
    sides = state.sides_known_to(seat)
    side = sides[seat]
    told = side_bids([-1 if s == seat else b for s, b in enumerate(state.bids)], sides, max(sides) + 1)
    laws = [math.comb(size, k) * chance ** k * (1 - chance) ** (size - k) for k in range(size + 1)]

    def expected(number: int) -> float:
        bids = tuple(bid + (number if team == side else 0) for team, bid in enumerate(told))
        return sum(p * side_change(rs, size, bids, side, min(size, k + told[side]), seat, number, k, blind)
                   for k, p in enumerate(laws) if p > 1e-6)
    return expected


def blind_or_look(state: GameState) -> int:
    """Bid blind (ACCEPT) or look at the cards first (PASS), from what the seat knows: no card of its
    own. A hand not yet seen is worth a fair share of the tricks (a trick in ``count`` for each seat), so
    greedy bids blind only where, by the compiled scoring, the blind bid's expected change for the side
    beats that of the best bid such a hand would make once seen (in Spades it never does: a blind nil
    from a fair share is made 0.75^13 = 2.4% of the time; measured after an opponent's bid of 3,
    -219.7 expected against +3.4 for the best seen bid, 3)."""
    rs, acts = state.ruleset, state.actions
    bids = rs.bids
    assert bids is not None
    chance = 1 / rs.players.in_play
    seen = bid_values(state, chance)
    best = max(seen(number) for number in range(bids.lowest, min(bids.highest, state.hand_tricks) + 1))
    return acts.accept if bid_values(state, chance, blind=True)(bids.blind) > best else acts.pass_


def avoids_tricks(rs: Ruleset, all_passed: bool = False) -> bool:
    """Whether taking tricks and card points costs their taker (games of penalty cards): by the ruleset's
    scoring, a side taking two thirds of them ends worse off than one taking a third. Greedy
    then plays to lose tricks: it ducks, and sheds its most costly cards on others' tricks.
    ``all_passed``: in the contract everyone passed into, each seat for itself (`on_all_pass`)."""
    known = _AVOIDS.get(rs, (all_passed,))
    if known is _MISSING:
        gain, loss = maker_stakes(rs, hand_size(rs), rs.tables.all_pass_contract if all_passed else -1,
                                  each_alone=all_passed and not rs.tables.all_pass_side_cards)
        known = _AVOIDS.put(rs, (all_passed,), gain + loss < 0)
    return bool(known)


def offered_value(state: GameState, seat: int, hand: int, offered: int, ctx: TrumpContext) -> tuple[float, int, float]:
    """The trick value of what ``seat``'s side would hold if it accepted ``offered``, how many of
    those cards the seat knows, and the trick value known on the other side (for
    :meth:`MakerBar.makes`). Where nobody takes the card it stays out of play: the seat's hand
    alone, the card seen. Where a seat takes it (`offer.taken_by`): taken by the seat itself,
    the hand with the card and without the card greedy would discard; by a partner, the hand
    and the card, one card more known on the side; by an opponent, the hand alone against the
    card (measured: counted only as an unseen card, the elder who ordered up made 60% of his
    hands of Euchre where 2/3 are needed)."""
    rs = state.ruleset
    offer = rs.trump.offer
    taken_by = offer.taken_by if offer is not None else None
    unseen = rs.layout.full_mask & ~hand & ~(1 << offered)
    held = hand.bit_count()
    if taken_by is None:
        return trick_value(ctx, hand, unseen), held, 0.0
    taker = state.dealer if taken_by == "dealer" else seat
    if taker == seat:
        with_card = hand | 1 << offered
        kept = with_card & ~(1 << discard(ctx, with_card, list(iter_bits(with_card))))
        return trick_value(ctx, kept, unseen), held, 0.0
    if rs.players.sides == "teams" and rs.tables.team_of[taker] == rs.tables.team_of[seat]:
        return trick_value(ctx, hand | 1 << offered, unseen), held + 1, 0.0
    return trick_value(ctx, hand, unseen), held, trick_value(ctx, 1 << offered, hand | unseen)


@dataclass(frozen=True)
class MakerBar:
    """What making trump needs in one ruleset, per seat and cards held at the decision.

    The maker's side wins when it takes more than half the ``tricks``. From the trick value
    ``v`` of the seat's known cards the side expects ``v + (tricks - v) * fair`` tricks, where
    ``fair`` is the share of the unseen cards it holds (partners' and the seat's own still to
    come): they take their fair part of what the known cards leave. The chance of more than
    half is read from a normal law of that mean and the spread of ``tricks`` even chances
    (``sqrt(tricks) / 2``); ``needed`` is the value at which it reaches ``break_even``.
    """

    break_even: float
    tricks: int
    needed: tuple[tuple[float, ...], ...]  # seat, cards held -> the trick value making needs
    fair: tuple[tuple[float, ...], ...]  # seat, cards held -> the side's share of the unseen cards

    @classmethod
    def of(cls, rs: Ruleset, tricks: int) -> MakerBar:
        """The bar in a hand of ``tricks`` tricks."""
        gain, loss = maker_stakes(rs, tricks)
        low, high = BREAK_EVEN_SPAN
        chance = min(max(loss / (gain + loss), low), high) if gain + loss > 0 else 0.5
        n, dealt = rs.players.count, rs.players.in_play * tricks  # the cards in the hands of the seats in play
        target = tricks / 2 + NormalDist().inv_cdf(chance) * math.sqrt(tricks) / 2
        needed, shares = [], []
        for seat in range(n):
            side = len(rs.players.teams[rs.tables.team_of[seat]]) if rs.players.sides == "teams" else 1
            row, share_row = [], []
            for held in range(tricks + 1):
                fair = (side * tricks - held) / (dealt - held) if dealt > held else 0.0
                row.append((target - tricks * fair) / (1.0 - fair) if fair < 1.0 else math.inf)
                share_row.append(fair)
            needed.append(tuple(row))
            shares.append(tuple(share_row))
        return cls(chance, tricks, tuple(needed), tuple(shares))

    def makes(self, value: float, seat: int, held: int, against: float = 0.0) -> bool:
        """Whether a seat holding ``held`` cards of trick value ``value`` makes trump; ``against``
        is the trick value of a card known to be on the other side (an offered card an opponent
        takes), which leaves the side's fair share that much less to take."""
        held = min(held, self.tricks)
        fair = self.fair[seat][held]
        return value - (against * fair / (1.0 - fair) if against and fair < 1.0 else 0.0) >= self.needed[seat][held]


SHARE = 0.5  # naming trump rather than deferring, or bidding, needs a strength of this share of the hand
# a game alone where passing plays the hand in pairs (`on_all_pass` with a `side_card`) needs this much more:
# passing is no throw-in but a game the hand may win with a partner (measured in docs/agents.md: 1.5 bids a
# game alone in one hand in fifty, won 53% of the time; 1 bids one in nearly every hand and loses most)
PASSED_PAIRS_MARGIN = 1.5
ALONE_SHARE = 0.75  # calling nobody (`alone_by_choice`) needs a strength of this share of the hand
PUSH_BELOW = 0.75  # push when the best contract is worth less than this share of what bidding needs


def hand_value(ctx: TrumpContext, hand: int) -> float:
    """Tricks a hand may take under one contract: a card no unseen card of its suit beats counts 1,
    one beaten by a single unseen card counts a half, and every trump a half more; a plain card
    counts a quarter less where trumps exist (it may be trumped)."""
    value = 0.0
    trumps = ctx.trump_mask
    above = ctx.above
    outside = ~hand
    for card in iter_bits(hand):
        beaters = (above[card] & outside).bit_count()
        trump = trumps >> card & 1
        value += (1.0 if beaters == 0 else 0.5 if beaters == 1 else 0.0) * (0.75 if trumps and not trump else 1.0) \
            + (0.5 if trump else 0.0)
    return value


ANNOUNCE_MARGIN = 0.2  # an announcement for its side: the share of the points in play its estimate must clear, past half


def claim_wins(state: GameState, action: int) -> bool:
    """Whether the claim ``action`` (an announcement that `ends_hand`) wins the hand for the seat's team if made
    now: the hand ended there moves the team's score past every other team's (`GameState.claim_deltas`). Judged on
    the state itself only where the hand's score reads nothing hidden from the seat (`scored_in_sight`: a claim
    is then true or false on what the table has seen); elsewhere greedy never claims."""
    if not state.ruleset.tables.scored_in_sight:
        return False
    rs = state.ruleset
    team = rs.tables.team_of[state.current_player()]
    sign = -1 if rs.scoresheet.lower_is_better() else 1
    deltas = [sign * d for d in state.claim_deltas(action)]
    return deltas[team] > max((d for t, d in enumerate(deltas) if t != team), default=0)


def side_announcement(state: GameState, seat: int, offered: Sequence[int]) -> int | None:
    """Of the announcements for its side ``offered`` to ``seat`` (announcement indices), the one that
    implies the most others among those whose bar its side's estimated card points clear, else None.
    The estimate: the hand's trick value (:func:`hand_value`) and a fair share of the rest for the
    partners an even split of the seats gives it; the bar: half the points in play and
    ``ANNOUNCE_MARGIN`` of them for the announcement and for each one it implies (every further
    announcement raises the bar its side must reach)."""
    rs = state.ruleset
    implies = rs.tables.side_implies
    ctx = state.context
    hand = state.hand_of(seat)
    left = hand.bit_count()
    if not left:
        return None
    seats = len(state.play_order(seat))
    partners = seats / rs.tables.nsides - 1
    value = min(float(left), hand_value(ctx, hand))
    share = (value + (left - value) * partners / (seats - 1)) / left
    best, best_depth = None, -1
    for a in offered:
        depth, b = 0, implies[a]
        while b >= 0:
            depth, b = depth + 1, implies[b]
        if share >= 0.5 + ANNOUNCE_MARGIN * (depth + 1) and depth > best_depth:
            best, best_depth = a, depth
    return best


def choice_context(state: GameState, action: int, hand: int) -> TrumpContext | None:
    """The trump context a contract choice (`name SUIT` or `contract ID`) would put in force, else None;
    under a contract whose first lead fixes trump, the one ``hand``'s holder would lead into."""
    acts = state.actions
    t = state.ruleset.tables
    if acts.name0 <= action < acts.show0:
        base = t.contract_base[t.named_contract] if t.named_contract >= 0 else 0
        return t.context(action - acts.name0, t.always_promoted, base)
    if 0 <= acts.contract0 <= action < acts.contract_end:
        contract = t.fixed_contracts[action - acts.contract0]
        if t.lead_trump[contract]:
            return led_trump_context(state.ruleset, contract, hand)
        return t.context(t.contract_trump[contract], t.always_promoted, t.contract_base[contract])
    return None


def led_trump_context(rs: Ruleset, contract: int, hand: int) -> TrumpContext:
    """Under ``contract``, whose first lead fixes trump (`trump: first_lead`), the trump context of the
    suit ``hand`` would take most tricks in (:func:`hand_value`): the suit its holder leads to fix it."""
    t = rs.tables
    plain = t.context(-1, t.always_promoted, t.contract_base[contract])
    held = [suit for suit in range(len(rs.layout.suits)) if hand & plain.suit_mask[suit]] or [0]
    contexts = [t.context(suit, t.always_promoted, t.contract_base[contract]) for suit in held]
    return max(contexts, key=lambda ctx: hand_value(ctx, hand))


def chosen_contract(state: GameState, action: int) -> int:
    """The contract a choice picks (`name SUIT`: the named contract; `contract ID`: that one)."""
    t, acts = state.ruleset.tables, state.actions
    return t.named_contract if action < acts.show0 else t.fixed_contracts[action - acts.contract0]


def playable_choices(state: GameState, actions: Sequence[int], hand: int) -> list[tuple[TrumpContext, int]]:
    """The contract choices among ``actions`` (`name SUIT`, `contract ID`) with the trump context each
    puts in force for ``hand``, less those won by losing tricks (:func:`tricks_pay`) unless every one is such."""
    choices = [(ctx, a) for a in actions if (ctx := choice_context(state, a, hand)) is not None]
    playable = [(ctx, a) for ctx, a in choices if tricks_pay(state.ruleset, state.hand_tricks, chosen_contract(state, a))]
    return playable or choices


HAND_MELDS = ("first_play", "before_first_play", "before_first_lead", "last_card_played")  # found as dealt


def own_melds(rs: Ruleset, cards: int, contract: int, trump: int) -> tuple[tuple[int, ...], ...]:
    """Per declaration kind, per side, what the melds of ``cards`` are worth to their holder's side (side 0)
    played under ``contract`` in ``trump``: the melds a bid may count on before a card is played (kinds
    found in the hand as dealt and declared whatever the holder does), the partners' unknown, none."""
    if not rs.tables.declarations:
        return ()
    key = (cards, contract, trump)
    known = _MELDS.get(rs, key)
    if known is not _MISSING:
        return known
    zeros = (0,) * (rs.players.nsides - 1)
    trump = meld_trump(rs, contract, trump)
    return _MELDS.put(rs, key, tuple((sum(m.value for m in table.melds(cards, trump, 0)) if table.when in HAND_MELDS
                                      and not table.per_trick and not table.optional else 0, *zeros)
                                     for table in rs.tables.declarations))


def worth_the_bid(state: GameState, action: int, ctx: TrumpContext, cards: int, value: int, taken: bool) -> bool:
    """Whether the choice ``action`` (context ``ctx``), won with two thirds of the tricks and points,
    scores for its maker at the numeric bid ``value``, by the compiled scoring, with what the seat
    knows: whether it took the kitty, its run of top trumps among its own ``cards`` (a game worth
    less than the bid loses however it is played, Skat's overbid) and its melds (Pinochle's count
    towards the bid)."""
    acts, rs = state.actions, state.ruleset
    contract = chosen_contract(state, action)
    # a suit named, or the one the maker would lead to fix trump (`trump: first_lead`)
    trump = action - acts.name0 if action < acts.show0 else ctx.trump if rs.tables.lead_trump[contract] else -1
    gain, _ = maker_stakes(rs, state.hand_tricks, contract, trump, bid_value=value,
                           declared=own_melds(rs, cards, contract, trump),
                           kitty_taken=taken, top_runs=(top_run(ctx, cards), 0), **held_by_maker(rs, ctx, cards))
    return gain > 0


def held_by_maker(rs: Ruleset, ctx: TrumpContext, cards: int) -> dict[str, Any]:
    """The cards held, as the compiled scoring reads them (`held()`, `holder_of_highest` ...), in a hand
    valued from one seat's view at its worst: seat 0, the maker, holds ``cards``, and the first seat of
    another side every card it has not seen (All Fours' High to the maker only with the highest trump
    still out); none where the scoring reads none."""
    t = rs.tables
    if not t.reads_card_keys and not t.reads_held:
        return {}
    unseen = rs.layout.full_mask & ~cards
    other = next((seat for seat in range(rs.players.count) if t.team_of[seat] != t.team_of[0]), 1)
    seat_held = tuple(cards if seat == 0 else unseen if seat == other else 0 for seat in range(rs.players.count))
    return {"held": (cards, unseen) + (0,) * (rs.players.nsides - 2), "seat_held": seat_held,
            "card_keys": card_keys(ctx)}


POINTS_CAUTION = 0.8  # a redouble's estimate of its side's points: this share of the even split's tricks
DOUBLE_MARGIN = 30  # a redouble needs an estimate this many points above what the contract needs
DOUBLE_MARGIN_TRICKS = 2  # or this many tricks, where the pack counts no points

_NEEDS = RulesetMemo()  # (tricks, contract, trump, bid) -> points_needed


def points_needed(rs: Ruleset, ctx: TrumpContext, tricks: int, contract: int, trump: int, bid: int) -> float:
    """The fewest card points the maker's side must take for the compiled outcome to give it the hand
    played at the numeric bid ``bid``, under ``contract`` (-1: none named) in ``trump`` (-1: its first
    suit): its tricks in proportion to its points, the rest to the other sides shared evenly. Where an
    auction's values are the card points the maker must take this is the bid (a tie of points may
    lose, as the outcome says); where they are what the game is worth, the points its outcome asks
    whatever the bid. What the seat cannot know of the maker's hand is given it at its best: the
    fewest points with no run of top trumps or a run of every trump, the kitty taken or not (a maker is
    taken not to have overbid). Infinite where no count of points makes it (a contract of every trick
    is short of it with any fewer). Where the pack counts no points, the fewest tricks."""
    key = (tricks, contract, trump, bid)
    known = _NEEDS.get(rs, key)
    if known is not _MISSING:
        return float(known)
    t = rs.tables
    dealt = points_in_play(rs, ctx) * rs.players.in_play * tricks // rs.layout.size
    total = dealt or tricks  # no points: counted in tricks

    def makes(points: int, run: int, taken: bool) -> bool:
        won = tricks * points // total if dealt else points  # every trick only with every point
        return maker_hand(rs, tricks, points if dealt else 0, won, dealt, contract, trump, bid_value=bid,
                          kitty_taken=taken, top_runs=(run, 0)).winner == 0

    need = math.inf
    runs = sorted({0, ctx.trump_mask.bit_count() if t.reads_top_runs else 0})  # none, or every trump
    for run in runs:
        for taken in (False, True):
            most = total if need > total else int(need) - 1  # fewer than the fewest found so far
            if most >= 0 and makes(most, run, taken):
                low, high = 0, most  # the fewest points that make it, the outcome taken to grow with them
                while low < high:
                    middle = (low + high) // 2
                    low, high = (low, middle) if makes(middle, run, taken) else (middle + 1, high)
                need = low
    return float(_NEEDS.put(rs, key, need))


def side_points(state: GameState, seat: int, ctx: TrumpContext, hand: int, caution: float = POINTS_CAUTION,
                alone: bool = False) -> float:
    """The card points ``seat``'s side may take under ``ctx``: the tricks of its ``hand``
    (:func:`hand_value`) and, unless ``alone``, its partners' fair share of the rest, as a share of
    the points in play (:func:`measure`), times ``caution``."""
    rs = state.ruleset
    ntricks = state.hand_tricks
    sides = state.sides_known_to(seat)
    playing = state.play_order(seat)  # the seats in play, this one first
    partners = 0 if alone else sum(1 for s in playing[1:] if sides[s] == sides[seat])
    tricks = min(float(ntricks), hand_value(ctx, hand))
    share = tricks + (ntricks - tricks) * partners / (len(playing) - 1)
    return caution * measure(rs, ctx, ntricks) * share / ntricks


def measure(rs: Ruleset, ctx: TrumpContext, tricks: int) -> int:
    """What an open auction's estimates count: the card points in play, or the ``tricks`` where the pack
    counts no points (a bid is then judged by the tricks it needs)."""
    return points_in_play(rs, ctx) or tricks


def points_in_play(rs: Ruleset, ctx: TrumpContext) -> int:
    """The card points of a hand under ``ctx``, the last trick's bonus included."""
    return sum(ctx.points[c] for c in iter_bits(rs.layout.full_mask)) + rs.play.last_trick_points


def strain_context(t: Tables, strain: int) -> TrumpContext:
    """The trump context an open auction's bid naming ``strain`` (a suit, or a contract) puts in force."""
    contract, suit = t.auction_strains[strain]
    return t.context(suit, t.always_promoted, t.contract_base[contract] if contract >= 0 else 0)


def bid_open(state: GameState, seat: int, hand: int, legal: Sequence[int], promise: bool = True) -> int:
    """An open auction (`procedure: open`): the bid worth most by the scoring (:func:`bid_worth_most`);
    a double when the points its own hand is sure of leave the opponents short of what
    their contract needs; a redouble only when its side's estimate clears that by a margin. What a
    contract needs is read from the compiled outcome (:func:`points_needed`): the bid where the
    auction's values are card points, the outcome's own count where they are what the game is worth.
    A contract a pairs auction fixed is doubled by the same measure, under its own trump.
    ``promise``: the auction is opened only on a hand that holds what a bid tells (:func:`promises`)."""
    acts, rs = state.actions, state.ruleset
    t = rs.tables
    suits = t.auction_suits
    double = acts.bid0 + t.double_offset
    bid, bidder = state.auction_value, state.auction_bidder
    if bid is not None and bidder is not None:
        known = state.sides_known_to(seat)
        ours = known[bidder] == known[seat]
        if double in legal and (need := double_need(state, seat, bid)) is not None:
            ctx, points = need
            if ours:  # asked to redouble its side's bid
                margin = DOUBLE_MARGIN if points_in_play(rs, ctx) else DOUBLE_MARGIN_TRICKS
                return double if side_points(state, seat, ctx, hand) >= points + margin else acts.pass_
            # what the opponents can take at most, the tricks its own hand takes lost to them
            if measure(rs, ctx, state.hand_tricks) - side_points(state, seat, ctx, hand, 1.0, True) < points:
                return double
        if not suits:  # a contract fixed, not doubled
            return acts.pass_
    return bid_worth_most(state, seat, hand, legal, promise)


PARTNER_NAMED = 0.1  # a partner who bid a strain holds this share of the tricks more than a fair share in it
# the share of that surplus an opening bid needs the hand to hold (:func:`promises`): measured on 640 deals of four
# greedy seats, 0 passed no deal out, 0.5 0.8% of them, 0.75 3.6%, 1 13.1% (and lost 4.7 points a deal to 0)
OPENING_PROMISE = 0.75


def side_chances(state: GameState, seat: int, hand: int, strain: int) -> tuple[float, ...]:
    """Tricks won -> the chance of ``seat``'s side taking that many under an open auction's ``strain``:
    a normal law of the spread of the hand's tricks as even chances (``sqrt(tricks) / 2``, as
    :class:`MakerBar`), about the hand's tricks (:func:`hand_value`) and its partners' fair share of
    the rest; a seat who bid the strain holds :data:`PARTNER_NAMED` of the tricks more than a fair share
    in it (a partner's count for the side, an opponent's against it)."""
    ntricks = state.hand_tricks
    sides = state.sides_known_to(seat)
    playing = state.play_order(seat)  # the seats in play, this one first
    partners = sum(1 for s in playing[1:] if sides[s] == sides[seat])
    tricks = min(float(ntricks), hand_value(strain_context(state.ruleset.tables, strain), hand))
    # a seat who bid the strain holds more than a fair share in it: a partner's adds, an opponent's takes
    named = sum(1 if sides[s] == sides[seat] else -1 for s, named in state.strain_namers if named == strain and s != seat)
    mean = min(max(tricks + (ntricks - tricks) * partners / (len(playing) - 1) + named * PARTNER_NAMED * ntricks,
                   0.0), float(ntricks))
    cdf = NormalDist(mean, math.sqrt(ntricks) / 2).cdf
    below = [cdf(won + 0.5) for won in range(ntricks)] + [1.0]
    return tuple(b - a for a, b in zip([0.0, *below], below))


_OUTCOMES = RulesetMemo()  # (tricks, strain, value) -> bid_outcomes


def bid_outcomes(rs: Ruleset, tricks: int, strain: int, value: int) -> tuple[float, ...]:
    """Tricks won -> what an open auction's bid of ``value`` in ``strain`` brings its makers by the
    compiled scoring (:func:`maker_hand`; their scoresheet change against the other sides', towards
    winning), their card points in proportion to their tricks."""
    key = (tricks, strain, value)
    known = _OUTCOMES.get(rs, key)
    if known is not _MISSING:
        return tuple(known)
    t = rs.tables
    ctx = strain_context(t, strain)
    contract, trump = t.auction_strains[strain]
    dealt = points_in_play(rs, ctx) * rs.players.in_play * tricks // rs.layout.size
    sign = 1 if rs.scoresheet.lower_is_better() else -1
    values = []
    for won in range(tricks + 1):
        deltas = maker_hand(rs, tricks, dealt * won // tricks, won, dealt, contract, trump, bid_value=value).deltas
        others = [d for team, d in enumerate(deltas) if team != 0]
        values.append(sign * (sum(others) / len(others) - deltas[0]))
    return tuple(_OUTCOMES.put(rs, key, tuple(values)))


def promises(state: GameState, seat: int, hand: int, strain: int) -> bool:
    """Whether ``hand`` may open an open auction (nobody has bid) in ``strain``: a strain bid is read as
    :data:`PARTNER_NAMED` of the tricks more than a fair share in it (:func:`side_chances`), so
    the first bid needs the hand to hold a fair share and :data:`OPENING_PROMISE` of that on its
    own. Without it the first bid's chance rests on the partners' fair share of the rest, which a
    partner then counts again, reading the bid as strength: a weak hand's best of the strains beat
    a pass and no deal was passed out (measured in docs/agents.md). Once a seat has bid, passing
    is no longer a throw-in but leaves the contract to others: later bids are judged as before."""
    ntricks = state.hand_tricks
    fair = ntricks / len(state.play_order(seat))
    need = fair + OPENING_PROMISE * PARTNER_NAMED * ntricks
    return hand_value(strain_context(state.ruleset.tables, strain), hand) >= need


def bid_worth_most(state: GameState, seat: int, hand: int, legal: Sequence[int], promise: bool = True) -> int:
    """An open auction's bid: the legal bid whose expected outcome (:func:`side_chances` against
    :func:`bid_outcomes`) is the best, when it beats passing: nothing where the opponents hold the
    bid or nobody does, the same expectation of the partner's bid where its side holds it. Bidding
    is thus judged against the scoring's own break-even, what a made bid gains against what a failed
    one costs, and a partner who bid a strain makes raising it worth more than a new strain."""
    acts, rs = state.actions, state.ruleset
    t = rs.tables
    suits, values, ntricks = t.auction_suits, t.auction_values, state.hand_tricks
    chances: dict[int, tuple[float, ...]] = {}

    def worth(strain: int, value: int) -> float:
        if strain not in chances:
            chances[strain] = side_chances(state, seat, hand, strain)
        return sum(c * v for c, v in zip(chances[strain], bid_outcomes(rs, ntricks, strain, value)) if c)

    bidder, held = state.auction_bidder, state.auction_value
    sides = state.sides_known_to(seat)
    ours = bidder is not None and held is not None and sides[bidder] == sides[seat]
    best, most = acts.pass_, worth(state.auction_strain, held) if ours and held is not None else 0.0
    double = acts.bid0 + t.double_offset
    opening = promise and bidder is None
    kept: dict[int, bool] = {}  # when opening: strain -> whether the hand holds what bidding it promises
    for action in legal:
        if acts.bid0 <= action < double:
            value, strain = divmod(action - acts.bid0, suits)
            if opening and strain not in kept:
                kept[strain] = promises(state, seat, hand, strain)
            if opening and not kept[strain]:
                continue
            gain = worth(strain, values[value])
            if gain > most:
                best, most = action, gain
    return best


def double_need(state: GameState, seat: int, bid: int) -> tuple[TrumpContext, float] | None:
    """The trump context of the contract the last bid ``bid`` makes, or a pairs auction fixed, and
    the card points its makers need (:func:`points_needed`); None for a contract won by losing tricks
    (:func:`tricks_pay`), which points do not judge."""
    rs = state.ruleset
    t = rs.tables
    if state.auction_strain >= 0:  # an open auction's bid names its contract or suit
        ctx = strain_context(t, state.auction_strain)
        contract, trump = t.auction_strains[state.auction_strain]
    else:  # the contract a pairs auction fixed
        ctx = state.context
        name = state.view(seat).contract
        contract = next((i for i, c in enumerate(rs.contracts) if c.id == name), -1)
        trump = state.trump if state.trump is not None else -1
    if contract >= 0 and not tricks_pay(rs, state.hand_tricks, contract):
        return None
    return ctx, points_needed(rs, ctx, state.hand_tricks, contract, trump, bid)


class GreedyAgent:
    """Takes tricks cheaply, sheds cheaply, and makes trump when its side's chance clears the break-even."""

    name = "greedy"

    def __init__(self, promise: int = 1) -> None:
        if promise not in (0, 1):
            raise ValueError(f"promise must be 1 (an open auction opened only on a hand that holds what a bid tells) "
                             f"or 0, got {promise!r}")
        self.promise = bool(promise)
        self._bar: tuple[Ruleset, MakerBar] | None = None  # the bar of the ruleset and hand size last seen

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        if legal[0] < state.actions.ncards:
            acts = state.actions
            if legal[-1] == acts.exchange:  # the trade for the turned card, offered before the lead
                if trades_up(state):
                    return acts.exchange
                legal = legal[:-1]
            if closers := state.ruleset.tables.stock_closers:  # the stock is never closed: a gamble greedy leaves
                legal = [a for a in legal if not (0 <= a - acts.announce0 < acts.nannouncements
                                                  and closers >> (a - acts.announce0) & 1)]
            if enders := state.ruleset.tables.hand_enders:  # a claim: made as soon as it wins the hand
                claims = [a for a in legal if 0 <= a - acts.announce0 < acts.nannouncements
                          and enders >> (a - acts.announce0) & 1]
                for claim in claims:
                    if claim_wins(state, claim):
                        return claim
                legal = [a for a in legal if a not in claims]
            if len(legal) > 1 and legal[-1] >= acts.announce0:  # trick 1: what the seat's cards allow it to announce or declare
                deadlines = state.ruleset.tables.side_deadlines
                if not deadlines:
                    return legal[-1]  # promoting one's own card only helps; an optional meld is always declared
                offers = [a for a in legal if a >= acts.announce0]
                for_side = [a - acts.announce0 for a in offers if a < acts.announce0 + acts.nannouncements
                            and deadlines[a - acts.announce0] >= 0]
                others = [a for a in offers if a - acts.announce0 not in for_side]
                if others:
                    return others[-1]
                chosen = side_announcement(state, state.current_player(), for_side)
                if chosen is not None:
                    return acts.announce0 + chosen
                legal = [a for a in legal if a < acts.ncards]
            return play(state, legal)
        if state.phase == "bid" and legal[0] == state.actions.accept:  # a blind bid: its cards are not seen
            return blind_or_look(state)
        seat = state.current_player()
        # what a decision reads of the seat's view (its own cards, the card on offer), without building it
        return self._decide(state, seat, state.hand_of(seat), legal)

    # ------------------------------------------------------------------ decisions
    def maker_bar(self, rs: Ruleset, tricks: int) -> MakerBar:
        """The ruleset's bar for taking a turned-up card in a hand of ``tricks`` tricks, built once
        per ruleset and hand size."""
        if self._bar is None or self._bar[0] is not rs or self._bar[1].tricks != tricks:
            self._bar = (rs, MakerBar.of(rs, tricks))
        return self._bar[1]

    @staticmethod
    def _strong_enough(strength: float, hand: int, rs: Ruleset, solo: bool = False) -> bool:
        """Strong enough to name trump or bid: the hand's strength against its side's share of the
        tricks (``SHARE`` with fixed teams; a declarer alone needs his seats' share of a fair
        split, ``nsides / count`` of it: half the usual with one against three). ``solo``: a game
        played alone where the other games find the declarer a partner (`contracts.<id>.call`), or
        passing would (`on_all_pass` with a `side_card`), needs a whole side's share, as a pair does."""
        players = rs.players
        share = SHARE if players.sides == "teams" or solo else SHARE * players.nsides / players.in_play
        if solo and rs.tables.all_pass_side_cards:  # passing plays in pairs too, and its trumps count high
            share *= PASSED_PAIRS_MARGIN
        return strength >= share * hand.bit_count() + 0.5

    def _decide(self, state: GameState, seat: int, hand: int, legal: Sequence[int]) -> int:
        """The decision of ``seat`` holding ``hand`` among ``legal`` (no card among them)."""
        acts = state.actions
        rs = state.ruleset
        if legal[0] >= acts.call0 >= 0:  # the declarer's call: the last range before the dealer's
            nobody = acts.call0 + acts.ncards  # offered last (`alone_by_choice`): alone with a hand strong enough
            if legal[-1] == nobody and hand_value(state.context, hand) >= ALONE_SHARE * hand.bit_count():
                return nobody
            return acts.call0 + call(state.context, hand, [a - acts.call0 for a in legal if a != nobody])
        if legal[0] >= acts.give0 >= 0:  # passing cards: the range before the call's
            cards = [a - acts.give0 for a in legal]
            receiver = (seat + state.passing_offset()) % rs.players.count
            if rs.bids is not None and 0 in (state.bids[seat], state.bids[receiver]):  # to or from a nil bidder
                return acts.give0 + nil_exchange(state.context, cards, state.bids[seat] == 0)
            return acts.give0 + give(state.context, hand, cards, avoids_tricks(rs))
        if legal[0] >= acts.bid0 >= 0:  # bids come after every other decision's actions
            return bid_for(state, hand, legal)
        if legal[0] >= acts.discard0 >= 0:  # after taking the kitty
            return acts.discard0 + discard(state.context, hand, [a - acts.discard0 for a in legal])
        if state.phase == "kitty":  # a declarer's kitty: more cards to choose the best from, and his to keep
            return acts.accept
        # an open auction, or a pairs auction's contract to double (the action past its values)
        if state.phase == "auction" and (rs.tables.auction_suits or acts.bid0 + rs.tables.double_offset in legal):
            return bid_open(state, seat, hand, legal, self.promise)
        if state.phase == "auction" and rs.tables.auction_values:
            return self._bid_value(state, seat, hand, legal)
        if acts.accept in legal:
            offered = state.offered
            if offered is None:
                return acts.pass_
            t = rs.tables
            under = t.context(rs.layout.suit_of(offered), t.always_promoted)
            value, held, against = offered_value(state, seat, hand, offered, under)
            return acts.accept if self.maker_bar(rs, state.hand_tricks).makes(value, seat, held, against) else acts.pass_
        if acts.decline in legal:
            announcement = next(a for a in legal if a != acts.decline) - acts.announce0
            if rs.announcements[announcement].by == "each_seat":  # a doubling during the deal: a strong start
                return announcement + acts.announce0 if strong_start(rs, hand) else acts.decline
            if rs.announcements[announcement].by == "declarer":  # an undertaking: only when it cannot fail
                sure = cannot_lose_a_trick(state.context, hand, rs.tables.roles)
                return announcement + acts.announce0 if sure else acts.decline
            trumps = (hand & state.context.trump_mask).bit_count()
            return announcement + acts.announce0 if trumps * 2 >= hand.bit_count() else acts.decline
        if state.phase == "name":  # a second round: the best other suit, if it clears the maker's bar
            return self._name_or_pass(state, seat, hand, legal)
        if acts.pass_ in legal and acts.accept not in legal:  # an auction: the lowest bid on a strong hand
            return self._bid_rung(state, hand, legal)
        if acts.push >= 0 or acts.contract0 >= 0:
            return self._pick_contract(state, hand, legal)
        # choosing trump: name, show or defer
        suits = range(len(rs.layout.suits))
        best = max(suits, key=lambda s: (suit_strength(rs, hand, s), -s))
        strong = self._strong_enough(suit_strength(rs, hand, best), hand, rs)
        if acts.defer in legal and not strong:
            return acts.defer
        if acts.name0 + best in legal:
            return acts.name0 + best
        shows = [a for a in legal if acts.show0 <= a < acts.announce0]
        in_best = [a for a in shows if rs.layout.suit_of(a - acts.show0) == best]
        # show the lowest card of the suit (rank index 0 is the highest rank)
        return max(in_best or shows, key=lambda a: rs.layout.rank_of(a - acts.show0))

    def _bid_rung(self, state: GameState, hand: int, legal: Sequence[int]) -> int:
        """A ladder bid: the best contract of the lowest rung open to anyone, when the hand is strong
        enough for it with a trick more for each such rung below (overcalling to the top is no free
        bid; a rung only the holder of some cards may bid, `bidder_holds`, is no competition). Failing
        that, a contract only this seat's cards allow that finds it a partner by play
        (`partner_by_trick`) is bid whatever the hand: its partner brings what the hand lacks."""
        acts, rs = state.actions, state.ruleset
        t = rs.tables
        contract_of = {a: t.fixed_contracts[a - acts.contract0] for a in legal if a != acts.pass_}

        def anyones(contract: int) -> bool:
            return not (t.bidder_holds and t.bidder_holds[contract])

        rung_of = {acts.contract0 + j: t.auction_rungs[i] for i, j in enumerate(t.auction_ladder)}
        open_rungs = {t.auction_rungs[i] for i, j in enumerate(t.auction_ladder) if anyones(t.fixed_contracts[j])}
        bids = [a for a, c in contract_of.items() if anyones(c)]
        if bids:
            rung = rung_of[bids[0]]
            # of the contracts equal in rank to the lowest bid, the one its hand is worth most in
            valued = [(hand_value(ctx, hand), -a, a) for a in bids if rung_of[a] == rung
                      and (ctx := choice_context(state, a, hand)) is not None]
            if valued:
                value, _, bid = max(valued)
                # alone where passing, or another contract's call, would find him a partner
                solo = bool(t.all_pass_side_cards) or bool(t.calls) and t.calls[contract_of[bid]] is None
                if self._strong_enough(value - sum(r < rung for r in open_rungs), hand, rs, solo):
                    return bid
        partnered = [a for a, c in contract_of.items() if not anyones(c)
                     and t.partner_tricks and t.partner_tricks[c] is not None]
        return partnered[0] if partnered else acts.pass_

    def _bid_value(self, state: GameState, seat: int, hand: int, legal: Sequence[int]) -> int:
        """A numeric auction: bid the next value, or hold the last one, while the hand's best contract
        clears the maker's bar (as for naming trump); each multiple of the lowest value above it asks a
        trick more (a declarer who bid high needs a hand to match, whatever the scoring makes of it), less
        the melds the hand holds under that contract, which count towards the bid where the scoring says so.
        Round the table (procedure rounds) it passes rather than bid over its partner, with fixed teams."""
        acts, rs = state.actions, state.ruleset
        values = rs.tables.auction_values
        names = range(acts.name0, acts.show0) if rs.tables.named_contract >= 0 else ()
        choices = [*names, *(range(acts.contract0, acts.contract_end) if acts.contract0 >= 0 else ())]
        unseen = rs.layout.full_mask & ~hand
        # the kitty it will take, to keep its best cards: worth the hand's average card
        boost = 1 + state.kitty_size / hand.bit_count() if rs.tables.kitty_choice else 1
        valued = [(trick_value(ctx, hand, unseen) * boost, ctx, a) for ctx, a in playable_choices(state, choices, hand)]
        bar = self.maker_bar(rs, state.hand_tricks)

        def supports(value: int) -> bool:
            for v, ctx, a in valued:
                trump = a - acts.name0 if a < acts.show0 else -1
                melds = sum(kind[0] for kind in own_melds(rs, hand, chosen_contract(state, a), trump))
                rung = max(0.0, (value - melds) / values[0] - 1)  # the melds held go towards the bid
                if bar.makes(v - rung, seat, hand.bit_count()) and worth_the_bid(state, a, ctx, hand, value,
                                                                                rs.tables.kitty_choice):
                    return True
            return False

        if acts.accept in legal:
            return acts.accept if supports(state.auction_value or values[0]) else acts.pass_
        t, bidder = rs.tables, state.auction_bidder
        if t.auction_rounds and bidder is not None and not t.sides_per_hand and t.team_of[bidder] == t.team_of[seat]:
            return acts.pass_  # round the table: never over a partner's bid (his side would only pay more)
        bids = [a for a in legal if a != acts.pass_]
        return bids[0] if bids and supports(values[bids[0] - acts.bid0]) else acts.pass_

    def _name_or_pass(self, state: GameState, seat: int, hand: int, legal: Sequence[int]) -> int:
        """Name the suit worth most tricks when the side's chance with it clears the maker's bar (as
        for taking a card on offer); a seat that may not pass names that suit anyway."""
        rs = state.ruleset
        acts, t = state.actions, rs.tables
        unseen = rs.layout.full_mask & ~hand
        valued = [(trick_value(t.context(a - acts.name0, t.always_promoted), hand, unseen), a)
                  for a in legal if a != acts.pass_]
        value, best = max(valued, key=lambda va: (va[0], -va[1]))
        if acts.pass_ in legal and not self.maker_bar(rs, state.hand_tricks).makes(value, seat, hand.bit_count()):
            return acts.pass_
        return best

    def _pick_contract(self, state: GameState, hand: int, legal: Sequence[int]) -> int:
        """The contract (and trump) under which ``hand`` is worth most, among those worth a numeric
        auction's bid where there is one (unless none is); push when even that is weak."""
        choices = playable_choices(state, legal, hand)
        bid = state.auction_value
        if bid is not None:
            taken = state.view(state.current_player()).discarding_seat == state.current_player()
            choices = [(ctx, a) for ctx, a in choices if worth_the_bid(state, a, ctx, hand, bid, taken)] or choices
        valued = [(hand_value(ctx, hand), a) for ctx, a in choices]
        if not valued:
            return legal[0]
        value, best = max(valued, key=lambda va: (va[0], -va[1]))
        push = state.actions.push
        if push in legal and value < PUSH_BELOW * SHARE * hand.bit_count():
            return push
        return best
