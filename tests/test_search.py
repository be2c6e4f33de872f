"""The searching agents' shared parts: the session chances a playout is valued by, and ISMCTS's search."""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.ismcts import IsmctsAgent, Node, descend
from couillon_dsl.agents.playout import Outlook, playout
from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import CHANCE, GameState
from example_games import HEARTS


def first_decision(rs, seed: int) -> GameState:
    state = GameState(rs, seed=seed)
    state.deal_shuffled()
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0])
    return state


def card_to_choose(rs) -> GameState:
    """Seed 4's deal past its first decision, greedy playing on to the next card with a choice."""
    state = first_decision(rs, 4)
    state.apply(state.legal_actions()[0])
    while len(state.legal_actions()) == 1 or state.legal_actions()[-1] >= state.actions.ncards:
        state.apply(GreedyAgent().act(state, state.legal_actions(), random.Random(0)))
    return state


def test_an_even_scoresheet_is_an_even_chance_and_a_line_nearer_the_goal_is_better() -> None:
    rs = build_ruleset("couillon")  # 5 lines down to 0
    outlook = Outlook(rs)
    state = GameState(rs)
    assert outlook.chances(state) == [0.5, 0.5]
    ahead = []
    for mine in range(1, 6):
        state.set_scoresheet([mine, 5])
        chances = outlook.chances(state)
        assert chances[0] + chances[1] == pytest.approx(1.0)
        ahead.append(chances[0])
    assert ahead == sorted(ahead, reverse=True)  # fewer lines to go, better chances
    state.set_scoresheet([1, 1])
    assert outlook.chances(state) == [0.5, 0.5]  # the next decided hand ends it
    state.set_scoresheet([1, 2])
    assert outlook.chances(state)[0] == pytest.approx(0.75)  # Pascal: win one of the next two hands


def test_a_tie_pending_prices_the_next_decided_hand_at_its_double() -> None:
    """Couillon: after a tie the next decided hand erases two lines (`tie_carry: next_decided_double`);
    one line from the goal against three, the leader wins that hand or stands at one against one
    (1/2 + 1/2 x 1/2 = 3/4, where without the tie Pascal gives 7/8); in Troeven, without a carry, a
    tie leaves the chances as they are."""
    rs = build_ruleset("couillon")
    outlook = Outlook(rs)
    state = GameState(rs)
    state.set_scoresheet([1, 3])
    assert outlook.chances(state)[0] == pytest.approx(0.875)
    state.set_scoresheet([1, 3], ties=1)
    assert outlook.chances(state) == pytest.approx([0.75, 0.25])
    state.set_scoresheet([2, 2], ties=1)
    assert outlook.chances(state) == pytest.approx([0.5, 0.5])
    cumulative = build_ruleset("couillon", {"tie_carry": "cumulative_double"})
    state = GameState(cumulative)
    # two ties in a row: the next decided hand erases four lines, the whole game for the side four
    # lines away; the other, five away, is left one line from it against four
    state.set_scoresheet([4, 5], ties=2)
    assert Outlook(cumulative).chances(state) == pytest.approx([0.5 + 0.5 * 0.5 ** 4, 0.5 - 0.5 * 0.5 ** 4])
    plain = build_ruleset("couillon", {"tie_carry": "none"})
    state = GameState(plain)
    state.set_scoresheet([1, 3], ties=1)
    assert Outlook(plain).chances(state)[0] == pytest.approx(0.875)


def test_a_deal_thrown_in_prices_the_point_it_owes_the_next_hands_winner() -> None:
    """Kwajongen (`pass_carry: single`): after a deal thrown in, the next decided hand's winner takes
    a point more, two steps: from two points against three, the leader wins with that hand or
    stands at two against one (1/2 + 1/2 x 1/4), where Pascal gives 11/16 without the carry."""
    rs = build_ruleset("kwajongen")
    outlook = Outlook(rs)
    state = GameState(rs)
    state.set_scoresheet([2, 3])
    assert outlook.chances(state)[0] == pytest.approx(11 / 16)
    state.set_scoresheet([2, 3], passes=1)
    assert outlook.chances(state) == pytest.approx([0.625, 0.375])


def test_chances_are_remembered_per_scoresheet_state_and_handed_out_as_new_lists() -> None:
    """A playout adds its tie-break to the list it gets: the remembered chances must not change."""
    rs = build_ruleset("couillon")
    outlook = Outlook(rs)
    state = GameState(rs)
    state.set_scoresheet([2, 4])
    first = outlook.chances(state)
    priced = list(first)
    first[0] += 1.0
    assert outlook.chances(state) == Outlook(rs).chances(state) == priced


def test_a_session_of_two_games_counts_games_won() -> None:
    """Kujong: two games to win; a team one game up is favoured even at an even scoresheet."""
    rs = build_ruleset("kujong")
    outlook = Outlook(rs)
    state = GameState(rs)
    assert outlook.chances(state) == [0.5, 0.5]
    state.play_random(random.Random(3))  # a whole session: the winner's chance is 1
    assert state.result is not None
    chances = outlook.chances(state)
    assert chances[state.result.winner] == 1.0 and sum(chances) == 1.0


def test_a_playout_ends_the_hand_and_scores_it() -> None:
    rs = build_ruleset("couillon")
    state = first_decision(rs, 4)
    values = playout(state, Outlook(rs), random.Random(1), GreedyAgent())
    assert len(state.hands) == 1
    assert state.current_player() in (CHANCE, -2) or state.view(0).phase != "play"
    assert abs(values[0] + values[1] - 1.0) < 0.01  # session chances, plus a small card-point tie-break


def test_ismcts_repeats_itself_under_a_seed_and_searches_only_legal_actions() -> None:
    rs = build_ruleset("mit")
    state = first_decision(rs, 7)
    legal = state.legal_actions()
    choices = {IsmctsAgent(iterations=50, worlds=5).act(state, legal, random.Random(11)) for _ in range(3)}
    assert len(choices) == 1 and choices <= set(legal)


@pytest.mark.parametrize("name", ["couillon-ardennes", "schieber", "tarot"])
def test_searches_decide_alike_on_a_replayed_game_and_on_a_clone(name: str) -> None:
    """A seeded search depends only on the game, not on how its state was built: the same
    decisions from the live state, from its history replayed action by action, and from a clone
    (which shares the ruleset's tables and copies the rest), card after card of a hand."""
    rs = build_ruleset(name)
    state = first_decision(rs, 5)
    for step in range(6):
        replayed = GameState(rs)
        for action in state.history():
            replayed.apply(action)
        legal = state.legal_actions()
        for spec in ("ismcts:iterations=30:worlds=5", "pimc:samples=4"):
            choices = {make_agent(spec).act(s, legal, random.Random(step)) for s in (state, replayed, state.clone())}
            assert len(choices) == 1 and choices <= set(legal), spec
        state.apply(choices.pop())
        while state.current_player() >= 0 and len(state.legal_actions()) == 1:
            state.apply(state.legal_actions()[0])
        if state.current_player() < 0:
            break


def test_a_paired_root_tries_each_action_in_each_world() -> None:
    """Standard Couillon, the first card of a hand: forced through each root action in each of
    three worlds, the walk starts at that action's node, which every world offered; unforced,
    the root chooses for itself. Both root kinds decide legally, each repeating itself."""
    rs = build_ruleset("couillon")
    state = card_to_choose(rs)
    legal, seat = state.legal_actions(), state.current_player()
    team_of, rng = rs.tables.team_of, random.Random(2)
    worlds = Sampler().worlds(state, seat, 3, rng)
    root = Node(team_of[seat])
    for world in worlds:
        for action in legal:
            path = descend(root, world.clone(), team_of, 0.5, rng, GreedyAgent(), action)
            assert path[0] is root.children[action]
    assert sorted(root.children) == sorted(legal)
    assert all(child.available == len(worlds) for child in root.children.values())
    for paired in (0, 1):
        agent = f"ismcts:iterations=40:worlds=4:paired={paired}"
        choices = {make_agent(agent).act(state, legal, random.Random(9)) for _ in range(2)}
        assert len(choices) == 1 and choices <= set(legal)
    with pytest.raises(ValueError, match="paired must be 1"):
        make_agent("ismcts:paired=2")


def test_a_node_below_the_root_grows_children_only_once_it_has_expand_visits() -> None:
    """Standard Couillon, the second card of a hand, each root action forced in turn: with
    ``expand=4`` an action's node is walked past only from its fourth visit on, and each later
    visit adds at most one node below it; with the default, from its first."""
    rs = build_ruleset("couillon")
    state = card_to_choose(rs)
    legal, seat = state.legal_actions(), state.current_player()
    team_of, rng = rs.tables.team_of, random.Random(2)
    worlds = Sampler().worlds(state, seat, 6, rng)
    grown = {}
    for expand in (1, 4):
        root = Node(team_of[seat])
        for world in worlds:
            for action in legal:
                before = root.children[action].visits if action in root.children else 0
                path = descend(root, world.clone(), team_of, 0.5, rng, GreedyAgent(), action, expand)
                assert len(path) == 1 if before < expand else len(path) > 1
                for node in path:
                    node.visits += 1
        grown[expand] = sum(len(child.children) for child in root.children.values())
    assert grown[1] == len(legal) * (len(worlds) - 1)
    assert grown[4] == len(legal) * (len(worlds) - 4)
    with pytest.raises(ValueError, match="expand must be an integer >= 1"):
        make_agent("ismcts:expand=0")


class Lowest:
    """A playout policy that plays the lowest legal action: its moves are easy to recognise."""

    def act(self, state: GameState, legal, rng: random.Random) -> int:
        return min(legal)


def test_with_others_policy_only_the_searching_seats_moves_are_searched() -> None:
    """Standard Couillon, a card of the second trick, many walks down one tree: with
    ``others=policy`` (the default) every other seat's move on every walk (one with a choice)
    is the policy's; with ``others=search`` every seat is searched, so UCB1 also tries other
    moves for them."""
    rs = build_ruleset("couillon")
    state = card_to_choose(rs)
    legal, seat = state.legal_actions(), state.current_player()
    team_of, rng = rs.tables.team_of, random.Random(2)
    worlds = Sampler().worlds(state, seat, 6, rng)
    for searcher in (seat, -1):
        root, policy_moves = Node(team_of[seat]), []
        for _ in range(10):
            for world in worlds:
                for action in legal:
                    walked = world.clone()
                    path = descend(root, walked, team_of, 0.5, rng, Lowest(), action, 1, searcher)
                    for node in path:
                        node.visits += 1
                        node.total += rng.random()
                    replay = world.clone()
                    for move in walked.history()[len(world.history()):]:
                        choices = replay.legal_actions()
                        if replay.current_player() != seat and len(choices) > 1:
                            policy_moves.append(move == min(choices))
                        replay.apply(move)
        assert policy_moves and all(policy_moves) == (searcher == seat)
    with pytest.raises(ValueError, match="others must be policy"):
        make_agent("ismcts:others=greedy")


def counting_draws(agent) -> list[GameState]:
    """The worlds ``agent``'s sampler draws from now on, listed as they are drawn."""
    draw, drawn = agent._sampler.draw, []

    def counted(*args):
        for world in draw(*args):
            drawn.append(world)
            yield world

    agent._sampler.draw = counted
    return drawn


@pytest.mark.parametrize("spec", ["ismcts:ms=0.001", "pimc:ms=0.001"])
def test_a_search_on_a_time_budget_draws_only_the_worlds_it_reaches(spec: str) -> None:
    """With no time to spare, ISMCTS's paired root plays one whole round (each action once) in
    one world, and PIMC plays each action out in one world: one world drawn, not ``worlds``."""
    rs = build_ruleset("couillon")
    state = card_to_choose(rs)
    agent = make_agent(spec)
    drawn = counting_draws(agent)
    assert agent.act(state, state.legal_actions(), random.Random(3)) in state.legal_actions()
    assert len(drawn) == 1


def test_ismcts_time_budget_is_honoured_roughly() -> None:
    rs = build_ruleset("couillon")
    state = first_decision(rs, 2)
    agent = make_agent("ismcts:ms=20")
    assert agent.act(state, state.legal_actions(), random.Random(0)) in state.legal_actions()



@pytest.mark.parametrize("kind", ["ismcts:iterations=30:worlds=8", "pimc:samples=6"])
def test_a_decision_that_is_not_a_card_overrules_greedy_only_with_evidence(kind: str) -> None:
    """Whatever the search found, with ``evidence`` it either keeps greedy's choice or takes its
    own best (the one it takes with evidence=0), and with overwhelming evidence asked for it
    keeps greedy's choice."""
    rs = build_ruleset("couillon")
    disagreed = 0
    for seed in range(40):  # the first seat asked whether it takes the turned-up card
        state = first_decision(rs, seed)
        legal = state.legal_actions()
        assert legal[0] >= state.actions.ncards
        base = GreedyAgent().act(state, legal, random.Random(0))
        own, never = (make_agent(f"{kind}:evidence={e}").act(state, legal, random.Random(seed)) for e in (0, 10**9))
        assert never == base
        if own != base:  # the same search, the same best: with evidence it is the one or the other
            disagreed += 1
            assert make_agent(f"{kind}:evidence=1").act(state, legal, random.Random(seed)) in (own, base)
    assert disagreed  # the search has a mind of its own: the rule is not vacuous here


def test_ismcts_decides_a_decision_that_is_not_a_card_as_pimc_does_in_fresh_worlds() -> None:
    """Standard Couillon, take or pass the turned-up card (two actions, twice a card's budget):
    ISMCTS with 200 iterations plays each action out in 200 worlds, none of them a world played
    before (its tree's cap of 8 worlds is for cards), and takes what PIMC takes with 100 samples
    under the same seed: the same worlds, the same playouts, the same evidence rule."""
    rs = build_ruleset("couillon")
    for seed in range(6):
        state = first_decision(rs, seed)
        legal = state.legal_actions()
        assert len(legal) == 2 and legal[0] >= state.actions.ncards
        ismcts, pimc = make_agent("ismcts:iterations=200:worlds=8"), make_agent("pimc:samples=100")
        drawn = counting_draws(ismcts)
        assert ismcts.act(state, legal, random.Random(seed)) == pimc.act(state, legal, random.Random(seed))
        assert len(drawn) == 200


def test_a_discard_overrules_greedy_only_with_evidence() -> None:
    """French Tarot's taker discarding after taking the chien: asked for overwhelming evidence,
    both searches keep greedy's discard; deciding alone, they do not always."""
    rs = build_ruleset("tarot")
    rng = random.Random(0)
    checked = disagreed = 0
    for seed in range(30):
        state = first_decision(rs, seed)
        while state.current_player() >= 0 and state.view(0).phase != "discard" and not state.hands:
            state.apply(GreedyAgent().act(state, state.legal_actions(), rng))
        if state.current_player() < 0 or state.view(0).phase != "discard":
            continue
        legal = state.legal_actions()
        base = GreedyAgent().act(state, legal, random.Random(0))
        for kind in ("ismcts:iterations=40", "pimc:samples=4"):
            assert make_agent(f"{kind}:evidence=1e9").act(state, legal, random.Random(seed)) == base
            disagreed += make_agent(f"{kind}:evidence=0").act(state, legal, random.Random(seed)) != base
        checked += 1
        if checked == 3:
            break
    assert checked == 3 and disagreed


def test_evidence_is_counted_in_standard_errors() -> None:
    agent = make_agent("pimc:evidence=1.5")
    assert agent.overrules(0.1, 0.05 ** 2)  # two standard errors
    assert not agent.overrules(0.05, 0.05 ** 2)  # one
    assert not agent.overrules(-0.1, 0.0)
    with pytest.raises(ValueError, match="evidence must be a number >= 0"):
        make_agent("ismcts:evidence=-1")


def test_a_game_of_fixed_deals_prices_the_lead_against_the_deals_left() -> None:
    """French Tarot, four deals, the best total winning: no goal to count steps to, so a team's
    chance grows with its lead over the best other team, measured against the spread of the
    deals still to play (a lead counts for more in the last deal), and the result is exact."""
    rs = build_ruleset("tarot")
    outlook = Outlook(rs)
    state = GameState(rs)
    assert outlook.chances(state) == [0.5] * 4
    leads = []
    for lead in (0, 50, 150, 400):
        state.set_scoresheet([lead, 0, 0, -lead])
        leads.append(outlook.chances(state)[0])
    assert leads[0] == 0.5 and leads == sorted(leads) and leads[-1] < 1.0  # a big lead is not yet a win
    state.play_random(random.Random(5))
    last = GameState(rs)
    for action in state.history()[:-1]:  # the last deal's last card still to play
        last.apply(action)
    last.set_scoresheet([150, 0, 0, -150])
    assert outlook.chances(last)[0] > leads[2]  # the same lead, fewer deals left
    chances = outlook.chances(state)
    assert state.result is not None and chances[state.result.winner] == 1.0 and sum(chances) == 1.0


def test_where_the_goal_ends_the_game_the_furthest_from_it_is_favoured() -> None:
    """Hearts (`at_goal: ends_game`): the game ends when someone reaches 100 and the lowest score
    wins, so the chances run opposite to the scores, and taking points lowers a player's."""
    rs = build_ruleset(HEARTS)
    outlook = Outlook(rs)
    state = GameState(rs)
    even = outlook.chances(state)
    assert even == [pytest.approx(even[0])] * 4
    state.set_scoresheet([90, 10, 50, 50])
    chances = outlook.chances(state)
    assert chances[1] > chances[2] == chances[3] > chances[0]
    state.set_scoresheet([90, 10, 50, 60])
    assert outlook.chances(state)[3] < chances[3]
