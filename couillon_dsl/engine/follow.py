"""Follow obligations as composable primitives on card masks, specialised per trump context.

The language's `play.follow` keys are orthogonal primitives (what holding the led suit
allows, what a void player must do, heading, overtrumping, the undertrump ban, exempt
cards). :func:`make_legal` turns one configuration plus one trump context's masks into a
closure ``legal(hand, led, win, trick) -> mask``; the common configurations without any
raising obligation reduce to three masks (:func:`plain_masks`) and a one-line closure, the
rest get one general closure whose branches were decided here, once. The caller handles
the lead itself (any card may be led).

Arguments of the closure: ``hand`` the mask of the player's cards, ``led`` the effective
suit of the first card, ``win`` the card currently winning the trick, ``trick`` the mask of
the cards played to it so far.

The closure knows no seats. `when_partner_winning: free` does: :func:`partner_frees` is asked
only where the seat to play and the winning card's seat are known (``GameState.legal_mask``,
the explanations, the sampler's inferences), in rulesets that set it.
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

from couillon_dsl.cards import CardMask
from couillon_dsl.model import Follow, TrumpContext

LegalFn = Callable[[int, int, int, int], int]


class FollowMasks(NamedTuple):
    """A follow rule that depends only on the hand and the led suit (:func:`plain_masks`)."""

    have: tuple[CardMask, ...]  # led suit -> the cards that oblige
    allowed: tuple[CardMask, ...]  # led suit -> what a player holding one may play
    void: CardMask  # what a void player must play when it holds any (0: anything)


def make_legal(
    follow: Follow,
    suit_mask: Sequence[CardMask],
    trump: int,
    trump_mask: CardMask,
    above: Sequence[CardMask],
    exempt: CardMask,
    all_suits: bool = False,
) -> LegalFn:
    """The legal-card closure for one follow configuration in one trump context; ``all_suits``: no
    trump suit, every led suit followed as a trump lead is (a contract of `trump: all_suits`)."""
    if follow.led_suit == "any":  # no duty to follow: every card of the hand
        return _any_card
    SM = tuple(suit_mask)
    TM = trump_mask
    must_follow = follow.led_suit == "must_follow"
    must_trump = follow.when_void == "must_trump"
    head = follow.head == "when_able"
    head_when_trumped = follow.head_when_trumped
    overtrump = follow.overtrump == "when_able"
    undertrump_ban = follow.undertrump == "only_when_forced"
    raise_trump = overtrump or head  # on a trump lead, heading is overtrumping

    masks = plain_masks(follow, SM, TM, exempt)
    if masks is not None:
        have_masks, allowed_masks, void_mask = masks

        def plain(h: int, led: int, win: int, trick: int) -> int:
            return h & allowed_masks[led] if h & have_masks[led] else (h & void_mask or h)
        return plain

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
        if led == trump or all_suits:
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


def _any_card(h: int, led: int, win: int, trick: int) -> int:
    return h


def plain_masks(follow: Follow, suit_mask: Sequence[CardMask], trump_mask: CardMask,
                exempt: CardMask) -> FollowMasks | None:
    """A follow rule without heading, overtrumping, undertrump ban or exempt cards, as masks.

    Such a rule looks only at the hand and the led suit: a hand holding a card of
    ``have[led]`` may play its cards in ``allowed[led]``; a void hand must play its cards
    in ``void`` when it has any, otherwise anything. The random play loop applies it inline
    (engine.hand.random_tricks); None for the rules that need the closure.
    """
    if follow.head == "when_able" or follow.overtrump == "when_able" or follow.undertrump == "only_when_forced" \
            or exempt:
        return None
    if follow.led_suit == "any":  # holding the led suit obliges nothing: every card is allowed
        every = trump_mask
        for mask in suit_mask:
            every |= mask
        return FollowMasks(tuple(suit_mask), (every,) * len(suit_mask), 0)
    must_follow = follow.led_suit == "must_follow"
    allowed = tuple(lm if must_follow else lm | trump_mask for lm in suit_mask)
    return FollowMasks(tuple(suit_mask), allowed, trump_mask if follow.when_void == "must_trump" else 0)


def partner_frees(ctx: TrumpContext, hand: CardMask, led: int) -> bool:
    """Whether `when_partner_winning: free` lets ``hand`` play any card while a partner's card wins
    the trick: it holds no card of the led suit, a plain suit (a trump lead is followed as usual)."""
    return 0 <= led != ctx.trump and not hand & ctx.suit_mask[led]
