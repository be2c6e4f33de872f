"""Scenario files: every rules-digest example holds; deliberately wrong ones fail clearly."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.scenario import ScenarioError, deal_slots, run_scenario, stack_pack

HERE = Path(__file__).resolve().parent
PASSING = sorted((HERE / "scenarios").glob("*.yaml"))
FAILING = sorted((HERE / "scenarios_failing").glob("*.yaml"))


def cli(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.mark.parametrize("path", PASSING, ids=[p.stem for p in PASSING])
def test_scenario_holds(path: Path) -> None:
    result = run_scenario(path)
    assert result.ok, result.render()
    assert result.checks > 0


@pytest.mark.parametrize("path", FAILING, ids=[p.stem for p in FAILING])
def test_wrong_scenario_fails(path: Path) -> None:
    result = run_scenario(path)
    assert not result.ok
    assert result.error is None or result.error.startswith("stopped"), result.render()  # a finding, not a bad file
    assert cli("scenario", str(path)).exit_code == 1


def test_every_digest_section_has_a_scenario() -> None:
    names = {p.stem for p in PASSING}
    for position in ("p1", "p2", "p3", "p4", "p5"):
        for ruleset in ("couillon", "kwajongen", "troeven", "couillon-ardennes"):
            assert f"follow-{position}-{ruleset}" in names
    for expected in ("follow-p6-mit", "follow-p7-mit", "couillon-2.1", "couillon-ardennes-2.2", "couillon-force-2.3",
                     "kwajongen-2.4", "troeven-2.5", "kujong-2.6", "mit-2.7", "mit-2.7-mirror", "mit-6-2.8", "mit-8-2.8",
                     "schieber-2.9"):
        assert expected in names


def test_failure_report_shows_the_difference_and_the_engines_reasons() -> None:
    text = run_scenario(HERE / "scenarios_failing" / "follow-p1-wrong-legal.yaml").render()
    assert "legal for R (seat 3): 9S 10H; expected 9S" in text
    assert "KC illegal" in text and "10H legal" in text  # the engine's explanation, card by card
    assert "the engine accepts 10H from R (seat 3); expected a refusal" in text
    text = run_scenario(HERE / "scenarios_failing" / "couillon-2.1-wrong-scores.yaml").render()
    assert "trick won by L (seat 1), expected R (seat 3)" in text
    assert "score of D+P: 6, expected 5" in text


def test_a_wrong_schieber_expectation_fails_with_the_engines_reason() -> None:
    text = run_scenario(HERE / "scenarios_failing" / "schieber-wrong-undertrump.yaml").render()
    assert "10S illegal  may not undertrump ♠9 while holding another legal card" in text


def test_an_illegal_scripted_play_stops_with_the_reason() -> None:
    result = run_scenario(HERE / "scenarios_failing" / "kwajongen-illegal-play.yaml")
    assert result.error and result.error.startswith("stopped")
    assert "refuses 10H from R (seat 3): 10H is illegal: must follow suit" in result.failures[0].message


def test_cli_exit_codes(tmp_path: Path) -> None:
    good = cli("scenario", str(PASSING[0]))
    assert good.exit_code == 0 and good.output.startswith("ok")
    assert cli("scenario", str(PASSING[0]), str(FAILING[0])).exit_code == 1
    assert cli("scenario", str(tmp_path / "missing.yaml")).exit_code == 2


@pytest.mark.parametrize("text, message", [
    ("ruleset: [", "bad.yaml:2:1: YAML syntax error"),
    ("- just a list", "a scenario is a YAML mapping"),
    ("ruleset: couillon\nscript: []\nscript: []\n", "bad.yaml:3:1: duplicate key 'script'"),
    ("ruleset: couillon\nscirpt: []\n", "did you mean 'script'"),
    ("ruleset: no-such-ruleset\nscript: []\n", "no ruleset file or built-in ruleset named 'no-such-ruleset'"),
    ("ruleset: couillon\ndeal: {L: [AS, ZZ, KS, QS]}\n", "'ZZ' is not a card of this deck"),
    ("ruleset: couillon\ndeal: {L: [AS, KS, QS]}\n", "receives 4 cards under this deal script; the scenario lists 3"),
    ("ruleset: couillon\ndeal: {L: [AS, KS, QS, JS], P: [AS, 9H, 9D, 9C]}\n", "AS is placed twice"),
    ("ruleset: couillon\ndeal: {}\nscript: [{expect: {trumps: H}}]\n", "did you mean 'trump'"),
    ("ruleset: couillon\ndeal: {}\nscript: [{Q: pass}]\n", "'Q' is not a seat"),
    ("ruleset: couillon\ndeal: {}\nscript: [{expect: {bids: {L: 1}}}]\n", "`bids:` is for rulesets with a `bids` section"),
])
def test_a_bad_scenario_file_is_one_clear_message(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    result = run_scenario(path)
    assert not result.ok and message in (result.error or ""), result.render()
    out = cli("scenario", str(path))
    assert out.exit_code == 1 and "Traceback" not in out.output


def test_hands_become_the_pack_the_deal_script_deals() -> None:
    ruleset = build_ruleset("kwajongen")
    # 2 each to L P R, 1 face up to D, 2 more each to L P R, 3 to D, the rest undealt
    assert [s for s, _ in deal_slots(ruleset, 0)].count("hand") == 16
    hands = {"L": ["AH", "KH", "AC", "AS"], "P": ["9H", "9S", "KD", "9C"], "R": ["QH", "KS", "AD", "KC"],
             "D": ["10H", "JH", "9D", "10C"]}
    pack = [ruleset.layout.name(c) for c in stack_pack(ruleset, 0, hands)]
    assert pack[:16] == ["AH", "KH", "9H", "9S", "QH", "KS", "10H", "AC", "AS", "KD", "9C", "AD", "KC", "JH", "9D", "10C"]
    assert sorted(pack) == sorted(ruleset.layout.name(c) for c in range(24))
    with pytest.raises(ScenarioError, match="P.*receives 4 cards"):
        stack_pack(ruleset, 0, {"P": ["AS"]})


def test_the_documented_example_holds(tmp_path: Path) -> None:
    doc = (HERE.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = doc.split("## A complete example", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.yaml"
    path.write_text(example, encoding="utf-8")
    result = run_scenario(path)
    assert result.ok, result.render()


def test_a_wrong_tarot_expectation_fails_with_the_engines_reason() -> None:
    text = run_scenario(HERE / "scenarios_failing" / "tarot-wrong-excuse.yaml").render()
    assert "trick won by P (seat 2), expected L (seat 1)" in text
    assert "♠K is the highest card of the led suit" in text  # the engine's reason: the Excuse never wins
    assert "score of L: 828, expected 840" in text and "score of D: -276, expected -280" in text


def test_a_wrong_kitty_expectation_fails_with_the_engines_reason() -> None:
    text = run_scenario(HERE / "scenarios_failing" / "kitty-wrong-discard.yaml").render()
    assert "the engine accepts discard 9T from L (seat 1); expected a refusal" in text
    assert "discarded shown to everyone: 9T; expected (none)" in text
    assert "the engine refuses discard KS from L (seat 1): KS may never be discarded" in text


def test_a_wrong_bid_expectation_fails_with_the_engines_reason(tmp_path: Path) -> None:
    """Oh Hell's exact-bid scenario with a bid that the hook does not forbid, a bid and a score
    misremembered: each is reported, the engine's scoring against the hand-checked one."""
    text = (HERE / "scenarios" / "oh-hell-exact.yaml").read_text(encoding="utf-8")
    wrong = (text.replace("ruleset: ../../examples/", f"ruleset: {HERE.parent / 'examples'}/")
             .replace("refuse: D bid 2", "refuse: D bid 3")
             .replace("bids: {L: 7, P: 1, R: 0, D: 1}", "bids: {L: 7, P: 2, R: 0, D: 1}")
             .replace("scores: {L: 17, P: 0,", "scores: {L: 17, P: 11,"))
    path = tmp_path / "wrong.yaml"
    path.write_text(wrong, encoding="utf-8")
    result = run_scenario(path)
    assert not result.ok and result.error is None, result.render()
    rendered = result.render()
    assert "the engine accepts bid 3 from D (seat 0); expected a refusal (add up to the 10 tricks)" in rendered
    assert "P (seat 2) bid 1, expected 2" in rendered
    assert "score of P: 0, expected 11" in rendered
