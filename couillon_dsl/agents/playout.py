"""How the searching agents finish a hand in a sampled world, and what the result is worth.

A hand's worth is not its scoresheet change but what that change does to the chance of
winning: a line matters most when it ends the game. :class:`Outlook` prices a scoresheet
by the problem of points (each hand won by either team with even chances, one step per
hand), over the games of a session too, so the value is read off the scoresheet state the
ruleset declares (start, goal, direction, games to win) and nothing else.

The playout policy is greedy's, with a share of random leads so the worlds' playouts do
not all follow one line: followers take the trick as cheaply as they can or shed, leaders
cash a master card, decisions are greedy's.
"""
from __future__ import annotations

import functools
import math
import random
import statistics
import time
from statistics import NormalDist
from typing import TYPE_CHECKING, Callable, Sequence

from couillon_dsl.agents.greedy import GreedyAgent, play, played_cards
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.engine.hand import cards_table

if TYPE_CHECKING:
    from couillon_dsl.engine import GameState
    from couillon_dsl.engine.actions import Actions
    from couillon_dsl.model import Ruleset

SPREAD_GAMES = 8  # seeded random games that measure a hand's typical scoresheet change (games of fixed deals)
SPREAD_SEED = 0
STANDARD_NORMAL = NormalDist()  # a game of fixed deals: the chance a lead holds over the deals left
STEPS = 30  # the scoresheet's distance to the goal is priced in at most this many steps
EXPLORE = 0.25  # share of leads the playout makes at random
DECISION_EXPLORE = 0.0  # ... when valuing a decision that is not a card: the play the table will see, not variety
EVIDENCE = 1.0  # standard errors by which a search's choice must beat greedy's at a decision that is not a card
PRICED_LIMIT = 1 << 12  # scoresheet states an Outlook remembers the chances of
# the fewest worlds whose spread the evidence rule trusts: from two or three worlds (a long hand with a dozen
# bids to play out in each) the sample variance can come out near nothing and let chance overrule greedy
EVIDENCE_WORLDS = 8
POINTS_WEIGHT = 1e-3  # card points break ties between lines of equal worth
DECISION_BUDGET = 2  # a decision that is not a card (trump, contract, announcement, declaration) gets this many times
# the search: it decides the most; but where every seat is offered the turned-up card in turn, decisions are
# a third of a seat's choices, and four times the search put the mean time per choice at 60-70 ms for 30 ms cards


def whole_count(name: str, value: object) -> None:
    """Refuse a budget setting that is not a whole number of at least 1 (a usage error's text)."""
    if not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")


class SearchAgent:
    """What the searching agents share: a time budget ``ms`` (0: the budget is a count), the
    greedy policy for playouts (and for a choice no sampled world fits), the sampler, the
    outlook of the ruleset last seen, and the ``evidence`` a decision needs to overrule greedy.

    A decision that is not a card (trump, contract, announcement) is valued by a few hundred
    playouts of a whole hand, whose outcomes spread widely, while greedy's rule for it is
    calibrated to the ruleset's break-even: the search takes greedy's choice unless its own
    beats it by ``evidence`` standard errors. Card play is the search's own."""

    def __init__(self, ms: float, evidence: float) -> None:
        if not isinstance(ms, (int, float)) or ms < 0:
            raise ValueError(f"ms must be a number >= 0 (0: budget by count), got {ms!r}")
        if not isinstance(evidence, (int, float)) or evidence < 0:
            raise ValueError(f"evidence must be a number >= 0 (0: the search decides alone), got {evidence!r}")
        self.ms = ms
        self.evidence = evidence
        self._greedy = GreedyAgent()
        self._sampler = Sampler()
        self._outlook: Outlook | None = None

    def deadline(self, state: GameState, legal: Sequence[int]) -> tuple[int, float]:
        """The budget scale of this choice and the time by which an ``ms`` budget runs out."""
        scale = budget_scale(legal, state.actions)
        return scale, time.perf_counter() + scale * self.ms / 1000

    def played_out(self, state: GameState, legal: Sequence[int], rng: random.Random, count: int, deadline: float,
                   explore: float) -> list[list[float]]:
        """Per sampled world, the value of each of ``legal`` played out in it, for the seat to act: up
        to ``count`` worlds, or with ``ms`` batches of ``count`` fresh worlds until ``deadline`` (at
        least one world, if any fits). Each world is drawn when its turn comes and played once: the
        rows are independent, as the evidence rule's standard error assumes. On a budget a world
        whose actions are not all played out by the deadline is dropped there: a Spades bid, a
        dozen numbers each played out over a whole hand, took five times its 60 ms for one world,
        and fewer than eight worlds leave greedy's choice standing anyway."""
        seat = state.current_player()
        outlook = self._outlook = outlook_of(state.ruleset, self._outlook)
        team = state.ruleset.tables.team_of[seat]
        values: list[list[float]] = []
        while True:
            searched = len(values)
            for world in self._sampler.draw(state, seat, count, rng):
                row = []
                for action in legal:
                    row.append(worth(world, action, team, outlook, rng, self._greedy, explore))
                    if self.ms and len(row) < len(legal) and time.perf_counter() > deadline:
                        return values
                values.append(row)
                if self.ms and time.perf_counter() > deadline:
                    break
            if len(values) == searched or not self.ms or time.perf_counter() > deadline:
                return values

    def best_played_out(self, state: GameState, legal: Sequence[int], rng: random.Random, scale: int,
                        values: list[list[float]]) -> int:
        """The action of the best total over the worlds ``values`` were played out in (greedy's
        choice if none fitted), settled by the evidence rule."""
        if not values:
            return self._greedy.act(state, legal, rng)
        totals = [sum(column) for column in zip(*values)]
        best = max(range(len(legal)), key=totals.__getitem__)
        return self.settle(state, legal, rng, scale, legal[best], lambda base: paired_gain(values, best, legal.index(base)))

    def overrules(self, gain: float, variance: float) -> bool:
        """Whether the search's estimated ``gain`` over greedy's choice (``variance``: that estimate's)
        is ``evidence`` standard errors clear of nothing (``evidence`` 0: any gain, however few the worlds)."""
        return gain > self.evidence * math.sqrt(variance) if self.evidence else gain > 0

    def settle(self, state: GameState, legal: Sequence[int], rng: random.Random, scale: int, best: int,
               gain_over: Callable[[int], tuple[float, float]]) -> int:
        """The search's ``best`` for a card played; at a decision that is not a card (``scale``
        above 1) or a discard or card passed, greedy's choice unless ``gain_over`` it (``best``'s
        estimated gain and that estimate's variance) clears the evidence. A discard is one card
        among a hand and a kitty, valued in a world or two each on a time budget, and the rest of
        the hand shows none of them (measured in docs/agents.md); a card passed is one of a
        whole hand, likewise."""
        if scale == 1 and not discarding(legal, state.actions):
            return best
        base = self._greedy.act(state, legal, rng)
        return best if base == best or self.overrules(*gain_over(base)) else base


def explore_share(scale: int) -> float:
    """The share of random leads in the playouts of a choice with budget ``scale``."""
    return EXPLORE if scale == 1 else DECISION_EXPLORE


def budget_scale(legal: Sequence[int], acts: Actions) -> int:
    """How many times the usual search budget the choice among ``legal`` gets: a card (played,
    or discarded after taking a kitty, six times a hand, or passed) gets the usual one; a card that may
    come with an announcement (a promoted card, a meld declared with the first card) is a
    decision."""
    return 1 if legal[-1] < acts.ncards or discarding(legal, acts) else DECISION_BUDGET


def discarding(legal: Sequence[int], acts: Actions) -> bool:
    """Whether ``legal`` are cards a seat parts with before play: a declarer's discards (after
    taking a kitty), or cards passed to another seat (`passing`)."""
    return any(0 <= start <= legal[0] and legal[-1] < start + acts.ncards for start in (acts.discard0, acts.give0))


@functools.cache
def _points_problem(steps: int) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance that a side ``a`` steps from the goal reaches it before a side
    ``b`` steps away, each step won by either side with even chances (Pascal's problem of points)."""
    table = [[0.5 if a == b == 0 else float(a == 0) for b in range(steps + 1)] for a in range(steps + 1)]
    for a in range(1, steps + 1):
        for b in range(1, steps + 1):
            table[a][b] = 0.5 * (table[a - 1][b] + table[a][b - 1])
    return tuple(tuple(row) for row in table)


def hand_spread(ruleset: Ruleset) -> float:
    """A hand's typical scoresheet change (root mean square per team over the played hands of
    seeded random games): the unit a game of a fixed number of deals, which has no goal to
    count steps to, is priced in."""
    from couillon_dsl.engine import GameState  # the engine imports no agent: a late import keeps it so

    total, count = 0, 0
    rng = random.Random(SPREAD_SEED)
    for _ in range(SPREAD_GAMES):
        game = GameState(ruleset)
        game.play_random(rng)
        for hand in game.hands:
            if hand.outcome != "passed_out":
                total += sum(d * d for d in hand.deltas)
                count += len(hand.deltas)
    return max(1.0, math.sqrt(total / count)) if count else 1.0


# the deals a game that `scoresheet.ends_when` ends is priced as still having to play, wherever it stands:
# about half of a rubber of bridge between greedy players (15 deals)
DEALS_LEFT_WHEN_OPEN = 8


class Outlook:
    """Each team's chance to win the session from a scoresheet state: by the problem of points
    in a race to a goal; in a game of a fixed number of deals (the best total winning) by its
    lead over the best other team, against the spread of the deals still to play; and so in a
    game that ends when a team reaches the goal (`at_goal: ends_game`, the furthest from it
    winning), its lead being its distance from the goal less the best other team's, with as many
    deals to play as the hand's typical change takes the nearest team to the goal. A game that
    `scoresheet.ends_when` ends is priced as one of deals, with :data:`DEALS_LEFT_WHEN_OPEN`
    still to play: the condition is the rules' own, and no model of it is made."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        sheet = ruleset.scoresheet
        self.goal = sheet.goal
        self.sign = 1 if sheet.direction == "down" else -1  # distance = sign * (value - goal)
        span = max(1, abs(sheet.start - sheet.goal))
        self.scale = -(-span // STEPS)  # scoresheet units per priced step
        self.limit = -(-span // self.scale) + 10  # a team may fall behind its start (a beaten maker)
        self.games_to_win = ruleset.session.games_to_win
        self.table = _points_problem(self.limit)
        self.carry = sheet.tie_carry  # ties pending make the next decided hand count double (or more)
        self.deals = sheet.deals or 0
        self.open_ended = not self.deals and bool(sheet.ends_when)
        if self.open_ended:
            self.deals = DEALS_LEFT_WHEN_OPEN
        self.ends = not self.deals and sheet.at_goal == "ends_game"
        self.unit = hand_spread(ruleset) if self.deals or self.ends else 0.0  # a hand's typical change
        self._priced: dict[tuple[tuple[int, ...], tuple[int, ...], int, int, int], list[float]] = {}  # see chances

    def steps(self, value: int) -> int:
        """Priced steps from ``value`` to the goal (0 at or past it)."""
        return min(self.limit, max(0, -(-self.sign * (value - self.goal) // self.scale)))

    def _lead(self, state: GameState, team: int) -> tuple[float, float]:
        """``team``'s lead over the best other team and the spread of the deals still to play, this
        one included: with a fixed number of deals, in the scoresheet's good direction; in a game
        the goal ends, in distance from the goal."""
        scores = state.scores
        if self.ends:
            away = [self.sign * (v - self.goal) for v in scores]
            left = max(1.0, min(away) / self.unit)
            return away[team] - max(a for t, a in enumerate(away) if t != team), self.unit * math.sqrt(left)
        best_other = max(-self.sign * v for t, v in enumerate(scores) if t != team)
        left = self.deals if self.open_ended else max(1, self.deals - state.hand_number + 1)
        return -self.sign * scores[team] - best_other, self.unit * math.sqrt(left)

    def game_chances(self, state: GameState) -> list[float]:
        """Each team's chance to win the current game. In a race to the goal, what the scoresheet
        carries into the next decided hand makes that hand worth more steps, won by any team alike:
        ties pending whose carry multiplies it (`tie_carry`), and the points passed-out deals owe its
        winner (`pass_carry`). A tie or a deal thrown in is worth more to the side behind than to
        the side ahead."""
        teams = range(len(state.scores))
        if self.deals or self.ends:
            return [STANDARD_NORMAL.cdf(lead / spread) for lead, spread in (self._lead(state, t) for t in teams)]
        steps = [self.steps(v) for v in state.scores]
        ties, owed = state.ties_pending, state.passes_pending
        worth = (2 ** ties if self.carry == "cumulative_double" else 2) if ties and self.carry != "none" else 1
        worth += -(-owed // self.scale)  # the passed-out deals' points, in steps
        if worth > 1:
            after = [[max(0, s - worth) if t == won else s for t, s in enumerate(steps)] for won in teams]
            return [sum(self.race(row, team) for row in after) / len(after) for team in teams]
        return [self.race(steps, team) for team in teams]

    def race(self, steps: Sequence[int], team: int) -> float:
        """``team``'s chance to reach the goal first with the teams ``steps`` from it (even steps)."""
        return self.table[steps[team]][min(s for t, s in enumerate(steps) if t != team)]

    def chances(self, state: GameState) -> list[float]:
        """Per team, the chance to win the session from where ``state`` stands (a new list).

        A function of the scoresheet state alone, and playouts end in few of them: each is
        priced once and remembered (up to :data:`PRICED_LIMIT` states)."""
        result = state.result
        if result is not None:
            return [float(result.winner == t) for t in range(len(result.scores))]
        key = (state.scores, state.games_won, state.hand_number if self.deals and not self.open_ended else 0, state.ties_pending,
               state.passes_pending)
        known = self._priced.get(key)
        if known is None:
            won = key[1]
            games = _points_problem(self.games_to_win)
            known = []
            for team, game in enumerate(self.game_chances(state)):
                need = self.games_to_win - won[team]
                other = self.games_to_win - max(w for t, w in enumerate(won) if t != team)
                known.append(game * games[need - 1][other] + (1 - game) * games[need][other - 1])
            if len(self._priced) >= PRICED_LIMIT:
                self._priced.clear()
            self._priced[key] = known
        return known.copy()

    def spread(self, state: GameState, team: int) -> float:
        """How much one step for or against ``team`` moves its chance now: the search's value scale."""
        if self.deals or self.ends:  # a step is a hand's typical change
            lead, spread = self._lead(state, team)
            return max(0.02, STANDARD_NORMAL.cdf((lead + self.unit) / spread) - STANDARD_NORMAL.cdf((lead - self.unit) / spread))
        steps = [self.steps(v) for v in state.scores]
        mine = steps[team]
        theirs = min(s for t, s in enumerate(steps) if t != team)
        table = self.table
        up = table[max(0, mine - 1)][theirs]
        down = table[min(self.limit, mine + 1)][theirs] if theirs == 0 else table[mine][max(0, theirs - 1)]
        return max(0.02, up - down)


def outlook_of(ruleset: Ruleset, cached: Outlook | None) -> Outlook:
    """``cached`` when it prices ``ruleset``, else a new Outlook for it."""
    return cached if cached is not None and cached.ruleset is ruleset else Outlook(ruleset)


def worth(state: GameState, action: int, team: int, outlook: Outlook, rng: random.Random, greedy: GreedyAgent,
          explore: float) -> float:
    """``team``'s value of taking ``action`` in ``state`` (left as it is) and playing the hand out."""
    trial = state.clone()
    trial.apply(action)
    return playout(trial, outlook, rng, greedy, explore)[team]


def playout(state: GameState, outlook: Outlook, rng: random.Random, greedy: GreedyAgent,
            explore: float = EXPLORE) -> list[float]:
    """Play the current hand out, ``explore`` of the leads at random; per team, the session
    chance where it leaves the game, with card points of the hand as a tie-break."""
    summaries = state.hands
    target = len(summaries) + 1
    ncards = state.actions.ncards
    played = played_cards(state)
    cards_of = cards_table(ncards, ncards)  # any mask (a cache beyond 16 cards)
    while len(summaries) < target:
        if state.plays_a_card():  # the usual move: a card from the legal mask, no list of actions built
            legal = cards_of[state.legal_mask()]
            if len(legal) == 1:
                action = legal[0]
            elif not state.current_trick()[1] and rng.random() < explore:
                action = legal[int(rng.random() * len(legal))]
            else:
                action = play(state, legal, played)
            played |= 1 << action
            state.play_card(action)
            continue
        if state.current_player() < 0:
            break  # the game ended (or was abandoned) without this hand being scored
        actions = state.legal_actions()  # a decision, or an announcement next to the cards
        action = actions[0] if len(actions) == 1 else greedy.act(state, actions, rng)
        if action < ncards:
            played |= 1 << action
        state.apply(action)
    values = outlook.chances(state)
    if len(summaries) == target and summaries[-1].outcome != "passed_out":
        hand = summaries[-1]
        points = hand.points  # per side of the hand: a team's side is its first seat's
        members = state.ruleset.players.teams
        for team in range(len(values)):
            side = hand.sides[members[team][0]] if hand.sides else team
            best_other = max((p for t, p in enumerate(points) if t != side), default=0)
            values[team] += POINTS_WEIGHT * (points[side] - best_other) / max(1, sum(points))
    return values


def paired_gain(values: Sequence[Sequence[float]], best: int, base: int) -> tuple[float, float]:
    """Action ``best``'s mean gain over ``base`` and its variance, from the worlds in which both
    were played out (pairing cancels the luck of each world); from fewer than
    :data:`EVIDENCE_WORLDS` worlds the variance is infinite, so greedy's choice stands."""
    gains = [row[best] - row[base] for row in values]
    mean = statistics.fmean(gains)
    return mean, statistics.variance(gains, mean) / len(gains) if len(gains) >= EVIDENCE_WORLDS else math.inf
