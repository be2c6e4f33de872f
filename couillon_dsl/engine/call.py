"""The called partner: once a contract with a `call` is fixed, its declarer calls a card, and
whoever holds it plays on his side, hidden until the card is played.

The call comes after the contract and the kitty, before anything else the hand asks (phase
``call``, actions ``call CARD``), or with ``when: before_kitty`` as soon as the contract is fixed,
before its kitty is shown or taken (the kitty stays out of every view until then). Which cards
may be called is :func:`legal_calls`: one of the call's ``cards`` (or of an ``otherwise`` tier when the declarer
holds every card of ``cards`` and of the tiers before it), not one he
holds unless ``own: alone``, and with ``must_hold_suit`` only while he holds a card of its suit
that is not a trump. A contract with a call is bid only on a ladder (`call-needs-ladder`), and
only by a seat with a legal call (:meth:`CallPhase.may_call`), unless ``if_none: alone``; a declarer
with no legal call when the call comes (after a discard, or by ``if_none: alone``) is not asked and
plays alone, so the phase, when entered, always has a legal action.

The sides are fixed at the call: side 0 the declarer and the holder of the called card (the
declarer alone when he holds it or nobody does), side 1 the rest. The call is public, the holder
is not: ``GameState.sides_known_to`` reads :meth:`CallPhase._hidden_side_cards` as it reads the
side card of `players.sides: card_holders`, so the holder knows, and the others learn when the
card is played.

In the play the call's duties bind the holder and the declarer: :meth:`CallPhase.called_card_due`
(`plays_when_led`) and, until a trick has been led in the called card's suit,
:meth:`CallPhase.called_card_bars` (`leads_it_first` with `runs_away_with`, `kept_until_led`,
`caller_keeps_suit`; and `play.no_called_suit_first_lead` for the first trick's lead),
which ``legal_mask`` applies as it applies the other play rules.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from couillon_dsl.cards import Card, CardMask, DeckLayout
from couillon_dsl.engine.actions import CALL
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.model import Contract, Deck, TrumpContext


class CallTable(NamedTuple):
    """One contract's call compiled: the cards as masks, the two rules as flags."""

    cards: CardMask
    otherwise: tuple[CardMask, ...]  # each callable too when the declarer holds every card of ``cards`` and the tiers before
    must_hold_suit: bool
    alone: bool  # own: alone (calling a card he holds is allowed, and he plays alone)
    plays_when_led: bool  # its holder must play it to a trick of its suit
    leads_it_first: bool  # its holder leads no other card of its suit before the suit is led ...
    runs_away_with: int  # ... unless he holds this many cards of the suit (0: never)
    kept_until_led: bool  # its holder keeps it off tricks of other suits until its suit is led
    caller_keeps_suit: bool  # the declarer keeps its suit off tricks of other suits until its suit is led
    first_lead: str | None  # play.no_called_suit_first_lead: whose first lead may not open its suit (everyone | declarer)
    bars: bool  # any of the five above
    before_kitty: bool  # when: before_kitty (called as soon as the contract is fixed, from the dealt hand)
    bid_without: bool  # if_none: alone (a seat with no card to call may bid; it plays alone)
    nobody: bool  # alone_by_choice (the declarer may call nobody, ``call nobody``, and play alone)


NOBODY = -2  # ``_called`` once the declarer called nobody (`alone_by_choice`): the call is made, the sides public


def call_tables(layout: DeckLayout, deck: Deck, contracts: Sequence[Contract],
                first_lead: str | None = None) -> tuple[CallTable | None, ...]:
    """Contract index -> its call compiled (None without one), with `play.no_called_suit_first_lead`
    (``first_lead``); () when no contract has a call."""
    def mask(cards: tuple[str, ...] | str) -> CardMask:
        return layout.parse_mask(list(deck.card_sets[cards] if isinstance(cards, str) else cards))

    if not any(c.call for c in contracts):
        return ()
    return tuple(CallTable(mask(c.call.cards), tuple(map(mask, c.call.otherwise)), c.call.must_hold_suit, c.call.own == "alone",
                           c.call.plays_when_led, c.call.leads_it_first, c.call.runs_away_with, c.call.kept_until_led,
                           c.call.caller_keeps_suit, first_lead, c.call.bars or first_lead is not None, c.call.when == "before_kitty",
                           c.call.if_none == "alone", c.call.alone_by_choice) if c.call else None
                 for c in contracts)


def legal_calls(table: CallTable, hand: CardMask, ctx: TrumpContext, suit_of: Sequence[int]) -> CardMask:
    """The cards a declarer holding ``hand`` may call under the contract's trump context ``ctx``."""
    pool = tier = table.cards
    for fallback in table.otherwise:
        if tier & ~hand:
            break
        pool |= (tier := fallback)
    if not table.alone:
        pool &= ~hand
    if table.must_hold_suit:
        plain = hand & ~ctx.trump_mask
        pool = sum(1 << c for c in range(len(suit_of)) if pool >> c & 1 and plain & ctx.suit_mask[suit_of[c]])
    return pool


def needed_to_call(table: CallTable, card: Card) -> CardMask:
    """The cards a declarer must hold to call ``card`` at all (:func:`legal_calls`): every card of the
    tiers before the first one that has it (none for a card of ``cards``). A call is public, so a
    sampler may read it: a fallback tier's card called says where the earlier tiers' cards were."""
    needed = 0
    for tier in (table.cards, *table.otherwise):
        if tier >> card & 1:
            return needed
        needed |= tier
    return 0


class CallPhase(StateFields):
    """The declarer's call of his partner's card."""

    __slots__ = ()

    def _ask_call(self, before_kitty: bool = False) -> bool:
        """True when the contract fixed has a call made now (``before_kitty``: as the contract is fixed,
        else before play) and not made yet: the declarer is asked for it (phase ``call``)."""
        calls = self._t.calls
        if not calls or self._contract < 0 or self._decider is None or self._called != -1:
            return False
        table = calls[self._contract]
        if table is None or table.before_kitty != before_kitty:
            return False
        if before_kitty:  # the contract's context now (play sets it again once the deal is over)
            self._ctx = self._contract_context(self._contract)
        if not legal_calls(table, self._hands[self._decider], self._ctx, self._t.suit_of):
            return False  # nothing to call (`if_none: alone`, or a discard that kept none): he plays alone
        self._phase = CALL
        return True

    def _contract_context(self, contract: int) -> TrumpContext:
        """The trump context ``contract`` is played in, with the promotions in force now."""
        t = self._t
        return t.contexts[t.contract_base[contract] + (((t.contract_trump[contract] + 1) << len(t.promotion_cards))
                                                       | self._promo)]

    def call_mask(self) -> CardMask:
        """The cards the declarer may call now (phase ``call``)."""
        return legal_calls(self._t.calls[self._contract], self._hands[self._decider],  # type: ignore[index]
                           self._ctx, self._t.suit_of)

    def may_call(self, seat: int, contract: int) -> bool:
        """Whether ``seat`` could call a card if it declared ``contract`` now (always, without a call):
        a contract with a call is bid only by a seat that has a legal call."""
        calls = self._t.calls
        table = calls[contract] if calls else None
        if table is None or table.bid_without:
            return True
        return bool(legal_calls(table, self._hands[seat], self._contract_context(contract), self._t.suit_of))

    def _call(self, card: Card) -> None:
        """The declarer calls ``card``: its holder joins his side (nobody does when he holds it or nobody does:
        it lies in the kitty); ``card`` one past the deck's last card calls nobody (`alone_by_choice`), and he
        plays alone, every side public. A call before the kitty goes on with the kitty and the rest of the deal."""
        declarer = self._decider
        alone = card == self._acts.ncards
        self._called = NOBODY if alone else card
        holder = declarer if alone else next((s for s, hand in enumerate(self._hands) if hand >> card & 1), declarer)
        self._side_of = tuple(0 if s in (declarer, holder) else 1 for s in range(self._n))
        if self._t.calls[self._contract].before_kitty:
            self._continue_deal()
        else:
            self._before_play()

    def called_card_due(self) -> Card:
        """The called card when the seat to play holds it and must play it now (`plays_when_led`: a
        trick of its suit was led), else -1."""
        card = self._called
        if card < 0 or not self._trick or not self._hands[self._turn] >> card & 1 \
                or not self._t.calls[self._contract].plays_when_led:
            return -1
        return card if self._led == self._ctx.card_suit[card] else -1

    def called_suit_led(self) -> bool:
        """Whether a trick has been led in the called card's suit this hand, the trick in progress included
        (public: the duties that keep cards back until then lapse)."""
        ctx, card = self._ctx, self._called
        suit = ctx.card_suit[card]
        if self._trick and self._led == suit:
            return True
        return any(ctx.card_suit[cards[0]] == suit for _, cards, _ in self._log)

    def called_card_bars(self) -> tuple[CardMask, str, int]:
        """The cards of the seat to play that the called card's duties keep back now, with the duty's
        setting and the call's `runs_away_with`, until a trick of its suit has been led: on lead, the
        holder's other cards of its suit (`leads_it_first`, unless he holds `runs_away_with` of them);
        on another suit's trick, the called card (`kept_until_led`, its holder) or every card of its
        suit (`caller_keeps_suit`, the declarer). First, on the first trick's lead, every card of its
        suit but the called card (`play.no_called_suit_first_lead`: any leader, or the declarer). (0, "", 0) when
        none applies; the engine lifts a bar that would leave no card. Each reads the seat's own hand
        and public facts only, so it tells no other seat who holds the card."""
        card = self._called
        table: CallTable | None = self._t.calls[self._contract] if card >= 0 else None
        if table is None or not table.bars:
            return 0, "", 0
        hand = self._hands[self._turn]
        if table.first_lead is not None and not self._trick and not self._trick_no \
                and (table.first_lead == "everyone" or self._turn == self._decider):
            return hand & self._ctx.suit_mask[self._ctx.card_suit[card]] & ~(1 << card), \
                f"no_called_suit_first_lead: {table.first_lead}", 0
        holder = bool(hand >> card & 1)
        caller = table.caller_keeps_suit and self._turn == self._decider and bool(self._trick)
        if not (holder and (table.kept_until_led if self._trick else table.leads_it_first)) and not caller:
            return 0, "", 0
        if self.called_suit_led():
            return 0, "", 0
        suit_cards = hand & self._ctx.suit_mask[self._ctx.card_suit[card]]
        if not self._trick:
            if table.runs_away_with and suit_cards.bit_count() >= table.runs_away_with:
                return 0, "", 0
            return suit_cards & ~(1 << card), "leads_it_first", table.runs_away_with
        if caller:
            return suit_cards, "caller_keeps_suit", 0
        return 1 << card, "kept_until_led", 0

    def _keep_back_called(self, legal: CardMask) -> CardMask:
        """``legal`` without the cards the called card's duties keep back now, unless nothing else is legal."""
        if self._called < 0:
            return legal
        bars = self.called_card_bars()[0]
        return legal & ~bars or legal

    def _hidden_side_cards(self) -> CardMask:
        """The cards whose holders' sides are hidden until they are played: `card_holders`' side card
        (or the one of the hand everyone passed into), or the card called this hand (0: the sides are public)."""
        return self._hand_side_cards() or (1 << self._called if self._called >= 0 else 0)

    @property
    def called(self) -> Card:
        """The card the declarer called this hand (public), -1 before a call or without one."""
        return self._called
