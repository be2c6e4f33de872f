"""Shared pytest configuration."""
import os
import shutil
import tempfile

# the run's own cache folder (parsed expressions, composed rulesets), inherited by the commands tests start:
# thousands of fuzzed expressions must not fill the user's cache, which `couillon validate` reads at every start
CACHE = tempfile.mkdtemp(prefix="couillon-tests-cache-")
os.environ["XDG_CACHE_HOME"] = CACHE


def pytest_unconfigure(config):
    shutil.rmtree(CACHE, ignore_errors=True)


def pytest_addoption(parser):
    parser.addoption("--regen", action="store_true", default=False,
                     help="rewrite golden files (tests/golden/) from the current code instead of comparing")
