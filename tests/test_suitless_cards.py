"""Cards outside the suits that win every trick or none, and a turned card that fixes no suit.

Wizard (examples/wizard.yaml): a Wizard wins over every trump, the first played of several (a card
role with `wins: always`); a Jester never wins, unless the trick holds only Jesters, and when led
lets the first card after it that is not a Jester set the suit (`when_led: next_card_sets_suit`);
nobody follows a card outside the suits (`deck.extras`); a Jester turned up leaves the hand
without trump and a Wizard turned up lets the dealer name it (`if_turned`). The hand-checked case
is tests/scenarios/wizard-wizards-and-jesters.yaml.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.api import load
from couillon_dsl.diagnostics import RulesetError
from couillon_dsl.engine import GameState
from couillon_dsl.engine.why import why_wins
from packs import agents_game, assert_replays, decisions

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RS = load(str(EXAMPLES / "wizard.yaml"))
RANKS = RS.deck.ranks  # highest first


def judged(cards: list[str], trump: str | None) -> int:
    """The index of the card that takes the trick, by the rules as the makers write them."""
    wizards = [i for i, card in enumerate(cards) if card[0] == "Z"]
    if wizards:
        return wizards[0]
    suited = [i for i, card in enumerate(cards) if card[0] != "N"]
    if not suited:
        return 0  # Jesters only: the first played
    led = cards[suited[0]][-1]
    trumps = [i for i in suited if cards[i][-1] == trump]
    pool = trumps or [i for i in suited if cards[i][-1] == led]
    return min(pool, key=lambda i: RANKS.index(cards[i][:-1]))


def random_game(seed: int) -> GameState:
    rng = random.Random(seed)
    state = GameState(RS, seed=seed)
    for seat in decisions(state, rng):
        legal = state.legal_actions()
        if state.is_playing() and len(state.current_trick()[1]) > 0:
            leader, cards = state.current_trick()
            names = [RS.layout.name(c) for c in cards]
            hand = [RS.layout.name(c) for c in range(RS.layout.size) if state.hand_of(seat) >> c & 1]
            setter = next((name for name in names if name[0] != "N"), None)
            if setter is None or setter[0] == "Z" or not any(card[-1] == setter[-1] for card in hand if card[0] not in "ZN"):
                assert sorted(RS.layout.name(c) for c in legal) == sorted(hand)  # free: nothing to follow
            else:  # the suit set, held: that suit, or a Wizard or a Jester
                assert sorted(RS.layout.name(c) for c in legal) == sorted(
                    card for card in hand if card[0] in "ZN" or card[-1] == setter[-1])
        state.apply(rng.choice(legal))
    return state


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_every_trick_goes_where_the_rules_say_and_the_follow_rule_frees_what_it_should(seed: int) -> None:
    state = random_game(seed)
    n = RS.players.count
    for hand in state.hands:
        for leader, cards, winner in hand.played_tricks:
            names = [RS.layout.name(c) for c in cards]
            assert winner == (leader + judged(names, hand.trump)) % n, (names, hand.trump)


def test_a_jester_turned_up_leaves_no_trump_and_a_wizard_lets_the_dealer_name_it() -> None:
    seen = {"none": 0, "named": 0}
    for seed in range(400):
        state = GameState(RS, seed=seed)
        state.deal_shuffled(random.Random(seed))
        turned = next((card for card, holder in state.view(0).face_up if holder is None), None)
        if turned is None:
            continue
        name = RS.layout.name(turned)
        if name[0] == "N":
            assert state.trump is None and state.phase == "bid"
            seen["none"] += 1
        elif name[0] == "Z":
            assert state.phase == "choose" and state.current_player() == state.dealer
            named = [state.action_to_string(a) for a in state.legal_actions()]
            assert named == ["name S", "name H", "name D", "name C"]
            state.apply(state.string_to_action(state.dealer, "name D"))
            assert state.trump == RS.layout.suits.index("D") and state.phase == "bid"
            seen["named"] += 1
        if all(seen.values()):
            return
    pytest.fail(f"turned cards seen: {seen}")


@pytest.mark.parametrize("agent", ["greedy", "pimc:samples=2", "ismcts:iterations=10"])
def test_agents_play_short_games_that_replay(agent: str, tmp_path: Path) -> None:
    path = tmp_path / "short.yaml"  # the first five deals, one card each up to five
    path.write_text(f"extends: {EXAMPLES / 'wizard.yaml'}\nid: short\nname: Short\nscoresheet: {{deals: 5}}\n")
    rs = load(str(path))
    state = agents_game(rs, [make_agent(agent) for _ in range(4)], random.Random(2))
    assert_replays(state)


@pytest.mark.parametrize(("step", "code"), [
    ("{turn_up: stock_top, if_stock_empty: no_trump}", "turned-card-without-suit"),
    ("{turn_up: stock_top, if_stock_empty: no_trump, if_turned: [{cards: [ZA, ZB, ZC, ZD, NA], trump: none}, "
     "{cards: [NA, NB, NC, ND], trump: none}]}", "turned-card-twice"),
])
def test_every_card_outside_the_suits_says_what_it_does_turned_up(tmp_path: Path, step: str, code: str) -> None:
    path = tmp_path / "turned.yaml"
    path.write_text(f"extends: {EXAMPLES / 'wizard.yaml'}\nid: turned\nname: Turned\noptions: {{players: null}}\n"
                    f"deal:\n  - {{packet: 5, to: all}}\n  - {{stock: rest}}\n  - {step}\n  - {{decide: trump}}\n"
                    "scoresheet: {deals: 4}\n")
    with pytest.raises(RulesetError) as raised:
        load(str(path))
    assert code in {d.code for d in raised.value.diagnostics}


def test_won_by_needs_a_game_the_rules_end(tmp_path: Path) -> None:
    path = tmp_path / "won.yaml"
    path.write_text(f"extends: {EXAMPLES / 'whist.yaml'}\nid: won\nname: Won\nscoresheet: {{won_by: maker}}\n")
    with pytest.raises(RulesetError) as raised:
        load(str(path))
    assert "won-by-without-ends-when" in {d.code for d in raised.value.diagnostics}


def test_the_rulebook_of_play_says_why_a_wizard_or_a_jester_takes_the_trick() -> None:
    ctx = RS.tables.contexts[0]
    card = RS.layout.parse
    assert why_wins(RS, ctx, tuple(map(card, ["10H", "NA", "ZB", "ZA"]))) == \
        "Z wins over every card, and was the first of its kind played"
    assert why_wins(RS, ctx, tuple(map(card, ["NA", "NB", "NC", "ND"]))) == \
        "N was led and no card after it set a suit: the first played wins"
