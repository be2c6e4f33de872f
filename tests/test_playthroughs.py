"""Golden playthroughs: one seeded game of random agents per shipped ruleset, compared
action by action with tests/golden/playthroughs/<ruleset>.jsonl.

A difference means play changed. If the change is intended, regenerate the files with
``python3 -m pytest tests/test_playthroughs.py --regen`` and commit them with it.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.builtin import builtin_names
from couillon_dsl.agents import make_agent, seat_specs
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine.state import GameState
from couillon_dsl.records import GameRecord, first_difference, read_records, write_records
from couillon_dsl.simulation import play_game

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "playthroughs"
RULESETS = builtin_names()
SEED = 20240


def play(name: str) -> GameRecord:
    """The golden game of ruleset ``name``: random agents, fixed seed."""
    ruleset = build_ruleset(name)
    specs = seat_specs("random", ruleset)
    state = GameState(ruleset, seed=SEED)
    play_game(state, [make_agent(spec) for spec in specs], random.Random(SEED))
    return GameRecord.from_state(state, ruleset=name, seed=SEED, agents=specs)


@pytest.mark.parametrize("name", RULESETS)
def test_playthrough_matches_golden(name: str, request: pytest.FixtureRequest) -> None:
    path = GOLDEN / f"{name}.jsonl"
    record = play(name)
    if request.config.getoption("--regen"):
        write_records(path, [record])
        return
    assert path.is_file(), f"no golden playthrough for {name}; run pytest {Path(__file__).name} --regen"
    [golden] = list(read_records(path))
    assert (record.ruleset_id, record.options, record.seed, record.agents) == \
        (golden.ruleset_id, golden.options, golden.seed, golden.agents), "the golden game's set-up changed"
    for index, (now, then) in enumerate(zip(record.actions, golden.actions)):
        assert now == then, (f"{name}: action {index} is now {now!r}, the golden game has {then!r}; "
                             f"the actions before it: {' '.join(golden.actions[max(0, index - 12):index])}")
    assert len(record.actions) == len(golden.actions), f"{name}: the game is now {len(record.actions)} actions long"
    assert first_difference(golden.outcome, record.outcome) is None


def test_every_ruleset_has_a_golden_playthrough() -> None:
    missing = [name for name in RULESETS if not (GOLDEN / f"{name}.jsonl").is_file()]
    assert not missing, f"rulesets without a golden playthrough: {missing}; run pytest {Path(__file__).name} --regen"


def test_golden_playthroughs_replay_cleanly() -> None:
    for path in sorted(GOLDEN.glob("*.jsonl")):
        result = CliRunner().invoke(main, ["replay", str(path)])
        assert result.exit_code == 0, result.output
