"""Optional declarations made before the first play (tests/rulesets/kitty-shape.yaml's poignée).

The holder of 10, 13 or 15 trumps is offered `declare poignee` beside his cards on his first
turn, and declines by playing a card. Declaring shows exactly as many trumps as the
combination needs, the lowest, the Excuse only when the others are too few. A silent holder
cannot be told from a seat without a poignée: moving one of his trumps to another unseen
place changes nothing a third seat observes (its view, the public actions, every agent's
decision). The sampler rules out what a shown poignée says its holder does not hold, and never
rules out a card he holds.
"""
from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState, IllegalAction

RS = build_ruleset(str(Path(__file__).parent / "rulesets" / "kitty-shape.yaml"))
LAYOUT = RS.layout
TRUMPS = [f"{r}T" for r in range(21, 0, -1)]
TABLE = RS.tables.declarations[0]
AGENT_SPECS = ["random", "greedy", "pimc:samples=4", "ismcts:iterations=20:worlds=4"]


def names(mask: int) -> set[str]:
    return {LAYOUT.name(c) for c in range(LAYOUT.size) if mask >> c & 1}


def garde_sans(seed: int, hands: dict[int, list[str]]) -> GameState:
    """A game whose first deal gives ``hands`` (the rest at random), the elder bidding Garde sans
    (no kitty exchange), the others passing, and play begun."""
    rng = random.Random(seed)
    state = GameState(RS)
    positions = {seat: list(p) for seat, p in RS.tables.deal_plans[state.dealer][0][1]}
    pack = [-1] * LAYOUT.size
    for seat, cards in hands.items():
        for position, card in zip(positions[seat], cards):
            pack[position] = LAYOUT.parse(card)
    rest = [c for c in range(LAYOUT.size) if c not in pack]
    rng.shuffle(rest)
    for card in (c if c >= 0 else rest.pop() for c in pack):
        state.apply(card)
    state.apply(state.string_to_action(None, "contract garde_sans"))
    while state.view(0).phase == "auction":
        state.apply(state.actions.pass_)
    return state


def to_seat(state: GameState, seat: int, rng: random.Random) -> None:
    greedy = make_agent("greedy")
    while state.current_player() != seat:
        legal = [a for a in state.legal_actions() if a < LAYOUT.size]  # nobody else declares
        state.apply(greedy.act(state, legal, rng))


PLAIN = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]


def test_the_holder_is_offered_the_poignee_on_his_first_turn_only_and_shows_his_lowest_trumps():
    rng = random.Random(1)
    state = garde_sans(1, {2: TRUMPS[:11] + PLAIN[:7]})  # 21T ... 11T
    declare = state.string_to_action(None, "declare poignee")
    to_seat(state, 1, rng)  # the elder leads; a seat without ten trumps is offered nothing
    assert declare not in state.legal_actions()
    to_seat(state, 2, rng)
    assert declare in state.legal_actions()
    state.apply(declare)
    [(kind, label, seat, value, shown)] = state.view(0).melds
    assert (kind, label, seat, value) == ("poignee", "simple", 2, 20)
    assert names(shown) == set(TRUMPS[1:11])  # 20T ... 11T: the lowest ten; 21T stays hidden
    assert declare not in state.legal_actions()  # once, and he still plays a card
    assert all(a < LAYOUT.size for a in state.legal_actions())
    held = state.hand_of(2)
    assert shown & held == shown and {LAYOUT.name(c) for c, s in state.view(0).face_up if s == 2} == names(shown)


def test_the_excuse_stands_in_only_when_the_trumps_are_too_few():
    cases = [(TRUMPS[:9] + ["EX"], set(TRUMPS[:9]) | {"EX"}), (TRUMPS[:10] + ["EX"], set(TRUMPS[:10])),
             (TRUMPS[:12] + ["EX"], set(TRUMPS[:12]) | {"EX"})]
    for held, shown in cases:
        [meld] = TABLE.melds(LAYOUT.parse_mask(held), RS.tables.fixed_trump, 0)
        assert names(meld.cards) == shown and meld.value == (30 if len(held) == 13 else 20)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(TRUMPS + ["EX"]), min_size=10, max_size=18))
def test_what_a_shown_poignee_rules_out_the_holder_never_holds(held):
    hand = LAYOUT.parse_mask(sorted(held))
    [meld] = TABLE.melds(hand, RS.tables.fixed_trump, 0)
    ruled_out = TABLE.rules_out(meld.cards, meld.pattern, RS.tables.fixed_trump)
    assert not ruled_out & hand
    assert meld.cards.bit_count() == (10 if len(held) < 13 else 13 if len(held) < 15 else 15)


def test_a_silent_holder_cannot_be_told_from_a_seat_without_a_poignee():
    """Seat 2 holds ten trumps and plays a card without declaring. Moving one of its trumps to
    seat 3 (for a plain card) changes nothing seat 1 observes, nor any agent's decision."""
    seed = 4
    rng = random.Random(seed)
    hands = {2: TRUMPS[5:15] + PLAIN[:8], 3: ["KS", "QS", "CS", "JS", "10S", "KH", "QH", "CH", "JH", "10H",
                                              "KD", "QD", "CD", "JD", "10D", "KC", "QC", "CC"]}
    state = garde_sans(seed, hands)
    to_seat(state, 2, rng)
    state.apply(next(a for a in state.legal_actions() if a < LAYOUT.size))  # declines: plays a card
    to_seat(state, 1, rng)
    twins = 0
    ncards = LAYOUT.size
    history = state.history()
    played = {a for a in history[ncards:] if a < ncards}
    for trump in (LAYOUT.parse(c) for c in TRUMPS[5:15]):
        plain = next((c for c in range(ncards) if state.hand_of(3) >> c & 1 and c not in played
                      and LAYOUT.suit_of(c) != LAYOUT.suits.index("T")), None)
        if trump in played or plain is None:
            continue
        swap = {trump: plain, plain: trump}
        twin = GameState(RS)
        try:
            for action in history:
                twin.apply(swap.get(action, action) if action < ncards else action)
        except IllegalAction:
            continue
        assert twin.view(1) == state.view(1)
        assert twin.history()[ncards:] == history[ncards:]
        legal = state.legal_actions()
        assert twin.legal_actions() == legal
        for spec in AGENT_SPECS:
            assert make_agent(spec).act(state, legal, random.Random(seed)) == \
                make_agent(spec).act(twin, legal, random.Random(seed)), spec
        twins += 1
        break
    assert twins


def test_digest_2_10_hand_5_a_defenders_poignee_goes_to_the_side_that_wins():
    """French Tarot (tarot.yaml), digest §2.10 hand 5 (played out in tests/scenarios/tarot-2.10-hand-5.yaml),
    scored from its facts: D takes a Garde and makes 40 points with
    the three bouts (target 36); a defender declared a poignée. Each defender pays
    (25 + 4) x 2 + 20 = 78: the poignée goes to the taker's side, which won, unmultiplied."""
    rs = build_ruleset("tarot")
    t = rs.tables
    bouts = t.card_sets["bouts"]
    won = (bouts, rs.layout.full_mask & ~bouts)  # the taker's tricks hold the three bouts
    last_cards = rs.layout.parse_mask(["5S", "6S", "7S", "8S"])  # the defence took the last trick, no Petit in it
    last = (1, last_cards, ((last_cards, 1, rs.layout.parse("8S")),))  # its team and cards, and the trick log
    side_of = (1, 1, 1, 0)  # D, seat 3, alone against the three
    declared = ((0, 20),)  # one poignée, kept by the defence's side
    score = t.score_hand((40 * t.point_unit, 51 * t.point_unit), (8, 10), 0, 2, 18, 0, 0, (0, 0, 0, 0), [],
                         declared, "garde", 2, won, last, side_of)
    assert score.deltas == (-78, -78, -78, 234)
    lost = t.score_hand((35 * t.point_unit, 56 * t.point_unit), (8, 10), 0, 2, 18, 0, 0, (0, 0, 0, 0), [],
                        declared, "garde", 2, won, last, side_of)
    assert lost.deltas == (((25 + 1) * 2 + 20,) * 3 + (-3 * 72,))  # lost by 1: the poignée goes to the defence
