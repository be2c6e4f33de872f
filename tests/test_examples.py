"""The examples: games nobody designed the language for, written from their rules alone.

Each examples/*.yaml must validate without an error or a warning; elsewhere it reads back as its
golden rulebook (test_explain.py), keeps the engine's invariants (test_engine_props.py), plays
under every agent (test_agents.py) and on the compiled kernel where it can (test_kernel.py), and
is mutated by the fuzzers; its hand-checked scenarios are under tests/scenarios/.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


# The warnings an example is expected to give: Spades' two partnerships may both fall short of
# their bids hand after hand, so no hand is sure to bring either nearer 500 (the check is right:
# such a game would be abandoned at limits.max_hands).
# Belote: every hand gives a side 162 or more, but through if(...) expressions the check cannot follow
# Pinochle: a bidding side that is set loses its bid, so no hand is sure to bring a side nearer 1000.
# Forty-fives and Auction Pitch: likewise, a side that falls short of its bid loses it.
EXPECTED_WARNINGS = {"spades": ["game-may-not-end"], "belote": ["game-may-not-end"], "pinochle": ["game-may-not-end"],
                     "forty-fives": ["game-may-not-end"], "auction-pitch": ["game-may-not-end"]}


def test_there_are_examples() -> None:
    assert [path.stem for path in EXAMPLES] == ["auction-pitch", "belote", "bridge", "briscola", "chicago", "contree", "doppelkopf", "euchre",
                                                "five-hundred", "forty-fives", "hearts", "hokm", "klaverjas", "oh-hell", "pinochle",
                                                "rubber-bridge", "schafkopf", "schnapsen", "sheepshead", "sixty-six",
                                                "skat", "spades", "tute", "whist", "wizard"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_example_validates_without_an_unexpected_warning(path: Path) -> None:
    """The game-end check follows Hearts' players banking the points they take (the moon adjusts
    them after), Whist's odd tricks, the winner's tricks less six, at least one, and contrée's
    contract, 160 and the bid, times the doubling, or the bid alone, to the hand's winner; Oh Hell is
    a game of four deals."""
    found = check(load_ruleset(path))
    assert [d.code for d in found] == EXPECTED_WARNINGS.get(path.stem, [])
    assert all(d.severity == "warning" for d in found)
