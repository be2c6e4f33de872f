#!/usr/bin/env python3
"""Start-up report: wall time of `couillon validate couillon` (and the other reading commands)
against the interpreter's own start, ``python -c pass``.

Each figure is a fresh process, and the commands run alternately, round after round, so a
change in the machine's load hits all of them alike; the report quotes the minimum (the
least disturbed run) and the median of each, and the load average before and after. The
issue's target: `couillon validate couillon` at most 150 ms on a quiet machine.

Every tree is run the way an installed copy runs: with its modules' bytecode cached
(``__pycache__``, as pip writes it). The children therefore run without
``PYTHONDONTWRITEBYTECODE``, and a first, unmeasured run of each command fills the caches
(the bytecode, and the parsed expressions of ``couillon_dsl/expr/cache.py``).

    python bench/bench_startup.py                  # 15 rounds of validate and python -c pass
    python bench/bench_startup.py --against REV    # also the same commands at commit REV
    python bench/bench_startup.py --all            # explain, diff and new as well
    python bench/bench_startup.py --instructions   # also instructions executed (valgrind): load-independent
    python bench/bench_startup.py --json
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_PYTHON = ROOT / ".venv" / ("Scripts/python.exe" if os.name == "nt" else "bin/python")

# a tree's command line, as the installed `couillon` script starts it, from that tree's sources
LAUNCH = ("import sys; sys.path.insert(0, sys.argv[1]); from couillon_dsl.cli import main; "
          "main(sys.argv[2:], prog_name='couillon')")
COMMANDS = {
    "validate": ["validate", "couillon"],
    "explain": ["explain", "couillon"],
    "diff": ["diff", "couillon", "mit"],
    "new": ["new", "{scratch}/variant-{run}.yaml", "--from", "couillon"],  # a new file each run
}


def child_env() -> dict[str, str]:
    """The environment of a user's shell: bytecode is written and read as for any installed package."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def run_ms(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU (user + system) milliseconds of one process; a failing command stops the report."""
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = (time.perf_counter() - began) * 1000
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"bench_startup: {' '.join(argv)} exited {done.returncode}: {done.stderr.decode()[-400:]}")
    cpu = (cpu_after.ru_utime - cpu_before.ru_utime + cpu_after.ru_stime - cpu_before.ru_stime) * 1000
    return elapsed, cpu


def instructions(argv: list[str], env: dict[str, str], cwd: Path) -> float | None:
    """Millions of instructions one process executes (valgrind's cachegrind, no cache simulation), or
    None without valgrind. The machine's load does not change it: two trees compare exactly."""
    if shutil.which("valgrind") is None:
        return None
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           *argv], env={**env, "PYTHONHASHSEED": "0"}, cwd=cwd, capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    return int(found.group(1).replace(",", "")) / 1e6 if found and done.returncode == 0 else None


def earlier_tree(rev: str, into: Path) -> Path:
    """A checkout of commit ``rev`` of this repository in ``into`` (git archive: no worktree bookkeeping)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev], capture_output=True, check=True)
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="rounds (each runs every command once)")
    parser.add_argument("--against", metavar="REV", help="also run the commands at this earlier commit")
    parser.add_argument("--all", action="store_true", help="explain, diff and new besides validate")
    parser.add_argument("--instructions", action="store_true",
                        help="also count each command's instructions once (valgrind; independent of the load)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    python = str(VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable))
    env = child_env()
    names = list(COMMANDS) if args.all else ["validate"]
    with tempfile.TemporaryDirectory() as scratch_name:
        scratch = Path(scratch_name)
        trees = {"current": ROOT}
        if args.against:
            trees[args.against] = earlier_tree(args.against, scratch / "against")
        runs: dict[str, list[str]] = {"python -c pass": [python, "-c", "pass"]}
        for label, tree in trees.items():
            for name in names:
                runs[f"{name} ({label})" if args.against else name] = [python, "-c", LAUNCH, str(tree),
                                                                       *COMMANDS[name]]
        for index, argv_ in enumerate(runs.values()):  # unmeasured: fill the bytecode and expression caches
            run_ms([part.format(scratch=scratch, run=f"warm-{index}") for part in argv_], env, scratch)
        load_before = os.getloadavg()
        times: dict[str, list[float]] = {label: [] for label in runs}
        cpu: dict[str, list[float]] = {label: [] for label in runs}
        for round_ in range(args.runs):
            for index, (label, argv_) in enumerate(runs.items()):
                wall, used = run_ms([part.format(scratch=scratch, run=f"{index}-{round_}") for part in argv_], env,
                                    scratch)
                times[label].append(wall)
                cpu[label].append(used)
        load_after = os.getloadavg()
        counted = {label: instructions([part.format(scratch=scratch, run=f"count-{index}") for part in argv_], env,
                                       scratch)
                   for index, (label, argv_) in enumerate(runs.items())} if args.instructions else {}
    result = {
        "runs": args.runs,
        "cpus": os.cpu_count(),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in load_after],
        "ms": {label: {"min": round(min(ts), 1), "median": round(statistics.median(ts), 1),
                       "cpu_min": round(min(cpu[label]), 1), "cpu_median": round(statistics.median(cpu[label]), 1)}
               for label, ts in times.items()},
        "million_instructions": {label: round(count, 1) if count else None for label, count in counted.items()},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    width = max(len(label) for label in times)
    print(f"{args.runs} alternating rounds, {os.cpu_count()} CPUs, load average before {load_before[0]:.2f}, "
          f"after {load_after[0]:.2f} (1 min)")
    for label, ts in times.items():
        print(f"{label + ':':{width + 1}} wall min {min(ts):6.1f} ms, median {statistics.median(ts):6.1f} ms;   "
              f"CPU min {min(cpu[label]):6.1f} ms, median {statistics.median(cpu[label]):6.1f} ms"
              + (f";   {counted[label]:7.1f} M instructions" if counted.get(label) else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
