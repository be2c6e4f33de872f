"""Load a ruleset file into plain data that remembers where every value came from.

This is the one way the project reads YAML (rulesets, scenarios, anything later: see
:func:`load_yaml`). YAML is composed (never constructed) with a SafeLoader subclass whose composer is
iterative, so hostile input (deep nesting, alias bombs, unknown tags, huge files) is turned
away with a diagnostic instead of a crash or a hang. Plain data is then built from the node
tree, recording a :class:`Span` per JSON pointer, and ``extends:`` is resolved as an
RFC 7386 merge patch over the parent, each value keeping the span of the file that
introduced it. Nothing here knows what a ruleset means; that is schema and semantic.
"""
from __future__ import annotations

import copy
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from couillon_dsl import loader_cache
from couillon_dsl.builtin import builtin_names, find_builtin, is_file, resolve_ruleset
from couillon_dsl.diagnostics import Diagnostic, RulesetError, Span, TextSpan, did_you_mean, error

if TYPE_CHECKING:
    from yaml.nodes import MappingNode, Node, ScalarNode

MAX_BYTES = 1_000_000  # a ruleset is a few kilobytes; anything near this is not one
MAX_DEPTH = 64  # nesting of mappings and lists (rulesets need about 6)
MAX_VALUES = 20_000  # values after alias expansion (billion laughs needs 10**9)
MAX_EXTENDS = 16  # length of an `extends:` chain

_YAML = "tag:yaml.org,2002:"
_PLAIN_TAGS = {_YAML + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp")}


@dataclass(frozen=True)
class Origin:
    """Where one value came from: the value itself, its mapping key, and its text's first character."""

    span: Span
    key: Span | None = None
    content: Span | None = None


@dataclass(frozen=True)
class Document:
    """A loaded ruleset: effective plain data (``extends`` applied) and per-pointer origins."""

    data: dict[str, Any]
    path: Path | None
    origins: dict[str, Origin] = field(default_factory=dict, repr=False)
    files: tuple[Path, ...] = ()  # this file, then its parents
    deleted: dict[str, Span] = field(default_factory=dict, repr=False)  # pointer -> the `null` that removed it

    def span_of(self, pointer: str) -> Span | None:
        """Where the value at ``pointer`` came from, or None."""
        origin = self.origins.get(pointer)
        return origin.span if origin else None

    def key_span_of(self, pointer: str) -> Span | None:
        """Where the mapping key of ``pointer`` is written (falls back to the value)."""
        origin = self.origins.get(pointer)
        return (origin.key or origin.span) if origin else None

    def content_span_of(self, pointer: str) -> Span | None:
        """Where a scalar's text starts; positions inside the text count from here."""
        origin = self.origins.get(pointer)
        return (origin.content or origin.span) if origin else None

    def nearest_span(self, pointer: str, key: bool = False) -> Span | None:
        """The span of ``pointer`` or of its closest ancestor that has one."""
        while True:
            span = self.key_span_of(pointer) if key else self.span_of(pointer)
            if span is not None or not pointer:
                return span
            pointer = pointer.rsplit("/", 1)[0]


def escape(token: str) -> str:
    """Escape one JSON pointer reference token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """Undo :func:`escape`."""
    return token.replace("~1", "/").replace("~0", "~")


def pointer_of(*parts: object) -> str:
    """Build a JSON pointer from keys and indices."""
    return "".join("/" + escape(str(p)) for p in parts)


def display_path(path: Path) -> str:
    """A path as a person would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


class _Abort(Exception):
    """Stops loading at the first problem that makes the rest meaningless."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _span(file: str, start: Any, end: Any | None = None) -> Span:
    if end is None:
        return Span(file, start.line + 1, start.column + 1)
    return Span(file, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


class _TooDeep(Exception):
    """Raised by the composer at :data:`MAX_DEPTH`; carries the YAML mark of the deepest opening."""

    def __init__(self, mark: Any) -> None:
        super().__init__("too deep")
        self.mark = mark


@functools.cache
def _loader() -> Any:
    """The YAML loader class, made on first use: PyYAML is imported only when a file is
    composed (a file composed in an earlier run comes from :mod:`couillon_dsl.loader_cache`)."""
    import yaml
    from yaml.composer import ComposerError
    from yaml.events import AliasEvent, MappingStartEvent, ScalarEvent, SequenceStartEvent, StreamEndEvent
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    # libyaml's parser when PyYAML was built with it (ten times faster), else the pure-Python one;
    # either way only events are used, composed below, never constructed into objects.
    safe_base: Any = yaml.CSafeLoader if getattr(yaml, "__with_libyaml__", False) else yaml.SafeLoader

    class Loader(safe_base):
        """A safe loader whose composer uses an explicit stack and caps nesting depth.

        PyYAML's composer recurses once per nesting level, so 20,000 ``[`` overflow the
        Python stack; this one stops at :data:`MAX_DEPTH` instead.
        """

        def get_single_node(self) -> Node | None:
            """PyYAML's, but composing with the iterative :meth:`compose_node` below; one document only."""
            self.get_event()  # stream start
            node = None
            if not self.check_event(StreamEndEvent):
                self.get_event()  # document start
                self.anchors: dict[str, Node] = {}
                node = self.compose_node(None, None)
                self.get_event()  # document end
            if not self.check_event(StreamEndEvent):
                event = self.get_event()
                raise ComposerError("expected a single document in the stream", None,
                                    "but found another document", event.start_mark)
            self.get_event()
            return node

        def compose_node(self, parent: Node | None, index: Any) -> Node:
            """The node starting at the next event, built with an explicit stack (signature kept from PyYAML)."""
            stack: list[tuple[Node, list[Node | None]]] = []  # open collection, pending mapping key

            def attach(node: Node) -> None:
                container, pending = stack[-1]
                if isinstance(container, SequenceNode):
                    container.value.append(node)
                elif pending[0] is None:
                    pending[0] = node
                else:
                    container.value.append((pending[0], node))
                    pending[0] = None

            while True:
                event = self.get_event()
                start: Any = event.start_mark  # libyaml's Mark or PyYAML's: the same fields
                if isinstance(event, AliasEvent):
                    if event.anchor not in self.anchors:
                        raise ComposerError(None, None, f"found undefined alias {event.anchor!r}", start)
                    node: Node = self.anchors[event.anchor]
                elif isinstance(event, (ScalarEvent, SequenceStartEvent, MappingStartEvent)):
                    anchor = event.anchor
                    if anchor is not None and anchor in self.anchors:
                        raise ComposerError(
                            f"found duplicate anchor {anchor!r}; first occurrence",
                            self.anchors[anchor].start_mark,
                            "second occurrence",
                            start,
                        )
                    tag = event.tag
                    if isinstance(event, ScalarEvent):
                        if tag is None or tag == "!":
                            tag = self.resolve(ScalarNode, event.value, event.implicit)
                        end: Any = event.end_mark
                        node = ScalarNode(tag, event.value, start, end, style=event.style)
                    else:
                        kind = SequenceNode if isinstance(event, SequenceStartEvent) else MappingNode
                        if tag is None or tag == "!":
                            tag = self.resolve(kind, None, event.implicit)
                        node = kind(tag, [], start, None, flow_style=event.flow_style)
                    if anchor is not None:
                        self.anchors[anchor] = node
                    if not isinstance(event, ScalarEvent):
                        if stack:
                            attach(node)
                        stack.append((node, [None]))
                        if len(stack) > MAX_DEPTH:
                            raise _TooDeep(event.start_mark)
                        continue
                else:  # end of a sequence or mapping
                    node, _ = stack.pop()
                    node.end_mark = event.end_mark
                    if not stack:
                        return node
                    continue
                if not stack:
                    return node
                attach(node)

    return Loader


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_YAML):] if tag.startswith(_YAML) else tag


def _content_span(file: str, node: ScalarNode, lines: list[str]) -> Span | None:
    """Where the first character of a scalar's text is, when it can be known exactly."""
    start, end = node.start_mark, node.end_mark
    plain = not node.style  # None from PyYAML's parser, "" from libyaml's
    if plain and start.line == end.line:
        return None  # the value span already starts at the text
    if node.style in ("'", '"') and start.line == end.line:
        return Span(file, start.line + 1, start.column + 2)
    if plain:  # a plain scalar over several lines: folded like `>`
        return _text_span(file, node.value, lines, (start.line, start.column), (end.line, end.column))
    if node.style in ("|", ">"):
        return _text_span(file, node.value, lines, (start.line + 1, 0), (end.line, None))
    return None


def _text_span(file: str, text: str, lines: list[str], first: tuple[int, int],
               last: tuple[int, int | None]) -> TextSpan | None:
    """Where each source line from ``first`` to ``last`` (0-based line, column) starts in ``text``.

    Each line's words are found in the text in order, which follows folding, chomping and
    indentation without re-implementing them; a line not found ends the map there.
    """
    pieces: list[tuple[int, int, int, int]] = []
    cursor = 0
    for number in range(first[0], min(last[0] + 1, len(lines))):
        begin = first[1] if number == first[0] else 0
        source = lines[number][begin:last[1] if number == last[0] and last[1] is not None else None]
        words = source.strip()
        if not words:
            continue
        offset = text.find(words, cursor)
        if offset < 0:
            break
        line_start = text.rfind("\n", 0, offset) + 1
        pieces.append((text.count("\n", 0, offset) + 1, offset - line_start + 1,
                       number + 1, begin + len(source) - len(source.lstrip()) + 1))
        cursor = offset + len(words)
    if not pieces:
        return None
    return TextSpan(file, pieces[0][2], pieces[0][3], pieces=tuple(pieces))


class _Survey:
    """Checks a composed node tree once per distinct node, without expanding aliases.

    A node reached through an alias is not walked again: its expanded size and height are
    remembered, so an alias bomb (a billion values in a few lines), an alias loop, a
    duplicate key inside an anchored mapping or an unsafe tag is found in time linear in
    the file, and :class:`_Builder` only ever expands a document known to be small.
    """

    def __init__(self, file: str, what: str) -> None:
        self.file = file
        self.what = what
        self.diagnostics: list[Diagnostic] = []
        self.measured: dict[int, tuple[int, int]] = {}  # node id -> (values once expanded, height)
        self.open: set[int] = set()  # nodes on the current path: meeting one again is an alias loop
        self.aliased = False  # a node reached twice: aliases are in use

    def survey(self, root: Node) -> None:
        """Raise _Abort on a tree too large, too deep or looping; collect the other diagnostics."""
        self._measure(root, "", 0)

    def _measure(self, node: Node, pointer: str, depth: int) -> tuple[int, int]:
        span = _span(self.file, node.start_mark, node.end_mark)
        if depth > MAX_DEPTH:
            raise _Abort(error("too-deep", f"values are nested more than {MAX_DEPTH} levels deep", span, pointer))
        known = self.measured.get(id(node))
        if known is not None or id(node) in self.open:
            self.aliased = True
            if known is None:
                raise _Abort(error("alias-bomb", "aliases expand to an unbounded or enormous document", span, pointer,
                                   "use anchors and aliases sparingly, or write the values out"))
            size, height = known
        else:
            self.open.add(id(node))
            size, height = self._measure_new(node, span, pointer, depth)
            self.open.discard(id(node))
            self.measured[id(node)] = (size, height)
        if depth + height > MAX_DEPTH:
            raise _Abort(error("too-deep", f"values are nested more than {MAX_DEPTH} levels deep", span, pointer))
        return size, height

    def _measure_new(self, node: Node, span: Span, pointer: str, depth: int) -> tuple[int, int]:
        from yaml.nodes import MappingNode, ScalarNode, SequenceNode  # imported by then: composing did

        if node.tag not in _PLAIN_TAGS:
            self.diagnostics.append(error(
                "unsafe-tag",
                f"tag '{_tag_name(node.tag)}' is not allowed; a {self.what} holds only plain YAML values",
                span, pointer, "remove the tag",
            ))
            return 1, 0
        if isinstance(node, ScalarNode):
            return 1, 0
        size, height = 1, 0
        if isinstance(node, SequenceNode):
            children = [(f"{pointer}/{i}", child) for i, child in enumerate(node.value)]
        else:
            assert isinstance(node, MappingNode)
            children = self._keyed_children(node, pointer)
        for child_pointer, child in children:
            child_size, child_height = self._measure(child, child_pointer, depth + 1)
            size += child_size
            height = max(height, child_height + 1)
        if size > MAX_VALUES:  # the smallest value that is too large, where the reader should look
            if self.aliased:
                raise _Abort(error("alias-bomb", f"aliases expand to more than {MAX_VALUES} values", span, pointer,
                                   "use anchors and aliases sparingly, or write the values out"))
            raise _Abort(error("too-large", f"the document holds more than {MAX_VALUES} values", span, pointer))
        return size, height

    def _keyed_children(self, node: MappingNode, pointer: str) -> list[tuple[str, Node]]:
        """A mapping's values under their pointers; non-scalar and duplicate keys become diagnostics."""
        from yaml.nodes import ScalarNode  # imported by then: composing did

        children: list[tuple[str, Node]] = []
        first_keys: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key_span = _span(self.file, key_node.start_mark, key_node.end_mark)
            if not isinstance(key_node, ScalarNode):
                self.diagnostics.append(error(
                    "non-scalar-key", "a mapping key must be a plain name, not a list or mapping",
                    key_span, pointer, "write the key as a single word",
                ))
                continue
            name = key_node.value  # keys are their text: `10: 0` means the rank "10"
            child = f"{pointer}/{escape(name)}"
            if name in first_keys:
                self.diagnostics.append(error(
                    "duplicate-key", f"duplicate key '{name}' (first at line {first_keys[name].start_mark.line + 1})",
                    key_span, child, "YAML would silently keep only the last value; remove one of them",
                ))
                continue
            first_keys[name] = key_node
            children.append((child, value_node))
        return children


class _Builder:
    """Turns a surveyed node tree (no bad keys or tags, bounded once expanded) into plain data and origins."""

    def __init__(self, file: str, text: str) -> None:
        from yaml.constructor import SafeConstructor

        self.file = file
        self.lines = text.splitlines()
        self.origins: dict[str, Origin] = {}
        self.diagnostics: list[Diagnostic] = []
        self.scalars = SafeConstructor()  # reads booleans and numbers as YAML 1.1 does

    def build(self, node: Node, pointer: str, key: Span | None) -> Any:
        """Plain data for ``node``, recording the origin of every value."""
        from yaml.nodes import ScalarNode, SequenceNode  # imported by then: composing did

        span = _span(self.file, node.start_mark, node.end_mark)
        if isinstance(node, ScalarNode):
            self.origins[pointer] = Origin(span, key, _content_span(self.file, node, self.lines))
            return self._scalar(node, span, pointer)
        self.origins[pointer] = Origin(span, key)
        if isinstance(node, SequenceNode):
            return [self.build(child, f"{pointer}/{i}", None) for i, child in enumerate(node.value)]
        result: dict[str, Any] = {}
        for key_node, value_node in node.value:
            name = key_node.value
            result[name] = self.build(value_node, f"{pointer}/{escape(name)}",
                                      _span(self.file, key_node.start_mark, key_node.end_mark))
        return result

    def _scalar(self, node: ScalarNode, span: Span, pointer: str) -> Any:
        tag = node.tag[len(_YAML):]
        try:
            if tag == "null":
                return None
            if tag == "bool":
                return self.scalars.construct_yaml_bool(node)
            if tag == "int":
                return self.scalars.construct_yaml_int(node)
            if tag == "float":
                return self.scalars.construct_yaml_float(node)
        except ValueError as exc:
            self.diagnostics.append(error("bad-value", f"cannot read {node.value[:40]!r} as a number: {exc}", span, pointer))
            return None
        return node.value  # str, and timestamps kept as written


def _read(path: Path, file: str, what: str = "ruleset") -> str:
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise _Abort(error("too-large", f"the file has {size} bytes; the limit is {MAX_BYTES}", Span(file, 1, 1)))
        with path.open("rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _Abort(error("file-not-found", f"cannot read the file: {exc.strerror or exc}", Span(file, 1, 1))) from None
    if len(raw) > MAX_BYTES:
        raise _Abort(error("too-large", f"the file has more than {MAX_BYTES} bytes", Span(file, 1, 1)))
    nul = raw.find(b"\0")
    try:
        if nul >= 0:
            raise UnicodeDecodeError("utf-8", raw, nul, nul + 1, "NUL byte")
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _Abort(error(
            "not-text", f"the file is not UTF-8 text (byte {exc.start}: {exc.reason})", Span(file, line, column),
            hint=f"a {what} is a YAML text file",
        )) from None


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


_NON_PRINTABLE = "[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]"  # compiled when met
_BRACKETS = re.compile(r"[\[\]{}]")


def _check_flow_depth(text: str, file: str, what: str) -> None:
    """Reject deep ``[[[[`` before PyYAML's scanner, whose simple-key bookkeeping is quadratic in it.

    Brackets inside quoted strings count too; no real file comes near the limit.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for match in _BRACKETS.finditer(text):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DEPTH:
            line, column = _position(text, match.start())
            raise RulesetError([error(
                "too-deep", f"values are nested more than {MAX_DEPTH} levels deep", Span(file, line, column),
                hint=f"a {what} needs only a few levels of nesting",
            )])


def parse_text(text: str, file: str, what: str = "ruleset") -> tuple[dict[str, Any], dict[str, Origin]]:
    """Compose YAML text into a plain mapping and origins; raises RulesetError on bad input.

    ``what`` names the kind of file in messages ("ruleset", "scenario").
    """
    import yaml

    _check_flow_depth(text, file, what)
    try:
        node = yaml.compose(text, Loader=_loader())
        if node is None:
            raise _Abort(error("not-a-mapping", f"the file is empty; a {what} is a YAML mapping", Span(file, 1, 1)))
        survey = _Survey(file, what)
        survey.survey(node)
        if survey.diagnostics:
            raise RulesetError(survey.diagnostics)
        builder = _Builder(file, text)
        data = builder.build(node, "", None)
    except _Abort as abort:
        raise RulesetError([abort.diagnostic]) from None
    except _TooDeep as deep:
        raise RulesetError([error(
            "too-deep", f"values are nested more than {MAX_DEPTH} levels deep", _span(file, deep.mark),
            hint=f"a {what} needs only a few levels of nesting",
        )]) from None
    except yaml.reader.ReaderError:
        bad = re.search(_NON_PRINTABLE, text)
        index = bad.start() if bad else 0
        line, column = _position(text, index)
        shown = f"U+{ord(text[index]):04X}" if bad else "a character"
        raise RulesetError([error("not-text", f"{shown} is not allowed in YAML text", Span(file, line, column),
                                  hint=f"a {what} is a YAML text file; remove control characters")]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        message = " ".join(part for part in (exc.context, exc.problem) if part) or "invalid YAML"
        raise RulesetError([error("yaml-syntax", f"YAML syntax error: {message}", where)]) from None
    except yaml.YAMLError as exc:
        raise RulesetError([error("yaml-syntax", f"YAML error: {exc}", Span(file, 1, 1))]) from None
    except RecursionError:  # last resort; the iterative composer should make this unreachable
        raise RulesetError([error("too-deep", "values are nested too deeply", Span(file, 1, 1))]) from None
    if builder.diagnostics:
        raise RulesetError(builder.diagnostics)
    if not isinstance(data, dict):
        kind = "a list" if isinstance(data, list) else "a single value"
        raise RulesetError([error("not-a-mapping", f"the top level is {kind}; a {what} is a YAML mapping (key: value lines)", builder.origins[""].span)])
    return data, builder.origins


def load_yaml(path: Path, what: str) -> tuple[dict[str, Any], dict[str, Origin]]:
    """Read one YAML file whose top level is a mapping, through the same limits as a ruleset.

    Every YAML file the project reads goes through here or :func:`load_ruleset`: size,
    nesting, alias and tag limits, duplicate keys found without expanding aliases.
    Raises RulesetError with positioned diagnostics. A ruleset file composed in an earlier
    run comes from :mod:`couillon_dsl.loader_cache` (PyYAML is then not even imported).
    """
    file = display_path(path)
    try:
        text = _read(path, file, what)
    except _Abort as abort:
        raise RulesetError([abort.diagnostic]) from None
    if what != "ruleset":
        return parse_text(text, file, what)
    found = loader_cache.cached(text, file)
    if found is None:
        found = parse_text(text, file, what)
        loader_cache.remember(text, file, *found)
    return found


def _drop(origins: dict[str, Origin], pointer: str) -> None:
    prefix = pointer + "/"
    for key in [k for k in origins if k == pointer or k.startswith(prefix)]:
        del origins[key]


def _strip_nulls(value: Any, pointer: str, origins: dict[str, Origin], deleted: dict[str, Span]) -> Any:
    """RFC 7386 applies a mapping patch to {} when it replaces a non-mapping: nulls vanish."""
    if not isinstance(value, dict):
        return value
    kept = {}
    for key, item in value.items():
        child = f"{pointer}/{escape(key)}"
        if item is None:
            deleted[child] = origins[child].span
            _drop(origins, child)
        else:
            kept[key] = _strip_nulls(item, child, origins, deleted)
    return kept


def merged(target: Any, patch: Any) -> Any:
    """RFC 7386 on plain data, returning a new value (option patches, applied after loading)."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merged(result.get(key), value)
    return result


def merge_patch(
    target: dict[str, Any],
    origins: dict[str, Origin],
    patch: dict[str, Any],
    patch_origins: dict[str, Origin],
    deleted: dict[str, Span],
    pointer: str = "",
) -> None:
    """Apply ``patch`` to ``target`` in place (RFC 7386), moving origins along with values.

    ``deleted`` records where each `null` removed a key, so a later "missing key" error
    can say why the key is gone.
    """
    for key, value in patch.items():
        child = f"{pointer}/{escape(key)}"
        if value is None:
            target.pop(key, None)
            _drop(origins, child)
            deleted[child] = patch_origins[child].span
        elif isinstance(value, dict) and isinstance(target.get(key), dict):
            merge_patch(target[key], origins, value, patch_origins, deleted, child)
            origins[child] = patch_origins[child]
        else:
            _drop(origins, child)
            prefix = child + "/"
            origins.update({k: o for k, o in patch_origins.items() if k == child or k.startswith(prefix)})
            target[key] = _strip_nulls(value, child, origins, deleted)


def _load(path: Path, chain: tuple[Path, ...], text: str | None = None) -> Document:
    data, origins = load_yaml(path, "ruleset") if text is None else parse_text(text, path.name, "ruleset")
    if "extends" not in data:
        return Document(data, path, origins, (path,))
    parent_name = data.pop("extends")
    where = origins["/extends"].span
    _drop(origins, "/extends")
    if not isinstance(parent_name, str) or not parent_name.strip():
        raise RulesetError([error(
            "extends-invalid", "extends: must name a built-in ruleset or a file relative to this one",
            where, "/extends", f"built-in rulesets: {', '.join(builtin_names())}",
        )])
    missing = [k for k in ("id", "name") if k not in data]
    if missing:
        raise RulesetError([error(
            "extends-needs-id", f"a ruleset that extends another must state its own {' and '.join(missing)}",
            where, "/extends", "add `id:` and `name:` so the variant is not mistaken for its parent",
        )])
    parent = _parent_path(parent_name, path)
    if parent is None:
        raise RulesetError([error(
            "extends-not-found", f"no built-in ruleset or file '{parent_name}'", where, "/extends",
            did_you_mean(parent_name, builtin_names()) or "name a built-in ruleset or a path relative to this file",
        )])
    if parent.resolve() in chain:
        cycle = " -> ".join(display_path(p) for p in (*chain, parent.resolve()))
        raise RulesetError([error("extends-cycle", f"extends: forms a cycle: {cycle}", where, "/extends")])
    if len(chain) >= MAX_EXTENDS:
        raise RulesetError([error("too-deep", f"more than {MAX_EXTENDS} rulesets extend one another", where, "/extends")])
    base = _load(parent, (*chain, parent.resolve()))
    merged, merged_origins, deleted = base.data, dict(base.origins), dict(base.deleted)
    merge_patch(merged, merged_origins, data, origins, deleted)
    merged_origins[""] = origins[""]
    return Document(merged, path, merged_origins, (path, *base.files), deleted)


def _parent_path(name: str, child: Path) -> Path | None:
    """A file next to the child wins over a built-in of the same name."""
    candidate = child.parent / name
    if is_file(candidate):
        return candidate
    return find_builtin(name)


def load_ruleset(path_or_name: str | Path) -> Document:
    """Load a ruleset file or built-in by name, with ``extends:`` applied.

    Raises RulesetError with diagnostics for a missing file, bad YAML, limits or extends.
    """
    path = resolve_ruleset(path_or_name)
    if path is None:
        raise RulesetError([error(
            "file-not-found", f"no ruleset file or built-in ruleset named '{path_or_name}'",
            hint=did_you_mean(path_or_name, builtin_names()) or f"built-in rulesets: {', '.join(builtin_names())}",
        )])
    return _load(path, (path.resolve(),))


def load_ruleset_text(text: str, path: Path) -> Document:
    """A ruleset given as text (`couillon validate -`), read as if it were the file ``path``:
    messages name ``path.name`` and a relative `extends:` starts from its folder."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise RulesetError([error("too-large", f"the text has more than {MAX_BYTES} bytes", Span(path.name, 1, 1))])
    return _load(path, (path.resolve(),), text)
