"""Build the engine's tables from the model, once per compiled ruleset.

A trump context is (trump suit or none, set of promoted cards). For each one this computes
which suit every card counts as, trick strength per led suit, the `above` masks used for
heading and overtrumping, the point value of every card, and the specialised follow
closure. Deal scripts are resolved per dealer into flat op tuples with concrete seats, and
their decision-free start into one static :class:`~couillon_dsl.model.DealPrefix`; the
`outcome` section and the scoring rules become one closure (engine.hand.make_score_hand).
"""
from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

from couillon_dsl.cards import Card, CardMask, DeckLayout, iter_bits
from couillon_dsl.engine.follow import make_legal, plain_masks
from couillon_dsl.engine.hand import OutcomeExpression, make_score_hand, make_settle
from couillon_dsl.engine.roles import OPEN_LEAD, RoleTables
from couillon_dsl.engine.results import play_orders
from couillon_dsl.expr.compile import Definition
from couillon_dsl.model import (
    NAMED_TRUMP, Announcement, CardRole, Contract, DealCheck, DealPrefix, DealStep, Deck, EqualCards, Follow, Limits, Outcome, Players,
    Promotion, ScoringRule, Scoresheet, Session, Tables, Tally, Team, TrumpContext, deal_cycle, hand_script,
)

# deal op codes; see deal_plan
OP_PACKET, OP_STOCK, OP_TURN_UP, OP_SET_ASIDE, OP_DECIDE, OP_KITTY, OP_ANNOUNCE = range(7)
# packets addressed relative to the seat that fixed trump: only after the decide step
DECLARER_SELECTORS = frozenset({"declarer", "all_but_declarer"})


def trump_order(deck: Deck, layout: DeckLayout, trump: int, promoted: Sequence[tuple[Card, str | None]]) -> list[Card]:
    """The trump suit high to low: the `top` promotions (below None) in their written order, then
    trump_ranks (or its ranks) with the other promoted cards right below their rank. ``trump`` past
    the printed suits is a hand whose only trumps are the promoted cards: they alone, in written order.

    A suit's own `trump_ranks` gives its order; else the deck's `trump_ranks` reorders the deck's
    default ranks, and a suit with ranks of its own keeps their order.
    """
    order = [card for card, below in promoted if below is None]
    if trump >= len(layout.suits):
        return order + [card for card, below in promoted if below is not None]
    own = layout.ranks_of(trump)
    ranks = deck.suits[trump].trump_ranks or (deck.trump_ranks if deck.trump_ranks and own == layout.ranks else own)
    moved = {card for card, _ in promoted}
    for rank in ranks:
        card = layout.card(trump, own.index(rank))
        if card not in moved:
            order.append(card)
        order.extend(c for c, below in promoted if below == rank)
    return order


def promoted_card(deck: Deck, layout: DeckLayout, promotion: Promotion, trump: int) -> Card:
    """The card ``promotion`` promotes when ``trump`` is the trump suit: its fixed card, or its rank
    in the other suit of the trump's colour (the semantic checks made that suit unique)."""
    if promotion.card is not None:
        return layout.parse(promotion.card)
    colour = deck.suits[trump].colour
    partner = next(s for s, suit in enumerate(deck.suits) if s != trump and suit.colour == colour)
    return layout.card(partner, layout.ranks_of(partner).index(promotion.rank))


def point_unit(deck: Deck, roles: Sequence[CardRole] = ()) -> int:
    """The smallest fraction of a point every card value (and role compensation) is a whole
    number of (2 for half points)."""
    values = [*deck.points.values(), *(deck.trump_points or {}).values(), *deck.card_points.values(),
              *(role.compensation for role in roles)]
    unit = 1
    for value in values:
        unit = math.lcm(unit, Fraction(value).denominator)
    return unit


def card_value(deck: Deck, layout: DeckLayout, card: Card, as_trump: bool) -> int | Fraction:
    """A card's points: `card_points`, else its rank in `trump_points` (as a trump) or `points`,
    else that table's `default`; an extra is worth only what `card_points` gives it."""
    fixed = {layout.parse(written): value for written, value in deck.card_points.items()}
    card = layout.first_copy(card)  # copies are worth the same
    if card in fixed:
        return fixed[card]
    if layout.is_extra(card):
        return 0
    table = (deck.trump_points or deck.points) if as_trump else deck.points
    rank = layout.rank_name(card)
    if rank in table:
        return table[rank]
    return table.get("default", deck.points.get("default", 0))


def role_tables(layout: DeckLayout, roles: Sequence[CardRole], unit: int) -> RoleTables | None:
    """The card roles as masks (None without roles: the engine's usual paths)."""
    if not roles:
        return None

    def cards(keep: Callable[[CardRole], bool]) -> CardMask:  # every copy of a role's cards
        return sum(layout.with_copies(layout.parse_mask(list(r.cards))) for r in roles if keep(r))

    kept = [r for r in roles if r.kept_by_owner]
    return RoleTables(
        cards=cards(lambda r: True), anytime=cards(lambda r: r.play_anytime),
        never_wins=cards(lambda r: r.wins in ("never", "never_except_sweep")),
        always_wins=cards(lambda r: r.wins == "always"), sweep=cards(lambda r: r.wins == "never_except_sweep"),
        open_lead=cards(lambda r: r.when_led == "next_card_sets_suit"), kept=cards(lambda r: r.kept_by_owner),
        compensation=int(kept[0].compensation * unit) if kept else 0,
        on_last_trick=kept[0].on_last_trick if kept else "kept",
    )


def build_context(
    deck: Deck, layout: DeckLayout, follow: Follow, trump: int, promoted: Sequence[tuple[Card, str | None]],
    unit: int = 1, roles: RoleTables | None = None, promoted_only: bool = False, all_suits: bool = False,
) -> TrumpContext:
    """Tables for one trump suit (-1: none) with the given (card, below-rank or None at the top)
    promotions; card points in 1/``unit`` of a point. Card roles change strength (a card that never
    wins has none, one that always wins more than the top trump) and wrap the follow closure (a card playable at any time; an open lead). With
    ``promoted_only`` and no trump suit the promoted cards are the trumps, a suit of their own
    after the printed suits and the extras' (a contract with `trump: promoted`). With ``all_suits`` and
    no trump suit every led suit is followed as a trump lead (`trump: all_suits`; ``deck`` already ranks
    and counts every suit as trumps)."""
    n = layout.size
    nsuits = len(layout.suits) + (1 if layout.extras else 0)  # the extras' pseudo-suit last
    if trump < 0 and promoted_only and promoted:
        trump, nsuits = nsuits, nsuits + 1
    elif trump < 0:
        promoted = ()
    card_suit = [layout.suit_of(c) for c in range(n)]
    for card, _ in promoted:
        card_suit[card] = trump
    first = [layout.first_copy(c) for c in range(n)]  # copies count as their first copy does
    card_suit = [card_suit[first[c]] for c in range(n)]
    suit_mask = [0] * nsuits
    for card, suit in enumerate(card_suit):
        suit_mask[suit] |= 1 << card
    trump_mask = suit_mask[trump] if trump >= 0 else 0

    # rank position within the effective suit, 0 = highest; a contract may reorder the deck's ranks
    position = [layout.rank_of(c) for c in range(n)]
    if tuple(deck.ranks) != tuple(layout.ranks):
        order = {rank: i for i, rank in enumerate(deck.ranks)}
        position = [order.get(layout.rank_name(c), position[c]) for c in range(n)]
    if trump >= 0:
        for i, card in enumerate(trump_order(deck, layout, trump, promoted)):
            position[card] = i
    position = [position[first[c]] for c in range(n)]  # equal cards tie: the first played wins
    top = layout.longest_suit + len(promoted)
    trump_base = top + 1  # every trump beats every card of the led suit
    never = roles.never_wins if roles else 0
    always = roles.always_wins if roles else 0
    strength = tuple(
        tuple(
            0 if never >> c & 1
            else trump_base + top + 1 if always >> c & 1  # above the top trump; equal to each other: the first wins
            else trump_base + top - position[c] if card_suit[c] == trump
            else (top - position[c] if card_suit[c] == led else 0)
            for c in range(n)
        )
        for led in range(nsuits)
    )
    above = tuple(
        sum(1 << d for d in range(n) if card_suit[d] == card_suit[c] and position[d] < position[c])
        for c in range(n)
    )
    moved = {copy for card, _ in promoted for copy in iter_bits(layout.copies_mask(card))}
    points = tuple(int(card_value(deck, layout, c, card_suit[c] == trump and c not in moved) * unit) for c in range(n))
    exempt = 0
    for name in follow.exempt:
        exempted = card_under_trump(layout, name, trump if trump < len(layout.suits) else -1)
        if exempted is not None:
            exempt |= layout.copies_mask(exempted)
    all_suits = all_suits and trump < 0
    followed = followed_masks(layout, suit_mask, trump)
    legal = make_legal(follow, followed, trump, trump_mask, above, exempt, all_suits)
    masks = None if all_suits else plain_masks(follow, followed, trump_mask, exempt)
    if roles is not None:
        legal, masks = with_roles(legal, roles), None  # the closure alone knows the roles
    return TrumpContext(trump, sum(1 << c for c in moved), tuple(suit_mask), trump_mask, tuple(card_suit),
                        strength, above, points, exempt, masks, legal, roles.open_lead if roles else 0, all_suits)


def followed_masks(layout: DeckLayout, suit_mask: Sequence[CardMask], trump: int) -> list[CardMask]:
    """Per led suit, the cards that follow it: the suit's, but none for the extras' pseudo-suit (an extra
    led is followed by nobody, though others hold extras too: Wizard's Wizard led over a Jester held)."""
    followed = list(suit_mask)
    if layout.extras and trump != len(layout.suits):
        followed[len(layout.suits)] = 0
    return followed


def while_stock_contexts(contexts: Sequence[TrumpContext], follow: Follow, layout: DeckLayout) -> tuple[TrumpContext, ...]:
    """``contexts`` with `play.draw.while_stock` specialised in each (:attr:`TrumpContext.legal_while_stock`);
    a context shared by several promotion sets stays shared."""
    built: dict[int, TrumpContext] = {}
    for ctx in contexts:
        if id(ctx) not in built:
            legal = make_legal(follow, followed_masks(layout, ctx.suit_mask, ctx.trump), ctx.trump, ctx.trump_mask,
                               ctx.above, ctx.exempt, ctx.all_suits)
            built[id(ctx)] = dataclasses.replace(ctx, legal_while_stock=legal)
    return tuple(built[id(ctx)] for ctx in contexts)


def equal_cards_tables(layout: DeckLayout, equal: EqualCards | None) -> tuple[tuple[CardMask, ...], tuple[CardMask, ...]]:
    """`play.equal_cards` as :attr:`TrumpContext.later_beats` and ``later_beats_last``: for each
    card, the copies of it it beats when played after them (its other copies when the later one
    wins, for the cards named, every card when none is); empty where the first played wins."""
    if equal is None or layout.copies == 1:
        return (), ()
    named = layout.with_copies(layout.parse_mask(list(equal.cards))) if equal.cards else layout.full_mask
    later = tuple(layout.copies_mask(c) & ~(1 << c) if named >> c & 1 else 0 for c in range(layout.size))
    return (later if equal.wins == "second" else ()), (later if equal.last_trick == "second" else ())


def with_roles(legal: Callable[[int, int, int, int], int], roles: RoleTables) -> Callable[[int, int, int, int], int]:
    """The follow closure with the roles: after an open lead any card; a role card at any time."""
    anytime = roles.anytime

    def role_legal(h: int, led: int, win: int, trick: int) -> int:
        if led == OPEN_LEAD:
            return h
        return legal(h, led, win, trick) | (h & anytime)

    return role_legal


def contract_deck(deck: Deck, contract: Contract) -> Deck:
    """The deck as a contract sees it: its plain order and its points merged over the deck's. Under
    `trump: all_suits` every suit is a trump suit: its order is the contract's ranks or the deck's trump
    order, its points the trump points."""
    if contract.trump == "all_suits":
        return dataclasses.replace(
            deck, ranks=contract.ranks or deck.trump_ranks or deck.ranks,
            points={**(deck.trump_points or deck.points), **(contract.trump_points or {})}, trump_points=None)
    return dataclasses.replace(
        deck,
        ranks=contract.ranks or deck.ranks,
        points={**deck.points, **(contract.points or {})},
        trump_points={**(deck.trump_points or deck.points), **(contract.trump_points or {})}
        if contract.trump_points or deck.trump_points else None,
    )


def card_under_trump(layout: DeckLayout, name: str, trump: int) -> Card | None:
    """The card a name stands for under ``trump``: a card name, or rank + ``T`` for that rank of the trump suit
    (None without trump). Read by `follow.exempt`, the card sets and `play.draw.exchange`."""
    upper = name.strip().upper()
    ranks = [r.upper() for r in (layout.ranks_of(trump) if trump >= 0 else layout.ranks)]
    if upper.endswith("T") and upper[:-1] in ranks and "T" not in layout.suits:
        return layout.card(trump, ranks.index(upper[:-1])) if trump >= 0 else None
    return layout.parse(name)


def card_set_masks(layout: DeckLayout, card_sets: Mapping[str, Sequence[str]]) -> dict[str, CardMask | tuple[CardMask, ...]]:
    """`deck.card_sets` as masks; a set naming trump cards (``AT``, the ace of trumps) changes with the
    hand's trump, so it is one mask per trump suit, then one for a hand without trump (index -1)."""
    masks: dict[str, CardMask | tuple[CardMask, ...]] = {}
    for name, cards in card_sets.items():
        per_trump = tuple(sum(layout.copies_mask(card) for card in {card_under_trump(layout, text, trump) for text in cards}
                              if card is not None) for trump in (*range(len(layout.suits)), -1))
        masks[name] = per_trump[0] if len(set(per_trump)) == 1 else per_trump
    return masks


def resolve_seats(to: str | Sequence[int], dealer: int, n: int, declarer: int = -1) -> tuple[int, ...]:
    """Seats of a deal selector, in dealing order; `all` runs from the elder to the dealer. The
    declarer's selectors (after the decide step) need ``declarer``, the seat that fixed trump."""
    if to in DECLARER_SELECTORS:
        if declarer < 0:
            raise ValueError(f"deal selector {to!r} before anyone declared")
        if to == "declarer":
            return (declarer,)
        return tuple(s for s in resolve_seats("all", dealer, n) if s != declarer)
    if to == "all":
        return tuple((dealer + 1 + i) % n for i in range(n))
    if to == "elder":
        return ((dealer + 1) % n,)
    if to == "dealer":
        return (dealer,)
    if to == "all_but_elder":
        return tuple((dealer + 2 + i) % n for i in range(n - 1))
    if to == "all_but_dealer":
        return tuple((dealer + 1 + i) % n for i in range(n - 1))
    if isinstance(to, str):
        raise ValueError(f"unknown deal selector {to!r}")
    return tuple((dealer + offset) % n for offset in to)


def deal_plan(steps: Sequence[DealStep], dealer: int, n: int, ncards: int,
              declarer: int = -1, announcement_ids: Sequence[str] = ()) -> tuple[tuple[object, ...], ...]:
    """The deal script for one dealer (and, for packets addressed to him, one declarer) with
    seats and pack positions resolved.

    Ops: (OP_PACKET, gathers, deliveries, face_up), (OP_STOCK, start, stop), (OP_TURN_UP,
    from_bottom), (OP_SET_ASIDE, start, stop), (OP_KITTY, start, stop), (OP_DECIDE,), (OP_ANNOUNCE, index of the
    announcement in ``announcement_ids``). Positions are static because
    every count is (`rest` is what the deck has left at that point). Once a stock is made,
    packets are dealt from its top, and an OP_STOCK after them says what is left of it.
    ``deliveries`` lists each packet as (seat, start, stop) in dealing order; consecutive
    packet steps with the same face are merged and ``gathers`` gives, per seat, every pack
    position it receives, so a hand is built with one C-level ``sum(map(...))`` instead of a
    loop per packet. Without ``declarer`` the declarer's packets are left out: the plan is
    every declarer's up to the decision.
    """
    ops: list[tuple[object, ...]] = []
    pos = 0
    top = bottom = -1  # the stock's remaining (start, stop), once made
    for step in steps:
        kind = step.kind
        if kind == "packet":
            assert isinstance(step.packet, int) and step.to is not None  # one hand's script (model.hand_script)
            if step.to in DECLARER_SELECTORS and declarer < 0:
                continue
            up = step.face == "up"
            deliveries = []
            at = top if top >= 0 else pos
            for seat in resolve_seats(step.to, dealer, n, declarer):
                deliveries.append((seat, at, at + step.packet))
                at += step.packet
            if ops and ops[-1][0] == OP_PACKET and ops[-1][3] == up:
                ops[-1] = (OP_PACKET, (), ops[-1][2] + tuple(deliveries), up)  # type: ignore[operator]
            else:
                ops.append((OP_PACKET, (), tuple(deliveries), up))
            if top >= 0:
                top = at
                ops.append((OP_STOCK, top, bottom))
            else:
                pos = at
        elif kind == "stock":
            top, bottom = pos, ncards
            ops.append((OP_STOCK, top, bottom))
            pos = ncards
        elif kind == "turn_up":
            if top == bottom >= 0:  # nothing left to turn (`if_stock_empty`, the checks allow no other): no trump
                continue
            ops.append((OP_TURN_UP, step.turn_up == "stock_bottom"))
            if top >= 0:
                top, bottom = (top, bottom - 1) if step.turn_up == "stock_bottom" else (top + 1, bottom)
        elif kind in ("set_aside", "kitty"):
            count = getattr(step, kind)
            stop = ncards if count == "rest" else pos + int(count)
            ops.append((OP_SET_ASIDE if kind == "set_aside" else OP_KITTY, pos, stop))
            pos = stop
        elif kind == "announce":
            ops.append((OP_ANNOUNCE, list(announcement_ids).index(str(step.announce))))
        else:
            ops.append((OP_DECIDE,))
    for i, op in enumerate(ops):
        if op[0] == OP_PACKET:
            positions: dict[int, list[int]] = {}
            for seat, start, stop in op[2]:  # type: ignore[attr-defined]
                positions.setdefault(seat, []).extend(range(start, stop))
            ops[i] = (OP_PACKET, tuple((seat, tuple(p)) for seat, p in positions.items()), op[2], op[3])
    return tuple(ops)


def deal_prefix(ops: Sequence[tuple[object, ...]], ncards: int, start: int = 0) -> DealPrefix | None:
    """The ops of a deal plan from ``start`` up to the next decision, folded into one static step.

    Packets, the stock, turn-ups and set-asides before the next `decide` only move pack
    positions to fixed places, so they reduce to the seat of each dealt position, the
    stock's slice and the positions turned face up in order, each with its holder (None for
    a card turned up from the stock).
    ``GameState._run_deal`` applies the one from 0 in one pass and interprets the remaining
    ops; the rollout also applies the one after the decision. None when the first op needs
    the interpreter.
    """
    dealt: list[tuple[int, int]] = []  # (pack position, seat)
    stock: list[int] | None = None
    ups: list[tuple[int, int | None]] = []
    k = start
    for op in ops[start:]:
        code = op[0]
        if code == OP_PACKET:
            positions = [(pos, seat) for seat, start, stop in op[2] for pos in range(start, stop)]  # type: ignore[attr-defined]
            dealt.extend(positions)
            if op[3]:  # face up: each card shown, held by its seat
                ups.extend(positions)
        elif code == OP_STOCK:
            stock = list(range(op[1], op[2]))  # type: ignore[call-overload]
        elif code == OP_TURN_UP and stock:
            ups.append((stock.pop() if op[1] else stock.pop(0), None))
        elif code != OP_SET_ASIDE:
            break  # decide, or a turn-up without stock (the interpreter raises)
        k += 1
    if k == start:
        return None
    per_seat: dict[int, list[int]] = {}
    for pos, seat in sorted(dealt):
        per_seat.setdefault(seat, []).append(pos)
    quads = []
    for seat, seat_positions in per_seat.items():
        for j in range(0, len(seat_positions), 4):
            group = seat_positions[j:j + 4]
            quads.append((seat, *group, *[group[-1]] * (4 - len(group))))  # padding repeats a position
    return DealPrefix(
        stop=k,
        quads=tuple(quads),  # type: ignore[arg-type]
        stock=None if stock is None else ((stock[0], stock[-1] + 1) if stock else (ncards, ncards)),
        ups=tuple(ups),
    )


def make_outcome(outcome: Outcome, nteams: int,
                 unit: int = 1) -> Callable[[list[int], list[int], Team | None], tuple[Team | None, bool, bool]]:
    """The `outcome` section as ``fn(points, tricks, maker) -> (winner, tie, no_score)``.

    More than the opponents wins and equal is a tie (design §2, `outcome`); with
    `maker_needs` a maker short of it gets `gap` instead. The branches on the section's
    keys are taken here, once per ruleset.
    """
    by_points = outcome.compare == "points"
    need = outcome.maker_needs * unit if outcome.maker_needs is not None else None  # points arrive in units
    gap = (None, True, False) if outcome.gap == "tie" else (None, False, True)
    tie = (None, True, False)
    won = tuple((team, False, False) for team in range(nteams))  # made once, not per hand

    def result(points: list[int], tricks: list[int], maker: Team | None) -> tuple[Team | None, bool, bool]:
        values = points if by_points else tricks
        if nteams == 2:
            a, b = values
            if a == b:
                return tie
            winner = 0 if a > b else 1
        else:
            best = max(values)
            if values.count(best) > 1:
                return tie
            winner = values.index(best)
        if need is not None and winner == maker and points[winner] < need:
            return gap
        return won[winner]

    return result


def build_tables(
    deck: Deck,
    layout: DeckLayout,
    follow: Follow,
    players: Players,
    steps: Sequence[DealStep],
    announcements: Sequence[Announcement],
    outcome: Outcome,
    scoring: Sequence[ScoringRule],
    scoresheet: Scoresheet,
    options: Mapping[str, Any],
    session: Session,
    limits: Limits,
    definitions: Sequence[Definition] = (),
    contracts: Sequence[Contract] = (),
    first_hand_card: Card = -1,
    card_roles: Sequence[CardRole] = (),
    deal_checks: Sequence[DealCheck] = (),
    decider: OutcomeExpression | None = None,
    tallies: Sequence[Tally] = (),
    game_ends: ScoringRule | None = None,
    all_pass_contract: int = -1,
    dealer_stays: ScoringRule | None = None,
) -> Tables:
    """Every table the engine reads, computed once when the ruleset is compiled (never per game).
    ``all_pass_contract`` (the contract played when everyone passes the auction) is offered to no declarer."""
    ids = [a.id for a in announcements]
    promotions = [(p, p.below, ids.index(p.by_announcement) if p.by_announcement else -1) for p in deck.promotions]
    contexts: list[TrumpContext] = []
    unit = point_unit(deck, card_roles)
    roles = role_tables(layout, card_roles, unit)
    always = sum(1 << i for i, (_, _, by) in enumerate(promotions) if by < 0)  # promotions without an announcement

    def add_family(family_deck: Deck, promoted_only: bool = False, all_suits: bool = False,
                   kept: Sequence[str] | None = None) -> int:
        """Contexts for every trump suit (and none) and promotion set under one card order; its offset.
        ``promoted_only``: without a trump suit the promoted cards are trumps (`trump: promoted`).
        ``kept``: a contract's own promoted cards, in their order (`contracts.<id>.promoted`); the
        deck's others are plain cards in this family. None: every promotion, in the deck's order.

        A promotion without an announcement is always in force, so a set of promotions without it
        shares the context of the set with it, and sets that leave the same cards promoted share
        one context: a deck of eight unannounced promotions builds one context per trump, not 256."""
        base = len(contexts)
        order = [layout.parse(card) for card in kept] if kept is not None else None
        built: dict[tuple[int, tuple[tuple[Card, str | None], ...]], TrumpContext] = {}
        for trump in range(-1, len(layout.suits)):
            candidates = [(promoted_card(deck, layout, p, trump), below) for p, below, _ in promotions] \
                if trump >= 0 or promoted_only else []
            of_bits: dict[int, TrumpContext] = {}  # by the promotions in force: those asked for and the unannounced
            for bits in range(1 << len(promotions)):
                in_force = bits | always
                if in_force not in of_bits:
                    active = [a for i, a in enumerate(candidates) if in_force >> i & 1]
                    if order is not None:
                        active = sorted((a for a in active if a[0] in order), key=lambda a: order.index(a[0]))
                    key = (trump, tuple(active))
                    if key not in built:
                        built[key] = build_context(family_deck, layout, follow, trump, active, unit, roles,
                                                   promoted_only, all_suits)
                    of_bits[in_force] = built[key]
                contexts.append(of_bits[in_force])
        return base

    add_family(deck)
    bases = tuple(add_family(contract_deck(deck, c), c.trump == "promoted", c.trump == "all_suits", c.promoted)
                  if c.ranks or c.points or c.trump_points or c.trump in ("promoted", "all_suits")
                  or c.promoted is not None else 0
                  for c in contracts)
    n = players.count
    team_of = [0] * n
    for team, seats in enumerate(players.teams):
        for seat in seats:
            team_of[seat] = team
    next_seat = tuple((s + 1) % n for s in range(n))
    # sides fixed with the contract (players.sides: declarer_alone): the declarer's side 0, the rest 1
    declarer_sides = tuple(tuple(0 if s == d else 1 for s in range(n)) for d in range(n)) \
        if players.sides == "declarer_alone" else ()
    # sides by who holds a card (players.sides: card_holders): fixed when play begins, hidden until revealed
    side_cards = layout.copies_mask(layout.parse(players.side_card)) \
        if players.sides == "card_holders" and players.side_card else 0
    cycle = deal_cycle(steps)  # a schedule of hand sizes: one plan per (hand of the cycle, dealer)
    plans = tuple(deal_plan(hand_script(steps, hand), d, n, layout.size, announcement_ids=ids)
                  for hand in range(cycle) for d in range(n))
    # packets to the declarer: every plan again per declarer, read once someone declared (else empty)
    declarer_plans = tuple(tuple(deal_plan(hand_script(steps, hand), d, n, layout.size, declarer, ids)
                                 for declarer in range(n))
                           for hand in range(cycle) for d in range(n)) \
        if any(step.to in DECLARER_SELECTORS for step in steps if step.kind == "packet") else ()
    prefixes = tuple(deal_prefix(plan, layout.size) for plan in plans)
    # after the prefix and one decision, the rest of the plan when it is static too (else None; always
    # None when the rest depends on the declarer)
    suffixes = tuple(deal_prefix(plan, layout.size, p.stop + 1)
                     if p is not None and p.stop < len(plan) and plan[p.stop][0] == OP_DECIDE and not declarer_plans
                     else None for p, plan in zip(prefixes, plans))
    # what the scoring, the tallies and the outcome's expression read of the hand
    rule_reads = (*(rule.reads for rule in scoring), *(tally.reads for tally in tallies),
                  decider.reads if decider else frozenset(), game_ends.reads if game_ends else frozenset(),
                  dealer_stays.reads if dealer_stays else frozenset())
    return Tables(
        contexts=tuple(contexts),
        promotion_cards=tuple(layout.parse(p.card) if p.card is not None else -1 for p, _, _ in promotions),
        promotion_by=tuple(by for _, _, by in promotions),
        card_bit=tuple(1 << c for c in range(layout.size)),
        team_of=tuple(team_of),
        next_seat=next_seat,
        rounds=play_orders(n),
        deal_plans=plans,
        holder_cards=tuple(layout.parse(a.holder_of) if a.holder_of else -1 for a in announcements),
        asked_in_deal=tuple(any(step.announce == a.id for step in steps) for a in announcements),
        followups=tuple(tuple(j for j, b in enumerate(announcements) if b.after == a.id) for a in announcements),
        followers=tuple(tuple((s + i) % n for i in range(1, n)) for s in range(n)),
        suit_of=tuple(layout.suit_of(c) for c in range(layout.size)),
        always_promoted=always,
        deal_prefixes=prefixes,
        deal_suffixes=suffixes,
        declarer_plans=declarer_plans,
        static_deals=not declarer_plans and all(p is not None and (p.stop == len(plan)
                                            or (p.stop == len(plan) - 1 and plan[-1][0] == OP_DECIDE)
                                            or (q is not None and q.stop == len(plan)))
                         for p, q, plan in zip(prefixes, suffixes, plans)),
        score_hand=make_score_hand(make_outcome(outcome, players.nsides, unit), scoring, tuple(team_of),
                                   next_seat, scoresheet, ids, options, definitions, unit,
                                   players.nsides if players.sides != "teams" else 0, decider, tallies, game_ends,
                                   dealer_stays),
        settle=make_settle(scoresheet, session, limits),
        contract_base=bases,
        contract_trump=tuple(NAMED_TRUMP if c.trump == "named" else -1 if c.trump in ("none", "promoted", "all_suits", "first_lead") else
                             layout.suits.index(c.trump) for c in contracts),
        contract_multipliers=tuple(tuple(c.multiplier_for(layout.suits[s] if s >= 0 else None)
                                         for s in range(-1, len(layout.suits))) for c in contracts),
        all_suits=tuple(c.trump == "all_suits" for c in contracts),
        lead_trump=tuple(c.trump == "first_lead" for c in contracts),
        named_contract=next((i for i, c in enumerate(contracts) if c.enabled and c.trump == "named"
                             and i != all_pass_contract), -1),
        fixed_contracts=tuple(i for i, c in enumerate(contracts) if c.enabled and c.trump != "named"
                              and i != all_pass_contract),
        all_pass_contract=all_pass_contract,
        first_hand_card=first_hand_card,
        declarer_sides=declarer_sides,
        nsides=players.nsides,
        start_sides=declarer_sides[0] if declarer_sides else (0,) * n if side_cards else tuple(team_of),
        side_cards=side_cards,
        point_unit=unit,
        fixed_trump=layout.suits.index(deck.trump_suit) if deck.trump_suit else -1,
        card_sets={name: masks for name, masks in card_set_masks(layout, deck.card_sets).items()
                   if isinstance(masks, int)},
        roles=roles,
        reads_tricks=any(reads & {"won", "last_trick_cards", "last_trick_winner", "trick_log"} for reads in rule_reads),
        reads_seats=any(reads & {"seat_tricks", "seat_bids", "seat_sides", "seat_blinds"} for reads in rule_reads),
        reads_trick_values=any(reads & {"captured", "trick_values"} for reads in rule_reads),
        reads_held=any(reads & {"held", "seat_held"} for reads in rule_reads),
        reads_top_runs=any("top_runs" in reads for reads in rule_reads),
        reads_card_keys=any("card_keys" in reads for reads in rule_reads),
        deal_checks=tuple(check_masks(layout, deck, check) for check in deal_checks),
        deal_cycle=cycle,
        turns_nothing=any(step.kind == "turn_up" for step in steps)
        and any(all(op[0] != OP_TURN_UP for op in plan) for plan in plans),
        hand_tricks=tuple(dealt_per_seat(declarer_plans[hand * n][0] if declarer_plans else plans[hand * n])
                          for hand in range(cycle)),
    )


def dealt_per_seat(plan: Sequence[tuple[object, ...]]) -> int:
    """The most cards a deal plan gives one seat: the tricks of its hand."""
    dealt: dict[int, int] = {}
    for op in plan:
        if op[0] == OP_PACKET:
            for seat, start, stop in op[2]:  # type: ignore[attr-defined]
                dealt[seat] = dealt.get(seat, 0) + stop - start
    return max(dealt.values(), default=0)


def check_masks(layout: DeckLayout, deck: Deck, check: DealCheck) -> tuple[CardMask, CardMask,
                                                                           tuple[tuple[CardMask, int, int], ...]]:
    """A deal check as masks: (holds, lacks, ((counted cards, min, max), ...)); no max is the pack's size."""
    counts = []
    for kind, key, least, most in check.counts:
        mask = (layout.suit_mask(layout.suits.index(key)) if kind == "suit"
                else layout.with_copies(layout.parse_mask(list(deck.card_sets[key]))))
        counts.append((mask, least, layout.size if most is None else most))
    held = layout.parse_mask(list(check.holds))
    if layout.copies > 1:  # holding a card named is holding a copy of it: a count of at least one
        counts.extend((layout.copies_mask(card), 1, layout.size) for card in iter_bits(held))
        held = 0
    return held, layout.with_copies(layout.parse_mask(list(check.lacks))), tuple(counts)

