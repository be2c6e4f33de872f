"""Why a card is legal or not, and why a trick's winner won, in words naming the rule.

The engine's follow closure decides; this module re-walks the same primitives (design §2,
`play.follow`) to say which one applied, e.g. "must follow suit (♠ led)" or "must
overtrump ♥J". A test checks that the verdicts here always equal the engine's.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from couillon_dsl.cards import Card, CardMask, iter_bits
from couillon_dsl.engine.follow import partner_frees
from couillon_dsl.engine.roles import OPEN_LEAD, led_and_winner
from couillon_dsl.engine.tables import followed_masks, promoted_card
from couillon_dsl.model import Follow, Ruleset, TrumpContext


class PlayedPosition(Protocol):
    """What the explanations read of a game (GameState has it; this module needs no import of it)."""

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def context(self) -> TrumpContext: ...

    def current_player(self) -> int: ...

    def is_playing(self) -> bool: ...

    @property
    def playing_seat(self) -> int: ...

    def hand_of(self, seat: int) -> CardMask: ...

    def view(self, seat: int) -> Any: ...

    def current_trick(self) -> tuple[int, tuple[Card, ...]]: ...

    def in_last_trick(self, index: int | None = None) -> bool: ...

    def finished_tricks(self) -> tuple[tuple[int, tuple[Card, ...], int], ...]: ...

    def barred_leads(self) -> CardMask: ...

    def declared_lead(self) -> CardMask: ...

    def opening_card(self) -> Card: ...

    def first_trick_barred(self) -> CardMask: ...

    def free_play(self) -> bool: ...

    def partner_winning(self) -> bool: ...

    def called_card_due(self) -> Card: ...

    def called_card_bars(self) -> tuple[CardMask, str, int]: ...


def card_text(ruleset: Ruleset, ctx: TrumpContext, card: Card) -> str:
    """``♥J``; a promoted card carries its name: ``♠Q (Mit)``."""
    layout = ruleset.layout
    text = layout.suit_first(card)
    if ctx.promoted >> card & 1:
        printed = 0 <= ctx.trump < len(layout.suits)  # a promotion by rank needs a printed trump suit
        for promotion in ruleset.deck.promotions:
            if (promotion.card is not None or printed) and promoted_card(ruleset.deck, layout, promotion,
                                                                         ctx.trump) == card:
                text += f" ({promotion.name})"
    return text


# what a seat to act outside the play does, by phase name (SeatView.phase)
_BEFORE_PLAY = {"offer": "take or pass the card on offer", "name": "name trump or pass", "choose": "choose trump",
                "auction": "bid or pass",
                "discard": "discard", "bid": "bid", "pass": "pass cards", "announce": "answer an announcement"}


def explain_legal(state: PlayedPosition, seat: int) -> list[tuple[Card, bool, str]]:
    """(card, legal, reason) for every card ``seat`` holds, in ascending card order; equal cards
    (`deck.copies`) once, as the lowest copy held, the one its name plays. A declarer asked to play
    his dummy's card (`play.dummy`) is told of the dummy's cards."""
    playing = state.is_playing() and state.current_player() == seat
    hand = state.ruleset.layout.lowest_copies(state.hand_of(state.playing_seat if playing else seat))
    if not playing:
        phase = state.view(seat).phase
        why = (f"seat {seat} is to {_BEFORE_PLAY.get(phase, phase)} now, not to play a card"
               if state.current_player() == seat else f"it is not seat {seat}'s turn to play")
        return [(c, False, why) for c in iter_bits(hand)]
    return legal_reasons(state.ruleset, state.context, hand, state.current_trick()[1], state.barred_leads(),
                         state.opening_card(), state.first_trick_barred(), state.partner_winning(),
                         state.called_card_due(), state.called_card_bars(), state.in_last_trick(),
                         state.free_play(), state.declared_lead())


def legal_reasons(rs: Ruleset, ctx: TrumpContext, hand: CardMask, trick: tuple[Card, ...],
                  barred: CardMask = 0, opening: Card = -1, first_trick: CardMask = 0,
                  partner_winning: bool = False, due: Card = -1,
                  kept: tuple[CardMask, str, int] = (0, "", 0), last: bool = False,
                  free: bool = False, declared: CardMask = 0) -> list[tuple[Card, bool, str]]:
    """(card, legal, reason) for every card of ``hand`` facing ``trick`` (cards in play order);
    ``barred``: the cards that may not be led yet (`play.lead_once_broken`); ``opening``: the card
    the first trick must be opened with (`play.first_lead_card`), or -1; ``first_trick``: the cards
    kept off this trick while another card may be played (`play.not_on_first_trick`);
    ``partner_winning``: the trick's winning card is a partner's of the seat to play (the trick's
    cards do not say whose they are), for `play.follow.when_partner_winning`; ``due``: the called card
    its holder must play now (`contracts.<id>.call.plays_when_led`), or -1; ``kept``: the cards the
    called card's other duties keep back now, the duty's setting and the call's `runs_away_with`
    (`GameState.called_card_bars`); ``last``: the trick is the hand's last (`play.equal_cards`);
    ``free``: any card may be played while cards are left to draw (`play.draw.follow_obligations`);
    ``declared``: the cards of a `when: led` combination just declared by choice, one of which is led."""
    if declared and not trick:
        return [(c, bool(declared >> c & 1), "the combination just declared is led: one of its cards"
                 if declared >> c & 1 else "having declared a combination, its holder leads one of its cards")
                for c in iter_bits(hand)]
    if free and trick:
        while_stock = rs.play.draw.while_stock if rs.play.draw is not None else None
        if while_stock is None or while_stock.led_suit == "any":
            return [(c, True, "any card may be played while cards are left to draw from the stock")
                    for c in iter_bits(hand)]
        led, win = led_and_winner(ctx, trick, last)
        stock_rule = _verdicts(rs, ctx, hand, led, win, sum(1 << c for c in trick), while_stock)
        return [(c, stock_rule[c][0], f"while cards are left to draw: {stock_rule[c][1]}") for c in iter_bits(hand)]
    if due >= 0:
        return [(c, c == due, "the holder of the called card plays it when its suit is led") for c in iter_bits(hand)]
    verdicts = _lead_or_follow_reasons(rs, ctx, hand, trick, barred, opening, partner_winning, last)
    verdicts = _held_back(verdicts, first_trick, "may not be played to the first trick while another card may be")
    bars, duty, run = kept
    return _held_back(verdicts, bars, _KEPT[duty](rs.layout.suit_symbol(ctx.card_suit[(bars & -bars).bit_length() - 1]), run))\
        if bars else verdicts


def _held_back(verdicts: list[tuple[Card, bool, str]], bars: CardMask, reason: str) -> list[tuple[Card, bool, str]]:
    """``verdicts`` with the legal cards of ``bars`` made illegal for ``reason``, unless no other card is legal."""
    allowed = [c for c, ok, _ in verdicts if ok]
    if not any(bars >> c & 1 for c in allowed) or all(bars >> c & 1 for c in allowed):
        return verdicts
    return [(c, False, reason) if ok and bars >> c & 1 else (c, ok, why) for c, ok, why in verdicts]


# why the called card's duties keep a card back (`contracts.<id>.call`), by setting: from the suit's symbol
# and the call's `runs_away_with`
_KEPT: dict[str, Callable[[str, int], str]] = {
    "leads_it_first": lambda suit, run: f"the holder of the called card leads it before another card of its suit ({suit})"
                                        + (f" unless they hold {run} cards of the suit" if run else ""),
    "kept_until_led": lambda suit, run: "the holder of the called card keeps it until its suit is led, never discarding it "
                                        "on another suit",
    "caller_keeps_suit": lambda suit, run: f"the caller may not discard the called suit ({suit}) before it is led",
    "no_called_suit_first_lead: everyone": lambda suit, run: f"no one may lead the called suit ({suit}) to the first trick, "
                                                       "except with the called card itself",
    "no_called_suit_first_lead: declarer": lambda suit, run: f"the caller may not lead the called suit ({suit}) to the first "
                                                       "trick, except with the called card itself",
}


def _lead_or_follow_reasons(rs: Ruleset, ctx: TrumpContext, hand: CardMask, trick: tuple[Card, ...], barred: CardMask,
                            opening: Card, partner_winning: bool, last: bool) -> list[tuple[Card, bool, str]]:
    """:func:`legal_reasons` before the first trick's bar."""
    if opening >= 0:
        opener = card_text(rs, ctx, opening)
        return [(c, c == opening, f"the holder of {opener} leads it to the first trick") for c in iter_bits(hand)]
    if not trick:
        if not hand & barred or not hand & ~barred:
            return [(c, True, "any card may be led" if not hand & barred else
                     "may be led: the hand holds nothing else") for c in iter_bits(hand)]
        return [(c, False, "may not be led until one of its kind has been played to a trick") if barred >> c & 1
                else (c, True, "may be led") for c in iter_bits(hand)]
    led, win = led_and_winner(ctx, trick, last)
    if led == OPEN_LEAD:
        led_card = card_text(rs, ctx, trick[0])
        return [(c, True, f"{led_card} was led: this card sets the suit") for c in iter_bits(hand)]
    if partner_winning and rs.tables.partner_free and partner_frees(ctx, hand, led):
        void = f"void in {rs.layout.suit_symbol(led)}"
        return [(c, True, f"{void} while a partner's card wins the trick: any card may be played")
                for c in iter_bits(hand)]
    if rs.play.follow.led_suit == "any":
        return [(c, True, "there is no duty to follow suit: any card may be played") for c in iter_bits(hand)]
    tmask = sum(1 << c for c in trick)
    verdicts = _verdicts(rs, ctx, hand, led, win, tmask)
    anytime = rs.tables.roles.anytime if rs.tables.roles is not None else 0
    return [(c, True, "may be played at any time") if anytime >> c & 1 else (c, *verdicts[c])
            for c in iter_bits(hand)]


def explain_trick(state: PlayedPosition, index: int | None = None) -> str:
    """Why the winner of a trick wins: this hand's finished trick ``index``, else the current one."""
    if index is None:
        leader, cards = state.current_trick()
        if not cards and state.finished_tricks():
            index = len(state.finished_tricks()) - 1
            leader, cards, _ = state.finished_tricks()[index]
    else:
        index %= max(1, len(state.finished_tricks()))  # -1: the last finished
        leader, cards, _ = state.finished_tricks()[index]
    if not cards:
        return "no card has been played to this trick"
    last = state.in_last_trick(index)
    return why_wins(state.ruleset, state.context, cards, last)


def why_wins(ruleset: Ruleset, ctx: TrumpContext, cards: tuple[Card, ...], last: bool = False) -> str:
    """The reason the best card of ``cards`` (in play order) takes the trick, the hand's ``last``
    trick or another (`play.equal_cards`)."""
    led, best = led_and_winner(ctx, cards, last)
    reason = _why_best(ruleset, ctx, cards, led, best)
    if ruleset.play.equal_cards is None:
        return reason
    layout = ruleset.layout
    equal = [c for c in cards if c != best and layout.first_copy(c) == layout.first_copy(best)]
    if not equal:
        return reason
    later = "second" if ruleset.deck.copies == 2 else "later"
    which = later if cards.index(best) > cards.index(equal[0]) else "first"
    when = " in the last trick" if last and bool(ctx.later_beats) != bool(ctx.later_beats_last) else ""
    return f"{reason}; of equal cards the {which} played wins{when}"


def _why_best(ruleset: Ruleset, ctx: TrumpContext, cards: tuple[Card, ...], led: int, best: Card) -> str:
    """:func:`why_wins` before the equal cards."""
    text = card_text(ruleset, ctx, best)
    roles = ruleset.tables.roles
    if roles is not None and roles.always_wins >> best & 1:  # `wins: always`: over every card, the first of them
        alike = sum(1 for c in cards if roles.always_wins >> c & 1)
        return f"{text} wins over every card" + (", and was the first of its kind played" if alike > 1 else "")
    if ctx.trump_mask >> best & 1:
        if sum(1 for c in cards if ctx.trump_mask >> c & 1) == 1:
            return f"{text} is the only trump"
        return f"{text} is the highest trump"
    if led == OPEN_LEAD:
        return f"{text} was led alone" if len(cards) == 1 else \
            f"{text} was led and no card after it set a suit: the first played wins"
    symbol = ruleset.layout.suit_symbol(led)
    if ctx.all_suits:
        return f"{text} is the highest card of the led suit ({symbol}); every suit is played as trumps"
    if ctx.trump < 0:
        return f"{text} is the highest card of the led suit ({symbol}); there are no trumps"
    return f"{text} is the highest card of the led suit ({symbol}); no trump was played"



def _verdicts(rs: Ruleset, ctx: TrumpContext, h: CardMask, led: int, win: Card, tmask: CardMask,
              follow: Follow | None = None) -> dict[Card, tuple[bool, str]]:
    """Each card's verdict under ``follow`` (default `play.follow`), walking the follow primitives in the order
    engine.follow applies them."""
    follow = follow or rs.play.follow
    sym = tuple(map(rs.layout.suit_symbol, range(len(ctx.suit_mask))))
    name = lambda c: card_text(rs, ctx, c)
    lm = followed_masks(rs.layout, ctx.suit_mask, ctx.trump)[led]  # an extra led: nobody follows it
    tm = ctx.trump_mask
    out: dict[Card, tuple[bool, str]] = {}

    def mark(mask: CardMask, ok: bool, reason: str) -> None:
        for c in iter_bits(mask & h):
            out.setdefault(c, (ok, reason))

    raising = follow.overtrump == "when_able" or follow.head == "when_able"
    if ctx.all_suits:  # every suit played as trumps: each lead is followed as a trump lead
        have = h & lm
        if not have & ~ctx.exempt:
            mark(h, True, f"void in {sym[led]}: any card (every suit is played as trumps)")
            return out
        up = have & ctx.above[win] if raising else 0
        if up:
            mark(up, True, f"beats {name(win)}")
            mark(have, False, f"must beat {name(win)} (every suit is played as trumps)")
        mark(have, True, f"follows suit ({sym[led]} led)")
        mark(h, False, f"must follow suit ({sym[led]} led)")
        return out
    if led == ctx.trump:
        have = h & lm
        if not have & ~ctx.exempt:
            if have:
                mark(h, True, f"only an exempt trump ({name(have.bit_length() - 1)}) is held: any card")
            mark(h, True, f"no trump to follow the trump lead ({sym[led]}): any card")
            return out
        up = have & ctx.above[win] if raising else 0
        if up:
            mark(up, True, f"overtrumps {name(win)}")
            mark(have, False, f"must overtrump {name(win)} (trumps led)")
        mark(have, True, f"follows the trump lead ({sym[led]})")
        mark(h, False, f"must follow the trump lead ({sym[led]})")
        return out

    trumped = bool(tm >> win & 1)
    over = follow.overtrump == "when_able"
    ban = follow.undertrump == "only_when_forced"

    def trumps(others: CardMask, why_void: str) -> None:
        t = h & tm
        if not t or not trumped:
            mark(t, True, f"trumps ({why_void})")
            return
        up = t & ctx.above[win]
        if over and up:
            mark(up, True, f"overtrumps {name(win)}")
            mark(t, False, f"must overtrump {name(win)}")
        elif ban and others:
            mark(up, True, f"overtrumps {name(win)}")
            mark(t, False, f"may not undertrump {name(win)} while holding another legal card")
        else:
            mark(t, True, f"trumps ({why_void}); cannot overtrump {name(win)}" if over else f"trumps ({why_void})")

    have = h & lm
    if have:
        if follow.head == "when_able" and (follow.head_when_trumped or not trumped):
            led_cards = tmask & lm
            best = (led_cards & -led_cards).bit_length() - 1
            up = have & ctx.above[best]
            if up:
                mark(up, True, f"heads {name(best)}")
                mark(have, False, f"must head {name(best)} (beat the best {sym[led]})")
        mark(have, True, f"follows suit ({sym[led]} led)")
        if follow.led_suit == "must_follow":
            mark(h, False, f"must follow suit ({sym[led]} led)")
            return out
        trumps(have, "instead of following")
        mark(h, False, f"must follow suit or trump ({sym[led]} led)")
        return out
    rest = h & ~tm
    if follow.when_void == "must_trump" and h & tm:
        # a void player must trump when a playable trump exists; mark the trumps first
        before = dict(out)
        trumps(rest, f"void in {sym[led]}")
        playable = [c for c, (ok, _) in out.items() if ok and c not in before]
        if playable:
            mark(rest, False, f"void in {sym[led]}: must trump")
            return out
    mark(rest, True, f"void in {sym[led]}: any card")
    trumps(rest, f"void in {sym[led]}")
    return out
