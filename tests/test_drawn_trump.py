"""A trump suit drawn by chance in public after the deal (`trump.method: drawn`): Klaverjas as Board
Game Arena plays it (examples/klaverjas.yaml with `--option trump_choice=drawn`), a card turned from
a separate pack fixing trump and the elder's side the maker.

The draw is a chance node of its own (phase draw_trump, one action `trump S` per suit): reproducible
from the seed, replayed from a record, seen by every seat, never drawn again in a sampled world.
tests/scenarios/klaverjas-drawn.yaml plays a hand-made deal; tests/broken/drawn-single-suit.yaml
shows the code.
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from click.testing import CliRunner

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.diff import differences
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.engine.rollout import rolls_out_language_v1
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.scenario import run_scenario
from couillon_dsl.simulation import Job, play_game, run
from couillon_dsl.validate import check
from example_games import FOLDER
from honesty import twins_look_the_same, worlds_of

KLAVERJAS = str(FOLDER / "klaverjas.yaml")
RS = build_ruleset(KLAVERJAS, {"trump_choice": "drawn"})
CARD_POINTS = 162


def dealt(rs=RS, seed: int = 0) -> GameState:
    """A new game of ``rs`` with its pack dealt, waiting for the trump draw."""
    state = GameState(rs, seed=seed)
    order = list(range(rs.layout.size))
    random.Random(seed).shuffle(order)
    state.deal_pack(order)
    return state


def test_after_the_pack_chance_draws_a_suit_each_equally_likely() -> None:
    state = dealt()
    assert state.is_chance_node() and state.current_player() == CHANCE and state.phase == "draw_trump"
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["trump S", "trump H", "trump D", "trump C"]
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == state.legal_actions() and sum(p for _, p in outcomes) == pytest.approx(1)
    assert {p for _, p in outcomes} == {0.25}
    assert all(view.trump is None for view in map(state.view, range(4)))
    state.apply(state.string_to_action(None, "trump H"))
    assert state.trump == 1 and state.current_player() == 1 and state.phase == "play"  # the elder leads at once
    for seat in range(4):  # public: every seat sees it, and the elder's side is the maker
        view = state.view(seat)
        assert view.trump == 1 and view.maker == 1


def test_a_drawn_suit_is_one_the_ruleset_allows(tmp_path: Path) -> None:
    path = tmp_path / "two.yaml"
    path.write_text(f"extends: {KLAVERJAS}\nid: two\nname: Two\n"
                    "trump: {method: drawn, choose: null, drawn: {suits: [H, D]}}\n", encoding="utf-8")
    state = dealt(build_ruleset(str(path)))
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["trump H", "trump D"]
    assert [p for _, p in state.chance_outcomes()] == [0.5, 0.5]
    with pytest.raises(IllegalAction):
        state.apply(state.string_to_action(None, "trump S"))
    state.apply(state.string_to_action(None, "trump D"))
    assert state.view(0).maker is None
    text = " ".join(explain(state.ruleset, "text").split())
    assert "hearts and diamonds each equally likely: it is trump; nobody decides, and nobody is the maker" in text


@pytest.mark.parametrize(("trump", "code", "pointer"), [
    ("{method: drawn, choose: null, drawn: {suits: [H, X]}}", "unknown-suit", "/trump/drawn/suits/1"),
    ("{method: drawn, choose: null, drawn: {suits: [H]}}", "drawn-single-suit", "/trump/drawn/suits"),
    ("{drawn: {suits: [H, D]}}", "unused-setting", "/trump/drawn"),
])
def test_the_suits_drawn_are_checked(tmp_path: Path, trump: str, code: str, pointer: str) -> None:
    path = tmp_path / "checked.yaml"
    path.write_text(f"extends: {KLAVERJAS}\nid: checked\nname: Checked\ntrump: {trump}\n", encoding="utf-8")
    assert (code, pointer) in {(d.code, d.pointer) for d in check(load_ruleset(path))}


def test_couillon_play_says_what_was_drawn() -> None:
    result = CliRunner().invoke(main, ["play", KLAVERJAS, "-o", "trump_choice=drawn", "--seed", "3"], input="quit\n")
    assert "Trump drawn by chance: ♥ hearts. Its makers: team 1 (seats 1, 3)." in result.output


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_suit_is_drawn_its_share_every_card_dealt_once_and_points_kept(seed: int) -> None:
    draws: Counter[str | None] = Counter()
    for game in range(40):  # both drivers: play_random, and deal_shuffled from the game's own generator
        state = GameState(RS, seed=seed + game)
        if game % 2:
            play_game(state, [make_agent("random")] * 4, random.Random(seed + game))
        else:
            state.play_random(random.Random(seed + game))
        for hand in state.hands:
            draws[hand.trump] += 1
            assert hand.trump_path == "drawn" and hand.maker == RS.tables.team_of[(hand.dealer + 1) % 4]
            cards = [card for _, trick, _ in hand.played_tricks for card in trick]
            assert sorted(cards) == list(range(32))  # every card dealt once, and played
            assert sum(hand.points) == CARD_POINTS
    total = sum(draws.values())
    assert set(draws) == {"S", "H", "D", "C"}
    # 640 hands: a share's sd is 0.017; 0.07 is over four of them, so 20 checks a run fail by chance one run in 1000s
    assert all(abs(count / total - 0.25) < 0.07 for count in draws.values()), draws


def test_a_game_is_reproducible_from_its_seed_and_replays_from_its_record() -> None:
    first, second = GameState(RS, seed=11), GameState(RS, seed=11)
    for state in (first, second):
        while not state.is_terminal():
            if state.is_chance_node():
                state.deal_shuffled()
            else:
                state.apply(random.Random(len(state.history())).choice(state.legal_actions()))
    assert first.history() == second.history()
    record = GameRecord.from_state(first, ruleset=KLAVERJAS, seed=11)
    assert sum(action.startswith("trump ") for action in record.actions) == len(first.hands)
    assert replay(record, RS) is None


@pytest.mark.parametrize("spec", ["greedy", "pimc:samples=4", "ismcts:iterations=40:worlds=4"])
def test_the_searches_keep_the_drawn_suit_and_are_never_asked_at_the_draw(spec: str) -> None:
    state = dealt(seed=3)
    state.apply(state.string_to_action(None, "trump C"))
    agent = make_agent(spec)
    rng = random.Random(3)
    for world in Sampler().worlds(state, 1, 6, rng):
        assert world.trump == 3 and world.history()[-1] == state.history()[-1]
    while state.hands == [] and not state.is_chance_node():
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else agent.act(state, legal, rng))
    assert state.hands[0].trump_path == "drawn"


def test_simulation_results_do_not_depend_on_the_workers() -> None:
    job = Job(KLAVERJAS, (("trump_choice", "drawn"),), 5, ("random",) * 4, record=True)
    one, two = run(RS, job, 4, 1), run(RS, job, 4, 2)
    assert [r.actions for r in one.tally.records] == [r.actions for r in two.tally.records]
    assert all(any(a.startswith("trump ") for a in r.actions) for r in one.tally.records)


def test_the_kernel_and_the_rollout_decline_it() -> None:
    reason = ruleset_reason(RS)
    assert reason is not None and "`trump.method: drawn`" in reason
    assert not rolls_out_language_v1(RS) and RS.rollout is None


def test_the_rulebook_and_the_diff_say_the_suit_is_drawn() -> None:
    text = " ".join(explain(RS, "text").split())
    assert "a suit is drawn by chance for everyone to see" in text and "every suit equally likely" in text
    assert "the team of the player on the dealer's left is the maker" in text
    lines = differences(build_ruleset(KLAVERJAS), RS)
    assert any(line.startswith("Trump: once the cards are dealt, a suit is drawn by chance") for line in lines)


def test_a_scenario_must_state_the_suit_drawn(tmp_path: Path) -> None:
    text = (Path(__file__).parent / "scenarios" / "klaverjas-drawn.yaml").read_text(encoding="utf-8")
    assert "\n  trump: S " in text
    path = tmp_path / "no-suit.yaml"
    path.write_text(text.replace("../../examples/klaverjas.yaml", KLAVERJAS).replace("\n  trump: S ", "\n  # "),
                    encoding="utf-8")
    result = run_scenario(path)
    assert not result.ok and "give the suit drawn in the deal step" in result.failures[0].message


def test_trading_two_hidden_cards_changes_nothing_a_seat_sees() -> None:
    """Two cards of the other seats trade places: the seat to lead sees, samples and chooses the same,
    the drawn suit kept in every world of both."""
    def cases():
        for seed in range(10):
            state = dealt(seed=seed)
            state.apply(state.legal_actions()[seed % 4])
            seat = state.current_player()
            a, b = (min(c for c in range(32) if state.hand_of(s) >> c & 1) for s in (2, 3))
            assert all(world.trump == state.trump for world in worlds_of(state, seat, seed))
            yield state, a, b, seat, seed

    twins_look_the_same(cases())
