"""Card roles (the Excuse): played at any time, never winning except to complete a sweep, an
open lead, kept by its owner's side with a compensation, and the last-trick readings (A31)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.roles import OPEN_LEAD, led_and_winner, settle_trick
from couillon_dsl.engine.why import legal_reasons
from couillon_dsl.explain import explain

BIG = Path(__file__).parent / "rulesets" / "big-pack.yaml"
ROLE = """card_roles:
  excuse:
    cards: [EX]
    play_anytime: true
    wins: never_except_sweep
    when_led: next_card_sets_suit
    kept_by_owner: {compensation: 0.5, on_last_trick: LAST}
"""


def with_excuse(tmp_path: Path, last: str = "changes_sides"):
    path = tmp_path / f"excuse-{last}.yaml"
    path.write_text(BIG.read_text(encoding="utf-8").replace("id: big-pack", "id: excuse-pack")
                    + ROLE.replace("LAST", last), encoding="utf-8")
    return build_ruleset(path)


@pytest.fixture(scope="module")
def excuse(tmp_path_factory):
    return with_excuse(tmp_path_factory.mktemp("roles"))


def legal(rs, hand: str, trick: list[str]) -> str:
    layout, ctx = rs.layout, rs.tables.context(rs.tables.fixed_trump, 0)
    cards = [layout.parse(c) for c in trick]
    led, win = led_and_winner(ctx, cards)
    return layout.format_mask(ctx.legal(layout.parse_mask(hand), led, win, sum(1 << c for c in cards)))


@pytest.mark.parametrize(("hand", "trick", "allowed"), [
    ("KS 2S 5T EX", ["3S"], "KS 2S EX"),          # may be played although spades can be followed
    ("KH 5T EX", ["3S", "10T"], "5T EX"),         # ... or instead of trumping
    ("KH 2S 5T", ["EX"], "2S KH 5T"),             # led: the next card is free
    ("KH 2S 5T", ["EX", "3H"], "KH"),             # ... and sets the suit (hearts)
    ("KS 2S 5T", ["EX", "3H"], "5T"),             # void in it: must trump
])
def test_the_excuse_is_free_and_an_open_lead(excuse, hand, trick, allowed):
    assert legal(excuse, hand, trick) == allowed


def test_the_excuse_never_wins_a_trick(excuse):
    layout, ctx = excuse.layout, excuse.tables.context(excuse.tables.fixed_trump, 0)
    cards = [layout.parse(c) for c in ("EX", "3H", "KH", "2H")]
    assert led_and_winner(ctx, cards[:1]) == (OPEN_LEAD, cards[0])
    assert layout.name(led_and_winner(ctx, cards)[1]) == "KH"
    assert layout.name(led_and_winner(ctx, [layout.parse(c) for c in ("3S", "EX", "2S")])[1]) == "3S"


def test_legal_reasons_agree_and_name_the_role(excuse):
    layout, ctx = excuse.layout, excuse.tables.context(excuse.tables.fixed_trump, 0)
    reasons = {layout.name(c): (ok, why) for c, ok, why in
               legal_reasons(excuse, ctx, layout.parse_mask("KS 2H EX"), (layout.parse("3S"),))}
    assert reasons["EX"] == (True, "may be played at any time") and reasons["2H"][0] is False
    opened = legal_reasons(excuse, ctx, layout.parse_mask("KS 2H"), (layout.parse("EX"),))
    assert all(ok and "sets the suit" in why for _, ok, why in opened)


def settle(rs, trick: list[str], leader: int, winner: int, last: bool = False, tricks=(0, 0), trick_no: int = 0):
    layout, t = rs.layout, rs.tables
    ctx = t.context(t.fixed_trump, 0)
    cards = [layout.parse(c) for c in trick]
    return settle_trick(t.roles, ctx.points, t.team_of, 2, cards, t.rounds[leader], winner, last, tricks, trick_no)


def test_the_excuse_stays_with_its_owners_side_for_half_a_point(excuse):
    # seat 1 (team 1) plays the Excuse, seat 2 (team 0) wins with KS: 4.5 + 0.5 + 0.5 + 4.5 halves ...
    winner, shares = settle(excuse, ["3S", "EX", "KS", "2S"], leader=0, winner=2)
    assert winner == 2
    assert shares == [1 + 9 + 1 + 1, 9 - 1]  # the winners get the half point in exchange for the Excuse
    assert sum(shares) == 1 + 9 + 9 + 1
    winner, shares = settle(excuse, ["3S", "KS", "EX", "2S"], leader=0, winner=1)  # seat 2 (team 0) owns it
    assert shares == [9 - 1, 1 + 9 + 1 + 1]
    winner, shares = settle(excuse, ["3S", "EX", "2S", "KS"], leader=0, winner=3)  # the owner's partner wins
    assert shares == [0, 1 + 9 + 1 + 9]


@pytest.mark.parametrize(("last", "expected"), [
    ("changes_sides", [1 + 9 + 1 + 9, 0]),     # the Excuse goes to the owner's opponents: the winners here
    ("to_trick_winner", [1 + 9 + 1 + 9, 0]),
    ("kept", [1 + 9 + 1 + 1, 8]),
])
def test_the_last_trick_readings_when_the_owner_loses_it(tmp_path, last, expected):
    rs = with_excuse(tmp_path, last)
    assert settle(rs, ["3S", "EX", "KS", "2S"], leader=0, winner=2, last=True, tricks=(10, 7), trick_no=17)[1] \
        == expected


def test_changing_sides_when_the_owners_side_wins_the_last_trick(excuse):
    # seat 1 plays the Excuse, its partner seat 3 wins: the Excuse changes sides to team 0
    winner, shares = settle(excuse, ["3S", "EX", "2S", "KS"], leader=0, winner=3, last=True, tricks=(5, 12),
                            trick_no=17)
    assert winner == 3 and shares == [9, 1 + 1 + 9]


def test_the_excuse_completes_a_sweep(excuse):
    # team 1 took all 17 earlier tricks; seat 1 leads the Excuse to the last one and wins it
    winner, shares = settle(excuse, ["EX", "3S", "2S", "KS"], leader=1, winner=0, last=True, tricks=(0, 17),
                            trick_no=17)
    assert winner == 1 and shares == [0, 9 + 1 + 1 + 9]
    winner, _ = settle(excuse, ["EX", "3S", "2S", "KS"], leader=1, winner=0, last=True, tricks=(1, 16), trick_no=17)
    assert winner == 0


def test_random_games_with_the_excuse_conserve_card_points(excuse):
    ctx = excuse.tables.context(excuse.tables.fixed_trump, 0)
    for seed in range(4):
        state = GameState(excuse)
        state.play_random(random.Random(seed))
        for hand in state.hands:
            dealt = sum(ctx.points[c] for _, cards, _ in hand.played_tricks for c in cards)
            assert sum(hand.points) == dealt  # the compensation moves points, never makes or loses any
            assert sum(hand.tricks) == 18


def test_agents_play_the_excuse(excuse):
    from couillon_dsl.agents import GreedyAgent, PimcAgent
    from couillon_dsl.simulation import play_game

    for agent in (GreedyAgent(), PimcAgent(samples=2)):
        state = play_game(GameState(excuse, seed=5), [agent] * 4, random.Random(5))
        assert state.is_terminal() and all(sum(h.tricks) == 18 for h in state.hands)


def test_explain_describes_the_role(excuse):
    text = explain(excuse)
    assert "Excuse: may be played to any trick" in text
    assert "the next player may play any card and that card sets the suit" in text
    assert "gives the trick's winners 0.5 card points in exchange" in text
    assert "played to the last trick it changes sides" in text
