"""A hand that stops before its last trick (`play.stop_when`): read after each trick on what the tricks
so far have settled, the hand scored as it stands; random play and replay agreeing; the kernel and
the rollout declining it; the searches playing it (Schnapsen's 66)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset
from couillon_dsl.simulation import play_game
from couillon_dsl.validate import check
from example_games import FOLDER

SCHNAPSEN = str(FOLDER / "schnapsen.yaml")


def variant(tmp_path: Path, stop_when: str) -> Path:
    path = tmp_path / "variant.yaml"
    path.write_text(f"extends: couillon\nid: variant\nname: Variant\nplay:\n  stop_when: '{stop_when}'\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def three_tricks(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """Couillon whose hand stops as soon as a team has three of its four tricks."""
    return build_ruleset(str(variant(tmp_path_factory.mktemp("stop"), "tricks(last_trick_winner) >= 3")))


def test_a_hand_stops_after_the_first_trick_where_the_expression_holds(three_tricks: Ruleset) -> None:
    stopped = full = 0
    state = GameState(three_tricks, seed=3)
    state.play_random(random.Random(3))
    for hand in state.hands:
        if hand.outcome == "passed_out":
            continue
        taken = [0, 0]
        for _, _, winner in hand.played_tricks:
            assert max(taken) < 3, "the hand went on after a team had three tricks"
            taken[three_tricks.tables.team_of[winner]] += 1
        assert tuple(taken) == hand.tricks
        if max(taken) == 3:
            stopped += len(hand.played_tricks) < 4
        else:
            full += 1
            assert len(hand.played_tricks) == 4
        # the cards not played count for nobody: the points taken are those of the tricks played
        points = [0, 0]
        for _, cards, winner in hand.played_tricks:
            points[three_tricks.tables.team_of[winner]] += sum(three_tricks.tables.contexts[0].points[c] for c in cards)
        assert tuple(points) == hand.points
    assert stopped and full


def test_random_play_and_replay_agree_on_stopped_hands(three_tricks: Ruleset) -> None:
    for seed in range(10):
        played = GameState(three_tricks, seed=seed)
        played.play_random(random.Random(seed))
        replayed = GameState(three_tricks)
        for action in played.history():
            replayed.apply(action)
        assert replayed.is_terminal() and replayed.hands == played.hands and replayed.result == played.result


def test_the_kernel_and_the_rollout_decline_a_hand_that_stops(three_tricks: Ruleset) -> None:
    reason = ruleset_reason(three_tricks)
    assert reason is not None and "stop_when" in reason
    assert three_tricks.rollout is None


def test_stop_when_reads_only_what_the_tricks_so_far_settle(tmp_path: Path) -> None:
    codes = {d.code for d in check(load_ruleset(variant(tmp_path, "all_tricks"))) if d.severity == "error"}
    assert codes == {"stop-when-reads-later"}
    codes = {d.code for d in check(load_ruleset(variant(tmp_path, "points(maker) > 60 or tricks(maker) == 0")))
             if d.severity == "error"}
    assert codes == set()


@pytest.mark.parametrize("agents", [("greedy", "pimc:samples=4"), ("ismcts:iterations=40:worlds=4", "greedy")])
def test_the_searches_play_schnapsen_to_66(agents: tuple[str, str]) -> None:
    rs = build_ruleset(SCHNAPSEN)
    state = GameState(rs, seed=11)
    play_game(state, [make_agent(a) for a in agents], random.Random(11))
    assert state.is_terminal()
    counts = []
    for hand in state.hands:
        kept = dict(zip([d.id for d in rs.declarations], hand.declared))["marriage"]
        counts.append([hand.points[t] + (kept[t] if hand.tricks[t] else 0) for t in range(2)])
    # a hand stopped short of its ten tricks only once a player counted 66
    assert all(max(c) >= 66 for c, hand in zip(counts, state.hands) if len(hand.played_tricks) < 10)
    assert any(len(hand.played_tricks) < 10 for hand in state.hands)


def test_stop_when_may_count_the_cards_taken_so_far(tmp_path: Path) -> None:
    """count() reads the cards of the tricks played so far: the hand stops once a team has two aces."""
    path = tmp_path / "aces.yaml"
    path.write_text("extends: couillon\nid: aces\nname: Aces\ndeck:\n  card_sets: {aces: [AS, AH, AD, AC]}\n"
                    "play:\n  stop_when: 'count(\"aces\", last_trick_winner) >= 2'\n", encoding="utf-8")
    assert [d for d in check(load_ruleset(path)) if d.is_error] == []
    rs = build_ruleset(str(path))
    aces = {rs.layout.parse(c) for c in ("AS", "AH", "AD", "AC")}
    stopped = 0
    for seed in range(8):
        state = GameState(rs, seed=seed)
        state.play_random(random.Random(seed))
        for hand in state.hands:
            if hand.outcome == "passed_out":
                continue
            taken = [0, 0]
            for _, cards, winner in hand.played_tricks:
                assert max(taken) < 2, "the hand went on after a team had two aces"
                taken[rs.tables.team_of[winner]] += len(aces & set(cards))
            if max(taken) < 2:
                assert len(hand.played_tricks) == 4, "the hand stopped before a team had two aces"
            stopped += len(hand.played_tricks) < 4
    assert stopped


def test_a_read_stop_when_may_not_make_is_named_as_written(tmp_path: Path) -> None:
    [problem] = [d for d in check(load_ruleset(variant(tmp_path, "trick_winner(-1) == maker"))) if d.is_error]
    assert problem.code == "stop-when-reads-later" and "reads trick_winner()," in problem.message
