"""French Tarot for five (tarot.yaml, option players=5): the taker calls a king before the chien is
seen (`contracts.<id>.call.when: before_kitty`), and the scoring pays him and his partner by their
role (`role(seat)`, a `for_each: seat` rule paid to the seat alone on a per-seat scoresheet).

Public: the call, and so the taker's side; a chien shown, and with it a called king lying there (the
taker then plays alone, which everyone sees). Hidden: who holds the called king until it is played.
Moving the unplayed called king between two other seats changes no view, no world a seat samples,
nor any choice.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.cards import iter_bits
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.engine.why import explain_legal
from couillon_dsl.explain import explain
from couillon_dsl.simulation import play_game
from couillon_dsl.validate import check
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Ruleset
from couillon_dsl.records import GameRecord, replay
from example_games import FOLDER
from honesty import twins_look_the_same, unplayed_called_card_twins
from packs import at_the_table, pack_dealing, paid_by_role_shares, random_hands, say

RS = build_ruleset("tarot", {"players": 5, "deals": 1})
LAYOUT = RS.layout
ACTS = GameState(RS).actions
DEALER = 0  # seat 1 is the elder, who speaks first
KINGS = ["KS", "KH", "KD", "KC"]


def deal(hands: dict[int, str], kitty: str = "", seed: int = 0, rs: Ruleset = RS) -> GameState:
    """A game of ``rs`` dealt by seat 0: ``hands`` (seat -> some of its cards, by name) and the ``kitty``,
    the rest at random."""
    state = GameState(rs)
    state.apply(state.actions.dealer0 + DEALER)
    ids = {seat: [LAYOUT.parse(name) for name in names.split()] for seat, names in hands.items()}
    state.deal_pack(pack_dealing(rs, DEALER, ids, [LAYOUT.parse(n) for n in kitty.split()], seed=seed))
    return state


def calls(state: GameState) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())


def test_five_players_fifteen_cards_and_a_chien_of_three() -> None:
    state = deal({})
    assert RS.players.count == 5
    assert [state.hand_of(s).bit_count() for s in range(5)] == [15] * 5
    assert state.phase == "auction" and state.current_player() == 1


def test_the_king_is_called_before_anyone_sees_the_chien() -> None:
    """A Garde: the taker is asked for his call with his fifteen dealt cards, the chien in no seat's view;
    once he calls, the chien is shown to everyone and taken."""
    state = deal({1: "KS 21T 20T 19T"}, kitty="KH 5C 6C")
    say(state, "contract garde", "pass", "pass", "pass", "pass")
    assert state.phase == "call" and state.current_player() == 1
    assert state.hand_of(1).bit_count() == 15
    assert all(state.view(seat).kitty == 0 for seat in range(5))
    assert calls(state) == ["call KC", "call KD", "call KH", "call KS"]  # his own king too (own: alone)
    say(state, "call KD")
    chien = LAYOUT.parse_mask(["KH", "5C", "6C"])
    assert state.phase == "discard" and all(state.view(seat).kitty == chien for seat in range(5))
    assert state.hand_of(1).bit_count() == 18


def test_a_queen_only_when_he_holds_the_four_kings() -> None:
    state = deal({1: "KS KH KD KC 21T"})
    say(state, "contract petite", "pass", "pass", "pass", "pass")
    assert calls(state) == ["call " + c for c in sorted(KINGS + ["QS", "QH", "QD", "QC"])]


def test_a_knight_when_he_also_holds_the_four_queens() -> None:
    """`otherwise` as a ladder of fallbacks: the knights open only once the queens are all his too."""
    queens = ["QS", "QH", "QD", "QC"]
    state = deal({1: " ".join(KINGS + queens[:3])})
    say(state, "contract petite", "pass", "pass", "pass", "pass")
    assert calls(state) == ["call " + c for c in sorted(KINGS + queens)]
    state = deal({1: " ".join(KINGS + queens)})
    say(state, "contract petite", "pass", "pass", "pass", "pass")
    assert calls(state) == ["call " + c for c in sorted(KINGS + queens + ["CS", "CH", "CD", "CC"])]


def test_a_card_of_a_fallback_tier_is_checked_where_it_is_written(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "tiers.yaml"
    path.write_text("extends: tarot\nid: tiers\nname: Tiers\ncontracts:\n  petite: {call: {cards: [KS, KH, KD, KC], "
                    "otherwise: [[QS, QH, QD, QC], [CS, ZZ]], own: alone}}\n", encoding="utf-8")
    [unknown] = [d for d in check(load_ruleset(str(path))) if d.code == "unknown-card"]
    assert unknown.pointer == "/contracts/petite/call/otherwise/1/1"


def test_a_game_lasts_five_deals_unless_the_deals_option_says_otherwise() -> None:
    """players=5 writes the number of deals its `deals` option sets: left at its default, the option
    yields (one round of five dealers); given, even at its default's value, it wins."""
    assert build_ruleset("tarot", {"players": 5}).scoresheet.deals == 5
    assert build_ruleset("tarot", {"players": 5, "deals": 4}).scoresheet.deals == 4
    assert build_ruleset("tarot", {"players": 5, "deals": 9}).scoresheet.deals == 9
    assert build_ruleset("tarot").scoresheet.deals == 4
    assert build_ruleset("tarot", {"players": 5}).options["deals"].value == 5


def test_calling_his_own_king_he_plays_alone_which_the_others_learn_when_it_is_played() -> None:
    state = deal({1: "KS 21T 20T"})
    say(state, "contract garde_sans", "pass", "pass", "pass", "pass", "call KS")
    assert state.sides == (1, 0, 1, 1, 1)
    assert state.view(1).sides == (1, 0, 1, 1, 1)  # he knows he is alone
    assert state.view(2).sides == (-1, 0, 1, -1, -1)  # the others know only their own side


def test_a_called_king_in_the_chien_leaves_him_alone_and_a_shown_chien_tells_everyone() -> None:
    state = deal({1: "KS 21T"}, kitty="KH 5C 6C")
    say(state, "contract petite", "pass", "pass", "pass", "pass", "call KH")
    assert state.sides == (1, 0, 1, 1, 1)
    assert all(state.view(seat).sides == (1, 0, 1, 1, 1) for seat in range(5))


def test_a_called_king_in_an_unseen_chien_stays_unknown() -> None:
    """A Garde sans: the chien is never seen, so nobody, the taker included, learns from it that he is alone."""
    state = deal({1: "KS 21T"}, kitty="KH 5C 6C")
    say(state, "contract garde_sans", "pass", "pass", "pass", "pass", "call KH")
    assert state.sides == (1, 0, 1, 1, 1)
    assert state.view(1).sides == (-1, 0, -1, -1, -1) and state.view(3).sides == (-1, 0, -1, 1, -1)


def played_out(state: GameState, seed: int = 0) -> GameState:
    play_game(state, [make_agent("greedy")] * 5, random.Random(seed))
    return state


def test_with_a_partner_the_taker_gets_two_shares_and_the_partner_one() -> None:
    state = played_out(deal({1: "KS 21T 20T 19T 18T 17T", 3: "KH"}))
    hand = state.hands[0]
    if hand.contract is None:
        pytest.skip("greedy did not bid")
    taker = hand.deciding_seat
    partner = next(s for s in range(5) if s != taker and hand.sides[s] == hand.sides[taker])
    defenders = [s for s in range(5) if hand.sides[s] != hand.sides[taker]]
    t = hand.deltas[partner]
    assert t != 0 and hand.deltas[taker] == 2 * t and all(hand.deltas[s] == -t for s in defenders)
    assert len(defenders) == 3 and sum(hand.deltas) == 0


def test_the_scoring_pays_by_role() -> None:
    """The compiled scoring alone: side 0 the taker (seat 1) and his partner (seat 3), 60 card points of 91
    with two bouts, a Garde: t = (25 + 19) * 2 = 88; the taker 176, the partner 88, each defender -88.
    Alone (seat 1 only), the taker 4 * 88 = 352."""
    t = RS.tables
    unit = t.point_unit
    bouts = LAYOUT.parse_mask(["21T", "EX"])
    for sides, expected in (((1, 0, 1, 0, 1), (-88, 176, -88, 88, -88)), ((1, 0, 1, 1, 1), (-88, 352, -88, -88, -88))):
        score = t.score_hand((60 * unit, 31 * unit), (10, 5), 0, 0, 15, 0, 0, (0,) * 5, (), contract="garde",
                             contract_multiplier=2, won=(bouts, 0), side_of=sides, declarer=1)
        assert score.deltas == expected


def test_a_rule_for_each_seat_pays_that_seat_alone_on_a_per_seat_scoresheet(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Every seat keeps its own score, so a `for_each: seat` rule holding for both seats of the declarer's
    side (Schafkopf's Sauspiel, seats 0 and 2) pays each of them once, not its side twice over."""
    path = tmp_path / "each.yaml"
    path.write_text(f"extends: {FOLDER / 'schafkopf.yaml'}\nid: each\nname: Each\nscoring:\n"
                    "  ours: {for_each: seat, when: 'team_of(seat) == maker', delta: '1'}\n", encoding="utf-8")
    scored = []
    for rs in (build_ruleset(FOLDER / "schafkopf.yaml"), build_ruleset(path)):
        scored.append(rs.tables.score_hand((70, 50), (5, 3), 0, 3, 8, 0, 0, (0,) * 4, (), contract="sauspiel",
                                           side_of=(0, 1, 0, 1), declarer=0).deltas)
    assert [b - a for a, b in zip(*scored)] == [1, 0, 1, 0]


@pytest.mark.parametrize("caller", [False, True])  # a defender to play, or the taker himself
def test_nobody_learns_where_an_unplayed_called_king_is(caller: bool) -> None:
    """A seat to play that does not hold the called king (the taker, or a seat that is neither taker nor
    holder): trading the unplayed king between two other seats for a plain card (not the Excuse) changes
    neither its view, the worlds it samples nor any search's choice, though the sides change."""
    twins_look_the_same(unplayed_called_card_twins(RS, caller, cards=6, tradable=lambda c: LAYOUT.name(c) != "EX"))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_hands_are_zero_sum_and_count_every_card_point(seed: int) -> None:
    """Every card dealt once, fifteen tricks and the 91 card points a hand (the chien counted for its
    owner); a called partner's side is two seats, a taker alone one; the five changes sum to zero, the
    taker's two shares beside a partner (the partner one) or four alone, each defender one."""
    rs = build_ruleset("tarot", {"players": 5, "deals": 3})
    unit = rs.tables.point_unit
    for event, state in random_hands(GameState(rs, seed=seed), random.Random(seed), 3):
        if event == "deal" and state.current_player() != CHANCE:  # (a deal the Petit sec annulled is dealt again)
            dealt = [state.hand_of(s) for s in range(5)]
            assert all(h.bit_count() == 15 for h in dealt) and (sum(dealt) ^ rs.layout.full_mask).bit_count() == 3
        elif event == "decide" and state.phase == "call":
            assert all(state.view(seat).kitty == 0 for seat in range(5))
        elif event == "hand":
            hand = state.hands[-1]
            if hand.outcome == "passed_out":
                continue
            assert sum(hand.points) == 91 * unit and sum(hand.tricks) == 15
            paid_by_role_shares(hand, 5)


@pytest.mark.parametrize("agent", ["greedy", "pimc:samples=2", "ismcts:iterations=8:worlds=2"])
def test_the_agents_play_a_deal(agent: str) -> None:
    state = GameState(RS, seed=5)
    play_game(state, [make_agent(agent)] * 5, random.Random(5))
    assert state.is_terminal() and sum(state.result.scores) == 0  # type: ignore[union-attr]


def test_role_is_checked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """role() compared with a word that is no role, or with "partner" where no contract calls one."""
    path = tmp_path / "roles.yaml"
    path.write_text("extends: tarot\nid: roles\nname: Roles\nscoring:\n"
                    "  partner: {for_each: seat, when: 'role(seat) == \"partner\"', delta: 't'}\n"
                    "  other: {for_each: seat, when: 'role(seat) != \"attacker\"', delta: '0'}\n", encoding="utf-8")
    codes = sorted(d.code for d in check(load_ruleset(str(path))))
    assert codes == ["role-partner-without-call", "role-unknown"]


def test_the_rulebook_says_when_the_king_is_called_and_who_is_paid_what() -> None:
    text = explain(RS)
    assert ("as soon as the contract is fixed, before anyone sees the kitty or the declarer takes it, holding only "
            "the cards dealt to them, the declarer calls the K♠, K♥, K♦ or K♣ (the Q♠, Q♥, Q♦ or Q♣ too when they "
            "hold all of those, and the C♠, C♥, C♦ or C♣ too when they hold all of those as well), a card they hold "
            "too, and then they play alone") in text
    assert "(nobody does when it lies in the kitty)" in text
    assert "For each player who is the declarer, that player changes their score by `shares * t`." in text
    assert "For each player who is the declarer's partner, that player changes their score by `t`." in text
    schafkopf = explain(build_ruleset(FOLDER / "schafkopf.yaml"))
    assert "before the first lead the declarer calls" in schafkopf and "it lies in no hand" in schafkopf


def test_a_person_at_the_table_hears_the_call_before_the_chien_is_shown() -> None:
    """`couillon play`, seed 0: seat 2 takes a Petite and calls the ♦K, which then turns up in the chien."""
    out = at_the_table("tarot", 0, 1, "players=5", "deals=1")
    call = out.index("Seat 2 calls ♦K")
    assert out.index("Seat 2 is the declarer with Petite: they call a partner's card next.") < call
    assert call < out.index("The kitty is shown: ♥C ♦K ♣8. Seat 2 takes it.")


def test_beside_a_call_only_announcements_that_would_tell_the_partner_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Tarot's own rules beside the call (the Excuse's role, the poignée, the taker's chelem) validate; an
    announcement put to the taker's partners would tell who they are, and is refused beside the call."""
    assert not check(load_ruleset("tarot"))
    path = tmp_path / "asked.yaml"
    path.write_text("extends: tarot\nid: asked\nname: Asked\nannouncements:\n  support:\n    name: Support\n"
                    "    by: partners\n    after: chelem\n", encoding="utf-8")
    found = [(d.code, d.message) for d in check(load_ruleset(str(path)))]
    assert [code for code, _ in found] == ["hidden-sides-unsupported"]
    assert "with option players = 5" in found[0][1]


def test_a_game_records_the_call_and_replays_exactly() -> None:
    state = GameState(RS, seed=3)
    play_game(state, [make_agent("greedy")] * 5, random.Random(3))
    record = GameRecord.from_state(state, ruleset="tarot", seed=3)
    assert any(action.startswith("call ") for action in record.actions)
    assert replay(record, RS) is None


def test_a_call_before_a_kitty_the_deal_lacks_is_an_unused_setting(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "unused.yaml"
    path.write_text(f"extends: {FOLDER / 'schafkopf.yaml'}\nid: unused\nname: Unused\ncontracts:\n  sauspiel:\n"
                    "    call: {when: before_kitty}\n", encoding="utf-8")
    found = [(d.code, d.severity, d.pointer) for d in check(load_ruleset(str(path)))]
    assert found == [("unused-setting", "warning", "/contracts/sauspiel/call/when")]


def garde_sans_by(taker: int, hands: dict[int, str], king: str, rs: Ruleset = RS) -> GameState:
    """A deal by seat 0 where ``taker`` takes a Garde sans (the others pass) and calls ``king``; seat 1
    (the elder) is then to lead the first trick."""
    state = deal(hands, rs=rs)
    say(state, *["contract garde_sans" if seat == taker else "pass" for seat in (1, 2, 3, 4, 0)])
    say(state, f"call {king}", "no")
    assert state.phase == "play" and state.current_player() == 1
    return state


def reasons(state: GameState, seat: int) -> dict[str, tuple[bool, str]]:
    return {LAYOUT.name(c): (ok, why) for c, ok, why in explain_legal(state, seat)}


def test_no_one_opens_the_first_trick_in_the_called_suit_but_with_the_king() -> None:
    """FFT (play.no_called_suit_first_lead: everyone): seat 1 leads the first trick against seat 2's call
    of the king of hearts; holding it, he may open with it, not with another heart, and a rules lawyer
    asking why is told the rule. From the second trick on his hearts may be led."""
    state = garde_sans_by(2, {1: "KH 2H 5H 21T 3S"}, "KH")
    legal = {LAYOUT.name(c) for c in iter_bits(state.legal_mask())}
    assert "KH" in legal and not {"2H", "5H"} & legal and {"21T", "3S"} <= legal
    why = reasons(state, 1)
    assert why["2H"] == (False, "no one may lead the called suit (♥) to the first trick, except with the called card itself")
    assert why["KH"][0] and why["3S"][0]
    with pytest.raises(IllegalAction, match="no one may lead the called suit"):
        state.apply(LAYOUT.parse("5H"))
    say(state, "3S")
    while not state.finished_tricks():
        state.apply(state.legal_actions()[0])
    assert state.legal_mask() == state.hand_of(state.current_player())  # the bar is the first trick's only


def test_the_bar_binds_a_seat_that_does_not_hold_the_king_and_the_taker_too() -> None:
    """Whoever leads is barred, holding the king or not: the taker himself leading against his own call."""
    state = garde_sans_by(1, {1: "2H 5H 21T 3S", 3: "KH"}, "KH")
    legal = {LAYOUT.name(c) for c in iter_bits(state.legal_mask())}
    assert not {"2H", "5H"} & legal and {"21T", "3S"} <= legal


@pytest.mark.parametrize(("reading", "taker", "barred"), [
    ("declarer", 2, False),  # T5-seed: a defender (or the partner) leading is free
    ("declarer", 1, True),  # ... the taker leading is not
    ("free", 1, False),
])
def test_the_called_suit_lead_option(reading: str, taker: int, barred: bool) -> None:
    """Option called_suit_lead: the taker alone is barred (declarer), or no one (free)."""
    rs = build_ruleset("tarot", {"players": 5, "deals": 1, "called_suit_lead": reading})
    state = garde_sans_by(taker, {1: "2H 5H 21T 3S", 3: "KH"}, "KH", rs)
    legal = {LAYOUT.name(c) for c in iter_bits(state.legal_mask())}
    assert ({"2H", "5H"} <= legal) == (not barred) and bool({"2H", "5H"} & legal) == (not barred)
    if barred:
        assert reasons(state, 1)["5H"] == (False, "the caller may not lead the called suit (♥) to the first trick, "
                                                  "except with the called card itself")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_the_first_lead_is_never_left_without_a_card_nor_opens_the_called_suit_but_with_its_card(seed: int) -> None:
    """Random deals: a seat to play always has a legal card; the first trick's lead is a card of the
    called card's suit only when it is the called card or the leader holds nothing else."""
    rs = build_ruleset("tarot", {"players": 5, "deals": 2})
    for event, state in random_hands(GameState(rs, seed=seed), random.Random(seed), 2):
        if event != "decide" or state.phase != "play" or not state.plays_a_card():
            continue
        legal = state.legal_mask()
        assert legal
        called = state.called
        if called >= 0 and not state.finished_tricks() and not state.current_trick()[1]:
            suit = state.context.suit_mask[state.context.card_suit[called]]
            hand = state.hand_of(state.current_player())
            assert not legal & suit & ~(1 << called) or not hand & ~suit


def test_the_called_suit_bar_needs_a_call(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """play.no_called_suit_first_lead where no contract calls a card: an error with a hint."""
    path = tmp_path / "nocall.yaml"
    path.write_text("extends: couillon\nid: nocall\nname: No call\nplay:\n  no_called_suit_first_lead: everyone\n",
                    encoding="utf-8")
    found = [d for d in check(load_ruleset(str(path))) if d.code == "called-suit-lead-without-call"]
    assert [(d.severity, d.pointer) for d in found] == [("error", "/play/no_called_suit_first_lead")]
    assert "contracts.<id>.call" in (found[0].hint or "")


def test_the_setting_put_in_the_call_is_told_where_it_belongs(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A known key in the wrong mapping: the schema error names the mapping that takes it."""
    path = tmp_path / "misplaced.yaml"
    path.write_text("extends: tarot\nid: misplaced\nname: Misplaced\ncontracts:\n  garde:\n"
                    "    call: {cards: [KS], no_called_suit_first_lead: everyone}\n", encoding="utf-8")
    found = [d for d in check(load_ruleset(str(path))) if d.code == "schema-additional-property"]
    assert found and found[0].hint == "'no_called_suit_first_lead' is a key of play, not of contracts.garde.call"


def test_after_the_excuse_is_led_the_card_that_sets_the_suit_is_free() -> None:
    """Our reading: the bar binds the card that leads; the Excuse leads, and the next card, which sets
    the suit, is played to a trick already led: a heart other than the called king may be."""
    state = garde_sans_by(2, {1: "EX 3S", 2: "2H 5H 21T"}, "KH")
    say(state, "EX")
    assert {"2H", "5H", "21T"} <= {LAYOUT.name(c) for c in iter_bits(state.legal_mask())}
