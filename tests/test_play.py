"""`couillon play`: a person at one seat against bots, driven here by scripted input."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.agents import make_agent
from couillon_dsl.cards import iter_bits
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import explain_legal
from couillon_dsl.play import Quit, Table
from example_games import FOLDER, HEARTS

OH_HELL = str(FOLDER / "oh-hell.yaml")

ALWAYS_FIRST = "1\n" * 3000  # far more answers than any game needs


def play_cli(*args: str, input: str):
    result = CliRunner().invoke(main, ["play", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


@pytest.mark.parametrize("ruleset, seat", [("couillon", 0), ("mit", 1)])
def test_a_whole_game_answering_the_first_choice(ruleset: str, seat: int) -> None:
    result = play_cli(ruleset, "--seed", "3", "--seat", str(seat), input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Winner: team " in out.splitlines()[-1]
    assert "Your hand: " in out and "Choices: 1) " in out and "Scoresheet: " in out
    assert "Trick 1 (" in out and " wins — " in out  # who won each trick, and why
    assert "Outcome: " in out  # after each hand
    assert "Traceback" not in out


def test_the_same_seed_and_answers_give_the_same_game() -> None:
    first = play_cli("couillon", "--seed", "8", input=ALWAYS_FIRST).output
    again = play_cli("couillon", "--seed", "8", input=ALWAYS_FIRST).output
    assert first == again


class IllegalFirst(io.StringIO):
    """Answers an illegal card once, at the first play decision that has one; then always "1"."""

    def __init__(self, table_ref: list[Table]) -> None:
        super().__init__()
        self.table_ref = table_ref
        self.tried: str | None = None

    def readline(self, *args: object) -> str:
        table = self.table_ref[0]
        state = table.state
        if self.tried is None and state.view(table.seat).phase == "play":
            refused = [card for card, ok, _ in explain_legal(state, table.seat) if not ok]
            if refused:
                self.tried = state.action_to_string(refused[0]).lower()  # e.g. "qs": input is case-insensitive
                return self.tried + "\n"
        return "1\n"


def test_an_illegal_card_is_refused_with_the_reason_and_asked_again() -> None:
    rs = build_ruleset("couillon")
    out = io.StringIO()
    ref: list[Table] = []
    inp = IllegalFirst(ref)
    table = Table(rs, seat=0, agents=[None] + [make_agent("greedy")] * 3, seed=3, inp=inp, out=out, echo_input=True)
    ref.append(table)
    table.run()
    text = out.getvalue()
    assert inp.tried is not None, "no illegal card came up in this game"
    refusal = next(line for line in text.splitlines() if line.startswith("You may not play "))
    assert "must follow" in refusal and refusal.endswith("Choose again.")
    after = text[text.index(refusal):]
    assert after.splitlines()[1] == "> 1"  # asked again at once, and the answer taken
    assert "Winner: " in text


def test_illegal_card_through_the_command_line() -> None:
    # seed 3: the person's first card decision has seat 1 leading ♥A, and ♠Q is in the hand
    result = play_cli("couillon", "--seed", "3", input="1\nQS\n" + ALWAYS_FIRST)
    assert result.exit_code == 0
    assert "You may not play ♠Q: must follow suit or trump (♥ led). Choose again." in result.output


def test_other_answers_are_read_or_refused_politely() -> None:
    result = play_cli("couillon", "--seed", "3", input="zz\n7\nname H\nhelp\naccept\nwhy\nquit\n")
    out = result.output
    assert result.exit_code == 0
    assert "Cannot read 'zz'" in out and "There is no choice 7" in out
    assert "Not allowed: " in out  # `name H` is not a choice when a card is offered
    assert "You accept ♦Q." in out  # accepted by name
    assert "♥Q: yes — follows suit" in out  # `why`
    assert out.rstrip().endswith("Game stopped.")


@pytest.mark.parametrize("answers", ["", "1\n1\n", "1\n1"])
def test_end_of_input_mid_game_stops_cleanly(answers: str) -> None:
    result = play_cli("couillon", "--seed", "3", input=answers)
    assert result.exit_code == 0
    assert result.exception is None
    assert result.output.rstrip().endswith("Input ended: game stopped.")


def test_quit_with_record_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    result = play_cli("couillon", "--seed", "3", "--record", str(path), input="quit\n")
    assert result.exit_code == 0 and "nothing written" in result.output
    assert not path.exists()


def test_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    result = play_cli("mit", "--seed", "4", "--seat", "2", "--record", str(path), input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    assert path.read_text().count("\n") == 1 and '"human"' in path.read_text()
    replayed = CliRunner().invoke(main, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    assert "1 game replayed, all identical" in replayed.output


def test_usage_errors_exit_2() -> None:
    assert play_cli("couillon", "--seat", "4", input="").exit_code == 2
    assert play_cli("couillon", "--agents", "nobody", input="").exit_code == 2
    assert play_cli("no-such-ruleset", input="").exit_code == 2


def test_quit_from_the_library_raises_quit() -> None:
    rs = build_ruleset("couillon")
    table = Table(rs, seat=0, agents=[None] + [make_agent("random")] * 3, seed=1, inp=io.StringIO("quit\n"),
                  out=io.StringIO())
    with pytest.raises(Quit):
        table.run()


def test_the_taker_is_asked_about_a_chelem_before_anyone_leads() -> None:
    """French Tarot: answering "2" bids the taker's way to the chien and then to the chelem question,
    put before the first lead (tarot.yaml's announcements.chelem, by: declarer)."""
    out = play_cli("tarot", "--seed", "1", "--seat", "1", input="2\n" * 400).output
    asked = out.index("1) no (do not announce Chelem)  2) announce chelem (Chelem)")
    assert "Trick: nobody has led yet." in out[:asked] and "You announce Chelem!" in out[asked:]
    assert "Traceback" not in out


def test_sides_per_hand_are_named_and_the_scoresheet_is_per_seat() -> None:
    """French Tarot (players.sides: declarer_alone): every hand names the declarer's seat and the
    defence around it, card points in halves, a score per seat; the contract and the kitty as
    every seat sees them; another seat's discard stays face down."""
    out = play_cli("tarot", "--seed", "1", "--seat", "1", input=ALWAYS_FIRST).output
    assert "Traceback" not in out and "internal error" not in out
    assert "Seat 3 bids Petite." in out and "Contract: not fixed yet." in out  # the trumps are always trumps
    assert "Seat 3 is the declarer with Petite: the declarer (seat 3) against the defence (you, seats 0, 2)." in out
    assert "The kitty is shown: ♥4 ♦9 ♣C ♣10 ♣5 ♣3. Seat 3 takes it." in out
    assert "Seat 3 discards 6 cards face down." in out
    assert not re.search(r"^Seat \d discards? (?!\d+ cards?)", out, re.M)  # no card of another's discard named
    assert "Points so far: the declarer (seat 3) 0 | the defence (you, seats 0, 2) 9." in out  # ♥K ♥4 ♥1 ♥Q
    assert ("Points: the declarer (seat 3) 43.5 (7 tricks) | the defence (you, seats 0, 2) 47.5 (11 tricks)"
            in out)
    assert "Scoring: seat 0 -33, you -33, seat 2 -33, seat 3 +99." in out
    assert "Scoresheet: seat 0 0 | you 0 | seat 2 0 | seat 3 0   (4 deals, the best total wins)" in out
    assert "maker" not in out  # sides were once printed as if they were seats ("maker seat 0")
    assert out.rstrip().endswith("Winner: seat 3 after 4 hands. You lose.")


def test_the_declarer_sees_his_own_discard_and_an_unseen_kitty_stays_unseen() -> None:
    bid = play_cli("tarot", "--seed", "1", "--seat", "1", input="2\n" * 12).output
    assert "You are the declarer with Garde: the declarer (you) against the defence (seats 0, 2, 3)." in bid
    assert "You discard ♠7." in bid and "Your discard: ♠7 ♠4." in bid
    sans = play_cli("tarot", "--seed", "1", "--seat", "1", input="contract garde_sans\n" + "1\n" * 30).output
    first_hand = sans[:sans.index("=== Hand 2")] if "=== Hand 2" in sans else sans
    assert "The kitty stays face down; it counts for the declarer." in first_hand
    assert "Kitty:" not in first_hand and "kitty is shown" not in first_hand


def test_a_push_says_who_chooses_and_a_shown_meld_its_cards() -> None:
    out = play_cli("schieber", "--seed", "2", input=ALWAYS_FIRST).output
    assert "Face up: ♦7 (seat 3).\nSeat 3 pushes the choice on to seat 1.\nSeat 1 names ♦ diamonds as trump." in out
    assert "Seat 2 declares Weis (run of 4, 50): ♠Q ♠J ♠10 ♠9." in out
    assert "Declarations kept: Weis: team 0 (you, seat 2) 50." in out  # what the scoring adds to the card points


def test_a_game_beyond_the_family_says_how_it_ends_and_that_nothing_is_trump() -> None:
    """Hearts (examples/hearts.yaml): no trumps, the game ends at 100 with the lowest score winning,
    and a heart may not be led before one is played: the answer is refused with that reason (after
    three cards passed and a first trick won)."""
    out = play_cli(HEARTS, "--seed", "3", "--seat", "1", input="1\n1\n1\n1\n2H\nquit\n").output
    assert "Trump: none in this game." in out and "(the game ends at 100, the lowest score winning)" in out
    assert "may not be led until one of its kind has been played" in out
    assert "Traceback" not in out


class Bidder:
    """A bot that bids its planned number of tricks (the lowest allowed, if that one is not) and plays its first card."""

    def __init__(self, bid: int) -> None:
        self.bid = bid

    def act(self, state, legal, rng) -> int:
        planned = state.actions.bid0 + self.bid
        return planned if planned in legal else legal[0]


def test_a_bid_is_asked_with_the_numbers_allowed_and_every_bid_stays_in_sight() -> None:
    """Oh Hell (examples/oh-hell.yaml): the person, dealing, bids last; the bids so far are shown,
    the number that would make the bids add up to the ten tricks is left out with the engine's
    reason, a bare number is read as the bid, and during play and after each hand every bid
    stands beside the tricks taken (no card points: no points line)."""
    rs = build_ruleset(OH_HELL, {"schedule": "fixed"})  # ten cards every deal
    out = io.StringIO()
    answers = "2\n11\nbid 0\n" + "1\n" * 400  # later bids are 1, never the last bid: the hook is only the dealer's
    table = Table(rs, seat=0, agents=[None, Bidder(3), Bidder(2), Bidder(3)], seed=3, inp=io.StringIO(answers),
                  out=out, echo_input=True)
    state = table.run()
    text = out.getvalue()
    assert "Seat 1 bids 3 tricks.\nSeat 2 bids 2 tricks.\nSeat 3 bids 3 tricks." in text
    assert "Bids so far: seat 1 3, seat 2 2, seat 3 3." in text
    hook = "the last bidder may not make the bids add up to the 10 tricks of the hand"
    assert f"Your bid: how many tricks will you take? 0 to 10, not 2 ({hook}). Type the number.\n> 2\n" in text
    assert f"Not allowed: bid 2 is not allowed: {hook}. Choose again.\n> 11\n" in text
    assert "There is no bid 11: bids go from 0 to 10. Choose again.\n> bid 0\nYou bid 0 tricks." in text
    assert "Bids: seat 1 3, seat 2 2, seat 3 3, you 0; 8 bid for 10 tricks." in text
    assert "Bids and tricks taken: you bid 0, took 0 | seat 1 bid 3, took 0 | seat 2 bid 2, took 0 | seat 3 bid 3, took 0." in text
    assert "Your bid: how many tricks will you take? 0 to 10. Type the number.\n> 1\nYou bid 1 trick." in text
    assert "Points" not in text
    assert len(state.hands) == 4
    for h in state.hands:
        line = " | ".join(f"{'you' if s == 0 else f'seat {s}'} bid {b}, took {h.tricks[s]}" for s, b in enumerate(h.bids))
        assert f"Hand {h.number} over. Trump {table.suit(rs.layout.suits.index(h.trump))}.\nBids: {line}.\n" in text
        assert h.deltas == tuple(10 + b if h.tricks[s] == b else 0 for s, b in enumerate(h.bids))
    assert h.bids[0] == 1 and "Winner: seat " in text


def test_a_deal_of_the_whole_pack_is_shown_without_trump() -> None:
    """Thirteen cards each leave no card to turn up: the hand is told as played without trump."""
    out = play_cli(OH_HELL, "-o", "schedule=fixed", "-o", "cards=13", "-o", "deals=1", "--seed", "3",
                   input=ALWAYS_FIRST).output
    assert "Trump: none in this hand." in out and "Trump: not fixed yet." not in out
    assert "there are no trumps" in out and "Hand 1 over. Trump none." in out and "Traceback" not in out


def test_bids_through_the_command_line_and_the_record_replays(tmp_path: Path) -> None:
    """A bare number is a bid at the command line too; "1", or "0" when 1 is the hook's number,
    bids through a whole game of twenty deals, each announced with its cards, against random
    bots, and its record replays."""
    path = tmp_path / "game.jsonl"
    result = play_cli(OH_HELL, "--seed", "5", "--agents", "random", "--record", str(path), input="1\n0\n" * 400)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.count("You bid ") == 20  # the schedule: 1, 2, ... 10 cards, then 10, ... 1
    assert "=== Hand 1: you deal. 1 card each. ===" in out and "=== Hand 12: seat 3 deals. 9 cards each. ===" in out
    assert "Your bid: how many tricks will you take? 0, 1. Type the number." in out
    assert "Recorded to " in out and "Traceback" not in out
    replayed = CliRunner().invoke(main, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output


def test_a_game_without_card_points_counts_tricks_instead() -> None:
    """Whist (examples/whist.yaml) scores odd tricks: the table counts tricks where card points would be 0."""
    out = play_cli(str(FOLDER / "whist.yaml"), "--seed", "3", input=ALWAYS_FIRST).output
    assert "Tricks so far: team 0 (you, seat 2) 0 | team 1 (seats 1, 3) 0." in out
    assert re.search(r"^Tricks: team 0 \(you, seat 2\) \d+ \| team 1 \(seats 1, 3\) \d+\.$", out, re.M)
    assert "Points" not in out and "Traceback" not in out


def test_cards_to_pass_are_asked_by_name_and_only_their_count_is_told_of_a_bots() -> None:
    """Hearts (examples/hearts.yaml): the person, the elder, is asked for three cards to pass
    left, one at a time, by name or number; the bots' passes are told as a count and a receiver,
    never card by card, and once every seat has passed the person learns what it gave and got.
    Hand 2 passes right, hand 3 across, and in hand 4 nobody passes."""
    rs = build_ruleset(HEARTS)
    out = io.StringIO()
    answers = "QH\nKS\nwhy\n♠A\npass 3D\n" + "1\n" * 3000
    table = Table(rs, seat=1, agents=[make_agent("greedy")] * 4, seed=3, inp=io.StringIO(answers), out=out,
                  echo_input=True)
    state = table.run()
    text = out.getvalue()
    first = state.hands[0]
    assert "Pass 3 cards to seat 2: 3 still to pass. Type a card, or its number.\nChoices: 1) ♠A  2) ♠9  " in text
    assert "> QH\nYou pass ♥Q to seat 2.\n" in text
    assert "Pass 3 cards to seat 2: 2 still to pass (passed so far: ♥Q)." in text
    assert "> KS\nYou do not hold ♠K. Choose again.\n> why\nYou may pass any card you hold.\n> ♠A\nYou pass ♠A to seat 2." in text
    assert first.passed[1] == sum(1 << rs.layout.parse(card) for card in ("AS", "QH", "3D"))
    exchange = (f"> pass 3D\nYou pass ♦3 to seat 2.\nSeat 2 passes 3 cards to seat 3.\nSeat 3 passes 3 cards to seat 0.\n"
                f"Seat 0 passes 3 cards to you.\nYou passed ♠A ♥Q ♦3 to seat 2; you received "
                f"{table.cards_text(first.passed[0])} from seat 0.\n")
    assert exchange in text
    assert "Seat 2 passes 3 cards to you.\nSeat 3 passes 3 cards to seat 2.\nSeat 0 passes 3 cards to seat 3." in text
    assert re.search(r"^You passed .* to seat 3; you received .* from seat 3\.$", text, re.M)  # across
    assert not re.search(r"^Seat \d: ", text, re.M)  # no pass written out as an action
    hands = re.split(r"^=== Hand \d+: ", text, flags=re.M)[1:]
    assert len(hands) == len(state.hands) >= 5
    for number, (told, summary) in enumerate(zip(hands, state.hands)):
        if number % 4 == 3:
            assert "Nobody passes cards this hand." in told and "Pass 3 cards" not in told and not summary.passed
            continue
        before_exchange = told[:told.index("You passed ")]
        hidden = [table.card(c) for s in (0, 2, 3) for c in iter_bits(summary.passed[s])]
        assert len(hidden) == 9 and not any(card in before_exchange for card in hidden), number
        assert told.count(" passes 3 cards to ") == 3 and "Nobody passes" not in told


def test_passing_through_the_command_line_and_the_record_replays(tmp_path: Path) -> None:
    """A card named with its suit symbol is the card to pass; the record of a game with passes replays."""
    path = tmp_path / "game.jsonl"
    result = play_cli(HEARTS, "--seed", "4", "--record", str(path), input="Q♥\n" + ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    assert "You pass ♥Q to seat 1." in result.output and "Traceback" not in result.output
    replayed = CliRunner().invoke(main, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output


def test_a_numeric_auction_and_the_kitty_decision_are_said_as_such() -> None:
    """Skat: a value bid and held, the declarer leaving the skat unseen (a hand game)."""
    out = play_cli(str(FOLDER / "skat.yaml"), "--seed", "2", "--seat", "2", "--option", "deals=1",
                   input="2\n" * 80).output
    assert "You bid 18." in out and "Seat 1 holds 18." in out and "bid 0 tricks" not in out
    assert "Choices: 1) accept  2) pass" in out and "You leave the kitty unseen." in out
    assert "Traceback" not in out


def test_a_dealer_sitting_out_is_told_so_and_never_asked() -> None:
    """Skat for four: the person deals the first hand and sits it out, then plays the next three
    (deals 4: one round of dealers), answering with the first choice every time."""
    result = play_cli(str(FOLDER / "skat.yaml"), "--option", "table=four", "--option", "deals=4", "--seed", "2",
                      "--agents", "random", input=ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    out = result.output
    hands = re.split(r"^=== Hand \d+: ", out, flags=re.M)[1:]
    assert hands[0].startswith("you deal and sit the hand out. ===")
    assert "Your turn" not in hands[0] and "Sitting this hand out: you." not in hands[0]
    assert [h.split(" ===")[0] for h in hands[1:]] == [f"seat {s} deals and sits the hand out." for s in (1, 2, 3)]
    assert all("Your turn" in h and "Sitting this hand out: seat " in h for h in hands[1:])
    assert "Traceback" not in out


def test_the_trade_for_the_turned_card_is_offered_and_told() -> None:
    """Schnapsen: the trump jack's holder on lead is offered the trade (`play.draw.exchange`) and closing the
    stock beside his cards, and the table is told a trade in words."""
    out = play_cli(str(FOLDER / "schnapsen.yaml"), "--seed", "6", input=ALWAYS_FIRST).output
    assert "Traceback" not in out
    assert re.search(r"\d\) exchange \(trade ♣J for the turned-up ♣K, then lead\)", out)
    assert re.search(r"\d\) announce close \(Closing\)", out)
    assert re.search(r"Seat 1 trades ♦J for the turned-up ♦(A|10): ♦J now lies under the stock", out)


def test_a_hand_that_stops_early_says_so() -> None:
    """Schnapsen: the first player to count 66 ends the hand (`play.stop_when`), and the table says why."""
    out = play_cli(str(FOLDER / "schnapsen.yaml"), "--seed", "4", input=ALWAYS_FIRST).output
    assert "Traceback" not in out
    stopped = re.findall(r"The hand stopped after (\d+) tricks?: its stop rule held", out)
    assert stopped and all(int(n) < 10 for n in stopped)
    assert "Seat 1 declares Marriage (marriage in hearts, 20): ♥K ♥Q." in out


def test_a_song_is_offered_by_what_it_would_declare_and_told() -> None:
    """Tute: the winner of a trick is offered, beside his cards, the song `declare cante` would sing (the
    best pair he holds, named with its value and cards), and the table is told the song with its cards."""
    out = play_cli(str(FOLDER / "tute.yaml"), "--seed", "1", input=ALWAYS_FIRST).output
    assert "Traceback" not in out
    assert re.search(r"\d+\) declare cante \(Song: (twenty in \w+, 20|the forty, 40): ♦K ♦Q\)", out)
    assert re.search(r"Seat \d declares Song \((twenty in \w+, 20|the forty, 40)\): ♠K ♠Q\.", out)
