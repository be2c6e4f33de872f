"""`couillon new`: start a house variant as a file that extends an existing ruleset.

The new file states only what a child must state (its id, name and description, and what
it extends); every section the parent sets follows as comments showing the parent's
effective values, so a variant is written by uncommenting and editing a few lines, and
until then it plays exactly like its parent.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from couillon_dsl.builtin import builtin_names, find_builtin, is_file
from couillon_dsl.compile import apply_options
from couillon_dsl.diagnostics import RulesetError, did_you_mean, error
from couillon_dsl.loader import load_ruleset
from couillon_dsl.schema import SCHEMA_PATH
from couillon_dsl.schema_variant import VARIANT_FILE

STATED = ("id", "name", "description", "extends")  # written out; everything else is commented


class ScaffoldError(Exception):
    """The variant file cannot be written (it exists, or its folder does not)."""


class _Dumper(yaml.SafeDumper):
    """Block style for sections; flow style for short leaves (suits, teams, deal steps, point tables)."""

    def represent_list(self, data: Any) -> yaml.SequenceNode:
        node = super().represent_sequence("tag:yaml.org,2002:seq", data)
        for item, raw in zip(node.value, data):
            if isinstance(item, yaml.MappingNode) and all(isinstance(v, yaml.ScalarNode) for _, v in item.value) \
                    and len(str(raw)) < 60:
                item.flow_style = True
        if all(isinstance(item, yaml.ScalarNode) or isinstance(item, yaml.SequenceNode) and item.flow_style
               for item in node.value):
            node.flow_style = True
        return node

    def represent_dict(self, data: Any) -> yaml.MappingNode:
        node = super().represent_dict(data)
        if data and all(isinstance(v, int) and not isinstance(v, bool) for v in data.values()):
            node.flow_style = True
        return node

    def represent_str(self, data: str) -> yaml.ScalarNode:
        if len(data) > 70 and "\n" not in data:
            return self.represent_scalar("tag:yaml.org,2002:str", data, style=">")
        return super().represent_str(data)


_Dumper.add_representer(list, _Dumper.represent_list)
_Dumper.add_representer(dict, _Dumper.represent_dict)
_Dumper.add_representer(str, _Dumper.represent_str)


def _dump(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=88)


def variant_id(path: Path) -> str:
    """An id from a file name: ``My House.yaml`` -> ``my-house``."""
    text = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")
    return text if re.match(r"^[a-z]", text) else f"house-{text}".rstrip("-")


def _extends_value(parent: str, target: Path) -> tuple[str, Path]:
    """What `extends:` says (a path relative to the new file, or a built-in name) and the parent file."""
    given = Path(parent)
    if is_file(given):
        relative = os.path.relpath(given.resolve(), target.resolve().parent)
        return Path(relative).as_posix(), given
    builtin = find_builtin(parent)
    if builtin is None:
        raise RulesetError([error("file-not-found", f"no ruleset file or built-in ruleset named '{parent}'",
                                  hint=did_you_mean(parent, builtin_names()))])
    return parent, builtin


def scaffold_text(target: Path, parent: str, *, id: str | None = None, name: str | None = None) -> str:
    """The text of a new variant of ``parent`` to be written at ``target``.

    Raises RulesetError when the parent cannot be loaded or has errors: its child would too.
    """
    from couillon_dsl.validate import check  # pulls in jsonschema: import on use

    extends, parent_file = _extends_value(parent, target)
    document = load_ruleset(parent_file)
    errors = [d for d in check(document) if d.is_error]
    if errors:
        raise RulesetError(errors)
    effective, _ = apply_options(document, {})
    new_id = id or variant_id(target)
    title = name or new_id.replace("-", " ").capitalize()
    schema = schema_reference(target)
    head = {
        "id": new_id,
        "name": title,
        "description": f"A house variant of {effective.get('name', extends)}: say here what it changes.",
        "extends": extends,
    }
    lines = [f"# yaml-language-server: $schema={schema}", _dump(head).rstrip(), "",
             f"# Everything below is what '{extends}' plays with (after its own extends and option defaults).",
             "# Uncomment and edit only what your variant changes: mappings merge key by key, lists",
             "# (suits, teams, the deal) replace the parent's list whole, and `null` removes a key.",
             "# A value that an option `sets` must agree with the option's `default`: change both.",
             "# Keys the parent leaves at their defaults are not shown: see docs/reference.md.",
             f"# Then: couillon validate FILE; couillon explain FILE; couillon diff {extends} FILE", ""]
    for key, value in effective.items():
        if key in STATED:
            continue
        lines += ["# " + line if line else "#" for line in _dump({key: value}).rstrip().splitlines()]
        lines.append("")
    return "\n".join(lines)


def schema_reference(target: Path) -> str:
    """What a new variant's `$schema` line names: the packaged variant schema, by a path relative to
    the file when the schema lies below the file's folder (a source checkout), else by its absolute
    path, which still resolves when the file moves (a copy from `couillon schema --write` is steadier)."""
    schema = SCHEMA_PATH.with_name(VARIANT_FILE).resolve()
    folder = target.resolve().parent
    return schema.relative_to(folder).as_posix() if schema.is_relative_to(folder) else schema.as_posix()


def write_variant(target: Path, parent: str, *, id: str | None = None, name: str | None = None) -> Path:
    """Write a new variant file; never overwrites. Raises ScaffoldError or RulesetError."""
    # os.path rather than Path methods: they answer False instead of raising for a name too long
    if os.path.lexists(target):
        raise ScaffoldError(f"{target} already exists; `couillon new` never overwrites a file")
    if not os.path.isdir(target.parent):
        raise ScaffoldError(f"folder {target.parent} does not exist")
    text = scaffold_text(target, parent, id=id, name=name)
    try:
        with open(target, "x", encoding="utf-8") as handle:  # "x": fail rather than overwrite in a race
            handle.write(text)
    except OSError as exc:  # a read-only folder, a name the file system refuses, a file created meanwhile
        raise ScaffoldError(f"cannot write {target}: {exc.strerror or exc}") from None
    return target
