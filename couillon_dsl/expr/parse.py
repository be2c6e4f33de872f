"""Parse scoring expressions into a small AST, and print an AST back as text.

The grammar is data (``expr.lark``); one LALR parser is built on first use. Syntax errors
become an :class:`ExpressionError` with the 1-based line and column inside the expression
and a label chosen by matching the failure against a table of known-bad snippets (lark's
``match_examples``), so messages say "a parenthesis is not closed" rather than listing
terminals.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any, Union

from couillon_dsl.diagnostics import did_you_mean

GRAMMAR = Path(__file__).with_name("expr.lark")


@dataclass(frozen=True)
class Pos:
    """Where a node is inside the expression text (1-based; end exclusive)."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True, slots=True)
class Number:
    value: int | Fraction  # a Fraction only when not whole (`4.5`); exact, never a float
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class String:
    value: str
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Name:
    name: str
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Call:
    func: str
    args: tuple["Node", ...]
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "not" | "-"
    operand: "Node"
    pos: Pos | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # "or" "and" "==" "!=" "<" "<=" ">" ">=" "+" "-" "*" "/"
    left: "Node"
    right: "Node"
    pos: Pos | None = field(default=None, compare=False)


Node = Union[Number, String, Name, Call, Unary, Binary]


class ExpressionError(Exception):
    """A problem at a position inside an expression; turned into a Diagnostic by the caller."""

    def __init__(self, code: str, message: str, pos: Pos | None, hint: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.pos, self.hint = code, message, pos, hint


# Known-bad snippets -> what went wrong (matched on the parser state, lark's match_examples).
SYNTAX_EXAMPLES: dict[str, list[str]] = {
    "an operand is missing after the operator": ["decided and", "decided or", "not", "1 +", "1 *", "winner ==", "-"],
    "a parenthesis is not closed": ["(decided", "points(winner", "points(winner, 1", "(1 + 2"],
    "an operator is missing between two values": ["decided winner", "1 2", "points(winner) tie", "(a) b", '"a" b'],
    "comparisons cannot be chained; join two comparisons with `and`": ["1 < 2 < 3", "a == b == c", "a != b < c"],
    "a closing parenthesis has no opening one": ["decided)", "1 + 2)", "a and b)"],
    "an operand is missing before the operator": ["and decided", "or a", "== winner", "* 2", "(and a)"],
}
_CHARACTER_HINTS = {"=": "compare with `==`", "&": "write `and`", "|": "write `or`", "!": "write `not` (or `!=`)",
                    "'": 'quote strings with double quotes: "mit"'}


def _cache_file() -> str | bool:
    """Where lark may keep its grammar analysis (it saves ~60 ms of start-up).

    A per-user folder rather than lark's default shared temp folder, since lark reads the
    cache with pickle; lark checks the grammar's hash on every read.
    """
    from couillon_dsl.expr.cache import cache_folder

    folder = cache_folder()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return str(folder / "expr-grammar.cache")


@lru_cache(maxsize=1)
def _parser() -> Any:
    from lark import Lark

    # The basic lexer keeps `and`/`or`/`not` keywords everywhere, never names.
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="basic", propagate_positions=True,
                cache=_cache_file())


def _pos(meta_or_token: Any) -> Pos:
    item = meta_or_token
    return Pos(item.line, item.column, item.end_line, item.end_column)


MAX_NESTING = 100  # operators inside operators; every later walk (checks, closures, explain) recurses per level


def _build(tree: Any, depth: int = 0) -> Node:
    """Turn lark's tree into AST nodes, refusing more than :data:`MAX_NESTING` levels so that
    nothing downstream of the parser can exhaust the Python stack."""
    kind = tree.data
    pos = _pos(tree.meta)
    if depth > MAX_NESTING:
        raise ExpressionError("expr-syntax", f"the expression is nested more than {MAX_NESTING} levels deep", pos,
                              "split it into several scoring rules")
    children = tree.children
    depth += 1
    if kind == "number":
        return Number(exact(Fraction(str(children[0]))), pos)
    if kind == "string":
        return String(str(children[0])[1:-1], pos)
    if kind == "name":
        return Name(str(children[0]), pos)
    if kind == "call":
        args = tuple(_build(c, depth) for c in children[1:] if c is not None)
        return Call(str(children[0]), args, pos)
    if kind == "not_op":
        return Unary("not", _build(children[0], depth), pos)
    if kind == "negate":
        return Unary("-", _build(children[-1], depth), pos)
    if kind in ("or_op", "and_op"):
        return Binary(kind[:-3], _build(children[0], depth), _build(children[1], depth), pos)
    left, op, right = children
    return Binary(str(op), _build(left, depth), _build(right, depth), pos)


MAX_LENGTH = 2000  # characters; scoring expressions are one line long


def parse_expression(text: str) -> Node:
    """Parse expression text into an AST; raises ExpressionError (code ``expr-syntax``).

    An expression parsed in an earlier run comes from :mod:`couillon_dsl.expr.cache`."""
    from couillon_dsl.expr import cache

    if len(text) > MAX_LENGTH:
        raise ExpressionError("expr-syntax", f"the expression is longer than {MAX_LENGTH} characters", Pos(1, 1, 1, 2))
    if not text.strip():
        raise ExpressionError("expr-syntax", "the expression is empty", Pos(1, 1, 1, 2), "write e.g. `decided`")
    known = cache.cached(text)
    if known is not None:
        return known
    node = _parse(text)
    cache.remember(text, node)
    return node


def _parse(text: str) -> Node:
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    parser = _parser()
    try:
        tree = parser.parse(text)
    except UnexpectedCharacters as exc:
        at = exc.pos_in_stream or 0
        char = text[at] if at < len(text) else ""
        hint = _CHARACTER_HINTS.get(char)
        if char.isupper():
            hint = "names are lower case"
        raise ExpressionError("expr-syntax", f"unexpected character {char!r}", Pos(exc.line, exc.column, exc.line, exc.column + 1), hint) from None
    except UnexpectedInput as exc:
        label = exc.match_examples(parser.parse, SYNTAX_EXAMPLES, use_accepts=True)
        token = getattr(exc, "token", None)
        at_end = isinstance(exc, UnexpectedToken) and token is not None and token.type == "$END"
        if at_end:
            line, column = _end(text)
            found = "the expression ends too early"
        else:
            line, column = exc.line, exc.column
            found = f"unexpected {str(token)!r}" if token is not None else "unexpected input"
        message = f"{found}: {label}" if label else found
        width = len(str(token)) if token is not None and not at_end else 1
        hint = did_you_mean(token, ("and", "or", "not")) if token is not None and token.type == "NAME" else None
        raise ExpressionError("expr-syntax", message, Pos(line, column, line, column + width), hint or _expected(exc)) from None
    except RecursionError:
        raise ExpressionError("expr-syntax", "the expression is nested too deeply", Pos(1, 1, 1, 2)) from None
    try:
        return _build(tree)
    except RecursionError:
        raise ExpressionError("expr-syntax", "the expression is nested too deeply", Pos(1, 1, 1, 2)) from None


def _end(text: str) -> tuple[int, int]:
    stripped = text.rstrip()
    line = stripped.count("\n") + 1
    return line, len(stripped) - (stripped.rfind("\n") + 1) + 1


_TERMINALS = {"NAME": "a name", "NUMBER": "a number", "STRING": 'a "string"', "LPAR": "'('", "RPAR": "')'",
              "COMMA": "','", "COMPARISON": "a comparison", "PLUS": "'+'", "TIMES": "'*'", "DIVIDE": "'/'",
              "MINUS": "'-'", "OR": "'or'", "AND": "'and'", "NOT": "'not'", "$END": "the end"}


def _expected(exc: Any) -> str | None:
    expected = sorted({_TERMINALS.get(t, t) for t in (getattr(exc, "expected", None) or ())})
    return f"expected {', '.join(expected)}" if expected else None


# Binding strength, loosest first; a child printed inside a tighter parent gets parentheses.
_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6}
_UNARY, _ATOM = 7, 8


def exact(value: Fraction) -> int | Fraction:
    """A whole Fraction as an int, so that integer arithmetic stays plain ints."""
    return value.numerator if value.denominator == 1 else value


def decimal_text(value: int | Fraction) -> str:
    """A number as written: ``4.5``; a fraction that no decimal writes exactly as ``(1 / 3)``."""
    if isinstance(value, int):
        return str(value)
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator, twos = denominator // 2, twos + 1
    while denominator % 5 == 0:
        denominator, fives = denominator // 5, fives + 1
    if denominator != 1:
        return f"({value.numerator} / {value.denominator})"
    places = max(twos, fives)
    whole, rest = divmod(abs(value.numerator) * 10 ** places // value.denominator, 10 ** places)
    return f"{'-' if value < 0 else ''}{whole}.{rest:0{places}d}"


def _strength(node: Node) -> int:
    if isinstance(node, Binary):
        return _PRECEDENCE[node.op]
    if isinstance(node, Unary):
        return _PRECEDENCE["not"] if node.op == "not" else _UNARY
    return _ATOM


def to_text(node: Node) -> str:
    """Print an AST as expression text that parses back to an equal AST."""
    def wrap(child: Node, minimum: int) -> str:
        text = to_text(child)
        return f"({text})" if _strength(child) < minimum else text

    if isinstance(node, Number):
        return decimal_text(node.value)
    if isinstance(node, String):
        return f'"{node.value}"'
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Call):
        return f"{node.func}({', '.join(to_text(a) for a in node.args)})"
    if isinstance(node, Unary):
        return f"not {wrap(node.operand, _PRECEDENCE['not'])}" if node.op == "not" else f"-{wrap(node.operand, _UNARY)}"
    level = _PRECEDENCE[node.op]
    comparison = level == _PRECEDENCE["=="]
    left = wrap(node.left, level + 1 if comparison else level)
    return f"{left} {node.op} {wrap(node.right, level + 1)}"
