"""The benchmark scripts that CI does not run as reports still run: one tiny cell each.

``bench_engine`` and ``bench_kernel`` run in ``.ci/run`` as ``--quick`` reports; the strength
table and the OpenSpiel yardstick take minutes, so a change to the agents' internals could break
them unnoticed (``bench_openspiel`` once called ``budget_scale`` with a removed signature).
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"


def run_script(name: str, *args: str) -> list[dict]:
    """Run ``bench/name`` and return the JSON objects it printed, one per line."""
    done = subprocess.run([sys.executable, str(BENCH / name), *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_strength_table_plays_a_cell_and_prints_its_table(tmp_path: Path) -> None:
    cells = tmp_path / "cells.jsonl"
    rows = run_script("bench_agents.py", "--rulesets", "couillon", "--matchup", "greedy,random",
                      "--pairs", "2", "--out", str(cells))
    assert [(r["ruleset"], r["a"], r["b"], r["games"]) for r in rows] == [("couillon", "greedy", "random", 4)]
    assert 0 <= rows[0]["win"]["value"] <= 1 and rows[0]["decisions"] > 0
    table = subprocess.run([sys.executable, str(BENCH / "bench_agents.py"), "--table", str(cells)],
                           capture_output=True, text=True, timeout=300, check=True).stdout
    assert "| couillon | greedy | random |" in table


def test_the_table_pools_a_matchups_two_team_rulesets(tmp_path: Path) -> None:
    """Two cells of 32 pairs, 60% [50, 70] and 40% [30, 50]: pooled, 50% with the two cells'
    standard errors (0.1 / t(0.975, 31) = 0.049 each) combined, 0.035, so 50% [43, 57]. A cell
    of more teams (fair share 25%) and a matchup on one ruleset only are not pooled."""
    def cell(ruleset: str, a: str, value: float, fair: float = 0.5) -> dict:
        win = {"value": value, "low": value - 0.1, "high": value + 0.1, "n": 32, "method": "t"}
        return {"ruleset": ruleset, "a": a, "b": "greedy", "pairs": 32, "games": 64, "fair_share": fair, "win": win,
                "gain_per_hand": win, "ms_mean": 30.0, "ms_p99": 60.0}
    cells = tmp_path / "cells.jsonl"
    rows = [cell("couillon", "pimc", 0.6), cell("mit", "pimc", 0.4), cell("tarot", "pimc", 0.9, 0.25),
            cell("couillon", "random", 0.1)]
    cells.write_text("".join(json.dumps(row) + "\n" for row in rows))
    table = subprocess.run([sys.executable, str(BENCH / "bench_agents.py"), "--table", str(cells), "--pooled"],
                           capture_output=True, text=True, timeout=300, check=True).stdout
    assert "| 2 rulesets pooled | pimc | greedy | 50% [43, 57] | n/a | 64 (128) | n/a |" in table
    assert table.count("pooled") == 1


def test_openspiel_yardstick_plays_a_pair() -> None:
    pytest.importorskip("pyspiel")
    *pairs, summary = run_script("bench_openspiel.py", "--pairs", "1", "--iterations", "2")
    assert len(pairs) == 1 and 0 <= pairs[0]["win"] <= 1
    assert summary["hands"] == 2 and summary["ruleset"] == "couillon"


def test_worlds_check_values_each_alternative_in_the_worlds_and_the_true_deal() -> None:
    [row] = run_script("bench_worlds.py", "--rulesets", "couillon", "--games", "2", "--worlds", "5")
    assert row["ruleset"] == "couillon" and row["unfinished"] == 0
    assert row["alternatives"] > 0 and row["bias"]["n"] == row["alternatives"]
    assert row["favoured_true_gain"]["n"] == row["favoured"] <= row["alternatives"]
    assert abs(row["bias"]["value"] - (row["sampled_gain"] - row["true_gain"])) < 1e-9


def test_an_oracle_searches_the_true_deal_and_only_a_search_can_be_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """``oracle=SPEC`` (a ceiling for the strength table): every world it is given is the real
    game, every seat's cards as dealt; greedy, which searches no worlds, is refused."""
    monkeypatch.syspath_prepend(str(BENCH))
    import bench_agents

    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.engine import GameState

    state = GameState(build_ruleset("couillon"), seed=5)
    state.deal_shuffled()
    seat = state.current_player()
    oracle = bench_agents.agent_of("oracle=pimc:samples=3")
    worlds = list(oracle._sampler.draw(state, seat, 3, random.Random(1)))
    assert len(worlds) == 3
    assert all(w.hand_of(s) == state.hand_of(s) and w is not state for w in worlds for s in range(4))
    split = bench_agents.agent_of("trumps=oracle=pimc:samples=3")  # the ceiling of the decisions alone
    assert isinstance(split.decider._sampler, bench_agents.TrueDeal) and split.player.name == "greedy"
    done = subprocess.run([sys.executable, str(BENCH / "bench_agents.py"), "--matchup", "oracle=greedy,random"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "only a search (pimc, ismcts) can be shown the true deal" in done.stderr
