#!/usr/bin/env python3
"""Set up a local virtual environment on first use, then run a project task.

    python3 tasks.py simulate [ARGS...]   # simulate the standard Couillon ruleset
    python3 tasks.py test [PYTEST ARGS...] # run the whole test suite
    python3 tasks.py lint                  # type-check (mypy) and lint (ruff)

Only Python 3.11+ and pip are needed: the first call creates `.venv` and installs
the project (editable) with its test, plot, lint, rl and fast extras; later calls reuse it.
"""
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"


def ensure_venv() -> Path:
    """Create .venv and install the project when pyproject.toml is newer than the last install."""
    python = BIN / ("python.exe" if os.name == "nt" else "python")
    if not python.exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    pyproject = ROOT / "pyproject.toml"
    if not STAMP.exists() or STAMP.stat().st_mtime < pyproject.stat().st_mtime:
        print("installing couillon-dsl and its extras into .venv ...", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", f"{ROOT}[test,plot,lint,rl,fast]"], check=True)
        STAMP.touch()
    return python


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("simulate", "test", "lint"):
        print(__doc__)
        return 2
    python = ensure_venv()
    task, rest = argv[0], argv[1:]
    if task == "simulate":
        cmd = [str(python), "-m", "couillon_dsl", "simulate", "couillon", *(rest or ["--games", "2000", "--seed", "1", "--agents", "greedy"])]
        return subprocess.run(cmd, cwd=ROOT).returncode
    if task == "lint":
        checks = ([str(python), "-m", "mypy"], [str(python), "-m", "ruff", "check", "couillon_dsl", "tests", "bench", "tasks.py"])
        return max(subprocess.run(cmd, cwd=ROOT).returncode for cmd in checks)
    # one test process per core (pytest-xdist, of the test extra); a later `-n 0` in ARGS runs them in one
    code = subprocess.run([str(python), "-m", "pytest", "-n", "auto", *rest], cwd=ROOT).returncode
    if code == 5:  # pytest: no tests were collected, which is a failure here
        print("tasks.py: pytest collected no tests", file=sys.stderr)
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
