"""Mutated shipped rulesets: check() never raises, every diagnostic is placed and registered,
and the schema fast path agrees with jsonschema on every mutant."""
from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.builtin import builtin_names
from couillon_dsl.compile import compile_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.diagnostics import CODES, RulesetError
from couillon_dsl.loader import Document, load_ruleset, parse_text
from couillon_dsl.schema import _validator, fast_valid, load_schema
from couillon_dsl.validate import check
from example_games import EXAMPLES
from mutants import WORDS, mutate, mutate_keys, pointers

DOCUMENTS = {name: load_ruleset(name) for name in builtin_names() + EXAMPLES}  # the examples: games beyond the family

def assert_sound(document: Document) -> None:
    diagnostics = check(document)
    for diagnostic in diagnostics:
        assert diagnostic.code in CODES
        assert diagnostic.span is not None, diagnostic
        assert diagnostic.message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(DOCUMENTS)), st.integers(1, 3), st.data())
def test_mutants_never_crash_check_and_every_diagnostic_is_placed(name, count, data):
    original = DOCUMENTS[name]
    mutant = copy.deepcopy(original.data)
    for _ in range(count):
        if not any(pointers(mutant)[1:]):
            break
        mutate(mutant, data.draw)
    if not isinstance(mutant, dict):
        return
    assert_sound(Document(mutant, original.path, original.origins, original.files))
    assert fast_valid(load_schema(), mutant) == _validator().is_valid(mutant)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(DOCUMENTS)), st.data())
def test_text_mutants_load_or_fail_with_diagnostics(name, data):
    text = DOCUMENTS[name].files[0].read_text(encoding="utf-8")
    lines = text.splitlines()
    index = data.draw(st.integers(0, len(lines)))
    garbage = data.draw(st.sampled_from(["  - ]", "key: [", "\t", ": :", "&a *b", "!!binary x", "- - -", "'", "a: b: c",
                                         "  extra: 1", "deck: null", "? [x]", "%YAML 1.1", "---"]))
    lines.insert(index, garbage)
    try:
        data_, origins = parse_text("\n".join(lines), "mutant.yaml")
    except RulesetError as exc:
        assert all(d.span is not None and d.code in CODES for d in exc.diagnostics)
        return
    if "extends" in data_:
        return  # the child alone is a patch; extends is exercised by the data mutants
    assert_sound(Document(data_, None, origins))


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_unmutated_rulesets_agree_on_both_validators(name):
    assert fast_valid(load_schema(), DOCUMENTS[name].data) is True
    assert _validator().is_valid(DOCUMENTS[name].data)


# the keys of contracts, handing the choice on, first-hand chooser, last-trick points and rule-order goals
NEW_KEYS = ("/contracts", "/trump/choose", "/play/first_lead", "/play/last_trick_points", "/play/follow/exempt",
            "/scoresheet/when_both_reach", "/scoring")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3), st.data())
def test_mutants_of_the_contract_keys_that_validate_compile_and_play(count, data):
    mutant_checked_and_played(DOCUMENTS["schieber"], NEW_KEYS, count, data.draw)


def mutant_checked_and_played(original: Document, keys: tuple[str, ...], count: int, draw: Any,
                              scalars: st.SearchStrategy | None = None, words: list[str] = WORDS) -> None:
    """``count`` mutations of ``original``'s values under ``keys``, checked, and played for a hand when valid."""
    mutant = copy.deepcopy(original.data)
    mutate_keys(mutant, keys, count, draw, scalars, words)
    check_and_play_a_hand(Document(mutant, original.path, original.origins, original.files), draw(st.integers(0, 2**16)))


def check_and_play_a_hand(document: Document, seed: int) -> None:
    """Every diagnostic is placed and registered; a document without errors compiles and plays a
    whole hand (or passed-out deal), every decision random."""
    import random

    diagnostics = check(document)
    for diagnostic in diagnostics:
        assert diagnostic.code in CODES and diagnostic.span is not None, diagnostic
    if any(d.is_error for d in diagnostics):
        return
    rs = compile_ruleset(document)
    state = GameState(rs, seed=seed)
    rng = random.Random(0)
    while not state.hands and not state.is_terminal():
        if state.is_chance_node():
            state.deal_shuffled()
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
