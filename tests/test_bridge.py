"""Contract Bridge's concepts (examples/bridge.yaml), each generic: an open auction outbid by a higher
value or the same value in a higher strain (`outbid: value_or_strain`), doubles that are calls
(`double_ends_bidding: false`), the declarer who first named the strain (`declarer:
first_to_name_strain`), the opening lead after the declarer (`first_lead: after_maker`), the dummy
(`play.dummy: declarer_partner`), the deal's number (`hand_number`) and a seat named by its number.
"""
from __future__ import annotations

import random
from pathlib import Path

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.why import explain_legal
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from example_games import FOLDER
from honesty import twins_look_the_same, worlds_of
from packs import dealt, played_hands, say
from variants import codes_of

RS = build_ruleset(str(FOLDER / "bridge.yaml"))
GREEDY = make_agent("greedy")
TEXT = (FOLDER / "bridge.yaml").read_text(encoding="utf-8")


def said(state: GameState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_a_bid_outbids_by_level_or_by_strain_at_the_same_level() -> None:
    state = dealt(RS, 0, {})
    assert state.current_player() == 0  # the dealer speaks first
    say(state, "bid 2 hearts")
    assert said(state)[:4] == ["pass", "bid 2 spades", "bid 2 notrump", "bid 3 clubs"]
    assert "bid 2 diamonds" not in said(state) and "bid 2 hearts" not in said(state)  # insufficient


def test_a_double_is_a_call_a_redouble_the_bidders_and_a_new_bid_undoubled() -> None:
    state = dealt(RS, 0, {})
    say(state, "bid 1 spades", "double")
    assert state.doubled == 2 and state.phase == "auction"
    assert "double" in said(state) and "bid 1 notrump" in said(state)  # seat 2 may redouble or bid on
    say(state, "double")
    assert state.doubled == 4 and "double" not in said(state)  # seat 3: nothing more to raise
    say(state, "pass", "pass", "pass")  # three passes after the redouble end it
    assert state.phase == "play" and state.doubled == 4
    state = dealt(RS, 0, {})
    say(state, "bid 1 spades", "double", "bid 2 clubs")
    assert state.doubled == 1  # the new bid is undoubled


def test_the_declarer_is_the_first_of_his_side_to_name_the_strain_and_his_left_leads() -> None:
    state = dealt(RS, 0, {})
    say(state, "bid 1 hearts", "pass", "bid 4 hearts", "pass", "pass", "pass")
    summary_seat = state.view(0).deciding_seat
    assert summary_seat == 0  # seat 2 bid last; seat 0 named hearts first
    assert state.current_player() == 1  # the declarer's left leads


def test_without_the_key_the_last_bidder_declares(tmp_path: Path) -> None:
    path = tmp_path / "last.yaml"
    path.write_text(TEXT.replace("declarer: first_to_name_strain", "declarer: last_bidder"), encoding="utf-8")
    state = dealt(build_ruleset(str(path)), 0, {})
    say(state, "bid 1 hearts", "pass", "bid 4 hearts", "pass", "pass", "pass")
    assert state.view(0).deciding_seat == 2 and state.current_player() == 3


def opening_led(seed: int = 0) -> GameState:
    """Seat 0 declares 1 notrump, seat 2 the dummy; seat 1 has led."""
    state = dealt(RS, 0, {}, seed)
    say(state, "bid 1 notrump", "pass", "pass", "pass")
    assert state.current_player() == 1
    return state


def test_the_dummy_is_shown_after_the_opening_lead_and_played_by_the_declarer() -> None:
    state = dealt(RS, 0, {})
    say(state, "bid 1 notrump", "pass", "pass", "pass")
    dummy = state.hand_of(2)
    assert not any(seat == 2 for _, seat in state.view(1).face_up)  # not before the opening lead
    state.apply(state.legal_actions()[0])
    for seat in range(4):
        shown = sum(1 << card for card, holder in state.view(seat).face_up if holder == 2)
        assert shown == dummy  # every seat sees the dummy's cards
    assert state.playing_seat == 2 and state.current_player() == 0  # the declarer plays them
    assert all(dummy >> card & 1 for card in state.legal_actions())
    assert {card for card, ok, _ in explain_legal(state, 0) if ok} == set(state.legal_actions())  # the dummy's


def test_the_sampler_keeps_the_dummys_cards_in_every_world() -> None:
    state = opening_led()
    state.apply(state.legal_actions()[0])
    dummy = state.hand_of(2)
    worlds = worlds_of(state, 3, 0)  # a defender's worlds
    assert worlds and all(world.hand_of(2) == dummy for world in worlds)


def test_nobody_learns_an_unseen_card_with_a_dummy() -> None:
    """Two cards of the defenders trading places change none of the worlds the declarer samples
    once the dummy is down, nor any search's choice."""
    cases = []
    for seed in range(6):
        state = opening_led(seed)
        state.apply(state.legal_actions()[0])  # the opening lead; the declarer now plays from the dummy
        a = next(c for c in range(RS.layout.size) if state.hand_of(1) >> c & 1)
        b = next(c for c in range(RS.layout.size) if state.hand_of(3) >> c & 1)
        cases.append((state, a, b, 0, seed))
    twins_look_the_same(cases)


def test_greedy_bids_plays_and_scores_a_board() -> None:
    rng = random.Random(1)
    state = GameState(RS, seed=3)
    while state.hands == () or len(state.hands) < 8:
        if state.is_chance_node():
            state.apply(rng.choice(state.legal_actions()))
        else:
            state.apply(GREEDY.act(state, state.legal_actions(), rng))
    assert any(hand.trump_path == "bid" for hand in state.hands)


def cards(*names: str) -> list[int]:
    """Card ids from names such as ``AS`` or ``10H``."""
    suits, ranks = RS.layout.suits, RS.layout.ranks_of(0)
    return [RS.layout.card(suits.index(name[-1]), ranks.index(name[:-1])) for name in names]


def greedy_says(state: GameState) -> str:
    return state.action_to_string(GREEDY.act(state, state.legal_actions(), random.Random(0)))


def test_greedy_opens_a_strong_hand_and_passes_a_weak_one() -> None:
    # a sound opening (five spades, 14 high-card points), which the old near-certainty bar passed
    strong = cards("AS", "KS", "9S", "5S", "3S", "AH", "4H", "3H", "KD", "7D", "6D", "8C", "2C")
    weak = cards("9S", "6S", "3S", "8H", "5H", "2H", "9D", "5D", "4D", "2D", "7C", "5C", "3C")
    assert greedy_says(dealt(RS, 0, {0: strong})).startswith("bid 1 ")
    assert greedy_says(dealt(RS, 0, {0: weak})) == "pass"


def test_greedy_raises_its_partners_strain_rather_than_naming_a_new_one() -> None:
    # four spades with the partner's opening, and a longer diamond suit: spades, towards game
    hand = cards("KS", "QS", "8S", "4S", "AH", "KH", "3H", "AD", "QD", "JD", "9D", "6D", "3C")
    state = dealt(RS, 0, {2: hand})
    say(state, "bid 1 spades", "pass")
    assert greedy_says(state).endswith(" spades")


def test_greedy_bids_and_makes_about_as_often_as_the_scoring_pays() -> None:
    hands = played_hands(RS, range(3), GREEDY, random.Random(1))  # three games of 16 boards
    played = [hand for hand in hands if hand.trump_path == "bid"]
    made = sum(hand.winner == hand.maker for hand in played)
    assert len(played) > len(hands) / 2  # most deals are bid, not thrown in
    assert 0.45 < made / len(played) < 0.9  # neither a near-certainty nor a gamble


def test_vulnerability_reads_the_boards_number() -> None:
    """The same 4 spades made by North-South: 420 on board 1 (neither vulnerable), 620 on board 2."""
    scores = [RS.tables.score_hand((0, 0), (10, 3), 0, board - 1, 13, 0, 0, (0, 0), (), contract="spades",
                                   bid_value=4, hand_number=board).deltas[0] for board in (1, 2)]
    assert scores == [420, 620]


def test_the_checks_refuse_misplaced_keys(tmp_path: Path) -> None:
    assert "dummy-invalid" in codes_of(tmp_path / "lead.yaml", TEXT.replace("first_lead: after_maker", "first_lead: elder"))
    assert "dummy-invalid" in codes_of(tmp_path / "out.yaml", TEXT.replace("  direction: clockwise",
                                                                          "  direction: clockwise\n  sit_out: dealer"))
    assert "open-auction-key" in codes_of(tmp_path / "once.yaml", (FOLDER / "schafkopf.yaml").read_text(
        encoding="utf-8").replace("procedure: once", "procedure: once\n    outbid: value_or_strain"))
    assert "doubling-invalid" in codes_of(tmp_path / "aside.yaml", TEXT.replace(
        "double_ends_bidding: false", "double_ends_bidding: false\n    double_out_of_turn: true"))
    assert "expr-type" in codes_of(tmp_path / "seat.yaml", TEXT.replace("team_of(0)", "team_of(4)"))


def test_the_kernel_and_the_rollout_decline_it() -> None:
    reason = ruleset_reason(RS) or ""
    assert "`play.first_lead: after_maker`" in reason and "`trump.auction`" in reason and RS.rollout is None


def test_the_rulebook_reads_the_auction_and_the_dummy() -> None:
    text = explain(RS)
    assert "or the same number in a higher suit or contract, ranking from lowest Clubs" in text
    assert "who first bid the last bid's suit or contract declares" in text
    assert "The player after the declarer in turn leads to the first trick" in text
    assert "the dummy, lays his whole hand face up" in text
    assert "the bidding goes on, and a new bid is undoubled" in text
