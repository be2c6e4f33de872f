"""Game records: round trip, replay of good records, and clear refusals of bad files."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.agents import make_agent
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine.state import GameState
from couillon_dsl.records import GameRecord, RecordError, read_records, replay, write_records
from couillon_dsl.simulation import play_game


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    ruleset = build_ruleset("couillon")
    out = []
    for game in range(3):
        state = GameState(ruleset, seed=game)
        play_game(state, [make_agent("random")] * 4, random.Random(game))
        out.append(GameRecord.from_state(state, ruleset="couillon", seed=game, agents=["random"] * 4, game=game))
    return out


def replay_cli(path: Path):
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_round_trip(records: list[GameRecord], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert write_records(path, records) == 3
    assert list(read_records(path)) == records
    assert len(path.read_text().splitlines()) == 3


def test_a_record_holds_set_up_actions_and_outcome(records: list[GameRecord]) -> None:
    record = records[0]
    assert record.ruleset_id == "couillon" and record.options["lines"] == 5
    assert record.actions[:24] and all(len(a) <= 3 for a in record.actions[:24])  # the first deal's draws
    assert {"accept", "pass"} & set(record.actions)
    assert record.outcome["winner"] in (0, 1) and 0 in record.outcome["scores"]
    assert record.outcome["hands"] and record.outcome["hands"][-1]["scores"] == record.outcome["scores"]


def test_replay_of_good_records(records: list[GameRecord], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, records)
    assert all(replay(r, build_ruleset("couillon")) is None for r in records)
    result = replay_cli(path)
    assert result.exit_code == 0, result.output
    assert "3 games replayed" in result.output


def test_an_illegal_action_is_the_first_mismatch(records: list[GameRecord], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, records)
    rows = lines_of(path)
    actions = rows[1]["actions"]
    first_play = next(i for i, a in enumerate(actions) if a in ("accept", "pass")) + 1
    while actions[first_play] in ("accept", "pass"):
        first_play += 1
    actions[first_play] = actions[first_play + 1]  # a card the next seat holds, not this one
    write_lines(path, rows)
    result = replay_cli(path)
    assert result.exit_code == 1
    assert f"game 1, action {first_play}: " in result.output and "is not legal" in result.output


def test_a_changed_outcome_is_reported(records: list[GameRecord], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, records)
    rows = lines_of(path)
    rows[2]["outcome"]["hands"][0]["points"][0] += 1
    write_lines(path, rows)
    result = replay_cli(path)
    assert result.exit_code == 1
    assert "game 2, outcome: hands[0].points[0]: recorded" in result.output


def test_a_truncated_file_is_refused_without_traceback(records: list[GameRecord], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, records)
    text = path.read_text()
    path.write_text(text[: len(text) - 200])
    result = replay_cli(path)
    assert result.exit_code == 1
    assert ":3: the last record is cut off" in result.output and "Traceback" not in result.output


def test_a_damaged_line_is_named(records: list[GameRecord], tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    write_records(path, records)
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = lines[1][:50] + "#" + lines[1][51:]
    path.write_text("".join(lines))
    with pytest.raises(RecordError, match=r"games.jsonl:2: damaged record"):
        list(read_records(path))
    assert replay_cli(path).exit_code == 1


@pytest.mark.parametrize("change, message", [
    (lambda row: row.update(version=99), "version 99"),
    (lambda row: row.pop("actions"), "`actions` is missing"),
    (lambda row: row.update(format="other"), "not a couillon-record line"),
])
def test_foreign_records_are_refused(records: list[GameRecord], tmp_path: Path, change, message: str) -> None:
    path = tmp_path / "games.jsonl"
    row = json.loads(records[0].to_json())
    change(row)
    write_lines(path, [row])
    with pytest.raises(RecordError, match=message):
        list(read_records(path))


def test_replay_usage_error_for_a_missing_file(tmp_path: Path) -> None:
    assert replay_cli(tmp_path / "nope.jsonl").exit_code == 2


def test_an_empty_file_is_not_a_clean_replay(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text("")
    result = replay_cli(path)
    assert result.exit_code == 1 and "holds no game records" in result.output


def test_a_game_with_bids_records_and_replays_exactly(tmp_path: Path) -> None:
    """Oh Hell: each hand's record holds the bids per seat (a ruleset without bids has no such
    key), the game replays identically, and a bid changed in the outcome or in the actions is the
    first mismatch."""
    name = str(Path(__file__).resolve().parents[1] / "examples" / "oh-hell.yaml")
    ruleset = build_ruleset(name)
    state = GameState(ruleset, seed=11)
    play_game(state, [make_agent("random")] * 4, random.Random(11))
    record = GameRecord.from_state(state, ruleset=name, seed=11, agents=["random"] * 4)
    assert sum(a.startswith("bid ") for a in record.actions) == 80  # four bids in each of twenty deals
    for number, (hand, summary) in enumerate(zip(record.outcome["hands"], state.hands)):
        tricks = ruleset.tables.tricks_of(number)  # 1, 2, ... 10, 10, ... 1
        assert hand["bids"] == list(summary.bids) and len(hand["bids"]) == 4 and sum(hand["bids"]) != tricks
    path = tmp_path / "games.jsonl"
    write_records(path, [record])
    assert list(read_records(path)) == [record]
    assert replay(record, ruleset) is None
    assert replay_cli(path).exit_code == 0
    rows = lines_of(path)
    rows[0]["outcome"]["hands"][0]["bids"][1] += 1
    write_lines(path, rows)
    result = replay_cli(path)
    assert result.exit_code == 1 and "outcome: hands[0].bids[1]: recorded" in result.output
    rows[0]["outcome"]["hands"][0]["bids"][1] -= 1
    first = next(i for i, a in enumerate(rows[0]["actions"]) if a.startswith("bid "))
    rows[0]["actions"][first] = "bid 11"  # at most ten cards each: no such bid
    write_lines(path, rows)
    result = replay_cli(path)
    assert result.exit_code == 1 and f"action {first}: 'bid 11' by seat 1 is not legal" in result.output


def test_a_record_without_bids_has_no_bids_key(records: list[GameRecord]) -> None:
    assert all("bids" not in hand for hand in records[0].outcome["hands"])


def test_a_game_set_to_a_scoresheet_records_it_and_replays_exactly(tmp_path: Path) -> None:
    """A game set to a scoresheet mid-way (a scenario's `before:`, the API) records where and to what, and
    replays identically; without that field the same actions end elsewhere, which replay reports."""
    ruleset = build_ruleset("couillon")
    state = GameState(ruleset, seed=4)
    rng = random.Random(4)
    agents = [make_agent("random")] * 4
    while len(state.hands) < 2:  # two hands from the start, then the sheet is set at the next deal
        state.apply(rng.choice(state.legal_actions()) if state.is_chance_node()
                    else agents[state.current_player()].act(state, state.legal_actions(), rng))
    at = len(state.history())
    state.set_scoresheet([1, 4], ties=1, hand=3)
    play_game(state, agents, rng)
    record = GameRecord.from_state(state, ruleset="couillon", seed=4, agents=["random"] * 4)
    assert record.scoresheet == {"at": at, "values": [1, 4], "ties": 1, "passes": 0, "hand": 3, "tallies": {}}
    path = tmp_path / "games.jsonl"
    write_records(path, [record])
    assert list(read_records(path)) == [record]
    assert replay(record, ruleset) is None and replay_cli(path).exit_code == 0
    unset = GameRecord(**{**record.__dict__, "scoresheet": None})
    mismatch = replay(unset, ruleset)  # from five lines each, the game does not end where the record does
    assert mismatch is not None and mismatch.action == len(record.actions)
    assert mismatch.message == "the recorded actions end before the game does"
    rows = lines_of(path)
    rows[0]["scoresheet"]["values"] = [1, 4, 5]
    write_lines(path, rows)
    result = replay_cli(path)
    assert result.exit_code == 1 and f"action {at}: the recorded scoresheet cannot be set: this ruleset has 2 teams" \
        in result.output
    rows[0]["scoresheet"]["at"] = "x"
    write_lines(path, rows)
    result = replay_cli(path)
    assert result.exit_code == 1 and "damaged record: `scoresheet` needs whole numbers" in result.output


def test_a_record_of_a_game_never_set_has_no_scoresheet_key(records: list[GameRecord]) -> None:
    assert records[0].scoresheet is None and "scoresheet" not in json.loads(records[0].to_json())
