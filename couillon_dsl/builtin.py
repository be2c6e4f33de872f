"""Where the built-in rulesets live, so a ruleset can be named (``couillon``) instead of pathed.

In a source checkout they sit in the repository's ``rulesets/`` folder; an installed
package ships them as data files under ``<prefix>/share/couillon-dsl/rulesets``. The
checkout wins, so editing a shipped ruleset takes effect without reinstalling.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

_NAME = re.compile(r"^[a-z][a-z0-9-]*$")  # a name can never smuggle in a path


def is_file(path: str | Path) -> bool:
    """Whether ``path`` names a regular file; False, not an OSError, for a path the system
    cannot even look up (a name too long, a NUL byte), since such a path comes from user input."""
    return os.path.isfile(path)


def builtin_folders() -> list[Path]:
    """The folders searched for built-in rulesets, in order of precedence."""
    return [
        Path(__file__).resolve().parents[1] / "rulesets",
        Path(sys.prefix) / "share" / "couillon-dsl" / "rulesets",
    ]


def builtin_names() -> list[str]:
    """Names of every built-in ruleset, sorted."""
    names: set[str] = set()
    for folder in builtin_folders():
        if folder.is_dir():
            names.update(p.stem for p in folder.glob("*.yaml") if _NAME.match(p.stem))
    return sorted(names)


def find_builtin(name: str) -> Path | None:
    """The file of built-in ruleset ``name``, or None."""
    if not _NAME.match(name):
        return None
    for folder in builtin_folders():
        candidate = folder / f"{name}.yaml"
        if is_file(candidate):
            return candidate
    return None


def resolve_ruleset(path_or_name: str | Path) -> Path | None:
    """A path that exists wins over a built-in name; None when neither matches."""
    path = Path(path_or_name)
    if is_file(path):
        return path
    return find_builtin(str(path_or_name)) if isinstance(path_or_name, str) else None
