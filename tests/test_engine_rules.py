"""The engine against hand-checked rules: follow positions P1-P7 and worked hands of digest §2.

Seats follow digest §0.2 for a hand dealt by seat 0: D = 0 (dealer), L = 1 (elder), P = 2
(dealer's partner), R = 3. Team 0 is D+P, team 1 is L+R. Cards are written ``AS``, ``10H``.
"""
from __future__ import annotations

import dataclasses
import random

import pytest

from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset, compile_ruleset
from couillon_dsl.diagnostics import RulesetError
from couillon_dsl.engine import CHANCE, TERMINAL, GameState, HandSummary, IllegalAction, explain_legal, explain_trick
from couillon_dsl.engine.fields import FIELDS
from couillon_dsl.engine.tables import OP_PACKET, OP_SET_ASIDE, OP_STOCK
from couillon_dsl.loader import load_ruleset
from couillon_dsl.model import Choose, Offer, Ruleset
from example_games import FOLDER, HEARTS

D, L, P, R = 0, 1, 2, 3
DP, LR = 0, 1  # teams of a hand dealt by seat 0

_CACHE: dict[tuple[str, tuple[tuple[str, object], ...]], Ruleset] = {}


def ruleset(name: str, **options: object) -> Ruleset:
    key = (name, tuple(sorted(options.items())))
    if key not in _CACHE:
        _CACHE[key] = build_ruleset(name, options)
    return _CACHE[key]


def patched(name: str, change: dict[str, object]) -> Ruleset:
    """A built-in ruleset with a merge patch applied to its data (for rules no built-in uses)."""
    document = load_ruleset(name)
    data = dict(document.data)
    for section, values in change.items():
        data[section] = {**data.get(section, {}), **values} if isinstance(values, dict) else values  # type: ignore[dict-item]
    return compile_ruleset(dataclasses.replace(document, data=data))


def deal(state: GameState, hands: dict[int, str], stock: str = "", aside: str = "") -> None:
    """Apply the chance actions that deal ``hands`` (each seat's cards in dealing order)."""
    rs = state.ruleset
    parse = rs.layout.parse
    pack: list[int | None] = [None] * rs.layout.size
    queues = {seat: [parse(c) for c in cards.split()] for seat, cards in hands.items()}
    for op in rs.tables.deal_plans[state.dealer]:
        if op[0] == OP_PACKET:
            for seat, start, stop in op[2]:  # type: ignore[attr-defined]
                for pos in range(start, stop):
                    if queues.get(seat):
                        pack[pos] = queues[seat].pop(0)
        elif op[0] == OP_STOCK:
            for i, card in enumerate(stock.split()):
                pack[op[1] + i] = parse(card)  # type: ignore[operator]
        elif op[0] == OP_SET_ASIDE:
            for i, card in enumerate(aside.split()):
                pack[op[1] + i] = parse(card)  # type: ignore[operator]
    assert not any(queues.values()), "more cards given than the deal hands out"
    free = [c for c in range(rs.layout.size) if c not in pack]
    for card in pack:
        assert state.current_player() == CHANCE
        state.apply(card if card is not None else free.pop(0))


def say(state: GameState, *words: str) -> None:
    for word in words:
        state.apply(state.string_to_action(state.current_player(), word))


def legal_names(state: GameState) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def play(state: GameState, cards: str) -> None:
    for name in cards.split():
        state.apply(state.ruleset.layout.parse(name))


def tricks(state: GameState, *lines: str) -> list[int]:
    """Play whole tricks, each a line of cards in play order; returns the winning seats."""
    winners = []
    for line in lines:
        before = len(state.finished_tricks())
        hands_before = len(state.hands)
        play(state, line)
        log = state.hands[-1].played_tricks if len(state.hands) > hands_before else state.finished_tricks()
        winners.append(log[before][2])
    return winners


def reasons(state: GameState, seat: int) -> dict[str, tuple[bool, str]]:
    return {state.ruleset.layout.name(c): (ok, why) for c, ok, why in explain_legal(state, seat)}


def trump_name(state: GameState) -> str | None:
    return None if state.trump is None else state.ruleset.layout.suits[state.trump]


# ---------------------------------------------------------------------- follow positions
def legal_in(rs: Ruleset, trump: str, trick: str, hand: str, promoted: int = 0) -> set[str]:
    """The engine's legal cards for ``hand`` after ``trick`` under trump suit ``trump``."""
    layout = rs.layout
    ctx = rs.tables.context(layout.suits.index(trump), promoted)
    cards = [layout.parse(c) for c in trick.split()]
    led = ctx.card_suit[cards[0]]
    win = max(cards, key=ctx.strength[led].__getitem__)
    mask = ctx.legal(layout.parse_mask(hand), led, win, sum(1 << c for c in cards))
    return set(layout.format_mask(mask).split())


POSITIONS = {  # digest §2.0: trick so far, hand, legal set per ruleset (trump hearts)
    "P1": ("AS QS", "9S 10H KC", {"couillon": "9S 10H", "kwajongen": "9S", "troeven": "9S", "couillon-ardennes": "9S"}),
    "P2": ("AS QS", "AD 9D KH", {"couillon": "AD 9D KH", "kwajongen": "KH", "troeven": "AD 9D KH", "couillon-ardennes": "KH"}),
    "P3": ("AS JH", "AD QH 10H", {"couillon": "AD QH 10H", "kwajongen": "QH 10H", "troeven": "AD QH 10H",
                                  "couillon-ardennes": "QH"}),
    "P4": ("JS", "KS 9S AH", {"couillon": "KS 9S AH", "kwajongen": "KS 9S", "troeven": "KS 9S", "couillon-ardennes": "KS"}),
    "P5": ("KH", "QH AH AS", {"couillon": "QH AH", "kwajongen": "QH AH", "troeven": "QH AH", "couillon-ardennes": "AH"}),
}


@pytest.mark.parametrize("position", sorted(POSITIONS))
@pytest.mark.parametrize("name", ["couillon", "kwajongen", "troeven", "couillon-ardennes"])
def test_follow_positions_p1_to_p5(position: str, name: str) -> None:
    trick, hand, expected = POSITIONS[position]
    assert legal_in(ruleset(name), "H", trick, hand) == set(expected[name].split())


def test_declared_mit_is_a_trump_for_following_p6_p7() -> None:
    rs = ruleset("kujong")
    mit = 1  # promotion bit of the only promotion
    assert legal_in(rs, "D", "AS", "QS KS 9C", promoted=mit) == {"QS", "KS"}  # P6: follow or trump
    assert legal_in(rs, "D", "KD", "QS AS 9C", promoted=mit) == {"QS"}  # P7: the Mit is the only trump
    assert legal_in(rs, "D", "KD", "QS AS 9C") == {"QS", "AS", "9C"}  # undeclared, the QS is a spade


def test_mit_ranks_directly_below_the_trump_ace_and_wins_tricks() -> None:
    rs = ruleset("kujong")
    layout = rs.layout
    for trump in ("S", "D"):
        ctx = rs.tables.context(layout.suits.index(trump), 1)
        st = ctx.strength[layout.suits.index(trump)]
        order = sorted((c for c in range(layout.size) if ctx.trump_mask >> c & 1), key=lambda c: -st[c])
        assert [layout.name(c) for c in order[:3]] == [f"A{trump}", "QS", f"K{trump}"]


def test_undertrump_ban_and_exempt_bour() -> None:
    rs = patched("couillon", {"play": {"first_lead": "elder", "follow": {
        "led_suit": "follow_or_trump", "when_void": "any", "undertrump": "only_when_forced", "exempt": ["JT"]}}})
    # plain suit led and already trumped with the KH: no lower trump while another card is legal
    assert legal_in(rs, "H", "AS KH", "QS 10H AH") == {"QS", "AH"}
    assert legal_in(rs, "H", "AS KH", "AD 10H") == {"AD"}
    assert legal_in(rs, "H", "AS KH", "QH 10H") == {"QH", "10H"}  # nothing but trumps: forced
    # trumps led: the trump jack is never forced out
    assert legal_in(rs, "H", "KH", "JH AS 9D") == {"JH", "AS", "9D"}
    assert legal_in(rs, "H", "KH", "JH 9H AS") == {"JH", "9H"}


def test_head_when_trumped_keeps_the_heading_duty() -> None:
    plain = ruleset("couillon-ardennes")
    strict = ruleset("couillon-ardennes", head_when_trumped=True)
    assert legal_in(plain, "H", "JS 9H", "KS 9S") == {"KS", "9S"}
    assert legal_in(strict, "H", "JS 9H", "KS 9S") == {"KS"}


# ---------------------------------------------------------------------- worked hands
def test_couillon_worked_hand_2_1_and_its_legal_sets() -> None:
    st = GameState(ruleset("couillon"))
    deal(st, {L: "AH 10H KC 9S", P: "KH AD 9D JC", R: "QH AS AC 10D", D: "JH KS QS QC"},
         stock="9H KD QD JD JS 10S 10C 9C")
    assert st.view(L).offered == st.ruleset.layout.parse("9H")
    say(st, "pass", "accept")
    assert (trump_name(st), st.view(D).maker, st.current_player()) == ("H", DP, L)  # L leads, not P
    assert tricks(st, "AH KH QH JH", "KC JC AC QC") == [L, R]
    play(st, "AS KS")
    assert legal_names(st) == {"9S", "10H"}
    assert reasons(st, L) == {"9S": (True, "follows suit (♠ led)"), "10H": (True, "trumps (instead of following)")}
    play(st, "9S")
    assert legal_names(st) == {"AD", "9D"}
    play(st, "9D")
    assert tricks(st, "10D QS 10H AD") == [L]
    hand = st.hands[-1]
    assert (hand.points, hand.tricks, hand.outcome, hand.winner) == ((0, 33), (0, 4), "winner", LR)
    assert hand.points_in_play == 40 - 7  # the stock holds 7 points
    assert hand.scores == (6, 4)  # L+R erases a line; the beaten maker D+P draws a loop
    assert hand.decisions == ((L, "pass"), (P, "accept")) and hand.trump_path == "accepted"


def test_ardennes_worked_hand_2_2_declarer_leads_heads_and_overtrumps() -> None:
    st = GameState(ruleset("couillon-ardennes"))
    deal(st, {L: "AH 10H KC 9S", P: "KH AD 9D JC", R: "QH AS AC 10D", D: "JH KS QS QC"},
         stock="9H KD QD JD JS 10S 10C 9C")
    say(st, "pass", "pass", "accept")
    assert st.current_player() == R  # the declarer leads
    play(st, "AS QS 9S")
    assert legal_names(st) == {"KH"}  # void in spades: must trump
    play(st, "KH AD 10D JH")
    assert legal_names(st) == {"AH"}  # must overtrump the JH
    assert reasons(st, L)["10H"] == (False, "must overtrump ♥J")
    assert reasons(st, L)["KC"] == (False, "void in ♦: must trump")
    play(st, "AH")
    assert explain_trick(st, 1) == "♥A is the highest trump"
    play(st, "KC JC")
    assert legal_names(st) == {"AC"}  # must head
    play(st, "AC QC")
    assert tricks(st, "QH KS 10H 9D") == [R]  # L cannot overtrump but must still trump
    hand = st.hands[-1]
    assert (hand.points, hand.scores) == ((9, 24), (5, 4))


def test_force_worked_hand_2_3_shown_trump() -> None:
    st = GameState(ruleset("couillon-force"))
    _force_pack_with_third_packets(st)
    assert st.view(L).hand.bit_count() == 4  # the third packets come after the decision
    assert legal_names(st) == {"defer", "show AS", "show KS", "show 9H", "show QD"}
    say(st, "show QD")
    assert st.current_player() == L and st.view(R).face_up == ((st.ruleset.layout.parse("QD"), L),)
    assert st.view(L).hand.bit_count() == 6
    assert tricks(st, "AS 9S JS 10D", "KD QD 9D AD", "AC JD 9C JC", "QH 9H AH 10H", "KH JH QC 10S",
                  "10C KC QS KS") == [D, R, D, P, P, R]
    hand = st.hands[-1]
    assert (hand.maker, hand.points, hand.scores, hand.trump_path) == (LR, (23, 17), (4, 6), "shown")


def _force_pack_with_third_packets(st: GameState) -> None:
    deal(st, {L: "AS KS 9H QD 10S 9C", P: "AH KH 10C 9D JC 9S", R: "AC KC AD 10H JS JH", D: "KD JD 10D QC QH QS"})


def test_force_deferral_turns_the_first_card_of_the_next_packet() -> None:
    st = GameState(ruleset("couillon-force"))
    _force_pack_with_third_packets(st)
    say(st, "defer")
    layout = st.ruleset.layout
    assert trump_name(st) == "S"  # 10S is the first card of L's third packet
    assert (layout.parse("10S"), L) in st.view(P).face_up
    hand_maker = st.view(P).maker
    assert hand_maker == LR  # maker_after_fallback: elder_team
    nobody = GameState(ruleset("couillon-force", maker_when_turned="none"))
    _force_pack_with_third_packets(nobody)
    say(nobody, "defer")
    assert nobody.view(P).maker is None


def test_kwajongen_worked_hand_2_4_after_a_passed_out_deal() -> None:
    st = GameState(ruleset("kwajongen"))
    deal(st, {})
    say(st, "pass", "pass", "pass", "pass")
    passed = st.hands[-1]
    assert (passed.outcome, passed.trump_path, passed.scores) == ("passed_out", "redeal", (10, 10))
    assert st.dealer == 1  # the next player deals
    d, l, p, r = 1, 2, 3, 0  # noqa: E741 - the digest's seats; L+R is team 0 and D+P team 1
    deal(st, {l: "AH KH AC AS", p: "9H 9S KD 9C", r: "QH KS AD KC", d: "10H JH 9D 10C"})
    assert st.view(r).face_up == ((st.ruleset.layout.parse("10H"), d),)
    say(st, "pass", "accept")
    play(st, "AH")
    assert reasons(st, p)["9S"] == (False, "must follow the trump lead (♥)")
    play(st, "9H QH 10H")
    assert tricks(st, "KH 9C AD JH", "AC KD KC 10C", "AS 9S KS 9D") == [l, l, l]
    hand = st.hands[-1]
    assert (hand.points, hand.all_tricks, hand.maker) == ((31, 0), True, 1)
    assert hand.scores == (7, 11)  # 10 - 1 - 1 (all tricks) - 1 (pass bonus); maker +1


def test_troeven_worked_hand_2_5_named_trump() -> None:
    st = GameState(ruleset("troeven"))
    deal(st, {L: "AC KC 7C AH 9C 7S 10S JD", P: "QH 8S 9D JC KH 9S AS 10C", R: "KS QS 7D 10H JH 8D 9H QC",
              D: "AD KD QD 8C JS 10D 7H 8H"})
    assert st.current_player() == L and st.view(L).hand.bit_count() == 4
    say(st, "name H")
    assert tricks(st, "AH QH JH 7H", "AC 10C QC 8C") == [L, L]
    play(st, "KC JC")
    assert reasons(st, R)["KS"] == (True, "void in ♣: any card")  # no obligation to trump
    play(st, "KS 8H")
    assert tricks(st, "AD JD 9D 7D", "KD 7C AS 8D", "QD 9C KH 9H", "9S QS JS 7S", "10H 10D 10S 8S") == [D, D, P, R, R]
    hand = st.hands[-1]
    assert (hand.points, hand.scores, hand.trump_path) == ((24, 16), (6, 8), "named")


def test_kujong_worked_hand_2_6_with_the_mit() -> None:
    st = GameState(ruleset("kujong"))
    deal(st, {L: "AH AC 10D 9H 7S QC", P: "QS KH 9C 10H AS JD", R: "JH KC 8D QH 8C 7D", D: "AD KD 7H 8H KS JC"},
         aside="JS 10S 9S 8S QD 9D 10C 7C")
    say(st, "name H")
    play(st, "AH")
    assert st.current_player() == P and legal_names(st) == {"KH", "10H", "announce mit"}
    say(st, "announce mit")
    assert legal_names(st) == {"QS", "KH", "10H"}  # the Mit follows the trump lead
    play(st, "10H QH 7H")
    assert tricks(st, "9H KH JH 8H", "QS 8D AD 10D", "AS 8C KS 7S", "JD 7D KD QC", "JC AC 9C KC") == [P, P, P, D, L]
    hand = st.hands[-1]
    assert hand.announcements == (("mit", P),)
    assert (hand.points, hand.points_in_play, hand.scores) == ((23, 14), 37, (7, 10))


def test_mit_worked_hand_2_7_with_kontra() -> None:
    st = GameState(ruleset("mit"))
    deal(st, {L: "AC KC 9H JC 10D", P: "AH 10C 9S KS 9D", R: "QS KH JD QC JH", D: "AS KD 10H AD QH"},
         aside="JS 10S QD 9C")
    say(st, "name C")
    play(st, "AC 10C")
    say(st, "announce mit")
    assert st.current_player() == D  # Kontra is offered from R's left: D, then P
    say(st, "no", "announce kontra")
    assert st.current_player() == R  # Re is offered to the Mit team from P's left: R, then L
    say(st, "no", "no")
    play(st, "QC 10H")
    assert tricks(st, "KC 9S QS QH", "KH KD JC AH", "10D 9D JD AD", "AS 9H KS JH") == [R, L, D, D]
    hand = st.hands[-1]
    assert hand.announcements == (("mit", R), ("kontra", P))
    assert (hand.points, hand.scores) == ((13, 24), (13, 10))


def test_mit_six_players_worked_hand_2_8() -> None:
    st = GameState(ruleset("mit-6"))
    deal(st, {1: "AD KD JD 9H", 2: "AH 9S KC 10S", 3: "QS 10C QD JC", 4: "AS JH KS 10D", 5: "KH 9C JS 10H",
              0: "AC QH QC 9D"})
    say(st, "name D")
    play(st, "AD 9S")
    assert "announce mit" in legal_names(st)
    play(st, "QD 10D KH 9D")  # seat 3 plays without announcing: his QS stays an ordinary spade
    assert tricks(st, "KD 10S QS JH JS QH", "JD KC JC KS 9C QC", "9H AH 10C AS 10H AC") == [1, 1, 2]
    hand = st.hands[-1]
    assert (hand.points, hand.scores) == ((12, 28), (13, 12))


# ---------------------------------------------------------------------- trump procedures
def test_all_pass_turns_the_bottom_card_and_nobody_is_maker() -> None:
    st = GameState(ruleset("couillon"))
    deal(st, {}, stock="9H KD QD JD JS 10S 10C 9C")
    say(st, "pass", "pass", "pass", "pass")
    assert trump_name(st) == "C" and st.view(L).maker is None and st.current_player() == L
    layout = st.ruleset.layout
    assert (layout.parse("9C"), None) in st.view(L).face_up


def test_a_trump_method_without_its_settings_block_takes_the_defaults() -> None:
    for name, method, expected in (("couillon", "offer", Offer()), ("troeven", "choose", Choose())):
        document = load_ruleset(name)
        rs = compile_ruleset(dataclasses.replace(document, data={**document.data, "trump": {"method": method}}))
        assert getattr(rs.trump, method) == expected


def test_bottom_card_maker_can_be_the_elder_team() -> None:
    rs = patched("couillon", {"trump": {"method": "offer", "offer": {"on_all_pass": "bottom_card"},
                                        "maker_after_fallback": "elder_team"}})
    st = GameState(rs)
    deal(st, {})
    say(st, "pass", "pass", "pass", "pass")
    assert st.view(L).maker == LR


def test_next_card_reoffer_and_exhausted_stock_redeal() -> None:
    st = GameState(ruleset("couillon-ardennes"))
    deal(st, {}, stock="9H KD QD JD JS 10S 10C 9C")
    layout = st.ruleset.layout
    say(st, "pass", "pass", "pass", "pass")
    assert st.view(D).offered == layout.parse("KD") and st.current_player() == L
    say(st, "pass", "pass", "accept")
    assert (trump_name(st), st.view(D).maker, st.current_player()) == ("D", LR, R)
    # a dealer-first re-offer, then a redeal once all eight stock cards are refused
    st = GameState(ruleset("couillon-ardennes", reoffer_first_speaker="dealer"))
    deal(st, {})
    say(st, "pass", "pass", "pass", "pass")
    assert st.current_player() == D
    for _ in range(7 * 4):
        say(st, "pass")
    assert st.hands[-1].outcome == "passed_out" and st.dealer == 1 and st.current_player() == CHANCE


def test_redeals_are_bounded_by_the_limit() -> None:
    st = GameState(ruleset("kwajongen"))
    rng = random.Random(3)
    while not st.is_terminal():
        if st.current_player() == CHANCE:
            st.deal_shuffled(rng)
        else:
            say(st, "pass")
    result = st.result
    assert result is not None and result.abandoned and result.winner is None
    assert result.hands == st.ruleset.limits.max_redeals_in_a_row + 1


def test_max_hands_abandons_the_game() -> None:
    rs = patched("couillon", {"limits": {"max_hands": 3, "max_redeals_in_a_row": 50}})
    state = GameState(rs)
    state.play_random(random.Random(1))
    assert state.result is not None and state.result.abandoned and state.result.hands == 3


def test_max_games_abandons_an_undecided_session_after_its_last_game() -> None:
    rs = patched("couillon", {"session": {"games_to_win": 2}, "limits": {"max_games": 2}})
    for seed in range(40):  # some sessions split one game each: those are abandoned
        state = GameState(rs)
        state.play_random(random.Random(seed))
        result = state.result
        assert result is not None and len(result.games) == 2 and all(g.winner is not None for g in result.games)
        split = result.games[0].winner != result.games[1].winner
        assert result.abandoned == split and (result.winner is None) == split
        if split:
            return
    raise AssertionError("no session split its two games")


def test_named_trump_need_not_be_held_and_is_offered_for_every_suit() -> None:
    st = GameState(ruleset("troeven"))
    deal(st, {L: "AC KC 7C 9C"})
    assert legal_names(st) == {"name S", "name H", "name D", "name C"}
    say(st, "name H")
    assert trump_name(st) == "H" and st.view(P).maker == LR


def test_mit_deferral_turns_the_top_card_of_the_last_packet() -> None:
    st = GameState(ruleset("mit"))
    deal(st, {L: "AC KC 9H JC 10D"})
    say(st, "defer")
    assert trump_name(st) == "C"  # JC is the first card of L's last packet
    assert st.view(L).maker == LR  # maker_after_fallback: elder_team


# ---------------------------------------------------------------------- scoring, ties, carries
def _hand(st: GameState, hands: dict[int, str], stock: str, words: tuple[str, ...], plays: tuple[str, ...]) -> None:
    deal(st, hands, stock=stock)
    say(st, *words)
    tricks(st, *plays)


# Hands found by random search and checked by replay; dealer of each is noted.
HAND_2_1 = ({L: "AH 10H KC 9S", P: "KH AD 9D JC", R: "QH AS AC 10D", D: "JH KS QS QC"},
            "9H KD QD JD JS 10S 10C 9C", ("pass", "accept"),
            ("AH KH QH JH", "KC JC AC QC", "AS KS 9S 9D", "10D QS 10H AD"))
TIE_BY_1 = ({0: "9H JD 10S AC", 1: "9C KH JS 9S", 2: "KC AH 10D 10C", 3: "AD KD AS KS"},  # dealer 1: 15-15
            "10H QC QS JH QD JC 9D QH", ("accept",),
            ("KC KD 9H 9C", "JD 9S AH AD", "10D KS 10S KH", "JS 10C AS AC"))


def test_a_tie_scores_nothing_and_doubles_the_next_decided_hand() -> None:
    st = GameState(ruleset("couillon"))
    _hand(st, *HAND_2_1)
    assert st.hands[-1].scores == (6, 4)
    _hand(st, *TIE_BY_1)
    tie = st.hands[-1]
    assert (tie.outcome, tie.points, tie.scores, tie.deltas) == ("tie", (15, 15), (6, 4), (0, 0))
    assert st.view(0).ties_pending == 1
    # hand 3: all pass, the bottom card fixes trump (no maker), D+P wins and erases two units
    _hand(st, *BOTTOM_CARD_BY_2)
    hand3 = st.hands[-1]
    assert (hand3.trump_path, hand3.maker, hand3.winner, hand3.multiplier) == ("bottom_card", None, DP, 2)
    assert hand3.scores == (4, 4)
    assert st.view(0).ties_pending == 0


BOTTOM_CARD_BY_2 = ({0: "9D 10H QC 9S", 1: "JS QH KS KH", 2: "10C 9C JH AC", 3: "QS KD AS AD"},  # dealer 2
                    "JC AH 10D QD JD 9H 10S KC", ("pass", "pass", "pass", "pass"),
                    ("AD 9D JS 9C", "JH KD QC QH", "9S KS AC AS", "10C QS 10H KH"))


def test_cumulative_double_and_doubled_loops_after_a_tie() -> None:
    st = GameState(ruleset("couillon", tie_carry="cumulative_double", tie_doubles_penalty=True))
    st.set_scoresheet((5, 5), ties=2)
    _hand(st, *HAND_2_1)  # after two ties in a row everything counts four times
    hand = st.hands[-1]
    assert (hand.multiplier, hand.deltas, hand.scores) == (4, (4, -4), (9, 1))
    assert st.view(0).ties_pending == 0
    # Ardennes: the hand after a tie doubles the beaten declarer's loops too
    st = GameState(ruleset("couillon-ardennes"))
    st.set_scoresheet((5, 5), ties=1)
    deal(st, {L: "AH 10H KC 9S", P: "KH AD 9D JC", R: "QH AS AC 10D", D: "JH KS QS QC"},
         stock="9H KD QD JD JS 10S 10C 9C")
    say(st, "pass", "accept")  # P declares for D+P and leads
    hand = _finish_first_legal(st)
    assert (hand.maker, hand.winner, hand.multiplier) == (DP, LR, 2)
    assert hand.deltas == (2, -2)  # the beaten declarer's loops are doubled too (tie_doubles_penalty)


def _finish_first_legal(st: GameState) -> HandSummary:
    """Play the rest of the hand with each player's lowest legal card."""
    count = len(st.hands)
    while len(st.hands) == count:
        st.apply(st.legal_actions()[0])
    return st.hands[-1]


def test_ardennes_tie_is_replayed_by_the_same_dealer() -> None:
    st = GameState(ruleset("couillon-ardennes"))
    rng = random.Random(7)
    while not st.hands or st.hands[-1].outcome != "tie":
        st.set_scoresheet((5, 5))  # keep the game running until a tie comes up
        dealer = st.dealer
        st.deal_shuffled(rng)
        while st.current_player() >= 0:
            st.apply(rng.choice(st.legal_actions()))
    assert st.dealer == dealer and st.view(0).ties_pending == 1


def test_kwajongen_tie_costs_the_maker_and_keeps_the_pass_bonus() -> None:
    st = GameState(ruleset("kwajongen"))
    st.set_scoresheet((10, 10), passes=1)
    rng = random.Random(11)
    while not st.hands or st.hands[-1].outcome != "tie":
        st.set_scoresheet((10, 10), passes=1)
        st.deal_shuffled(rng)
        while st.current_player() >= 0:
            st.apply(rng.choice(st.legal_actions()))
    tie = st.hands[-1]
    assert tie.maker is not None and tie.deltas[tie.maker] == 1 and sum(tie.deltas) == 1
    assert st.view(0).passes_pending == 1


@pytest.mark.parametrize("carry, expected", [("single", 1), ("cumulative", 3), ("none", 0)])
def test_pass_carry_counts_passed_out_deals(carry: str, expected: int) -> None:
    st = GameState(ruleset("kwajongen", pass_carry=carry))
    for _ in range(3):
        deal(st, {})
        say(st, "pass", "pass", "pass", "pass")
    assert st.view(0).passes_pending == expected


def test_the_game_ends_at_the_goal_and_sessions_need_several_games() -> None:
    st = GameState(ruleset("couillon"))
    st.set_scoresheet((6, 1))
    _hand(st, *HAND_2_1)
    result = st.result
    assert st.is_terminal() and st.current_player() == TERMINAL and st.legal_actions() == []
    assert result is not None and (result.winner, result.scores, result.games_won, result.abandoned) == (LR, (7, 0), (0, 1), False)
    session = GameState(ruleset("kujong"))
    session.play_random(random.Random(5))
    result = session.result
    assert result is not None and max(result.games_won) == 2 and len(result.games) == sum(result.games_won)
    assert result.winner == result.games_won.index(2)
    assert all(game.scores[game.winner] <= 0 for game in result.games)  # type: ignore[index]


# ---------------------------------------------------------------------- API
def test_actions_are_sorted_printable_and_refused_with_a_reason() -> None:
    st = GameState(ruleset("couillon"))
    assert st.current_player() == CHANCE
    outcomes = st.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(24)) and sum(p for _, p in outcomes) == pytest.approx(1)
    deal(st, {L: "AH 10H KC 9S", P: "KH AD 9D JC", R: "QH AS AC 10D", D: "JH KS QS QC"},
         stock="9H KD QD JD JS 10S 10C 9C")
    with pytest.raises(IllegalAction, match="not legal in phase offer"):
        st.apply(st.ruleset.layout.parse("AH"))
    say(st, "accept")
    for action in range(st.actions.dealer0 + 4):
        text = st.action_to_string(action)
        assert st.string_to_action(None, text) == action
    play(st, "AH")
    legal = st.legal_actions()
    assert legal == sorted(legal)
    with pytest.raises(IllegalAction, match=r"AD is illegal: must follow the trump lead \(♥\)"):
        play(st, "AD")
    with pytest.raises(IllegalAction, match="AS is not in seat 2's hand"):
        play(st, "AS")


def test_clone_is_independent_and_history_replays_exactly() -> None:
    rs = ruleset("mit")
    st = GameState(rs)
    rng = random.Random(2)
    st.deal_shuffled(rng)
    copy = st.clone()
    st.play_random(rng)
    assert copy.history() != st.history() and not copy.is_terminal()
    replay = GameState(rs)
    for action in st.history():
        replay.apply(action)
    assert replay.result == st.result and replay.hands == st.hands


def random_step(st: GameState, rng: random.Random) -> int:
    """Resolve a chance node, or pick a random legal action (returned, not applied; -1 after a deal)."""
    if st.is_chance_node():
        st.deal_shuffled()
        return -1
    legal = st.legal_actions()
    return legal[int(rng.random() * len(legal))]


@pytest.mark.parametrize("name", ["schieber", "tarot", "kujong"])
def test_clone_copies_every_field_and_shares_no_container_a_move_changes(name: str) -> None:
    """clone is written out field by field: every field is set to the original's value, the lists
    and dicts as copies, everything else (ints, tuples, the ruleset's tables) as the same object."""
    st = GameState(ruleset(name), seed=3)  # seeded: the state has a generator of its own, which the clone copies
    rng = random.Random(3)
    while len(st.finished_tricks()) < 2:
        action = random_step(st, rng)
        if action >= 0:
            st.apply(action)
    copy = st.clone()
    for field in FIELDS:
        mine, theirs = getattr(st, field), getattr(copy, field)
        if field == "_rng":
            assert theirs is not mine and theirs.getstate() == mine.getstate()
        elif type(mine) is list or type(mine) is dict:
            assert theirs == mine and theirs is not mine, field
        else:
            assert theirs is mine, field


@pytest.mark.parametrize("name", ["couillon-ardennes", "kujong", "tarot"])
def test_public_accessors_read_what_every_seat_view_shows(name: str) -> None:
    """offered, scores, games_won and hand_number: the seat views' values, without building one."""
    st = GameState(ruleset(name), seed=1)
    rng = random.Random(1)
    while not st.is_terminal():
        view = st.view(len(st.hands) % ruleset(name).players.count)
        assert (st.offered, st.scores, st.games_won, st.hand_number) == \
            (view.offered, view.scores, view.games_won, view.hand_number)
        action = random_step(st, rng)
        if action >= 0:
            st.apply(action)


@pytest.mark.parametrize("name", ["couillon", "schieber", "tarot"])
def test_play_card_is_apply_without_the_check(name: str) -> None:
    rs = ruleset(name)
    for seed in range(2):
        checked, unchecked = GameState(rs, seed=seed), GameState(rs, seed=seed)
        rng = random.Random(seed)
        while not checked.is_terminal():
            action = random_step(checked, rng)
            if action < 0:
                unchecked.deal_shuffled()
                continue
            playing = unchecked.is_playing() and action < rs.layout.size
            checked.apply(action)
            if playing:
                unchecked.play_card(action)
            else:
                unchecked.apply(action)
        assert unchecked.history() == checked.history() and unchecked.result == checked.result
        assert unchecked.hands == checked.hands


def test_random_first_dealer_is_a_chance_action() -> None:
    rs = patched("couillon", {"dealer": {"first": "random", "rotation": "next"}})
    st = GameState(rs)
    assert st.current_player() == CHANCE and len(st.chance_outcomes()) == 4
    st.apply(st.actions.dealer0 + 2)
    assert st.dealer == 2 and st.action_to_string(st.history()[0]) == "dealer 2"


# ---------------------------------------------------------------------- options
def test_options_set_values_and_apply_patches() -> None:
    assert ruleset("couillon", lines="7").scoresheet.start == 7
    assert ruleset("couillon", lines=7).options["lines"].value == 7
    assert "tie_maker" not in [r.name for r in ruleset("troeven").scoring]
    assert "tie_maker" in [r.name for r in ruleset("troeven", tie_counts_as_maker_loss="true").scoring]
    assert ruleset("mit-6", pack=32).layout.size == 32


def test_unknown_options_and_bad_values_are_diagnostics() -> None:
    with pytest.raises(RulesetError) as unknown:
        ruleset("couillon", line=7)
    assert unknown.value.diagnostics[0].code == "unknown-option"
    assert unknown.value.diagnostics[0].hint == "did you mean 'lines'?"
    with pytest.raises(RulesetError) as bad:
        ruleset("couillon", lines=0)
    assert bad.value.diagnostics[0].code == "bad-option-value"
    with pytest.raises(RulesetError) as choice:
        ruleset("couillon", tie_carry="sometimes")
    assert choice.value.diagnostics[0].code == "bad-option-value"


def test_a_lead_held_back_until_broken() -> None:
    """`play.lead_once_broken` (Hearts' hearts): not led while none has been played to a trick,
    unless the leader holds nothing else; the engine's refusal says why."""
    rs = patched("couillon", {"play": {"lead_once_broken": [{"suit": "H"}]}})
    state = GameState(rs)
    deal(state, {1: "AH KH QH 9S", 2: "JH 10H 9H AS", 3: "KS QS JS 10S", 0: "AC KC QC JC"}, stock="AD KD QD JD")
    say(state, "accept")  # the elder takes the turned-up ace of diamonds: trump
    legal = [rs.layout.name(c) for c in iter_bits(state.legal_mask())]
    assert legal == ["9S"]
    with pytest.raises(IllegalAction, match="until one of its kind has been played"):
        state.apply(rs.layout.parse("AH"))
    for card in ("9S", "AS", "KS", "AC"):  # seat 2 wins with the ace of spades and holds only hearts
        state.apply(rs.layout.parse(card))
    assert state.current_player() == 2 and state.barred_leads() == rs.tables.unbroken
    assert [rs.layout.name(c) for c in iter_bits(state.legal_mask())] == ["JH", "10H", "9H"]  # nothing else held
    for card in ("JH", "10S", "KC", "AH"):  # the elder's ace takes it, and hearts are broken
        state.apply(rs.layout.parse(card))
    assert state.barred_leads() == 0 and state.legal_mask() == state.hand_of(1)


def test_the_holder_of_the_opening_card_leads_it_and_the_table_knows() -> None:
    """`play.first_lead_card` (Hearts' two of clubs): its holder leads the first trick with it, whoever
    `first_lead` names, and from then on every seat's view shows where the card was (being asked to
    lead says so); the engine's refusal of another card says why."""
    rs = build_ruleset(HEARTS, {"passing": False})  # the cards played as dealt
    state = GameState(rs)
    parse = rs.layout.parse
    pack = [parse(c) for c in ("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S "  # seat 1, the elder, then 2, 3, 0
                               "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H "
                               "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2C "
                               "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2D").split()]
    for card in pack:
        state.apply(card)
    assert state.current_player() == 3 and [rs.layout.name(c) for c in iter_bits(state.legal_mask())] == ["2C"]
    assert (parse("2C"), 3) in state.view(0).face_up
    with pytest.raises(IllegalAction, match="leads it to the first trick"):
        state.apply(parse("AD"))


OH_HELL = str(FOLDER / "oh-hell.yaml")


def test_an_option_whose_value_another_option_replaces_is_refused() -> None:
    """Oh Hell's `cards` sets the packet that its default `schedule` replaces: asked for alone,
    it would change nothing, so the load says which option to set as well."""
    with pytest.raises(RulesetError) as lost:
        ruleset(OH_HELL, cards=5)
    [problem] = lost.value.diagnostics
    assert problem.code == "option-overridden" and "'schedule' = 'up_and_down' replaces /deal/0/packet" in problem.message
    assert problem.hint == "set option 'schedule' to 'fixed' as well"
    fixed = ruleset(OH_HELL, cards=5, schedule="fixed")
    assert fixed.tables.hand_tricks == (5,)
