"""The compiled engine is checked against the Python engine, not trusted.

Every game the kernel plays can be recorded; each record must replay action by action
through GameState with the same outcome (every hand summary included), the greedy agent's
every decision must be the one the Python GreedyAgent takes in the same position, figures
of both engines must agree within their intervals, and results must not depend on the
number of workers. Skipped when Numba (the `fast` extra) is not installed.
"""
from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("numba")

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.builtin import builtin_names
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.kernel.driver import play_range as play_compiled
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.kernel.play import popcount
from couillon_dsl.model import Ruleset
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.simulation import Job, figures, run
from example_games import EXAMPLES
from test_rollout import CHANGES, option_variants, patched

SHIPPED = [name for name in builtin_names() + EXAMPLES if ruleset_reason(build_ruleset(name)) is None]
EXTRA_CHANGES = {
    "exempt jack of trumps, undertrump ban": ("couillon-ardennes", {"play": {"follow": {
        "exempt": ["JT"], "undertrump": "only_when_forced", "head_when_trumped": True}}}),
    "dealer first random": ("couillon", {"dealer": {"first": "random"}}),
}
VARIANTS = option_variants() + [(label, patched(base, change))
                                for label, (base, change) in {**CHANGES, **EXTRA_CHANGES}.items()]


def kernel_records(rs: Ruleset, agents: str, games: int, seed: int = 1) -> list[GameRecord]:
    job = Job(rs.id, (), seed, (agents,) * rs.players.count, record=True, engine="compiled")
    return play_compiled(job, rs, 0, games).records  # type: ignore[no-any-return]


def assert_replays(rs: Ruleset, records: list[GameRecord], greedy: bool = False) -> None:
    """Each record replays through GameState; with ``greedy``, each choice is the Python agent's too."""
    agent, rng = GreedyAgent(), random.Random(0)
    for record in records:
        assert replay(record, rs) is None, replay(record, rs)
        if not greedy:
            continue
        state = GameState(rs, seed=record.seed)
        for text in record.actions:
            seat = state.current_player()
            action = state.string_to_action(seat if seat >= 0 else None, text)
            legal = state.legal_actions() if seat >= 0 else []
            if len(legal) > 1:
                assert agent.act(state, legal, rng) == action, (record.game, text)
            state.apply(action)


def test_every_shipped_ruleset_runs_on_the_kernel() -> None:
    assert {"couillon", "kujong", "mit", "troeven"} <= set(SHIPPED)
    assert any(name.endswith("whist.yaml") for name in SHIPPED)  # a trump turned from a face-up packet, 52 cards


@pytest.mark.parametrize("name", SHIPPED)
def test_kernel_games_replay_through_the_python_engine(name: str) -> None:
    rs = build_ruleset(name)
    assert_replays(rs, kernel_records(rs, "random", 200))
    assert_replays(rs, kernel_records(rs, "greedy", 40, seed=2), greedy=True)


@pytest.mark.parametrize("label, rs", VARIANTS, ids=[label for label, _ in VARIANTS])
def test_rule_variants_replay_through_the_python_engine(label: str, rs: Ruleset) -> None:
    assert_replays(rs, kernel_records(rs, "random", 15))
    assert_replays(rs, kernel_records(rs, "greedy", 6, seed=3), greedy=True)


def test_the_variants_reach_their_branches() -> None:
    """The hand-made changes show, on the kernel too, the paths they were written for."""
    seen = {label: [json.loads(r.to_json())["outcome"] for r in kernel_records(rs, "random", 40)]
            for label, rs in VARIANTS if label in CHANGES or label in EXTRA_CHANGES}

    def paths(label: str) -> set[str]:
        return {h["trump_path"] for o in seen[label] for h in o["hands"]}

    assert "next_card" in paths("re-offer, dealer first")
    assert "redeal" in paths("redeal, single pass carry")
    assert any(o["abandoned"] for o in seen["abandoned after 4 hands"])
    assert any(o["abandoned"] and sum(o["games_won"]) == 3 for o in seen["session abandoned after 3 games"])
    assert any(max(o["games_won"]) == 3 for o in seen["session of three games"])
    assert {"named", "shown"} <= paths("elder names or shows, maker leads")
    assert paths("the turned-up card is trump") == {"turned"}
    assert len({o["hands"][0]["dealer"] for o in seen["dealer first random"]}) > 1


COMPARED = ("tie", "maker_success", "hands_per_game.mean", "team_win.0", "elder_team_hand_win", "all_tricks")


@pytest.mark.parametrize("name", SHIPPED)
def test_both_engines_agree_within_their_intervals(name: str) -> None:
    rs = build_ruleset(name)
    sims = {engine: run(rs, Job(name, (), 5, ("random",) * rs.players.count, engine=engine), games, 1)
            for engine, games in (("python", 800), ("compiled", 4000))}
    found = [{f.key: f.estimate for f in figures(sim)} for sim in sims.values()]
    for key in COMPARED + tuple(k for k in found[0] if k.startswith(("trump_path.", "announcement."))):
        a, b = found[0][key], found[1][key]
        if a.value is None or b.value is None or a.low is None or b.low is None:
            continue
        spread = ((a.high - a.low) ** 2 + (b.high - b.low) ** 2) ** 0.5 / 2  # ~1.96 standard errors
        assert abs(a.value - b.value) <= 1.8 * spread + 1e-9, (key, a, b)


def test_same_seed_same_figures_for_any_number_of_workers() -> None:
    rs = build_ruleset("kujong")
    job = Job("kujong", (), 9, ("greedy", "random") * 2, engine="compiled")
    one, two = run(rs, job, 700, 1), run(rs, job, 700, 2)
    assert one.engine == two.engine == "compiled"
    for name in ("games", "hands", "played", "decided", "ties", "maker_wins", "team_wins", "paths", "decisions",
                 "announcements", "hands_per_game"):
        assert getattr(one.tally, name) == getattr(two.tally, name), name


def test_simulate_records_kernel_games_that_replay(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    runner = CliRunner()
    result = runner.invoke(main, ["simulate", "mit", "--games", "30", "--engine", "compiled", "--workers", "1",
                                  "--record", str(records), "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["engine"] == "compiled" and data["compile_seconds"] >= 0 and data["seconds"] > 0
    assert len(records.read_text(encoding="utf-8").splitlines()) == 30
    replayed = runner.invoke(main, ["replay", str(records)])
    assert replayed.exit_code == 0, replayed.output


def test_auto_takes_the_kernel_and_says_why_not(tmp_path: Path) -> None:
    runner = CliRunner()
    auto = runner.invoke(main, ["simulate", "couillon", "--games", "20", "--workers", "1", "--format", "json"])
    assert json.loads(auto.output)["engine"] == "compiled"
    pimc = runner.invoke(main, ["simulate", "couillon", "--games", "1", "--workers", "1", "--format", "json",
                                "--agents", "pimc:samples=2"])
    assert pimc.exit_code == 0, pimc.output
    assert "note: couillon plays on the Python engine" in pimc.stderr and "agent 'pimc'" in pimc.stderr
    refused = runner.invoke(main, ["simulate", "couillon", "--games", "1", "--engine", "compiled", "--agents", "pimc"])
    assert refused.exit_code == 2 and "pimc" in refused.output


def test_compare_plays_both_rulesets_on_the_kernel() -> None:
    result = CliRunner().invoke(main, ["compare", "couillon", "couillon-ardennes", "--games", "200", "--workers", "1",
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["a"]["engine"] == data["b"]["engine"] == "compiled"


def test_a_changed_scoring_rule_reaches_the_kernel_table() -> None:
    """A rule the kernel tabulates: the winner of a hand taking every trick scores three more."""
    rs = patched("couillon", {"scoring": {"all_tricks": {"when": "decided and all_tricks", "team": "winner",
                                                         "delta": -3}}})
    assert dataclasses.is_dataclass(rs) and ruleset_reason(rs) is None
    records = kernel_records(rs, "random", 60)
    assert_replays(rs, records)
    assert any(h["all_tricks"] and min(h["deltas"]) <= -4 for r in records for h in r.outcome["hands"])


def test_the_kernels_card_count_holds_inside_comparisons() -> None:
    """A count compared with a small number, as the kernel's greedy does (at most one unseen card
    beats this one; a hand's size capped as a table index). Counting with a multiply that
    overflows let LLVM fold ``popcount(m) <= 1`` to false for masks of one card."""
    from numba import njit

    at_most = njit(lambda m, k: popcount(m) <= k)
    at_most_one = njit(lambda m: popcount(m) <= 1)
    capped = njit(lambda m: min(popcount(m), 4))
    rng = random.Random(5)
    masks = [0, (1 << 63) - 1] + [1 << bit for bit in range(63)]
    masks += [sum(1 << rng.randrange(63) for _ in range(rng.randrange(2, 9))) for _ in range(500)]
    for mask in masks:
        count = mask.bit_count()
        assert popcount(mask) == count
        assert at_most_one(mask) == (count <= 1), hex(mask)
        assert capped(mask) == min(count, 4), hex(mask)
        assert all(at_most(mask, k) == (count <= k) for k in range(6)), hex(mask)


def test_greedy_avoiding_tricks_stays_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's greedy plays to win tricks: where the scoring makes them cost their taker, a run
    with greedy goes to the Python engine, and one with random agents only need not."""
    from couillon_dsl.agents import greedy
    from couillon_dsl.kernel.eligible import reason

    rs = build_ruleset("couillon")
    monkeypatch.setattr(greedy, "avoids_tricks", lambda ruleset: ruleset is rs)
    assert "tricks cost their taker" in (reason(rs, ("greedy", "random") * 2) or "")
    assert reason(rs, ("random",) * 4) is None
