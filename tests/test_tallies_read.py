"""Counts the rules read (`tally(team, "name")`), counts wiped (`clears_when`) and a game the
scoresheet's `ends_when` ends: the concepts of Rubber Bridge (examples/rubber-bridge.yaml), whose
part-scores below the line and games won are tallies that pay nothing, read by its scoring.

Hand-checked rubbers are tests/scenarios/rubber-bridge-*.yaml; here random games of a small variant
are recounted hand by hand, whole greedy rubbers are checked against their own rules, and the checks
and the rulebook are read.
"""
from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl import api
from couillon_dsl.engine import CHANCE, GameState
from couillon_dsl.explain import game_end_sentence, tally_sentence
from couillon_dsl.agents import make_agent
from couillon_dsl.simulation import play_game
from tests.example_games import FOLDER
from variants import codes_of, refused

RUBBER = api.load(FOLDER / "rubber-bridge.yaml")
# Couillon where a team's third hand won (and after) counts double, a tie wipes every team's count of
# won hands, and the game ends once a team wins its fifth hand counted since the last tie (`ends_when`:
# no race to the goal, the lines may go below it).
STREAKS = """\
id: streaks
name: Streaks
extends: couillon
define:
  streak: tally(winner, "wins")
scoring:
  win:
    delta: if(streak >= 2, -2, -1)
tallies:
  wins:
    adds: if(team == winner, 1, 0)
    clears_when: tie
scoresheet:
  ends_when: decided and streak == 4
"""


def streaks(tmp_path: Path) -> object:
    path = tmp_path / "streaks.yaml"
    path.write_text(STREAKS, encoding="utf-8")
    return api.load(path)


def random_hands(rs: object, seed: int) -> tuple[GameState, list[dict[str, tuple[int, ...]]]]:
    """A game of random legal play, and the tallies as they stood before each of its hands."""
    rng = random.Random(seed)
    state = api.new_game(rs, seed=seed)  # type: ignore[arg-type]
    before = [state.tallies]
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 100_000, "the game does not end"
        count = len(state.hands)
        if state.current_player() == CHANCE:
            state.apply(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        if len(state.hands) > count:
            before.append(state.tallies)
    return state, before


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_count_read_before_the_hand_moves_the_score_and_a_tie_wipes_it(tmp_path_factory, seed: int) -> None:
    rs = streaks(tmp_path_factory.mktemp("streaks"))
    state, before = random_hands(rs, seed)
    won = [0, 0]
    for hand, counts in zip(state.hands, before):
        if hand.outcome == "passed_out":
            continue
        assert counts["wins"] == tuple(won), "the count the rules read is the one before the hand"
        if hand.outcome == "tie":
            won = [0, 0]
            continue
        if hand.outcome == "winner":
            step = (2 if won[hand.winner] >= 2 else 1) * hand.multiplier
            assert hand.deltas[hand.winner] == -step
            won[hand.winner] += 1
    result = state.result
    assert result is not None and not result.abandoned
    assert max(won) == 5 and state.hands[-1].winner == won.index(5)  # `ends_when`, not the goal, ended it
    assert result.scores[result.winner] == min(result.scores)  # the best total: the fewest lines left


def test_greedy_rubbers_end_when_a_side_wins_its_second_game_and_the_higher_total_wins() -> None:
    for seed in range(12):
        state = play_game(api.new_game(RUBBER, seed=seed), [make_agent("greedy")] * 4, random.Random(seed))
        result = state.result
        assert result is not None and not result.abandoned
        games = state.tallies["games"]
        assert sorted(games) in ([0, 2], [1, 2])  # the rubber ends at a side's second game
        assert result.scores[result.winner] == max(result.scores)  # the higher total wins, rubber or not
        rubber_side = games.index(2)
        last = state.hands[-1]
        assert last.maker == rubber_side and last.deltas[rubber_side] >= (700 if min(games) == 0 else 500)
        assert state.tallies["part"] == (0, 0)  # the game that won the rubber wiped both part-scores


def test_vulnerability_comes_from_the_games_won() -> None:
    """Two down undoubled: 100 not vulnerable, 200 vulnerable, as the games tally before the hand says."""
    for games, penalty in (((0, 0), 100), ((1, 0), 200)):
        state = api.new_game(RUBBER, seed=3)
        state.set_scoresheet((0, 0), tallies={"games": games, "part": (0, 0)})
        score = state.ruleset.tables.score_hand((0, 0), (10, 3), 0, 0, 13, 0, 0, (0, 0), (), contract="spades",
                                                counts=((0, 0), games), bid_value=6)
        assert score.deltas == (0, penalty)
        assert score.tallies == ((0, 0), games) and not score.ends_game


def test_a_game_completed_from_a_part_score_wipes_both_and_a_second_ends_the_rubber() -> None:
    score_hand = RUBBER.tables.score_hand
    first = score_hand((0, 0), (9, 4), 0, 0, 13, 0, 0, (0, 0), (), contract="hearts", counts=((60, 40), (0, 0)),
                       bid_value=2)  # 2 hearts + 1: 60 below, 30 above; 60 + 60 is a game
    assert first.deltas == (90, 0) and first.tallies == ((0, 0), (1, 0)) and not first.ends_game
    second = score_hand((0, 0), (9, 4), 0, 0, 13, 0, 0, (90, 0), (), contract="notrump",
                        counts=first.tallies, bid_value=3)  # 3 no trump made: 100, the rubber 2-0
    assert second.deltas == (100 + 700, 0) and second.tallies == ((0, 0), (2, 0)) and second.ends_game


def test_the_checks_read_every_new_key(tmp_path: Path) -> None:
    assert refused(tmp_path, "couillon", "scoring: {win: {delta: 'if(tally(winner, \"wons\") > 0, -2, -1)'}}\n"
                   "tallies: {wins: {adds: 1}}\n") == ["unknown-tally"]
    assert refused(tmp_path, "couillon", "tallies: {wins: {adds: 1, when: tie}}\n") == ["tally-payout-unclear"]
    assert refused(tmp_path, "couillon", "scoresheet: {ends_when: 'tally(winner)'}\n") == ["expr-arity"]
    unread = STREAKS.replace('tally(winner, "wins")', "0")
    assert "tally-unread" in codes_of(tmp_path / "unread.yaml", unread)
    assert "tally-unread" not in codes_of(tmp_path / "read.yaml", STREAKS)


def test_the_rulebook_reads_the_counts_and_the_end(tmp_path: Path) -> None:
    rs = streaks(tmp_path)
    assert tally_sentence(rs, rs.tallies[0]) == (
        "After every hand each team adds 1 if that team wins the hand, else 0 to its wins; it pays nothing, "
        "and is read by the rules above. After a hand where the hand is a tie, every team's wins goes back to 0.")
    assert game_end_sentence(RUBBER) == ("the game ends after a hand where `rubber_won` holds; then the highest total "
                                         "wins, and if two are equal, the team that won the last hand")


def test_honours_go_to_the_side_of_the_player_who_held_them() -> None:
    """Rubber honours (`seat_held`): East's four aces at no trump score 150 to the defenders; South's five
    spade honours 150 to the declarer's side, North's four 100; none with the option off."""
    parse = RUBBER.layout.parse

    def mask(*cards: str) -> int:
        return sum(1 << parse(card) for card in cards)

    def deltas(rs: object, contract: str, held: tuple[int, ...]) -> tuple[int, ...]:
        trump = -1 if contract == "notrump" else 0  # spades, the first suit
        return rs.tables.score_hand((0, 0), (9, 4), 0, 0, 13, 0, 0, (0, 0), (), contract=contract,  # type: ignore[attr-defined]
                                    counts=((0, 0), (0, 0)), bid_value=3, seat_held=held, trump=trump).deltas
    aces = mask("AS", "AH", "AD", "AC")
    assert deltas(RUBBER, "notrump", (0, aces, 0, 0)) == (100, 150)  # 3 no trump made: 100, a game
    assert deltas(RUBBER, "spades", (0, 0, mask("AS", "KS", "QS", "JS", "10S"), 0)) == (90 + 150, 0)
    assert deltas(RUBBER, "spades", (mask("KS", "QS", "JS", "10S"), 0, 0, 0)) == (90 + 100, 0)
    assert deltas(RUBBER, "spades", (mask("KS", "QS", "JS"), 0, mask("AS", "10S"), 0)) == (90, 0)  # split: none
    assert deltas(api.load(FOLDER / "rubber-bridge.yaml", {"honours": False}), "notrump", (0, aces, 0, 0)) == (100, 0)
