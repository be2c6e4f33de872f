"""The scoring expression language: grammar (``expr.lark``), parser, name/type checks, closures.

``compile_expression(text, kind, names, span)`` is what the compiler calls;
``check_expression`` is what validation calls; ``check_definitions`` orders, checks and
compiles a ruleset's named definitions (both call it); ``HandFacts`` is what the engine builds after
a hand and passes to the compiled closures.
"""
from couillon_dsl.expr.compile import (
    CONSTANTS,
    EACH_SEAT,
    EACH_TEAM,
    FUNCTIONS,
    OPERATIONS,
    OUTCOME_FACTS,
    VARIABLES,
    CheckedDefinitions,
    Definition,
    ExprNames,
    HandFacts,
    check_definitions,
    check_expression,
    compile_expression,
    facts_read,
)
from couillon_dsl.expr.parse import ExpressionError, parse_expression, to_text

__all__ = [
    "CONSTANTS",
    "EACH_SEAT",
    "EACH_TEAM",
    "FUNCTIONS",
    "OPERATIONS",
    "OUTCOME_FACTS",
    "VARIABLES",
    "CheckedDefinitions",
    "Definition",
    "ExprNames",
    "ExpressionError",
    "HandFacts",
    "check_definitions",
    "check_expression",
    "compile_expression",
    "facts_read",
    "parse_expression",
    "to_text",
]
