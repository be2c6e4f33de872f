"""Follow obligations as composable primitives on card masks, specialised per trump context.

The language's `play.follow` keys are orthogonal primitives (what holding the led suit
allows, what a void player must do, heading, overtrumping, the undertrump ban, exempt
cards). :func:`make_legal` turns one configuration plus one trump context's masks into a
closure ``legal(hand, led, win, trick) -> mask``; the common configurations without any
raising obligation get a two-line closure, the rest one general closure whose branches
were decided here, once. The caller handles the lead itself (any card may be led).

Arguments of the closure: ``hand`` the mask of the player's cards, ``led`` the effective
suit of the first card, ``win`` the card currently winning the trick, ``trick`` the mask of
the cards played to it so far.
"""
from __future__ import annotations

from typing import Callable, Sequence

from couillon_dsl.cards import CardMask
from couillon_dsl.model import Follow

LegalFn = Callable[[int, int, int, int], int]


def make_legal(
    follow: Follow,
    suit_mask: Sequence[CardMask],
    trump: int,
    trump_mask: CardMask,
    above: Sequence[CardMask],
    exempt: CardMask,
) -> LegalFn:
    """The legal-card closure for one follow configuration in one trump context."""
    SM = tuple(suit_mask)
    TM = trump_mask
    must_follow = follow.led_suit == "must_follow"
    must_trump = follow.when_void == "must_trump"
    head = follow.head == "when_able"
    head_when_trumped = follow.head_when_trumped
    overtrump = follow.overtrump == "when_able"
    undertrump_ban = follow.undertrump == "only_when_forced"
    raise_trump = overtrump or head  # on a trump lead, heading is overtrumping

    if not (head or overtrump or undertrump_ban or exempt):
        return _plain_legal(SM, TM, must_follow, must_trump)

    AB = tuple(above)
    NOT_EX = ~exempt

    def trumps(t: int, trumped: int, win: int, others: int) -> int:
        """The trumps of ``t`` that may be played, given the other legal cards ``others``."""
        if not (t and trumped):
            return t
        up = t & AB[win]
        if overtrump and up:
            return up
        if undertrump_ban and others:
            return up  # a lower trump only when nothing else is legal
        return t

    def legal(h: int, led: int, win: int, trick: int) -> int:
        lm = SM[led]
        if led == trump:
            have = h & lm
            if not have & NOT_EX:
                return h  # no trump, or only an exempt one: any card
            if raise_trump:
                up = have & AB[win]  # trumps were led, so `win` is the best trump
                if up:
                    return up
            return have
        trumped = TM >> win & 1
        have = h & lm
        if have:
            if head and (head_when_trumped or not trumped):
                led_cards = trick & lm
                best = (led_cards & -led_cards).bit_length() - 1  # lowest bit = highest plain rank
                up = have & AB[best]
                if up:
                    have = up
            if must_follow:
                return have
            return have | trumps(h & TM, trumped, win, have)
        rest = h & ~TM
        playable = trumps(h & TM, trumped, win, rest)
        if must_trump and playable:
            return playable
        return rest | playable

    return legal


def _plain_legal(SM: tuple[CardMask, ...], TM: CardMask, must_follow: bool, must_trump: bool) -> LegalFn:
    """Closures for the four rules without heading, overtrumping or undertrump ban."""
    if must_follow and not must_trump:
        def legal(h: int, led: int, win: int, trick: int) -> int:
            have = h & SM[led]
            return have if have else h
    elif not must_follow and not must_trump:
        def legal(h: int, led: int, win: int, trick: int) -> int:
            lm = SM[led]
            return h & (lm | TM) if h & lm else h
    elif must_follow:
        def legal(h: int, led: int, win: int, trick: int) -> int:
            have = h & SM[led]
            if have:
                return have
            return h & TM or h
    else:
        def legal(h: int, led: int, win: int, trick: int) -> int:
            lm = SM[led]
            if h & lm:
                return h & (lm | TM)
            return h & TM or h
    return legal
