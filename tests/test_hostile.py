"""Hostile input: every case is rejected with exit 1, a clear message, no traceback, in under a second (of CPU time: the machine may be loaded)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.cli import main

BILLION_LAUGHS = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['lol'] * 9)}]\n"
    for prev, name in zip([None, *"abcdefgh"], "abcdefghi")
)
PWNED = Path("/tmp/couillon-dsl-pwned")

CASES: dict[str, tuple[bytes, str, str]] = {
    # name: (file content, expected code, expected text in the output)
    "empty": (b"", "not-a-mapping", "empty"),
    "list": (b"- a\n- b\n", "not-a-mapping", "list"),
    "binary": (b"id: x\n\x00\xff\xfe\x01", "not-text", "UTF-8"),
    "syntax": (b"id: x\nplayers: {count: 4\ndeck: 1\n", "yaml-syntax", ":3:"),
    "duplicate": (b"id: x\nname: y\nid: z\n", "duplicate-key", ":3:1:"),
    "brackets": (b"a: " + b"[" * 20_000 + b"]" * 20_000 + b"\n", "too-deep", "nested"),
    "block-nesting": ("".join(" " * i + "k:\n" for i in range(300)).encode(), "too-deep", "nested"),
    "billion-laughs": (BILLION_LAUGHS.encode(), "alias-bomb", "aliases"),
    "recursive-alias": (b"a: &a [*a]\n", "alias-bomb", "aliases"),
    "python-tag": (f'a: !!python/object/apply:os.system ["touch {PWNED}"]\n'.encode(), "unsafe-tag", "not allowed"),
    "custom-tag": (b"a: !include other.yaml\n", "unsafe-tag", "not allowed"),
    "huge-int": (b"a: " + b"9" * 10_000 + b"\n", "bad-value", "number"),
    "control-char": (b"a: \"x\x07\"\n", "not-text", "U+0007"),
}


def run(path: Path) -> tuple[int, str, float]:
    start = time.process_time()
    result = CliRunner().invoke(main, ["validate", str(path)])
    return result.exit_code, result.output, time.process_time() - start


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_file_is_rejected_cleanly(tmp_path, name):
    content, code, text = CASES[name]
    path = tmp_path / f"{name}.yaml"
    path.write_bytes(content)
    exit_code, output, seconds = run(path)
    assert exit_code == 1, output
    assert f"error[{code}]" in output
    assert text in output
    assert "Traceback" not in output
    assert seconds < 1.0


def test_a_20_megabyte_file_is_refused_unread(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: " + b"x" * 20_000_000 + b"\n")
    exit_code, output, seconds = run(path)
    assert exit_code == 1 and "error[too-large]" in output and "Traceback" not in output
    assert seconds < 1.0


def test_python_tag_is_never_constructed(tmp_path):
    PWNED.unlink(missing_ok=True)
    path = tmp_path / "tag.yaml"
    path.write_bytes(CASES["python-tag"][0])
    run(path)
    assert not PWNED.exists()


def test_extends_cycle_between_two_files(tmp_path):
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\nname: A\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nid: b\nname: B\n")
    exit_code, output, seconds = run(tmp_path / "a.yaml")
    assert exit_code == 1 and "error[extends-cycle]" in output and "a.yaml -> " in output
    assert "Traceback" not in output and seconds < 1.0


@pytest.mark.parametrize("command", ["validate", "explain", "play"])
def test_a_name_too_long_for_the_file_system_is_a_usage_error(command):
    result = CliRunner().invoke(main, [command, "a" * 5000])
    assert result.exit_code == 2, result.output
    assert "no ruleset file or built-in ruleset" in result.output and "Traceback" not in result.output


def test_extends_a_name_too_long_for_the_file_system(tmp_path):
    (tmp_path / "a.yaml").write_text(f"extends: {'a' * 5000}.yaml\nid: a\nname: A\n")
    exit_code, output, _ = run(tmp_path / "a.yaml")
    assert exit_code == 1 and "error[extends-not-found]" in output and "Traceback" not in output


# ---------------------------------------------------------------------------- the seven inputs of issue 12

def deep_scenario() -> str:
    return "ruleset: couillon\nscript: " + "[" * 1200 + "]" * 1200 + "\n"


def aliased_scenario() -> str:
    return "ruleset: couillon\n" + BILLION_LAUGHS


RULESET_CASES: dict[str, tuple[str, list[str], int, str]] = {
    # name: (ruleset text, command, exit code, expected text)
    "packet without to plays as `to: all`": (
        "extends: couillon\nid: x\nname: X\ndeal: [{packet: 2}, {packet: 2}, {stock: rest}, "
        "{turn_up: stock_top}, {decide: trump}]\n", ["simulate", "--games", "3", "--workers", "1", "--engine", "python"], 0, "games"),
    "source without key": ("extends: couillon\nid: x\nname: X\nsources: [{title: Somewhere}]\n",
                           ["simulate", "--games", "1", "--workers", "1", "--engine", "python"], 1, ":4:11: error[schema-required]"),
    "a billion games to win": ("extends: couillon\nid: x\nname: X\nsession: {games_to_win: 1000000000}\n",
                               ["simulate", "--games", "1", "--workers", "1", "--engine", "python"], 1, ":4:25: error[schema-range]"),
    "10**18 hands": ("extends: couillon\nid: x\nname: X\nlimits: {max_hands: 1000000000000000000}\n"
                     "scoring: {win: {delta: 0}}\n", ["simulate", "--games", "1", "--workers", "1", "--engine", "python"], 1,
                     ":4:21: error[schema-range]"),
}


@pytest.mark.parametrize("name", sorted(RULESET_CASES))
def test_a_ruleset_that_validates_plays_and_one_that_cannot_play_does_not_validate(tmp_path, name):
    text, command, code, expected = RULESET_CASES[name]
    path = tmp_path / "x.yaml"
    path.write_text(text)
    start = time.process_time()
    result = CliRunner().invoke(main, [*command, str(path)])
    assert result.exit_code == code, result.output
    assert expected in result.output and "Traceback" not in result.output
    assert time.process_time() - start < 1.0
    validated = CliRunner().invoke(main, ["validate", str(path)])
    assert validated.exit_code == code
    if code == 0:
        explained = CliRunner().invoke(main, ["explain", str(path)])
        assert explained.exit_code == 0, explained.output


@pytest.mark.parametrize("text, expected", [
    (deep_scenario(), ":2:"),
    (aliased_scenario(), "aliases expand to more than"),
    ("ruleset: !!float couillon\nscript: []\n", ":1:10: cannot read 'couillon' as a number"),
])
def test_a_hostile_scenario_is_one_positioned_message(tmp_path, text, expected):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    start = time.process_time()
    result = CliRunner().invoke(main, ["scenario", str(path)])
    assert result.exit_code == 1 and expected in result.output, result.output
    assert "Traceback" not in result.output and time.process_time() - start < 1.0


def test_a_record_of_2000_brackets_is_damaged_not_a_crash(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("[" * 2000 + "\n")
    start = time.process_time()
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and "r.jsonl:1: damaged record: nested more than" in result.output
    assert "Traceback" not in result.output and time.process_time() - start < 1.0


# ---------------------------------------------------------------------------- exit codes

def test_an_internal_error_exits_3_with_one_line_and_the_traceback_in_a_file(monkeypatch):
    def broken(document):
        raise KeyError("boom")

    monkeypatch.setattr("couillon_dsl.validate.check", broken)
    result = CliRunner().invoke(main, ["validate", "couillon"])
    assert result.exit_code == 3
    first, second = result.output.strip().splitlines()
    assert first == "internal error — please report: KeyError: 'boom'"
    path = Path(second.removeprefix("full traceback written to "))
    assert "Traceback" not in result.output
    text = path.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in text and "KeyError: 'boom'" in text and "def broken" not in text
    path.unlink()


@pytest.mark.parametrize("argv, code", [
    (["validate", "couillon"], 0),
    (["validate", "--format", "yaml", "couillon"], 2),
    (["no-such-command"], 2),
])
def test_exit_codes_separate_success_and_usage(argv, code):
    assert CliRunner().invoke(main, argv).exit_code == code


# ---------------------------------------------------------------------------- found by the long fuzz run

def test_an_option_value_that_does_not_fit_its_setting_is_refused_not_a_crash():
    """A string option that sets a card: 'S' has the option's type but names no card."""
    result = CliRunner().invoke(main, ["simulate", "schieber", "-o", "first_hand_card=S", "--games", "1"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "option 'first_hand_card': the ruleset it makes is invalid" in result.output
    assert "'S' is not well formed" in result.output


def test_a_record_whose_options_make_an_invalid_ruleset_is_refused(tmp_path):
    line = (Path(__file__).parent / "golden" / "playthroughs" / "schieber.jsonl").read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "r.jsonl"
    path.write_text(line.replace('"first_hand_card":"7D"', '"first_hand_card":"S"') + "\n", encoding="utf-8")
    assert '"S"' in path.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1 and "the recorded ruleset cannot be built" in result.output
    assert "Traceback" not in result.output and "internal error" not in result.output


def test_a_superscript_digit_typed_into_play_is_refused_with_a_reason():
    """'²' is a digit to str.isdigit but not a number to int()."""
    result = CliRunner().invoke(main, ["play", "couillon", "--seed", "0", "--agents", "random"], input="²\nquit\n")
    assert result.exit_code == 0, result.output
    assert "Cannot read '²'" in result.output and "internal error" not in result.output
