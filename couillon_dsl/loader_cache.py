"""Composed ruleset files kept between runs, so that checking a known ruleset never imports PyYAML.

Importing PyYAML (its reader and resolver compile large regular expressions) and composing
a file cost `couillon validate` more than the checks themselves, yet a ruleset file rarely
changes between two runs. A file that loaded without a diagnostic is kept as JSON (plain
data: nothing is executed on reading) in the per-user cache folder, one file per ruleset
text, named after a checksum of the text, of the name it is shown under and of the loader's
own source (a change to either starts afresh). An entry holds the text itself and is used
only when it matches exactly, so a checksum collision costs a parse, never a wrong answer.
At most :data:`MAX_FILES` entries are kept; a cache that cannot be read or written is ignored.
"""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from couillon_dsl.diagnostics import Span, TextSpan

if TYPE_CHECKING:
    from couillon_dsl.loader import Origin

MAX_FILES = 64  # ruleset texts remembered; the oldest go first
_PREFIX = "ruleset-"
_version: str | None = None


def cache_folder() -> Path:
    """The per-user cache folder of couillon-dsl (``$XDG_CACHE_HOME/couillon-dsl``)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "couillon-dsl"


def _entry(text: str, file: str) -> Path:
    global _version
    if _version is None:
        here = Path(__file__).parent
        sources = b"".join((here / name).read_bytes() for name in ("loader.py", "loader_cache.py"))
        _version = f"{zlib.crc32(sources):08x}"
    key = zlib.crc32(f"{file}\0{text}".encode("utf-8", "surrogatepass"))
    return cache_folder() / f"{_PREFIX}{_version}-{key:08x}-{len(text)}.json"


def _span(file: str, where: list[Any] | None) -> Span | None:
    if where is None:
        return None
    if len(where) == 5:  # a text span, with where each source line starts in the text
        line, column, end_line, end_column, pieces = where
        return TextSpan(file, line, column, end_line, end_column, tuple(tuple(piece) for piece in pieces))
    return Span(file, *where)


def _where(span: Span | None) -> list[Any] | None:
    if span is None:
        return None
    where: list[Any] = [span.line, span.column, span.end_line, span.end_column]
    return where + [list(span.pieces)] if isinstance(span, TextSpan) else where


def cached(text: str, file: str) -> tuple[dict[str, Any], dict[str, Origin]] | None:
    """The data and origins ``text`` (shown as ``file``) composed to in an earlier run, or None."""
    from couillon_dsl.loader import Origin

    try:
        entry = json.loads(_entry(text, file).read_text(encoding="utf-8"))
        if entry["text"] != text or entry["file"] != file:
            return None
        origins = {pointer: Origin(Span(file, *span), _span(file, key), _span(file, content))
                   for pointer, span, key, content in entry["origins"]}
        data = entry["data"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):  # a damaged entry is a miss
        return None
    return (data, origins) if isinstance(data, dict) else None


def remember(text: str, file: str, data: dict[str, Any], origins: dict[str, Origin]) -> None:
    """Keep a freshly composed file for the next run (written at once, atomically)."""
    entry = {"text": text, "file": file, "data": data,
             "origins": [[pointer, _where(o.span), _where(o.key), _where(o.content)] for pointer, o in origins.items()]}
    try:
        path = _entry(text, file)  # reads the loader's own sources: an unreadable install is no cache, not a crash
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        kept = sorted(path.parent.glob(f"{_PREFIX}*.json"), key=lambda p: p.stat().st_mtime)
        for old in kept[:max(0, len(kept) - MAX_FILES + 1)]:
            old.unlink(missing_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(entry, separators=(",", ":"), ensure_ascii=False), encoding="utf-8")
        os.replace(temporary, path)  # atomic: parallel runs never see half a file
    except (OSError, ValueError, TypeError):
        pass
