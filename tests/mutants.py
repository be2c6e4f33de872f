"""Structure-aware mutations of plain YAML/JSON data, shared by the mutation and fuzzing tests.

``mutate`` applies one random edit (drop, replace, swap, insert, duplicate) at a random
JSON pointer of a document, with values drawn from words and shapes a ruleset uses, so
mutants stay close enough to real files to reach the later stages.
"""
from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from couillon_dsl.loader import escape

WORDS = ["all", "elder", "dealer", "rest", "stock_top", "trump", "offer", "choose", "none", "redeal", "next_card",
         "winner", "maker", "decided", "A", "K", "10", "QS", "XX", "S", "/scoresheet/start", "/nowhere",
         "decided and", "points(winner) > 20", "announced(\"mit\")", "option(\"lines\")", "", "mit", "lines",
         "named", "partner", "next", "chooser", "first_by_rule_order", "JT", "7D", "multiplier", "contract",
         "points(team) * multiplier", "trumps", "top_down", "turned", "ends_game", "wins", "2C", "H"]
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


def fresh(value: Any) -> Any:
    """A copy of a drawn value: ``sampled_from`` hands out the same dict or list every time, and a
    later mutation that changed it in place would change what the strategy draws (hypothesis then
    reports a flaky strategy)."""
    return copy.deepcopy(value)


def mutate_keys(mutant: dict[str, Any], keys: tuple[str, ...], count: int, draw: Any,
                scalars: st.SearchStrategy | None = None, words: list[str] = WORDS) -> None:
    """``count`` mutations of values under ``keys``: drop, replace, insert a key (and, with
    ``scalars``, replace by a plausible scalar or insert one into a list)."""
    for _ in range(count):
        targets = [p for p in pointers(mutant) if p.startswith(keys)]
        if not targets:
            return
        parent, key = parent_and_key(mutant, draw(st.sampled_from(targets)))
        operation = draw(st.sampled_from(["drop", "replace", "insert"] + (["scalar"] if scalars is not None else [])))
        if operation == "drop":
            del parent[key]
        elif operation == "replace":
            parent[key] = fresh(draw(VALUES))
        elif operation == "scalar":
            parent[key] = fresh(draw(scalars))
        elif isinstance(parent[key], dict):
            parent[key][draw(st.sampled_from(words))] = fresh(draw(VALUES if scalars is None else scalars))
        elif scalars is not None and isinstance(parent[key], list):
            parent[key].insert(0, fresh(draw(scalars)))
