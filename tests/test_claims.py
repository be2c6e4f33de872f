"""A claim: an announcement of the leader that ends the hand (`ends_hand`), judged by the scoring.

Schnapsen's and Sixty-six's going out by choice (examples/schnapsen.yaml, option
claiming=by_choice): the player on lead claims to count 66 before leading, and the hand ends
there; a true claim wins on the counts as they stand, a false one gives the other 2 game points,
3 if he had no trick. The hand-checked cases are tests/scenarios/schnapsen-claim-after-marriage.yaml
and tests/scenarios/schnapsen-false-claim.yaml.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.api import load
from couillon_dsl.engine import GameState
from couillon_dsl.diagnostics import RulesetError
from couillon_dsl.explain import explain
from packs import agents_game, assert_replays, decisions
from test_agents import assert_blind_to_hidden_cards

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RS = load(str(EXAMPLES / "schnapsen.yaml"), {"claiming": "by_choice"})
MARRIAGE = 0  # the marriage's index among the declarations


def count(state: GameState, seat: int) -> int:
    """``seat``'s count as the rules judge a claim: card points, and marriages once it has a trick."""
    team = RS.tables.team_of[seat]
    marriages = state.declared_points()["marriage"][team] if state.trick_counts[team] else 0
    return state.side_points[team] + marriages


def claimed_hands(rs, seed: int, agent: str = "random") -> list[tuple[int, int, int, int, int]]:
    """Play a game with ``agent`` at both seats; per claim: the claimer, his count and the other's tricks
    when he claimed, then the hand's winner and the game points it moved."""
    rng = random.Random(seed)
    agents = [make_agent(agent) for _ in range(2)]
    state = GameState(rs, seed=seed)
    claims = []
    for seat in decisions(state, rng):
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else agents[seat].act(state, legal, rng)
        if action == state.string_to_action(seat, "announce claim"):
            before = (seat, count(state, seat), state.trick_counts[1 - seat], len(state.finished_tricks()))
            hands = len(state.hands)
            state.apply(action)
            assert len(state.hands) == hands + 1  # the hand ended at once
            hand = state.hands[-1]
            assert len(hand.played_tricks) == before[3]  # before the lead: no card more was played
            claims.append((*before[:3], hand.winner, max(hand.deltas)))
            continue
        state.apply(action)
    return claims


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_a_claim_ends_the_hand_and_is_judged_on_the_counts_as_they_stand(seed: int) -> None:
    for claimer, counted, other_tricks, winner, points in claimed_hands(RS, seed):
        if counted >= 66:  # true: the claimer wins, 1 to 3 by the other's count
            assert winner == claimer and points in (1, 2, 3)
            assert (points == 3) == (other_tricks == 0)
        else:  # false: the other wins 2, or 3 if he had no trick
            assert winner == 1 - claimer and points == (3 if other_tricks == 0 else 2)


def test_greedy_claims_as_soon_as_its_count_reaches_66_and_never_falsely() -> None:
    claims = [claim for seed in range(8) for claim in claimed_hands(RS, seed, "greedy")]
    assert len(claims) > 20
    assert all(counted >= 66 and winner == claimer for claimer, counted, _, winner, _ in claims)
    rng = random.Random(1)
    greedy = make_agent("greedy")
    state = GameState(RS, seed=1)
    offered = 0
    for seat in decisions(state, rng):  # at every lead a claim is offered: greedy makes it exactly when it is true
        legal = state.legal_actions()
        action = legal[0] if len(legal) == 1 else greedy.act(state, legal, rng)
        claim = state.string_to_action(seat, "announce claim")
        if claim in legal:
            offered += 1
            assert (action == claim) == (count(state, seat) >= 66)
        state.apply(action)
    assert offered > 20


def test_without_the_option_the_hand_stops_by_itself_and_nothing_is_offered() -> None:
    automatic = load(str(EXAMPLES / "schnapsen.yaml"))
    assert not automatic.tables.hand_enders and automatic.play.stop_when
    assert RS.tables.hand_enders and RS.play.stop_when is None
    assert RS.declarations[MARRIAGE].optional  # announced before the lead, so a claim may follow it


@pytest.mark.parametrize("agent", ["random", "greedy", "pimc:samples=4", "ismcts:iterations=20"])
def test_agents_play_whole_games_of_sixty_six_with_claims_that_replay(agent: str) -> None:
    rs = load(str(EXAMPLES / "sixty-six.yaml"), {"claiming": "by_choice"})
    state = agents_game(rs, [make_agent(agent) for _ in range(2)], random.Random(5))
    assert_replays(state)


def test_the_searches_decide_the_same_when_hidden_cards_are_permuted() -> None:
    assert_blind_to_hidden_cards(RS)


def test_ends_hand_belongs_to_an_announcement_of_the_leader(tmp_path: Path) -> None:
    path = tmp_path / "claim.yaml"
    path.write_text(f"extends: {EXAMPLES / 'schnapsen.yaml'}\nid: claim\nname: Claim\n"
                    "announcements:\n  claim:\n    name: Claim\n    holder_of: JS\n    ends_hand: true\n")
    with pytest.raises(RulesetError) as raised:
        load(str(path))
    assert any(d.code == "leader-announcement-shape" and d.pointer == "/announcements/claim/ends_hand"
               for d in raised.value.diagnostics)


def test_the_rulebook_says_the_claim_ends_the_hand() -> None:
    text = explain(RS)
    assert ("Once it is announced the hand ends at once, before the lead: the cards not yet played count for "
            "nobody, and the scoring below judges the claim on the hand as it stands") in text
    assert "When the hand ends the opponents of the team that announced Going out if `claim_false` holds" in text
