"""Scoring expressions: grammar, error labels and positions, name/type checks, evaluation, round trip."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.diagnostics import RulesetError, Span
from couillon_dsl.expr import (
    CONSTANTS,
    FUNCTIONS,
    VARIABLES,
    ExpressionError,
    ExprNames,
    HandFacts,
    check_expression,
    compile_expression,
    parse_expression,
    to_text,
)
from couillon_dsl.expr.parse import SYNTAX_EXAMPLES, Binary, Call, Name, Number, String, Unary

NAMES = ExprNames(announcements=frozenset({"mit", "kontra"}), options={"lines": "int", "strict": "bool"})
FACTS = HandFacts(winner=0, loser=1, maker=1, dealer_team=1, elder_team=0, decided=True, points=(25, 12),
                  tricks=(3, 1), announcers={"mit": 0}, passes_pending=2, options={"lines": 7, "strict": True})


def run(text: str, kind: str = "bool", facts: HandFacts = FACTS) -> object:
    return compile_expression(text, kind, NAMES)(facts)  # type: ignore[arg-type]


def test_precedence_and_associativity():
    assert parse_expression("a or b and not c") == Binary("or", Name("a"), Binary("and", Name("b"), Unary("not", Name("c"))))
    assert parse_expression("1 - 2 - 3") == Binary("-", Binary("-", Number(1), Number(2)), Number(3))
    assert parse_expression("-1 * 2 + 3") == Binary("+", Binary("*", Unary("-", Number(1)), Number(2)), Number(3))
    assert parse_expression('announced("mit")') == Call("announced", (String("mit"),))


def test_keywords_are_never_names():
    assert parse_expression("order or notable") == Binary("or", Name("order"), Name("notable"))
    with pytest.raises(ExpressionError):
        parse_expression("and")


def test_positions_are_one_based_within_the_text():
    tree = parse_expression("decided and maker != none")
    assert isinstance(tree, Binary)
    assert (tree.right.pos.line, tree.right.pos.column, tree.right.pos.end_column) == (1, 13, 26)


@pytest.mark.parametrize(
    ("text", "kind", "expected"),
    [
        ("decided and maker != none and loser == maker", "bool", True),
        ("decided and maker != none and winner == maker", "bool", False),
        ("-passes_pending", "int", -2),
        ("points(winner) - points(loser) * 2", "int", 1),
        ("tricks(winner) == 3 and tricks(loser) < 2", "bool", True),
        ('winner == announcer("mit")', "bool", True),
        ('announced("kontra")', "bool", False),
        ('announcer("kontra") == none', "bool", True),
        ("opponents(winner)", "team", 1),
        ("opponents(none)", "team", None),
        ("points(none)", "int", 0),
        ('option("lines") + 1', "int", 8),
        ('option("strict") and true', "bool", True),
        ("not (tie or no_score)", "bool", True),
        ("elder_team", "team", 0),
        ("(1 + 2) * 3", "int", 9),
        ("pow(2, passes_pending) * 5", "int", 20),
        ("pow(2, -passes_pending)", "int", 1),
        ("pow(2, 1000)", "int", 2 ** 64),
    ],
)
def test_evaluation(text, kind, expected):
    assert run(text, kind) == expected


def test_tricks_at_reads_the_tricks_when_the_announcement_was_made_and_the_hands_when_it_was_not():
    facts = FACTS._replace(announced_tricks=(("mit", (1, 0)),))
    assert compile_expression('tricks_at("mit", loser)', "int", NAMES)(facts) == 0  # type: ignore[arg-type]
    assert compile_expression('tricks_at("mit", winner)', "int", NAMES)(facts) == 1  # type: ignore[arg-type]
    assert compile_expression('tricks_at("kontra", winner)', "int", NAMES)(facts) == 3  # type: ignore[arg-type]
    assert compile_expression('tricks_at("kontra", none)', "int", NAMES)(facts) == 0  # type: ignore[arg-type]


@pytest.mark.parametrize(("label", "examples"), sorted(SYNTAX_EXAMPLES.items()))
def test_every_syntax_label_is_produced_by_its_examples(label, examples):
    for example in examples:
        with pytest.raises(ExpressionError) as excinfo:
            parse_expression(example)
        assert excinfo.value.code == "expr-syntax"
        assert label in excinfo.value.message, example


@pytest.mark.parametrize(
    ("text", "column", "hint"),
    [
        ("a = b", 3, "compare with `==`"),
        ("a && b", 3, "write `and`"),
        ("'mit'", 1, 'quote strings with double quotes: "mit"'),
        ("decided andd tie", 9, "did you mean 'and'?"),
        ("Winner", 1, "names are lower case"),
    ],
)
def test_syntax_errors_point_at_the_problem(text, column, hint):
    with pytest.raises(ExpressionError) as excinfo:
        parse_expression(text)
    assert excinfo.value.pos.column == column
    assert excinfo.value.hint == hint


def test_unclosed_parenthesis_points_at_the_end():
    with pytest.raises(ExpressionError) as excinfo:
        parse_expression("(decided  ")
    assert "ends too early" in excinfo.value.message
    assert excinfo.value.pos.column == 9


@pytest.mark.parametrize(
    ("text", "kind", "code", "column"),
    [
        ("decidd", "bool", "expr-unknown-name", 1),
        ("decided and pointz(winner) > 2", "bool", "expr-unknown-name", 13),
        ("winner", "bool", "expr-type", 1),
        ("decided", "int", "expr-type", 1),
        ("1 + decided", "int", "expr-type", 5),
        ("winner == 1", "bool", "expr-type", 1),
        ("points", "int", "expr-type", 1),
        ("announced(mit)", "bool", "expr-type", 11),
        ("points(winner, loser)", "int", "expr-arity", 1),
        ("pow(2)", "int", "expr-arity", 1),
        ("pow(2, 0.5)", "int", "expr-type", 8),
        ('announced("mitt")', "bool", "unknown-announcement", 11),
        ('tricks_at("mitt", winner) == 0', "bool", "unknown-announcement", 11),
        ('tricks_at("mit", 1) == 0', "bool", "expr-type", 18),
        ('option("line") > 1', "bool", "unknown-option", 8),
        ("", "bool", "expr-syntax", 1),
    ],
)
def test_name_and_type_errors(text, kind, code, column):
    [diagnostic] = check_expression(text, kind, NAMES, Span("f.yaml", 10, 11))  # type: ignore[arg-type]
    assert diagnostic.code == code
    assert (diagnostic.span.line, diagnostic.span.column) == (10, 10 + column)


def test_unknown_names_suggest_close_ones():
    [d] = check_expression("decided and makr != none", "bool", NAMES)
    assert d.hint == "did you mean 'maker'?"
    [d] = check_expression('announced("mitt")', "bool", NAMES)
    assert d.hint == "did you mean 'mit'?"


def test_errors_in_later_lines_of_a_literal_block_are_placed_there():
    [d] = check_expression("decided and\nmakr", "bool", NAMES, Span("f", 5, 5))
    assert (d.span.line, d.span.column) == (6, 5)


def test_opponents_needs_two_teams():
    [d] = check_expression("opponents(winner)", "team", ExprNames(team_count=3))
    assert d.code == "expr-type"


def test_compile_raises_with_all_diagnostics():
    with pytest.raises(RulesetError) as excinfo:
        compile_expression("foo and bar", "bool", NAMES)
    assert [d.code for d in excinfo.value.diagnostics] == ["expr-unknown-name", "expr-unknown-name"]


def test_huge_and_deep_expressions_are_refused_cleanly():
    with pytest.raises(ExpressionError):
        parse_expression("1 + " * 1000 + "1")
    with pytest.raises(ExpressionError):
        parse_expression("-" * 1500 + "1")


@pytest.mark.parametrize("text", ["1 + " * 400 + "1", "-" * 600 + "1", "not " * 300 + "decided"])
def test_nesting_short_enough_to_parse_but_too_deep_to_check_is_a_diagnostic(text):
    [diagnostic] = check_expression(text, "int" if "decided" not in text else "bool", NAMES)
    assert diagnostic.code == "expr-syntax" and "nested" in diagnostic.message


# ---- round trip: AST -> text -> AST

identifiers = st.sampled_from([*VARIABLES, *CONSTANTS, "x", "orbit", "notable", "and_also"])
strings = st.text(alphabet="abcdefghijklmnopqrstuvwxyz _-", max_size=8)


def trees() -> st.SearchStrategy:
    leaves = st.one_of(st.integers(0, 10**6).map(Number), strings.map(String), identifiers.map(Name))
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.tuples(st.sampled_from(["or", "and", "==", "!=", "<", "<=", ">", ">=", "+", "-", "*"]), inner, inner)
            .map(lambda t: Binary(*t)),
            st.tuples(st.sampled_from(["not", "-"]), inner).map(lambda t: Unary(*t)),
            st.tuples(st.sampled_from(sorted(FUNCTIONS)), st.lists(inner, max_size=3))
            .map(lambda t: Call(t[0], tuple(t[1]))),
        ),
        max_leaves=12,
    )


@settings(max_examples=300, deadline=None)
@given(trees())
def test_expression_text_expression_round_trip(tree):
    text = to_text(tree)
    assert parse_expression(text) == tree
    assert to_text(parse_expression(text)) == text
