"""A partner found by a called card (`contracts.<id>.call`), through Schafkopf
(examples/schafkopf.yaml): the Sauspiel's declarer calls the ace of a plain suit, and whoever
holds it plays with him.

Public: the call, and so the declarer's side; the side of a seat that played the called card.
Hidden: who holds the called card until it is played, and with it every other seat's side; the
holder knows it from his hand. Moving the unplayed called ace between two other seats changes no
view, no world a seat samples, nor any choice.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.diff import differences
from couillon_dsl.engine import GameState, IllegalAction, explain_legal
from couillon_dsl.interop.encoding import ViewEncoder
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.simulation import play_game
from example_games import FOLDER
from honesty import twins_look_the_same, unplayed_called_card_twins
from packs import at_the_table, no_knocks, pack_dealing, random_hands, say

RS = build_ruleset(str(FOLDER / "schafkopf.yaml"))
LAYOUT = RS.layout
ACTS = GameState(RS).actions
DEALER = 3  # seat 0 is forehand


def deal(hands: dict[int, str], seed: int = 0) -> GameState:
    """A game dealt by seat 3: ``hands`` (seat -> some of its cards, by name), the rest at random."""
    state = GameState(RS)
    state.apply(ACTS.dealer0 + DEALER)
    ids = {seat: [LAYOUT.parse(name) for name in names.split()] for seat, names in hands.items()}
    state.deal_pack(pack_dealing(RS, DEALER, ids, seed=seed))
    return no_knocks(state)


def test_the_caller_needs_a_plain_card_of_the_suit_and_not_the_ace() -> None:
    """Seat 0 holds the ace of leaves and a plain acorn, no bell: only the acorn ace may be called (the
    ace of hearts is no plain suit's, the leaf ace is his own, the bells he lacks)."""
    state = deal({0: "AS 9C 7S QC JC QS JS 10H"})
    say(state, "contract sauspiel", "pass", "pass", "pass")
    assert state.phase == "call" and state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["call AC"]
    with pytest.raises(IllegalAction):
        say(state, "call AS")


def test_a_seat_with_no_ace_to_call_may_not_bid_the_sauspiel() -> None:
    """Every card of seat 0 is a trump (Obers, Unters, hearts): no plain card, no call, no Sauspiel."""
    state = deal({0: "QC QS QH QD JC JS AH 10H"})
    assert "contract sauspiel" not in [state.action_to_string(a) for a in state.legal_actions()]
    assert "contract solo_h" in [state.action_to_string(a) for a in state.legal_actions()]


def test_the_partner_knows_and_the_others_learn_when_the_ace_is_played() -> None:
    state = deal({0: "9C 8C QC JC QS JS 10H 9H", 2: "AC"})
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC")
    assert state.called == LAYOUT.parse("AC") and state.sides == (0, 1, 0, 1)
    assert state.view(0).sides == (0, -1, -1, -1)  # the caller does not know who holds the ace
    assert state.view(2).sides == (0, 1, 0, 1)  # its holder knows every side
    assert state.view(1).sides == (0, 1, -1, -1) and state.view(1).points == ()  # side totals would tell
    say(state, "9C")  # forehand leads the called suit
    say(state, state.action_to_string(state.legal_actions()[0]))
    say(state, "AC")
    assert state.view(1).sides == (0, 1, 0, 1) and state.view(3).sides == (0, 1, 0, 1)


@pytest.mark.parametrize("caller", [False, True])  # a defender to play, or the caller himself
def test_nobody_learns_where_an_unplayed_called_ace_is(caller: bool) -> None:
    """A seat to play that does not hold the called ace (the caller, or a seat that is neither caller
    nor holder): trading the unplayed ace between two other seats for a plain card changes neither its
    view, the worlds it samples nor any search's choice, though the sides change."""
    twins_look_the_same(unplayed_called_card_twins(RS, caller))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_hands_conserve_120_points_and_pay_as_the_tariff_says(seed: int) -> None:
    """Four cards each, then every seat asked whether it knocks; 120 card points and eight tricks a hand;
    a called partner's side is two seats, a soloist's one; the winners gain what the losers lose
    (Ramsch: one loser pays 20 to each, 40 after a Jungfrau; a Durchmarsch is paid 20 by each)."""
    for event, state in random_hands(GameState(RS, seed=seed), random.Random(seed), 4):
        if event == "deal":
            dealt = [state.hand_of(s) for s in range(4)]
            assert state.asked_in_deal and all(h.bit_count() == 4 for h in dealt)
        elif event == "decide" and state.phase == "call":
            assert not state.hand_of(state.current_player()) & sum(1 << (a - ACTS.call0) for a in state.legal_actions())
        elif event == "hand":
            summary = state.hands[-1]
            assert sum(summary.points) == 120 and sum(summary.tricks) == 8
            if summary.contract == "sauspiel":
                assert sorted(summary.sides) == [0, 0, 1, 1]
            elif summary.contract != "ramsch":
                assert sorted(summary.sides) == [0, 1, 1, 1]
            ramsch = sorted(summary.deltas) in ([-60, 20, 20, 20], [-120, 40, 40, 40], [-20, -20, -20, 60])
            if summary.contract != "ramsch" or ramsch:
                assert sum(summary.deltas) == 0
            if summary.contract == "ramsch" and not ramsch:  # players tied for the most points each pay
                assert sorted(summary.points)[-1] == sorted(summary.points)[-2]


def test_a_game_records_the_call_and_replays_exactly() -> None:
    rs = build_ruleset(str(FOLDER / "schafkopf.yaml"), {"deals": 1})
    state = GameState(rs, seed=7)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(rs, DEALER, {0: [LAYOUT.parse(n) for n in "9C 8C QC JC QS JS 10H 9H".split()]}))
    no_knocks(state)
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC")
    play_game(state, [make_agent("greedy")] * 4, random.Random(7))
    record = GameRecord.from_state(state, ruleset=str(FOLDER / "schafkopf.yaml"), seed=7)
    assert "call AC" in record.actions and state.hands[0].contract == "sauspiel"
    assert replay(record, rs) is None


def test_the_kernel_and_the_rollout_decline_the_call_by_its_concepts() -> None:
    reason = ruleset_reason(RS) or ""
    assert "a called partner `contracts.sauspiel.call`" in reason and "`players.sides`" in reason
    assert RS.rollout is None


def test_a_contract_with_a_call_reaches_the_model() -> None:
    call = next(c.call for c in RS.contracts if c.id == "sauspiel")
    assert call is not None and call.cards == ("AC", "AS", "AD") and call.must_hold_suit and call.own == "forbidden"
    assert all(c.call is None for c in RS.contracts if c.id != "sauspiel")


def test_the_declarer_calling_his_own_card_plays_alone(tmp_path: Path) -> None:
    """`own: alone` with `otherwise` (French Tarot for five's shape): a declarer holding every king may
    call a queen too, or one of his kings, and then plays alone, which the others learn when it is played."""
    path = tmp_path / "own.yaml"
    path.write_text(f"extends: {FOLDER / 'schafkopf.yaml'}\nid: own\nname: Own\ncontracts:\n  sauspiel:\n"
                    "    call: {cards: [KC, KS, KH, KD], must_hold_suit: false, own: alone, "
                    "otherwise: [QC, QS, QH, QD]}\n", encoding="utf-8")
    rs = build_ruleset(path)
    state = GameState(rs)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(rs, DEALER, {0: [rs.layout.parse(n) for n in "KC KS KH KD QC 9C 8C 7C".split()]}))
    no_knocks(state)
    say(state, "contract sauspiel", "pass", "pass", "pass")
    assert sorted(state.action_to_string(a) for a in state.legal_actions()) == \
        ["call KC", "call KD", "call KH", "call KS", "call QC", "call QD", "call QH", "call QS"]
    say(state, "call KD")
    assert state.sides == (0, 1, 1, 1)
    assert state.view(0).sides == (0, 1, 1, 1) and state.view(1).sides == (0, 1, -1, -1)


def test_a_person_at_the_table_is_told_the_call_and_learns_the_partner_when_the_ace_is_played() -> None:
    """`couillon play` (seed 13: seat 3 declares a Sauspiel and calls the bell ace, which seat 0 holds):
    seat 1 is told the call, and seat 0's side when the ace is played."""
    out = at_the_table(str(FOLDER / "schafkopf.yaml"), 13, 1, "deals=1")
    assert "Seat 3 is the declarer with Sauspiel: they call a partner's card next." in out
    assert "Seat 3 calls ♦A: whoever holds it plays with them, the others told who only when it is played." in out
    assert out.index("Seat 3 calls ♦A") < out.index("Seat 0 is on the declarer's side.")



def test_a_person_declaring_a_sauspiel_is_asked_which_ace_to_call() -> None:
    """Seed 9: seat 0, forehand, does not knock, bids a Sauspiel (its second choice) and holds a plain leaf only."""
    out = at_the_table(str(FOLDER / "schafkopf.yaml"), 9, 0, "deals=1", first="1\n2\n")
    assert "Trump: ♥ hearts, contract Sauspiel; you call a partner's card now." in out
    assert "Choices: 1) call ♠A" in out
    assert "You call ♠A: whoever holds it plays with you, the others told who only when it is played." in out


def test_the_diff_reads_the_call() -> None:
    alone = build_ruleset(str(FOLDER / "schafkopf.yaml"), {"all_pass": "thrown_in"})
    assert not any("calls" in line for line in differences(RS, alone))
    lines = differences(build_ruleset(str(FOLDER / "skat.yaml"), {"table": "four"}), RS)
    assert any("the declarer calls the A♣, A♠ or A♦" in line for line in lines)


def test_the_call_is_in_every_seat_view_and_the_information_state() -> None:
    state = deal({0: "9C 8C QC JC QS JS 10H 9H", 2: "AC"})
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC")
    assert all(state.view(seat).called == LAYOUT.parse("AC") for seat in range(4))
    assert "called AC" in ViewEncoder(RS).text(state.view(1))


def test_every_sampled_world_keeps_the_call_legal() -> None:
    """Seat 1's worlds after seat 0 called the acorn ace: in each, seat 0 holds no A♣ and a plain club,
    and the seat holding the A♣ plays with seat 0."""
    state = deal({0: "9C 8C QC JC QS JS 10H 9H", 2: "AC"})
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC")
    ace, clubs = LAYOUT.parse("AC"), LAYOUT.parse_mask(["AC", "10C", "KC", "9C", "8C", "7C"])
    for world in Sampler().worlds(state, 1, 16, random.Random(3)):
        assert not world.hand_of(0) >> ace & 1 and world.hand_of(0) & clubs
        holder = next(s for s in range(4) if world.hand_of(s) >> ace & 1)
        assert world.sides[holder] == world.sides[0] == 0


def test_greedy_calls_the_ace_of_its_shortest_plain_suit() -> None:
    """Two plain clubs and one plain spade: greedy calls the leaf ace (its partner then takes the
    spade lead early, and the caller is soon free to trump)."""
    state = deal({0: "9C 8C 7S QC JC QS JS 10H"})
    say(state, "contract sauspiel", "pass", "pass", "pass")
    action = make_agent("greedy").act(state, state.legal_actions(), random.Random(0))
    assert state.action_to_string(action) == "call AS"


def test_the_holder_plays_the_called_ace_when_its_suit_is_led() -> None:
    """`plays_when_led`: clubs led, seat 2 holding A♣ 10♣ may play only the ace, and is told why."""
    state = deal({0: "9C 8C QC JC QS JS 10H 9H", 2: "AC 10C 9S", 1: "AS 7S 8S"})
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC")
    say(state, "9C")
    say(state, state.action_to_string(state.legal_actions()[0]))  # seat 1
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["AC"]
    with pytest.raises(IllegalAction, match="the holder of the called card plays it when its suit is led"):
        say(state, "10C")


def names(state: GameState) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def test_the_holder_leads_the_called_ace_before_a_smaller_card_of_its_suit() -> None:
    """`leads_it_first`: seat 0 on lead with A♣ 10♣ 9♣ (three clubs) may not lead the 10♣ or 9♣ before
    clubs have been led, and is told why; the ace itself and the other suits he may lead."""
    state = deal({0: "AC 10C 9C QC JC QS JS 10H", 1: "8C 7C"})
    say(state, "pass", "contract sauspiel", "pass", "pass", "call AC")
    assert state.current_player() == 0
    assert names(state) == ["10H", "AC", "JC", "JS", "QC", "QS"]
    with pytest.raises(IllegalAction, match=r"the holder of the called card leads it before another card of its suit "
                                            r"\(♣\) unless they hold 4 cards of the suit"):
        say(state, "9C")
    assert [ok for c, ok, _ in explain_legal(state, 0) if LAYOUT.name(c) == "10C"] == [False]


def test_the_holder_of_four_cards_of_the_called_suit_may_run_away() -> None:
    """`runs_away_with: 4`: with A♣ 10♣ K♣ 9♣ seat 0 may lead a smaller club; once clubs are led, the
    ace is free of its duties (he may later throw it on another suit)."""
    state = deal({0: "AC 10C KC 9C QC JC QS 10H", 1: "8C 7C"})
    say(state, "pass", "contract sauspiel", "pass", "pass", "call AC")
    assert names(state) == ["10C", "10H", "9C", "AC", "JC", "KC", "QC", "QS"]
    say(state, "9C")
    assert state.called_card_bars() == (0, "", 0)


def test_the_holder_keeps_the_called_ace_off_another_suit() -> None:
    """`kept_until_led`: spades led, seat 1 void in spades and holding the A♣ may play any card but the ace."""
    state = deal({0: "9C 7S QC JC QS JS 10H KH", 1: "AC 10C KC 9H 8H 7H AD 10D"})
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC")
    say(state, "7S")
    assert names(state) == ["10C", "10D", "7H", "8H", "9H", "AD", "KC"]
    with pytest.raises(IllegalAction, match="the holder of the called card keeps it until its suit is led"):
        say(state, "AC")


def test_the_caller_keeps_the_called_suit_until_it_is_led() -> None:
    """`caller_keeps_suit`: seat 0 called the A♣ holding 9♣ 8♣; void in spades, he may not throw a club on
    the spade lead, though any other card is his to play."""
    state = deal({0: "9C 8C JS 9H 8H AD KD 10D", 1: "QC 7S"})
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC")
    say(state, "8H", "QC")
    for _ in range(2):
        say(state, state.action_to_string(state.legal_actions()[0]))
    assert state.current_player() == 1
    say(state, "7S")
    for _ in range(2):
        say(state, state.action_to_string(state.legal_actions()[0]))
    assert state.current_player() == 0
    assert names(state) == ["10D", "9H", "AD", "JS", "KD"]
    with pytest.raises(IllegalAction, match=r"the caller may not discard the called suit \(♣\) before it is led"):
        say(state, "9C")


def test_the_caller_bound_by_his_duty_cannot_tell_where_the_ace_is() -> None:
    """Seat 0, the caller, to play to a spade trick, kept off his clubs (`caller_keeps_suit`): trading the
    unplayed A♣ between seats 2 and 3 for a plain card changes neither his legal cards, his view, the
    worlds he samples nor any search's choice (his duty reads his own hand and the tricks led)."""
    from honesty import same_worlds, swapped_game

    checked = 0
    for seed in range(12):
        state = deal({0: "9C 8C JS 9H 8H AD KD 10D", 1: "QC 7S", 2: "AC"}, seed=seed)
        say(state, "contract sauspiel", "pass", "pass", "pass", "call AC", "8H", "QC")
        for _ in range(2):
            say(state, state.action_to_string(state.legal_actions()[0]))
        say(state, "7S")
        for _ in range(2):
            say(state, state.action_to_string(state.legal_actions()[0]))
        ace = LAYOUT.parse("AC")
        if state.current_player() != 0 or not state.hand_of(2) >> ace & 1:
            continue
        assert state.called_card_bars()[1] == "caller_keeps_suit"
        plain = [c for c in iter_bits(state.hand_of(3) & ~state.context.trump_mask) if LAYOUT.suit_of(c) != LAYOUT.suit_of(ace)]
        twin = swapped_game(state, ace, plain[0]) if plain else None
        if twin is None:
            continue
        assert twin.hand_of(3) >> ace & 1 and twin.legal_mask() == state.legal_mask()
        same_worlds(state, twin, 0, seed)
        checked += 1
        if checked == 2:
            return
    raise AssertionError("fewer than 2 positions to check")


def test_the_worlds_keep_the_running_away_rule() -> None:
    """Seat 1 led the 7♣ before clubs were led: in every world seat 2 samples, seat 1 holds the A♣ only
    with enough clubs to have run away (the A♣, 10♣ and K♣ beside the 7♣ he led), else another seat holds it."""
    ace, clubs = LAYOUT.parse("AC"), LAYOUT.parse_mask(["10C", "KC"])
    state = deal({0: "9C 8C JS 9H 8H AD KD 10D", 1: "QC 7C", 3: "AC"})
    say(state, "contract sauspiel", "pass", "pass", "pass", "call AC", "8H", "QC")
    for _ in range(2):
        say(state, state.action_to_string(state.legal_actions()[0]))
    say(state, "7C")
    worlds = Sampler().worlds(state, 2, 24, random.Random(5))
    assert worlds
    for world in worlds:
        assert not world.hand_of(0) >> ace & 1
        if world.hand_of(1) >> ace & 1:
            assert world.hand_of(1) & clubs == clubs
