"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012).

One tree per decision, rooted at the seat's information set: its nodes are the actions
taken from there, by every seat, to the end of the hand. Each iteration takes a world from
the rule-derived sampler (:class:`~couillon_dsl.agents.sampler.Sampler`, the one PIMC uses),
walks down the tree (the seat's own moves chosen among the actions legal *in that world* by
UCB1 with availability counts, the other seats' by the playout policy: see ``others``), adds
one node, plays the hand out with the playout policy and credits every node on the path with
the session chance of the team that chose it (:class:`~couillon_dsl.agents.playout.Outlook`).

The root is paired by default (``paired=1``): the iterations try the seat's actions in turn,
each in every world (a round per world, at least one round), and the best total over the whole
rounds wins, so the luck of the worlds cancels between the actions compared, as in PIMC, and
so does the evidence a decision needs against greedy's choice (paired differences); below
the root of a card the search is ISMCTS's. A decision that is not a card is valued by PIMC's
procedure (:meth:`~couillon_dsl.agents.playout.SearchAgent.played_out`), each action played out
straight after it in fresh worlds: below the root the tree takes every seat's best child, so
a root action's value carries the search's own optimism, unevenly between a take and a pass,
which pairing does not cancel (measured in docs/agents-lab.md, as is the paired root against the
bandit root, ``paired=0``: the root chooses by UCB1 like every node and the most visited
action wins, Cowling et al.'s algorithm).

A node below the root grows children once it has ``expand`` visits (1 by default, every
visit; more, and a search with few iterations leaves the play below it to the playout policy).

``others`` says whose moves below the root are searched. With ``policy`` (the default) only
the seat's own: every other seat plays the playout policy, which reads its cards in the
world, as in PIMC's playouts, and its moves still key the tree, so the seat's later moves are
searched knowing what was played before them. With ``search`` every seat's are, by UCB1 over
statistics gathered in all the worlds (Cowling et al.'s single-observer search), so another
seat chooses as if it did not know its own cards, and a few hundred iterations spread over
its replies try many a poor one. Measured in docs/agents-lab.md: level against PIMC either way,
and ``policy`` the stronger against greedy.

Moves with a single legal action are taken without a node. The search reads the game only
through ``GameState``'s generic legal actions, so every decision kind a ruleset has is
searched alike.

The budget is a number of iterations (a seeded run repeats exactly on any machine) or, with
``ms``, a time per decision; a decision that is not a card gets several times the budget
(:data:`~couillon_dsl.agents.playout.DECISION_BUDGET`), its playouts lead as greedy does, and
greedy's choice stands unless the search's beats it by ``evidence`` standard errors
(:class:`~couillon_dsl.agents.playout.SearchAgent`). A node's first child is the playout
policy's choice, so few visits already reflect sensible play. Each world is drawn when the
iterations first reach it, ``worlds`` of them at most, and then the iterations cycle through
them (the tree's statistics gather over them; the evidence rule, at a discard, counts each
world once): on a time budget a card draws only the worlds it has time to search.
"""
from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from typing import TYPE_CHECKING, Sequence

from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.playout import (EVIDENCE, SearchAgent, explore_share, outlook_of, paired_gain, playout,
                                         whole_count)
from couillon_dsl.engine.hand import cards_table

if TYPE_CHECKING:
    from couillon_dsl.engine import GameState


class Node:
    """Statistics of one action in the tree, for the team of the seat that takes it."""

    __slots__ = ("team", "visits", "total", "squares", "available", "children")

    def __init__(self, team: int) -> None:
        self.team = team
        self.visits = 0
        self.total = 0.0
        self.squares = 0.0  # the sum of the squared values: the spread of a root action's outcomes
        self.available = 0  # iterations in which this action was legal when its parent was reached
        self.children: dict[int, Node] = {}

    def mean_and_variance(self) -> tuple[float, float]:
        """The mean value and the variance of that mean."""
        mean = self.total / self.visits
        return mean, max(0.0, self.squares / self.visits - mean * mean) / self.visits


class IsmctsAgent(SearchAgent):
    """Searches ``iterations`` paths (or as many as ``ms`` milliseconds allow) over sampled worlds."""

    name = "ismcts"

    def __init__(self, iterations: int = 300, ms: float = 0, worlds: int = 30, c: float = 0.7,
                 evidence: float = EVIDENCE, paired: int = 1, expand: int = 1, others: str = "policy") -> None:
        whole_count("iterations", iterations)
        whole_count("worlds", worlds)
        whole_count("expand", expand)
        if not isinstance(c, (int, float)) or c < 0:
            raise ValueError(f"c (the exploration constant) must be a number >= 0, got {c!r}")
        if paired not in (0, 1):
            raise ValueError(f"paired must be 1 (every root action in every world) or 0 (the root a bandit), got {paired!r}")
        if others not in ("search", "policy"):
            raise ValueError(f"others must be policy (only the searching seat's moves searched) or search (every seat's), "
                             f"got {others!r}")
        super().__init__(ms, evidence)
        self.iterations = iterations
        self.worlds = worlds
        self.c = c
        self.paired = paired
        self.expand = expand
        self.others = others

    def act(self, state: GameState, legal: Sequence[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        scale, deadline = self.deadline(state, legal)
        iterations = scale * self.iterations
        if self.paired and scale > 1:  # a decision: each action played out straight after it in fresh worlds, as by PIMC
            played = self.played_out(state, legal, rng, -(-iterations // len(legal)), deadline, explore_share(scale))
            return self.best_played_out(state, legal, rng, scale, played)
        seat = state.current_player()
        per_world = len(legal) if self.paired else 1  # iterations that share a world in turn
        count = self.worlds if self.ms else min(self.worlds, -(-iterations // per_world))
        drawn = self._sampler.draw(state, seat, count, rng)  # each world drawn when the iterations reach it
        worlds = list(itertools.islice(drawn, 1))
        more = True  # until the sampler has no more (``count`` drawn, or no more fit): then cycle through them
        if not worlds:
            return self._greedy.act(state, legal, rng)
        outlook = self._outlook = outlook_of(state.ruleset, self._outlook)
        team_of = state.ruleset.tables.team_of
        # exploration scaled to what one hand can change: the values are session chances
        c = self.c * outlook.spread(state, team_of[seat])
        root = Node(team_of[seat])
        explore = explore_share(scale)
        searcher = seat if self.others == "policy" else -1  # the seat whose moves the tree searches (-1: every seat)
        rounds: list[list[float]] = []  # paired: per world, the root team's value of each action in turn
        least = per_world  # a paired root plays at least one whole round
        iteration = 0
        while iteration < least or (time.perf_counter() < deadline if self.ms else iteration < iterations):
            turn = iteration // per_world
            if turn == len(worlds) and more:
                worlds.extend(itertools.islice(drawn, 1))
                more = turn < len(worlds)
            world = worlds[turn % len(worlds)].clone()
            forced = legal[iteration % per_world] if self.paired else -1  # paired: each root action in turn
            path = descend(root, world, team_of, c, rng, self._greedy, forced, self.expand, searcher)
            values = playout(world, outlook, rng, self._greedy, explore)
            if self.paired:
                if iteration % per_world == 0:
                    rounds.append([])
                rounds[-1].append(values[root.team])
            for node in path:
                value = values[node.team]
                node.visits += 1
                node.total += value
                node.squares += value * value
            iteration += 1
        if self.paired:  # the same worlds behind every action: the best total over the whole rounds
            whole = [row for row in rounds if len(row) == per_world]
            totals = [sum(column) for column in zip(*whole)]
            index = max(range(per_world), key=totals.__getitem__)
            return self.settle(state, legal, rng, scale, legal[index],
                               lambda base: paired_gain(world_means(whole, len(worlds)), index, legal.index(base)))
        children = root.children
        best = max(legal, key=lambda a: (children[a].visits, children[a].total) if a in children else (-1, 0.0))
        return self.settle(state, legal, rng, scale, best, lambda base: gain(children, best, base))


def world_means(rounds: list[list[float]], count: int) -> list[list[float]]:
    """The rounds that shared a world (round ``r`` was played in world ``r % count``) averaged into
    one row: repeated rounds of a world are not independent evidence, so the evidence rule's
    standard error counts worlds, not rounds."""
    shared: dict[int, list[list[float]]] = {}
    for number, row in enumerate(rounds):
        shared.setdefault(number % count, []).append(row)
    return [[statistics.fmean(column) for column in zip(*rows)] for rows in shared.values()]


def gain(children: dict[int, Node], best: int, base: int) -> tuple[float, float]:
    """``best``'s mean over ``base``'s and the variance of that difference (a root action never
    tried has nothing to say for itself)."""
    if base not in children:
        return math.inf, 0.0
    (mean, variance), (base_mean, base_variance) = children[best].mean_and_variance(), children[base].mean_and_variance()
    return mean - base_mean, variance + base_variance


def descend(root: Node, world: GameState, team_of: Sequence[int], c: float, rng: random.Random,
            policy: GreedyAgent, forced: int = -1, expand: int = 1, searcher: int = -1) -> list[Node]:
    """Walk ``world`` down the tree to a new node or the end of the hand; the nodes passed.

    With ``forced`` (an action legal at the root) the root takes it instead of choosing. A node
    below the root grows children only once it has ``expand`` visits (the expansion threshold
    of MCTS programs): until then the walk stops there and the playout policy goes on, so a
    search with few iterations does not value its moves against the tree's untried, random
    replies.

    With ``searcher`` (a seat) only that seat's moves are searched: every other seat takes the
    playout policy's move, read from its cards in ``world``, and its move still keys the tree.

    A node's first new child is the playout policy's choice, so while a node has few
    visits its value is that of sensible play rather than of a random action. Once every
    legal action has a node, the one of highest UCB1 is taken (the first of equals), with
    the availability count in place of the parent's visits (ISMCTS's subset-armed bandit)."""
    path: list[Node] = []
    node = root
    hands = world.hands
    target = len(hands) + 1
    log, sqrt = math.log, math.sqrt
    ncards = world.actions.ncards
    cards_of = cards_table(ncards, ncards)  # a card's legal actions are the legal mask's cards, ascending
    expanded = False
    while not expanded and len(hands) < target:
        seat = world.current_player()
        if seat < 0 or (node is not root and node.visits < expand):
            break
        legal = cards_of[world.legal_mask()] if world.plays_a_card() else world.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif forced >= 0 or 0 <= searcher != seat:  # the root's forced action, or the policy's for another seat
            if forced >= 0:
                action, forced = forced, -1
            else:
                action = policy.act(world, legal, rng)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = Node(team_of[seat])
                expanded = True
            child.available += 1
            node = child
            path.append(node)
        else:
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.available += 1
            if untried:
                action = policy.act(world, legal, rng) if not children else -1
                if action not in untried:
                    action = untried[int(rng.random() * len(untried))]
                node = children[action] = Node(team_of[seat])
                node.available = 1
                expanded = True
            else:
                best = -math.inf
                for a in legal:
                    child = children[a]
                    visits = child.visits
                    value = child.total / visits + c * sqrt(log(child.available) / visits)
                    if value > best:
                        best, action, node = value, a, child
            path.append(node)
        if action < ncards and world.is_playing():  # a card among the legal actions: no second check
            world.play_card(action)
        else:
            world.apply(action)
    return path
