"""Skat (examples/skat.yaml) and the concepts it brought: promotions at the top of trump and a
contract whose only trumps are the promoted cards (`top: true`, `trump: promoted`), a numeric
auction in pairs (`procedure: pairs`, `values`, `bid_value`), the declarer's kitty decision
before he picks the contract (`kitty: declarer_decides`, `kitty_taken`), and the run of top
trumps a side held (`top_run`).

Public: the bids, holds and passes, whether the declarer took the skat, his contract. Hidden:
the skat from everyone in a hand game and from the defenders otherwise; the declarer's discards
from the defenders. Moving a hidden card changes no world a seat samples nor any choice.
"""
from __future__ import annotations

import math
import random
from typing import Iterator

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import points_needed, tricks_pay
from couillon_dsl.compile import build_ruleset
from couillon_dsl.diff import differences
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from example_games import FOLDER
from honesty import twins_look_the_same, worlds_of
from packs import pack_dealing, say

RS = build_ruleset(str(FOLDER / "skat.yaml"))
LAYOUT = RS.layout
ACTS = GameState(RS).actions
NCARDS = LAYOUT.size
DEALER = 0  # seat 1 is forehand, 2 middlehand, 0 rearhand
KITTY = range(*RS.tables.kitty.positions[DEALER])
GREEDY = make_agent("greedy")


def cards(*names: str) -> list[int]:
    return [LAYOUT.parse(name) for name in names]


def deal(hands: dict[int, list[int]], kitty: list[int] = (), seed: int = 0) -> GameState:
    """A game dealt by seat 0: ``hands`` (seat -> some of its cards) and ``kitty``, the rest at random."""
    state = GameState(RS)
    state.apply(ACTS.dealer0 + DEALER)
    state.deal_pack(pack_dealing(RS, DEALER, hands, kitty, seed))
    return state


def trumps_high_to_low(contract: str, trump: int = -1) -> list[str]:
    t = RS.tables
    index = [c.id for c in RS.contracts].index(contract)
    ctx = t.context(trump if trump >= 0 else t.contract_trump[index], t.always_promoted, t.contract_base[index])
    order = sorted((c for c in range(NCARDS) if ctx.trump_mask >> c & 1), key=lambda c: -ctx.strength[ctx.trump][c])
    return [LAYOUT.name(c) for c in order]


def test_the_four_jacks_top_every_suit_game_and_are_grands_only_trumps() -> None:
    hearts = LAYOUT.suits.index("H")
    assert trumps_high_to_low("suit", hearts) == ["JC", "JS", "JH", "JD", "AH", "10H", "KH", "QH", "9H", "8H", "7H"]
    clubs = LAYOUT.suits.index("C")
    assert trumps_high_to_low("suit", clubs)[:5] == ["JC", "JS", "JH", "JD", "AC"]
    assert trumps_high_to_low("grand") == ["JC", "JS", "JH", "JD"]
    assert trumps_high_to_low("nullo") == []


def test_null_ranks_the_ten_below_the_jack_and_grand_leaves_the_jacks_out_of_their_suits() -> None:
    t = RS.tables
    for contract, suit in (("nullo", ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S"]),
                           ("grand", ["AS", "10S", "KS", "QS", "9S", "8S", "7S"])):
        index = [c.id for c in RS.contracts].index(contract)
        ctx = t.context(-1, t.always_promoted, t.contract_base[index])
        spades = LAYOUT.suits.index("S")
        led = sorted((c for c in range(NCARDS) if ctx.suit_mask[spades] >> c & 1), key=lambda c: -ctx.strength[spades][c])
        assert [LAYOUT.name(c) for c in led] == suit


def test_a_jack_led_in_grand_is_a_trump_lead_the_jacks_alone_follow() -> None:
    state = deal({1: cards("JS", "AH", "KH", "QH", "9H", "8H", "7H", "AD", "KD", "QD"),
                  2: cards("JC", "10H", "10D", "9D", "8D", "7D", "AC", "10C", "KC", "QC"),
                  0: cards("JH", "JD", "AS", "10S", "KS", "QS", "9S", "8S", "7S", "9C")}, cards("8C", "7C"))
    say(state, "bid 18", "accept", "pass", "pass", "accept", "discard 8C", "discard 7C", "contract grand")
    assert state.view(2).phase == "play" and state.current_player() == 1  # no announcement after taking the skat
    say(state, "JS")
    assert state.legal_actions() == cards("JC")  # middlehand's only trump; his hearts do not follow a jack
    say(state, "JC")
    assert sorted(state.legal_actions()) == sorted(cards("JH", "JD"))


def test_middlehand_bids_to_forehand_then_rearhand_to_the_survivor() -> None:
    state = deal({})
    assert state.view(0).phase == "auction" and state.current_player() == 2
    assert state.legal_actions()[0] == ACTS.pass_ and len(state.legal_actions()) == 1 + len(RS.tables.auction_values)
    say(state, "bid 18")
    assert state.current_player() == 1 and state.legal_actions() == [ACTS.accept, ACTS.pass_]
    say(state, "accept", "bid 20", "pass")  # forehand holds 18, then passes 20: middlehand holds on
    assert state.current_player() == 0 and state.auction_value == 20
    assert state.action_to_string(state.legal_actions()[1]) == "bid 22"
    say(state, "bid 22", "accept", "bid 23", "pass")  # middlehand holds 22, passes 23: rearhand declares at 23
    view = state.view(1)
    assert view.deciding_seat == 0 and view.phase == "kitty" and state.current_player() == 0
    assert state.auction_value == 23
    assert [word for _, word in view.decisions] == ["18", "hold", "20", "pass", "22", "hold", "23", "pass"]


def test_a_bid_below_the_last_is_refused_and_bids_read_as_their_values() -> None:
    state = deal({})
    say(state, "bid 24", "accept")
    with pytest.raises(IllegalAction, match="not legal in phase auction"):
        say(state, "bid 23")
    with pytest.raises(ValueError, match="not a value of the auction"):
        state.string_to_action(None, "bid 19")


def test_forehand_may_open_alone_when_both_others_pass_and_all_passing_throws_the_deal_in() -> None:
    state = deal({})
    say(state, "pass", "pass")
    assert state.current_player() == 1 and [state.action_to_string(a) for a in state.legal_actions()] == \
        ["pass", "bid 18"]
    say(state, "bid 18")
    assert state.view(0).deciding_seat == 1 and state.auction_value == 18
    thrown = deal({})
    say(thrown, "pass", "pass", "pass")
    assert thrown.current_player() == CHANCE and thrown.hands[-1].maker is None and thrown.view(0).dealer == 1


def test_the_declarer_who_takes_the_skat_sees_it_and_discards_unseen_then_picks_his_game() -> None:
    skat = cards("AS", "10S")
    state = deal({}, skat)
    say(state, "bid 18", "pass", "pass")  # middlehand declares at 18
    assert state.legal_actions() == [ACTS.accept, ACTS.pass_]
    say(state, "accept")
    assert state.view(2).phase == "discard" and state.view(2).kitty == sum(1 << c for c in skat)
    assert state.hand_of(2).bit_count() == 12
    assert state.view(1).kitty == 0 and state.view(0).kitty == 0
    say(state, "discard AS", "discard 10S")
    assert state.view(2).phase == "choose" and state.current_player() == 2
    assert state.view(1).discarded == 0 and state.view(2).discarded == sum(1 << c for c in skat)
    say(state, "name H")
    assert state.view(1).phase == "play" and state.view(1).contract == "suit"


def test_a_hand_game_leaves_the_skat_unseen_by_everyone() -> None:
    state = deal({})
    say(state, "bid 18", "pass", "pass", "pass", "contract grand")
    assert all(state.view(seat).kitty == 0 for seat in range(3))
    assert state.view(0).decisions[-2:] == ((2, "leave"), (2, "grand"))


def test_an_open_game_lays_the_declarers_cards_face_up_in_every_view_and_world() -> None:
    held = cards("7C", "8C", "7S", "8S", "7H", "8H", "7D", "8D", "9D", "9H")
    state = deal({1: held})
    say(state, "pass", "pass", "bid 18", "pass", "contract nullo")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["no", "announce ouvert"]
    say(state, "announce ouvert")
    shown = {card for card, seat in state.view(2).face_up if seat == 1}
    assert shown == set(held) and {card for card, seat in state.view(0).face_up if seat == 1} == set(held)
    say(state, "7C")
    assert {card for card, seat in state.view(2).face_up if seat == 1} == set(held) - {held[0]}
    for world in worlds_of(state, 2, 0):
        assert set(held[1:]) <= {c for c in range(NCARDS) if world.hand_of(1) >> c & 1}


def test_schneider_and_schwarz_are_offered_from_the_hand_only() -> None:
    hand = deal({})
    say(hand, "bid 18", "pass", "pass", "pass", "name H")
    assert [hand.action_to_string(a) for a in hand.legal_actions()] == ["no", "announce schneider"]
    say(hand, "no", "no", "no")
    assert hand.view(0).phase == "play"
    taken = deal({})
    say(taken, "bid 18", "pass", "pass", "accept")
    while taken.view(0).phase == "discard":
        taken.apply(taken.legal_actions()[0])
    say(taken, "name H")
    assert taken.view(0).phase == "play"  # nothing offered once the skat is taken


def test_top_run_counts_the_skat_with_the_declarers_cards_with_or_without() -> None:
    """The declarer holds J♠ and, in the skat, J♣: with 2 (J♥ is a defender's). Another holds the
    J♣: without 1, whether or not the skat held the J♠."""
    runs = []
    for hands, skat in (({2: cards("JS", "AH", "10H", "KH", "QH", "9H", "8H", "7H", "AS", "10S"),
                          1: cards("JH")}, cards("JC", "AC")),
                        ({2: cards("JS", "AH", "10H", "KH", "QH", "9H", "8H", "7H", "AS", "10S"),
                          1: cards("JC")}, cards("JH", "AC"))):
        state = deal(hands, skat)
        say(state, "bid 18", "pass", "pass", "pass", "name H")  # a hand game: the skat still counts
        runs.append(state._top_runs()[0])  # side 0: the declarer, as the scoring will read it
    assert runs == [2, 1]


def test_greedy_never_picks_a_game_won_by_losing_every_trick() -> None:
    index = {c.id: i for i, c in enumerate(RS.contracts)}
    assert tricks_pay(RS, 10, index["suit"]) and tricks_pay(RS, 10, index["grand"])
    assert not tricks_pay(RS, 10, index["nullo"])


def test_greedy_picks_no_game_worth_less_than_its_bid() -> None:
    """Won at 36 with J♣ J♠ and five hearts: hearts with two is worth 30 (an overbid), clubs with two
    36 and Grand with two 72; greedy, taking the skat, names no suit below clubs."""
    state = deal({2: cards("JC", "JS", "AC", "10C", "KC", "AH", "10H", "KH", "QH", "9H")}, cards("7S", "8S"))
    say(state, "bid 36", "pass", "pass", "accept")
    rng = random.Random(0)
    while state.view(2).phase == "discard":
        state.apply(GREEDY.act(state, state.legal_actions(), rng))
    choice = state.action_to_string(GREEDY.act(state, state.legal_actions(), rng))
    assert choice in ("name C", "contract grand"), choice


def test_greedy_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = deal({2: cards("JC", "JS", "JH", "AH", "10H", "KH", "QH", "AS", "10S", "AC")})
    assert strong.action_to_string(GREEDY.act(strong, strong.legal_actions(), random.Random(0))) == "bid 18"
    weak = deal({2: cards("7H", "8H", "9S", "8S", "7S", "9D", "8D", "7D", "9C", "8C")})
    assert GREEDY.act(weak, weak.legal_actions(), random.Random(0)) == ACTS.pass_


KONTRA = build_ruleset(str(FOLDER / "skat.yaml"), {"kontra": "before_lead"})


def kontra_asked(declarer: list[str], forehand: list[str], skat: list[str], *game: str) -> GameState:
    """Middlehand declares at 18 with ``declarer``, takes the ``skat``, lays it away and plays ``game``
    (its contract, and what he says to announcements); forehand, holding ``forehand``, is asked first
    whether to double (Kontra)."""
    state = GameState(KONTRA)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(KONTRA, DEALER, {2: cards(*declarer), 1: cards(*forehand)}, cards(*skat), 0))
    say(state, "bid 18", "pass", "pass", "accept", *(f"discard {card}" for card in skat), *game)
    assert state.current_player() == 1 and [state.action_to_string(a) for a in state.legal_actions()] == \
        ["pass", "double"]
    return state


def test_greedy_doubles_a_game_its_hand_leaves_short_of_61_and_not_one_it_cannot_stop() -> None:
    """The bid, 18, is what the game is worth, not card points: the declarer needs 61 of 120 whatever he
    bid. Forehand holding J♣ and the aces and tens of clubs and spades doubles hearts (the points its
    tricks are sure of leave the declarer short of 61, though not short of 18); holding small cards it
    does not."""
    declarer = ["QH", "9H", "8H", "7H", "KH", "QC", "9C", "KS", "QS", "9S"]
    strong = kontra_asked(declarer, ["JC", "AC", "10C", "KC", "AS", "10S", "AD", "KD", "8D", "7D"], ["8S", "7S"],
                          "name H")
    assert strong.action_to_string(GREEDY.act(strong, strong.legal_actions(), random.Random(0))) == "double"
    declarer = ["JC", "JS", "JH", "JD", "AH", "10H", "KH", "QH", "9H", "AC"]
    weak = kontra_asked(declarer, ["7D", "8D", "9D", "QD", "KD", "7C", "8C", "9C", "7S", "8S"], ["8H", "7H"],
                        "name H")
    assert weak.action_to_string(GREEDY.act(weak, weak.legal_actions(), random.Random(0))) == "pass"


def test_greedy_doubles_no_null_game() -> None:
    """Null is won by taking no trick: points do not judge it, and greedy does not double it."""
    state = kontra_asked(["7H", "8H", "9H", "7C", "8C", "9C", "7S", "8S", "9S", "7D"],
                         ["JC", "JS", "JH", "AH", "10H", "AC", "10C", "AS", "10S", "AD"], ["KS", "QS"],
                         "contract nullo", "no")
    assert state.action_to_string(GREEDY.act(state, state.legal_actions(), random.Random(0))) == "pass"


def test_what_a_skat_game_needs_is_61_card_points_whatever_the_bid() -> None:
    t = KONTRA.tables
    index = {c.id: i for i, c in enumerate(KONTRA.contracts)}
    hearts = LAYOUT.suits.index("H")
    ctx = t.context(hearts, t.always_promoted, t.contract_base[index["suit"]])
    # hearts is worth 10 a level, 120 with every trump, the hand, schneider and schwarz said and made
    assert [points_needed(KONTRA, ctx, 10, index["suit"], hearts, bid) for bid in (18, 30, 60, 120)] == [61] * 4
    assert points_needed(KONTRA, ctx, 10, index["suit"], hearts, 264) == math.inf  # an overbid nothing makes


def hand_game(seed: int, take: bool) -> GameState | None:
    """Middlehand declares at 18, takes the skat (or not) and plays a suit; greedy until seat 1 is to play
    in the third trick, or None."""
    state = deal({}, seed=seed)
    say(state, "bid 18", "pass", "pass")
    rng = random.Random(seed)
    say(state, "accept" if take else "pass")
    while state.view(0).phase == "discard":
        state.apply(GREEDY.act(state, state.legal_actions(), rng))
    say(state, "name H")
    while len(state.view(0).played) < 6 or state.current_player() != 1:
        if state.current_player() == CHANCE:
            return None
        state.apply(GREEDY.act(state, state.legal_actions(), rng))
    return state


@pytest.mark.parametrize("seat", [1, 2])  # a defender, and the declarer himself
def test_nobody_learns_the_skat_of_a_hand_game(seat: int) -> None:
    """Moving a card of an unseen skat into a defender's unseen hand changes none of the worlds the
    other seats sample, nor any search's choice."""
    def cases() -> Iterator[tuple[GameState, int, int, int, int]]:
        for seed in range(12):
            state = hand_game(seed, take=False)
            if state is None:
                continue
            if seat == 2:  # the declarer's turn: play on to it
                rng = random.Random(seed)
                while state.current_player() != 2:
                    state.apply(GREEDY.act(state, state.legal_actions(), rng))
            pack = state.history()[1:1 + NCARDS]
            played = sum(1 << c for _, c in state.view(seat).played)
            unplayed = [c for c in range(NCARDS) if state.hand_of(0) >> c & 1 and not played >> c & 1]
            yield state, pack[KITTY[0]], unplayed[0], seat, seed

    twins_look_the_same(cases())


def test_a_defender_learns_nothing_of_the_declarers_discard() -> None:
    def cases() -> Iterator[tuple[GameState, int, int, int, int]]:
        for seed in range(12):
            state = hand_game(seed, take=True)
            if state is None:
                continue
            hidden = state.view(2).discarded
            played = sum(1 << c for _, c in state.view(1).played)
            unplayed = [c for c in range(NCARDS) if state.hand_of(0) >> c & 1 and not played >> c & 1]
            discarded = [c for c in range(NCARDS) if hidden >> c & 1]
            yield state, discarded[0], unplayed[-1], 1, seed

    twins_look_the_same(cases())


BARE = build_ruleset(str(FOLDER / "skat.yaml"), {"announcements": False})  # no announced or open games


def choice_after(rs, hands: dict[int, list[int]], skat: list[int], bid: str, take: bool) -> list[str]:
    """Middlehand declares at ``bid``, takes the skat (discarding it again) or leaves it: his choices."""
    state = GameState(rs)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(rs, DEALER, hands, skat, 0))
    say(state, bid, "pass", "pass", "accept" if take else "pass")
    if take:
        say(state, *(f"discard {LAYOUT.name(c)}" for c in skat))
    assert state.view(2).phase == "choose" and state.current_player() == 2
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_the_declarer_may_announce_only_a_game_that_can_be_worth_the_bid() -> None:
    """The Skatgericht's case (SG): declarer at 45 with the J♣, the J♠ elsewhere, the skat taken: "with
    one", at most game, schneider, schwarz: diamonds 4 x 9 = 36, hearts 40, spades 44 fall short of 45
    and are not offered; clubs 48 and Grand 96 are, and Null ouvert 46 (Null 23 alone without it)."""
    hands = {2: cards("JC", "AD", "10D", "KD", "QD", "9D", "8D", "7D", "AH", "10H"), 1: cards("JS")}
    skat = cards("7S", "8S")
    assert choice_after(RS, hands, skat, "bid 45", take=True) == ["name C", "contract grand", "contract nullo"]
    assert choice_after(BARE, hands, skat, "bid 45", take=True) == ["name C", "contract grand"]
    # after a bid of 24 Null (23) needs the open game, or the hand (35)
    assert "contract nullo" not in choice_after(BARE, hands, skat, "bid 24", take=True)
    assert "contract nullo" in choice_after(BARE, hands, skat, "bid 24", take=False)


def test_a_hand_game_is_judged_by_the_matadors_the_declarer_can_count_not_by_the_skat() -> None:
    """From the hand at 48 with J♠ J♥ J♦: "without one" as far as he knows, at most game, hand,
    schneider, schwarz: diamonds 5 x 9 = 45 falls short, hearts 50 does not, Null hand 35 does. The
    J♣ in the unseen skat (the scoring's "with four") changes nothing he is offered."""
    hand = cards("JS", "JH", "JD", "AH", "10H", "KH", "AS", "10S", "AC", "10C")
    in_skat = choice_after(BARE, {2: hand}, cards("JC", "7D"), "bid 48", take=False)
    elsewhere = choice_after(BARE, {2: hand, 1: cards("JC")}, cards("8D", "7D"), "bid 48", take=False)
    assert in_skat == elsewhere == ["name C", "name S", "name H", "contract grand"]


def test_a_bid_no_game_can_reach_leaves_every_game_offered() -> None:
    """At 264 after taking the skat no game reaches the bid (Grand with four, schneider and schwarz is
    168): the declarer still has every game to pick, and loses it as an overbid."""
    found = choice_after(RS, {}, cards("7S", "8S"), "bid 264", take=True)
    assert found == ["name C", "name S", "name H", "name D", "contract grand", "contract nullo"]


def test_the_kernel_and_the_rollout_decline_skat_by_its_concepts() -> None:
    reason = ruleset_reason(RS) or ""
    assert "`trump.auction`" in reason and "`deck.promotions[0].top`" in reason and "top_run()" in reason
    assert RS.rollout is None


def test_the_rulebook_and_its_diff_read_the_new_concepts() -> None:
    text = explain(RS)
    assert "the J♣ becomes a trump ranking above every card of the trump suit" in text
    assert "the J♣, J♠, J♥ and J♦ are the only trumps, in that order" in text
    assert "They bid two at a time" in text and "leaves it unseen by everyone" in text
    assert "the number of the highest trumps in a row, from the top one down, the declarer held" in text
    assert "the announcer lays their cards face up before the first lead" in text
    lines = differences(RS, build_ruleset(str(FOLDER / "skat.yaml"), {"announcements": False}))
    assert "Announcement Ouvert: removed (was: if Ouvert is announced, the announcer lays their cards face up " \
        "before the first lead: everyone sees them until they are played)" in lines
    nearer = differences(build_ruleset("tarot"), RS)
    assert any(line.startswith("Trump: the players bid numbers, lowest first 18, 20, 22") for line in nearer)
