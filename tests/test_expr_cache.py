"""Parsed expressions kept between runs: the same AST as a fresh parse, and lark left unimported."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from couillon_dsl.expr import cache
from couillon_dsl.expr.parse import _parse, parse_expression

EXPRESSIONS = [
    "decided and maker != none and loser == maker",
    "if(points(maker) >= 41, 25, -25) + floor(points(maker) / 10)",
    'not announced("mit") or 4.5 * 2 > 1',
    "-(1 + 2) * abs(points(winner) - points(opponents(winner)))",
]


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(cache, "_entries", None)
    return tmp_path / "couillon-dsl"


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_a_cached_expression_is_the_ast_lark_gives(fresh_cache: Path, text: str) -> None:
    first = parse_expression(text)
    cache._entries = None  # as a new process would: read back from the file
    again = cache.cached(text)
    assert again == first == _parse(text)
    assert again is not None and again.pos == first.pos  # positions too (they are not compared by ==)


def test_a_damaged_cache_is_ignored(fresh_cache: Path) -> None:
    parse_expression(EXPRESSIONS[0])
    [file] = fresh_cache.glob("expr-ast-*.json")
    file.write_text('{"winner": ["x", 1, null], "tie": [', encoding="utf-8")
    cache._entries = None
    assert parse_expression("winner") == _parse("winner")
    file.write_text('{"winner": ["x", 1, null]}', encoding="utf-8")
    cache._entries = None
    assert cache.cached("winner") is None and parse_expression("winner") == _parse("winner")


def test_validating_a_known_ruleset_does_not_import_lark(tmp_path: Path) -> None:
    code = ("import sys\nfrom couillon_dsl.cli import main\ntry:\n    main(['validate', 'couillon'])\n"
            "except SystemExit as done:\n    assert done.code == 0\nprint('lark' in sys.modules)")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    run = lambda: subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120).stdout
    assert run().strip().endswith("True")  # the first run parses, and keeps what it parsed
    assert run().strip().endswith("False")
