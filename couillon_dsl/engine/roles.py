"""Card roles: cards that play by rules of their own (an Excuse, a joker), compiled to masks.

A role may let its cards be played to any trick (``anytime``), keep them from winning
(``never_wins``, except to complete a sweep: ``sweep``), let the next card set the suit when
one is led (``open_lead``), and send them back to their owner's side with a compensation
(``kept``). Rulesets without roles have ``Tables.roles = None`` and never reach this module
during play; with roles, the trick's led suit and winner come from :func:`led_and_winner`
everywhere (the engine, the explanations, PIMC's inferences), and a finished trick's points
from :func:`settle_trick`.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from couillon_dsl.cards import Card, CardMask
from couillon_dsl.model import TrumpContext

OPEN_LEAD = -2  # the led "suit" while the led card waits for the next one to set it


class RoleTables(NamedTuple):
    """The card roles of a ruleset as masks (card points in the engine's unit)."""

    cards: CardMask  # every card with a role
    anytime: CardMask
    never_wins: CardMask  # includes the sweep cards
    sweep: CardMask  # never win, except the last trick when their side took every other one
    open_lead: CardMask
    kept: CardMask
    compensation: int
    on_last_trick: str  # changes_sides | to_trick_winner | kept


def led_and_winner(ctx: TrumpContext, cards: Sequence[Card]) -> tuple[int, Card]:
    """The suit to follow and the winning card of a trick in progress (cards in play order)."""
    first = cards[0]
    if ctx.open_lead >> first & 1:
        if len(cards) == 1:
            return OPEN_LEAD, first
        led = ctx.card_suit[cards[1]]
    else:
        led = ctx.card_suit[first]
    strength = ctx.strength[led]
    return led, max(cards, key=strength.__getitem__)  # the first of equals, as in play


def settle_trick(roles: RoleTables, points: Sequence[int], team_of: Sequence[int], nteams: int,
                 cards: Sequence[Card], seats: Sequence[int], winner: int, last: bool,
                 tricks: Sequence[int], trick_no: int) -> tuple[int, list[int]]:
    """The seat that takes a finished trick holding role cards, and the card points each team
    gets from it: a sweep card completes its side's sweep on the last trick; a kept card
    goes back to its owner's side, which pays the winners the compensation (on the last trick
    it may instead change sides or go with the trick)."""
    if last and roles.sweep:
        for card, seat in zip(cards, seats):
            if roles.sweep >> card & 1 and tricks[team_of[seat]] == trick_no:
                winner = seat
    shares = [0] * nteams
    shares[team_of[winner]] = sum(points[c] for c in cards)
    won_by = team_of[winner]
    for card, seat in zip(cards, seats):
        owner = team_of[seat]
        if not roles.kept >> card & 1:
            continue
        if seat == winner:  # it completed a sweep: it stays with the trick
            continue
        if last and roles.on_last_trick == "changes_sides":
            other = (owner + 1) % nteams  # the owner's opponents (two sides; else the next team)
            shares[won_by] -= points[card]
            shares[other] += points[card]
        elif owner != won_by and not (last and roles.on_last_trick == "to_trick_winner"):
            moved = points[card] - roles.compensation
            shares[won_by] -= moved
            shares[owner] += moved
    return winner, shares
