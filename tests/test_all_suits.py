"""Contracts played in every suit as trumps (`contracts.<id>.trump: all_suits`) and an open auction
whose bids name a contract instead of a suit, as Belote contrée plays sans atout and tout atout:
each suit ranked and counted as trumps, a lead followed as a trump lead (overtaken when able), a
void player free, the declarations' trump cards found in every suit."""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.declarations import meld_trump
from couillon_dsl.engine.why import legal_reasons
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.simulation import play_game
from example_games import FOLDER
from honesty import swapped_game, twins_look_the_same
from packs import dealt, pack_dealing, say

RS = build_ruleset(str(FOLDER / "contree.yaml"))
LAYOUT = RS.layout
GREEDY = make_agent("greedy")
DEALER = 0  # seat 1 speaks first
TA = [c.id for c in RS.contracts].index("tout_atout")
SA = [c.id for c in RS.contracts].index("sans_atout")


def cards(*names: str) -> list[int]:
    return [LAYOUT.parse(name) for name in names]


def mask(*names: str) -> int:
    return sum(1 << c for c in cards(*names))


def deal(hands: dict[int, list[int]], seed: int = 0, rs=RS) -> GameState:
    """A game dealt by seat 0: ``hands`` (seat -> some of its cards), the rest at random."""
    return dealt(rs, DEALER, hands, seed)


def context(contract: int, rs=RS):
    t = rs.tables
    return t.context(-1, t.always_promoted, t.contract_base[contract])


def test_every_suit_ranks_and_counts_as_trumps_and_a_lead_is_overtaken_when_able() -> None:
    ctx = context(TA)
    assert ctx.all_suits and ctx.trump == -1 and ctx.trump_mask == 0
    assert sum(ctx.points) == 152  # 38 a suit, 162 with the dix de der
    led, = cards("AD")
    hand = mask("JD", "10D", "8D", "KC")
    assert ctx.legal(hand, LAYOUT.suit_of(led), led, 1 << led) == mask("JD")  # only the jack beats the ace
    low, = cards("QD")
    assert ctx.legal(hand, LAYOUT.suit_of(low), low, 1 << low) == mask("JD", "10D")
    assert ctx.legal(mask("KC", "7S"), LAYOUT.suit_of(led), led, 1 << led) == mask("KC", "7S")  # void: any card
    # a card of another suit never wins, whatever its rank
    assert ctx.strength[LAYOUT.suit_of(led)][cards("JC")[0]] == 0
    verdicts = {LAYOUT.name(c): ok for c, ok, _ in legal_reasons(RS, ctx, hand, (led,))}
    assert verdicts == {"JD": True, "10D": False, "8D": False, "KC": False}


def test_sans_atout_has_no_trump_and_keeps_the_hand_at_162_unless_unscaled() -> None:
    ctx = context(SA)
    assert not ctx.all_suits and ctx.trump_mask == 0 and sum(ctx.points) == 152
    led, = cards("KD")
    assert ctx.legal(mask("AD", "7D", "JC"), LAYOUT.suit_of(led), led, 1 << led) == mask("AD", "7D")  # no overtaking
    plain = build_ruleset(str(FOLDER / "contree.yaml"), {"sa_ta_points": "unscaled"})
    assert sum(context(SA, plain).points) == 120 and sum(context(TA, plain).points) == 248


def test_a_bid_names_a_suit_or_a_contract_and_the_last_bidder_plays_it() -> None:
    state = deal({})
    words = [state.action_to_string(a) for a in state.legal_actions()]
    assert words[1:7] == ["bid 80 S", "bid 80 H", "bid 80 D", "bid 80 C", "bid 80 sans_atout", "bid 80 tout_atout"]
    say(state, "bid 80 sans_atout", "bid 90 tout_atout", "pass", "pass", "pass")
    assert state.trump is None and state.view(1).contract == "tout_atout" and state.sides[2] == state.view(1).maker
    assert state.context.all_suits and state.meld_trump == len(LAYOUT.suits)
    with pytest.raises(ValueError, match="sans_atout, tout_atout"):
        state.string_to_action(None, "bid 80 misere")
    off = build_ruleset(str(FOLDER / "contree.yaml"), {"sans_tout_atout": False})
    plain = GameState(off)
    plain.deal_pack(pack_dealing(off, DEALER, {}, seed=0))
    assert [plain.action_to_string(a) for a in plain.legal_actions()][1:6] == \
        ["bid 80 S", "bid 80 H", "bid 80 D", "bid 80 C", "bid 90 S"]


def test_the_trump_cards_of_a_declaration_are_found_in_every_suit_under_tout_atout() -> None:
    belote = next(table for table in RS.tables.declarations if table.id == "belote")
    hand = mask("KH", "QH", "KD", "QD", "KS", "7C")
    every = meld_trump(RS, TA, -1)
    assert len(belote.melds(hand, every, 0)) == 2  # hearts and diamonds, each a belote of 20
    assert belote.melds(hand, meld_trump(RS, SA, -1), 0) == ()  # no trump suit: no belote
    assert len(belote.melds(hand, LAYOUT.suits.index("H"), 0)) == 1


def test_greedy_bids_tout_atout_on_jacks_and_nines_and_sans_atout_on_aces() -> None:
    rng = random.Random(0)
    jacks = deal({1: cards("JS", "9S", "JH", "9H", "JD", "9D", "JC", "9C")})
    assert GREEDY_word(jacks, rng).endswith(" tout_atout")
    aces = deal({1: cards("AS", "10S", "AH", "10H", "AD", "10D", "AC", "10C")})
    assert GREEDY_word(aces, rng).endswith(" sans_atout")
    trumps = deal({1: cards("JH", "9H", "AH", "10H", "KH", "AS", "AC", "AD")})
    assert GREEDY_word(trumps, rng).endswith(" H")


def GREEDY_word(state: GameState, rng: random.Random) -> str:
    return state.action_to_string(GREEDY.act(state, state.legal_actions(), rng))


def test_greedy_beats_random_and_bids_tout_atout_among_its_own() -> None:
    games, wins = 12, 0
    for seed in range(games):
        state = play_game(GameState(RS, seed=seed), [GREEDY, make_agent("random")] * 2, random.Random(seed))
        wins += state.result.winner == 0
    assert wins >= games * 3 // 4
    played = set()
    for seed in range(6):
        state = play_game(GameState(RS, seed=seed), [GREEDY] * 4, random.Random(seed))
        played |= {hand.contract for hand in state.hands}
    assert {"suit", "tout_atout"} <= played  # sans atout is rarer (about one hand in 60): see the aces above


def test_nobody_learns_an_unseen_card_under_tout_atout() -> None:
    """Two cards of seats 2 and 3 trading places change none of the worlds seat 1 samples in tout
    atout, nor any search's choice (the overtaking each play showed is the engine's own rule)."""
    twins_look_the_same(case for seed in range(10) if (case := played(seed)) is not None)


def played(seed: int) -> tuple[GameState, int, int, int, int] | None:
    """Tout atout bid by seat 1 and played greedily up to seat 1's turn in the third trick."""
    state = deal({}, seed=seed)
    say(state, "bid 80 tout_atout", "pass", "pass", "pass")
    rng = random.Random(seed)
    while state.phase == "play" and (len(state.finished_tricks()) < 2 or state.current_player() != 1):
        state.apply(GREEDY.act(state, state.legal_actions(), rng))
    if state.phase != "play":
        return None
    for a in cards_of(state.hand_of(2)):  # two cards no declaration showed (a shown meld is public)
        for b in cards_of(state.hand_of(3)):
            twin = swapped_game(state, a, b)
            if twin is not None and twin.view(1) == state.view(1):
                return state, a, b, 1, seed
    return None


def cards_of(hand: int) -> list[int]:
    return [c for c in range(LAYOUT.size) if hand >> c & 1]


def test_the_kernel_and_the_rollout_decline_contracts_in_every_suit() -> None:
    assert "`contracts`" in (ruleset_reason(RS) or "")
    assert RS.rollout is None


def test_diff_reads_sans_atout_and_tout_atout_switched_off() -> None:
    from couillon_dsl.diff import differences
    off = build_ruleset(str(FOLDER / "contree.yaml"), {"sans_tout_atout": False})
    lines = differences(RS, off)
    assert any("Sans atout and Tout atout are not played" in line for line in lines)


def test_the_rulebook_reads_sans_atout_and_tout_atout() -> None:
    text = explain(RS)
    assert "together with a trump suit, or instead of a suit Sans atout or Tout atout" in text
    assert "Sans atout: there are no trumps, so no declaration of trump cards; aces count 19" in text
    assert "every suit is played as the trump suit is: its cards rank J 9 A 10 K Q 8 7" in text
    assert "beat its best card when they can" in text and "may be of any suit" in text
