"""A compiled ruleset as the kernel's arrays: the same tables the Python engine reads, made flat.

Nothing here is new rule knowledge: the deal plans, trump contexts (suits, strength,
``above`` masks, points), seat tables and promotions come from ``Ruleset.tables``; the
scalar choices of each section become integer codes in one ``cfg`` array (indices below);
the scoring rules are evaluated here, once, for every combination of the hand facts they
read (:func:`~couillon_dsl.kernel.eligible.scoring_domains`), through the same
:func:`~couillon_dsl.engine.hand.rule_deltas` the Python engine calls.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product
from types import MappingProxyType
from typing import Any, NamedTuple

import numpy as np

from couillon_dsl.agents.greedy import HIGH_TRICK, SHARE, TRUMP_TRICK, MakerBar
from couillon_dsl.engine.hand import rule_deltas, scoring_plan
from couillon_dsl.engine.actions import Actions
from couillon_dsl.engine.tables import OP_PACKET, OP_STOCK, OP_TURN_UP
from couillon_dsl.expr.compile import HandFacts
from couillon_dsl.expr.parse import exact
from couillon_dsl.kernel.eligible import SCORE_VARIABLES, hand_size, ruleset_reason, scoring_domains
from couillon_dsl.model import Ruleset

# cfg indices
(C_N, C_NTEAMS, C_NCARDS, C_NSUITS, C_NPROMO, C_NANN, C_METHOD, C_ON_ALL_PASS, C_REOFFER_DEALER, C_CHOOSE_DEALER,
 C_WAY_DEFER, C_WAY_NAME, C_WAY_SHOW, C_FALLBACK_ELDER, C_FIRST_LEAD, C_ROTATE, C_SAME_AFTER_TIE, C_TIE_CARRY,
 C_PASS_CARRY, C_START, C_GOAL, C_DOWN, C_MAX_HANDS, C_MAX_REDEALS, C_GAMES_TO_WIN, C_ALWAYS_PROMOTED,
 C_BY_POINTS, C_MAKER_NEEDS, C_GAP_TIE, C_FIRST_DEALER, C_MUST_FOLLOW, C_MUST_TRUMP, C_HEAD, C_HEAD_WHEN_TRUMPED,
 C_OVERTRUMP, C_UNDERTRUMP_BAN, C_HONOURS, C_ACCEPT, C_PASS, C_DEFER, C_DECLINE, C_NAME0, C_SHOW0, C_ANNOUNCE0,
 C_DEALER0, C_FIXED_TRUMP, C_MAX_GAMES, C_SIZE) = range(48)

METHODS = ("none", "offer", "choose", "turned")
ON_ALL_PASS = ("bottom_card", "next_card", "redeal")
FIRST_LEAD = ("elder", "dealer", "maker")
TIE_CARRY = ("none", "next_decided_double", "cumulative_double")
PASS_CARRY = ("none", "single", "cumulative")
# the trump path of a hand and the words of a trump decision, as the kernel numbers them
PATHS = ("accepted", "next_card", "bottom_card", "named", "shown", "deferred", "none", "redeal", "turned")
WORDS = ("accept", "pass", "name", "show", "defer")
OUTCOMES = ("winner", "tie", "no_score", "passed_out")
GREEDY_TRUMP, GREEDY_HIGH, GREEDY_SHARE = range(3)  # greedy_weights indices
SCORE_VARIABLE_CODE = {name: i for i, name in enumerate(SCORE_VARIABLES)}


class KernelTables(NamedTuple):
    """Everything the kernel reads about one ruleset (int64 arrays; masks are int64 bit sets)."""

    cfg: np.ndarray  # scalar codes, indexed by the C_* constants
    team_of: np.ndarray  # seat -> team
    suit_of: np.ndarray  # card -> printed suit
    rank_of: np.ndarray  # card -> its rank within its printed suit (0: the highest)
    printed_suit: np.ndarray  # printed suit -> mask (the greedy agent's suit strength)
    honour_mask: np.ndarray  # [mask of the cards in the top third of the ranks]
    greedy_weights: np.ndarray  # the greedy agent's trick value weights and defer share (float64, see greedy_weights)
    greedy_needed: np.ndarray  # seat, cards held -> the trick value the greedy agent needs to make trump (float64)
    ops: np.ndarray  # dealer -> deal ops (code, a, b, c): packets (deliveries a..b, face up c), stock a, turn-up a
    nops: np.ndarray  # dealer -> number of ops
    deliveries: np.ndarray  # dealer -> (seat, start, stop) pack positions
    ctx_trump: np.ndarray  # context -> trump suit (-1: none)
    suit_mask: np.ndarray  # context, suit -> the cards that count as that suit
    trump_mask: np.ndarray  # context -> the trumps (promoted cards included)
    card_suit: np.ndarray  # context, card -> the suit it counts as
    strength: np.ndarray  # context, led suit, card -> trick strength
    above: np.ndarray  # context, card -> the cards of its suit that beat it
    points: np.ndarray  # context, card -> card points
    exempt: np.ndarray  # context -> cards never forced out by a trump lead
    holder: np.ndarray  # announcement -> the card its holder must hold (-1: a follow-up)
    after: np.ndarray  # announcement -> the announcement it follows (-1: none)
    partners: np.ndarray  # announcement -> 1 when offered to the announcer's partners, 0 to the opponents
    promotion_by: np.ndarray  # promotion bit -> the announcement that sets it (-1: always)
    score_vars: np.ndarray  # (variable code, index, number of values, stride) per tabulated fact
    score_base: np.ndarray  # fact combination, team -> what the rules that are not tie-scaled add
    score_scaled: np.ndarray  # fact combination, team -> what the tie-scaled rules add (times the tie carry)
    score_ok: np.ndarray  # fact combination -> 0 when evaluating the rules failed (never a real hand)


class KernelUnfit(ValueError):
    """The ruleset uses a concept the kernel does not take yet; the message names it."""


def _arr(values: object, dtype: type = np.int64) -> np.ndarray:
    return np.ascontiguousarray(np.array(values, dtype=dtype))


_built: dict[int, tuple[Ruleset, KernelTables]] = {}  # id(ruleset) -> (ruleset kept alive, its arrays)


def kernel_tables(rs: Ruleset) -> KernelTables:
    """The arrays of ``rs``, built once per ruleset object; raises KernelUnfit with the reason."""
    found = _built.get(id(rs))
    if found is not None and found[0] is rs:
        return found[1]
    if len(_built) >= 16:
        _built.clear()
    tables = build_tables(rs)
    _built[id(rs)] = (rs, tables)
    return tables


def build_tables(rs: Ruleset) -> KernelTables:
    """The arrays of ``rs``; raises KernelUnfit with the reason when the kernel cannot play it."""
    why = ruleset_reason(rs)
    if why:
        raise KernelUnfit(why)
    t = rs.tables
    layout = rs.layout
    n = rs.players.count
    nteams = len(rs.players.teams)
    nsuits = len(layout.suits)
    acts = Actions.build(layout.size, nsuits, len(rs.announcements))
    trump, follow, sheet = rs.trump, rs.play.follow, rs.scoresheet
    choose = trump.choose if trump.method == "choose" else None
    offer = trump.offer if trump.method == "offer" else None
    cfg = [0] * C_SIZE
    cfg[C_N], cfg[C_NTEAMS], cfg[C_NCARDS], cfg[C_NSUITS] = n, nteams, layout.size, nsuits
    cfg[C_NPROMO], cfg[C_NANN] = len(t.promotion_cards), len(rs.announcements)
    cfg[C_METHOD] = METHODS.index(trump.method)
    if offer is not None:
        cfg[C_ON_ALL_PASS] = ON_ALL_PASS.index(offer.on_all_pass)
        cfg[C_REOFFER_DEALER] = offer.reoffer_first_speaker == "dealer"
    if choose is not None:
        cfg[C_CHOOSE_DEALER] = choose.by == "dealer"
        cfg[C_WAY_DEFER], cfg[C_WAY_NAME], cfg[C_WAY_SHOW] = (way in choose.ways for way in ("defer", "name", "show"))
    cfg[C_FALLBACK_ELDER] = trump.maker_after_fallback == "elder_team"
    cfg[C_FIRST_LEAD] = FIRST_LEAD.index(rs.play.first_lead)
    cfg[C_ROTATE] = rs.dealer.rotation == "next"
    cfg[C_SAME_AFTER_TIE] = sheet.tie_next_dealer == "same"
    cfg[C_TIE_CARRY] = TIE_CARRY.index(sheet.tie_carry)
    cfg[C_PASS_CARRY] = PASS_CARRY.index(sheet.pass_carry)
    cfg[C_START], cfg[C_GOAL], cfg[C_DOWN] = sheet.start, sheet.goal, sheet.direction == "down"
    cfg[C_MAX_HANDS], cfg[C_MAX_REDEALS] = rs.limits.max_hands, rs.limits.max_redeals_in_a_row
    cfg[C_GAMES_TO_WIN] = rs.session.games_to_win
    cfg[C_ALWAYS_PROMOTED] = t.always_promoted
    cfg[C_BY_POINTS] = rs.outcome.compare == "points"
    cfg[C_MAKER_NEEDS] = -1 if rs.outcome.maker_needs is None else rs.outcome.maker_needs * t.point_unit
    cfg[C_FIXED_TRUMP], cfg[C_MAX_GAMES] = t.fixed_trump, rs.limits.max_games
    cfg[C_GAP_TIE] = rs.outcome.gap == "tie"
    cfg[C_FIRST_DEALER] = -1 if rs.dealer.first == "random" else int(rs.dealer.first)
    cfg[C_MUST_FOLLOW] = follow.led_suit == "must_follow"
    cfg[C_MUST_TRUMP] = follow.when_void == "must_trump"
    cfg[C_HEAD] = follow.head == "when_able"
    cfg[C_HEAD_WHEN_TRUMPED] = follow.head_when_trumped
    cfg[C_OVERTRUMP] = follow.overtrump == "when_able"
    cfg[C_UNDERTRUMP_BAN] = follow.undertrump == "only_when_forced"
    cfg[C_HONOURS] = max(1, len(layout.ranks) // 3)
    cfg[C_ACCEPT], cfg[C_PASS], cfg[C_DEFER], cfg[C_DECLINE] = acts.accept, acts.pass_, acts.defer, acts.decline
    cfg[C_NAME0], cfg[C_SHOW0], cfg[C_ANNOUNCE0], cfg[C_DEALER0] = acts.name0, acts.show0, acts.announce0, acts.dealer0

    # deal plans: one row per op, deliveries apart
    plans = t.deal_plans
    nops = [len(plan) for plan in plans]
    ops = np.zeros((n, max(nops) or 1, 4), np.int64)
    per_dealer = [[d for op in plan if op[0] == OP_PACKET for d in op[2]] for plan in plans]
    deliveries = np.zeros((n, max(len(d) for d in per_dealer) or 1, 3), np.int64)
    for dealer, plan in enumerate(plans):
        k = 0
        for i, op in enumerate(plan):
            ops[dealer, i, 0] = op[0]
            if op[0] == OP_PACKET:
                for delivery in op[2]:
                    deliveries[dealer, k] = delivery
                    k += 1
                ops[dealer, i, 1:] = (k - len(op[2]), k, bool(op[3]))
            elif op[0] == OP_STOCK:
                ops[dealer, i, 1] = op[1]
            elif op[0] == OP_TURN_UP:
                ops[dealer, i, 1] = bool(op[1])

    contexts = t.contexts
    honours = cfg[C_HONOURS]
    base, scaled, ok, variables = score_tables(rs)
    return KernelTables(
        cfg=_arr(cfg),
        team_of=_arr(t.team_of),
        suit_of=_arr(t.suit_of),
        rank_of=_arr([layout.rank_of(c) for c in range(layout.size)]),
        printed_suit=_arr([layout.suit_mask(s) for s in range(nsuits)]),
        honour_mask=_arr([sum(1 << c for c in range(layout.size) if layout.rank_of(c) < honours)]),
        greedy_weights=greedy_weights(),
        greedy_needed=_arr(MakerBar.of(rs, hand_size(rs)).needed if offer is not None else [[0.0]] * n, np.float64),
        ops=ops,
        nops=_arr(nops),
        deliveries=deliveries,
        ctx_trump=_arr([ctx.trump for ctx in contexts]),
        suit_mask=_arr([ctx.suit_mask for ctx in contexts]),
        trump_mask=_arr([ctx.trump_mask for ctx in contexts]),
        card_suit=_arr([ctx.card_suit for ctx in contexts]),
        strength=_arr([ctx.strength for ctx in contexts]),
        above=_arr([ctx.above for ctx in contexts]),
        points=_arr([ctx.points for ctx in contexts]),
        exempt=_arr([ctx.exempt for ctx in contexts]),
        holder=_arr(list(t.holder_cards) or [-1]),
        after=_arr([[a.id for a in rs.announcements].index(a.after) if a.after else -1 for a in rs.announcements] or [-1]),
        partners=_arr([a.by == "partners" for a in rs.announcements] or [0]),
        promotion_by=_arr(list(t.promotion_by) or [-1]),
        score_vars=variables,
        score_base=base,
        score_scaled=scaled,
        score_ok=ok,
    )


def greedy_weights() -> np.ndarray:
    """The greedy agent's constants as the kernel reads them: W_TRUMP, W_HIGH, W_DEFER_SHARE
    (arrays, not globals: Numba's cache would keep a compiled kernel with old constants)."""
    return _arr([TRUMP_TRICK, HIGH_TRICK, SHARE], np.float64)


def score_tables(rs: Ruleset) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The scoring rules evaluated for every combination of the facts they read.

    Returns (base, scaled, ok, variables): ``base[row]`` and ``scaled[row]`` are the
    per-team deltas of the rules that are not, and that are, tie-scaled (the kernel
    multiplies the second by the tie carry), ``ok[row]`` is 0 where evaluating failed (a
    combination no hand produces, such as a tie with a winner), and each variable row is
    (code, index, number of values, stride): the row of a hand is the sum of value × stride.
    """
    domains = scoring_domains(rs)
    nteams = len(rs.players.teams)
    t = rs.tables
    plan = scoring_plan(rs.scoring)
    define = tuple(definition.fn for definition in rs.definitions)
    unit = t.point_unit
    plain_plan = tuple(rule for rule in plan if not rule[4])
    scaled_plan = tuple(rule for rule in plan if rule[4])
    ids = [a.id for a in rs.announcements]
    options = MappingProxyType(rs.option_values())
    strides = []
    stride = 1
    for _, _, size in reversed(domains):
        strides.append(stride)
        stride *= size
    strides.reverse()
    rows = stride
    base = np.zeros((rows, nteams), np.int64)
    scaled = np.zeros((rows, nteams), np.int64)
    ok = np.ones(rows, np.int64)
    ntricks = hand_size(rs)
    for row, values in enumerate(product(*(range(size) for _, _, size in domains))):
        facts: dict[str, Any] = dict(tricks_per_hand=ntricks)
        points: list[int | Fraction] = [0] * nteams
        tricks = [0] * nteams
        announcers: dict[str, int] = {}
        for (name, i, _), value in zip(domains, values):
            if name == "result":
                decided = value < nteams
                facts.update(winner=value if decided else None, decided=decided, tie=value == nteams,
                             no_score=value == nteams + 1,
                             loser=(1 - value if nteams == 2 else None) if decided else None)
            elif name == "maker":
                facts["maker"] = value if value < nteams else None
            elif name == "dealer":
                facts.update(dealer_team=t.team_of[value], elder_team=t.team_of[t.next_seat[value]])
            elif name == "all_tricks":
                facts["all_tricks"] = bool(value)
            elif name == "points":
                points[i] = exact(Fraction(value, unit))
            elif name == "points_in_play":
                facts[name] = exact(Fraction(value, unit))
            elif name == "tricks":
                tricks[i] = value
            elif name == "announcers":
                if value < nteams:
                    announcers[ids[i]] = value
            else:
                facts[name] = value
        hand = HandFacts(**facts, points=tuple(points), tricks=tuple(tricks),  # type: ignore[arg-type]  # exact points
                         announcers=MappingProxyType(announcers), options=options)
        try:  # each evaluation fills its own list of defined values
            base[row] = rule_deltas(plain_plan, define, nteams, hand._replace(defined=[]), 1)[0]
            scaled[row] = rule_deltas(scaled_plan, define, nteams, hand._replace(defined=[]), 1)[0]
        except Exception:
            ok[row] = 0
    variables = np.array([(SCORE_VARIABLE_CODE[name], i, size, s) for (name, i, size), s in zip(domains, strides)]
                         or np.zeros((0, 4)), np.int64).reshape(-1, 4)
    return base, scaled, ok, variables
