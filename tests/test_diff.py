"""`couillon diff A B`: what B changes relative to A, in the rulebook's own sentences."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.diff import diff_text, differences
from couillon_dsl.explain import follow_sentence
from couillon_dsl.model import Passing


def labels(lines: list[str]) -> set[str]:
    return {line.split(":", 1)[0] for line in lines}


@pytest.mark.parametrize("name", ["couillon", "kwajongen", "mit-6"])
def test_a_ruleset_does_not_differ_from_itself(name: str) -> None:
    ruleset = build_ruleset(name)
    assert differences(ruleset, build_ruleset(name)) == []
    assert diff_text(ruleset, ruleset).endswith(": no difference in the rules.\n")


def test_kwajongen_against_couillon_names_deal_trump_follow_and_scoring() -> None:
    couillon, kwajongen = build_ruleset("couillon"), build_ruleset("kwajongen")
    lines = differences(couillon, kwajongen)
    assert {"Deal", "Trump", "Follow", "Scoresheet", "Scoring rule win", "Scoring rule all_tricks",
            "Scoring rule pass_bonus"} <= labels(lines)
    assert (f"Follow: {follow_sentence(kwajongen)} (was: {follow_sentence(couillon)})") in lines
    assert ("Trump: if everyone passes, the deal is passed out: nobody scores, and the next dealer shuffles and "
            "deals again (was: if everyone passes, the bottom card of the stock is turned face up and its suit "
            "is trump; nobody is the maker in this hand)") in lines
    assert any(line.startswith("Deal: 2 to each player but the dealer, 1 face up to the dealer") for line in lines)
    assert any(line.startswith("Scoring rule all_tricks: ") and line.endswith(" (new)") for line in lines)
    # what both games share is not reported
    assert not labels(lines) & {"Players", "Cards", "Card order", "Card points", "First lead", "Trick"}


def test_removed_rules_are_reported_as_removed() -> None:
    lines = differences(build_ruleset("mit"), build_ruleset("couillon"))
    assert "Announcement Kontra" in labels(lines)
    assert any(line.startswith("Scoring rule kontra: removed (was: if a team wins the hand and Kontra was announced")
               for line in lines)


def test_options_are_compared_on_effective_values() -> None:
    lines = differences(build_ruleset("couillon"), build_ruleset("couillon", {"lines": "7"}))
    assert labels(lines) == {"Scoresheet", "Option lines"}
    assert lines[0].startswith("Scoresheet: each team starts with 7 lines")


def test_one_changed_primitive_is_one_line() -> None:
    couillon = build_ruleset("couillon")
    follow = replace(couillon.play.follow, when_void="must_trump")
    strict = replace(couillon, play=replace(couillon.play, follow=follow))
    assert differences(couillon, strict) == [
        "Follow: if you hold a card of the suit led you must play either a card of that suit or a trump; "
        "if you cannot follow suit you must play a trump if you have one "
        "(was: if you hold a card of the suit led you must play either a card of that suit or a trump; "
        "if you cannot follow suit you may play any card)"]


def test_a_reading_of_silent_sources_is_a_difference() -> None:
    """Ardennes' own reading (a wholly refused stock throws the hand in) is named, with its setting and why."""
    lines = differences(build_ruleset("couillon"), build_ruleset("couillon-ardennes"))
    [reading] = [line for line in lines if line.startswith("Readings:")]
    assert "`trump.offer.when_stock_exhausted: redeal`" in reading and "not from a source" in reading
    assert reading.endswith("(new)")


def test_bids_read_as_rules() -> None:
    """The hook, the range and the whole `bids` section each read as the rulebook states them."""
    path = str(Path(__file__).resolve().parents[1] / "examples" / "oh-hell.yaml")
    oh_hell = build_ruleset(path, {"schedule": "fixed"})  # ten cards every deal
    assert differences(oh_hell, build_ruleset(path, {"schedule": "fixed", "hook": "false"})) == [
        "Bids: the dealer may bid any of these numbers, even one that makes all the bids add up to 10, the number of "
        "tricks in a hand (was: the dealer may not bid the number that would make all the bids add up to 10, the "
        "number of tricks in a hand, unless it is the only bid allowed)",
        "Option hook: false (default true); allowed: true, false (was: true; allowed: true, false)"]
    assert oh_hell.bids is not None
    narrower = replace(oh_hell, bids=replace(oh_hell.bids, lowest=1, highest=5))
    assert differences(oh_hell, narrower) == [
        "Bids: a bid is a number of tricks from 1 to 5 (was: a bid is a number of tricks from 0 to 10)"]
    without = replace(oh_hell, bids=None)
    removed, added = differences(oh_hell, without), differences(without, oh_hell)
    assert len(removed) == len(added) == 5
    assert all(line.startswith("Bids: removed (was: ") for line in removed)
    assert added[0] == ("Bids: once trump is fixed, before the first lead, each player in turn bids how many tricks "
                        "they will take, starting with the player on the dealer's left and going round to the dealer, "
                        "who bids last (new)")
    assert added[-1] == "Bids: the bids count in the scoring rule exact (new)"


def test_passing_reads_as_a_rule() -> None:
    """Changing whom the cards go to is one line; the option that removes the passing removes its sentences."""
    path = str(Path(__file__).resolve().parents[1] / "examples" / "hearts.yaml")
    hearts = build_ruleset(path)
    no_across = replace(hearts, passing=Passing(cards=3, to=("next", "previous", "none")))
    assert differences(hearts, no_across) == [
        "Passing: once the cards are dealt, before the first lead, each player chooses 3 cards from their hand and "
        "passes them face down: in the first hand of a game to the player on their left, in the second to the player "
        "on their right, and in the third nobody passes; from the fourth hand the same order starts again (was: once "
        "the cards are dealt, before the first lead, each player chooses 3 cards from their hand and passes them face "
        "down: in the first hand of a game to the player on their left, in the second to the player on their right, "
        "in the third to the player opposite, and in the fourth nobody passes; from the fifth hand the same order "
        "starts again)"]
    removed = differences(hearts, build_ruleset(path, {"passing": "false"}))
    assert labels(removed) == {"Passing", "Option passing"}
    assert all(line.startswith("Passing: removed (was: ") for line in removed if not line.startswith("Option"))


def test_cli_diff() -> None:
    runner = CliRunner()
    same = runner.invoke(main, ["diff", "couillon", "couillon"], catch_exceptions=False)
    assert same.exit_code == 0
    assert same.output == "Couillon (couillon) compared with Couillon (couillon): no difference in the rules.\n"
    changed = runner.invoke(main, ["diff", "couillon", "couillon", "-o", "tie_carry=none"], catch_exceptions=False)
    assert changed.exit_code == 0
    assert "- Ties: a tie carries nothing over to the next hand (was: after a tie," in changed.output
    back = runner.invoke(main, ["diff", "kwajongen", "couillon", "--base-option", "pass_carry=none"],
                         catch_exceptions=False)
    assert back.exit_code == 0 and "Option pass_carry: removed (was: none (default single)" in back.output


@pytest.mark.parametrize(("args", "code", "message"), [
    (["diff", "couillon", "kwajong"], 2, "did you mean 'kwajongen'?"),
    (["diff", "couillon"], 2, "Missing argument 'B'"),
    (["diff", "couillon", "couillon", "--base-option", "x"], 2, "Invalid value for '--base-option': wants NAME=VALUE"),
    (["diff", "couillon", "couillon", "-o", "nope=1"], 2, "Invalid value for '--option': "),
])
def test_cli_diff_errors(args: list[str], code: int, message: str) -> None:
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output


def test_ramsch_reads_as_what_follows_when_everyone_passes() -> None:
    """Skat's option all_pass: the auction's last sentence, the scoring rules and the definition it adds."""
    path = str(Path(__file__).resolve().parents[1] / "examples" / "skat.yaml")
    lines = differences(build_ruleset(path), build_ruleset(path, {"all_pass": "ramsch"}))
    assert labels(lines) >= {"Trump", "Definition jungfrau", "Scoring rule ramsch", "Scoring rule jungfrau",
                             "Scoring rule durchmarsch"}
    [trump] = [line for line in lines if line.startswith("Trump:")]
    assert "if everyone passes, the hand is played with no declarer" in trump
    assert trump.endswith("(was: if every other player passed before anyone bid, the one left may bid the lowest "
                          "value alone or pass; if everyone passes, the deal is thrown in: nobody scores and the "
                          "next dealer deals)")
