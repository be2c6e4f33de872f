"""The examples: games nobody designed the language for, written from their rules alone.

Each examples/*.yaml must validate without an error, read back as its golden rulebook and
play (the engine's invariants and the agents run over them in test_engine_props.py and
test_agents.py; hand-checked scenarios are under tests/scenarios/). Regenerate the goldens
with ``python3 -m pytest tests/test_examples.py --regen``.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from couillon_dsl.compile import build_ruleset
from couillon_dsl.explain import explain
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
GOLDEN = ROOT / "tests" / "golden" / "examples"


def test_there_are_examples() -> None:
    assert [path.stem for path in EXAMPLES] == ["hearts", "whist"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_example_validates_and_reads_as_its_golden_rulebook(path: Path, request: pytest.FixtureRequest) -> None:
    assert [d.code for d in check(load_ruleset(path)) if d.is_error] == []
    text = explain(build_ruleset(path))
    golden = GOLDEN / f"{path.stem}.md"
    if request.config.getoption("--regen"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
        return
    assert text == golden.read_text(encoding="utf-8"), f"the rulebook of {path.name} changed; see the module docstring"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_example_validates_without_a_warning(path: Path) -> None:
    """The game-end check follows both: Hearts' players bank the points they take (the moon adjusts
    them after), and Whist's odd tricks, the winner's tricks less six, are at least one."""
    assert check(load_ruleset(path)) == []
