"""A bid made before looking at one's cards (`bids.blind`, Spades' blind nil): who is offered it,
what the undecided seat's view and the person at the table are shown, that no agent and no
sampled world reads its cards, how the scoring reads it, greedy's choice, and who declines it."""
from __future__ import annotations

import io
import re
import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import blind_or_look
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.engine.rollout import rolls_out_language_v1
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset
from couillon_dsl.play import Quit, Table
from couillon_dsl.validate import check
from example_games import FOLDER
from honesty import same_worlds, swapped_game, worlds_of

SPADES = str(FOLDER / "spades.yaml")
RS = build_ruleset(SPADES)


def at_the_bids(rs: Ruleset, scores: list[int], seed: int) -> GameState:
    """A first hand of ``rs`` dealt from ``seed`` with the scoresheet at ``scores``, at its first bid."""
    state = GameState(rs, seed=seed)
    state.set_scoresheet(scores)
    state.deal_shuffled(random.Random(seed))
    assert state.phase == "bid"
    return state


def test_only_the_seats_of_a_side_100_behind_are_offered_it_and_see_no_hand_until_they_decide() -> None:
    state = at_the_bids(RS, [0, 150], 3)  # dealer 0: seats 0 and 2 are 150 behind
    assert state.view(0).unseen == 0b0101
    assert state.view(0).hand == 0 and state.view(2).hand == 0
    assert state.view(1).hand == state.hand_of(1) and state.view(3).hand == state.hand_of(3)
    assert state.view(0).hand_sizes == (13,) * 4  # how many cards each holds is no secret
    acts = state.actions
    assert state.current_player() == 1 and acts.accept not in state.legal_actions()  # seat 1's side leads
    state.apply(acts.bid0 + 3)
    assert state.current_player() == 2 and state.legal_actions() == [acts.accept, acts.pass_]
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["blind", "look"]
    with pytest.raises(IllegalAction, match="first bid blind or look at your cards"):
        state.apply(acts.bid0)
    state.apply(acts.pass_)  # seat 2 looks: its hand is its own again, and it bids as any other
    assert state.view(2).hand == state.hand_of(2) and state.current_player() == 2
    assert state.legal_actions()[0] == acts.bid0 and state.view(0).hand == 0
    state.apply(acts.bid0 + 2)
    state.apply(acts.bid0 + 4)
    state.apply(acts.accept)  # seat 0, the dealer, bids nil blind
    assert state.bids == (0, 3, 2, 4) and state.blind_bids == 0b0001 and state.view(3).blind == 0b0001
    assert state.view(0).hand == state.hand_of(0)
    assert state.phase == "pass" and state.current_player() == 2  # the exchange: seat 0's partner gives first


@pytest.mark.parametrize("scores", [[0, 0], [0, 99], [150, 0]])
def test_nobody_is_offered_it_where_the_condition_fails(scores: list[int]) -> None:
    state = at_the_bids(RS, scores, 5)
    behind = 0b1010 if scores[0] > scores[1] + 99 else 0
    assert state.view(0).unseen == behind
    asked = 0
    while state.phase == "bid":
        seat = state.current_player()
        if not asked >> seat & 1:  # first asked: blind or look where its side is 100 behind, else a number
            assert (state.actions.accept in state.legal_actions()) == bool(behind >> seat & 1)
        asked |= 1 << seat
        state.apply(state.legal_actions()[-1])


def test_the_option_off_offers_it_to_nobody() -> None:
    rs = build_ruleset(SPADES, {"blind_nil": False})
    assert rs.bids is not None and rs.bids.blind < 0
    assert at_the_bids(rs, [0, 300], 5).view(0).unseen == 0


def test_the_scoring_reads_it_a_blind_nil_scores_200_a_nil_100() -> None:
    """Seat 2 bids nil blind, seat 0 nil having looked: each is scored by its own rule."""
    for blind in (True, False):
        state = at_the_bids(RS, [0, 150], 8)
        acts = state.actions
        state.apply(acts.bid0 + 4)
        state.apply(acts.accept if blind else acts.pass_)
        if not blind:
            state.apply(acts.bid0)
        state.apply(acts.bid0 + 4)
        state.apply(acts.pass_)
        state.apply(acts.bid0 + 3)
        rng = random.Random(1)
        while state.hand_number == 1 and not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        hand = state.hands[0]
        took = sum(1 for _, _, winner in hand.played_tricks if winner == 2)
        nil = (200 if blind else 100) * (1 if took == 0 else -1)
        made = 30 if hand.tricks[0] >= 3 else -30
        bags = max(0, hand.tricks[0] - 3)
        assert hand.deltas[0] == nil + made + (bags if made > 0 else 0) - (100 if bags >= 10 else 0)


@pytest.fixture(scope="module")
def anyone(tmp_path_factory: pytest.TempPathFactory) -> Ruleset:
    """Spades with blind nil open to every seat (`when: 'true'`): the first hand's bids are all asked blind
    (a sampler replays a game from its start, so the position must come from the game's own actions)."""
    path = tmp_path_factory.mktemp("blind") / "anyone.yaml"
    path.write_text(f"extends: {SPADES}\nid: anyone\nname: Anyone\nbids:\n  blind: {{bid: 0, when: 'true'}}\n")
    return build_ruleset(path)


def blind_decision(rs: Ruleset, seed: int, looked: int) -> GameState:
    """The first hand dealt from ``seed``, after ``looked`` seats looked and bid 3: the next to bid blind or look."""
    state = GameState(rs, seed=seed)
    state.deal_shuffled(random.Random(seed))
    for _ in range(looked):
        state.apply(state.actions.pass_)
        state.apply(state.actions.bid0 + 3)
    assert state.legal_actions() == [state.actions.accept, state.actions.pass_]
    return state


@pytest.mark.parametrize("seed, looked", [(1, 0), (2, 2)])
def test_moving_the_undecided_seats_own_cards_changes_nothing_it_sees_samples_or_chooses(
        anyone: Ruleset, seed: int, looked: int) -> None:
    """The undecided seat's cards trade places with each other seat's: its view, worlds and every
    agent's choice (greedy, PIMC, ISMCTS) stay the same, since it has not looked."""
    state = blind_decision(anyone, seed, looked)
    seat = state.current_player()
    for other in range(4):
        if other != seat:
            own, theirs = next(iter_bits(state.hand_of(seat))), next(iter_bits(state.hand_of(other)))
            twin = swapped_game(state, own, theirs)
            assert twin is not None and twin.hand_of(seat) != state.hand_of(seat)
            same_worlds(state, twin, seat, seed)


def test_the_sampler_draws_the_undecided_seats_own_cards(anyone: Ruleset) -> None:
    state = blind_decision(anyone, 4, 1)
    seat = state.current_player()
    worlds = worlds_of(state, seat, 4, count=6)
    assert len({w.hand_of(seat) for w in worlds}) == len(worlds)  # its cards are as unknown as anyone's
    assert all(w.view(seat) == state.view(seat) for w in worlds)


def test_greedy_never_bids_blind_nil_by_the_spades_scoring(anyone: Ruleset) -> None:
    """From a fair share of the tricks (a quarter a trick) a blind nil is made 0.75^13 of the time:
    the scoring's expectation is far below the bid the seat would make once it looked."""
    for seed, looked in ((0, 0), (1, 1), (2, 2), (3, 3)):
        state = blind_decision(anyone, seed, looked)
        assert blind_or_look(state) == state.actions.pass_


def test_greedy_bids_blind_where_the_scoring_makes_it_pay(tmp_path: Path) -> None:
    """The same rule, the scoring changed: a blind nil paying 5000 made and costing nothing broken."""
    path = tmp_path / "paying.yaml"
    path.write_text(f"extends: {SPADES}\nid: paying\nname: Paying\n"
                    "scoring:\n  blind_nil: {delta: 'if(seat_tricks(seat) == 0, 5000, 0)'}\n")
    state = at_the_bids(build_ruleset(path), [0, 150], 2)
    state.apply(state.actions.bid0 + 3)  # seat 2 to decide
    assert make_agent("greedy").act(state, state.legal_actions(), random.Random(0)) == state.actions.accept


def test_a_blind_bid_outside_the_bids_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "over.yaml"
    path.write_text(f"extends: {SPADES}\nid: over\nname: Over\nbids:\n  highest: 6\n  blind: {{bid: 7}}\n")
    found = [d for d in check(load_ruleset(path)) if d.is_error]
    assert [(d.code, d.pointer) for d in found] == [("bids-out-of-range", "/bids/blind/bid")]


def test_the_kernel_and_the_rollout_decline_it() -> None:
    assert ruleset_reason(RS) is not None and not rolls_out_language_v1(RS)


def played_as_seat_2(answers: str) -> str:
    """What `couillon play` shows the person at seat 2, 150 behind, answering ``answers`` beside greedy players."""
    out = io.StringIO()
    table = Table(RS, seat=2, agents=[make_agent("greedy"), make_agent("greedy"), None, make_agent("greedy")],
                  seed=3, inp=io.StringIO(answers), out=out, echo_input=True)
    table.state.set_scoresheet([0, 150])
    try:
        table.run()
    except Quit:  # the answers ran out before the game's end
        pass
    return out.getvalue()


def test_the_person_is_not_shown_his_hand_before_he_decides() -> None:
    text = played_as_seat_2("look\n" + "1\n" * 400)
    asked = text.index("You have not looked at your cards: bid 0 tricks blind")
    assert "Your hand:" not in text[:asked]
    assert text.index("> look\nYou look at your cards.") < text.index("Your hand:")
    assert "Choices: 1) blind  2) look" in text
    assert "Bids so far: seat 1 " in text


def test_the_person_bidding_blind_is_told_so_and_the_bids_say_it() -> None:
    text = played_as_seat_2("blind\n" + "1\n" * 20)
    assert "> blind\nYou bid 0 tricks blind, before looking at your cards." in text
    assert re.search(r"Bids: seat 1 \d+, you 0 blind, seat 3 \d+, seat 0 \d+; ", text)
    # the blind bidders' exchange: the partner's cards are told at once, then the person gives two back
    assert re.search(r"Seat 0 passes you \S+ \S+\.\n", text) and "Pass 2 cards to seat 0" in text
