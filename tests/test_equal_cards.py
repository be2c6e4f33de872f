"""Which of equal cards wins a trick (`play.equal_cards`, a pack of copies).

Doppelkopf (examples/doppelkopf.yaml) under the DDV: the second ten of hearts played beats the
first, except in the last trick (tests/scenarios/doppelkopf-heart-tens.yaml and
doppelkopf-trump-order.yaml play it by hand). Here: the engine's winner of random tricks against a
reference computed from the rule's words, under every shape of the setting, in the play loop and
in the random playout (`hand.random_tricks`); the readings of the winner (`led_and_winner`, `why`,
greedy) agree with it.
"""
from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.agents.greedy import duck, follow
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.hand import cards_table, random_tricks
from couillon_dsl.engine.roles import led_and_winner
from couillon_dsl.engine.why import explain_trick, why_wins
from couillon_dsl.model import Ruleset, TrumpContext
from example_games import FOLDER
from packs import pack_dealing

DEALER = 3  # seat 0 leads
SOURCE = (FOLDER / "doppelkopf.yaml").read_text(encoding="utf-8")
SETTING = "  equal_cards: {wins: first, cards: [10H], last_trick: first}"
assert SETTING in SOURCE


@functools.lru_cache(maxsize=None)
def ruleset(wins: str, last: str, cards: tuple[str, ...], folder: str) -> Ruleset:
    """Doppelkopf with `play.equal_cards` so (the option second_heart_ten off: the file's setting stands)."""
    named = f", cards: [{', '.join(cards)}]" if cards else ""
    text = SOURCE.replace(SETTING, f"  equal_cards: {{wins: {wins}{named}, last_trick: {last}}}")
    path = Path(folder) / f"doppelkopf-{wins}-{last}-{'-'.join(cards) or 'all'}.yaml"
    path.write_text(text, encoding="utf-8")
    return build_ruleset(path, {"second_heart_ten": False})


def reference(rs: Ruleset, ctx: TrumpContext, cards: Sequence[int], last: bool) -> int:
    """The winning card in the rule's words: the highest card; of equal highest cards the first
    played, or the second where the rule names the card and lets the second win in this trick."""
    layout = rs.layout
    equal = rs.play.equal_cards
    st = ctx.strength[ctx.card_suit[cards[0]]]
    top = max(st[c] for c in cards)
    best = [c for c in cards if st[c] == top]
    assert len({layout.name(c) for c in best}) == 1  # equal strength: copies of one card
    rule = "first" if equal is None else equal.last_trick if last else equal.wins
    named = equal is None or not equal.cards or layout.name(best[0]) in equal.cards
    return best[-1] if rule == "second" and named else best[0]


def dealt(rs: Ruleset, seed: int) -> GameState:
    state = GameState(rs)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(rs, DEALER, {}, seed=seed))
    while state.phase == "auction":  # nobody has a reservation: the normal game
        state.apply(state.actions.pass_)
    return state


SHAPES = st.tuples(st.sampled_from(["first", "second"]), st.sampled_from(["first", "second"]),
                   st.sampled_from([(), ("10H",), ("10H", "QC"), ("AD", "9S")]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=SHAPES, seed=st.integers(0, 10**6))
def test_the_engine_winner_agrees_with_the_reference(tmp_path: Path, shape: tuple[str, str, tuple[str, ...]],
                                                     seed: int) -> None:
    """Random legal cards for a whole hand: each trick's winner (the engine's log), and the winner
    of the trick so far as `led_and_winner` and `why` read it, are the reference's."""
    rs = ruleset(*shape, folder=str(tmp_path))
    state = dealt(rs, seed)
    ctx = state.context
    rng = random.Random(seed)
    ncards = rs.layout.size
    while state.is_playing() and not state.hands:
        cards = [a for a in state.legal_actions() if a < ncards]  # the cards; no announcement
        state.apply(rng.choice(cards))
        if state.hands:
            break
        leader, trick = state.current_trick()
        if trick:
            last = state.in_last_trick()
            assert led_and_winner(ctx, trick, last)[1] == reference(rs, ctx, trick, last)
        else:
            log = state.finished_tricks()
            leader, played, winner = log[-1]
            assert not state.in_last_trick(len(log) - 1)  # the hand goes on
            assert winner == state.play_order(leader)[played.index(reference(rs, ctx, played, False))]
    tricks = state.hands[-1].played_tricks
    assert len(tricks) == 12
    for i, (leader, played, winner) in enumerate(tricks):
        card = reference(rs, ctx, played, i == 11)
        assert winner == (leader + played.index(card)) % 4
        assert led_and_winner(ctx, played, i == 11)[1] == card


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=SHAPES, seed=st.integers(0, 10**6))
def test_the_random_playout_winner_agrees_with_the_reference(tmp_path: Path, shape: tuple[str, str, tuple[str, ...]],
                                                             seed: int) -> None:
    """`hand.random_tricks` (the playout of whole hands) takes each trick as the reference does."""
    rs = ruleset(*shape, folder=str(tmp_path))
    state = dealt(rs, seed)
    ctx, t = state.context, rs.tables
    hands = [state.hand_of(seat) for seat in range(4)]
    rng = random.Random(seed)
    history: list[int] = []
    log: list[tuple[int, tuple[int, ...], int]] = []
    random_tricks(ctx, t, cards_table(rs.layout.size, 12), hands, 0, 12, rng.random, history, log,
                  [0, 0], [0, 0], (0, 1, 0, 1))
    assert len(log) == 12
    for i, (leader, played, winner) in enumerate(log):
        card = reference(rs, ctx, played, i == 11)
        assert winner == (leader + played.index(card)) % 4


POOL = [name + str(copy) for name in ("10H", "QC", "AD", "9S", "9D") for copy in (0, 1)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=SHAPES, dealt_cards=st.permutations(POOL).map(lambda p: p[:4]))
def test_the_playout_last_trick_agrees_with_the_reference(tmp_path: Path, shape: tuple[str, str, tuple[str, ...]],
                                                          dealt_cards: Sequence[str]) -> None:
    """`hand.random_tricks` with one card a hand (the last trick), copies often among them."""
    rs = ruleset(*shape, folder=str(tmp_path))
    ctx, t = dealt(rs, 0).context, rs.tables
    played = [card(rs, name[:-1], int(name[-1])) for name in dealt_cards]
    hands = [1 << c for c in played]
    log: list[tuple[int, tuple[int, ...], int]] = []
    random_tricks(ctx, t, cards_table(rs.layout.size, 1), hands, 0, 1, random.Random(0).random, [], log,
                  [0, 0], [0, 0], (0, 1, 0, 1))
    assert log[0][2] == played.index(reference(rs, ctx, played, True))


def card(rs: Ruleset, name: str, copy: int = 0) -> int:
    return rs.layout.parse(name) + copy


def test_the_second_ten_of_hearts_wins_but_not_the_last_trick(tmp_path: Path) -> None:
    """The DDV: the second 10♥ beats the first, except in the last trick; the reading of the
    winner (`led_and_winner`), its reason and greedy's winners agree."""
    rs = build_ruleset(FOLDER / "doppelkopf.yaml")
    state = dealt(rs, 1)
    ctx = state.context
    first, second, queen = card(rs, "10H"), card(rs, "10H", 1), card(rs, "QC")
    trick = (first, queen, second)
    assert led_and_winner(ctx, trick)[1] == second
    assert led_and_winner(ctx, trick, last=True)[1] == first
    assert "second played wins" in why_wins(rs, ctx, trick)
    assert "first played wins in the last trick" in why_wins(rs, ctx, trick, True)
    # greedy, the last seat, facing an opponent's 10♥ (seat 0 leads, seats 0 and 2 partners):
    # the other 10♥ wins the trick, the Q♣ does not; in the last trick neither does
    sides, order = (0, 1, 0, 1), (0, 1, 2, 3)
    assert follow(ctx, sides, 3, order, (first, card(rs, "9D"), card(rs, "9D", 1)), [second, queen]) == second
    assert duck(ctx, sides, 3, order, (first, card(rs, "9D"), card(rs, "9D", 1)), [second, queen]) == queen
    off = build_ruleset(FOLDER / "doppelkopf.yaml", {"second_heart_ten": False})
    assert led_and_winner(dealt(off, 1).context, trick)[1] == first


def test_the_engine_lets_the_second_ten_of_hearts_take_the_trick() -> None:
    """A trick played through the engine: the second 10♥ takes it, and the next trick is led by its player."""
    rs = build_ruleset(FOLDER / "doppelkopf.yaml")
    layout = rs.layout
    hands = {0: [card(rs, "10H")], 1: [card(rs, "9D")], 2: [card(rs, "10H", 1)], 3: [card(rs, "9D", 1)]}
    state = GameState(rs)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(rs, DEALER, hands, seed=3))
    while state.phase == "auction":  # nobody has a reservation: the normal game
        state.apply(state.actions.pass_)
    for seat in range(4):
        state.apply(state.string_to_action(seat, layout.name(hands[seat][0])))
    assert state.finished_tricks()[0][2] == 2
    assert state.current_player() == 2
    assert "of equal cards the second played wins" in explain_trick(state, 0)
    assert list(iter_bits(state.hand_of(0)))  # the hand goes on
