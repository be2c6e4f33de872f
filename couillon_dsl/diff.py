"""What one ruleset changes relative to another, as rule sentences (`couillon diff A B`).

Both rulesets are compared compiled, i.e. on effective values after ``extends:`` and
options, through :func:`couillon_dsl.explain.rule_sentences`: a difference is reported
exactly when the rulebook would read differently, in the rulebook's own words.
"""
from __future__ import annotations

import difflib

from couillon_dsl.explain import rule_sentences
from couillon_dsl.model import Ruleset

NUMBERED = frozenset({"Deal"})  # concepts whose sentences are numbered steps


def _changed(label: str, new: tuple[str, ...], old: tuple[str, ...]) -> list[str]:
    """Lines for one concept whose sentences differ; steps are matched up, not just replaced."""
    if not old:
        return [f"{label}: {'; '.join(new)} (new)"]
    if not new:
        return [f"{label}: removed (was: {'; '.join(old)})"]
    if len(old) == len(new) == 1:
        return [f"{label}: {new[0]} (was: {old[0]})"]
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        where = label
        if label in NUMBERED:
            first, last = (j1, j2) if tag != "delete" else (i1, i2)
            where = f"{label}, step {first + 1}" if last - first <= 1 else f"{label}, steps {first + 1}-{last}"
        before, after = "; ".join(old[i1:i2]), "; ".join(new[j1:j2])
        if tag == "replace":
            out.append(f"{where}: {after} (was: {before})")
        elif tag == "insert":
            out.append(f"{where}: {after} (new)")
        else:
            out.append(f"{where}: removed (was: {before})")
    return out


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
    return f"{title}, {len(lines)} difference{'s' if len(lines) > 1 else ''}:\n" + "".join(f"- {line}\n" for line in lines)
