"""Any ruleset as an OpenSpiel game: importing this module registers ``python_couillon_dsl``.

    import pyspiel
    import couillon_dsl.interop.openspiel  # registers the game
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "couillon"})

Parameters: ``ruleset`` (a built-in name or a path), ``options`` (``"lines=7,..."``, the
ruleset's options) and ``hands`` (0: the whole game or session; k: stop after k hands).
The game is the engine's :class:`~couillon_dsl.engine.GameState` as it is: the deal is
chance nodes (one card of the pack at a time, each undrawn card equally likely), then
decisions and plays, with the engine's action numbering. Information-state and observation
strings and tensors are built from the seat's view only (:mod:`~couillon_dsl.interop.encoding`);
the information state adds the public record of the finished hands, so a seat recalls
them, with the cards it passed and received in them (never the cards other seats passed
between them). Returns: for a whole game, +1 for the winning team's seats and -1 for the others
(0 if abandoned); for ``hands=k``, each team's chance to win from the scoresheet reached
less the best other team's (:class:`~couillon_dsl.agents.playout.Outlook`), in [-1, 1].
"""
from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from couillon_dsl.agents.playout import Outlook
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, HandSummary
from couillon_dsl.interop.encoding import ViewEncoder

SHORT_NAME = "python_couillon_dsl"
MAX_PLAYERS = 8
RESAMPLE_TRIES = 5  # samplers' rounds before a resampling gives up

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="couillon-dsl trick-taking game",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"ruleset": "couillon", "options": "", "hands": 0},
)


def parse_options(text: str) -> dict[str, str]:
    """``"lines=7,tie_carry=none"`` -> ``{"lines": "7", "tie_carry": "none"}``."""
    out = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"option {item!r} is not name=value")
        out[key.strip()] = value.strip()
    return out


class Setup:
    """What a game's states share: the compiled ruleset and its encoder and outlook."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.ruleset = build_ruleset(str(params["ruleset"]), parse_options(str(params["options"])))
        self.hands = int(params["hands"])
        self.encoder = ViewEncoder(self.ruleset)
        self.outlook = Outlook(self.ruleset)

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self  # shared by every state of the game, and never changed: a state's copy keeps it


_SETUPS: dict[tuple[tuple[str, Any], ...], Setup] = {}  # by parameters: OpenSpiel copies games by reloading them


def setup_of(params: dict[str, Any]) -> Setup:
    key = tuple(sorted({**_GAME_TYPE.parameter_specification, **params}.items()))
    if key not in _SETUPS:
        _SETUPS[key] = Setup(dict(key))
    return _SETUPS[key]


class Engine:
    """Holds a state's GameState; a deep copy is a clone (the compiled ruleset is shared, immutable)."""

    __slots__ = ("state",)

    def __init__(self, state: GameState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        return Engine(self.state.clone())


class CouillonGame(pyspiel.Game):
    """One compiled ruleset as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        setup = setup_of(params)
        rs = setup.ruleset
        n = rs.players.count
        acts = GameState(rs).actions  # the ruleset's numbering: contracts, pushes, discards, declarations
        hands = setup.hands or rs.limits.max_hands * rs.limits.max_games
        # a hand: the pack drawn, every card played or discarded, offer rounds over the pack, bids and pushes,
        # announcements and declarations, the tricks bid, the cards passed
        per_hand = rs.layout.size * (3 + n) + n * (len(rs.announcements) + len(rs.declarations) + len(rs.contracts) + 2
                                                   + (rs.bids is not None) + rs.pass_cards)
        info = pyspiel.GameInfo(
            num_distinct_actions=acts.dealer0 + n,
            max_chance_outcomes=acts.dealer0 + n,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=hands * per_hand + 1,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> CouillonState:
        return CouillonState(self)

    def setup(self) -> Setup:
        return setup_of(self.get_parameters())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(self.setup(), perfect_recall)


class CouillonState(pyspiel.State):
    """A GameState behind OpenSpiel's state API; a copy clones the engine state (the ruleset is shared)."""

    def __init__(self, game: CouillonGame) -> None:
        super().__init__(game)
        self.setup = game.setup()
        self.held = Engine(GameState(self.setup.ruleset))

    @property
    def engine(self) -> GameState:
        return self.held.state

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        player = self.engine.current_player()
        return int(pyspiel.PlayerId.CHANCE) if player == CHANCE else player

    def is_terminal(self) -> bool:
        engine = self.engine
        return engine.is_terminal() or bool(self.setup.hands and len(engine.hands) >= self.setup.hands)

    def _legal_actions(self, player: int) -> list[int]:
        return self.engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.engine.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.engine.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        text = self.engine.action_to_string(action)
        return f"draw {text}" if player == int(pyspiel.PlayerId.CHANCE) else text

    def returns(self) -> list[float]:
        n = self.setup.ruleset.players.count
        if not self.is_terminal():
            return [0.0] * n
        team_of = self.setup.ruleset.tables.team_of
        result = self.engine.result
        if result is not None and not self.setup.hands:
            if result.abandoned:
                return [0.0] * n
            return [1.0 if team_of[s] == result.winner else -1.0 for s in range(n)]
        chances = self.setup.outlook.chances(self.engine)
        return [chances[team_of[s]] - max(c for t, c in enumerate(chances) if t != team_of[s]) for s in range(n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CouillonState:
        """A state ``player_id`` cannot tell from this one, hidden cards dealt anew by the agents'
        rule-derived sampler (what OpenSpiel's ISMCTS bot asks for its determinizations)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        for _ in range(RESAMPLE_TRIES):
            worlds = Sampler().worlds(self.engine, player_id, 1, rng)
            if worlds:
                other = self.get_game().new_initial_state()
                for action in worlds[0].history():
                    other.apply_action(action)
                return other
        raise pyspiel.SpielError(f"no deal agrees with seat {player_id}'s information state")

    def __str__(self) -> str:
        engine = self.engine
        name = self.setup.ruleset.layout.name
        hands = [" ".join(name(c) for c in iter_bits(engine.hand_of(s))) for s in range(self.setup.ruleset.players.count)]
        return f"scores {list(engine.scores)} hands {' / '.join(hands)} actions {len(engine.history())}"


class ViewObserver:
    """OpenSpiel's PyObserver: tensor and string of a seat's view (with perfect recall: plus the
    public record of the finished hands in the string)."""

    def __init__(self, setup: Setup, perfect_recall: bool) -> None:
        self.setup = setup
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(setup.encoder.size, np.float32)
        self.dict = {}
        at = 0
        for name, size in setup.encoder.pieces:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: CouillonState, player: int) -> None:
        self.tensor[:] = self.setup.encoder.encode(state.engine.view(player))

    def string_from(self, state: CouillonState, player: int) -> str:
        now = self.setup.encoder.text(state.engine.view(player))
        if not self.perfect_recall:
            return now
        past = [f"hand {h.number} of game {h.game}: dealer {h.dealer} said {list(h.decisions)} "
                + (f"bid {list(h.bids)} " if h.bids else "") + self.own_passes(h, player)
                + f"tricks {[list(cards) for _, cards, _ in h.played_tricks]} scores {list(h.scores)}"
                for h in state.engine.hands]
        return " || ".join([*past, now])

    def own_passes(self, hand: HandSummary, player: int) -> str:
        """``passed QS KS received 2C 3C `` in a finished hand where cards were passed: the
        player's own alone, as its view showed them (the summary holds every seat's)."""
        rs = self.setup.ruleset
        if not hand.passed or not rs.pass_cards:
            return ""
        n = len(hand.passed)
        giver = (player - rs.pass_offset(hand.number - 1)) % n  # hand.number counts the game's hands from 1
        name = self.setup.ruleset.layout.name
        return (f"passed {' '.join(name(c) for c in iter_bits(hand.passed[player]))} "
                f"received {' '.join(name(c) for c in iter_bits(hand.passed[giver]))} ")


pyspiel.register_game(_GAME_TYPE, CouillonGame)
