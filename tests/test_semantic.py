"""Semantic checks on schema-valid rulesets: codes, positions, hints, options and patched variants."""
from __future__ import annotations

from pathlib import Path

from couillon_dsl.loader import load_ruleset
from couillon_dsl.semantic import option_type
from couillon_dsl.validate import check


def found(tmp_path: Path, body: str) -> list:
    path = tmp_path / "r.yaml"
    path.write_text(f"extends: couillon\nid: r\nname: R\n{body}", encoding="utf-8")
    return check(load_ruleset(path))


def only(tmp_path: Path, body: str):
    errors = [d for d in found(tmp_path, body) if d.is_error]
    assert len(errors) == 1, errors
    return errors[0]


def test_the_base_ruleset_is_clean(tmp_path):
    assert found(tmp_path, "") == []


def test_card_with_an_unknown_suit_points_at_the_suit_letter(tmp_path):
    d = only(tmp_path, "announcements:\n  mit: {name: Mit, holder_of: QR}\n")
    assert d.code == "unknown-suit"
    assert (d.span.line, d.span.column, d.span.end_column) == (5, 32, 33)


def test_card_with_an_unknown_rank_suggests_one(tmp_path):
    d = only(tmp_path, "announcements:\n  mit: {name: Mit, holder_of: \"8S\"}\n")
    assert d.code == "unknown-rank" and d.hint.startswith("ranks: ")


def test_deal_that_needs_more_cards_names_the_step(tmp_path):
    d = only(tmp_path, "deal:\n  - {packet: 4, to: all}\n  - {packet: 3, to: all}\n  - {stock: rest}\n"
                       "  - {turn_up: stock_top}\n  - {decide: trump}\n")
    assert d.code == "deal-too-many-cards" and "deal step 2 needs 12 cards but only 8" in d.message
    assert d.span.line == 6 and d.pointer == "/deal/1"


def test_a_32_card_pack_with_the_24_card_deal_leaves_cards_in_the_stock(tmp_path):
    body = 'deck:\n  ranks: [A, K, Q, J, "10", "9", "8", "7"]\n  points: {A: 4, K: 3, Q: 2, J: 1, "10": 0, "9": 0, "8": 0, "7": 0}\n'
    assert [d for d in found(tmp_path, body) if d.is_error] == []


def test_six_players_with_two_teams_of_three(tmp_path):
    d = only(tmp_path, "players:\n  count: 6\n  teams: [[0, 2, 4], [1, 3]]\n"
                       "deal:\n  - {packet: 2, to: all}\n  - {stock: rest}\n  - {turn_up: stock_top}\n  - {decide: trump}\n")
    assert d.code == "teams-not-partition" and "seat 5" in d.message


def test_seats_outside_the_table(tmp_path):
    unknown, lonely = found(tmp_path, "players:\n  count: 4\n  teams: [[0, 2], [1, 4]]\n")
    assert unknown.code == "unknown-seat" and unknown.hint == "seats are numbered 0 to 3"
    assert (unknown.span.line, unknown.span.column) == (6, 23)
    assert lonely.code == "teams-not-partition" and "seat 3" in lonely.message


def test_choose_without_a_decide_step(tmp_path):
    d = only(tmp_path, "deal:\n  - {packet: 3, to: all}\n  - {packet: 3, to: all}\n"
                       "trump:\n  method: choose\n  offer: null\n")
    assert d.code == "decide-step-count" and "has 0" in d.message


def test_method_none_refuses_a_decide_step(tmp_path):
    d = only(tmp_path, "trump:\n  method: none\n  offer: null\n")
    assert d.code == "decide-step-count"


def test_a_turned_trump_needs_a_face_up_card(tmp_path):
    turned = "trump:\n  method: turned\n  offer: null\n"
    assert [d for d in found(tmp_path, turned) if d.is_error] == []  # Couillon turns the stock's top card
    d = only(tmp_path, turned + "deal:\n  - {packet: 4, to: all}\n  - {stock: rest}\n  - {decide: trump}\n")
    assert d.code == "offer-without-turn-up" and "turned method" in d.message
    d = only(tmp_path, turned + "deck:\n  trump_suit: H\n")
    assert d.code == "trump-suit-and-method"


def test_a_score_the_check_cannot_follow_is_a_warning(tmp_path):
    counted = "scoresheet:\n  start: 0\n  goal: 10\n  direction: up\n"
    d = only(tmp_path, counted)  # constant deltas away from the goal: certain
    assert d.code == "game-cannot-end"
    expression = found(tmp_path, counted + "scoring:\n  win: {delta: tricks(winner) - 2}\n")
    assert [(d.code, d.severity) for d in expression if d.code.startswith("game-")] == [("game-may-not-end", "warning")]
    # compared by tricks, the winner of a decided hand took at least 3 of the 4: the change is at least 1
    by_tricks = found(tmp_path, counted + "outcome:\n  compare: tricks\nscoring:\n  win: {delta: tricks(winner) - 2}\n")
    assert [d.code for d in by_tricks if d.code.startswith("game-")] == []
    banked_down = found(tmp_path, "scoring:\n  cards: {for_each: team, delta: -points(team)}\n")
    assert [d.code for d in banked_down if d.code.startswith("game-")] == []
    # a change named by a definition ranges as its text does: 1, 2 or 3 (Hokm's kot), always toward the goal
    defined = found(tmp_path, counted + "define:\n  top: 3\n  value: 'if(all_tricks, if(winner == maker, 2, top), 1)'\n"
                              "scoring:\n  win: {delta: value}\n")
    assert [d.code for d in defined if d.code.startswith("game-")] == []
    negative = found(tmp_path, counted + "define:\n  value: 'if(all_tricks, 2, -1)'\nscoring:\n  win: {delta: value}\n")
    assert [d.code for d in negative if d.code.startswith("game-")] == ["game-may-not-end"]


def test_redeal_needs_a_bound(tmp_path):
    d = only(tmp_path, "trump:\n  offer:\n    on_all_pass: next_card\nlimits:\n  max_redeals_in_a_row: null\n")
    assert d.code == "unbounded-redeal" and "max_redeals_in_a_row" in d.hint


def test_counting_up_needs_a_positive_winner_delta(tmp_path):
    d = only(tmp_path, "scoresheet:\n  start: 0\n  goal: 10\n  direction: up\n")
    assert d.code == "game-cannot-end" and "positive" in d.hint
    assert [x.code for x in found(tmp_path, "scoresheet:\n  start: 0\n  goal: 10\n  direction: up\n"
                                            "scoring:\n  win: {delta: 1}\n  maker_loss: {delta: -1}\n") if x.is_error] == []


def test_start_at_the_goal_cannot_end(tmp_path):
    d = only(tmp_path, "scoresheet:\n  start: 0\noptions:\n  lines: {minimum: 0, default: 0}\n")
    assert d.code == "game-cannot-end" and d.pointer == "/scoresheet/start"


def test_option_pointing_nowhere_suggests_a_sibling(tmp_path):
    d = only(tmp_path, "options:\n  lines:\n    sets: [/scoresheet/strat]\n")
    assert d.code == "option-target-missing" and d.hint == "did you mean 'start'?"


def test_option_into_an_absent_section(tmp_path):
    d = only(tmp_path, "options:\n  speaker:\n    description: x\n    default: elder\n    choices: [elder, dealer]\n"
                       "    sets: [/trump/choose/by]\n")
    assert d.code == "option-target-missing" and "absent" in d.message


def test_option_choice_that_the_target_refuses_is_placed_on_the_choice(tmp_path):
    d = only(tmp_path, "options:\n  lines:\n    type: null\n    choices: [5, 7, seven]\n")
    assert d.code == "option-value-invalid" and d.pointer == "/options/lines/choices/2"
    assert (d.span.line, d.span.column) == (7, 21)


def test_integer_option_bounds_are_checked_against_the_target(tmp_path):
    d = only(tmp_path, "options:\n  cows:\n    description: x\n    default: 1\n    type: integer\n    minimum: 0\n"
                       "    sets: [/session/games_to_win]\n")
    assert d.code == "option-value-invalid" and d.pointer == "/options/cows/minimum"


def test_a_patch_is_checked_in_its_patched_form(tmp_path):
    body = ("options:\n  pack:\n    description: x\n    default: 24\n    choices: [24, 32]\n    patches:\n"
            "      - value: 32\n        patch:\n          deck:\n            ranks: [A, K, Q, J, \"10\", \"9\", \"8\", \"7\"]\n")
    d = only(tmp_path, body)
    assert d.code == "rank-without-points" and d.message.startswith("with option pack = 32: ")
    assert d.span.line == 12  # the patch's `deck:` (its points table lacks 8 and 7)


def test_a_patch_that_breaks_the_schema(tmp_path):
    body = ("options:\n  fast:\n    description: x\n    default: false\n    type: boolean\n    patches:\n"
            "      - value: true\n        patch: {play: {first_lead: speedy}}\n")
    d = only(tmp_path, body)
    assert d.code == "option-value-invalid" and "speedy" in d.message


def test_a_patch_adding_a_bad_expression_is_placed_in_the_patch(tmp_path):
    body = ("options:\n  tie_penalty:\n    description: x\n    default: false\n    type: boolean\n    patches:\n"
            "      - value: true\n        patch:\n          scoring:\n            tie_maker: {when: tie and makr != none, team: maker, delta: 1}\n")
    d = only(tmp_path, body)
    assert d.code == "expr-unknown-name" and (d.span.line, d.span.column) == (13, 39)


def test_option_types_for_expressions():
    assert option_type({"type": "integer"}) == "int"
    assert option_type({"choices": [True, False]}) == "bool"
    assert option_type({"choices": [None, 21]}) == "any"


def test_warnings_do_not_hide_errors_and_carry_severity(tmp_path):
    [d] = found(tmp_path, "trump:\n  choose: {by: elder}\n")
    assert (d.code, d.severity) == ("unused-setting", "warning")


def test_expression_errors_are_placed_inside_the_scalar(tmp_path):
    d = only(tmp_path, "scoring:\n  maker_loss:\n    when: 'decided and maker != none and loser == makr'\n")
    assert d.code == "expr-unknown-name" and (d.span.line, d.span.column) == (6, 51)
    d = only(tmp_path, "scoring:\n  maker_loss:\n    when: |\n      decided and\n      makr != none\n")
    assert (d.span.line, d.span.column) == (8, 7)


def child_errors(tmp_path: Path, parent: str, body: str) -> list:
    """The errors of a file extending ``parent`` with ``body``."""
    path = tmp_path / "child.yaml"
    path.write_text(f"extends: {parent}\nid: child\nname: Child\n{body}", encoding="utf-8")
    return [d for d in check(load_ruleset(path)) if d.is_error]


def child_of_tarot(tmp_path: Path, body: str) -> list:
    """The errors of a file extending tarot, whose option petit_sec has a patch ({deal_checks: null})."""
    return child_errors(tmp_path, "tarot", body)


def test_an_error_a_patched_form_inherits_is_reported_once_in_the_child(tmp_path):
    [d] = child_of_tarot(tmp_path, "define:\n  pts: 'points(maker) +'\n")
    assert d.code == "expr-syntax" and not d.message.startswith("with option")
    assert (Path(d.span.file).name, d.span.line, d.span.column) == ("child.yaml", 5, 24)


def test_an_error_only_a_patched_form_has_names_the_option_and_points_into_the_child(tmp_path):
    [d] = child_of_tarot(tmp_path, "readings:\n  - {setting: /deal_checks/petit_sec, note: x}\n")
    assert d.code == "reading-target-missing" and d.message.startswith("with option petit_sec = false: ")
    assert (Path(d.span.file).name, d.span.line) == ("child.yaml", 5)


def test_a_goal_that_ends_the_game_ignores_what_only_a_race_uses(tmp_path):
    ends = "scoresheet:\n  at_goal: ends_game\n"
    assert [d.code for d in found(tmp_path, ends)] == []
    unused = found(tmp_path, ends + "  when_both_reach: first_by_rule_order\n")
    assert [(d.code, d.severity, d.pointer) for d in unused] == [("unused-setting", "warning",
                                                                   "/scoresheet/when_both_reach")]
    unused = found(tmp_path, ends + "  deals: 8\n")
    assert [(d.code, d.pointer) for d in unused] == [("unused-setting", "/scoresheet/at_goal")]


def test_freedom_under_a_winning_partner_without_partners_is_flagged_as_unused(tmp_path):
    free = "play:\n  follow:\n    when_partner_winning: free\n"
    assert found(tmp_path, free) == []  # couillon's partnerships: the key applies
    unused = found(tmp_path, "players:\n  count: 4\n  teams: [[0], [1], [2], [3]]\n" + free)
    assert [(d.code, d.severity, d.pointer) for d in unused] == [("unused-setting", "warning",
                                                                   "/play/follow/when_partner_winning")]


def test_a_setting_an_option_writes_where_the_ruleset_wrote_none_is_checked_as_played(tmp_path):
    """Schieber's option writes its modes' `enabled`; with the trumps contract gone and Undenufe's
    own `enabled` removed, the option's default (off) leaves no contract to pick, which compiling would
    play: the checks see the ruleset the default makes, not the one written."""
    errors = child_errors(tmp_path, "schieber", "contracts:\n  trumps: null\n  bottom_up: {enabled: null}\n")
    assert [d.code for d in errors] == ["contracts-none-enabled"]
    assert errors[0].message.startswith("with option ")


def test_an_option_read_by_an_expression_has_an_effect(tmp_path):
    option = "options:\n  bonus:\n    description: x\n    default: 1\n    type: integer\n"
    unread = [d.code for d in found(tmp_path, option)]
    assert "option-without-effect" in unread
    read = option + "scoring:\n  win: {when: decided, team: winner, delta: -option(\"bonus\")}\n"
    assert "option-without-effect" not in [d.code for d in found(tmp_path, read)]


def test_an_error_in_a_folded_expression_points_at_its_own_line(tmp_path):
    """A `>-` block joins its lines with spaces; the error is still placed where it is written."""
    problem = only(tmp_path, "play:\n  stop_when: >-\n    tricks(maker) >= 3\n    or tricks(nobody) > 1\n")
    assert (problem.span.line, problem.span.column) == (7, 15)  # `nobody`, on the block's second line


def test_a_discard_is_made_when_the_declarer_may_take_the_kitty(tmp_path):
    """`trump.auction.kitty: declarer_decides` (Skat's declarer taking the skat): his discard is no dead rule."""
    skat = Path(__file__).resolve().parents[1] / "examples" / "skat.yaml"
    path = tmp_path / "discard.yaml"
    path.write_text(f"extends: {skat}\nid: d\nname: D\ndiscard:\n  never: [{{rank: J}}]\n", encoding="utf-8")
    assert "discard-without-kitty" not in {d.code for d in check(load_ruleset(path))}
    path.write_text(f"extends: {skat}\nid: d\nname: D\ndiscard:\n  never: [{{rank: J}}]\n"
                    "trump:\n  auction:\n    kitty: by_contract\n", encoding="utf-8")
    assert "discard-without-kitty" in {d.code for d in check(load_ruleset(path))}
