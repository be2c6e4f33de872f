"""An offered card taken into a hand (`trump.offer.taken_by`; tests/rulesets/pickup-shape.yaml,
Euchre's order up): once a seat accepts, the dealer (or the acceptor) adds the turned card to
his hand and discards one card face down, under the `discard` rules
(tests/rulesets/pickup-never.yaml), before the play.

Public: the card taken and who holds it (face up, his, until he plays it); who discards.
Hidden: the discard, from every seat but the taker, and so whether he kept the turned card.
Every world another seat samples has the turned card in the taker's hand or discard; moving the
hidden discard (even swapping it with the turned card he kept) changes none of its worlds nor
a search's choice; the taker's own worlds replay his real discard.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import MakerBar, offered_value
from couillon_dsl.cards import iter_bits
from couillon_dsl.kernel.eligible import hand_size
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.engine.why import explain_legal
from couillon_dsl.explain import rule_sentences
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.records import GameRecord, replay
from honesty import same_worlds, swapped_game, world_pack, worlds_of

RULESETS = Path(__file__).parent / "rulesets"
RS = build_ruleset(str(RULESETS / "pickup-shape.yaml"))
NEVER = build_ruleset(str(RULESETS / "pickup-never.yaml"))
ACCEPTOR = build_ruleset(str(RULESETS / "pickup-shape.yaml"), {"taker": "acceptor"})
LAYOUT = RS.layout
NCARDS = LAYOUT.size
ACTS = GameState(RS).actions
GREEDY = make_agent("greedy")


def positions(rs=RS) -> tuple[dict[int, list[int]], int]:
    """Dealer 0's deal: seat -> its pack positions, and the turned card's position (a probe dealing
    the pack 0, 1, 2, ... so that a card is its position)."""
    probe = GameState(rs)
    probe.deal_pack(list(range(NCARDS)))
    return {s: list(iter_bits(probe.hand_of(s))) for s in range(4)}, probe.offered  # type: ignore[return-value]


def dealt(hands: dict[int, list[str]], turned: str, seed: int = 0, rs=RS) -> GameState:
    """Dealer 0's deal giving ``hands`` (seat -> some of its cards) and turning ``turned`` up, the rest at random."""
    spots, turn = positions(rs)
    pack = [-1] * NCARDS
    for seat, cards in hands.items():
        for position, card in zip(spots[seat], cards):
            pack[position] = LAYOUT.parse(card)
    pack[turn] = LAYOUT.parse(turned)
    rest = [c for c in range(NCARDS) if c not in pack]
    random.Random(seed).shuffle(rest)
    state = GameState(rs)
    state.deal_pack([c if c >= 0 else rest.pop() for c in pack])
    return state


def accept_by(state: GameState, seat: int) -> None:
    """Every seat before ``seat`` passes, ``seat`` accepts."""
    while state.current_player() != seat:
        state.apply(state.actions.pass_)
    state.apply(state.actions.accept)


def say(state: GameState, text: str) -> None:
    state.apply(state.string_to_action(None, text))


def cards(mask: int) -> set[str]:
    return {LAYOUT.name(c) for c in iter_bits(mask)}


# ---------------------------------------------------------------------- the engine, by hand

def test_an_order_up_by_the_elder_gives_the_dealer_the_card_and_asks_him_to_discard() -> None:
    state = dealt({0: ["9S", "9H", "10D", "QC", "KC"], 1: ["AS", "KS", "QS", "AH", "KH"]}, "JS")
    assert state.view(1).phase == "offer" and state.current_player() == 1
    state.apply(ACTS.accept)
    turned = LAYOUT.parse("JS")
    assert state.current_player() == 0 and state.view(0).phase == "discard"
    assert cards(state.hand_of(0)) == {"9S", "9H", "10D", "QC", "KC", "JS"}
    assert [a - ACTS.discard0 for a in state.legal_actions()] == sorted(iter_bits(state.hand_of(0)))
    for seat in range(4):
        view = state.view(seat)
        assert view.trump == LAYOUT.suits.index("S") and view.maker == 1 and view.deciding_seat == 1
        assert view.discarding_seat == 0 and view.taken == turned and (turned, 0) in view.face_up
    assert [(c, s, ok) for c, s, ok in explain_legal(state, 0)][0][2] == "seat 0 is to discard now, not to play a card"
    say(state, "discard 9H")
    assert state.view(0).phase == "play" and state.current_player() == 1  # the elder leads
    assert cards(state.hand_of(0)) == {"9S", "10D", "QC", "KC", "JS"}
    assert state.view(0).discarded == 1 << LAYOUT.parse("9H")
    assert all(state.view(seat).discarded == 0 for seat in (1, 2, 3))
    assert all((turned, 0) in state.view(seat).face_up for seat in range(4))


def test_a_view_never_tells_whether_the_dealer_kept_the_turned_card() -> None:
    """The dealer discards the turned card, or another: the other seats' views are the same until he
    plays; his own view no longer lists the card face up in his hand once he has discarded it."""
    views = []
    for discard in ("JS", "9H"):
        state = dealt({0: ["9S", "9H", "10D", "QC", "KC"]}, "JS", seed=1)
        accept_by(state, 2)
        say(state, f"discard {discard}")
        views.append([state.view(seat) for seat in range(4)])
        own = state.view(0)
        assert (LAYOUT.parse("JS"), 0) in own.face_up if discard == "9H" else not own.face_up
    assert views[0][1:] == views[1][1:]
    assert views[0][0] != views[1][0]


def test_the_dealer_may_accept_himself_and_the_acceptor_may_be_the_taker() -> None:
    state = dealt({}, "QD", seed=2)
    accept_by(state, 0)
    assert state.current_player() == 0 and state.hand_of(0).bit_count() == 6 and state.view(3).maker == 0
    state = dealt({}, "QD", seed=2, rs=ACCEPTOR)
    accept_by(state, 3)
    assert state.current_player() == 3 and state.view(0).discarding_seat == 3
    assert state.hand_of(3) >> LAYOUT.parse("QD") & 1 and state.hand_of(3).bit_count() == 6
    assert state.hand_of(0).bit_count() == 5
    state.apply(ACTS.discard0 + next(iter_bits(state.hand_of(3))))
    assert state.view(0).phase == "play" and state.current_player() == 1


def test_nobody_takes_the_card_without_taken_by() -> None:
    rs = build_ruleset("couillon")
    state = GameState(rs, seed=3)
    state.deal_shuffled()
    sizes = [state.hand_of(s).bit_count() for s in range(4)]
    state.apply(state.actions.accept)
    assert state.view(0).phase == "play" and [state.hand_of(s).bit_count() for s in range(4)] == sizes
    assert state.view(0).discarding_seat is None and state.view(0).taken is None
    assert state.actions.discard0 == -1  # the numbering of rulesets without it is unchanged


def test_the_discard_follows_the_discard_rules_and_a_card_taken_after_a_refused_one() -> None:
    """pickup-never: everyone refuses the first card, the second is accepted and taken; aces may never
    be discarded, spades only when nothing else may, and a spade discarded is shown."""
    state = dealt({0: ["AS", "AH", "KS", "QS", "JH"]}, "9C", seed=4, rs=NEVER)
    for _ in range(4):
        state.apply(NEVER_ACTS.pass_)
    second = state.view(1).offered
    assert second is not None and second != LAYOUT.parse("9C")
    accept_by(state, 2)
    assert state.view(1).taken == second and state.hand_of(0) >> second & 1
    legal = {LAYOUT.name(a - NEVER_ACTS.discard0) for a in state.legal_actions()}
    free = cards(state.hand_of(0)) - {"AS", "AH", "KS", "QS"}
    assert legal == free and not legal & {"AS", "AH"}
    with pytest.raises(IllegalAction, match="AS may never be discarded"):
        say(state, "discard AS")
    with pytest.raises(IllegalAction, match="only when the hand holds too few other cards"):
        say(state, "discard KS")
    say(state, f"discard {sorted(free)[0]}")
    assert state.view(0).phase == "play"


def test_a_spade_discarded_as_a_last_resort_is_shown_to_everyone() -> None:
    state = dealt({0: ["AS", "AH", "KS", "QS", "JS"]}, "AC", seed=5, rs=NEVER)
    accept_by(state, 1)  # the dealer holds AS AH KS QS JS AC: aces kept, a spade must go
    legal = {LAYOUT.name(a - NEVER_ACTS.discard0) for a in state.legal_actions()}
    assert legal == {"KS", "QS", "JS"}
    say(state, "discard JS")
    assert all(state.view(seat).discarded == 1 << LAYOUT.parse("JS") for seat in range(4))


NEVER_ACTS = GameState(NEVER).actions


def test_the_fast_paths_decline_and_say_why() -> None:
    assert RS.rollout is None
    reason = ruleset_reason(RS)
    assert reason is not None and "taken_by" in reason


def test_the_rulebook_says_who_takes_the_card_and_who_sees_the_discard() -> None:
    sentences = rule_sentences(RS)
    assert any("the dealer then takes the accepted card into their hand" in s for s in sentences["Trump"])
    assert sentences["Discard"] == ("the taker discards one card; the discard is out of play",
                                    "any card may be discarded, and nobody else sees the discard")
    assert any("the player who accepted then takes" in s for s in rule_sentences(ACCEPTOR)["Trump"])


# ---------------------------------------------------------------------- whole games

@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([RS, NEVER, ACCEPTOR]))
def test_every_card_is_dealt_once_and_the_taken_card_is_held_or_discarded(seed: int, rs) -> None:
    """Random games: at every first lead the hands are disjoint, five cards each, the taker's
    discard is one card not in any hand, the taken card is in his hand or is the discard; every
    hand plays twenty distinct cards, never the discard."""
    state = GameState(rs, seed=seed)
    rng = random.Random(seed)
    checked = 0
    discard = 0
    while not state.is_terminal() and len(state.hands) < 6:
        if state.current_player() == CHANCE:
            state.deal_shuffled()
            continue
        view = state.view(0)
        if view.phase == "play" and not view.played and view.taken is not None:
            taker = view.discarding_seat
            hands = [state.hand_of(s) for s in range(4)]
            assert all(h.bit_count() == 5 for h in hands) and sum(hands).bit_count() == 20
            discard = state.view(taker).discarded
            assert discard.bit_count() == 1 and not discard & sum(hands)
            assert (hands[taker] | discard) >> view.taken & 1
            checked += 1
        hands_before = len(state.hands)
        state.apply(rng.choice(state.legal_actions()))
        if len(state.hands) > hands_before and state.hands[-1].outcome != "passed_out":
            played = [c for _, trick, _ in state.hands[-1].played_tricks for c in trick]
            assert len(set(played)) == 20 and not any(discard >> c & 1 for c in played)


def test_a_game_records_and_replays() -> None:
    state = GameState(RS, seed=6)
    agents = [make_agent("greedy"), make_agent("random")] * 2
    rng = random.Random(6)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.deal_shuffled()
        else:
            state.apply(agents[state.current_player()].act(state, state.legal_actions(), rng))
    assert any(ACTS.discard0 <= a < ACTS.discard0 + NCARDS for a in state.history())
    record = GameRecord.from_state(state, ruleset=str(RULESETS / "pickup-shape.yaml"), seed=6)
    assert any(action.startswith("discard ") for action in record.actions)
    assert replay(record, RS) is None


def test_greedy_counts_the_card_for_the_side_that_takes_it() -> None:
    """The same hand and offered card: worth more to the dealer who takes it, and to his partner
    (one card more known on the side), than to his opponent, who has it against him."""
    state = dealt({}, "AS", seed=7)
    offered = LAYOUT.parse("AS")
    ctx = RS.tables.context(LAYOUT.suits.index("S"), RS.tables.always_promoted)
    hand = LAYOUT.parse_mask(["KS", "9S", "AH", "10D", "9C"])
    dealer, dealer_held, dealer_against = offered_value(state, 0, hand, offered, ctx)
    partner, partner_held, partner_against = offered_value(state, 2, hand, offered, ctx)
    opponent, opponent_held, opponent_against = offered_value(state, 1, hand, offered, ctx)
    assert dealer > opponent and partner > opponent
    assert (dealer_held, partner_held, opponent_held) == (5, 6, 5)
    assert dealer_against == partner_against == 0.0 and opponent_against > 0.0


def test_a_card_the_other_side_takes_raises_the_bar_by_what_it_leaves_the_side() -> None:
    """A trick value ``against`` known on the other side leaves the side's fair share ``f`` of
    the unseen cards ``against * f`` fewer tricks: the value needed rises by ``against * f / (1 - f)``."""
    bar = MakerBar.of(RS, hand_size(RS))
    needed, fair = bar.needed[1][5], bar.fair[1][5]
    rise = 1.0 * fair / (1 - fair)
    assert bar.makes(needed, 1, 5) and not bar.makes(needed, 1, 5, 1.0)
    assert bar.makes(needed + rise + 1e-9, 1, 5, 1.0) and not bar.makes(needed + rise - 1e-3, 1, 5, 1.0)


def test_greedy_discards_after_taking_the_card() -> None:
    state = dealt({0: ["9S", "9H", "AD", "KD", "QD"]}, "JD", seed=8)
    accept_by(state, 1)
    action = GREEDY.act(state, state.legal_actions(), random.Random(0))
    assert LAYOUT.name(action - ACTS.discard0) in ("9S", "9H")  # a short plain suit's low card, not a trump


# ---------------------------------------------------------------------- hidden information

def played_to(state: GameState, plays: int, rng: random.Random) -> None:
    while state.current_player() != CHANCE and (state.view(0).phase != "play" or len(state.view(0).played) < plays):
        state.apply(GREEDY.act(state, state.legal_actions(), rng))


@pytest.mark.parametrize("seed", range(4))
def test_every_world_puts_the_turned_card_with_the_dealer_and_his_own_worlds_keep_his_discard(seed: int) -> None:
    state = dealt({}, "JH", seed=seed)
    accept_by(state, 1 + seed % 3)
    rng = random.Random(seed)
    played_to(state, 2 + seed, rng)
    turned = LAYOUT.parse("JH")
    _, turn = positions()
    discard = state.view(0).discarded
    for seat in range(4):
        view = state.view(seat)
        for world in worlds_of(state, seat, seed):
            assert world.view(seat) == view
            assert world_pack(world)[turn] == turned
            assert (world.hand_of(0) | world.view(0).discarded) >> turned & 1 or any(c == turned for _, c in view.played)
            if seat == 0:
                assert world.view(0).discarded == discard


def test_moving_the_dealers_discard_to_another_hand_changes_nothing_a_third_seat_sees() -> None:
    checked = 0
    for seed in range(12):
        state = dealt({}, "QS", seed=seed)
        accept_by(state, 1)
        rng = random.Random(seed)
        played_to(state, 1, rng)  # the elder led; seat 2 to play
        if state.current_player() != 2:
            continue
        hidden = state.view(0).discarded
        if hidden >> LAYOUT.parse("QS") & 1:
            continue
        played = sum(1 << c for _, c in state.view(2).played)
        for other in iter_bits(state.hand_of(3) & ~played):
            twin = swapped_game(state, next(iter_bits(hidden)), other)
            if twin is not None:
                same_worlds(state, twin, 2, seed)
                checked += 1
                break
        if checked == 2:
            break
    assert checked == 2


def test_a_seat_cannot_tell_whether_the_dealer_kept_the_turned_card() -> None:
    """The dealer discards the turned card or another card: before he plays, the elder's worlds and
    every agent's lead are the same in both games."""
    for seed in range(3):
        games = []
        for keep in (False, True):
            state = dealt({0: ["9S", "9H", "10D", "QC", "KC"]}, "JS", seed=seed)
            accept_by(state, 2)
            say(state, "discard 9H" if keep else "discard JS")
            games.append(state)
        same_worlds(games[0], games[1], 1, seed)


def test_the_dealers_discard_and_the_searches_play_through_a_hand() -> None:
    rng = random.Random(9)
    state = dealt({}, "KH", seed=9)
    accept_by(state, 3)
    for spec in ("pimc:samples=3", "ismcts:iterations=12:worlds=3"):
        legal = state.legal_actions()
        assert make_agent(spec).act(state, legal, rng) in legal
    while not state.hands:
        legal = state.legal_actions()
        spec = ("pimc:samples=3", "ismcts:iterations=12:worlds=3")[len(state.history()) % 2]
        state.apply(make_agent(spec).act(state, legal, rng))
    assert state.hands[0].trump_path == "accepted"


def test_an_observation_does_not_tell_the_dealers_discard() -> None:
    pytest.importorskip("pettingzoo")
    from couillon_dsl.interop.encoding import ViewEncoder

    encoder = ViewEncoder(RS)
    games = []
    for discard in ("JS", "9H"):
        state = dealt({0: ["9S", "9H", "10D", "QC", "KC"]}, "JS", seed=10)
        accept_by(state, 1)
        say(state, f"discard {discard}")
        games.append(state)
    for seat in (1, 2, 3):
        assert list(encoder.encode(games[0].view(seat))) == list(encoder.encode(games[1].view(seat)))
    assert list(encoder.encode(games[0].view(0))) != list(encoder.encode(games[1].view(0)))
