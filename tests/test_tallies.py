"""Tallies: running counts each team keeps beside its score (the `tallies` section; Spades' bags).

How a count grows and pays out, that it is public and starts afresh with each game, how a
scenario sets and checks it, that records keep it, how the checks refuse a tally without
fixed teams, and greedy's price for a count (a bag costs a tenth of 100). A pot (`to`, with
`when`) is paid whole to a team a later hand names: Belote's traditional litige.
"""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from couillon_dsl import api
from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import over_bid_costs, side_change, wants_tricks
from couillon_dsl.cli import main
from couillon_dsl.engine.hand import tally_payouts
from couillon_dsl.explain import tally_sentence
from couillon_dsl.kernel.eligible import ruleset_reason
from tests.example_games import FOLDER
from variants import refused

SPADES = api.load(FOLDER / "spades.yaml")
LITIGE = api.load(FOLDER / "belote.yaml", {"litige": "held"})


def without_bags(tmp_path: Path) -> object:
    """Spades without bags: the `tallies` section removed, and the option that patches it."""
    path = tmp_path / "no-bags.yaml"
    path.write_text(f"id: spades-no-bags\nname: Spades without bags\nextends: {FOLDER / 'spades.yaml'}\n"
                    "tallies: null\noptions: {nil_tricks: null}\n")
    return api.load(path)


def test_a_count_pays_out_each_time_it_reaches_every():
    """Ten bags cost 100 and are taken off; 23 cost 200 and leave 3; below ten nothing happens."""
    payouts = ((10, -100),)
    assert tally_payouts(payouts, ((8, 9),), ((2, 0),), (None,)) == (((0, 9),), (-100, 0))
    assert tally_payouts(payouts, ((5, 0),), ((18, 3),), (None,)) == (((3, 3),), (-200, 0))
    assert tally_payouts(payouts, ((0, 0),), ((0, 9),), (None,)) == (((0, 9),), (0, 0))


def test_a_pot_is_held_until_a_hand_names_its_team():
    """Added to and held while no team is named; then every team's count goes to that team."""
    assert tally_payouts(((0, 0),), ((0, 0),), ((81, 0),), (None,)) == (((81, 0),), (0, 0))
    assert tally_payouts(((0, 0),), ((81, 0),), ((0, 12),), (None,)) == (((81, 12),), (0, 0))
    assert tally_payouts(((0, 0),), ((81, 12),), ((0, 0),), (1,)) == (((0, 0),), (0, 93))


def belote_totals(hand: Any) -> tuple[list[int], list[int], list[int], int]:
    """A Belote hand's card points (250 for a capot), melds and belote per team, recounted from its
    summary, and its takers."""
    kinds = [d.id for d in LITIGE.declarations]
    melds, belote = list(hand.declared[kinds.index("melds")]), list(hand.declared[kinds.index("belote")])
    cards = [250 if hand.tricks[t] == 8 else hand.points[t] for t in range(2)]
    return cards, melds, belote, hand.maker


def test_belote_litige_holds_the_takers_points_for_the_next_hands_winners():
    """Greedy games of Belote with litige=held, recounted by the rules: in a tied hand (the takers'
    total equals the defenders') the defenders score their points and melds, the takers only
    their belote, and the takers' points and melds wait in the litige; the next hand scored
    (not tied) is scored as usual and its winning side, the takers if they made it, else the
    defenders, takes the litige too, which is then 0 again."""
    greedy = make_agent("greedy")
    checked = 0
    for seed in range(40):
        state = api.new_game(LITIGE, seed=seed)
        rng = random.Random(seed)
        while state.result is None:
            if state.is_chance_node():
                state.deal_shuffled()
            else:
                state.apply(greedy.act(state, state.legal_actions(), rng))
        held = [0, 0]
        for hand in (h for h in state.hands if h.outcome != "passed_out"):
            cards, melds, belote, m = belote_totals(hand)
            d = 1 - m
            takers, defenders = cards[m] + melds[m] + belote[m], cards[d] + melds[d] + belote[d]
            if takers == defenders:
                own = {m: belote[m], d: cards[d] + melds[d] + belote[d]}
                held[m] += cards[m] + melds[m]
            else:
                made = takers > defenders
                own = {m: (cards[m] + melds[m] if made else 0) + belote[m],
                       d: (cards[d] + melds[d] if made else 162 if cards[d] != 250 else 250) + belote[d]
                       + (0 if made else melds[d] + melds[m])}
                own[m if made else d] += sum(held)
                checked += bool(sum(held))
                held = [0, 0]
            assert hand.deltas == (own[0], own[1]) and hand.tallies == (tuple(held),), (seed, hand.number)
    assert checked >= 3  # hands that paid a litige out


def test_bags_follow_the_overtricks_of_every_hand_and_start_afresh_each_game():
    """Through whole games of greedy players: after each hand a partnership's bags are the ones
    before it plus its overtricks, less ten for each 100 lost to them; every view shows them."""
    state = api.new_game(SPADES, seed=3)
    agents = [make_agent("greedy") for _ in range(4)]
    rng = random.Random(3)
    seen_payout = False
    while not state.is_terminal():
        seat = state.current_player()
        assert state.view(seat).tallies == (tuple(state.tallies["bags"]),)
        state.apply(agents[seat].act(state, state.legal_actions(), rng))
    before = (0, 0)
    for h in state.hands:
        over = [max(0, h.tricks[t] - sum(h.bids[s] for s in SPADES.players.teams[t])) for t in range(2)]
        (after,) = h.tallies
        for team in range(2):
            paid = (before[team] + over[team] - after[team]) // 10
            assert paid in (0, 1) and 0 <= after[team] < 10
            seen_payout |= paid == 1
        before = after
    assert seen_payout


def test_a_new_game_starts_with_no_bags(tmp_path: Path):
    path = tmp_path / "two-games.yaml"
    path.write_text(f"id: spades-two\nname: Spades, two games\nextends: {FOLDER / 'spades.yaml'}\n"
                    "session: {games_to_win: 2}\n")
    rs = api.load(path)
    state = api.new_game(rs, seed=1)
    state.set_scoresheet((490, 0), tallies={"bags": (9, 4)})
    rng = random.Random(1)
    agent = make_agent("greedy")
    while state.view(0).game == 0:
        state.apply(agent.act(state, state.legal_actions(), rng))
    assert state.tallies == {"bags": (0, 0)} and state.scores == (0, 0)


def test_set_scoresheet_refuses_an_unknown_tally_or_a_short_row():
    state = api.new_game(SPADES, seed=1)
    with pytest.raises(ValueError, match="no tally 'bag'.*bags"):
        state.set_scoresheet((0, 0), tallies={"bag": (1, 2)})
    with pytest.raises(ValueError, match="a count for each of the 2 teams"):
        state.set_scoresheet((0, 0), tallies={"bags": (1,)})


def test_records_keep_the_counts_and_replay(tmp_path: Path):
    path = tmp_path / "spades.jsonl"
    result = CliRunner().invoke(main, ["simulate", str(FOLDER / "spades.yaml"), "--games", "2", "--agents", "greedy",
                                       "--record", str(path)])
    assert result.exit_code == 0, result.output
    assert '"tallies":[[' in path.read_text()
    replayed = CliRunner().invoke(main, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output


def test_only_fixed_teams_keep_tallies(tmp_path: Path):
    assert refused(tmp_path, "tarot", "tallies: {sets: {adds: 1, every: 3, delta: -10}}\n") == ["tallies-need-teams"]


def test_a_bad_adds_expression_is_placed_in_the_file(tmp_path: Path):
    path = tmp_path / "bad.yaml"
    path.write_text(f"id: bad\nname: Bad\nextends: {FOLDER / 'spades.yaml'}\n"
                    "tallies:\n  bags:\n    adds: tricks(team) - bids(team)\n    every: 10\n    delta: -100\n")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert f"{path}:6:26: error[expr-unknown-name]" in result.output  # at `bids` in the expression


def test_the_kernel_declines_tallies_with_the_reason():
    assert "`tallies`" in (ruleset_reason(SPADES) or "")


def test_greedy_prices_a_bag_at_a_tenth_of_its_payout(tmp_path: Path):
    """With bags an overtrick nets 1 - 10 points, so greedy stops taking tricks once its side
    has its bid; without them it is worth a point and greedy takes it."""
    assert side_change(SPADES, 13, (7, 3), 0, 8) == pytest.approx(side_change(SPADES, 13, (7, 3), 0, 7) + 1 - 10)
    assert over_bid_costs(SPADES, 13, (7, 3), 0)
    assert not over_bid_costs(without_bags(tmp_path), 13, (7, 3), 0)


def test_greedy_bidding_nil_still_ducks_while_its_partner_still_plays_for_tricks():
    """Nil is scored apart (`for_each: seat`): a trick of the nil bidder's own costs more than
    the same trick taken by the partner, bags or not."""
    state = api.new_game(SPADES, seed=2)
    state.deal_shuffled(random.Random(2))
    elder = (state.dealer + 1) % 4
    for number in (0, 3, 4, 3):  # the elder bids nil, its partner 4
        state.apply(state.string_to_action(None, f"bid {number}"))
    assert not wants_tricks(state, elder)
    assert wants_tricks(state, (elder + 2) % 4)


def test_the_table_shows_the_bags_with_the_scoresheet():
    result = CliRunner().invoke(main, ["play", str(FOLDER / "spades.yaml"), "--seed", "3", "--agents", "greedy"],
                                input="1\n" * 3000)
    assert "Bags: team 0 (you, seat 2) 0 | team 1 (seats 1, 3) 0   (-100 every 10)" in result.output
    assert "Traceback" not in result.output


def test_learning_environments_see_each_count_in_units_of_its_payout():
    """The RL tensor and text carry the counts (public, as the scores); a ruleset without
    tallies keeps the tensor it had."""
    from couillon_dsl.interop.encoding import ViewEncoder

    encoder = ViewEncoder(SPADES)
    assert encoder.pieces[-1] == ("tallies", 2)
    state = api.new_game(SPADES, seed=1)
    state.set_scoresheet((40, 10), tallies={"bags": (3, 7)})
    view = state.view(1)
    assert encoder.encode(view)[-2:] == [0.3, 0.7]
    assert "scores 40 10 | bags 3 7" in encoder.text(view)
    assert dict(ViewEncoder(api.load("couillon")).pieces)["tallies"] == 0


def test_the_rulebook_reads_a_pot_with_its_team_and_moment():
    text = tally_sentence(LITIGE, LITIGE.tallies[0])
    assert "after a hand where it is not the case that `litige` holds, every team's litige goes to the maker if " \
           "`made` holds, else the maker's opponents, whose score grows by their sum" in text


def test_the_rulebook_and_diff_read_a_tally_as_a_rule(tmp_path: Path):
    from couillon_dsl.diff import differences
    from couillon_dsl.explain import explain

    assert ("- bags: Overtricks (bags); each ten of them cost the partnership 100. After every hand each team adds "
            "the larger of 0 and the number of tricks won by that team less the number of tricks bid by that team "
            "to its bags; each time the count reaches 10, it drops by 10 and the team loses 100 points.") \
        in explain(SPADES)
    lines = differences(SPADES, without_bags(tmp_path))
    assert [line for line in lines if not line.startswith("Option nil_tricks:")] == [next(
        line for line in lines if line.startswith("Tally bags: removed (was: Overtricks (bags);"))]
