"""Parsed expressions kept between runs, so that checking a known ruleset never imports lark.

Importing lark and loading its parser is the largest part of `couillon validate`'s start-up,
yet a ruleset's expressions rarely change. Every expression parsed without error is kept as
JSON (plain data: nothing is executed on reading, unlike a pickle) in the per-user cache
folder, in a file named after a hash of the grammar and of the parser's own source, so that
a change to either starts a new file. A cache that cannot be read or written is ignored.
"""
from __future__ import annotations

import json
import os
from fractions import Fraction
from pathlib import Path
from typing import Any

from couillon_dsl.loader_cache import cache_folder
from couillon_dsl.expr.parse import Binary, Call, Name, Node, Number, Pos, String, Unary

MAX_ENTRIES = 512  # then the file starts afresh: a cache, not an archive (read whole at every start)
_entries: dict[str, Any] | None = None


def _file() -> Path:
    import zlib  # a checksum names the version, nothing more: hashlib would cost start-up time

    here = Path(__file__).parent
    sources = b"".join((here / name).read_bytes() for name in ("expr.lark", "parse.py", "cache.py"))
    return cache_folder() / f"expr-ast-{zlib.crc32(sources):08x}-{len(sources)}.json"


def _load() -> dict[str, Any]:
    global _entries
    if _entries is None:
        try:
            loaded = json.loads(_file().read_text(encoding="utf-8"))
            _entries = loaded if isinstance(loaded, dict) else {}
        except (OSError, ValueError):
            _entries = {}
    return _entries


def cached(text: str) -> Node | None:
    """The AST of ``text`` from an earlier run, or None."""
    encoded = _load().get(text)
    if encoded is None:
        return None
    try:
        return _decode(encoded)
    except (TypeError, ValueError, KeyError, IndexError, ZeroDivisionError):
        return None  # a damaged entry: parse again


def remember(text: str, node: Node) -> None:
    """Keep a fresh parse for the next run (written at once: a run may end any time)."""
    entries = _load()
    if len(entries) >= MAX_ENTRIES:
        entries.clear()
    entries[text] = _encode(node)
    path = _file()
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(entries, separators=(",", ":")), encoding="utf-8")
        os.replace(temporary, path)  # atomic: parallel workers never see half a file
    except OSError:
        pass


def _pos(pos: Pos | None) -> list[int] | None:
    return None if pos is None else [pos.line, pos.column, pos.end_line, pos.end_column]


def _encode(node: Node) -> list[Any]:
    where = _pos(node.pos)
    if isinstance(node, Number):
        return ["n", str(node.value), where]
    if isinstance(node, String):
        return ["s", node.value, where]
    if isinstance(node, Name):
        return ["v", node.name, where]
    if isinstance(node, Call):
        return ["c", node.func, [_encode(a) for a in node.args], where]
    if isinstance(node, Unary):
        return ["u", node.op, _encode(node.operand), where]
    return ["b", node.op, _encode(node.left), _encode(node.right), where]


def _decode(data: list[Any]) -> Node:
    kind, where = data[0], data[-1]
    pos = None if where is None else Pos(*where)
    if kind == "n":
        value = Fraction(data[1])
        return Number(value.numerator if value.denominator == 1 else value, pos)
    if kind == "s":
        return String(str(data[1]), pos)
    if kind == "v":
        return Name(str(data[1]), pos)
    if kind == "c":
        return Call(str(data[1]), tuple(_decode(a) for a in data[2]), pos)
    if kind == "u":
        return Unary(str(data[1]), _decode(data[2]), pos)
    if kind == "b":
        return Binary(str(data[1]), _decode(data[2]), _decode(data[3]), pos)
    raise ValueError(f"unknown node kind {kind!r}")
