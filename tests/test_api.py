"""The Python API: docs/api.md's examples run, and the API agrees with the command line."""
from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import couillon_dsl
from couillon_dsl.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_the_examples_in_docs_api_md_run() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 10 and result.failed == 0


def test_simulate_gives_the_figures_of_the_json_output() -> None:
    args = ["--games", "60", "--seed", "4", "--agents", "greedy", "--option", "lines=7"]
    cli = json.loads(CliRunner().invoke(main, ["simulate", "couillon", *args, "--format", "json"]).stdout)
    api = couillon_dsl.simulate(couillon_dsl.load("couillon", {"lines": "7"}), games=60, seed=4, agents="greedy",
                                workers=2).to_dict()
    assert api["figures"] == cli["figures"]
    assert api["options"] == cli["options"] and api["options"]["lines"] == 7


def test_a_name_or_path_is_accepted_where_a_ruleset_is() -> None:
    path = ROOT / "couillon_dsl" / "rulesets" / "mit.yaml"
    by_path = couillon_dsl.simulate(path, games=20, seed=2).to_dict()["figures"]
    by_name = couillon_dsl.simulate("mit", games=20, seed=2).to_dict()["figures"]
    assert by_path == by_name
    assert couillon_dsl.new_game(path, seed=1).history() == couillon_dsl.new_game("mit", seed=1).history()


def test_an_invalid_ruleset_raises_with_its_diagnostics(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: couillon\nid: broken\nname: Broken\nplay: {follow: {led_suit: folow}}\n", encoding="utf-8")
    with pytest.raises(couillon_dsl.RulesetError) as caught:
        couillon_dsl.load(broken)
    assert [d.code for d in caught.value.diagnostics] == ["schema-enum"]
    with pytest.raises(ValueError):
        couillon_dsl.simulate("couillon", games=0)


def test_importing_the_package_imports_none_of_its_stages() -> None:
    code = "import sys, couillon_dsl; print(sorted(m for m in sys.modules if m.startswith('couillon_dsl')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['couillon_dsl']"
