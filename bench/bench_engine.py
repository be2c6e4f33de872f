#!/usr/bin/env python3
"""Speed report: hands/s against the hand-written reference simulator, worker scaling, PIMC cost.

Machines are shared and noisy, so the engine and the reference (``../shared/bench`` beside
the repository, skipped if absent) run alternately in the same call and the report quotes
the ratio of their hands/s, never an absolute time alone. Each figure is the best of its
rounds: other processes only ever slow a run down, so the fastest round is the least
disturbed one.
Measured:

* the engine: hands/s of whole games of standard Couillon between random players,
  ``GameState(ruleset).play_random(rng)`` from one generator, as the reference plays
  them (the issue's target: at least 0.5x the reference);
* the simulator: hands/s of ``couillon simulate couillon`` with random agents, one
  worker: the engine plus what a run adds (a generator seeded per game so results do not
  depend on the number of workers, and the tallies);
* the engine on Schieber (random players, step by step: contracts keep it off the rollout);
* the engine on French Tarot (random players, step by step: 78 cards, auction, chien, Excuse);
* the speed-up of two worker processes over one;
* PIMC's milliseconds per decision (default settings, all four seats PIMC);
* with ``--against REV``, the engine against an earlier commit, both in fresh processes.

The full report alternates 10 short runs of each (2,500 games) and takes about 40 s;
``--quick`` takes a few seconds (CI prints it as a report and ignores failure); ``--json``
prints one JSON object instead of text.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT.parent / "shared" / "bench" / "reference_couillon.py"
VENV_PYTHON = ROOT / ".venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

try:
    from couillon_dsl.agents import make_agent
    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.engine import GameState
    from couillon_dsl.simulation import Job, play_game, run
except ImportError:  # not installed in this interpreter: use the project's virtual environment
    if VENV_PYTHON.exists() and Path(sys.prefix).resolve() != VENV_PYTHON.parents[1].resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), __file__, *sys.argv[1:]])
    raise

SEED = 1


def ours(games: int, workers: int) -> float:
    """hands/s of the simulator with random agents on standard Couillon."""
    rs = build_ruleset("couillon")
    sim = run(rs, Job("couillon", (), SEED, ("random",) * 4), games, workers)
    return sim.tally.hands / sim.seconds


ENGINE_RATE = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
rs = build_ruleset(sys.argv[4] if len(sys.argv) > 4 else "couillon")
rng = random.Random(int(sys.argv[3]))
for _ in range(50):  # warm the tables a first game fills
    GameState(rs).play_random(rng)
hands = 0
began = time.perf_counter()
for _ in range(int(sys.argv[2])):
    state = GameState(rs)
    state.play_random(rng)
    hands += len(state.hands)
print(hands / (time.perf_counter() - began))
"""


def engine(games: int, tree: Path = ROOT, ruleset: str = "couillon") -> float:
    """hands/s of the engine alone (whole random games from one generator) in a fresh process on ``tree``."""
    out = subprocess.run([sys.executable, "-c", ENGINE_RATE, str(tree), str(games), str(SEED), ruleset],
                         capture_output=True, text=True, check=True).stdout
    return float(out)


def reference(games: int) -> float | None:
    """hands/s of the reference simulator, one process; None when it is not there."""
    if not REFERENCE.exists():
        return None
    out = subprocess.run([sys.executable, str(REFERENCE), str(games), "--seed", str(SEED)],
                         capture_output=True, text=True, check=True).stdout
    match = re.search(r"hands_per_s=(\d+)", out)
    return float(match.group(1)) if match else None


class Timed:
    """Wraps an agent and records the wall time of each decision."""

    def __init__(self, agent: object) -> None:
        self.agent = agent
        self.times: list[float] = []

    def act(self, state, legal, rng):  # type: ignore[no-untyped-def]
        began = time.perf_counter()
        action = self.agent.act(state, legal, rng)  # type: ignore[attr-defined]
        self.times.append(time.perf_counter() - began)
        return action


def pimc_cost(games: int) -> tuple[float, int]:
    """Mean milliseconds per PIMC decision (choices among two or more actions) and their number."""
    rs = build_ruleset("couillon")
    timed = Timed(make_agent("pimc"))
    for game in range(games):
        play_game(GameState(rs, seed=game), [timed] * 4, random.Random(game))
    return 1000 * statistics.fmean(timed.times), len(timed.times)


def earlier_tree(rev: str, into: Path) -> Path:
    """A checkout of commit ``rev`` of this repository in ``into`` (git archive: no worktree bookkeeping)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few seconds, for CI")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--against", metavar="REV", help="also compare the engine with this earlier commit")
    args = parser.parse_args(argv)
    # many short alternating rounds: the best of each is the least disturbed on a shared machine
    games, rounds, scale_games, pimc_games = (1500, 4, 4000, 1) if args.quick else (2500, 10, 20000, 6)

    with tempfile.TemporaryDirectory() as scratch:
        earlier = earlier_tree(args.against, Path(scratch)) if args.against else None
        engine_rates: list[float] = []
        earlier_rates: list[float] = []
        sim_rates: list[float] = []
        reference_rates: list[float] = []
        schieber_rates: list[float] = []
        tarot_rates: list[float] = []
        for _ in range(rounds):  # alternate, so drift in the machine's load hits all alike
            engine_rates.append(engine(games))
            if earlier is not None:
                earlier_rates.append(engine(games, earlier))
            sim_rates.append(ours(games, 1))
            schieber_rates.append(engine(games // 10, ruleset="schieber"))  # step by step: no rollout (contracts)
            tarot_rates.append(engine(games // 40, ruleset="tarot"))  # a game of 4 deals of 18 tricks
            rate = reference(games)
            if rate is not None:
                reference_rates.append(rate)
    engine_rate, sim_rate, schieber_rate, tarot_rate = (max(engine_rates), max(sim_rates), max(schieber_rates),
                                                        max(tarot_rates))
    reference_rate = max(reference_rates) if reference_rates else None
    earlier_rate = max(earlier_rates) if earlier_rates else None

    one, two = [], []
    for _ in range(3):
        one.append(ours(scale_games, 1))
        two.append(ours(scale_games, 2))
    speedup = max(two) / max(one)

    pimc_ms, decisions = pimc_cost(pimc_games)

    def ratio(rate: float, base: float | None) -> float | None:
        return round(rate / base, 3) if base else None

    result = {
        "games": games,
        "rounds": rounds,
        "engine_hands_per_s": round(engine_rate),
        "engine_ratio_to_reference": ratio(engine_rate, reference_rate),
        "hands_per_s": round(sim_rate),  # the simulator (couillon simulate), one worker
        "ratio_to_reference": ratio(sim_rate, reference_rate),
        "reference_hands_per_s": round(reference_rate) if reference_rate else None,
        "schieber_engine_hands_per_s": round(schieber_rate),
        "tarot_engine_hands_per_s": round(tarot_rate),
        "against": args.against,
        "against_engine_hands_per_s": round(earlier_rate) if earlier_rate else None,
        "engine_ratio_to_against": ratio(engine_rate, earlier_rate),
        "workers_2_speedup": round(speedup, 2),
        "cpus": os.cpu_count(),
        "pimc_ms_per_decision": round(pimc_ms, 2),
        "pimc_decisions_per_s": round(1000 / pimc_ms, 1),
        "pimc_decisions": decisions,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    runs = f"best of {rounds} runs of {games} games"
    rows = [("engine, random players, standard Couillon", f"{engine_rate:,.0f} hands/s ({runs})"),
            ("couillon simulate, random agents, 1 worker", f"{sim_rate:,.0f} hands/s (seeded per game, tallied)"),
            ("engine, random players, Schieber", f"{schieber_rate:,.0f} hands/s (best of {rounds} runs of {games // 10} "
                                                 "games, step by step)"),
            ("engine, random players, French Tarot", f"{tarot_rate:,.0f} hands/s (best of {rounds} runs of "
                                                     f"{games // 40} games, step by step)")]
    if reference_rate:
        rows.append(("reference_couillon.py, same call", f"{reference_rate:,.0f} hands/s"))
        rows.append(("engine / reference", f"{engine_rate / reference_rate:.3f} (target: at least 0.5)"))
        rows.append(("simulate / reference", f"{sim_rate / reference_rate:.3f}"))
    else:
        rows.append(("reference simulator", f"not found at {REFERENCE}: ratios skipped"))
    if earlier_rate:
        rows.append((f"engine at {args.against}", f"{earlier_rate:,.0f} hands/s"))
        rows.append((f"engine / engine at {args.against}", f"{engine_rate / earlier_rate:.3f}"))
    rows.append(("2 workers vs 1", f"{speedup:.2f}x ({scale_games} games, {os.cpu_count()} CPUs)"))
    rows.append(("PIMC, default settings", f"{pimc_ms:.1f} ms/decision, {1000 / pimc_ms:.0f} decisions/s "
                                           f"({decisions} decisions)"))
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"{label + ':':{width + 1}} {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
