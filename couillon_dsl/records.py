"""Game records: finished games as JSON lines, and replaying them against their rulesets.

One line per game holds everything needed to play it again and to check it: the format
version, the ruleset (as it was named or pathed, and its id), the effective option values,
the seed and agents, every action in order (card draws included, as the engine prints
them) and the outcome (winner, final scores, games won and one summary per hand). A line
stands alone, so a file can be appended to, split or streamed, and a cut-off file loses
only its last game. docs/records.md describes the format.
"""
from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from couillon_dsl.builtin import is_file
from couillon_dsl.engine.state import GameState, HandSummary, IllegalAction
from couillon_dsl.model import Ruleset

FORMAT = "couillon-record"
VERSION = 1
MAX_LINE_CHARS = 16_000_000  # one game's record; the longest games the limits allow are far shorter
MAX_DEPTH = 32  # nesting of JSON values (a record needs 4)
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')  # strings are skipped whole

_FIELDS: dict[str, type | tuple[type, ...]] = {
    "format": str, "version": int, "game": int, "ruleset": str, "ruleset_id": str, "options": dict,
    "seed": (int, type(None)), "agents": list, "actions": list, "outcome": dict,
}


class RecordError(Exception):
    """A records file that cannot be read: damaged, truncated or of another format."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game: how to rebuild its ruleset, every action, and what came of it."""

    game: int
    ruleset: str  # built-in name or path, as the game was built from
    ruleset_id: str
    options: dict[str, Any]  # every option's effective value
    seed: int | None
    agents: tuple[str, ...]
    actions: tuple[str, ...]
    outcome: dict[str, Any]
    scoresheet: dict[str, Any] | None = None  # the scoresheet the game was set to mid-way, and where (see sheet_of)

    @classmethod
    def from_state(cls, state: GameState, *, ruleset: str, seed: int | None = None,
                   agents: Sequence[str] = (), game: int = 0) -> "GameRecord":
        """The record of a finished ``state`` built from ``ruleset`` (a name or path)."""
        if not state.is_terminal():
            raise ValueError("only a finished game can be recorded")
        rs = state.ruleset
        return cls(game, str(ruleset), rs.id, rs.option_values(), seed, tuple(agents),
                   tuple(state.action_to_string(a) for a in state.history()), outcome_of(state), sheet_of(state))

    def to_json(self) -> str:
        fields = asdict(self)
        if self.scoresheet is None:  # most games start from the ruleset's scoresheet: their lines say nothing of it
            del fields["scoresheet"]
        return json.dumps({"format": FORMAT, "version": VERSION, **fields}, ensure_ascii=False, separators=(",", ":"))


def sheet_of(state: GameState) -> dict[str, Any] | None:
    """The scoresheet ``state`` was set to (:meth:`GameState.set_scoresheet`) as a record says it:
    ``at``, the index of the action it was set before, and what it set; None when it never was."""
    sheet = state.sheet_set
    if sheet is None:
        return None
    names = [tally.name for tally in state.ruleset.tallies]
    return {"at": sheet.at, "values": list(sheet.values), "ties": sheet.ties, "passes": sheet.passes,
            "hand": sheet.game_hands + 1, "tallies": {name: list(row) for name, row in zip(names, sheet.counts)}}


def outcome_of(state: GameState) -> dict[str, Any]:
    """What a finished game came to, as plain JSON data (tuples become lists)."""
    result = state.result
    assert result is not None
    return outcome_json(result.winner, result.scores, result.games_won, result.abandoned, state.hands)


def outcome_json(winner: int | None, scores: Sequence[int], games_won: Sequence[int], abandoned: bool,
                 hands: Sequence[HandSummary]) -> dict[str, Any]:
    """A game's outcome as plain JSON data, from whichever engine played it."""
    return json.loads(json.dumps({
        "winner": winner,
        "scores": scores,
        "games_won": games_won,
        "abandoned": abandoned,
        "hands": [_hand_record(h) for h in hands],
    }))


def _hand_record(hand: Any) -> dict[str, Any]:
    """A hand summary as a mapping; `melds` and `declared` only in rulesets with declarations, `contract` only
    where the ruleset has contracts, `sides` only where they change with each hand, `won` only where the
    scoring reads the cards won, `bids` only where the seats bid tricks, `tallies` only where the ruleset
    keeps them, `passed` only in hands where cards were passed, `sitting_out` only in hands some seats sat out,
    `blind` only in hands some seats bid blind (older records stay as they were)."""
    record = hand._asdict()
    for key in ("melds", "declared", "sides", "won", "bids", "tallies", "passed", "sitting_out", "blind"):
        if not record[key]:
            del record[key]
    if record["contract"] is None:
        del record["contract"]
    return record


def write_records(path: str | Path, records: Iterable[GameRecord]) -> int:
    """Write ``records`` to ``path``, one line each; returns how many were written."""
    count = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for record in records:
            out.write(record.to_json() + "\n")
            count += 1
    return count


def read_records(path: str | Path) -> Iterator[GameRecord]:
    """Yield the records of ``path`` in order; raises RecordError naming the first bad line."""
    path = Path(path)
    try:
        handle = open(path, encoding="utf-8", newline="")
    except OSError as exc:
        raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from None
    with handle:
        number = 0
        try:
            while line := handle.readline(MAX_LINE_CHARS + 1):
                number += 1
                if len(line) > MAX_LINE_CHARS:
                    raise RecordError(f"{path}:{number}: damaged: a record longer than {MAX_LINE_CHARS} characters")
                if not line.strip():
                    continue
                if not line.endswith("\n"):
                    raise RecordError(f"{path}:{number}: the last record is cut off (no line end): the file is truncated")
                yield _parse(line, f"{path}:{number}")
        except UnicodeDecodeError as exc:
            raise RecordError(f"{path}:{number + 1}: damaged: not UTF-8 text ({exc.reason})") from None


def _check_depth(line: str, where: str) -> None:
    """Refuse deep nesting before ``json.loads``, which recurses once per level (RecursionError)."""
    depth = 0
    for token in _JSON_TOKENS.finditer(line):
        bracket = token.group()
        if bracket in ("[", "{"):
            depth += 1
            if depth > MAX_DEPTH:
                raise RecordError(f"{where}: damaged record: nested more than {MAX_DEPTH} levels deep "
                                  f"at column {token.start() + 1}")
        elif bracket in ("]", "}"):
            depth -= 1


def _parse(line: str, where: str) -> GameRecord:
    _check_depth(line, where)
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: damaged record: {exc.msg} at column {exc.colno}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{where}: not a {FORMAT} line")
    if data.get("version") != VERSION:
        raise RecordError(f"{where}: record format version {data.get('version')!r}; this program reads version {VERSION}")
    for key, kind in _FIELDS.items():
        if key not in data:
            raise RecordError(f"{where}: damaged record: `{key}` is missing")
        if not isinstance(data[key], kind) or isinstance(data[key], bool) and kind is int:
            raise RecordError(f"{where}: damaged record: `{key}` has the wrong type")
    if not all(isinstance(a, str) for a in data["actions"]) or not all(isinstance(a, str) for a in data["agents"]):
        raise RecordError(f"{where}: damaged record: actions and agents are lists of strings")
    sheet = data.get("scoresheet")
    if sheet is not None and not _is_sheet(sheet):
        raise RecordError(f"{where}: damaged record: `scoresheet` needs whole numbers `at`, `ties`, `passes` and "
                          f"`hand`, a list `values` and an object `tallies` of lists")
    return GameRecord(data["game"], data["ruleset"], data["ruleset_id"], data["options"], data["seed"],
                      tuple(data["agents"]), tuple(data["actions"]), data["outcome"], sheet)


def _is_sheet(sheet: Any) -> bool:
    """Whether ``sheet`` has the shape :func:`sheet_of` writes (the values themselves are the replay's to judge)."""
    def whole(value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool)

    def counts(value: Any) -> bool:
        return isinstance(value, list) and all(whole(v) for v in value)

    return (isinstance(sheet, dict) and all(whole(sheet.get(key)) for key in ("at", "ties", "passes", "hand"))
            and counts(sheet.get("values")) and isinstance(sheet.get("tallies"), dict)
            and all(counts(row) for row in sheet["tallies"].values()))


# ---------------------------------------------------------------------------- replay

@dataclass(frozen=True)
class Mismatch:
    """Where a record and its replay part: ``action`` is the index of the action, or None for the outcome."""

    game: int
    action: int | None
    message: str

    def __str__(self) -> str:
        where = f"game {self.game}" + (f", action {self.action}" if self.action is not None else ", outcome")
        return f"{where}: {self.message}"


def replay(record: GameRecord, ruleset: Ruleset) -> Mismatch | None:
    """Play ``record`` again on ``ruleset``: each action must be legal, the outcome the same."""
    if ruleset.id != record.ruleset_id:
        return Mismatch(record.game, None, f"the record is of ruleset {record.ruleset_id!r}, "
                                           f"{record.ruleset!r} now builds {ruleset.id!r}")
    state = GameState(ruleset, seed=record.seed)
    sheet = record.scoresheet
    if sheet is not None and not 0 <= sheet["at"] < len(record.actions):
        return Mismatch(record.game, None, f"the scoresheet is set before action {sheet['at']}, "
                                           f"and the record has {len(record.actions)}")
    for index, text in enumerate(record.actions):
        seat = state.current_player()
        who = "chance" if seat < 0 else f"seat {seat}"
        if state.is_terminal():
            return Mismatch(record.game, index, f"{text!r} recorded after the game was over")
        if sheet is not None and sheet["at"] == index:
            try:
                state.set_scoresheet(sheet["values"], ties=sheet["ties"], passes=sheet["passes"],
                                     tallies=sheet["tallies"], hand=sheet["hand"])
            except ValueError as exc:
                return Mismatch(record.game, index, f"the recorded scoresheet cannot be set: {exc}")
        try:
            action = state.string_to_action(seat if seat >= 0 else None, text)
            state.apply(action)
        except (IllegalAction, ValueError) as exc:
            legal = " ".join(state.action_to_string(a) for a in state.legal_actions()[:40])
            return Mismatch(record.game, index, f"{text!r} by {who} is not legal: {exc} (legal: {legal})")
    if not state.is_terminal():
        return Mismatch(record.game, len(record.actions), "the recorded actions end before the game does")
    difference = first_difference(record.outcome, outcome_of(state))
    return Mismatch(record.game, None, difference) if difference else None


def first_difference(recorded: Any, replayed: Any, where: str = "") -> str | None:
    """The first place two JSON values differ, e.g. ``hands[3].scores: recorded [4, 6], replayed [5, 6]``."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            if key not in recorded or key not in replayed:
                return f"{where}.{key}: only in the {'replay' if key not in recorded else 'record'}".lstrip(".")
            found = first_difference(recorded[key], replayed[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(replayed, list):
        for i, (a, b) in enumerate(zip(recorded, replayed)):
            found = first_difference(a, b, f"{where}[{i}]")
            if found:
                return found
        if len(recorded) != len(replayed):
            return f"{where.lstrip('.') or 'value'}: recorded {len(recorded)} entries, replayed {len(replayed)}"
        return None
    if recorded != replayed or type(recorded) is not type(replayed):
        return f"{where.lstrip('.') or 'value'}: recorded {json.dumps(recorded)}, replayed {json.dumps(replayed)}"
    return None


def replay_file(path: str | Path, build: Callable[[str, dict[str, Any]], Ruleset],
                progress: Callable[[GameRecord], None] | None = None) -> tuple[int, Mismatch | None]:
    """Replay every record of ``path``; (games checked, first mismatch or None).

    ``build(ruleset, options)`` turns a record's ruleset reference into a compiled ruleset;
    rulesets are built once per (reference, options). Raises RecordError on a bad or empty file.
    """
    folder = Path(path).parent
    built: dict[str, Ruleset] = {}
    checked = 0
    for record in read_records(path):
        key = json.dumps([record.ruleset, record.options], sort_keys=True)
        if key not in built:
            beside = folder / record.ruleset
            built[key] = build(str(beside) if is_file(beside) else record.ruleset, record.options)
        mismatch = replay(record, built[key])
        checked += 1
        if progress:
            progress(record)
        if mismatch:
            return checked, mismatch
    if not checked:
        raise RecordError(f"{path}: holds no game records")
    return checked, None
