"""The end of a hand and of a game: the scoring rules, the hand's summary, the next deal or the result.

The rules themselves are closures built per ruleset (:mod:`couillon_dsl.engine.hand`:
``score_hand`` and ``settle``), shared with the whole-game rollout.
"""
from __future__ import annotations

from fractions import Fraction

from couillon_dsl.cards import Card, CardMask, iter_bits
from couillon_dsl.engine.actions import OVER
from couillon_dsl.engine.bidding import side_bids
from couillon_dsl.engine.fields import StateFields
from couillon_dsl.engine.hand import ABANDONED, SESSION_OVER, HandScore, passes_after_pass_out
from couillon_dsl.engine.results import FinishedGame, GameResult, HandSummary
from couillon_dsl.engine.roles import won_cards
from couillon_dsl.expr.parse import exact
from couillon_dsl.model import Ruleset, Team, TrumpContext

_new_tuple = tuple.__new__  # builds a NamedTuple from a ready tuple, as NamedTuple._make does


def fresh_counts(rs: Ruleset) -> tuple[tuple[int, ...], ...]:
    """Every tally at nothing for every team: a new game's counts."""
    return ((0,) * len(rs.players.teams),) * len(rs.tallies)


_TOP_ORDERS: dict[int, tuple[TrumpContext, tuple[Card, ...]]] = {}  # id(ctx) -> (ctx, kept alive; its trumps high to low)


def card_keys(ctx: TrumpContext) -> tuple[int, ...]:
    """Per card, its strength in the hand's order: where its own suit is led (a trump above every plain
    card), as `holder_of_highest` and its kin read it."""
    return tuple(ctx.strength[suit][card] for card, suit in enumerate(ctx.card_suit))


def top_order(ctx: TrumpContext) -> tuple[Card, ...]:
    """The context's trumps, highest first: worked out once per context (a declarer's choice reads the
    runs of every contract he may pick, each hand)."""
    found = _TOP_ORDERS.get(id(ctx))
    if found is not None and found[0] is ctx:
        return found[1]
    if len(_TOP_ORDERS) >= 4096:
        _TOP_ORDERS.clear()
    order = tuple(sorted(iter_bits(ctx.trump_mask), key=ctx.strength[ctx.trump].__getitem__, reverse=True))
    _TOP_ORDERS[id(ctx)] = (ctx, order)
    return order


def top_run(ctx: TrumpContext, cards: CardMask) -> int:
    """How many of the context's highest trumps in a row, from the top one down, ``cards`` holds, or,
    without the top one, how many in a row it lacks (`top_run`: Skat's matadors "with" or "without")."""
    order = top_order(ctx)
    if not order:
        return 0
    has_top = cards >> order[0] & 1
    return next((i for i, card in enumerate(order) if cards >> card & 1 != has_top), len(order))


class ScoringPhase(StateFields):
    """Scoring hands and ending games."""

    __slots__ = ()

    def _end_hand(self) -> None:
        """Score the finished hand by the ruleset's rules, record it, and move the game on."""
        score, declared, won = self._hand_score()
        t = self._t
        self._values = score.values
        self._counts = score.tallies
        self._ties = score.ties
        self._passes = score.passes
        self._redeals = 0
        self._record(score.outcome, score.winner, score.all_tricks, score.multiplier, score.deltas, declared, won)
        winner = score.winner
        if t.sides_per_hand and winner is not None:  # the scoresheet is per seat: the winning side's first seat
            winner = self._side_of.index(winner)
        game_winner = score.game_winner
        if t.sides_per_hand and game_winner is not None:
            game_winner = self._side_of.index(game_winner)
        self._next_hand(winner, score.tie and self._rs.scoresheet.tie_next_dealer == "same" or score.dealer_stays,
                        score.first_to_goal, score.ends_game, game_winner)

    def _hand_score(self) -> tuple[HandScore, tuple[tuple[int, ...], ...], tuple[CardMask, ...]]:
        """The hand scored as it stands (nothing changes): its score, the points each team kept of the
        declarations, and the cards each side won, which the record keeps too."""
        # the first lead's seat: the leader still, where a claim (`ends_hand`) ended the hand before any trick
        declared = self._meld_points(self._log[0][0] if self._log else self._leader) if self._t.declarations else ()
        contract = self._rs.contracts[self._contract].id if self._contract >= 0 else None
        t = self._t
        won, last = (won_cards(t.roles, self._side_of, len(self._points), self._order, self._log) if t.reads_tricks
                     else ((), (None, 0, ())))
        if self._contract >= 0:
            won = self._count_aside(self._rs.contracts[self._contract].aside_counts_for, won)
        bids = side_bids(self._trick_bids, self._side_of, len(self._points)) if self._trick_bids else ()
        seat_tricks: tuple[int, ...] = ()
        if t.reads_seats:  # per seat, the tricks it took
            taken = [0] * self._n
            for _, _, winner in self._log:
                taken[winner] += 1
            seat_tricks = tuple(taken)
        by_seat = self._held_by_seat() if t.reads_held else ()  # read once: per seat, and per side below
        score = t.score_hand(tuple(self._points), tuple(self._tricks), self._maker, self._dealer, self._ntricks,
                             self._passes, self._ties, self._values, self._made, declared, contract, self._mult,
                             won, last, self._side_of, bids, seat_tricks, self._trick_bids, self._counts,
                             self._held(by_seat) if t.reads_held else (), self._trump, self._bid_value(),
                             self._kitty_taken(), self._top_runs() if t.reads_top_runs else (), self.doubled,
                             tuple(bool(self._blind >> s & 1) for s in range(self._n)) if self._blind else (),
                             *(self._trick_values() if t.reads_trick_values else ()),
                             sides_in_play=self._sides_in_play() if self._sitting_out else (),
                             declarer=self._decider if self._maker is not None else None,
                             hand_number=self._game_hands + 1, announced_tricks=self._announced_tricks() if self._made else (),
                             seat_held=by_seat, card_keys=card_keys(self._ctx) if t.reads_card_keys else ())
        return score, declared, won

    def _announced_tricks(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Per announcement made this hand, its id and each side's tricks when it was made (`tricks_at`)."""
        announcements = self._rs.announcements
        return tuple((announcements[a].id, tricks) for (a, _), tricks in zip(self._made, self._made_tricks))

    def _trick_values(self) -> tuple[tuple[int, ...], tuple[tuple[int | Fraction, int], ...]]:
        """Side -> the cards its tricks took that another side's players played (`captured`); and per
        trick its card points, in game points, and the side that took it (`tricks_worth`)."""
        captured = [0] * len(self._points)
        values = []
        points, unit = self._ctx.points, self._t.point_unit
        for leader, cards, winner in self._log:
            side = self._side_of[winner]
            for seat, card in zip(self._order[leader], cards):
                if self._side_of[seat] != side:
                    captured[side] |= 1 << card
            values.append((exact(Fraction(sum(points[c] for c in cards), unit)), side))
        return tuple(captured), tuple(values)

    def _sides_in_play(self) -> tuple[int, ...]:
        """The sides with a seat in play, ascending (`sides_in_play`): a side whose seats all sat the hand out
        took no trick, and is no side of the hand's `most_points` or `fewest_tricks`."""
        return tuple(sorted({self._side_of[s] for s in self._order[self._dealer]}))

    def _held(self, by_seat: tuple[int, ...] = ()) -> tuple[int, ...]:
        """The cards each side held at the start of play (after any exchange): what its seats played,
        and what they still hold (a seat that sat the hand out kept all its cards); from ``by_seat``
        (:meth:`_held_by_seat`) when the caller has it."""
        held = [0] * len(self._points)
        for seat, cards in enumerate(by_seat or self._held_by_seat()):
            held[self._side_of[seat]] |= cards
        return tuple(held)

    def _held_by_seat(self) -> tuple[int, ...]:
        """The cards each seat held at the start of play: what it played and what it still holds."""
        return tuple(hand | played for hand, played in zip(self._hands, self._played_by_seat()))

    def _bid_value(self) -> int:
        """The value a numeric auction was won at (`bid_value`), 0 without one."""
        t = self._t
        return t.auction_values[self._bid] if t.auction_values and self._bid >= 0 else 0

    def _kitty_taken(self) -> bool:
        """Whether the declarer took the kitty into his hand this hand (`kitty_taken`)."""
        return self._kitty != 0 and self._discarder is not None and self._discarder == self._decider

    def _top_runs(self) -> tuple[int, ...]:
        """Side -> its run of the hand's highest trumps (`top_run`): how many from the top one down it held,
        or lacked when it lacked the top one. The cards nobody played (a kitty, a discard) count with the
        side the contract gives them to (`aside_counts_for`), as they count in its points."""
        held = list(self._held())
        aside = self._rs.layout.full_mask & ~sum(held)
        side = self._aside_side(self._rs.contracts[self._contract].aside_counts_for if self._contract >= 0
                                else "nobody")
        if side is not None:
            held[side] |= aside
        return tuple(top_run(self._ctx, cards) for cards in held)

    def _aside_side(self, owner: str) -> Team | None:
        """The side the cards nobody plays count for (`aside_counts_for`), None for nobody: the declarer's,
        its opponents', or the side of the seat that took the last trick."""
        if owner == "last_trick":
            return self._side_of[self._log[-1][2]] if self._log else None
        if owner == "nobody" or self._maker is None:
            return None
        return self._maker if owner == "declarer" else 1 - self._maker

    def _count_aside(self, owner: str, won: tuple[int, ...]) -> tuple[int, ...]:
        """Give the cards dealt to nobody to the team the contract says (`aside_counts_for`):
        their points, and their cards in ``won`` when the scoring reads it."""
        team = self._aside_side(owner)
        if team is None:
            return won
        played = 0
        for _, cards, _ in self._log:
            for card in cards:
                played |= 1 << card
        aside = self._full & ~played
        for seat in self._sitting_out:  # a seat that sat the hand out still holds its cards
            aside &= ~self._hands[seat]
        points = self._ctx.points
        self._points[team] += sum(points[c] for c in iter_bits(aside))
        return tuple(w | aside if i == team else w for i, w in enumerate(won))

    def _pass_out(self, path: str = "redeal") -> None:
        """A deal refused by everyone (or annulled by a deal check: ``path`` "annulled"): it
        scores nothing, may owe the next decided hand."""
        self._passes = passes_after_pass_out(self._rs.scoresheet, self._passes)
        self._redeals += 1
        self._path = path
        self._trump = -1
        self._maker = None
        self._record("passed_out", None, False, 1, (0,) * len(self._values))
        if self._redeals > self._rs.limits.max_redeals_in_a_row:
            self._finish(None, abandoned=True)
            return
        redealt = self._rs.scoresheet.passed_out_deals == "redealt"
        if redealt:  # not one of the game's deals: the same deal number again (hand_number, `deals`)
            self._game_hands -= 1
        self._next_hand(None, same_dealer=redealt)

    def _record(self, outcome: str, winner: Team | None, all_tricks: bool, k: int, deltas: tuple[int, ...],
                declared: tuple[tuple[int, ...], ...] = (), won: tuple[int, ...] = ()) -> None:
        """Append this hand's summary."""
        self._game_hands += 1
        points = tuple(self._points)
        trump = self._trump
        made = self._made
        self._summaries.append(_new_tuple(HandSummary, (  # tuple.__new__: no NamedTuple __new__ frame
            self._game, self._game_hands, self._dealer, self._rs.layout.suits[trump] if trump >= 0 else None,
            self._path, self._maker, self._decider, tuple(self._decisions), points, tuple(self._tricks), outcome,
            winner, all_tricks, tuple((self._rs.announcements[a].id, s) for a, s in made) if made else (),
            sum(points), k, deltas, self._values, tuple(self._log), self._meld_record() if self._melds else (),
            self._rs.contracts[self._contract].id if self._contract >= 0 else None,
            declared, self._side_of if self._t.sides_per_hand and self._sides_fixed() else (), won,
            self._trick_bids, self._counts, self._given, self._sitting_out,
            tuple(s for s in range(self._n) if self._blind >> s & 1) if self._blind else (),
        )))

    def _meld_record(self, public: bool = False) -> tuple[tuple[str, str, int, int, int], ...]:
        """This hand's declarations as a summary lists them, or (``public``) as every seat sees them:
        the cards only of the declarations that are shown, or found in a trick (played: public)."""
        tables = self._t.declarations
        return tuple((tables[m.kind].id, tables[m.kind].labels[m.pattern], m.seat, m.value,
                      m.cards if tables[m.kind].shown or tables[m.kind].per_trick or not public else 0)
                     for m in self._melds)

    def _next_hand(self, hand_winner: Team | None, same_dealer: bool, first_to_goal: Team | None = None,
                   ends: bool = False, ends_winner: Team | None = None) -> None:
        """End the game if a team reached the goal, `scoresheet.ends_when` held (``ends``; won by ``ends_winner``,
        `scoresheet.won_by`, else the best total) or a limit was hit, else deal again."""
        rs = self._rs
        verdict, game_winner = self._t.settle(self._values, hand_winner, self._game_hands, self._games_won,
                                              first_to_goal, ends, ends_winner)
        if game_winner is not None:
            self._games.append(FinishedGame(game_winner, self._values, self._game_hands))
        if verdict == ABANDONED:
            self._finish(None, abandoned=True, game_over=game_winner is not None)
            return
        if game_winner is not None:
            if verdict == SESSION_OVER:
                self._finish(game_winner, abandoned=False)
                return
            self._game += 1
            self._game_hands = self._ties = self._passes = self._redeals = 0
            self._values = (rs.scoresheet.start,) * len(self._values)
            self._counts = fresh_counts(rs)
        if not same_dealer and rs.dealer.rotation == "next":
            self._dealer = self._t.next_seat[self._dealer]
        self._start_deal()

    def _finish(self, winner: Team | None, abandoned: bool, game_over: bool = False) -> None:
        """End the session; an abandoned game still running is listed among the games, without a winner."""
        if abandoned and not game_over:
            self._games.append(FinishedGame(None, self._values, self._game_hands))
        self._phase = OVER
        self._result = GameResult(
            winner=winner,
            scores=self._values,
            hands=len(self._summaries),
            games_won=tuple(self._games_won),
            games=tuple(self._games),
            abandoned=abandoned,
        )
