"""Agents: legal on every shipped ruleset, specs per team or seat, and PIMC blind to hidden cards."""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import AGENTS, Agent, AgentSpecError, make_agent, seat_specs
from couillon_dsl.agents.greedy import GreedyAgent, avoids_tricks, maker_stakes, trick_value
from couillon_dsl.agents.pimc import PimcAgent
from couillon_dsl.agents.sampler import Sampler, voids
from couillon_dsl.builtin import builtin_names
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState, IllegalAction
from couillon_dsl.simulation import Job, play_range
from example_games import EXAMPLES, HEARTS

RULESETS = builtin_names() + EXAMPLES  # the examples: games nobody designed the language for
SPECS = ["random", "greedy", "pimc:samples=3", "ismcts:iterations=20:worlds=4"]


@pytest.fixture(scope="module")
def rulesets() -> dict:
    return {name: build_ruleset(name) for name in RULESETS}


def test_every_shipped_ruleset_is_covered() -> None:
    assert {"couillon", "kwajongen", "mit"} <= set(RULESETS)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name", RULESETS)
def test_agent_returns_a_legal_action(rulesets: dict, name: str, spec: str) -> None:
    rs = rulesets[name]
    agent = make_agent(spec)
    assert isinstance(agent, Agent)
    state = GameState(rs, seed=5)
    rng = random.Random(5)
    decisions = 0
    while not state.is_terminal() and decisions < 80:
        seat = state.current_player()
        if seat == CHANCE:
            state.deal_shuffled()
            continue
        legal = state.legal_actions()
        action = agent.act(state, legal, rng)
        assert action in legal, (state.action_to_string(action), [state.action_to_string(a) for a in legal])
        state.apply(action)
        decisions += 1
    assert decisions == 80 or state.is_terminal()


def test_registry_names_match_the_agents_and_all_are_tested() -> None:
    for name, factory in AGENTS.items():
        assert factory().name == name
    assert {spec.split(":")[0] for spec in SPECS} == set(AGENTS)


def test_specs_expand_per_team_and_per_seat() -> None:
    rs = build_ruleset("couillon")  # teams (0, 2) and (1, 3)
    assert seat_specs("greedy", rs) == ("greedy",) * 4
    assert seat_specs("pimc, random", rs) == ("pimc", "random", "pimc", "random")
    assert seat_specs("random,greedy,pimc,random", rs) == ("random", "greedy", "pimc", "random")
    six = build_ruleset("mit-6")
    teams = six.players.teams
    specs = seat_specs("pimc:samples=4,greedy", six)
    assert all(specs[seat] == "pimc:samples=4" for seat in teams[0])
    assert all(specs[seat] == "greedy" for seat in teams[1])


@pytest.mark.parametrize("spec", ["", "random,", "nobody", "greedy:share", "greedy:share=2", "greedy:share=x",
                                  "pimc:samples=0", "pimc:samples=1.5", "random:speed=3",
                                  "pimc:ms=-5", "ismcts:iterations=0", "ismcts:ms=-1", "ismcts:worlds=0",
                                  "ismcts:c=x"])
def test_bad_specs_are_refused_with_a_reason(spec: str) -> None:
    with pytest.raises(AgentSpecError):
        seat_specs(spec, build_ruleset("couillon"))


def test_greedy_beats_random() -> None:
    rs = build_ruleset("couillon")
    tally = play_range(Job("couillon", (), 2, ("greedy", "random") * 2), rs, 0, 60)
    assert tally.team_wins[0] > 0.7 * tally.games


def test_greedy_takes_trump_at_the_break_even_of_the_scoring() -> None:
    """Standard Couillon: a made hand takes a line off the maker's team, a beaten maker gives one
    to the other team and takes a loop (digest 1.1): +1 against -2, so making needs a chance of
    2/3; with a loop worth two lines (Couillon Forcé's option) it needs 3/4."""
    couillon = build_ruleset("couillon")
    assert maker_stakes(couillon, 4) == (1.0, 2.0)
    assert maker_stakes(build_ruleset("couillon-force", {"loop_penalty": 2}), 4) == (1.0, 3.0)
    bar = GreedyAgent().maker_bar(couillon, 4)
    assert bar.break_even == pytest.approx(2 / 3)
    assert bar.tricks == 4
    layout, t = couillon.layout, couillon.tables
    hearts = t.context(layout.suits.index("H"), t.always_promoted)

    def value(cards: str) -> float:  # the jack of hearts turned up, the rest unseen
        hand = layout.parse_mask(cards.split())
        return trick_value(hearts, hand, layout.full_mask & ~hand & ~layout.parse_mask(["JH"]))

    # three low trumps: 3/4 each; the ace and king of trumps: 3/4 + 1/4 each (the king is a master
    # once the ace is in hand); two low trumps, or the ace of trumps and a side ace, fall short
    assert value("QH 10H 9H 9C") == 2.25 and bar.makes(2.25, seat=1, held=4)
    assert value("AH KH 9C 10D") == 2.0 and bar.makes(2.0, seat=1, held=4)
    assert value("QH 9H 10S 9C") == 1.5 and not bar.makes(1.5, seat=1, held=4)
    assert value("AH AS 9C 10D") == 1.25 and not bar.makes(1.25, seat=1, held=4)
    # alone, the king of trumps is beaten by one unseen card (the ace), the queen by two
    assert value("KH") == 1.0 and value("QH") == 0.75


# ---------------------------------------------------------------------------- PIMC sees only its view

def decision_point(rs, seed: int, plays: int) -> tuple[GameState, int] | None:
    """A random first deal, stopped at a seat's choice among several actions after ``plays`` cards."""
    state = GameState(rs, seed=seed)
    rng = random.Random(seed)
    if state.current_player() != CHANCE:
        return None
    state.deal_shuffled()
    while True:
        seat = state.current_player()
        if seat < 0:
            return None  # the deal ended without a suitable choice
        legal = state.legal_actions()
        if len(legal) > 1 and len(state.view(seat).played) >= plays:
            return state, seat
        state.apply(legal[int(rng.random() * len(legal))])


def hidden_permuted(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same game with the cards ``seat`` cannot see dealt differently, and an identical view."""
    rs = state.ruleset
    ncards = rs.layout.size
    history = state.history()
    pack, public = history[:ncards], history[ncards:]
    view = state.view(seat)
    known = view.hand
    for card in [c for _, c in view.played] + [c for c, _ in view.face_up]:
        known |= 1 << card
    hidden = [i for i, card in enumerate(pack) if not known >> card & 1]
    for _ in range(300):
        cards = [pack[i] for i in hidden]
        rng.shuffle(cards)
        other_pack = list(pack)
        for i, card in zip(hidden, cards):
            other_pack[i] = card
        other = GameState(rs)
        try:
            for action in other_pack + public:
                other.apply(action)
        except IllegalAction:
            continue  # the permutation broke a follow rule or an announcement: not consistent with the view
        moved = any(other.hand_of(s) != state.hand_of(s) for s in range(rs.players.count) if s != seat)
        if moved and other.view(seat) == view:
            return other
    return None


@pytest.mark.parametrize("name", ["couillon", "couillon-force", "kwajongen", "mit", "troeven", "schieber", *EXAMPLES])
def test_searching_agents_decide_the_same_when_hidden_cards_are_permuted(rulesets: dict, name: str) -> None:
    assert_blind_to_hidden_cards(rulesets[name])


def assert_blind_to_hidden_cards(rs) -> None:
    """At three decision points, PIMC's worlds and both searches' choices are the same when the cards the
    deciding seat cannot see are dealt otherwise."""
    checked = 0
    for seed in range(40):
        found = decision_point(rs, seed, plays=seed % 6)
        if found is None:
            continue
        state, seat = found
        other = hidden_permuted(state, seat, random.Random(seed))
        if other is None:
            continue
        worlds = [PimcAgent(samples=6).worlds(s, seat, random.Random(seed)) for s in (state, other)]
        deals = [[tuple(w.hand_of(s) for s in range(rs.players.count)) for w in ws] for ws in worlds]
        assert deals[0] == deals[1] and len(deals[0]) == 6
        assert all(w.view(seat) == state.view(seat) for w in worlds[0])
        legal = state.legal_actions()
        for spec in ("pimc:samples=6", "ismcts:iterations=40:worlds=6"):
            choices = [make_agent(spec).act(s, legal, random.Random(seed)) for s in (state, other)]
            assert choices[0] == choices[1], spec
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_worlds_read_the_other_seats_passes_with_greedy_as_the_model() -> None:
    """Standard Couillon, the dealer to speak after three passes: in a world where greedy, holding
    an opponent's or the partner's cards, would have taken the turned-up card, that pass says
    otherwise; such worlds are dropped with the reading's chance (all of them at 1, none at 0)."""
    rs = build_ruleset("couillon")
    state = GameState(rs, seed=1)
    while state.current_player() == CHANCE:
        state.deal_shuffled()
    for _ in range(3):
        state.apply(state.actions.pass_)
    dealer = state.current_player()
    passers = [seat for seat, word in state.view(dealer).decisions if word == "pass"]
    assert len(passers) == 3
    team_of = rs.tables.team_of

    def contradicting(reading: float, partner: bool = False) -> int:
        worlds = Sampler(reading).worlds(state, dealer, 60, random.Random(5))
        assert len(worlds) == 60
        greedy, t = GreedyAgent(), rs.tables
        offered = state.view(dealer).offered
        ctx = t.context(rs.layout.suit_of(offered), t.always_promoted)
        bar = greedy.maker_bar(rs, state.hand_tricks)
        return sum(any(bar.makes(trick_value(ctx, hand, rs.layout.full_mask & ~hand & ~(1 << offered)), seat, 4)
                       for seat in passers if (team_of[seat] == team_of[dealer]) == partner
                       for hand in [world.hand_of(seat)]) for world in worlds)

    assert contradicting(1.0) == contradicting(1.0, partner=True) == 0
    assert contradicting(0.0) > 3 * contradicting(0.9) > 0
    assert contradicting(0.0, partner=True) > 0


def test_voids_come_from_the_follow_rule() -> None:
    """Standard Couillon: a seat that discarded on a plain lead holds none of that suit, and nothing else is ruled out."""
    rs = build_ruleset("couillon")
    layout = rs.layout
    checked = 0
    for seed in range(200):
        found = decision_point(rs, seed, plays=8)
        if found is None:
            continue
        state, seat = found
        view = state.view(seat)
        ctx = state.context
        unseen = layout.full_mask & ~view.hand
        for card in [c for _, c in view.played] + [c for c, _ in view.face_up]:
            unseen &= ~(1 << card)
        expected: dict[int, int] = {}
        for first in range(0, len(view.played), 4):
            trick = view.played[first:first + 4]
            led = layout.suit_of(trick[0][1])
            for who, card in trick[1:]:
                if layout.suit_of(card) not in (led, state.trump):
                    expected[who] = expected.get(who, 0) | layout.suit_mask(led) & unseen
        found_voids = voids(ctx, view, 4, unseen)
        assert {s: m for s, m in found_voids.items() if m} == {s: m for s, m in expected.items() if m}
        checked += bool(expected)
        if checked == 5:
            break
    assert checked == 5


def test_pimc_worlds_are_whole_legal_games_with_the_same_view() -> None:
    rs = build_ruleset("kwajongen")
    for seed in range(3):
        found = decision_point(rs, seed, plays=6)
        if found is None:
            continue
        state, seat = found
        for world in PimcAgent(samples=4).worlds(state, seat, random.Random(seed)):
            replay = GameState(rs)
            for action in world.history():
                replay.apply(action)
            assert replay.view(seat) == state.view(seat)


def test_one_world_asked_for_is_found_whoever_asks() -> None:
    """OpenSpiel's ISMCTS bot resamples one world at a time: that must succeed for every seat at
    every point of a hand, even when the other seats play at random (so the greedy reading of
    their decisions fails and their voids pile up). With the attempts scaled to the count alone,
    one world got eight attempts and about one standard Couillon check in a hundred came back empty."""
    rs = build_ruleset("couillon")
    for seed in range(3):
        state, rng = GameState(rs, seed=seed), random.Random(seed)
        while len(state.hands) < 2 and state.current_player() != -2:
            if state.current_player() == CHANCE:
                state.deal_shuffled()
                continue
            for seat in range(rs.players.count):
                assert Sampler().worlds(state, seat, 1, rng), (seed, seat, len(state.history()))
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("after_hands", [0, 1])
def test_a_game_set_to_a_scoresheet_is_searched_from_that_scoresheet(after_hands: int) -> None:
    """A game started, or carried on, from a scoresheet set by hand (scenarios, the API) is replayed
    with it: the worlds stand at the same scores and ties pending, as the view does. (Replayed from a
    new game, every world's view differed, none was found, and the searches fell back to greedy.)"""
    rs = build_ruleset("couillon")
    state, rng = GameState(rs, seed=3), random.Random(3)
    while len(state.hands) < after_hands:
        state.apply(rng.choice(state.legal_actions())) if state.current_player() >= 0 else state.deal_shuffled()
    state.set_scoresheet([2, 3], ties=1)
    while state.current_player() < 0:
        state.deal_shuffled()
    seat = state.current_player()
    worlds = Sampler().worlds(state, seat, 8, rng)
    assert len(worlds) == 8
    assert all(w.scores == (2, 3) and w.ties_pending == 1 and w.view(seat) == state.view(seat) for w in worlds)


HEARTS_DEAL = {1: "10C 3C 4C 5C 6C 7C 8C JC QC AS 2D 3D 2H",  # the dealer is seat 0: seat 1 leads
               2: "AC 9C 2C QS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
               3: "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D AH KH",
               0: "KC QH JH 10H 9H 8H 7H 6H 5H 4H 3H JS KS"}


def hearts_after(*plays: str) -> GameState:
    """Hearts (examples/hearts.yaml) dealt HEARTS_DEAL, then ``plays``."""
    rs = build_ruleset(HEARTS, {"two_of_clubs_leads": False, "passing": False})  # the elder leads, any card
    state = GameState(rs)
    for seat in (1, 2, 3, 0):  # 13 cards to each, from the elder round to the dealer
        for card in HEARTS_DEAL[seat].split():
            state.apply(rs.layout.parse(card))
    for card in plays:
        state.apply(rs.layout.parse(card))
    return state


def greedy_card(state: GameState) -> str:
    return state.action_to_string(GreedyAgent().act(state, state.legal_actions(), random.Random(0)))


def test_greedy_avoids_tricks_where_they_cost_their_taker() -> None:
    """Hearts' scoring makes a trick cost its taker: greedy ducks under the winning card, sheds its
    queen of spades on another's trick, and leads the card the most unseen cards beat. In a game
    of bids greedy plays to its bid instead (`wants_tricks`), whatever a trick costs unbid."""
    assert [name for name in RULESETS if (rs := build_ruleset(name)).bids is None and avoids_tricks(rs)] == [HEARTS]
    assert greedy_card(hearts_after()) == "2D"  # not the 2H (unbroken): eleven unseen diamonds beat it
    assert greedy_card(hearts_after("10C")) == "9C"  # the highest club under the ten, not the ace
    assert greedy_card(hearts_after("2D")) == "QS"  # void in diamonds: the costliest card goes
    assert greedy_card(hearts_after("2D", "QS")) == "4D"  # every diamond wins: the lowest, seat 0 may overtake
