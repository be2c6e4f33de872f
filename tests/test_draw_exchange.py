"""What the player on lead may do to the stock before he leads, shown by Schnapsen: trade a card for the
turned card under it (`play.draw.exchange`: the trump jack; Briscola's trump seven as an option), and
close it (an announcement `by: leader` that `closes_stock`). Each is offered to the leader only, once a
hand, while the stock holds enough cards; public, so every view and every sampled world agrees; refused
with the rule's reason; greedy trading only up and never closing, a search closing where it pays."""
from __future__ import annotations

import random
from typing import Iterator

import pytest

from couillon_dsl.agents import make_agent
from couillon_dsl.agents.greedy import GreedyAgent
from couillon_dsl.agents.sampler import Sampler
from couillon_dsl.compile import build_ruleset
from couillon_dsl.cards import iter_bits
from couillon_dsl.engine import GameState, IllegalAction
from couillon_dsl.interop.encoding import ViewEncoder
from example_games import FOLDER
from honesty import twins_look_the_same
from packs import agents_game, say, stacked

SCHNAPSEN = build_ruleset(str(FOLDER / "schnapsen.yaml"))
LAYOUT = SCHNAPSEN.layout
L, D = 1, 0  # dealer 0: the elder (L) leads
# AH turned (trumps hearts); L holds the trump jack
SPEC = {"L": "JH KS QS 10C JC", "D": "AS 10S AC KC AD", "stock": "AH QH 10D KD QD JD 10H KH QC JS"}



def test_the_leader_holding_the_trump_jack_is_offered_the_trade_beside_his_cards() -> None:
    state = stacked(SCHNAPSEN, SPEC)
    exchange = state.actions.exchange
    assert state.legal_actions()[-1] == exchange and state.exchange_card() == LAYOUT.parse("JH")
    assert state.action_to_string(exchange) == "exchange" and state.string_to_action(L, "exchange") == exchange
    say(state, "exchange")
    assert state.hand_of(L) == LAYOUT.parse_mask("AH KS QS 10C JC")
    assert state.turned_card() == LAYOUT.parse("JH") and state.draw_order()[-1] == LAYOUT.parse("JH")
    assert exchange not in state.legal_actions() and state.current_player() == L  # he still leads


def test_the_trade_is_public_and_the_turned_card_known_to_be_the_traders() -> None:
    state = stacked(SCHNAPSEN, SPEC)
    say(state, "exchange")
    jh, ah = LAYOUT.parse("JH"), LAYOUT.parse("AH")
    for seat in (L, D):
        view = state.view(seat)
        assert view.exchanged == (L, jh, ah)
        assert dict(view.face_up) == {ah: L, jh: None}
    say(state, "AH", "AS")  # once played, the ace is no longer shown as held
    assert LAYOUT.parse("AH") not in dict(state.view(D).face_up)


@pytest.mark.parametrize(("before", "reason"), [
    (("10C",), "only by the player on lead"),
    (("exchange",), "already traded"),
])
def test_a_trade_out_of_turn_or_twice_is_refused_with_the_rule(before: tuple[str, ...], reason: str) -> None:
    state = stacked(SCHNAPSEN, SPEC)
    say(state, *before)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(state.actions.exchange)


def test_the_trade_is_not_offered_once_the_stock_is_too_small_nor_to_a_leader_without_the_card() -> None:
    # L draws the trump jack in the last round but one: the stock then holds two cards, fewer than four
    spec = {"L": "AS KS QS 10C JC", "D": "KC QC JD QD 10S", "stock": "AH 10D KD AD AC 10H KH JH QH JS"}
    state = stacked(SCHNAPSEN, spec)
    assert state.actions.exchange not in state.legal_actions()
    with pytest.raises(IllegalAction, match="is not in seat 1's hand"):
        state.apply(state.actions.exchange)
    for lead, answer in (("AS", "JD"), ("KS", "QD"), ("QS", "QC"), ("10C", "KC")):  # L wins and leads each
        say(state, lead, answer)
    assert state.hand_of(L) >> LAYOUT.parse("JH") & 1 and state.view(L).stock == 2
    assert state.actions.exchange not in state.legal_actions()
    with pytest.raises(IllegalAction, match="while the stock holds 4 cards or more"):
        state.apply(state.actions.exchange)
    relaxed = build_ruleset(str(FOLDER / "schnapsen.yaml"), options={"exchange_until": 2})
    state = stacked(relaxed, spec)
    for lead, answer in (("AS", "JD"), ("KS", "QD"), ("QS", "QC"), ("10C", "KC")):
        say(state, lead, answer)
    assert state.actions.exchange in state.legal_actions()


def test_a_card_drawn_before_it_was_traded_stays_hidden_in_the_draws() -> None:
    # D draws the trump jack after the first trick, then trades it: nobody learns when he drew it
    spec = {"L": "AS KS QS 10C JC", "D": "10S AC KC AD QH", "stock": "AH JH 10D KD QD JD 10H KH QC JS"}
    state = stacked(SCHNAPSEN, spec)
    say(state, "JC", "QH")  # D trumps and draws first: the jack
    say(state, "exchange")
    assert state.view(L).drawn[0] == (D, -1) and state.view(D).drawn[0] == (D, LAYOUT.parse("JH"))


def test_sampled_worlds_agree_with_the_view_after_a_trade() -> None:
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = GameState(SCHNAPSEN)
        state.deal_shuffled(rng)
        while not state.is_terminal() and not state.hands:
            seat = state.current_player()
            if state.view(seat).exchanged is not None:
                worlds = Sampler().worlds(state, seat, 4, random.Random(seed))
                assert worlds, "no world fits a trade"
                assert all(world.view(seat) == state.view(seat) for world in worlds)
                found += 1
            state.apply(rng.choice(state.legal_actions()))
    assert found > 20


def test_greedy_trades_a_card_up_never_down() -> None:
    state = stacked(SCHNAPSEN, SPEC)  # the trump jack for the turned ace
    assert GreedyAgent().act(state, state.legal_actions(), random.Random(0)) == state.actions.exchange
    briscola = build_ruleset(str(FOLDER / "briscola.yaml"), options={"exchange": True})
    # the trump seven for the turned two, the lowest trump: kept
    held = {"7H", "AS", "KS", "3S", "QS", "JS", "2H"}
    rest = [name for name in map(briscola.layout.name, range(briscola.layout.size)) if name not in held]
    state = stacked(briscola, {"L": "7H AS KS", "D": "3S QS JS", "stock": " ".join(["2H", *rest])})
    assert state.actions.exchange in state.legal_actions()
    assert GreedyAgent().act(state, state.legal_actions(), random.Random(0)) != state.actions.exchange


@pytest.mark.parametrize("agent", ["greedy", "pimc:samples=4", "ismcts:iterations=30"])
def test_every_agent_plays_games_with_trades_that_replay_exactly(agent: str) -> None:
    state = agents_game(SCHNAPSEN, [make_agent(agent), make_agent("greedy")], random.Random(3))
    trades = state.history().count(state.actions.exchange)
    replay = GameState(SCHNAPSEN)
    for action in state.history():
        replay.apply(action)
    assert replay.result == state.result and trades > 0


# Closing the stock: an announcement `by: leader` that `closes_stock`
def close_action(state: GameState) -> int:
    return state.string_to_action(state.current_player(), "announce close")


def test_a_closer_who_reaches_66_wins_as_usual_with_nothing_more_drawn() -> None:
    state = stacked(SCHNAPSEN, {"L": "10S KS QS JS AH", "D": "AD 10D AC 10C KD", "stock": "AS 10H KH QH JH QD JD KC QC JC"})
    say(state, "announce close")
    assert close_action(state) not in state.legal_actions() and state.exchange_card() == -1  # the jack: closed
    say(state, "KS", "KD")  # the royal marriage, 40: L counts 48, D void in spades and trumps, plays any card
    assert state.hand_of(L).bit_count() == 4 and state.view(D).stock == 10  # nobody draws
    say(state, "10S", "10C")  # L counts 68: the hand stops
    summary = state.hands[-1]
    assert summary.winner == L and summary.deltas[L] == 3  # D took no trick


def test_a_closer_who_falls_short_gives_2_or_3_by_the_tricks_his_opponent_had_when_he_closed() -> None:
    spec = {"L": "JS QH JH JD JC", "D": "AD 10D AC 10C KS", "stock": "AS 10S QS AH 10H KH KD QD KC QC"}
    for before, expected in (((), 3), (("JD", "AD", "AC", "JC"), 2)):  # D has a trick when L closes: 2
        state = stacked(SCHNAPSEN, spec)
        say(state, *before)
        if before:  # D leads after his trick; L wins the next and closes
            say(state, "10C", "JS")
        say(state, "announce close")
        while not state.hands:
            say(state, state.action_to_string(GreedyAgent().act(state, state.legal_actions(), random.Random(0))))
        summary = state.hands[-1]
        assert summary.winner == D and summary.deltas[D] == expected, (before, summary.points)


def test_closing_is_offered_to_the_leader_only_while_the_stock_holds_four_cards() -> None:
    state = stacked(SCHNAPSEN, SPEC)
    close = close_action(state)
    assert close in state.legal_actions()
    say(state, "10C")
    assert close not in state.legal_actions()  # D follows: nothing is offered beside his cards
    spec = {"L": "AS KS QS 10C JC", "D": "KC QC JD QD 10S", "stock": "AH 10D KD AD AC 10H KH JH QH JS"}
    state = stacked(SCHNAPSEN, spec)
    for lead, answer in (("AS", "JD"), ("KS", "QD"), ("QS", "QC")):
        say(state, lead, answer)
    assert state.view(L).stock == 4 and close in state.legal_actions()
    say(state, "10C", "KC")
    assert state.view(L).stock == 2 and close not in state.legal_actions()


def test_greedy_never_closes_and_a_search_sometimes_does() -> None:
    state = stacked(SCHNAPSEN, SPEC)
    legal = state.legal_actions()
    assert GreedyAgent().act(state, legal, random.Random(0)) != close_action(state)
    rng, closed = random.Random(5), 0
    pimc = make_agent("pimc:samples=8")
    for _ in range(30):
        state = GameState(SCHNAPSEN)
        state.deal_shuffled(rng)
        while not state.hands:
            legal = state.legal_actions()
            action = (pimc if state.current_player() == L else GreedyAgent()).act(state, legal, rng)
            closed += action == close_action(state) if len(legal) > 1 and state.is_playing() else 0
            state.apply(action)
    assert closed > 0


def test_sampled_worlds_agree_with_the_view_once_the_stock_is_closed_and_read_the_voids_after_it() -> None:
    state = stacked(SCHNAPSEN, {"L": "JS QH JH JD JC", "D": "AD 10D AC 10C KS", "stock": "AS 10S QS AH 10H KH KD QD KC QC"})
    say(state, "announce close", "JD", "AD", "AC", "JC", "10C", "JS")  # L trumps: void in clubs, as D sees
    worlds = Sampler().worlds(state, D, 8, random.Random(0))
    assert worlds and all(world.view(D) == state.view(D) for world in worlds)
    clubs = LAYOUT.parse_mask("KC QC")
    assert all(not world.hand_of(L) & clubs for world in worlds)


def test_sixty_six_gives_the_last_tricks_10_only_when_every_card_was_played() -> None:
    rs = build_ruleset(str(FOLDER / "sixty-six.yaml"))
    worth = dict(zip(("A", "10", "K", "Q", "J", "9"), (11, 10, 4, 3, 2, 0)))
    seen = set()
    for seed in range(200):
        rng = random.Random(seed)
        state = GameState(rs)
        state.deal_shuffled(rng)
        closing = seed % 2 == 0
        if closing:
            say(state, "announce close")
        while not state.hands:
            say(state, state.action_to_string(GreedyAgent().act(state, state.legal_actions(), rng)))
        summary = state.hands[-1]
        cards = sum(worth[rs.layout.name(c)[:-1]] for _, trick, _ in summary.played_tricks for c in trick)
        if len(summary.played_tricks) == (6 if closing else 12):  # played to the end, no stop at 66
            assert sum(summary.points) == cards + (0 if closing else 10)
            seen.add(closing)
    assert seen == {True, False}


def test_an_announcement_for_a_side_counts_the_cards_its_seat_played_where_hands_are_refilled(tmp_path) -> None:
    """Beside `play.draw` a hand holds as many cards after every trick: a deadline (`before_card`) counts
    the cards played, not the tricks less the cards held (which offered such an announcement never)."""
    path = tmp_path / "briscola-kontra.yaml"
    path.write_text(f"""extends: {FOLDER / "briscola.yaml"}
id: briscola-kontra
name: Briscola with Kontra
options: {{exchange: null, two_for_low: null}}
deal: [{{packet: 3, to: all}}, {{stock: rest}}, {{decide: trump}}]
trump: {{method: choose, choose: {{by: elder, ways: [name]}}}}
announcements:
  kontra: {{name: Kontra, for_side: opponents, before_card: 2}}
""")
    rs = build_ruleset(str(path))
    offers_by_cards_played = {0: 0, 1: 0, 2: 0}
    for seed in range(40):
        rng = random.Random(seed)
        state = GameState(rs)
        state.deal_shuffled(rng)
        while not state.hands:
            seat, legal = state.current_player(), state.legal_actions()
            if state.is_playing() and any(state.actions.decode(a)[0] == "announce" for a in legal):
                played = sum(1 for s, _ in state.view(seat).played if s == seat)
                offers_by_cards_played[min(played, 2)] += 1
            state.apply(rng.choice([a for a in legal if state.actions.decode(a)[0] != "announce"]))
    assert offers_by_cards_played[0] and offers_by_cards_played[1] and not offers_by_cards_played[2]


def traded_games(seeds: range) -> Iterator[tuple[GameState, int, int, int, int]]:
    """Schnapsen games greedy played until a trade for the turned card, two tricks more and the trader's
    opponent to act, with two cards he cannot see (one in the trader's hand, one in the stock), his seat
    and the seed."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GameState(SCHNAPSEN)
        state.deal_shuffled(rng)
        tricks = None
        while not state.hands and (tricks is None or len(state.finished_tricks()) < tricks + 2):
            if state.view(0).exchanged is not None and tricks is None:
                tricks = len(state.finished_tricks())
            state.apply(GreedyAgent().act(state, state.legal_actions(), rng))
        view = state.view(0)
        if state.hands or view.exchanged is None or not state.draw_order()[:-1]:
            continue
        trader, _, taken = view.exchanged
        seat = 1 - trader
        while not state.hands and state.current_player() != seat:  # the seat that cannot see is to act
            state.apply(GreedyAgent().act(state, state.legal_actions(), rng))
        if state.hands or not state.draw_order()[:-1]:
            continue
        hidden = [c for c in iter_bits(state.hand_of(trader)) if c != taken and (c, trader) not in state.view(seat).face_up]
        if hidden:
            yield state, hidden[0], state.draw_order()[0], seat, seed


def test_a_seat_cannot_tell_a_game_with_a_trade_from_its_twin_with_hidden_cards_swapped() -> None:
    twins_look_the_same(traded_games(range(200)), wanted=3)


def test_the_rl_observation_of_a_stock_game_holds_the_stock_and_the_trade() -> None:
    """The interop encoding (PettingZoo's observations, OpenSpiel's tensors and strings) shows the cards left
    to draw, the draws the seat saw and who traded for the turned card, from the seat's view only."""
    encoder = ViewEncoder(SCHNAPSEN)
    state = stacked(SCHNAPSEN, SPEC)
    before = encoder.encode(state.view(D))
    say(state, "exchange")
    view = state.view(D)
    text, after = encoder.text(view), encoder.encode(view)
    assert "stock 10" in text and "traded 1:JH>AH" in text
    at = sum(size for name, size in encoder.pieces[:[name for name, _ in encoder.pieces].index("stock")])
    assert before[at] == after[at] == 10 / LAYOUT.size
    assert after[at + 1:at + 3] == [0.0, 1.0] and before[at + 1:at + 3] == [0.0, 0.0]  # seat 1 (L) traded
    say(state, "AH", "AS")  # L wins and draws first: D sees only his own draw
    assert "stock 8" in encoder.text(state.view(D)) and "drawn 1:? 0:" in encoder.text(state.view(D))


# Trades by the turned card's rank (`play.draw.exchange` as a list with `turned`): two-handed Tute's seven of
# trumps for a turned card that counts, its two for a blank one (tests/scenarios/tute-two-handed*.yaml)
TUTE_TWO = build_ruleset(str(FOLDER / "tute.yaml"), options={"players": 2})
TUTE_HANDS = {"L": "7H 6H AS 3S KS 2S 7D 2D", "D": "AH 2H 4D KD 6S 5S 4S JS"}


@pytest.mark.parametrize(("turned", "given"), [("3D", "7D"), ("JD", "7D"), ("5D", "2D"), ("2D", None)])
def test_the_card_traded_is_the_one_whose_ranks_take_the_turned_card(turned: str, given: str | None) -> None:
    layout = TUTE_TWO.layout
    hands = dict(TUTE_HANDS)
    if turned == "2D":  # the two itself turned: neither trade takes a two
        hands["L"] = "7H 6H AS 3S KS 2S 7D 3C"
    state = stacked(TUTE_TWO, {**hands, "stock": f"{turned} 5H 6D JC 4H"})
    say(state, "7H", "2H")  # L wins, and may trade once he has
    assert state.exchange_card() == (layout.parse(given) if given else -1)
    if given is None:
        with pytest.raises(IllegalAction, match="no card is traded for a turned"):
            state.apply(state.actions.exchange)
