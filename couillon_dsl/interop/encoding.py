"""A seat's view as a flat tensor and as a line of text, for learning environments.

Everything comes from :class:`~couillon_dsl.engine.SeatView` (what the seat may know), laid
out by the ruleset's sizes: seats, cards, suits, teams, announcements, contracts and
declarations. The tensor is a list of floats in a fixed order (:attr:`ViewEncoder.pieces`
names the parts and sizes). Besides the cards, it holds what fixes a hand in the newer
rulesets: the contract and its declarer, the seat's partners in this hand (sides that
change with the contract), the kitty once the seat has seen it, the discards it saw, the
declarations made (a shown one's cards are among the face-up cards) and the tricks each
seat bid. With bids the tricks taken so far are there too: the cards played by seat, in no
order, do not tell who took them, and a bid is made or broken by exactly that count (other
rulesets keep the tensor they always had). With tallies (Spades' bags) each team's count is
there too, in units of the count that pays out (a pot's, paid whole to a team, in the scores'
units). With cards passed before play (`passing`, or a blind bidders' exchange)
the seat's own passed cards and, once they reached it, the cards it received are there:
only its own, since the cards other seats pass between them are hidden from it.

The scores are in units of what a game spans, so a learner sees numbers near one on every
ruleset: the distance from the start to the goal in a race, and in a game of a fixed number
of deals (no goal) a whole game's typical spread, a hand's typical change times the square
root of the deals (:func:`~couillon_dsl.agents.playout.hand_spread`).
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

from couillon_dsl.agents.playout import DEALS_LEFT_WHEN_OPEN, hand_spread
from couillon_dsl.cards import iter_bits

if TYPE_CHECKING:
    from couillon_dsl.engine import SeatView
    from couillon_dsl.model import Ruleset

WORDS = ("accept", "pass", "name", "show", "defer", "push")  # trump decisions; then the contracts' ids, then any other
MELD_SCALE = 100  # a declaration's value, in the tensor: value / MELD_SCALE


class ViewEncoder:
    """Encodes one ruleset's seat views; ``size`` floats per view."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        n = ruleset.players.count
        ncards = ruleset.layout.size
        nteams = len(ruleset.players.teams)
        sheet = ruleset.scoresheet
        self.span = (hand_spread(ruleset) * math.sqrt(sheet.deals or DEALS_LEFT_WHEN_OPEN) if sheet.races_to_no_goal()
                     else max(1, abs(sheet.start - sheet.goal)))
        self.words = (*WORDS, *(c.id for c in ruleset.contracts))
        self.contract_ids = [c.id for c in ruleset.contracts]
        self.declaration_ids = [d.id for d in ruleset.declarations]
        bids = ruleset.bids
        self.nbids = 0 if bids is None else bids.highest + 1  # bids 0 .. highest
        self.most_tricks = max(1, *ruleset.tables.hand_tricks)  # the tricks piece's unit: the largest hand's tricks
        self.nsides = ruleset.tables.nsides if self.nbids else 0  # the tricks piece: with bids only
        self.npassed = ncards if ruleset.pass_cards else 0  # the passed and received pieces
        self.draws = bool(ruleset.tables.draw)  # `play.draw`: the stock piece (cards left to draw) and who traded
        self.pieces: tuple[tuple[str, int], ...] = (
            ("seat", n), ("current_player", n), ("dealer", n),
            ("hand", ncards), ("played_by_seat", n * ncards), ("trick", ncards), ("face_up", ncards),
            ("offered", ncards), ("trump", len(ruleset.layout.suits) + 1), ("maker", nteams + 1),
            ("decisions", n * (len(self.words) + 1)), ("announcements", len(ruleset.announcements) * n),
            ("contract", len(self.contract_ids) + 1), ("declarer", n + 1), ("partners", n),
            ("kitty", ncards), ("discarded", ncards), ("passed", self.npassed), ("received", self.npassed),
            ("stock", int(self.draws)), ("exchanged", n if ruleset.tables.exchanges else 0),
            ("declared", len(self.declaration_ids) * n),
            ("bids", n * self.nbids), ("tricks", self.nsides), ("scores", nteams), ("games_won", nteams),
            ("pending", 2), ("tallies", len(ruleset.tallies) * nteams),
        )
        self.size = sum(size for _, size in self.pieces)
        self.announcement_ids = [a.id for a in ruleset.announcements]

    def encode(self, view: SeatView) -> list[float]:
        rs = self.ruleset
        n = rs.players.count
        ncards = rs.layout.size
        nteams = len(rs.players.teams)
        out = [0.0] * self.size
        at = 0

        def one_hot(index: int | None, size: int) -> None:
            nonlocal at
            if index is not None and 0 <= index < size:
                out[at + index] = 1.0
            at += size

        one_hot(view.seat, n)
        one_hot(view.current_player, n)
        one_hot(view.dealer, n)
        for card in iter_bits(view.hand):
            out[at + card] = 1.0
        at += ncards
        for seat, card in view.played:
            out[at + seat * ncards + card] = 1.0
        at += n * ncards
        for _, card in view.trick:
            out[at + card] = 1.0
        at += ncards
        for card, _ in view.face_up:
            out[at + card] = 1.0
        at += ncards
        one_hot(view.offered, ncards)
        one_hot(len(rs.layout.suits) if view.trump is None else view.trump, len(rs.layout.suits) + 1)
        one_hot(nteams if view.maker is None else view.maker, nteams + 1)
        words = self.words
        width = len(words) + 1
        for seat, word in view.decisions:
            slot = words.index(word) if word in words else len(words)
            out[at + seat * width + slot] += 1.0
        at += n * width
        for name, seat in view.announcements:
            if name in self.announcement_ids:
                out[at + self.announcement_ids.index(name) * n + seat] = 1.0
        at += len(self.announcement_ids) * n
        contracts = self.contract_ids
        one_hot(contracts.index(view.contract) if view.contract in contracts else len(contracts), len(contracts) + 1)
        one_hot(n if view.deciding_seat is None else view.deciding_seat, n + 1)
        if view.sides is not None:
            for seat, side in enumerate(view.sides):
                out[at + seat] = float(side == view.sides[view.seat])
        at += n
        for mask in (view.kitty, view.discarded):
            for card in iter_bits(mask):
                out[at + card] = 1.0
            at += ncards
        if self.npassed:
            for mask in (view.passed, view.received):
                for card in iter_bits(mask):
                    out[at + card] = 1.0
                at += ncards
        if self.draws:
            out[at] = view.stock / ncards
            at += 1
        if rs.tables.exchanges:
            one_hot(None if view.exchanged is None else view.exchanged[0], n)
        for kind, _, seat, value, _ in view.melds:
            if kind in self.declaration_ids:
                out[at + self.declaration_ids.index(kind) * n + seat] += value / MELD_SCALE
        at += len(self.declaration_ids) * n
        for seat, bid in enumerate(view.bids):  # -1: not bid yet, all zeros
            if 0 <= bid < self.nbids:
                out[at + seat * self.nbids + bid] = 1.0
        at += n * self.nbids
        if self.nsides:
            for side, taken in enumerate(view.tricks):  # by side: teams, or the hand's sides
                out[at + side] = taken / self.most_tricks
        at += self.nsides
        for team, value in enumerate(view.scores):
            out[at + team] = value / self.span
        at += nteams
        for team, won in enumerate(view.games_won):
            out[at + team] = float(won)
        at += nteams
        out[at], out[at + 1] = float(view.ties_pending), float(view.passes_pending)
        at += 2
        for tally, counts in zip(self.ruleset.tallies, view.tallies):
            for team, count in enumerate(counts):
                out[at + team] = count / tally.every if tally.every else count / self.span  # a pot: in score units
            at += nteams
        return out

    def text(self, view: SeatView) -> str:
        """One line: the seat's hand and everything public of the hand so far."""
        layout = self.ruleset.layout
        name = layout.name
        parts = [f"seat {view.seat}", f"phase {view.phase}", f"dealer {view.dealer}",
                 f"to play {view.current_player}", "hand " + " ".join(name(c) for c in iter_bits(view.hand))]
        if view.face_up:
            parts.append("up " + " ".join(f"{name(c)}@{'table' if s is None else s}" for c, s in view.face_up))
        if view.offered is not None:
            parts.append(f"offered {name(view.offered)}")
        if view.decisions:
            parts.append("said " + " ".join(f"{s}:{w}" for s, w in view.decisions))
        if view.trump is not None:
            parts.append(f"trump {layout.suits[view.trump]}")
        if view.maker is not None:
            parts.append(f"maker {view.maker}")
        if view.contract is not None:
            parts.append(f"contract {view.contract}")
        if view.deciding_seat is not None:
            parts.append(f"declarer {view.deciding_seat}")
        if view.called is not None:
            parts.append(f"called {name(view.called)}")
        if view.sides is not None:
            parts.append("sides " + " ".join(map(str, view.sides)))
        if view.kitty:
            parts.append("kitty " + " ".join(name(c) for c in iter_bits(view.kitty)))
        if view.discarded:
            parts.append("discarded " + " ".join(name(c) for c in iter_bits(view.discarded)))
        if view.passed:
            parts.append("passed " + " ".join(name(c) for c in iter_bits(view.passed)))
        if view.received:
            parts.append("received " + " ".join(name(c) for c in iter_bits(view.received)))
        if view.melds:
            parts.append("declared " + " ".join(f"{kind}:{label}:{seat}" for kind, label, seat, _, _ in view.melds))
        if view.bids:
            parts.append("bids " + " ".join(f"{s}:{'-' if b < 0 else b}" for s, b in enumerate(view.bids)))
        if view.announcements:
            parts.append("announced " + " ".join(f"{a}:{s}" for a, s in view.announcements))
        if self.draws:
            parts.append(f"stock {view.stock}")
        if view.drawn:
            parts.append("drawn " + " ".join(f"{s}:{'?' if c < 0 else name(c)}" for s, c in view.drawn))
        if view.exchanged is not None:
            seat, given, taken = view.exchanged
            parts.append(f"traded {seat}:{name(given)}>{name(taken)}")
        if view.played:
            parts.append("played " + " ".join(f"{s}:{name(c)}" for s, c in view.played))
        parts.append("scores " + " ".join(map(str, view.scores)))
        for tally, counts in zip(self.ruleset.tallies, view.tallies):
            parts.append(f"{tally.name} " + " ".join(map(str, counts)))
        if view.ties_pending or view.passes_pending:
            parts.append(f"pending {view.ties_pending}/{view.passes_pending}")
        if any(view.games_won):
            parts.append("games " + " ".join(map(str, view.games_won)))
        return " | ".join(parts)
