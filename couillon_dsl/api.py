"""The front door for Python users: load a ruleset, simulate it, step through a game.

``import couillon_dsl`` reaches these lazily (``couillon_dsl.loader`` ...), so the package
stays cheap to import; docs/api.md shows them at work, and the tests run its examples.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from couillon_dsl.engine.state import GameState
    from couillon_dsl.model import Ruleset
    from couillon_dsl.simulation import Simulation

# Where each ruleset `load` returned came from, so that worker processes started afresh
# (spawn) can build it again; the ruleset itself is kept so that its id() stays its own.
_SOURCES: dict[int, tuple[Ruleset, str, tuple[tuple[str, Any], ...]]] = {}


def load(name_or_path: str | Path, options: Mapping[str, Any] | None = None) -> Ruleset:
    """A compiled ruleset from a built-in name or a file, with options set by name.

    Raises :class:`couillon_dsl.RulesetError` when the ruleset is invalid, an option
    unknown or a value not allowed; its ``diagnostics`` say what and where.
    """
    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.simulation import ruleset_reference

    ruleset = build_ruleset(name_or_path, options)
    _SOURCES[id(ruleset)] = (ruleset, ruleset_reference(str(name_or_path)), tuple(sorted((options or {}).items())))
    return ruleset


def _compiled(ruleset: Ruleset | str | Path) -> Ruleset:
    return load(ruleset) if isinstance(ruleset, (str, Path)) else ruleset


def simulate(ruleset: Ruleset | str | Path, games: int = 2000, seed: int = 1, agents: str = "random",
             workers: int | None = 1, engine: str = "auto") -> Simulation:
    """Play ``games`` seeded games, as `couillon simulate` does; ``.to_dict()`` gives the figures
    of ``--format json``. ``agents`` is the `--agents` spec (``"greedy"``, ``"pimc:samples=8,random"``);
    ``workers=None`` uses every CPU (results do not depend on it); ``engine`` is `--engine`
    (auto, python or compiled: ValueError when the compiled engine cannot play the run)."""
    from couillon_dsl.agents import seat_specs
    from couillon_dsl.simulation import Job, run, select_engine

    if games < 1:
        raise ValueError("games must be at least 1")
    compiled = _compiled(ruleset)
    source = _SOURCES.get(id(compiled))
    reference, options = (source[1], source[2]) if source and source[0] is compiled else (compiled.id, ())
    specs = seat_specs(agents, compiled)
    job = Job(reference, options, seed, specs, engine=select_engine(compiled, specs, engine)[0])
    return run(compiled, job, games, workers)


def new_game(ruleset: Ruleset | str | Path, seed: int | None = None) -> GameState:
    """A fresh game: the engine's state, ready for ``legal_actions()`` and ``apply(action)``;
    with a ``seed`` its deals are reproducible."""
    from couillon_dsl.engine.state import GameState

    return GameState(_compiled(ruleset), seed=seed)
