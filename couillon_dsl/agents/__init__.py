"""Players for simulations: the Agent protocol, a registry of agents, and ``--agents`` specs.

An agent sees the live :class:`~couillon_dsl.engine.state.GameState` so a searching agent
can clone it, but promises to read only what its seat may know (``state.view(seat)``, the
ruleset, the trump context in force). Randomness comes from the ``rng`` handed in, never
from a global generator, so a game replays exactly from its seed.

A spec names one agent per team or per seat, comma-separated, each ``name`` or
``name:key=value:...`` (``pimc:samples=16,greedy``, ``ismcts:ms=40``).
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable, Protocol, Sequence, runtime_checkable

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.ismcts import IsmctsAgent
from couillon_dsl.agents.pimc import PimcAgent
from couillon_dsl.agents.random import RandomAgent

if TYPE_CHECKING:
    from couillon_dsl.engine import GameState
    from couillon_dsl.model import Ruleset


@runtime_checkable
class Agent(Protocol):
    """Chooses one of ``legal`` (sorted, never empty) for the seat to move."""

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int: ...


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "pimc": PimcAgent,
    "ismcts": IsmctsAgent,
}


class AgentSpecError(ValueError):
    """An ``--agents`` spec that names no known agent or does not fit the table."""


def _value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_agent(spec: str) -> Agent:
    """One agent from ``name`` or ``name:key=value:...``; raises AgentSpecError."""
    name, *settings = spec.strip().split(":")
    factory = AGENTS.get(name.strip().lower())
    if factory is None:
        raise AgentSpecError(f"unknown agent {name!r}; agents: {', '.join(AGENTS)}")
    kwargs: dict[str, Any] = {}
    for setting in settings:
        key, sep, text = setting.partition("=")
        if not sep or not key:
            raise AgentSpecError(f"agent setting {setting!r} in {spec!r} is not key=value")
        kwargs[key.strip()] = _value(text.strip())
    known = settings_of(factory) if kwargs else {}
    for key in kwargs:
        if key not in known:
            listed = ", ".join(f"{k}={v!r}" for k, v in known.items()) or "none"
            raise AgentSpecError(f"agent {name!r} has no setting {key!r}; its settings (with defaults): {listed}")
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as exc:
        raise AgentSpecError(f"agent {spec!r}: {exc}") from None


def settings_of(factory: Callable[..., Agent]) -> dict[str, Any]:
    """The settings an agent takes in a spec (``pimc:samples=8``), with their defaults."""
    import inspect  # only when a spec names settings: it is slow to import

    return {p.name: p.default for p in inspect.signature(factory).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is not p.empty}


def seat_specs(spec: str, ruleset: Ruleset) -> tuple[str, ...]:
    """Expand a spec to one agent spec per seat: one name for all, one per team, or one per seat."""
    parts = [p.strip() for p in spec.split(",")]
    if not all(parts):
        raise AgentSpecError(f"empty agent name in {spec!r}")
    for part in parts:
        make_agent(part)  # validate early, with the message naming the bad part
    seats = ruleset.players.count
    teams = ruleset.players.teams
    if len(parts) == 1:
        return tuple(parts * seats)
    if len(parts) == len(teams):
        by_seat = [""] * seats
        for team, members in enumerate(teams):
            for seat in members:
                by_seat[seat] = parts[team]
        return tuple(by_seat)
    if len(parts) == seats:
        return tuple(parts)
    raise AgentSpecError(
        f"{len(parts)} agents given; {ruleset.name} needs 1, {len(teams)} (one per team) or {seats} (one per seat)"
    )
