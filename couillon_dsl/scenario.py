"""Scenario files: a rules lawyer's "what happens here?", written down and checked.

A scenario names a ruleset, stacks one or more deals by hand (explicit hands, or a pack
order), scripts every decision and play by seat and card name, and states expectations
at checkpoints: legal cards, trick winners, trump and maker, card points, the
scoresheet, the winner, plays that must be refused and why. The runner plays the script
on the generic engine and reports every expectation that does not hold, with the
engine's own explanation of each card's legality. docs/scenarios.md describes the format.

Explicit hands become a pack order by walking the ruleset's compiled deal steps, so a
new deal script needs no scenario code.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator

from couillon_dsl.builtin import is_file
from couillon_dsl.cards import Card, CardMask, CardNotationError, iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.diagnostics import RulesetError
from couillon_dsl.engine.state import CHANCE, TERMINAL, GameState, IllegalAction
from couillon_dsl.engine.tables import resolve_seats
from couillon_dsl.engine.why import explain_legal, why_wins
from couillon_dsl.expr.parse import exact
from couillon_dsl.loader import load_yaml
from couillon_dsl.model import Ruleset, hand_script

# seat names relative to the dealer of the hand in play (rules digest §0.2)
RELATIVE_SEATS = {"D": 0, "dealer": 0, "L": 1, "elder": 1, "P": 2, "R": 3}
FOUR_PLAYER_ONLY = {"P", "R"}

TOP_KEYS = {"title", "ruleset", "options", "dealer", "before", "deal", "script", "expect"}
OUTCOMES = {"winner": "decided", "tie": "tie", "no_score": "no_score", "passed_out": "passed_out"}


class ScenarioError(Exception):
    """A scenario file that cannot be read or run as written (not a failed expectation)."""


# ---------------------------------------------------------------------------- the file

@dataclass(frozen=True)
class Step:
    """One script entry: ``kind`` is act, play, trick, expect, refuse or deal."""

    kind: str
    line: int
    data: Any
    seat: Any = None  # act/refuse: the seat reference as written


@dataclass(frozen=True)
class Scenario:
    path: Path
    title: str
    ruleset: str
    options: dict[str, Any]
    dealer: int | None
    before: dict[str, Any]
    deal: dict[Any, Any] | None
    steps: tuple[Step, ...]


def load_scenario(path: str | Path) -> Scenario:
    """Read and shape-check a scenario file; raises ScenarioError with the line at fault."""
    path = Path(path)
    try:
        data, origins = load_yaml(path, "scenario")
    except RulesetError as exc:
        raise ScenarioError("; ".join(f"{d.span}: {d.message}" if d.span else d.message
                                      for d in exc.diagnostics)) from None
    _check_keys(data, TOP_KEYS, f"{path}: scenario")
    if not isinstance(data.get("ruleset"), str):
        raise ScenarioError(f"{path}: `ruleset:` must name a built-in ruleset or a file relative to the scenario")
    options = data.get("options") or {}
    before = data.get("before") or {}
    if not isinstance(options, dict) or not isinstance(before, dict):
        raise ScenarioError(f"{path}: `options:` and `before:` are mappings")
    _check_keys(before, {"scores", "pending", "tallies", "hand"}, f"{path}: before")
    dealer = data.get("dealer")
    if dealer is not None and (type(dealer) is not int or dealer < 0):
        raise ScenarioError(f"{path}: `dealer:` is the seat number of the first dealer")
    deal = data.get("deal")
    if deal is not None and not isinstance(deal, dict):
        raise ScenarioError(f"{path}: `deal:` is a mapping of seats (and stock, set_aside, kitty or "
                             "pack) to cards, and trump to the suit drawn")
    script = data.get("script") or []
    if not isinstance(script, list):
        raise ScenarioError(f"{path}: `script:` is a list of steps")
    steps = [_parse_step(item, origins[f"/script/{i}"].span.line, path) for i, item in enumerate(script)]
    if "expect" in data:
        steps.append(_parse_step({"expect": data["expect"]}, origins["/expect"].span.line, path))
    return Scenario(path, str(data.get("title") or path.stem), data["ruleset"], options, dealer, before, deal,
                    tuple(steps))


def _check_keys(mapping: dict[Any, Any], allowed: set[str], where: str) -> None:
    for key in mapping:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), sorted(allowed), n=1)
            hint = (f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(sorted(allowed))})"
                    if allowed else " (there are none here)")
            raise ScenarioError(f"{where}: unknown key {key!r}{hint}")


def _parse_step(item: Any, line: int, path: Path) -> Step:
    where = f"{path}:{line}"
    if not isinstance(item, dict) or not item:
        raise ScenarioError(f"{where}: a step is a mapping such as `L: accept`, `play: [...]` or `expect: {{...}}`")
    keys = set(item)
    kind = next((k for k in ("trick", "play", "refuse", "expect", "deal") if k in keys), None)
    if kind is None:
        if len(item) != 1:
            raise ScenarioError(f"{where}: an action step names one seat, e.g. `L: pass`; got {sorted(map(str, item))}")
        seat, action = next(iter(item.items()))
        if action is False:  # YAML 1.1 reads a bare `no` as false
            action = "no"
        if not isinstance(action, (str, int)):
            raise ScenarioError(f"{where}: the action of {seat} must be text such as `pass`, `name H` or `AS`")
        return Step("act", line, str(action), seat)
    extra = {"trick": {"winner", "points"}, "refuse": {"because"}}.get(kind, set())
    _check_keys(item, {kind} | extra, f"{where}: {kind} step")
    value = item[kind]
    if kind in ("play", "trick"):
        plays = value if isinstance(value, list) else str(value).split(",")
        return Step(kind, line, {"plays": [str(p).strip() for p in plays], **{k: item[k] for k in extra if k in item}})
    if kind == "refuse":
        words = str(value).split(None, 1)
        if len(words) != 2:
            raise ScenarioError(f"{where}: `refuse:` is a seat and an action, e.g. `refuse: R 10H`")
        return Step("refuse", line, {"action": words[1], "because": item.get("because")}, words[0])
    if kind == "expect":
        if not isinstance(value, dict) or not value:
            raise ScenarioError(f"{where}: `expect:` is a mapping of checks")
        _check_keys(value, set(EXPECTATIONS), f"{where}: expect")
        return Step("expect", line, value)
    if value is not None and not isinstance(value, dict):
        raise ScenarioError(f"{where}: `deal:` is a mapping of seats (and stock, set_aside, kitty or "
                             "pack) to cards, and trump to the suit drawn")
    return Step("deal", line, value or {})


# ---------------------------------------------------------------------------- seats and teams

def words(value: Any, what: str) -> list[str]:
    """Names written as ``AS KS``, ``AS, KS`` or a list ``[AS, KS]`` (a bare YAML ``no`` is "no")."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
        return ["no" if v is False else str(v) for v in value]
    raise ScenarioError(f"{what}: expected a list of names such as [AS, KS], not {value!r}")


def whole(value: Any, what: str) -> int:
    """A whole number written in the scenario (``12`` or ``"12"``), or a ScenarioError naming ``what``."""
    if type(value) is int:
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdecimal():
        return int(value)
    raise ScenarioError(f"{what} must be a whole number, not {value!r}")


def seat_of(ref: Any, dealer: int, count: int) -> int:
    """A seat from a reference: a seat number, or D/L/P/R, dealer/elder relative to ``dealer``."""
    if type(ref) is int or (isinstance(ref, str) and ref.isdecimal()):
        seat = int(ref)
        if not 0 <= seat < count:
            raise ScenarioError(f"seat {seat} does not exist: seats are 0..{count - 1}")
        return seat
    if isinstance(ref, str) and ref in RELATIVE_SEATS:
        if ref in FOUR_PLAYER_ONLY and count != 4:
            raise ScenarioError(f"{ref!r} names a seat of a four-player game; use seat numbers with {count} players")
        return (dealer + RELATIVE_SEATS[ref]) % count
    raise ScenarioError(f"{ref!r} is not a seat: write a seat number, D, L, P, R, dealer or elder")


def team_of(ref: Any, ruleset: Ruleset, dealer: int) -> int | None:
    """A team from ``L+R``, ``0+2``, a single seat, or ``none``."""
    if ref is None or ref == "none":
        return None
    parts = str(ref).split("+")
    seats = [seat_of(p.strip(), dealer, ruleset.players.count) for p in parts]
    teams = {ruleset.tables.team_of[s] for s in seats}
    if len(teams) != 1:
        raise ScenarioError(f"{ref!r} is not one team: those seats are not partners")
    return teams.pop()


def seat_label(seat: int, dealer: int, count: int) -> str:
    offset = (seat - dealer) % count
    names = {0: "D", 1: "L", 2: "P", 3: "R"} if count == 4 else {0: "dealer", 1: "elder"}
    return f"{names[offset]} (seat {seat})" if offset in names else f"seat {seat}"


def team_label(team: int | None, ruleset: Ruleset, dealer: int) -> str:
    if team is None:
        return "none"
    count = ruleset.players.count
    seats = ruleset.players.teams[team]
    if count == 4:
        return "+".join(seat_label(s, dealer, count).split()[0] for s in sorted(seats, key=lambda s: (s - dealer) % count))
    return "+".join(str(s) for s in seats)


# ---------------------------------------------------------------------------- stacking a deal

def deal_slots(ruleset: Ruleset, dealer: int, hand_no: int = 0) -> list[tuple[str, int]]:
    """Where each pack position goes under the deal script of the game's ``hand_no``-th hand (from 0):
    ("hand", seat), ("stock", -1), ("set_aside", -1) or ("kitty", -1).

    The engine draws the whole pack before the script runs and deals from its top, so
    positions follow the script's steps; cards the script never reaches count as set aside.
    Packets after a stock are dealt from it (to seats known only once someone declares): the
    scenario lists their cards in the stock, in the order they are dealt.
    """
    size = ruleset.layout.size
    count = ruleset.players.count
    slots: list[tuple[str, int]] = []
    for step in hand_script(ruleset.deal, hand_no):
        kind = step.kind
        if kind == "packet" and ("stock", -1) in slots:
            continue
        if kind == "packet":
            assert step.to is not None and isinstance(step.packet, int)
            for seat in resolve_seats(step.to, dealer, count):
                slots.extend([("hand", seat)] * step.packet)
        elif kind == "stock":
            slots.extend([("stock", -1)] * (size - len(slots)))
        elif kind in ("set_aside", "kitty"):
            given = getattr(step, kind)
            number = size - len(slots) if given == "rest" else int(given)
            slots.extend([(kind, -1)] * number)
    slots.extend([("set_aside", -1)] * (size - len(slots)))
    return slots[:size]


def stack_pack(ruleset: Ruleset, dealer: int, spec: dict[Any, Any], hand_no: int = 0) -> list[Card]:
    """The pack order (top first) that deals the hands, stock, set-aside and kitty cards of ``spec``
    in the game's ``hand_no``-th hand (from 0).

    Hands are listed per seat in the order the seat receives them. Stock and set-aside
    lists may be partial (top first); every card left unplaced fills the open places in
    deck order, so ``{}`` deals the unshuffled deck. ``pack:`` gives the order directly.
    """
    layout = ruleset.layout
    count = ruleset.players.count

    def cards(value: Any, where: str) -> list[Card]:
        try:
            return [layout.parse(name) for name in words(value, where)]
        except CardNotationError as exc:
            raise ScenarioError(f"{where}: {exc}") from None

    placed: dict[Card, str] = {}

    def claim(card: Card, where: str) -> Card:
        """Place ``card``: its first copy not placed yet (`deck.copies`: a name stands for one copy)."""
        for copy in iter_bits(layout.copies_mask(card)):
            if copy not in placed:
                placed[copy] = where
                return copy
        if layout.copies > 1:
            raise ScenarioError(f"{layout.name(card)} is placed more often than the pack's {layout.copies} copies, "
                                f"the last time in {where}")
        raise ScenarioError(f"{layout.name(card)} is placed twice: in {placed[card]} and in {where}")

    if "pack" in spec:
        if set(spec) != {"pack"}:
            raise ScenarioError("a deal gives either `pack:` or hands (with stock/set_aside), not both")
        order = [claim(card, "pack") for card in cards(spec["pack"], "pack")]
        return order + [c for c in range(layout.size) if c not in placed]

    slots = deal_slots(ruleset, dealer, hand_no)
    pack: list[Card | None] = [None] * len(slots)
    for key, value in spec.items():
        if key in ("stock", "set_aside", "kitty"):
            target, label = (key, -1), key
        else:
            seat = seat_of(key, dealer, count)
            target, label = ("hand", seat), seat_label(seat, dealer, count)
        positions = [i for i, slot in enumerate(slots) if slot == target]
        listed = cards(value, label)
        exact = target[0] == "hand"
        if len(listed) > len(positions) or (exact and len(listed) != len(positions)):
            raise ScenarioError(f"{label} receives {len(positions)} cards under this deal script; the scenario lists {len(listed)}")
        for position, card in zip(positions, listed):
            pack[position] = claim(card, label)
    rest = iter(c for c in range(layout.size) if c not in placed)
    return [c if c is not None else next(rest) for c in pack]


# ---------------------------------------------------------------------------- running

@dataclass
class Failure:
    line: int
    message: str
    details: list[str] = field(default_factory=list)


@dataclass
class ScenarioResult:
    path: Path
    title: str
    checks: int = 0
    failures: list[Failure] = field(default_factory=list)
    error: str | None = None  # the scenario could not be read or run to its end

    @property
    def ok(self) -> bool:
        return not self.failures and self.error is None

    def render(self) -> str:
        head = f"{self.path}: {self.title}"
        if self.ok:
            return f"ok    {head} ({self.checks} checks)"
        out = [f"FAIL  {head}"]
        for failure in self.failures:
            out.append(f"  line {failure.line}: {failure.message}")
            out.extend(f"      {d}" for d in failure.details)
        if self.error:
            out.append(f"  {self.error}")
        return "\n".join(out)


@dataclass
class Trick:
    winner: int  # seat
    points: int | Fraction  # card points the winner's side took with it
    why: str  # the engine's reason the winner won


class _Stop(Exception):
    """The script cannot go on (an action failed); the failure is already recorded."""


def run_scenario(path: str | Path) -> ScenarioResult:
    """Run one scenario file; never raises for a bad file or a failed expectation.

    An engine crash is not the scenario's fault: it propagates (the CLI reports it as an internal error).
    """
    path = Path(path)
    try:
        scenario = load_scenario(path)
    except ScenarioError as exc:
        return ScenarioResult(path, path.stem, error=str(exc))
    result = ScenarioResult(path, scenario.title)
    runner = _Runner(scenario, result)
    try:
        runner.run()
    except _Stop:
        result.error = "stopped: the rest of the script was not run"
    except ScenarioError as exc:
        result.error = f"{runner.where}bad scenario: {exc}"
    return result


class _Runner:
    def __init__(self, scenario: Scenario, result: ScenarioResult) -> None:
        self.scenario = scenario
        self.result = result
        self.line = 0  # of the step being run; 0 while setting up
        self.tricks: list[Trick] = []  # this hand's tricks, or the last hand's between hands
        self.games_won: tuple[int, ...] = ()
        self.game_winner: int | None = None

    # -- set-up
    def run(self) -> None:
        sc = self.scenario
        self.rs = self._ruleset()
        first = sc.dealer if sc.dealer is not None else self.rs.dealer.first
        first = first if type(first) is int else 0
        if not 0 <= first < self.rs.players.count:
            raise ScenarioError(f"dealer {first} is not a seat of this {self.rs.players.count}-player ruleset")
        self.rs = replace(self.rs, dealer=replace(self.rs.dealer, first=first))
        self.state = GameState(self.rs)
        self._set_before(sc.before)
        self.games_won = self.state.view(0).games_won
        if sc.deal is not None:
            self._deal(sc.deal)
        for step in sc.steps:
            self.line = step.line
            getattr(self, f"_step_{step.kind}")(step)

    def _ruleset(self) -> Ruleset:
        sc = self.scenario
        relative = sc.path.parent / sc.ruleset
        target: str | Path = relative if is_file(relative) else sc.ruleset
        try:
            return build_ruleset(target, sc.options)
        except RulesetError as exc:
            lines = [f"{d.span}: {d.message}" if d.span else d.message for d in exc.diagnostics]
            raise ScenarioError(f"ruleset {sc.ruleset!r}: " + "; ".join(lines)) from None

    def _set_before(self, before: dict[str, Any]) -> None:
        """Put the scoresheet as it stood before the first hand (digest §2.4: both at 10, a pass owed),
        with the counts of the ruleset's tallies (`tallies: {bags: {L+R: 9}}`) and the hand of the game
        the scenario starts at (`hand: 5`: a schedule's fifth hand size, passing's fifth direction)."""
        scores = before.get("scores") or {}
        pending = before.get("pending") or {}
        tallies = before.get("tallies") or {}
        if not isinstance(scores, dict) or not isinstance(pending, dict) or not isinstance(tallies, dict):
            raise ScenarioError("`before:` holds `scores: {TEAM: N}`, `pending: {ties: N, passes: N}` and "
                                "`tallies: {TALLY: {TEAM: N}}`")
        _check_keys(pending, {"ties", "passes"}, "before: pending")
        _check_keys(tallies, set(self.state.tallies), "before: tallies")
        counts = {}
        for name, table in tallies.items():
            row = list(self.state.tallies[name])
            for team, value in self._team_values(table, f"before: tallies: {name}"):
                row[team] = whole(value, f"a count in `before: tallies: {name}`")
            counts[name] = row
        values = list(self.state.scores)
        for team, value in self._team_values(scores, "before: scores"):
            values[team] = whole(value, "a score in `before: scores`")
        hand = whole(before.get("hand", 1), "`before: hand`")
        if hand < 1:
            raise ScenarioError("`before: hand` counts the hands of a game from 1")
        self.state.set_scoresheet(values, ties=whole(pending.get("ties", 0), "`before: pending: ties`"),
                                  passes=whole(pending.get("passes", 0), "`before: pending: passes`"), tallies=counts,
                                  hand=hand)

    def _team_values(self, table: Any, what: str) -> Iterator[tuple[int, Any]]:
        """The (team, value) pairs of ``{TEAM: N}`` in `before:`."""
        if not isinstance(table, dict):
            raise ScenarioError(f"`{what}` maps teams (e.g. L+R) to numbers")
        for ref, value in table.items():
            team = self._team(ref)
            if team is None:
                raise ScenarioError(f"`{what}` names a team for every value")
            yield team, value

    # -- helpers
    @property
    def where(self) -> str:
        return f"line {self.line}: " if self.line else ""

    @property
    def dealer(self) -> int:
        return self.state.dealer

    def _seat(self, ref: Any) -> int:
        return seat_of(ref, self.dealer, self.rs.players.count)

    def _team(self, ref: Any) -> int | None:
        return team_of(ref, self.rs, self.dealer)

    def _who(self, seat: int) -> str:
        if seat == CHANCE:
            return "the deal (chance)"
        if seat == TERMINAL:
            return "nobody (the game is over)"
        return seat_label(seat, self.dealer, self.rs.players.count)

    def _fail(self, message: str, details: list[str] | None = None) -> None:
        self.result.failures.append(Failure(self.line, message, details or []))

    def _check(self, ok: bool, message: str, why: int | None = None, note: str | None = None) -> None:
        """Count one check; a failure shows the engine's explanation of seat ``why``'s cards, or ``note``."""
        self.result.checks += 1
        if not ok:
            self._fail(message, (self._why(why) if why is not None else []) + ([note] if note else []))

    def _action(self, seat: int | None, text: str) -> int:
        try:
            return self.state.string_to_action(seat, text)
        except ValueError as exc:
            raise ScenarioError(str(exc)) from None

    def _names(self, actions: Any) -> str:
        return " ".join(self.state.action_to_string(a) for a in actions) or "(none)"

    def _why(self, seat: int) -> list[str]:
        """The engine's explanation of every card in ``seat``'s hand, when a card is to be played."""
        if self.state.current_player() != seat or self.state.view(seat).phase != "play":
            return []
        name = self.rs.layout.name
        return [f"{name(card):>4} {'legal  ' if ok else 'illegal'}  {reason}" for card, ok, reason in explain_legal(self.state, seat)]

    def _to_act(self, ref: Any) -> int:
        """The seat ``ref`` names (None: whoever is to act), which must be the one to act now; a card from
        the dummy (`play.dummy`) is written with the dummy's seat and played by its declarer, who acts."""
        state = self.state
        actual = state.current_player()
        if actual == CHANCE:
            self._fail("the engine waits for a new deal here; add a `deal:` step before this one")
            raise _Stop
        if actual == TERMINAL:
            self._fail("the game is over; the script goes on")
            raise _Stop
        seat = actual if ref is None else self._seat(ref)
        if state.is_playing() and seat == state.playing_seat:
            return actual
        if actual != seat:
            self._fail(f"{self._who(seat)} was scripted to act, but it is {self._who(actual)}'s turn "
                       f"(legal: {self._names(state.legal_actions())})")
            raise _Stop
        return seat

    def _apply(self, seat: int, text: str) -> None:
        """Apply one scripted action, keeping the trick log; an illegal action stops the script."""
        state = self.state
        action = self._action(seat, text)
        hands_before = len(state.hands)
        tricks_before = len(state.finished_tricks())
        points_before = state.side_points if state.is_playing() else state.view(seat).points
        ctx = state.context
        try:
            state.apply(action)
        except IllegalAction as exc:  # the engine refuses before changing anything
            self._fail(f"the engine refuses {text} from {self._who(seat)}: {exc}", self._why(seat))
            raise _Stop from None
        self.result.checks += 1  # the engine accepted the scripted action
        if len(state.hands) > hands_before:
            self._hand_ended(points_before, ctx)
        elif len(state.finished_tricks()) > tricks_before:
            _, played, winner = state.finished_tricks()[-1]
            side = state.sides[winner]
            self.tricks.append(Trick(winner, self._points(state.side_points[side] - points_before[side]),
                                     why_wins(self.rs, state.context, played)))  # the hand goes on: not its last

    def _hand_ended(self, points_before: tuple[int, ...], ctx: Any) -> None:
        """Close the hand's trick log from the engine's summary; the engine has moved on to the next deal."""
        summary = self.state.hands[-1]
        if len(summary.played_tricks) > len(self.tricks):
            _, cards, winner = summary.played_tricks[-1]
            side = summary.sides[winner] if summary.sides else self.rs.tables.team_of[winner]
            self.tricks.append(Trick(winner, self._points(summary.points[side] - points_before[side]),
                                     why_wins(self.rs, ctx, cards, True)))  # the hand's last trick
        won = self.state.view(0).games_won
        changed = [t for t in range(len(won)) if won[t] != self.games_won[t]]
        if changed:
            self.game_winner = changed[0]
        self.games_won = won

    def _deal(self, spec: dict[Any, Any]) -> None:
        state = self.state
        if state.current_player() != CHANCE:
            self._fail(f"a deal was scripted, but the engine is not dealing: it is {self._who(state.current_player())}'s turn")
            raise _Stop
        spec = dict(spec)
        drawn = spec.pop("trump", None)  # the suit a trump draw gives (`trump.method: drawn`): chance, as the pack
        for card in stack_pack(self.rs, self.dealer, spec, state.hand_number - 1):
            state.apply(card)
        if state.phase == "draw_trump":
            if drawn is None:
                self._fail("this deal draws trump by chance (trump.method: drawn): give the suit drawn in the deal "
                           "step, `trump: SUIT`")
                raise _Stop
            state.apply(self._action(None, f"trump {drawn}"))
        elif drawn is not None:
            raise ScenarioError("`trump:` in a deal is the suit drawn by chance (trump.method: drawn), but this deal "
                                "draws none")
        self.tricks = []

    # -- steps
    def _step_deal(self, step: Step) -> None:
        self._deal(step.data)

    def _step_act(self, step: Step) -> None:
        seat = self._to_act(step.seat)
        self._apply(seat, step.data)

    def _step_play(self, step: Step) -> None:
        for play in step.data["plays"]:
            words = play.split()
            if len(words) in (1, 2):
                seat = self._to_act(words[0] if len(words) == 2 else None)
            else:
                raise ScenarioError(f"a play is a card, optionally after its seat: `L AS` or `AS`; got {play!r}")
            self._apply(seat, words[-1])

    def _step_trick(self, step: Step) -> None:
        before = len(self.tricks)
        self._step_play(step)
        if len(self.tricks) != before + 1:
            self._fail(f"these plays were scripted as one whole trick, but they completed {len(self.tricks) - before}")
            return
        trick = self.tricks[-1]
        if "winner" in step.data:
            want = seat_of(step.data["winner"], self._hand_dealer(), self.rs.players.count)
            self._check(trick.winner == want, f"trick won by {self._who(trick.winner)}, expected {self._who(want)}",
                        note=f"why: {trick.why}")
        if "points" in step.data:
            self._check(trick.points == whole(step.data["points"], "a trick's `points:`"), f"trick worth {trick.points} points, expected {step.data['points']}")

    def _step_refuse(self, step: Step) -> None:
        seat = self._to_act(step.seat)
        text = step.data["action"]
        action = self._action(seat, text)
        because = step.data["because"]
        probe = self.state.clone()
        try:
            probe.apply(action)
        except IllegalAction as exc:
            reason = str(exc)
            self._check(not because or str(because).lower() in reason.lower(),
                        f"{text} was refused for another reason than {because!r}: {reason}", seat)
            return
        self._check(False, f"the engine accepts {text} from {self._who(seat)}; expected a refusal"
                    + (f" ({because})" if because else ""), seat)

    def _step_expect(self, step: Step) -> None:
        for key, value in step.data.items():
            EXPECTATIONS[key](self, value)

    # -- what expectations read
    def _in_hand(self) -> bool:
        return self.state.current_player() not in (CHANCE, TERMINAL)

    def _hand_dealer(self) -> int:
        """The dealer of the hand expectations talk about (in play, or the one just ended)."""
        if self._in_hand() or not self.state.hands:
            return self.dealer
        return self.state.hands[-1].dealer

    def _last_hand(self) -> Any:
        if not self.state.hands:
            raise ScenarioError("no hand has ended yet, so there is no result to check")
        return self.state.hands[-1]

    def _hand_value(self, live: Callable[[], Any], ended: Callable[[Any], Any]) -> Any:
        return live() if self._in_hand() else ended(self._last_hand())

    def _hand_team(self, ref: Any) -> int | None:
        return team_of(ref, self.rs, self._hand_dealer())

    def _points(self, units: int) -> int | Fraction:
        """Card points as the game counts them (the engine counts in 1/point_unit of a point)."""
        return exact(Fraction(units, self.rs.tables.point_unit))

    def _hand_sides(self) -> tuple[int, ...] | None:
        """Seat -> side of the hand in play (or just ended) when the sides change with each hand, else None."""
        t = self.rs.tables
        if not t.sides_per_hand:
            return None
        # the true sides (hidden sides too: a scenario is written by someone who sees every hand)
        sides = self._hand_value(lambda: self.state.sides if self.state.view(0).sides is not None else None,
                                 lambda h: h.sides)
        if not sides:
            raise ScenarioError("the sides of this hand are not fixed (no contract was made)")
        return tuple(sides)

    def _hand_side(self, ref: Any) -> int | None:
        """A side of the hand in play, named by its seats (``L``, ``P+R+D``): the team with fixed teams."""
        sides = self._hand_sides()
        if sides is None or ref is None or ref == "none":
            return self._hand_team(ref)
        found = {sides[seat_of(p.strip(), self._hand_dealer(), self.rs.players.count)] for p in str(ref).split("+")}
        if len(found) != 1:
            raise ScenarioError(f"{ref!r} is not one side of this hand: those seats play against each other")
        return found.pop()

    def _side_label(self, side: int | None) -> str:
        sides = self._hand_sides()
        if sides is None or side is None:
            return team_label(side, self.rs, self._hand_dealer())
        dealer, count = self._hand_dealer(), self.rs.players.count
        seats = sorted((s for s in range(count) if sides[s] == side), key=lambda s: (s - dealer) % count)
        return "+".join(seat_label(s, dealer, count).split()[0] if count == 4 else str(s) for s in seats)

    def _team_table(self, value: Any, actual: tuple[int | Fraction, ...], what: str, by_side: bool = False) -> None:
        """Check ``{TEAM: N}`` against ``actual``: per scoresheet team, or (``by_side``) per side of the hand."""
        if not isinstance(value, dict):
            raise ScenarioError(f"`{what}:` maps teams (e.g. L+R) to numbers")
        dealer = self._hand_dealer()
        for ref, want in value.items():
            team = self._hand_side(ref) if by_side else self._hand_team(ref)
            if team is None:
                raise ScenarioError(f"`{what}:` maps teams (e.g. L+R) to numbers, not {ref!r}")
            label = self._side_label(team) if by_side else team_label(team, self.rs, dealer)
            self._check(actual[team] == want, f"{what} of {label}: {actual[team]}, expected {want}")


def _cards_text(runner: _Runner, mask: int) -> str:
    return runner.rs.layout.format_mask(mask) or "(none)"


def _expect_dealer(r: _Runner, value: Any) -> None:
    want = seat_of(value, 0, r.rs.players.count) if type(value) is int else -1
    if want < 0:
        raise ScenarioError("`dealer:` is a seat number")
    r._check(r.dealer == want, f"dealer is seat {r.dealer}, expected seat {want}")


def _expect_hand_number(r: _Runner, value: Any) -> None:
    """The number of the hand being played in the game, from 1 (a redealt deal keeps its number)."""
    if type(value) is not int or value < 1:
        raise ScenarioError("`hand_number:` is a hand's number in the game, from 1")
    actual = r.state.hand_number
    r._check(actual == value, f"hand number {actual}, expected {value}")


def _expect_to_act(r: _Runner, value: Any) -> None:
    actual = r.state.current_player()
    want = {"chance": CHANCE, "nobody": TERMINAL}.get(value) if isinstance(value, str) else None
    want = want if want is not None else r._seat(value)
    r._check(actual == want, f"{r._who(actual)} is to act, expected {r._who(want)}")


def _expect_legal(r: _Runner, value: Any) -> None:
    state = r.state
    seat = state.current_player()
    if seat in (CHANCE, TERMINAL):
        r._fail(f"legal actions were expected, but it is {r._who(seat)}'s turn")
        return
    want = {r._action(seat, t) for t in words(value, "legal")}
    actual = set(state.legal_actions())
    r._check(actual == want, f"legal for {r._who(seat)}: {r._names(sorted(actual))}; expected {r._names(sorted(want))}", seat)


def _expect_legal_cards(r: _Runner, value: Any) -> None:
    """The cards the seat to play may play, whatever it may announce beside them (`legal` lists both)."""
    state = r.state
    seat = state.current_player()
    if seat in (CHANCE, TERMINAL) or not state.is_playing():
        r._fail(f"legal cards were expected, but it is {r._who(seat)}'s turn" if seat in (CHANCE, TERMINAL)
                else f"legal cards were expected, but {r._who(seat)} is not playing a card now")
        return
    want = {r._action(seat, t) for t in words(value, "legal_cards")}
    actual = {a for a in state.legal_actions() if a < state.actions.ncards}
    r._check(actual == want, f"legal cards for {r._who(seat)}: {r._names(sorted(actual))}; expected "
             f"{r._names(sorted(want))}", seat)


def _same_cards(r: _Runner, actual: CardMask, want: CardMask) -> bool:
    """Whether two card sets hold the same cards, equal cards (`deck.copies`) alike whichever copy."""
    layout = r.rs.layout
    return actual == want if layout.copies == 1 else layout.format_mask(actual) == layout.format_mask(want)


def _expect_hand(r: _Runner, value: Any) -> None:
    layout = r.rs.layout
    items = value.items() if isinstance(value, dict) else [(r.state.current_player(), value)]
    for ref, cards in items:
        seat = r._seat(ref)
        try:
            want = layout.parse_mask(words(cards, "hand"))
        except CardNotationError as exc:
            raise ScenarioError(str(exc)) from None
        actual = r.state.hand_of(seat)
        r._check(_same_cards(r, actual, want), f"{r._who(seat)} holds {_cards_text(r, actual)}; expected {_cards_text(r, want)}")


def _expect_shown(r: _Runner, value: Any) -> None:
    """The kitty and the discards every seat sees: ``{kitty: [..], discarded: [..]}`` (the view of a
    seat that neither declares nor discards)."""
    if not isinstance(value, dict) or set(value) - {"kitty", "discarded"}:
        raise ScenarioError("`shown:` is a mapping with kitty and/or discarded card lists")
    public = r.state.view(0)
    view = r.state.view(next(s for s in range(r.rs.players.count) if s not in (public.deciding_seat,
                                                                               public.discarding_seat)))
    for key, cards in value.items():
        try:
            want = r.rs.layout.parse_mask(words(cards, key))
        except CardNotationError as exc:
            raise ScenarioError(str(exc)) from None
        actual = getattr(view, key)
        r._check(_same_cards(r, actual, want), f"{key} shown to everyone: {_cards_text(r, actual)}; expected {_cards_text(r, want)}")


def _expect_trump(r: _Runner, value: Any) -> None:
    suits = r.rs.layout.suits
    actual = r._hand_value(lambda: suits[r.state.trump] if r.state.trump is not None else None, lambda h: h.trump)
    want = None if value in (None, "none") else str(value).upper()
    r._check(actual == want, f"trump is {actual or 'none'}, expected {want or 'none'}")


def _expect_contract(r: _Runner, value: Any) -> None:
    actual = r._hand_value(lambda: r.state.view(0).contract, lambda h: h.contract)
    want = None if value in (None, "none") else str(value)
    r._check(actual == want, f"contract is {actual or 'none'}, expected {want or 'none'}")


def _expect_decisions(r: _Runner, value: Any) -> None:
    """The trump decisions so far (or of the last hand) as `seat: word` pairs, e.g. [R: push, P: name]."""
    if not isinstance(value, list):
        raise ScenarioError("`decisions:` is a list such as [R: push, P: name]")
    dealer = r._hand_dealer()
    actual = r._hand_value(lambda: r.state.view(0).decisions, lambda h: h.decisions)
    want = []
    for item in value:
        if not isinstance(item, dict) or len(item) != 1:
            raise ScenarioError("`decisions:` is a list such as [R: push, P: name]")
        ((ref, word),) = item.items()
        want.append((seat_of(ref, dealer, r.rs.players.count), str(word)))  # the seats of the hand's dealer
    shown = ", ".join(f"{seat_label(s, dealer, r.rs.players.count)}: {w}" for s, w in actual) or "none"
    r._check(list(actual) == want, f"decisions are [{shown}], expected {value}")


def _expect_maker(r: _Runner, value: Any) -> None:
    actual = r._hand_value(lambda: r.state.view(0).maker, lambda h: h.maker)
    want = r._hand_side(value)
    r._check(actual == want, f"maker is {r._side_label(actual)}, expected {r._side_label(want)}")


def _expect_announced(r: _Runner, value: Any) -> None:
    actual = [a for a, _ in r._hand_value(lambda: r.state.view(0).announcements, lambda h: h.announcements)]
    want = [str(v) for v in (value or [])]
    r._check(actual == want, f"announced {actual or 'nothing'}, expected {want or 'nothing'}")


def _expect_sitting_out(r: _Runner, value: Any) -> None:
    """``sitting_out: [P]``: the seats sitting the hand being played (or the last hand) out, none for ``[]``."""
    dealer = r._hand_dealer()
    count = r.rs.players.count
    actual = r._hand_value(lambda: r.state.sitting_out, lambda h: h.sitting_out)
    want = sorted(seat_of(v, dealer, count) for v in (words(value, "sitting_out") if value else ()))
    r._check(list(actual) == want, "sitting out: " + (" ".join(seat_label(s, dealer, count) for s in actual) or "nobody")
             + ", expected " + (" ".join(seat_label(s, dealer, count) for s in want) or "nobody"))


def _expect_knows_sides(r: _Runner, value: Any) -> None:
    """``knows_sides: {P: [L, P]}``: the seats whose side in the hand being played each listed seat
    knows (its view; sides hidden until revealed, `card_holders`, else every seat)."""
    if not isinstance(value, dict):
        raise ScenarioError("`knows_sides:` maps a seat to the seats whose side it knows, e.g. {P: [L, P]}")
    if not r._in_hand():
        r._fail("known sides were expected, but no hand is being played")
        return
    dealer = r._hand_dealer()
    count = r.rs.players.count
    for ref, seats in value.items():
        seat = seat_of(ref, dealer, count)
        known = [s for s, side in enumerate(r.state.view(seat).sides or ()) if side >= 0]
        want = sorted(seat_of(v, dealer, count) for v in (words(seats, "knows_sides") if seats else ()))
        r._check(known == want, f"{r._who(seat)} knows the sides of "
                 + (" ".join(seat_label(s, dealer, count) for s in known) or "nobody") + ", expected "
                 + (" ".join(seat_label(s, dealer, count) for s in want) or "nobody"))


def _expect_declared(r: _Runner, value: Any) -> None:
    """The declarations made so far (or in the last hand), in order: ``[L weis run of 3, P stock]``."""
    if not isinstance(value, list):
        raise ScenarioError("`declared:` is a list such as [L weis run of 3, P stock]")
    dealer = r._hand_dealer()
    n = r.rs.players.count
    actual = r._hand_value(lambda: r.state.view(0).melds, lambda h: h.melds)
    got = [(seat, kind, label) for kind, label, seat, *_ in actual]
    want = []
    for item in value:
        words = str(item).split(maxsplit=2)
        if len(words) < 2:
            raise ScenarioError(f"`declared:` item {item!r} is SEAT DECLARATION [PATTERN], e.g. L weis run of 3")
        want.append((seat_of(words[0], dealer, n), words[1], words[2] if len(words) > 2 else None))
    matches = len(got) == len(want) and all(
        g[:2] == w[:2] and w[2] in (None, g[2]) for g, w in zip(got, want))
    shown = ", ".join(f"{seat_label(s, dealer, n)} {k} {label}" for s, k, label in got) or "nothing"
    r._check(matches, f"declared {shown}; expected {', '.join(map(str, value)) or 'nothing'}")


def _expect_declared_points(r: _Runner, value: Any) -> None:
    """What each team keeps per declaration: ``{weis: {L+R: 220, D+P: 0}}`` (live: as the hand stands)."""
    ids = [d.id for d in r.rs.declarations]
    if not isinstance(value, dict) or not all(k in ids for k in value):
        raise ScenarioError(f"`declared_points:` maps declaration ids ({', '.join(ids) or 'none declared'}) to "
                            "{TEAM: N}")
    if r._in_hand():
        kept = r.state.declared_points()
    else:
        kept = dict(zip(ids, r._last_hand().declared))
    nteams = r.rs.players.nsides
    for kind, table in value.items():
        r._team_table(table, kept.get(kind, (0,) * nteams), f"{kind} points", by_side=True)


def _expect_bids(r: _Runner, value: Any) -> None:
    """The tricks bid so far (or in the last hand), per seat: ``{L: 3, P: 0, D: none}`` (none: not bid yet)."""
    if r.rs.bids is None:
        raise ScenarioError("`bids:` is for rulesets with a `bids` section")
    if not isinstance(value, dict):
        raise ScenarioError("`bids:` maps seats to the tricks they bid, e.g. {L: 3, P: 0, D: none}")
    dealer = r._hand_dealer()
    count = r.rs.players.count
    actual = r._hand_value(lambda: r.state.view(0).bids, lambda h: h.bids) or (-1,) * count
    for ref, want in value.items():
        seat = seat_of(ref, dealer, count)
        number = -1 if want in (None, "none") else whole(want, "a bid in `bids:`")
        got = actual[seat]
        r._check(got == number, f"{seat_label(seat, dealer, count)} bid {'nothing yet' if got < 0 else got}, "
                                f"expected {'nothing yet' if number < 0 else number}")


def _hand_exchange(r: _Runner) -> tuple[tuple[CardMask, ...], tuple[CardMask, ...]]:
    """Per seat, the cards it passed and the cards passed to it (none until they reached it), in the
    hand being played or the one just ended."""
    n = r.rs.players.count
    if r._in_hand():
        views = [r.state.view(seat) for seat in range(n)]
        return tuple(v.passed for v in views), tuple(v.received for v in views)
    hand = r._last_hand()
    passed = hand.passed or (0,) * n
    offset = r.rs.pass_offset(hand.number - 1)  # a summary counts the game's hands from 1
    received = [0] * n
    for giver, cards in enumerate(passed):
        received[(giver + offset) % n] |= cards
    return passed, tuple(received)


def _expect_exchange(r: _Runner, value: Any, key: str) -> None:
    """``passed:`` or ``received:`` ``{SEAT: [cards]}``: the cards each seat listed gave, or was given."""
    if not r.rs.pass_cards:
        raise ScenarioError(f"`{key}:` is for rulesets with a `passing` section or a blind bid's exchange")
    if not isinstance(value, dict):
        raise ScenarioError(f"`{key}:` maps seats to cards, e.g. {{L: [QS, AH, KH]}}")
    dealer = r._hand_dealer()
    count = r.rs.players.count
    passed, received = _hand_exchange(r)
    actual = passed if key == "passed" else received
    for ref, cards in value.items():
        seat = seat_of(ref, dealer, count)
        try:
            want = r.rs.layout.parse_mask(words(cards, key))
        except CardNotationError as exc:
            raise ScenarioError(str(exc)) from None
        r._check(_same_cards(r, actual[seat], want), f"{seat_label(seat, dealer, count)} {key} {_cards_text(r, actual[seat])}; "
                                       f"expected {_cards_text(r, want)}")


def _expect_passed(r: _Runner, value: Any) -> None:
    _expect_exchange(r, value, "passed")


def _expect_received(r: _Runner, value: Any) -> None:
    _expect_exchange(r, value, "received")


def _expect_tricks(r: _Runner, value: Any) -> None:
    actual = [t.winner for t in r.tricks]
    dealer = r._hand_dealer()
    count = r.rs.players.count
    want = [seat_of(v, dealer, count) for v in words(value, "tricks")]
    r._check(actual == want, "trick winners " + (" ".join(seat_label(s, dealer, count) for s in actual) or "(none)")
             + ", expected " + " ".join(seat_label(s, dealer, count) for s in want))


def _expect_points(r: _Runner, value: Any) -> None:
    points = r._hand_value(lambda: r.state.side_points, lambda h: h.points)
    r._team_table(value, tuple(map(r._points, points)), "card points", by_side=True)


def _expect_result(r: _Runner, value: Any) -> None:
    if r._in_hand():
        r._fail("a hand result was expected, but the hand is still being played")
        return
    actual = OUTCOMES.get(r._last_hand().outcome, r._last_hand().outcome)
    r._check(actual == value, f"the hand ended {actual}, expected {value}")


def _expect_winner(r: _Runner, value: Any) -> None:
    if r._in_hand():
        r._fail("a hand winner was expected, but the hand is still being played")
        return
    actual = r._last_hand().winner
    want = r._hand_side(value)
    r._check(actual == want, f"the hand was won by {r._side_label(actual)}, expected {r._side_label(want)}")


def _expect_scores(r: _Runner, value: Any) -> None:
    r._team_table(value, r.state.scores, "score")


def _expect_tallies(r: _Runner, value: Any) -> None:
    """Each named tally's counts per team: ``{bags: {L+R: 3, P+D: 0}}``."""
    if not isinstance(value, dict):
        raise ScenarioError("`tallies:` maps a tally to its counts per team, e.g. {bags: {L+R: 3}}")
    _check_keys(value, set(r.state.tallies), "tallies")
    for name, table in value.items():
        r._team_table(table, r.state.tallies[name], f"{name} tally")


def _expect_pending(r: _Runner, value: Any) -> None:
    if not isinstance(value, dict):
        raise ScenarioError("`pending:` maps ties and/or passes to counts")
    _check_keys(value, {"ties", "passes"}, "pending")
    view = r.state.view(0)
    actual = {"ties": view.ties_pending, "passes": view.passes_pending}
    for key, want in value.items():
        r._check(actual[key] == want, f"{key} pending: {actual[key]}, expected {want}")


def _expect_games_won(r: _Runner, value: Any) -> None:
    r._team_table(value, r.state.view(0).games_won, "games won")


def _expect_game_winner(r: _Runner, value: Any) -> None:
    want = r._hand_team(value)
    dealer = r._hand_dealer()
    r._check(r.game_winner == want, f"the last game was won by {team_label(r.game_winner, r.rs, dealer)}, "
             f"expected {team_label(want, r.rs, dealer)}")


def _expect_session_winner(r: _Runner, value: Any) -> None:
    result = r.state.result
    actual = result.winner if result else None
    want = r._hand_team(value)
    dealer = r._hand_dealer()
    r._check(result is not None and actual == want,
             f"the session winner is {team_label(actual, r.rs, dealer) if result else 'not decided (still playing)'}, "
             f"expected {team_label(want, r.rs, dealer)}")


def _expect_over(r: _Runner, value: Any) -> None:
    actual = r.state.is_terminal()
    r._check(actual == bool(value), f"the game is {'over' if actual else 'still running'}, expected {'over' if value else 'running'}")


EXPECTATIONS: dict[str, Callable[[_Runner, Any], None]] = {
    "dealer": _expect_dealer,
    "hand_number": _expect_hand_number,
    "to_act": _expect_to_act,
    "legal": _expect_legal,
    "legal_cards": _expect_legal_cards,
    "hand": _expect_hand,
    "shown": _expect_shown,
    "trump": _expect_trump,
    "maker": _expect_maker,
    "contract": _expect_contract,
    "decisions": _expect_decisions,
    "announced": _expect_announced,
    "sitting_out": _expect_sitting_out,
    "knows_sides": _expect_knows_sides,
    "declared": _expect_declared,
    "declared_points": _expect_declared_points,
    "bids": _expect_bids,
    "passed": _expect_passed,
    "received": _expect_received,
    "tricks": _expect_tricks,
    "points": _expect_points,
    "result": _expect_result,
    "winner": _expect_winner,
    "scores": _expect_scores,
    "tallies": _expect_tallies,
    "pending": _expect_pending,
    "games_won": _expect_games_won,
    "game_winner": _expect_game_winner,
    "session_winner": _expect_session_winner,
    "over": _expect_over,
}
