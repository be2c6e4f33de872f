"""An open auction (`trump.auction.procedure: open`) and doubling (`trump.auction.doubling`), as
Belote contrée plays them: bids of a value with a trump suit, round and round until the three
others pass after the last bid; a double by an opponent in turn closes the bidding, the bidder's
side may then redouble; the level is public and read by the scoring as `doubled`.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import points_needed, strain_context
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.kernel.eligible import ruleset_reason
from example_games import FOLDER
from honesty import twins_look_the_same
from packs import dealt, pack_dealing, say
from variants import codes_of

RS = build_ruleset(str(FOLDER / "contree.yaml"))
LAYOUT = RS.layout
GREEDY = make_agent("greedy")
DEALER = 0  # seat 1 speaks first


def cards(*names: str) -> list[int]:
    return [LAYOUT.parse(name) for name in names]


def deal(hands: dict[int, list[int]], seed: int = 0, rs=RS) -> GameState:
    """A game dealt by seat 0: ``hands`` (seat -> some of its cards), the rest at random."""
    return dealt(rs, DEALER, hands, seed)


def said(state: GameState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_the_bidding_goes_round_until_three_pass_after_the_last_bid() -> None:
    state = deal({})
    assert state.current_player() == 1 and said(state)[:3] == ["pass", "bid 80 S", "bid 80 H"]
    assert "double" not in said(state)  # nothing to double yet
    say(state, "bid 80 H", "pass", "bid 90 S", "pass")
    assert state.phase == "auction" and state.current_player() == 1  # round again: seat 1 speaks
    assert said(state)[1] == "bid 100 S" and "double" not in said(state)  # above 90 only; seat 3 is his partner
    say(state, "bid 100 D", "pass", "pass")
    assert state.phase == "auction"
    say(state, "pass")  # the third pass after the last bid
    assert state.trump == LAYOUT.suits.index("D") and state.sides[1] == state.view(0).maker
    assert state.auction_value == 100 and state.doubled == 1


def test_all_passing_throws_the_deal_in() -> None:
    state = deal({})
    say(state, "pass", "pass", "pass", "pass")
    assert state.hands[-1].outcome == "passed_out" and state.scores == (0, 0) and state.view(0).dealer == 1


def test_a_bid_at_or_below_the_last_is_refused() -> None:
    state = deal({})
    say(state, "bid 90 H")
    with pytest.raises(IllegalAction):
        say(state, "bid 90 S")
    with pytest.raises(ValueError, match="not a value of the auction"):
        state.string_to_action(None, "bid 85 S")


def test_a_double_closes_the_bidding_and_only_the_bidders_side_may_redouble() -> None:
    state = deal({})
    say(state, "bid 80 H")
    assert "double" in said(state)  # seat 2, an opponent
    state = deal({})
    say(state, "bid 80 H", "double")
    assert state.doubled == 2 and said(state) == ["pass", "double"] and state.current_player() == 3
    say(state, "pass")
    assert state.current_player() == 1 and said(state) == ["pass", "double"]
    say(state, "double")  # the last level: the auction is over
    assert state.phase == "play" and state.doubled == 4
    assert all(state.view(seat).doubled == 4 for seat in range(4))  # public
    assert [w for _, w in state.view(0).decisions] == ["80 H", "double x2", "pass", "double x4"]


def test_a_double_nobody_raises_ends_after_the_bidders_side_passes() -> None:
    state = deal({})
    say(state, "pass", "bid 90 S", "pass", "pass", "double", "pass", "pass")
    assert state.phase == "play" and state.doubled == 2 and state.view(2).maker == state.sides[2]


def test_the_partners_own_bid_cannot_be_doubled() -> None:
    state = deal({})
    say(state, "bid 80 H", "pass")
    assert state.current_player() == 3 and "double" not in said(state)


def play_out(state: GameState, seed: int) -> list[int]:
    """Greedy plays the hand out; the actions taken."""
    rng = random.Random(seed)
    taken = []
    while state.hands == []:
        action = GREEDY.act(state, state.legal_actions(), rng)
        taken.append(action)
        state.apply(action)
    return taken


@pytest.mark.parametrize("doubling, level", [("", 1), ("double", 2)])
def test_scoring_reads_the_level(doubling: str, level: int) -> None:
    """A made 80 undoubled scores the takers' card points, 80 and their belote (melds, if any, on top);
    coinched, (160 + 80) x 2 and the belote to the takers, nothing to the defence."""
    state = deal({1: cards("JH", "9H", "AH", "KH", "QH", "AS", "AC", "AD")})
    say(state, "bid 80 H", *([doubling, "pass", "pass"] if doubling else ["pass", "pass", "pass"]))
    assert state.doubled == level
    play_out(state, 1)
    hand = state.hands[0]
    takers = state.sides[1]
    assert hand.winner == takers
    if level == 1:
        assert hand.deltas[takers] >= hand.points[takers] + 80 + 20 and hand.deltas[1 - takers] >= hand.points[1 - takers]
    else:
        assert hand.deltas[takers] >= (160 + 80) * 2 + 20 and hand.deltas[1 - takers] == 0


def test_the_bid_only_option_scores_no_card_points() -> None:
    """The same hand under card_points=bid_only scores each side its card points less, 250 for a capot
    (the takers' 80 and every meld as before)."""
    hands = {1: cards("JH", "9H", "AH", "10H", "KD", "AS", "AC", "AD")}
    state = deal(hands)
    say(state, "bid 80 H", "pass", "pass", "pass")
    actions = play_out(state, 2)
    hand = state.hands[0]
    takers = state.sides[1]
    assert hand.winner == takers
    rs = build_ruleset(str(FOLDER / "contree.yaml"), {"card_points": "bid_only"})
    other = deal(hands, rs=rs)
    say(other, "bid 80 H", "pass", "pass", "pass")
    for action in actions:
        other.apply(action)
    cards_scored = [250 if hand.all_tricks and team == takers else hand.points[team] for team in (0, 1)]
    assert [a - b for a, b in zip(hand.deltas, other.hands[0].deltas)] == cards_scored


def test_greedy_bids_its_best_suit_as_high_as_its_points_reach_and_passes_a_weak_hand() -> None:
    strong = deal({1: cards("JH", "9H", "AH", "10H", "KH", "AS", "AC", "AD")})
    bid = strong.action_to_string(GREEDY.act(strong, strong.legal_actions(), random.Random(0)))
    assert bid.startswith("bid ") and bid.endswith(" H") and int(bid.split()[1]) >= 120
    weak = deal({1: cards("7H", "8H", "7S", "8S", "9D", "8D", "7C", "8C")})
    assert weak.action_to_string(GREEDY.act(weak, weak.legal_actions(), random.Random(0))) == "pass"


def test_greedy_doubles_a_bid_its_own_trumps_break_and_never_redoubles_a_weak_hand() -> None:
    state = deal({2: cards("JH", "9H", "AH", "10H", "AS", "AC", "AD", "10S"), 1: cards("7H", "8H", "KS")})
    say(state, "bid 120 H")
    assert state.action_to_string(GREEDY.act(state, state.legal_actions(), random.Random(0))) == "double"
    state = deal({1: cards("7H", "8H", "7S", "8S", "9D", "8D", "7C", "8C")})
    say(state, "bid 80 H", "double")
    assert state.current_player() == 3
    weak = deal({3: cards("7S", "8S", "9D", "8D", "7C", "8C", "9C", "7D")})
    say(weak, "bid 80 H", "double")
    assert weak.action_to_string(GREEDY.act(weak, weak.legal_actions(), random.Random(0))) == "pass"


def test_what_greedy_takes_a_bid_to_need_is_the_bid_read_from_the_outcome() -> None:
    """Contrée's values are the card points the takers must take: what each bid needs, read from the
    compiled outcome, is the bid itself in every strain, but for 80, which 81 does not make (the
    defenders' 81 is as much: the takers must take more than they do), and the capot, every point."""
    t = RS.tables
    for strain, (contract, suit) in enumerate(t.auction_strains):
        needs = [points_needed(RS, strain_context(t, strain), 8, contract, suit, value) for value in t.auction_values]
        assert needs == [82, 90, 100, 110, 120, 130, 140, 150, 160, 162]


def test_nobody_learns_an_unseen_card_from_the_auction() -> None:
    """Two cards of seats 2 and 3 trading places change none of the worlds seat 1 samples after a
    greedy auction, nor any search's choice (bids and doubles are public, cards are not)."""
    twins_look_the_same(case for seed in range(10) if (case := auctioned(seed)) is not None)


def auctioned(seed: int, rs=RS) -> tuple[GameState, int, int, int, int] | None:
    """A greedy auction and play up to seat 1's turn, with a card of seat 2 and one of seat 3; None
    when the deal was thrown in."""
    state = deal({}, seed=seed, rs=rs)
    rng = random.Random(seed)
    while state.phase == "auction" or state.phase == "play" and state.current_player() != 1:
        state.apply(GREEDY.act(state, state.legal_actions(), rng))
    if state.phase != "play":
        return None
    a = next(c for c in range(LAYOUT.size) if state.hand_of(2) >> c & 1)
    b = next(c for c in range(LAYOUT.size) if state.hand_of(3) >> c & 1)
    return state, a, b, 1, seed


OUT_OF_TURN = build_ruleset(str(FOLDER / "contree.yaml"), {"out_of_turn": True})


def test_out_of_turn_the_opponents_not_next_to_speak_are_asked_after_each_call() -> None:
    """Seat 1 bids: seat 0 (an opponent, not next) is asked before seat 2 speaks; after seat 2's pass, seat 0
    again (seat 3, next, is the bidder's partner); after seat 3's pass, seat 2 (seat 0 speaks next, in turn).
    A pass out of turn is no call: the bidding ends at seat 0's own pass in turn."""
    state = deal({}, rs=OUT_OF_TURN)
    say(state, "bid 80 H")
    assert state.current_player() == 0 and said(state) == ["pass", "double"] and state.asked_out_of_turn
    say(state, "pass")
    assert state.current_player() == 2 and said(state)[1] == "bid 90 S"  # the bidding goes on where it was
    assert not state.asked_out_of_turn and state.view(1).decisions[-1] == (0, "no double")
    say(state, "pass")
    assert state.current_player() == 0 and said(state) == ["pass", "double"]
    say(state, "pass", "pass")  # seat 0 out of turn, seat 3 in turn
    assert state.current_player() == 2 and said(state) == ["pass", "double"]
    say(state, "pass")
    assert state.current_player() == 0 and said(state)[1] == "bid 90 S"
    say(state, "pass")
    assert state.phase == "play" and state.doubled == 1 and state.sides[1] == state.view(0).maker


def test_out_of_turn_a_double_closes_the_bidding_as_in_turn_and_a_new_bid_asks_again() -> None:
    state = deal({}, rs=OUT_OF_TURN)
    say(state, "bid 80 H", "pass", "bid 90 S")  # seat 0 declines out of turn; seat 2 overbids
    assert state.current_player() == 1 and said(state) == ["pass", "double"]  # seat 2's opponents: 1 not next
    say(state, "double")
    assert state.current_player() == 2 and said(state) == ["pass", "double"]  # seat 2's side may redouble
    say(state, "pass", "pass")
    assert state.phase == "play" and state.doubled == 2 and state.sides[2] == state.view(0).maker


def test_out_of_turn_greedy_doubles_on_the_same_measure_and_nothing_leaks() -> None:
    state = deal({0: cards("JH", "9H", "AH", "10H", "AS", "AC", "AD", "10S"), 2: cards("7H", "8H", "KS")},
                 rs=OUT_OF_TURN)
    say(state, "bid 120 H")
    assert state.current_player() == 0
    assert state.action_to_string(GREEDY.act(state, state.legal_actions(), random.Random(0))) == "double"
    twins_look_the_same(case for seed in range(10) if (case := auctioned(seed, OUT_OF_TURN)) is not None)


def test_the_rulebook_and_diff_read_doubling_out_of_turn() -> None:
    from couillon_dsl.diff import differences
    from couillon_dsl.explain import explain
    assert "an opponent may also double out of turn" in explain(OUT_OF_TURN)
    assert "an opponent may also double out of turn" not in explain(RS)
    assert any("out of turn" in line for line in differences(RS, OUT_OF_TURN))


def test_out_of_turn_needs_an_open_auction_with_doubling(tmp_path: Path) -> None:
    text = (FOLDER / "contree.yaml").read_text(encoding="utf-8")
    bare = text.replace("    doubling: [2, 4]                                             # coinche, surcoinche\n", "")
    assert "doubling-invalid" in codes_of(tmp_path / "bare.yaml", bare.replace("double_out_of_turn: false",
                                                                               "double_out_of_turn: true"))


def test_the_kernel_and_the_rollout_decline_the_open_auction() -> None:
    assert "`trump.auction`" in (ruleset_reason(RS) or "")
    assert RS.rollout is None
    assert "`trump.auction`" in (ruleset_reason(OUT_OF_TURN) or "") and OUT_OF_TURN.rollout is None


def test_an_open_auction_refuses_doubling_levels_that_do_not_rise(tmp_path: Path) -> None:
    text = (FOLDER / "contree.yaml").read_text(encoding="utf-8")
    falling = text.replace("doubling: [2, 4]", "doubling: [4, 2]")
    assert "doubling-invalid" in codes_of(tmp_path / "falling.yaml", falling)


def test_the_rulebook_reads_the_auction_and_the_doubling() -> None:
    from couillon_dsl.explain import explain
    text = explain(RS)
    assert "going round the table as often as needed" in text
    assert "a double closes the bidding" in text and "2 times and 4 times the stake" in text
    assert "the level the bid was doubled to (1 when nobody doubled)" in text


SKAT = build_ruleset(str(FOLDER / "skat.yaml"), {"kontra": "before_lead"})


def skat_declared(seed: int = 0) -> GameState:
    """A Skat game with Kontra and Re: middlehand (seat 2) declares a hand game in hearts at 18."""
    state = GameState(SKAT)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(SKAT, DEALER, {}, seed=seed))
    say(state, "bid 18", "pass", "pass", "pass", "name H", "no", "no", "no")
    return state


def test_kontra_asks_the_defenders_in_turn_before_the_first_lead_and_re_the_declarer() -> None:
    state = skat_declared()
    assert state.phase == "auction" and state.current_player() == 1 and said(state) == ["pass", "double"]
    say(state, "pass")
    assert state.current_player() == 0 and said(state) == ["pass", "double"]
    say(state, "double")  # Kontra
    assert state.current_player() == 2 and state.doubled == 2 and said(state) == ["pass", "double"]
    say(state, "double")  # Re: the last level
    assert state.phase == "play" and state.doubled == 4 and state.current_player() == 1
    assert [w for _, w in state.view(1).decisions][-3:] == ["pass", "double x2", "double x4"]


def test_without_kontra_the_game_is_led_to_at_once_and_scored_once() -> None:
    state = skat_declared()
    say(state, "pass", "pass")
    assert state.phase == "play" and state.doubled == 1
    plain = GameState(build_ruleset(str(FOLDER / "skat.yaml")))
    plain.apply(plain.actions.dealer0 + DEALER)
    plain.deal_pack(pack_dealing(plain.ruleset, DEALER, {}, seed=0))
    say(plain, "bid 18", "pass", "pass", "pass", "name H", "no", "no", "no")
    assert plain.phase == "play" and plain.actions.ends(plain.actions.bid0) - plain.actions.bid0 == 63  # no DOUBLE


def test_kontra_multiplies_the_game_value_won_or_lost() -> None:
    state = skat_declared(seed=3)
    say(state, "double", "pass")
    actions = play_out(state, 3)
    once = skat_declared(seed=3)
    say(once, "pass", "pass")
    for action in actions:
        once.apply(action)
    assert state.hands[0].deltas == tuple(2 * d for d in once.hands[0].deltas) != (0, 0, 0)


def test_greedy_never_doubles_a_skat_game_on_the_bid_alone() -> None:
    """Greedy doubles when its own points leave the declarer short of his bid; a Skat bid of 18 is never
    that (the 61 points he needs are the scoring's, not the bid's): it passes."""
    state = skat_declared()
    assert GREEDY.act(state, state.legal_actions(), random.Random(0)) == state.actions.pass_


def test_a_seat_that_passed_is_never_asked_again_where_a_pass_is_final() -> None:
    """Five Hundred (`pass_is_final`): in random auctions a seat that passed never speaks again, and the
    bidding ends as soon as nobody but the last bidder is left in it."""
    rs = build_ruleset(str(FOLDER / "five-hundred.yaml"))
    auctions = 0
    for seed in range(60):
        rng = random.Random(seed)
        state = GameState(rs, seed=seed)
        state.deal_shuffled(rng)
        out: set[int] = set()
        bidder = None
        while state.phase == "auction":
            seat = state.current_player()
            assert seat not in out
            action = rng.choice(state.legal_actions())
            if state.action_to_string(action) == "pass":
                out.add(seat)
            else:
                bidder = seat
            state.apply(action)
        auctions += 1
        assert len(out) == 4 if bidder is None else out == set(range(4)) - {bidder}
    assert auctions == 60


def test_pass_is_final_belongs_to_an_open_auction_without_doubling(tmp_path: Path) -> None:
    text = f"extends: {FOLDER / 'contree.yaml'}\nid: final\nname: Final\ntrump: {{auction: {{pass_is_final: true}}}}\n"
    assert "open-auction-key" in codes_of(tmp_path / "final.yaml", text)  # contrée doubles


def test_bid_values_name_values_of_an_open_auction(tmp_path: Path) -> None:
    text = (f"extends: {FOLDER / 'five-hundred.yaml'}\nid: values\nname: Values\n"
            "contracts: {misere: {bid_values: [11]}}\n")
    assert "open-auction-key" in codes_of(tmp_path / "values.yaml", text)
