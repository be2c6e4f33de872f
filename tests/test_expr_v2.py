"""Expressions v2: exact numbers, `/`, if/min/max/abs and rounding, definitions, `for_each: team`.

The hypothesis test compares the compiled closures with a plain recursive evaluator written
here from the language's definition, on random well-typed expression trees.
"""
from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.compile import build_ruleset
from couillon_dsl.expr import ExprNames, HandFacts, check_definitions, check_expression, compile_expression, facts_read
from couillon_dsl.expr.parse import Binary, Call, Name, Node, Number, Unary, parse_expression, to_text

NAMES = ExprNames()
FACTS = HandFacts(winner=0, loser=1, maker=1, decided=True, points=(25, 12), tricks=(3, 1), passes_pending=2,
                  tricks_per_hand=4, points_in_play=37)


def run(text: str, kind: str = "number", facts: HandFacts = FACTS, names: ExprNames = NAMES) -> object:
    return compile_expression(text, kind, names)(facts)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "expected"), [
    ("4.5 + 0.5", 5),
    ("points(winner) / 2", Fraction(25, 2)),
    ("points(winner) / 2 * 2", 25),
    ("1 / 3 + 1 / 3 + 1 / 3", 1),
    ("abs(points(loser) - points(winner))", 13),
    ("min(3, points(loser), 20)", 3),
    ("max(1.5, 0.5)", Fraction(3, 2)),
    ("if(decided, 25, -25)", 25),
    ("if(tie, 1 / 0.5, 7)", 7),
    ("-2.5", Fraction(-5, 2)),
    ("floor(7 / 2)", 3), ("ceil(7 / 2)", 4), ("round(7 / 2)", 4), ("round(-7 / 2)", -3), ("round(3.25)", 3),
    ("floor(-0.5)", -1),
])
def test_exact_arithmetic(text, expected):
    value = run(text)
    assert value == expected and not isinstance(value, float)


def test_whole_results_are_plain_ints():
    assert type(run("points(winner) / 5 * 5")) is int
    assert type(run("1.5 * 2")) is int


@pytest.mark.parametrize(("text", "kind", "code", "hint"), [
    ("points(winner) / 2", "int", "expr-type", "wrap it in floor(), ceil() or round()"),
    ("points(winner) / points(loser)", "number", "expr-divisor", None),
    ("3 / 0", "number", "expr-divisor", None),
    ("if(decided, 1)", "number", "expr-arity", None),
    ("min(1)", "number", "expr-arity", None),
    ("abs(1, 2)", "number", "expr-arity", None),
    ("if(1, 2, 3)", "number", "expr-type", None),
    ("if(decided, winner, 3)", "number", "expr-type", None),
    ("max(winner, 1)", "number", "expr-type", None),
    ("team", "team", "expr-unknown-name", "`team` names each team in turn inside a rule with `for_each: team`"),
    ("absolute(1)", "number", "expr-unknown-name", None),
])
def test_new_forms_are_checked_with_positions(text, kind, code, hint):
    diagnostics = check_expression(text, kind, NAMES)  # type: ignore[arg-type]
    assert [d.code for d in diagnostics] == [code]
    if hint:
        assert diagnostics[0].hint == hint


def test_an_int_fits_where_a_number_is_wanted_and_if_joins_them():
    assert not check_expression("if(decided, 1, 0.5) + 1", "number", NAMES)
    assert check_expression("if(decided, 1, 0.5)", "int", NAMES)[0].code == "expr-type"
    assert not check_expression("if(decided, winner, none)", "team", NAMES)


def test_decimals_print_back_exactly():
    for text in ("4.5", "0.25", "-0.5 * 2", "x / 3"):
        assert to_text(parse_expression(text)) == text
    assert parse_expression("2.50") == Number(Fraction(5, 2))


# ---- definitions

def definitions(**texts):
    return check_definitions([(name, text, None, f"/define/{name}") for name, text in texts.items()], NAMES)


def test_definitions_are_ordered_by_use_and_typed():
    checked = definitions(t="(s * (25 + abs(pts - 41))) * 2", s="if(made, 1, -1)", made="pts >= 41",
                          pts="points(maker) + 0.5")
    assert not checked.diagnostics
    assert [d.name for d in checked.order] == ["pts", "made", "s", "t"]
    assert {d.name: d.kind for d in checked.order} == {"pts": "number", "made": "bool", "s": "int", "t": "number"}
    values: list[object] = []
    facts = FACTS._replace(defined=values)
    for definition in checked.order:
        values.append(definition.fn(facts))
    assert values == [Fraction(25, 2), False, -1, -(25 + Fraction(57, 2)) * 2]


def test_definition_cycles_are_reported_at_the_closing_reference():
    checked = definitions(a="1 + b", b="c * 2", c="a", d="d + 1", e="a + 1")
    cycles = [d for d in checked.diagnostics if d.code == "define-cycle"]
    assert [d.message for d in cycles] == ["definitions a -> b -> c -> a use each other, so none has a value",
                                           "definitions d -> d use each other, so none has a value"]
    assert [d.pointer for d in cycles] == ["/define/c", "/define/d"]
    assert len(checked.diagnostics) == 2  # e, which uses a, is not blamed again


def test_definition_names_may_not_shadow_the_language():
    checked = definitions(winner="1", points="2", ok="3")
    assert [d.code for d in checked.diagnostics] == ["define-reserved", "define-reserved"]


def test_facts_read_follows_definitions():
    texts = {"pts": "points(maker)", "made": "pts >= 41 or tie", "bonus": "5"}
    assert facts_read("if(made, 1, 2)", texts) == {"points", "maker", "tie"}
    assert facts_read("bonus + passes_pending", texts) == {"passes_pending"}


# ---- a ruleset using them: validation positions, compilation, play, explain

def ruleset_file(tmp_path, body: str):
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: couillon\nid: r\nname: R\n{body}", encoding="utf-8")
    return path


def test_a_ruleset_with_definitions_and_for_each_validates_plays_and_explains(tmp_path):
    from couillon_dsl.engine import GameState
    from couillon_dsl.explain import explain

    rs = build_ruleset(ruleset_file(tmp_path, (
        "define:\n"
        "  margin: 'abs(points(winner) - points(loser))'\n"
        "  big: 'margin >= 20'\n"
        "scoring:\n"
        "  big_win: {when: decided, team: winner, delta: 'if(big, -2, -1)'}\n"
        "  each: {for_each: team, when: 'tricks(team) == 0', delta: 1}\n")))
    assert [d.name for d in rs.definitions] == ["margin", "big"]
    assert rs.scoring[-1].reads == {"tricks"}
    assert rs.scoring[2].reads == {"points", "winner", "loser", "decided"}
    for seed in range(20):  # the rollout plays it and remembers scores by the facts read through `big`
        state = GameState(rs)
        state.play_random(random.Random(seed))
        assert state.is_terminal()
        for hand in state.hands:
            if hand.winner is not None:
                margin = abs(hand.points[hand.winner] - hand.points[1 - hand.winner])
                extra = -2 if margin >= 20 else -1  # big_win, on top of the base win rule (-1, tie-scaled)
                assert hand.deltas[hand.winner] == -hand.multiplier + extra + (hand.tricks[hand.winner] == 0)
    prose = explain(rs)
    assert "`big` holds when" in prose or "`big` is" in prose
    assert "each team" in prose


def test_for_each_team_gives_every_team_its_own_delta(tmp_path):
    rs = build_ruleset(ruleset_file(tmp_path, "scoring:\n  maker_loss: {when: false}\n"
                                    "  bank: {for_each: team, delta: 'tricks(team)'}\n"))
    score = rs.tables.score_hand((20, 10), (3, 1), 0, 0, 4, 0, 0, (7, 7), ())
    assert score.winner == 0 and score.deltas == (3 - 1, 1)


def test_a_cycle_in_a_ruleset_is_a_positioned_diagnostic(tmp_path):
    from couillon_dsl.loader import load_ruleset
    from couillon_dsl.validate import check

    diagnostics = check(load_ruleset(ruleset_file(tmp_path, "define:\n  a: 'b + 1'\n  b: 'a'\n")))
    assert [d.code for d in diagnostics] == ["define-cycle"]
    assert (diagnostics[0].span.line, diagnostics[0].span.column) == (6, 7)  # the `a` inside b's text


# ---- the compiled closure agrees with a plain evaluator

def reference(node: Node, facts: HandFacts) -> object:
    """The language's meaning, written independently of the compiler (exact Fractions throughout)."""
    if isinstance(node, Number):
        return Fraction(node.value)
    if isinstance(node, Name):
        return {"winner": facts.winner, "loser": facts.loser, "decided": facts.decided, "tie": facts.tie,
                "passes_pending": Fraction(facts.passes_pending), "tricks_per_hand": Fraction(facts.tricks_per_hand),
                "true": True, "false": False}[node.name]
    if isinstance(node, Unary):
        value = reference(node.operand, facts)
        return (not value) if node.op == "not" else -value  # type: ignore[operator]
    if isinstance(node, Binary):
        if node.op == "and":
            return bool(reference(node.left, facts)) and bool(reference(node.right, facts))
        if node.op == "or":
            return bool(reference(node.left, facts)) or bool(reference(node.right, facts))
        a, b = reference(node.left, facts), reference(node.right, facts)
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b,
                "==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b}[node.op]()  # type: ignore[operator]
    assert isinstance(node, Call)
    args = node.args
    if node.func in ("points", "tricks"):
        team = reference(args[0], facts)
        return Fraction(getattr(facts, node.func)[team]) if team is not None else Fraction(0)
    if node.func == "if":
        return reference(args[1], facts) if reference(args[0], facts) else reference(args[2], facts)
    values = [reference(a, facts) for a in args]
    if node.func == "min":
        return min(values)  # type: ignore[type-var]
    if node.func == "max":
        return max(values)  # type: ignore[type-var]
    if node.func == "abs":
        return abs(values[0])  # type: ignore[arg-type]
    if node.func == "floor":
        return Fraction(math.floor(values[0]))  # type: ignore[arg-type]
    if node.func == "ceil":
        return Fraction(math.ceil(values[0]))  # type: ignore[arg-type]
    assert node.func == "round"
    whole = math.floor(values[0])  # type: ignore[arg-type]
    return Fraction(whole + (1 if values[0] - whole >= Fraction(1, 2) else 0))  # type: ignore[operator]


halves = st.integers(0, 40).map(lambda n: Number(n // 2 if n % 2 == 0 else Fraction(n, 2)))
divisors = st.sampled_from([1, 2, 3, 4, Fraction(1, 2), Fraction(5, 2)]).map(Number)
teams = st.sampled_from([Name("winner"), Name("loser")])


def numbers() -> st.SearchStrategy:
    leaves = st.one_of(halves, st.sampled_from([Name("passes_pending"), Name("tricks_per_hand")]),
                       st.tuples(st.sampled_from(["points", "tricks"]), teams).map(lambda t: Call(t[0], (t[1],))))

    def grow(inner: st.SearchStrategy) -> st.SearchStrategy:
        condition = st.tuples(st.sampled_from(["<", "<=", ">", ">=", "==", "!="]), inner, inner).map(
            lambda t: Binary(*t))
        return st.one_of(
            st.tuples(st.sampled_from(["+", "-", "*"]), inner, inner).map(lambda t: Binary(*t)),
            st.tuples(inner, divisors).map(lambda t: Binary("/", *t)),
            inner.map(lambda n: Unary("-", n)),
            st.tuples(st.sampled_from(["abs", "floor", "ceil", "round"]), inner).map(lambda t: Call(t[0], (t[1],))),
            st.tuples(st.sampled_from(["min", "max"]), st.lists(inner, min_size=2, max_size=3)).map(
                lambda t: Call(t[0], tuple(t[1]))),
            st.tuples(condition, inner, inner).map(lambda t: Call("if", t)),
            st.tuples(st.sampled_from(["and", "or"]), condition, condition).map(
                lambda t: Call("if", (Binary(*t), Number(1), Number(0)))),
        )

    return st.recursive(leaves, grow, max_leaves=10)


facts = st.builds(
    lambda w, p, q, a, b, passes: HandFacts(winner=w, loser=None if w is None else 1 - w, decided=w is not None,
                                            points=(p, q), tricks=(a, b), passes_pending=passes, tricks_per_hand=a + b),
    st.sampled_from([0, 1, None]), st.integers(0, 91), st.integers(0, 91), st.integers(0, 9), st.integers(0, 9),
    st.integers(0, 3))


@settings(max_examples=300, deadline=None)
@given(numbers(), facts)
def test_compiled_closures_agree_with_a_plain_evaluator(tree, hand):
    text = to_text(tree)
    fn = compile_expression(text, "number", NAMES)
    value = fn(hand)
    assert not isinstance(value, float)
    assert value == reference(parse_expression(text), hand)


def test_a_rule_takes_team_or_for_each_not_both(tmp_path):
    from couillon_dsl.loader import load_ruleset
    from couillon_dsl.validate import check

    [both] = check(load_ruleset(ruleset_file(tmp_path, "scoring:\n  bank: {for_each: team, team: winner, delta: 1}\n")))
    assert both.code == "schema-additional-property" and "not both" in both.message
    assert (both.span.line, both.span.column) == (5, 10)
