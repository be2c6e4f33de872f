"""Trump fixed by the first card led (`contracts.<id>.trump: first_lead`) and an auction round the
table of one lap (`trump.auction.laps`), as Auction Pitch plays them (examples/auction-pitch.yaml):
each player bids once, the dealer last; the pitcher leads, and his card's suit is trump. The
hand-checked hand is tests/scenarios/auction-pitch-pitch.yaml.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.explain import explain
from couillon_dsl.records import GameRecord, replay
from example_games import FOLDER
from packs import at_the_table, dealt, random_hands, say
from variants import codes_of

PITCH = FOLDER / "auction-pitch.yaml"
RS = build_ruleset(str(PITCH))
HEARTS = RS.layout.suits.index("H")


def pitched(rs=RS, seed: int = 0) -> GameState:
    """Seat 1 bids 2 and the others pass: seat 1 is to pitch (dealer 0)."""
    state = dealt(rs, 0, {1: [RS.layout.parse(c) for c in ("AH", "KH", "2C", "3D", "4S", "5S")]}, seed)
    say(state, "bid 2", "pass", "pass", "pass", "contract pitch")
    return state


def test_no_suit_is_trump_until_the_first_lead_and_then_its_suit_is() -> None:
    state = pitched()
    assert state.phase == "play" and state.current_player() == 1 and state.trump is None
    assert state.lead_fixes_trump() and all(v.trump is None for v in map(state.view, range(4)))
    assert len(state.legal_actions()) == 6  # any card may be pitched
    say(state, "2C")
    assert state.trump == RS.layout.suits.index("C") and not state.lead_fixes_trump()
    assert all(state.view(seat).trump == state.trump for seat in range(4))  # public from the pitch on


def test_the_followers_follow_the_pitch_as_a_trump_lead() -> None:
    state = pitched()
    say(state, "AH")
    seat = state.current_player()
    hand = state.hand_of(seat)
    hearts = [c for c in state.legal_actions() if RS.layout.suit_of(c) == HEARTS]
    held_hearts = [c for c in range(RS.layout.size) if hand >> c & 1 and RS.layout.suit_of(c) == HEARTS]
    # a trump led must be followed: the legal cards are the seat's hearts when it holds one
    assert (sorted(state.legal_actions()) == sorted(held_hearts)) if held_hearts else len(state.legal_actions()) == hand.bit_count()
    assert hearts == [c for c in state.legal_actions() if c in held_hearts]


def test_in_random_games_every_hand_is_trumped_by_its_first_card_and_replays() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        state = GameState(RS, seed=seed)
        for event, s in random_hands(state, rng, 600):
            if event == "decide" and s.phase == "play" and s.lead_fixes_trump():
                leader = s.current_player()
                assert s.trump is None and s.view(leader).deciding_seat == leader  # the pitcher pitches
                card = rng.choice(s.legal_actions())
                s.apply(card)
                assert s.trump == RS.layout.suit_of(card)
                checked += 1
        played = [h for h in state.hands if h.outcome != "passed_out"]
        assert state.is_terminal() and played and all(h.trump is not None for h in played)
        record = GameRecord.from_state(state, ruleset=str(PITCH), seed=seed, agents=["random"] * 4, game=seed)
        assert replay(record, RS) is None
    assert checked >= 20


def test_each_player_bids_once_the_dealer_last() -> None:
    state = dealt(RS, 0, {})
    say(state, "bid 2", "bid 3", "bid 4")
    assert state.phase == "auction" and state.current_player() == 0  # the dealer, last
    say(state, "pass")
    assert state.phase == "choose" and state.current_player() == 3 and state.auction_value == 4  # seat 1 not asked again
    state = dealt(RS, 0, {})
    say(state, "pass", "pass", "pass", "pass")
    assert state.hands[-1].outcome == "passed_out"


def test_two_laps_give_an_outbid_player_a_second_word(tmp_path: Path) -> None:
    text = PITCH.read_text(encoding="utf-8").replace("laps: 1 ", "laps: 2 ")
    path = tmp_path / "two-laps.yaml"
    path.write_text(text, encoding="utf-8")
    rs = build_ruleset(str(path))
    state = dealt(rs, 0, {})
    say(state, "bid 2", "bid 3", "pass", "pass")
    assert state.phase == "auction" and state.current_player() == 1  # seat 1, outbid, speaks again
    say(state, "bid 4")
    assert state.phase == "auction" and state.current_player() == 2  # seat 2 too, once more
    say(state, "pass")
    assert state.phase == "choose" and state.current_player() == 1 and state.auction_value == 4
    assert "going round the table at most twice (each player speaks at most twice)" in explain(rs)
    assert "the next to speak has already spoken twice" in explain(rs)


def test_laps_belong_to_an_auction_round_the_table(tmp_path: Path) -> None:
    text = PITCH.read_text(encoding="utf-8")
    assert "unused-setting" not in codes_of(tmp_path / "rounds.yaml", text)
    pairs = text.replace("procedure: rounds", "procedure: pairs")
    assert "unused-setting" in codes_of(tmp_path / "pairs.yaml", pairs)


def test_a_meld_of_trump_cards_declared_before_the_pitch_is_refused(tmp_path: Path) -> None:
    text = PITCH.read_text(encoding="utf-8") + (
        "declarations:\n  royal:\n    name: Royal pair\n    when: before_first_lead\n"
        "    patterns:\n      - {cards: [KT, QT], value: 1}\n")
    assert "trump-fixed-after-declaring" in codes_of(tmp_path / "melds.yaml", text)
    won = text.replace("when: before_first_lead", "when: trick_won\n    shown: true")
    assert "trump-fixed-after-declaring" not in codes_of(tmp_path / "won.yaml", won)


def test_the_multiplier_follows_the_suit_pitched(tmp_path: Path) -> None:
    text = PITCH.read_text(encoding="utf-8").replace(
        "pitch: {name: Pitch, trump: first_lead}", "pitch: {name: Pitch, trump: first_lead, multiplier: {H: 2}}") \
        .replace("delta: others_won", "delta: 100 * multiplier")
    path = tmp_path / "doubled-hearts.yaml"
    path.write_text(text, encoding="utf-8")
    rs = build_ruleset(str(path))
    rng = random.Random(2)
    for card, times in (("AH", 2), ("2C", 1)):
        state = pitched(rs)
        say(state, card)
        while not state.hands:
            state.apply(rng.choice(state.legal_actions()))
        assert state.hands[0].deltas[0] == 100 * times  # seat 1 pitched: team 0 is the other side


def test_greedy_pitches_the_top_card_of_its_best_suit_and_bids_on_some_hands_only() -> None:
    greedy = make_agent("greedy")
    state = pitched()
    card = greedy.act(state, state.legal_actions(), random.Random(0))
    assert RS.layout.name(card) == "AH"  # two hearts with the ace: hearts, led from the top
    rng = random.Random(1)
    words = []
    for seed in range(120):
        state = GameState(RS, seed=seed)
        state.deal_shuffled(rng)
        words.append(state.action_to_string(greedy.act(state, state.legal_actions(), rng)))
    bids = sum(w != "pass" for w in words)
    assert 0 < bids < len(words)  # neither never nor always: the bid is read from the cards


def test_at_the_table_the_pitcher_picks_the_contract_and_the_pitch_names_trump() -> None:
    out = at_the_table(str(PITCH), 3, 0)
    assert "Contract: Pitch, the suit of the first card led is trump." in out
    assert re.search(r"Seat \d picks Pitch\.", out) and "bids Pitch" not in out
    lead = out.index("Contract: Pitch")
    assert out.index("Trump is ", lead) < out.index("Trick 1 ", lead)  # said once the pitch is played
