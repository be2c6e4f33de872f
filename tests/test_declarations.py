"""Declarations (melds): detection on hand-built hands, comparison, award, and properties against a plain checker."""
from __future__ import annotations

import copy
import random
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mutants import mutate, parent_and_key, pointers
from test_mutation import assert_sound

from couillon_dsl.compile import build_ruleset, compile_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.diff import differences
from couillon_dsl.explain import explain
from couillon_dsl.loader import Document, load_ruleset
from couillon_dsl.records import replay
from couillon_dsl.simulation import Job, figures, run
from couillon_dsl.validate import check
from couillon_dsl.engine.declarations import DeclarationTable, Meld, award, build_declaration_table
from couillon_dsl.model import Declaration, DeclarationPattern, Ruleset

HERE = Path(__file__).parent
RULESET = build_ruleset(HERE / "rulesets" / "melds-test.yaml")
LAYOUT = RULESET.layout
MELD, PAIR = RULESET.tables.declarations
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
TEAM_OF = RULESET.tables.team_of


def melds(table: DeclarationTable, cards: str, trump: int = SPADES, seat: int = 0) -> list[tuple[str, str, int]]:
    """(pattern label, cards, value) of each meld found, sorted."""
    return sorted((table.labels[m.pattern], LAYOUT.format_mask(m.cards), m.value)
                  for m in table.melds(LAYOUT.parse_mask(cards), trump, seat))


def meld(table: DeclarationTable, cards: str, trump: int, seat: int) -> Meld:
    [found] = table.melds(LAYOUT.parse_mask(cards), trump, seat)
    return found


# ---------------------------------------------------------------------- detection
def test_runs_follow_the_run_order_not_the_trick_order():
    # trump spades: J and 9 are the top trumps, but a sequence still runs A K Q J 10 9 ...
    assert melds(MELD, "QS JS 10S 6H 7D 8C AH KC 9D") == [("run of 3", "QS JS 10S", 20)]
    assert melds(MELD, "JS 9S AS 6H 7D 8C AH KC 9D") == []


def test_a_sequence_is_scored_once_by_the_longest_pattern_it_reaches():
    assert melds(MELD, "10H 9H 8H 7H AS 7D 8C AC 9D") == [("run of 4", "10H 9H 8H 7H", 50)]
    assert melds(MELD, "AH KH QH JH 10H 9H 8H 7H 6H") == [("run of 5", "AH KH QH JH 10H 9H 8H 7H 6H", 100)]


def test_two_sequences_in_one_suit_are_two_melds():
    assert melds(MELD, "AH KH QH 9H 8H 7H 6S 6D 6C") == [("run of 3", "9H 8H 7H", 20), ("run of 3", "AH KH QH", 20)]


def test_four_of_a_rank_and_ranks_without_a_pattern():
    assert melds(MELD, "JS JH JD JC 6S 8H 6D 8C AH") == [("4 × J", "JS JH JD JC", 200)]
    assert melds(MELD, "8S 8H 8D 8C 6S 6H AD 6C AH") == []  # no pattern for eights (nor for three of a rank)


def test_disjoint_use_picks_the_most_valuable_combination():
    # 6 to J of spades (a run of 6) and four Jacks share JS: four Jacks + 10..6 is worth 300, the run alone 100
    assert melds(MELD, "JS 10S 9S 8S 7S 6S JH JD JC") == [("4 × J", "JS JH JD JC", 200),
                                                           ("run of 5", "10S 9S 8S 7S 6S", 100)]
    # four 9s and K..10 of hearts (150 + 50) beat the run K..9 of hearts alone (100)
    assert sum(v for _, _, v in melds(MELD, "KH QH JH 10H 9H 9S 9D 9C 6S")) == 150 + 50


def test_without_disjoint_a_card_serves_twice():
    table = build_declaration_table(0, Declaration("m", "M", (DeclarationPattern(20, run=3),
                                                             DeclarationPattern(200, same_rank=("J",))),
                                                   disjoint=False), LAYOUT)
    assert sum(v for _, _, v in melds(table, "QS JS 10S JH JD JC 6S 6H 6D")) == 220


def test_the_pair_is_relative_to_trump():
    assert melds(PAIR, "KS QS AH 6H 7D 8C 9C 6S 7S", trump=SPADES) == [("KT QT", "KS QS", 20)]
    assert melds(PAIR, "KS QS AH 6H 7D 8C 9C 6S 7S", trump=HEARTS) == []
    assert melds(PAIR, "KS QS AH 6H 7D 8C 9C 6S 7S", trump=-1) == []


def test_cards_of_a_set_count_once_by_the_largest_requirement_met():
    table = build_declaration_table(0, Declaration("handful", "Handful", (
        DeclarationPattern(20, of=("trump",), at_least=5), DeclarationPattern(30, of=("trump",), at_least=7))),
        LAYOUT)
    assert melds(table, "AS KS QS JS 10S 9S 8S 6H 6D") == [("7 of trump", "AS KS QS JS 10S 9S 8S", 30)]
    assert melds(table, "AS KS QS JS 10S 7H 8H 6H 6D") == [("5 of trump", "AS KS QS JS 10S", 20)]
    assert melds(table, "AS KS QS JS 10S 7H 8H 6H 6D", trump=HEARTS) == []


# ---------------------------------------------------------------------- comparison and award
def test_comparison_order_value_then_length_then_top_then_trump():
    four_k = meld(MELD, "KS KH KD KC 6S 8H 6D 8C 10D", SPADES, 0)   # 100, 4 cards
    run_5 = meld(MELD, "9H 8H 7H 6H 10H AS 6D 8C QD", SPADES, 1)   # 100, 5 cards
    run_4_top_q = meld(MELD, "QD JD 10D 9D AS 6S 7C 8H KC", SPADES, 2)
    run_4_top_k = meld(MELD, "KC QC JC 10C AS 6S 7D 8H 6D", SPADES, 3)
    run_4_top_k_trump = meld(MELD, "KS QS JS 10S AH 6H 7D 8H 6D", SPADES, 0)
    key = MELD.key
    assert key(run_5) > key(four_k)  # equal value: the longer wins
    assert key(run_4_top_k) > key(run_4_top_q)
    assert key(run_4_top_k_trump) > key(run_4_top_k)


def test_only_the_side_with_the_best_single_meld_scores_all_of_its_melds():
    # seat 0 (team 0): four Jacks and a run of 3; seat 1 (team 1): a run of 4 (digest 2.9)
    team0 = list(MELD.melds(LAYOUT.parse_mask("JS JH JD JC AH KH QH 6S 7C"), SPADES, 0))
    team1 = list(MELD.melds(LAYOUT.parse_mask("10D 9D 8D 7D AS 6C 8C 9C 8H"), SPADES, 1))
    order = (0, 1, 2, 3)
    assert award(MELD, team0 + team1, TEAM_OF, order, 2) == (220, 0)
    assert award(MELD, team1, TEAM_OF, order, 2) == (0, 50)


def test_an_unbroken_tie_goes_to_the_earlier_seat_or_to_both_sides():
    a = meld(MELD, "KC QC JC 6S 7D 8H 6D 9S 7H", SPADES, 3)  # team 1, run of 3 topped by K (plain)
    b = meld(MELD, "KD QD JD 6S 7C 8H 6C 9S 7H", SPADES, 2)  # team 0, the same run in another plain suit
    first_leader_3 = (1, 2, 3, 0)  # seat -> place in play order when seat 3 leads
    first_leader_0 = (0, 1, 2, 3)
    assert award(MELD, [a, b], TEAM_OF, first_leader_3, 2) == (0, 20)
    assert award(MELD, [a, b], TEAM_OF, first_leader_0, 2) == (20, 0)
    both = build_ruleset(HERE / "rulesets" / "melds-test.yaml", {"meld_tie": "both"}).tables.declarations[0]
    assert award(both, [a, b], TEAM_OF, first_leader_0, 2) == (20, 20)


def test_always_and_void_when_the_opponents_take_every_trick():
    pair = meld(PAIR, "KS QS AH 6H 7D 8C 9C 6S 7S", SPADES, 1)
    assert award(PAIR, [pair], TEAM_OF, (0, 1, 2, 3), 2) == (0, 20)
    assert award(PAIR, [pair], TEAM_OF, (0, 1, 2, 3), 2, took_all=0) == (0, 20)
    voided = build_declaration_table(1, Declaration("pair", "Pair", (DeclarationPattern(20, cards=("KT", "QT")),),
                                                    void_if_opponents_take_all=True), LAYOUT)
    assert award(voided, [pair], TEAM_OF, (0, 1, 2, 3), 2, took_all=0) == (0, 0)
    assert award(voided, [pair], TEAM_OF, (0, 1, 2, 3), 2, took_all=1) == (0, 20)


# ---------------------------------------------------------------------- properties against a plain checker
ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7", "6"]
RUN_VALUES = {3: 20, 4: 50, 5: 100}
SET_VALUES = {"10": 100, "Q": 100, "K": 100, "A": 100, "9": 150, "J": 200}


def plain_runs(cards: set[tuple[str, str]]) -> list[int]:
    """Values of the maximal sequences (3 or more) among ``cards`` (rank, suit), by walking the order."""
    values = []
    for suit in "SHDC":
        length = 0
        for rank in ORDER + [None]:
            if rank is not None and (rank, suit) in cards:
                length += 1
                continue
            if length >= 3:
                values.append(RUN_VALUES[min(length, 5)])
            length = 0
    return values


def plain_best_total(names: list[str]) -> int:
    cards = {(n[:-1], n[-1]) for n in names}
    fours = [r for r in SET_VALUES if all((r, s) in cards for s in "SHDC")]
    best = 0
    for k in range(len(fours) + 1):
        for chosen in combinations(fours, k):
            rest = {c for c in cards if c[0] not in chosen}
            best = max(best, sum(SET_VALUES[r] for r in chosen) + sum(plain_runs(rest)))
    return best


HANDS = st.lists(st.sampled_from([r + s for s in "SHDC" for r in ORDER]), min_size=9, max_size=9, unique=True)


@settings(max_examples=300, deadline=None)
@given(HANDS, st.integers(-1, 3))
def test_melds_use_disjoint_cards_and_match_the_plain_checker(names, trump):
    found = MELD.melds(LAYOUT.parse_mask(names), trump, 0)
    used = 0
    for m in found:
        assert not m.cards & used
        used |= m.cards
        assert m.length == m.cards.bit_count()
    assert sum(m.value for m in found) == plain_best_total(names)


@settings(max_examples=100, deadline=None)
@given(st.lists(HANDS, min_size=4, max_size=4), st.integers(0, 3))
def test_the_awarded_side_holds_the_best_meld(hands, trump):
    every = [m for seat, names in enumerate(hands) for m in MELD.melds(LAYOUT.parse_mask(names), trump, seat)]
    points = award(MELD, every, TEAM_OF, (0, 1, 2, 3), 2)
    if not every:
        assert points == (0, 0)
        return
    assert 0 in points  # earliest_seat: never both sides
    best = max(every, key=lambda m: (MELD.key(m), -m.seat))
    winner = TEAM_OF[best.seat]
    assert points[winner] == sum(m.value for m in every if TEAM_OF[m.seat] == winner)


@pytest.mark.parametrize("cards", ["AS", "KS QS", "JS 10S 8S 7S"])
def test_no_meld_below_the_smallest_pattern(cards):
    assert melds(MELD, cards) == []


# ---------------------------------------------------------------------- mutated declarations
DOCUMENT = load_ruleset(HERE / "rulesets" / "melds-test.yaml")
PATTERN_WORDS = st.sampled_from(["run", "same_rank", "cards", "of", "at_least", "count", "value", "when", "shown",
                                 "award", "tie", "compare", "disjoint", "run_order", "void_if_opponents_take_all",
                                 "first_play", "last_card_played", "best_side_only", "always", "both", "trump",
                                 "KT", "QT", "J", "10", "XX", "top"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 3), st.data())
def test_mutated_declarations_validate_without_raising_and_valid_ones_play(count, data):
    mutant = copy.deepcopy(DOCUMENT.data)
    part = {"declarations": mutant["declarations"]}
    for _ in range(count):
        if not any(pointers(part)[1:]):
            break
        if data.draw(st.booleans()):
            mutate(part, data.draw)
        else:  # a key of the language, with a plausible value
            target = data.draw(st.sampled_from([p for p in pointers(part) if p]))
            parent, key = parent_and_key(part, target)
            node = parent[key]
            if isinstance(node, dict):
                node[data.draw(PATTERN_WORDS)] = data.draw(st.one_of(PATTERN_WORDS, st.integers(-1, 40),
                                                                      st.lists(PATTERN_WORDS, max_size=3)))
    if "declarations" in part:
        mutant["declarations"] = part["declarations"]
    else:
        del mutant["declarations"]
    document = Document(mutant, DOCUMENT.path, DOCUMENT.origins, DOCUMENT.files)
    assert_sound(document)
    if any(d.is_error for d in check(document)):
        return
    ruleset = compile_ruleset(document)
    for seed in range(2):
        state = GameState(ruleset)
        state.play_random(random.Random(seed))
        assert state.is_terminal()


# ---------------------------------------------------------------------- views, prose, statistics, records
BEST_SIDE_DEAL = {  # tests/scenarios/melds-best-side.yaml's deal, by seat (dealer 0: L is seat 1)
    1: "JS JH JD JC AH KH QH 6S 7C", 2: "10D 9D 8D 7D AS 6C 8C 9C 8H",
    3: "10S 8S 7H 6H QD 6D AC KC QC", 0: "KS QS 9S 7S 10H 9H AD KD 10C",
}


def dealt(deal: dict[int, str], trump: str, plays: str) -> GameState:
    """A first hand dealt as ``deal`` says (three packets of three from the elder), trump named, cards played."""
    state = GameState(RULESET)
    hands = {seat: cards.split() for seat, cards in deal.items()}
    for packet in range(3):
        for seat in (1, 2, 3, 0):
            for name in hands[seat][3 * packet:3 * packet + 3]:
                state.apply(LAYOUT.parse(name))
    state.apply(state.string_to_action(None, f"name {trump}"))
    for name in plays.split():
        state.apply(LAYOUT.parse(name))
    return state


def test_shown_melds_are_public_until_played_and_pending_ones_are_not():
    state = dealt(BEST_SIDE_DEAL, "S", "JS")
    view = state.view(2)  # P has not played yet
    shown = {LAYOUT.name(c) for c, holder in view.face_up if holder == 1}
    assert shown == {"JH", "JD", "JC", "AH", "KH", "QH"}  # JS was played: it is in `played`, no longer face up
    assert [m[:3] for m in view.melds] == [("meld", "4 × J", 1), ("meld", "run of 3", 1)]
    assert not any(holder == 2 for _, holder in view.face_up)  # P's run of 4 waits for P's first card
    assert state.view(2).hand == state.hand_of(2)


def test_a_hidden_permutation_keeps_every_view_when_the_shown_cards_stay():
    """Moving cards nobody has seen between P's and R's hands changes nothing L sees, melds included."""
    state = dealt(BEST_SIDE_DEAL, "S", "JS AS 10S KS")
    swapped = dict(BEST_SIDE_DEAL)
    swapped[2], swapped[3] = "10D 9D 8D 7D AS 6C 8C 9C 6H", "10S 8S 7H 8H QD 6D AC KC QC"  # 8H <-> 6H, both unseen
    other = dealt(swapped, "S", "JS AS 10S KS")
    assert state.view(1) == other.view(1)
    assert state.view(2) != other.view(2)


def test_explain_and_diff_state_the_declaration_rules():
    text = explain(RULESET)
    assert "## Declarations" in text
    assert "Only the side holding the best single Meld scores" in text
    assert "on a tie the player earlier in play order from the first leader wins" in text
    both = build_ruleset(HERE / "rulesets" / "melds-test.yaml", {"meld_tie": "both"})
    lines = differences(RULESET, both)
    assert len(lines) == 2 and lines[0].startswith("Declaration Meld:") and "on a tie both sides score" in lines[0]
    assert lines[1].startswith("Option meld_tie")


def test_simulation_counts_each_declaration_and_records_keep_them():
    job = Job(str(HERE / "rulesets" / "melds-test.yaml"), (), 3, ("random",) * 4, record=True)
    sim = run(RULESET, job, 30, workers=1)
    found = {f.key: f for f in figures(sim)}
    assert {"declaration.meld", "declaration.meld.run_of_3", "declaration.meld.4_j", "declaration.pair.kt_qt"} <= set(found)
    assert found["declaration.meld"].estimate.value >= found["declaration.meld.run_of_3"].estimate.value > 0
    hands = [h for r in sim.tally.records for h in r.outcome["hands"]]
    assert any(h.get("melds") for h in hands)
    for record in sim.tally.records:
        assert replay(record, RULESET) is None


def hands_with_melds_replayed(rs: Ruleset, games: int) -> int:
    """Random games played and replayed action by action: the same hands, melds in the same order;
    the number of hands with a meld."""
    found = 0
    for seed in range(games):
        played = GameState(rs, seed=seed)
        played.play_random(random.Random(seed))
        replayed = GameState(rs)
        for action in played.history():
            replayed.apply(action)
        assert replayed.hands == played.hands
        found += sum(bool(hand.melds) for hand in played.hands)
    return found


def test_random_play_and_replay_declare_the_same_melds_in_the_same_order():
    assert hands_with_melds_replayed(RULESET, 15)
