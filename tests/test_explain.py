"""`couillon explain`: golden rulebooks per shipped ruleset and per example (examples/), and the
sentences they are made of.

A golden difference means the prose changed. If that is intended, regenerate with
``python3 -m pytest tests/test_explain.py --regen`` and commit tests/golden/explain/ with it.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.builtin import builtin_names
from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.explain import (
    bid_sentences, condition_phrase, deal_step_sentences, delta_phrase, describe, explain, follow_clauses,
    passing_sentences, promotion_sentences, scoring_rule_sentence, trump_sentences,
)
from couillon_dsl.expr.parse import parse_expression
from couillon_dsl.model import Bids, Follow, Offer, Passing, ScoringRule

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "explain"
RULESETS = builtin_names()
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
GOLDENS = [(name, GOLDEN / f"{name}.md") for name in RULESETS] + \
    [(str(path), ROOT / "tests" / "golden" / "examples" / f"{path.stem}.md") for path in EXAMPLES]
OH_HELL = str(ROOT / "examples" / "oh-hell.yaml")  # bids of a number of tricks
HEARTS = str(ROOT / "examples" / "hearts.yaml")  # cards passed before play


@pytest.fixture(scope="module")
def couillon():
    return build_ruleset("couillon")


@pytest.mark.parametrize("name, path", GOLDENS, ids=[path.stem for _, path in GOLDENS])
def test_explain_matches_golden(name: str, path: Path, request: pytest.FixtureRequest) -> None:
    text = explain(build_ruleset(name))
    if request.config.getoption("--regen"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"no golden rulebook for {name}; run pytest {Path(__file__).name} --regen"
    assert text == path.read_text(encoding="utf-8"), f"the rulebook of {name} changed; see the module docstring"


def test_every_ruleset_has_exactly_one_golden_rulebook() -> None:
    goldens = sorted(path.stem for path in GOLDEN.glob("*.md"))
    assert goldens == RULESETS, "golden rulebooks and rulesets differ; run pytest tests/test_explain.py --regen"


def test_no_two_rulesets_read_the_same() -> None:
    """Compare the rules only (no title, description, options or sources): every ruleset plays differently."""
    rules = {}
    for name in RULESETS:
        sections = [s for s in describe(build_ruleset(name)) if s.title not in ("Options", "Sources")]
        rules.setdefault(repr(sections), []).append(name)
    assert [names for names in rules.values() if len(names) > 1] == []


def test_rulebook_has_every_concept_in_order(couillon) -> None:
    titles = [s.title for s in describe(couillon)]
    assert titles == ["Players and seating", "The cards", "The deal", "Trump", "Playing the tricks",
                      "Winning a hand", "Scoring", "End of the game", "Options", "Sources"]
    assert [s.title for s in describe(build_ruleset("mit"))].count("Announcements") == 1


def test_deal_is_told_step_by_step(couillon) -> None:
    steps = deal_step_sentences(couillon)
    assert steps[0] == ("deal 2 cards face down to each player, starting with the player on the dealer's left "
                        "and ending with the dealer")
    assert steps[2] == "put the remaining 8 cards face down in a stock, which is not played"
    assert steps[3] == "turn the top card of the stock face up"
    text = explain(couillon)
    assert "1. Deal 2 cards face down to each player, starting with the player on the dealer's left" in text
    assert "Each player now holds 4 cards, so a hand has 4 tricks; 8 of the 24 cards are not played" in text


def test_face_up_packet_and_seat_words() -> None:
    kwajongen = build_ruleset("kwajongen")
    assert "deal 1 card face up to the dealer" in deal_step_sentences(kwajongen)
    assert trump_sentences(kwajongen)[0].startswith("the suit of the card dealt face up to the dealer is offered")
    mit = build_ruleset("mit")
    assert deal_step_sentences(mit)[2] == ("deal 3 cards face down to each player except the player on the dealer's "
                                           "left, starting with the dealer's partner and ending with the dealer")


def test_direction_changes_left_into_right(couillon) -> None:
    counter = replace(couillon, players=replace(couillon.players, direction="counterclockwise"))
    assert deal_step_sentences(counter)[0].startswith(
        "deal 2 cards face down to each player, starting with the player on the dealer's right")
    assert "deal and play go counterclockwise, to the right" in explain(counter).lower()


def test_promoted_card_sentence() -> None:
    assert promotion_sentences(build_ruleset("mit"))[0].startswith(
        "if the Mit is announced, the Q♠ becomes a trump ranking directly below the trump ace")


def test_everyone_passes(couillon) -> None:
    assert trump_sentences(couillon)[-1] == ("if everyone passes, the bottom card of the stock is turned face up and "
                                             "its suit is trump; nobody is the maker in this hand")
    redeal = replace(couillon, trump=replace(couillon.trump, offer=Offer(on_all_pass="redeal")))
    assert trump_sentences(redeal)[-1] == ("if everyone passes, the deal is passed out: nobody scores, "
                                           "and the next dealer shuffles and deals again")


FOLLOW_CASES = [
    (Follow(), ["if you hold a card of the suit led you must play either a card of that suit or a trump",
                "if you cannot follow suit you may play any card"]),
    (Follow(led_suit="must_follow", when_void="must_trump"),
     ["you must follow suit if you can", "if you cannot follow suit you must play a trump if you have one"]),
    (Follow(led_suit="must_follow", head="when_able", head_when_trumped=True),
     ["you must follow suit if you can", "if you cannot follow suit you may play any card",
      "when you follow suit you must beat the best card of the suit led if you can, "
      "even after the trick has been trumped",
      "when trumps are led you must play a higher trump than the best one in the trick if you can"]),
    (Follow(overtrump="when_able", undertrump="only_when_forced"),
     ["if you hold a card of the suit led you must play either a card of that suit or a trump",
      "if you cannot follow suit you may play any card",
      "a trump you play must beat the best trump already in the trick if you can",
      "when trumps are led you must play a higher trump than the best one in the trick if you can",
      "you may play a trump lower than one already in the trick only when you have no other legal card"]),
    (Follow(exempt=("JT",)),
     ["if you hold a card of the suit led you must play either a card of that suit or a trump",
      "if you cannot follow suit you may play any card",
      "the trump jack never has to be played to follow trumps: holding no other trump you may play any card"]),
]


@pytest.mark.parametrize(("follow", "clauses"), FOLLOW_CASES)
def test_follow_clauses_compose_the_primitives(couillon, follow: Follow, clauses: list[str]) -> None:
    assert follow_clauses(couillon, follow) == clauses


@pytest.mark.parametrize(("expression", "words"), [
    ("decided", "a team wins the hand"),
    ("decided and maker != none and loser == maker", "the maker loses the hand"),
    ("decided and all_tricks", "the winning team took every trick"),
    ("tie and maker != none", "the hand is a tie and there is a maker"),
    ('decided and announced("mit")', "a team wins the hand and Mit was announced"),
    ('decided and winner == announcer("mit")', "the team that announced Mit wins the hand"),
    ("points(maker) < points(opponents(maker))", "the maker has fewer card points than the maker's opponents"),
    ("points(winner) >= 21", "the winning team has at least 21 card points"),
    ("winner == dealer_team", "the dealer's team wins the hand"),
    ("passes_pending > 0", "a passed-out deal is owed to this hand"),
    ("not all_tricks", "the winning team did not take every trick"),
    ("(tie or no_score) and maker != none", "either the hand is a tie or the hand is not scored and there is a maker"),
    ("not (tie and maker != none)", "it is not the case that both the hand is a tie and there is a maker"),
    ("tricks(winner) * 2 > tricks_per_hand", None),
    # a count compared with a number: the verb agrees with "the number", not with "tricks"
    ("tricks(maker) == tricks_per_hand", "the number of tricks won by the maker is the number of tricks in a hand"),
    # bids: the tricks taken are the subject, whichever side of the comparison they are on
    ("tricks(maker) == bid(maker)", "the maker took exactly as many tricks as it bid"),
    ("bid(maker) > tricks(maker)", "the maker took fewer tricks than it bid"),
    ("tricks(winner) >= bid(loser)", "the winning team took at least as many tricks as the losing team bid"),
    ("bid(maker) == 0", "the maker bid exactly 0 tricks"),
    ("bid(maker) == tricks_per_hand", "the number of tricks bid by the maker is the number of tricks in a hand"),
])
def test_conditions_in_words(expression: str, words: str | None) -> None:
    assert condition_phrase(build_ruleset("mit"), parse_expression(expression)) == words


def test_unusual_expressions_are_quoted(couillon) -> None:
    rule = replace(couillon.scoring[0], when="tricks(winner) * 2 > tricks_per_hand", delta="tricks(loser) - 1 - 1")
    assert scoring_rule_sentence(couillon, rule) == (
        "when `tricks(winner) * 2 > tricks_per_hand`, the winning team changes its score by `tricks(loser) - 1 - 1`; "
        "this counts double after a tie")


def test_a_difference_of_two_numbers_reads_in_words(couillon) -> None:
    rule = replace(couillon.scoring[0], delta="tricks(loser) - 1")
    assert "changes its score by the number of tricks won by the losing team less 1" in \
        scoring_rule_sentence(couillon, rule)


@pytest.mark.parametrize(("name", "delta", "words"), [
    ("couillon", -1, "erases one line or loop"),
    ("couillon", 1, "draws one loop"),
    ("couillon", -2, "erases two lines or loops"),
    ("troeven", -1, "cancels one line"),
    ("kujong", 1, "adds one stroke"),
    ("kwajongen", -1, "takes one point off its score"),
    ("kwajongen", "-passes_pending", "takes one point off its score for each passed-out deal owed to this hand"),
    ("kwajongen", "2 * passes_pending", "adds two points to its score for each passed-out deal owed to this hand"),
    # a sum moving the score one way: the fixed amount, then each amount per something
    ("kwajongen", "bid(maker) + 2", "adds two points plus one point for each trick bid by the maker to its score"),
    ("couillon", "1 + tricks(maker) + 2 * bid(maker)",
     "draws one loop plus one loop for each trick of the maker plus two loops for each trick bid by the maker"),
    ("kujong", "2 + 3", "adds five strokes"),
    ("kwajongen", "10 - bid(maker)", "changes its score by 10 less the number of tricks bid by the maker"),
    ("kwajongen", "10 + -bid(maker)", "changes its score by `10 + -bid(maker)`"),
])
def test_score_changes_in_the_scoresheet_words(name: str, delta: int | str, words: str) -> None:
    assert delta_phrase(build_ruleset(name), delta) == words


def test_bids_come_after_trump_and_before_the_first_lead() -> None:
    oh_hell = build_ruleset(OH_HELL, {"schedule": "fixed"})  # ten cards every deal
    titles = [s.title for s in describe(oh_hell)]
    assert titles[titles.index("Trump"):titles.index("Trump") + 3] == ["Trump", "Bids", "Playing the tricks"]
    assert bid_sentences(oh_hell) == [
        "once trump is fixed, before the first lead, each player in turn bids how many tricks they will take, "
        "starting with the player on the dealer's left and going round to the dealer, who bids last",
        "a bid is a number of tricks from 0 to 10",
        "the dealer may not bid the number that would make all the bids add up to 10, the number of tricks in a hand, "
        "unless it is the only bid allowed",
        "bids are made aloud, so everyone knows every bid",
        "the bids count in the scoring rule exact",
    ]
    assert "Each team that took exactly as many tricks as it bid scores ten points plus one point for each trick " \
        "bid by that team." in explain(oh_hell)
    assert bid_sentences(build_ruleset(OH_HELL, {"hook": "false", "cards": "7", "schedule": "fixed"}))[1:3] == [
        "a bid is a number of tricks from 0 to 7",
        "the dealer may bid any of these numbers, even one that makes all the bids add up to 7, the number of tricks "
        "in a hand"]
    assert bid_sentences(build_ruleset(OH_HELL))[1:3] == [  # a schedule: 1 up to 10 cards, then back down
        "a bid is a number of tricks from 0 to 10, and never more than the tricks of the hand",
        "the dealer may not bid the number that would make all the bids add up to the number of tricks in the hand, "
        "unless it is the only bid allowed"]
    partners = replace(oh_hell, players=replace(oh_hell.players, teams=((0, 2), (1, 3))))
    assert bid_sentences(partners)[3] == "bids are made aloud, so everyone knows every bid; a team's bid is the sum " \
        "of its players' bids"
    tarot = build_ruleset("tarot")  # a contract, a kitty and the declarer's own announcements: bids come between
    bidding = replace(tarot, bids=Bids(highest=18))
    assert bid_sentences(bidding)[0].startswith("once the contract is fixed and any kitty exchanged, before the first lead")
    assert bid_sentences(bidding)[3].endswith("; a side's bid is the sum of its players' bids")
    assert "Once the contract is fixed, any kitty exchanged and the tricks bid, before the first lead, the declarer " \
        "may announce Chelem" in explain(bidding)


def test_passing_comes_after_trump_and_names_each_hand_of_the_cycle() -> None:
    hearts = build_ruleset(HEARTS)
    titles = [s.title for s in describe(hearts)]
    assert titles[titles.index("Trump"):titles.index("Trump") + 3] == ["Trump", "Passing", "Playing the tricks"]
    assert passing_sentences(hearts) == [
        "once the cards are dealt, before the first lead, each player chooses 3 cards from their hand and passes "
        "them face down: in the first hand of a game to the player on their left, in the second to the player on "
        "their right, in the third to the player opposite, and in the fourth nobody passes; from the fifth hand the "
        "same order starts again",
        "the players choose in turn, starting with the player on the dealer's left and going round to the dealer, "
        "but a player takes up the cards passed to them only once everyone has passed, so nobody knows what they "
        "will receive when they choose",
        "everyone knows who passes to whom, but only the giver and the receiver see the cards passed",
    ]
    assert "Passing" not in [s.title for s in describe(build_ruleset(HEARTS, {"passing": "false"}))]


def test_passing_to_the_next_player_is_to_the_right_when_play_goes_counterclockwise() -> None:
    hearts = build_ruleset(HEARTS)
    counter = replace(hearts, players=replace(hearts.players, direction="counterclockwise"))
    first, choosing, _ = passing_sentences(counter)
    assert ("in the first hand of a game to the player on their right, in the second to the player on their left, "
            "in the third to the player opposite, and in the fourth nobody passes") in first
    assert choosing.startswith("the players choose in turn, starting with the player on the dealer's right")


def test_passing_the_same_way_every_hand_and_never() -> None:
    hearts = build_ruleset(HEARTS)
    always_left = replace(hearts, passing=Passing(cards=1, to=("next",)))
    assert passing_sentences(always_left)[0] == (
        "once the cards are dealt, before the first lead, each player chooses 1 card from their hand and passes "
        "it face down to the player on their left")
    partners = replace(hearts, players=replace(hearts.players, teams=((0, 2), (1, 3))),
                       passing=Passing(cards=2, to=("across", "none")))
    assert "in the first hand of a game to their partner, and in the second nobody passes; from the third hand " \
        "the same order starts again" in passing_sentences(partners)[0]
    two = replace(always_left, players=replace(hearts.players, count=2, teams=((0,), (1,))))
    assert passing_sentences(two)[0].endswith("passes it face down to the other player")
    never = replace(hearts, passing=Passing(cards=3, to=("none",)))
    assert passing_sentences(never) == ["no cards are passed: every entry of `passing.to` is none"]


def test_passing_comes_before_the_bids_and_the_bids_say_so() -> None:
    oh_hell = build_ruleset(OH_HELL)
    passing = replace(oh_hell, passing=Passing(cards=2, to=("previous",)))
    titles = [s.title for s in describe(passing)]
    assert titles[titles.index("Trump"):titles.index("Trump") + 3] == ["Trump", "Passing", "Bids"]
    assert passing_sentences(passing)[0] == (
        "once trump is fixed, before any bids and the first lead, each player chooses 2 cards from their hand and "
        "passes them face down to the player on their right")
    assert bid_sentences(passing)[0].startswith("once trump is fixed and any cards passed, before the first lead")


def test_scoring_rule_sentence(couillon) -> None:
    win, loss = couillon.scoring
    assert isinstance(win, ScoringRule)
    assert scoring_rule_sentence(couillon, win) == (
        "if a team wins the hand, the winning team erases one line or loop; this counts double after a tie")
    assert scoring_rule_sentence(couillon, loss) == "if the maker loses the hand, the maker draws one loop"


def test_options_show_their_current_values() -> None:
    text = explain(build_ruleset("couillon", {"lines": "7"}))
    assert "Ruleset `couillon`, with the options lines = 7." in text
    assert "Each team starts with 7 lines" in text
    assert "| lines | 7 (default 5) | a whole number from 1 to 50 |" in text


def test_text_format_is_wrapped_plain_text(couillon) -> None:
    text = explain(couillon, "text")
    assert text.startswith("COUILLON\n========\n")
    assert "## " not in text and "|---" not in text
    assert max(len(line) for line in text.splitlines()) <= 88


def test_cli_explain() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["explain", "kwajongen", "--format", "text", "-o", "lines=12"], catch_exceptions=False)
    assert result.exit_code == 0
    assert "Each team's score starts at 12." in result.output


@pytest.mark.parametrize(("args", "code", "message"), [
    (["explain", "no-such-ruleset"], 2, "no ruleset file or built-in ruleset named 'no-such-ruleset'"),
    (["explain", "couillon", "-o", "lines"], 2, "Invalid value for '--option': wants NAME=VALUE"),
    (["explain", "couillon", "-o", "lines=99"], 2, "Invalid value for '--option': option 'lines': 99 is out of range [bad-option-value]"),
    (["explain", "couillon", "-o", "colour=red"], 2, "[unknown-option]"),
    (["explain", str(ROOT / "examples" / "oh-hell.yaml"), "-o", "cards=5"], 2,
     "Invalid value for '--option': option 'cards' = 5 has no effect: option 'schedule'"),
    (["explain", "couillon", "--format", "html"], 2, "Invalid value for '--format'"),
])
def test_cli_explain_errors(args: list[str], code: int, message: str) -> None:
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output


def test_cli_explain_reports_an_invalid_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: bad\nname: Bad\nextends: couillon\nplayers: {count: 4, teams: [[0, 1]]}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["explain", str(bad)], catch_exceptions=False)
    assert result.exit_code == 1
    assert "bad.yaml" in result.output and "error[" in result.output


def test_a_reading_of_a_list_of_steps_is_named_by_its_place_and_a_list_of_values_as_yaml():
    from couillon_dsl.explain import reading_sentence
    from couillon_dsl.model import Reading

    steps = reading_sentence(Reading("/deal", [{"packet": 5, "to": "elder"}, {"decide": "trump"}], "Five first."))
    assert steps == "`deal`: Five first."
    values = reading_sentence(Reading("/deck/ranks", ["A", "K"], "Aces high."))
    assert values == "`deck.ranks: [A, K]`: Aces high."


@pytest.mark.parametrize("name, sentence", [
    ("queens", "the queens are"),                   # a plural name reads as one
    ("kings_of_hearts", "the kings_of_hearts are"),
    ("ace_of_hearts", "the card set ace_of_hearts holds"),  # one ace, though "hearts" ends in s
    ("barbu", "the card set barbu holds"),
])
def test_a_card_set_reads_as_a_plural_only_when_its_head_word_is_one(name, sentence):
    from couillon_dsl.explain import card_set_sentences

    rs = build_ruleset("couillon")
    rs = replace(rs, deck=replace(rs.deck, card_sets={name: ("AH",)}))
    assert card_set_sentences(rs)[0].startswith(sentence)


def test_where_each_plays_for_himself_the_player_not_his_team_is_the_maker():
    from couillon_dsl.explain import maker_phrase

    rs = build_ruleset("couillon")
    assert maker_phrase(rs, "their team is the maker") == "their team is the maker"
    each = replace(rs, players=replace(rs.players, teams=((0,), (1,), (2,), (3,))))
    assert maker_phrase(each, "their team is the maker") == "they are the maker"
    assert maker_phrase(each, "the team of the player who picks it is the maker") == "the player who picks it is the maker"


def test_a_contracts_own_ranks_reorder_the_plain_suits_only_where_a_suit_is_trump():
    from couillon_dsl.explain import contract_phrase

    rs = build_ruleset("schieber")
    bottom_up = next(c for c in rs.contracts if c.ranks)  # no trump: every suit takes the order
    assert "the cards of every suit rank" in contract_phrase(rs, bottom_up)
    spades = replace(bottom_up, trump="S")  # a trump suit keeps its trump order
    assert "the cards of the plain suits rank" in contract_phrase(rs, spades)
