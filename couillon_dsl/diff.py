"""What one ruleset changes relative to another, as rule sentences (`couillon diff A B`).

Both rulesets are compared compiled, i.e. on effective values after ``extends:`` and
options, through :func:`couillon_dsl.explain.rule_sentences`: a difference is reported
exactly when the rulebook would read differently, in the rulebook's own words.
"""
from __future__ import annotations

import difflib

from couillon_dsl.explain import rule_sentences
from couillon_dsl.model import Ruleset


def _changed(label: str, new: tuple[str, ...], old: tuple[str, ...]) -> list[str]:
    """Lines for one concept whose sentences differ; sentences are matched up, not just replaced."""
    if len(old) <= 1 and len(new) <= 1:
        return [_line(label, new[0] if new else None, old[0] if old else None)]
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        pairs = max(i2 - i1, j2 - j1)
        for k in range(pairs):
            i, j = i1 + k, j1 + k
            after = new[j] if j < j2 else None
            before = old[i] if i < i2 else None
            out.append(_line(label, after, before))
    return out


def _line(label: str, after: str | None, before: str | None) -> str:
    if before is None:
        return f"{label}: {after} (new)"
    if after is None:
        return f"{label}: removed (was: {before})"
    return f"{label}: {after} (was: {before})"


def differences(a: Ruleset, b: Ruleset) -> list[str]:
    """One line per rule that B states differently from A, in B's order (A's leftovers last)."""
    old, new = rule_sentences(a), rule_sentences(b)
    labels = list(new) + [label for label in old if label not in new]
    out: list[str] = []
    for label in labels:
        before, after = old.get(label, ()), new.get(label, ())
        if before != after:
            out += _changed(label, after, before)
    return out


def diff_text(a: Ruleset, b: Ruleset) -> str:
    """The report `couillon diff` prints."""
    lines = differences(a, b)
    title = f"{b.name} ({b.id}) compared with {a.name} ({a.id})"
    if not lines:
        return f"{title}: no difference in the rules.\n"
    plural = "s" if len(lines) > 1 else ""
    return f"{title}, {len(lines)} difference{plural}:\n" + "".join(f"- {line}\n" for line in lines)
