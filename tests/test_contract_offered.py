"""A contract offered only where its `offered_when` holds (`contracts.<id>.offered_when`), on a ruleset
whose chooser names trump or picks a contract (Schieber, `trump.method: choose`): the choices it bars,
a named-trump contract read per suit, never a chooser left without a contract, and the checks."""
from __future__ import annotations

from pathlib import Path

from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.explain import explain
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

SCHIEBER = Path(__file__).resolve().parents[1] / "couillon_dsl" / "rulesets" / "schieber.yaml"


def variant(tmp_path: Path, contracts: str) -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {SCHIEBER}\nid: r\nname: R\ncontracts:\n{contracts}", encoding="utf-8")
    return path


# hearts and diamonds x1, spades and clubs x2, Obenabe and Undenufe x3, both of them played
SWISSLOS = {"multipliers": "swisslos", "no_trump_contracts": True}


def at_choice(path: Path) -> GameState:
    """A game of the variant at its first chooser's choice, once the deal is over."""
    state = GameState(build_ruleset(str(path), SWISSLOS), seed=3)
    for _ in range(200):  # bounded: the deal's chance nodes, then the choice
        if state.view(0).phase == "choose":
            return state
        state.apply(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    raise AssertionError("no choice reached")


def choices(path: Path) -> set[str]:
    """The first chooser's choices."""
    state = at_choice(path)
    return {state.action_to_string(a) for a in state.legal_actions()}


def test_a_contract_is_offered_only_where_its_condition_holds_read_per_named_suit(tmp_path):
    # hearts and diamonds count once, spades and clubs twice: only the suits worth 2 may be named
    path = variant(tmp_path, "  trumps: {offered_when: 'multiplier == 2'}\n")
    assert choices(path) == {"name S", "name C", "push", "contract top_down", "contract bottom_up"}


def test_a_contract_whose_condition_fails_is_not_offered_and_refused(tmp_path):
    path = variant(tmp_path, "  top_down: {offered_when: 'multiplier < 3'}\n")
    found = choices(path)
    assert "contract top_down" not in found and "contract bottom_up" in found and "name H" in found
    state = at_choice(path)
    try:
        state.apply(state.string_to_action(state.current_player(), "contract top_down"))
    except IllegalAction as exc:
        assert "offered_when does not hold" in str(exc)
    else:
        raise AssertionError("a contract not offered was accepted")


def test_the_chooser_is_never_left_without_a_contract(tmp_path):
    # no contract passes: every choice stays, the push too
    path = variant(tmp_path, "  trumps: {offered_when: 'multiplier > 5'}\n"
                             "  top_down: {offered_when: 'multiplier > 5'}\n  bottom_up: {offered_when: 'multiplier > 5'}\n")
    assert choices(path) == {"name H", "name D", "name S", "name C", "push", "contract top_down",
                             "contract bottom_up"}


def test_the_rulebook_says_when_a_contract_may_be_picked(tmp_path):
    text = explain(build_ruleset(str(variant(tmp_path, "  trumps: {offered_when: 'multiplier == 2'}\n")), SWISSLOS))
    assert "it may be picked, for each suit they may name, only when" in text
    assert "never left without a contract" in text


def diagnostics(tmp_path: Path, contracts: str) -> list:
    return [d for d in check(load_ruleset(variant(tmp_path, contracts))) if d.is_error]


def test_the_condition_may_not_read_the_play_a_definition_or_another_sides_cards(tmp_path):
    for text in ("points(maker) >= 61", "tricks(maker) == 0", "top_run(elder_team) > 1"):
        found = diagnostics(tmp_path, f"  trumps: {{offered_when: '{text}'}}\n")
        assert [d.code for d in found] == ["contract-offered-when-reads-hidden"], (text, found)
        assert "top_run(maker)" in found[0].hint
    found = diagnostics(tmp_path, "  trumps: {offered_when: 'made'}\n")  # a definition: may read the play
    assert found and all(d.code != "contract-offered-when-reads-hidden" for d in found)
    assert diagnostics(tmp_path, "  trumps: {offered_when: 'multiplier == 2 and top_run(maker) >= 0'}\n") == []


def test_the_condition_must_be_true_or_false(tmp_path):
    found = diagnostics(tmp_path, "  trumps: {offered_when: 'multiplier + 1'}\n")
    assert found and found[0].pointer == "/contracts/trumps/offered_when"


def test_the_condition_may_read_the_scoresheet_each_team_picking_a_contract_once(tmp_path):
    """The scoresheet is public: a tally of past picks bars a contract a team has played (Barbu's
    'each contract once'), and hand_number one not yet allowed."""
    import random

    path = tmp_path / "once.yaml"
    path.write_text(f"extends: {SCHIEBER}\nid: once\nname: Once\n"
                    "contracts:\n  top_down: {offered_when: 'tally(maker, \"top_downs\") == 0 and hand_number > 1'}\n"
                    "tallies:\n  top_downs: {adds: 'if(team == maker and contract == \"top_down\", 1, 0)'}\n",
                    encoding="utf-8")
    assert [d for d in check(load_ruleset(path)) if d.is_error] == []
    assert "contract top_down" not in choices(path)  # the first hand: hand_number is 1
    picked = 0
    for seed in range(6):
        state = GameState(build_ruleset(str(path), SWISSLOS), seed=seed)
        state.play_random(random.Random(seed))
        played = [hand.maker for hand in state.hands if hand.contract == "top_down"]
        assert len(played) == len(set(played)), "a team played top_down twice in one game"
        assert all(hand.contract != "top_down" for hand in state.hands[:1])
        picked += len(played)
    assert picked  # random choosers do pick it, once a team
