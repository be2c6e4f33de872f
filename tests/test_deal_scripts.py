"""Random deal scripts under every trump procedure: a script the validator accepts compiles and
plays a hand, with random and with greedy players; one it refuses is refused with placed,
registered diagnostics. The deal is where concepts meet most (stocks dealt from, turn-ups,
kitties, packets by who declared, schedules of hand sizes), and a script that validated but
failed at the deal (a turn-up after packets emptied the stock) was found this way.
"""
from __future__ import annotations

import copy
import os
import random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.compile import compile_ruleset
from couillon_dsl.diagnostics import CODES
from couillon_dsl.engine import GameState
from couillon_dsl.loader import Document, load_ruleset
from couillon_dsl.validate import check
from example_games import EXAMPLES

# one ruleset per trump procedure and deal concept: offer (and its fallbacks), choice with a
# deferral, a taken offered card and a second naming round, packets by who took, turned trump
# with bids and a schedule, a kitty under an auction
BASES = {name: load_ruleset(name) for name in ("couillon", "couillon-force", "kwajongen", "tarot")}
BASES.update({path.rsplit("/", 1)[-1]: load_ruleset(path) for path in EXAMPLES
              if path.endswith(("euchre.yaml", "belote.yaml", "oh-hell.yaml", "whist.yaml"))})
LONG = int(os.environ.get("COUILLON_FUZZ_EXAMPLES", "0"))  # the long fuzzing mode (tests/test_fuzz.py): so many cases a test
SIZES = {name: (rs.layout.size, rs.players.count)
         for name, rs in ((name, compile_ruleset(doc)) for name, doc in BASES.items())}  # the pack and the seats
SELECTORS = ["all", "elder", "dealer", "all_but_elder", "all_but_dealer", "declarer", "all_but_declarer", [0, 2]]


@st.composite
def steps(draw: Any) -> dict[str, Any]:
    """One deal step of any kind, with the values real scripts use."""
    kind = draw(st.sampled_from(["packet", "packet", "packet", "stock", "turn_up", "set_aside", "kitty", "decide"]))
    if kind == "packet":
        size = draw(st.one_of(st.integers(1, 4), st.lists(st.integers(1, 4), min_size=2, max_size=3)))
        step: dict[str, Any] = {"packet": size, "to": draw(st.sampled_from(SELECTORS))}
        if draw(st.booleans()):
            step["face"] = draw(st.sampled_from(["up", "down"]))
        return step
    if kind == "stock":
        return {"stock": "rest"}
    if kind == "turn_up":
        step = {"turn_up": draw(st.sampled_from(["stock_top", "stock_bottom"]))}
        if draw(st.booleans()):
            step["if_stock_empty"] = "no_trump"
        return step
    if kind in ("set_aside", "kitty"):
        return {kind: draw(st.one_of(st.integers(1, 6), st.just("rest")))}
    return {"decide": "trump"}


@st.composite
def plausible_scripts(draw: Any) -> tuple[str, list[dict[str, Any]]]:
    """A base and a script shaped like real ones, sized to its pack: packets to everyone, perhaps
    a card face up to the dealer or the elder, the base's kitty if it has one, perhaps a stock
    with turn-ups, the decision, perhaps packets by who declared, the rest put away."""
    base = draw(st.sampled_from(sorted(BASES)))
    size, seats = SIZES[base]
    kitty = draw(st.integers(1, 6)) if any("kitty" in step for step in BASES[base].data["deal"]) else 0
    room = (size - kitty) // seats  # cards each seat may be dealt in all
    script: list[dict[str, Any]] = []
    dealt = 0
    for _ in range(draw(st.integers(1, 3))):
        if dealt < room:
            packet = draw(st.integers(1, min(4, room - dealt)))
            script.append({"packet": packet, "to": "all"})
            dealt += packet
    if dealt < room and draw(st.booleans()):
        seat = draw(st.sampled_from(["dealer", "elder"]))
        script += [{"packet": 1, "to": seat, "face": "up"}, {"packet": 1, "to": f"all_but_{seat}"}]
        dealt += 1
    if kitty:
        script.append({"kitty": kitty})
    ending = draw(st.sampled_from(["stock", "set_aside", "none"]))
    if ending == "stock":
        script.append({"stock": "rest"})
        for _ in range(draw(st.integers(1, 2))):
            turn_up: dict[str, Any] = {"turn_up": draw(st.sampled_from(["stock_top", "stock_bottom"]))}
            script.append(turn_up | ({"if_stock_empty": "no_trump"} if draw(st.booleans()) else {}))
    script.append({"decide": "trump"})
    later = draw(st.sampled_from(["none", "all", "by_declarer"]))
    packet = draw(st.one_of(st.integers(1, 3), st.lists(st.integers(1, 3), min_size=2, max_size=3)))
    if later == "all":
        script.append({"packet": packet, "to": "all"})
    elif later == "by_declarer":
        script += [{"packet": packet, "to": "declarer"}, {"packet": packet, "to": "all_but_declarer"}]
    if ending == "set_aside":
        script.append({"set_aside": "rest"})
    return base, script


def played(document: Document, seed: int) -> None:
    """Every diagnostic placed and registered; a script without errors compiles and plays a hand
    (or a thrown-in deal) with random players, then one with greedy players."""
    diagnostics = check(document)
    for diagnostic in diagnostics:
        assert diagnostic.code in CODES and diagnostic.span is not None, diagnostic
    if any(d.is_error for d in diagnostics):
        event("refused")
        return
    event("played")
    rs = compile_ruleset(document)
    greedy = make_agent("greedy")
    for chooses in (lambda state, legal, rng: legal[rng.randrange(len(legal))], greedy.act):
        state, rng = GameState(rs, seed=seed), random.Random(seed)
        for _ in range(2000):  # a hand, redeals included, is far shorter
            if state.hands or state.is_terminal():
                break
            if state.is_chance_node():
                state.deal_shuffled()
            else:
                legal = state.legal_actions()
                state.apply(chooses(state, legal, rng))
        assert state.hands or state.is_terminal(), "no hand finished in 2000 steps"


@settings(max_examples=LONG or 150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(BASES)), st.lists(steps(), min_size=1, max_size=7), st.integers(0, 2**16))
def test_a_deal_script_that_validates_compiles_and_plays(base: str, script: list[dict[str, Any]], seed: int) -> None:
    original = BASES[base]
    data = copy.deepcopy(original.data)
    data["deal"] = script
    played(Document(data, original.path, original.origins, original.files), seed)


@settings(max_examples=LONG or 150, deadline=None, suppress_health_check=list(HealthCheck))
@given(plausible_scripts(), st.integers(0, 2**16))
def test_a_plausible_deal_script_that_validates_compiles_and_plays(drawn: tuple[str, list[dict[str, Any]]],
                                                                  seed: int) -> None:
    base, script = drawn
    original = BASES[base]
    data = copy.deepcopy(original.data)
    data["deal"] = script
    played(Document(data, original.path, original.origins, original.files), seed)


@settings(max_examples=LONG or 100, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(BASES)), st.data(), st.integers(0, 2**16))
def test_a_real_script_with_one_step_changed_validates_or_is_refused(base: str, data: Any, seed: int) -> None:
    """Close to a real script (one step replaced, inserted or dropped), where most scripts validate."""
    original = BASES[base]
    document = copy.deepcopy(original.data)
    script = document["deal"]
    at = data.draw(st.integers(0, len(script) - 1))
    change = data.draw(st.sampled_from(["replace", "insert", "drop"]))
    if change == "drop" and len(script) > 1:
        del script[at]
    elif change == "insert":
        script.insert(at, data.draw(steps()))
    else:
        script[at] = data.draw(steps())
    played(Document(document, original.path, original.origins, original.files), seed)


def test_packets_to_the_declarer_beside_packets_to_a_named_seat_are_checked_for_every_declarer() -> None:
    """Belote's deal with its packet to the declarer kept and one to the elder put in: the hands come out even
    only when the elder declares, so the check walks the deal for every seat that may declare (found by
    the test above: the deal validated, and a seat was asked for a card with none in hand)."""
    original = BASES["belote.yaml"]
    data = copy.deepcopy(original.data)
    data["deal"][5] = {"packet": 2, "to": "elder"}
    found = check(Document(data, original.path, original.origins, original.files))
    assert any(d.code == "deal-uneven-hands" and "when the dealer declares" in d.message for d in found)
