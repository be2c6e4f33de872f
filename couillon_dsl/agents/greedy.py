"""A rule-of-thumb player that works for any ruleset, from the trump context's tables alone.

Cards: win the trick as cheaply as possible when the opponents hold it, shed the least
valuable card otherwise, give points to a partner who is sure to win, and lead a master
card (one no unseen card of its suit beats) when holding one. After taking a kitty, discard
by the same measure, from short suits first. A declarer's undertaking (`by: declarer`, a
chelem) is announced only with a hand that cannot lose a trick: its payoff is the ruleset's
scoring, which greedy does not weigh, so it takes on only what cannot fail. Decisions: take or name the
trump suit in which the hand is strongest when that strength reaches a share of the hand.
With `contracts` or a push allowed, every choice is valued in its own trump context
(:func:`hand_value`): the best one is picked, or the choice is pushed when even the best
is weak.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple, Sequence

from couillon_dsl.cards import iter_bits
from couillon_dsl.engine.roles import OPEN_LEAD, led_and_winner

if TYPE_CHECKING:
    from couillon_dsl.engine import GameState, SeatView
    from couillon_dsl.engine.roles import RoleTables
    from couillon_dsl.model import Ruleset, TrumpContext


def suit_strength(ruleset: Ruleset, hand: int, suit: int) -> float:
    """Cards of ``suit`` in ``hand``, plus half a card for each of the top third of the ranks."""
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


def follow(ctx: TrumpContext, side_of: Sequence[int], seat: int, trick: Sequence[tuple[int, int]],
           legal: Sequence[int]) -> int:
    """The card to add to ``trick`` ((seat, card) pairs so far): cheapest winner, else cheapest card.
    ``side_of`` gives each seat's side in this hand (who is a partner)."""
    orders = orders_of(ctx)
    led, best_card = led_and_winner(ctx, [card for _, card in trick])
    suit = ctx.card_suit[best_card] if led == OPEN_LEAD else led  # after an open lead: any
    strength = ctx.strength[suit]
    best_seat = next(seat for seat, card in trick if card == best_card)
    if side_of[best_seat] == side_of[seat]:
        if len(trick) == len(side_of) - 1:  # the partner wins: give it the most points a non-trump can add
            return max(legal, key=orders.feed[suit].__getitem__)
        return min(legal, key=orders.shed.__getitem__)
    best = strength[best_card]
    winners = [c for c in legal if strength[c] > best]
    if winners:
        return min(winners, key=orders.cheap_win[suit].__getitem__)
    return min(legal, key=orders.shed.__getitem__)


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


def play(state: GameState, legal: Sequence[int], played: int | None = None) -> int:
    """Greedy's card for the seat to move, from its hand and the cards on the table (``played``:
    this deal's played cards when the caller keeps them, else counted here): no seat view built."""
    ctx = state.context
    seat = state.current_player()
    leader, cards = state.current_trick()
    if cards:
        n = state.ruleset.players.count
        return follow(ctx, state.sides, seat, [((leader + i) % n, card) for i, card in enumerate(cards)], legal)
    gone = state.hand_of(seat) | (played_cards(state) if played is None else played)  # cards no opponent holds
    return lead(ctx, legal, ~gone)


PUSH_BELOW = 0.75  # push when the best contract is worth less than this share of what accepting needs


def hand_value(ctx: TrumpContext, hand: int) -> float:
    """Tricks a hand may take under one contract: a card no unseen card of its suit beats counts 1,
    one beaten by a single unseen card counts a half, and every trump a half more; a plain card
    counts a quarter less where trumps exist (it may be trumped)."""
    value = 0.0
    trumps = ctx.trump_mask
    for card in iter_bits(hand):
        beaters = (ctx.above[card] & ~hand).bit_count()
        trump = trumps >> card & 1
        value += (1.0 if beaters == 0 else 0.5 if beaters == 1 else 0.0) * (0.75 if trumps and not trump else 1.0) \
            + (0.5 if trump else 0.0)
    return value


def choice_context(state: GameState, action: int) -> TrumpContext | None:
    """The trump context a contract choice (`name SUIT` or `contract ID`) would put in force, else None."""
    acts = state.actions
    t = state.ruleset.tables
    if acts.name0 <= action < acts.show0:
        base = t.contract_base[t.named_contract] if t.named_contract >= 0 else 0
        return t.context(action - acts.name0, t.always_promoted, base)
    if 0 <= acts.contract0 <= action < acts.contract_end:
        contract = t.fixed_contracts[action - acts.contract0]
        return t.context(t.contract_trump[contract], t.always_promoted, t.contract_base[contract])
    return None


class GreedyAgent:
    """Takes tricks cheaply, sheds cheaply, and bids on trump length and honours."""

    name = "greedy"

    def __init__(self, share: float = 0.5) -> None:
        if not isinstance(share, (int, float)) or not 0.0 < share <= 1.0:
            raise ValueError(f"share must be in (0, 1], got {share}")
        self.share = share  # trump strength needed, as a share of the hand size (plus half a card)

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        if legal[0] < state.actions.ncards:
            if legal[-1] >= state.actions.announce0:  # trick 1: what the seat's cards allow it to announce or declare
                return legal[-1]  # promoting one's own card only helps; an optional meld is always declared
            return play(state, legal)
        return self._decide(state, state.view(state.current_player()), legal)

    # ------------------------------------------------------------------ decisions
    def _strong_enough(self, strength: float, view: SeatView, rs: Ruleset) -> bool:
        """Strong enough to make: the hand's trick value against its side's share of the tricks
        (the agent's ``share`` with fixed teams; a declarer alone needs his seats' share of a
        fair split, ``nsides / count`` of it: half the usual with one against three)."""
        players = rs.players
        share = self.share if players.sides == "teams" else self.share * players.nsides / players.count
        return strength >= share * view.hand.bit_count() + 0.5

    def _decide(self, state: GameState, view: SeatView, legal: Sequence[int]) -> int:
        acts = state.actions
        rs = state.ruleset
        hand = view.hand
        if legal[0] >= acts.discard0 >= 0:  # after taking the kitty
            return acts.discard0 + discard(state.context, hand, [a - acts.discard0 for a in legal])
        if acts.accept in legal:
            suit = rs.layout.suit_of(view.offered) if view.offered is not None else -1
            strong = suit >= 0 and self._strong_enough(suit_strength(rs, hand, suit), view, rs)
            return acts.accept if strong else acts.pass_
        if acts.decline in legal:
            announcement = next(a for a in legal if a != acts.decline) - acts.announce0
            if rs.announcements[announcement].by == "declarer":  # an undertaking: only when it cannot fail
                sure = cannot_lose_a_trick(state.context, hand, rs.tables.roles)
                return announcement + acts.announce0 if sure else acts.decline
            trumps = (hand & state.context.trump_mask).bit_count()
            return announcement + acts.announce0 if trumps * 2 >= hand.bit_count() else acts.decline
        if acts.pass_ in legal and acts.accept not in legal:  # an auction: the lowest bid on a strong hand
            bids = [a for a in legal if a != acts.pass_]
            ctx = choice_context(state, bids[0])
            rung = state.ruleset.tables.auction_ladder.index(bids[0] - acts.contract0)
            # each rung up the ladder needs a trick more: overcalling to the top is no free bid
            strong = ctx is not None and self._strong_enough(hand_value(ctx, hand) - rung, view, rs)
            return bids[0] if strong else acts.pass_
        if acts.push >= 0 or acts.contract0 >= 0:
            return self._pick_contract(state, view, legal)
        # choosing trump: name, show or defer
        suits = range(len(rs.layout.suits))
        best = max(suits, key=lambda s: (suit_strength(rs, hand, s), -s))
        strong = self._strong_enough(suit_strength(rs, hand, best), view, rs)
        if acts.defer in legal and not strong:
            return acts.defer
        if acts.name0 + best in legal:
            return acts.name0 + best
        shows = [a for a in legal if acts.show0 <= a < acts.announce0]
        in_best = [a for a in shows if rs.layout.suit_of(a - acts.show0) == best]
        # show the lowest card of the suit (rank index 0 is the highest rank)
        return max(in_best or shows, key=lambda a: rs.layout.rank_of(a - acts.show0))

    def _pick_contract(self, state: GameState, view: SeatView, legal: Sequence[int]) -> int:
        """The contract (and trump) under which the hand is worth most; push when even that is weak."""
        valued = [(hand_value(ctx, view.hand), a) for a in legal if (ctx := choice_context(state, a)) is not None]
        if not valued:
            return legal[0]
        value, best = max(valued, key=lambda va: (va[0], -va[1]))
        push = state.actions.push
        if push in legal and value < PUSH_BELOW * self.share * view.hand.bit_count():
            return push
        return best
