"""Check scoring expressions against the names the engine exposes, and compile them to closures.

Name resolution, argument counts and types are settled here, once, with positions; the
engine then only calls ``fn(facts)`` on a finished hand. No eval: every node becomes a
small Python closure.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Literal, Mapping, NamedTuple

from couillon_dsl.diagnostics import Diagnostic, RulesetError, Span, did_you_mean, error
from couillon_dsl.expr.parse import Binary, Call, ExpressionError, Name, Node, Number, Pos, String, Unary, parse_expression

Kind = Literal["bool", "int", "team"]
Evaluator = Callable[["HandFacts"], Any]


class HandFacts(NamedTuple):
    """What scoring expressions may read about a finished hand; teams are ints, None is `none`.

    A NamedTuple rather than a dataclass: the engine builds one per hand in its hot loop.
    """

    winner: int | None = None
    loser: int | None = None
    maker: int | None = None
    dealer_team: int | None = None
    elder_team: int | None = None
    decided: bool = False
    tie: bool = False
    no_score: bool = False
    all_tricks: bool = False
    tricks_per_hand: int = 0
    points_in_play: int = 0
    passes_pending: int = 0
    ties_pending: int = 0
    points: tuple[int, ...] = ()
    tricks: tuple[int, ...] = ()
    announcers: Mapping[str, int] = MappingProxyType({})  # announcement id -> team that made it
    options: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class ExprNames:
    """The ruleset-specific part of the name table: declared announcements, options, team count."""

    announcements: frozenset[str] = frozenset()
    options: Mapping[str, str] = field(default_factory=dict)  # option name -> bool | int | str | any
    team_count: int = 2


# name -> type; every variable is an attribute of HandFacts of the same name.
VARIABLES: dict[str, str] = {
    "winner": "team", "loser": "team", "maker": "team", "dealer_team": "team", "elder_team": "team",
    "decided": "bool", "tie": "bool", "no_score": "bool", "all_tricks": "bool",
    "tricks_per_hand": "int", "points_in_play": "int", "passes_pending": "int", "ties_pending": "int",
}
CONSTANTS: dict[str, tuple[str, Any]] = {"none": ("team", None), "true": ("bool", True), "false": ("bool", False)}
# name -> (parameter kinds, result type); "announcement"/"option" take a quoted id.
FUNCTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "points": (("team",), "int"),
    "tricks": (("team",), "int"),
    "announced": (("announcement",), "bool"),
    "announcer": (("announcement",), "team"),
    "opponents": (("team",), "team"),
    "option": (("option",), "any"),
}
_TYPE_WORDS = {"bool": "a true/false value", "int": "a number", "team": "a team", "str": "a string", "any": "a value"}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}


# the HandFacts field each function reads
_FUNCTION_FACTS = {"points": "points", "tricks": "tricks", "announced": "announcers", "announcer": "announcers",
                   "option": "options"}


def facts_read(text: str) -> frozenset[str]:
    """The HandFacts fields a (checked) expression reads: what its value can depend on."""
    found: set[str] = set()
    stack: list[Node] = [parse_expression(text)]
    while stack:
        node = stack.pop()
        if isinstance(node, Name) and node.name in VARIABLES:
            found.add(node.name)
        elif isinstance(node, Call):
            if node.func in _FUNCTION_FACTS:
                found.add(_FUNCTION_FACTS[node.func])
            stack.extend(node.args)
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack.extend((node.left, node.right))
    return frozenset(found)


def _fits(actual: str, wanted: str) -> bool:
    return actual == wanted or "any" in (actual, wanted)


class _Checker:
    """Types every node and builds its closure; a node with a problem gets no closure, so its
    parents stay quiet and each mistake is reported once."""

    def __init__(self, names: ExprNames) -> None:
        self.names = names
        self.problems: list[ExpressionError] = []

    def fail(self, code: str, message: str, node: Node, hint: str | None = None) -> tuple[str, None]:
        self.problems.append(ExpressionError(code, message, node.pos, hint))
        return "any", None

    def expect(self, node: Node, wanted: str, what: str) -> Evaluator | None:
        """The closure of ``node`` when it has type ``wanted`` (``what`` names the place in the message)."""
        kind, fn = self.visit(node)
        if fn is not None and not _fits(kind, wanted):
            self.fail("expr-type", f"{what} needs {_TYPE_WORDS[wanted]}, but this is {_TYPE_WORDS[kind]}", node)
            return None
        return fn

    def visit(self, node: Node) -> tuple[str, Evaluator | None]:
        """The type of ``node`` and its closure (None once a problem was found inside it)."""
        if isinstance(node, Number):
            value = node.value
            return "int", lambda facts: value
        if isinstance(node, String):
            text = node.value
            return "str", lambda facts: text
        if isinstance(node, Name):
            return self.name(node)
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Unary):
            if node.op == "not":
                negated = self.expect(node.operand, "bool", "`not`")
                return "bool", (lambda facts: not negated(facts)) if negated else None
            inner = self.expect(node.operand, "int", "`-`")
            return "int", (lambda facts: -inner(facts)) if inner else None
        return self.binary(node)

    def name(self, node: Name) -> tuple[str, Evaluator | None]:
        if node.name in CONSTANTS:
            kind, value = CONSTANTS[node.name]
            return kind, lambda facts: value
        if node.name in VARIABLES:
            return VARIABLES[node.name], operator.attrgetter(node.name)
        if node.name in FUNCTIONS:
            return self.fail("expr-type", f"{node.name} is a function; call it: {node.name}(...)", node)
        known = [*VARIABLES, *CONSTANTS, *FUNCTIONS]
        hint = did_you_mean(node.name, known) or f"names: {', '.join(known)}"
        return self.fail("expr-unknown-name", f"unknown name '{node.name}'", node, hint)

    def call(self, node: Call) -> tuple[str, Evaluator | None]:
        if node.func not in FUNCTIONS:
            hint = did_you_mean(node.func, FUNCTIONS) or f"functions: {', '.join(FUNCTIONS)}"
            return self.fail("expr-unknown-name", f"unknown function '{node.func}'", node, hint)
        params, result = FUNCTIONS[node.func]
        if len(node.args) != len(params):
            return self.fail("expr-arity", f"{node.func}() takes {len(params)} argument, not {len(node.args)}", node)
        arg, param = node.args[0], params[0]
        if param in ("announcement", "option"):
            return self.keyed(node, arg, param, result)
        if node.func == "opponents" and self.names.team_count != 2:
            return self.fail("expr-type", "opponents() needs a game with exactly two teams", node)
        team = self.expect(arg, "team", f"{node.func}()")
        if team is None:
            return result, None
        if node.func == "opponents":
            return result, lambda facts: None if (t := team(facts)) is None else 1 - t
        table = operator.attrgetter(node.func)  # points / tricks: a tuple per team; none has none
        return result, lambda facts: 0 if (t := team(facts)) is None else table(facts)[t]

    def keyed(self, node: Call, arg: Node, param: str, result: str) -> tuple[str, Evaluator | None]:
        """``announced("mit")``, ``announcer("mit")``, ``option("lines")``: the id must be quoted and declared."""
        if not isinstance(arg, String):
            return self.fail("expr-type", f"{node.func}() takes a quoted {param} id, e.g. {node.func}(\"mit\")", arg)
        key = arg.value
        declared = self.names.announcements if param == "announcement" else self.names.options
        if key not in declared:
            listed = ", ".join(sorted(declared)) or "none"
            return self.fail(f"unknown-{param}", f"no {param} '{key}' is declared", arg,
                             did_you_mean(key, declared) or f"declared: {listed}")
        if node.func == "announced":
            return result, lambda facts: key in facts.announcers
        if node.func == "announcer":
            return result, lambda facts: facts.announcers.get(key)
        return self.names.options[key], lambda facts: facts.options[key]

    def binary(self, node: Binary) -> tuple[str, Evaluator | None]:
        op = node.op
        if op in ("and", "or"):
            left = self.expect(node.left, "bool", f"`{op}`")
            right = self.expect(node.right, "bool", f"`{op}`")
            if left is None or right is None:
                return "bool", None
            if op == "and":
                return "bool", lambda facts: bool(left(facts) and right(facts))
            return "bool", lambda facts: bool(left(facts) or right(facts))
        if op in ("==", "!="):
            (lkind, left), (rkind, right) = self.visit(node.left), self.visit(node.right)
            if left is not None and right is not None and not _fits(lkind, rkind):
                return self.fail("expr-type", f"`{op}` compares {_TYPE_WORDS[lkind]} with {_TYPE_WORDS[rkind]}", node)
        else:
            left = self.expect(node.left, "int", f"`{op}`")
            right = self.expect(node.right, "int", f"`{op}`")
        result = "int" if op in _ARITH else "bool"
        if left is None or right is None:
            return result, None
        function = _COMPARE.get(op) or _ARITH[op]
        return result, lambda facts: function(left(facts), right(facts))


def _span(span: Span | None, pos: Pos | None) -> Span | None:
    """Place a position inside the expression in the file, counting from the text's first character."""
    if span is None or pos is None:
        return span
    return Span(span.file, span.line + pos.line - 1, span.column + pos.column - 1,
                span.line + pos.end_line - 1, span.column + pos.end_column - 1)


def _compile(text: str, kind: Kind, names: ExprNames, span: Span | None, pointer: str) -> tuple[Evaluator | None, list[Diagnostic]]:
    try:
        tree = parse_expression(text)
    except ExpressionError as problem:
        return None, [error(problem.code, problem.message, _span(span, problem.pos), pointer, problem.hint)]
    checker = _Checker(names)
    fn = checker.expect(tree, kind, "this field")
    diagnostics = [error(p.code, p.message, _span(span, p.pos), pointer, p.hint) for p in checker.problems]
    return (fn if not diagnostics else None), diagnostics


def check_expression(text: str, kind: Kind, names: ExprNames, span: Span | None = None, pointer: str = "") -> list[Diagnostic]:
    """Diagnostics for one expression (syntax, names, arity, types); empty when it is fine."""
    return _compile(text, kind, names, span, pointer)[1]


def compile_expression(text: str, kind: Kind, names: ExprNames, span: Span | None = None) -> Evaluator:
    """Compile an expression to ``fn(facts: HandFacts)``; raises RulesetError when it does not check."""
    fn, diagnostics = _compile(text, kind, names, span, "")
    if fn is None:
        raise RulesetError(diagnostics)
    return fn
