"""The rulesets as OpenSpiel games and PettingZoo environments (the ``rl`` extra; skipped without it)."""
from __future__ import annotations

import random

import pytest

from couillon_dsl.agents import GreedyAgent
from couillon_dsl.cards import iter_bits
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402  (comes with the extra)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import couillon_dsl.interop.openspiel  # noqa: E402,F401  (registers the game)
from couillon_dsl.interop.encoding import ViewEncoder  # noqa: E402
from couillon_dsl.interop.pettingzoo import env  # noqa: E402
from example_games import EXAMPLES, FOLDER, HEARTS  # noqa: E402

OH_HELL = str(FOLDER / "oh-hell.yaml")


def dealt(game, seed: int):
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


@pytest.mark.parametrize("name", ["couillon", "mit", "schieber", "tarot", *EXAMPLES])
def test_openspiel_consistency_checks_pass_on_one_hand(name: str) -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": name, "hands": 1})
    assert game.num_players() == build_ruleset(name).players.count
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_plays_a_whole_game_by_default() -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "couillon"})
    state = game.new_initial_state()
    rng = random.Random(2)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()) if not state.is_chance_node()
                           else rng.choice([a for a, _ in state.chance_outcomes()]))
    returns = state.returns()
    assert sorted(returns) == [-1.0, -1.0, 1.0, 1.0]
    assert returns[0] == returns[2] and returns[1] == returns[3]  # partners share the result


def test_openspiel_strings_and_tensors_come_from_the_seat_view_only() -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "couillon", "hands": 1})
    state = dealt(game, 4)
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    # another deal of the hidden cards: the seat cannot tell, the others can
    assert any(other.engine.hand_of(s) != state.engine.hand_of(s) for s in range(4) if s != seat)
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.observation_tensor(seat) == state.observation_tensor(seat)
    assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert len(state.observation_tensor(seat)) == ViewEncoder(game.setup().ruleset).size


def test_openspiel_ismcts_bot_plays_the_game() -> None:
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "couillon", "hands": 1})
    state = dealt(game, 1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(5)), 2.0, 20,
                           random_state=np.random.RandomState(5))
    assert bot.step(state) in state.legal_actions()


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # dict observations with masks, as PettingZoo's classic games
@pytest.mark.parametrize("name", ["couillon", "kwajongen", "couillon-force", "schieber", "tarot", *EXAMPLES])
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(env(name), num_cycles=200, verbose_progress=False)


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_a_dealer_sitting_out_is_never_asked_by_either_framework() -> None:
    """Skat for four: the dealer sits every hand out (`players.sit_out`); both frameworks' checks pass
    and neither asks him for an action."""
    skat = str(FOLDER / "skat.yaml")
    api_test(env(skat, table="four"), num_cycles=200, verbose_progress=False)
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": skat, "options": "table=four", "hands": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = dealt(game, 3)
    rng = random.Random(3)
    dealer = None
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        dealer = state.engine.dealer
        assert state.current_player() != dealer
        state.apply_action(rng.choice(state.legal_actions()))
    assert dealer is not None


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize("options", [{"all_pass": "ramsch"}, {"all_pass": "ramsch", "table": "four"}])
def test_a_hand_everyone_passed_into_passes_both_frameworks_checks(options: dict[str, str]) -> None:
    """Skat's Ramsch (`trump.auction.on_all_pass`): every seat a side of its own; PettingZoo's api_test and
    OpenSpiel's checks pass, and hands in which every seat passes are played through OpenSpiel."""
    skat = str(FOLDER / "skat.yaml")
    api_test(env(skat, **options), num_cycles=200, verbose_progress=False)
    text = ",".join(f"{key}={value}" for key, value in options.items())
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": skat, "options": text, "hands": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = dealt(game, 5)
    rng = random.Random(5)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        seat, legal = state.current_player(), state.legal_actions()
        passes = [a for a in legal if state.engine.phase == "auction" and state.action_to_string(seat, a) == "pass"]
        state.observation_tensor(seat)
        state.apply_action(passes[0] if passes else rng.choice(legal))
    hands = state.engine.hands
    assert [hand.trump_path for hand in hands] == ["all_passed"] * 2
    assert len(state.returns()) == game.num_players()


def test_pettingzoo_rewards_follow_the_scoresheet_and_masks_the_legal_actions() -> None:
    e = env("couillon", lines=7)
    e.reset(seed=5)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        totals[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        mask = observation["action_mask"]
        assert list(mask.nonzero()[0]) == e.state.legal_actions()
        e.step(int(random.Random(len(e.state.history())).choice(mask.nonzero()[0])))
    state: GameState = e.state
    assert state.result is not None
    winner = state.result.winner
    final = state.scores
    # each seat's rewards add up to its team's progress from 7 lines, less the other team's
    for seat, agent in enumerate(e.possible_agents):
        team = state.ruleset.tables.team_of[seat]
        assert totals[agent] == pytest.approx((7 - final[team]) - (7 - final[1 - team]))
    assert totals[f"seat_{state.ruleset.players.teams[winner][0]}"] > 0


def test_pettingzoo_observations_are_the_seat_view() -> None:
    e = env("couillon")
    e.reset(seed=1)
    agent = e.agent_selection
    seat = e.possible_agents.index(agent)
    observation = e.observe(agent)["observation"]
    assert list(observation) == pytest.approx(ViewEncoder(e.ruleset).encode(e.state.view(seat)))
    other = e.possible_agents[(seat + 1) % 4]
    assert not e.observe(other)["action_mask"].any()  # not its turn: nothing legal


def test_a_tarot_observation_holds_the_contract_sides_chien_and_discard_a_seat_knows() -> None:
    """French Tarot, a Garde: every seat's tensor and string name the contract, the taker and its
    partners (none for the taker, the two others for a defender) and the shown chien; the taker's
    own discard is in his observation, not in a defender's (but for trumps, which are shown)."""
    rs = build_ruleset("tarot")
    encoder = ViewEncoder(rs)
    state = GameState(rs)
    state.apply(state.actions.dealer0)
    state.deal_pack(list(range(rs.layout.size))[::-1])
    state.apply(state.string_to_action(None, "contract garde"))
    while state.view(0).phase == "auction":
        state.apply(state.actions.pass_)
    taker = state.view(0).deciding_seat
    greedy = GreedyAgent()
    while state.view(0).phase == "discard":
        state.apply(greedy.act(state, state.legal_actions(), random.Random(0)))
    pieces = dict(encoder.pieces)
    start = {name: sum(size for _, size in encoder.pieces[:i]) for i, (name, _) in enumerate(encoder.pieces)}

    def piece(seat: int, name: str) -> list[float]:
        return encoder.encode(state.view(seat))[start[name]:start[name] + pieces[name]]

    discards = state.view(taker).discarded
    assert discards.bit_count() == 6
    for seat in range(4):
        assert piece(seat, "contract") == [0.0, 1.0, 0.0, 0.0, 0.0]
        assert piece(seat, "declarer") == [float(s == taker) for s in range(5)]
        assert piece(seat, "partners") == [float(s == seat or (s != taker and seat != taker)) for s in range(4)]
        assert sum(piece(seat, "kitty")) == 6
        seen = state.view(seat).discarded
        assert seen == (discards if seat == taker else discards & rs.layout.suit_mask(4))
        assert piece(seat, "discarded") == [float(seen >> c & 1) for c in range(rs.layout.size)]
        text = encoder.text(state.view(seat))
        assert f"contract garde | declarer {taker}" in text and "kitty " in text


@pytest.mark.parametrize("name", ["couillon", "schieber", "tarot"])
def test_the_scores_in_an_observation_are_near_one_on_every_kind_of_scoresheet(name: str) -> None:
    """A race to a goal (Couillon's lines, Schieber's 1000 points) and a game of four deals with
    no goal (French Tarot, hundreds of points a hand) alike: a learner sees the scores in units
    of what a game spans, not raw points."""
    rs = build_ruleset(name)
    encoder = ViewEncoder(rs)
    start = sum(size for piece, size in encoder.pieces[:[p for p, _ in encoder.pieces].index("scores")])
    state = GameState(rs, seed=3)
    state.play_random(random.Random(3))
    scores = encoder.encode(state.view(0))[start:start + len(rs.players.teams)]
    assert scores == pytest.approx([value / encoder.span for value in state.scores])
    assert 0.05 < max(map(abs, scores)) < 3


def test_a_defenders_observation_cannot_tell_where_an_unseen_chien_card_is() -> None:
    """French Tarot, a Garde sans: trading a chien card for an unplayed card of another defender
    changes nothing in a third seat's observation (tensor and strings), while the changed
    defender's own observation does change."""
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": "tarot", "hands": 1})
    rs = game.setup().ruleset
    ncards = rs.layout.size
    for seed in range(10):
        pack = list(range(ncards))
        random.Random(seed).shuffle(pack)
        pack[72], pack[0] = pack[0], pack[72]  # position 0 goes to the elder, 72 to the chien
        states = []
        for order in (pack, [pack[72], *pack[1:72], pack[0], *pack[73:]]):
            state = game.new_initial_state()
            state.apply_action(state.engine.actions.dealer0)
            for card in order:
                state.apply_action(card)
            states.append(state)
        if states[0].engine.view(0).phase != "auction" or states[1].engine.view(0).phase != "auction":
            continue  # thrown in (petit sec)
        for state in states:  # seat 2 takes a Garde sans; seat 1 (the elder) and seat 3 defend
            for action in ("pass", "contract garde_sans", "pass", "pass"):
                state.apply_action(state.engine.string_to_action(None, action))
        assert states[0].engine.view(0).deciding_seat == 2
        for check in (lambda st, s: st.observation_tensor(s), lambda st, s: st.observation_string(s),
                      lambda st, s: st.information_state_string(s), lambda st, s: st.information_state_tensor(s)):
            assert check(states[0], 3) == check(states[1], 3)
            assert check(states[0], 1) != check(states[1], 1)  # the elder's own hand changed
        return
    raise AssertionError("every deal was thrown in")


def test_an_oh_hell_observation_holds_every_bid_made_and_the_tricks_taken() -> None:
    """Oh Hell: the bids are public as they are made (every seat's tensor and strings hold them,
    the phase is named), a resampled deal behind the same bids looks the same to the seat, and
    once play starts the tricks each seat took are in the tensor beside its bid (ten cards a deal)."""
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": OH_HELL, "options": "schedule=fixed", "hands": 1})
    rs = game.setup().ruleset
    encoder = ViewEncoder(rs)
    pieces = dict(encoder.pieces)
    start = {name: sum(size for _, size in encoder.pieces[:i]) for i, (name, _) in enumerate(encoder.pieces)}
    assert pieces["bids"] == 4 * 11 and pieces["tricks"] == 4
    state = dealt(game, 3)
    assert state.engine.view(0).phase == "bid" and state.current_player() == 1  # the dealer's left bids first
    for text in ("bid 2", "bid 0"):
        state.apply_action(state.engine.string_to_action(None, text))
    for seat in range(4):
        tensor = state.observation_tensor(seat)
        bids = tensor[start["bids"]:start["bids"] + pieces["bids"]]
        assert [i for i, x in enumerate(bids) if x] == [1 * 11 + 2, 2 * 11 + 0]
        assert "phase bid" in state.observation_string(seat)
        assert "bids 0:- 1:2 2:0 3:-" in state.information_state_string(seat)
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.engine.view(seat).bids == (-1, 2, 0, -1)
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
    for text in ("bid 5", "bid 1"):
        state.apply_action(state.engine.string_to_action(None, text))
    for _ in range(4):  # the first trick
        state.apply_action(state.legal_actions()[0])
    taken = state.engine.view(0).tricks
    assert sum(taken) == 1
    for seat in range(4):
        tensor = state.observation_tensor(seat)
        assert tensor[start["tricks"]:start["tricks"] + 4] == pytest.approx([t / 10 for t in taken])
        assert "bids 0:1 1:2 2:0 3:5" in state.observation_string(seat)


def first_hand_played(ruleset: str, seed: int):
    """A game of two hands with random chance and choices, stopped once its first hand is over."""
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": ruleset, "hands": 2})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.engine.hands:
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    return state


def test_a_schedule_of_hand_sizes_is_sized_by_its_largest_hand() -> None:
    """Oh Hell's schedule (1, 2, ... 10, then 10, ... 1 cards): the bids piece holds bids up to ten
    and the tricks piece counts in tens in every deal, the first deal's one trick too; a whole game
    of twenty deals through OpenSpiel stays within its maximum length."""
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": OH_HELL})
    encoder = ViewEncoder(game.setup().ruleset)
    assert dict(encoder.pieces)["bids"] == 4 * 11 and encoder.most_tricks == 10
    state, rng, length = game.new_initial_state(), random.Random(2), 0
    while not state.is_terminal():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
        length += 1
    hands = state.engine.hands
    assert [len(h.played_tricks) for h in hands] == [*range(1, 11), *range(10, 0, -1)]
    assert length <= game.max_game_length()


def test_past_hands_bids_are_in_the_information_state_string() -> None:
    state = first_hand_played(OH_HELL, 7)
    bids = list(state.engine.hands[0].bids)
    assert all(b >= 0 for b in bids) and sum(bids) != 1  # the hook, in the first deal's one trick
    assert all(f"bid {bids} tricks" in state.information_state_string(s) for s in range(4))


def piece_of(encoder: ViewEncoder, tensor: list[float], name: str) -> list[float]:
    """The part ``name`` of an encoded view."""
    start = sum(size for _, size in encoder.pieces[:[p for p, _ in encoder.pieces].index(name)])
    return tensor[start:start + dict(encoder.pieces)[name]]


def test_the_cards_passed_and_received_are_in_the_tensor_of_rulesets_with_passing_only() -> None:
    assert dict(ViewEncoder(build_ruleset(HEARTS)).pieces)["passed"] == 52
    for rs in (build_ruleset("couillon"), build_ruleset(HEARTS, {"passing": "false"})):
        encoder = ViewEncoder(rs)
        assert dict(encoder.pieces)["passed"] == dict(encoder.pieces)["received"] == 0


SEAT_1_HOLDS = ("AS", "QS", "4D", "3D")  # seed 6 deals these to seat 1 (passed_in_hearts)


def passed_in_hearts(first_seat_passes: tuple[str, str, str]):
    """Hearts, hand 1 (dealer 0, cards passed to the next seat): the same deal, seat 1 (the elder)
    passing ``first_seat_passes`` and every other seat its three lowest-numbered cards; the states
    after seat 1's passes and after the exchange."""
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": HEARTS, "hands": 1})
    state = dealt(game, 6)
    engine = state.engine
    assert engine.view(0).phase == "pass" and state.current_player() == 1 and engine.passing_offset() == 1
    for card in first_seat_passes:
        state.apply_action(engine.string_to_action(1, f"pass {card}"))
    after_seat_1 = state.clone()
    for _ in range(9):
        state.apply_action(state.legal_actions()[0])
    assert engine.view(0).phase == "play"
    return after_seat_1, state


def test_a_seat_observes_its_own_passes_and_what_it_received_once_every_seat_has_passed() -> None:
    _, state = passed_in_hearts(SEAT_1_HOLDS[:3])
    layout = state.engine.ruleset.layout
    encoder = state.setup.encoder
    given = [state.engine.view(s).passed for s in range(4)]
    assert given[1] == sum(1 << layout.parse(c) for c in SEAT_1_HOLDS[:3])
    for seat in range(4):
        view = state.engine.view(seat)
        assert view.received == given[(seat - 1) % 4]
        tensor = state.observation_tensor(seat)
        for name, mask in (("passed", view.passed), ("received", view.received)):
            assert piece_of(encoder, tensor, name) == [float(mask >> c & 1) for c in range(52)]
        names = [" ".join(layout.name(c) for c in iter_bits(mask)) for mask in (view.passed, view.received)]
        assert f"passed {names[0]} | received {names[1]}" in state.observation_string(seat)
        assert f"passed {names[0]} | received {names[1]}" in state.information_state_string(seat)
    assert "passed AS QS 4D | received" in state.observation_string(1)


def test_what_another_seat_passed_is_hidden_from_the_seats_it_did_not_pass_to() -> None:
    """Seat 1 passes ♦3 instead of ♦4 to seat 2: while seats pass, nobody else can tell; after the
    exchange only seat 2, which received it, can. A resampled state looks the same to the seat."""
    states = [passed_in_hearts(("AS", "QS", last)) for last in SEAT_1_HOLDS[2:]]
    views = (lambda st, s: st.observation_tensor(s), lambda st, s: st.observation_string(s),
             lambda st, s: st.information_state_string(s), lambda st, s: st.information_state_tensor(s))
    for moment, blind in ((0, (0, 2, 3)), (1, (0, 3))):
        first, second = states[0][moment], states[1][moment]
        for check in views:
            assert all(check(first, s) == check(second, s) for s in blind)
            assert all(check(first, s) != check(second, s) for s in set(range(4)) - set(blind))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    dealt_anew = 0
    for state in states[0]:
        for seat in range(4):
            other = state.resample_from_infostate(seat, sampler)
            assert all(check(other, seat) == check(state, seat) for check in views)
            dealt_anew += any(other.engine.hand_of(s) != state.engine.hand_of(s) for s in range(4) if s != seat)
    assert dealt_anew == 8


def test_past_hands_recall_only_the_seats_own_passes() -> None:
    state = first_hand_played(HEARTS, 3)
    passed = state.engine.hands[0].passed
    name = state.engine.ruleset.layout.name
    texts = [" ".join(name(c) for c in iter_bits(mask)) for mask in passed]
    for seat in range(4):
        recalled = state.information_state_string(seat).split(" || ")[0]
        assert f"passed {texts[seat]} received {texts[(seat - 1) % 4]} tricks" in recalled
        assert not any(texts[s] in recalled for s in range(4) if s not in (seat, (seat - 1) % 4))


def test_a_pettingzoo_observation_holds_the_seats_own_passes_only() -> None:
    e = env(HEARTS)
    e.reset(seed=2)
    for _ in range(12):  # three cards from each seat
        e.step(int(e.observe(e.agent_selection)["action_mask"].nonzero()[0][0]))
    encoder = e.encoder
    passed = [e.state.view(s).passed for s in range(4)]
    assert e.state.view(0).phase == "play" and all(mask.bit_count() == 3 for mask in passed)
    for seat, agent in enumerate(e.possible_agents):
        observation = list(e.observe(agent)["observation"])
        assert piece_of(encoder, observation, "passed") == [float(passed[seat] >> c & 1) for c in range(52)]
        assert piece_of(encoder, observation, "received") == [float(passed[(seat - 1) % 4] >> c & 1) for c in range(52)]


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_a_trump_drawn_by_chance_is_a_chance_node_in_both_frameworks() -> None:
    """Klaverjas with a trump drawn from a separate pack (`trump.method: drawn`): OpenSpiel sees the draw
    as a chance node, one outcome per suit summing to 1, its string public; PettingZoo steps past it."""
    klaverjas = str(FOLDER / "klaverjas.yaml")
    api_test(env(klaverjas, trump_choice="drawn"), num_cycles=200, verbose_progress=False)
    game = pyspiel.load_game("python_couillon_dsl", {"ruleset": klaverjas, "options": "trump_choice=drawn", "hands": 2})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)
    state = game.new_initial_state()
    rng = random.Random(7)
    while state.engine.phase != "draw_trump":
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 4 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert state.action_to_string(int(pyspiel.PlayerId.CHANCE), outcomes[1][0]) == "draw trump H"
    state.apply_action(outcomes[1][0])
    assert not state.is_chance_node()
    assert all("trump H" in state.information_state_string(seat) for seat in range(4))  # public to every seat
