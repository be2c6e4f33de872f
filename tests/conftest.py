"""Shared pytest configuration."""


def pytest_addoption(parser):
    parser.addoption("--regen", action="store_true", default=False,
                     help="rewrite golden files (tests/golden/) from the current code instead of comparing")
