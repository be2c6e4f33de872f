"""The broken-ruleset corpus: one file per diagnostic code, each naming its code and position.

Every tests/broken/*.yaml starts with `# expect: CODE LINE:COL`. The file must produce that
diagnostic there (in the file itself), and no other error. A guard keeps the corpus complete.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from couillon_dsl.diagnostics import CODES, Diagnostic, RulesetError
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check

BROKEN = Path(__file__).parent / "broken"
PACKAGE = Path(__file__).resolve().parents[1] / "couillon_dsl"
LANGUAGE_MODULES = ["loader.py", "schema.py", "semantic.py", "validate.py", "diagnostics.py", "expr/parse.py", "expr/compile.py"]
EXPECT = re.compile(rb"^# expect: ([a-z-]+) (\d+):(\d+)$")
# Codes a small committed file cannot show; each is exercised elsewhere.
NOT_IN_CORPUS = {
    "file-not-found": "needs a missing file (tests/test_load.py)",
    "too-large": "needs a file over the size limit (tests/test_hostile.py)",
    "schema-invalid": "fallback for schema keywords the mapper does not name; none in the current schema",
}


def diagnostics_of(path: Path) -> list[Diagnostic]:
    try:
        return check(load_ruleset(path))
    except RulesetError as exc:
        return list(exc.diagnostics)


def expectation(path: Path) -> tuple[str, int, int]:
    match = EXPECT.match(path.read_bytes().split(b"\n", 1)[0])
    assert match, f"{path.name}: first line must be `# expect: CODE LINE:COL`"
    return match.group(1).decode(), int(match.group(2)), int(match.group(3))


@pytest.mark.parametrize("path", sorted(BROKEN.glob("*.yaml")), ids=lambda p: p.stem)
def test_broken_file_gives_its_expected_diagnostic(path):
    code, line, column = expectation(path)
    found = diagnostics_of(path)
    hits = [d for d in found if d.code == code and d.span and (d.span.line, d.span.column) == (line, column)]
    assert hits, [(d.code, str(d.span)) for d in found]
    assert hits[0].span.file.endswith(path.name)
    others = [d for d in found if d.is_error and d is not hits[0]]
    assert others == []
    assert hits[0].message


def test_every_code_has_a_corpus_file():
    covered = {expectation(path)[0] for path in BROKEN.glob("*.yaml")}
    assert set(CODES) - covered - set(NOT_IN_CORPUS) == set()
    assert covered <= set(CODES)


def test_every_code_the_language_emits_is_registered():
    literal = re.compile(r'(?:error|report|fail|diag|ExpressionError)\(\s*"([a-z]+(?:-[a-z]+)+)"')
    emitted = set()
    for module in LANGUAGE_MODULES:
        emitted.update(literal.findall((PACKAGE / module).read_text(encoding="utf-8")))
    emitted.update({"unknown-announcement", "unknown-option"})  # built as f"unknown-{param}" in expr/compile.py
    assert emitted - set(CODES) == set()
    assert set(CODES) - emitted == set()
