"""A declarer's announcement (`announcements.<id>.by: declarer`): an undertaking such as Tarot's
chelem, Skat's Schwarz or Belote's capot, put to the declarer once the contract is fixed (and any
kitty exchanged), before the first lead; with `leads: true` the announcer leads the first trick.

Tested on a Couillon variant (the seat that accepts trump is the declarer) and on French Tarot:
who is asked and when, the lead, the public record, what expressions read, the checks with their
positions, the rulebook's sentences, the kernel's refusal and the agents' decisions.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import cannot_lose_a_trick
from couillon_dsl.compile import build_ruleset
from couillon_dsl.diff import differences
from couillon_dsl.engine import GameState
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

CAPOT = """extends: couillon
id: capot
name: Couillon with a capot
announcements:
  capot: {name: Capot, by: declarer, leads: true}
scoring:
  capot:
    when: decided and announced("capot")
    team: announcer("capot")
    delta: 'if(tricks(announcer("capot")) == tricks_per_hand, -1, 1)'
"""


@pytest.fixture(scope="module")
def capot(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("capot") / "capot.yaml"
    path.write_text(CAPOT, encoding="utf-8")
    return build_ruleset(str(path))


def accepted(rs, seed: int) -> GameState:
    """A game dealt from ``seed`` whose elder accepts the turned-up card: the declarer is then asked."""
    state = GameState(rs, seed=seed)
    state.deal_shuffled()
    state.apply(state.actions.accept)
    return state


def test_the_declarer_alone_is_asked_before_the_first_lead(capot):
    state = accepted(capot, 3)
    elder = (state.dealer + 1) % 4
    view = state.view(0)
    assert view.phase == "announce" and state.current_player() == elder == view.deciding_seat
    assert view.leader is None and view.trick == ()  # nobody has led yet
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["no", "announce capot"]


@pytest.mark.parametrize("answer", ["announce capot", "no"])
def test_announcing_gives_the_lead_and_is_public(capot, answer):
    state = GameState(capot, seed=5)
    state.deal_shuffled()
    state.apply(state.actions.pass_)  # the elder passes: the next seat accepts and declares
    state.apply(state.actions.accept)
    declarer = (state.dealer + 2) % 4
    state.apply(state.string_to_action(None, answer))
    view = state.view((declarer + 1) % 4)
    assert view.phase == "play"
    made = answer != "no"
    assert view.announcements == ((("capot", declarer),) if made else ())
    assert view.leader == state.current_player() == (declarer if made else (state.dealer + 1) % 4)


def test_no_declarer_no_question(capot):
    """All four pass and the bottom card fixes trump without a maker: nobody is asked."""
    state = GameState(capot, seed=2)
    state.deal_shuffled()
    for _ in range(4):
        state.apply(state.actions.pass_)
    assert state.view(0).phase == "play" and state.view(0).maker is None


def test_the_scoring_reads_the_announcement(capot):
    """The capot's announcer scores -1 (a line off) when it takes every trick, +1 (a loop) when not."""
    rng = random.Random(0)
    seen: set[bool] = set()
    for seed in range(200):
        state = GameState(capot, seed=seed)
        capot_action = state.string_to_action(None, "announce capot")
        while not state.is_terminal():
            if state.is_chance_node():
                state.deal_shuffled()
                continue
            legal = state.legal_actions()  # every declarer announces; the rest is random
            state.apply(capot_action if capot_action in legal else rng.choice(legal))
        for hand in state.hands:
            if hand.announcements and hand.outcome == "winner":
                team = capot.tables.team_of[hand.announcements[0][1]]
                swept = hand.tricks[team] == 4
                assert hand.played_tricks[0][0] == hand.announcements[0][1]  # the announcer led
                seen.add(swept)
        if seen == {True, False}:
            break
    assert seen == {True, False}
    score = capot.tables.score_hand  # (points, tricks, maker, dealer, ntricks, passes, ties, values, made)
    for tricks, capot_delta in (((4, 0), -1), ((3, 1), 1)):
        plain = score((30, 3), tricks, 0, 3, 4, 0, 0, (5, 5), []).deltas
        announced = score((30, 3), tricks, 0, 3, 4, 0, 0, (5, 5), [(0, 0)]).deltas
        assert announced[0] - plain[0] == capot_delta and announced[1] == plain[1]


def at_the_question(rs, seed: int) -> GameState:
    """A game dealt from ``seed`` whose first speaker takes the contract (Tarot: a Garde sans, no chien
    to exchange) and the others pass: the declarer is now asked."""
    state = GameState(rs, seed=seed)
    state.deal_shuffled()
    state.apply(state.string_to_action(None, "contract garde_sans") if rs.contracts else state.actions.accept)
    while state.view(0).phase == "auction":
        state.apply(state.actions.pass_)
    assert state.view(0).phase == "announce"
    return state


@pytest.mark.parametrize("spec", ["random", "greedy", "pimc:samples=3", "ismcts:iterations=12:worlds=3"])
def test_every_agent_answers_with_no_code_of_its_own(capot, spec):
    tarot = build_ruleset("tarot")
    for rs in (capot, tarot):
        agent, rng = make_agent(spec), random.Random(1)
        state = at_the_question(rs, 11)
        declarer = state.current_player()
        answer = agent.act(state, state.legal_actions(), rng)
        state.apply(answer)
        leader = state.current_player()
        assert leader == declarer if answer != state.actions.decline else leader == (state.dealer + 1) % 4
        for _ in range(4):  # the first trick, the agent at every seat
            state.apply(agent.act(state, state.legal_actions(), rng))
        assert len(state.finished_tricks()) == 1


def test_greedy_announces_only_what_cannot_fail():
    tarot = build_ruleset("tarot")
    t = tarot.tables
    ctx = t.context(tarot.layout.suits.index("T"), 0, t.contract_base[1])
    top = [f"{r}T" for r in range(21, 4, -1)]  # the 21 down to the 5 of trumps
    hand = tarot.layout.parse_mask
    assert cannot_lose_a_trick(ctx, hand(top + ["EX"]), t.roles)  # the Excuse completes the sweep, led last
    assert not cannot_lose_a_trick(ctx, hand(top + ["KS"]), t.roles)  # four trumps out: the king may be trumped
    assert not cannot_lose_a_trick(ctx, hand(top[1:] + ["4T", "EX"]), t.roles)  # the 21 is out


def test_checks_name_the_place(tmp_path: Path):
    def codes(body: str) -> list[tuple[str, str, int]]:
        path = tmp_path / "r.yaml"
        path.write_text(f"extends: couillon\nid: r\nname: R\n{body}", encoding="utf-8")
        return [(d.code, d.pointer, d.span.line) for d in check(load_ruleset(path)) if d.is_error]

    assert codes("announcements:\n  capot: {name: Capot, by: declarer, holder_of: QS}\n") == [
        ("declarer-announcement-shape", "/announcements/capot/holder_of", 5)]
    assert codes("announcements:\n  mit: {name: Mit, holder_of: QS, leads: true}\n") == [
        ("leads-without-declarer", "/announcements/mit/leads", 5)]
    assert codes("trump: {method: none}\ndeal:\n  - {packet: 6, to: all}\n"
                 "announcements:\n  capot: {name: Capot, by: declarer}\n") == [
        ("announcement-without-declarer", "/announcements/capot/by", 8)]
    schema = codes("announcements:\n  capot: {name: Capot, by: partners}\n")
    assert schema and schema[0][0].startswith("schema")  # by: partners answers an `after`


def test_rulebook_and_diff_say_it(capot):
    text = explain(capot)
    assert "Announcements are made by the declarer before the first lead." in text
    assert ("before the first lead, the declarer may announce Capot; everyone hears whether they do, and if they "
            "do they lead to the first trick") in text
    assert "except that a declarer who announced Capot leads to it" in text
    lines = differences(build_ruleset("couillon"), capot)
    assert any(line.startswith("Announcement Capot: once trump is fixed") and line.endswith("(new)")
               for line in lines)
    assert any(line.startswith("First lead:") and "announced Capot" in line for line in lines)


def test_the_kernel_declines_it_and_says_which_concept(capot):
    reason = ruleset_reason(capot)
    assert reason is not None and "`announcements[0].by: declarer`" in reason
