"""The rules of a hand's end, and the random play of its tricks, as plain functions.

:class:`~couillon_dsl.engine.state.GameState` (one action at a time) and the whole-game
rollout (:mod:`couillon_dsl.engine.rollout`, state in local variables) both call these,
so the scoring, the scoresheet's carries, the end of a game and the random play of a
trick are written once. Each takes plain values and returns plain values.
"""
from __future__ import annotations

from itertools import repeat, starmap
from operator import add
from types import MappingProxyType
from typing import Any, Callable, Mapping, MutableSequence, NamedTuple, Sequence

from couillon_dsl.cards import Card, CardMask, iter_bits
from couillon_dsl.expr.compile import HandFacts
from couillon_dsl.model import Limits, Scoresheet, Session, Team, TrumpContext

_new_tuple = tuple.__new__  # builds a NamedTuple from a ready tuple, as NamedTuple._make does
NO_ANNOUNCERS: Mapping[str, Team] = MappingProxyType({})

# what settle() says happens after a hand
NEXT_HAND, NEXT_GAME, SESSION_OVER, ABANDONED = range(4)


class HandScore(NamedTuple):
    """A finished hand scored: its outcome, what it moves on the scoresheet, and the carries after it."""

    outcome: str  # winner, tie or no_score
    winner: Team | None
    tie: bool
    all_tricks: bool
    points_in_play: int
    multiplier: int  # the tie carry applied to tie-scaled rules
    deltas: tuple[int, ...]
    values: list[int]  # the scoresheet after the hand
    ties: int  # ties pending after the hand
    passes: int  # passed-out deals pending after the hand


ScoreFn = Callable[[tuple[int, ...], tuple[int, ...], Any, int, int, int, int, Sequence[int],
                    Sequence[tuple[int, int]]], HandScore]


def make_score_hand(
    outcome: Callable[[Any, Any, Any], tuple[Any, bool, bool]],
    plan: Sequence[tuple[Any, ...]],
    team_of: Sequence[Team],
    next_seat: Sequence[int],
    sheet: Scoresheet,
    announcement_ids: Sequence[str],
    options: Mapping[str, Any],
) -> ScoreFn:
    """The closure that scores a hand: ``score(points, tricks, maker, dealer, ntricks,
    passes, ties, values, made) -> HandScore``.

    ``outcome`` is the `outcome` section's closure and ``plan`` the scoring rules
    (:func:`~couillon_dsl.engine.tables.scoring_plan`); ``made`` lists the announcements
    made as (announcement index, seat). The tie carry's branches are taken here, once.
    """
    carry = sheet.tie_carry
    carries_ties = carry != "none"
    nteams = max(team_of) + 1
    options = MappingProxyType(dict(options))
    zero = [0] * nteams

    def multiplier(ties: int) -> int:
        if carry == "next_decided_double":
            return 2
        if carry == "cumulative_double":
            return 2 ** ties
        return 1

    def score(points: tuple[int, ...], tricks: tuple[int, ...], maker: Team | None, dealer: int, ntricks: int,
              passes: int, ties: int, values: Sequence[int], made: Sequence[tuple[int, int]]) -> HandScore:
        winner, tie, no_score = outcome(points, tricks, maker)
        decided = winner is not None
        all_tricks = decided and tricks[winner] == ntricks
        announcers = {announcement_ids[a]: team_of[s] for a, s in made} if made else NO_ANNOUNCERS
        in_play = sum(points)
        facts = _new_tuple(HandFacts, (  # tuple.__new__ skips the NamedTuple's Python-level __new__
            winner, (1 - winner if nteams == 2 else None) if decided else None,  # type: ignore[operator]
            maker, team_of[dealer], team_of[next_seat[dealer]],
            decided, tie, no_score, all_tricks, ntricks, in_play, passes, ties,
            points, tricks, announcers, options,
        ))
        k = multiplier(ties) if ties else 1
        deltas = zero.copy()
        for when, team_fn, delta, delta_fn, scaled in plan:  # constants are not called (tables.scoring_plan)
            if when is None or when(facts):
                team = team_fn(facts)
                if team is not None:
                    if delta is None:
                        delta = delta_fn(facts)
                    deltas[team] += delta * k if scaled else delta  # type: ignore[index, operator]
        if decided:
            ties = passes = 0
        elif tie and carries_ties:
            ties += 1
        return _new_tuple(HandScore, (
            "winner" if decided else ("tie" if tie else "no_score"), winner, tie, all_tricks, in_play, k,
            tuple(deltas), list(map(add, values, deltas)), ties, passes,
        ))

    return score


def passes_after_pass_out(sheet: Scoresheet, passes: int) -> int:
    """Passed-out deals pending after one more (`pass_carry`)."""
    if sheet.pass_carry == "single":
        return 1
    if sheet.pass_carry == "cumulative":
        return passes + 1
    return passes


def game_winner(sheet: Scoresheet, values: Sequence[int], hand_winner: Team | None) -> Team | None:
    """The team that won the game with these scores, or None while it goes on.

    Several past the goal at once: the furthest past it, then the hand's winner, then the
    lower team number.
    """
    goal = sheet.goal
    if sheet.direction == "down":
        if min(values) > goal:
            return None
        sign = 1
    else:
        if max(values) < goal:
            return None
        sign = -1
    return max((t for t, v in enumerate(values) if (goal - v) * sign >= 0),
               key=lambda t: ((goal - values[t]) * sign, t == hand_winner, -t))


def settle(sheet: Scoresheet, session: Session, limits: Limits, values: Sequence[int], hand_winner: Team | None,
           game_hands: int, games_won: MutableSequence[int]) -> tuple[int, Team | None]:
    """What follows a scored hand: (NEXT_HAND | NEXT_GAME | SESSION_OVER | ABANDONED, game winner).

    Counts a won game in ``games_won``.
    """
    winner = game_winner(sheet, values, hand_winner)
    if winner is not None:
        games_won[winner] += 1
        return (SESSION_OVER if games_won[winner] >= session.games_to_win else NEXT_GAME), winner
    if game_hands >= limits.max_hands:
        return ABANDONED, None
    return NEXT_HAND, None


class _CardsOf(dict):  # type: ignore[type-arg]
    """mask -> its cards ascending, for random play; filled on first use, emptied when full.

    A dict subclass with ``__missing__`` so the hot loops read it with a plain subscript
    (cheaper than ``.get`` plus a fallback call).
    """

    def __missing__(self, mask: CardMask) -> tuple[Card, ...]:
        if len(self) >= _CARDS_LIMIT:
            self.clear()
        cards = self[mask] = tuple(iter_bits(mask))
        return cards


_CARDS_LIMIT = 1 << 16  # a 24-card deck's hands of up to 4 cards need 12,951 entries
CARDS_OF = _CardsOf()


def random_tricks(ctx: TrumpContext, followers: Sequence[Sequence[int]], team_of: Sequence[Team],
                  bits: Sequence[CardMask], hands: list[CardMask], leader: int, left: int, rnd: Callable[[], float],
                  history: list[int], log: list[tuple[int, tuple[Card, ...], int]],
                  won_points: list[int], won_tricks: list[int]) -> int:
    """Play ``left`` whole tricks from ``leader`` with uniformly random legal cards; the last leader.

    Cards go to ``history``, each trick to ``log`` as (leader, cards, winner), and its
    points and count to the winner's team. Card r of the ascending legal cards is drawn
    with ``r = int(rnd() * count)`` (no draw when only one card is legal), as the
    reference simulator does. In the last trick every hand holds one card, which is then
    its only legal card (a legal set is never empty and lies within the hand): no draw
    and no follow check.
    """
    legal = ctx.legal
    strength = ctx.strength
    points = ctx.points
    card_suit = ctx.card_suit
    play = history.append
    n = len(hands)
    cards_of = CARDS_OF
    for _ in range(left - 1):
        h = hands[leader]
        cards = cards_of[h]
        k = len(cards)
        card = cards[int(rnd() * k)] if k > 1 else cards[0]
        bit = bits[card]
        hands[leader] = h ^ bit
        play(card)
        led = card_suit[card]
        st = strength[led]
        best = st[card]
        win = card
        wseat = leader
        tmask = bit
        tpoints = points[card]
        for seat in followers[leader]:
            h = hands[seat]
            cards = cards_of[legal(h, led, win, tmask)]
            k = len(cards)
            card = cards[int(rnd() * k)] if k > 1 else cards[0]
            bit = bits[card]
            hands[seat] = h ^ bit
            play(card)
            s = st[card]
            if s > best:
                best = s
                win = card
                wseat = seat
            tmask |= bit
            tpoints += points[card]
        team = team_of[wseat]
        won_points[team] += tpoints
        won_tricks[team] += 1
        log.append((leader, tuple(history[-n:]), wseat))
        leader = wseat
    if left > 0:  # the last trick: one card per hand
        card = hands[leader].bit_length() - 1
        play(card)
        st = strength[card_suit[card]]
        best = st[card]
        wseat = leader
        tpoints = points[card]
        for seat in followers[leader]:
            card = hands[seat].bit_length() - 1
            play(card)
            s = st[card]
            if s > best:
                best = s
                wseat = seat
            tpoints += points[card]
        for seat in range(n):
            hands[seat] = 0
        team = team_of[wseat]
        won_points[team] += tpoints
        won_tricks[team] += 1
        log.append((leader, tuple(history[-n:]), wseat))
        leader = wseat
    return leader


def shuffled(cards: Sequence[Card], rnd: Callable[[], float]) -> list[Card]:
    """``cards`` (ascending: a list, or ``range(n)`` for a whole pack) in a uniformly random order.

    Sorting by random keys is a uniform shuffle; ``starmap`` calls ``rnd`` in C, once per
    card in ascending card order, the same draws as a loop would make.
    """
    keys = list(starmap(rnd, repeat((), len(cards))))
    if type(cards) is range:
        return sorted(cards, key=keys.__getitem__)
    return [c for _, c in sorted(zip(keys, cards))]
