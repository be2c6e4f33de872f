#!/usr/bin/env python3
"""Speed report of the compiled engine: hands/s of every ruleset on the kernel, against the reference and Python.

Machines are shared and noisy, so the kernel, the hand-written reference simulator
(``../shared/bench/reference_couillon.py``, random players, standard Couillon) and the
Python engine run alternately in the same call, and each figure is the best of its rounds
(other processes only ever slow a run down). Everything is measured as ``couillon
simulate`` plays it: one worker, a seed per game, the tallies; the kernel's one-off compile
(or cache load) is apart, as in the JSON's ``compile_seconds``. Two workers are timed from
the pool's start to the last game counted (their exit is not playing time); a forked worker
inherits the compiled kernel, so none compiles or loads it inside the timed span.

Measured, for standard Couillon and every other built-in ruleset, with random and with
greedy agents: hands/s on the kernel, its ratio to the reference (the issue's targets for
standard Couillon: random at least 5x, greedy at least 3x) and to the Python engine; the
speed-up of two worker processes over one; and the rulesets the kernel does not take yet,
with the concept it lacks.

``--quick`` (CI prints it as a report) measures standard Couillon only, in a few seconds;
``--json`` prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# beside the repository (a clone next to shared/), or two levels up (a worktree under wt/)
REFERENCE = next((p for p in (ROOT.parent / "shared" / "bench" / "reference_couillon.py",
                              ROOT.parents[1] / "shared" / "bench" / "reference_couillon.py") if p.exists()),
                 ROOT.parent / "shared" / "bench" / "reference_couillon.py")
VENV_PYTHON = ROOT / ".venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

try:
    from couillon_dsl import kernel
    from couillon_dsl.builtin import builtin_names
    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.kernel.eligible import reason
    from couillon_dsl.model import Ruleset
    from couillon_dsl.simulation import Job, run
except ImportError:  # not installed in this interpreter: use the project's virtual environment
    if VENV_PYTHON.exists() and Path(sys.prefix).resolve() != VENV_PYTHON.parents[1].resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), __file__, *sys.argv[1:]])
    raise

SEED = 1


def rate(rs: Ruleset, name: str, agents: str, engine: str, games: int, workers: int = 1) -> float:
    """hands/s of ``couillon simulate`` (playing time only)."""
    sim = run(rs, Job(name, (), SEED, (agents,) * rs.players.count, engine=engine), games, workers)
    return sim.tally.hands / sim.seconds


def reference(games: int) -> float | None:
    """hands/s of the reference simulator, one process; None when it is not there."""
    if not REFERENCE.exists():
        return None
    out = subprocess.run([sys.executable, str(REFERENCE), str(games), "--seed", str(SEED)],
                         capture_output=True, text=True, check=True).stdout
    match = re.search(r"hands_per_s=(\d+)", out)
    return float(match.group(1)) if match else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="standard Couillon only, a few seconds (CI)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if not kernel.available():
        print("the compiled engine is not installed (pip install 'couillon-dsl[fast]'): nothing to measure")
        return 0
    rounds = 2 if args.quick else 3
    # games per round: the kernel's runs must last long enough to time; the Python engine's short enough to wait for
    kernel_games = {"random": 20000, "greedy": 10000}
    python_games = {"random": 1500, "greedy": 150}
    names = ["couillon"] if args.quick else builtin_names()
    declined = {}
    rows = []
    reference_rates: list[float] = []
    for name in names:
        rs = build_ruleset(name)
        why = reason(rs, ["random"])
        if why:
            declined[name] = why
            continue
        for agents in ("random", "greedy"):
            compiled, python = [], []
            for _ in range(rounds):  # alternate, so drift in the machine's load hits all alike
                compiled.append(rate(rs, name, agents, "compiled", kernel_games[agents]))
                python.append(rate(rs, name, agents, "python", python_games[agents]))
                if name == "couillon" and agents == "random":
                    found = reference(10000)
                    if found:
                        reference_rates.append(found)
            rows.append({"ruleset": name, "agents": agents, "compiled_hands_per_s": round(max(compiled)),
                         "python_hands_per_s": round(max(python))})
    reference_rate = max(reference_rates) if reference_rates else None
    for row in rows:
        row["ratio_to_python"] = round(row["compiled_hands_per_s"] / row["python_hands_per_s"], 1)
        row["ratio_to_reference"] = round(row["compiled_hands_per_s"] / reference_rate, 2) if reference_rate else None
    rs = build_ruleset("couillon")
    scaling_games = 100000 if args.quick else 1000000  # ~8 s a round on one worker: the pool's start is small beside it
    ones, twos = [], []
    scaling_load = os.getloadavg()[0]
    for _ in range(rounds):  # alternate, as above: one worker, then two, round after round
        ones.append(rate(rs, "couillon", "random", "compiled", scaling_games, 1))
        twos.append(rate(rs, "couillon", "random", "compiled", scaling_games, 2))
    one, two = max(ones), max(twos)
    result = {
        "rounds": rounds,
        "reference_hands_per_s": round(reference_rate) if reference_rate else None,
        "rows": rows,
        "workers_2_speedup": round(two / one, 2),
        "workers_games": scaling_games,
        "workers_1_hands_per_s": round(one),
        "workers_2_hands_per_s": round(two),
        "scaling_load_average": round(scaling_load, 2),
        "cpus": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "declined": declined,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"compiled engine, best of {rounds} alternating rounds; load average {result['load_average']} "
          f"on {os.cpu_count()} CPUs")
    if reference_rate:
        print(f"reference_couillon.py (random players, standard Couillon): {reference_rate:,.0f} hands/s")
    print(f"{'ruleset':18} {'agents':7} {'compiled':>12} {'python':>10} {'x python':>9} {'x reference':>12}")
    for row in rows:
        ref = f"{row['ratio_to_reference']:.2f}" if row["ratio_to_reference"] else "-"
        print(f"{row['ruleset']:18} {row['agents']:7} {row['compiled_hands_per_s']:>12,} {row['python_hands_per_s']:>10,} "
              f"{row['ratio_to_python']:>9} {ref:>12}")
    print("targets (standard Couillon): random at least 5x the reference, greedy at least 3x")
    print(f"2 workers vs 1 (random, standard Couillon, {scaling_games:,} games, best of {rounds} alternating rounds): "
          f"{two / one:.2f}x ({two:,.0f} vs {one:,.0f} hands/s; load average {scaling_load:.2f} on "
          f"{os.cpu_count()} CPUs: two workers need two idle CPUs)")
    for name, why in declined.items():
        print(f"not on the kernel yet: {name}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
