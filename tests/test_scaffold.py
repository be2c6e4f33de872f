"""`couillon new PATH --from PARENT`: a variant file that validates and plays exactly like its parent."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from couillon_dsl.builtin import builtin_names
from couillon_dsl.agents import make_agent, seat_specs
from couillon_dsl.cli import main
from couillon_dsl.compile import apply_options, build_ruleset
from couillon_dsl.diff import differences
from couillon_dsl.engine.state import GameState
from couillon_dsl.loader import load_ruleset
from couillon_dsl.scaffold import STATED, scaffold_text, variant_id, write_variant
from couillon_dsl.simulation import play_game
from couillon_dsl.validate import check

ROOT = Path(__file__).resolve().parents[1]
PARENTS = builtin_names()


def uncommented(text: str) -> dict:
    """The variant with every commented section switched on (the comments are YAML with '# ' in front)."""
    head, _, body = text.partition("\n\n# Everything below")
    sections = "\n".join(line[2:] if line.startswith("# ") else "" if line == "#" else line
                         for line in body.split("\n\n", 1)[1].splitlines())
    return {**yaml.safe_load(head), **yaml.safe_load(sections)}


def games(ruleset_path: str | Path, seeds: range) -> list[tuple[list[int], object]]:
    ruleset = build_ruleset(ruleset_path)
    out = []
    for seed in seeds:
        state = GameState(ruleset, seed=seed)
        play_game(state, [make_agent(spec) for spec in seat_specs("random", ruleset)], random.Random(seed))
        out.append((state.history(), state.result))
    return out


@pytest.mark.parametrize("parent", PARENTS)
def test_scaffold_validates_and_shows_the_parents_effective_values(tmp_path: Path, parent: str) -> None:
    path = write_variant(tmp_path / "house.yaml", parent)
    text = path.read_text(encoding="utf-8")
    first = text.splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    assert (path.parent / first.split("=", 1)[1]).resolve().is_file()
    document = load_ruleset(path)
    assert [d for d in check(document) if d.is_error] == []
    assert (document.data["id"], document.data["name"]) == ("house", "House")
    effective, _ = apply_options(load_ruleset(parent), {})
    switched_on = uncommented(text)
    assert switched_on["extends"] == parent
    assert {k: v for k, v in switched_on.items() if k not in STATED} == \
        {k: v for k, v in effective.items() if k not in STATED}


@pytest.mark.parametrize("parent", ["couillon", "kwajongen", "mit"])
def test_scaffold_plays_exactly_like_its_parent(tmp_path: Path, parent: str) -> None:
    path = write_variant(tmp_path / "house.yaml", parent)
    assert games(path, range(20)) == games(parent, range(20))
    assert differences(build_ruleset(parent), build_ruleset(path)) == []


def test_cli_simulate_reports_the_same_figures_for_a_scaffold(tmp_path: Path) -> None:
    path = write_variant(tmp_path / "house.yaml", "kwajongen")
    runner = CliRunner()

    def figures(ruleset: str) -> dict:
        result = runner.invoke(main, ["simulate", ruleset, "--games", "20", "--workers", "1", "--format", "json"],
                               catch_exceptions=False)
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        return {key: report[key] for key in ("options", "games", "hands", "figures")}

    assert figures(str(path)) == figures("kwajongen")


def test_parent_given_as_a_path_is_extended_relative_to_the_new_file(tmp_path: Path) -> None:
    (tmp_path / "base").mkdir()
    (tmp_path / "variants").mkdir()
    base = write_variant(tmp_path / "base" / "base.yaml", "troeven")
    child = write_variant(tmp_path / "variants" / "child.yaml", str(base))
    assert "extends: ../base/base.yaml\n" in child.read_text(encoding="utf-8")
    assert build_ruleset(child).name == "Child"
    assert differences(build_ruleset("troeven"), build_ruleset(child)) == []


@pytest.mark.parametrize(("file", "expected"), [("My House.yaml", "my-house"), ("2x.yaml", "house-2x"),
                                                ("kwajongen_thuis.yaml", "kwajongen-thuis")])
def test_variant_id_from_file_name(file: str, expected: str) -> None:
    assert variant_id(Path(file)) == expected


def test_id_and_name_can_be_given(tmp_path: Path) -> None:
    text = scaffold_text(tmp_path / "x.yaml", "couillon", id="cafe", name="Café rules")
    assert "id: cafe\nname: Café rules\n" in text


def test_cli_new_writes_then_refuses_to_overwrite(tmp_path: Path) -> None:
    runner = CliRunner()
    target = tmp_path / "house.yaml"
    result = runner.invoke(main, ["new", str(target), "--from", "kujong"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert f"wrote {target}, a variant of kujong" in result.output
    written = target.read_text(encoding="utf-8")
    again = runner.invoke(main, ["new", str(target), "--from", "couillon"], catch_exceptions=False)
    assert again.exit_code == 1
    assert "already exists" in again.output and "never overwrites" in again.output
    assert target.read_text(encoding="utf-8") == written
    valid = runner.invoke(main, ["validate", str(target)], catch_exceptions=False)
    assert valid.exit_code == 0, valid.output


@pytest.mark.parametrize(("args", "code", "message"), [
    (["new", "{dir}/x.yaml", "--from", "couillonn"], 2, "did you mean 'couillon'?"),
    (["new", "{dir}/x.yaml"], 2, "Missing option '--from'"),
    (["new", "{dir}/x.yaml", "--from", "couillon", "--id", "Bad Id"], 2, "an id is lower case"),
    (["new", "{dir}/missing/x.yaml", "--from", "couillon"], 1, "does not exist"),
    (["new", "{dir}/" + "a" * 300 + ".yaml", "--from", "couillon"], 1, "cannot write"),
    (["new", "{dir}/x.yaml", "--from", "a" * 5000], 2, "no ruleset file or built-in ruleset"),
])
def test_cli_new_errors(tmp_path: Path, args: list[str], code: int, message: str) -> None:
    result = CliRunner().invoke(main, [a.format(dir=tmp_path) for a in args], catch_exceptions=False)
    assert result.exit_code == code
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "x.yaml").exists()


@pytest.mark.parametrize("text", ["id: bad\nname: Bad\nplayers: [\n",
                                  "id: bad\nname: Bad\nextends: couillon\nplayers: {count: 4, teams: [[0, 1]]}\n"])
def test_cli_new_from_an_invalid_parent_exits_1(tmp_path: Path, text: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["new", str(tmp_path / "x.yaml"), "--from", str(bad)], catch_exceptions=False)
    assert result.exit_code == 1
    assert "bad.yaml" in result.output
    assert not (tmp_path / "x.yaml").exists()
