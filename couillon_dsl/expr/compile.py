"""Check scoring expressions against the names the engine exposes, and compile them to closures.

Name resolution, argument counts and types are settled here, once, with positions; the
engine then only calls ``fn(facts)`` on a finished hand. No eval: every node becomes a
small Python closure.

Numbers are exact: ints, and :class:`fractions.Fraction` where a value is not whole (a
literal ``4.5``, a division). The type ``int`` promises a whole number, ``number`` any
exact one; a score delta must be an ``int``, so a fractional value reaches a scoresheet
only through ``floor``/``ceil``/``round``, and never as a float.

Named definitions (the ruleset's ``define:`` block) are checked here too: their order of
evaluation, cycles and types (:func:`check_definitions`); the engine evaluates them once
per scored hand into ``HandFacts.defined``.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from dataclasses import replace as dataclass_replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, Iterable, Iterator, Literal, Mapping, NamedTuple, Sequence

from couillon_dsl.cards import iter_bits
from couillon_dsl.diagnostics import Diagnostic, RulesetError, Span, TextSpan, did_you_mean, error
from couillon_dsl.expr.parse import (
    Binary, Call, ExpressionError, Name, Node, Number, Pos, String, Unary, exact, parse_expression,
)

Kind = Literal["bool", "int", "number", "team"]
Evaluator = Callable[["HandFacts"], Any]


class HandFacts(NamedTuple):
    """What scoring expressions may read about a finished hand; teams are ints, None is `none`.

    A NamedTuple rather than a dataclass: the engine builds one per hand in its hot loop.
    ``defined`` holds the values of the ruleset's definitions, filled in order as they are
    evaluated; ``each_team`` is the team a `for_each: team` rule is being applied to.
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
    defined: Sequence[Any] = ()
    each_team: int | None = None
    declared: tuple[tuple[int, ...], ...] = ()  # declaration index -> points each team keeps (after the award)
    contract: str | None = None  # the contract's id (rulesets with `contracts`), else None
    multiplier: int = 1  # the contract's multiplier for the trump fixed (1 without contracts)
    won: tuple[int, ...] = ()  # team -> the mask of the cards its tricks took (card roles applied)
    last_trick_winner: int | None = None
    last_trick_cards: int = 0  # the mask of the last trick's cards
    # per trick in play order: (its cards' mask, the team that took it, the card that took it)
    trick_log: tuple[tuple[int, int | None, int], ...] = ()
    bids: tuple[int, ...] = ()  # team -> the tricks its seats bid (rulesets with `bids`)
    seat_tricks: tuple[int, ...] = ()  # seat -> the tricks it took (scoring that reads a seat)
    seat_bids: tuple[int, ...] = ()  # seat -> the tricks it bid
    seat_sides: tuple[int, ...] = ()  # seat -> its team (its side in this hand)
    each_seat: int | None = None  # the seat a `for_each: seat` rule is being applied to
    held: tuple[int, ...] = ()  # team -> the mask of the cards its seats held at the start of play
    trump: int = -1  # the trump suit's index (-1: none): what a card set's trump cards (`AT`) stand for
    scores: tuple[int, ...] = ()  # team -> its score on the scoresheet before the hand
    bid_value: int = 0  # the value a numeric auction was won at (`trump.auction.values`; 0: none)
    kitty_taken: bool = False  # the declarer took the kitty into his hand this hand
    # team -> how many of the hand's highest trumps in a row it held (its kitty or discard included, where
    # they count for it) from the top one down, or lacked when it lacked the top one (0 without trumps)
    top_runs: tuple[int, ...] = ()
    doubled: int = 1  # the level the auction's last bid was doubled to (`trump.auction.doubling`; 1: not)
    seat_blinds: tuple[bool, ...] = ()  # seat -> it bid before looking at its cards (`bids.blind`); () when none did
    # team -> the mask of the cards its tricks took that a player of another side played (`captured`)
    captured: tuple[int, ...] = ()
    # per trick in play order: (its card points, the team that took it) (`tricks_worth`)
    trick_values: tuple[tuple[int | Fraction, int | None], ...] = ()
    # the sides with a seat in play, when a seat sat the hand out (a dealer sitting out is a side of his own in
    # a hand where each seat plays for itself); (): every side
    sides_in_play: tuple[int, ...] = ()
    declarer: int | None = None  # the seat that declared (fixed the trump or the contract), None: nobody did
    hand_number: int = 0  # this deal's number in the game, 1 for the first, thrown-in deals counted
    # (announcement id, each team's tricks when it was made) per announcement made this hand, in order
    announced_tricks: tuple[tuple[str, tuple[int, ...]], ...] = ()
    tallies: tuple[tuple[int, ...], ...] = ()  # per tally (the `tallies` section), each team's count before the hand
    seat_held: tuple[int, ...] = ()  # seat -> the mask of the cards it held at the start of play
    # card -> its strength in the hand's order (every trump above every plain card, a plain card by its place in
    # its suit), which `holder_of_highest` and its kin read; () in a hand valued without it
    card_keys: tuple[int, ...] = ()
    # announcement id -> how many times it was made this hand (one per seat for an announcement a deal step asks)
    announced_times: Mapping[str, int] = MappingProxyType({})


@dataclass(frozen=True)
class ExprNames:
    """The ruleset-specific part of the name table: announcements, options, team count, definitions.

    ``definitions`` maps a definition's name to (its index in ``HandFacts.defined``, its
    type); ``bound`` lists the names a rule binds (``team`` inside a `for_each: team` rule).
    """

    announcements: frozenset[str] = frozenset()
    options: Mapping[str, str] = field(default_factory=dict)  # option name -> bool | int | str | any
    team_count: int = 2
    definitions: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    bound: frozenset[str] = frozenset()
    declarations: tuple[str, ...] = ()  # declaration ids, in the order of HandFacts.declared
    tallies: tuple[str, ...] = ()  # tally names, in the order of HandFacts.tallies
    whole_points: bool = True  # False when the pack has half points: points() is then a `number`
    # deck.card_sets: name -> mask (0 when checking), or a mask per trump suit (the last: no trump) for a
    # set that names trump cards (`AT`)
    card_sets: Mapping[str, int | tuple[int, ...]] = field(default_factory=dict)
    bids: bool = True  # the ruleset has a `bids` section: bid() has something to read
    fixed_teams: bool = True  # the scoresheet is kept per team (not per seat): score() has a team's score to read
    numeric_auction: bool = True  # trump.auction bids `values`: bid_value has something to read
    partners: bool = True  # a declarer may have a partner (fixed teams, or a contract's call): role "partner" can hold
    players: int = 0  # the seats at the table, which a seat number names (0: not checked)


# name -> type; every variable is an attribute of HandFacts of the same name.
VARIABLES: dict[str, str] = {
    "winner": "team", "loser": "team", "maker": "team", "dealer_team": "team", "elder_team": "team",
    "decided": "bool", "tie": "bool", "no_score": "bool", "all_tricks": "bool",
    "tricks_per_hand": "int", "points_in_play": "int", "passes_pending": "int", "ties_pending": "int",
    "contract": "str", "multiplier": "int", "last_trick_winner": "team", "bid_value": "int", "kitty_taken": "bool",
    "doubled": "int", "most_points": "int", "fewest_tricks": "int", "fewest_points_with_tricks": "int",
    "hand_number": "int",
}


def _in_play(values: Sequence[Any], sides: Sequence[int]) -> Iterable[Any]:
    """A value per side, of the sides with a seat in play (``sides``; (): every side)."""
    return map(values.__getitem__, sides) if sides else values


# variables computed from other facts: name -> (the HandFacts fields read, its value); over the hand's sides in
# play, which are the seats in a hand where each plays for itself (`trump.auction.on_all_pass: {contract}`)
DERIVED: dict[str, tuple[tuple[str, ...], Evaluator]] = {
    "most_points": (("points", "sides_in_play"),  # the most card points any side took
                    lambda facts: max(_in_play(facts.points, facts.sides_in_play), default=0)),
    "fewest_tricks": (("tricks", "sides_in_play"),  # the fewest tricks any side took
                      lambda facts: min(_in_play(facts.tricks, facts.sides_in_play), default=0)),
    # the fewest card points taken by a side that took a trick (where the fewest points win, a trick at least)
    "fewest_points_with_tricks": (("points", "tricks", "sides_in_play"),
                                  lambda facts: min((p for p, n in zip(_in_play(facts.points, facts.sides_in_play),
                                                                       _in_play(facts.tricks, facts.sides_in_play))
                                                     if n > 0), default=0)),
}
CONSTANTS: dict[str, tuple[str, Any]] = {"none": ("team", None), "true": ("bool", True), "false": ("bool", False)}
# the team that held or took the highest or lowest card of a set, by the hand's card order
EXTREME_CARD_FUNCTIONS = ("holder_of_highest", "holder_of_lowest", "taker_of_highest", "taker_of_lowest")
# name -> (parameter kinds, result type); "announcement"/"option" take a quoted id.
FUNCTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "points": (("team",), "int"),
    "tricks": (("team",), "int"),
    "bid": (("team",), "int"),
    "bidders_tricks": (("team",), "int"),
    "seat_tricks": (("seat",), "int"),
    "seat_bid": (("seat",), "int"),
    "seat_blind": (("seat",), "bool"),
    "team_of": (("seat",), "team"),
    "announced": (("announcement",), "bool"),
    "announcer": (("announcement",), "team"),
    "times_announced": (("announcement",), "int"),
    "tricks_at": (("announcement", "team"), "int"),
    "opponents": (("team",), "team"),
    "option": (("option",), "any"),
    "declared": (("team", "declaration"), "int"),
    "tally": (("team", "tally"), "int"),
    "count": (("card_set", "team"), "int"),
    "held": (("card_set", "team"), "int"),
    "seat_held": (("card_set", "seat"), "int"),
    "score": (("team",), "int"),
    "top_run": (("team",), "int"),
    "seats": (("team",), "int"),
    "role": (("seat",), "str"),
    "captured": (("card_set", "team"), "int"),
    "tricks_worth": (("team", "int"), "int"),
    "in_last_trick": (("card_set",), "bool"),
    "in_trick": (("int", "card_set"), "bool"),
    "trick_winner": (("int",), "team"),
    "taken_with": (("int", "card_set"), "bool"),
    "holder_of_highest": (("card_set",), "team"),
    "holder_of_lowest": (("card_set",), "team"),
    "taker_of_highest": (("card_set",), "team"),
    "taker_of_lowest": (("card_set",), "team"),
}
# Functions on values rather than facts: name -> (signature, result, what it does), for the docs.
# `if` evaluates only the branch it takes; min/max take two or more numbers.
OPERATIONS: dict[str, tuple[str, str, str]] = {
    "if": ("bool, a, a", "a", "the second argument when the first is true, else the third"),
    "min": ("number, number, ...", "number", "the smallest of its arguments"),
    "max": ("number, number, ...", "number", "the largest of its arguments"),
    "abs": ("number", "number", "the value without its sign"),
    "pow": ("int, int", "int", "the first argument raised to the second, a whole number from 0 to 64 (one "
            "outside is taken as the nearer end)"),
    "floor": ("number", "int", "the whole number at or below"),
    "ceil": ("number", "int", "the whole number at or above"),
    "round": ("number", "int", "the nearest whole number, halves rounded up"),
}
MAX_EXPONENT = 64  # pow()'s exponent is held to 0..64: a whole number stays small enough to score and compare
# The facts a hand's outcome decides: what `outcome.maker_wins` may not read.
OUTCOME_FACTS = frozenset({"winner", "loser", "decided", "tie", "no_score", "all_tricks"})
# The name a `for_each: team` rule binds to each team in turn, and a `for_each: seat` rule to each seat.
EACH_TEAM = "team"
EACH_SEAT = "seat"
_TYPE_WORDS = {"bool": "a true/false value", "int": "a whole number", "number": "a number", "team": "a team", "seat": "a seat",
               "str": "a string", "any": "a value"}
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_ROUNDING: dict[str, Callable[[Any], int]] = {
    "floor": math.floor, "ceil": math.ceil, "round": lambda value: math.floor(value + Fraction(1, 2)),
}


def fact_reader(fact: str) -> str:
    """The HandFacts field ``fact`` as an author writes what reads it, for messages: the variable of that name,
    else the first function that reads it (``won``: ``count()``), else what fills it."""
    if fact in VARIABLES:
        return fact
    return next((f"{name}()" for name, read in _FUNCTION_FACTS.items() if read == fact),
                {"trump": "a card set of trump cards (AT)", "card_keys": "the hand's card order"}.get(fact, fact))


def reserved_names() -> frozenset[str]:
    """Names a definition may not take: the language's own."""
    return frozenset([*VARIABLES, *CONSTANTS, *FUNCTIONS, *OPERATIONS, EACH_TEAM, EACH_SEAT])


# the HandFacts field each function reads
_FUNCTION_FACTS = {"points": "points", "tricks": "tricks", "bid": "bids", "bidders_tricks": "tricks",
                   "seat_tricks": "seat_tricks",
                   "seat_bid": "seat_bids", "seat_blind": "seat_blinds", "team_of": "seat_sides", "announced": "announcers", "announcer": "announcers",
                   "times_announced": "announced_times", "tricks_at": "announced_tricks",
                   "option": "options", "declared": "declared", "tally": "tallies", "count": "won", "held": "held", "seat_held": "seat_held",
                   "score": "scores", "top_run": "top_runs", "seats": "seat_sides",
                   "captured": "captured", "tricks_worth": "trick_values",
                   "in_last_trick": "last_trick_cards", "in_trick": "trick_log", "trick_winner": "trick_log",
                   "taken_with": "trick_log", "role": "declarer",
                   "holder_of_highest": "held", "holder_of_lowest": "held", "taker_of_highest": "won",
                   "taker_of_lowest": "won"}


# functions that read more than their own field: what else their value depends on
_MORE_FACTS = {"bidders_tricks": ("seat_tricks", "seat_bids", "seat_sides"), "role": ("seat_sides", "maker"),
               "tricks_at": ("tricks",), **dict.fromkeys(EXTREME_CARD_FUNCTIONS, ("card_keys",))}
# What role(seat) gives: the seat that declared, a player on his side, a player against him, or "none" in a
# hand nobody declared.
ROLES = ("declarer", "partner", "defender", "none")


def seat_role(seat: Callable[[HandFacts], int | None]) -> Callable[[HandFacts], str]:
    """``role(seat)``: "declarer" for the seat that declared, "partner" for another seat on his side (a
    called partner, a teammate), "defender" for a seat against him, "none" when nobody declared (or for
    a hand valued without seats, an agent's estimate)."""
    def value(facts: HandFacts) -> str:
        s, declarer = seat(facts), facts.declarer
        if declarer is None or s is None or not facts.seat_sides:
            return "none"
        if s == declarer:
            return "declarer"
        return "partner" if facts.seat_sides[s] == facts.seat_sides[declarer] else "defender"
    return value


def walk(node: Node) -> Iterable[Node]:
    """Every node of an expression, the node itself included (in no particular order)."""
    stack: list[Node] = [node]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Call):
            stack.extend(node.args)
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack.extend((node.left, node.right))


def facts_read(text: str, definitions: Mapping[str, str | int | bool] | None = None,
               trump_sets: frozenset[str] = frozenset()) -> frozenset[str]:
    """The HandFacts fields a (checked) expression reads: what its value can depend on.

    A definition it names reads what the definition's own text reads (``definitions``:
    name -> text as written), followed through definitions of definitions. A card set of
    ``trump_sets`` (one naming trump cards, ``AT``) reads the hand's trump too.
    """
    return frozenset(fact for _, fact in _reads(text, definitions or {}, trump_sets))


def fact_readers(text: str, facts: frozenset[str], definitions: Mapping[str, str | int | bool] | None = None,
                 trump_sets: frozenset[str] = frozenset()) -> list[str]:
    """What an expression reads ``facts`` through, as its author wrote it (``trick_winner()``, ``tricks``),
    for messages; as :func:`facts_read`, through its definitions."""
    return sorted({reader for reader, fact in _reads(text, definitions or {}, trump_sets) if fact in facts})


def _reads(text: str, definitions: Mapping[str, str | int | bool],
           trump_sets: frozenset[str]) -> Iterator[tuple[str, str]]:
    """(the name as written, the HandFacts field it reads) for every read in ``text`` and its definitions."""
    pending, seen = [text], set()
    while pending:
        for node in walk(parse_expression(pending.pop())):
            if isinstance(node, Name):
                if node.name in DERIVED:
                    yield from ((node.name, fact) for fact in DERIVED[node.name][0])
                elif node.name in VARIABLES:
                    yield node.name, node.name
                elif node.name in definitions and node.name not in seen:
                    seen.add(node.name)
                    value = definitions[node.name]
                    if isinstance(value, str):
                        pending.append(value)
            elif isinstance(node, Call) and node.func in _FUNCTION_FACTS:
                reader = f"{node.func}()"
                yield reader, _FUNCTION_FACTS[node.func]
                yield from ((reader, fact) for fact in _MORE_FACTS.get(node.func, ()))
                yield from ((f"a card set of trump cards ({arg.value})", "trump") for arg in node.args
                            if isinstance(arg, String) and arg.value in trump_sets)


def bidders_tricks(team: Callable[[HandFacts], int | None]) -> Callable[[HandFacts], int]:
    """``bidders_tricks(team)``: the tricks the team took less those taken by its seats that bid
    nothing (a nil's tricks kept apart from the partner's bid). A seat whose bid or tricks the
    facts do not hold (an agent's estimate of one seat's hand) is counted as a bidder."""
    def value(facts: HandFacts) -> int:
        t = team(facts)
        if t is None:
            return 0
        nil = sum(taken for taken, bid, side in zip(facts.seat_tricks, facts.seat_bids, facts.seat_sides)
                  if side == t and bid == 0)
        return int(facts.tricks[t]) - nil
    return value


def _fits(actual: str, wanted: str) -> bool:
    return actual == wanted or "any" in (actual, wanted) or (actual == "int" and wanted == "number")


def _join(left: str, right: str) -> str | None:
    """The type of a value that is one of two types (an `if`'s branches), None when they do not mix."""
    if _fits(left, right):
        return left if right == "any" or (left == "number" and right == "int") else right
    if _fits(right, left):
        return left
    return None


def _numeric(*kinds: str) -> str:
    return "int" if all(kind == "int" for kind in kinds) else "number"


def _divide(left: Any, right: Any) -> int | Fraction:
    return exact(Fraction(left) / right)


def _exactly(function: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """``function`` on numbers that may be Fractions, its whole results given back as ints."""
    def apply(left: Any, right: Any) -> Any:
        value = function(left, right)
        return value if type(value) is int else exact(value)

    return apply


class _Checker:
    """Types every node and builds its closure; a node with a problem gets no closure, so its
    parents stay quiet and each mistake is reported once."""

    def __init__(self, names: ExprNames) -> None:
        self.names = names
        self.problems: list[ExpressionError] = []

    def fail(self, code: str, message: str, node: Node, hint: str | None = None) -> tuple[str, None]:
        self.problems.append(ExpressionError(code, message, node.pos, hint))
        return "any", None

    def seat(self, node: Node, what: str) -> Evaluator | None:
        """The closure of a seat argument: the seat a rule binds, or a seat's number written out (0 the
        first dealer: `team_of(0)`, the first dealer's team)."""
        if isinstance(node, Number) and isinstance(node.value, int):
            number = node.value
            if self.names.players and not 0 <= number < self.names.players:
                self.fail("expr-type", f"{what} names seat {number}, but the seats are 0 to {self.names.players - 1}",
                          node)
                return None
            return lambda facts: number
        return self.expect(node, "seat", what)

    def expect(self, node: Node, wanted: str, what: str) -> Evaluator | None:
        """The closure of ``node`` when it has type ``wanted`` (``what`` names the place in the message)."""
        return self.typed(node, wanted, what)[1]

    def typed(self, node: Node, wanted: str, what: str) -> tuple[str, Evaluator | None]:
        """The type and closure of ``node``, which must fit ``wanted`` (else the closure is None)."""
        kind, fn = self.visit(node)
        if fn is not None and not _fits(kind, wanted):
            hint = "wrap it in floor(), ceil() or round()" if kind == "number" and wanted == "int" else None
            self.fail("expr-type", f"{what} needs {_TYPE_WORDS[wanted]}, but this is {_TYPE_WORDS[kind]}", node, hint)
            return kind, None
        return kind, fn

    def visit(self, node: Node) -> tuple[str, Evaluator | None]:
        """The type of ``node`` and its closure (None once a problem was found inside it)."""
        if isinstance(node, Number):
            value = node.value
            return ("int" if isinstance(value, int) else "number"), lambda facts: value
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
            kind, inner = self.typed(node.operand, "number", "`-`")
            return _numeric(kind), (lambda facts: -inner(facts)) if inner else None
        return self.binary(node)

    def name(self, node: Name) -> tuple[str, Evaluator | None]:
        if node.name in CONSTANTS:
            kind, value = CONSTANTS[node.name]
            return kind, lambda facts: value
        if node.name == "bid_value" and not self.names.numeric_auction:
            return self.fail("bid-value-without-auction", "bid_value reads the value a numeric auction was won at, "
                             "but this ruleset's auction bids no numbers", node,
                             "bid trump.auction values (procedure pairs), or read the contract instead")
        if node.name in VARIABLES:
            points = node.name in ("points_in_play", "most_points", "fewest_points_with_tricks")
            kind = "number" if points and not self.names.whole_points else VARIABLES[node.name]
            return kind, DERIVED[node.name][1] if node.name in DERIVED else operator.attrgetter(node.name)
        if node.name in self.names.definitions:
            index, kind = self.names.definitions[node.name]
            return kind, lambda facts: facts.defined[index]
        if node.name in self.names.bound:
            return ("seat", operator.attrgetter("each_seat")) if node.name == EACH_SEAT \
                else ("team", operator.attrgetter("each_team"))
        if node.name in FUNCTIONS or node.name in OPERATIONS:
            return self.fail("expr-type", f"{node.name} is a function; call it: {node.name}(...)", node)
        known = [*VARIABLES, *CONSTANTS, *self.names.definitions, *self.names.bound, *FUNCTIONS, *OPERATIONS]
        hint = did_you_mean(node.name, known) or f"names: {', '.join(known)}"
        if node.name == EACH_SEAT:  # not a near name (seat_bid, team_of): the binding it lacks
            hint = "`seat` names each player in turn inside a rule with `for_each: seat`"
        if node.name == EACH_TEAM:
            hint = "`team` names each team in turn inside a rule with `for_each: team`"
        return self.fail("expr-unknown-name", f"unknown name '{node.name}'", node, hint)

    def call(self, node: Call) -> tuple[str, Evaluator | None]:
        if node.func in OPERATIONS:
            return self.operation(node)
        if node.func not in FUNCTIONS:
            known = [*FUNCTIONS, *OPERATIONS]
            hint = did_you_mean(node.func, known) or f"functions: {', '.join(known)}"
            return self.fail("expr-unknown-name", f"unknown function '{node.func}'", node, hint)
        params, result = FUNCTIONS[node.func]
        if node.func == "points" and not self.names.whole_points:
            result = "number"
        if len(node.args) != len(params):
            return self.fail("expr-arity", f"{node.func}() takes {len(params)} argument{'s' if len(params) > 1 else ''}, "
                             f"not {len(node.args)}", node)
        if node.func in ("declared", "tally"):
            return self.team_count(node)
        if node.func == "tricks_at":
            return self.tricks_at(node)
        if node.func in ("count", "held", "seat_held", "in_last_trick", "captured"):
            return self.card_set(node)
        if node.func in EXTREME_CARD_FUNCTIONS:
            return self.extreme_card(node)
        if node.func == "tricks_worth":
            return self.tricks_worth(node)
        if node.func in ("in_trick", "trick_winner", "taken_with"):
            return self.trick(node)
        arg, param = node.args[0], params[0]
        if param in ("announcement", "option"):
            return self.keyed(node, arg, param, result)
        if node.func in ("bid", "seat_bid", "seat_blind", "bidders_tricks") and not self.names.bids:
            return self.fail("bid-without-bids", "bid() reads the tricks a team bid, but this ruleset has no bids",
                             node, "add a `bids` section, or read tricks() instead")
        if node.func == "role":
            seat = self.seat(arg, "role()")
            return result, seat_role(seat) if seat is not None else None
        if param == "seat":  # seat_tricks / seat_bid / team_of: a tuple per seat
            seat = self.seat(arg, f"{node.func}()")
            if seat is None:
                return result, None
            table = operator.attrgetter(_FUNCTION_FACTS[node.func])
            unknown = {"seat_bid": -1, "team_of": None, "seat_blind": False}.get(node.func, 0)  # a hand valued without seats (an estimate)
            return result, lambda facts: table(facts)[seat(facts)] if table(facts) else unknown
        if node.func == "opponents" and self.names.team_count != 2:
            return self.fail("expr-type", "opponents() needs a game with exactly two teams", node)
        if node.func == "score" and not self.names.fixed_teams:
            return self.fail("score-without-teams", "score() reads a team's score, but this ruleset keeps the "
                             "scoresheet per player (its sides change from hand to hand)", node,
                             "read the hand's own facts instead")
        team = self.expect(arg, "team", f"{node.func}()")
        if team is None:
            return result, None
        if node.func == "opponents":
            return result, lambda facts: None if (t := team(facts)) is None else 1 - t
        table = operator.attrgetter(_FUNCTION_FACTS[node.func])  # points / tricks / bids: a tuple per team; none has none
        if node.func == "bid":  # a hand valued before anyone bid (an agent's estimate) reads no bids: 0
            return result, lambda facts: 0 if (t := team(facts)) is None or not facts.bids else facts.bids[t]
        if node.func == "bidders_tricks":
            return result, bidders_tricks(team)
        if node.func == "score":  # a hand valued apart from a game (an agent's estimate) reads a fresh scoresheet: 0
            return result, lambda facts: 0 if (t := team(facts)) is None or not facts.scores else facts.scores[t]
        if node.func == "seats":  # how many seats play on the side; a hand valued without seats (an estimate): 0
            return result, lambda facts: 0 if (t := team(facts)) is None else facts.seat_sides.count(t)
        if node.func == "top_run":  # a hand valued without its cards (an agent's estimate) holds no run
            return result, lambda facts: 0 if (t := team(facts)) is None or not facts.top_runs else facts.top_runs[t]
        return result, lambda facts: 0 if (t := team(facts)) is None else table(facts)[t]

    def operation(self, node: Call) -> tuple[str, Evaluator | None]:
        """``if(c, a, b)``, ``min``/``max`` (two or more), ``abs``, ``floor``/``ceil``/``round``."""
        func, args = node.func, node.args
        wanted = {"if": "3", "min": "2 or more", "max": "2 or more", "pow": "2"}.get(func, "1")
        if (len(args) != 3) if func == "if" else (len(args) < 2) if func in ("min", "max") else \
                (len(args) != 2) if func == "pow" else (len(args) != 1):
            return self.fail("expr-arity", f"{func}() takes {wanted} argument{'s' if wanted != '1' else ''}, "
                             f"not {len(args)}", node)
        if func == "if":
            condition = self.expect(args[0], "bool", "the condition of if()")
            (kind_a, then), (kind_b, other) = self.visit(args[1]), self.visit(args[2])
            kind = _join(kind_a, kind_b)
            if then is not None and other is not None and kind is None:
                return self.fail("expr-type", f"the two branches of if() give {_TYPE_WORDS[kind_a]} and "
                                 f"{_TYPE_WORDS[kind_b]}; they must give the same kind of value", node)
            if condition is None or then is None or other is None:
                return kind or "any", None
            return kind or "any", lambda facts: then(facts) if condition(facts) else other(facts)
        if func == "pow":  # a bounded exponent: no expression may build a number too large to score
            (_, base), (_, exponent) = self.typed(args[0], "int", "pow()"), self.typed(args[1], "int", "pow()")
            if base is None or exponent is None:
                return "int", None
            return "int", lambda facts: base(facts) ** min(MAX_EXPONENT, max(0, exponent(facts)))
        kinds, fns = zip(*(self.typed(arg, "number", f"{func}()") for arg in args))
        if any(fn is None for fn in fns):
            return ("int" if func in _ROUNDING else _numeric(*kinds)), None
        if func in _ROUNDING:
            rounding, [inner] = _ROUNDING[func], fns
            return "int", lambda facts: rounding(inner(facts))
        if func == "abs":
            [inner] = fns
            return _numeric(*kinds), lambda facts: abs(inner(facts))
        pick = min if func == "min" else max
        return _numeric(*kinds), lambda facts: pick([fn(facts) for fn in fns])

    def card_set(self, node: Call) -> tuple[str, Evaluator | None]:
        """``count("bouts", maker)``: cards of a set in a team's tricks; ``held("honours", team)``: cards
        of a set the team's players held at the start of play, ``seat_held("honours", seat)`` one player;
        ``in_last_trick("petit")``."""
        wanted = 1 if node.func == "in_last_trick" else 2
        if len(node.args) != wanted:
            return self.fail("expr-arity", f"{node.func}() takes {wanted} argument{'s' if wanted > 1 else ''}, "
                             f"not {len(node.args)}", node)
        mask = self.set_mask(node.args[0], f"{node.func}() takes a quoted card set name first, e.g. "
                             f"{node.func}(\"bouts\"{', maker' if wanted > 1 else ''})")
        if mask is None:
            return "any", None
        if node.func == "in_last_trick":
            return "bool", lambda facts: bool(facts.last_trick_cards & mask(facts))
        if node.func == "seat_held":  # a hand valued without the seats' cards (an agent's estimate) holds none
            seat = self.seat(node.args[1], "seat_held()")
            return "int", None if seat is None else lambda facts: 0 if not facts.seat_held or (s := seat(facts)) is None \
                else (facts.seat_held[s] & mask(facts)).bit_count()
        team = self.expect(node.args[1], "team", f"{node.func}()")
        if team is None:
            return "int", None
        cards = operator.attrgetter(_FUNCTION_FACTS[node.func])  # won, held or captured: a mask per team
        # a hand valued without the cards (an agent's estimate) holds none of the set
        return "int", lambda facts: 0 if (t := team(facts)) is None or not cards(facts) \
            else (cards(facts)[t] & mask(facts)).bit_count()

    def extreme_card(self, node: Call) -> tuple[str, Evaluator | None]:
        """``holder_of_highest("trumps")``: the team whose players held at the start of play the highest card
        of the set dealt to a player; ``taker_of_lowest("trumps")``: the team whose tricks took the lowest of the
        set played. High and low are the hand's order: every trump above every plain card, a plain card by its
        place in its suit (of two alike, the first in the pack's order). ``none`` when no card of the set was
        held (or taken), or in a hand valued without the cards (an agent's estimate)."""
        mask = self.set_mask(node.args[0], f"{node.func}() takes a quoted card set name, e.g. {node.func}(\"trumps\")")
        if mask is None:
            return "team", None
        cards = operator.attrgetter(_FUNCTION_FACTS[node.func])  # held or won: a mask per team
        highest = node.func.endswith("highest")

        def team(facts: HandFacts) -> int | None:
            by_team, keys = cards(facts), facts.card_keys
            if not by_team or not keys:
                return None
            wanted = mask(facts)
            # the best key wins; of equal keys the card first in the pack's order
            found = [((keys[c] if highest else -keys[c]), -c, t) for t, m in enumerate(by_team) for c in iter_bits(m & wanted)]
            return max(found)[2] if found else None
        return "team", team

    def tricks_worth(self, node: Call) -> tuple[str, Evaluator | None]:
        """``tricks_worth(team, 40)``: how many tricks the team took holding at least so many card points."""
        team = self.expect(node.args[0], "team", "tricks_worth()")
        least = self.expect(node.args[1], "int", "tricks_worth()")
        if team is None or least is None:
            return "int", None
        return "int", lambda facts: 0 if (t := team(facts)) is None else \
            sum(1 for points, taker in facts.trick_values if taker == t and points >= least(facts))

    def set_mask(self, set_node: Node, usage: str) -> Evaluator | None:
        """The mask of a quoted `deck.card_sets` name, as a function of the hand (a set naming trump cards,
        ``AT``, has one mask per trump suit); None (reported, ``usage`` saying how to call) otherwise."""
        if not isinstance(set_node, String):
            self.fail("expr-type", usage, set_node)
            return None
        sets = self.names.card_sets
        if set_node.value not in sets:
            listed = ", ".join(sets) or "none"
            self.fail("unknown-card-set", f"no card set '{set_node.value}' in deck.card_sets", set_node,
                      did_you_mean(set_node.value, sets) or f"card sets: {listed}")
            return None
        masks = sets[set_node.value]
        if isinstance(masks, tuple):
            return lambda facts: masks[facts.trump]  # index -1, no trump: the set's last mask
        return lambda facts: masks

    def trick(self, node: Call) -> tuple[str, Evaluator | None]:
        """``in_trick(n, "petit")``, ``trick_winner(n)``, ``taken_with(n, "excuse")``: facts of the hand's
        n-th trick, counted from 1 (the first), or back from -1 (the last); a trick the hand does not
        have holds no card, was taken by no team and with no card."""
        number = node.args[0]
        if _literal_zero(number):
            return self.fail("expr-trick-number", f"{node.func}() counts tricks from 1 (the first) or back from -1 "
                             "(the last); there is no trick 0", number, "write 1 for the first trick, -1 for the last")
        index = self.expect(number, "int", f"{node.func}()")
        mask = (lambda facts: 0) if node.func == "trick_winner" else \
            self.set_mask(node.args[1], f"{node.func}() takes a trick number and a quoted card set name, "
                          f"e.g. {node.func}(-1, \"petit\")")
        if index is None or mask is None:
            return FUNCTIONS[node.func][1], None
        cards: Evaluator = mask

        def nth(facts: HandFacts) -> tuple[int, int | None, int] | None:
            log, n = facts.trick_log, index(facts)
            return log[n - 1 if n > 0 else n] if 0 < abs(n) <= len(log) else None

        if node.func == "in_trick":
            return "bool", lambda facts: (t := nth(facts)) is not None and bool(t[0] & cards(facts))
        if node.func == "taken_with":
            return "bool", lambda facts: (t := nth(facts)) is not None and bool(cards(facts) >> t[2] & 1)
        return "team", lambda facts: None if (t := nth(facts)) is None else t[1]

    def team_count(self, node: Call) -> tuple[str, Evaluator | None]:
        """``declared(team, "weis")``: the points the team keeps from that declaration this hand;
        ``tally(team, "bags")``: the team's count of that tally before the hand (0 in a hand valued
        apart from a game, an agent's estimate)."""
        team_node, id_node = node.args
        what, field = ("declaration", "declared") if node.func == "declared" else ("tally", "tallies")
        example = f'{node.func}(team, "{"weis" if node.func == "declared" else "bags"}")'
        if not isinstance(id_node, String):
            return self.fail("expr-type", f"{node.func}() takes a team and a quoted {what} id, e.g. {example}",
                             id_node)
        ids = self.names.declarations if node.func == "declared" else self.names.tallies
        if id_node.value not in ids:
            listed = ", ".join(ids) or "none"
            message, hint = f"no {what} '{id_node.value}' is declared", did_you_mean(id_node.value, ids)
            if node.func == "declared":
                return self.fail("unknown-declaration", message, id_node, hint or f"declared: {listed}")
            return self.fail("unknown-tally", message, id_node, hint or f"declared: {listed}")
        index = ids.index(id_node.value)
        team = self.expect(team_node, "team", f"{node.func}()")
        if team is None:
            return "int", None
        table = operator.attrgetter(field)
        return "int", lambda facts: 0 if (t := team(facts)) is None or not (rows := table(facts)) else rows[index][t]

    def tricks_at(self, node: Call) -> tuple[str, Evaluator | None]:
        """``tricks_at("close", team)``: the tricks ``team`` had taken when the announcement was first made
        (the stock closed, say); the hand's tricks when it was not made (nothing was frozen)."""
        id_node, team_node = node.args
        key = self.key_of(node, id_node, "announcement")
        team = self.expect(team_node, "team", "tricks_at()")
        if key is None or team is None:
            return "int", None

        def value(facts: HandFacts) -> int:
            t = team(facts)
            if t is None:
                return 0
            return next((tricks[t] for made, tricks in facts.announced_tricks if made == key), facts.tricks[t])
        return "int", value

    def key_of(self, node: Call, arg: Node, param: str) -> str | None:
        """The quoted id ``arg`` names, an announcement's or an option's declared in the ruleset; None (reported)
        when it is not quoted or not declared."""
        if not isinstance(arg, String):
            self.fail("expr-type", f"{node.func}() takes a quoted {param} id, e.g. {node.func}(\"mit\")", arg)
            return None
        key = arg.value
        declared = self.names.announcements if param == "announcement" else self.names.options
        if key not in declared:
            listed = ", ".join(sorted(declared)) or "none"
            self.fail(f"unknown-{param}", f"no {param} '{key}' is declared", arg,
                      did_you_mean(key, declared) or f"declared: {listed}")
            return None
        return key

    def keyed(self, node: Call, arg: Node, param: str, result: str) -> tuple[str, Evaluator | None]:
        """``announced("mit")``, ``announcer("mit")``, ``option("lines")``: the id must be quoted and declared."""
        key = self.key_of(node, arg, param)
        if key is None:
            return "any", None
        if node.func == "announced":
            return result, lambda facts: key in facts.announcers
        if node.func == "announcer":
            return result, lambda facts: facts.announcers.get(key)
        if node.func == "times_announced":
            return result, lambda facts: facts.announced_times.get(key, 0)
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
            if left is not None and right is not None and not (_fits(lkind, rkind) or _fits(rkind, lkind)):
                return self.fail("expr-type", f"`{op}` compares {_TYPE_WORDS[lkind]} with {_TYPE_WORDS[rkind]}", node)
            problem = self.role_literal(node)
            if problem:
                return problem
            result = "bool"
        else:
            lkind, left = self.typed(node.left, "number", f"`{op}`")
            rkind, right = self.typed(node.right, "number", f"`{op}`")
            result = "bool" if op in _COMPARE else "number" if op == "/" else _numeric(lkind, rkind)
            if op == "/" and right is not None and not _literal_nonzero(node.right):
                return self.fail("expr-divisor", "divide only by a number written out (not 0), e.g. `/ 2`",
                                 node.right, "a divisor that could be 0 would stop a game; multiply instead")
        if left is None or right is None:
            return result, None
        function = _COMPARE.get(op) or _ARITH.get(op) or _divide
        if result == "number" and op in _ARITH:
            function = _exactly(function)
        return result, lambda facts: function(left(facts), right(facts))


    def role_literal(self, node: Binary) -> tuple[str, None] | None:
        """A comparison of role(...) with a string: the string must be a role, and "partner" one a
        declarer of this ruleset can have."""
        for call, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(call, Call) and call.func == "role" and isinstance(other, String):
                if other.value not in ROLES:
                    return self.fail("role-unknown", f"role() gives one of {', '.join(map(repr, ROLES))}, "
                                     f"never {other.value!r}", other, did_you_mean(other.value, ROLES))
                if other.value == "partner" and not self.names.partners:
                    return self.fail("role-partner-without-call", "role() is never \"partner\" here: the "
                                     "declarer plays alone, as no contract calls a partner (contracts.<id>.call)",
                                     other, "give a contract a `call`, or compare with \"declarer\" or \"defender\"")
        return None


def _literal_zero(node: Node) -> bool:
    if isinstance(node, Unary) and node.op == "-":
        node = node.operand
    return isinstance(node, Number) and node.value == 0


def _literal_nonzero(node: Node) -> bool:
    if isinstance(node, Unary) and node.op == "-":
        node = node.operand
    return isinstance(node, Number) and node.value != 0


def _span(span: Span | None, pos: Pos | None) -> Span | None:
    """Place a position inside the expression in the file, counting from the text's first character."""
    if span is None or pos is None:
        return span
    if isinstance(span, TextSpan):
        (line, column), (end_line, end_column) = span.place(pos.line, pos.column), span.place(pos.end_line, pos.end_column)
        return Span(span.file, line, column, end_line, end_column)
    return Span(span.file, span.line + pos.line - 1, span.column + pos.column - 1,
                span.line + pos.end_line - 1, span.column + pos.end_column - 1)


def _compile(text: str, kind: str, names: ExprNames, span: Span | None,
             pointer: str) -> tuple[str, Evaluator | None, list[Diagnostic]]:
    """The expression's type, closure (None when there is a problem) and diagnostics."""
    try:
        tree = parse_expression(text)
    except ExpressionError as problem:
        return "any", None, [error(problem.code, problem.message, _span(span, problem.pos), pointer, problem.hint)]
    checker = _Checker(names)
    found, fn = checker.typed(tree, kind, "this field")
    diagnostics = [error(p.code, p.message, _span(span, p.pos), pointer, p.hint) for p in checker.problems]
    return found, (fn if not diagnostics else None), diagnostics


def check_expression(text: str, kind: Kind, names: ExprNames, span: Span | None = None, pointer: str = "") -> list[Diagnostic]:
    """Diagnostics for one expression (syntax, names, arity, types); empty when it is fine."""
    return _compile(text, kind, names, span, pointer)[2]


def compile_expression(text: str, kind: Kind, names: ExprNames, span: Span | None = None) -> Evaluator:
    """Compile an expression to ``fn(facts: HandFacts)``; raises RulesetError when it does not check."""
    _, fn, diagnostics = _compile(text, kind, names, span, "")
    if fn is None:
        raise RulesetError(diagnostics)
    return fn


@dataclass(frozen=True, slots=True)
class Definition:
    """One named definition as written (``text``: its expression or constant) with its type and closure."""

    name: str
    text: str | int | bool
    kind: str
    fn: Evaluator = field(compare=False, repr=False)


class CheckedDefinitions(NamedTuple):
    """The definitions in evaluation order, the name table that knows them, and what is wrong."""

    order: tuple[Definition, ...]
    names: ExprNames
    diagnostics: tuple[Diagnostic, ...]


DefinitionItem = tuple[str, "str | int | bool", "Span | None", str]  # name, text, where its text is, pointer


def _references(text: str | int | bool, among: Mapping[str, Any]) -> list[Name]:
    """The definitions an expression names, in the order they appear (none for constants or bad syntax)."""
    if not isinstance(text, str):
        return []
    try:
        tree = parse_expression(text)
    except ExpressionError:
        return []
    found = [node for node in walk(tree) if isinstance(node, Name) and node.name in among]
    return sorted(found, key=lambda n: (n.pos.line, n.pos.column) if n.pos else (0, 0))


def check_definitions(items: Sequence[DefinitionItem], names: ExprNames) -> CheckedDefinitions:
    """Order the definitions so that each comes after those it uses, refuse cycles and reserved
    names (with the position of the offending reference), and type and compile each one.

    A definition with a problem is known to later ones with the type ``any`` so that a
    mistake is reported once, where it is made.
    """
    reserved = reserved_names()
    by_name = {name: (text, span, pointer) for name, text, span, pointer in items}
    diagnostics: list[Diagnostic] = []
    broken: set[str] = set()
    for name, _, span, pointer in items:
        if name in reserved:
            diagnostics.append(error("define-reserved", f"'{name}' is a name of the expression language itself",
                                     span, pointer, "choose another name for the definition"))
            broken.add(name)
    edges = {name: _references(text, by_name) for name, (text, _, _) in by_name.items()}
    order: list[str] = []
    state: dict[str, int] = {}  # 1: being visited, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for ref in edges[name]:
            if state.get(ref.name) == 1:
                cycle = path[path.index(ref.name):] + [name] if ref.name != name else [name]
                _, span, pointer = by_name[name]
                diagnostics.append(error(
                    "define-cycle", f"definitions {' -> '.join(cycle + [ref.name])} use each other, so none has a value",
                    _span(span, ref.pos), pointer, "a definition may only use definitions that do not use it"))
                broken.update(cycle)
            elif ref.name not in state:
                visit(ref.name, path + [name])
        state[name] = 2
        order.append(name)

    for name in by_name:
        if name not in state:
            visit(name, [])
    known: dict[str, tuple[int, str]] = {}
    compiled: list[Definition] = []
    for name in order:
        text, span, pointer = by_name[name]
        if name in broken:
            known[name] = (-1, "any")
            continue
        fn: Evaluator | None
        found: list[Diagnostic] = []
        if isinstance(text, (bool, int)):
            kind, fn = ("bool" if isinstance(text, bool) else "int"), (lambda facts, v=text: v)
        else:
            kind, fn, found = _compile(text, "any", dataclass_replace(names, definitions=dict(known)), span, pointer)
        diagnostics.extend(found)
        if fn is None:
            known[name] = (-1, "any")
            continue
        known[name] = (len(compiled), kind)
        compiled.append(Definition(name, text, kind, fn))
    return CheckedDefinitions(tuple(compiled), dataclass_replace(names, definitions=known), tuple(diagnostics))
