"""The project's own fuzzing: mutated rulesets, scenario files and game records, end to end.

Every shipped ruleset is mutated structurally (tests/mutants.py) and run through
validate -> compile -> a few random games; scenario files and golden game records are
mutated as data and as text and run through the scenario runner and the replayer. The
only exceptions allowed are the project's own errors for bad input; every diagnostic is
positioned; a ruleset that validates compiles and plays, every game ends within its
limits and keeps its invariants.

CI runs a few examples of each. The long mode takes a total from the environment,
shared among the tests by weight: ``COUILLON_FUZZ_EXAMPLES=100000 python -m pytest
tests/test_fuzz.py``. Each case then has a wall-clock guard (``COUILLON_FUZZ_CASE_SECONDS``,
default 60) so a hang fails as one, and ``COUILLON_FUZZ_LOG=FILE`` receives a progress line
(test, cases so far, slowest case) every 100 cases.
"""
from __future__ import annotations

import copy
import json
import os
import random
import signal
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.builtin import builtin_names
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset, compile_ruleset
from couillon_dsl.diagnostics import CODES, RulesetError
from couillon_dsl.engine import CHANCE, GameState
from couillon_dsl.loader import Document, load_ruleset, load_yaml
from couillon_dsl.model import Ruleset
from couillon_dsl.records import RecordError, replay_file
from couillon_dsl.scenario import run_scenario
from couillon_dsl.validate import check
from example_games import EXAMPLES
from mutants import mutate, pointers

HERE = Path(__file__).parent
LONG = int(os.environ.get("COUILLON_FUZZ_EXAMPLES", "0"))
CASE_SECONDS = int(os.environ.get("COUILLON_FUZZ_CASE_SECONDS", "60"))
LOG = os.environ.get("COUILLON_FUZZ_LOG")
DOCUMENTS = {name: load_ruleset(name) for name in builtin_names() + EXAMPLES}  # the examples: games beyond the family
SCENARIOS = sorted((HERE / "scenarios").glob("*.yaml"))
RECORDS = sorted((HERE / "golden" / "playthroughs").glob("*.jsonl"))
GARBAGE = ["  - ]", "key: [", "\t", ": :", "&a *b", "!!binary x", "- - -", "'", "a: b: c", "  extra: 1", "? [x]",
           "%YAML 1.1", "---", "[" * 100, "{", "\x00", "\"", "\\", "null", "-1", "1e999", "[1, 2]"]


def examples(ci: int, share: float) -> Any:
    """Hypothesis settings: ``ci`` examples in CI, ``share`` of the environment's total in the long mode."""
    return settings(max_examples=round(LONG * share) or ci, deadline=None, database=None if LONG else settings.default.database,
                    suppress_health_check=list(HealthCheck))


class Hang(Exception):
    """A single case ran past its wall-clock guard."""


PROGRESS = {"cases": 0, "slowest": 0.0}


@contextmanager
def guard() -> Iterator[None]:
    """Fail a case that runs longer than CASE_SECONDS (a hang) instead of waiting for it forever."""
    def expire(signum: int, frame: Any) -> None:
        raise Hang(f"a case ran longer than {CASE_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(CASE_SECONDS)
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        PROGRESS["cases"] += 1
        PROGRESS["slowest"] = max(PROGRESS["slowest"], time.perf_counter() - start)
        if LOG and PROGRESS["cases"] % 100 == 0:
            with open(LOG, "a", encoding="utf-8") as out:
                test = os.environ.get("PYTEST_CURRENT_TEST", "?").split(" ")[0]
                out.write(f"{time.strftime('%H:%M:%S')} {test} cases={PROGRESS['cases']} "
                          f"slowest={PROGRESS['slowest']:.2f}s\n")


def mutated(data: Any, count: int, draw: Any) -> Any:
    out = copy.deepcopy(data)
    for _ in range(count):
        if len(pointers(out)) < 2:
            break
        mutate(out, draw)
    return out


def text_mutated(text: str, draw: Any) -> str:
    """One line inserted, deleted or cut short."""
    lines = text.splitlines()
    index = draw(st.integers(0, max(len(lines) - 1, 0)))
    edit = draw(st.sampled_from(["insert", "delete", "cut"]))
    if edit == "insert" or not lines:
        lines.insert(index, draw(st.sampled_from(GARBAGE)))
    elif edit == "delete":
        del lines[index]
    else:
        lines[index] = lines[index][:draw(st.integers(0, len(lines[index])))]
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


# ---------------------------------------------------------------------------- rulesets

def play_checked(rs: Ruleset, seed: int, stepwise: bool) -> None:
    """One random game, to the end, keeping the invariants a finished game must hold."""
    state = GameState(rs)
    rng = random.Random(seed)
    if stepwise:  # one action at a time through the public API
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.deal_shuffled(rng)
            else:
                legal = state.legal_actions()
                assert legal, "a live game with no legal action"
                state.apply(legal[int(rng.random() * len(legal))])
    else:
        state.play_random(rng)
    result = state.result
    assert result is not None and state.is_terminal()
    assert len(result.scores) == len(rs.players.teams)
    assert result.abandoned == (result.winner is None)
    assert result.hands <= rs.limits.max_hands * rs.limits.max_games
    assert len(result.games) <= rs.limits.max_games
    if result.winner is not None:
        assert result.games_won[result.winner] == rs.session.games_to_win
    for hand in state.hands:
        cards = [c for _, trick, _ in hand.played_tricks for c in trick]
        assert len(cards) == len(set(cards)), "a card played twice in one hand"


@examples(ci=40, share=0.55)
@given(st.sampled_from(sorted(DOCUMENTS)), st.integers(1, 3), st.integers(0, 2**32), st.data())
def test_a_mutated_ruleset_is_refused_with_positions_or_compiles_and_plays(name: str, count: int, seed: int,
                                                                           data: Any) -> None:
    original = DOCUMENTS[name]
    document = Document(mutated(original.data, count, data.draw), original.path, original.origins, original.files)
    with guard():
        diagnostics = check(document)
        assert all(d.code in CODES and d.span is not None and d.message for d in diagnostics), diagnostics
        if any(d.is_error for d in diagnostics):
            return
        rs = compile_ruleset(document)  # a ruleset that validates always compiles...
        play_checked(rs, seed, stepwise=False)  # ...and plays, both ways
        play_checked(rs, seed + 1, stepwise=True)


# ---------------------------------------------------------------------------- scenarios

def scenario_survives(text: str) -> None:
    """Run a scenario text; it passes or fails, but nothing escapes the runner."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        with guard():
            result = run_scenario(path)
        assert result.ok or result.failures or result.error


@examples(ci=25, share=0.15)
@given(st.sampled_from(SCENARIOS), st.integers(1, 3), st.data())
def test_a_mutated_scenario_passes_or_fails_cleanly(path: Path, count: int, data: Any) -> None:
    scenario, _ = load_yaml(path, "scenario")
    scenario_survives(yaml.safe_dump(mutated(scenario, count, data.draw), allow_unicode=True))


@examples(ci=15, share=0.05)
@given(st.sampled_from(SCENARIOS), st.data())
def test_a_scenario_with_a_damaged_line_passes_or_fails_cleanly(path: Path, data: Any) -> None:
    scenario_survives(text_mutated(path.read_text(encoding="utf-8"), data.draw))


# ---------------------------------------------------------------------------- records

def build(name: str, options: dict[str, Any]) -> Ruleset:
    return build_ruleset(name, options)


def replay_survives(text: str) -> None:
    """Replay a records text: identical, a mismatch, or one of the project's errors."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzzed.jsonl"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        with guard():
            try:
                checked, _ = replay_file(path, build)
            except (RecordError, RulesetError):
                return
        assert checked >= 1


@examples(ci=25, share=0.15)
@given(st.sampled_from(RECORDS), st.integers(1, 3), st.data())
def test_a_mutated_record_replays_or_is_refused_cleanly(path: Path, count: int, data: Any) -> None:
    record = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    replay_survives(json.dumps(mutated(record, count, data.draw)) + "\n")


@examples(ci=10, share=0.05)
@given(st.sampled_from(RECORDS), st.data())
def test_a_damaged_records_file_is_refused_cleanly(path: Path, data: Any) -> None:
    text = path.read_text(encoding="utf-8")
    cut = data.draw(st.integers(0, len(text)))
    replay_survives(text[:cut] + data.draw(st.sampled_from(GARBAGE)) + text[cut:])


# ---------------------------------------------------------------------------- typed answers

WORDS_TYPED = ["help", "why", "?", "accept", "pass", "no", "name H", "name X", "announce mit", "announce",
               "push", "AS", "10h", "A♠", "♠A", "XX", "1", "0", "-1", "99", "9" * 40, "１", "Ⅻ", "1 2"]
ANSWERS = st.one_of(st.sampled_from(WORDS_TYPED), st.integers(-3, 40).map(str),
                    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12))


@examples(ci=15, share=0.05)
@given(st.sampled_from(sorted(DOCUMENTS)), st.integers(0, 7), st.integers(0, 2**31), st.lists(ANSWERS, max_size=40))
def test_anything_typed_into_play_is_answered_or_refused(name: str, seat: int, seed: int, answers: list[str]) -> None:
    """`couillon play` reads garbage as a refusal with a reason, and stops cleanly when the input ends."""
    seat %= DOCUMENTS[name].data["players"]["count"]
    with guard():
        result = CliRunner().invoke(main, ["play", name, "--seat", str(seat), "--seed", str(seed), "--agents", "random"],
                                    input="\n".join(answers) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert result.output.rstrip().endswith(("Input ended: game stopped.", "Game stopped.")) or "Winner" in result.output


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_every_shipped_ruleset_plays_both_ways(name: str) -> None:
    rs = compile_ruleset(DOCUMENTS[name])
    play_checked(rs, 1, stepwise=False)
    play_checked(rs, 2, stepwise=True)
