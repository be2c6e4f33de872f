"""`couillon simulate` / `compare`: determinism across workers, JSON shape, paired deals, exit codes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from couillon_dsl.cli import main
from couillon_dsl.compile import build_ruleset
from couillon_dsl.engine import GameState
from couillon_dsl.records import read_records, replay
from couillon_dsl.simulation import Job, Tally, chunks, figures, game_seed, play_range, run

TIMING = ("seconds", "compile_seconds", "hands_per_second", "workers")


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    # what a user reads: the report alone on success (a note on stderr, such as the engine that
    # played, is not part of it), everything on failure
    return result.exit_code, result.stdout if result.exit_code == 0 else result.output


def simulate_json(*args: str) -> dict:
    code, out = invoke("simulate", *args, "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    for key in TIMING:
        data.pop(key)
    return data


@pytest.mark.parametrize("agents", ["random", "greedy,random"])
def test_same_seed_same_results_with_one_or_two_workers(agents: str) -> None:
    games = "40" if agents == "random" else "12"
    one = simulate_json("couillon", "--games", games, "--seed", "7", "--agents", agents, "--workers", "1")
    two = simulate_json("couillon", "--games", games, "--seed", "7", "--agents", agents, "--workers", "2")
    assert one == two


def test_different_seeds_give_different_results() -> None:
    a = simulate_json("couillon", "--games", "40", "--seed", "1", "--workers", "1")
    b = simulate_json("couillon", "--games", "40", "--seed", "2", "--workers", "1")
    assert a["figures"] != b["figures"]


def test_json_has_the_run_and_every_figure_with_its_interval() -> None:
    code, out = invoke("simulate", "mit", "--games", "20", "--workers", "1", "--format", "json")
    assert code == 0
    data = json.loads(out)
    for key in ("ruleset", "seed", "games", "hands", "seconds", "agents", "version", "figures"):
        assert key in data
    assert data["ruleset"] == "mit" and data["games"] == 20 and len(data["agents"]) == 4
    figures = data["figures"]
    for key in ("team_win.0", "team_win.1", "maker_success", "tie", "all_tricks", "hands_per_game.mean",
                "hands_per_game.median", "hands_per_game.p90", "hands_per_game.max", "first_dealer_team_win",
                "elder_team_hand_win", "announcement.mit", "announcement.kontra", "announcement.re"):
        assert {"value", "low", "high", "n"} <= set(figures[key]), key
    assert any(k.startswith("trump_path.") for k in figures) and any(k.startswith("decision.") for k in figures)
    rate = figures["team_win.0"]
    assert rate["low"] <= rate["value"] <= rate["high"]
    wins = figures["team_win.0"]["value"] + figures["team_win.1"]["value"] + figures["abandoned"]["value"]
    assert wins == pytest.approx(1.0)


def test_text_output_is_a_table_of_figures() -> None:
    code, out = invoke("simulate", "couillon", "--games", "20", "--workers", "1")
    assert code == 0
    assert "the maker's team wins the hand" in out and "95% interval" in out and "%" in out


def test_chunks_cover_every_game_once_in_order() -> None:
    for games, workers in [(1, 1), (7, 2), (1000, 2), (5003, 3)]:
        tasks = chunks(games, workers)
        assert [g for start, stop in tasks for g in range(start, stop)] == list(range(games))


def test_game_seeds_depend_on_seed_and_index_only() -> None:
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(s, i) for s in range(3) for i in range(100)}) == 300


def test_tallies_merge_like_one_run() -> None:
    rs = build_ruleset("couillon")
    job = Job("couillon", (), 3, ("random",) * 4)
    whole = play_range(job, rs, 0, 30)
    parts = Tally()
    for start, stop in [(0, 11), (11, 12), (12, 30)]:
        parts.merge(play_range(job, rs, start, stop))
    assert parts == whole


def deals(actions: list[int], hands: list[dict], ncards: int, nseats: int) -> list[list[int]]:
    """Split a game's actions into the pack order of each deal, using its hand summaries."""
    out, i = [], 0
    for h in hands:
        out.append(actions[i:i + ncards])
        i += ncards + len(h["decisions"]) + sum(h["tricks"]) * nseats
    return out


def test_paired_runs_deal_the_same_packs_to_rulesets_with_the_same_deck() -> None:
    a, b = build_ruleset("couillon"), build_ruleset("couillon-ardennes")  # neither has announcements
    assert a.layout.suits == b.layout.suits and a.layout.ranks == b.layout.ranks
    packs = []
    for rs, name in ((a, "couillon"), (b, "couillon-ardennes")):
        job = Job(name, (), 11, ("random",) * 4, record=True, paired=True)
        parse = GameState(rs).string_to_action
        packs.append([deals([parse(None, text) for text in r.actions], r.outcome["hands"], rs.layout.size, 4)
                      for r in play_range(job, rs, 0, 3).records])
    compared = 0
    for packs_a, packs_b in zip(*packs):
        assert sorted(packs_a[0]) == list(range(a.layout.size))
        shared = min(len(packs_a), len(packs_b))
        assert packs_a[:shared] == packs_b[:shared]
        compared += shared
    assert compared > 6


def test_compare_of_a_ruleset_with_itself_finds_no_difference() -> None:
    code, out = invoke("compare", "couillon", "couillon", "--games", "30", "--workers", "1", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["same_deals"] is True
    assert data["differences"] and all(d["value"] == 0 for d in data["differences"].values())


def test_compare_reports_a_difference_with_its_interval() -> None:
    code, out = invoke("compare", "couillon", "kwajongen", "--games", "40", "--workers", "2", "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    mean = data["differences"]["hands_per_game.mean"]
    assert mean["value"] == pytest.approx(data["b"]["figures"]["hands_per_game.mean"]["value"]
                                          - data["a"]["figures"]["hands_per_game.mean"]["value"])
    assert mean["low"] < mean["value"] < mean["high"]
    assert "trump_path.redeal" in data["b"]["figures"] and "trump_path.redeal" not in data["differences"]


@pytest.mark.parametrize("agents", ["random", "greedy,random"])
def test_record_writes_replayable_games(tmp_path: Path, agents: str) -> None:
    path = tmp_path / "games.jsonl"
    code, out = invoke("simulate", "kwajongen", "--games", "5", "--seed", "3", "--agents", agents,
                       "--workers", "2", "--record", str(path), "--format", "json")
    assert code == 0, out
    records = list(read_records(path))
    assert [r.game for r in records] == list(range(5))
    rs = build_ruleset("kwajongen")
    assert all(replay(r, rs) is None for r in records)
    assert len(records[0].agents) == 4 and records[0].agents[1] == "random"


def test_an_unwritable_output_is_refused_before_the_run(tmp_path: Path) -> None:
    code, out = invoke("simulate", "couillon", "--record", str(tmp_path / "missing" / "games.jsonl"))
    assert code == 2 and "--record" in out


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "run.png"
    code, out = invoke("simulate", "couillon", "--games", "20", "--workers", "1", "--plot", str(path))
    assert code == 0, out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_plot_is_labelled_for_a_reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    from couillon_dsl import report

    shown = []
    plt = report.pyplot()
    monkeypatch.setattr(plt, "close", shown.append)  # keep the figure to read it back
    rs = build_ruleset("couillon")
    sim = run(rs, Job("couillon", (), 1, ("random",) * 4, trajectories=report.PLOT_GAMES), 60, 1)
    report.write_plot(sim, str(tmp_path / "run.png"))
    [figure] = shown
    assert "Couillon (couillon): 60 games" in figure._suptitle.get_text()
    left, right = figure.axes
    assert left.get_xlabel() and left.get_ylabel() and right.get_xlabel() == "hand"
    assert "starts at 5" in right.get_ylabel()
    assert all(float(tick).is_integer() for axis in (left, right) for tick in axis.get_xticks())
    assert len(right.get_lines()) <= len(rs.players.teams) + 1  # a median per team and the goal, not a line per game
    plt.close(figure)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["simulate", "no-such-ruleset"], 2, "no ruleset file or built-in ruleset"),
        (["simulate", "couillon", "--agents", "wizard"], 2, "unknown agent 'wizard'"),
        (["simulate", "couillon", "--agents", "random,random,random"], 2, "one per team"),
        (["simulate", "couillon", "--agents", "pimc:samples=0"], 2, "samples must be an integer >= 1"),
        (["simulate", "couillon", "--agents", "pimc:samples=2.5"], 2, "samples must be an integer >= 1"),
        (["simulate", "couillon", "--agents", "pimc:depth=3"], 2, "depth"),
        (["simulate", "couillon", "--option", "lines=99"], 2, "out of range"),
        (["simulate", "couillon", "--option", "colour=red"], 2, "no option 'colour'"),
        (["simulate", "couillon", "--option", "lines"], 2, "NAME=VALUE"),
        (["simulate", "couillon", "--games", "0"], 2, "--games"),
        (["compare", "couillon", "troeven", "--option", "colour=red"], 2, "neither ruleset"),
    ],
)
def test_bad_input_is_a_message_and_an_exit_code(args: list[str], code: int, message: str) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == code
    assert message in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output


def test_an_invalid_ruleset_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("id: bad\nname: Bad\nplayers: {count: 4}\n")
    result = CliRunner().invoke(main, ["simulate", str(path), "--games", "2"])
    assert result.exit_code == 1
    assert "error[" in result.output


def test_tarot_reports_each_contracts_success_the_takers_points_and_bouts() -> None:
    """Per contract: how often it is picked and made; the taker's card points; the bouts he holds."""
    rs = build_ruleset("tarot")
    sim = run(rs, Job("tarot", (), 5, ("greedy",) * 4), 12, 1)
    by_key = {f.key: f.estimate for f in figures(sim)}
    tally = sim.tally
    played = sum(tally.contracts.values())
    assert played > 20
    for contract in rs.contracts:
        if tally.contracts[contract.id]:
            success = by_key[f"contract.{contract.id}.maker_success"]
            assert success.n == tally.contracts[contract.id]
    bouts = [by_key[f"maker_card_set.bouts.{k}"] for k in range(4)]
    assert all(b.n == played for b in bouts) and abs(sum(b.value for b in bouts) - 1) < 1e-9
    made = {k: by_key.get(f"maker_card_set.bouts.{k}.maker_success") for k in range(4)}
    assert sum(m.n for m in made.values() if m is not None) == played
    for k, m in made.items():  # each hand counted once, under the bouts its taker held
        assert m is None or m.n == tally.maker_sets["bouts", k] and m.value * m.n == tally.maker_set_wins["bouts", k]
    points = tally.maker_points
    assert all(0 <= p <= 91 and p * 2 == int(p * 2) for values in points.values() for p in values)
    assert by_key["maker_points.p10"].value <= by_key["maker_points.median"].value <= by_key["maker_points.p90"].value


def test_a_team_of_one_player_is_named_by_its_seat():
    from dataclasses import replace

    from couillon_dsl.compile import build_ruleset
    from couillon_dsl.simulation import team_label

    rs = build_ruleset("couillon")
    assert team_label(rs, 1) == f"team 1 (seats {'+'.join(map(str, rs.players.teams[1]))})"
    each = replace(rs, players=replace(rs.players, teams=((0,), (1,), (2,), (3,))))
    assert team_label(each, 2) == "seat 2"


def test_a_hand_that_may_stop_early_reports_no_every_trick_figure() -> None:
    from example_games import FOLDER

    schnapsen = simulate_json(str(FOLDER / "schnapsen.yaml"), "--games", "4", "--seed", "1", "--workers", "1")
    assert "all_tricks" not in schnapsen["figures"] and "tie" in schnapsen["figures"]
