"""Card roles: cards that play by rules of their own (an Excuse, a joker), compiled to masks.

A role may let its cards be played to any trick (``anytime``), keep them from winning
(``never_wins``, except to complete a sweep: ``sweep``) or make them win over every other card
(``always_wins``), let the next card set the suit when
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
    always_wins: CardMask  # beat every other card, trumps too; of several in a trick the first played wins
    sweep: CardMask  # never win, except the last trick when their side took every other one
    open_lead: CardMask
    kept: CardMask
    compensation: int
    on_last_trick: str  # changes_sides | to_trick_winner | kept


def led_and_winner(ctx: TrumpContext, cards: Sequence[Card], last: bool = False) -> tuple[int, Card]:
    """The suit to follow and the winning card of a trick in progress (cards in play order), in
    the hand's ``last`` trick or another (`play.equal_cards`: which of equal cards wins)."""
    first = cards[0]
    if ctx.open_lead >> first & 1:  # the first card without that role sets the suit
        setter = next((card for card in cards if not ctx.open_lead >> card & 1), -1)
        if setter < 0:
            return OPEN_LEAD, first
        led = ctx.card_suit[setter]
    else:
        led = ctx.card_suit[first]
    strength = ctx.strength[led]
    later = ctx.later_beats_last if last else ctx.later_beats
    if not later:
        return led, max(cards, key=strength.__getitem__)  # the first of equals, as in play
    win = first
    for card in cards:
        if strength[card] > strength[win] or later[card] >> win & 1:
            win = card
    return led, win


def later_copy_wins(ctx: TrumpContext, card: Card, win: Card, last: bool) -> bool:
    """Whether ``card``, a copy of ``win`` (the trick's winning card so far) played after it, takes
    its place (`play.equal_cards`; ``last``: in the hand's last trick); False for any other card."""
    later = ctx.later_beats_last if last else ctx.later_beats
    return bool(later) and bool(later[card] >> win & 1)


def trick_winner(roles: RoleTables, team_of: Sequence[int], cards: Sequence[Card], seats: Sequence[int],
                 winner: int, last: bool, tricks: Sequence[int], trick_no: int) -> int:
    """The seat that takes a finished trick: a sweep card completes its side's sweep on the last trick."""
    if last and roles.sweep:
        for card, seat in zip(cards, seats):
            if roles.sweep >> card & 1 and tricks[team_of[seat]] == trick_no:
                return seat
    return winner


def card_owners(roles: RoleTables, team_of: Sequence[int], nteams: int, cards: Sequence[Card],
                seats: Sequence[int], winner: int, last: bool) -> list[int]:
    """The team each card of a finished trick goes to: the winners', except a kept card, which goes
    back to its owner's side (on the last trick it may instead change sides or go with the trick)."""
    won_by = team_of[winner]
    owners = []
    for card, seat in zip(cards, seats):
        owner = won_by
        if roles.kept >> card & 1 and seat != winner:  # a kept card that completed a sweep stays with it
            if last and roles.on_last_trick == "changes_sides":
                owner = (team_of[seat] + 1) % nteams  # the owner's opponents (two sides; else the next team)
            elif not (last and roles.on_last_trick == "to_trick_winner"):
                owner = team_of[seat]
        owners.append(owner)
    return owners


def settle_trick(roles: RoleTables, points: Sequence[int], team_of: Sequence[int], nteams: int,
                 cards: Sequence[Card], seats: Sequence[int], winner: int, last: bool,
                 tricks: Sequence[int], trick_no: int) -> tuple[int, list[int]]:
    """The seat that takes a finished trick holding role cards, and the card points each team gets
    from it; a side that gets back its kept card pays the trick's winners the compensation."""
    winner = trick_winner(roles, team_of, cards, seats, winner, last, tricks, trick_no)
    won_by = team_of[winner]
    shares = [0] * nteams
    for card, seat, owner in zip(cards, seats, card_owners(roles, team_of, nteams, cards, seats, winner, last)):
        shares[owner] += points[card]
        if owner == team_of[seat] != won_by:  # kept by its owner's side: the compensation goes to the winners
            shares[owner] -= roles.compensation
            shares[won_by] += roles.compensation
    return winner, shares


def won_cards(roles: RoleTables | None, team_of: Sequence[int], nteams: int, rounds: Sequence[Sequence[int]],
              log: Sequence[tuple[int, tuple[Card, ...], int]], finished: bool = True
              ) -> tuple[tuple[int, ...], tuple[int | None, int, tuple[tuple[int, int | None, int], ...]]]:
    """The cards each team's tricks took (card roles applied); the last trick's winning team and cards;
    and every trick's cards, winning team and winning card (the `trick_log` fact). While the hand is
    not ``finished`` its latest trick is not the last, whose rules a card role may have."""
    won = [0] * nteams
    tricks = []
    for i, (leader, cards, winner) in enumerate(log):
        mask = 0
        for card in cards:
            mask |= 1 << card
        team = team_of[winner]
        if roles is not None and mask & roles.cards:
            for card, owner in zip(cards, card_owners(roles, team_of, nteams, cards, rounds[leader], winner,
                                                      finished and i == len(log) - 1)):
                won[owner] |= 1 << card
        else:
            won[team] |= mask
        tricks.append((mask, team, cards[rounds[leader].index(winner)]))
    if not log:
        return tuple(won), (None, 0, ())
    return tuple(won), (tricks[-1][1], tricks[-1][0], tuple(tricks))
