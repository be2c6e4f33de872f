"""The called partner: once a contract with a `call` is fixed, its declarer calls a card, and
whoever holds it plays on his side, hidden until the card is played.

The call comes after the contract and the kitty, before anything else the hand asks (phase
``call``, actions ``call CARD``), or with ``when: before_kitty`` as soon as the contract is fixed,
before its kitty is shown or taken (the kitty stays out of every view until then). Which cards may be called is :func:`legal_calls`: one of the
call's ``cards`` (or of ``otherwise`` when the declarer holds every one of them), not one he
holds unless ``own: alone``, and with ``must_hold_suit`` only while he holds a card of its suit
that is not a trump. A contract with a call is bid only on a ladder (`call-needs-ladder`), and
only by a seat with a legal call (:meth:`CallPhase.may_call`), so the phase always has one.

The sides are fixed at the call: side 0 the declarer and the holder of the called card (the
declarer alone when he holds it or nobody does), side 1 the rest. The call is public, the holder
is not: ``GameState.sides_known_to`` reads :meth:`CallPhase._hidden_side_cards` as it reads the
side card of `players.sides: card_holders`, so the holder knows, and the others learn when the
card is played.
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
    otherwise: CardMask  # callable too when the declarer holds every card of ``cards``
    must_hold_suit: bool
    alone: bool  # own: alone (calling a card he holds is allowed, and he plays alone)
    plays_when_led: bool  # its holder must play it to a trick of its suit
    before_kitty: bool  # when: before_kitty (called as soon as the contract is fixed, from the dealt hand)


def call_tables(layout: DeckLayout, deck: Deck, contracts: Sequence[Contract]) -> tuple[CallTable | None, ...]:
    """Contract index -> its call compiled (None without one); () when no contract has a call."""
    def mask(cards: tuple[str, ...] | str) -> CardMask:
        return layout.parse_mask(list(deck.card_sets[cards] if isinstance(cards, str) else cards))

    if not any(c.call for c in contracts):
        return ()
    return tuple(CallTable(mask(c.call.cards), mask(c.call.otherwise), c.call.must_hold_suit, c.call.own == "alone",
                           c.call.plays_when_led, c.call.when == "before_kitty") if c.call else None
                 for c in contracts)


def legal_calls(table: CallTable, hand: CardMask, ctx: TrumpContext, suit_of: Sequence[int]) -> CardMask:
    """The cards a declarer holding ``hand`` may call under the contract's trump context ``ctx``."""
    pool = table.cards | (table.otherwise if not table.cards & ~hand else 0)
    if not table.alone:
        pool &= ~hand
    if table.must_hold_suit:
        plain = hand & ~ctx.trump_mask
        pool = sum(1 << c for c in range(len(suit_of)) if pool >> c & 1 and plain & ctx.suit_mask[suit_of[c]])
    return pool


class CallPhase(StateFields):
    """The declarer's call of his partner's card."""

    __slots__ = ()

    def _ask_call(self, before_kitty: bool = False) -> bool:
        """True when the contract fixed has a call made now (``before_kitty``: as the contract is fixed,
        else before play) and not made yet: the declarer is asked for it (phase ``call``)."""
        calls = self._t.calls
        if not calls or self._contract < 0 or self._decider is None or self._called >= 0:
            return False
        table = calls[self._contract]
        if table is None or table.before_kitty != before_kitty:
            return False
        if before_kitty:  # the contract's context now (play sets it again once the deal is over)
            self._ctx = self._contract_context(self._contract)
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
        if table is None:
            return True
        return bool(legal_calls(table, self._hands[seat], self._contract_context(contract), self._t.suit_of))

    def _call(self, card: Card) -> None:
        """The declarer calls ``card``: its holder joins his side (nobody does when he holds it or nobody does:
        it lies in the kitty). A call before the kitty goes on with the kitty and the rest of the deal."""
        declarer = self._decider
        self._called = card
        holder = next((s for s, hand in enumerate(self._hands) if hand >> card & 1), declarer)
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

    def _hidden_side_cards(self) -> CardMask:
        """The cards whose holders' sides are hidden until they are played: `card_holders`' side card,
        or the card called this hand (0: the sides are public)."""
        return self._t.side_cards or (1 << self._called if self._called >= 0 else 0)

    @property
    def called(self) -> Card:
        """The card the declarer called this hand (public), -1 before a call or without one."""
        return self._called
