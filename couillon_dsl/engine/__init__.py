"""The generic engine: one GameState that plays any compiled ruleset (design §3).

``state`` is the façade (:class:`GameState`), assembled from one module per phase of a
hand: ``deal`` (the deal script), ``contract`` (fixing trump), ``kitty`` (the kitty and
the declarer's discard), ``passing`` (cards passed before play), ``bidding`` (tricks bid),
``announce`` (trick-1 announcements), ``declarations`` (melds), ``play`` (tricks) and
``scoring`` (hand and game end, tallies), all working on the slots in ``fields``. ``actions`` numbers the actions, ``results`` holds what a game
reports (summaries, results, seat views, and ``play_orders``: who plays a trick's i-th card). ``follow`` has the follow obligations as mask
primitives, ``tables`` the precomputed per-trump-context tables, ``hand`` the scoring and
random-trick functions shared with the whole-game ``rollout``, and ``why`` the reasons
behind legality and tricks.
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
from couillon_dsl.engine.results import play_orders
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
    "play_orders",
    "play_random_game",
]
