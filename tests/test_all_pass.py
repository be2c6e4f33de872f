"""A contract played when every seat passes the auction (`trump.auction.on_all_pass: {contract}`),
with no declarer and every seat a side of its own; Skat's Ramsch (examples/skat.yaml with
`--option all_pass=ramsch`): only the jacks trumps, the skat to the winner of the last trick
(`aside_counts_for: last_trick`), the player(s) with the most card points losing them
(`most_points`), twice after a Jungfrau (`fewest_tricks`), a Durchmarsch winning all 120.

tests/scenarios/skat-ramsch*.yaml play hand-made deals; tests/broken/all-pass-contract-*.yaml
show the codes.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import avoids_tricks
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.engine.results import HandSummary, play_orders
from couillon_dsl.engine.rollout import rolls_out_language_v1
from couillon_dsl.explain import explain
from couillon_dsl.kernel.eligible import ruleset_reason
from couillon_dsl.loader import load_ruleset
from couillon_dsl.records import GameRecord, replay
from couillon_dsl.simulation import Job, figures, run
from couillon_dsl.validate import check
from example_games import FOLDER
from honesty import twins_look_the_same

SKAT = str(FOLDER / "skat.yaml")
RAMSCH = build_ruleset(SKAT, {"all_pass": "ramsch"})
FOUR = build_ruleset(SKAT, {"all_pass": "ramsch", "table": "four"})
CARD_POINTS = 120


def passing_game(rs, seed: int, hands: int, agents: list[str] | None = None) -> GameState:
    """``hands`` hands of ``rs`` in which every seat passes the auction when it may (random cards, or
    ``agents``' choices, otherwise)."""
    state = GameState(rs, seed=seed)
    rng = random.Random(seed)
    players = [make_agent(spec) for spec in agents] if agents else None
    while len(state.hands) < hands and not state.is_terminal():
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        legal = state.legal_actions()
        passes = [a for a in legal if state.phase == "auction" and state.action_to_string(a) == "pass"]
        if passes:
            state.apply(passes[0])
        elif players is not None and len(legal) > 1:
            state.apply(players[state.current_player()].act(state, legal, rng))
        else:
            state.apply(rng.choice(legal))
    return state


def ramsch_deltas(hand: HandSummary, ntricks: int = 10) -> tuple[int, ...]:
    """What pagat's Ramsch pays each seat for ``hand`` (seat order), from its points and tricks alone."""
    playing = [s for s in range(len(hand.points)) if s not in hand.sitting_out]
    most = max(hand.points[s] for s in playing)
    jungfrau = min(hand.tricks[s] for s in playing) == 0
    out = []
    for seat in range(len(hand.points)):
        if seat in hand.sitting_out:
            out.append(0)
        elif hand.tricks[seat] == ntricks:
            out.append(CARD_POINTS)  # Durchmarsch
        elif hand.points[seat] == most:
            out.append(-most * (2 if jungfrau else 1))
        else:
            out.append(0)
    return tuple(out)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), four=st.booleans())
def test_everyone_passing_plays_ramsch_and_scores_only_as_its_rules_say(seed: int, four: bool) -> None:
    rs = FOUR if four else RAMSCH
    state = passing_game(rs, seed, 3)
    assert state.hands
    for hand in state.hands:
        assert hand.trump_path == "all_passed" and hand.contract == "ramsch"
        assert hand.maker is None and hand.deciding_seat is None and hand.trump is None
        assert hand.sides == tuple(range(rs.players.count))  # every seat a side of its own
        assert hand.announcements == ()  # nobody declares: nobody announces
        assert sum(hand.points) == CARD_POINTS  # every card point counted once, the skat's with the last trick
        assert sum(hand.tricks) == 10
        assert hand.deltas == ramsch_deltas(hand)
        jacks = [RAMSCH.layout.parse(j) for j in ("JC", "JS", "JH", "JD")]  # the only trumps, highest first
        orders = play_orders(rs.players.count, hand.sitting_out)
        for leader, cards, winner in hand.played_tricks:
            played_jacks = [c for c in cards if c in jacks]
            if played_jacks:  # the highest jack takes the trick
                assert orders[leader][cards.index(min(played_jacks, key=jacks.index))] == winner
        if four:
            assert hand.sitting_out == (hand.dealer,) and hand.deltas[hand.dealer] == 0


def test_the_skat_counts_for_the_winner_of_the_last_trick() -> None:
    for seed in range(20):
        hand = passing_game(RAMSCH, seed, 1).hands[0]
        last = hand.played_tricks[-1][2]
        ctx = RAMSCH.tables.contexts[0]
        taken = [0] * 3
        for _, cards, winner in hand.played_tricks:
            taken[winner] += sum(ctx.points[c] for c in cards)
        played = {c for _, cards, _ in hand.played_tricks for c in cards}
        skat = sum(ctx.points[c] for c in range(RAMSCH.layout.size) if c not in played)  # the two cards aside
        assert hand.points == tuple(p + (skat if s == last else 0) for s, p in enumerate(taken))


def test_only_the_four_jacks_are_trumps_in_ramsch() -> None:
    state = passing_game(RAMSCH, 5, 0)
    while state.is_chance_node():
        state.deal_shuffled(random.Random(5))
    for _ in range(3):
        state.apply(state.string_to_action(None, "pass"))
    assert state.phase == "play" and state.all_passed and state.trump is None
    ctx = state.context
    assert sorted(RAMSCH.layout.name(c) for c in range(RAMSCH.layout.size) if ctx.trump_mask >> c & 1) == \
        ["JC", "JD", "JH", "JS"]
    assert state.sides == (0, 1, 2)


def test_by_default_everyone_passing_throws_the_deal_in() -> None:
    classic = build_ruleset(SKAT)
    hand = passing_game(classic, 1, 1).hands[0]
    assert hand.outcome == "passed_out" and hand.trump_path == "redeal" and hand.deltas == (0, 0, 0)


def test_ramsch_is_never_offered_to_a_declarer() -> None:
    """The contract played when everyone passes is no declarer's pick: the survivor of the auction picks a suit,
    Grand or Null, and its id names no contract action."""
    t = RAMSCH.tables
    ramsch = [c.id for c in RAMSCH.contracts].index("ramsch")
    assert t.all_pass_contract == ramsch and ramsch not in t.fixed_contracts and t.named_contract != ramsch
    state = GameState(RAMSCH, seed=2)
    state.deal_shuffled(random.Random(2))
    for word in ("bid 18", "pass", "pass"):  # middlehand bids, forehand passes, rearhand passes
        state.apply(state.string_to_action(None, word))
    state.apply(state.string_to_action(None, "pass"))  # he leaves the skat: a hand game
    words = {state.action_to_string(a) for a in state.legal_actions()}
    assert not any("ramsch" in word.lower() for word in words) and "contract grand" in words


def test_the_dealer_sitting_out_is_no_jungfrau() -> None:
    """At a table of four the dealer takes no trick; Jungfrau counts the seats in play only."""
    seen = 0
    for seed in range(40):
        for hand in passing_game(FOUR, seed, 2).hands:
            playing = [s for s in range(4) if s != hand.dealer]
            if all(hand.tricks[s] for s in playing):
                most = max(hand.points)
                assert sorted(hand.deltas)[0] == -most  # not doubled
                seen += 1
    assert seen


def test_greedy_ducks_in_ramsch_and_still_bids() -> None:
    assert not avoids_tricks(RAMSCH) and avoids_tricks(RAMSCH, all_passed=True)
    taken = {"greedy": [], "random": []}
    for seed in range(30):
        state = passing_game(RAMSCH, seed, 1, ["greedy", "random", "random"] if seed % 2 else
                             ["random", "greedy", "greedy"])
        hand = state.hands[0]
        for seat in range(3):
            kind = ("greedy" if seat == 0 else "random") if seed % 2 else ("random" if seat == 0 else "greedy")
            taken[kind].append(hand.points[seat])
    assert sum(taken["greedy"]) / len(taken["greedy"]) < sum(taken["random"]) / len(taken["random"])
    state = GameState(RAMSCH, seed=3)  # greedy still decides the auction, and some hands get played
    rng, greedy = random.Random(3), make_agent("greedy")
    while len(state.hands) < 6:
        if state.is_chance_node():
            state.deal_shuffled(rng)
            continue
        legal = state.legal_actions()
        state.apply(legal[0] if len(legal) == 1 else greedy.act(state, legal, rng))
    assert any(hand.maker is not None for hand in state.hands)


def test_a_whole_game_between_searches_and_greedy_replays() -> None:
    short = build_ruleset(SKAT, {"all_pass": "ramsch", "deals": 3})
    state = passing_game(short, 4, 3, ["pimc:samples=2", "ismcts:iterations=6:worlds=2", "greedy"])
    assert state.is_terminal() and all(hand.trump_path == "all_passed" for hand in state.hands)
    record = GameRecord.from_state(state, ruleset=SKAT, seed=4)
    assert replay(record, short) is None


def test_trading_two_hidden_cards_changes_nothing_a_seat_sees() -> None:
    def cases():
        for seed in range(30):
            state = passing_game(RAMSCH, seed, 0)
            while state.is_chance_node():
                state.deal_shuffled(random.Random(seed))
            for _ in range(3):
                state.apply(state.string_to_action(None, "pass"))
            seat = state.current_player()
            a, b = (min(c for c in range(RAMSCH.layout.size) if state.hand_of(s) >> c & 1)
                    for s in range(3) if s != seat)
            yield state, a, b, seat, seed

    twins_look_the_same(cases())


def test_the_kernel_and_the_rollout_decline_it() -> None:
    for rs in (RAMSCH, FOUR):
        reason = ruleset_reason(rs)
        assert reason is not None and "`trump.auction`" in reason and "most_points" in reason  # the derived fact as written, not its inner field
        assert not rolls_out_language_v1(rs) and rs.rollout is None


def test_the_rulebook_says_what_follows_when_everyone_passes() -> None:
    text = " ".join(explain(RAMSCH, "text").split())
    assert "if everyone passes, the hand is played with no declarer (`maker` is none), each player playing alone" \
        in text
    assert "count for the side that takes the last trick" in text
    assert "picks one of these contracts: Suit, Grand or Null" in text
    classic = " ".join(explain(build_ruleset(SKAT), "text").split())
    assert "if everyone passes, the deal is thrown in" in classic


def checked(tmp_path: Path, body: str) -> list:
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: {SKAT}\nid: r\nname: R\n{body}", encoding="utf-8")
    return [d for d in check(load_ruleset(path)) if d.is_error]


@pytest.mark.parametrize("body, code, words", [
    ("trump: {auction: {on_all_pass: {contract: ramsh}}}\n", "all-pass-contract-invalid", "not a contract"),
    ("trump: {auction: {on_all_pass: {contract: suit}}}\n", "all-pass-contract-invalid", "trump be named"),
    ("trump: {auction: {on_all_pass: {contract: grand}}}\n", "all-pass-contract-invalid", "to the declarer"),
    ("contracts: {grand: {enabled: false, aside_counts_for: last_trick}}\n"
     "trump: {auction: {on_all_pass: {contract: grand}}}\n", "all-pass-contract-invalid", "not enabled"),
])
def test_the_contract_everyone_passes_into_needs_no_declarer(tmp_path: Path, body: str, code: str,
                                                             words: str) -> None:
    # Skat's suit and Grand bar the declarer's pick (`offered_when`), which a contract nobody picks may not have
    [error] = [e for e in checked(tmp_path, body) if e.code != "contract-offered-when-unpicked"]
    assert error.code == code and words in error.message, error


def test_a_ladder_may_not_bid_the_contract_everyone_passes_into(tmp_path: Path) -> None:
    path = tmp_path / "r.yaml"
    path.write_text("extends: couillon\nid: r\nname: R\nplayers: {count: 4, sides: declarer_alone}\n"
                    "contracts:\n  small: {name: Small, trump: S}\n  misere: {name: Misere, trump: none}\n"
                    "trump: {method: auction, auction: {ladder: [small, misere], on_all_pass: {contract: misere}}}\n",
                    encoding="utf-8")
    errors = [d for d in check(load_ruleset(path)) if d.is_error]
    assert [(d.code, d.pointer) for d in errors if d.code == "auction-ladder-invalid"] == \
        [("auction-ladder-invalid", "/trump/auction/ladder/1")]
    assert "played when everyone passes" in next(d.message for d in errors if d.code == "auction-ladder-invalid")


def test_a_person_at_the_table_is_told_everyone_passed_and_every_player_plays_alone() -> None:
    result = CliRunner().invoke(main, ["play", SKAT, "-o", "all_pass=ramsch", "-o", "deals=3", "--seed", "2",
                                       "--seat", "0"], input="1\n" * 3000)  # the first choice: pass, when he may
    out = result.output
    assert result.exit_code == 0 and "Traceback" not in out
    assert "Everyone passed: Ramsch is played with no declarer, every player for themselves." in out
    assert "The kitty stays face down; it counts for whoever takes the last trick." in out
    assert "Trump: none, contract Ramsch; every player for themselves." in out
    assert "Hand 3 over. Trump none, contract Ramsch; every player for themselves." in out
    assert "Outcome: no declarer; each player is scored on their own." in out


LADDER_AND_OPEN = {
    "once": "auction: {ladder: [small, big], on_all_pass: {contract: misere}}",
    "open": "auction: {procedure: open, values: [1, 2, 3], on_all_pass: {contract: misere}}",
}


@pytest.mark.parametrize("procedure", sorted(LADDER_AND_OPEN))
def test_every_procedure_plays_the_contract_when_nobody_bids(tmp_path: Path, procedure: str) -> None:
    """The concept is the auction's, not Skat's: a ladder bid once round and an open auction, four seats
    each for itself when all pass, the cards left in the stock to the last trick's winner."""
    path = tmp_path / "r.yaml"
    path.write_text(f"""extends: couillon
id: r
name: R
players: {{count: 4, sides: declarer_alone, teams: null}}
contracts:
  small: {{name: Small, trump: S}}
  big: {{name: Big, trump: H}}
  misere: {{name: Misere, trump: none, aside_counts_for: last_trick}}
trump:
  method: auction
  offer: null
  {LADDER_AND_OPEN[procedure]}
scoring:
  maker: {{team: maker, delta: 'if(winner == maker, 2, -2)'}}
  misere: {{for_each: seat, when: 'contract == "misere" and points(team_of(seat)) == most_points', delta: -1}}
""", encoding="utf-8")
    rs = build_ruleset(str(path))
    assert [d for d in check(load_ruleset(path)) if d.is_error] == []
    misere = [c.id for c in rs.contracts].index("misere")
    assert misere not in rs.tables.fixed_contracts and all(c != misere for c, _ in rs.tables.auction_strains)
    for hand in passing_game(rs, 7, 4).hands:
        assert hand.trump_path == "all_passed" and hand.contract == "misere" and hand.sides == (0, 1, 2, 3)
        assert hand.outcome == "no_score" and hand.winner is None
        assert sum(hand.points) == sum(rs.tables.contexts[0].points)  # the stock's cards with the last trick
        most = max(hand.points)
        assert hand.deltas == tuple(-1 if p == most else 0 for p in hand.points)


def test_simulate_counts_the_hands_everyone_passed_into_but_no_maker_in_them() -> None:
    sim = run(RAMSCH, Job(SKAT, (("all_pass", "ramsch"), ("deals", 6)), 3, ("greedy",) * 3), 4, 1)
    by_key = {f.key: f for f in figures(sim)}
    assert sim.tally.contracts["ramsch"] > 0
    assert by_key["contract.ramsch"].label == "Ramsch played when everyone passed"
    assert "contract.ramsch.maker_success" not in by_key and "maker_points.ramsch.mean" not in by_key


@pytest.mark.parametrize("options", [{"kontra": "true"}, {"scoring": "seeger_fabian"}, {"announcements": "false"},
                                     {"scoring": "seeger_fabian", "table": "four", "kontra": "true"}])
def test_skats_other_options_leave_ramsch_alone(options: dict[str, str]) -> None:
    """Kontra, the tournament scoring and the announcements all turn to a declarer: in Ramsch nobody doubles,
    announces or is paid as an opponent."""
    rs = build_ruleset(SKAT, {"all_pass": "ramsch", **options})
    for seed in range(8):
        for hand in passing_game(rs, seed, 2).hands:
            assert hand.deltas == ramsch_deltas(hand) and hand.announcements == ()
            assert all(word == "pass" for _, word in hand.decisions)  # no double asked
