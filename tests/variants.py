"""Variants written on the fly by a test: a child of a ruleset with a few keys added, loaded
through the API as a user's file would be."""
from __future__ import annotations

from pathlib import Path

import pytest

from couillon_dsl import api
from couillon_dsl.diagnostics import RulesetError
from couillon_dsl.loader import load_ruleset
from couillon_dsl.validate import check


def refused(tmp_path: Path, parent: str | Path, body: str) -> list[str]:
    """The diagnostic codes the child of ``parent`` with ``body`` (YAML keys) is refused with."""
    path = tmp_path / "variant.yaml"
    path.write_text(f"id: variant\nname: Variant\nextends: {parent}\n{body}", encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        api.load(path)
    return [d.code for d in caught.value.diagnostics]


def codes_of(path: Path, text: str) -> list[str]:
    """The diagnostic codes of the whole ruleset ``text`` written at ``path``, errors and warnings alike."""
    path.write_text(text, encoding="utf-8")
    try:
        return [d.code for d in check(load_ruleset(path))]
    except RulesetError as exc:
        return [d.code for d in exc.diagnostics]
