"""Contracts picked before play as Doppelkopf picks them (examples/doppelkopf.yaml): contracts equal
in rank on an auction ladder (a list in `trump.auction.ladder`: the earliest seat keeps his), the hand
everyone passed into played by the holders of a card (`on_all_pass: {side_card}`, sides hidden until
revealed), a contract bid only by the holder of some cards (`bidder_holds`) and a partner found by a
trick (`partner_by_trick`: public, so every seat sees the same sides).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState
from couillon_dsl.explain import explain
from couillon_dsl.loader import load_ruleset
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.simulation import play_game
from couillon_dsl.validate import check
from example_games import FOLDER
from honesty import worlds_of
from packs import pack_dealing

DOKO = str(FOLDER / "doppelkopf.yaml")
RS = build_ruleset(DOKO)
ACTS = GameState(RS).actions
QC = RS.layout.copies_mask(RS.layout.parse("QC"))
CONTRACT = {c.id: i for i, c in enumerate(RS.contracts)}


def bid_of(name: str) -> int:
    return ACTS.contract0 + RS.tables.fixed_contracts.index(CONTRACT[name])


def dealt(seed: int, holder: int | None = None) -> GameState:
    """A shuffled deal by seat 3 (``holder``: a deal where that seat holds both queens of clubs)."""
    for s in range(seed, seed + 5000):
        state = GameState(RS, seed=s)
        state.apply(ACTS.dealer0 + 3)
        state.deal_shuffled(random.Random(s))
        if holder is None or state.hand_of(holder) & QC == QC:
            return state
    raise AssertionError("no such deal")


def test_no_solo_is_bid_over_an_earlier_one_but_any_solo_over_a_wedding() -> None:
    state = dealt(0, holder=0)
    legal = state.legal_actions()
    assert bid_of("wedding") in legal and bid_of("queen_solo") in legal  # he holds both queens of clubs
    state.apply(bid_of("wedding"))
    assert bid_of("wedding") not in state.legal_actions() and bid_of("fleischlos") in state.legal_actions()
    state.apply(bid_of("solo_h"))
    assert state.legal_actions() == [ACTS.pass_]  # equal in rank: nothing over the heart solo
    state.apply(ACTS.pass_)
    state.apply(ACTS.pass_)
    assert state.sides == (1, 0, 1, 1) and state.view(2).sides == (1, 0, 1, 1)  # the soloist alone, in sight


def test_only_the_holder_of_both_queens_of_clubs_may_announce_a_wedding() -> None:
    state = dealt(1, holder=2)
    for seat in range(2):
        assert state.current_player() == seat and bid_of("wedding") not in state.legal_actions()
        state.apply(ACTS.pass_)
    assert bid_of("wedding") in state.legal_actions()


def test_everyone_healthy_plays_the_normal_game_with_the_sides_hidden() -> None:
    state = dealt(2)
    for _ in range(4):
        state.apply(ACTS.pass_)
    assert state.all_passed and state.view(0).contract == "normal"
    holders = {s for s in range(4) if state.hand_of(s) & QC}
    assert state.sides == tuple(0 if s in holders else 1 for s in range(4))
    for seat in range(4):
        assert state.view(seat).sides[seat] == state.sides[seat]
        assert sum(side < 0 for side in state.view(seat).sides) >= 2 or len(holders) == 1 and seat in holders
        assert state.view(seat).points == () or -1 not in state.view(seat).sides


def wedding_hand(seed: int) -> GameState:
    """A wedding announced by seat 0, greedy playing the cards, stopped when seat 1 is to play in trick 4."""
    state = dealt(seed, holder=0)
    state.apply(bid_of("wedding"))
    for _ in range(3):
        state.apply(ACTS.pass_)
    greedy, rng = make_agent("greedy"), random.Random(seed)
    while len(state.finished_tricks()) < 3 or state.current_player() != 1:
        state.apply(greedy.act(state, state.legal_actions(), rng))
    return state


def test_the_partner_is_the_first_other_winner_of_the_first_three_tricks_in_everyones_sight() -> None:
    for seed in range(6):
        state = wedding_hand(seed)
        winners = [w for _, _, w in state.finished_tricks()[:3]]
        partner = next((w for w in winners if w != 0), None)
        expected = tuple(0 if s in (0, partner) else 1 for s in range(4))
        assert state.sides == expected
        assert all(state.view(seat).sides == expected for seat in range(4))  # public: nothing hidden


def test_the_worlds_a_seat_samples_agree_with_the_wedding_and_its_partner() -> None:
    state = wedding_hand(3)
    for world in worlds_of(state, 1, 3):
        assert world.sides == state.sides  # the same tricks, the same partner
        held = world.hand_of(0) | sum(1 << c for s, c in world.view(0).played if s == 0)
        assert held & QC == QC  # the bid told everyone he holds both queens of clubs


@pytest.mark.parametrize("agents", [["greedy"] * 4, ["pimc:samples=2", "greedy", "ismcts:iterations=8", "random"]])
def test_whole_games_with_every_contract_replay_exactly(agents: list[str]) -> None:
    rs = build_ruleset(DOKO, {"deals": 4})
    for seed in range(2):
        state = GameState(rs, seed=seed)
        play_game(state, [make_agent(a) for a in agents], random.Random(seed))
        assert replay(GameRecord.from_state(state, ruleset=DOKO, seed=seed), rs) is None


def test_a_random_play_out_moves_the_partners_tricks_to_the_declarers_side(tmp_path: Path) -> None:
    """Without announcements the random play-out plays whole tricks at once (``_play_out``), crediting them
    by the sides as they stood: the partner's tricks then move to the declarer's side."""
    path = tmp_path / "quiet.yaml"
    path.write_text(f"extends: {DOKO}\nid: quiet\nname: Quiet\nannouncements: null\nreadings: []\n"
                    "define: {re_won: 're_reached', kontra_won: 'not re_reached', re_bar: '121', kontra_bar: '120', "
                    "re_reached: 'points(maker) >= 121', kontra_reached: 'true', re_further: 'false', "
                    "kontra_further: 'false', announced_points: '0'}\n", encoding="utf-8")
    quiet = build_ruleset(str(path), {"deals": 1})
    acts = GameState(quiet).actions
    found = 0
    for seed in range(600):
        state = GameState(quiet, seed=seed)
        state.apply(acts.dealer0 + 3)
        state.deal_shuffled(random.Random(seed))
        if state.hand_of(0) & QC != QC:
            continue
        state.apply(acts.contract0 + quiet.tables.fixed_contracts.index(CONTRACT["wedding"]))
        for _ in range(3):
            state.apply(acts.pass_)
        sides_before = state.sides
        state.play_random(random.Random(seed))
        hand = state.hands[-1]
        log = hand.played_tricks
        partner = next((w for _, _, w in log[:3] if w != 0), None)
        assert sides_before == (0, 1, 1, 1)
        assert hand.sides == tuple(0 if s in (0, partner) else 1 for s in range(4))
        points = [0, 0]
        for _, cards, winner in log:
            points[hand.sides[winner]] += sum(state.context.points[c] for c in cards)
        assert tuple(points) == hand.points
        found += partner is not None
        if found == 3:
            break
    assert found == 3


def test_the_rulebook_says_the_rungs_the_side_card_and_the_wedding() -> None:
    text = explain(RS)
    assert "queen solo, jack solo or fleischlos (equal in rank)" in text
    assert "the first player to bid one keeps it" in text
    assert "the players dealt a copy of the Q♣ play together (the maker" in text
    assert "only a player dealt every copy of the Q♣ may bid it" in text
    assert "the first other player to win one of the first 3 tricks becomes the declarer's partner" in text


def errors(tmp_path: Path, body: str) -> list:
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {DOKO}\nid: r\nname: R\n{body}", encoding="utf-8")
    return [(d.code, d.pointer) for d in check(load_ruleset(path)) if d.is_error]


@pytest.mark.parametrize("body, expected", [
    ("trump: {auction: {ladder: [wedding, [solo_d, wedding]]}}\n",
     [("auction-ladder-invalid", "/trump/auction/ladder/1/1")]),
    ("trump: {auction: {ladder: [wedding, [solo_d, solo_x]]}}\n",
     [("auction-ladder-invalid", "/trump/auction/ladder/1/1")]),
    ("trump: {auction: {on_all_pass: {contract: normal, side_card: QX}}}\n",
     [("unknown-suit", "/trump/auction/on_all_pass/side_card")]),
    ("play: {follow: {when_partner_winning: free}}\n",  # beside the normal game's hidden sides, as with card_holders
     [("hidden-sides-unsupported", "/play/follow/when_partner_winning")] * 2),
    ("contracts: {wedding: {bidder_holds: [QX]}}\n", [("unknown-suit", "/contracts/wedding/bidder_holds/0")]),
    ("contracts: {normal: {partner_by_trick: {within: 3}}}\n",
     [("partner-by-trick-invalid", "/contracts/normal/partner_by_trick")]),
    ("contracts: {normal: {bidder_holds: [QC]}}\n", [("bidder-holds-invalid", "/contracts/normal/bidder_holds")]),
])
def test_the_checks_of_the_new_keys(tmp_path: Path, body: str, expected: list) -> None:
    assert errors(tmp_path, body) == expected


def test_the_searches_see_a_wedding_through(tmp_path: Path) -> None:
    state = wedding_hand(1)
    for name in ("pimc:samples=3", "ismcts:iterations=20"):
        action = make_agent(name).act(state, state.legal_actions(), random.Random(0))
        assert action in state.legal_actions()
    assert state.current_player() != CHANCE and list(iter_bits(state.hand_of(1)))


def at_the_reservations(names: str) -> GameState:
    """Seat 0 (the elder, dealt by seat 3) to say his reservation, holding the cards ``names``
    (a name written twice is both copies), the others' cards at random."""
    taken, ids = 0, []
    for name in names.split():
        free = RS.layout.copies_mask(RS.layout.parse(name)) & ~taken
        taken |= free & -free
        ids.append((free & -free).bit_length() - 1)
    state = GameState(RS)
    state.apply(ACTS.dealer0 + 3)
    state.deal_pack(pack_dealing(RS, 3, {0: ids}))
    return state


@pytest.mark.parametrize(("hand", "says"), [
    ("10H 10H QC QS QH QH JC JC JS AD 10D KD", "solo"),  # eleven trumps: the rung of the wedding costs no trick
    ("10H 10H QC QC QS QS QH QH JC JC AD AD", "solo"),  # both queens of clubs, strong enough alone
    ("QC QC 9S 9S KH KH AS 10S 9C KC JD 9D", "wedding"),  # both queens of clubs, a middling hand
    ("QC 9S 9S 9H 9H KS KS KH KH 9C KC KC", "pass"),
])
def test_greedy_bids_a_solo_on_a_strong_hand_and_a_wedding_on_both_queens_of_clubs(hand: str, says: str) -> None:
    state = at_the_reservations(hand)
    choice = state.action_to_string(make_agent("greedy").act(state, state.legal_actions(), random.Random(0)))
    assert says in choice, choice
