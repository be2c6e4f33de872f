"""Drawing from the stock after each trick (`play.draw`), shown by Briscola: every card dealt or
drawn once, the turned card drawn last, no seat shown another's drawn card, sampled worlds that
agree with all a seat saw, the checks, the searches, and the kernel declining it."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler, hand_start
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset
from couillon_dsl.scenario import stack_pack
from couillon_dsl.simulation import play_game
from couillon_dsl.validate import check
from example_games import FOLDER
from honesty import twins_look_the_same

BRISCOLA = str(FOLDER / "briscola.yaml")
SCHNAPSEN = str(FOLDER / "schnapsen.yaml")
RS = build_ruleset(BRISCOLA)
FULL = (1 << 40) - 1


def random_hands(seed: int, games: int = 3, rs: Ruleset = RS):  # type: ignore[no-untyped-def]
    """(state, rng) at every decision of a few random games, the rng that then picks the action."""
    for game in range(games):
        rng = random.Random(seed * 100 + game)
        state = GameState(rs, seed=seed * 100 + game)
        while not state.is_terminal():
            if state.is_chance_node():
                state.deal_shuffled(rng)
                continue
            yield state, rng
            state.apply(rng.choice(state.legal_actions()))


def test_every_card_is_dealt_or_drawn_once_and_the_turned_card_is_drawn_last() -> None:
    hands = 0
    for state, _ in random_hands(1):
        played = sum(1 << c for _, c in state.view(0).played)
        held = [state.hand_of(s) for s in range(2)]
        stock = state.draw_order()
        stock_mask = sum(1 << c for c in stock)
        # the hands, the cards played and the cards left to draw: the whole pack, each card once
        assert held[0] & held[1] == 0 and (held[0] | held[1]) & (played | stock_mask) == 0
        assert played & stock_mask == 0 and len(set(stock)) == len(stock)
        assert held[0] | held[1] | played | stock_mask == FULL
        view = state.view(state.current_player())
        turned = next(card for card, holder in view.face_up if holder is None) if stock else -1
        if stock:  # the turned card, face up on the table, lies under the stock
            assert stock[-1] == turned
        # both hands keep three cards while cards are left to draw
        assert view.stock == len(stock)
        if stock:
            assert list(view.hand_sizes) == [3 - any(s == p for p, _ in view.trick) for s in range(2)]
        elif len(view.drawn) == 34:  # the stock drawn to its last card
            hands += 1
    assert hands


def test_the_last_card_drawn_is_the_turned_trump_by_the_loser_of_the_seventeenth_trick() -> None:
    found = 0
    for state, _ in random_hands(2):
        view = state.view(0)
        if len(view.played) != 39:  # the hand's last card is to be played: every draw made
            continue
        drawn = view.drawn
        assert len(drawn) == 34
        # each trick's winner draws first, then the other seat
        winners = [seat for seat, _ in drawn[::2]]
        assert [seat for seat, _ in drawn[1::2]] == [1 - w for w in winners]
        leaders = [view.played[2 * t][0] for t in range(1, 18)]  # the winner of trick t leads trick t + 1
        assert winners == leaders
        turned_seat, turned = drawn[-1]
        assert turned >= 0 and state.ruleset.layout.suit_of(turned) == state.trump  # seen by every seat
        assert turned_seat == 1 - winners[-1]
        found += 1
    assert found


def test_a_seat_never_sees_the_cards_another_seat_draws_but_the_turned_card() -> None:
    checked = 0
    for state, _ in random_hands(3, games=2):
        for seat in range(2):
            view = state.view(seat)
            assert view.hand == state.hand_of(seat)
            history = state.history()
            turned = history[hand_start(history, 40, len(view.played)) + 6]  # three each, then the stock's top
            face_up = {turned}
            for drawer, card in view.drawn:
                if drawer == seat:
                    assert card >= 0
                else:
                    assert card == -1 or card in face_up
                    checked += card == -1
            # the other seat's hand shows only the turned card while he holds it
            shown = {card for card, holder in view.face_up if holder == 1 - seat}
            assert shown <= set(iter_bits(state.hand_of(1 - seat)))
            assert all(card in face_up for card in shown)
    assert checked


@pytest.mark.parametrize("path", [BRISCOLA, SCHNAPSEN])
def test_the_sampled_worlds_agree_with_everything_the_seat_saw_and_vary(path: str) -> None:
    checked = 0
    for state, rng in random_hands(4, games=2, rs=build_ruleset(path)):
        if not state.is_playing() or rng.random() > 0.25:
            continue
        seat = state.current_player()
        view = state.view(seat)
        worlds = Sampler().worlds(state, seat, 6, random.Random(len(state.history())))
        assert worlds
        others = set()
        for world in worlds:
            assert world.view(seat) == view
            assert world.hand_of(seat) == state.hand_of(seat)
            others.add((world.hand_of(1 - seat), tuple(world.draw_order())))
        if view.stock > 4:  # many unseen cards: the worlds differ
            assert len(others) > 1
        checked += 1
    assert checked > 20


def trade_unseen_cards(seed: int):  # type: ignore[no-untyped-def]
    """Mid-hand positions and two cards the seat to play never saw: one in the other hand, one in the stock."""
    for state, rng in random_hands(seed, games=4):
        if not state.is_playing() or len(state.view(0).played) < 8 or rng.random() > 0.3:
            continue
        seat = state.current_player()
        view = state.view(seat)
        shown = {card for card, _ in view.face_up}
        theirs = [c for c in iter_bits(state.hand_of(1 - seat)) if c not in shown]
        stock = [c for c in state.draw_order() if c not in shown]
        if theirs and stock:
            yield state, theirs[0], stock[0], seat, seed


def test_a_seat_cannot_tell_the_other_hand_from_the_stock() -> None:
    twins_look_the_same(trade_unseen_cards(5), wanted=2)


@pytest.mark.parametrize("agents", [("greedy", "random"), ("pimc:samples=3", "ismcts:iterations=30:worlds=3")])
def test_the_agents_play_briscola(agents: tuple[str, str]) -> None:
    state = GameState(build_ruleset(BRISCOLA, {"hands": 1}), seed=7)
    play_game(state, [make_agent(a) for a in agents], random.Random(7))
    assert state.is_terminal() and state.hands
    for hand in state.hands:
        cards = [card for _, trick, _ in hand.played_tricks for card in trick]
        assert sorted(cards) == list(range(40)) and len(hand.played_tricks) == 20
        assert sum(hand.points) == 120


def test_the_kernel_and_the_rollout_decline_drawing() -> None:
    reason = ruleset_reason(RS)
    assert reason is not None and "`play.draw`" in reason
    assert RS.rollout is None


def variant(tmp_path: Path, body: str) -> set[tuple[str, str]]:
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: {BRISCOLA}\nid: variant\nname: Variant\n{body}", encoding="utf-8")
    return {(d.code, d.pointer) for d in check(load_ruleset(path)) if d.severity == "error"}


def test_a_draw_without_a_stock_is_an_error(tmp_path: Path) -> None:
    found = variant(tmp_path, "trump: {method: none}\ndeal: [{packet: 20, to: all}]\n")
    assert ("draw-without-stock", "/play/draw") in found


def test_a_stock_the_draws_do_not_empty_together_is_an_error(tmp_path: Path) -> None:
    found = variant(tmp_path, "play: {draw: {cards: 4}}\n")  # 34 cards, 8 drawn per trick
    assert ("draw-uneven", "/play/draw") in found


def test_a_draw_beside_a_kitty_is_not_combined_yet(tmp_path: Path) -> None:
    found = variant(tmp_path, "deal: [{packet: 3, to: all}, {set_aside: 2}, {stock: rest}, {turn_up: stock_top}, "
                              "{decide: trump}]\n")
    assert ("draw-not-combined", "/play/draw") in found


def test_the_hand_has_the_tricks_of_the_cards_dealt_and_drawn() -> None:
    assert RS.tables.hand_tricks == (20,)
    state = GameState(RS, seed=1)
    state.deal_shuffled(random.Random(1))
    assert state.hand_tricks == 20 and state.view(1).stock == 34


def test_a_card_not_followed_while_the_stock_lasts_says_nothing_of_the_suit() -> None:
    """Schnapsen, tests/scenarios/schnapsen-stock-then-follow.yaml: D plays AC on L's AS while holding JS
    (no duty yet). L's worlds must still give D spades: that trick shows no void."""
    rs = build_ruleset(SCHNAPSEN)
    state = GameState(rs)
    spec = {"L": "AS 10S KS QH JH", "D": "AC 10C KC QC JS", "stock": "AH AD 10D KD QD JD 10H KH QS JC"}
    state.deal_pack(stack_pack(rs, 0, spec))
    for card in ("AS", "AC"):
        state.apply(state.string_to_action(None, card))
    spades = rs.layout.suit_mask(0)
    worlds = Sampler().worlds(state, 1, 12, random.Random(0))
    assert len(worlds) == 12
    assert any(world.hand_of(0) & spades for world in worlds)
    assert all(world.view(1) == state.view(1) for world in worlds)
