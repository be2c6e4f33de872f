"""GameState: one whole game (or session of games) of any compiled ruleset, OpenSpiel-shaped.

The state is small and mutable: hands are int masks, the trick is a few ints, and the
ruleset's precomputed :class:`~couillon_dsl.model.TrumpContext` answers every card
question. Chance is explicit: before each deal the pack order is drawn one card at a time
(action = card id), so a game, deal included, replays exactly from :meth:`history`.
Decisions (accept/pass, name/show/defer, announce/decline) and plays are actions too; see
:class:`Actions` for their numbering. The engine never knows which variant it plays: every
branch below is taken on a value of the language (design §2).
"""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from math import floor
from typing import Any, NamedTuple

from couillon_dsl.cards import Card, CardMask, iter_bits
from couillon_dsl.engine.hand import (
    ABANDONED, SESSION_OVER, cards_table, fallback_maker, first_leader, passes_after_pass_out, random_tricks,
    shuffled,
)
from couillon_dsl.engine.tables import OP_DECIDE, OP_PACKET, OP_STOCK, OP_TURN_UP
from couillon_dsl.model import Ruleset, Team, TrumpContext

CHANCE = -1
TERMINAL = -2

# phases; PHASE_NAMES gives the name a SeatView shows
_DEALER, _DRAW, _OFFER, _CHOOSE, _ANNOUNCE, _PLAY, _OVER = range(7)
PHASE_NAMES = ("choose_dealer", "deal", "offer", "choose", "announce", "play", "over")


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the message says why."""


class Actions(NamedTuple):
    """Action numbering: cards first (chance draws and plays), then decisions.

    NAME suit s is ``name0 + s``, SHOW card c ``show0 + c``, ANNOUNCE a ``announce0 + a``,
    and the chance choice of a random first dealer s is ``dealer0 + s``.
    """

    ncards: int
    nsuits: int
    nannouncements: int
    accept: int
    pass_: int
    defer: int
    decline: int
    name0: int
    show0: int
    announce0: int
    dealer0: int

    @classmethod
    @functools.cache  # immutable and asked for by every new game: build each numbering once
    def build(cls, ncards: int, nsuits: int, nannouncements: int) -> "Actions":
        name0 = ncards + 4
        show0 = name0 + nsuits
        announce0 = show0 + ncards
        return cls(ncards, nsuits, nannouncements, ncards, ncards + 1, ncards + 2, ncards + 3,
                   name0, show0, announce0, announce0 + nannouncements)

    def decode(self, action: int) -> tuple[str, int]:
        """``(kind, argument)``: ("card", c), ("accept"|"pass"|"defer"|"no", -1), ("name", suit),
        ("show", c), ("announce", index), ("dealer", seat); one place that knows the numbering."""
        if 0 <= action < self.ncards:
            return "card", action
        if self.ncards <= action < self.name0:
            return ("accept", "pass", "defer", "no")[action - self.ncards], -1
        if self.name0 <= action < self.show0:
            return "name", action - self.name0
        if self.show0 <= action < self.announce0:
            return "show", action - self.show0
        if self.announce0 <= action < self.dealer0:
            return "announce", action - self.announce0
        if action >= self.dealer0:  # the seat count is the caller's to check
            return "dealer", action - self.dealer0
        raise ValueError(f"{action!r} is not an action of this ruleset")


class HandSummary(NamedTuple):
    """One finished or passed-out hand, for statistics and records.

    ``trump_path`` says how trump was fixed: accepted, next_card (accepted after a re-offer),
    bottom_card, named, shown, deferred, none, or redeal (passed out). ``decisions`` are the
    trump decisions in order as (seat, "accept"|"pass"|"name"|"show"|"defer"); ``outcome``
    is winner, tie, no_score or passed_out; ``deltas`` and ``scores`` (after the hand) are
    per team.
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


@dataclass(frozen=True, slots=True)
class FinishedGame:
    winner: Team | None
    scores: tuple[int, ...]
    hands: int


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
    points: tuple[int, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    ties_pending: int
    passes_pending: int
    games_won: tuple[int, ...]
    game: int
    hand_number: int


_new_tuple = tuple.__new__  # builds a NamedTuple from a ready tuple, as NamedTuple._make does

_FIELDS = (
    "_rs", "_t", "_n", "_acts", "_seed", "_rng", "_full", "_history", "_phase", "_dealer",
    # deal
    "_pack", "_undrawn", "_step", "_hands", "_face_up", "_stock", "_last_up",
    # trump
    "_offered", "_speakers", "_spk", "_round", "_chooser", "_trump", "_promo", "_ctx", "_maker", "_decider",
    "_path", "_decisions", "_defer_seat",
    # announcements
    "_made", "_ann_offered", "_offers",
    # play
    "_leader", "_turn", "_trick", "_tmask", "_led", "_st", "_best", "_win", "_wseat", "_tpoints",
    "_trick_no", "_ntricks", "_points", "_tricks", "_log",
    # scoresheet and session
    "_values", "_ties", "_passes", "_redeals", "_game_hands", "_game", "_games_won", "_games",
    "_summaries", "_result",
)


class GameState:
    """A whole game, or a session of games, of one compiled ruleset (design §3)."""

    __slots__ = _FIELDS
    _pack: list[Card]  # the pack order drawn so far (set per hand by _reset_hand)
    _undrawn: CardMask

    def __init__(self, ruleset: Ruleset, *, seed: int | None = None) -> None:
        rs = ruleset
        self._rs = rs
        self._t = rs.tables
        self._n = rs.players.count
        self._acts = Actions.build(rs.layout.size, len(rs.layout.suits), len(rs.announcements))
        self._full = rs.layout.full_mask
        self._seed = seed
        self._rng: random.Random | None = None  # made on first use: seeding costs more than a hand
        self._history: list[int] = []
        nteams = len(rs.players.teams)
        self._values = (rs.scoresheet.start,) * nteams
        self._ties = self._passes = self._redeals = self._game_hands = self._game = 0
        self._games_won = [0] * nteams
        self._games: list[FinishedGame] = []
        self._summaries: list[HandSummary] = []
        self._result: GameResult | None = None
        self._dealer = 0 if rs.dealer.first == "random" else int(rs.dealer.first)
        # trick fields: set here only, because every hand leaves them clean (_end_trick) or untouched
        self._trick: list[Card] = []
        self._offers: list[tuple[int, int]] = []
        self._tmask = self._tpoints = 0
        self._led = self._best = self._win = self._wseat = -1
        self._st: tuple[int, ...] = ()
        self._start_deal()
        if rs.dealer.first == "random":
            self._phase = _DEALER

    # ------------------------------------------------------------------ public API
    def current_player(self) -> int:
        """The seat to act, CHANCE or TERMINAL."""
        phase = self._phase
        if phase == _PLAY:
            return self._turn
        if phase <= _DRAW:
            return CHANCE
        if phase == _OFFER:
            return self._speakers[self._spk]
        if phase == _CHOOSE:
            return self._chooser
        if phase == _ANNOUNCE:
            return self._offers[0][1]
        return TERMINAL

    def is_terminal(self) -> bool:
        return self._phase == _OVER

    def is_chance_node(self) -> bool:
        return self._phase <= _DRAW

    def legal_actions(self) -> list[int]:
        """Legal actions in ascending order; empty only when the game is over."""
        phase = self._phase
        acts = self._acts
        if phase == _PLAY:
            return list(iter_bits(self.legal_mask()))
        if phase == _DRAW:
            return list(iter_bits(self._undrawn))
        if phase == _OFFER:
            return [acts.accept, acts.pass_]
        if phase == _CHOOSE:
            ways = self._rs.trump.choose.ways  # type: ignore[union-attr]
            out = []
            if "defer" in ways:
                out.append(acts.defer)
            if "name" in ways:
                out.extend(acts.name0 + s for s in range(acts.nsuits))
            if "show" in ways:
                out.extend(acts.show0 + c for c in iter_bits(self._hands[self._chooser]))
            return out
        if phase == _ANNOUNCE:
            return [acts.decline, acts.announce0 + self._offers[0][0]]
        if phase == _DEALER:
            return [acts.dealer0 + s for s in range(self._n)]
        return []

    def legal_mask(self) -> CardMask:
        """The cards the player to move may play (play phase only), as a mask."""
        h = self._hands[self._turn]
        if not self._trick:
            return h
        return self._ctx.legal(h, self._led, self._win, self._tmask)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability) pairs at a chance node: every undrawn card is equally likely."""
        if self._phase == _DRAW:
            cards = list(iter_bits(self._undrawn))
        elif self._phase == _DEALER:
            cards = [self._acts.dealer0 + s for s in range(self._n)]
        else:
            return []
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def apply(self, action: int) -> None:
        """Apply one action; raises IllegalAction with the reason when it is not legal."""
        phase = self._phase
        if phase == _PLAY:
            if not 0 <= action < self._acts.ncards or not self.legal_mask() >> action & 1:
                raise IllegalAction(self._play_refusal(action))
            self._history.append(action)
            self._play(action)
            return
        if action not in self.legal_actions():
            raise IllegalAction(self._refusal(action))
        self._history.append(action)
        if phase == _DRAW:
            self._draw(action)
        elif phase == _ANNOUNCE:
            self._announce(action)
        elif phase == _DEALER:
            self._dealer = action - self._acts.dealer0
            self._start_deal()
        else:
            self._decide(action)

    def deal_shuffled(self, rng: random.Random | None = None) -> None:
        """Resolve the pending chance node(s) of one deal at once from ``rng`` (fast path).

        Equivalent to drawing every remaining card uniformly one at a time; the drawn
        order is appended to the history, so the game still replays exactly.
        """
        if rng is None:
            if self._rng is None:
                self._rng = random.Random(self._seed)
            rng = self._rng
        if self._phase == _DEALER:
            self.apply(self._acts.dealer0 + rng.randrange(self._n))
        if self._phase != _DRAW:
            raise IllegalAction("deal_shuffled: the game is not waiting for a deal")
        self._shuffle_deal(rng.random)

    def _shuffle_deal(self, rnd: Any) -> None:
        """Draw every undrawn card at once from ``rnd`` and run the deal script."""
        undrawn = self._undrawn
        rest = shuffled(range(self._acts.ncards) if undrawn == self._full else list(iter_bits(undrawn)), rnd)
        self._history.extend(rest)
        if self._pack:
            self._pack.extend(rest)
        else:
            self._pack = rest  # the usual case, nothing drawn yet: no copy
        self._undrawn = 0
        self._run_deal()

    def history(self) -> list[int]:
        return list(self._history)

    def clone(self) -> "GameState":
        other = object.__new__(GameState)
        for name in _FIELDS:
            value = getattr(self, name)
            if type(value) is list or type(value) is dict:
                value = value.copy()
            setattr(other, name, value)
        if self._rng is not None:
            other._rng = random.Random()
            other._rng.setstate(self._rng.getstate())
        return other

    def play_random(self, rng: random.Random) -> None:
        """Play to the end with uniformly random legal actions (the simulator's fast path).

        A game not yet under way goes to the ruleset's rollout when it has one
        (:mod:`couillon_dsl.engine.rollout`: the whole game in one closure, same draws,
        same result). Otherwise decisions and announcements go through the same methods as
        :meth:`apply` and whole hands are played by :meth:`_play_out`. Either way the
        history stays complete, so the game replays exactly.
        """
        rnd = rng.random
        if self._rs.rollout is not None and self._phase == _DRAW and not self._history:
            self._adopt(self._rs.rollout(rnd, self._dealer, self._values, self._ties, self._passes))
            return
        announcing = bool(self._rs.announcements)
        history = self._history
        while True:
            phase = self._phase
            if phase == _PLAY:
                if self._trick or (announcing and self._trick_no == 0):
                    cards = cards_table(self._acts.ncards, self._ntricks)[self.legal_mask()]
                    card = cards[floor(rnd() * len(cards))] if len(cards) > 1 else cards[0]
                    history.append(card)
                    self._play(card)
                else:
                    self._play_out(rnd)
            elif phase == _OFFER:
                # an offer's legal actions are always [accept, pass]: legal[int(rnd() * 2)] without
                # building the list (int(x * 2) == 0 exactly when x < 0.5)
                if rnd() < 0.5:
                    history.append(self._acts.accept)
                    self._accept()
                else:
                    history.append(self._acts.pass_)
                    self._pass()
            elif phase == _DRAW:
                self._shuffle_deal(rnd)
            elif phase == _OVER:
                return
            elif phase == _DEALER:
                self.deal_shuffled(rng)
            else:
                legal = self.legal_actions()
                action = legal[floor(rnd() * len(legal))]  # = int(): non-negative
                history.append(action)
                if phase == _ANNOUNCE:
                    self._announce(action)
                else:
                    self._decide(action)

    def _adopt(self, game: Any) -> None:
        """Take over a finished game from the ruleset's rollout (a RolledGame)."""
        self._history = game.history
        self._summaries = game.hands
        self._result = game.result
        self._games = game.games
        self._games_won = game.games_won
        self._values = game.values
        self._ties, self._passes, self._redeals = game.ties, game.passes, 0
        self._game, self._game_hands, self._dealer = game.game, game.game_hands, game.dealer
        self._phase = _OVER

    @property
    def ruleset(self) -> Ruleset:
        return self._rs

    @property
    def actions(self) -> Actions:
        return self._acts

    @property
    def hands(self) -> list[HandSummary]:
        """One summary per finished or passed-out hand, oldest first."""
        return self._summaries

    @property
    def result(self) -> GameResult | None:
        return self._result

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def trump(self) -> int | None:
        """The trump suit index, or None when not (yet) fixed or the ruleset has no trump."""
        return self._trump if self._trump >= 0 else None

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._values)

    @property
    def context(self) -> TrumpContext:
        """The trump context in force (trump suit and promoted cards)."""
        return self._ctx

    def hand_of(self, seat: int) -> CardMask:
        """The cards seat holds now (omniscient: for tests, scenarios and explanations)."""
        return self._hands[seat]

    def current_trick(self) -> tuple[int, tuple[Card, ...]]:
        """(leader, cards in play order) of the trick being played."""
        return self._leader, tuple(self._trick)

    def finished_tricks(self) -> tuple[tuple[int, tuple[Card, ...], int], ...]:
        """(leader, cards in play order, winning seat) of this hand's finished tricks."""
        return tuple(self._log)

    def set_scoresheet(self, values: list[int] | tuple[int, ...], *, ties: int = 0, passes: int = 0) -> None:
        """Start from a given scoresheet (scenarios that begin mid-game): values per team,
        ties and passed-out deals pending."""
        if len(values) != len(self._values):
            raise ValueError(f"this ruleset has {len(self._values)} teams, not {len(values)}")
        self._values = tuple(values)
        self._ties = ties
        self._passes = passes

    def action_to_string(self, action: int) -> str:
        kind, arg = self._acts.decode(action)
        layout = self._rs.layout
        if kind == "dealer" and arg >= self._n:
            raise ValueError(f"{action!r} is not an action of this ruleset")
        if kind == "card":
            return layout.name(arg)
        if kind == "name":
            return f"name {layout.suits[arg]}"
        if kind == "show":
            return f"show {layout.name(arg)}"
        if kind == "announce":
            return f"announce {self._rs.announcements[arg].id}"
        if kind == "dealer":
            return f"dealer {arg}"
        return kind

    def string_to_action(self, seat: int | None, text: str) -> int:
        """Parse what :meth:`action_to_string` prints (``seat`` is accepted for API symmetry)."""
        acts = self._acts
        layout = self._rs.layout
        words = text.strip().split()
        if not words:
            raise ValueError("empty action")
        head = words[0].lower()
        fixed = {"accept": acts.accept, "pass": acts.pass_, "defer": acts.defer, "no": acts.decline,
                 "decline": acts.decline}
        if len(words) == 1 and head in fixed:
            return fixed[head]
        if len(words) == 2:
            arg = words[1]
            if head == "name":
                ids = [s.upper() for s in layout.suits]
                symbols = list(layout.suit_symbols)
                if arg.upper() in ids:
                    return acts.name0 + ids.index(arg.upper())
                if arg in symbols:
                    return acts.name0 + symbols.index(arg)
                raise ValueError(f"{arg!r} is not a suit of this deck")
            if head == "show":
                return acts.show0 + layout.parse(arg)
            if head == "announce":
                ids = [a.id for a in self._rs.announcements]
                if arg in ids:
                    return acts.announce0 + ids.index(arg)
                raise ValueError(f"{arg!r} is not an announcement of this ruleset")
            if head == "dealer" and arg.isdigit() and int(arg) < self._n:
                return acts.dealer0 + int(arg)
        if len(words) == 1:
            return layout.parse(words[0])
        raise ValueError(f"cannot read action {text!r}")

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know now; nothing hidden from it leaks into the view."""
        played = [(leader + i) % self._n for leader, cards, _ in self._log for i in range(len(cards))]
        cards = [c for _, trick_cards, _ in self._log for c in trick_cards]
        trick = tuple(((self._leader + i) % self._n, c) for i, c in enumerate(self._trick)) \
            if self._phase in (_PLAY, _ANNOUNCE) else ()
        hand_phase = self._phase >= _OFFER and self._phase != _OVER
        return SeatView(
            seat=seat,
            phase=PHASE_NAMES[self._phase],
            current_player=self.current_player(),
            dealer=self._dealer,
            hand=self._hands[seat] if hand_phase else 0,
            hand_sizes=tuple(h.bit_count() for h in self._hands) if hand_phase else (0,) * self._n,
            face_up=tuple((c, s) for c, s in self._face_up.items() if self._visible_face_up(c, s)) if hand_phase else (),
            offered=self._offered if self._phase == _OFFER else None,
            decisions=tuple(self._decisions) if hand_phase else (),
            trump=self._trump if self._trump >= 0 and hand_phase else None,
            maker=self._maker if hand_phase else None,
            deciding_seat=self._decider if hand_phase else None,
            announcements=tuple((self._rs.announcements[a].id, s) for a, s in self._made) if hand_phase else (),
            leader=self._leader if self._phase in (_PLAY, _ANNOUNCE) else None,
            trick=trick,
            played=tuple(zip(played, cards)) + trick if hand_phase else (),
            points=tuple(self._points) if hand_phase else (),
            tricks=tuple(self._tricks) if hand_phase else (),
            scores=tuple(self._values),
            ties_pending=self._ties,
            passes_pending=self._passes,
            games_won=tuple(self._games_won),
            game=self._game,
            hand_number=self._game_hands + 1,
        )

    # ------------------------------------------------------------------ deal
    def _start_deal(self) -> None:
        """Reset the per-hand fields for a new deal.

        The trick fields (``_trick``, ``_tmask``, ``_tpoints``, ``_led``, ``_best``, ``_win``,
        ``_wseat``, ``_st``) and the announcement queue ``_offers`` are not reset here (set
        once in __init__): every hand ends with them clean, and a lead sets the rest before
        they are read. Fewer stores per hand (the random simulator deals ~10 per game).
        """
        t = self._t
        nteams = len(self._values)
        self._phase = _DRAW
        self._pack = []
        self._undrawn = self._full
        self._step = self._spk = self._round = self._ann_offered = self._trick_no = self._ntricks = 0
        self._hands = [0] * self._n
        self._face_up: dict[Card, int | None] = {}
        self._stock: list[Card] = []
        self._last_up = self._offered = self._trump = self._defer_seat = self._chooser = -1
        self._speakers: tuple[int, ...] = ()
        self._promo = t.always_promoted  # promotions without an announcement, in force from the deal on
        self._ctx = t.contexts[0]
        self._maker: Team | None = None
        self._decider: int | None = None
        self._path = "none"
        self._decisions: list[tuple[int, str]] = []
        self._made: list[tuple[int, int]] = []
        self._leader = self._turn = t.next_seat[self._dealer]
        self._points = [0] * nteams
        self._tricks = [0] * nteams
        self._log: list[tuple[int, tuple[Card, ...], int]] = []

    def _draw(self, card: Card) -> None:
        self._pack.append(card)
        self._undrawn ^= 1 << card
        if not self._undrawn:
            self._run_deal()

    def _run_deal(self) -> None:
        """Run the deal script from where it stopped until a decision is needed or it ends."""
        t = self._t
        ops = t.deal_plans[self._dealer]  # OP_SET_ASIDE needs nothing: those cards stay unread
        i = self._step
        if i == len(ops):  # back from a decision that ended the script: straight to play
            self._begin_play()
            return
        pack = self._pack
        hands = self._hands
        bit = t.card_bit.__getitem__
        if not i:
            prefix = t.deal_prefixes[self._dealer]
            if prefix is not None:  # the decision-free start of the script, resolved at compile time
                i = prefix.stop
                B = t.card_bit
                # four cards per iteration: a quarter of the loop overhead of one card at a time, and
                # cheaper than per-seat sum(map(...)) (measured)
                for seat, a, b, c, d in prefix.quads:
                    hands[seat] |= B[pack[a]] | B[pack[b]] | B[pack[c]] | B[pack[d]]
                if prefix.stock is not None:
                    self._stock = pack[prefix.stock[0]:prefix.stock[1]]
                if prefix.ups:
                    face_up = self._face_up
                    for pos, holder in prefix.ups:
                        face_up[pack[pos]] = holder
                    self._last_up = pack[prefix.ups[-1][0]]
        while i < len(ops):
            op = ops[i]
            i += 1
            code = op[0]
            if code == OP_PACKET:
                for seat, positions in op[1]:
                    hands[seat] |= sum(map(bit, map(pack.__getitem__, positions)))  # distinct bits: + is |
                if op[3] or self._defer_seat >= 0:
                    self._show_dealt(op[2], op[3])
            elif code == OP_STOCK:
                self._stock = pack[op[1]:]
            elif code == OP_TURN_UP:
                card = self._stock.pop() if op[1] else self._stock.pop(0)
                self._face_up[card] = None
                self._last_up = card
            elif code == OP_DECIDE:
                self._step = i
                if self._begin_trump():
                    return
        self._step = i
        self._begin_play()

    def _show_dealt(self, deliveries: tuple[tuple[int, int, int], ...], up: bool) -> None:
        """Turn face up a face-up packet, or the deferred chooser's first card (it fixes trump)."""
        pack = self._pack
        for seat, start, stop in deliveries:
            if up:
                for c in pack[start:stop]:
                    self._face_up[c] = seat
                self._last_up = pack[stop - 1]
            if seat == self._defer_seat:  # on_defer: first card of the chooser's next packet
                self._face_up[pack[start]] = seat
                self._trump = self._rs.layout.suit_of(pack[start])
                self._defer_seat = -1

    # ------------------------------------------------------------------ trump
    def _begin_trump(self) -> bool:
        """Start the trump procedure; True when it waits for a decision."""
        method = self._rs.trump.method
        elder = (self._dealer + 1) % self._n
        if method == "offer":
            self._offered = self._last_up
            self._speakers = self._t.rounds[elder]
            self._spk = 0
            self._phase = _OFFER
            return True
        if method == "choose":
            by = self._rs.trump.choose.by  # type: ignore[union-attr]
            self._chooser = self._dealer if by == "dealer" else elder
            self._phase = _CHOOSE
            return True
        return False

    def _decide(self, action: int) -> None:
        """Apply a trump decision: accept/pass an offer, or name/show/defer a choice."""
        acts = self._acts
        if self._phase == _OFFER:
            if action == acts.accept:
                self._accept()
            else:
                self._pass()
            return
        suit_of = self._rs.layout.suit_of
        seat = self._chooser
        self._decider = seat
        if action == acts.defer:
            self._decisions.append((seat, "defer"))
            self._defer_seat = seat
            self._maker = fallback_maker(self._rs.trump, self._t.team_of, self._t.next_seat[self._dealer])
            self._path = "deferred"
        elif action < acts.show0:
            self._decisions.append((seat, "name"))
            self._trump = action - acts.name0
            self._maker = self._t.team_of[seat]
            self._path = "named"
        else:
            card = action - acts.show0
            self._decisions.append((seat, "show"))
            self._face_up[card] = seat
            self._trump = suit_of(card)
            self._maker = self._t.team_of[seat]
            self._path = "shown"
        self._continue_deal()

    def _accept(self) -> None:
        """The seat asked accepts the offered card: its suit is trump, its team the maker."""
        seat = self._speakers[self._spk]
        t = self._t
        self._decisions.append((seat, "accept"))
        self._trump = t.suit_of[self._offered]
        self._maker = t.team_of[seat]
        self._decider = seat
        self._path = "accepted" if self._round == 0 else "next_card"
        self._continue_deal()

    def _pass(self) -> None:
        """The seat asked passes; when everyone has, `on_all_pass` decides."""
        self._decisions.append((self._speakers[self._spk], "pass"))
        self._spk += 1
        if self._spk == len(self._speakers):
            self._all_passed()

    def _all_passed(self) -> None:
        """Everyone refused the offered card: `on_all_pass` says what happens."""
        offer = self._rs.trump.offer
        assert offer is not None
        rule = offer.on_all_pass
        if rule == "bottom_card":
            card = self._stock.pop()
            self._face_up[card] = None
            self._trump = self._rs.layout.suit_of(card)
            self._maker = fallback_maker(self._rs.trump, self._t.team_of, self._t.next_seat[self._dealer])
            self._path = "bottom_card"
            self._continue_deal()
        elif rule == "next_card" and self._stock:
            card = self._stock.pop(0)
            self._face_up[card] = None
            self._offered = self._last_up = card
            self._round += 1
            elder = (self._dealer + 1) % self._n
            self._speakers = self._t.rounds[self._dealer if offer.reoffer_first_speaker == "dealer" else elder]
            self._spk = 0
        else:  # redeal, or next_card with the stock exhausted
            self._pass_out()

    def _continue_deal(self) -> None:
        self._phase = _DRAW  # not a chance node: _run_deal leaves it in the next phase
        self._run_deal()

    # ------------------------------------------------------------------ play
    def _begin_play(self) -> None:
        rs = self._rs
        t = self._t
        if self._trump < 0:
            if rs.trump.method != "none":
                raise RuntimeError("the deal ended before trump was fixed")  # compile checks prevent this
            self._trump = t.fixed_trump  # the deck's permanent trump suit, or none
        self._set_context()
        leader = first_leader(rs.play.first_lead, self._dealer, t.next_seat[self._dealer], self._maker, self._decider)
        self._leader = self._turn = leader
        self._ntricks = self._hands[leader].bit_count()
        self._phase = _PLAY
        if self._t.holder_cards:
            self._offer_announcements()

    def _set_context(self) -> None:
        self._ctx = self._t.contexts[((self._trump + 1) << len(self._t.promotion_cards)) | self._promo]

    def _play(self, card: Card) -> None:
        """Play ``card`` for the seat to move (legality already checked)."""
        seat = self._turn
        self._hands[seat] ^= 1 << card
        ctx = self._ctx
        trick = self._trick
        if trick:
            s = self._st[card]
            if s > self._best:
                self._best = s
                self._win = card
                self._wseat = seat
        else:
            led = ctx.card_suit[card]
            self._led = led
            self._st = st = ctx.strength[led]
            self._best = st[card]
            self._win = card
            self._wseat = seat
        trick.append(card)
        self._tmask |= 1 << card
        self._tpoints += ctx.points[card]
        if len(trick) == self._n:
            self._end_trick()
        else:
            self._turn = self._t.next_seat[seat]
            if self._trick_no == 0 and self._rs.announcements:
                self._offer_announcements()

    def _end_trick(self) -> None:
        winner = self._wseat
        team = self._t.team_of[winner]
        self._points[team] += self._tpoints
        self._tricks[team] += 1
        self._log.append((self._leader, tuple(self._trick), winner))
        self._trick_no += 1
        self._trick = []
        self._tmask = self._tpoints = 0
        self._leader = self._turn = winner
        if self._trick_no == self._ntricks:
            self._end_hand()

    def _play_out(self, rnd: Any) -> None:
        """Play the rest of the hand, from a trick boundary, with uniformly random legal cards."""
        left = self._ntricks - self._trick_no
        self._leader = self._turn = random_tricks(
            self._ctx, self._t, cards_table(self._acts.ncards, left), self._hands, self._leader, left, rnd,
            self._history, self._log, self._points, self._tricks)
        self._hands = [0] * self._n
        self._trick_no = self._ntricks
        self._end_hand()

    # ------------------------------------------------------------------ announcements
    def _offer_announcements(self) -> None:
        """Queue the announcements the seat to move may make on its turn in trick 1."""
        seat = self._turn
        hand = self._hands[seat]
        for a, card in enumerate(self._t.holder_cards):
            if card >= 0 and hand >> card & 1 and not self._ann_offered >> a & 1:
                self._ann_offered |= 1 << a
                self._offers.append((a, seat))
        if self._offers:
            self._phase = _ANNOUNCE

    def _announce(self, action: int) -> None:
        a, seat = self._offers[0]
        if action == self._acts.decline:
            self._offers.pop(0)
        else:
            self._made.append((a, seat))
            while self._offers and self._offers[0][0] == a:  # first yes ends this round
                self._offers.pop(0)
            follow = []
            rs = self._rs
            team_of = self._t.team_of
            for b in self._t.followups[a]:
                partners = rs.announcements[b].by == "partners"
                for k in range(1, self._n):
                    other = (seat + k) % self._n
                    if (team_of[other] == team_of[seat]) == partners:
                        follow.append((b, other))
            self._offers[:0] = follow
            self._promote(a)
        if not self._offers:
            self._phase = _PLAY

    def _promote(self, a: int) -> None:
        """Apply the promotions announcement ``a`` triggers; re-rank the trick in progress."""
        for i, by in enumerate(self._t.promotion_by):
            if by == a:
                self._promo |= 1 << i
        self._set_context()
        ctx = self._ctx
        if self._trick:
            self._led = ctx.card_suit[self._trick[0]]
            self._st = ctx.strength[self._led]
            self._best = -1
            self._tpoints = 0
            for i, card in enumerate(self._trick):
                self._tpoints += ctx.points[card]
                if self._st[card] > self._best:
                    self._best, self._win, self._wseat = self._st[card], card, (self._leader + i) % self._n

    # ------------------------------------------------------------------ scoring and game flow
    def _end_hand(self) -> None:
        """Score the finished hand by the ruleset's rules, record it, and move the game on."""
        score = self._t.score_hand(tuple(self._points), tuple(self._tricks), self._maker, self._dealer, self._ntricks,
                                   self._passes, self._ties, self._values, self._made)
        self._values = score.values
        self._ties = score.ties
        self._passes = score.passes
        self._redeals = 0
        self._record(score.outcome, score.winner, score.all_tricks, score.multiplier, score.deltas)
        self._next_hand(score.winner, score.tie and self._rs.scoresheet.tie_next_dealer == "same")

    def _pass_out(self) -> None:
        """A deal refused by everyone: it scores nothing, may owe the next decided hand."""
        self._passes = passes_after_pass_out(self._rs.scoresheet, self._passes)
        self._redeals += 1
        self._path = "redeal"
        self._trump = -1
        self._maker = None
        self._record("passed_out", None, False, 1, (0,) * len(self._values))
        if self._redeals > self._rs.limits.max_redeals_in_a_row:
            self._finish(None, abandoned=True)
            return
        self._next_hand(None, same_dealer=False)

    def _record(self, outcome: str, winner: Team | None, all_tricks: bool, k: int, deltas: tuple[int, ...]) -> None:
        """Append this hand's summary."""
        self._game_hands += 1
        points = tuple(self._points)
        trump = self._trump
        made = self._made
        self._summaries.append(_new_tuple(HandSummary, (  # tuple.__new__: no NamedTuple __new__ frame
            self._game, self._game_hands, self._dealer, self._rs.layout.suits[trump] if trump >= 0 else None,
            self._path, self._maker, self._decider, tuple(self._decisions), points, tuple(self._tricks), outcome,
            winner, all_tricks, tuple((self._rs.announcements[a].id, s) for a, s in made) if made else (),
            sum(points), k, deltas, self._values, tuple(self._log),
        )))

    def _next_hand(self, hand_winner: Team | None, same_dealer: bool) -> None:
        """End the game if a team reached the goal (or a limit was hit), else deal again."""
        rs = self._rs
        verdict, game_winner = self._t.settle(self._values, hand_winner, self._game_hands, self._games_won)
        if verdict == ABANDONED:
            self._finish(None, abandoned=True)
            return
        if game_winner is not None:
            self._games.append(FinishedGame(game_winner, self._values, self._game_hands))
            if verdict == SESSION_OVER:
                self._finish(game_winner, abandoned=False)
                return
            self._game += 1
            self._game_hands = self._ties = self._passes = self._redeals = 0
            self._values = (rs.scoresheet.start,) * len(self._values)
        if not same_dealer and rs.dealer.rotation == "next":
            self._dealer = self._t.next_seat[self._dealer]
        self._start_deal()

    def _finish(self, winner: Team | None, abandoned: bool) -> None:
        if abandoned:
            self._games.append(FinishedGame(None, self._values, self._game_hands))
        self._phase = _OVER
        self._result = GameResult(
            winner=winner,
            scores=self._values,
            hands=len(self._summaries),
            games_won=tuple(self._games_won),
            games=tuple(self._games),
            abandoned=abandoned,
        )

    # ------------------------------------------------------------------ refusals
    def _visible_face_up(self, card: Card, holder: int | None) -> bool:
        """A face-up card stays visible while on the table or in its holder's hand."""
        return holder is None or bool(self._hands[holder] >> card & 1)

    def _play_refusal(self, action: int) -> str:
        seat = self._turn
        if not 0 <= action < self._acts.ncards:
            return f"seat {seat} must play a card now, not {self._describe(action)}"
        name = self._rs.layout.name(action)
        if not self._hands[seat] >> action & 1:
            return f"{name} is not in seat {seat}'s hand"
        from couillon_dsl.engine.why import explain_legal  # the explanation needs the state; import late
        reason = next(r for c, ok, r in explain_legal(self, seat) if c == action)
        return f"{name} is illegal: {reason}"

    def _refusal(self, action: int) -> str:
        phase = PHASE_NAMES[self._phase]
        if self._phase == _OVER:
            return "the game is over"
        if self._phase == _DRAW and 0 <= action < self._acts.ncards:
            return f"{self._rs.layout.name(action)} was already drawn in this deal"
        legal = ", ".join(self.action_to_string(a) for a in self.legal_actions())
        return f"{self._describe(action)} is not legal in phase {phase}; legal: {legal}"

    def _describe(self, action: int) -> str:
        try:
            return repr(self.action_to_string(action))
        except ValueError:
            return repr(action)


def play_random_game(ruleset: Ruleset, rng: random.Random) -> GameState:
    """A whole game (or session) played by uniformly random players; returns the final state."""
    state = GameState(ruleset)
    state.play_random(rng)
    return state
