"""A numeric auction round the table (`trump.auction.procedure: rounds`; tests/rulesets/auction-rounds.yaml),
as Partnership Auction Pinochle and Rook bid: from `first`, each seat still in the bidding bids any value
above the last or passes, and a pass is for good; when every seat but the last bidder has passed he
declares at the last value and picks the contract (a named suit here). All passing is `on_all_pass`:
the deal thrown in, or (`last_seat_declares`) the last seat, not asked, declares at the lowest value.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl import api
from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.simulation import play_game
from example_games import FOLDER
from packs import agents_game, dealt, say
from variants import codes_of

FIXTURE = Path(__file__).parent / "rulesets" / "auction-rounds.yaml"
RS = build_ruleset(str(FIXTURE))
STUCK = build_ruleset(str(FIXTURE), {"all_pass": "last_seat_declares"})
VALUES = [100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200]
DEALER = 0  # seat 1, the elder, speaks first; the dealer last


def deal(rs=RS, seed: int = 0) -> GameState:
    return dealt(rs, DEALER, {}, seed)


def said(state: GameState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def words(state: GameState) -> list[tuple[int, str]]:
    return list(state.view(0).decisions)


def test_the_model_keeps_the_procedure_and_the_tables_tell_the_engine() -> None:
    auction = RS.trump.auction
    assert auction is not None and auction.procedure == "rounds" and auction.values == tuple(VALUES)
    assert RS.tables.auction_rounds and RS.tables.auction_values == tuple(VALUES) and not RS.tables.auction_suits
    assert not auction.last_seat_declares and STUCK.trump.auction.last_seat_declares  # type: ignore[union-attr]
    skat = build_ruleset(str(FOLDER / "skat.yaml"))
    assert not skat.tables.auction_rounds  # pairs is not rounds


def test_every_value_may_open_and_after_a_bid_exactly_the_higher_values_and_pass() -> None:
    state = deal()
    assert state.phase == "auction" and state.current_player() == 1
    assert said(state) == ["pass", *(f"bid {v}" for v in VALUES)]
    say(state, "bid 130")
    assert state.current_player() == 2 and state.auction_value == 130 and state.auction_bidder == 1
    assert said(state) == ["pass", *(f"bid {v}" for v in VALUES if v > 130)]  # any higher value, not only 140
    say(state, "bid 170")
    assert said(state) == ["pass", "bid 180", "bid 190", "bid 200"]
    with pytest.raises(IllegalAction):
        say(state, "bid 170")
    with pytest.raises(ValueError, match="not a value of the auction"):
        state.string_to_action(None, "bid 175")
    say(state, "bid 200")
    assert said(state) == ["pass"]  # nothing above the top value


def test_a_seat_that_passed_is_never_asked_again() -> None:
    state = deal()
    say(state, "bid 100", "pass")  # seat 2 passes: out
    assert state.current_player() == 3
    say(state, "bid 110", "bid 120")  # seat 3, then the dealer
    assert state.current_player() == 1
    say(state, "bid 130")
    assert state.current_player() == 3  # seat 2 is skipped
    say(state, "pass")
    assert state.current_player() == 0  # the dealer; seat 3 is out too
    say(state, "bid 140")
    assert state.current_player() == 1 and state.phase == "auction"
    asked = []
    while state.phase == "auction":
        asked.append(state.current_player())
        say(state, "pass")
    assert asked == [1]  # only seat 1 was left to answer the dealer's 140


def test_the_auction_ends_when_all_but_one_passed_and_he_declares_at_the_last_value_then_names_trump() -> None:
    state = deal()
    say(state, "bid 100", "bid 120", "pass", "bid 130", "pass", "bid 150")
    assert state.phase == "auction" and state.current_player() == 0
    say(state, "pass")
    view = state.view(1)
    assert view.phase == "choose" and state.current_player() == 2 and view.deciding_seat == 2
    assert state.auction_value == 150 and view.maker == RS.tables.team_of[2] and view.trump is None
    assert said(state) == ["name S", "name H", "name D", "name C"]
    assert words(state) == [(1, "100"), (2, "120"), (3, "pass"), (0, "130"), (1, "pass"), (2, "150"), (0, "pass")]
    say(state, "name H")
    assert state.trump == RS.layout.suits.index("H") and state.phase == "play" and state.current_player() == 2
    assert words(state)[-1] == (2, "name")


def test_the_last_seat_may_bid_alone_after_three_passes_and_all_passing_throws_the_deal_in() -> None:
    state = deal()
    say(state, "pass", "pass", "pass")
    assert state.current_player() == 0 and said(state) == ["pass", *(f"bid {v}" for v in VALUES)]
    say(state, "bid 120")  # the only one left: he declares at once
    assert state.phase == "choose" and state.current_player() == 0 and state.auction_value == 120
    thrown = deal()
    say(thrown, "pass", "pass", "pass", "pass")
    assert thrown.current_player() == CHANCE and thrown.hands[-1].outcome == "passed_out"
    assert thrown.hands[-1].maker is None and thrown.scores == (0, 0) and thrown.view(0).dealer == 1


def test_last_seat_declares_sticks_the_dealer_at_the_lowest_value_without_asking() -> None:
    state = deal(STUCK)
    say(state, "pass", "pass", "pass")
    view = state.view(1)
    assert view.phase == "choose" and state.current_player() == 0 and view.deciding_seat == 0
    assert state.auction_value == 100 and view.maker == STUCK.tables.team_of[0]
    assert words(state) == [(1, "pass"), (2, "pass"), (3, "pass"), (0, "stuck")]  # the dealer said nothing
    assert said(state) == ["name S", "name H", "name D", "name C"]
    bid = deal(STUCK)  # a bid before: the dealer is asked as usual
    say(bid, "pass", "bid 100", "pass")
    assert bid.current_player() == 0 and said(bid)[0] == "pass"


def test_last_seat_declares_is_refused_beside_another_procedure(tmp_path: Path) -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    assert "last-seat-declares-invalid" not in codes_of(tmp_path / "rounds.yaml",
                                                        text.replace("on_all_pass: redeal",
                                                                     "on_all_pass: last_seat_declares"))
    for procedure in ("pairs", "open"):
        variant = text.replace("procedure: rounds", f"procedure: {procedure}") \
            .replace("on_all_pass: redeal", "on_all_pass: last_seat_declares")
        assert "last-seat-declares-invalid" in codes_of(tmp_path / f"{procedure}.yaml", variant)


def child(tmp_path: Path, body: str):
    path = tmp_path / "child.yaml"
    path.write_text(f"id: child\nname: Child\nextends: {FIXTURE}\n{body}", encoding="utf-8")
    return api.load(path)


def test_the_declarer_takes_or_leaves_the_kitty_then_names_trump_and_may_be_doubled(tmp_path: Path) -> None:
    rs = child(tmp_path, "deal:\n  - {packet: 5, to: all}\n  - {kitty: 4}\n  - {decide: trump}\n"
                         "trump:\n  auction: {kitty: declarer_decides, doubling: [2, 4]}\n")
    state = dealt(rs, DEALER, {})
    say(state, "bid 110", "pass", "pass", "pass")
    assert state.phase == "kitty" and state.current_player() == 1
    say(state, "accept")
    assert state.phase == "discard" and state.current_player() == 1 and len(state.legal_actions()) == 9
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    assert state.phase == "choose" and state.current_player() == 1
    say(state, "name D")
    assert state.phase == "auction" and state.current_player() == 2 and said(state) == ["pass", "double"]
    say(state, "double")  # the declarer's side is asked in turn from the seat after the doubler: 3, then 1
    assert state.doubled == 2 and state.current_player() == 3 and said(state) == ["pass", "double"]
    say(state, "pass")
    assert state.current_player() == 1 and said(state) == ["pass", "double"]
    say(state, "pass")
    assert state.phase == "play" and state.doubled == 2
    assert [w for _, w in words(state)] == ["110", "pass", "pass", "pass", "take", "name", "double x2", "pass",
                                            "pass"]


def test_greedy_never_bids_over_its_partner() -> None:
    greedy = make_agent("greedy")
    for seed in range(40):
        state = deal(seed=seed)
        while state.phase == "auction":
            seat, bidder = state.current_player(), state.auction_bidder
            action = greedy.act(state, state.legal_actions(), random.Random(seed))
            if bidder is not None and RS.tables.team_of[bidder] == RS.tables.team_of[seat]:
                assert action == state.actions.pass_
            state.apply(action)


@pytest.mark.parametrize("rs", [RS, STUCK], ids=["redeal", "last_seat_declares"])
@pytest.mark.parametrize("agent", ["random", "greedy"])
def test_whole_games_play_to_the_end_and_replay_from_their_records(rs, agent: str) -> None:
    for seed in range(3):
        state = GameState(rs, seed=seed)
        play_game(state, [make_agent(agent)] * 4, random.Random(seed))
        assert state.is_terminal() and state.hands
        assert all(h.outcome != "passed_out" for h in state.hands) or rs is RS
        record = GameRecord.from_state(state, ruleset=str(FIXTURE), seed=seed, agents=[agent] * 4, game=seed)
        assert replay(record, rs) is None


@pytest.mark.parametrize("spec", ["pimc:samples=3", "ismcts:iterations=20:worlds=3"])
def test_the_searches_bid_and_play_a_hand(spec: str) -> None:
    searcher = make_agent(spec)
    rng = random.Random(1)
    state = GameState(STUCK, seed=1)
    players = [searcher, make_agent("greedy"), searcher, make_agent("greedy")]
    while not state.hands:
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        state.apply(players[state.current_player()].act(state, state.legal_actions(), rng))
    assert state.hands[-1].maker is not None  # stuck or bid: never thrown in


def test_greedy_games_decide_hands_by_bids() -> None:
    state = agents_game(RS, [make_agent("greedy")] * 4, random.Random(5))
    played = [h for h in state.hands if h.outcome != "passed_out"]
    assert played and all(h.deciding_seat is not None for h in played)


def test_the_rulebook_says_how_the_bidding_goes_and_who_is_stuck() -> None:
    text = explain(RS).lower()
    assert "each player still in the bidding either bids any number higher than the last bid or passes" in text
    assert "a player who passes is out of the bidding for the rest of the hand" in text
    assert "if everyone passes without a bid, the deal is thrown in" in text
    stuck = explain(STUCK).lower()
    assert "the last to speak (the dealer) is not asked" in stuck and "lowest number, 100" in stuck
    assert "the deal is thrown in" not in stuck.split("## trump")[1].split("##")[0]


def test_the_kernel_and_the_rollout_decline_it() -> None:
    assert "`trump.auction`" in (ruleset_reason(RS) or "")
    assert RS.rollout is None


def test_the_rl_encodings_take_it() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    import couillon_dsl.interop.openspiel  # noqa: F401  (registers the game)
    from couillon_dsl.interop.pettingzoo import env

    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": str(FIXTURE), "hands": 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    api_test(env(str(FIXTURE), all_pass="last_seat_declares"), num_cycles=200, verbose_progress=False)


def test_the_dealer_may_hold_the_last_bid_and_the_bidder_he_took_it_from_may_raise(tmp_path: Path) -> None:
    """`dealer_holds` (Forty-fives' dealer's hold): the dealer alone may bid the standing value again."""
    fives = build_ruleset(str(FOLDER / "forty-fives.yaml"))
    state = dealt(fives, 0, {})
    say(state, "bid 15")
    assert said(state)[:2] == ["pass", "bid 20"]  # seat 2 is not the dealer: above the bid only
    say(state, "pass", "pass")
    assert state.current_player() == 0 and said(state)[:2] == ["pass", "bid 15"]  # the dealer may hold
    say(state, "bid 15")
    assert state.auction_bidder == 0 and state.current_player() == 1 and said(state)[:2] == ["pass", "bid 20"]
    say(state, "bid 20")
    assert state.current_player() == 0 and said(state)[:2] == ["pass", "bid 20"]  # and hold again
    say(state, "bid 20", "pass")
    assert state.phase == "choose" and state.current_player() == 0 and state.auction_value == 20
    assert "the dealer may instead bid the last bid's number again" in explain(fives)
    plain = build_ruleset(str(FOLDER / "forty-fives.yaml"), {"hold": False})
    state = dealt(plain, 0, {})
    say(state, "bid 15", "pass", "pass")
    assert said(state)[:2] == ["pass", "bid 20"]
    assert "holding it" not in explain(plain)
    text = FIXTURE.read_text(encoding="utf-8").replace("    procedure: rounds", "    procedure: rounds\n    dealer_holds: true")
    assert "unused-setting" not in codes_of(tmp_path / "rounds.yaml", text)
    pairs = text.replace("    procedure: rounds", "    procedure: pairs")
    assert "unused-setting" in codes_of(tmp_path / "pairs.yaml", pairs)
