"""Games on the kernel, folded into the simulator's Tally; records built from what the kernel wrote.

Game ``i`` of a run is played from :func:`couillon_dsl.simulation.game_seed` alone, split into
the kernel's deal and agent streams, so a run gives the same figures with any number of
workers. Games that are recorded (``--record``, or the first games of a plot's
trajectories) are played one at a time with buffers for every action; the others in one
batch call that only counts.
"""
from __future__ import annotations

import time
from collections import Counter
from typing import TYPE_CHECKING, Sequence

import numpy as np

from couillon_dsl.engine import GameState, HandSummary
from couillon_dsl.kernel import play
from couillon_dsl.kernel.arrays import OUTCOMES, PATHS, WORDS, KernelTables, kernel_tables
from couillon_dsl.model import Ruleset
from couillon_dsl.records import GameRecord, outcome_json

if TYPE_CHECKING:
    from couillon_dsl.simulation import Job, Tally

def stream_seeds(seed: int) -> tuple[int, int]:
    """The kernel's deal and agent stream seeds for a game seeded ``seed`` (as play.play_games derives them)."""
    return int(play.mix64(np.uint64(seed))), int(play.mix64(np.uint64(seed ^ play.AGENTS_SALT)))


def agent_codes(specs: Sequence[str]) -> np.ndarray:
    """Per seat: the kernel's agent code (0 random, 1 greedy)."""
    from couillon_dsl.agents import make_agent
    from couillon_dsl.agents.greedy import GreedyAgent

    return np.array([play.GREEDY if isinstance(make_agent(spec), GreedyAgent) else 0 for spec in specs], np.int64)


def count_size(rs: Ruleset) -> int:
    """Length of the kernel's counts array (see play.K_ANN)."""
    return play.K_ANN + len(rs.announcements) + 6 * rs.players.count


def warm(rs: Ruleset) -> float:
    """Compile the kernel (or load it from Numba's cache) before any game is timed; seconds spent."""
    began = time.perf_counter()
    T = kernel_tables(rs)
    agent = agent_codes(["random"] * rs.players.count)
    play.play_games(T, agent, np.zeros(0, np.uint64), np.zeros(count_size(rs), np.int64),
                    np.zeros((0, play.G_VALUES + 2 * len(rs.players.teams)), np.int64))
    play_recorded(rs, T, agent, 0, 0)  # the recording path too: one game, not counted anywhere
    return time.perf_counter() - began


class Recorded:
    """One game played with buffers: what the kernel wrote, sliced to what it used."""

    def __init__(self, result: np.ndarray, hist: np.ndarray, hrows: np.ndarray, drows: np.ndarray,
                 arows: np.ndarray, trows: np.ndarray) -> None:
        self.result = result
        self.hist = hist[:result[play.G_HIST]]
        self.hrows = hrows[:result[play.G_HROWS]]
        self.drows = drows[:result[play.G_DROWS]]
        self.arows = arows[:result[play.G_AROWS]]
        self.trows = trows[:result[play.G_TROWS]]


def play_recorded(rs: Ruleset, T: KernelTables, agent: np.ndarray, seed_deal: int,
                  seed_agents: int, counts: np.ndarray | None = None) -> Recorded:
    """One game with every action written; buffers grow until the game fits."""
    n, ncards, nann, nteams = rs.players.count, rs.layout.size, len(rs.announcements), len(rs.players.teams)
    # what one hand may write at most: actions, trump decisions, announcements made, tricks
    decisions = n * (ncards + 1) + 1
    room = np.array([2 * ncards + decisions + 2 * nann * n + 1, decisions, nann, ncards], np.int64)
    hands = 64
    while True:
        scratch = np.zeros(count_size(rs), np.int64)
        result = np.zeros(play.G_VALUES + 2 * nteams, np.int64)
        hist = np.zeros(hands * room[0] + 1, np.int64)
        hrows = np.zeros((hands, play.H_TEAMS + 4 * nteams), np.int64)
        drows = np.zeros((hands * room[1], 2), np.int64)
        arows = np.zeros((hands * room[2] + 1, 2), np.int64)
        trows = np.zeros((hands * room[3], 2 + n), np.int64)
        status = play.play_game(T, agent, np.uint64(seed_deal), np.uint64(seed_agents), True, hist, hrows,
                                drows, arows, trows, scratch, result, room)
        if status == play.OK:
            if counts is not None:
                counts += scratch
            return Recorded(result, hist, hrows, drows, arows, trows)
        if status != play.FULL:
            raise RuntimeError(f"the kernel met a hand its scoring table does not hold (status {status})")
        hands *= 4


def summaries(rs: Ruleset, game: Recorded) -> list[HandSummary]:
    """The hand summaries of a recorded game, as GameState would have made them."""
    nteams = len(rs.players.teams)
    suits = rs.layout.suits
    ids = [a.id for a in rs.announcements]
    h0 = play.H_TEAMS
    out = []
    for row in game.hrows.tolist():
        decisions = tuple((seat, WORDS[word]) for seat, word in game.drows[row[play.H_DEC_LO]:row[play.H_DEC_HI]].tolist())
        made = tuple((ids[a], seat) for a, seat in game.arows[row[play.H_ANN_LO]:row[play.H_ANN_HI]].tolist())
        tricks = tuple((t[0], tuple(t[2:2 + rs.players.count]), t[1])
                       for t in game.trows[row[play.H_TRICK_LO]:row[play.H_TRICK_HI]].tolist())
        maker, decider, winner, trump = row[play.H_MAKER], row[play.H_DECIDER], row[play.H_WINNER], row[play.H_TRUMP]
        out.append(HandSummary(
            game=row[play.H_GAME], number=row[play.H_NUMBER], dealer=row[play.H_DEALER],
            trump=suits[trump] if trump >= 0 else None, trump_path=PATHS[row[play.H_PATH]],
            maker=None if maker < 0 else maker, deciding_seat=None if decider < 0 else decider,
            decisions=decisions, points=tuple(row[h0:h0 + nteams]), tricks=tuple(row[h0 + nteams:h0 + 2 * nteams]),
            outcome=OUTCOMES[row[play.H_OUTCOME]], winner=None if winner < 0 else winner,
            all_tricks=bool(row[play.H_ALL]), announcements=made, points_in_play=row[play.H_IN_PLAY],
            multiplier=row[play.H_K], deltas=tuple(row[h0 + 2 * nteams:h0 + 3 * nteams]),
            scores=tuple(row[h0 + 3 * nteams:h0 + 4 * nteams]), played_tricks=tricks,
        ))
    return out


def game_record(rs: Ruleset, game: Recorded, names: Sequence[str], *, ruleset: str, seed: int,
                agents: Sequence[str], index: int) -> GameRecord:
    """The record of a kernel game: its actions as the engine prints them and its outcome."""
    nteams = len(rs.players.teams)
    r = game.result.tolist()
    abandoned = bool(r[play.G_ABANDONED])
    outcome = outcome_json(None if abandoned else r[play.G_WINNER], tuple(r[play.G_VALUES:play.G_VALUES + nteams]),
                           tuple(r[play.G_VALUES + nteams:play.G_VALUES + 2 * nteams]), abandoned,
                           summaries(rs, game))
    return GameRecord(index, ruleset, rs.id, rs.option_values(), seed, tuple(agents),
                      tuple(names[a] for a in game.hist.tolist()), outcome)


def action_names(rs: Ruleset) -> list[str]:
    """Every action number of ``rs`` -> its text (GameState.action_to_string), made once per run."""
    state = GameState(rs)
    acts = state.actions
    return [state.action_to_string(a) for a in range(acts.dealer0 + rs.players.count)]


def play_range(job: Job, ruleset: Ruleset, start: int, stop: int) -> Tally:
    """simulate.play_range on the kernel: games ``start .. stop-1`` of a run, as a Tally."""
    from couillon_dsl.simulation import Tally, game_seed  # simulation imports this module on use: no cycle at load

    rs = ruleset
    T = kernel_tables(rs)
    agent = agent_codes(job.agents)
    nteams = len(rs.players.teams)
    seeds = [game_seed(job.seed, index) for index in range(start, stop)]
    counts = np.zeros(count_size(rs), np.int64)
    results = np.zeros((stop - start, play.G_VALUES + 2 * nteams), np.int64)
    tally = Tally()
    recorded = stop - start if job.record else max(0, min(stop, job.trajectories) - start)
    names = action_names(rs) if job.record else []
    for g in range(recorded):
        game = play_recorded(rs, T, agent, *stream_seeds(seeds[g]), counts=counts)
        results[g] = game.result
        if start + g < job.trajectories:
            start_values = (rs.scoresheet.start,) * nteams
            tally.trajectories.append([start_values] + [h.scores for h in summaries(rs, game)])
        if job.record:
            tally.records.append(game_record(rs, game, names, ruleset=job.ruleset, seed=seeds[g], agents=job.agents,
                                             index=start + g))
    if recorded < stop - start:
        failed = play.play_games(T, agent, np.array(seeds[recorded:], np.uint64), counts, results[recorded:])
        if failed >= 0:
            raise RuntimeError(f"the kernel met a hand its scoring table does not hold (game {start + recorded + failed})")
    fold(rs, tally, counts, results)
    return tally


def fold(rs: Ruleset, tally: Tally, counts: np.ndarray, results: np.ndarray) -> None:
    """Add the kernel's counts and per-game results to ``tally`` (what Tally.add_game/add_hands count)."""
    n = rs.players.count
    team_of = rs.tables.team_of
    c = counts.tolist()
    tally.games += len(results)
    hands = results[:, play.G_HANDS].tolist()
    tally.hands += sum(hands)
    tally.hands_per_game.extend(hands)
    for winner, abandoned, first in results[:, [play.G_WINNER, play.G_ABANDONED, play.G_FIRST_DEALER]].tolist():
        if abandoned:
            tally.abandoned += 1
        else:
            tally.team_wins[winner] += 1
            if winner == team_of[first]:
                tally.first_dealer_team_wins += 1
    tally.paths.update({path: c[i] for i, path in enumerate(PATHS) if c[i]})
    for name, i in (("played", play.K_PLAYED), ("decided", play.K_DECIDED), ("ties", play.K_TIES),
                    ("no_score", play.K_NO_SCORE), ("all_tricks", play.K_ALL_TRICKS),
                    ("maker_hands", play.K_MAKER_HANDS), ("maker_wins", play.K_MAKER_WINS),
                    ("elder_team_wins", play.K_ELDER_WINS)):
        setattr(tally, name, getattr(tally, name) + c[i])
    tally.announcements.update({a.id: c[play.K_ANN + i] for i, a in enumerate(rs.announcements)
                                if c[play.K_ANN + i]})
    dec0 = play.K_ANN + len(rs.announcements)
    decisions: Counter[tuple[int, str]] = Counter()
    asked: Counter[int] = Counter()
    for offset in range(n):
        for w, word in enumerate(WORDS):
            if c[dec0 + offset * 5 + w]:
                decisions[offset, word] = c[dec0 + offset * 5 + w]
        if c[dec0 + 5 * n + offset]:
            asked[offset] = c[dec0 + 5 * n + offset]
    tally.decisions.update(decisions)
    tally.asked.update(asked)
