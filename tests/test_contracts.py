"""Contracts, handing the trump choice on, the first-hand chooser, last-trick points and goals
counted in rule order, on the Schieber ruleset (rules digest §1.9) and small variants of it."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.actions import Actions
from couillon_dsl.engine.hand import make_settle
from couillon_dsl.explain import explain
from couillon_dsl.model import Limits, Scoresheet, Session
from example_games import FOLDER

OPTIONS = st.fixed_dictionaries({
    "no_trump_contracts": st.booleans(),
    "multipliers": st.sampled_from(["none", "swisslos", "sog"]),
    "pushes": st.sampled_from([1, 2]),
})


@settings(max_examples=12, deadline=None)
@given(options=OPTIONS, seed=st.integers(0, 2**32))
def test_a_hand_holds_157_card_points_and_a_match_257(options: dict, seed: int) -> None:
    rs = build_ruleset("schieber", options)
    state = GameState(rs)
    state.play_random(random.Random(seed))
    contracts = {c.id: c for c in rs.contracts}
    for hand in state.hands:
        assert sum(hand.points) == 157  # 152 in the cards (every contract) and the last trick's 5
        multiplier = contracts[hand.contract].multiplier_for(hand.trump)  # type: ignore[index]
        match = 100 if hand.all_tricks else 0
        melds = [sum(kind[team] for kind in hand.declared) for team in range(2)]  # Weis and Stöck kept
        assert sum(hand.deltas) == (157 + match + sum(melds)) * multiplier
        if hand.all_tricks:
            assert hand.deltas[hand.winner] == (257 + melds[hand.winner]) * multiplier  # type: ignore[index]


def test_rulesets_without_contracts_keep_their_action_numbers() -> None:
    plain = Actions.build(24, 4, 1)
    grown = Actions.build(24, 4, 1, 2, True)
    assert plain.push == plain.contract0 == -1
    assert plain.dealer0 == plain.announce0 + 1
    assert grown.push == plain.dealer0 and grown.contract0 == grown.push + 1 and grown.dealer0 == grown.contract0 + 2
    assert grown.decode(grown.push) == ("push", -1) and grown.decode(grown.contract0 + 1) == ("contract", 1)


def _to_choice(rs, seed: int = 5) -> GameState:
    state = GameState(rs, seed=seed)
    state.deal_shuffled()
    return state


def test_the_first_hand_chooser_holds_the_card_and_later_hands_ask_forehand() -> None:
    rs = build_ruleset("schieber", {"first_hand_card": "10H"})
    for seed in range(5):
        state = _to_choice(rs, seed)
        holder = next(s for s in range(4) if state.hand_of(s) >> rs.layout.parse("10H") & 1)
        assert state.current_player() == holder
        state.play_random(random.Random(seed))
        for hand in state.hands[1:]:
            assert hand.decisions[0][0] == (hand.dealer + 1) % 4  # forehand speaks first


def test_a_push_goes_to_the_partner_who_must_choose_and_forehand_still_leads() -> None:
    rs = build_ruleset("schieber")
    state = _to_choice(rs)
    chooser = state.current_player()
    state.apply(state.string_to_action(None, "push"))
    partner = state.current_player()
    assert rs.tables.team_of[partner] == rs.tables.team_of[chooser] and partner != chooser
    assert "push" not in [state.action_to_string(a) for a in state.legal_actions()]
    state.apply(state.string_to_action(None, "name C"))
    assert state.view(0).decisions == ((chooser, "push"), (partner, "name"))
    assert state.current_player() == chooser  # first_lead: chooser


def test_push_back_is_one_more_hand_on() -> None:
    rs = build_ruleset("schieber", {"pushes": 2})
    state = _to_choice(rs)
    chooser = state.current_player()
    push = state.string_to_action(None, "push")
    state.apply(push)
    state.apply(push)
    assert state.current_player() == chooser and push not in state.legal_actions()


def test_a_choice_pushed_round_the_table_comes_back_to_the_first_chooser() -> None:
    """Klaverjas "vrij" (examples/klaverjas.yaml, trump_choice=vrij): each player may pass the
    choice to the next; after four pushes it is the elder's again and he must name trump; the
    rulebook says so (and Schieber's push back, to the partner, the same way)."""
    rs = build_ruleset(str(FOLDER / "klaverjas.yaml"), {"trump_choice": "vrij"})
    state = GameState(rs, seed=3)
    while state.is_chance_node():
        state.deal_shuffled()
    push, asked = state.actions.push, []
    for _ in range(4):
        asked.append(state.current_player())
        state.apply(push)
    assert asked == [1, 2, 3, 0] and state.current_player() == 1 and push not in state.legal_actions()
    assert "after 4 pushes in a hand it comes back to the player on the dealer's left, who must choose" in explain(rs)
    assert "after 2 pushes in a hand it comes back to the chooser, who must choose" in explain(
        build_ruleset("schieber", {"pushes": 2}))


def test_no_trump_contracts_rank_and_count_by_their_own_tables() -> None:
    rs = build_ruleset("schieber", {"no_trump_contracts": True, "multipliers": "sog"})
    state = _to_choice(rs)
    state.apply(state.string_to_action(None, "contract bottom_up"))
    ctx = state.context
    layout = rs.layout
    assert state.trump is None and state.view(0).contract == "bottom_up"
    six, ace, eight = layout.parse("6S"), layout.parse("AS"), layout.parse("8S")
    spades = ctx.card_suit[six]
    assert ctx.strength[spades][six] > ctx.strength[spades][ace]  # bottom-up: the 6 is high
    assert ctx.points[eight] == 8 and ctx.points[ace] == 11
    state.play_random(random.Random(1))
    assert state.hands[0].deltas[0] + state.hands[0].deltas[1] in (157 * 4, 257 * 4)  # Undenufe x4 (SOG)


def test_rule_order_decides_who_reaches_the_goal_first() -> None:
    sheet = Scoresheet(start=0, goal=1000, direction="up", when_both_reach="first_by_rule_order")
    settle = make_settle(sheet, Session(), Limits())
    # both past the goal; team 1 further, but team 0 got there first
    assert settle((1010, 1100), 1, 5, [0, 0], 0)[1] == 0
    assert settle((1010, 1100), 1, 5, [0, 0])[1] == 1  # furthest past, as before


def test_greedy_pushes_a_weak_hand_and_names_a_strong_suit() -> None:
    rs = build_ruleset("schieber")
    greedy = make_agent("greedy")
    rng = random.Random(0)
    words = []
    for seed in range(40):
        state = _to_choice(rs, seed)
        words.append(state.action_to_string(greedy.act(state, state.legal_actions(), rng)).split()[0])
    assert 0 < words.count("push") < words.count("name")
    # a hand with the Bour, the Nell and the ace of hearts names hearts
    from couillon_dsl.scenario import stack_pack
    state = GameState(rs)
    pack = stack_pack(rs, 0, {"L": ["7D", "JH", "9H", "AH", "KH", "6S", "7S", "6C", "7C"]})
    for card in pack:
        state.apply(card)
    assert state.action_to_string(greedy.act(state, state.legal_actions(), rng)) == "name H"


def test_a_first_hand_card_nobody_holds_leaves_the_choice_to_by(tmp_path) -> None:
    path = tmp_path / "aside.yaml"
    path.write_text("extends: schieber\nid: aside\nname: Aside\ndeal:\n  - {packet: 3, to: all}\n"
                    "  - {packet: 3, to: all}\n  - {set_aside: 1}\n  - {packet: 2, to: all}\n  - {set_aside: rest}\n"
                    "  - {decide: trump}\n")
    rs = build_ruleset(str(path))
    card = rs.layout.parse("7D")
    for seed in range(40):
        state = _to_choice(rs, seed)
        if not any(state.hand_of(s) >> card & 1 for s in range(4)):
            assert state.current_player() == 1  # the elder, dealer 0
            return
    raise AssertionError("no deal set 7D aside")
