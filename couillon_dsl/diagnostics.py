"""Diagnostics: what every checking stage reports, and how a person or a tool reads them.

A stage never prints and rarely raises: it yields :class:`Diagnostic` values (a stable
kebab-case ``code``, a position and a hint), and the boundary that must stop (loading,
building a ruleset) raises one :class:`RulesetError` carrying them all. The text rendering
follows compilers: ``FILE:LINE:COL: error[CODE]: message``, the source line, a caret and a
hint, so editors can jump to the position.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Iterable, Literal, Sequence

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Span:
    """A place in a source file; lines and columns are 1-based, the end is exclusive."""

    file: str | None
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file or '<input>'}:{self.line}:{self.column}"


@dataclass(frozen=True)
class Diagnostic:
    """One finding about a ruleset; ``code`` is stable so tests and tools can match on it."""

    code: str
    severity: Severity
    message: str
    span: Span | None = None
    pointer: str = ""
    hint: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, object]:
        span = self.span
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": span.file if span else None,
            "line": span.line if span else None,
            "column": span.column if span else None,
            "end_line": span.end_line if span else None,
            "end_column": span.end_column if span else None,
            "pointer": self.pointer,
            "hint": self.hint,
        }


class RulesetError(Exception):
    """A ruleset that cannot be used; carries every diagnostic that explains why."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)
        first = self.diagnostics[0] if self.diagnostics else None
        text = f"{first.span}: {first.message}" if first and first.span else (first.message if first else "invalid ruleset")
        super().__init__(text)


def error(code: str, message: str, span: Span | None = None, pointer: str = "", hint: str | None = None) -> Diagnostic:
    """Shorthand for the common case, an error."""
    return Diagnostic(code, "error", message, span, pointer, hint)


def did_you_mean(word: object, choices: Iterable[object]) -> str | None:
    """A ``did you mean 'x'?`` hint when one choice is close to ``word`` (difflib ratio >= 0.6)."""
    options = [str(c) for c in choices]
    close = difflib.get_close_matches(str(word), options, n=1, cutoff=0.6)
    if not close:
        lowered = {o.lower(): o for o in options}
        close = [lowered[str(word).lower()]] if str(word).lower() in lowered else []
    return f"did you mean '{close[0]}'?" if close else None


def sort_key(diagnostic: Diagnostic) -> tuple[str, int, int]:
    """Order diagnostics by file and position, unplaced ones first."""
    span = diagnostic.span
    return (span.file or "", span.line, span.column) if span else ("", 0, 0)


_ANSI = {"error": "\x1b[1;31m", "warning": "\x1b[1;33m", "bold": "\x1b[1m", "caret": "\x1b[1;32m", "hint": "\x1b[36m", "reset": "\x1b[0m"}
_MAX_SHOWN = 160  # characters of a source line shown around the caret


def _source_line(file: str | None, line: int, cache: dict[str, list[str] | None]) -> str | None:
    if not file:
        return None
    if file not in cache:
        try:
            with open(file, "rb") as handle:
                cache[file] = handle.read(4_000_000).decode("utf-8", "replace").splitlines()
        except OSError:
            cache[file] = None
    lines = cache[file]
    return lines[line - 1] if lines is not None and 0 < line <= len(lines) else None


def render_text(diagnostics: Iterable[Diagnostic], color: bool = False) -> str:
    """Render diagnostics compiler-style, each with its source line, a caret and a hint."""
    paint = (lambda key, text: f"{_ANSI[key]}{text}{_ANSI['reset']}") if color else (lambda key, text: text)
    cache: dict[str, list[str] | None] = {}
    out: list[str] = []
    for diagnostic in diagnostics:
        span = diagnostic.span
        where = f"{span}: " if span else ""
        label = paint(diagnostic.severity, f"{diagnostic.severity}[{diagnostic.code}]")
        out.append(f"{paint('bold', where)}{label}: {diagnostic.message}")
        source = _source_line(span.file, span.line, cache) if span else None
        if span and source is not None:
            start = max(0, min(span.column - 1, len(source)))
            width = 1
            if span.end_line == span.line and span.end_column and span.end_column > span.column:
                width = span.end_column - span.column
            width = max(1, min(width, len(source) - start))
            offset = max(0, start - _MAX_SHOWN // 2) if len(source) > _MAX_SHOWN else 0
            shown = source[offset : offset + _MAX_SHOWN].expandtabs(1)
            gutter = f"{span.line:>4} | "
            out.append(f"{gutter}{shown}")
            out.append(" " * (len(gutter) - 2) + "| " + " " * (start - offset) + paint("caret", "^" * min(width, _MAX_SHOWN)))
        if diagnostic.hint:
            out.append(f"  {paint('hint', 'hint')}: {diagnostic.hint}")
    return "\n".join(out)


def render_json(diagnostics: Iterable[Diagnostic]) -> str:
    """Render diagnostics as a JSON list of flat objects (code, severity, message, position, hint)."""
    return json.dumps([d.to_dict() for d in diagnostics], indent=2, ensure_ascii=False)
