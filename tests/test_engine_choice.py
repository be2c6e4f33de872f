"""Which engine a run plays on, and why not the kernel; none of this needs Numba.

The kernel's eligibility is decided on the compiled model's concepts (never a ruleset's
name) and says which concept it does not take yet; the commands that only read rulesets
(validate, explain, diff, new) never import NumPy or Numba.
"""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from couillon_dsl import kernel
from couillon_dsl.compile import build_ruleset
from couillon_dsl.kernel.eligible import agents_reason, reason, ruleset_reason
from couillon_dsl.simulation import select_engine
from test_rollout import patched


def test_a_new_value_of_a_known_key_is_named() -> None:
    rs = build_ruleset("couillon")
    follow = dataclasses.replace(rs.play.follow, head="sometimes")
    changed = dataclasses.replace(rs, play=dataclasses.replace(rs.play, follow=follow))
    assert ruleset_reason(changed) == "`play.follow.head: sometimes` is not in the kernel yet"


def test_a_key_the_kernel_does_not_know_is_named() -> None:
    @dataclasses.dataclass(frozen=True)
    class Auction:  # a concept added to the language after the kernel
        rounds: int = 1

    rs = build_ruleset("couillon")
    changed = dataclasses.replace(rs, trump=dataclasses.replace(rs.trump, offer=Auction()))  # type: ignore[arg-type]
    assert ruleset_reason(changed) == "`trump.offer` (Auction) is not in the kernel yet"


def test_every_concept_the_kernel_lacks_is_named_at_once() -> None:
    """A user sees the whole list, not one concept per release."""
    why = ruleset_reason(build_ruleset("schieber"))
    assert why is not None
    for concept in ("`trump.choose.delegate`", "`play.first_lead: chooser`", "`play.last_trick_points`",
                    "`declarations`", "`contracts`", "declared"):
        assert concept in why, concept


def test_a_scoring_table_too_large_is_declined_with_what_it_reads() -> None:
    rs = patched("couillon", {"scoring": {"odd": {"when": "points(winner) > 10 and points(loser) > 5 and ties_pending > 1",
                                                  "team": "winner", "delta": 1}}})
    why = ruleset_reason(rs)
    assert why is not None and "points" in why and "ties_pending" in why and "fact combinations" in why


def test_agents_the_kernel_plays() -> None:
    assert agents_reason(["random", "greedy"]) is None
    assert "setting 'share'" in (agents_reason(["greedy:share=0.6"]) or "")
    assert "pimc" in (agents_reason(["greedy", "pimc:samples=4"]) or "")
    assert "setting 'depth'" in (agents_reason(["greedy:depth=2"]) or "")


def test_every_shipped_ruleset_is_eligible_or_says_why() -> None:
    from couillon_dsl.builtin import builtin_names

    for name in builtin_names():
        why = reason(build_ruleset(name), ["random"])
        assert why is None or "kernel" in why, (name, why)


def test_auto_falls_back_to_python_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    rs = build_ruleset("couillon")
    monkeypatch.setattr(kernel, "available", lambda: False)
    engine, note = select_engine(rs, ["random"] * 4, "auto")
    assert engine == "python" and note is not None and "couillon-dsl[fast]" in note
    with pytest.raises(ValueError, match="Numba"):
        select_engine(rs, ["random"] * 4, "compiled")
    assert select_engine(rs, ["random"] * 4, "python") == ("python", None)


@pytest.mark.parametrize("command", [["validate", "couillon"], ["explain", "kujong"], ["diff", "couillon", "mit"],
                                     ["new", "x.yaml", "--from", "couillon"]])
def test_reading_commands_never_import_numpy_or_numba(command: list[str], tmp_path: Path) -> None:
    probe = ("import sys\nfrom click.testing import CliRunner\nfrom couillon_dsl.cli import main\n"
             f"result = CliRunner().invoke(main, {command!r})\n"
             "print(result.exit_code, 'numpy' in sys.modules, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout.split()
    assert out == ["0", "False", "False"], out
