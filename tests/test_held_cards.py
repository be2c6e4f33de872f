"""Cards held, and the score before the hand: `held(card_set, team)`, `score(team)`, and card sets
naming trump cards (`AT`, the ace of trumps) resolved per hand; Whist's honours are built on them.

What a side held is read after the hand, from the cards its players played (and kept), so it
is the hand at the start of play: after passing or a kitty exchange, never the deal before
them. The kernel and the whole-game rollout decline scoring that reads it; greedy values it
as nothing held (its estimates have no cards).
"""
from __future__ import annotations

import random
from pathlib import Path


from couillon_dsl import api
from couillon_dsl.agents import make_agent
from couillon_dsl.engine.results import play_orders
from couillon_dsl.engine.rollout import make_rollout
from couillon_dsl.engine.tables import card_set_masks
from couillon_dsl.explain import explain
from couillon_dsl.expr import ExprNames, HandFacts, compile_expression, facts_read
from couillon_dsl.kernel.eligible import ruleset_reason
from tests.example_games import FOLDER
from variants import refused

SHORT_WHIST = api.load(FOLDER / "whist.yaml", {"game": 5})
HONOURS = ("A", "K", "Q", "J")


def held_by_side(hand) -> list[int]:
    """Each side's cards at the start of play, from the cards its players played."""
    orders = play_orders(4)
    held = [0, 0]
    for leader, cards, _ in hand.played_tricks:
        for seat, card in zip(orders[leader], cards):
            held[seat % 2] |= 1 << card  # Whist's teams: seats 0 and 2, 1 and 3
    return held


def test_a_set_naming_trump_cards_has_one_mask_per_trump_suit_then_none():
    layout = SHORT_WHIST.layout
    masks = card_set_masks(layout, {"honours": ("AT", "KT", "QT", "JT"), "aces": ("AS", "AH")})
    assert masks["aces"] == layout.parse_mask(["AS", "AH"])
    honours = masks["honours"]
    assert isinstance(honours, tuple) and len(honours) == len(layout.suits) + 1
    for suit, mask in zip(layout.suits, honours):
        assert mask == layout.parse_mask([rank + suit for rank in HONOURS])
    assert honours[-1] == 0  # a hand without trump has no trump honours


def test_held_counts_the_set_in_the_hands_trump_and_score_reads_the_scoresheet():
    layout = SHORT_WHIST.layout
    names = ExprNames(card_sets=card_set_masks(layout, {"honours": ("AT", "KT", "QT", "JT")}))
    held = compile_expression('held("honours", maker)', "int", names)
    hands = (layout.parse_mask(["AS", "KS", "QH"]), layout.parse_mask(["JS", "AH", "KH", "JH"]))
    spades, hearts = layout.suits.index("S"), layout.suits.index("H")
    assert held(HandFacts(maker=0, held=hands, trump=spades)) == 2
    assert held(HandFacts(maker=1, held=hands, trump=spades)) == 1
    assert held(HandFacts(maker=1, held=hands, trump=hearts)) == 3
    assert held(HandFacts(maker=1, held=hands, trump=-1)) == 0
    assert held(HandFacts(maker=1, trump=hearts)) == 0  # an estimate without the cards: nothing held
    score = compile_expression("score(maker)", "int", names)
    assert score(HandFacts(maker=1, scores=(3, 4))) == 4
    assert score(HandFacts(maker=1)) == 0  # a hand valued apart from a game: a fresh scoresheet


def test_a_trump_set_makes_its_reader_depend_on_the_trump():
    assert facts_read('held("honours", team)', trump_sets=frozenset({"honours"})) == {"held", "trump"}
    assert facts_read('held("aces", team)', trump_sets=frozenset({"honours"})) == {"held"}
    assert facts_read("score(winner) + 1") == {"scores", "winner"}
    rule = next(rule for rule in SHORT_WHIST.scoring if rule.name == "honours")
    assert {"held", "trump", "scores"} <= rule.reads


def test_short_whist_scores_the_honours_each_side_held_in_every_hand():
    """Whole games of random play: every hand scores the odd tricks, then 4 for the four trump
    honours or 2 for three, to a side that stood below 4 before the hand."""
    layout = SHORT_WHIST.layout
    agents = [make_agent("random") for _ in range(4)]
    counted = set()
    for seed in range(30):
        state = api.new_game(SHORT_WHIST, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state, state.legal_actions(), rng))
        before = (0, 0)
        for hand in state.hands:
            honours = layout.parse_mask([rank + hand.trump for rank in HONOURS])
            held = held_by_side(hand)
            for team in range(2):
                odd = max(0, hand.tricks[team] - 6)
                mine = (held[team] & honours).bit_count()
                bonus = {4: 4, 3: 2}.get(mine, 0) if before[team] < 4 else 0
                counted.add((bonus, mine, before[team] == 4))
                assert hand.deltas[team] == odd + bonus, (seed, hand.number, team, mine, before)
            before = hand.scores
    assert {(4, 4, False), (2, 3, False), (0, 3, True)} <= counted  # each case met at least once


def with_queen_held(tmp_path: Path, passing: bool) -> object:
    """Hearts scoring only the queen of spades each player held at the start of play."""
    path = tmp_path / "hearts-held.yaml"
    path.write_text(f"id: hearts-held\nname: Hearts, the queen held\nextends: {FOLDER / 'hearts.yaml'}\n"
                    "deck: {card_sets: {queen: [QS]}}\n"
                    "scoring: {taken: null, moon: null, "
                    "held_queen: {for_each: team, delta: 'held(\"queen\", team)'}}\n")
    return api.load(path, {"passing": passing})


def test_held_is_the_hand_after_the_cards_are_passed(tmp_path):
    """The queen counts for whoever played it, however it came to him: dealt, or passed to him."""
    rs = with_queen_held(tmp_path, passing=True)
    queen = rs.layout.parse("QS")
    passed_on = 0
    for seed in range(12):
        state = api.new_game(rs, seed=seed)
        agents = [make_agent("random") for _ in range(4)]
        rng = random.Random(seed)
        while not state.is_terminal() and len(state.hands) < 4:
            state.apply(agents[state.current_player()].act(state, state.legal_actions(), rng))
        for hand in state.hands:
            orders = play_orders(4)
            player = next(seat for leader, cards, _ in hand.played_tricks
                          for seat, card in zip(orders[leader], cards) if card == queen)
            assert hand.deltas == tuple(int(seat == player) for seat in range(4))
            passed_on += any(given >> queen & 1 for given in hand.passed)  # a mask per seat
    assert passed_on  # some queens changed hands before play


def test_a_set_naming_trump_cards_is_refused_where_cards_are_fixed_before_the_deal(tmp_path):
    body = "deal_checks: {no_honours: {counts: [{set: honours, max: 0}]}}\n"
    assert refused(tmp_path, FOLDER / "whist.yaml", body) == ["card-set-follows-trump"]


def test_the_kernel_and_the_rollout_decline_scoring_that_reads_the_cards_held(tmp_path):
    reason = ruleset_reason(SHORT_WHIST) or ""
    assert "scoring reads facts the kernel does not tabulate yet: a card set of trump cards (AT), held(), score()" in reason
    assert ruleset_reason(api.load(FOLDER / "whist.yaml")) is None  # American whist reads none of them
    path = tmp_path / "held.yaml"  # held without a race to the goal: the rollout alone must say no
    path.write_text(f"id: whist-held\nname: Whist, four honours always a point\nextends: {FOLDER / 'whist.yaml'}\n"
                    "scoring: {honours: {for_each: team, delta: 'if(held(\"honours\", team) == 4, 1, 0)'}}\n")
    held = api.load(path)
    assert held.tables.reads_held and make_rollout(held) is None
    assert make_rollout(api.load(FOLDER / "whist.yaml")) is not None


def test_greedy_plays_short_whist_to_the_end():
    """Greedy prices a hand through the compiled scoring with no cards held: honours add nothing."""
    state = api.new_game(SHORT_WHIST, seed=5)
    agents = [make_agent("greedy") for _ in range(4)]
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(agents[state.current_player()].act(state, state.legal_actions(), rng))
    assert state.result is not None and state.result.winner is not None


def test_the_rulebook_says_who_held_the_honours_and_when_they_do_not_count():
    text = explain(SHORT_WHIST)
    assert "The honours are the trump ace, the trump king, the trump queen and the trump jack." in text
    assert "the number of the honours the players of that team held at the start of play is at least 3" in text
    assert "the score of that team before the hand is less than 4" in text
    assert "- honours:" not in explain(api.load(FOLDER / "whist.yaml"))  # American whist has no such rule


def test_held_is_the_hand_after_the_kitty_is_taken(tmp_path):
    """Tarot with a rule paying the declarer 1000 a bout it held: against plain Tarot from the same
    seed, the first hand differs by 1000 for each bout the declarer played, the kitty's included."""
    path = tmp_path / "tarot-held.yaml"
    path.write_text("id: tarot-held\nname: Tarot, bouts held\nextends: tarot\n"
                    "scoring: {bouts_held: {team: maker, when: decided, delta: '1000 * held(\"bouts\", maker)'}}\n")
    held_rs, plain_rs = api.load(path), api.load("tarot")
    bouts = plain_rs.layout.parse_mask(["21T", "1T", "EX"])
    checked = 0
    for seed in range(8):
        firsts = []
        for rs in (held_rs, plain_rs):
            state = api.new_game(rs, seed=seed)
            agents = [make_agent("random") for _ in range(rs.players.count)]
            rng = random.Random(seed)
            while not state.is_terminal() and not state.hands:
                state.apply(agents[state.current_player()].act(state, state.legal_actions(), rng))
            firsts.append(state.hands[0])
        held_hand, plain_hand = firsts
        if plain_hand.maker is None:
            continue
        declarer = held_hand.sides.index(0)
        orders = play_orders(held_rs.players.count, held_hand.sitting_out)
        played = sum(1 << card for leader, cards, _ in held_hand.played_tricks
                     for seat, card in zip(orders[leader], cards) if seat == declarer)
        extra = [a - b for a, b in zip(held_hand.deltas, plain_hand.deltas)]
        assert extra[declarer] == 1000 * (played & bouts).bit_count()
        checked += 1
    assert checked
