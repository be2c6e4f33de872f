"""Pack orders that deal chosen cards to chosen seats, for tests that set up a hand by hand, the
words of a script said at the table, and small variants checked."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Sequence

from click.testing import CliRunner

from couillon_dsl.agents import Agent
from couillon_dsl.cli import main
from couillon_dsl.engine import CHANCE, GameState, HandSummary
from couillon_dsl.engine.tables import OP_PACKET
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset
from couillon_dsl.validate import check


def seat_positions(rs: Ruleset, dealer: int) -> dict[int, list[int]]:
    """Seat -> the pack positions ``dealer``'s deal script gives it, in dealing order."""
    out: dict[int, list[int]] = {}
    for op in rs.tables.deal_plans[dealer]:
        if op[0] == OP_PACKET:
            for seat, positions in op[1]:  # type: ignore[attr-defined]
                out.setdefault(seat, []).extend(positions)
    return out


def pack_dealing(rs: Ruleset, dealer: int, hands: Mapping[int, Sequence[int]], kitty: Sequence[int] = (),
                 seed: int = 0) -> list[int]:
    """A pack order in which ``dealer``'s deal gives each seat of ``hands`` its cards first (some of
    its hand), the kitty ``kitty``, and every other card at random (from ``seed``)."""
    pack = [-1] * rs.layout.size
    places = seat_positions(rs, dealer)
    for seat, cards in hands.items():
        for position, card in zip(places[seat], cards):
            pack[position] = card
    kitty_at: Iterable[int] = range(*rs.tables.kitty.positions[dealer]) if kitty else ()
    for position, card in zip(kitty_at, kitty):
        pack[position] = card
    rest = [c for c in range(rs.layout.size) if c not in pack]
    random.Random(seed).shuffle(rest)
    return [c if c >= 0 else rest.pop() for c in pack]


def dealt(rs: Ruleset, dealer: int, hands: Mapping[int, Sequence[int]], seed: int = 0) -> GameState:
    """A game of ``rs`` dealt by ``dealer``: ``hands`` (seat -> some of its cards), the rest at random."""
    state = GameState(rs)
    state.deal_pack(pack_dealing(rs, dealer, hands, seed=seed))
    return state


def stacked(rs: Ruleset, spec: Mapping[str, str], dealer: int = 0) -> GameState:
    """A game of ``rs`` dealt by ``dealer`` as a scenario's `deal:` writes it (seat labels and `stock` -> cards)."""
    from couillon_dsl.scenario import stack_pack

    state = GameState(rs)
    state.deal_pack(stack_pack(rs, dealer, spec))
    return state


def no_knocks(state: GameState) -> GameState:
    """Answer no for every seat to the announcements the deal script asks (Schafkopf's Klopfen between the
    packets), so the deal goes on to its end; ``state``, for chaining."""
    while state.phase == "announce":
        state.apply(state.actions.decline)
    return state


def say(state: GameState, *words: str) -> None:
    """Apply each of ``words`` (``pass``, ``bid 90 S``, a card...) as the seat to act says it."""
    for word in words:
        state.apply(state.string_to_action(None, word))


def random_hands(state: GameState, rng: random.Random, count: int) -> Iterator[tuple[str, GameState]]:
    """Play random legal actions until ``count`` hands have ended: yields ``("deal", state)`` after each
    deal and ``("hand", state)`` after each hand (its summary last in ``state.hands``), and
    ``("decide", state)`` before each decision or card."""
    hands = len(state.hands)
    while not state.is_terminal() and len(state.hands) - hands < count:
        if state.current_player() == CHANCE:
            state.deal_shuffled(rng)
            yield "deal", state
            continue
        yield "decide", state
        before = len(state.hands)
        state.apply(rng.choice(state.legal_actions()))
        if len(state.hands) > before:
            yield "hand", state


def at_the_table(path: str, seed: int, seat: int, *options: str, first: str = "") -> str:
    """What `couillon play` shows a person at ``seat`` who answers ``first`` (lines) and then always
    the first choice, one game of ``path`` from ``seed`` (``options`` as ``name=value``); the game
    must end cleanly."""
    args = ["play", path, "--seed", str(seed), "--seat", str(seat)] + [a for o in options for a in ("-o", o)]
    result = CliRunner().invoke(main, args, input=first + "1\n" * 400)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    return result.output


def paid_by_role_shares(hand: HandSummary, seats: int) -> int:
    """Check that ``hand`` was paid in shares by role (`role(seat)`): each defender the same, the
    declarer two of them beside a partner (who gets one) or four alone, the changes summing to zero;
    what each defender paid (negative: was paid)."""
    taker = hand.deciding_seat
    ours = [s for s in range(seats) if hand.sides[s] == hand.sides[taker]]
    assert len(ours) in (1, 2) and sum(hand.deltas) == 0
    each = -hand.deltas[next(s for s in range(seats) if s not in ours)]
    assert all(hand.deltas[s] == -each for s in range(seats) if s not in ours)
    assert hand.deltas[taker] == (4 if len(ours) == 1 else 2) * each
    if len(ours) == 2:
        assert hand.deltas[next(s for s in ours if s != taker)] == each
    return each


def played_hands(rs: Ruleset, seeds: Iterable[int], agent: Agent, rng: random.Random) -> list[HandSummary]:
    """The hands of whole games, one per seed, ``agent`` in every seat."""
    hands: list[HandSummary] = []
    for seed in seeds:
        state = GameState(rs, seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(rng.choice(state.legal_actions()))
            else:
                state.apply(agent.act(state, state.legal_actions(), rng))
        hands += state.hands
    return hands


def declaration_errors(tmp_path: Path, base: str, declaration: str) -> set[str]:
    """The error codes of ``base`` extended by one declaration kind, `marriage`, whose keys are ``declaration``
    (YAML lines indented under it)."""
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: {base}\nid: variant\nname: Variant\ndeclarations:\n  marriage:\n"
                    f"    name: Marriage\n    {declaration}\n", encoding="utf-8")
    return {d.code for d in check(load_ruleset(path)) if d.severity == "error"}


def agents_game(rs: Ruleset, players: Sequence[Agent], rng: random.Random) -> GameState:
    """A whole game of ``rs`` played by ``players`` (one per seat), shuffled deals from ``rng``."""
    state = GameState(rs)
    while not state.is_terminal():
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        state.apply(players[state.current_player()].act(state, state.legal_actions(), rng))
    return state


def decisions(state: GameState, rng: random.Random) -> Iterator[int]:
    """Each seat to decide, in turn, until the game ends: chance's moves (the deal) are drawn from ``rng``
    in between, and the caller applies the seat's action before asking for the next."""
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(rng.choice(state.chance_outcomes())[0])
            continue
        yield state.current_player()


def assert_replays(state: GameState) -> None:
    """A finished game's history, applied to a fresh game of its ruleset, ends it with the same scores."""
    assert state.is_terminal()
    again = GameState(state.ruleset)
    for action in state.history():
        again.apply(action)
    assert again.scores == state.scores and again.is_terminal()
