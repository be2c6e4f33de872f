"""Declarations made by a trick's winner before he leads the next (`when: trick_won`), shown by Tute's
songs and tute: offered (or, when not optional, declared) only to the seat that has just won a trick,
the best combination not declared before, one a trick won; shown to everyone; a tute ending the hand;
combined with drawing from the stock (found in the hand as it stands); the checks; random play,
every agent and replay agreeing."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check
from example_games import FOLDER
from packs import agents_game, declaration_errors, say, stacked
from test_declarations import hands_with_melds_replayed

TUTE = str(FOLDER / "tute.yaml")
RS = build_ruleset(TUTE)
LAYOUT = RS.layout
D, L, P, R = 0, 1, 2, 3  # dealer 0: the elder (L) leads
LR = 1  # L+R's team, against D+P's (0)

# hearts are trumps (D's last card); L holds the forty (KH QH) and a twenty (KS QS)
SONGS = {"L": "KH QH KS QS AS 3S AD 3D AC 3C", "P": "AH 3H JH 7H JS 7S 6S KD QD JD",
         "R": "6H 5H 4H 5S 4S 2S 7D 6D KC QC", "D": "JC 7C 6C 5C 4C 2C 5D 4D 2D 2H"}
SING = "declare cante"


def declared(state: GameState) -> list[tuple[int, str, int]]:
    return [(seat, label, value) for _, label, seat, value, _ in state.view(P).melds]


def offered(state: GameState) -> bool:
    return state.string_to_action(None, SING) in state.legal_actions()


def test_no_song_before_a_trick_is_won_and_none_for_a_seat_that_did_not_win_it() -> None:
    state = stacked(RS, SONGS)
    assert not offered(state)
    with pytest.raises(IllegalAction, match="just won a trick"):
        say(state, SING)
    say(state, "AS", "6S", "2S", "2H")  # D trumps and wins: L, holding his pairs, is not on lead
    assert state.current_player() == D and not offered(state) and not declared(state)


def test_the_winner_sings_the_forty_first_then_one_pair_for_each_trick_won() -> None:
    state = stacked(RS, SONGS)
    say(state, "AD", "JD", "6D", "2D")
    assert state.current_player() == L and offered(state)
    say(state, SING)
    assert declared(state) == [(L, "the forty", 40)]
    assert not offered(state)  # one song a trick won
    with pytest.raises(IllegalAction, match="declared one since winning this trick"):
        say(state, SING)
    say(state, "3D", "QD", "7D", "4D")
    say(state, SING)
    assert declared(state) == [(L, "the forty", 40), (L, "twenty in swords", 20)]


def test_a_song_declined_by_leading_is_offered_again_after_the_next_trick_won() -> None:
    state = stacked(RS, SONGS)
    say(state, "AD", "JD", "6D", "2D")
    say(state, "3D", "QD", "7D", "4D")  # L leads instead of singing
    assert not declared(state) and offered(state)
    say(state, SING)
    assert declared(state) == [(L, "the forty", 40)]  # still the forty first


def test_the_sung_cards_are_shown_to_every_seat_until_played() -> None:
    state = stacked(RS, SONGS)
    say(state, "AD", "JD", "6D", "2D", SING)
    kh, qh = LAYOUT.parse("KH"), LAYOUT.parse("QH")
    for seat in range(4):
        assert {(kh, L), (qh, L)} <= set(state.view(seat).face_up)
    worlds = Sampler().worlds(state, P, 12, random.Random(5))
    assert len(worlds) == 12 and all(world.hand_of(L) >> kh & 1 and world.hand_of(L) >> qh & 1 for world in worlds)


def test_the_songs_count_for_the_singers_side_in_the_hands_count() -> None:
    state = stacked(RS, SONGS)
    say(state, "AD", "JD", "6D", "2D", SING)
    state.play_random(random.Random(0))
    first = state.hands[0]
    kinds = [d.id for d in RS.declarations]
    assert first.melds[0][:4] == ("cante", "the forty", L, 40)
    assert first.declared[kinds.index("cante")][LR] == sum(m[3] for m in first.melds if m[0] == "cante" and m[2] in (L, R))


# L holds the four kings; clubs are trumps
KINGS = {"L": "KS KH KD KC AS AD AH 3S 3D 3H", "P": "AC 3C QH JH 7H 6H 5H QS JS 5D",
         "R": "6S 5S 4S 2S QD JD 7D 6D 7S 4H", "D": "4D 2D QC JC 7C 6C 5C 4C 2H 2C"}


@pytest.mark.parametrize(("tute", "score", "over"), [("game", 4, True), ("hand", 1, False)])
def test_a_tute_is_declared_at_once_on_a_trick_won_and_ends_the_hand(tute: str, score: int, over: bool) -> None:
    rs = build_ruleset(TUTE, options={"tute": tute})
    state = stacked(rs, KINGS)
    assert all(a < state.actions.ncards for a in state.legal_actions())  # nothing to declare before a trick is won
    say(state, "AD", "5D", "6D", "2D")
    first = state.hands[0]  # the hand stopped at once: nine cards each never played
    assert [m[:4] for m in first.melds] == [("tute", "tute of kings", L, 1)]
    assert len(first.played_tricks) == 1 and first.points[LR] == 11 and first.winner == LR
    assert state.scores[LR] == score and state.is_terminal() == over


def test_random_play_and_replay_sing_the_same_songs() -> None:
    assert hands_with_melds_replayed(RS, 10)


@pytest.mark.parametrize("agent", ["greedy", "pimc:samples=2", "ismcts:iterations=40"])
def test_every_agent_plays_tute_and_its_games_replay(agent: str) -> None:
    state = agents_game(RS, [make_agent(agent), make_agent("random")] * 2, random.Random(3))
    songs = sum(1 for hand in state.hands for meld in hand.melds if meld[0] == "cante")
    replayed = GameState(RS)
    for action in state.history():
        replayed.apply(action)
    assert replayed.result == state.result and replayed.hands == state.hands and songs > 0


def test_greedy_sings_when_offered() -> None:
    state = stacked(RS, SONGS)
    say(state, "AD", "JD", "6D", "2D")
    assert make_agent("greedy").act(state, state.legal_actions(), random.Random(0)) == state.string_to_action(None, SING)


# Schnapsen's marriage sung after a trick won instead of on the lead: found in the hand as it stands,
# a drawn king completing the dealt queen
def schnapsen_singing(tmp_path: Path, extra: str = "    optional: true\n") -> str:
    path = tmp_path / "singing.yaml"
    path.write_text(f"extends: {FOLDER / 'schnapsen.yaml'}\nid: singing\nname: Singing\ndeclarations:\n  marriage:\n"
                    f"    name: Marriage\n    when: trick_won\n    shown: true\n{extra}"
                    "    patterns:\n      - {cards: [KD, QD], value: 20}\n", encoding="utf-8")
    return str(path)


def test_beside_drawing_a_card_drawn_since_the_deal_completes_a_song(tmp_path: Path) -> None:
    path = schnapsen_singing(tmp_path, "")
    assert not [d for d in check(load_ruleset(path)) if d.severity == "error"]
    rs = build_ruleset(path)
    spec = {"L": "KS QS KH JD JC", "D": "AS 10S AC 10C QD", "stock": "JH QH 10D KD AD AH 10H KC QC JS"}
    state = stacked(rs, spec)
    say(state, "KS", "AS")  # D wins and draws QH: no king of diamonds yet
    assert not state.view(D).melds
    say(state, "AC", "JC")  # D wins and draws KD beside the dealt QD: declared at once (not optional)
    assert [(seat, value) for _, _, seat, value, _ in state.view(L).melds] == [(D, 20)]
    assert hands_with_melds_replayed(rs, 8)


PATTERN = "\n    patterns: [{cards: [KT, QT], value: 20}]"


@pytest.mark.parametrize(("base", "declaration", "code"), [
    ("couillon", "when: trick_won\n    optional: true\n    shown: true" + PATTERN, None),
    (str(FOLDER / "schnapsen.yaml"), "when: trick_won\n    shown: true" + PATTERN, None),  # beside drawing
    ("couillon", "when: trick_won\n    optional: true" + PATTERN, "declaration-trick-won-shown"),
    ("couillon", "when: first_play\n    optional: true\n    shown: true" + PATTERN, "declaration-optional-when"),
])
def test_the_checks(tmp_path: Path, base: str, declaration: str, code: str | None) -> None:
    assert declaration_errors(tmp_path, base, declaration) == ({code} if code else set())
