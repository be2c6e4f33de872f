"""The ruleset JSON Schema: its two copies, its examples, its fast path, and errors mapped to spans."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator

from couillon_dsl.builtin import builtin_names
from couillon_dsl.loader import load_ruleset
from couillon_dsl.schema import FAST_KEYWORDS, _validator_class, fast_valid, iter_schema_diagnostics, load_schema, subschema_at, value_errors
from couillon_dsl.validate import check

SCHEMA = load_schema()


def subschemas(node: Any, path: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema object inside the schema (not the name -> schema maps that hold them)."""
    if isinstance(node, list):
        for i, value in enumerate(node):
            yield from subschemas(value, f"{path}/{i}")
    elif isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for name, sub in value.items():
                    yield from subschemas(sub, f"{path}/{key}/{name}")
            elif key in ("items", "additionalProperties", "propertyNames", "if", "then", "oneOf", "anyOf", "allOf"):
                yield from subschemas(value, f"{path}/{key}")


def with_defs(node: dict[str, Any]) -> dict[str, Any]:
    return {**node, "$defs": SCHEMA["$defs"]}


def test_schema_is_a_valid_2020_12_schema():
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"]
    Draft202012Validator.check_schema(SCHEMA)


def test_every_property_is_documented_with_examples():
    undocumented = []
    for path, node in subschemas(SCHEMA):
        for name, prop in node.get("properties", {}).items():
            if "description" not in prop or "examples" not in prop:
                undocumented.append(f"{path}/properties/{name}")
    assert undocumented == []


EXAMPLES = [(f"{path} example {i}", node, example)
            for path, node in subschemas(SCHEMA) for i, example in enumerate(node.get("examples", []))]


@pytest.mark.parametrize(("where", "node", "example"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_example_validates_against_its_subschema(where, node, example):
    errors = [e.message for e in _validator_class()(with_defs(node)).iter_errors(example)]
    assert errors == []
    assert fast_valid(node, example)


@pytest.mark.parametrize(("where", "node", "default"),
                         [(p, n, n["default"]) for p, n in subschemas(SCHEMA) if "default" in n])
def test_every_default_validates_against_its_subschema(where, node, default):
    assert fast_valid(node, default), where


def test_fast_path_knows_every_keyword_the_schema_uses():
    used = {keyword for _, node in subschemas(SCHEMA) for keyword in node}
    assert used <= FAST_KEYWORDS, used - FAST_KEYWORDS


@pytest.mark.parametrize("name", builtin_names())
def test_every_shipped_ruleset_validates_without_errors(name):
    errors = [f"{d.span}: {d.code}: {d.message}" for d in check(load_ruleset(name)) if d.is_error]
    assert errors == []


def test_integers_are_strict():
    assert not fast_valid({"type": "integer"}, 2.0)
    assert not _validator_class()({"type": "integer"}).is_valid(2.0)
    assert not fast_valid({"type": "integer"}, True)


def test_subschema_at_follows_properties_refs_and_conditionals():
    assert subschema_at("/scoresheet/start")["type"] == "integer"
    packet = subschema_at("/deal/3/packet")  # a number, or a schedule of hand sizes
    assert packet is not None and [value_errors(packet, v) == [] for v in (2, [1, 2, 1], 0, [])] == [True, True, False, False]
    assert "enum" in subschema_at("/trump/offer/on_all_pass")
    assert subschema_at("/scoresheet/lines") is None


def diagnostics_of(tmp_path: Path, body: str) -> list:
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: couillon\nid: r\nname: R\n{body}", encoding="utf-8")
    return list(iter_schema_diagnostics(load_ruleset(path)))


def test_unknown_key_is_placed_on_the_key_with_a_suggestion(tmp_path):
    [d] = diagnostics_of(tmp_path, "deck:\n  suitz: [S]\n")
    assert d.code == "schema-additional-property"
    assert (d.span.line, d.span.column) == (5, 3)
    assert d.hint == "did you mean 'suits'?"
    assert d.pointer == "/deck/suitz"


def test_number_where_a_rank_string_is_needed_suggests_quotes(tmp_path):
    [d] = diagnostics_of(tmp_path, "deck:\n  ranks: [A, K, 10]\n")
    assert d.code == "schema-type" and d.hint == 'write it in quotes: "10"'
    assert (d.span.line, d.span.column) == (5, 17)


def test_enum_error_suggests_the_closest_word(tmp_path):
    [d] = diagnostics_of(tmp_path, "trump:\n  method: ofer\n")
    assert d.code == "schema-enum" and d.hint == "did you mean 'offer'?"


def test_oneof_branches_are_explained_by_the_relevant_branch(tmp_path):
    [d] = diagnostics_of(tmp_path, "deal:\n  - {packet: 2, to: everybody}\n  - {decide: trump}\n")
    assert d.code == "schema-enum" and d.pointer == "/deal/0/to"
    [d] = diagnostics_of(tmp_path, "deal:\n  - {set_aside: 0}\n  - {decide: trump}\n")
    assert d.code == "schema-range"


def test_misspelt_deal_step_is_one_diagnostic(tmp_path):
    [d] = diagnostics_of(tmp_path, "deal:\n  - {pakket: 2}\n")
    assert d.code == "schema-additional-property" and d.hint == "did you mean 'packet'?"


def test_step_without_a_kind_lists_the_kinds(tmp_path):
    [d] = diagnostics_of(tmp_path, "deal:\n  - {to: all}\n")
    assert d.code == "schema-required" and "packet, stock, turn_up, set_aside, kitty, decide" in d.message


def test_null_in_a_child_explains_a_missing_required_key(tmp_path):
    [d] = diagnostics_of(tmp_path, "scoresheet:\n  start: null\n")
    assert d.code == "schema-required" and "null removes a key" in d.hint


def test_one_diagnostic_per_place_most_relevant_first(tmp_path):
    found = diagnostics_of(tmp_path, "players: 4\ndeck:\n  ranks: [A, A]\n")
    assert [d.code for d in found] == ["schema-type", "schema-unique"]
