"""Intervals checked against values computed by hand from the textbook formulas."""
from __future__ import annotations

import doctest
import math
import random

import pytest

from couillon_dsl import stats


def test_wilson_matches_hand_computation() -> None:
    # p = 0.8, n = 10, z = 1.96: centre = (0.8 + 1.96²/20) / (1 + 1.96²/10) = 0.71674,
    # half = 1.96 * sqrt(0.8*0.2/10 + 1.96²/400) / 1.38416 = 0.22658
    e = stats.wilson(8, 10, z=1.96)
    assert e.value == pytest.approx(0.8)
    assert e.low == pytest.approx(0.49016, abs=1e-5)
    assert e.high == pytest.approx(0.94332, abs=1e-5)
    assert e.n == 10


def test_wilson_edges_keep_exact_ends_and_stay_inside_unit_interval() -> None:
    zero = stats.wilson(0, 20, z=1.96)
    assert zero.low == 0.0 and zero.high == pytest.approx(1.96**2 / (20 + 1.96**2), abs=1e-12)
    full = stats.wilson(20, 20, z=1.96)
    assert full.high == 1.0 and full.low == pytest.approx(20 / (20 + 1.96**2), abs=1e-12)
    empty = stats.wilson(0, 0)
    assert empty.value is None and empty.low is None and empty.n == 0


def test_wilson_narrows_with_more_trials() -> None:
    small, large = stats.wilson(30, 100), stats.wilson(3000, 10000)
    assert (large.high - large.low) < (small.high - small.low) / 5


@pytest.mark.parametrize(("df", "expected"), [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423)])
def test_t_quantile_matches_tables(df: int, expected: float) -> None:
    assert stats.t_quantile(0.975, df) == pytest.approx(expected, rel=2e-3)


def test_mean_t_interval_by_hand() -> None:
    # values 1..5: mean 3, sample sd sqrt(2.5), t(0.975, 4) = 2.7764
    e = stats.mean_t([1, 2, 3, 4, 5])
    half = 2.7764 * math.sqrt(2.5 / 5)
    assert e.value == pytest.approx(3.0)
    assert e.low == pytest.approx(3 - half, rel=1e-3) and e.high == pytest.approx(3 + half, rel=1e-3)
    assert stats.mean_t([7]).low is None


def test_quantile_interpolates_and_its_interval_brackets_it() -> None:
    data = list(range(1, 101))
    assert stats.quantile(data, 0.5) == pytest.approx(50.5)
    assert stats.quantile(data, 0.9) == pytest.approx(90.1)
    e = stats.quantile_ci(data, 0.9)
    assert e.low is not None and e.high is not None
    assert e.low <= e.value <= e.high and e.low >= 80 and e.high <= 97


def test_newcombe_difference_by_hand() -> None:
    a, b = stats.wilson(56, 70, z=1.96), stats.wilson(48, 80, z=1.96)
    d = stats.diff_rates(a, b, z=1.96)
    # Newcombe (1998), example (56/70 - 48/80): 0.2000 [0.0524, 0.3339]
    assert d.value == pytest.approx(0.2)
    assert d.low == pytest.approx(0.0524, abs=1e-3) and d.high == pytest.approx(0.3339, abs=1e-3)


def test_welch_difference_covers_the_truth_about_95_percent_of_the_time() -> None:
    rng = random.Random(3)
    hits = 0
    for _ in range(400):
        a = [rng.gauss(1.0, 1.0) for _ in range(15)]
        b = [rng.gauss(0.0, 2.0) for _ in range(25)]
        d = stats.diff_means(a, b)
        hits += d.low <= 1.0 <= d.high
    assert 0.91 <= hits / 400 <= 0.99


def test_wilson_coverage_is_close_to_nominal() -> None:
    rng = random.Random(5)
    p, n = 0.1, 60
    covered = 0
    for _ in range(500):
        k = sum(rng.random() < p for _ in range(n))
        e = stats.wilson(k, n)
        covered += e.low <= p <= e.high
    assert 0.91 <= covered / 500 <= 0.99


def test_module_examples() -> None:
    assert doctest.testmod(stats).failed == 0
