"""Seeded, parallel simulation of whole games, folded into counts that statistics read.

Game ``i`` of a run with seed ``S`` is played from its own seed, derived from ``(S, i)``
alone, and results are merged in game-index order, so a run gives identical figures with
any number of worker processes. A compiled ruleset holds closures and does not pickle, so
a worker receives the ruleset's name or path and rebuilds it; only a forked worker reuses
the parent's copy. That keeps the pool correct under the ``spawn`` start method too.

Games between random players take the engine's fast path (:meth:`GameState.play_random`),
which draws deals and plays from one generator. ``compare`` asks for paired deals instead:
the deals then come from the game's own generator and the agents draw from a second one,
so two rulesets with the same deck see the same pack orders, deal after deal.
"""
from __future__ import annotations

import hashlib
import os
import random
import re
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Sequence

from couillon_dsl.agents import Agent, make_agent
from couillon_dsl.builtin import is_file
from couillon_dsl.engine import CHANCE, GameState, HandSummary
from couillon_dsl.engine.bidding import side_bids
from couillon_dsl.model import Ruleset
from couillon_dsl.records import GameRecord
from couillon_dsl.stats import Estimate, mean_t, quantile_ci, wilson

MAX_CHUNK = 250  # games per task: small enough for progress and balance, large enough to amortise
MAX_KERNEL_CHUNK = 2000  # the kernel plays a task in one call: larger tasks amortise more
AGENTS_SALT = 0x5EED  # the agents' generator is seeded apart from the deals'
# what the hand figures read from a HandSummary; hands are counted by this key, in C (by index: no descriptors)
HAND_KIND = itemgetter(*map(HandSummary._fields.index, ("dealer", "trump_path", "maker", "decisions", "outcome",
                                                        "winner", "all_tricks", "announcements", "melds", "sides")))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (independent of workers and chunking)."""
    digest = hashlib.blake2b(f"couillon-sim:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play a range of games; plain data, so it pickles."""

    ruleset: str  # built-in name or absolute path
    options: tuple[tuple[str, Any], ...]
    seed: int
    agents: tuple[str, ...]  # one spec per seat
    record: bool = False
    trajectories: int = 0  # keep the scoresheet after every hand for the first games
    paired: bool = False  # deals from their own generator, whatever the agents do (compare)
    engine: str = "python"  # "python" (GameState) or "compiled" (the kernel, couillon_dsl.kernel)


@dataclass
class Tally:
    """Counts over a run of consecutive games; ``merge`` appends a later run."""

    games: int = 0
    hands: int = 0  # deals, passed-out ones included
    played: int = 0  # hands whose cards were played
    decided: int = 0
    ties: int = 0
    no_score: int = 0
    all_tricks: int = 0
    maker_hands: int = 0
    maker_wins: int = 0
    elder_team_wins: int = 0  # decided hands won by the elder's team
    first_dealer_team_wins: int = 0
    abandoned: int = 0
    team_wins: Counter[int] = field(default_factory=Counter)
    paths: Counter[str] = field(default_factory=Counter)
    decisions: Counter[tuple[int, str]] = field(default_factory=Counter)  # (seat after dealer, word)
    asked: Counter[int] = field(default_factory=Counter)
    announcements: Counter[str] = field(default_factory=Counter)
    contracts: Counter[str] = field(default_factory=Counter)  # rulesets with `contracts`: played hands per contract
    hand_scores: dict[int, list[float]] = field(default_factory=dict)  # with `contracts`: team -> its score per hand
    contract_wins: Counter[str] = field(default_factory=Counter)  # played hands per contract won by the maker
    maker_points: dict[str, list[float]] = field(default_factory=dict)  # contract -> the maker's card points per hand
    # (card set name, how many of them the maker's side took) -> hands; with scoring that reads the cards won
    maker_sets: Counter[tuple[str, int]] = field(default_factory=Counter)
    maker_set_wins: Counter[tuple[str, int]] = field(default_factory=Counter)  # the same, hands the maker won
    melds: Counter[tuple[str, str]] = field(default_factory=Counter)  # hands with (declaration id, pattern) declared
    bids: Counter[str] = field(default_factory=Counter)  # with `bids`: sides' hands by under / exact / over their bid
    hands_per_game: list[int] = field(default_factory=list)
    trajectories: list[list[tuple[int, ...]]] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)

    def merge(self, other: Tally) -> None:
        for name in ("games", "hands", "played", "decided", "ties", "no_score", "all_tricks", "maker_hands",
                     "maker_wins", "elder_team_wins", "first_dealer_team_wins", "abandoned"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in ("team_wins", "paths", "decisions", "asked", "announcements", "contracts", "melds",
                     "contract_wins", "maker_sets", "maker_set_wins", "bids"):
            getattr(self, name).update(getattr(other, name))
        for team, scores in other.hand_scores.items():
            self.hand_scores.setdefault(team, []).extend(scores)
        for contract, points in other.maker_points.items():
            self.maker_points.setdefault(contract, []).extend(points)
        for name in ("hands_per_game", "trajectories", "records"):
            getattr(self, name).extend(getattr(other, name))

    def add_game(self, ruleset: Ruleset, state: GameState, kinds: Counter[tuple[Any, ...]] | None = None) -> None:
        """Fold one finished game into the counts.

        With ``kinds``, its hands are only counted there by what the hand figures read
        (:data:`HAND_KIND`), for :meth:`add_hands` to fold later: a run repeats few kinds,
        and counting them is one C-level pass per game instead of Python work per hand.
        """
        summaries = state.hands
        if kinds is None:
            self.add_hands(ruleset, Counter(map(HAND_KIND, summaries)))
        else:
            kinds.update(map(HAND_KIND, summaries))
        if ruleset.contracts:
            self.add_contracts(ruleset, summaries)
        if ruleset.bids is not None:
            self.add_bids(ruleset, summaries)
        result = state.result
        assert result is not None, "add_game needs a finished game"
        self.games += 1
        self.hands += len(summaries)
        self.hands_per_game.append(len(summaries))
        if result.abandoned:
            self.abandoned += 1
        else:
            self.team_wins[result.winner] += 1  # type: ignore[index]
            if summaries and result.winner == ruleset.tables.team_of[summaries[0].dealer]:
                self.first_dealer_team_wins += 1

    def add_contracts(self, ruleset: Ruleset, summaries: Sequence[HandSummary]) -> None:
        """Per played hand: the contract picked, what each team scored, whether the maker won, the
        maker's card points and (scoring that reads the cards won) how many of each card set it took."""
        unit = ruleset.tables.point_unit
        card_sets = ruleset.tables.card_sets
        for hand in summaries:
            if hand.outcome != "passed_out" and hand.contract is not None:
                self.contracts[hand.contract] += 1
                for team, delta in enumerate(hand.deltas):
                    self.hand_scores.setdefault(team, []).append(float(delta))
                maker = hand.maker
                if maker is None:
                    continue
                self.contract_wins[hand.contract] += hand.winner == maker
                self.maker_points.setdefault(hand.contract, []).append(hand.points[maker] / unit)
                if hand.won:
                    for name, mask in card_sets.items():
                        key = name, (hand.won[maker] & mask).bit_count()
                        self.maker_sets[key] += 1
                        self.maker_set_wins[key] += hand.winner == maker

    def add_bids(self, ruleset: Ruleset, summaries: Sequence[HandSummary]) -> None:
        """Per played hand and side: whether it took fewer tricks than its seats bid, as many, or more."""
        for hand in summaries:
            if hand.bids:
                for tricks, bid in zip(hand.tricks, side_bids(hand.bids, ruleset.tables.team_of, len(hand.tricks))):
                    self.bids["under" if tricks < bid else "exact" if tricks == bid else "over"] += 1

    def add_hands(self, ruleset: Ruleset, kinds: Counter[tuple[Any, ...]]) -> None:
        """Fold hands counted by kind (:data:`HAND_KIND` of each summary) into the hand figures."""
        n = ruleset.players.count
        team_of = ruleset.tables.team_of
        paths, decisions, asked, announced = self.paths, self.decisions, self.asked, self.announcements
        for (dealer, path, maker, words, outcome, winner, all_tricks, announcements, melds, sides), k in kinds.items():
            paths[path] += k
            for seat, word in words:
                offset = (seat - dealer) % n
                decisions[offset, word] += k
                asked[offset] += k
            if outcome == "passed_out":
                continue
            self.played += k
            if outcome == "winner":
                self.decided += k
                if winner == (sides or team_of)[(dealer + 1) % n]:  # the elder's side this hand
                    self.elder_team_wins += k
                if all_tricks:
                    self.all_tricks += k
            elif outcome == "tie":
                self.ties += k
            else:
                self.no_score += k
            if maker is not None:
                self.maker_hands += k
                if winner == maker:
                    self.maker_wins += k
            for name in {name for name, _seat in announcements}:  # a hand once, however many seats made it
                announced[name] += k
            if melds:
                kinds_declared = {(m[0], "") for m in melds} | {(m[0], m[1]) for m in melds}
                for key in kinds_declared:
                    self.melds[key] += k


def play_game(state: GameState, agents: Sequence[Agent], rng: random.Random) -> GameState:
    """Play ``state`` to its end: deals from the state's own generator, decisions by ``agents``."""
    current = state.current_player
    legal_actions = state.legal_actions
    apply = state.apply
    while True:
        seat = current()
        if seat >= 0:
            legal = legal_actions()
            apply(legal[0] if len(legal) == 1 else agents[seat].act(state, legal, rng))
        elif seat == CHANCE:
            state.deal_shuffled()
        else:
            return state


def build(job: Job) -> Ruleset:
    from couillon_dsl.compile import build_ruleset  # validation pulls in jsonschema: import on use

    return build_ruleset(job.ruleset, dict(job.options))


def play_range(job: Job, ruleset: Ruleset, start: int, stop: int) -> Tally:
    """Play games ``start .. stop-1`` of a run; the heart of every worker."""
    if job.engine == "compiled":
        from couillon_dsl.kernel.driver import play_range as play_compiled

        return play_compiled(job, ruleset, start, stop)
    agents = [make_agent(spec) for spec in job.agents]
    fast = not job.paired and all(spec == "random" for spec in job.agents)
    start_values = (ruleset.scoresheet.start,) * len(ruleset.players.teams)
    tally = Tally()
    kinds: Counter[tuple[Any, ...]] = Counter()
    for index in range(start, stop):
        seed = game_seed(job.seed, index)
        state = GameState(ruleset, seed=seed)
        if fast:
            state.play_random(random.Random(seed))
        else:
            play_game(state, agents, random.Random(seed ^ AGENTS_SALT))
        tally.add_game(ruleset, state, kinds)
        if index < job.trajectories:
            tally.trajectories.append([start_values] + [h.scores for h in state.hands])
        if job.record:
            tally.records.append(GameRecord.from_state(state, ruleset=job.ruleset, seed=seed, agents=job.agents,
                                                       game=index))
    tally.add_hands(ruleset, kinds)
    return tally


_worker: tuple[Job, Ruleset] | None = None  # the job a worker process plays, and its ruleset


def _init_worker(job: Job) -> None:
    """Build the job's ruleset, unless a forked worker inherited it from the parent already."""
    global _worker
    if _worker is None or _worker[0] != job:
        _worker = (job, build(job))


def _work(job: Job, start: int, stop: int) -> tuple[int, Tally]:
    assert _worker is not None and _worker[0] == job
    return start, play_range(job, _worker[1], start, stop)


@dataclass
class Simulation:
    """A finished run: what was asked, the counts, and its wall time (games and worker start-up)."""

    ruleset: Ruleset
    job: Job
    games: int
    workers: int
    tally: Tally
    seconds: float  # playing time, the workers' start included (the kernel's compile or cache load apart)
    engine: str = "python"
    compile_seconds: float = 0.0  # the kernel's one-off JIT compile or cache load

    def to_dict(self) -> dict[str, Any]:
        """What `couillon simulate --format json` prints: the run, then every figure by key."""
        from couillon_dsl.report import simulation_json

        return simulation_json(self)


def select_engine(ruleset: Ruleset, agents: Sequence[str], requested: str) -> tuple[str, str | None]:
    """The engine a run plays on (``python`` or ``compiled``) and, when it is not the kernel, why.

    ``requested`` is auto, python or compiled. Raises ValueError when the kernel was asked
    for and cannot play this run.
    """
    if requested == "python":
        return "python", None
    from couillon_dsl import kernel

    if not kernel.available():
        why = "the compiled engine needs Numba: pip install 'couillon-dsl[fast]'"
    else:
        from couillon_dsl.kernel.eligible import reason

        missing = reason(ruleset, agents)
        if missing is None:
            return "compiled", None
        why = f"the compiled engine does not take this run yet: {missing}"
    if requested == "compiled":
        raise ValueError(why)
    return "python", why


def chunks(games: int, workers: int, largest: int = MAX_CHUNK) -> list[tuple[int, int]]:
    """Split ``range(games)`` into consecutive tasks, a few per worker, of at most ``largest`` games."""
    size = max(1, min(largest, -(-games // (workers * 4))))
    return [(start, min(games, start + size)) for start in range(0, games, size)]


def run(
    ruleset: Ruleset,
    job: Job,
    games: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Simulation:
    """Play ``games`` games of ``ruleset`` (built from ``job``) on ``workers`` processes.

    One worker plays in this process. ``progress`` receives the number of games finished.
    """
    workers = max(1, min(workers or os.cpu_count() or 1, games or 1))
    compiled = job.engine == "compiled"
    compile_seconds = 0.0
    if compiled:  # compile (or load from the cache) before forking, so every worker inherits it
        from couillon_dsl.kernel.driver import warm

        compile_seconds = warm(ruleset)
    tasks = chunks(games, workers, MAX_KERNEL_CHUNK if compiled else MAX_CHUNK)
    tally = Tally()
    began = time.perf_counter()
    if workers == 1:
        for start, stop in tasks:
            tally.merge(play_range(job, ruleset, start, stop))
            if progress:
                progress(stop - start)
    else:
        global _worker
        _worker = (job, ruleset)  # inherited by forked workers; spawned ones rebuild it
        parts: dict[int, Tally] = {}
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker, initargs=(job,))
        try:
            futures = [pool.submit(_work, job, start, stop) for start, stop in tasks]
            for future in as_completed(futures):
                start, part = future.result()
                parts[start] = part
                if progress:
                    progress(part.games)
            for start, _ in tasks:  # merge in game-index order, whatever order the tasks finished in
                tally.merge(parts[start])
            seconds = time.perf_counter() - began  # every game played and counted: the workers' exit is not
        finally:
            pool.shutdown(cancel_futures=True)
        return Simulation(ruleset, job, games, workers, tally, seconds, job.engine, compile_seconds)
    return Simulation(ruleset, job, games, workers, tally, time.perf_counter() - began, job.engine, compile_seconds)


def ruleset_reference(path_or_name: str) -> str:
    """What a worker rebuilds from: an existing file as an absolute path, else the built-in name."""
    path = Path(path_or_name)
    return str(path.resolve()) if is_file(path) else path_or_name


# ---------------------------------------------------------------------- figures
@dataclass(frozen=True)
class Figure:
    """One reported quantity: a stable ``key`` (JSON), a label (tables), a group and its estimate.

    A mean or quantile keeps the per-game ``data`` it came from (and its ``q``), so a
    comparison can put an interval on a difference.
    """

    key: str
    label: str
    group: str
    estimate: Estimate
    percent: bool = True
    data: Sequence[float] = ()
    q: float | None = None


def seat_name(offset: int) -> str:
    """A seat relative to the dealer: ``dealer``, ``dealer+1`` (the elder), ..."""
    return "dealer" if offset == 0 else f"dealer+{offset}"


def contract_figures(rs: Ruleset, t: Tally) -> list[Figure]:
    """Per contract the maker's success and card points, and how many of each card set the maker took (the
    contract played when everyone passes has no maker, unless its side card makes its holders one)."""
    out = []
    made = [c for i, c in enumerate(rs.contracts) if i != rs.tables.all_pass_contract or rs.tables.all_pass_side_cards]
    played = [c for c in made if c.enabled and t.contracts[c.id]]
    for contract in played:
        out.append(Figure(f"contract.{contract.id}.maker_success", f"{contract.name}: the maker wins the hand",
                          "contracts", wilson(t.contract_wins[contract.id], t.contracts[contract.id])))
    everything = [p for c in played for p in t.maker_points.get(c.id, ())]
    if everything:
        out.append(Figure("maker_points.mean", "the maker's card points, mean", "maker points", mean_t(everything),
                          False, everything))
        for q, name, label in ((0.1, "p10", "10th percentile"), (0.5, "median", "median"),
                               (0.9, "p90", "90th percentile")):
            out.append(Figure(f"maker_points.{name}", f"the maker's card points, {label}", "maker points",
                              quantile_ci(everything, q), False, everything, q))
        for contract in played:
            points = t.maker_points.get(contract.id, [])
            out.append(Figure(f"maker_points.{contract.id}.mean", f"{contract.name}: the maker's card points, mean",
                              "maker points", mean_t(points), False, points))
    hands = sum(t.contracts[c.id] for c in played)
    for name, cards in rs.deck.card_sets.items():
        for k in range(len(cards) + 1):
            if any(key[0] == name for key in t.maker_sets):
                out.append(Figure(f"maker_card_set.{name}.{k}", f"the maker's side took {k} of the {name}",
                                  "card sets", wilson(t.maker_sets[name, k], hands)))
    for name, cards in rs.deck.card_sets.items():  # the maker's success by what it took (the bouts set the target)
        for k in range(len(cards) + 1):
            if t.maker_sets[name, k]:
                out.append(Figure(f"maker_card_set.{name}.{k}.maker_success",
                                  f"with {k} of the {name}: the maker wins the hand", "card sets",
                                  wilson(t.maker_set_wins[name, k], t.maker_sets[name, k])))
    return out


def team_label(rs: Ruleset, team: int) -> str:
    """A scoresheet's team as a reader knows it: "team 0 (seats 0+2)", or "seat 1" where it is one player."""
    members = rs.players.teams[team]
    if len(members) == 1:
        return f"seat {members[0]}"
    return f"team {team} (seats {'+'.join(str(s) for s in members)})"


def figures(sim: Simulation) -> list[Figure]:
    """Every figure of a run, each with its 95% interval, in reporting order."""
    rs, t = sim.ruleset, sim.tally
    out: list[Figure] = []
    for team in range(len(rs.players.teams)):
        out.append(Figure(f"team_win.{team}", f"{team_label(rs, team)} wins the game", "games",
                          wilson(t.team_wins[team], t.games)))
    out.append(Figure("first_dealer_team_win", "the first dealer's team wins the game", "games",
                      wilson(t.first_dealer_team_wins, t.games)))
    limit = (f"{rs.limits.max_hands} hands" + (f" a game, {rs.limits.max_games} games a session"
                                               if rs.session.games_to_win > 1 else "")
             + f", {rs.limits.max_redeals_in_a_row} redeals in a row")
    out.append(Figure("abandoned", f"games abandoned at a limit ({limit})", "games",
                      wilson(t.abandoned, t.games)))
    lengths = [float(x) for x in t.hands_per_game]
    out.append(Figure("hands_per_game.mean", "hands per game, mean", "length", mean_t(lengths), False, lengths))
    for q, name, label in ((0.5, "median", "median"), (0.9, "p90", "90th percentile")):
        out.append(Figure(f"hands_per_game.{name}", f"hands per game, {label}", "length", quantile_ci(lengths, q),
                          False, lengths, q))
    top = float(max(lengths)) if lengths else None
    out.append(Figure("hands_per_game.max", "hands per game, longest", "length",
                      Estimate(top, None, None, len(lengths), "observed"), percent=False))
    out.append(Figure("maker_success", "the maker's team wins the hand", "hands", wilson(t.maker_wins, t.maker_hands)))
    out.append(Figure("elder_team_hand_win", "the elder's team wins a decided hand", "hands",
                      wilson(t.elder_team_wins, t.decided)))
    out.append(Figure("tie", "hand tied", "hands", wilson(t.ties, t.played)))
    if rs.outcome.maker_needs is not None:
        out.append(Figure("no_score", "hand scored nothing (maker short of its target)", "hands",
                          wilson(t.no_score, t.played)))
    if rs.play.stop_when is None:  # a hand that stops early has tricks nobody took: the figure would say nothing
        out.append(Figure("all_tricks", "the hand winner took every trick", "hands", wilson(t.all_tricks, t.played)))
    for path in sorted(t.paths):
        out.append(Figure(f"trump_path.{path}", f"trump fixed by: {path}", "trump", wilson(t.paths[path], t.hands)))
    n = rs.players.count
    for (offset, word) in sorted(t.decisions, key=lambda k: ((k[0] - 1) % n, k[1])):  # in speaking order
        out.append(Figure(f"decision.{seat_name(offset)}.{word}", f"{seat_name(offset)} says {word}", "decisions",
                          wilson(t.decisions[offset, word], t.asked[offset])))
    for announcement in rs.announcements:
        out.append(Figure(f"announcement.{announcement.id}", f"{announcement.name} announced", "announcements",
                          wilson(t.announcements[announcement.id], t.played)))
    for i, contract in enumerate(rs.contracts):
        if contract.enabled:
            picked = "played when everyone passed" if i == rs.tables.all_pass_contract else "picked"
            out.append(Figure(f"contract.{contract.id}", f"{contract.name} {picked}", "contracts",
                              wilson(t.contracts[contract.id], sum(t.contracts.values()))))
    out += contract_figures(rs, t)
    if rs.bids is not None:
        sides = sum(t.bids.values())
        for key, words in (("exact", "exactly its bid"), ("under", "fewer tricks than it bid"),
                           ("over", "more tricks than it bid")):
            out.append(Figure(f"bid.{key}", f"a side takes {words}", "bids", wilson(t.bids[key], sides)))
    for team, scores in sorted(t.hand_scores.items()):
        out.append(Figure(f"hand_score.{team}.mean", f"{team_label(rs, team)} scores per hand, mean", "points",
                          mean_t(scores), False, scores))
    for declaration, table in zip(rs.declarations, rs.tables.declarations):
        out.append(Figure(f"declaration.{declaration.id}", f"{declaration.name} declared (by anyone)", "declarations",
                          wilson(t.melds[declaration.id, ""], t.played)))
        for label in dict.fromkeys(table.labels):
            key = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
            out.append(Figure(f"declaration.{declaration.id}.{key}", f"{declaration.name}: {label} declared",
                              "declarations", wilson(t.melds[declaration.id, label], t.played)))
    return out
