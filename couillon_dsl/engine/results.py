"""What a game tells the outside world: hand summaries, results, one seat's view, and who played which card."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from couillon_dsl.cards import Card, CardMask
from couillon_dsl.model import Team


@lru_cache(maxsize=64)
def play_orders(nseats: int, sitting_out: tuple[int, ...] = ()) -> tuple[tuple[int, ...], ...]:
    """Per leader, the seats in the order they play to his trick, clockwise, without the seats
    sitting the hand out: the i-th card of a trick ``leader`` led is ``play_orders(n, out)[leader][i]``,
    and a trick is complete with ``len(play_orders(n, out)[leader])`` cards. A seat sitting out
    never leads; its row starts with the next seat in play (who leads when it would have).

    >>> play_orders(4, (2,))[1]
    (1, 3, 0)
    >>> play_orders(4, (2,))[2]
    (3, 0, 1)
    """
    return tuple(tuple(seat for seat in ((leader + k) % nseats for k in range(nseats)) if seat not in sitting_out)
                 for leader in range(nseats))


class HandSummary(NamedTuple):
    """One finished or passed-out hand, for statistics and records.

    ``trump_path`` says how trump was fixed: accepted, next_card (accepted after a re-offer),
    bottom_card, named, shown, deferred, turned (the last face-up card, nobody deciding), drawn (a suit drawn by
    chance after the deal, `trump.method: drawn`), none,
    or redeal (passed out), all_passed (every seat passed the auction: its `on_all_pass` contract is played,
    each seat a side of its own, nobody the maker). ``decisions`` are the
    trump decisions in order as (seat, "accept"|"pass"|"name"|"show"|"defer"); ``outcome``
    is winner, tie, no_score or passed_out; ``deltas`` and ``scores`` (after the hand) are
    per team (per seat when the sides change with each hand: then ``maker``, ``winner``, ``points``
    and ``tricks`` are the hand's ``sides``, seat ``s`` playing on ``sides[s]``). ``melds`` lists the declarations made, whether or not their side kept them;
    ``declared`` what each team kept of them, per declaration kind.
    """

    game: int
    number: int
    dealer: int
    trump: str | None
    trump_path: str
    maker: Team | None
    deciding_seat: int | None
    decisions: tuple[tuple[int, str], ...]
    points: tuple[int, ...]
    tricks: tuple[int, ...]
    outcome: str
    winner: Team | None
    all_tricks: bool
    announcements: tuple[tuple[str, int], ...]
    points_in_play: int
    multiplier: int
    deltas: tuple[int, ...]
    scores: tuple[int, ...]
    played_tricks: tuple[tuple[int, tuple[Card, ...], int], ...]  # (leader, cards in play order, winner)
    melds: tuple[tuple[str, str, int, int, CardMask], ...] = ()  # declared: (id, pattern name, seat, value, cards)
    contract: str | None = None  # the contract's id, in rulesets with `contracts`
    declared: tuple[tuple[int, ...], ...] = ()  # per declaration kind, the points each team kept (the award)
    sides: tuple[int, ...] = ()  # with sides fixed per hand: seat -> its side (maker, winner, points are sides)
    # per side, the mask of the cards it took (card roles and the cards dealt to nobody applied), in rulesets
    # whose scoring reads the cards won; else empty
    won: tuple[CardMask, ...] = ()
    bids: tuple[int, ...] = ()  # seat -> the tricks it bid, in rulesets with `bids`
    tallies: tuple[tuple[int, ...], ...] = ()  # per tally (`tallies`), each team's count after the hand
    passed: tuple[CardMask, ...] = ()  # seat -> the cards it passed before play, in hands with `passing`
    # the seats that sat the hand out (`sits_out`): played_tricks' cards are by play_orders(n, sitting_out)
    sitting_out: tuple[int, ...] = ()
    blind: tuple[int, ...] = ()  # the seats that bid before looking at their cards (`bids.blind`)


@dataclass(frozen=True, slots=True)
class FinishedGame:
    winner: Team | None
    scores: tuple[int, ...]
    hands: int


class SheetSet(NamedTuple):
    """A scoresheet a game was set to mid-way (:meth:`GameState.set_scoresheet`), and where: before its
    history's action ``at``."""

    at: int
    values: tuple[int, ...]
    counts: tuple[tuple[int, ...], ...]  # per tally, each team's count
    ties: int
    passes: int
    game_hands: int  # hands of the game already played


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game (or session) ended; ``winner`` is None when it was abandoned at a limit."""

    winner: Team | None
    scores: tuple[int, ...]
    hands: int
    games_won: tuple[int, ...]
    games: tuple[FinishedGame, ...]
    abandoned: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    """Exactly what one seat may know: its own hand and everything shown to the table."""

    seat: int
    phase: str
    current_player: int
    dealer: int
    hand: CardMask
    hand_sizes: tuple[int, ...]
    face_up: tuple[tuple[Card, int | None], ...]  # (card, holding seat or None for the table)
    offered: Card | None
    decisions: tuple[tuple[int, str], ...]
    trump: int | None
    maker: Team | None
    deciding_seat: int | None
    announcements: tuple[tuple[str, int], ...]
    leader: int | None
    trick: tuple[tuple[int, Card], ...]
    played: tuple[tuple[int, Card], ...]  # every card played this hand, current trick included
    points: tuple[int, ...]  # per side; () while this seat does not know every hidden side (`card_holders`)
    tricks: tuple[int, ...]  # per side, likewise
    scores: tuple[int, ...]
    ties_pending: int
    passes_pending: int
    games_won: tuple[int, ...]
    game: int
    hand_number: int
    # declared this hand: (declaration id, pattern name, seat, value, cards shown: 0 when the declaration is not shown)
    melds: tuple[tuple[str, str, int, int, CardMask], ...] = ()
    contract: str | None = None  # the contract's id once fixed, in rulesets with `contracts`
    # seat -> its side in this hand (points, tricks, maker are by side); -1 where this seat does not know
    # it (sides hidden until revealed, `players.sides: card_holders`)
    sides: tuple[int, ...] | None = None
    kitty: CardMask = 0  # the kitty's cards, once shown (to the declarer: once taken)
    discarded: CardMask = 0  # the discarder's discards this seat sees: all (the discarder), the shown ones (the others)
    bids: tuple[int, ...] = ()  # seat -> the tricks it bid this hand (-1: not yet), in rulesets with `bids`
    unseen: int = 0  # the mask of the seats that have not looked at their cards yet (`bids.blind`): no hand shown
    blind: int = 0  # the mask of the seats that bid blind this hand (public)
    tallies: tuple[tuple[int, ...], ...] = ()  # per tally (`tallies`), each team's count (public, as the scores)
    passed: CardMask = 0  # the cards this seat passed before play this hand (`passing`)
    received: CardMask = 0  # the cards passed to this seat, once every seat has passed
    # the seat that discards this hand (public): the declarer who took the kitty, or the taker of an offered card
    discarding_seat: int | None = None
    taken: Card | None = None  # the offered card its taker added to his hand (`trump.offer.taken_by`; public)
    sitting_out: tuple[int, ...] = ()  # the seats sitting this hand out (`sits_out`; public): they hold cards, play none
    doubled: int = 1  # the level the auction's last bid was doubled to (`trump.auction.doubling`; public), 1: not
    called: Card | None = None  # the card the declarer called for a partner (`contracts.<id>.call`; public)
    stock: int = 0  # `play.draw`: the cards left to draw, the turned card under the stock included (public)
    # `play.draw`: (seat, card) per card drawn this hand, in order; the card is -1 where this seat did not see it
    # (another seat's draw, but for the face-up card turned from the stock, which every seat saw)
    drawn: tuple[tuple[int, Card], ...] = ()
    # `play.draw.exchange`: (seat, card given, card taken) once a seat traded a card for the turned one (public)
    exchanged: tuple[int, Card, Card] | None = None

