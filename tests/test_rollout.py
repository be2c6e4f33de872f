"""The whole-game rollout plays exactly the games GameState plays one step at a time.

For every eligible ruleset, every value of its options and hand-made rule changes that
reach the rollout's other branches (re-offers, pass-outs, fallbacks, sessions, limits),
a game from the same generator must give the same history, hand summaries, result and
end-of-game view both ways.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.compile import build_ruleset, compile_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset

RULESETS = ["couillon", "couillon-ardennes", "couillon-force", "kwajongen", "troeven", "kujong", "mit", "mit-6", "mit-8"]


def patched(name: str, change: dict[str, Any]) -> Ruleset:
    """A built-in ruleset with sections' keys replaced (one level deep, or two for `trump.offer`/`choose`)."""
    data = dict(load_ruleset(name).data)
    for section, values in change.items():
        merged = {**data.get(section, {})}
        for key, value in values.items():
            merged[key] = {**merged.get(key, {}), **value} if isinstance(value, dict) else value
        data[section] = merged
    return compile_ruleset(dataclasses.replace(load_ruleset(name), data=data))


def option_variants() -> list[tuple[str, Ruleset]]:
    """Every eligible built-in ruleset under every value of each of its options."""
    out = []
    for name in RULESETS:
        rs = build_ruleset(name)
        if rs.rollout is None:
            continue
        out.append((name, rs))
        for option, spec in rs.options.items():
            values = spec.choices or ((not spec.default,) if spec.type == "boolean" else (spec.default + 1,))
            for value in values:
                if value != spec.default:
                    out.append((f"{name} {option}={value}", build_ruleset(name, {option: value})))
    return out


CHANGES: dict[str, tuple[str, dict[str, Any]]] = {  # label -> (built-in ruleset, change)
    "re-offer, dealer first": ("couillon", {"trump": {"offer": {"on_all_pass": "next_card",
                                                                "reoffer_first_speaker": "dealer"}}}),
    "bottom card, elder team makes": ("couillon", {"trump": {"maker_after_fallback": "elder_team"}}),
    "redeal, single pass carry": ("couillon", {"trump": {"offer": {"on_all_pass": "redeal"}},
                                               "scoresheet": {"pass_carry": "single"}}),
    "redeal, cumulative, 1 redeal": ("couillon", {"trump": {"offer": {"on_all_pass": "redeal"}},
                                                  "scoresheet": {"pass_carry": "cumulative"},
                                                  "limits": {"max_redeals_in_a_row": 1}}),
    "tie: same dealer, cumulative": ("couillon", {"scoresheet": {"tie_next_dealer": "same",
                                                                 "tie_carry": "cumulative_double"}}),
    "session of three games": ("couillon", {"session": {"games_to_win": 3}}),
    "abandoned after 4 hands": ("couillon", {"limits": {"max_hands": 4}}),
    "session abandoned after 3 games": ("couillon", {"session": {"games_to_win": 3}, "limits": {"max_games": 3}}),
    "one dealer, dealer leads": ("couillon", {"dealer": {"rotation": "same", "first": 2},
                                              "play": {"first_lead": "dealer"}}),
    "maker leads": ("couillon", {"play": {"first_lead": "maker"}}),
    "scores up to 3": ("couillon", {"scoresheet": {"start": 0, "goal": 3, "direction": "up"},
                                    "scoring": {"win": {"delta": 1}, "maker_loss": {"team": "winner", "delta": 1}}}),
    "elder names or shows, maker leads": ("troeven", {"trump": {"choose": {"ways": ["name", "show"]}},
                                                      "play": {"first_lead": "maker"}}),
    "the dealer names": ("troeven", {"trump": {"choose": {"by": "dealer"}}}),
    "shown or deferred, elder team makes": ("couillon-force", {"trump": {"maker_after_fallback": "elder_team"}}),
    "the turned-up card is trump": ("couillon", {"trump": {"method": "turned", "offer": None}}),
    "a turned trump, elder team makes": ("couillon", {"trump": {"method": "turned", "offer": None,
                                                                "maker_after_fallback": "elder_team"}}),
}


def variants() -> list[tuple[str, Ruleset]]:
    return option_variants() + [(label, patched(base, change)) for label, (base, change) in CHANGES.items()]


VARIANTS = variants()


def stepwise(rs: Ruleset) -> Ruleset:
    """The same ruleset without its rollout: play_random then steps through every action."""
    return dataclasses.replace(rs, rollout=None)


def assert_same_game(rs: Ruleset, seed: int, start: tuple[list[int], int, int] | None = None) -> GameState:
    rolled, stepped = GameState(rs), GameState(stepwise(rs))
    if start is not None:
        for state in (rolled, stepped):
            state.set_scoresheet(start[0], ties=start[1], passes=start[2])
    rolled.play_random(random.Random(seed))
    stepped.play_random(random.Random(seed))
    assert rolled.history() == stepped.history()
    assert rolled.hands == stepped.hands
    assert rolled.result == stepped.result
    assert [rolled.view(s) for s in range(rs.players.count)] == [stepped.view(s) for s in range(rs.players.count)]
    return rolled


def test_the_variants_reach_every_branch() -> None:
    """Each hand-made change compiles to a rollout and shows the path it was written for."""
    seen: dict[str, set[str]] = {}
    for label, rs in VARIANTS:
        assert rs.rollout is not None, label
        paths = seen.setdefault(label, set())
        for seed in range(60):
            state = assert_same_game(rs, seed)
            paths.update(h.trump_path for h in state.hands)
            if state.result.abandoned:  # type: ignore[union-attr]
                paths.add("abandoned")
            if len(state.result.games) > 1:  # type: ignore[union-attr]
                paths.add("games")
    assert "next_card" in seen["re-offer, dealer first"]
    assert "bottom_card" in seen["bottom card, elder team makes"]
    assert "redeal" in seen["redeal, single pass carry"]
    assert "abandoned" in seen["redeal, cumulative, 1 redeal"]
    assert "abandoned" in seen["abandoned after 4 hands"]
    assert "games" in seen["session of three games"]
    assert {"named", "shown"} <= seen["elder names or shows, maker leads"]
    assert {"shown", "deferred"} <= seen["shown or deferred, elder team makes"]
    assert seen["the turned-up card is trump"] == seen["a turned trump, elder team makes"] == {"turned"}


@pytest.mark.parametrize("label, rs", VARIANTS, ids=[label for label, _ in VARIANTS])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_rollout_plays_the_same_game_as_steps(label: str, rs: Ruleset, seed: int) -> None:
    assert_same_game(rs, seed)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), lines=st.integers(min_value=1, max_value=6),
       ties=st.integers(min_value=0, max_value=2))
def test_rollout_starts_from_the_scoresheet_it_is_given(seed: int, lines: int, ties: int) -> None:
    assert_same_game(build_ruleset("couillon"), seed, ([lines, 5], ties, 0))


@pytest.mark.parametrize("name, why", [
    ("mit", "announcements"), ("kujong", "an announcement"),
])
def test_rulesets_the_rollout_does_not_cover_step_through(name: str, why: str) -> None:
    rs = build_ruleset(name)
    assert rs.rollout is None, why
    state = GameState(rs)
    state.play_random(random.Random(3))
    replay = GameState(rs)
    for action in state.history():
        replay.apply(action)
    assert replay.hands == state.hands and replay.result == state.result


def test_a_random_first_dealer_is_left_to_the_steps() -> None:
    assert patched("couillon", {"dealer": {"first": "random"}}).rollout is None


def test_a_game_already_under_way_is_finished_by_steps() -> None:
    rs = build_ruleset("couillon")
    state = GameState(rs)
    state.deal_shuffled(random.Random(9))
    state.play_random(random.Random(10))
    replay = GameState(rs)
    for action in state.history():
        replay.apply(action)
    assert state.is_terminal() and replay.hands == state.hands and replay.result == state.result
