"""The rules of a hand's end, and the random play of its tricks, written once for both play paths.

:class:`~couillon_dsl.engine.state.GameState` (one action at a time) and the whole-game
rollout (:mod:`couillon_dsl.engine.rollout`, state in local variables) both call these:
the scoring (a closure built per ruleset), the scoresheet's carries, the end of a game
(a closure), the pack order and the random play of tricks. Each takes plain values and
returns plain values, so neither path keeps a copy of a rule.
"""
from __future__ import annotations

import functools
from collections import Counter
from fractions import Fraction
from itertools import combinations, repeat, starmap
from math import comb, floor
from operator import add, itemgetter
from types import MappingProxyType
from typing import Any, Callable, Mapping, MutableSequence, NamedTuple, Sequence, cast

from couillon_dsl.cards import Card, CardMask, iter_bits
from couillon_dsl.expr.compile import Definition, HandFacts
from couillon_dsl.expr.parse import exact
from couillon_dsl.model import Limits, ScoringRule, Scoresheet, Session, Tables, Tally, Team, Trump, TrumpContext

_new_tuple = tuple.__new__  # builds a NamedTuple from a ready tuple, as NamedTuple._make does
NO_ANNOUNCERS: Mapping[str, Team] = MappingProxyType({})
TIMES_FIELD = HandFacts._fields.index("announced_times")  # the last fact, which a row of facts leaves out
NOBODY_WINS: tuple[Team | None, bool, bool] = (None, False, True)  # (winner, tie, no_score) of a hand nobody wins

# what settle() says happens after a hand
NEXT_HAND, NEXT_GAME, SESSION_OVER, ABANDONED = range(4)


class OutcomeExpression(NamedTuple):
    """`outcome.maker_wins` or `outcome.winner` compiled: the closure, the facts it reads (the memo key of
    its verdicts), and which of the two it is (``names_winner``: a team expression, `none` a tie)."""

    fn: Callable[[Any], object]
    reads: frozenset[str]
    names_winner: bool = False


class HandScore(NamedTuple):
    """A finished hand scored: its outcome, what it moves on the scoresheet, and the carries after it."""

    outcome: str  # winner, tie or no_score
    winner: Team | None
    tie: bool
    all_tricks: bool
    points_in_play: int
    multiplier: int  # the tie carry applied to tie-scaled rules
    deltas: tuple[int, ...]
    values: tuple[int, ...]  # the scoresheet after the hand
    ties: int  # ties pending after the hand
    passes: int  # passed-out deals pending after the hand
    first_to_goal: Team | None = None  # with when_both_reach: first_by_rule_order, the team that got there first
    tallies: tuple[tuple[int, ...], ...] = ()  # per tally (the `tallies` section), each team's count after the hand
    ends_game: bool = False  # `scoresheet.ends_when` held: the game is over, the best total winning
    game_winner: Team | None = None  # ... won by this team (`scoresheet.won_by`), else by the best total
    dealer_stays: bool = False  # `dealer.stays_when` held: the same dealer deals the next hand


ScoreFn = Callable[..., HandScore]  # score(points, tricks, maker, dealer, ntricks, passes, ties, values, made,
#                                            declared, contract, contract_multiplier)

MEMO_LIMIT = 1 << 14  # distinct fact combinations a ruleset's scoring is remembered for
# the facts before language v2's (declarations, contracts, cards won, the last trick): a ruleset whose rules
# read only these is scored by a closure that builds no more of a hand's row
LANGUAGE_V1_FACTS = frozenset(HandFacts._fields[:HandFacts._fields.index("declared")])


def scoring_plan(rules: Sequence[ScoringRule]) -> tuple[tuple[Any, ...], ...]:
    """The scoring rules as (when_fn or None, team_fn, delta or None, delta_fn, tie_scaled, for_each).

    A `when` that is literally true needs no call (None), one that is literally false drops
    the rule, and a plain integer `delta` is read as is (None: call ``delta_fn``).
    """
    plan = []
    for rule in rules:
        if rule.when is False:
            continue
        plan.append((None if rule.when is True else rule.when_fn, rule.team_fn,
                     rule.delta if type(rule.delta) is int else None, rule.delta_fn, rule.tie_scaled,
                     rule.for_each))
    return tuple(plan)


def rule_deltas(plan: Sequence[tuple[Any, ...]], define: Sequence[Callable[[HandFacts], Any]], nteams: int,
                facts: HandFacts, k: int, per_seat: bool = False) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """What the rules of ``plan`` (:func:`scoring_plan`) add for ``facts``: each team's change, and the
    changes rule by rule (each a tuple per team), in rule order; tie-scaled rules count ``k`` times.

    The `define` functions are evaluated first, in order, into ``facts.defined`` (a fresh list
    the caller put there). A `for_each: team` rule runs once per team with ``each_team`` set, a
    `for_each: seat` rule once per seat with ``each_seat`` set (its change to the seat's team).
    ``per_seat`` (a scoresheet kept per seat): the changes are per seat (``facts.seat_sides``), a side's
    paid to each of its seats and a `for_each: seat` rule's to that seat alone.
    """
    sides = facts.seat_sides
    deltas = [0] * (len(sides) if per_seat else nteams)
    steps = []
    if define:
        defined: list[Any] = facts.defined  # type: ignore[assignment]  # the list the caller put there
        for fn in define:  # each after those it reads (check_definitions)
            defined.append(fn(facts))
    for when, team_fn, delta, delta_fn, scaled, for_each in plan:  # constants are not called (scoring_plan)
        step = [0] * len(deltas)
        for each in ((facts._replace(each_team=t) for t in range(nteams)) if for_each == "team" else
                     (facts._replace(each_seat=s) for s in range(len(sides))) if for_each else (facts,)):
            if when is None or when(each):
                team = team_fn(each)
                if team is not None:
                    change = delta_fn(each) if delta is None else delta
                    if scaled:
                        change *= k
                    if not per_seat:
                        deltas[team] += change
                        step[team] += change
                        continue
                    for seat in ((int(each.each_seat),) if for_each == "seat" else  # type: ignore[arg-type]
                                 (s for s, side in enumerate(sides) if side == team)):
                        deltas[seat] += change
                        step[seat] += change
        if any(step):
            steps.append(tuple(step))
    return tuple(deltas), tuple(steps)


def make_score_hand(
    outcome: Callable[[Any, Any, Any], tuple[Any, bool, bool]],
    rules: Sequence[ScoringRule],
    team_of: Sequence[Team],
    next_seat: Sequence[int],
    sheet: Scoresheet,
    announcement_ids: Sequence[str],
    options: Mapping[str, Any],
    definitions: Sequence[Definition] = (),
    unit: int = 1,
    nsides: int = 0,
    decider: OutcomeExpression | None = None,
    tallies: Sequence[Tally] = (),
    game_ends: ScoringRule | None = None,
    dealer_stays: ScoringRule | None = None,
) -> ScoreFn:
    """The closure that scores a hand: ``score(points, tricks, maker, dealer, ntricks,
    passes, ties, values, made, declared, ..., side_of) -> HandScore``.

    ``outcome`` is the `outcome` section's closure; ``made`` lists the announcements made
    as (announcement index, seat); ``declared`` the points each team keeps per declaration
    kind (:func:`couillon_dsl.engine.declarations.award`); ``held`` the cards each side held at
    the start of play, and ``trump`` the hand's trump suit (-1: none), which a card set naming
    trump cards follows; ``values``, the scoresheet before the hand, is what `score()` reads
    (fixed teams only: a per-seat scoresheet has no side's score). The rules' expressions are pure functions of the
    HandFacts fields they read (:attr:`ScoringRule.reads`), so their deltas are computed
    once per combination of those fields (most rules read a handful of small values:
    winner, maker, decided...) and remembered, up to :data:`MEMO_LIMIT` combinations. The
    `define` section is evaluated, in order, only when the memo misses (its reads are part of
    each rule's). A `for_each: team` rule runs once per team with ``each_team`` set. Card
    points arrive in 1/``unit`` of a point; expressions see exact points. The tie carry's
    branches are taken here, once.

    Sides: points, tricks and the expressions' teams are the hand's ``nsides`` sides, seat
    ``s`` playing on ``side_of[s]`` (the fixed teams, ``team_of``, when not given). With
    ``nsides`` set (sides fixed per hand) the scoresheet has one value per seat, ``team_of``
    numbers them, and a side's change is paid to each of its seats; a hand whose ``points``
    has a value per seat (everyone passed: `on_all_pass: {contract}`) has a side per seat. ``decider`` (the
    compiled `outcome.maker_wins` or `outcome.winner`) decides who wins instead of ``outcome``: the
    maker's side when maker_wins holds, else the other side; the team winner names.

    ``tallies`` (fixed teams only) come after the rules: each team's count grows by the
    tally's `adds` (remembered with the rules' deltas), and every `every` it reaches pays the
    tally's `delta` into the hand's change, as one more step of the race to the goal; a pot's
    (`to`) counts all go to the team `to` names after a hand where its `when` holds. The
    closure then takes the counts before the hand (``counts``, per tally per team: what
    `tally()` reads) and returns them after it (``HandScore.tallies``), every count of a tally
    back at 0 after a hand where its `clears_when` holds. ``game_ends`` (`scoresheet.ends_when`,
    compiled as a rule's `when`) says whether the hand ends the game (``HandScore.ends_game``), and
    ``dealer_stays`` (`dealer.stays_when`, likewise) whether its dealer deals again (``HandScore.dealer_stays``).

    A ruleset with fixed teams, an `outcome` without `maker_wins`, rules that read only
    :data:`LANGUAGE_V1_FACTS` and a goal not counted rule by rule (most of them) gets a
    closure that builds the short row, remembers the deltas alone and ignores the later
    arguments: the per-hand cost standard Couillon had before those concepts came
    (``bench/bench_engine.py --against``).
    """
    plan = scoring_plan(rules)
    carry = sheet.tie_carry
    carries_ties = carry != "none"
    nteams = max(team_of) + 1
    per_seat = nsides > 0
    nsides = nsides or nteams
    options = MappingProxyType(dict(options))
    reads = set().union(*(rule.reads for rule in rules), *(tally.reads for tally in tallies),
                        game_ends.reads if game_ends else (), dealer_stays.reads if dealer_stays else ()) - {"options"}
    if any(rule.tie_scaled for rule in rules):
        reads.add("ties_pending")  # the tie multiplier
    # a row's (deltas, steps rule by rule, each tally's adds per team, each pot's payee or None, whether each
    # tally's counts are wiped, whether the game ends)
    memo: dict[Any, tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...],
                          tuple[Team | None, ...], tuple[bool, ...], bool, Team | None, bool]] = {}
    race = sheet.when_both_reach == "first_by_rule_order"
    goal = sheet.goal
    sign = 1 if sheet.direction == "down" else -1

    def multiplier(ties: int) -> int:
        if carry == "next_decided_double":
            return 2
        if carry == "cumulative_double":
            return 2 ** ties
        return 1

    define = tuple(definition.fn for definition in definitions)

    def in_game_points(units: int) -> int | Fraction:
        return exact(Fraction(units, unit))

    def facts_of(row: tuple[Any, ...], sides: Sequence[Team]) -> HandFacts:
        """The HandFacts of a row of facts (points in game points, announcers by side, how many times each
        announcement was made, no definitions yet); the row stops before ``announced_times`` or holds its default."""
        made = row[15]
        announcers = {announcement_ids[a]: sides[s] for a, s in made} if made else NO_ANNOUNCERS
        times = Counter(announcement_ids[a] for a, _ in made) if made else NO_ANNOUNCERS
        facts = row[:15] if unit == 1 else (
            row[:10] + (in_game_points(row[10]),) + row[11:13] + (tuple(map(in_game_points, row[13])),) + row[14:15])
        return _new_tuple(HandFacts, facts + (announcers, options, [], None) + row[19:TIMES_FIELD] + (times,))

    key_of = _row_key(reads)
    decide = None if decider is None else _make_decide(decider, facts_of, define)
    teams = range(nteams)
    counted = tuple(tally.adds_fn for tally in tallies)
    payouts = tuple((tally.every, tally.delta) for tally in tallies)
    pays = tuple(tally.pays for tally in tallies)
    clears = tuple(tally.clears for tally in tallies)
    if not (race or per_seat or decide is not None or tallies or game_ends or dealer_stays) \
            and reads <= LANGUAGE_V1_FACTS:
        return _score_language_v1(outcome, plan, define, team_of, next_seat, carries_ties, multiplier, key_of,
                                  lambda row: facts_of(row, team_of), options)

    def score(points: tuple[int, ...], tricks: tuple[int, ...], maker: Team | None, dealer: int, ntricks: int,
              passes: int, ties: int, values: Sequence[int], made: Sequence[tuple[int, int]],
              declared: tuple[tuple[int, ...], ...] = (), contract: str | None = None,
              contract_multiplier: int = 1, won: tuple[int, ...] = (),
              last_trick: tuple[Any, ...] = (None, 0, ()), side_of: Sequence[Team] | None = None,
              bids: tuple[int, ...] = (), seat_tricks: tuple[int, ...] = (),
              seat_bids: tuple[int, ...] = (), counts: tuple[tuple[int, ...], ...] = (), held: tuple[int, ...] = (),
              trump: int = -1, bid_value: int = 0, kitty_taken: bool = False,
              top_runs: tuple[int, ...] = (), doubled: int = 1, seat_blinds: tuple[bool, ...] = (),
              captured: tuple[int, ...] = (), trick_values: tuple[tuple[Any, Any], ...] = (),
              sides_in_play: tuple[int, ...] = (), declarer: int | None = None, hand_number: int = 0,
              announced_tricks: tuple[tuple[str, tuple[int, ...]], ...] = (),
              seat_held: tuple[int, ...] = (), card_keys: tuple[int, ...] = ()) -> HandScore:
        sides = team_of if side_of is None else side_of
        scores = () if per_seat else tuple(values)
        in_play = sum(points)
        if len(points) != nsides:  # everyone passed into a contract, each seat for itself: no side wins the hand
            winner, tie, no_score = NOBODY_WINS
        elif decide is None:
            winner, tie, no_score = outcome(points, tricks, maker)
        else:
            winner, tie, no_score = decide((None, None, maker, sides[dealer], sides[next_seat[dealer]], False, False,
                                            False, False, ntricks, in_play, passes, ties, points, tricks, tuple(made),
                                            options, None, None, declared, contract, contract_multiplier, won,
                                            *last_trick, bids, seat_tricks, seat_bids, tuple(sides), None, held,
                                            trump, scores, bid_value, kitty_taken, top_runs, doubled, seat_blinds,
                                            captured, trick_values, sides_in_play, declarer, hand_number,
                                            announced_tricks, counts, seat_held, card_keys),
                                           sides)
        decided = winner is not None
        all_tricks = winner is not None and tricks[winner] == ntricks
        row = (winner, (1 - winner if nsides == 2 else None) if winner is not None else None,
               maker, sides[dealer], sides[next_seat[dealer]], decided, tie, no_score, all_tricks, ntricks,
               in_play, passes, ties, points, tricks, tuple(made), options, None, None, declared, contract,
               contract_multiplier, won, *last_trick, bids, seat_tricks, seat_bids, tuple(sides), None, held, trump,
               scores, bid_value, kitty_taken, top_runs, doubled, seat_blinds, captured, trick_values, sides_in_play,
               declarer, hand_number, announced_tricks, counts, seat_held, card_keys)
        k = multiplier(ties) if ties else 1
        # a hand played with every seat for itself (`on_all_pass: {contract}`) has a side per seat
        sides_now = len(points) if per_seat else nsides
        # per seat, the changes are paid by the hand's sides (a `for_each: seat` rule to its seat alone)
        key = key_of(row), sides_now, tuple(sides) if per_seat else None
        scored = memo.get(key)
        if scored is None:
            facts = facts_of(row, sides)
            deltas, steps = rule_deltas(plan, define, sides_now, facts, k, per_seat)
            adds = tuple(tuple(int(fn(facts._replace(each_team=t))) for t in teams)  # type: ignore[call-overload]
                         for fn in counted)  # facts.defined is filled by now
            payees = tuple(_payee(pot, facts) for pot in pays)
            wiped = tuple(rule is not None and bool(rule.when_fn(facts)) for rule in clears)
            ends = game_ends is not None and bool(game_ends.when_fn(facts))
            ends_winner = cast(Team | None, game_ends.team_fn(facts)) if game_ends is not None and ends else None
            stays = dealer_stays is not None and bool(dealer_stays.when_fn(facts))
            scored = deltas, steps, adds, payees, wiped, ends, ends_winner, stays
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = scored
        deltas, steps, adds, payees, wiped, ends, ends_winner, stays = scored
        if counted:
            counts, paid = tally_payouts(payouts, counts or ((0,) * nteams,) * len(counted), adds, payees)
            if any(wiped):
                counts = tuple((0,) * nteams if wipe else row for row, wipe in zip(counts, wiped))
            if any(paid):
                deltas = tuple(map(add, deltas, paid))
                steps = (*steps, paid)
        first = None
        if race:  # the rules count one at a time, in order: who reaches the goal first
            running = values
            for step in steps:
                running = tuple(map(add, running, step))
                there = [t for t in teams if (goal - running[t]) * sign >= 0]
                if there:  # reached within one rule (a for_each rule counts for all teams at once): furthest past
                    first = max(there, key=lambda t: ((goal - running[t]) * sign, t == winner, -t))
                    break
        if decided:
            ties = passes = 0
        elif tie and carries_ties:
            ties += 1
        return _new_tuple(HandScore, (
            "winner" if decided else ("tie" if tie else "no_score"), winner, tie, all_tricks, in_play, k,
            deltas, tuple(map(add, values, deltas)), ties, passes, first, counts, ends, ends_winner, stays,
        ))

    return score


def _payee(pot: ScoringRule | None, facts: HandFacts) -> Team | None:
    """The team a pot (a tally with `to`) goes to after the hand of ``facts``: its `to` when its
    `when` holds, else None (held); None for a tally that pays every so many."""
    if pot is None or not pot.when_fn(facts):
        return None
    return cast(Team | None, pot.team_fn(facts))


def tally_payouts(payouts: Sequence[tuple[int, int]], counts: Sequence[tuple[int, ...]],
                  adds: Sequence[tuple[int, ...]], payees: Sequence[Team | None]
                  ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Each tally's counts after a hand that ``adds`` to them, and what their payouts add to each
    team's score: a count that reaches ``every`` drops by it (as many times as it holds it) and
    pays ``delta`` each time; a pot's counts (``every`` 0) all go to its ``payee``, if any."""
    paid = [0] * len(counts[0]) if counts else []
    after = []
    for (every, delta), before, more, payee in zip(payouts, counts, adds, payees):
        if not every:  # a pot: whole, to the team the hand names, or held
            held = tuple(map(add, before, more))
            if payee is None:
                after.append(held)
            else:
                paid[payee] += sum(held)
                after.append((0,) * len(held))
            continue
        row = []
        for team, count in enumerate(map(add, before, more)):
            times = count // every if count >= every else 0
            paid[team] += times * delta
            row.append(count - times * every)
        after.append(tuple(row))
    return tuple(after), tuple(paid)


def _score_language_v1(outcome: Callable[[Any, Any, Any], tuple[Any, bool, bool]], plan: Sequence[tuple[Any, ...]],
                       define: Sequence[Callable[[HandFacts], Any]], team_of: Sequence[Team], next_seat: Sequence[int],
                       carries_ties: bool, multiplier: Callable[[int], int], key_of: Callable[[tuple[Any, ...]], Any],
                       facts_of: Callable[[tuple[Any, ...]], HandFacts], options: Mapping[str, Any]) -> ScoreFn:
    """:func:`make_score_hand`'s closure for the common case: fixed teams, the `outcome`
    section, no rule reading a fact after ``announcers``, no goal counted rule by rule. The
    row stops at the announcements made (the rest are the defaults, added when the memo
    misses), the memo keeps the deltas alone and the later arguments are not looked at."""
    nteams = max(team_of) + 1
    two_teams = nteams == 2
    fields = HandFacts._fields
    tail = (options, None, None) + tuple(HandFacts._field_defaults[name] for name in fields[fields.index("declared"):])
    memo: dict[Any, tuple[int, ...]] = {}

    def score(points: tuple[int, ...], tricks: tuple[int, ...], maker: Team | None, dealer: int, ntricks: int,
              passes: int, ties: int, values: Sequence[int], made: Sequence[tuple[int, int]], declared: Any = (),
              contract: Any = None, contract_multiplier: Any = 1, won: Any = (), last_trick: Any = (None, 0, ()),
              side_of: Any = None, bids: Any = (), seat_tricks: Any = (), seat_bids: Any = (),
              counts: Any = (), held: Any = (), trump: Any = -1, bid_value: Any = 0, kitty_taken: Any = False,
              top_runs: Any = (), doubled: Any = 1, seat_blinds: Any = (), captured: Any = (),
              trick_values: Any = (), sides_in_play: Any = (), declarer: Any = None, hand_number: Any = 0,
              announced_tricks: Any = (), seat_held: Any = (), card_keys: Any = ()) -> HandScore:
        winner, tie, no_score = outcome(points, tricks, maker)
        decided = winner is not None
        all_tricks = decided and tricks[winner] == ntricks
        in_play = sum(points)
        row = (winner, (1 - winner if two_teams else None) if decided else None,
               maker, team_of[dealer], team_of[next_seat[dealer]], decided, tie, no_score, all_tricks, ntricks,
               in_play, passes, ties, points, tricks, tuple(made))
        k = multiplier(ties) if ties else 1
        key = key_of(row)
        deltas = memo.get(key)
        if deltas is None:
            deltas = rule_deltas(plan, define, nteams, facts_of(row + tail), k)[0]
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = deltas
        if decided:
            ties = passes = 0
        elif tie and carries_ties:
            ties += 1
        return _new_tuple(HandScore, (
            "winner" if decided else ("tie" if tie else "no_score"), winner, tie, all_tricks, in_play, k,
            deltas, (values[0] + deltas[0], values[1] + deltas[1]) if two_teams else tuple(map(add, values, deltas)),
            ties, passes, None, (), False, None, False,
        ))

    return score


def _row_key(reads: set[str] | frozenset[str]) -> Callable[[tuple[Any, ...]], Any]:
    """The memo key of a row of facts: the fields ``reads`` names (announcers, and the times each
    announcement was made, stand in as the tuple of announcements made)."""
    fields = HandFacts._fields
    index = sorted({fields.index("announcers" if name == "announced_times" else name) for name in reads})
    return itemgetter(*index) if index else (lambda row: ())


def _make_decide(decider: OutcomeExpression, facts_of: Callable[[tuple[Any, ...], Sequence[Team]], HandFacts],
                 define: Sequence[Callable[[HandFacts], Any]]) -> Callable[..., tuple[Team | None, bool, bool]]:
    """`outcome.maker_wins` or `outcome.winner` as ``decide(row, sides) -> (winner, tie, no_score)``,
    remembered per combination of the facts it reads. maker_wins: the maker's side or the other,
    nobody scoring without a maker; winner: the team it names, `none` a tie."""
    fn, reads, names_winner = decider
    key_of = _row_key(reads - {"options"})
    memo: dict[Any, Any] = {}

    def decide(row: tuple[Any, ...], sides: Sequence[Team]) -> tuple[Team | None, bool, bool]:
        maker = row[2]
        if maker is None and not names_winner:
            return NOBODY_WINS
        key = key_of(row)
        if key in memo:
            verdict = memo[key]
        else:
            facts = facts_of(row, sides)
            defined: list[Any] = facts.defined  # type: ignore[assignment]
            for define_fn in define:
                defined.append(define_fn(facts))
            verdict = fn(facts) if names_winner else bool(fn(facts))
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = verdict
        if names_winner:
            return verdict, verdict is None, False
        return (maker if verdict else 1 - maker), False, False

    return decide


def first_leader(rule: str, dealer: int, elder: int, maker: Team | None, decider: int | None,
                 asked: int | None = None, next_seat: Sequence[int] = ()) -> int:
    """The seat that leads the first trick under `play.first_lead` (`maker` or `after_maker` without
    one, or `chooser` without a choice: the elder)."""
    if rule == "elder":  # the usual rule first: one comparison
        return elder
    if rule == "dealer":
        return dealer
    if rule == "chooser":
        return asked if asked is not None and asked >= 0 else elder
    if maker is None or decider is None:
        return elder
    return next_seat[decider] if rule == "after_maker" else decider


def fallback_maker(trump: Trump, team_of: Sequence[Team], elder: int) -> Team | None:
    """The maker when trump came from a fallback or a deferral (`maker_after_fallback`)."""
    return team_of[elder] if trump.maker_after_fallback == "elder_team" else None


def passes_after_pass_out(sheet: Scoresheet, passes: int) -> int:
    """Passed-out deals pending after one more (`pass_carry`)."""
    if sheet.pass_carry == "single":
        return 1
    if sheet.pass_carry == "cumulative":
        return passes + 1
    return passes


SettleFn = Callable[..., tuple[int, Any]]


def make_settle(sheet: Scoresheet, session: Session, limits: Limits) -> SettleFn:
    """The closure that says what follows a scored hand:
    ``settle(values, hand_winner, game_hands, games_won, first, ends, ends_winner) -> (verdict, game winner)``.

    The verdict is NEXT_HAND, NEXT_GAME, SESSION_OVER or ABANDONED (`limits.max_hands`, or
    `limits.max_games` reached by a won game: then the game winner comes with it); a won game
    is counted in ``games_won``. When several teams pass the goal at once, the furthest past
    it wins, then the hand's winner, then the lower team number. With `at_goal: ends_game` a
    team at the goal ends the game instead, and the team furthest from it wins (then the lower
    team number). A game of `deals` or with `ends_when` races to no goal: it ends after its last
    deal or a hand where `ends_when` held (``ends``), and the best total wins (highest counting
    up, lowest counting down), then the hand's winner, then the lower team number; or, after
    `ends_when`, the team `scoresheet.won_by` names (``ends_winner``, when it names one).
    """
    goal = sheet.goal
    sign = 1 if sheet.direction == "down" else -1  # (goal - value) * sign >= 0: at or past the goal
    better = -1 if sheet.lower_is_better() else 1  # the best total is the highest value * better
    deals = sheet.deals or 0
    no_race = bool(deals or sheet.ends_when)  # the game ends by its deals or by `ends_when`, not at a goal
    max_hands = limits.max_hands
    max_games = limits.max_games
    games_to_win = session.games_to_win
    ends_game = sheet.at_goal == "ends_game"
    goes_on = (NEXT_HAND, None)
    abandoned = (ABANDONED, None)

    def won(winner: Team, games_won: MutableSequence[int]) -> tuple[int, Team | None]:
        games_won[winner] += 1
        if games_won[winner] >= games_to_win:
            return SESSION_OVER, winner
        return (ABANDONED if sum(games_won) >= max_games else NEXT_GAME), winner

    def best_total(values: Sequence[int], hand_winner: Team | None) -> Team:
        return max(range(len(values)), key=lambda t: (values[t] * better, t == hand_winner, -t))

    def settle(values: Sequence[int], hand_winner: Team | None, game_hands: int,
               games_won: MutableSequence[int], first: Team | None = None, ends: bool = False,
               ends_winner: Team | None = None) -> tuple[int, Team | None]:
        if no_race:  # `first` (a goal reached mid-hand) has no meaning without a goal
            if ends and ends_winner is not None:  # `scoresheet.won_by`: the rules name the winner
                return won(ends_winner, games_won)
            if ends or deals and game_hands >= deals:
                return won(best_total(values, hand_winner), games_won)
            return abandoned if game_hands >= max_hands else goes_on
        if first is None and (min(values) > goal if sign == 1 else max(values) < goal):  # nobody there: the usual case
            return abandoned if game_hands >= max_hands else goes_on
        if ends_game:  # someone got there: the game is over, and the furthest from the goal wins
            winner = max(range(len(values)), key=lambda t: ((values[t] - goal) * sign, -t))
        else:
            winner = first if first is not None else max((t for t, v in enumerate(values) if (goal - v) * sign >= 0),
                         key=lambda t: ((goal - values[t]) * sign, t == hand_winner, -t))
        return won(winner, games_won)

    return settle


# byte k of a mask -> its cards, for the first eight bytes (64 cards): a mask's cards a byte at a time
_BYTE_CARDS = tuple(tuple(tuple(8 * k + bit for bit in range(8) if byte >> bit & 1) for byte in range(256))
                    for k in range(8))


class _CardsOf(dict):
    """mask -> its cards ascending, filled on first use and emptied when full (see cards_table)."""

    def __missing__(self, mask: CardMask) -> tuple[Card, ...]:
        if len(self) >= CARDS_CACHE_LIMIT:
            self.clear()
        if mask >> 64:  # beyond the byte tables
            cards = tuple(iter_bits(mask))
        else:
            cards = ()
            rest = mask
            for byte_cards in _BYTE_CARDS:
                cards += byte_cards[rest & 255]
                rest >>= 8
                if not rest:
                    break
        self[mask] = cards
        return cards


CARDS_TABLE_LIMIT = 1 << 16  # masks a complete table may hold (a 24-card pack's hands of 4: 12,951)
CARDS_CACHE_LIMIT = 1 << 16


@functools.cache
def cards_table(ncards: int, most: int) -> dict[CardMask, tuple[Card, ...]]:
    """mask -> its cards ascending, for the masks of at most ``most`` of ``ncards`` cards.

    Random play draws a card from a legal mask through this table. A complete table is a
    plain dict, whose subscript the interpreter specialises (measured: 6% fewer
    instructions per hand than a dict subclass), built once per process when it holds at
    most :data:`CARDS_TABLE_LIMIT` masks; bigger packs and hands get a cache filled on
    first use instead.
    """
    if sum(comb(ncards, k) for k in range(most + 1)) > CARDS_TABLE_LIMIT:
        return _CardsOf()
    return {sum(1 << c for c in cards): cards for k in range(most + 1) for cards in combinations(range(ncards), k)}


def random_tricks(ctx: TrumpContext, t: Tables, cards_of: Mapping[CardMask, tuple[Card, ...]], hands: list[CardMask],
                  leader: int, left: int, rnd: Callable[[], float], history: list[int],
                  log: list[tuple[int, tuple[Card, ...], int]], won_points: list[int], won_tricks: list[int],
                  side_of: Sequence[Team] | None = None) -> int:
    """Play ``left`` whole tricks from ``leader`` with uniformly random legal cards; the last leader.

    ``cards_of`` is :func:`cards_table` for the pack and at least ``left`` cards.
    Cards go to ``history``, each trick to ``log`` as (leader, cards, winner), and its
    points and count to the winner's side (``side_of``; the fixed teams when not given). Card r of the ascending legal cards is drawn
    with ``r = int(rnd() * count)`` (no draw when only one card is legal), as the
    reference simulator does (computed as ``floor``: equal for these non-negative values,
    and a cheaper call than the ``int`` constructor). Every hand holds one card per trick
    left, so a leader before the last trick has a choice; in the last trick each hand's one
    card is its only legal card (a legal set is never empty and lies within the hand): no
    draw, no follow check.
    Of equal cards the first played wins, or the later where the context says so (`play.equal_cards`).
    A follow rule that is not masks alone is called with the winning card and the mask of
    the trick so far. The last trick's cards are left in ``hands``: a caller that keeps the
    hands clears them.
    """
    legal = ctx.legal
    masks = ctx.follow_masks  # a rule that is masks alone is applied inline: no call per card
    plain = masks is not None
    if masks is not None:
        have_masks, allowed_masks, void_mask = masks
    strength = ctx.strength
    later, later_last = ctx.later_beats, ctx.later_beats_last  # `play.equal_cards`: the later of equals wins
    points = ctx.points
    card_suit = ctx.card_suit
    bits = t.card_bit
    followers = t.followers
    team_of = t.team_of if side_of is None else side_of
    play = history.append
    n = len(hands)
    last = left - 1
    for trick_no in range(left):
        if trick_no < last:
            h = hands[leader]
            cards = cards_of[h]  # two cards or more: every hand holds one card per trick left
            card = cards[floor(rnd() * len(cards))]
            hands[leader] = h ^ bits[card]
            play(card)
            led = card_suit[card]
            st = strength[led]
            best = st[card]
            win = card
            wseat = leader
            tpoints = points[card]
            if plain:
                have = have_masks[led]
                allowed = allowed_masks[led]
            else:
                trick_mask = 0
            for seat in followers[leader]:
                h = hands[seat]
                if plain:
                    cards = cards_of[h & allowed if h & have else (h & void_mask or h)]
                else:
                    trick_mask |= bits[card]  # ``card``: the one played just before
                    cards = cards_of[legal(h, led, win, trick_mask)]
                k = len(cards)
                card = cards[floor(rnd() * k)] if k > 1 else cards[0]
                hands[seat] = h ^ bits[card]
                play(card)
                s = st[card]
                if s > best or s == best and later and later[card] >> win & 1:
                    best = s
                    win = card
                    wseat = seat
                tpoints += points[card]
        else:  # the last trick: each hand's one card
            card = hands[leader].bit_length() - 1
            play(card)
            st = strength[card_suit[card]]
            best = st[card]
            win = card
            wseat = leader
            tpoints = points[card]
            for seat in followers[leader]:
                card = hands[seat].bit_length() - 1
                play(card)
                if st[card] > best or st[card] == best and later_last and later_last[card] >> win & 1:
                    best = st[card]
                    win = card
                    wseat = seat
                tpoints += points[card]
        team = team_of[wseat]
        won_points[team] += tpoints
        won_tricks[team] += 1
        log.append((leader, tuple(history[-n:]), wseat))
        leader = wseat
    return leader


def shuffled(cards: Sequence[Card], rnd: Callable[[], float]) -> list[Card]:
    """``cards`` (ascending: a list, or ``range(n)`` for a whole pack) in a uniformly random order.

    Sorting by random keys is a uniform shuffle; ``starmap`` calls ``rnd`` in C, once per
    card in ascending card order, the same draws as a loop would make.
    """
    keys = list(starmap(rnd, repeat((), len(cards))))
    if type(cards) is range:
        return sorted(cards, key=keys.__getitem__)
    return [c for _, c in sorted(zip(keys, cards))]
