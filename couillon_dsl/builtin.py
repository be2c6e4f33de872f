"""Where the built-in rulesets live, so a ruleset can be named (``couillon``) instead of pathed.

They are package data (``couillon_dsl/rulesets/``), found beside the package's own modules,
so a venv, ``pip install --user`` and an editable install all see the same files, and
their ``$schema`` line (``../schemas/ruleset.schema.json``) resolves wherever the package sits.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

_NAME = re.compile(r"^[a-z][a-z0-9-]*$")  # a name can never smuggle in a path


def is_file(path: str | Path) -> bool:
    """Whether ``path`` names a regular file; False, not an OSError, for a path the system
    cannot even look up (a name too long, a NUL byte), since such a path comes from user input."""
    return os.path.isfile(path)


def package_folder() -> Path:
    """The folder of the installed package, which holds its data (rulesets, schemas).

    The package is never installed zipped (the loader needs real paths for spans and for
    `extends:` relative to a file), so its folder is the one its modules were imported
    from: what ``importlib.resources.files`` answers, without importing it (about a fifth
    of `couillon validate`'s start-up). A loader without files falls back to it.
    """
    here = Path(__file__).parent
    if here.is_dir():
        return here
    from importlib.resources import files

    return Path(str(files("couillon_dsl")))


def builtin_folder() -> Path:
    """The package's ruleset folder."""
    return package_folder() / "rulesets"


def builtin_names() -> list[str]:
    """Names of every built-in ruleset, sorted."""
    return sorted(p.stem for p in builtin_folder().glob("*.yaml") if _NAME.match(p.stem))


def find_builtin(name: str) -> Path | None:
    """The file of built-in ruleset ``name``, or None."""
    if not _NAME.match(name):
        return None
    candidate = builtin_folder() / f"{name}.yaml"
    return candidate if is_file(candidate) else None


def resolve_ruleset(path_or_name: str | Path) -> Path | None:
    """A path that exists wins over a built-in name; None when neither matches."""
    path = Path(path_or_name)
    if is_file(path):
        return path
    return find_builtin(str(path_or_name)) if isinstance(path_or_name, str) else None
