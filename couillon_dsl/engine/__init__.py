"""The generic engine: one GameState that plays any compiled ruleset (design §3).

``state`` holds the game (deal script, trump procedures, announcements, tricks, scoring,
games and sessions), ``follow`` the follow obligations as mask primitives, ``tables`` the
precomputed per-trump-context tables, and ``why`` the reasons behind legality and tricks.
"""
from couillon_dsl.engine.state import (
    CHANCE,
    TERMINAL,
    Actions,
    FinishedGame,
    GameResult,
    GameState,
    HandSummary,
    IllegalAction,
    SeatView,
    play_random_game,
)
from couillon_dsl.expr.compile import HandFacts
from couillon_dsl.engine.why import explain_legal, explain_trick

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Actions",
    "FinishedGame",
    "GameResult",
    "GameState",
    "HandFacts",
    "HandSummary",
    "IllegalAction",
    "SeatView",
    "explain_legal",
    "explain_trick",
    "play_random_game",
]
