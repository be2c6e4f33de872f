"""Doppelkopf (examples/doppelkopf.yaml) and the concepts it brought: a pack holding every card
twice (`deck.copies`), equal cards tying in a trick (the first played wins), and sides by who
holds a card, hidden until revealed (`players.sides: card_holders`, `side_card`), with `seats(t)`
for the scoring of a player alone.

Public: the cards played, and so the side of a seat that played a queen of clubs. Hidden: who
holds the queens not yet played, and with them every seat's partner; a seat knows its own side
from its hand. Moving a hidden queen changes no view, no world a seat samples, nor any choice.

Re and Kontra and the announcements after them (`announcements.<id>.for_side`, `before_card`,
`reply_to`, `implies`): an announcement tells every seat the announcer's side, is offered only to a
seat of its side before its deadline (so a sampled world where the announcer is on the other side
refuses it on replay), and leaves the sides it does not tell hidden.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.cards import CardNotationError, iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.diff import differences
from couillon_dsl.explain import explain, int_phrase
from couillon_dsl.expr.parse import parse_expression
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.scenario import run_scenario
from couillon_dsl.simulation import play_game
from example_games import FOLDER
from honesty import swapped_game, twins_look_the_same, worlds_of
from packs import at_the_table, pack_dealing, random_hands

RS = build_ruleset(str(FOLDER / "doppelkopf.yaml"))
NORMAL = build_ruleset(str(FOLDER / "doppelkopf.yaml"), {"solos": False})  # only the normal game: card_holders
LAYOUT = RS.layout
ACTS = GameState(RS).actions
NCARDS = LAYOUT.size
DEALER = 3  # seat 0 is the elder and leads
QC = LAYOUT.copies_mask(LAYOUT.parse("QC"))
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def cards(*names: str) -> list[int]:
    """Card ids; a name written twice is both copies."""
    return list(iter_bits(LAYOUT.parse_mask(list(names))))


def deal(hands: dict[int, str], seed: int = 0) -> GameState:
    """A game dealt by seat 3: ``hands`` (seat -> some of its cards, by name; a name given to two
    seats is one copy each), the rest at random."""
    taken = 0
    ids: dict[int, list[int]] = {}
    for seat, names in hands.items():
        for name in names.split():
            free = LAYOUT.copies_mask(LAYOUT.parse(name)) & ~taken
            taken |= free & -free
            ids.setdefault(seat, []).append((free & -free).bit_length() - 1)
    state = GameState(RS)
    state.apply(ACTS.dealer0 + DEALER)
    state.deal_pack(pack_dealing(RS, DEALER, ids, seed=seed))
    while state.phase == "auction":  # nobody has a reservation: the normal game
        state.apply(ACTS.pass_)
    return state


def play(state: GameState, *names: str) -> None:
    for name in names:
        state.apply(state.string_to_action(state.current_player(), name))


def test_the_pack_holds_every_card_twice_named_alike() -> None:
    assert NCARDS == 48 and LAYOUT.copies == 2
    first, second = cards("QC", "QC")
    assert LAYOUT.name(first) == LAYOUT.name(second) == "QC" and LAYOUT.parse("qc") == first
    assert LAYOUT.copies_mask(second) == 1 << first | 1 << second
    with pytest.raises(CardNotationError):
        LAYOUT.parse_mask("QC QC QC")
    assert LAYOUT.lowest_copies(1 << second) == 1 << second and LAYOUT.lowest_copies(QC) == 1 << first
    assert LAYOUT.with_copies(1 << second) == QC
    assert LAYOUT.in_copy_order([second, first]) == [first, second]
    assert LAYOUT.in_copy_order([second], drawn=1 << first) == [second]
    assert sum(RS.tables.contexts[RS.tables.fixed_trump + 1 << len(RS.tables.promotion_cards)].points) == 240


def test_the_trump_order_of_the_normal_game() -> None:
    state = deal({})
    ctx = state.context
    trumps = sorted(iter_bits(ctx.trump_mask), key=lambda c: -ctx.strength[ctx.card_suit[c]][c])
    assert " ".join(dict.fromkeys(LAYOUT.name(c) for c in trumps)) == \
        "10H QC QS QH QD JC JS JH JD AD 10D KD 9D"
    hearts = LAYOUT.suits.index("H")
    plain = sorted(iter_bits(ctx.suit_mask[hearts]), key=lambda c: -ctx.strength[hearts][c])
    assert " ".join(dict.fromkeys(LAYOUT.name(c) for c in plain)) == "AH KH 9H"  # the tens of hearts are trumps


def test_equal_cards_are_one_choice_and_the_first_played_wins() -> None:
    state = deal({0: "AC KC KC", 1: "AC", 2: "10C", 3: "9C"})
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    assert legal.count("KC") == 1  # two kings of clubs: one choice, the lowest copy held
    play(state, "AC", "AC", "10C", "9C")
    assert state.finished_tricks()[0][2] == 0  # the first ace played wins, the second does not overtake


def test_a_seat_knows_its_own_side_and_learns_a_partner_when_the_queen_is_played() -> None:
    state = deal({0: "QC 9S", 2: "QC", 1: "AC", 3: "KC"})
    assert state.sides == (0, 1, 0, 1)
    assert state.view(0).sides == (0, -1, -1, -1)  # Re, but who is its partner?
    assert state.view(1).sides == (-1, 1, -1, -1)  # Kontra
    assert state.view(1).points == () and state.view(1).tricks == ()  # side totals would tell the sides
    play(state, "QC")
    assert state.view(1).sides == (0, 1, -1, -1) and state.view(3).sides == (0, -1, -1, 1)
    assert state.view(2).sides == (0, 1, 0, 1)  # the other queen is its own: every side is known


def test_a_seat_dealt_both_queens_plays_alone_and_knows_it() -> None:
    state = deal({0: "QC QC"})
    assert state.sides == (0, 1, 1, 1) and state.view(0).sides == (0, 1, 1, 1)
    assert state.view(2).sides == (-1, -1, 1, -1)


def hand_in_play(seed: int) -> GameState | None:
    """Greedy plays a random deal until seat 1 is to play in the third trick, or None."""
    state = GameState(RS, seed=seed)
    state.deal_shuffled(random.Random(seed))
    greedy = make_agent("greedy")
    rng = random.Random(seed)
    while len(state.view(0).played) < 8 or state.current_player() != 1:
        if state.current_player() == CHANCE:
            return None
        legal = state.legal_actions()
        state.apply(ACTS.pass_ if state.phase == "auction" else greedy.act(state, legal, rng))  # the normal game
    return state


@pytest.mark.parametrize("re", [False, True])  # seat 1 of Kontra, or of Re (its partner unknown to it)
def test_nobody_learns_where_an_unplayed_queen_of_clubs_is(re: bool) -> None:
    """Seat 1, to play, holding a queen of clubs or not: moving an unplayed one it does not hold from
    one of the other seats to another (trading it for a trump there) changes neither its view, the
    worlds it samples nor any search's choice, though the sides change."""
    def cases() -> Iterator[tuple[GameState, int, int, int, int]]:
        for seed in range(60):
            state = hand_in_play(seed)
            if state is None or bool(state.hand_of(1) & QC) != re:
                continue
            played = sum(1 << c for _, c in state.view(1).played)
            moves = [(queen, trump) for holder in (0, 2, 3) for other in (0, 2, 3) if other != holder
                     for queen in iter_bits(state.hand_of(holder) & QC & ~played)
                     for trump in iter_bits(state.hand_of(other) & ~QC & ~played & state.context.trump_mask)]
            if moves:
                yield state, *moves[0], 1, seed

    twins_look_the_same(cases())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_random_hands_deal_each_copy_once_and_conserve_240_points(seed: int) -> None:
    for event, state in random_hands(GameState(RS, seed=seed), random.Random(seed), 3):
        if event == "deal":
            dealt = [state.hand_of(s) for s in range(4)]
            assert all(h.bit_count() == 12 for h in dealt)
            assert sum(dealt) == LAYOUT.full_mask and len(set().union(*(set(iter_bits(h)) for h in dealt))) == 48
        elif event == "decide":
            assert state.legal_actions()
        elif event == "hand":
            summary = state.hands[-1]
            assert sum(summary.points) == 240 and sum(summary.tricks) == 12
            assert sum(summary.deltas) == 0  # zero-sum, a player alone too


def test_without_extras_the_normal_game_scores_its_game_point(tmp_path: Path) -> None:
    """tests/scenarios/doppelkopf-normal-game.yaml with extras=false: Re's 1 game point stands, the fox
    Kontra caught no longer cancels it."""
    text = (SCENARIOS / "doppelkopf-normal-game.yaml").read_text(encoding="utf-8")
    text = text.replace("ruleset: ../../examples/doppelkopf.yaml", f"ruleset: {FOLDER / 'doppelkopf.yaml'}\n"
                        "options: {extras: false}")
    text = text.replace("scores: {L: 0, P: 0, R: 0, D: 0}", "scores: {L: 1, P: -1, R: 1, D: -1}")
    path = tmp_path / "normal-game-without-extras.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_scenario(path)
    assert result.ok, result.render()


@pytest.mark.parametrize("held, annulled", [
    ({0: ("QC", 1), 1: ("QC", 0, "AH", 0), 2: ("AH", 1)}, True),  # seat 0 holds the second queen and no ace
    ({0: ("QC", 0, "AH", 1), 1: ("QC", 1, "AH", 0)}, False),  # each queen's holder holds an ace of hearts
])
def test_a_deal_check_reads_a_card_named_as_any_of_its_copies(tmp_path: Path, held: dict, annulled: bool) -> None:
    """`holds: [QC]` is met by either copy of the queen, and `lacks: [AH]` only by a hand with no copy
    of the ace."""
    path = tmp_path / "checked.yaml"
    path.write_text(f"extends: {FOLDER / 'doppelkopf.yaml'}\nid: checked\nname: Checked\n"
                    "deal_checks:\n  queen_without_ace: {holds: [QC], lacks: [AH]}\n", encoding="utf-8")
    checked = build_ruleset(path)
    ids = {seat: [LAYOUT.parse(named[i]) + named[i + 1] for i in range(0, len(named), 2)]
           for seat, named in held.items()}
    state = GameState(checked)
    state.apply(state.actions.dealer0 + DEALER)
    state.deal_pack(pack_dealing(checked, DEALER, ids, seed=0))
    assert (state.hands[-1].trump_path == "annulled" if state.hands else False) == annulled


def test_a_game_records_cards_by_name_and_replays_exactly() -> None:
    """Equal cards are named alike in a record: the deal is drawn in copy order and a seat plays the
    lowest copy it holds, so the names replay to the very same cards (the outcome lists card ids)."""
    rs = build_ruleset(str(FOLDER / "doppelkopf.yaml"), {"deals": 2})
    state = GameState(rs, seed=5)
    play_game(state, [make_agent("greedy"), make_agent("random")] * 2, random.Random(5))
    record = GameRecord.from_state(state, ruleset=str(FOLDER / "doppelkopf.yaml"), seed=5)
    assert record.actions.count("QC") == 8  # both copies drawn, then played, in each of two deals
    assert replay(record, rs) is None


def test_a_person_at_the_table_learns_the_sides_as_the_queens_are_played() -> None:
    """`couillon play` (seed 3: seat 0 is dealt both queens of clubs, a silent wedding): seat 1 is told
    its own side, no points per side while it does not know every side, and each seat's side when
    it is revealed."""
    out = at_the_table(str(FOLDER / "doppelkopf.yaml"), 3, 1, "deals=1", "solos=false")
    assert "the side holding the Q♣ plays against the other side, nobody told who holds it" in out
    assert "Trump: ♦ diamonds; the side holding the Q♣ against the other side (you)." in out
    assert "Points so far: not known until you know every side." in out
    first, second = out.index("Seat 0 is on the side holding the Q♣."), out.index("Seat 2 is on the other side.")
    assert first < second  # the first queen tells seat 0's side, the second every side
    assert "Scoring: seat 0 -12, you +4, seat 2 +4, seat 3 +4." in out  # alone: three times 4 game points


def test_the_diff_reads_the_new_concepts() -> None:
    lines = differences(NORMAL, build_ruleset(str(FOLDER / "doppelkopf.yaml"), {"extras": False, "solos": False}))
    assert "Scoring rule re_extras: removed (was: after every hand, the side holding the Q♣ changes their " \
        "score by `extras`)" in lines
    single = build_ruleset(str(FOLDER / "doppelkopf.yaml"), {"deals": 4})
    assert not any(line.startswith(("Cards", "Players")) for line in differences(RS, single))


def test_the_kernel_and_the_rollout_decline_doppelkopf_by_its_concepts() -> None:
    reason = ruleset_reason(RS) or ""
    assert "`deck.copies`" in reason and "`players.sides`" in reason
    assert "captured()" in reason and "tricks_worth()" in reason
    assert RS.rollout is None


def test_the_rulebook_reads_the_new_concepts() -> None:
    text = explain(NORMAL)
    assert "Each of these cards is in the pack twice" in text and "the first played beats the others" in text
    assert "the players dealt a copy of the Q♣ play together against the others" in text
    assert "another player's once that player plays the Q♣" in text
    assert "`extras` is `re_extras` less `kontra_extras` if the number of players on the side holding the Q♣ is 2" in text
    assert int_phrase(NORMAL, parse_expression("tricks_worth(maker, 40)")) == \
        "the number of tricks the side holding the Q♣ took holding at least 40 card points"
    assert int_phrase(NORMAL, parse_expression('captured("foxes", opponents(maker))')) == \
        "the number of foxes in the tricks of the other side played by its opponents"


# ---------------------------------------------------------------- Re, Kontra and the announcements after them


def test_an_announcement_tells_every_seat_the_announcers_side() -> None:
    state = deal({0: "QC 9S", 2: "QC", 1: "AC", 3: "KC"})
    play(state, "announce re")
    assert [state.view(s).sides[0] for s in range(4)] == [0, 0, 0, 0]  # every seat now knows seat 0 is Re
    assert state.view(1).sides == (0, 1, -1, -1)  # Kontra: who holds the other queen?
    assert state.view(2).sides == (0, 1, 0, 1)  # the other queen is its own: every side
    assert state.view(1).announcements == (("re", 0),)
    play(state, "9S")
    play(state, "announce kontra")
    assert state.view(3).sides == (0, 1, -1, 1)  # seat 2 may be Re or (seat 0 holding both) Kontra
    assert state.view(0).sides == (0, 1, -1, -1)


def test_an_announcement_is_offered_to_its_side_alone_and_before_its_deadline() -> None:
    state = deal({0: "QC AC", 1: "9C 9C", 2: "QC", 3: "KC"})
    with pytest.raises(IllegalAction, match="only a seat of the side it is made for may announce Kontra"):
        play(state, "announce kontra")
    play(state, "AC")
    with pytest.raises(IllegalAction, match="only a seat of the side it is made for may announce Re"):
        play(state, "announce re")  # seat 1 holds no queen
    play(state, "9C")  # seat 2, holding the other queen, is offered Re and what follows it
    offered = [state.action_to_string(a) for a in state.legal_actions() if a >= ACTS.announce0]
    assert offered == ["announce re", "announce re_90", "announce re_60", "announce re_30", "announce re_schwarz"]


def announcing_hand(seed: int, announcer: int = 0) -> GameState | None:
    """Greedy plays a random deal, ``announcer`` announcing its side (Re or Kontra) on its first turn,
    until seat 1 is to play in the third trick; None when greedy gives the deal away to a chance node."""
    state = GameState(RS, seed=seed)
    state.deal_shuffled(random.Random(seed))
    greedy = make_agent("greedy")
    rng = random.Random(seed)
    announced = False
    while len(state.view(0).played) < 8 or state.current_player() != 1:
        seat = state.current_player()
        if seat == CHANCE:
            return None
        legal = state.legal_actions()
        if state.phase == "auction":  # nobody has a reservation: the normal game
            state.apply(ACTS.pass_)
            continue
        if seat == announcer and not announced:
            announced = True
            first = next(a for a in legal if a >= ACTS.announce0)  # re or kontra: the first offered
            state.apply(first)
            continue
        state.apply(greedy.act(state, legal, rng))
    return state


def test_the_sampled_worlds_agree_with_an_announcement() -> None:
    """Seat 0 announced its side: in every world seat 1 samples it is on that side (Re: it holds a
    queen of clubs), and replay refuses the announcement where it is not (the queen moved away)."""
    for seed in range(40):
        state = announcing_hand(seed)
        if state is None or state.sides[0] != 0 or (state.hand_of(0) & QC).bit_count() != 1 \
                or any(s == 0 and QC >> c & 1 for s, c in state.view(0).played):
            continue  # seat 0 announced Re holding one queen, not yet played
        worlds = worlds_of(state, 1, seed)
        assert all(world.sides[0] == 0 and (world.hand_of(0) | sum(1 << c for s, c in world.view(0).played
                                                                   if s == 0)) & QC for world in worlds)
        queen = next(iter_bits(state.hand_of(0) & QC))
        other = next(iter_bits(state.hand_of(3) & ~QC))
        assert swapped_game(state, queen, other) is None  # the queen moved to seat 3: Re is refused on replay
        break
    else:
        raise AssertionError("no deal where seat 0 announced Re with a queen unplayed")
    one = deal({1: "QC QC"})  # seat 0 holds no queen: Re is not its to announce, on replay as in play
    with pytest.raises(IllegalAction):
        play(one, "announce re")


def test_nobody_learns_where_an_unannounced_queen_of_clubs_is() -> None:
    """Seat 0 announced its side (Re or Kontra) on its first turn: moving an unplayed queen of clubs
    between seats 2 and 3 (trading it for a trump there) changes neither seat 1's view, the worlds
    it samples nor any search's choice, though the sides change."""
    def cases() -> Iterator[tuple[GameState, int, int, int, int]]:
        for seed in range(80):
            state = announcing_hand(seed)
            if state is None:
                continue
            played = sum(1 << c for _, c in state.view(1).played)
            moves = [(queen, trump) for holder, other in ((2, 3), (3, 2))
                     for queen in iter_bits(state.hand_of(holder) & QC & ~played)
                     for trump in iter_bits(state.hand_of(other) & ~QC & ~played & state.context.trump_mask)]
            if moves and state.view(1).announcements:
                yield state, *moves[0], 1, seed

    twins_look_the_same(cases())


def test_greedy_announces_a_strong_hand_and_not_a_weak_one() -> None:
    strong = deal({0: "10H 10H QC QS QS QH QH JC JC AD AD 10D"})
    choice = make_agent("greedy").act(strong, strong.legal_actions(), random.Random(0))
    assert strong.action_to_string(choice).startswith("announce re")
    weak = deal({0: "QC 9S 9S 9H 9H KS KS KH KH 9C KC KC"})
    choice = make_agent("greedy").act(weak, weak.legal_actions(), random.Random(0))
    assert choice < ACTS.ncards  # a card: no announcement


def test_searches_play_the_announcements_without_crashing() -> None:
    rs = build_ruleset(str(FOLDER / "doppelkopf.yaml"), {"deals": 1})
    for spec in ("pimc:samples=2", "ismcts:iterations=8:worlds=2"):
        state = GameState(rs, seed=7)
        play_game(state, [make_agent(spec), make_agent("greedy")] * 2, random.Random(7))
        assert state.is_terminal() and sum(state.hands[-1].deltas) == 0
