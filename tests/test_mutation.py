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
from couillon_dsl.loader import Document, escape, load_ruleset, parse_text
from couillon_dsl.schema import _validator, fast_valid, load_schema
from couillon_dsl.validate import check

DOCUMENTS = {name: load_ruleset(name) for name in builtin_names()}
WORDS = ["all", "elder", "dealer", "rest", "stock_top", "trump", "offer", "choose", "none", "redeal", "next_card",
         "winner", "maker", "decided", "A", "K", "10", "QS", "XX", "S", "/scoresheet/start", "/nowhere",
         "decided and", "points(winner) > 20", "announced(\"mit\")", "option(\"lines\")", "", "mit", "lines",
         "named", "partner", "next", "chooser", "first_by_rule_order", "JT", "7D", "multiplier", "contract",
         "points(team) * multiplier", "trumps", "top_down"]
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.integers(-10**30, 10**30),
                    st.floats(allow_nan=False, allow_infinity=False), st.sampled_from(WORDS), st.text(max_size=5))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(st.sampled_from(WORDS + ["packet", "to", "start"]), inner, max_size=3)),
                      max_leaves=8)


def pointers(data: Any, base: str = "") -> list[str]:
    found = [base]
    if isinstance(data, dict):
        for key, value in data.items():
            found += pointers(value, f"{base}/{escape(key)}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            found += pointers(value, f"{base}/{i}")
    return found


def parent_and_key(data: Any, pointer: str) -> tuple[Any, Any]:
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
    for token in tokens[:-1]:
        data = data[int(token)] if isinstance(data, list) else data[token]
    last = tokens[-1]
    return data, int(last) if isinstance(data, list) else last


def get(data: Any, pointer: str) -> Any:
    parent, key = parent_and_key(data, pointer)
    return parent[key]


def mutate(data: dict[str, Any], draw: Any) -> None:
    targets = [p for p in pointers(data) if p]
    pointer = draw(st.sampled_from(targets))
    parent, key = parent_and_key(data, pointer)
    operation = draw(st.sampled_from(["drop", "replace", "swap", "insert", "duplicate"]))
    if operation == "drop":
        del parent[key]
    elif operation == "replace":
        parent[key] = draw(VALUES)
    elif operation == "swap":
        other = draw(st.sampled_from(targets))
        if not other.startswith(pointer) and not pointer.startswith(other):
            other_parent, other_key = parent_and_key(data, other)
            parent[key], other_parent[other_key] = copy.deepcopy(other_parent[other_key]), copy.deepcopy(parent[key])
    elif operation == "insert":
        container = parent[key]
        if isinstance(container, dict):
            container[draw(st.sampled_from(WORDS + ["extra"]))] = draw(VALUES)
        elif isinstance(container, list):
            container.insert(draw(st.integers(0, len(container))), draw(VALUES))
        else:
            parent[key] = [container, draw(VALUES)]
    elif isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))


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
    import random

    original = DOCUMENTS["schieber"]
    mutant = copy.deepcopy(original.data)
    for _ in range(count):
        targets = [p for p in pointers(mutant) if p.startswith(NEW_KEYS)]
        if not targets:
            break
        pointer = data.draw(st.sampled_from(targets))
        parent, key = parent_and_key(mutant, pointer)
        operation = data.draw(st.sampled_from(["drop", "replace", "insert"]))
        if operation == "drop":
            del parent[key]
        elif operation == "replace":
            parent[key] = data.draw(VALUES)
        elif isinstance(parent[key], dict):
            parent[key][data.draw(st.sampled_from(WORDS))] = data.draw(VALUES)
    document = Document(mutant, original.path, original.origins, original.files)
    diagnostics = check(document)
    for diagnostic in diagnostics:
        assert diagnostic.code in CODES and diagnostic.span is not None, diagnostic
    if any(d.is_error for d in diagnostics):
        return
    rs = compile_ruleset(document)
    state = GameState(rs, seed=data.draw(st.integers(0, 2**16)))
    rng = random.Random(0)
    while not state.hands and not state.is_terminal():  # one whole hand, every decision random
        if state.is_chance_node():
            state.deal_shuffled()
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
